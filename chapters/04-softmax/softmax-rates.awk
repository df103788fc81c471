# softmax-rates.awk: the verdict's table, effective GB/s of the fused
# reference, cuDNN, the three-pass and online exercises' references at
# row lengths from 32 to 2^20 columns (2^28 elements each), from
# dir/bench.csv; a CSV for plots/lesson-table.sh.
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    print "columns,fused reference,cudnnSoftmaxForward,fused vs cuDNN,three-pass (04.1),online (04.3)"
    n = split("32 1024 4096 16384 32768 65536 1048576", cols, " ")
    for (i = 1; i <= n; i++) {
        unit = i == 1 ? " GB/s" : ""
        printf "%s,%s%s,%s%s,%s,%s%s,%s%s\n", cols[i] == 1048576 ? "2^20" : cols[i],
            gbps("reference/02_fused", cols[i]), unit, gbps("library/cudnnSoftmaxForward", cols[i]), unit,
            as_x(get(b, "reference/02_fused|" cols[i], "vs_library"), 2),
            gbps("reference/01_three_pass", cols[i]), unit, gbps("reference/03_online", cols[i]), unit
    }
}
function gbps(impl, cols) { return as_fixed(get(b, impl "|" cols, "gbps"), 0) }
