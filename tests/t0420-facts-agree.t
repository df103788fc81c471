#!/usr/bin/env bash
# t0420-facts-agree.t: on the committed results, each fact is one number
# wherever it shows. For every chapter, bench.csv carries the facts columns
# as grader/facts.c decides them now (build/tools/mw-facts writes the same
# file again, byte for byte), and the "vs library" ratio of each row at the
# largest size is the same in the bench's terminal table (mw-facts --table
# prints it with the bench's code), in the lesson's README table (for the
# GPU the tables are made from) and in bench.csv's vs_library column.
# And a made-up roof, one row added to a roof table (tests/unit/test_facts.c
# writes the bench.csv of a chapter measured against it): its unit, what
# its rate counts, its label and description reach the README table and
# the speed plot from bench.csv, which know no roof by name.
# TAP; run with prove from the repository root.
. tests/lib.sh

tool=build/tools/mw-facts
[ -x "$tool" ] || { plan 1; ok 1 "$tool is not built (run 'make build')"; exit 1; }
tables_gpu=NVIDIA_H100_80GB_HBM3   # plots/tables.sh's default
facts_columns='roof_value,chapter_roof,timed,not_timed_why,vs_library,vs_library_impl,roof_unit,roof_counts,roof_label,roof_description'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# file_ratios CSV: "impl<TAB>ratio" at the largest size, from vs_library.
cat > "$tmp/file.awk" <<'AWK'
NR == 1 { csvsplit($0, h); for (i in h) col[h[i]] = i; next }
{
    n++; csvsplit($0, f); size[n] = f[col["size"]] + 0; im[n] = f[col["impl"]]; vs[n] = f[col["vs_library"]]
    if (size[n] > big) big = size[n]
}
END { for (r = 1; r <= n; r++) if (size[r] == big) printf "%s\t%s\n", im[r], vs[r] == "" ? "" : sprintf("%.2fx", vs[r]) }
AWK
file_ratios() { awk -f plots/csv.awk -f "$tmp/file.awk" "$1" | sort; }
# series_ratios CSV: the same at each series' own largest size, as the
# README tables show them (chapter 05's d = 128 series stop at N = 16384,
# below the d = 64 ones).
cat > "$tmp/series.awk" <<'AWK'
NR == 1 { csvsplit($0, h); for (i in h) col[h[i]] = i; next }
{
    n++; csvsplit($0, f); size[n] = f[col["size"]] + 0; im[n] = f[col["impl"]]; vs[n] = f[col["vs_library"]]
    if (!(im[n] in big) || size[n] > big[im[n]]) big[im[n]] = size[n]
}
END { for (r = 1; r <= n; r++) if (size[r] == big[im[r]]) printf "%s\t%s\n", im[r], vs[r] == "" ? "" : sprintf("%.2fx", vs[r]) }
AWK
series_ratios() { awk -f plots/csv.awk -f "$tmp/series.awk" "$1" | sort; }
# terminal_ratios CSV: the same from the terminal table ("-": none; a
# flag may follow the ratio).
terminal_ratios() {
    "$tool" --table "$1" | awk 'NR > 1 { v = ""; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+x$/) v = $i
                                        printf "%s\t%s\n", $1, v }' | sort
}
# readme_ratios MD: the same from the table between the bench-table markers.
# The column is found by its header: a table may have a "% of peak" column.
readme_ratios() {
    awk -F'|' '/BEGIN bench-table/ { on = 1; next } /END bench-table/ { on = 0 }
        on && /^\| implementation / { for (i = 2; i <= NF; i++) if ($i ~ /^ *vs library *$/) vs = i; next }
        on && /^\| / && !/^\|---/ {
            gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $vs); printf "%s\t%s\n", $2, $vs }' "$1" | sort
}
same() {   # same NAME A B: files A and B are equal; the diff is shown if not
    if cmp -s "$2" "$3"; then ok 0 "$1"; else ok 1 "$1"; diff "$2" "$3" | diag; fi
}

