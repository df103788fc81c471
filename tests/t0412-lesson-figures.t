#!/usr/bin/env bash
# t0412-lesson-figures.t: the measured figures written in the lessons' and
# the README's prose (<!-- fig NAME -->...<!-- /fig -->) are what the
# chapters' figures.awk make of the committed results, so no figure is
# typed by hand; plots/figures.sh replaces exactly the text between the
# markers, leaves the file alone on any error, and its --check names the
# file, the figure, what it says and what the results give; a figure tagged
# with another GPU's folder (<!-- fig NAME@FOLDER -->) is what the program
# makes of that folder (FIGURES.awk=DIR@TAG; plots/tables.sh passes
# results/FOLDER/<chapter>), and one whose folder or figure is missing is
# an error that leaves the file alone. TAP; run with prove.
. tests/lib.sh
gpu=NVIDIA_H100_80GB_HBM3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- figures.sh on a made-up chapter -----------------------------------------------
mkdir -p "$tmp/ch/09-t" "$tmp/res"
printf 'impl,size,median_ms\nlib,8,2.5\nmine,8,1.25\n' >"$tmp/res/bench.csv"
cat >"$tmp/ch/09-t/figures.awk" <<'AWK'
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    fig("mine_ms", as_ms(get(b, "mine|8", "median_ms")))
    fig("vs_lib", as_x(get(b, "lib|8", "median_ms") / get(b, "mine|8", "median_ms"), 2))
}
AWK
md=$tmp/ch/09-t/README.md
printf 'Mine takes <!-- fig mine_ms -->9 ms<!-- /fig -->,\n<!-- x --> <!-- fig vs_lib -->old<!-- /fig --> the library.\n' >"$md"
fill() { sh plots/figures.sh "$@" "$tmp/ch/09-t/figures.awk=$tmp/res"; }
fill "$md"
ok $? "figures.sh succeeds"
want='Mine takes <!-- fig mine_ms -->1.250 ms<!-- /fig -->,
<!-- x --> <!-- fig vs_lib -->2.00x<!-- /fig --> the library.'
[ "$(cat "$md")" = "$want" ]
ok $? "it replaces the text between each figure's markers, and only that" || cat "$md" | diag
fill --check "$md"
ok $? "--check: the figures are what the results give"
cp "$md" "$tmp/before"
sed -i 's/2\.00x/2.10x/' "$md"
cp "$md" "$tmp/changed"
out=$(fill --check "$md" 2>&1)
[ $? -ne 0 ] && cmp -s "$md" "$tmp/changed"
ok $? "--check: a changed figure fails, the file left as it is"
printf '%s\n' "$out" | grep -qF "$md:2: figure vs_lib says \"2.10x\", the results give \"2.00x\""
ok $? "--check names the file, the line, the figure, what it says and what the results give" ||
    printf '%s\n' "$out" | diag
fill "$md" && cmp -s "$md" "$tmp/before"
ok $? "figures.sh sets it back"

# Errors leave the file as it was and no temporary file behind.
fails() {   # fails NAME CONTENT
    printf '%s' "$2" >"$md"
    cp "$md" "$tmp/before"
    fill "$md" 2>"$tmp/err"
    [ $? -ne 0 ] && [ -s "$tmp/err" ] && cmp -s "$md" "$tmp/before"
    ok $? "$1: error, file unchanged" || diag "$(cat "$tmp/err")"
}
fails "a figure no program prints" $'a <!-- fig nope -->1<!-- /fig -->\n'
fails "a figure without its end marker" $'a <!-- fig vs_lib -->1\n<!-- /fig -->\n'
fails "an end marker alone" $'a 1<!-- /fig -->\n'
fails "a figure that begins a line (an HTML block in Markdown)" $'a\n<!-- fig vs_lib -->1<!-- /fig --> b\n'
printf 'x <!-- fig vs_lib -->1<!-- /fig -->\n' >"$md"
cp "$md" "$tmp/before"
sh plots/figures.sh "$md" "$tmp/ch/09-t/figures.awk=$tmp/none" 2>/dev/null
[ $? -ne 0 ] && cmp -s "$md" "$tmp/before"
ok $? "results that cannot be read: error, file unchanged"
printf 'BEGIN { readcsv(dir "/bench.csv", b, "impl,size"); fig("x", get(b, "gone|8", "median_ms")) }\n' \
    >"$tmp/ch/09-t/blank.awk"
