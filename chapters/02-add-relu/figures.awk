# figures.awk: the measured figures of the lesson's prose and of the
# README's chapter table (plots/figures.sh), at n = 2^28 from dir/bench.csv,
# dir/traffic.csv and, per kernel, dir/ncu.csv.
BEGIN {
    n = 268435456
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/traffic.csv", t, "impl,size")
    fused = get(b, "reference/01_fused|" n, "median_ms")
    chain = get(b, "reference/02_chain|" n, "median_ms")
    lib2 = get(b, "library/cublasSgeam+cudnnActivation|" n, "median_ms")
    lib3 = get(b, "library/cublasSgeam+cudnnActivation+cublasSscal|" n, "median_ms")
    pair = get(b, "reference/unfused_add+relu|" n, "median_ms")
    add = get(b, "roof/add|" n, "median_ms")
    fig("roof_gbps", as_fixed(get(b, "roof/add|" n, "roof_value"), 0))
    fig("fused_ms", as_ms(fused))
    fig("chain_ms", as_ms(chain))
    fig("lib_ms", as_ms(lib2))
    fig("add_ms", as_ms(add))
    fig("fused_vs_lib", as_x(lib2 / fused, 2))
    fig("fused_vs_pair", as_x(pair / fused, 2))
    fig("chain_vs_lib", as_x(lib3 / chain, 2))
    fig("fused_vs_add", as_x(add / fused, 2))
    fig("fused_gbps", as_fixed(get(b, "reference/01_fused|" n, "gbps"), 0))
    fig("fused_pct", as_pct(get(b, "reference/01_fused|" n, "pct_roof"), 1))
    # The interquartile ranges of the verdict table's rows, in µs.
    split("reference/01_fused reference/02_chain reference/unfused_add+relu roof/add " \
          "library/cublasSgeam+cudnnActivation library/cublasSgeam+cudnnActivation+cublasSscal", rows, " ")
    lo = hi = ""
    for (i = 1; i in rows; i++) {
        k = rows[i] "|" n
        iqr = 1000 * (get(b, k, "q3_ms") - get(b, k, "q1_ms"))
        if (lo == "" || iqr < lo) lo = iqr
        if (hi == "" || iqr > hi) hi = iqr
    }
    fig("iqr_lo", as_fixed(lo, 0))
    fig("iqr_hi", as_fixed(hi, 0))
    # DRAM bytes over the 12-byte model, and per element.
    fig("fused_bytes", same(bytes("reference/01_fused"), bytes("reference/02_chain")))
    fig("pair_bytes", bytes("library/cublasSgeam+cudnnActivation"))
    fig("pair_bpe", per_element("library/cublasSgeam+cudnnActivation"))
    fig("chain3_bytes", bytes("library/cublasSgeam+cudnnActivation+cublasSscal"))
    fig("chain3_bpe", per_element("library/cublasSgeam+cudnnActivation+cublasSscal"))
    # One kernel each, as Nsight Compute timed it: the first launch at 2^28,
    # the only size at which one kernel moves more than 1 GB.
    nk = readncu(dir "/ncu.csv", kn)
    geam = launch(kn, nk, "void geam_kernel", 1e9, 1)
    relu = launch(kn, nk, "void op_generic_tensor_kernel", 1e9, 1)
    scal = launch(kn, nk, "void scal_kernel", 1e9, 1)
    own = launch(kn, nk, "map_kernel", 1e9, 2)    # the first is the add
    kernel("geam", geam)
    kernel("relu_cudnn", relu)
    kernel("relu_own", own)
    kernel("scal", scal)
    fig("relu_gap_ms", as_fixed(kn[relu, "ms"] - kn[own, "ms"], 3))
    fig("chains_gap_ms", as_fixed(lib2 - pair, 3))
}
function bytes(impl,    k) {
    k = impl "|" n
    return as_x((get(t, k, "dram_read") + get(t, k, "dram_write")) / \
                 (get(t, k, "model_read") + get(t, k, "model_write")), 2)
}
function per_element(impl,    k) {
    k = impl "|" n
    return as_fixed((get(t, k, "dram_read") + get(t, k, "dram_write")) / n, 1)
}
function kernel(name, i) {
    fig(name "_ms", as_fixed(kn[i, "ms"], 3))
    fig(name "_gb", as_fixed(kn[i, "bytes"] / 1e9, 2))
    fig(name "_tbs", as_fixed(kn[i, "bytes"] / 1e9 / kn[i, "ms"], 2))
}
