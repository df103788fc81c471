# footprint.gp: device memory an implementation needs against problem size:
# the case's buffers plus its workspace (chapter 05's unfused forms hold the
# N x N scores), beside the GPU's memory. Variables from plot.sh: data
# (footprint.dat: one block per implementation; size, GB), fimpls, gpugb,
# fmin, fmax, fymax, xlabel.

set title title.': device memory needed'.on
set xlabel xlabel
set ylabel 'GB (10^9 bytes): buffers + workspace, log scale'
set logscale x 2
set logscale y
set format x '2^{%L}'
set format y '%g'
set xrange [fmin / 1.25 : fmax * 1.25]
set xtics 2 ** ceil(log(fmin / 1.25) / log(2)), 2 out
set ytics out
top = (fymax > gpugb ? fymax : gpugb) * 3
set yrange [: top]
set key top left Left reverse noenhanced box opaque
if (gpugb > 0) {
    set arrow from graph 0, first gpugb to graph 1, first gpugb nohead lc rgb '#D55E00' lw 2 dt 2 front
    set label sprintf("the GPU's memory: %.0f GB", gpugb) at graph 0.02, first gpugb offset 0, 0.8 left front tc rgb '#D55E00'
}
colours = '#0072B2 #009E73 #CC79A7 #E69F00 #56B4E9 #000000'
plot for [i=1:words(fimpls)] data index (i - 1) using 1:2 with linespoints \
    lc rgb word(colours, (i - 1) % 6 + 1) lw 2.5 pt 7 title word(fimpls, i)
@svg
