#!/usr/bin/env bash
# The make interface: help, chapter names, errors a user can act on.
. tests/lib.sh

out=$(make --no-print-directory help 2>&1)
ok $? "make help succeeds"
for word in check bench traffic plot sanitize roofs test clean 'CH=' 'SRC=' 'EX=' 'SEED=' 'TIMEOUT=' 'V=1'; do
    printf '%s' "$out" | grep -q -- "$word"
    ok $? "make help mentions $word"
done

for name in 01 1 01-vector-add vector-add; do
    out=$(make --no-print-directory -n check CH=$name SIM=0 2>&1)
    printf '%s' "$out" | grep -q -- '--lib-dir build/exercises/01-vector-add'
    ok $? "CH=$name names chapter 01-vector-add"
done

out=$(make --no-print-directory -n check CH=nope 2>&1)
rc=$?
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "an unknown chapter fails"
printf '%s' "$out" | grep -q 'unknown chapter' && printf '%s' "$out" | grep -q '01-vector-add'
ok $? "an unknown chapter lists the chapters"

out=$(make --no-print-directory -n check 2>&1)
printf '%s' "$out" | grep -q 'give a chapter'
ok $? "check without CH asks for one"

out=$(make --no-print-directory -n check CH=01 SRC=answers 2>&1)
printf '%s' "$out" | grep -q 'SRC must be exercises or solutions'
ok $? "a wrong SRC is named"

out=$(make --no-print-directory -n check CH=01 SRC=solutions EX=02 SEED=7 TIMEOUT=9 SIM=0 2>&1)
printf '%s' "$out" | grep -q -- '--lib-dir build/solutions/01-vector-add' &&
    printf '%s' "$out" | grep -q -- '--version 02' &&
    printf '%s' "$out" | grep -q -- '--seed 7' &&
    printf '%s' "$out" | grep -q -- '--timeout 9'
ok $? "SRC, EX, SEED and TIMEOUT reach the grader"

# SIM=1: the CPU emulation's program and libraries (grader/sim/host.mk);
# SIM is 0 or 1.
sim=$(make --no-print-directory -n check CH=01 SRC=solutions EX=02 SIM=1 2>&1)
printf '%s' "$sim" | grep -q -- 'build/sim/01-vector-add/mw-chapter check --lib-dir build/sim/solutions/01-vector-add' &&
    printf '%s' "$sim" | grep -q -- '--version 02'
ok $? "SIM=1 checks on the CPU emulation (build/sim/)"
sim=$(make --no-print-directory -n check CH=01 SIM=2 2>&1)
[ $? -ne 0 ] && printf '%s' "$sim" | grep -q "SIM must be 1 (the CPU emulation) or 0 (the GPU), not '2'"
ok $? "SIM=2 is refused with the reason"
printf '%s' "$out" | grep -q -- '--quick-sanitize'
ok $? "make check ends with the sanitizer step (--quick-sanitize)"
out=$(make --no-print-directory -n check CH=01 SANITIZE=0 2>&1)
printf '%s' "$out" | grep -q -- '--lib-dir' && ! printf '%s' "$out" | grep -q -- '--quick-sanitize'
ok $? "SANITIZE=0 leaves it out"

out=$(make --no-print-directory -n clean 2>&1)
printf '%s' "$out" | grep -q 'rm -rf build' && ! printf '%s' "$out" | grep -q results
ok $? "make clean removes build/ and never results/"

# A kernel library: a solution's, or an exercise's in the student edition
# (which has no solutions/).
so=build/solutions/01-vector-add/01_naive.so
[ -f solutions/01-vector-add/01_naive.cu ] || so=build/exercises/01-vector-add/01_naive.so
out=$(make --no-print-directory -n -B V=1 "$so" 2>&1)
printf '%s' "$out" | grep -q -- '-gencode arch=compute_'
ok $? "V=1 shows full commands with the GPU architecture"

out=$(make --no-print-directory -n ARCH=sm_80 "$so" -B 2>&1)
printf '%s' "$out" | grep -q 'arch=compute_80,code=sm_80'
ok $? "ARCH= overrides the detected architecture"

