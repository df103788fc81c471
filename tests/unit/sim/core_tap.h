/* core_tap.h: TAP output and launch helpers for the core's unit tests
 * (tests/unit/sim/core_*.cpp), which launch kernels through
 * mw_sim::launcher directly, as the rewriter's output does. */
#ifndef CORE_TAP_H
#define CORE_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "standin.h"

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 3))) static int ok(int pass, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", pass ? "ok" : "not ok", ++tap_count);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!pass)
        tap_failed++;
    return pass;
}

static int done_testing(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed != 0;
}

/* KERNEL<<<G, B, S>>>(ARGS) as the rewriter writes it. */
#define LAUNCH(K, G, B, S, ...)                                                                    \
    ::mw_sim::launcher(__FILE__, __LINE__, #K, G, B, S).go(K, __VA_ARGS__)

/* `__shared__ T NAME DIMS;` as the rewriter writes it. */
#define SHARED(T, NAME, DIMS)                                                                      \
    struct mw_sim_sh_##NAME {                                                                      \
        T NAME DIMS;                                                                               \
    };                                                                                             \
    static char mw_sim_key_##NAME;                                                                 \
    auto &NAME = static_cast<mw_sim_sh_##NAME *>(                                                  \
                     ::mw_sim::shared_static<decltype(mw_sim_sh_##NAME::NAME)>(                   \
                         &mw_sim_key_##NAME, sizeof(mw_sim_sh_##NAME), alignof(mw_sim_sh_##NAME),  \
                         #NAME, __FILE__, __LINE__))                                               \
                     ->NAME

/* A device buffer of n T, filled with 0xFF bytes as cudaMalloc's are. */
template <class T> static T *dev(size_t n)
{
    return static_cast<T *>(standin_malloc(n * sizeof(T)));
}

/* Whether the last launch stopped with err and a detail line holding every
 * one of the NULL-terminated strings; says what it got when not. */
static int fault_is(int err, ...)
{
    cudaError_t got = standin_take_error();
    const char *detail = mw_sim_error_detail();
    int pass = (int)got == err && detail;
    va_list ap;
    va_start(ap, err);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        if (!detail || !strstr(detail, s)) {
            printf("# missing '%s'\n", s);
            pass = 0;
        }
    va_end(ap);
    if (!pass)
        printf("# error %d (wanted %d): %s\n", (int)got, err, detail ? detail : "(none)");
    else
        printf("# %s\n", detail);
    standin_reset();
    return pass;
}

#endif
