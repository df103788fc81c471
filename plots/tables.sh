#!/bin/sh
# tables.sh: refresh the bench tables and the measured figures in the
# lessons and the README from the results of the workbook's reference GPU
# (or GPU=<folder> under results/). A file is touched only where it has the
# bench-table markers, a lesson's named table markers (plots/lesson-table.sh)
# or figure markers (plots/figures.sh).
# A lesson can also show a table or a figure measured on another GPU: a
# name tagged with a folder of results/, <!-- BEGIN table NAME@FOLDER -->
# (and its END) or <!-- fig NAME@FOLDER -->, is made as NAME is, from
# results/FOLDER/<chapter> instead. A tag whose folder is not there for the
# chapter is an error, and that lesson is left as it is.
set -eu
gpu=${GPU:-NVIDIA_H100_80GB_HBM3}
status=0
# tagged LESSON: the lesson's tagged markers, one a line, as written
# (<!-- BEGIN table NAME@FOLDER --> or <!-- fig NAME@FOLDER -->).
tagged() {
    awk '{
        line = $0; sub(/^[ \t]+/, "", line)
        if (match(line, /^<!-- BEGIN table [^ ]*@[^ ]* -->/)) print substr(line, 1, RLENGTH)
        while (match(line, /<!-- fig [^ ]+ -->/)) {
            m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
            if (m ~ /@/) print m
        }
    }' "$1" | sort -u
}
# A lesson with a tag that names no results folder of its chapter is
# skipped by every step below, so that it is left untouched as a whole.
broken=
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    markers=$(tagged "$lesson")
    [ -n "$markers" ] || continue
    while IFS= read -r marker; do
        folder=${marker##*@}
        folder=${folder% -->}
        case $folder in
        '' | . | .. | *[!A-Za-z0-9_.-]*)
            why="$folder is not the name of a folder of results/" ;;
        *)
            [ -d "results/$folder/$ch" ] && continue
            why="no folder results/$folder/$ch" ;;
        esac
        echo "tables: $lesson: $marker: $why; $lesson left as it is" >&2
        broken="$broken$lesson
"
        status=1
    done <<EOF
$markers
EOF
done
skipped() { printf '%s' "$broken" | grep -qxF "$1"; }
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    bench=results/$gpu/$ch/bench.csv
    grep -q '<!-- BEGIN bench-table -->' "$lesson" || continue
    skipped "$lesson" && continue
    if [ ! -f "$bench" ]; then
        echo "tables: no $bench; $lesson left as it is" >&2
        continue
    fi
    sh plots/readme-table.sh "$lesson" "$bench" && echo "  TABLE   $lesson" || status=1
done
# A lesson's other tables, <!-- BEGIN table NAME[@FOLDER] -->: NAME.csv of
# the same results folder, or what the lesson's NAME.awk makes of that
# folder.
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    skipped "$lesson" && continue
    for name in $(sed -n 's/^[ \t]*<!-- BEGIN table \([A-Za-z0-9_-]*\(@[A-Za-z0-9_.-]*\)\{0,1\}\) -->.*/\1/p' "$lesson"); do
        case $name in
        *@*) dir=results/${name#*@}/$ch ;;
        *) dir=results/$gpu/$ch ;;
        esac
        sh plots/lesson-table.sh "$lesson" "$name" "$dir" >/dev/null &&
            echo "  TABLE   $lesson ($name)" || status=1
    done
done
# The figures in a lesson's prose, <!-- fig NAME -->...<!-- /fig -->: what
# the lesson's figures.awk makes of the same results folder; and, for each
# folder a <!-- fig NAME@FOLDER --> names, what it makes of that one.
for lesson in chapters/[0-9][0-9]-*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    grep -q '<!-- fig ' "$lesson" || continue
    skipped "$lesson" && continue
    set -- "chapters/$ch/figures.awk=results/$gpu/$ch"
    for folder in $(tagged "$lesson" | sed -n 's/^<!-- fig [^ ]*@\([^ ]*\) -->$/\1/p' | sort -u); do
        set -- "$@" "chapters/$ch/figures.awk=results/$folder/$ch@$folder"
    done
    sh plots/figures.sh "$lesson" "$@" &&
        echo "  FIGURES $lesson" || status=1
done
# The README's chapter table: each chapter's figures, named NN.NAME.
if grep -q '<!-- fig ' README.md; then
    set --
    for prog in chapters/[0-9][0-9]-*/figures.awk; do
        ch=$(basename "$(dirname "$prog")")
        set -- "$@" "$prog=results/$gpu/$ch"
    done
    sh plots/figures.sh README.md "$@" && echo "  FIGURES README.md" || status=1
fi
# docs/emulation.md: how long make check takes on the CPU emulation, as
# measured on the machine whose folder under results/emulation/ comes first
# (EMULATION=<folder> for another).
emu=results/emulation/${EMULATION:-$(ls results/emulation 2>/dev/null | head -n 1)}
if grep -q '<!-- BEGIN table check-times -->' docs/emulation.md && [ -f "$emu/check-times.csv" ]; then
    sh plots/lesson-table.sh docs/emulation.md check-times "$emu" >/dev/null &&
        echo "  TABLE   docs/emulation.md (check-times)" || status=1
fi
# The README shows chapter 01's table.
if grep -q '<!-- BEGIN bench-table -->' README.md && [ -f "results/$gpu/01-vector-add/bench.csv" ]; then
    sh plots/readme-table.sh README.md "results/$gpu/01-vector-add/bench.csv" && echo "  TABLE   README.md" || status=1
fi
exit $status
