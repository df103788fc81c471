# speed.gp: speed against problem size, one line per implementation.
# Variables from plot.sh: data (speed.dat from prep.awk: one block per
# implementation; size, speed, speed at q3, speed at q1), impls, kinds,
# colours (space-separated lists, one word per block); the chapter's roof as
# bench.csv describes it: unit ('GB/s'), counts ('bytes' or 'flops': what
# speed is), rooflabel ('copy', 'FP32'), roofval (measured roof, 0 if
# unknown); nsline, slineN, slabelN (the other measured roofs that count
# what speed counts, their values and labels, from mw-facts --roofs), xlabel, ymax,
# ylog (1: logarithmic y axis, when a lower-precision line would flatten the
# others), symin (lowest speed drawn), smin, smax (range of sizes), xstep
# (factor between x ticks).

roofval = roofval * 1.0; ymax = ymax * 1.0; symin = symin * 1.0
set title title.': speed'.on
set xlabel xlabel
set ylabel unit.' (model '.(counts eq 'flops' ? 'FLOPs' : counts).' / median time)'.(ylog ? ', log scale' : '')
set logscale x 2
set format x '2^{%L}'
# A little room beyond the end points so that their bars are not clipped.
set xrange [smin / 1.25 : smax * 1.25]
# Ticks on whole powers of two (a log axis otherwise starts them at the range's
# left end).
set xtics 2 ** ceil(log(smin / 1.25) / log(2)), xstep out
set mxtics 2
set ytics out
if (ylog) {
    set logscale y
    set format y '10^{%L}'
    # Room above the fastest line and the roofs drawn, the other roofs of
    # what speed counts included (a bf16 roof above every line): each
    # label sits above its line.
    top = 2 * (ymax > roofval ? ymax : roofval)
    do for [i=1:nsline] {
        v = 2 * value('sline'.i)
        top = v > top ? v : top
    }
    set yrange [symin / 2 : top]
} else {
    set yrange [0:1.1 * (ymax > roofval ? ymax : roofval)]
}
# Below the plot, two columns: long library names would squeeze it sideways.
set key outside below center horizontal Left reverse noenhanced spacing 1.2 width 2 maxcols 2

# The roof as a line across the plot, labelled where the small (slow) sizes
# leave room.
if (roofval > 0) {
    set arrow from graph 0, first roofval to graph 1, first roofval nohead lc rgb '#555555' lw 2 dt 3 front
    set label sprintf('%s roof %.0f %s (measured)', rooflabel, roofval, unit) \
        at graph 0.02, first roofval offset 0, 0.8 left front
}
# On a log axis (a lower-precision line is drawn), the other roofs of what
# speed counts too: the roofs of those lines (TF32 in a chapter of FLOPs).
if (ylog) {
    do for [i=1:nsline] {
        v = value('sline'.i) * 1.0
        set arrow from graph 0, first v to graph 1, first v nohead lc rgb extracolour(i) lw 2 dt 2 front
        set label value('slabel'.i) at graph 0.02, first v offset 0, 0.8 left front tc rgb extracolour(i)
    }
}

# Student: solid; reference: dashed in the colour of the student version of
# the same name; library: black dash-dot; roof: thin grey. Bars: quartiles.
style(k, a, b, c, d) = k eq 'student' ? a : k eq 'reference' ? b : k eq 'library' ? c : d
if (words(impls) > 0) {
    plot for [i=1:words(impls)] data index (i - 1) using 1:2:3:4 with yerrorlines \
        lc rgb word(colours, i) \
        dt 0 + style(word(kinds, i), 1, 2, 4, 1) \
        lw style(word(kinds, i), 2.5, 2.5, 2.5, 1.2) \
        pt style(word(kinds, i), 7, 6, 9, 1) \
        ps style(word(kinds, i), 1.1, 1.2, 1.3, 0.5) \
        title word(impls, i)
} else {
    set label 'no timed rows (all wrong or not implemented)' at graph 0.5, graph 0.5 center
    plot 1/0 notitle
}
@svg
