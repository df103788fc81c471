#!/usr/bin/env bash
# ablation.sh [RESULTS_DIR]: the ablation table of exercise 05.4's reference,
# FlashAttention-3's steps undone one at a time, on this machine's sm_90 GPU.
# Builds time.cu with the reference, times each MW_FLASH_WGMMA kernel at
# N = 4096 and 16384 (time.cu says how) in ROUNDS rounds (default 3, every
# kernel in turn in each) and, where the build found cuDNN, cuDNN's fused
# attention in the same rounds (the row "cudnn": the reference's ratio to
# the library without the drift between two runs), keeps the median of
# each cell's rounds, checks
# that every kernel's O is the same in every round and bitwise that of the
# kernel doing the same arithmetic (same, below), and writes
# ablation-wgmma.csv (TFLOP/s) into RESULTS_DIR (default: results/<this
# GPU>/05-attention), which the chapter's lesson shows (make tables). About
# a minute a round on an H100.
#     ablation.sh table TIME_LOG [CSV]: only the last step, from a log of
#     time.cu's lines.
set -u
here=$(dirname "$0")
. "$here/time-common.sh"
rounds=${ROUNDS:-3}
case $rounds in '' | *[!0-9]* | 0) echo "ablation.sh: ROUNDS=$rounds: give a whole number >= 1" >&2; exit 2 ;; esac
kernels="step1 ws ws-nopersist ws-persist ws-heads ws-ring ws-noring ws-eager ws2 ws-nopp ws-noov ws-plain ws-bc64"
# Kernels that do the same arithmetic in the same order, each with the one
# whose O it must match bitwise: the key tile and the rescaling decide the
# order (ws, lazy, matches ws-nopersist, ws-persist and ws-heads, whose
# grids move blocks, not sums, and ws-ring and ws-noring, whose turns move
# time and whose extra causal tiles add P = 0). ws-eager's key tiles are
# 176 at d = 128 without a mask (wide), ws2's 128: there the two differ,
# and are not compared.
same="ws-nopersist=ws ws-persist=ws ws-heads=ws ws-ring=ws ws-noring=ws ws-eager=ws2 ws-nopp=ws2 ws-noov=ws2 ws-plain=ws2 ws-bc64=step1"
wide="ws-eager=ws2 d=128 full"

# The CSV from time.cu's lines: one row per kernel, a column per shape.
table() { # log csv
    awk -v kernels="$kernels" -v same="$same" -v wide="$wide" "$median_awk"'
        /^time / {
            v = $2; key = $3 " " $4 " " $5; c = ++runs[v, key]; rate[v, key, c] = $8
            if (v == "cudnn") has_library = 1
            if ((v, key) in hash && hash[v, key] != $11) unsteady[v, key] = 1
            hash[v, key] = $11
        }
        END {
            split(wide, wd, " "); wide_pair = wd[1]; wide_key = wd[2] " " wd[3]
            what["step1"] = "step 1: one warpgroup of 64 rows loads and computes, key tiles of 64"
            what["ws"] = "the reference: FA3 with key tiles of 176 at d = 128 without a mask, 3 consumers at d = 64 (taking turns without a mask), a persistent grid without a mask, and FA4'"'"'s lazy rescaling"
            what["ws-nopersist"] = "ws with a block a query tile everywhere"
            what["ws-persist"] = "ws with a persistent grid everywhere"
            what["ws-heads"] = "ws in plain head-major grid order when causal too (ws: heads in groups sized to the L2, longest tiles first)"
            what["ws-ring"] = "ws with its three consumers at d = 64 taking turns at the tensor cores with the mask too (at d = 128 ws itself)"
            what["ws-noring"] = "ws with its three consumers at d = 64 taking no turns, with or without the mask (at d = 128 ws itself)"
            what["ws-eager"] = "ws rescaling O at every tile, as FA3"
            what["ws2"] = "FA3'"'"'s schedule: 2 consumers, ping-pong + overlap, key tiles of 128"
            what["ws-nopp"] = "ws2 without ping-pong"
            what["ws-noov"] = "ws2 without the overlap"
            what["ws-plain"] = "ws2 with neither: warp specialisation alone"
            what["ws-bc64"] = "ws2 with key tiles of 64"
            what["cudnn"] = "cuDNN'"'"'s fused attention, the library, timed in the same rounds"
            ns = split(same, pairs, " ")
            for (i = 1; i <= ns; i++) { split(pairs[i], pr, "="); base[pr[1]] = pr[2] }
            nk = split("N=4096 d=64 full|N=4096 d=64 causal|N=4096 d=128 full|N=4096 d=128 causal|" \
                       "N=16384 d=64 full|N=16384 d=64 causal|N=16384 d=128 full|N=16384 d=128 causal", keys, "|")
            printf "MW_FLASH_WGMMA,what"
            for (k = 1; k <= nk; k++) { h = keys[k]; sub(/ full$/, "", h); printf ",%s", h }
            print ""
            n = split(kernels, vs, " "); bad = 0
            if (has_library) vs[++n] = "cudnn"
            for (i = 1; i <= n; i++) {
                printf "%s,\"%s\"", vs[i], what[vs[i]]
                for (k = 1; k <= nk; k++) {
                    missing = !((vs[i], keys[k]) in runs)
                    printf ",%s", missing ? "" : sprintf("%.1f", median(vs[i] SUBSEP keys[k]))
                    b = (vs[i] in base) ? base[vs[i]] : vs[i]
                    if (vs[i] "=" b == wide_pair && index(keys[k], wide_key)) b = vs[i]
                    if (missing || hash[vs[i], keys[k]] != hash[b, keys[k]] || (vs[i], keys[k]) in unsteady) bad++
                }
                print ""
            }
            if (bad) { print "ablation.sh: " bad " timings missing, with an O unlike its group'"'"'s, or with an O that changed between rounds" > "/dev/stderr"; exit 1 }
        }' "$1" > "$2.tmp" && mv "$2.tmp" "$2" || { rm -f "$2.tmp"; return 1; }
    echo "wrote $2"
}

if [ "${1:-}" = table ]; then
    table "$2" "${3:-ablation-wgmma.csv}"
    exit
fi
build_time ablation.sh "${1:-}"
library=
[ "$have_cudnn" = 1 ] && library=cudnn || echo "ablation.sh: no cudnn.h at build time: the table has no cuDNN row" >&2
log=$(dirname "$bin")/time.log
: > "$log"
# Rounds of every kernel in turn, so that a drift of the clocks or the
# temperature over the run falls on all of them alike.
for round in $(seq 1 "$rounds"); do
    for v in $kernels $library; do
        for n in 4096 16384; do
            MW_FLASH_WGMMA=$v timeout 120 "$bin" "$n" | tee -a "$log" || { echo "ablation.sh: $v at N = $n failed" >&2; exit 1; }
        done
    done
done
table "$log" "$out/ablation-wgmma.csv"
