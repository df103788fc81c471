#line 1 "tests/data/simcc/launch.cu"
// Launches: templates, namespaces, 2 to 4 configuration arguments, one
// split over lines, nested parentheses, and what only looks like one.
__global__ void k(float *x, int n) {}
template <typename T, int N> __global__ void kt(T *x) {}
namespace ns {
__global__ void kn() {}
}

void host(float *x, int n, cudaStream_t s)
{
    ::mw_sim::launcher(__FILE__, __LINE__, "k", 1, 32).go(k, x, n);
    ::mw_sim::launcher(__FILE__, __LINE__, "kt<float, 4>", dim3(2, 2), dim3(8, 8), 0, s).go(kt<float, 4>, x);
    ::mw_sim::launcher(__FILE__, __LINE__, "ns::kn", 1, 1, 0).go(ns::kn);
    ::mw_sim::launcher(__FILE__, __LINE__, "k", (n + 255) / 256, 256, 0, s).go(k, x, max(min(n, 4), (n)))

;  // nested parentheses
    int a = 1, b = 2, c = 3;
    bool lt = a < b >> c; /* not a launch */
    const char *text = "k<<<1, 1>>>(x); __shared__ float f; asm(\"bad.op;\");";
    // k<<<1, 1>>>(x); __shared__ float g; asm("bad.op;");
    /* k<<<1, 1>>>(x); __shared__ float h; asm("bad.op;"); */
    const char *raw = R"tag(k<<<1, 1>>>(x); ")" __shared__ float i;)tag";
    std::vector<std::vector<int>> nested;
    ::mw_sim::launcher(__FILE__, __LINE__, "k", 1, 32).go(k, x, n); ::mw_sim::launcher(__FILE__, __LINE__, "kt<float, 2>", 2, 64).go(kt<float, 2>, x);
    const char quote = '"', lt2 = '<';
    ::mw_sim::launcher(__FILE__, __LINE__, "k", 1, 32).go(k, x, quote < lt2);
}
