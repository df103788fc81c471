#!/usr/bin/env bash
# t0411-lesson-tables.t: a lesson's named tables (<!-- BEGIN table NAME -->)
# are what plots/lesson-table.sh makes of the committed results, so no
# number in them is typed by hand; md-table.awk aligns and quotes as it
# should; lesson-table.sh replaces exactly the text between the markers and
# leaves the file alone on any error. TAP; run with prove.
. tests/lib.sh
gpu=NVIDIA_H100_80GB_HBM3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- md-table.awk ------------------------------------------------------------
printf 'name,n,time\n"a, b",1.5,2 ms\nc,-,\n' >"$tmp/t.csv"
got=$(awk -f plots/csv.awk -f plots/md-table.awk "$tmp/t.csv")
want='| name | n | time |
|---|--:|--:|
| a, b | 1.5 | 2 ms |
| c | - |  |'
[ "$got" = "$want" ]
ok $? "md-table.awk: header, quoted comma, numbers right-aligned, empty cells kept"
[ "$got" = "$want" ] || printf '%s\n' "$got" | diag

# ---- lesson-table.sh on a made-up lesson ------------------------------------------
mkdir -p "$tmp/ch/09-t" "$tmp/res"
printf 'x,y\n1,2\n' >"$tmp/res/small.csv"
printf 'head\n<!-- BEGIN table small -->\nold\n<!-- END table small -->\ntail\n' >"$tmp/ch/09-t/README.md"
sh plots/lesson-table.sh "$tmp/ch/09-t/README.md" small "$tmp/res" >/dev/null
ok $? "lesson-table.sh succeeds"
want='head
<!-- BEGIN table small -->

| x | y |
|---|--:|
| 1 | 2 |

<!-- END table small -->
tail'
[ "$(cat "$tmp/ch/09-t/README.md")" = "$want" ]
ok $? "it replaces the text between the markers, and only that"
# The lesson's own NAME.awk wins over NAME.csv, and is given the folder.
printf 'BEGIN { print "from,dir"; print "awk," (dir != "") }\n' >"$tmp/ch/09-t/small.awk"
sh plots/lesson-table.sh "$tmp/ch/09-t/README.md" small "$tmp/res" >/dev/null &&
    grep -q -x '| awk | 1 |' "$tmp/ch/09-t/README.md"
ok $? "a NAME.awk beside the lesson makes the table, with dir set"
rm "$tmp/ch/09-t/small.awk"
cp "$tmp/ch/09-t/README.md" "$tmp/before"
for bad in 'no-such' ; do
    sh plots/lesson-table.sh "$tmp/ch/09-t/README.md" "$bad" "$tmp/res" 2>/dev/null
    [ $? -ne 0 ] && cmp -s "$tmp/ch/09-t/README.md" "$tmp/before"
    ok $? "a table with no data fails and leaves the lesson untouched"
done
printf '<!-- BEGIN table small -->\n<!-- BEGIN table small -->\n<!-- END table small -->\n' >"$tmp/two.md"
cp "$tmp/two.md" "$tmp/two.before"
sh plots/lesson-table.sh "$tmp/two.md" small "$tmp/res" 2>/dev/null
[ $? -ne 0 ] && cmp -s "$tmp/two.md" "$tmp/two.before"
ok $? "two BEGIN lines: refused, file untouched"
printf '<!-- BEGIN table small -->\nno end\n' >"$tmp/open.md"
sh plots/lesson-table.sh "$tmp/open.md" small "$tmp/res" 2>/dev/null
[ $? -ne 0 ] && grep -q 'no end' "$tmp/open.md"
ok $? "a BEGIN without an END: refused, file untouched"
[ -z "$(find "$tmp" -name '*.md.*')" ]
ok $? "no temporary file left"

# ---- the committed lessons ---------------------------------------------------------
n=0
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    for name in $(sed -n 's/^[ \t]*<!-- BEGIN table \([A-Za-z0-9_-]*\) -->.*/\1/p' "$lesson"); do
        n=$((n + 1))
        mkdir -p "$tmp/copy/$ch"
        cp "$lesson" "$tmp/copy/$ch/README.md"
        [ -f "chapters/$ch/$name.awk" ] && cp "chapters/$ch/$name.awk" "$tmp/copy/$ch/"
        sh plots/lesson-table.sh "$tmp/copy/$ch/README.md" "$name" "results/$gpu/$ch" >/dev/null &&
            cmp -s "$lesson" "$tmp/copy/$ch/README.md"
        ok $? "$lesson: table $name is what results/$gpu/$ch makes of it (make tables)"
    done
done
ok "$([ "$n" -ge 4 ] && echo 0 || echo 1)" "$n named tables in the lessons"

# docs/emulation.md's table of make check times on the emulation, from the
# folder of results/emulation/ that make tables takes (plots/tables.sh).
emu=results/emulation/$(ls results/emulation 2>/dev/null | head -n 1)
if [ -f "$emu/check-times.csv" ]; then
    cp docs/emulation.md "$tmp/emulation.md"
    sh plots/lesson-table.sh "$tmp/emulation.md" check-times "$emu" >/dev/null &&
        cmp -s docs/emulation.md "$tmp/emulation.md"
    ok $? "docs/emulation.md: table check-times is what $emu makes of it (make tables)"
else
    skip "no results/emulation/*/check-times.csv (make bench-emulation writes one)"
fi

done_testing
