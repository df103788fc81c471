/* test_cublas_lazy.c: the chapter programs' cuBLAS, loaded on first use
 * (grader/cublas_lazy.c). On any machine with the toolkit: the forwarders
 * reach the real library (a status name only cuBLAS knows comes back, and
 * cublasCreate answers as cuBLAS does, with or without a GPU), and the
 * program that links them does not load cuBLAS before the first call. */
#define _GNU_SOURCE
#include "tap.h"

#include <cublas_v2.h>
#include <link.h>
#include <string.h>

/* Is a library whose name contains `part` loaded in this process? */
static int found;
static int look(struct dl_phdr_info *info, size_t size, void *part)
{
    (void)size;
    if (info->dlpi_name && strstr(info->dlpi_name, (const char *)part))
        found = 1;
    return 0;
}
static int loaded(const char *part)
{
    found = 0;
    dl_iterate_phdr(look, (void *)part);
    return found;
}

int main(void)
{
    ok(!loaded("libcublas"), "cuBLAS is not loaded at start");
    const char *name = cublasGetStatusName(CUBLAS_STATUS_ARCH_MISMATCH);
    is_str(name, "CUBLAS_STATUS_ARCH_MISMATCH", "a status name comes from cuBLAS itself");
    ok(loaded("libcublas"), "cuBLAS is loaded by the first call");
    cublasHandle_t h = NULL;
    cublasStatus_t st = cublasCreate(&h);
    /* With a GPU a handle; without one, cuBLAS's own refusal. */
    ok(st == CUBLAS_STATUS_SUCCESS || st == CUBLAS_STATUS_NOT_INITIALIZED,
       "cublasCreate reaches cuBLAS (a handle, or cuBLAS's own refusal without a GPU)");
    if (st == CUBLAS_STATUS_SUCCESS)
        ok(cublasDestroy(h) == CUBLAS_STATUS_SUCCESS, "and cublasDestroy too");
    done_testing();
}
