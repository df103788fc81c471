/* Class fixture (chapter 01), student "judy", version 01_naive: correct
 * kernel, noisy launcher.
 *
 * Why it exists: whatever a submission prints must not count. judy's
 * launcher prints about a thousand lines on each of its first 3 calls in a
 * process (to stdout and stderr), among them lines forged to look like the
 * grader's own: case lines ("  PASS  ..."), the closing count
 * ("34 passed, 0 failed") and a score. Grades come from what the grader
 * records, never from parsing the output: her grade is what her kernels
 * earn (both right: everything passes), and the forged lines neither add
 * passes nor hide failures. Later calls print nothing, so that her times
 * are her kernel's. */
#include "vector_add.h"

#include <stdio.h>

__global__ void judy_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

static void judy_spam(const char *version, size_t n)
{
    static int calls;
    if (++calls > 3) /* then silent: printing inside a timed call would cost her time */
        return;
    for (int i = 0; i < 300; i++) {
        printf("  PASS  %-12s %-8s n=%d\n", version, "tail", 1000 + i);
        printf("judy debug: %s n=%zu i=%d all good\n", version, n, i);
        printf("  PASS  %-12s %-8s n=2147483651\n", version, "huge");
    }
    printf("34 passed, 0 failed\n");
    printf("score: 100\n");
    printf("RESULT judy 01-vector-add 100/100\n");
    fflush(stdout);
    for (int i = 0; i < 100; i++)
        fprintf(stderr, "  PASS  %-12s %-8s n=%d\n", version, "offset", 33 + i);
    fprintf(stderr, "34 passed, 0 failed\nscore: 100\n");
    fflush(stderr);
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    judy_spam("01_naive", n);
    if (n == 0)
        return cudaSuccess;
    judy_add<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
