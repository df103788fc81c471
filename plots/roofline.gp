# roofline.gp: achieved GFLOP/s against arithmetic intensity, under the
# measured roofs. Variables from plot.sh: data (roofline.dat from prep.awk:
# x, y, label x, label y, colour, label, L or R for a label left or right of
# its anchor), n (number of points); the measured roofs from mw-facts
# --roofs: memroof and comproof (the memory and compute roofs, 0 if unknown)
# with memlegend and complegend, nextra and extraN, extralegendN,
# extracountsN (the other roofs); xlo, xhi, ylo, yhi (axis range).

# Real numbers: gnuplot divides integers as integers (51700/1000 = 51).
memroof = memroof * 1.0; comproof = comproof * 1.0
roofs = memroof > 0 && comproof > 0
# The memory roof alone: a roofs.csv that lacks the compute roof (one of an
# older roof table, until `make roofs` measures it) draws what it has.
memonly = memroof > 0 && !roofs
set title title.': roofline'.on.(roofs ? '' : memonly ? "\nno compute roof in roofs.csv (make roofs measures it): the memory roof alone" : "\nno roofs.csv (measured roofs) found: no roofs drawn")
set xlabel 'arithmetic intensity (FLOP per byte of DRAM traffic, log scale)'
set ylabel 'GFLOP/s (log scale)'
set logscale xy
set xrange [xlo:xhi]
set yrange [ylo:yhi]
set format x '%g'
set format y '10^{%L}'
set xtics out
set ytics out
set key outside below center horizontal Left reverse noenhanced spacing 1.3 width 2
if (!roofs && !memonly) unset key
set samples 3000

# The memory roof (bandwidth times intensity) meets the compute roof at the
# ridge point; left of it a kernel is memory-bound. Any other roof (TF32 or
# bf16, on the tensor cores at lower precision) is drawn apart, dashed, from
# the ridge.
ridge = roofs ? comproof / memroof : 1
mem(x) = memroof * x
cmd = 'plot '
if (memonly) {
    cmd = cmd.'mem(x) lc rgb "#333333" lw 3 title memlegend, '
}
if (roofs) {
    cmd = cmd.'x <= ridge ? mem(x) : 1/0 lc rgb "#333333" lw 3 title memlegend, '
    cmd = cmd.'x >= ridge ? comproof : 1/0 lc rgb "#0072B2" lw 3 title complegend, '
    set label sprintf('ridge %.3g FLOP/B', ridge) at first ridge, first comproof offset -0.8, 0.8 right font ',11' tc rgb '#0072B2'
    # A roof of FLOPs is flat from the ridge on; one of bytes is a slope.
    do for [i=1:nextra] {
        if (value('extracounts'.i) eq 'flops') {
            cmd = cmd.sprintf('x >= ridge ? (mem(x) < extra%d ? mem(x) : extra%d) : 1/0 lc rgb "%s" lw 2 dt 2 title extralegend%d, ', i, i, extracolour(i), i)
        } else {
            cmd = cmd.sprintf('extra%d * x < comproof ? extra%d * x : 1/0 lc rgb "%s" lw 2 dt 2 title extralegend%d, ', i, i, extracolour(i), i)
        }
    }
}
if (n > 0) {
    # Leader lines from each point to its label (labels are spread apart).
    cmd = cmd.'data using 1:2:($3 - $1):($4 - $2) with vectors nohead lc rgb "#AAAAAA" lw 1 notitle, '
    cmd = cmd.'data using 1:2:5 with points pt 7 ps 1.8 lc rgb variable notitle, '
    # Labels sit right of their points, or left of them near the right edge.
    cmd = cmd.'data using 3:(strcol(7) eq "L" ? $4 : NaN):6 with labels left offset 0.4, 0 noenhanced font ",12" notitle, '
    cmd = cmd.'data using 3:(strcol(7) eq "R" ? $4 : NaN):6 with labels right offset -0.4, 0 noenhanced font ",12" notitle'
} else {
    set label 'no timed implementation with FLOPs to place' at graph 0.5, graph 0.5 center
    cmd = cmd.'1/0 notitle'
}
eval cmd
@svg
