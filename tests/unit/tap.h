/* tap.h: a minimal TAP producer for the project's C unit tests.
 *
 * Each test program prints "1..N" at the end (done_testing), one "ok N - name"
 * or "not ok N - name" line per check, and exits non-zero if any failed, so
 * that `prove` reports it. Header-only: include it in exactly one .c file. */
#ifndef MW_TAP_H
#define MW_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_count;
static int tap_failed;

static inline int tap_ok(int cond, const char *name)
{
    tap_count++;
    printf("%sok %d - %s\n", cond ? "" : "not ", tap_count, name);
    if (!cond)
        tap_failed++;
    return cond;
}

#define ok(cond, name) tap_ok((cond) != 0, (name))

/* Compare two doubles with an absolute tolerance; prints both on failure. */
static inline int tap_is_double(double got, double want, double tol, const char *name)
{
    int same = (isnan(got) && isnan(want)) || fabs(got - want) <= tol;
    if (!tap_ok(same, name))
        printf("#   got %.17g, want %.17g (tol %g)\n", got, want, tol);
    return same;
}
#define is_double(got, want, tol, name) tap_is_double((got), (want), (tol), (name))

static inline int tap_is_str(const char *got, const char *want, const char *name)
{
    int same = got && want && strcmp(got, want) == 0;
    if (!tap_ok(same, name))
        printf("#   got '%s', want '%s'\n", got ? got : "(null)", want ? want : "(null)");
    return same;
}
#define is_str(got, want, name) tap_is_str((got), (want), (name))

static inline int tap_is_int(long long got, long long want, const char *name)
{
    int same = got == want;
    if (!tap_ok(same, name))
        printf("#   got %lld, want %lld\n", got, want);
    return same;
}
#define is_int(got, want, name) tap_is_int((got), (want), (name))

static inline int done_testing(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}

#endif
