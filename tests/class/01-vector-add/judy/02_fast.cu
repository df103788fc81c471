/* Class fixture (chapter 01), student "judy", version 02_fast: correct
 * kernel, noisy launcher.
 *
 * Why it exists: see 01_naive.cu: output a submission prints, including
 * forged grader lines ("  PASS  ...", "34 passed, 0 failed", "score: 100"),
 * must be ignored; this version passes on its merits. The kernel is a
 * coalesced scalar grid-stride loop on a full grid, correct for any n and
 * any alignment. */
#include "vector_add.h"

#include <stdio.h>

__global__ void judy_add_strided(const float *a, const float *b, float *c, size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

static void judy_spam(size_t n)
{
    static int calls;
    if (++calls > 3) /* then silent: printing inside a timed call would cost her time */
        return;
    for (int i = 0; i < 400; i++) {
        printf("  PASS  02_fast      offset   n=%d (views offset by 1,2,3 floats)\n", 4099 + i);
        printf("GPU: NVIDIA H100 80GB HBM3\n");
    }
    printf("hint: none needed\n");
    printf("34 passed, 0 failed\n");
    printf("score: 100\n");
    fflush(stdout);
    fprintf(stderr, "34 passed, 0 failed\n");
    fflush(stderr);
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    judy_spam(n);
    if (n == 0)
        return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    if (blocks > 65536)
        blocks = 65536; /* 16M threads; the loop does the rest */
    judy_add_strided<<<(unsigned)blocks, 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
