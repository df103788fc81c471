# flash-wgmma.awk: exercise 05.4's reference against 05.3 and cuDNN's fused
# attention, at B = 4, H = 16, N = 4096 and 16384, d = 64 and 128, full and
# causal, from dir/bench.csv (step 1, the graded kernel), with the
# warp-specialised kernel (MW_FLASH_WGMMA=ws) from dir/ablation-wgmma.csv,
# timed in its own run (instructor/dev/05-wgmma/ablation.sh). TFLOP/s at
# 4 B H N^2 d, halved when causal. A CSV for plots/lesson-table.sh (the
# lesson's table "flash-wgmma").
#   awk -v dir=results/<gpu>/05-attention -f plots/csv.awk -f chapters/05-attention/flash-wgmma.awk
function rate3(g,    v) { if (g == "") return "-"; v = g / 1000; return sprintf(v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v) }
function times(a, b, fmt) { return a == "" || b == "" || b == 0 ? "-" : sprintf(fmt, a / b) }
function load_bench(file,    line, n, i, f, c, key) {
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!c["_"]) { for (i = 1; i <= n; i++) c[f[i]] = i; c["_"] = 1; continue }
        key = f[c["impl"]] "|" f[c["size"]]
        gf[key] = f[c["gflops"]]; pct[key] = f[c["pct_roof"]]
    }
    close(file)
    return c["_"]
}
# ablation-wgmma.csv: a row per kernel, a column per "N=... d=..[ causal]".
function load_ablation(file,    line, n, i, f, head) {
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!head) { for (i = 1; i <= n; i++) col[i] = f[i]; head = n; continue }
        if (f[1] == "ws") for (i = 3; i <= n; i++) ws[col[i]] = f[i] * 1000
    }
    close(file)
}
BEGIN {
    if (!load_bench(dir "/bench.csv")) { print "flash-wgmma.awk: cannot read " dir "/bench.csv" > "/dev/stderr"; exit 1 }
    load_ablation(dir "/ablation-wgmma.csv")
    print "N,d,mask,05.4,% of wgmma bf16 roof,05.3,05.4 vs 05.3,cuDNN fused,05.4 in % of cuDNN," \
          "05.4 warp-specialised (ws),ws in % of cuDNN"
    split("4096 16384", sizes, " "); split("64 128", ds, " ")
    for (s = 1; s <= 2; s++)
        for (e = 1; e <= 2; e++)
            for (c = 0; c <= 1; c++) {
                tail = (ds[e] == 128 ? "-d128" : "") (c ? "-causal" : "") "|" sizes[s]
                me = gf["reference/04_flash_wgmma" tail]
                mma = gf["reference/03_flash_bf16" tail]
                sdpa = gf["library/cudnn_sdpa" tail]
                w = ws["N=" sizes[s] " d=" ds[e] (c ? " causal" : "")]
                p = pct["reference/04_flash_wgmma" tail]
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", sizes[s], ds[e], c ? "causal" : "full",
                    rate3(me), p == "" ? "-" : sprintf("%.1f%%", p), rate3(mma), times(me, mma, "%.2fx"),
                    rate3(sdpa), times(100 * me, sdpa, "%.0f%%"), rate3(w), times(100 * w, sdpa, "%.0f%%")
            }
}
