#!/usr/bin/env bash
# run.sh: builds the bf16 flash attention of instructor/dev/05-bf16 and runs its driver.
#
#   bash instructor/dev/05-bf16/run.sh [check|time|all] [driver options]   (default: all)
#   bash instructor/dev/05-bf16/run.sh build      build only (no GPU needed): ptxas report
#   bash instructor/dev/05-bf16/run.sh sim [--quick] [--config NAME]
#                                     the host simulation (no GPU, no CUDA
#                                     runtime: g++ and perl), sim/sim.cpp
#
# Driver options: --config NAME (one configuration of the table in
# solutions/05-attention/03_flash_bf16.cu), and for time --config all (every configuration: the
# ablation table). The build goes to instructor/dev/05-bf16/build/: nvcc -O3 -std=c++17
# -lineinfo for the GPU that nvidia-smi reports (sm_90a on compute 9.0, sm_XY
# otherwise; sm_90a when there is no nvidia-smi). NVCC= picks another nvcc.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=$root/solutions/05-attention/03_flash_bf16.cu # the kernel: exercise 05.3's reference
out=$here/build
mode=${1:-all}
if [ $# -gt 0 ]; then shift; fi

arch() {
    local cap=""
    if command -v nvidia-smi >/dev/null 2>&1; then
        cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .') || cap=""
    fi
    case "$cap" in
        "") echo sm_90a ;;
        90) echo sm_90a ;;
        [1-7]?) echo "run.sh: compute capability ${cap:0:1}.${cap:1} has no bf16 mma.sync (needs 8.0)" >&2; exit 2 ;;
        *) echo "sm_$cap" ;;
    esac
}

build() {
    local nvcc=${NVCC:-nvcc} a
    a=$(arch)
    mkdir -p "$out"
    echo "== build: $nvcc -arch=$a"
    "$nvcc" -O3 -std=c++17 -arch="$a" -lineinfo -Xptxas -v -o "$out/driver" \
        -I "$root/chapters/05-attention" -I "$root/grader" "$here/driver.cu" "$src" 2>"$out/ptxas.log" || { cat "$out/ptxas.log"; exit 2; }
    # one line per configuration: Cfg<D, Br, Bc, warps, Q in registers, min blocks>
    awk '/Compiling entry function/ { match($0, /CfgILi[0-9]+ELi[0-9]+ELi[0-9]+ELi[0-9]+ELb[01]ELi[0-9]+E/);
             c = substr($0, RSTART + 6, RLENGTH - 7); gsub(/ELi|ELb/, ", ", c); cfg = c }
         /spill stores/ { spill = $5 " B spill stores, " $9 " B spill loads" }
         /Used [0-9]+ registers/ { printf "   Cfg<%s>: %s registers, %s\n", cfg, $5, spill }' "$out/ptxas.log"
    if grep -qE '[1-9][0-9]* bytes spill (stores|loads)' "$out/ptxas.log"; then
        echo "   WARNING: a configuration spills registers (see $out/ptxas.log)"
    fi
    if command -v cuobjdump >/dev/null 2>&1; then
        echo "   HMMA instructions in the SASS: $(cuobjdump -sass "$out/driver" | grep -c HMMA)"
    fi
}

case "$mode" in
    build)
        build
        ;;
    check | time)
        build
        "$out/driver" "$mode" "$@"
        ;;
    all)
        build
        status=0
        "$out/driver" check "$@" || status=$?
        if [ "$status" -ne 0 ]; then
            echo "run.sh: check failed ($status): not timing" >&2
            exit "$status"
        fi
        "$out/driver" time "$@"
        ;;
    sim)
        mkdir -p "$out/sim"
        perl "$here/sim/extract.pl" "$src" >"$out/sim/sim_kernel.inc"
        g++ -O2 -std=c++17 -Wall -Wno-unknown-pragmas -Wno-clobbered -I "$out/sim" \
            -o "$out/sim/sim" "$here/sim/sim.cpp"
        "$out/sim/sim" "$@"
        ;;
    *)
        echo "usage: bash instructor/dev/05-bf16/run.sh [check|time|all|build|sim] [options]" >&2
        exit 2
        ;;
esac
