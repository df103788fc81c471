#!/usr/bin/env bash
# t0141-simcc.t: mw-simcc (grader/sim/simcc.c), the rewriter of a kernel
# file for the CPU emulation. Runs the fixtures in tests/data/simcc/:
#   NAME.cu + NAME.cpp   an input and the rewrite it must give, byte for
#                        byte; each rewrite is also C++ the compiler takes
#                        (against a declarations-only stand-in of the
#                        kernel side, tests/unit/sim/standin/ptx/kernel/)
#   lines.cu             constructs over several lines, then an error the
#                        compiler must report at its line of the .cu
#   refuse/NAME.cu       an input refused: exit 2, NAME.err on stderr
# and every kernel file of the project (solutions, skeletons, chapters'
# own, the grader's, the known-wrong submissions but their one-change
# files; an sm_90a version is refused instead) rewrites, each line on its line; once the kernel header is in the
# tree, each rewrite compiles with the emulation's flags (SIM_KFLAGS): the
# reference solutions' in the fast tier, every file's in the full one.
cd "$(dirname "$0")/.." || exit 1

TOOL=build/sim/tools/mw-simcc
DATA=tests/data/simcc
STANDIN=tests/unit/sim/standin/ptx/kernel
WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"' EXIT

. tests/lib.sh

if [ ! -x "$TOOL" ]; then
    echo "1..1"
    echo "not ok 1 - $TOOL is not built (run 'make build-fast')"
    exit 1
fi

standin_compiles() { # FILE.cpp: g++ takes it against the stand-in
    g++ -x c++ -std=c++17 -fsyntax-only -w -I"$STANDIN" -Igrader/sim/include \
        -include cuda_runtime.h "$1" >"$WORK/cc" 2>&1
}

# --- fixtures ----------------------------------------------------------------
for expected in "$DATA"/*.cpp; do
    src=${expected%.cpp}.cu
    name=$(basename "$src")
    "$TOOL" "$src" "$WORK/out.cpp" 2>"$WORK/err"
    ok $? "$name rewrites" || diag <"$WORK/err"
    cmp -s "$expected" "$WORK/out.cpp"
    ok $? "$name: the rewrite is $(basename "$expected")" ||
        diff -u "$expected" "$WORK/out.cpp" | head -n 40 | diag
    standin_compiles "$WORK/out.cpp"
    ok $? "$name: the rewrite compiles" || head -n 20 "$WORK/cc" | diag
done

"$TOOL" "$DATA/lines.cu" "$WORK/lines.cpp" && ! standin_compiles "$WORK/lines.cpp" &&
    grep -q "^$DATA/lines.cu:19:[0-9]*: error: .not_declared_anywhere" "$WORK/cc"
ok $? "lines.cu: the compiler names the student's file and line after multi-line constructs" ||
    head -n 20 "$WORK/cc" | diag

for src in "$DATA"/refuse/*.cu; do
    name=refuse/$(basename "$src")
    "$TOOL" "$src" "$WORK/refused.cpp" 2>"$WORK/err"
    status=$?
    [ $status -eq 2 ] && cmp -s "${src%.cu}.err" "$WORK/err"
    ok $? "$name is refused (exit 2) with: $(cut -c1-80 "${src%.cu}.err")" || {
        diag "exit $status, stderr:"
        diag <"$WORK/err"
    }
done

# --- the project's kernel files ---------------------------------------------
kernel_files() {
    ls solutions/*/*.cu exercises/*/*.cu chapters/*/*.cu grader/device.cu \
        tests/wrong/*/*/*.cu 2>/dev/null
}
chapter_of() { # the chapter folder whose headers a kernel file includes
    local ch
    ch=$(printf '%s\n' "$1" | sed -n 's|.*/\([0-9][0-9]-[^/]*\)/.*|\1|p')
    [ -n "$ch" ] && echo "chapters/$ch"
}

KERNEL_H=grader/sim/include/mw_sim_kernel.h
if [ -f "$KERNEL_H" ]; then
    read -r -a KFLAGS <<<"$(make -s --no-print-directory print-sim-kflags)"
fi
for src in $(kernel_files); do
    out=$WORK/$(printf '%s' "$src" | tr / _).cpp
    "$TOOL" "$src" "$out" 2>"$WORK/err"
    status=$?
    # A version for an architecture-specific target (" * Needs: sm_90a"):
    # its instructions are the GPU's alone and make gives the emulation a
    # marker for it: the rewriter may refuse it (exit 2), naming the
    # instruction (its skeleton, with no PTX, rewrites as any other).
    if [ $status -ne 0 ] && grep -q -m1 -E '^ \* Needs: sm_[0-9]+a' "$src"; then
        [ $status -eq 2 ] && grep -q "is not emulated" "$WORK/err"
        ok $? "$src: refused, its PTX named (an sm_90a version; the emulation skips it)" ||
            diag <"$WORK/err"
        continue
    fi
    [ $status -eq 0 ]
    ok $? "$src rewrites" || { diag <"$WORK/err"; continue; }
    [ "$(($(wc -l <"$src") + 1))" -eq "$(wc -l <"$out")" ] &&
        [ "$(head -n 1 "$out")" = "#line 1 \"$src\"" ]
    ok $? "$src: every line keeps its number (a #line, then the file's lines)"
    # The fast tier compiles the reference solutions (the skeletons in a
    # student edition); the full tier every file (a second each).
    case $src in
    solutions/*) compile=1 ;;
    exercises/*) [ -d solutions ] && compile=0 || compile=1 ;;
    *) long_tests && compile=1 || compile=0 ;;
    esac
    if [ -f "$KERNEL_H" ] && [ $compile = 1 ]; then
        ch=$(chapter_of "$src")
        g++ "${KFLAGS[@]}" -fsyntax-only -Igrader ${ch:+-I"$ch"} "$out" >"$WORK/cc" 2>&1
        ok $? "$src: the rewrite compiles with SIM_KFLAGS" || head -n 20 "$WORK/cc" | diag
    fi
done
if [ ! -f "$KERNEL_H" ]; then
    skip "compiling the rewrites with SIM_KFLAGS: $KERNEL_H is not in this tree yet"
elif ! long_tests; then
    skip_long "compiling the rewrites of the files other than the reference solutions"
fi

done_testing
