#!/usr/bin/env bash
# The CPU emulation's host side (grader/sim/host.c, grader/sim/host.mk).
#
# host.c's unit tests (tests/unit/sim/host_api.c, with the stand-in
# scheduler of tests/unit/sim/standin/host/): memory and its regions, copies,
# errors sticky and not, capture with a fork never joined back, occupancy,
# launch configuration errors; each of their points is one here.
#
# The chapter programs built for the emulation: once every part of it is in
# the tree, each chapter's build/sim/<chapter>/mw-chapter links; until then,
# what builds without the missing parts: the harness's and the chapters' C
# objects, against the emulation's headers (the stand-ins of
# tests/unit/sim/standin/host/ for a header not yet there), in a build
# folder of their own. Either way no object includes a toolkit header or
# calls cuBLAS or cuDNN: a student without the toolkit builds them. No GPU
# needed.
. tests/lib.sh

MAKE_Q="make -s --no-print-directory"

out=$($MAKE_Q build/sim/tests/host_api 2>&1)
ok $? "host.c's unit tests build" || { printf '%s\n' "$out" | diag; done_testing; exit; }

# Each point of the unit tests is one point here, named as there.
units=$(build/sim/tests/host_api 2>&1)
rc=$?
planned=$(printf '%s\n' "$units" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
ran=0
while IFS= read -r line; do
    case $line in
    'ok '*) ran=$((ran + 1)); ok 0 "host_api: ${line#ok * - }" ;;
    'not ok '*) ran=$((ran + 1)); ok 1 "host_api: ${line#not ok * - }" ;;
    '#'*) printf '%s\n' "$line" ;;
    esac
done <<<"$units"
[ "$rc" -eq 0 ] && [ -n "$planned" ] && [ "$ran" -eq "$planned" ] && [ "$ran" -gt 100 ]
ok $? "host_api exits 0 having run all of its $planned points ($ran seen)"

missing=
for f in grader/sim/include/vector_types.h grader/sim/include/mw_sim_kernel.h \
         grader/sim/sched.c grader/sim/simcc.c; do
    [ -e "$f" ] || missing="$missing $f"
done

if [ -z "$missing" ]; then
    build=build
    for ch in $(chapters); do
        out=$($MAKE_Q "build/sim/$ch/mw-chapter" 2>&1)
        ok $? "build/sim/$ch/mw-chapter links for the emulation" || printf '%s\n' "$out" | diag
    done
else
    build=build/sim-standin
    out=$($MAKE_Q -j2 BUILD=$build SIM_STANDIN=tests/unit/sim/standin/host sim-host-c-objects 2>&1)
    ok $? "the harness's and the chapters' C objects compile against the emulation's headers" ||
        printf '%s\n' "$out" | diag
    skip "the chapter programs link once the rest of the emulation is in the tree (missing:$missing)"
fi

objs=$(find "$build/sim" -path "$build/sim/tests" -prune -o -name '*.o' -print 2>/dev/null | sort)
[ -n "$objs" ]
ok $? "the emulation's objects are there ($(printf '%s\n' "$objs" | grep -c .))"

# A toolkit header is one under a CUDA toolkit's include folder.
deps=$(find "$build/sim" -name '*.d' 2>/dev/null)
toolkit=$(grep -lE '(cuda|cudnn)[-0-9.]*/(targets/[^/]*/)?include/' $deps /dev/null)
[ -z "$toolkit" ]
ok $? "no object of the emulation's build includes a toolkit header" ||
    printf '%s\n' "$toolkit" | diag

libs=$(nm -u $objs 2>/dev/null | grep -iE ' U [^ ]*(cublas|cudnn)' | sort -u)
[ -z "$libs" ]
ok $? "none calls cuBLAS or cuDNN: the library rows are left out of the emulation" ||
    printf '%s\n' "$libs" | diag

done_testing
