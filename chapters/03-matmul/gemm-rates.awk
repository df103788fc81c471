# gemm-rates.awk: the verdict's table, TFLOP/s of each version and of
# cuBLAS (FP32 and TF32) at the chapter's square sizes and the odd shape,
# from dir/bench.csv; a CSV for plots/lesson-table.sh.
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    print "size,naive (03.1),tiled (03.2),register-blocked (03.3),tuned (03.4),cublasSgemm,tuned / cuBLAS,cuBLAS TF32"
    split("1024 2048 4000 4096 8192", sizes, " ")
    split("reference/01_naive reference/02_tiled reference/03_regblock reference/04_tuned library/cublasSgemm", impls, " ")
    for (s = 1; s in sizes; s++) {
        line = sizes[s] == 4000 ? "4000 x 4001 x 3999" : sizes[s] "^3"
        for (i = 1; i in impls; i++) line = line "," as_tflops(get(b, impls[i] "|" sizes[s], "gflops"))
        line = line "," as_pct(100 * get(b, "reference/04_tuned|" sizes[s], "vs_library"), 0)
        print line "," as_tflops(get(b, "library/cublasSgemm_TF32|" sizes[s], "gflops"))
    }
}
