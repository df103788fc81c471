# gemm-bytes.awk: the verdict's second table, Nsight Compute's DRAM bytes
# over the compulsory 4 (MK + KN + MN) at 4096^3 and 8192^3, from
# dir/traffic.csv; a CSV for plots/lesson-table.sh.
BEGIN {
    readcsv(dir "/traffic.csv", t, "impl,size")
    print "size,naive,tiled,register-blocked,tuned,cublasSgemm"
    split("4096 8192", sizes, " ")
    split("reference/01_naive reference/02_tiled reference/03_regblock reference/04_tuned library/cublasSgemm", impls, " ")
    for (s = 1; s in sizes; s++) {
        line = sizes[s] "^3"
        for (i = 1; i in impls; i++) {
            k = impls[i] "|" sizes[s]
            v = (get(t, k, "dram_read") + get(t, k, "dram_write")) / (get(t, k, "model_read") + get(t, k, "model_write"))
            line = line "," as_x(v, v < 10 ? 1 : 0)
        }
        print line
    }
}
