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
# get(T, KEY, COLUMN): a value that must be there; a figure made from a
# blank (a row not measured) would be a figure nobody measured.
function get(t, key, column) {
    if (!((key, column) in t) || t[key, column] == "")
        results_fail("no " column " for " key " in " dir)
    return t[key, column]
}
function results_fail(msg) { print "figures: " msg > "/dev/stderr"; results_failed = 1; exit 1 }

# Formats: fix(v, d) v with d decimals; times(v, d) "1.79x"; pct(v, d)
# "79%"; ms(v) a time in milliseconds with three significant digits or
# more ("1.069 ms" under 10, "9.6 ms", "137 ms").
function fix(v, d) { return sprintf("%." d "f", v) }
function times(v, d) { return fix(v, d) "x" }
function pct(v, d) { return fix(v, d) "%" }
function ms(v) { return sprintf(v < 10 ? "%.3f ms" : v < 100 ? "%.1f ms" : "%.0f ms", v) }
function fig(name, text) { print name "," text }
