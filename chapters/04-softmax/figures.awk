# figures.awk: the measured figures of the lesson's prose and of the
# README's chapter table (plots/figures.sh), from dir/bench.csv and
# dir/traffic.csv (2^28 elements at every row length).
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/traffic.csv", t, "impl,size")
    fused = "reference/02_fused"
    fig("roof_gbps", as_fixed(get(b, fused "|1024", "roof_value"), 0))
    # One block per row, up to 32768 columns: the lowest and highest % of
    # the roof, and the largest lead over cuDNN with its row length.
    split("32 128 512 1024 2048 4096 8192 16384 32768", one_block, " ")
    lo = hi = lead = ""
    for (i = 1; i in one_block; i++) {
        k = fused "|" one_block[i]
        p = roof_pct(k)
        if (lo == "" || p < lo) lo = p
        if (hi == "" || p > hi) hi = p
        if (lead == "" || get(b, k, "vs_library") > lead) { lead = get(b, k, "vs_library"); at = one_block[i] }
    }
    fig("one_block_lo", as_pct(lo, 0))
    fig("one_block_hi", as_pct(hi, 0))
    fig("lead_vs_cudnn", as_x(lead, 2))
    fig("lead_cols", at)
    fig("within_4096", within(get(b, fused "|4096", "vs_library")))
    fig("within_16384", within(get(b, fused "|16384", "vs_library")))
    # The fused kernel's bytes at every profiled length, one text if they
    # all round alike.
    split("1024 16384 65536 1048576", profiled, " ")
    lo = hi = ""
    for (i = 1; i in profiled; i++) {
        v = bytes(fused, profiled[i], 2)
        if (lo == "" || v < lo) lo = v
        if (hi == "" || v > hi) hi = v
    }
    fig("fused_bytes", lo == hi ? lo : lo " to " hi)
    fig("three_pass_bytes_1024", bytes("reference/01_three_pass", 1024, 2))
    fig("three_pass_gbps_1024", as_fixed(get(b, "reference/01_three_pass|1024", "gbps"), 0))
    fig("three_pass_bytes_16384", bytes("reference/01_three_pass", 16384, 2))
    fig("three_pass_gbps_16384", as_fixed(get(b, "reference/01_three_pass|16384", "gbps"), 0))
    fig("online_bytes_65536", bytes("reference/03_online", 65536, 2))
    fig("split_gbps_65536", as_fixed(get(b, fused "|65536", "gbps"), 0))
    fig("split_gbps_2p20", as_fixed(get(b, fused "|1048576", "gbps"), 0))
    fig("split_pct_65536", as_pct(roof_pct(fused "|65536"), 0))
    fig("split_pct_2p20", as_pct(roof_pct(fused "|1048576"), 0))
    fig("cudnn_gbps_65536", as_fixed(get(b, "library/cudnnSoftmaxForward|65536", "gbps"), 0))
    fig("cudnn_gbps_2p20", as_fixed(get(b, "library/cudnnSoftmaxForward|1048576", "gbps"), 0))
    fig("cudnn_bytes_split", same(bytes("library/cudnnSoftmaxForward", 65536, 1),
                                  bytes("library/cudnnSoftmaxForward", 1048576, 1)))
}
# roof_pct(KEY): % of the copy roof, from the unrounded rates (bench.csv's
# pct_roof is rounded already, and would be rounded twice).
function roof_pct(k) { return 100 * get(b, k, "gbps") / get(b, k, "roof_value") }
# bytes(IMPL, COLS, D): Nsight Compute's DRAM bytes over the 8-byte model.
function bytes(impl, cols, d,    k) {
    k = impl "|" cols
    return as_x((get(t, k, "dram_read") + get(t, k, "dram_write")) / \
                (get(t, k, "model_read") + get(t, k, "model_write")), d)
}
