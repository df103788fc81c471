# csv.awk: the CSV splitter the other awk programs share; load it first:
#   awk -f plots/csv.awk -f plots/table.awk ...

# Split one CSV line into f[1..n]; fields may be double-quoted ("" is a quote).
function csvsplit(line, f,    n, i, c, q, cur) {
    split("", f)
    sub(/\r$/, "", line)
    if (index(line, "\"") == 0)
        return split(line, f, ",")
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c != "\"") cur = cur c
            else if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
            else q = 0
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
