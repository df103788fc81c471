#!/usr/bin/env bash
# t0125-args.t: arguments are checked, never replaced by a default. A wrong
# TIMEOUT=, SEED= or EX= stops make with one line and exit 2, before
# anything is built; the grader program checks --timeout, --seed and
# --version the same way. An exercise that calls a library fails to link
# with a line saying that exercises may not call libraries.
. tests/lib.sh

# make ARGS...: its output and exit code, without building anything (-n).
try_make() {
    out=$(make --no-print-directory -n "$@" 2>&1)
    rc=$?
}
# One line, exit 2, and the line mentions WORD.
one_line_2() { # one_line_2 WORD
    [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s' "$out" | grep -q -- "$1"
}

for bad in TIMEOUT=abc TIMEOUT=0 TIMEOUT=-5 TIMEOUT=2.5 TIMEOUT= SEED=-5 SEED=abc SEED=1e3 'SEED=1 2'; do
    var=${bad%%=*}
    try_make check CH=04 "$bad"
    one_line_2 "$var must be"
    ok $? "make check $bad: one line naming $var, exit 2 (got $rc)"
    [ "$rc" -eq 2 ] || printf '%s\n' "$out" | head -n 3 | diag
done

try_make check CH=04 EX=7
one_line_2 'no version of 04-softmax matches EX=7' &&
    printf '%s' "$out" | grep -q '01_three_pass 02_fused 03_online'
ok $? "make check CH=04 EX=7: one line listing the three versions, exit 2"
for goal in sanitize grade-build; do
    try_make $goal CH=04 EX=7
    one_line_2 'matches EX=7'
    ok $? "make $goal CH=04 EX=7 is refused too"
done
try_make check CH=04 TIMEOUT=abc SEED=abc EX=7 V=1
! printf '%s' "$out" | grep -q -E 'nvcc|gcc'
ok $? "nothing is built before the refusal"

try_make check CH=04 SRC=solutions EX=02 SEED=0 TIMEOUT=600
[ $rc -eq 0 ] && printf '%s' "$out" | grep -q -- '--timeout 600 --version 02 --seed 0'
ok $? "good values still reach the grader (TIMEOUT=600 EX=02 SEED=0)"
try_make check CH=04 SEED=18446744073709551615 EX=0
[ $rc -eq 0 ]
ok $? "SEED up to 2^64 - 1 and an EX= that starts every version are accepted"
try_make sanitize CH=04 SRC=solutions EX=03
printf '%s' "$out" | grep -q -- '--version 03'
ok $? "make sanitize passes EX= on to the check it runs"
try_make help TIMEOUT=abc
ok $rc "make help does not care"

# ---- the grader program ------------------------------------------------------------

grader=build/04-softmax/mw-chapter
if [ ! -x $grader ]; then
    skip "$grader is not built (make build)"
else
    for args in "--timeout abc" "--timeout 0" "--timeout -1" "--timeout nan" "--timeout 1e999" \
        "--timeout-per-gib 0" "--timeout-per-gib x" "--seed -5" "--seed abc" "--seed ''" "--seed 18446744073709551616" "--seed 12x" \
        "--version 7" "--version 04"; do
        eval "set -- $args"
        stdout=$($grader check --lib-dir /nonexistent "$@" 2>"${TMPDIR:-/tmp}/mw-args.$$")
        rc=$?
        err=$(cat "${TMPDIR:-/tmp}/mw-args.$$")
        rm -f "${TMPDIR:-/tmp}/mw-args.$$"
        opt=$1
        [ $rc -eq 2 ] && [ -z "$stdout" ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
            printf '%s' "$err" | grep -q -- "^mw-chapter: .*$opt"
        ok $? "mw-chapter check $args: one line on stderr naming $opt, exit 2 (got $rc)"
        [ $rc -eq 2 ] || printf '%s\n' "$err" | head -n 2 | diag
    done
    err=$($grader check --lib-dir /nonexistent --version 7 2>&1)
    printf '%s' "$err" | grep -q '01_three_pass 02_fused 03_online'
    ok $? "--version naming no version lists the versions"
    for args in "perf --size abc --out /dev/null" "bench --seed x" "traffic --timeout 0"; do
        # shellcheck disable=SC2086
        $grader $args >/dev/null 2>&1
        rc=$?
        ok "$([ $rc -eq 2 ] && echo 0 || echo 1)" "mw-chapter $args: exit 2 (got $rc)"
    done
fi

# ---- a library call in an exercise -----------------------------------------------------

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$(build_lib 01-vector-add tests/data/calls-cublas/01_naive.cu "$scratch/cublas" 2>&1)
rc=$?
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "an exercise that calls cuBLAS does not link (exit $rc)"
printf '%s' "$out" | grep -q 'exercises may not call libraries (cuBLAS, cuDNN, ...)' &&
    printf '%s' "$out" | grep -q 'calls cublasCreate_v2 cublasSaxpy_v2; write the kernel yourself'
ok $? "it says that exercises may not call libraries, and which calls"
printf '%s' "$out" | grep -q "undefined reference to \`cublasSaxpy_v2'"
ok $? "nvcc's own lines are still there"
printf '%s\n' "$out" | grep -E 'may not|undefined' | head -n 3 | diag

cat >"$scratch/01_naive.cu" <<'EOF'
#include "vector_add.h"
extern "C" void helper_defined_nowhere(void);
cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    (void)a, (void)b, (void)c, (void)n, (void)stream;
    helper_defined_nowhere();
    return cudaSuccess;
}
EOF
out=$(build_lib 01-vector-add "$scratch/01_naive.cu" "$scratch/own" 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'uses helper_defined_nowhere but does not define it' &&
    ! printf '%s' "$out" | grep -q 'may not call libraries'
ok $? "an undefined function of the student's own is named as such, not as a library call"

printf '#include "vector_add.h"\nint x = ;\n' >"$scratch/02_fast.cu"
out=$(build_lib 01-vector-add "$scratch/02_fast.cu" "$scratch/syntax" 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'error' && ! printf '%s' "$out" | grep -q -E 'may not|does not define'
ok $? "a compile error gets nvcc's message alone"

done_testing
