#!/bin/sh
# overlap.sh [RESULTS_DIR]: whether the tensor cores' wgmma and the XU's ex2
# (or the FP32 pipe's FFMA) run at the same time on one SM of this machine's
# sm_90 GPU (overlap.cu says how it measures). Writes overlap-wgmma.csv into
# RESULTS_DIR (default: results/<this GPU>/05-attention). Under a minute.
here=$(dirname "$0")
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "overlap.sh: no GPU here" >&2; exit 77; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -n 1 | sed 's/[^A-Za-z0-9.-]/_/g')
out=${1:-results/$gpu/05-attention}
bin=build/instructor/05-wgmma/overlap
mkdir -p "$(dirname "$bin")" "$out" || exit
nvcc -O3 -gencode arch=compute_90a,code=sm_90a "$here/overlap.cu" -o "$bin" || exit
"$bin" > "$out/overlap-wgmma.csv.tmp" && mv "$out/overlap-wgmma.csv.tmp" "$out/overlap-wgmma.csv" || {
    rm -f "$out/overlap-wgmma.csv.tmp"; exit 1; }
cat "$out/overlap-wgmma.csv"
echo "wrote $out/overlap-wgmma.csv"
