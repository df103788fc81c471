# results.awk: what a chapter's figures.awk (plots/figures.sh) reads and
# how it writes its figures. Load after csv.awk:
#   awk -v dir=results/<gpu>/<chapter> -f plots/csv.awk -f plots/results.awk -f figures.awk
# A figure is printed as "name,text"; the text is what the lesson shows,
# formatting included, so the lesson and the check compare strings.

# readcsv(FILE, T, KEY): every row of FILE into T[key, column name], where
# key is the values of the columns named in KEY (a list joined by commas)
# joined by "|", e.g. readcsv(dir "/bench.csv", b, "impl,size") gives
# b["library/cublasSgeam|268435456", "median_ms"]. Exits on a file it
# cannot read or a key column it lacks.
function readcsv(file, t, key,    line, n, f, i, k, nk, kc, col, ncol, rows) {
    nk = split(key, kc, ",")
    ncol = 0
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!ncol) {
            for (i = 1; i <= n; i++) col[i] = f[i]
            ncol = n
            for (i = 1; i <= nk; i++) {
                for (k = 1; k <= n && f[k] != kc[i]; k++) ;
                if (k > n) results_fail(file ": no column " kc[i])
                kc[i] = k
            }
            continue
        }
        k = f[kc[1]]
        for (i = 2; i <= nk; i++) k = k "|" f[kc[i]]
        for (i = 1; i <= ncol; i++) t[k, col[i]] = f[i]
        rows++
    }
    close(file)
    if (!ncol) results_fail("cannot read " file)
    return rows
}
# readcsv_if(FILE, T, KEY): readcsv where FILE exists; 0 (T left empty)
# where it does not: a folder of another GPU's results (a lesson's figures
# tagged with it, plots/tables.sh) may hold the bench alone, and the figures
# made from the files it lacks are then not printed, so that a marker of one
# fails by name.
function readcsv_if(file, t, key,    line) {
    if ((getline line < file) < 0) return 0
    close(file)
    return readcsv(file, t, key)
}
# get(T, KEY, COLUMN): a value that must be there, as a number (a field of
# a line with a quoted field is a string, and would compare as one); a
# figure made from a blank (a row not measured) would be a figure nobody
# measured.
function get(t, key, column) {
    if (!((key, column) in t) || t[key, column] == "")
        results_fail("no " column " for " key " in " dir)
    return t[key, column] + 0
}
# peak(r, P): precision P's peak from roofs.csv read into r, the faster of
# its mma.sync and wgmma roofs; a GPU below sm_90a has no wgmma value.
function peak(r, p,    mma, wg) {
    mma = get(r, p "_mma_gflops", "value")
    wg = ((p "_wgmma_gflops", "value") in r) ? r[p "_wgmma_gflops", "value"] : ""
    return wg != "" && wg + 0 > mma ? wg + 0 : mma
}
function results_fail(msg) { print "figures: " msg > "/dev/stderr"; exit 1 }

# Formats: as_fixed(v, d) v with d decimals; as_x(v, d) "1.79x"; as_pct(v, d)
# "79%"; as_ms(v) a time in milliseconds with three significant digits or
# more ("1.069 ms" under 10, "9.6 ms", "137 ms"); as_tflops(g) a rate in
# GFLOP/s as TFLOP/s, one decimal under 100 ("6.5", "264").
function as_fixed(v, d) { return sprintf("%." d "f", v) }
function as_x(v, d) { return as_fixed(v, d) "x" }
function as_pct(v, d) { return as_fixed(v, d) "%" }
function as_ms(v) { return sprintf(v < 10 ? "%.3f ms" : v < 100 ? "%.1f ms" : "%.0f ms", v) }
function as_tflops(g) { return as_fixed(g / 1000, g < 100000 ? 1 : 0) }
function fig(name, text) { print name "," text }
# A lesson table's cells, "-" where a value is blank (a row not measured):
# cell_tflops(g) GFLOP/s as TFLOP/s with three significant digits or more;
# cell_ratio(a, b, fmt) a / b in printf format fmt ("%.2fx").
function cell_tflops(g,    v) {
    if (g == "") return "-"
    v = g / 1000
    return sprintf(v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v)
}
function cell_ratio(a, b, fmt) { return a == "" || b == "" || b == 0 ? "-" : sprintf(fmt, a / b) }

# readncu(FILE, K): Nsight Compute's raw CSV (ncu.csv) as one entry per
# kernel launch, in launch order: K[i, "name"], K[i, "ms"], K[i, "bytes"]
# (DRAM read + write); returns the number of launches.
function readncu(file, k,    line, n, f, c, i, id, v, last, count) {
    count = 0
    while ((getline line < file) > 0) {
        n = csvsplit(line, f)
        if (!c["ID"]) { for (i = 1; i <= n; i++) c[f[i]] = i; continue }
        id = f[c["ID"]]
        if (id != last) { count++; k[count, "name"] = f[c["Kernel Name"]]; last = id }
        v = f[c["Metric Value"]]
        gsub(/,/, "", v)
        if (f[c["Metric Name"]] == "gpu__time_duration.sum") k[count, "ms"] = v / 1e6
        else if (f[c["Metric Name"]] ~ /^dram__bytes_(read|write)\.sum$/) k[count, "bytes"] += v
    }
    close(file)
    if (!c["ID"]) results_fail("cannot read " file)
    return count
}
# launch(K, N, PREFIX, MIN_BYTES, NTH): the index of the NTH launch of a
# kernel whose name begins with PREFIX and that moves at least MIN_BYTES.
function launch(k, n, prefix, min_bytes, nth,    i) {
    for (i = 1; i <= n; i++)
        if (index(k[i, "name"], prefix) == 1 && k[i, "bytes"] >= min_bytes && --nth == 0) return i
    results_fail("no launch of " prefix " moving " min_bytes " bytes in " dir "/ncu.csv")
}
# same(A, B): one text where two figures print the same ("0.99x"), both
# where they differ ("0.99x and 0.98x"): a sentence about both stays true.
function same(a, b) { return a == b ? a : a " and " b }
# span(A, B): "A to B", or A alone where both print the same.
function span(a, b) { return a == b ? a : a " to " b }
# range(NAME, V): keep the lowest and highest V given under NAME, in
# range_lo[NAME] and range_hi[NAME], for figures such as "282 to 382".
function range(name, v) {
    v += 0
    if (!(name in range_lo) || v < range_lo[name]) range_lo[name] = v
    if (!(name in range_hi) || v > range_hi[name]) range_hi[name] = v
}
# range_text(NAME, D): what range() kept under NAME, "282 to 382" with D
# decimals (span: one number where both ends print alike).
function range_text(name, d) { return span(as_fixed(range_lo[name], d), as_fixed(range_hi[name], d)) }
# within(RATIO): the smallest of 0.1, 0.5, 1, 2, 3, 5 or 10% that RATIO is
# within of 1, for "the two are within 0.1%".
function within(ratio,    d, n, i, bound) {
    d = 100 * (ratio > 1 ? ratio - 1 : 1 - ratio)
    n = split("0.1 0.5 1 2 3 5 10", bound, " ")
    for (i = 1; i < n && d > bound[i]; i++) ;
    return bound[i] "%"
}
