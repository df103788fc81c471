#!/bin/sh
# sass.sh [SASS_FILE]: for each kernel of exercise 05.4's reference, how
# many of its wgmmas read a descriptor that ptxas moved into the uniform
# registers from ordinary ones (R2UR), in the SASS that cuobjdump -sass
# prints. wgmma reads its descriptors from uniform registers; ptxas keeps a
# descriptor there only when it can prove it the same in every lane, and
# otherwise builds it per thread and moves it across before the wgmma
# (the lesson's "warp-uniform descriptors"). Without SASS_FILE it builds
# the reference for sm_90a (no GPU needed) and reads cuobjdump's output;
# without cuobjdump it says so and exits 77.
#
# One line per kernel: its template arguments (Cfg<D>, key tile, consumers,
# then PINGPONG, OVERLAP, LAZY, PERSIST as 0/1 for flash_ws_kernel), its
# SASS instructions, its HGMMAs and of those the ones fed by R2UR. An
# HGMMA counts as fed when, in program order, one of the four uniform
# registers from its gdesc[URn] (A's and B's descriptors, two each) was
# last written by an R2UR: a move at the kernel's start that a loop's
# wgmmas all read counts for each of them, once each.
set -u

if [ $# -ge 1 ]; then
    sass=$1
    [ -r "$sass" ] || { echo "sass.sh: cannot read $sass" >&2; exit 2; }
else
    command -v cuobjdump >/dev/null || { echo "sass.sh: no cuobjdump here (the CUDA toolkit's binary utilities): give a SASS file" >&2; exit 77; }
    scratch=$(mktemp -d) || exit 2
    trap 'rm -rf "$scratch"' EXIT
    nvcc -cubin -O3 -gencode arch=compute_90a,code=sm_90a -Igrader -Ichapters/05-attention -Xptxas -w \
        solutions/05-attention/04_flash_wgmma.cu -o "$scratch/ref.cubin" || exit 2
    cuobjdump -sass "$scratch/ref.cubin" >"$scratch/ref.sass" || exit 2
    sass=$scratch/ref.sass
fi

awk '
function flush() {
    if (name != "") printf "%-44s %6d instructions %3d HGMMA %3d fed by R2UR\n", name, n, hgmma, fed
    n = 0; hgmma = 0; fed = 0; split("", by)
}
# The kernel name, mangled: its template arguments, shortened.
function short(t,    k) {
    if (t ~ /flash_ws_kernel/) k = "ws"; else if (t ~ /flash_wgmma_kernel/) k = "step1"; else return ""
    sub(/E*v14CUtensorMap.*/, "", t); sub(/.*Cfg/, "", t)
    gsub(/ILi|ELi|ELb|Li|Lb|E/, " ", t); gsub(/  +/, " ", t); sub(/^ /, "", t); sub(/ $/, "", t)
    return k " " t
}
/Function :/ { flush(); name = short($3); next }
name == "" { next }
/^ *\/\*[0-9a-f]+\*\/ / {
    line = $0; sub(/^ *\/\*[0-9a-f]+\*\/ +/, "", line); sub(/ *;.*/, "", line)
    sub(/^@!?U?P[0-9T]+ +/, "", line)
    op = line; sub(/ .*/, "", op); n++
    if (op ~ /^HGMMA/) {
        hgmma++
        if (match(line, /gdesc\[UR[0-9]+\]/)) {
            r = substr(line, RSTART + 8, RLENGTH - 9) + 0
            if (by[r] == "R2UR" || by[r + 1] == "R2UR" || by[r + 2] == "R2UR" || by[r + 3] == "R2UR") fed++
        }
        next
    }
    # A write to a uniform register: the first operand of R2UR, S2UR and
    # the uniform datapath instructions (U...), two registers for .64.
    if (op ~ /^(R2UR|S2UR|U[A-Z0-9]+)/ && match(line, / UR[0-9]+/)) {
        r = substr(line, RSTART + 3, RLENGTH - 3) + 0
        w = op ~ /^R2UR/ ? "R2UR" : "other"
        by[r] = w
        if (op ~ /\.64/) by[r + 1] = w
    }
}
END { flush() }' "$sass"
