#!/bin/sh
# dist.sh: the student edition, dist/memwall-student.tar.gz (`make dist`).
#
# The tarball unpacks into memwall-student/ and holds the repository's
# tracked files (`git ls-files`; outside a git checkout, every file of the
# tree but build/ and dist/), as they are in the working copy, except what
# would give answers away:
#
#   solutions/      the reference solutions
#   tests/wrong/    known-wrong submissions (each one names its mistake)
#   tests/class/    the fixture class for batch grading
#   instructor/     hidden tests, by default
#   *.hidden        any file or folder so named, anywhere
#
# plus any path listed in MW_DIST_EXCLUDE (space-separated, relative to the
# root: hidden tests kept elsewhere). Everything else ships: exercises/,
# chapters/, grader/, plots/, docs/, results/, tests/, .ci/, the Makefile.
# In the student edition `make check` grades exercises/, `make bench` runs
# without a reference, and the tests that need what is left out skip.
#
# The edition refuses to ship an exercise that holds solution markers, and
# warns about exercises edited since the last commit (the working copy is
# what ships). MW_DIST_OUT overrides the output path. The tarball is written
# beside its final name and renamed into place: an interrupted run leaves the
# previous one intact.
set -eu

name=memwall-student
out=${MW_DIST_OUT:-}
case $out in
    '') ;;
    /*) ;;
    *) out=$(pwd)/$out ;; # relative to where it was asked for
esac
cd "$(dirname "$0")/.."
out=${out:-dist/$name.tar.gz}
outdir=$(dirname "$out")
mkdir -p "$outdir"

work=$(mktemp -d "${TMPDIR:-/tmp}/mw-dist.XXXXXX")
tmp=$outdir/.$(basename "$out").$$.tmp
cleanup() { rm -rf "$work"; rm -f "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

die() { echo "dist: $*" >&2; exit 1; }

# ---- the file list --------------------------------------------------------

# One path a line, relative to the root. Names holding a newline cannot be
# listed this way, and git quotes them even with core.quotepath off: refuse
# them rather than ship a mangled name.
# A checkout whose index lists nothing (a copied tree with a bare .git
# folder) is treated as no checkout.
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] &&
    git -c core.quotepath=off ls-files >"$work/all" 2>/dev/null && [ -s "$work/all" ]; then
    source='git'
    if grep -q '^"' "$work/all"; then
        die "a tracked file name holds a newline or control character: $(grep '^"' "$work/all" | head -n 1)"
    fi
else
    source='find'
    find . \( -path ./build -o -path ./dist -o -path ./.git \) -prune -o \
        \( -type f -o -type l \) -print | sed 's|^\./||' | LC_ALL=C sort >"$work/all"
fi

# Classify: a first field of "-" ships, anything else names why it is left out.
awk -v extra="${MW_DIST_EXCLUDE:-}" '
BEGIN {
    n = split("solutions/ tests/wrong/ tests/class/ instructor/ build/ dist/ " extra, pre, " ")
    for (i = 1; i <= n; i++) {
        p = pre[i]
        sub(/^\.\//, "", p)
        if (p != "" && p !~ /\/$/) p = p "/"
        if (p != "") prefix[++np] = p
    }
}
{
    why = "-"
    for (i = 1; i <= np && why == "-"; i++)
        if (substr($0 "/", 1, length(prefix[i])) == prefix[i])
            why = prefix[i]
    if (why == "-" && ("/" $0 "/") ~ /\/[^\/]*\.hidden\//)
        why = "*.hidden"
    print why "\t" $0
}' "$work/all" >"$work/classified"

: >"$work/ship"
while IFS="$(printf '\t')" read -r why path; do
    [ "$why" = "-" ] || continue
    # A tracked file deleted from the working copy has nothing to ship.
    if [ -e "$path" ] || [ -L "$path" ]; then
        printf './%s\n' "$path" >>"$work/ship"
    fi
done <"$work/classified"

count=$(wc -l <"$work/ship" | tr -d ' ')
[ "$count" -gt 0 ] || die "nothing to ship"
for need in Makefile README.md; do
    grep -qx "\./$need" "$work/ship" || die "$need is missing: run from a memwall tree"
done

# ---- guards against shipping answers -----------------------------------------

leaks=$(grep '^\./exercises/' "$work/ship" | while read -r f; do
    if [ -f "$f" ] && grep -q -E '(BEGIN|END) SOLUTION' "$f"; then echo "$f"; fi
done)
if [ -n "$leaks" ]; then
    die "exercises holding solution markers (regenerate them with 'make skeletons'):
$leaks"
fi
if [ "$source" = git ]; then
    edited=$(git diff --name-only HEAD -- exercises 2>/dev/null || true)
    if [ -n "$edited" ]; then
        echo "dist: warning: exercises edited since the last commit ship as they are now:" >&2
        printf '%s\n' "$edited" | sed 's/^/dist:   /' >&2
    fi
fi

# ---- the tarball ------------------------------------------------------------

mkdir "$work/stage" "$work/stage/$name"
tar -cf - -T "$work/ship" | tar -xpf - -C "$work/stage/$name"

set -- -cf -
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
    # Nothing of the machine that made it: owner root, names sorted.
    set -- "$@" --owner=0 --group=0 --numeric-owner
    tar --sort=name --version >/dev/null 2>&1 && set -- "$@" --sort=name
fi
(cd "$work/stage" && tar "$@" "$name") | gzip -9n >"$tmp"

# The tarball must list what was staged, and nothing held back.
tar -tzf "$tmp" >"$work/listed" || die "the tarball does not read back"
if grep -E "^$name/(solutions|tests/wrong|tests/class|instructor)/|\.hidden(/|$)" "$work/listed" >"$work/bad"; then
    die "left-out paths reached the tarball: $(head -n 3 "$work/bad" | tr '\n' ' ')"
fi
files=$(grep -c -v '/$' "$work/listed" || true)

mv -f "$tmp" "$out"

# ---- what it did --------------------------------------------------------------

size=$(wc -c <"$out" | tr -d ' ')
human=$(awk -v b="$size" 'BEGIN {
    if (b >= 1048576) printf "%.1f MiB", b / 1048576
    else if (b >= 1024) printf "%.0f KiB", b / 1024
    else printf "%d bytes", b }')
echo "dist: wrote $out: $files files, $human, unpacks into $name/ (from $source)"
left=$(awk -F'\t' '$1 != "-" { print $1 }' "$work/classified" | LC_ALL=C sort | uniq -c |
    awk '{ printf "%s%s (%d)", (NR > 1 ? ", " : ""), $2, $1 }')
[ -n "$left" ] && echo "dist: left out: $left"
exit 0
