#!/usr/bin/env bash
# t0414-wgmma-sass.t: instructor/dev/05-wgmma/sass.sh, which counts the
# wgmmas of exercise 05.4's kernels that read a descriptor moved into the
# uniform registers by R2UR, on a hand-written excerpt of cuobjdump -sass:
# a move counts for the HGMMA that reads it (A's registers or B's, two
# above), an arithmetic write on the uniform datapath after it clears it,
# kernels are counted apart and named by their template arguments. Without
# a SASS file and without cuobjdump it says so and exits 77.
. tests/lib.sh

sass=instructor/dev/05-wgmma/sass.sh
[ -f $sass ] || skip_all "no $sass here (the student edition leaves instructor/ out)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

ins() { printf '        /*%04x*/                   %s ;                    /* 0x0000000000000000 */\n' "$1" "$2"; }
{
    echo '		Function : _ZN39_GLOBAL__N__1_cu_115flash_ws_kernelINS_3CfgILi64EEELi128ELi3ELb1ELb1ELb1ELb0EEEv14CUtensorMap_stS3_S3_P13__nv_bfloat16Pfiiiifi'
    ins 0x0000 'R2UR UR12, R4'
    ins 0x0010 'HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], RZ, !UPT'
    ins 0x0020 'UIADD3 UR12, UR12, 0x2, URZ'
    ins 0x0030 'HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24'
    ins 0x0040 'R2UR UR14, R5'
    ins 0x0050 'HGMMA.64x128x16.F32.BF16 R24, gdesc[UR12], R24, gsb0'
    ins 0x0060 '@P0 R2UR UR4, R6'
    ins 0x0070 'BAR.ARV R0, 0x100'
    echo '		Function : _ZN39_GLOBAL__N__1_cu_118flash_wgmma_kernelINS_3CfgILi128EEEEEv14CUtensorMap_stS3_S3_P13__nv_bfloat16Pfiiiifi'
    ins 0x0000 'ULDC.64 UR4, c[0x0][0x210]'
    ins 0x0010 'HGMMA.64x64x16.F32.BF16 R56, R24, gdesc[UR4].tnspB, R56'
    ins 0x0020 '@P1 R2UR UR7, R8'
    ins 0x0030 'HGMMA.64x64x16.F32.BF16 R56, R32, gdesc[UR4].tnspB, R56'
    echo '		Function : _Z4fillP13__nv_bfloat16mj'
    ins 0x0000 'R2UR UR4, R1'
    ins 0x0010 'EXIT'
} >"$scratch/k.sass"

sh $sass "$scratch/k.sass" >"$scratch/out" 2>"$scratch/err"
ok $? "sass.sh on a SASS file: exit 0"
[ "$(wc -l <"$scratch/out")" -eq 2 ]
ok $? "sass.sh: a line per flash kernel, none for the others ($(wc -l <"$scratch/out") lines)"
grep -q '^ws 64 128 3 1 1 1 0  *8 instructions  *3 HGMMA  *2 fed by R2UR$' "$scratch/out"
ok $? "sass.sh: ws's template arguments; a move read by the HGMMA after it counts, a uniform add after it clears it, B's registers count too"
grep -q '^step1 128  *4 instructions  *2 HGMMA  *1 fed by R2UR$' "$scratch/out"
ok $? "sass.sh: step 1 apart; a 64-bit uniform load is no move, a predicated R2UR is one"
grep -q . "$scratch/out" || diag <"$scratch/err"

sh $sass "$scratch/none.sass" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'cannot read' "$scratch/err"
ok $? "sass.sh on a file it cannot read: exit 2 (got $rc), saying so"

mkdir "$scratch/bin"
env PATH="$scratch/bin" /bin/sh $sass >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 77 ] && grep -q 'no cuobjdump here' "$scratch/err"
ok $? "sass.sh without a file and without cuobjdump: exit 77 (got $rc), saying so"
done_testing