# make lib builds a file as an exercise; GRADED=1, as make grade builds a
# submission, defines MW_GRADED (a reference's lesson switches left out).
kernel=exercises/01-vector-add/01_naive.cu
out=$(make --no-print-directory -n -B V=1 lib CH=01 KERNEL=$kernel LIBDIR=/tmp/mw-none 2>&1)
printf '%s' "$out" | grep -q -- "-o /tmp/mw-none/01_naive.so $kernel" &&
    ! printf '%s' "$out" | grep -q -- '-DMW_GRADED'
ok $? "make lib builds the file into LIBDIR, MW_GRADED not defined"
out=$(make --no-print-directory -n -B V=1 lib CH=01 KERNEL=$kernel LIBDIR=/tmp/mw-none GRADED=1 2>&1)
printf '%s' "$out" | grep -q -- '-DMW_GRADED .*-o /tmp/mw-none/01_naive.so'
ok $? "make lib GRADED=1 defines MW_GRADED"

# Without a GPU the grader skips with the reason and exit 77.
if have_gpu; then
    skip "no-GPU behaviour: this machine has a GPU"
    skip "no-GPU behaviour: this machine has a GPU"
else
    out=$(build/01-vector-add/mw-chapter check --lib-dir build/solutions/01-vector-add 2>&1)
    rc=$?
    is77=$([ $rc -eq 77 ] && echo 0 || echo 1)
    ok "$is77" "check without a GPU exits 77 (got $rc)"
    printf '%s' "$out" | tail -n 1 | grep -q -E '^0 passed, 0 failed, [0-9]+ skipped$' &&
        printf '%s' "$out" | grep -q 'no CUDA GPU'
    ok $? "and says why, ending in the pass/fail line"
fi

out=$(build/01-vector-add/mw-chapter check --lib-dir x --version 99 2>&1)
rc=$?
ok "$([ $rc -eq 2 ] && printf '%s' "$out" | grep -q '01_naive 02_fast' && echo 0 || echo 1)" \
    "EX= naming no version lists the versions"

# list --csv, for programs (the batch, make mutants): each case's GPU bytes,
# a shared input counted once (chapter 01's 2^33 case: a and c, with guards).
bad=
for ch in $(chapters); do
    list=$(build/$ch/mw-chapter list --csv 2>&1) || bad="$bad $ch(exit)"
    [ "$(printf '%s\n' "$list" | head -n 1)" = kind,name,symbol,optional,group,shape,sampled,bytes,emulated ] ||
        bad="$bad $ch(header)"
    printf '%s\n' "$list" | awk -F, 'NR > 1 && $1 == "case" && !($(NF - 1) ~ /^[1-9][0-9]*$/) { exit 1 }' ||
        bad="$bad $ch(bytes)"
    printf '%s\n' "$list" | awk -F, 'NR > 1 && $1 == "case" && !($NF ~ /^[01]$/) { exit 1 }' ||
        bad="$bad $ch(emulated)"
done
ok "$([ -z "$bad" ] && echo 0 || echo 1)" "list --csv: the documented header, and every case's bytes${bad:+ (not:$bad)}"
build/01-vector-add/mw-chapter list --csv | grep -q -F '(a and b one buffer)' &&
    build/01-vector-add/mw-chapter list --csv | grep -F '(a and b one buffer)' | grep -q ',68719607872,1$'
ok $? "list --csv: chapter 01's 2^33 case counts its shared input once: 2 x (2^33 + 8 + 2 x 8192) floats; the emulation runs it on a sample"
build/01-vector-add/mw-chapter list --csv | grep -F ',n=67108864,' | grep -q ',0$'
ok $? "list --csv: chapter 01's 2^26 case (not sampled, past the emulation's budget): a GPU alone runs it"
build/01-vector-add/mw-chapter list --csv | grep -F ',n=1,' | grep -q ',1$'
ok $? "list --csv: chapter 01's n = 1 case runs on the emulation too"

done_testing
