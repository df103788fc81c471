#!/usr/bin/env bash
# t0420-facts-agree.t: on the committed results, each fact is one number
# wherever it shows. For every chapter, bench.csv carries the facts columns
# as grader/facts.c decides them now (build/tools/mw-facts writes the same
# file again, byte for byte), and the "vs library" ratio of each row at the
# largest size is the same in the bench's terminal table (mw-facts --table
# prints it with the bench's code), in the lesson's README table (for the
# GPU the tables are made from) and in bench.csv's vs_library column.
# TAP; run with prove from the repository root.
. tests/lib.sh

tool=build/tools/mw-facts
[ -x "$tool" ] || { plan 1; ok 1 "$tool is not built (run 'make build')"; exit 1; }
tables_gpu=NVIDIA_H100_80GB_HBM3   # plots/tables.sh's default
facts_columns='roof_value,chapter_roof,timed,not_timed_why,vs_library,vs_library_impl'
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
# terminal_ratios CSV: the same from the terminal table ("-": none; a
# flag may follow the ratio).
terminal_ratios() {
    "$tool" --table "$1" | awk 'NR > 1 { v = ""; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+x$/) v = $i
                                        printf "%s\t%s\n", $1, v }' | sort
}
# readme_ratios MD: the same from the table between the bench-table markers.
readme_ratios() {
    awk -F'|' '/BEGIN bench-table/ { on = 1; next } /END bench-table/ { on = 0 }
        on && /^\| / && !/^\| implementation / && !/^\|---/ {
            gsub(/^ +| +$/, "", $2); gsub(/^ +| +$/, "", $9); printf "%s\t%s\n", $2, $9 }' "$1" | sort
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
    "$tool" --ceilings "results/$gpu/ceilings.csv" "$tmp/again.csv"
    same "$gpu/$ch: its facts are what grader/facts.c decides" "$csv" "$tmp/again.csv"
    file_ratios "$csv" > "$tmp/file"
    terminal_ratios "$csv" > "$tmp/terminal"
    ratios=$((ratios + $(grep -c 'x$' "$tmp/file")))
    same "$gpu/$ch: terminal table and bench.csv give the same vs library" "$tmp/file" "$tmp/terminal"
    if [ "$gpu" = "$tables_gpu" ]; then
        readme_ratios "chapters/$ch/README.md" > "$tmp/readme"
        same "$gpu/$ch: README table and bench.csv give the same vs library" "$tmp/file" "$tmp/readme"
        if [ "$ch" = 01-vector-add ]; then
            readme_ratios README.md > "$tmp/readme"
            same "$gpu/$ch: the top README's table too" "$tmp/file" "$tmp/readme"
        fi
    fi
done
[ $found = 1 ] || skip_all "no results/*/*/bench.csv"
# (Chapter 05's largest size has none: nothing fits in memory there.)
[ $ratios -gt 0 ]; ok $? "ratios were compared ($ratios rows)"

# The case the facts were moved for: chapter 02's reference chain against
# the library chain computing the same operation, not the first library.
csv=results/$tables_gpu/02-add-relu/bench.csv
if [ -f "$csv" ]; then
    terminal_ratios "$csv" | grep -qx "$(printf 'reference/02_chain\t2.64x')"
    ok $? "02: reference/02_chain at 2.64x in the terminal, as in the README"
fi
done_testing
