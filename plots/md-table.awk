# md-table.awk: a CSV file as a GitHub Markdown table, its first line the
# header, every other line a row, in order. A column whose values all start
# with a digit, a sign or a dash (numbers, times, ratios, "-" for none) is
# right-aligned; any other column left-aligned. Load csv.awk first:
#   awk -f plots/csv.awk -f plots/md-table.awk FILE.csv
{
    n = csvsplit($0, f)
    if (n > cols) cols = n
    for (i = 1; i <= n; i++) {
        cell[NR, i] = f[i]
        if (NR > 1 && f[i] != "" && f[i] !~ /^[-+0-9.]/) text[i] = 1
    }
    rows = NR
}
END {
    if (rows < 1) { print "md-table: " FILENAME ": no header line" > "/dev/stderr"; exit 1 }
    for (r = 1; r <= rows; r++) {
        line = "|"
        for (i = 1; i <= cols; i++) line = line " " cell[r, i] " |"
        print line
        if (r == 1) {
            line = "|"
            for (i = 1; i <= cols; i++) line = line (text[i] || i == 1 ? "---|" : "--:|")
            print line
        }
    }
}