printf 'x <!-- fig x -->1<!-- /fig -->\n' >"$md"
sh plots/figures.sh "$md" "$tmp/ch/09-t/blank.awk=$tmp/res" 2>"$tmp/err"
[ $? -ne 0 ] && grep -qF 'no median_ms for gone|8' "$tmp/err"
ok $? "a figure from a row the results lack: error, naming the row"
[ -z "$(find "$tmp" -name 'README.md.*')" ]
ok $? "no temporary file left"

# Several programs (the README): figures named NN.name, NN the chapter's number.
mkdir -p "$tmp/ch/08-u"
printf 'BEGIN { fig("vs_lib", "3.00x") }\n' >"$tmp/ch/08-u/figures.awk"
printf '| a | <!-- fig 09.vs_lib -->x<!-- /fig --> | <!-- fig 08.vs_lib -->y<!-- /fig --> |\n' >"$md"
sh plots/figures.sh "$md" "$tmp/ch/08-u/figures.awk=$tmp/res" "$tmp/ch/09-t/figures.awk=$tmp/res" &&
    [ "$(cat "$md")" = '| a | <!-- fig 09.vs_lib -->2.00x<!-- /fig --> | <!-- fig 08.vs_lib -->3.00x<!-- /fig --> |' ]
ok $? "with several chapters a figure is NN.name" || cat "$md" | diag

# ---- figures tagged with another GPU's folder: FIGURES.awk=DIR@TAG ------------
# Another GPU's results, res2: the library at 5 ms, mine at 1.25 (4.00x).
mkdir -p "$tmp/res2"
printf 'impl,size,median_ms\nlib,8,5\nmine,8,1.25\n' >"$tmp/res2/bench.csv"
prog=$tmp/ch/09-t/figures.awk
printf 'x <!-- fig vs_lib -->a<!-- /fig --> and <!-- fig vs_lib@G2 -->b<!-- /fig --> on G2.\n' >"$md"
sh plots/figures.sh "$md" "$prog=$tmp/res" "$prog=$tmp/res2@G2"
ok $? "figures.sh with a tagged argument succeeds"
[ "$(cat "$md")" = 'x <!-- fig vs_lib -->2.00x<!-- /fig --> and <!-- fig vs_lib@G2 -->4.00x<!-- /fig --> on G2.' ]
ok $? "NAME from the untagged folder, NAME@TAG from the tagged one, unprefixed" || diag <"$md"
sh plots/figures.sh --check "$md" "$prog=$tmp/res" "$prog=$tmp/res2@G2"
ok $? "--check: tagged figures that are what the results give pass"
sed -i 's/4\.00x/2.00x/' "$md"
cp "$md" "$tmp/changed"
out=$(sh plots/figures.sh --check "$md" "$prog=$tmp/res" "$prog=$tmp/res2@G2" 2>&1)
[ $? -ne 0 ] && cmp -s "$md" "$tmp/changed" &&
    printf '%s\n' "$out" | grep -qF "$md:1: figure vs_lib@G2 says \"2.00x\", the results give \"4.00x\""
ok $? "--check: a tagged figure that differs fails, named with its tag, the file as it is" ||
    printf '%s\n' "$out" | diag
[ "$(printf '%s\n' "$out" | grep -c 'says')" -eq 1 ]
ok $? "--check: the untagged figure of the same name, equal, is not reported" || printf '%s\n' "$out" | diag
# A tagged argument does not switch the "NN." prefix on (above) nor off.
printf '| <!-- fig 09.vs_lib -->x<!-- /fig --> | <!-- fig 08.vs_lib -->y<!-- /fig --> | <!-- fig 09.vs_lib@G2 -->z<!-- /fig --> |\n' >"$md"
sh plots/figures.sh "$md" "$tmp/ch/08-u/figures.awk=$tmp/res" "$prog=$tmp/res" "$prog=$tmp/res2@G2" &&
    [ "$(cat "$md")" = '| <!-- fig 09.vs_lib -->2.00x<!-- /fig --> | <!-- fig 08.vs_lib -->3.00x<!-- /fig --> | <!-- fig 09.vs_lib@G2 -->4.00x<!-- /fig --> |' ]
ok $? "several untagged chapters and a tagged one: NN.name and NN.name@TAG" || diag <"$md"
# A folder with an @ in its name, written DIR/, is no tag.
mkdir -p "$tmp/at@G2" && cp "$tmp/res2/bench.csv" "$tmp/at@G2/"
printf 'x <!-- fig vs_lib -->a<!-- /fig -->.\n' >"$md"
sh plots/figures.sh "$md" "$prog=$tmp/at@G2/" && grep -qF -- '-->4.00x<' "$md"
ok $? "DIR/ with an @ in its name is a folder, untagged" || diag <"$md"

