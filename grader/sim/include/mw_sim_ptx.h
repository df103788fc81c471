/* mw_sim_ptx.h: inline PTX in the emulation. mw-simcc rewrites
 *
 *   asm volatile("tmpl" : "=r"(x), "+f"(c) : "r"(y), "l"(p));
 *
 * into
 *
 *   ::mw_sim_asm("tmpl", __FILE__, __LINE__,
 *                {::mw_sim_asm_out("=r", x), ::mw_sim_asm_out("+f", c)},
 *                {::mw_sim_asm_in("r", y), ::mw_sim_asm_in("l", p)});
 *
 * and ptx.c runs the template on the operands: %0... number the outputs,
 * then the inputs, as in GCC's and nvcc's inline asm. The operand type and
 * mw_sim_ptx_run are C (ptx.c includes this header); the rest is C++, for
 * the kernel side (mw_sim_kernel.h includes it). */
#ifndef MW_SIM_PTX_H
#define MW_SIM_PTX_H

#include <stddef.h>
#include <stdint.h>

typedef struct mw_sim_asm_operand {
    const char *constraint; /* as written: "=r", "+f", "r", "l", "n", "f" */
    void *out;              /* an output's variable; NULL for an input */
    uint64_t bits;          /* an input's value, or a "+" output's before the
                             * instruction: the value's bytes, integers
                             * extended to 64 bits by their signedness */
    unsigned char size;     /* the variable's bytes */
    unsigned char is_float; /* float or double */
} mw_sim_asm_operand;

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the template's instructions (ptx.c) on the operands, %0 the first
 * output, %n_out the first input. The copies' accesses are reported to the
 * checks at the caller's address, the kernel code's own (mw_sim_asm is
 * always inlined). A template with an instruction the emulation does not
 * run is a fault naming it. */
void mw_sim_ptx_run(const char *tmpl, const char *file, int line, const mw_sim_asm_operand *outs,
                    size_t n_out, const mw_sim_asm_operand *ins, size_t n_in);

#ifdef __cplusplus
}

#include <cstring>
#include <initializer_list>
#include <type_traits>

template <typename T> inline mw_sim_asm_operand mw_sim_asm_value(const char *constraint, const T &x)
{
    static_assert(std::is_arithmetic<T>::value || std::is_pointer<T>::value ||
                      std::is_enum<T>::value,
                  "an inline asm operand must be a number or a pointer");
    mw_sim_asm_operand op = {constraint, nullptr, 0, (unsigned char)sizeof(T),
                             (unsigned char)std::is_floating_point<T>::value};
    if constexpr (std::is_pointer<T>::value)
        op.bits = (uint64_t)(uintptr_t)x;
    else if constexpr (std::is_floating_point<T>::value)
        std::memcpy(&op.bits, &x, sizeof x);
    else if constexpr (std::is_signed<T>::value)
        op.bits = (uint64_t)(int64_t)x;
    else
        op.bits = (uint64_t)x;
    return op;
}

/* An output: "=c" written by the instruction, "+c" also read first. */
template <typename T> inline mw_sim_asm_operand mw_sim_asm_out(const char *constraint, T &x)
{
    mw_sim_asm_operand op;
    if (constraint[0] == '+')
        op = mw_sim_asm_value(constraint, x);
    else
        op = {constraint, nullptr, 0, (unsigned char)sizeof(T),
              (unsigned char)std::is_floating_point<T>::value};
    op.out = (void *)&x;
    return op;
}

template <typename T> inline mw_sim_asm_operand mw_sim_asm_in(const char *constraint, T x)
{
    return mw_sim_asm_value(constraint, x);
}

/* Always inlined, so that the address ptx.c reports is the kernel's own. */
__attribute__((always_inline)) inline void
mw_sim_asm(const char *tmpl, const char *file, int line,
           std::initializer_list<mw_sim_asm_operand> outs,
           std::initializer_list<mw_sim_asm_operand> ins)
{
    mw_sim_ptx_run(tmpl, file, line, outs.begin(), outs.size(), ins.begin(), ins.size());
}

#endif

#endif
