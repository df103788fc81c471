#!/bin/sh
# results-dir.sh CHAPTER [GPU]: the results folder of CHAPTER for GPU (a
# folder name under results/, e.g. NVIDIA_H100_80GB_HBM3, or the GPU's name as
# nvidia-smi prints it). Without GPU: this machine's GPU, else the only GPU
# that has results for CHAPTER.
chapter=$1 gpu=$2
[ -z "$gpu" ] && gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -n 1)
gpu=$(printf '%s' "$gpu" | sed 's/[^A-Za-z0-9.-]/_/g')
asked=$2
if [ -n "$gpu" ] && [ -d "results/$gpu/$chapter" ]; then
    echo "results/$gpu/$chapter"
    exit 0
fi
set -- results/*/"$chapter"
if [ -z "$gpu" ] && [ $# -eq 1 ] && [ -d "$1" ]; then
    echo "$1"
    exit 0
fi
if [ -e "$1" ]; then
    if [ -n "$gpu" ]; then
        echo "no results for $chapter on ${asked:-this machine's GPU, $gpu}; there are results for:" >&2
    else
        echo "results for $chapter exist for several GPUs; pick one with GPU=:" >&2
    fi
    for d in "$@"; do d=${d#results/}; echo "  GPU=${d%%/*}" >&2; done
else
    echo "no results for $chapter${gpu:+ on $gpu} yet: run 'make bench CH=$chapter' on a GPU first" >&2
fi
exit 1
