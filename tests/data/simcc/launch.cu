// Launches: templates, namespaces, 2 to 4 configuration arguments, one
// split over lines, nested parentheses, and what only looks like one.
__global__ void k(float *x, int n) {}
template <typename T, int N> __global__ void kt(T *x) {}
namespace ns {
__global__ void kn() {}
}

void host(float *x, int n, cudaStream_t s)
{
    k<<<1, 32>>>(x, n);
    kt<float, 4><<<dim3(2, 2), dim3(8, 8), 0, s>>>(x);
    ns::kn<<<1, 1, 0>>>();
    k<<<(n + 255) / 256,
        256, 0, s>>>(x, /* the buffer */
                     max(min(n, 4), (n)));  // nested parentheses
    int a = 1, b = 2, c = 3;
    bool lt = a < b >> c; /* not a launch */
    const char *text = "k<<<1, 1>>>(x); __shared__ float f; asm(\"bad.op;\");";
    // k<<<1, 1>>>(x); __shared__ float g; asm("bad.op;");
    /* k<<<1, 1>>>(x); __shared__ float h; asm("bad.op;"); */
    const char *raw = R"tag(k<<<1, 1>>>(x); ")" __shared__ float i;)tag";
    std::vector<std::vector<int>> nested;
    k<<<1, 32>>>(x, n); kt<float, 2><<<2, 64>>>(x);
    const char quote = '"', lt2 = '<';
    k<<<1, 32>>>(x, quote < lt2);
}
