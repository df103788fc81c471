# common.gp: loaded first by plot.sh, before speed.gp, traffic.gp or
# roofline.gp. Sets up the PNG output (out.'.png') and defines @svg, which a
# script runs after its plot command to redraw the same plot as out.'.svg'.
# Variables set by plot.sh with -e: out (path without extension), title, gpu,
# date; optionally height (pixels, default 750).

if (!exists('height')) height = 750

if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1200,height enhanced font 'Sans,13' linewidth 1.2
} else {
    set terminal png size 1200,height enhanced font 'Sans,12'
}
set output out.'.png'
svg = "set terminal svg size 1200,".height." dynamic enhanced background rgb 'white' font 'Sans,14' linewidth 1.2; set output out.'.svg'; replot; unset output"

set datafile separator "\t"
set title noenhanced font ',15'
set grid xtics ytics back lt 1 lc rgb '#D9D9D9' lw 1
set border lw 1.2
# The colours of the roofs other than the memory and compute roofs (the
# read and write streams, the tensor-core roofs, then any a later row of
# the roof table adds), in the speed and roofline plots alike: one each for
# the table's six, so that no two of them share one.
extracolour(i) = word('#009E73 #CC79A7 #D55E00 #56B4E9 #E69F00 #882255 #999933 #AA4499', (i - 1) % 8 + 1)
# "on GPU (date)", or whatever part of it env.csv gave.
on = (gpu ne '' ? ' on '.gpu : '').(date ne '' ? ' ('.date.')' : '')
