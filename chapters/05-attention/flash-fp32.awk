# flash-fp32.awk: the FP32 flash reference (05.2) against the library
# composition, PyTorch's FP32 attention and the unfused reference, at B = 4,
# H = 16, N = 4096 and 16384, d = 64 and 128, full and causal: dir/bench.csv,
# and dir/torch-fp32.csv for PyTorch (measured outside the bench by
# instructor/dev/05-torch/sdpa_fp32.py; "-" where it holds no rate). The
# roof is the one the row is measured against: the FFMA roof, or TF32 wgmma
# where the reference runs d = 128 on tensor cores (3xTF32, whose own bound
# is a third of that roof). A CSV for plots/lesson-table.sh (the lesson's
# table "flash-fp32"); a time missing from bench.csv shows as "-".
#   awk -v dir=results/<gpu>/05-attention -f plots/csv.awk -f plots/results.awk \
#       -f chapters/05-attention/flash-fp32.awk
function ms3(v) { return v == "" ? "-" : sprintf(v < 10 ? "%.2f ms" : v < 100 ? "%.1f ms" : "%.0f ms", v) }
function load(file, which,    line, n, i, f, c, key) {
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!c["_"]) { for (i = 1; i <= n; i++) c[f[i]] = i; c["_"] = 1; continue }
        if (which == "bench") {
            key = f[c["impl"]] "|" f[c["size"]]
            ms[key] = f[c["median_ms"]]; gf[key] = f[c["gflops"]]; pct[key] = f[c["pct_roof"]]
            roof[key] = f[c["roof_label"]]
        } else if (f[c["B"]] == 4 && f[c["H"]] == 16) {
            torch[f[c["N"]] "|" f[c["d"]] "|" f[c["causal"]]] = f[c["tflops"]] * 1000
        }
    }
    close(file)
    return c["_"]
}
BEGIN {
    if (!load(dir "/bench.csv", "bench")) { print "flash-fp32.awk: cannot read " dir "/bench.csv" > "/dev/stderr"; exit 1 }
    load(dir "/torch-fp32.csv", "torch")
    print "N,d,mask,flash,TFLOP/s,% of roof,roof,library composition,flash vs library," \
          "PyTorch FP32 SDPA,flash vs PyTorch,unfused reference,flash vs unfused"
    split("4096 16384", sizes, " "); split("64 128", ds, " ")
    for (s = 1; s <= 2; s++)
        for (e = 1; e <= 2; e++)
            for (c = 0; c <= 1; c++) {
                tail = (ds[e] == 128 ? "-d128" : "") (c ? "-causal" : "") "|" sizes[s]
                k = "reference/02_flash" tail
                lib = ms["library/cublas_cudnn_unfused" tail]
                unf = ms["reference/01_unfused" tail]
                pt = torch[sizes[s] "|" ds[e] "|" c]
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", sizes[s], ds[e],
                    c ? "causal" : "full", ms3(ms[k]), cell_tflops(gf[k]),
                    pct[k] == "" ? "-" : sprintf("%.1f%%", pct[k]), roof[k] == "" ? "-" : roof[k],
                    ms3(lib), cell_ratio(lib, ms[k], "%.2fx"), cell_tflops(pt),
                    cell_ratio(gf[k], pt, "%.2fx"), ms3(unf), cell_ratio(unf, ms[k], "%.2fx")
            }
}
