# figures.awk: the measured figures of the lesson's prose and of the
# README's chapter table (plots/figures.sh), from dir/bench.csv and
# dir/traffic.csv at n = 2^28.
BEGIN {
    n = 268435456
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/traffic.csv", t, "impl,size")
    lib = "library/cublasSgeam|" n
    fig("roof_gbps", as_fixed(get(b, lib, "roof_value"), 0))
    fig("lib_pct", as_pct(get(b, lib, "pct_roof"), 1))
    fig("fast_vs_lib", as_x(get(b, "reference/02_fast|" n, "vs_library"), 2))
    fig("naive_loss", as_pct(100 * (1 - get(b, "reference/01_naive|" n, "vs_library")), 0))
    k = "reference/01_naive|" n
    fig("naive_below_roof", as_pct(100 * (1 - get(b, k, "gbps") / get(b, k, "roof_value")), 0))
    # Nsight Compute's DRAM bytes over the 12-byte model, lowest and highest
    # of the three kernels.
    split("reference/01_naive reference/02_fast library/cublasSgeam", impls, " ")
    lo = hi = ""
    for (i = 1; i <= 3; i++) {
        k = impls[i] "|" n
        r = (get(t, k, "dram_read") + get(t, k, "dram_write")) / \
            (get(t, k, "model_read") + get(t, k, "model_write"))
        if (lo == "" || r < lo) lo = r
        if (hi == "" || r > hi) hi = r
    }
    fig("bytes_lo", as_x(lo, 2))
    fig("bytes_hi", as_x(hi, 2))
}
