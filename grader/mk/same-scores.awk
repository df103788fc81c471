# same-scores.awk BASE.csv OTHER.csv: whether two gradebooks of one class
# give every student the same grade, as class-bench compares a run on
# several GPUs with the one-GPU run. Every points column before time_ms but
# total and performance, and the status, must be equal; performance may
# differ by the timing noise: TOLERANCE (default 0.02) of the larger of the
# two, since each is a ratio of two medians, each within 1% of its mean
# (methodology.md#timing); total must differ by what performance does,
# to the gradebook's six digits. Prints "DIFFERING MAX_PERFORMANCE_DIFFERENCE" on stdout, and each
# differing student with both rows on stderr. A student in one gradebook
# only differs.
BEGIN { FS = ","; if (tolerance == "") tolerance = 0.02 }
FNR == 1 {
    file++
    delete col
    for (i = 1; i <= NF; i++) col[$i] = i
    last[file] = col["time_ms"] - 1
    total[file] = col["total"]; perf[file] = col["performance"]; status[file] = NF
    next
}
{
    row[file, $1] = $0
    students[$1] = 1
}
END {
    differing = 0; widest = 0
    for (s in students) {
        if (!((1, s) in row) || !((2, s) in row)) { report(s); continue }
        split(row[1, s], a, ","); split(row[2, s], b, ",")
        same = a[status[1]] == b[status[2]] && last[1] == last[2]
        for (i = 2; same && i <= last[1]; i++)
            if (i != total[1] && i != perf[1] && a[i] != b[i]) same = 0
        gap = a[perf[1]] - b[perf[2]]; if (gap < 0) gap = -gap
        if (gap > widest) widest = gap
        larger = a[perf[1]] > b[perf[2]] ? a[perf[1]] : b[perf[2]]
        if (gap > tolerance * larger + 1e-9) same = 0
        shift = (a[total[1]] - a[perf[1]]) - (b[total[2]] - b[perf[2]])
        if (shift > 0.01 || shift < -0.01) same = 0
        if (!same) report(s)
    }
    printf "%d %.4g\n", differing, widest
}
function report(s) {
    differing++
    print "  one GPU:  " ((1, s) in row ? row[1, s] : s ": not in the gradebook") > "/dev/stderr"
    print "  this run: " ((2, s) in row ? row[2, s] : s ": not in the gradebook") > "/dev/stderr"
}
