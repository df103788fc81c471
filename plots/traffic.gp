# traffic.gp: DRAM bytes per call, the analytic minimum beside what Nsight
# Compute measured, one cluster per (implementation, size).
# Variables from plot.sh: data (traffic.dat from prep.awk: label, model MB,
# measured MB or NaN, measured/model text), tmode ('ncu': all measured,
# 'mixed', 'model': none measured, 'bench': no traffic.csv, model bytes from
# bench.csv), n (number of rows), tylo, tyhi (y range, MB), tlabel (longest
# label, characters).

onlymodel = tmode eq 'model' || tmode eq 'bench'
set title title.': DRAM traffic'.on.(onlymodel ? \
    "\nmeasured DRAM bytes unavailable (no ncu or counters blocked): model bytes only" : \
    tmode eq 'mixed' ? "\nsome rows have model bytes only (no measurement)" : '')
set ylabel 'MB per call (10^6 bytes, read + written, log scale)'
set logscale y
set format y '%g'
set yrange [tylo:tyhi]
set ytics out
set xtics nomirror rotate by 90 right noenhanced font ',11' scale 0
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb '#333333'
set boxwidth 0.9
set key top left Left reverse noenhanced box opaque
# Room for the rotated labels: about 0.38 character heights per character
# at the labels' smaller font.
set bmargin 2 + 0.38 * tlabel

if (n == 0) {
    set label 'no traffic rows' at graph 0.5, graph 0.5 center
    set xrange [0:1]; set yrange [1:10]
    plot 1/0 notitle
} else {
    if (onlymodel) {
        plot data using 2:xtic(1) lc rgb '#9EB9D4' title 'model minimum (analytic read + write)'
    } else {
        # Ratio measured/model above each cluster: below 1 means the L2 kept
        # some of the traffic off DRAM, above 1 means extra or repeated reads.
        plot data using 2:xtic(1) lc rgb '#9EB9D4' title 'model minimum (analytic read + write)', \
             '' using 3 lc rgb '#D55E00' title 'measured DRAM (ncu dram__bytes read + write)', \
             '' using ($0 + 1.0/6):(($2 > $3 ? $2 : $3) * 1.15):4 with labels center font ',9' \
                title 'numbers: measured / model'
    }
}
@svg
