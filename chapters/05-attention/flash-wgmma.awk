# flash-wgmma.awk: exercise 05.4's reference against 05.3 and cuDNN's fused
# attention, at B = 4, H = 16, N = 4096 and 16384, d = 64 and 128, full and
# causal, from dir/bench.csv (the reference's default, auto: warp-
# specialised but at d = 64 causal up to N = 4096), with its step 1 (MW_FLASH_WGMMA=step1) from
# dir/ablation-wgmma.csv, timed in its own run
# (instructor/dev/05-wgmma/ablation.sh). TFLOP/s at
# 4 B H N^2 d, halved when causal. A CSV for plots/lesson-table.sh (the
# lesson's table "flash-wgmma").
#   awk -v dir=results/<gpu>/05-attention -f plots/csv.awk -f plots/results.awk \
#       -f chapters/05-attention/flash-wgmma.awk
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/ablation-wgmma.csv", aw, "MW_FLASH_WGMMA")
    print "N,d,mask,05.4,% of wgmma bf16 roof,05.3,05.4 vs 05.3,cuDNN fused,05.4 in % of cuDNN," \
          "05.4 step 1 (ablation run),step 1 in % of cuDNN"
    split("4096 16384", sizes, " "); split("64 128", ds, " ")
    for (s = 1; s <= 2; s++)
        for (e = 1; e <= 2; e++)
            for (c = 0; c <= 1; c++) {
                tail = (ds[e] == 128 ? "-d128" : "") (c ? "-causal" : "") "|" sizes[s]
                me = b["reference/04_flash_wgmma" tail, "gflops"]
                mma = b["reference/03_flash_bf16" tail, "gflops"]
                sdpa = b["library/cudnn_sdpa" tail, "gflops"]
                s1 = aw["step1", "N=" sizes[s] " d=" ds[e] (c ? " causal" : "")]
                s1 = s1 == "" ? "" : 1000 * s1
                p = b["reference/04_flash_wgmma" tail, "pct_roof"]
                printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", sizes[s], ds[e], c ? "causal" : "full",
                    cell_tflops(me), p == "" ? "-" : sprintf("%.1f%%", p), cell_tflops(mma),
                    cell_ratio(me, mma, "%.2fx"), cell_tflops(sdpa), cell_ratio(100 * me, sdpa, "%.0f%%"),
                    cell_tflops(s1), cell_ratio(100 * s1, sdpa, "%.0f%%")
            }
}
