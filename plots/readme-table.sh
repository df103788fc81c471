#!/bin/sh
# readme-table.sh FILE.md BENCH.csv: put the results table of BENCH.csv (made
# by table.awk) between the lines
#     <!-- BEGIN bench-table -->
#     <!-- END bench-table -->
# of FILE.md, replacing what was there. The markers stay. If env.csv sits
# beside BENCH.csv, a line under the table names the GPU and the date.
# The file is rewritten through a temporary copy and a rename, so it is never
# left half-written; on any error it is left untouched. Exit 0 done, 1 error.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: plots/readme-table.sh FILE.md BENCH.csv" >&2
    exit 1
fi
md=$1 bench=$2
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$md" ] || { echo "readme-table: $md not found" >&2; exit 1; }
[ -f "$bench" ] || { echo "readme-table: $bench not found; run 'make bench' first" >&2; exit 1; }

env=$(dirname "$bench")/env.csv
[ -f "$env" ] || env=
table=$(awk -f "$here/csv.awk" -f "$here/table.awk" -v env="$env" "$bench") || exit 1

# cp -p first: the temporary copy gets the file's permissions, which the
# rename then keeps.
tmp=$(mktemp "$md.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cp -p "$md" "$tmp"

# Exactly one BEGIN line followed by exactly one END line. The table goes in
# through the environment: awk -v would turn its backslashes into escapes.
TABLE=$table awk -v file="$md" '
    function fail(msg) { print "readme-table: " file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
    /^[ \t]*<!-- BEGIN bench-table -->[ \t\r]*$/ {
        if (begins++) fail("more than one <!-- BEGIN bench-table --> line (line " NR ")")
        print; printf "\n%s\n\n", ENVIRON["TABLE"]; inside = 1; next
    }
    /^[ \t]*<!-- END bench-table -->[ \t\r]*$/ {
        if (!inside) fail("<!-- END bench-table --> without a BEGIN before it (line " NR ")")
        ends++; inside = 0
    }
    !inside { print }
    END {
        if (bad) exit 1
        if (!begins) fail("no <!-- BEGIN bench-table --> line")
        if (inside) fail("<!-- BEGIN bench-table --> without an END after it")
    }' "$md" > "$tmp"
mv -f "$tmp" "$md"
trap - EXIT
echo "readme-table: updated $md"