found=0 ratios=0
for csv in results/*/[0-9][0-9]-*/bench.csv; do
    [ -f "$csv" ] || continue
    found=1
    dir=${csv%/bench.csv} ch=${dir##*/} gpu=${dir%/*}; gpu=${gpu##*/}
    head -n 1 "$csv" | grep -q ",flag,op,$facts_columns\$"
    ok $? "$gpu/$ch: bench.csv ends with the facts columns"
    cp "$csv" "$tmp/again.csv"
    "$tool" --roof-cache "results/$gpu/roofs.csv" "$tmp/again.csv"
    same "$gpu/$ch: its facts are what grader/facts.c decides" "$csv" "$tmp/again.csv"
    file_ratios "$csv" > "$tmp/file"
    terminal_ratios "$csv" > "$tmp/terminal"
    ratios=$((ratios + $(grep -c 'x$' "$tmp/file")))
    same "$gpu/$ch: terminal table and bench.csv give the same vs library" "$tmp/file" "$tmp/terminal"
    if [ "$gpu" = "$tables_gpu" ]; then
        series_ratios "$csv" > "$tmp/series"
        readme_ratios "chapters/$ch/README.md" > "$tmp/readme"
        same "$gpu/$ch: README table and bench.csv give the same vs library" "$tmp/series" "$tmp/readme"
        if [ "$ch" = 01-vector-add ]; then
            readme_ratios README.md > "$tmp/readme"
            same "$gpu/$ch: the top README's table too" "$tmp/series" "$tmp/readme"
        fi
    fi
done
[ $found = 1 ] || skip_all "no results/*/*/bench.csv"
# (Chapter 05's largest size has none: nothing fits in memory there.)
[ $ratios -gt 0 ]; ok $? "ratios were compared ($ratios rows)"

# The facts columns a file has are all of them, in order, or the file is
# refused: mw-facts decides the facts again, it does not guess which
# columns a partial set meant.
csv=results/$tables_gpu/01-vector-add/bench.csv
if [ -f "$csv" ]; then
    cut -d, -f1-24 "$csv" > "$tmp/part.csv"
    ! "$tool" --roof-cache "results/$tables_gpu/roofs.csv" "$tmp/part.csv" 2> /dev/null
    ok $? "01: some of the facts columns are refused"
    sed '1s/,timed,not_timed_why,/,not_timed_why,timed,/' "$csv" > "$tmp/odd.csv"
    ! "$tool" --roof-cache "results/$tables_gpu/roofs.csv" "$tmp/odd.csv" 2> /dev/null
    ok $? "01: facts columns out of order are refused"
fi

# The case that needs the facts' op: chapter 02's reference chain against
# the library chain computing the same operation, not the first library.
csv=results/$tables_gpu/02-add-relu/bench.csv
if [ -f "$csv" ]; then
    # The README's ratio (2.67x on the H100): against the first
    # library row it would be the 1.8x of the shorter library chain.
    readme=$(readme_ratios chapters/02-add-relu/README.md | awk -F'\t' '$1 == "reference/02_chain" { print $2; exit }')
    terminal_ratios "$csv" | grep -qx "$(printf 'reference/02_chain\t%s' "$readme")" &&
        awk -v r="${readme%x}" 'BEGIN { exit !(r + 0 > 2.2) }'
    ok $? "02: reference/02_chain at ${readme:-?} in the terminal, as in the README (the three-call library chain's ratio, past 2.2x)"
fi

# ---- a made-up roof, added in one place ------------------------------------
# A bandwidth named "madeup", labelled MADEUP, 1234.5 GB/s: a table or plot
# that knew roofs by name would take it for FLOPs and call it FP32.
unit_test=build/tests/test_facts
d=$tmp/madeup/99-madeup
if [ -x "$unit_test" ] && "$unit_test" "$d/bench.csv" > /dev/null; then ok 0 "test_facts writes the made-up chapter's bench.csv"
else ok 1 "test_facts writes the made-up chapter's bench.csv ($unit_test built by 'make build')"; fi
# column CSV IMPL SIZE NAME: that row's column NAME.
cat > "$tmp/column.awk" <<'AWK'
NR == 1 { csvsplit($0, h); for (i in h) col[h[i]] = i; next }
{ csvsplit($0, f) }
f[col["impl"]] == im && f[col["size"]] == sz { print f[col[name]] }
AWK
column() { awk -f plots/csv.awk -f "$tmp/column.awk" -v im="$2" -v sz="$3" -v name="$4" "$1"; }
is_text() {   # is_text GOT WANT NAME
    [ "$1" = "$2" ]; ok $? "$3"
    [ "$1" = "$2" ] || diag "got:  $1" "want: $2"
}
big=16777216
is_text "$(for c in roof_unit roof_counts roof_label roof_description; do column "$d/bench.csv" reference/01_k $big $c; done | paste -sd'|')" \
    'GB/s|bytes|MADEUP|made-up scratchpad bandwidth' "made-up: bench.csv has its unit, count, label and description"
printf 'key,value\ngpu,Some GPU\n' > "$d/env.csv"
awk -f plots/csv.awk -f plots/table.awk -v env="$d/env.csv" "$d/bench.csv" > "$tmp/table"
ok $? "made-up: table.awk lays out its bench.csv"
grep -qF '% of roof: of the measured made-up scratchpad bandwidth;' "$tmp/table"
ok $? "made-up: the caption names it by its description"
grep -qF '| reference/01_k | n=16777216 | 201 µs | 0.00 µs | 1000 | 83.3 | 81.0% | 1.33x |  |' "$tmp/table"
ok $? "made-up: its row, in percent of it"
vars=$(awk -f plots/csv.awk -f plots/prep.awk -v tmp="$tmp" -v bench="$d/bench.csv")
ok $? "made-up: prep.awk lays out its bench.csv"
is_text "$(printf '%s\n' "$vars" | grep -E '^(unit|counts|rooflabel)=' | paste -sd' ')" \
    "unit='GB/s' counts='bytes' rooflabel='MADEUP'" "made-up: the speed plot gets its unit, count and label"
# Speed counts bytes: each line's values are bench.csv's gbps, roof row included.
want=$(for im in reference/01_k library/lib roof/madeup; do column "$d/bench.csv" $im $big gbps; done | paste -sd' ')
is_text "$(awk -F'\t' -v big=$big '$1 == big { printf "%s%s", n++ ? " " : "", $2 }' "$tmp/speed.dat")" \
    "$want" "made-up: speed is in bytes per second, its roof row drawn too"
if command -v gnuplot > /dev/null 2>&1; then
    plots/plot.sh "$d" > /dev/null 2> "$tmp/err"; ok $? "made-up: plot.sh draws it"
    grep -qF 'MADEUP roof 1234 GB/s (measured)' "$d/speed.svg" && grep -qF 'GB/s (model bytes / median time)' "$d/speed.svg"
    ok $? "made-up: the speed plot labels its roof and axis from bench.csv"
else
    skip "gnuplot not installed: the made-up roof's speed plot"
fi
done_testing
