#!/usr/bin/env bash
# t0400-plots.t: plots/plot.sh draws the six plots from the sample results (and a
# chapter's views: plot-views), says so plainly when gnuplot, traffic counters, roofs or bench.csv are
# missing, and fails when gnuplot fails. The bench.csv files carry the facts
# columns (build/tools/mw-facts adds them to a made-up one). TAP; run with
# prove from the root.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "1..0 # SKIP gnuplot not installed"
    exit 0
fi

if [ ! -x "$root/build/tools/mw-facts" ]; then
    echo "1..1"
    echo "not ok 1 - build/tools/mw-facts is not built (run 'make build')"
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$root/tests/data/sample-results" "$tmp/r"

n=0 failed=0
ok() {   # ok STATUS NAME: STATUS 0 passes
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
has() { grep -qF -- "$2" "$1"; }          # has FILE TEXT
png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }
plot() { "$root/plots/plot.sh" "$@" >"$tmp/out" 2>"$tmp/err"; }

# The full sample: measured traffic and roofs.
d=$tmp/r/01-vector-add
plot "$d"; ok $? "plot.sh draws the sample"
for f in speed traffic roofline; do
    png "$d/$f.png"; ok $? "$f.png is a PNG"
    has "$d/$f.svg" "<svg"; ok $? "$f.svg is an SVG"
    has "$tmp/out" "$d/$f.png" && has "$tmp/out" "$d/$f.svg"; ok $? "$f.png and $f.svg are listed"
done
has "$d/speed.svg" "copy roof 3013 GB/s (measured)"; ok $? "speed: measured copy roof labelled"
has "$d/speed.svg" "NVIDIA H100 80GB HBM3 (2026-11-22)"; ok $? "speed: title names GPU and date"
has "$d/speed.svg" "library/cublasSgeam" && ! has "$d/speed.svg" "student/03_vec4"
ok $? "speed: timed implementations drawn, not-implemented one left out"
! has "$d/traffic.svg" "model bytes only"; ok $? "traffic: measured bytes drawn"
has "$d/traffic.svg" "reference/02_fast 2^24"; ok $? "traffic: cluster labelled with impl and size as 2^k"
has "$d/roofline.svg" "memory roof: copy 3013 GB/s (measured)" &&
    has "$d/roofline.svg" "FP32 FFMA roof: 51.7 TFLOP/s (microkernel)" &&
    has "$d/roofline.svg" "memory roof: read 3250 GB/s (microkernel)"
ok $? "roofline: measured roofs labelled, with the instruction, as the microkernel's"
! has "$d/roofline.svg" "wgmma"; ok $? "roofline: a roof not on this GPU (blank in roofs.csv) is left out"
has "$d/roofline.svg" "reference/02_fast 250 GFLOP/s" && ! has "$d/roofline.svg" "(model bytes)"
ok $? "roofline: points labelled, placed with measured bytes"

# A chapter's views (chapters/<chapter>/plot-views): "speed" narrows the
# main speed plot to the series it matches, "speed-..." and "roofline-..."
# draw more, titled after the chapter; the other plots stay whole.
cp -R "$tmp/r/01-vector-add" "$tmp/views"
d=$tmp/views
cat >"$tmp/plot-views" <<'V'
# a comment
speed          ^reference/   the references
speed-library  ^library/     the library alone
roofline-fast  _fast$        fast ones
V
MW_PLOT_VIEWS=$tmp/plot-views plot "$d"; ok $? "plot.sh draws a chapter with views"
has "$d/speed.svg" "reference/02_fast" && ! has "$d/speed.svg" "library/cublasSgeam" &&
    has "$d/speed.svg" "the references"
ok $? "views: speed narrowed to the series its regex matches, titled"
has "$d/speed-library.svg" "library/cublasSgeam" && ! has "$d/speed-library.svg" "reference/02_fast" &&
    has "$tmp/out" "$d/speed-library.png"
ok $? "views: speed-library drawn and listed, the library alone"
has "$d/roofline-fast.svg" "reference/02_fast" && ! has "$d/roofline-fast.svg" "reference/01_naive"
ok $? "views: roofline-fast has the matching points only"
has "$d/roofline.svg" "reference/01_naive" && has "$d/roofline.svg" "library/cublasSgeam"
ok $? "views: the main roofline, with no view of its own, stays whole"

