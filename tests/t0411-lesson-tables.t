#!/usr/bin/env bash
# t0411-lesson-tables.t: a lesson's named tables (<!-- BEGIN table NAME -->)
# are what plots/lesson-table.sh makes of the committed results, so no
# number in them is typed by hand; md-table.awk aligns and quotes as it
# should; lesson-table.sh replaces exactly the text between the markers and
# leaves the file alone on any error; a table tagged with another GPU's
# folder (<!-- BEGIN table NAME@FOLDER -->) is made by plots/tables.sh from
# results/FOLDER/<chapter>, and a tag without results there is an error
# that leaves the lesson alone. TAP; run with prove.
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

# ---- tables tagged with another GPU's folder: NAME@FOLDER ---------------------
# lesson-table.sh fills the tagged pair from the folder it is given, and
# leaves the untagged pair of the same name alone.
mkdir -p "$tmp/res2"
printf 'x,y\n3,4\n' >"$tmp/res2/small.csv"
printf '<!-- BEGIN table small -->\nkept\n<!-- END table small -->\n<!-- BEGIN table small@G2 -->\nold\n<!-- END table small@G2 -->\n' >"$tmp/tag.md"
sh plots/lesson-table.sh "$tmp/tag.md" small@G2 "$tmp/res2" >/dev/null
ok $? "lesson-table.sh NAME@TAG succeeds"
want='<!-- BEGIN table small -->
kept
<!-- END table small -->
<!-- BEGIN table small@G2 -->

| x | y |
|---|--:|
| 3 | 4 |

<!-- END table small@G2 -->'
[ "$(cat "$tmp/tag.md")" = "$want" ]
ok $? "NAME@TAG: NAME.csv of the folder given, between the tagged markers only" || diag <"$tmp/tag.md"

# tables.sh on a made-up tree: results of the reference GPU (REF) and of
# another (G2); a lesson with one table untagged and tagged, a table its
# NAME.awk makes (told the folder), and one tagged only.
tree=$tmp/tree
mkdir -p "$tree/chapters/09-t" "$tree/results/REF/09-t" "$tree/results/G2/09-t" "$tree/docs"
ln -s "$PWD/plots" "$tree/plots"
: >"$tree/README.md"
: >"$tree/docs/emulation.md"
printf 'x,y\n1,2\n' >"$tree/results/REF/09-t/small.csv"
printf 'x,y\n3,4\n' >"$tree/results/G2/09-t/small.csv"
printf 'x,y\n5,6\n' >"$tree/results/G2/09-t/only.csv"
printf 'BEGIN { print "made,from"; print "awk," dir }\n' >"$tree/chapters/09-t/mine.awk"
lesson=$tree/chapters/09-t/README.md
cat >"$lesson" <<'EOF'
# 09

<!-- BEGIN table small -->
<!-- END table small -->

On G2:

<!-- BEGIN table small@G2 -->
<!-- END table small@G2 -->

<!-- BEGIN table mine@G2 -->
<!-- END table mine@G2 -->

<!-- BEGIN table only@G2 -->
<!-- END table only@G2 -->
EOF
out=$(cd "$tree" && GPU=REF sh plots/tables.sh 2>&1)
ok $? "tables.sh with tagged tables succeeds" || printf '%s\n' "$out" | diag
# cells NAME: the first row of the table between NAME's markers.
cells() { sed -n "/^<!-- BEGIN table $1 -->\$/,/^<!-- END table $1 -->\$/p" "$lesson" | sed -n 5p; }
[ "$(cells small)" = '| 1 | 2 |' ] && [ "$(cells small@G2)" = '| 3 | 4 |' ]
ok $? "the untagged table is REF's, the tagged one of the same name G2's" ||
    diag "small: $(cells small)" "small@G2: $(cells small@G2)"
[ "$(cells mine@G2)" = '| awk | results/G2/09-t |' ]
ok $? "a tagged table NAME.awk makes is given the tagged folder" || diag "mine@G2: $(cells mine@G2)"
[ "$(cells only@G2)" = '| 5 | 6 |' ]
ok $? "a tagged table with no untagged one of its name" || diag "only@G2: $(cells only@G2)"
printf '%s\n' "$out" | grep -qxF '  TABLE   chapters/09-t/README.md (small@G2)'
ok $? "tables.sh says which tagged table it made" || printf '%s\n' "$out" | diag
cp "$lesson" "$tmp/before"
(cd "$tree" && GPU=REF sh plots/tables.sh >/dev/null 2>&1) && cmp -s "$lesson" "$tmp/before"
ok $? "running it twice changes nothing"

# A tag naming a folder the chapter has no results in: an error naming the
# lesson, the marker and the folder; the lesson untouched, its untagged
# table too (stale here), and the other lessons made as ever.
mkdir -p "$tree/chapters/08-u" "$tree/results/REF/08-u"
printf 'x,y\n7,8\n' >"$tree/results/REF/08-u/small.csv"
printf '<!-- BEGIN table small -->\n<!-- END table small -->\n' >"$tree/chapters/08-u/README.md"
sed -i 's/^| 1 | 2 |$/| stale |/' "$lesson"
printf '<!-- BEGIN table small@G3 -->\n<!-- END table small@G3 -->\n' >>"$lesson"
cp "$lesson" "$tmp/before"
out=$(cd "$tree" && GPU=REF sh plots/tables.sh 2>&1)
[ $? -ne 0 ]
ok $? "a tag without results for the chapter: tables.sh fails"
cmp -s "$lesson" "$tmp/before"
ok $? "and leaves that lesson untouched, its untagged table too"
printf '%s\n' "$out" | grep -qF 'chapters/09-t/README.md: <!-- BEGIN table small@G3 -->: no folder results/G3/09-t'
ok $? "the error names the lesson, the marker and the folder" || printf '%s\n' "$out" | diag
grep -q -x '| 7 | 8 |' "$tree/chapters/08-u/README.md"
ok $? "the other lessons are made all the same"
sed 's/small@G3/small@G.3\/x/' "$tmp/before" >"$lesson"
cp "$lesson" "$tmp/before"
out=$(cd "$tree" && GPU=REF sh plots/tables.sh 2>&1)
[ $? -ne 0 ] && cmp -s "$lesson" "$tmp/before" && printf '%s\n' "$out" | grep -qF 'G.3/x is not the name of a folder of results/'
ok $? "a tag that is no folder name: an error, the lesson untouched" || printf '%s\n' "$out" | diag
[ -z "$(find "$tmp" -name '*.md.*')" ]
ok $? "no temporary file left"

# ---- the committed lessons ---------------------------------------------------------
n=0
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    # NAME, or NAME@FOLDER: made from results/FOLDER/<chapter> (plots/tables.sh).
    for name in $(sed -n 's/^[ \t]*<!-- BEGIN table \([A-Za-z0-9_-]*\(@[A-Za-z0-9_.-]*\)\{0,1\}\) -->.*/\1/p' "$lesson"); do
        n=$((n + 1))
        dir=results/$gpu/$ch
        case $name in *@*) dir=results/${name#*@}/$ch ;; esac
        base=${name%%@*}
        mkdir -p "$tmp/copy/$ch"
        cp "$lesson" "$tmp/copy/$ch/README.md"
        [ -f "chapters/$ch/$base.awk" ] && cp "chapters/$ch/$base.awk" "$tmp/copy/$ch/"
        sh plots/lesson-table.sh "$tmp/copy/$ch/README.md" "$name" "$dir" >/dev/null &&
            cmp -s "$lesson" "$tmp/copy/$ch/README.md"
        ok $? "$lesson: table $name is what $dir makes of it (make tables)"
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
