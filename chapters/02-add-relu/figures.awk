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
    # How fast each library call streams on its own.
    fig("lib_call_tbs", span(as_fixed(min(kn[geam, "bytes"] / kn[geam, "ms"], kn[relu, "bytes"] / kn[relu, "ms"]) / 1e9, 1),
                             as_fixed(max(kn[geam, "bytes"] / kn[geam, "ms"], kn[relu, "bytes"] / kn[relu, "ms"]) / 1e9, 1)))

    # The roofs, and what they make of n = 2^28 elements.
    readcsv(dir "/../roofs.csv", r, "metric")
    fp32 = get(r, "fp32_ffma_gflops", "value"); copy = get(r, "copy_gbps", "value")
    fig("fp32_roof", as_fixed(fp32 / 1000, 1))
    fig("fp32_roof_gflops", sprintf("%d,%03d", int(fp32 / 1000), int(fp32) % 1000))
    fig("ridge", as_fixed(fp32 / copy, 1))
    fig("ridge_about", as_fixed(fp32 / copy, 0))
    # The memory wall's table: 1/12 to 4/12 FLOP per byte against the ridge.
    fig("below_ridge", as_fixed(fp32 / copy / (4 / 12), 0) " to " as_fixed(fp32 / copy / (1 / 12), 0))
    fig("bytes_over_flops", as_fixed(10 * int(12 * n / copy / (2 * n / fp32) / 10 + 0.5), 0))
    fig("roof_bytes_ms", as_fixed(12 * n / copy / 1e6, 3))
    fig("roof_flops_ms", as_fixed(2 * n / fp32 / 1e6, 3))
    fig("pair_ms", as_ms(pair))
    fig("fused_vs_lib_about", as_fixed(lib2 / fused, 1))
    fig("pair_within_bytes", within(pair / fused / (20 / 12)))

    # Launches: n = 2^16.
    fig("fused_us_small", as_fixed(1000 * get(b, "reference/01_fused|65536", "median_ms"), 2))
    fig("lib_us_small", as_fixed(1000 * get(b, "library/cublasSgeam+cudnnActivation|65536", "median_ms"), 1))
    fig("lib3_us_small", as_fixed(1000 * get(b, "library/cublasSgeam+cudnnActivation+cublasSscal|65536", "median_ms"), 1))

    # speed.png: the plateaus at 2^28, against what the bytes allow.
    fig("pair_bound_gbps", as_fixed(copy * 12 / 20, 0))
    fig("lib3_bound_gbps", as_fixed(copy * 12 / 28, 0))
    fig("pair_gbps", as_fixed(get(b, "reference/unfused_add+relu|" n, "gbps"), 0))
    fig("lib_gbps", as_fixed(get(b, "library/cublasSgeam+cudnnActivation|" n, "gbps"), 0))
    fig("lib3_gbps", as_fixed(get(b, "library/cublasSgeam+cudnnActivation+cublasSscal|" n, "gbps"), 0))
    # The two-call chains over the fused time, 2^19 to 2^23 elements.
    for (size = 524288; size <= 8388608; size *= 2) {
        f = get(b, "reference/01_fused|" size, "median_ms")
        range("mid", get(b, "library/cublasSgeam+cudnnActivation|" size, "median_ms") / f)
        range("mid", get(b, "reference/unfused_add+relu|" size, "median_ms") / f)
    }
    fig("mid_ratio", range_text("mid", 1))

    # traffic.png: the small sizes, where the L2 keeps part of the traffic.
    for (i = 1; i <= 2; i++) {
        size = i == 1 ? 65536 : 1048576
        range("fused_small", ratio("reference/01_fused|" size))
        range("fused_small", ratio("reference/02_chain|" size))
        range("pair_small", ratio("library/cublasSgeam+cudnnActivation|" size))
        range("pair_small", ratio("reference/unfused_add+relu|" size))
        range("lib3_small", ratio("library/cublasSgeam+cudnnActivation+cublasSscal|" size))
    }
    fig("fused_small", xspan("fused_small"))
    fig("pair_small", xspan("pair_small"))
    fig("lib3_small", xspan("lib3_small"))
    fig("fused_2p24", as_x(ratio("reference/01_fused|16777216"), 2))

    # roofline.png: FLOPs per measured DRAM byte, and how far left of the
    # ridge the points at 2^28 sit (to the nearest 10).
    split("reference/01_fused reference/02_chain reference/unfused_add+relu " \
          "library/cublasSgeam+cudnnActivation library/cublasSgeam+cudnnActivation+cublasSscal", profiled, " ")
    for (i = 1; i in profiled; i++) range("left", fp32 / copy / intensity(profiled[i] "|" n))
    fig("left_of_ridge", as_fixed(10 * int(range_lo["left"] / 10 + 0.5), 0) " to " as_fixed(10 * int(range_hi["left"] / 10 + 0.5), 0))
    fig("lib_intensity", as_fixed(intensity("library/cublasSgeam+cudnnActivation|" n), 2))
    fig("fused_intensity", as_fixed(intensity("reference/01_fused|" n), 2))
    fig("chain_intensity", as_fixed(intensity("reference/02_chain|" n), 2))
    fig("lib_gflops", as_fixed(get(b, "library/cublasSgeam+cudnnActivation|" n, "gflops"), 0))
    fig("fused_gflops", as_fixed(get(b, "reference/01_fused|" n, "gflops"), 0))
    fig("chain_gflops", as_fixed(get(b, "reference/02_chain|" n, "gflops"), 0))
}
function min(a, b) { return a < b ? a : b }
function max(a, b) { return a > b ? a : b }
function ratio(k) { return (get(t, k, "dram_read") + get(t, k, "dram_write")) / (get(t, k, "model_read") + get(t, k, "model_write")) }
function xspan(name) { return span(as_x(range_lo[name], 2), as_x(range_hi[name], 2)) }
function intensity(k) { return get(b, k, "model_flops") / (get(t, k, "dram_read") + get(t, k, "dram_write")) }
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
