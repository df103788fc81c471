#!/usr/bin/env bash
# by-n.sh [RESULTS_DIR]: step 1's kernel against ws at N = 2048, 4096, 8192
# and 16384 (B = 4, H = 16, d = 64 and 128, full and causal), the
# measurement behind the reference's default, auto (launch_auto: step1 where
# it wins, ws elsewhere). Builds time.cu with the reference, runs both
# kernels in ROUNDS rounds (default 3, both in turn at every N in each) and
# writes step1-vs-ws.csv (TFLOP/s, the median of the rounds) into
# RESULTS_DIR (default: results/<this GPU>/05-attention). About a minute
# and a half on an H200.
#     by-n.sh table TIME_LOG [CSV]: only the last step, from a log of
#     time.cu's lines.
set -u
here=$(dirname "$0")
. "$here/time-common.sh"
rounds=${ROUNDS:-3}
case $rounds in '' | *[!0-9]* | 0) echo "by-n.sh: ROUNDS=$rounds: give a whole number >= 1" >&2; exit 2 ;; esac

# The CSV from time.cu's lines ("time KERNEL N=n d=d MASK ms ms TFLOPS ..."):
# a row per kernel, N, d and mask, with its rounds and their median.
table() { # log csv
    awk "$median_awk"'
        /^time / { n = $3; sub(/^N=/, "", n); d = $4; sub(/^d=/, "", d)
                   key = $2 "," n "," d "," $5; c = ++runs[key]; rate[key, c] = $8 }
        END {
            print "MW_FLASH_WGMMA,N,d,mask,rounds,tflops"
            for (key in runs) printf "%s,%d,%.1f\n", key, runs[key], median(key) | "sort -t, -k3,3n -k4,4 -k2,2n -k1,1"
            if (!length(runs)) { print "by-n.sh: no timings in the log" > "/dev/stderr"; exit 1 }
        }' "$1" > "$2.tmp" && mv "$2.tmp" "$2" || { rm -f "$2.tmp"; return 1; }
    echo "wrote $2"
}

if [ "${1:-}" = table ]; then
    table "$2" "${3:-step1-vs-ws.csv}"
    exit
fi
build_time by-n.sh "${1:-}"
log=$(dirname "$bin")/by-n.log
: > "$log"
for round in $(seq 1 "$rounds"); do
    for n in 2048 4096 8192 16384; do
        for v in ws step1; do
            MW_FLASH_WGMMA=$v timeout 60 "$bin" "$n" | tee -a "$log" || { echo "by-n.sh: $v at N = $n failed" >&2; exit 1; }
        done
    done
done
table "$log" "$out/step1-vs-ws.csv"
