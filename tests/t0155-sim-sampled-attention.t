#!/usr/bin/env bash
# The CPU emulation's limit cases of chapter 05, run on a sample
# (grader/emulation.h): a sampled row of O and L needs, in each of 01_unfused's
# three launches, every block that touches it (all the tiles or threads of
# its scores, its softmax block, its P V block), in the reference's layout
# and in the plain one the known-wrongs share. The reference passes the
# head-offset limit case on a sample (the 9-head one in the long tier: 10 s),
# and has N = 65537 skipped, its sample alone past the budget; the
# known-wrongs int-index-scores and unsigned-index-scores fail as on a GPU;
# 02_flash, whose persistent grid takes query tiles from a counter, is
# skipped with that reason, never failed.
. tests/lib.sh
skip_all_unless_full_tree
skip_all_unless_sim_compiler
skip_all_unless_known_wrongs

MAKE_Q="make -s --no-print-directory"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The cases by their bytes (Q, K, V, O, L and guard bands, no workspace):
# 9 heads of N = 16384 (76 MB), one head of N = 65537 (34.1 MB, 516 bytes
# past 2 x 8 heads of N = 4096 at d = 32), 2 x 65537 heads of 128 x 128.
NINE_HEADS="--from 70000000 --below 100000000"
N65537="--from 34144500 --below 34200000"
HEAD_OFFSET="--from 30000000000 --below 60000000000"
# The emulated sample of 9 heads runs about 10 s alone, several times that
# on a machine busy with other tests: the check's default time limit gives
# a case on a sample minutes beyond TIMEOUT for its work
# (mw_emulation_seconds), as a student's make check has it.

out=$($MAKE_Q build/sim/05-attention/mw-chapter build/sim/solutions/05-attention/01_unfused.so \
    build/sim/solutions/05-attention/02_flash.so 2>&1)
ok $? "the emulation's chapter 05 and its references 01_unfused and 02_flash build" ||
    { diag <<<"$out"; done_testing; exit; }

for w in int-index-scores unsigned-index-scores; do
    src=$(wrong_source tests/wrong/05-attention/$w "$scratch/derived") &&
        echo "05-attention $src $scratch/$w"
done >"$scratch/list"
build_sim_libs "$scratch/list"

REF=build/sim/solutions/05-attention

sim_check 05-attention $REF 01_unfused $HEAD_OFFSET
passed=$(on_sample 'PASS .* B=2 H=65537 N=128 d=128 ')
[ $rc = 0 ] && [ "$passed" = 1 ] && no_failure
ok $? "reference 01_unfused: its 32 x 32 tiles pass 2 x 65537 heads on a sample (exit $rc)" ||
    diag <<<"$out"

sim_check 05-attention $REF 01_unfused $N65537
[ $rc = 77 ] && no_failure &&
    grep -q -E "^  SKIP .* N=65537 .*\(emulated\): .*and its sample alone \([0-9]+ of [0-9]+ blocks, .*\) is past it" <<<"$out"
ok $? "reference 01_unfused: N = 65537 is skipped, its sample alone past the budget (exit $rc)" ||
    diag <<<"$out"

if long_tests; then
    sim_check 05-attention $REF 01_unfused $NINE_HEADS
    passed=$(on_sample 'PASS .* B=1 H=9 N=16384 d=32 ')
    [ $rc = 0 ] && [ "$passed" = 1 ]
    ok $? "reference 01_unfused: passes 9 heads of N = 16384 on a sample (exit $rc)" ||
        diag <<<"$out"
else
    skip_long "reference 01_unfused on 9 heads of N = 16384 (10 s)"
fi

if built_or_say "$scratch/int-index-scores" "known-wrong int-index-scores"; then
    sim_check 05-attention "$scratch/int-index-scores" 01_unfused $NINE_HEADS
    [ $rc = 2 ] && [ "$(on_sample 'ERROR .* B=1 H=9 N=16384 d=32 ')" -gt 0 ] &&
        grep -q -F 'cudaErrorIllegalAddress' <<<"$out"
    ok $? "known-wrong int-index-scores: an illegal address on 9 heads of N = 16384, as on a GPU (exit $rc)" ||
        diag <<<"$out"
fi

if built_or_say "$scratch/unsigned-index-scores" "known-wrong unsigned-index-scores"; then
    sim_check 05-attention "$scratch/unsigned-index-scores" 01_unfused $N65537
    [ $rc = 1 ] && [ "$(on_sample 'FAIL .* B=1 H=1 N=65537 d=32 ')" -gt 0 ] &&
        grep -q -F 'sampled elements of O wrong' <<<"$out" &&
        grep -q -F 'L[b=0,h=0,i=65536] got -nan (never written)' <<<"$out"
    ok $? "known-wrong unsigned-index-scores: O's row 0 and L's last rows wrong at N = 65537, as on a GPU (exit $rc)" ||
        diag <<<"$out"
fi

sim_check 05-attention $REF 02_flash $NINE_HEADS
[ $rc = 77 ] && no_failure &&
    grep -q -E "^  SKIP .* B=1 H=9 N=16384 d=32 .*\(emulated\): .*a flash kernel's blocks take query tiles from a counter as the grid runs" <<<"$out"
ok $? "reference 02_flash: its persistent grid is skipped, saying why no sample can follow it (exit $rc)" ||
    diag <<<"$out"

done_testing
