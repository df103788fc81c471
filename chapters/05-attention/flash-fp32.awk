# flash-fp32.awk: the FP32 flash reference (05.2) against the library
# composition and the unfused reference, at B = 4, H = 16, d = 64, N = 4096
# and 16384, full and causal, from dir/bench.csv; a CSV for
# plots/lesson-table.sh (the lesson's table "flash-fp32"). A time missing
# from bench.csv (a row not timed) shows as "-".
#   awk -v dir=results/<gpu>/05-attention -f plots/csv.awk -f plots/results.awk \
#       -f chapters/05-attention/flash-fp32.awk
function ms3(v) { return v == "" ? "-" : sprintf(v < 10 ? "%.2f ms" : v < 100 ? "%.1f ms" : "%.0f ms", v) }
BEGIN {
    file = dir "/bench.csv"
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!col["impl"]) { for (i = 1; i <= n; i++) col[f[i]] = i; continue }
        key = f[col["impl"]] "|" f[col["size"]]
        ms[key] = f[col["median_ms"]]; gf[key] = f[col["gflops"]]; pct[key] = f[col["pct_roof"]]
    }
    if (!col["impl"]) { print "flash-fp32.awk: cannot read " file > "/dev/stderr"; exit 1 }
    print "N,mask,flash,TFLOP/s,% of FFMA roof,library composition,flash vs library,unfused reference,flash vs unfused"
    split("4096 16384", sizes, " ")
    for (s = 1; s <= 2; s++)
        for (c = 0; c <= 1; c++) {
            tail = c ? "-causal" : ""
            k = "reference/02_flash" tail "|" sizes[s]
            lib = ms["library/cublas_cudnn_unfused" tail "|" sizes[s]]
            unf = ms["reference/01_unfused" tail "|" sizes[s]]
            printf "%s,%s,%s,%s,%s,%s,%s,%s,%s\n", sizes[s], c ? "causal" : "full", ms3(ms[k]),
                cell_tflops(gf[k]), pct[k] == "" ? "-" : sprintf("%.1f%%", pct[k]), ms3(lib),
                cell_ratio(lib, ms[k], "%.2fx"), ms3(unf), cell_ratio(unf, ms[k], "%.2fx")
        }
}
