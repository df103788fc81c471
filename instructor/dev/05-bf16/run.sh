#!/usr/bin/env bash
# run.sh: builds the bf16 flash attention of instructor/dev/05-bf16 and runs its driver.
#
#   bash instructor/dev/05-bf16/run.sh [check|time|all] [driver options]   (default: all)
#   bash instructor/dev/05-bf16/run.sh build      build only (no GPU needed): ptxas report
#   bash instructor/dev/05-bf16/run.sh ablate [--build] [NAME...]
#                                     the design steps' ablations: one driver
#                                     per step undone (NAME: those only), each
#                                     checked, then timed next to the full
#                                     kernel; --build: build only (no GPU)
#   bash instructor/dev/05-bf16/run.sh sim [--quick] [--config NAME] [--ablate NAME]
#                                     the host simulation (no GPU, no CUDA
#                                     runtime: g++ and perl), sim/sim.cpp
#
# Driver options: --config NAME (one configuration of the table in
# solutions/05-attention/03_flash_bf16.cu), and for time --config all (every configuration: the
# ablation table). The build goes to instructor/dev/05-bf16/build/: nvcc -O3 -std=c++17
# -lineinfo for the GPU that nvidia-smi reports (sm_90a on compute 9.0, sm_XY
# otherwise; sm_90a when there is no nvidia-smi). NVCC= picks another nvcc.
#
# ablate: tile shape, warps and Q_i in registers are configurations (time
# --config all); the kernel's other design steps each have a compile-time
# switch that undoes that step alone, MW05_ABLATE_* (the list below; the
# graded build defines none). ablate builds one driver per switch,
# build/driver-NAME, and the full kernel, build/driver-full, all with
# MW05_DEFAULT_CONFIGS_ONLY (the 3 default configurations of 8: a faster
# build), in parallel, JOBS= at a time (default: every core). Each runs
# `driver check`: one that fails says so and is not timed. The others run
# `driver time` (the default configuration per d at the driver's time
# shapes), the full kernel first and once more last (its drift over the run:
# the noise floor), and one table gives, per shape, each step undone: ms,
# TFLOP/s and the slowdown against the full kernel. Logs:
# build/ablate-NAME.{ptxas,check,time}.log. Exit 1 when a check failed.
# sim --ablate NAME: the host simulation with switch NAME.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
src=$root/solutions/05-attention/03_flash_bf16.cu # the kernel: exercise 05.3's reference
out=$here/build
mode=${1:-all}
if [ $# -gt 0 ]; then shift; fi

# The ablations: NAME MACRO what it undoes (the header's design steps).
ablations=(
    "no-swizzle MW05_ABLATE_NO_SWIZZLE the XOR swizzle of the shared tiles (row-major chunks: 8-way ldmatrix conflicts)"
    "no-pipeline MW05_ABLATE_NO_PIPELINE the double buffering (K_j+1, V_j+1 land before tile j's math)"
    "expf MW05_ABLATE_EXPF the one-FMA exp2 fold (exponent in base e, times log2(e), then ex2)"
    "no-rescale-skip MW05_ABLATE_NO_RESCALE_SKIP the warp vote that skips the O_i rescale (rescaled every tile)"
    "grid-order MW05_ABLATE_GRID_ORDER the grid order (plain head-major, shortest tiles first; no head groups)"
)

# The macro of ablation NAME; exits 2 when there is none.
ablation_macro() {
    local a
    for a in "${ablations[@]}"; do
        if [ "${a%% *}" = "$1" ]; then
            a=${a#* }
            echo "${a%% *}"
            return 0
        fi
    done
    echo "run.sh: no ablation $1; one of:$(for a in "${ablations[@]}"; do printf ' %s' "${a%% *}"; done)" >&2
    exit 2
}

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

# nvcc_driver ARCH OUT LOG [nvcc options]: the driver into OUT, ptxas's report into LOG.
nvcc_driver() {
    local a=$1 o=$2 log=$3
    shift 3
    "${NVCC:-nvcc}" -O3 -std=c++17 -arch="$a" -lineinfo -Xptxas -v "$@" -o "$o" \
        -I "$root/chapters/05-attention" -I "$root/grader" "$here/driver.cu" "$src" 2>"$log"
}

# ptxas_report LOG: one line per configuration: Cfg<D, Br, Bc, warps, Q in registers, min blocks>.
ptxas_report() {
    awk '/Compiling entry function/ { match($0, /CfgILi[0-9]+ELi[0-9]+ELi[0-9]+ELi[0-9]+ELb[01]ELi[0-9]+E/);
             c = substr($0, RSTART + 6, RLENGTH - 7); gsub(/ELi|ELb/, ", ", c); cfg = c }
         /spill stores/ { spill = $5 " B spill stores, " $9 " B spill loads" }
         /Used [0-9]+ registers/ { printf "   Cfg<%s>: %s registers, %s\n", cfg, $5, spill }' "$1"
    if grep -qE '[1-9][0-9]* bytes spill (stores|loads)' "$1"; then
        echo "   WARNING: a configuration spills registers (see $1)"
    fi
}

build() {
    local a
    a=$(arch)
    mkdir -p "$out"
    echo "== build: ${NVCC:-nvcc} -arch=$a"
    nvcc_driver "$a" "$out/driver" "$out/ptxas.log" || { cat "$out/ptxas.log"; exit 2; }
    ptxas_report "$out/ptxas.log"
    if command -v cuobjdump >/dev/null 2>&1; then
        echo "   HMMA instructions in the SASS: $(cuobjdump -sass "$out/driver" | grep -c HMMA)"
    fi
}

# time_rows STEP LOG ROWS: the timed lines of `driver time`'s LOG (CONFIG SHAPE...
# MS TFLOP/S VS-FA2) appended to ROWS as STEP, shape, ms, TFLOP/s (tab-separated);
# a configuration that failed the driver's own check before timing, on stdout.
time_rows() {
    awk -v step="$1" -v rows="$3" -v tlog="$2" '
        $2 ~ /^B=/ { s = $2; for (k = 3; k <= NF - 3; k++) s = s " " $k
                     print step "\t" s "\t" $(NF - 2) "\t" $(NF - 1) >>rows }
        / failed its check: not timed/ && !seen[$1]++ {
            print step ": configuration " $1 " failed the time check (B=1 H=2 N=777): not timed (" tlog ")" }' "$2"
}

# ablate [--build] [NAME...]: see the header.
ablate() {
    local only_build=0 a name jobs n=0 status names=() macros=() what=()
    if [ "${1:-}" = --build ]; then
        only_build=1
        shift
    fi
    names=(full) macros=("") what=("nothing: the kernel as graded")
    for a in "${ablations[@]}"; do
        name=${a%% *}
        if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qxF -- "$name"; then
            continue
        fi
        a=${a#* }
        names+=("$name") macros+=("${a%% *}") what+=("${a#* }")
    done
    for name in "$@"; do ablation_macro "$name" >/dev/null; done
    a=$(arch)
    jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
    mkdir -p "$out"
    echo "== ablate: ${#names[@]} drivers, ${NVCC:-nvcc} -arch=$a -DMW05_DEFAULT_CONFIGS_ONLY, $jobs at a time"
    for i in "${!names[@]}"; do
        rm -f "$out/driver-${names[$i]}"
        nvcc_driver "$a" "$out/driver-${names[$i]}" "$out/ablate-${names[$i]}.ptxas.log" \
            -DMW05_DEFAULT_CONFIGS_ONLY ${macros[$i]:+"-D${macros[$i]}"} &
        n=$((n + 1))
        if [ "$n" -ge "$jobs" ]; then
            wait -n || true # a failed build shows below: its driver is missing
            n=$((n - 1))
        fi
    done
    wait || true
    status=0
    for i in "${!names[@]}"; do
        name=${names[$i]}
        echo "-- $name${macros[$i]:+ (-D${macros[$i]})}: undoes ${what[$i]}"
        if [ ! -x "$out/driver-$name" ]; then
            cat "$out/ablate-$name.ptxas.log"
            echo "   BUILD FAILED"
            status=2
            continue
        fi
        ptxas_report "$out/ablate-$name.ptxas.log"
    done
    if [ "$status" -ne 0 ] || [ "$only_build" -eq 1 ]; then
        return "$status"
    fi

    # Correctness first: a step undone wrongly is reported, never timed.
    local ok=() bad=0
    for i in "${!names[@]}"; do
        name=${names[$i]}
        status=0
        "$out/driver-$name" check >"$out/ablate-$name.check.log" 2>&1 || status=$?
        if [ "$status" -eq 77 ]; then
            cat "$out/ablate-$name.check.log" >&2
            return 77 # no GPU
        fi
        if [ "$status" -eq 0 ]; then
            echo "check $name: $(tail -n 1 "$out/ablate-$name.check.log")"
            ok+=("$i")
        else
            echo "check $name: FAILED ($(grep -c '^FAIL' "$out/ablate-$name.check.log") FAIL lines, exit $status;" \
                "see $out/ablate-$name.check.log): not timed"
            bad=1
            [ "$name" = full ] && return 1
        fi
    done

    local rows=$out/ablate.rows notes=$out/ablate.notes
    : >"$rows"
    : >"$notes"
    for i in "${!names[@]}"; do
        name=${names[$i]}
        if ! printf '%s\n' "${ok[@]}" | grep -qxF "$i"; then
            echo "$name: failed driver check ($out/ablate-$name.check.log): not timed" >>"$notes"
            continue
        fi
        echo "time $name"
        status=0
        "$out/driver-$name" time >"$out/ablate-$name.time.log" 2>&1 || status=$?
        [ "$status" -eq 0 ] || bad=1
        time_rows "$name" "$out/ablate-$name.time.log" "$rows" >>"$notes"
        [ "$status" -eq 0 ] || echo "$name: driver time exit $status ($out/ablate-$name.time.log)" >>"$notes"
    done
    # The full kernel once more, last: how far the same kernel drifts over
    # the run, the noise floor of the slowdowns.
    echo "time full, again"
    "$out/driver-full" time >"$out/ablate-full-again.time.log" 2>&1 || true
    time_rows "full, again" "$out/ablate-full-again.time.log" "$rows" >>"$notes"
    echo
    echo "== what undoing each design step costs (default configuration per d; slowdown: ms / the full kernel's ms)"
    grep -m 1 '^device:' "$out/ablate-full.time.log" || true
    for i in "${!names[@]}"; do
        printf '%-16s %s\n' "${names[$i]}" "${what[$i]}"
    done
    printf '%-16s %s\n' "full, again" "nothing, timed once more at the end: the run's drift, the noise floor"
    echo
    # One block per shape, in the driver's order, the full kernel first.
    awk -F'\t' '
        { if (!($2 in seen)) { seen[$2] = 1; shapes[++ns] = $2 }
          row[$2, ++nr[$2]] = $0
          if ($1 == "full") base[$2] = $3 }
        END {
          printf "%-16s %-28s %9s %9s %9s\n", "step undone", "shape", "ms", "TFLOP/s", "slowdown"
          for (k = 1; k <= ns; k++) {
              if (k > 1) print ""
              for (r = 1; r <= nr[shapes[k]]; r++) {
                  split(row[shapes[k], r], f, "\t")
                  slow = base[shapes[k]] > 0 ? sprintf("%.2fx", f[3] / base[shapes[k]]) : "-"
                  printf "%-16s %-28s %9.3f %9.1f %9s\n", f[1], f[2], f[3], f[4], slow
              }
          }
        }' "$rows"
    if [ -s "$notes" ]; then
        echo
        echo "not timed:"
        sed 's/^/  /' "$notes"
    fi
    return "$bad"
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
    ablate)
        ablate "$@"
        ;;
    sim)
        # --ablate NAME: the simulation of the kernel with that step undone.
        args=() defs=() bin=sim
        while [ $# -gt 0 ]; do
            if [ "$1" = --ablate ] && [ $# -ge 2 ]; then
                defs=("-D$(ablation_macro "$2")") bin=sim-$2
                shift 2
            else
                args+=("$1")
                shift
            fi
        done
        mkdir -p "$out/sim"
        perl "$here/sim/extract.pl" "$src" >"$out/sim/sim_kernel.inc"
        g++ -O2 -std=c++17 -Wall -Wno-unknown-pragmas -Wno-clobbered ${defs[@]+"${defs[@]}"} -I "$out/sim" \
            -o "$out/sim/$bin" "$here/sim/sim.cpp"
        "$out/sim/$bin" ${args[@]+"${args[@]}"}
        ;;
    *)
        echo "usage: bash instructor/dev/05-bf16/run.sh [check|time|all|build|ablate|sim] [options]" >&2
        exit 2
        ;;
esac
