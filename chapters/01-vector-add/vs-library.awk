# vs-library.awk: the verdict's table, the library, the two references and
# the copy at n = 2^28 from dir/bench.csv; a CSV for plots/lesson-table.sh.
BEGIN {
    n = 268435456
    readcsv(dir "/bench.csv", b, "impl,size")
    print "implementation,time,GB/s (12 B per element),vs cublasSgeam"
    row("cublasSgeam", "library/cublasSgeam")
    row("reference 02_fast (float4)", "reference/02_fast")
    row("reference 01_naive (one float per thread)", "reference/01_naive")
    k = "roof/cudaMemcpy|" n
    printf "cudaMemcpy of one array (8 B per element),%s,%s,\n", as_ms(get(b, k, "median_ms")), as_fixed(get(b, k, "gbps"), 0)
}
function row(label, impl,    k) {
    k = impl "|" n
    printf "%s,%s,%s,%s\n", label, as_ms(get(b, k, "median_ms")), as_fixed(get(b, k, "gbps"), 0),
        as_x(get(b, k, "vs_library"), 2)
}
