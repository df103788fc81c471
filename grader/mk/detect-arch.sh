#!/bin/sh
# detect-arch.sh: the GPU's architecture as nvcc names it (sm_90 for an
# H100), read from nvidia-smi; sm_90 when no GPU is visible (CI compiles
# for the workbook's reference GPU). Override with make ARCH=sm_XX.
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | head -n 1)
case "$cap" in
[0-9]*.[0-9]*) echo "sm_$(echo "$cap" | tr -d '.[:space:]')" ;;
*) echo sm_90 ;;
esac
