#!/bin/sh
# figures.sh [--check] FILE.md FIGURES.awk=DIR[@TAG]...: the measured
# figures written in prose, each between an inline marker pair
#     ... at <!-- fig lib_pct -->101.4%<!-- /fig --> of the roof ...
# (HTML comments: the rendered page shows "101.4%"), set to what the
# results give. Each FIGURES.awk (a chapter's chapters/NN-name/figures.awk)
# prints "name,text" lines from the results folder DIR (awk -v dir=DIR,
# with csv.awk and results.awk loaded), the text formatted as the prose
# shows it. With one untagged FIGURES.awk=DIR, a marker's name is the
# figure's name; with several (the README's chapter table), it is
# "NN.name", NN the number of the chapter whose folder holds the program.
# FIGURES.awk=DIR@TAG (TAG of letters, digits, _ . and -: plots/tables.sh
# gives the GPU's folder of results/) names its figures "name@TAG", so that
# one file can show a figure measured on another GPU beside the reference
# GPU's, <!-- fig name@TAG -->; the tagged arguments are left out of the
# count that decides the "NN." prefix, and take it when the untagged ones
# do. (A DIR whose last part holds an @ is written DIR/, not to be read as
# a tag.) A marker sits on one line, not at its start; a name no program
# prints is an error. The file is rewritten through a temporary copy, and
# left untouched on any error.
# --check: rewrite nothing; print the file, line, figure, what the file
# says and what the results give for every figure that differs.
# Exit 0 done (or, with --check, all equal), 1 error (or a figure differs).
set -eu

check=0
[ "${1:-}" = --check ] && { check=1; shift; }
if [ $# -lt 2 ]; then
    echo "usage: plots/figures.sh [--check] FILE.md FIGURES.awk=RESULTS-DIR[@TAG]..." >&2
    exit 1
fi
md=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$md" ] || { echo "figures: $md not found" >&2; exit 1; }
# split ARG: its prog, dir and tag (empty when untagged).
split() {
    prog=${1%%=*} dir=${1#*=} tag=
    case $dir in
    *@*)
        tag=${dir##*@}
        case $tag in
        '' | *[!A-Za-z0-9_.-]*) tag= ;;
        *) dir=${dir%@*} ;;
        esac
        ;;
    esac
}
untagged=0
for arg in "$@"; do
    case $arg in
    *=*) ;;
    *) echo "figures: $arg is not FIGURES.awk=DIR[@TAG]" >&2; exit 1 ;;
    esac
    split "$arg"
    [ -n "$tag" ] || untagged=$((untagged + 1))
done
# figs: "name,text" lines; tags: "TAG<tab>DIR (PROG)" lines, to say where
# a tagged figure was looked for when none is found.
figs='' tags=''
for arg in "$@"; do
    split "$arg"
    [ -f "$prog" ] || { echo "figures: no $prog" >&2; exit 1; }
    [ -d "$dir" ] || { echo "figures: $md: no folder $dir (for $prog${tag:+, figures @$tag})" >&2; exit 1; }
    prefix=
    [ $untagged -gt 1 ] && prefix=$(basename "$(dirname "$prog")" | sed 's/-.*//').
    out=$(awk -v dir="$dir" -f "$here/csv.awk" -f "$here/results.awk" -f "$prog" </dev/null) ||
        { echo "figures: $md: $prog failed on $dir${tag:+ (figures @$tag)}" >&2; exit 1; }
    out=$(printf '%s\n' "$out" | sed "s/^/$prefix/")
    if [ -n "$tag" ]; then
        out=$(printf '%s\n' "$out" | sed "s/^\([^,]*\),/\1@$tag,/")
        tags="$tags$tag	$dir ($prog)
"
    fi
    figs="$figs$out
"
done

tmp=$(mktemp "$md.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cp -p "$md" "$tmp"
FIGS=$figs TAGS=$tags awk -v file="$md" -v check=$check '
    function fail(msg) { print "figures: " file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
    BEGIN {
        n = split(ENVIRON["FIGS"], lines, "\n")
        for (i = 1; i <= n; i++) {
            if (lines[i] == "") continue
            c = index(lines[i], ",")
            text[substr(lines[i], 1, c - 1)] = substr(lines[i], c + 1)
        }
        n = split(ENVIRON["TAGS"], lines, "\n")
        for (i = 1; i <= n; i++) {
            if (lines[i] == "") continue
            c = index(lines[i], "\t")
            t = substr(lines[i], 1, c - 1)
            where = substr(lines[i], c + 1)
            if (t in from) where = from[t] " or " where
            from[t] = where
        }
    }
    # A tagged figure missing: say which folder it was looked for in.
    function missing(name,    t, base) {
        if (name !~ /@/) fail("line " NR ": no figure " name " in the results")
        t = base = name; sub(/^[^@]*@/, "", t); sub(/@.*/, "", base)
        if (!(t in from))
            fail("line " NR ": <!-- fig " name " -->: no results folder given for @" t " (FIGURES.awk=DIR@" t ")")
        fail("line " NR ": <!-- fig " name " -->: the results in " from[t] " give no figure " base)
    }
    # In CommonMark a comment that begins a line starts an HTML block, even
    # inside a paragraph: the rest of the paragraph would not render.
    /^[ \t]*<!-- fig / { fail("line " NR ": a figure begins the line (Markdown would read an HTML block)") }
    {
        rest = $0; out = ""
        while (match(rest, /<!-- fig [^ ]+ -->/)) {
            name = substr(rest, RSTART + 9, RLENGTH - 13)
            open = substr(rest, 1, RSTART + RLENGTH - 1)
            rest = substr(rest, RSTART + RLENGTH)
            close_at = index(rest, "<!-- /fig -->")
            if (!close_at) fail("line " NR ": figure " name " without <!-- /fig --> on its line")
            says = substr(rest, 1, close_at - 1)
            if (says ~ /<!--/) fail("line " NR ": figure " name " holds another marker")
            if (!(name in text)) missing(name)
            if (says != text[name]) {
                differ++
                if (check)
                    printf "%s:%d: figure %s says \"%s\", the results give \"%s\"\n",
                        file, NR, name, says, text[name] > "/dev/stderr"
            }
            out = out open text[name] "<!-- /fig -->"
            rest = substr(rest, close_at + 13)
        }
        if (rest ~ /<!-- \/fig -->/) fail("line " NR ": <!-- /fig --> without a figure before it")
        print out rest
    }
    END {
        if (bad) exit 1
        if (check && differ) exit 1
    }' "$md" >"$tmp"
if [ $check -eq 1 ]; then
    rm -f "$tmp"
    trap - EXIT
    exit 0
fi
if cmp -s "$md" "$tmp"; then
    rm -f "$tmp"
else
    mv -f "$tmp" "$md"
fi
trap - EXIT
