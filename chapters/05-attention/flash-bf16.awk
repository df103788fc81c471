# flash-bf16.awk: the bf16 reference (05.3) against FlashAttention-2, cuDNN's
# fused attention, the bf16 composition and the FP32 flash reference (05.2),
# at B = 4, H = 16, N = 4096 and 16384, d = 64 and 128, full and causal:
# dir/bench.csv, and dir/fa2.csv for FlashAttention-2 (measured outside the
# bench; "-" where it holds no rate). TFLOP/s at 4 B H N^2 d, halved when
# causal. A CSV for plots/lesson-table.sh (the lesson's table "flash-bf16").
#   awk -v dir=results/<gpu>/05-attention -f plots/csv.awk -f plots/results.awk \
#       -f chapters/05-attention/flash-bf16.awk
function load(file, key_of,    line, n, i, f, c) {
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!c["_"]) { for (i = 1; i <= n; i++) c[f[i]] = i; c["_"] = 1; continue }
        if (key_of == "bench") {
            key = f[c["impl"]] "|" f[c["size"]]
            gf[key] = f[c["gflops"]]; pct[key] = f[c["pct_roof"]]
        } else if (f[c["B"]] == 4 && f[c["H"]] == 16) {
            fa2[f[c["N"]] "|" f[c["d"]] "|" f[c["causal"]]] = f[c["tflops"]] * 1000
        }
    }
    close(file)
    return c["_"]
}
BEGIN {
    if (!load(dir "/bench.csv", "bench")) { print "flash-bf16.awk: cannot read " dir "/bench.csv" > "/dev/stderr"; exit 1 }
    load(dir "/fa2.csv", "fa2")
    print "N,d,mask,05.3,% of mma.sync bf16 roof,FlashAttention-2,05.3 / FA2,cuDNN fused,05.3 in % of cuDNN," \
          "bf16 composition,05.3 vs composition,05.2 (FP32),05.3 vs 05.2"
    split("4096 16384", sizes, " "); split("64 128", ds, " ")
    for (s = 1; s <= 2; s++)
        for (e = 1; e <= 2; e++)
            for (c = 0; c <= 1; c++) {
                tail = (ds[e] == 128 ? "-d128" : "") (c ? "-causal" : "") "|" sizes[s]
                me = gf["reference/03_flash_bf16" tail]
                fa = fa2[sizes[s] "|" ds[e] "|" c]
                sdpa = gf["library/cudnn_sdpa" tail]
                comp = gf["library/cublas_cudnn_unfused_bf16" tail]
                fp32 = gf["reference/02_flash" tail]
                p = pct["reference/03_flash_bf16" tail]
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", sizes[s], ds[e],
                    c ? "causal" : "full", cell_tflops(me), p == "" ? "-" : sprintf("%.1f%%", p),
                    cell_tflops(fa), cell_ratio(me, fa, "%.2fx"), cell_tflops(sdpa), cell_ratio(100 * me, sdpa, "%.0f%%"),
                    cell_tflops(comp), cell_ratio(me, comp, "%.1fx"), cell_tflops(fp32), cell_ratio(me, fp32, "%.1fx")
            }
}
