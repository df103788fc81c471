__device__ float add(float a, float b)
{
    float c;
    asm("add.f32 %0, %1, %2;" : "=f"(c) : "f"(a), "f"(b));
    return c;
}
