# fusion.awk: the verdict's table, each fused kernel against the chains of
# calls it replaces at n = 2^28, times from dir/bench.csv and DRAM bytes
# from dir/traffic.csv; a CSV for plots/lesson-table.sh. "bytes alone
# predict" is the model's ratio (12, 20 and 28 bytes per element), not a
# measurement.
BEGIN {
    n = 268435456
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/traffic.csv", t, "impl,size")
    print "implementation,time,effective GB/s,DRAM bytes per element (ncu),fused is faster by,bytes alone predict"
    row("fused add+ReLU (`reference/01_fused`)", "reference/01_fused", "", 0)
    row("cublasSgeam + cudnnActivationForward", "library/cublasSgeam+cudnnActivation", "reference/01_fused", 20)
    row("workbook add kernel + ReLU kernel", "reference/unfused_add+relu", "reference/01_fused", 20)
    row("plain add (`roof/add`)", "roof/add", "reference/01_fused", 12)
    row("fused relu(a*x + y)*s (`reference/02_chain`)", "reference/02_chain", "", 0)
    row("cublasSgeam + cudnnActivationForward + cublasSscal",
        "library/cublasSgeam+cudnnActivation+cublasSscal", "reference/02_chain", 28)
}
# row(LABEL, IMPL, FUSED, MODEL): IMPL's line; against FUSED, whose model
# is 12 bytes per element where IMPL's is MODEL, unless FUSED is "".
function row(label, impl, fused, model,    k, dram, moved, vs) {
    k = impl "|" n
    dram = "not profiled"
    if ((k, "dram_read") in t) {
        moved = get(t, k, "dram_read") + get(t, k, "dram_write")
        dram = sprintf("%s (%s)", as_fixed(moved / n, 1),
            as_x(moved / (get(t, k, "model_read") + get(t, k, "model_write")), 2))
    }
    vs = fused == "" ? "," : as_x(get(b, k, "median_ms") / get(b, fused "|" n, "median_ms"), 2) "," as_x(model / 12, 2)
    printf "%s,%s,%s,%s,%s\n", label, as_ms(get(b, k, "median_ms")), as_fixed(get(b, k, "gbps"), 0), dram, vs
}
