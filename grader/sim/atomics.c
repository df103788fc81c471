/* atomics.c: CUDA's atomic functions, out of line so that the
 * instrumentation never sees them: checks.c treats each as an atomic access
 * (bounds and alignment checked, never a race). Threads run one at a time,
 * so a read-modify-write needs no machine atomics. */
#include "core.h"

#define RA __builtin_return_address(0)

#define BINOP(NAME, SUF, T, EXPR)                                                                  \
    T mw_sim_atomic_##NAME##_##SUF(T *p, T v);                                                     \
    T mw_sim_atomic_##NAME##_##SUF(T *p, T v)                                                      \
    {                                                                                              \
        mw_sim_check_atomic(p, sizeof *p, RA);                                                     \
        T old = *p;                                                                                \
        *p = (EXPR);                                                                               \
        return old;                                                                                \
    }

#define INTEGER(SUF, T)                                                                            \
    BINOP(add, SUF, T, (T)(old + v))                                                               \
    BINOP(sub, SUF, T, (T)(old - v))                                                               \
    BINOP(exch, SUF, T, v)                                                                         \
    BINOP(min, SUF, T, v < old ? v : old)                                                          \
    BINOP(max, SUF, T, v > old ? v : old)                                                          \
    BINOP(and, SUF, T, old &v)                                                                     \
    BINOP(or, SUF, T, old | v)                                                                     \
    BINOP(xor, SUF, T, old ^ v)                                                                    \
    T mw_sim_atomic_cas_##SUF(T *p, T compare, T v);                                               \
    T mw_sim_atomic_cas_##SUF(T *p, T compare, T v)                                                \
    {                                                                                              \
        mw_sim_check_atomic(p, sizeof *p, RA);                                                     \
        T old = *p;                                                                                \
        if (old == compare)                                                                        \
            *p = v;                                                                                \
        return old;                                                                                \
    }

INTEGER(i32, int)
INTEGER(u32, unsigned)
INTEGER(i64, long long)
INTEGER(u64, unsigned long long)

BINOP(inc, u32, unsigned, old >= v ? 0u : old + 1u)
BINOP(dec, u32, unsigned, (old == 0u || old > v) ? v : old - 1u)
BINOP(add, f32, float, old + v)
BINOP(add, f64, double, old + v)
BINOP(exch, f32, float, v)
