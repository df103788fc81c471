# table.awk: a GitHub Markdown table of a chapter's bench.csv, one row per
# implementation at its largest size.
#
#   awk -f plots/csv.awk -f plots/table.awk [-v env=DIR/env.csv] DIR/bench.csv
#
# Rows that are wrong or not implemented are shown with their flag and blank
# numbers, never dropped. Nothing is decided here: whether a row is timed,
# its "vs library" ratio (the library's median time over this one, against
# the library row computing the same operation at the same size), the
# chapter's roof and how a roof is named are bench.csv's columns timed,
# vs_library, chapter_roof, roof_label and roof_description, decided in C
# (grader/facts.c, from the roof table in grader/roofs.c) and printed as
# they are. With env=, a line under the table says where and when it was
# measured, and which roof "% of roof" is of.
#
# A row's % of roof is shown where its roof's value is known (roof_value):
# a roof that this GPU's roofs.csv lacks is not measured, and a percent
# written against an earlier method of it is of something else. Where the
# file has pct_peak (the share of its precision's peak, grader/roofs.h), a
# "% of peak" column follows "% of roof", on the same rule.

function kindrank(k) {
    return k == "student" ? 1 : k == "reference" ? 2 : k == "library" ? 3 : k == "roof" ? 4 : 5
}

# A time in ms, in the unit that keeps 3 to 4 digits: 2.71 µs, 1.076 ms.
# The thresholds sit where rounding would carry (99.96 -> "100", not "100.0").
function fmt_time(ms,    v) {
    if (ms == "") return ""
    ms += 0
    if (ms < 0.9995) { v = ms * 1000; return sprintf(v < 9.995 ? "%.2f µs" : v < 99.95 ? "%.1f µs" : "%.0f µs", v) }
    if (ms < 999.95) return sprintf(ms < 9.9995 ? "%.3f ms" : ms < 99.995 ? "%.2f ms" : "%.1f ms", ms)
    return sprintf("%.3f s", ms / 1000)
}

function fmt_rate(v) {
    if (v == "") return ""
    v += 0
    return sprintf(v >= 99.95 ? "%.0f" : v >= 9.995 ? "%.1f" : "%.2f", v)
}

function cell(r, name) { return R[r, col[name]] }

function timed(r) { return cell(r, "timed") == 1 }

FNR == 1 {
    csvsplit($0, h)
    for (i in h) col[h[i]] = i
    for (i = split("impl kind size shape median_ms q1_ms q3_ms gbps gflops model_flops roof pct_roof flag chapter_roof timed vs_library roof_label roof_description", need, " "); i > 0; i--)
        if (!(need[i] in col)) {
            print "table: " FILENAME ": no column " need[i] " (not as the bench writes it: build/tools/mw-facts adds it)" > "/dev/stderr"
            bad = 1; exit 1
        }
    next
}
/^[ \t\r]*$/ { next }
{
    nr++; n = csvsplit($0, f)
    for (i = 1; i <= n; i++) R[nr, i] = f[i]
    im = cell(nr, "impl")
    if (!(im in pick)) { order[++ni] = im; pick[im] = nr }
    else if (cell(nr, "size") + 0 > cell(pick[im], "size") + 0) pick[im] = nr
    if (roof == "") roof = cell(nr, "chapter_roof")
    if (cell(nr, "roof") == roof && of == "") of = cell(nr, "roof_description")
    if (cell(nr, "roof") == roof && cell(nr, "roof_value") != "") measured = 1
}

# A percent cell: blank where the row's roof has no measured value.
function pct_cell(r, name) {
    if (cell(r, name) == "" || cell(r, "roof_value") == "") return ""
    return sprintf("%.1f%%", cell(r, name))
}

END {
    if (bad) exit 1
    if (nr == 0) { print "table: no data rows" > "/dev/stderr"; exit 1 }
    # Student, reference, library, roof; otherwise in order of appearance.
    for (a = 2; a <= ni; a++)
        for (b = a; b > 1 && kindrank(cell(pick[order[b]], "kind")) < kindrank(cell(pick[order[b - 1]], "kind")); b--) {
            t = order[b]; order[b] = order[b - 1]; order[b - 1] = t
        }
    peak = "pct_peak" in col
    print "| implementation | size | median time | IQR | GB/s | GFLOP/s | % of roof |" (peak ? " % of peak |" : "") " vs library | flag |"
    print "|---|---|--:|--:|--:|--:|--:|" (peak ? "--:|" : "") "--:|---|"
    for (a = 1; a <= ni; a++) {
        r = pick[order[a]]
        iqr = vs = pct = gf = pk = ""
        if (timed(r)) {
            if (cell(r, "q1_ms") != "" && cell(r, "q3_ms") != "") iqr = fmt_time(cell(r, "q3_ms") - cell(r, "q1_ms"))
            pct = pct_cell(r, "pct_roof")
            if (peak) pk = pct_cell(r, "pct_peak")
            # A row measured against another roof (a TF32 library call or a
            # bf16 kernel in an FP32 chapter) says which.
            if (pct != "" && cell(r, "roof") != roof)
                pct = pct " of " (cell(r, "roof_label") != "" ? cell(r, "roof_label") : cell(r, "roof"))
            if (cell(r, "model_flops") + 0 > 0) gf = fmt_rate(cell(r, "gflops"))   # a copy has no FLOPs
            if (cell(r, "vs_library") != "") vs = sprintf("%.2fx", cell(r, "vs_library"))
        }
        size = cell(r, "shape") != "" ? cell(r, "shape") : cell(r, "size")
        med = timed(r) ? fmt_time(cell(r, "median_ms")) : ""
        gb = timed(r) ? fmt_rate(cell(r, "gbps")) : ""
        printf "| %s | %s | %s | %s | %s | %s | %s |%s %s | %s |\n", order[a], size, med, iqr, gb, gf, pct, (peak ? " " pk " |" : ""), vs, cell(r, "flag")
    }
    if (env != "" && (getline line < env) > 0) {
        while ((getline line < env) > 0) { csvsplit(line, f); E[f[1]] = f[2] }
        close(env)
        where = E["gpu"] != "" ? E["gpu"] : "an unrecorded GPU"
        if (E["date"] != "") where = where ", " E["date"]
        if (E["driver"] != "") where = where ", driver " E["driver"]
        if (E["cuda_runtime"] != "") where = where ", CUDA " E["cuda_runtime"]
        # A roof the table lacks has no description: its name says what it is.
        if (of == "") of = roof " roof"
        if (measured)
            printf "\nMeasured on %s. %% of roof: of the measured %s%s; vs library: library time / this time.\n", where, of, (peak ? "; % of peak: of the largest roof of the row's precision" : "")
        else
            printf "\nMeasured on %s. %% of roof: not shown, the %s is not in this GPU's roofs.csv (make roofs measures it); vs library: library time / this time.\n", where, of
    }
}
