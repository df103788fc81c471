#!/bin/sh
# lesson-table.sh LESSON.md NAME DIR: put table NAME, made from the results
# in DIR (results/<gpu>/<chapter>), between the lines
#     <!-- BEGIN table NAME -->
#     <!-- END table NAME -->
# of LESSON.md, replacing what was there; the markers stay. The table is
# DIR/NAME.csv as it is, or, where the lesson's folder holds NAME.awk, the
# CSV that program prints from DIR's files (awk -v dir=DIR, with csv.awk
# and results.awk loaded): a chapter's own selection and ratios of its
# bench.csv. Either way plots/md-table.awk writes the Markdown. As readme-table.sh, the file
# is rewritten through a temporary copy, and left untouched on any error.
# NAME may be NAME@TAG (plots/tables.sh: TAG another GPU's folder of
# results/): the markers are then <!-- BEGIN table NAME@TAG --> and its END,
# the table is made as NAME's, from DIR, which the caller gives; so one
# lesson can show the same table measured on two GPUs.
# Exit 0 done, 1 error.
set -eu

if [ $# -ne 3 ]; then
    echo "usage: plots/lesson-table.sh LESSON.md NAME[@TAG] DIR" >&2
    exit 1
fi
md=$1 name=$2 dir=$3
base=${name%%@*}
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$md" ] || { echo "lesson-table: $md not found" >&2; exit 1; }
[ -d "$dir" ] || { echo "lesson-table: $md: <!-- BEGIN table $name -->: no folder $dir" >&2; exit 1; }
prog=$(dirname "$md")/$base.awk
if [ -f "$prog" ]; then
    csv=$(awk -v dir="$dir" -f "$here/csv.awk" -f "$here/results.awk" -f "$prog" </dev/null) ||
        { echo "lesson-table: $md: <!-- BEGIN table $name -->: $prog failed on $dir" >&2; exit 1; }
else
    [ -f "$dir/$base.csv" ] ||
        { echo "lesson-table: $md: <!-- BEGIN table $name -->: no $dir/$base.csv (nor $prog)" >&2; exit 1; }
    csv=$(cat "$dir/$base.csv")
fi
table=$(printf '%s\n' "$csv" | awk -f "$here/csv.awk" -f "$here/md-table.awk") || exit 1

tmp=$(mktemp "$md.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cp -p "$md" "$tmp"
TABLE=$table awk -v file="$md" -v begin="<!-- BEGIN table $name -->" -v end="<!-- END table $name -->" '
    function fail(msg) { print "lesson-table: " file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
    function is(line, marker) { sub(/^[ \t]+/, "", line); sub(/[ \t\r]+$/, "", line); return line == marker }
    is($0, begin) {
        if (begins++) fail("more than one " begin " line (line " NR ")")
        print; printf "\n%s\n\n", ENVIRON["TABLE"]; inside = 1; next
    }
    is($0, end) {
        if (!inside) fail(end " without a BEGIN before it (line " NR ")")
        inside = 0
    }
    !inside { print }
    END {
        if (bad) exit 1
        if (!begins) fail("no " begin " line")
        if (inside) fail(begin " without an END after it")
    }' "$md" >"$tmp"
mv -f "$tmp" "$md"
trap - EXIT
echo "lesson-table: updated $md ($name)"
