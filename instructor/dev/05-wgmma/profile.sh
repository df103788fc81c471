#!/bin/sh
# profile.sh: what separates 05.4's default kernel (ws) from another at
# N = 4096, read by Nsight Compute on an sm_90 GPU: each kernel's second
# launch of time.cu without the mask and with it (the first of each is the
# warm-up), at B = 4, H = 16. D picks the head dimension and the kernels:
#   D=64 (default)  ws, step 1 and ws-persist: at d = 64 the causal mask
#                   makes ws the slower of the first two, and its
#                   persistent grid loses there too;
#   D=128           ws and cuDNN's fused attention (time.cu's cudnn), which
#                   leads ws at N = 4096, the most with the mask; needs a
#                   build that finds cudnn.h.
# Writes results/<GPU>/05-attention/ncu-wgmma-d<D>.csv: path (kernel and
# mask), metric, value, unit.
#   sh instructor/dev/05-wgmma/profile.sh         (about two minutes)
#   D=128 sh instructor/dev/05-wgmma/profile.sh
# PAGE=source samples where the warps stall instead, instruction by
# instruction (ncu's source page, in SASS), and writes
# ncu-wgmma-d<D>-sass.csv: path, class of instruction, samples, their share
# of the kernel's, instructions executed and the commonest stall reason
# (sass-stalls.awk), e.g. whether a kernel's consumers wait for their
# wgmma or the wgmma for their softmax.
# RAW=dir skips ncu and reads dir/raw-<kernel>-<mask>.csv (PAGE=source:
# src-<kernel>-<mask>.csv), ncu's pages (--csv --page raw, or source) of an
# earlier run, which the run leaves in RAW_OUT=dir; GPU=<folder under
# results/> then names the GPU where there is none.
# ncu locks the clocks at base: read the times against each other, not
# against make bench.
set -e
here=$(dirname "$0")
gpu=${GPU:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr ' ' _)}
[ -n "$gpu" ] || { echo "profile.sh: no GPU (nvidia-smi lists none; GPU= names one for RAW=)" >&2; exit 77; }
d=${D:-64}
# time.cu runs d = 64 without the mask, then with it, then d = 128 alike,
# 10 launches each: the launches before the shape's first
case $d in
64) kernels="ws step1 ws-persist" before=0 ;;
128) kernels="ws cudnn" before=20 ;;
*) echo "profile.sh: D=$d: give D=64 or D=128" >&2; exit 2 ;;
esac
# The page: its CSV, that CSV's header, and the prefix of ncu's pages in $raw
case ${PAGE:=raw} in
raw) csv=results/$gpu/05-attention/ncu-wgmma-d$d.csv header=path,metric,value,unit pages=raw ;;
source) csv=results/$gpu/05-attention/ncu-wgmma-d$d-sass.csv pages=src
    header=path,class,samples,share_pct,executed,top_stall ;;
*) echo "profile.sh: PAGE=$PAGE: give PAGE=raw or PAGE=source" >&2; exit 2 ;;
esac
raw=${RAW:-}
if [ -z "$raw" ]; then
    command -v ncu >/dev/null || { echo "profile.sh: no ncu" >&2; exit 77; }
    raw=${RAW_OUT:-$(mktemp -d)}
    mkdir -p "$raw"
    . "$here/time-common.sh"
    build_time profile.sh "$(dirname "$csv")" # time.cu with the reference, as $bin
    case " $kernels " in
    *" cudnn "*) [ "$have_cudnn" = 1 ] || { echo "profile.sh: D=$d reads cuDNN, and this build finds no cudnn.h" >&2; exit 77; } ;;
    esac
    for kernel in $kernels; do
        # cuDNN's kernel is cudnn_generated_..._sdpa_..._flash_fprop_...
        case $kernel in cudnn) name='regex:sdpa|fprop' ;; *) name=regex:flash ;; esac
        for mask in full causal; do
            case $mask in full) skip=$((before + 1)) ;; causal) skip=$((before + 11)) ;; esac
            page=$raw/$pages-$kernel-$mask
            if [ "$PAGE" = raw ]; then
                MW_FLASH_WGMMA=$kernel ncu --set full --kernel-name "$name" --launch-skip $skip \
                    --launch-count 1 --csv --page raw "$bin" 4096 >"$page.csv"
            else
                MW_FLASH_WGMMA=$kernel ncu --section SourceCounters --section WarpStateStats \
                    --kernel-name "$name" --launch-skip $skip --launch-count 1 -f \
                    -o "$page" "$bin" 4096 >/dev/null
                ncu --import "$page.ncu-rep" --page source --csv --print-source sass >"$page.csv" ||
                    { echo "profile.sh: no source page of $kernel, $mask (did ncu find the kernel?)" >&2; exit 2; }
            fi
        done
    done
fi
# The launch; the time and cycles; how busy the schedulers, the tensor pipe
# and the XU pipe (ex2) are; the warps an SM holds; the L2 and DRAM; the barrier
# unit's (ADU) instructions; and each stall reason, in warps stalled per
# instruction issued.
keep='^(gpu__time_duration.sum|sm__cycles_elapsed.avg|launch__(block_size|grid_size|registers_per_thread|shared_mem_per_block_dynamic)'
keep=$keep'|smsp__issue_active.avg.pct_of_peak_sustained_active|smsp__inst_executed.sum'
keep=$keep'|sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_active|sm__cycles_active.avg'
keep=$keep'|sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active'
keep=$keep'|sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active'
keep=$keep'|sm__warps_active.avg.pct_of_peak_sustained_active|lts__t_sector_hit_rate.pct'
keep=$keep'|dram__bytes_(read|write).sum'
keep=$keep'|smsp__average_warps_issue_stalled_[a-z_]*_per_issue_active.ratio)$'
# The CSV is written whole or not at all: a raw page missing, or one in
# which ncu read no kernel (a name the regex missed), leaves the last one.
mkdir -p "$(dirname "$csv")"
tmp=$csv.tmp
echo "$header" >"$tmp"
for kernel in $kernels; do
    for mask in full causal; do
        f=$raw/$pages-$kernel-$mask.csv
        [ -s "$f" ] || { rm -f "$tmp"; echo "profile.sh: no $f" >&2; exit 2; }
        if [ "$PAGE" = raw ]; then
            rows=$(awk -v path="$kernel-$mask" -f "$here/../05-d128/raw.awk" "$f" |
                awk -F, -v keep="$keep" '$2 ~ keep && !($2 ~ /stalled/ && $3 + 0 < 0.005)')
        else
            rows=$(awk -v path="$kernel-$mask" -f "$here/sass-stalls.awk" "$f")
        fi
        [ -n "$rows" ] || { rm -f "$tmp"; echo "profile.sh: $f holds no reading (did ncu find the kernel?)" >&2; exit 2; }
        printf '%s\n' "$rows" >>"$tmp"
    done
done
mv "$tmp" "$csv"
cat "$csv"