# Errors leave the file as it was, and say which marker and folder.
tagfails() {   # tagfails NAME WANT-IN-STDERR ARG...
    local what=$1 want=$2
    shift 2
    printf 'x <!-- fig vs_lib -->2.00x<!-- /fig --> and <!-- fig nope@G2 -->1<!-- /fig -->.\n' >"$md"
    cp "$md" "$tmp/before"
    sh plots/figures.sh "$md" "$@" 2>"$tmp/err"
    [ $? -ne 0 ] && cmp -s "$md" "$tmp/before" && grep -qF -- "$want" "$tmp/err"
    ok $? "$what: error, file unchanged" || diag <"$tmp/err"
}
tagfails "a tagged figure the program does not print" \
    "line 1: <!-- fig nope@G2 -->: the results in $tmp/res2 ($prog) give no figure nope" "$prog=$tmp/res" "$prog=$tmp/res2@G2"
tagfails "a tag no argument gives" "<!-- fig nope@G2 -->: no results folder given for @G2" "$prog=$tmp/res"
tagfails "a tagged folder that is not there" "no folder $tmp/none (for $prog, figures @G2)" "$prog=$tmp/res" "$prog=$tmp/none@G2"

# tables.sh on a made-up tree: results of the reference GPU (REF) and of
# another (G2); the lesson's tagged figures from G2's folder.
tree=$tmp/tree
mkdir -p "$tree/chapters/09-t" "$tree/results/REF/09-t" "$tree/results/G2/09-t" "$tree/docs"
ln -s "$PWD/plots" "$tree/plots"
: >"$tree/README.md"
: >"$tree/docs/emulation.md"
cp "$prog" "$tree/chapters/09-t/"
cp "$tmp/res/bench.csv" "$tree/results/REF/09-t/"
cp "$tmp/res2/bench.csv" "$tree/results/G2/09-t/"
lesson=$tree/chapters/09-t/README.md
printf 'Mine <!-- fig vs_lib -->a<!-- /fig -->, on G2 <!-- fig vs_lib@G2 -->b<!-- /fig --> (<!-- fig mine_ms@G2 -->c<!-- /fig -->).\n' >"$lesson"
out=$(cd "$tree" && GPU=REF sh plots/tables.sh 2>&1)
ok $? "tables.sh with tagged figures succeeds" || printf '%s\n' "$out" | diag
[ "$(cat "$lesson")" = 'Mine <!-- fig vs_lib -->2.00x<!-- /fig -->, on G2 <!-- fig vs_lib@G2 -->4.00x<!-- /fig --> (<!-- fig mine_ms@G2 -->1.250 ms<!-- /fig -->).' ]
ok $? "tables.sh: the untagged figure from REF, the tagged ones from G2" || diag <"$lesson"
printf '%s\n' "$out" | grep -qxF '  FIGURES chapters/09-t/README.md'
ok $? "tables.sh says it set the lesson's figures" || printf '%s\n' "$out" | diag
printf 'Mine <!-- fig vs_lib -->x<!-- /fig -->, on G3 <!-- fig vs_lib@G3 -->b<!-- /fig -->.\n' >"$lesson"
cp "$lesson" "$tmp/before"
out=$(cd "$tree" && GPU=REF sh plots/tables.sh 2>&1)
[ $? -ne 0 ] && cmp -s "$lesson" "$tmp/before"
ok $? "tables.sh: a tagged figure without results for the chapter fails, the lesson untouched"
printf '%s\n' "$out" | grep -qF 'chapters/09-t/README.md: <!-- fig vs_lib@G3 -->: no folder results/G3/09-t'
ok $? "the error names the lesson, the marker and the folder" || printf '%s\n' "$out" | diag
printf 'Mine <!-- fig vs_lib -->x<!-- /fig -->, on G2 <!-- fig nope@G2 -->b<!-- /fig -->.\n' >"$lesson"
cp "$lesson" "$tmp/before"
out=$(cd "$tree" && GPU=REF sh plots/tables.sh 2>&1)
[ $? -ne 0 ] && cmp -s "$lesson" "$tmp/before" &&
    printf '%s\n' "$out" | grep -qF 'chapters/09-t/README.md: line 1: <!-- fig nope@G2 -->: the results in results/G2/09-t (chapters/09-t/figures.awk) give no figure nope'
ok $? "tables.sh: a tagged figure the program does not print fails, naming lesson, marker and folder" ||
    printf '%s\n' "$out" | diag
