#!/usr/bin/env bash
# The whole CPU tier (grader/sim/), as CI runs it without a GPU: every
# reference solution of every chapter passes every emulated case of its
# chapter (make check SIM=1 SRC=solutions); every known-wrong submission in
# tests/wrong/ is built for the emulation and graded on it, and is rejected
# with the exit code and the phrase its `expect` names for the emulation
# (`emulation-exit:`, `emulation-diagnostic:`), or is one that only a GPU
# catches (`emulation: gpu-only REASON`): then it is listed, with the
# reason, and must still get through the emulation unrejected, so that a
# known-wrong the emulation learns to catch is not left marked gpu-only.
# MW_TEST_CHAPTERS="01-vector-add 02-add-relu" limits it to those chapters.
. tests/lib.sh
long_file "every reference and known-wrong through the CPU emulation"
skip_all_unless_full_tree
skip_all_unless_sim_compiler

MAKE_Q="make -s --no-print-directory"
SEED=20261122
chapter_list=${MW_TEST_CHAPTERS:-$(chapters)}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
field() { sed -n "s/^$1: *//p" "$2"; }

out=$($MAKE_Q build/sim/tools/mw-simcc $(for ch in $chapter_list; do
    echo "build/sim/$ch/mw-chapter"
done) 2>&1)
ok $? "the emulation's chapter programs build" || { diag <<<"$out"; done_testing; exit; }

# Every check below is a program of its own on one core: they run as many
# at a time as there are cores (each one's output to NAME.out, its exit
# status to NAME.rc), then are judged one at a time.
run_all() { # run_all LIST: lines "NAME COMMAND..."
    xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 sh -c \
        'name=$1; shift; "$@" >"$name.out" 2>&1; echo $? >"$name.rc"' sh <"$1"
}

# (a) The references, every version, as a student runs make check, with its
# default TIMEOUT. A case's time here is the CPU's, with as many checks at a
# time as cores: chapter 05's largest sampled case takes about 11 s alone,
# several times that on a loaded machine, and the emulation gives it minutes
# beyond TIMEOUT for its work (mw_emulation_seconds).
for ch in $chapter_list; do
    echo "$scratch/ref-$ch make -s --no-print-directory check CH=$ch SIM=1 SRC=solutions SEED=$SEED"
done >"$scratch/refs"
run_all "$scratch/refs"
for ch in $chapter_list; do
    out=$(cat "$scratch/ref-$ch.out")
    rc=$(cat "$scratch/ref-$ch.rc")
    last=$(tail -n 1 <<<"$out")
    [ "$rc" = 0 ] && grep -q -E '^[1-9][0-9]* passed, 0 failed' <<<"$last"
    ok $? "$ch: every reference passes every emulated case ($last)" ||
        grep -v '^  PASS' <<<"$out" | head -n 40 | diag
done

# (b) The known-wrongs, built side by side, then graded one at a time.
wrong_dirs=$(known_wrong_dirs $chapter_list)
for dir in $wrong_dirs; do
    ch=$(basename "$(dirname "$dir")")
    src=$(wrong_source "$dir" "$scratch/derived/$ch") || continue # its build is then missing
    echo "$ch $src $scratch/$ch-$(basename "$dir")"
done >"$scratch/list"
build_sim_libs "$scratch/list"
for dir in $wrong_dirs; do
    ch=$(basename "$(dirname "$dir")")
    lib=$scratch/$ch-$(basename "$dir")
    built "$lib" || continue
    timeout=$(field timeout "$dir/expect")
    echo "$lib.check build/sim/$ch/mw-chapter check --lib-dir $lib --version $(field version "$dir/expect")" \
        "--timeout ${timeout:-30} --seed 7"
done >"$scratch/checks"
run_all "$scratch/checks"

gpu_only=()
for dir in $wrong_dirs; do
    name=$(basename "$dir")
    ch=$(basename "$(dirname "$dir")")
    expect=$dir/expect
    lib=$scratch/$ch-$name
    reason=$(sed -n 's/^emulation: *gpu-only *//p' "$expect")
    want_exit=$(field emulation-exit "$expect")
    phrase=$(field emulation-diagnostic "$expect")
    if [ -z "$reason" ] && { [ -z "$want_exit" ] || [ -z "$phrase" ]; }; then
        ok 1 "$ch/$name: its expect has emulation-exit and emulation-diagnostic, or emulation: gpu-only"
        continue
    fi
    # `emulation-exit: build`: the emulation cannot compile it; the phrase
    # is in the compiler's messages.
    if [ "$want_exit" = build ]; then
        ! built "$lib" && grep -q -F -- "$phrase" "$lib.log"
        ok $? "$ch/$name: does not build for the emulation, saying '$phrase'" ||
            tail -n 10 "$lib.log" | diag
        continue
    fi
    if ! built "$lib"; then
        ok 1 "$ch/$name: builds for the emulation"
        tail -n 10 "$lib.log" | diag
        continue
    fi
    out=$(cat "$lib.check.out")
    rc=$(cat "$lib.check.rc")
    if [ -n "$reason" ]; then
        gpu_only+=("$ch/$name: $reason")
        [ $rc = 0 ]
        ok $? "$ch/$name: only a GPU catches it ($reason); the emulation passes it (exit $rc)" ||
            grep -v '^  PASS' <<<"$out" | head -n 20 | diag
        continue
    fi
    case " $want_exit " in *" $rc "*) exit_ok=0 ;; *) exit_ok=1 ;; esac
    ok $exit_ok "$ch/$name: emulated, exit $want_exit (got $rc)"
    grep -q -F -- "$phrase" <<<"$out"
    phrase_ok=$?
    ok $phrase_ok "$ch/$name: emulated, says '$phrase'"
    if [ $exit_ok != 0 ] || [ $phrase_ok != 0 ]; then
        grep -v '^  PASS' <<<"$out" | head -n 30 | diag
    fi
done

if [ ${#gpu_only[@]} -gt 0 ]; then
    diag "known-wrongs only a GPU catches (${#gpu_only[@]}):" "${gpu_only[@]/#/  }"
fi
done_testing
