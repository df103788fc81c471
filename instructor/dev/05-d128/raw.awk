# raw.awk: ncu's --csv --page raw (a row of metric names, a row of units,
# one row of values) as "path,metric,value,unit" lines for the metrics
# whose names hold "__" (ncu's own columns, such as "Kernel Name", are left
# out). Lines before the header (the program's own output) are skipped.
function unquote(s) { gsub(/^"|"$/, "", s); return s }
{
    n = split($0, f, "\",\"")
    for (i = 1; i <= n; i++) f[i] = unquote(f[i])
}
!header && f[1] == "ID" { for (i = 1; i <= n; i++) name[i] = f[i]; header = n; next }
header && !units { for (i = 1; i <= n; i++) unit[i] = f[i]; units = 1; next }
header && units && !done {
    for (i = 1; i <= header; i++)
        if (index(name[i], "__")) {
            v = f[i]; gsub(/,/, "", v)
            printf "%s,%s,%s,%s\n", path, name[i], v, unit[i]
        }
    done = 1
}