[ -z "$(find "$tmp" -name 'README.md.*')" ]
ok $? "no temporary file left"

# ---- the committed lessons and README ------------------------------------------------
n=0
args=
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    [ -f "chapters/$ch/figures.awk" ] || continue
    args="$args chapters/$ch/figures.awk=results/$gpu/$ch"
    n=$((n + 1))
    # And each folder a tagged figure (<!-- fig NAME@FOLDER -->) names.
    set -- "chapters/$ch/figures.awk=results/$gpu/$ch"
    for folder in $(grep -o '<!-- fig [^ ]*@[A-Za-z0-9_.-]* -->' "$lesson" | sed 's/.*@//; s/ -->//' | sort -u); do
        set -- "$@" "chapters/$ch/figures.awk=results/$folder/$ch@$folder"
    done
    out=$(sh plots/figures.sh --check "$lesson" "$@" 2>&1)
    ok $? "$lesson: every figure is what results/$gpu/$ch (or a tag's folder) gives (make tables)" || printf '%s\n' "$out" | diag
    grep -q '<!-- fig ' "$lesson"
    ok $? "$lesson: its prose shows figures"
done
ok "$([ "$n" -ge 5 ] && echo 0 || echo 1)" "$n chapters with a figures.awk"
# Every figure a chapter computes is shown, in its lesson or in the README.
unused=
for prog in chapters/[0-9][0-9]-*/figures.awk; do
    ch=$(basename "$(dirname "$prog")")
    for name in $(awk -v dir="results/$gpu/$ch" -f plots/csv.awk -f plots/results.awk -f "$prog" </dev/null | cut -d, -f1); do
        grep -qF "<!-- fig $name -->" "chapters/$ch/README.md" ||
            grep -qF "<!-- fig ${ch%%-*}.$name -->" README.md || unused="$unused $ch:$name"
    done
done
ok "$([ -z "$unused" ] && echo 0 || echo 1)" "every figure a figures.awk prints is shown${unused:+ (not shown:$unused)}"
# shellcheck disable=SC2086
out=$(sh plots/figures.sh --check README.md $args 2>&1)
ok $? "README.md: the chapter table's figures are what the results give" || printf '%s\n' "$out" | diag

# Chapter 05's figures.awk on a folder that holds the bench alone (another
# GPU's run): the bench's figures, and none of the files it lacks, so that
# a marker of one fails by name.
mkdir -p "$tmp/benchonly/gpu/05-attention"
cp "results/$gpu/05-attention/bench.csv" "$tmp/benchonly/gpu/05-attention/"
cp "results/$gpu/roofs.csv" "$tmp/benchonly/gpu/"
out=$(awk -v dir="$tmp/benchonly/gpu/05-attention" -f plots/csv.awk -f plots/results.awk \
    -f chapters/05-attention/figures.awk </dev/null 2>&1)
[ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^wgmma_of_cudnn_d128,[0-9]' &&
    ! printf '%s\n' "$out" | grep -q -E '^(flash_mb|swizzle|vs_fa2_d128|vs_torch|ffma_d128_issue|lazy_worth),'
ok $? "05's figures.awk on a bench alone: the bench's figures, none of traffic, ablations, FA2, PyTorch or ncu" ||
    printf '%s\n' "$out" | head -n 5 | diag
printf 'at <!-- fig lazy_worth@G -->1x<!-- /fig -->.\n' >"$tmp/lazy.md"
out=$(sh plots/figures.sh "$tmp/lazy.md" "chapters/05-attention/figures.awk=$tmp/benchonly/gpu/05-attention@G" 2>&1)
[ $? -ne 0 ] && printf '%s\n' "$out" | grep -qF 'give no figure lazy_worth'
ok $? "a marker of a figure that folder cannot give fails, naming it" || printf '%s\n' "$out" | diag

# A scratch copy of a lesson with one figure changed: the check fails on it.
lesson=chapters/05-attention/README.md
name=$(sed -n 's/.*<!-- fig \([^ ]*\) -->.*/\1/p' "$lesson" | head -1)
sed "0,/<!-- fig $name -->[^<]*</s//<!-- fig $name -->0.01x</" "$lesson" >"$tmp/05.md"
out=$(sh plots/figures.sh --check "$tmp/05.md" "chapters/05-attention/figures.awk=results/$gpu/05-attention" 2>&1)
[ $? -ne 0 ] && printf '%s\n' "$out" | grep -qF "figure $name says \"0.01x\""
ok $? "a copy of $lesson with figure $name changed fails the check, naming it" || printf '%s\n' "$out" | diag

done_testing