# No DRAM counters: traffic.csv has model rows only.
d=$tmp/r/01-vector-add-model-only
plot "$d"; ok $? "plot.sh draws the model-only sample"
has "$d/traffic.svg" "model bytes only"; ok $? "model-only: traffic says model bytes only"
has "$d/roofline.svg" "(model bytes)"; ok $? "model-only: roofline points say model bytes"

# No traffic.csv, no roofs.csv, a title with a quote in it.
mkdir -p "$tmp/bare/01-vector-add"
d=$tmp/bare/01-vector-add
cp "$tmp/r/01-vector-add/bench.csv" "$d/"
sed "s/^title,.*/title,Chapter 01: Amdahl's add/" "$tmp/r/01-vector-add/env.csv" > "$d/env.csv"
plot "$d"; ok $? "plot.sh draws without traffic.csv and roofs.csv"
has "$d/traffic.svg" "model bytes only"; ok $? "no traffic.csv: model bytes from bench.csv"
has "$d/roofline.svg" "no roofs drawn"; ok $? "no roofs.csv: roofline says so"
# A roofs.csv of an older roof table (the copy alone is a roof of this
# one): the memory roof is drawn, and the title says the compute roof is
# not measured.
mkdir -p "$tmp/old/01-vector-add"
cp "$tmp/r/01-vector-add/bench.csv" "$tmp/r/01-vector-add/env.csv" "$tmp/old/01-vector-add/"
printf 'metric,value,unit,detail\ncopy_gbps,3013,GB/s,copy\nfp32_gflops,51700,GFLOP/s,"cublasSgemm"\n' > "$tmp/old/roofs.csv"
plot "$tmp/old/01-vector-add"; ok $? "plot.sh draws with a roofs.csv of an older table"
has "$tmp/old/01-vector-add/roofline.svg" "memory roof: copy 3013 GB/s (measured)" &&
    has "$tmp/old/01-vector-add/roofline.svg" "no compute roof in roofs.csv" &&
    ! has "$tmp/old/01-vector-add/roofline.svg" "51.7 TFLOP/s"
ok $? "older roofs.csv: the memory roof alone, the library rate not drawn as a roof"
has "$d/speed.svg" "Amdahl"; ok $? "a quote in the title survives"

# A GFLOP/s chapter with a TF32 library line 8x above the FP32 roof and a
# bf16 version measured against its own roof: the speed axis turns
# logarithmic and draws the TF32 roof; the FP32 roof stays the chapter's.
# (Made-up times, to exercise the drawing only.)
d=$tmp/fp32/09-gemm
mkdir -p "$d"
cp "$tmp/r/roofs.csv" "$tmp/fp32/"
awk 'BEGIN {
    print "chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op"
    split("reference/01_k library/sgemm library/sgemm_TF32 reference/03_bf16", im, " ")
    split("reference library library reference", kd, " "); split("fp32 fp32 tf32_mma bf16_mma", rf, " ")
    split("20000 50000 400000 600000", gf, " ")
    for (n = 1024; n <= 4096; n *= 2)
        for (i = 1; i <= 4; i++) {
            f = 2 * n * n * n; b = 12 * n * n; ms = f / gf[i] / 1e6
            printf "09-gemm,%s,%s,%d,M=%d N=%d K=%d,%d,%d,10,%g,%g,%g,%g,%g,%g,%s,50,,0\n",
                im[i], kd[i], n, n, n, n, b, f, ms, ms, ms, ms, b / ms / 1e6, gf[i], rf[i]
        }
}' > "$d/bench.csv"
# The facts columns (timed, chapter_roof, roof_value, roof_counts, ...),
# decided in C.
"$root/build/tools/mw-facts" "$d/bench.csv"; ok $? "mw-facts adds the facts to the FP32 chapter"
plot "$d"; ok $? "plot.sh draws an FP32 chapter with a TF32 library line and a bf16 version"
has "$d/speed.svg" "log scale" && has "$d/speed.svg" "TF32 mma.sync roof"
ok $? "speed: log axis and the TF32 roof when a TF32 line would flatten the others"
has "$d/speed.svg" "FP32 FFMA roof 51700 GFLOP/s (measured)"; ok $? "speed: the FP32 roof is still the chapter's"

