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
# readable(FILE): 1 when FILE has a line to read (torch-fp32.csv is optional).
function readable(file,    line, ok) { ok = (getline line < file) > 0; close(file); return ok }
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    if (readable(dir "/torch-fp32.csv")) readcsv(dir "/torch-fp32.csv", pt, "B,H,N,d,causal")
    print "N,d,mask,flash,TFLOP/s,% of roof,roof,library composition,flash vs library," \
          "PyTorch FP32 SDPA,flash vs PyTorch,unfused reference,flash vs unfused"
    split("4096 16384", sizes, " "); split("64 128", ds, " ")
    for (s = 1; s <= 2; s++)
        for (e = 1; e <= 2; e++)
            for (c = 0; c <= 1; c++) {
                tail = (ds[e] == 128 ? "-d128" : "") (c ? "-causal" : "") "|" sizes[s]
                k = "reference/02_flash" tail
                ms = b[k, "median_ms"]; gf = b[k, "gflops"]; pct = b[k, "pct_roof"]
                lib = b["library/cublas_cudnn_unfused" tail, "median_ms"]
                unf = b["reference/01_unfused" tail, "median_ms"]
                torch = pt["4|16|" sizes[s] "|" ds[e] "|" c, "tflops"]
                torch = torch == "" ? "" : torch * 1000
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", sizes[s], ds[e],
                    c ? "causal" : "full", ms3(ms), cell_tflops(gf),
                    pct == "" ? "-" : sprintf("%.1f%%", pct), b[k, "roof_label"] == "" ? "-" : b[k, "roof_label"],
                    ms3(lib), cell_ratio(lib, ms, "%.2fx"), cell_tflops(torch),
                    cell_ratio(gf, torch, "%.2fx"), ms3(unf), cell_ratio(unf, ms, "%.2fx")
            }
}
