#!/bin/sh
# emulation-bench.sh [CHAPTER...] (01, or 01-vector-add): how long a student waits for `make check`
# on the CPU emulation. For each chapter (default: all), its reference
# solutions' programs are built first, then `make check CH=NN SIM=1
# SRC=solutions` runs once, timed from start to end as a student sees it.
# Writes results/emulation/<cpu>_<N>cores/check-times.csv (a chapter not
# run keeps its row from an earlier run) and prints it as a table:
#   chapter      the chapter
#   versions     its reference versions
#   passed       cases passed on the emulation, summed over the versions
#                (each case runs twice, in two orders of blocks and warps)
#   failed       cases failed (0 for a reference, or the benchmark fails)
#   skipped      cases past the emulation's budget, left to a GPU
#   wall_s       make check's wall time, the build excluded
#   cases_per_s  (passed + failed) / wall_s
#   load         the machine's 1-minute load average when the check began:
#                above 0.1 or so, other work shared the cores and the times
#                are longer than an idle machine's
# Performance is shown by this benchmark, never by a timed test: a loaded
# machine runs slower, and says so only here.
set -u
seed=${SEED:-20261122}
chapters=
for want in ${*:-$(ls -d chapters/[0-9][0-9]-* | xargs -n 1 basename)}; do
    ch=$(sh grader/mk/chapter.sh "$want")
    [ -n "$ch" ] || { echo "emulation-bench: no chapter matches '$want'" >&2; exit 1; }
    chapters="$chapters $ch"
done
cpu=$(sed -n 's/^model name[ \t]*: *//p' /proc/cpuinfo 2>/dev/null | head -n 1)
cores=$(nproc 2>/dev/null || echo 1)
label=$(printf '%s_%scores' "${cpu:-cpu}" "$cores" | sed 's/([^)]*)//g; s/[^A-Za-z0-9.-]\{1,\}/_/g')
dir=results/emulation/$label
mkdir -p "$dir" || exit 1
csv=$dir/check-times.csv
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp" "$tmp.out"' EXIT
echo "chapter,versions,passed,failed,skipped,wall_s,cases_per_s,load" >"$tmp"
status=0
for ch in $chapters; do
    num=${ch%%-*}
    versions=$(ls solutions/"$ch"/*.cu | wc -l)
    if ! make -s --no-print-directory grade-build CH="$num" SIM=1 SRC=solutions >"$tmp.out" 2>&1; then
        echo "emulation-bench: $ch does not build for the emulation:" >&2
        tail -n 5 "$tmp.out" >&2
        status=1
        continue
    fi
    load=$(cut -d ' ' -f 1 /proc/loadavg 2>/dev/null || echo -)
    start=$(date +%s.%N)
    make -s --no-print-directory check CH="$num" SIM=1 SRC=solutions SEED="$seed" >"$tmp.out" 2>&1
    end=$(date +%s.%N)
    last=$(tail -n 1 "$tmp.out")
    awk -v ch="$ch" -v v="$versions" -v s="$start" -v e="$end" -v last="$last" -v load="$load" 'BEGIN {
        n = split(last, w, /[ ,]+/)
        for (i = 2; i <= n; i++) { c[w[i]] = w[i - 1] }
        run = c["passed"] + c["failed"]; wall = e - s
        printf "%s,%d,%d,%d,%d,%.1f,%.2f,%s\n", ch, v, c["passed"], c["failed"], c["skipped"], wall,
               run / wall, load
    }' >>"$tmp"
    case $last in *" 0 failed"*) ;; *) status=1 ;; esac
done
# The chapters not run this time keep their rows of an earlier run, so that
# CH=04 measures chapter 04 again and leaves the others' rows alone.
if [ -f "$csv" ]; then
    awk -F, -v run="$chapters" 'BEGIN { n = split(run, r, " "); for (i = 1; i <= n; i++) ran[r[i]] = 1 }
        NR > 1 && !($1 in ran)' "$csv" >>"$tmp"
fi
{ head -n 1 "$tmp"; tail -n +2 "$tmp" | sort; } >"$csv"
echo "emulation-bench: wrote $csv ($cpu, $cores cores)"
awk -f plots/csv.awk -f plots/md-table.awk "$csv"
exit $status