# A made-up roof added to the table in one place (tests/unit/test_roofs.c)
# reaches the plots with no other change: plot.sh draws what the roofs
# listing (mw-facts --roofs) holds, here that table's.
if [ -x "$root/build/tests/test_roofs" ] &&
    "$root/build/tests/test_roofs" --madeup-roofs "$tmp/madeup.csv" >/dev/null; then
    printf '#!/bin/sh\ncat "%s"\n' "$tmp/madeup.csv" >"$tmp/madeup-facts"
    chmod +x "$tmp/madeup-facts"
    MW_FACTS=$tmp/madeup-facts plot "$d"; ok $? "plot.sh draws the FP32 chapter with a made-up roof in the table"
    has "$d/roofline.svg" "MADEUP roof: 1.2 TFLOP/s (made up for a test)" &&
        has "$d/roofline.svg" "TF32 mma.sync roof: 400 TFLOP/s (microkernel)"
    ok $? "roofline: the made-up roof beside TF32, with the legend the table gives it"
    has "$d/speed.svg" "MADEUP roof 1234 GFLOP/s (made up for a test)"
    ok $? "speed: the made-up roof's line, as it counts FLOPs like the chapter"
    # bf16 mma.sync and wgmma (measured in that listing): dashed beside
    # TF32 and the made-up one, the other extra roofs.
    has "$d/roofline.svg" "bf16 mma.sync roof: 800 TFLOP/s (microkernel)" &&
        has "$d/roofline.svg" "bf16 wgmma roof: 900 TFLOP/s (microkernel)" &&
        has "$d/speed.svg" "bf16 mma.sync roof 800000 GFLOP/s (microkernel)"
    ok $? "roofline and speed: the bf16 roofs beside the other extra ones"
else
    ok 1 "build/tests/test_roofs --madeup-roofs wrote the made-up table's roofs (run 'make build')"
fi
MW_FACTS=$tmp/none plot "$d"
ok $((! $?)) "no roofs listing tool: plot.sh fails"
has "$tmp/err" "run 'make build' first"; ok $? "and says to build it"

# The committed results drawn again are the committed plots, to the byte
# (SVG: its text does not depend on the fonts installed). They were drawn by
# gnuplot 5.4 patchlevel 4; another version may lay them out differently.
if [ "$(gnuplot --version)" = "gnuplot 5.4 patchlevel 4" ]; then
    differ=
    for g in "$root"/results/*/; do
        [ -f "$g/roofs.csv" ] || continue
        gpu=$(basename "$g"); mkdir -p "$tmp/committed/$gpu"
        cp "$g/roofs.csv" "$tmp/committed/$gpu/"
        for c in "$g"/*/; do
            [ -f "$c/bench.csv" ] || continue
            ch=$(basename "$c"); cp -R "$c" "$tmp/committed/$gpu/$ch"
            plot "$tmp/committed/$gpu/$ch" || differ="$differ $gpu/$ch(failed)"
            for f in "$c"/*.svg; do
                cmp -s "$f" "$tmp/committed/$gpu/$ch/$(basename "$f")" || differ="$differ $gpu/$ch/$(basename "$f")"
            done
        done
    done
    [ -z "$differ" ]; ok $? "the committed results draw the committed SVG plots, byte for byte${differ:+ (differ:$differ)}"
else
    echo "ok $((n += 1)) # SKIP the committed plots were drawn by gnuplot 5.4 patchlevel 4, not $(gnuplot --version)"
fi

# No gnuplot on the PATH: exit 2 and how to install it.
mkdir "$tmp/bin"
for t in awk sed dirname mktemp rm cat; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
PATH=$tmp/bin "$(command -v sh)" "$root/plots/plot.sh" "$tmp/r/01-vector-add" >"$tmp/out" 2>&1
ok $(($? != 2)) "no gnuplot: exit status 2"
has "$tmp/out" "gnuplot not found; install it (Debian/Ubuntu: apt-get install gnuplot-nox)"
ok $? "no gnuplot: says how to install it"

# gnuplot fails: plot.sh fails.
mkdir "$tmp/badbin"
printf '#!/bin/sh\necho "fake gnuplot: error" >&2\nexit 1\n' > "$tmp/badbin/gnuplot"
chmod +x "$tmp/badbin/gnuplot"
PATH=$tmp/badbin:$PATH "$root/plots/plot.sh" "$tmp/r/01-vector-add" >"$tmp/out" 2>&1
ok $(($? == 0)) "failing gnuplot: non-zero exit"

# No bench.csv: a clear error naming the file and the make goal.
mkdir -p "$tmp/empty/01-vector-add"
plot "$tmp/empty/01-vector-add"; st=$?
ok $((st != 1)) "no bench.csv: exit status 1"
has "$tmp/err" "bench.csv not found" && has "$tmp/err" "make bench CH=01"
ok $? "no bench.csv: says to run make bench CH=01"

echo "1..$n"
[ "$failed" -eq 0 ]
