#!/bin/sh
# profile.sh: what limits 05.2 at d = 128, read by Nsight Compute on an H100
# or H200: the FFMA kernel and the tensor-core (3xTF32) one, each at B = 4,
# H = 16, N = 4096, full attention. Writes
# results/<GPU>/05-attention/ncu-d128.csv: path, metric, value, unit.
#   sh instructor/dev/05-d128/profile.sh        (after make build, about a minute)
set -e
here=$(dirname "$0")
lib=build/solutions/05-attention/02_flash.so
command -v ncu >/dev/null || { echo "profile.sh: no ncu" >&2; exit 77; }
[ -f "$lib" ] || { echo "profile.sh: $lib is not built (make build)" >&2; exit 2; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 | tr ' ' _)
out=results/$gpu/05-attention/ncu-d128.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -O2 -o "$tmp/time" "$here/time.cu" -ldl
# launch__registers_per_thread: the allocation; smsp__warps_active: warps a
# scheduler holds; smsp__issue_active: the cycles it issues in; the FFMA
# count over the instructions issued; the tensor pipe's busy cycles.
metrics=launch__registers_per_thread,smsp__warps_active.avg.per_cycle_active
metrics=$metrics,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics=$metrics,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
metrics=$metrics,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
metrics=$metrics,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
echo "path,metric,value,unit" >"$out"
for path in ffma tf32; do
    case $path in ffma) kernel=regex:flash_kernel ;; tf32) kernel=regex:tf32x3::kernel ;; esac
    ncu --kernel-name-base demangled -k "$kernel" --launch-count 1 --metrics "$metrics" \
        --csv --page raw "$tmp/time" "$lib" $path 4096 0 1 >"$tmp/$path.csv"
    # ncu's raw page: a row of names, a row of units, a row per kernel
    awk -v path=$path -f "$here/raw.awk" "$tmp/$path.csv" >>"$out"
done
cat "$out"
