#!/bin/sh
# mutants-remap.sh: carry a chapter's graded mutants across an edit of its
# reference solutions that moved lines (`make mutants-remap CH=NN
# SINCE=REV`; docs/mutation-testing.md).
#
#   sh grader/mk/mutants-remap.sh --chapter NN-name --since REV
#       --tool build/tools/mw-mutate [--results DIR]
#
# A mutant's key is FILE:LINE:COLUMN:OPERATOR, so a line added or removed
# above a site moves its key, and `make mutants` would grade it again as a
# new mutant. For each solutions/NN-name/*.cu that differs from REV (the
# commit the mutants were graded at; the work tree counts), this script
# maps each line of REV's file to the same, unchanged line now (git diff
# -U0: a line outside every hunk moves by the lines added and removed
# above it; a line inside a hunk was changed and maps nowhere). Then:
#
#   - results/*/NN-name/mutants.csv (DIR/*/NN-name with --results): the
#     file's rows move to their new lines. Its block of rows is written
#     again in the current list order (mw-mutate), each mutant with the
#     moved row that matches it field for field, as `make mutants PART=`
#     keeps rows; a mutant with none (its line changed, or it is new) is
#     ungraded, "not graded yet: its line changed since REV".
#   - solutions/NN-name/equivalent-mutants: every FILE:LINE: of the file
#     in it, keys and the reasons' cross-references alike, moves with its
#     line; one on a changed line stays, with a warning to check it.
#
# A row carried this way was graded against REV's code: the mistake is
# the same in the same source line, the code around it is not. The
# results' rows of other parts are kept on the same terms; grade again
# (make mutants) where the edit could change what a mutant does.
# Exit 0 done, 2 an error (nothing written).
set -u

fail() { echo "mutants-remap: $*" >&2; exit 2; }
chapter= since= tool= results=results
while [ $# -gt 0 ]; do
    case $1 in
    --chapter) chapter=${2:-} ;;
    --since) since=${2:-} ;;
    --tool) tool=${2:-} ;;
    --results) results=${2:-} ;;
    *) fail "unknown option $1" ;;
    esac
    [ $# -ge 2 ] || fail "$1 needs a value"
    shift 2
done
[ -n "$chapter" ] && [ -d "solutions/$chapter" ] || fail "no solutions/$chapter: give --chapter NN-name"
[ -n "$since" ] || fail "give --since REV, the commit the mutants were graded at (make mutants-remap SINCE=...)"
[ -x "$tool" ] || fail "no mutation tool at '$tool' (make build/tools/mw-mutate)"
git rev-parse --verify -q "$since^{commit}" >/dev/null || fail "'$since' is no commit of this repository"

scratch=$(mktemp -d) || fail "cannot make a scratch folder"
trap 'rm -rf "$scratch"' EXIT

# line_map FILE: "OLD NEW" for each line of REV's FILE, NEW "-" for a
# changed line, from the hunk headers of git diff -U0.
line_map() {
    old_lines=$(git show "$since:$1" | wc -l)
    git diff -U0 --no-color --no-ext-diff "$since" -- "$1" | awk -v n="$old_lines" '
        /^@@ / {
            split($2, o, ","); split($3, w, ",")
            a[++h] = substr(o[1], 2) + 0; b[h] = (2 in o) ? o[2] + 0 : 1
            d[h] = (2 in w) ? w[2] + 0 : 1
        }
        END {
            for (l = 1; l <= n; l++) {
                off = 0; changed = 0
                for (i = 1; i <= h; i++) {
                    if (b[i] > 0 && l >= a[i] && l < a[i] + b[i]) changed = 1
                    else if ((b[i] > 0 && l >= a[i] + b[i]) || (b[i] == 0 && l > a[i])) off += d[i] - b[i]
                }
                print l, changed ? "-" : l + off
            }
        }'
}

moved_files=0
for f in solutions/"$chapter"/*.cu; do
    [ -f "$f" ] || continue
    git cat-file -e "$since:$f" 2>/dev/null || continue
    git diff --quiet --no-ext-diff "$since" -- "$f" && continue
    base=$(basename "$f")
    line_map "$f" >"$scratch/map" || fail "cannot map the lines of $f since $since"
    "$tool" "$f" >"$scratch/sites" || fail "$tool could not list the mutants of $f"
    mkdir -p "$scratch/old" && git show "$since:$f" >"$scratch/old/$base" &&
        "$tool" "$scratch/old/$base" >"$scratch/old.sites" || fail "$tool could not list the mutants of $f at $since"
    moved_files=$((moved_files + 1))

    for csv in "$results"/*/"$chapter"/mutants.csv; do
        [ -f "$csv" ] || continue
        # Only a CSV whose rows of the file are REV's mutants, one each:
        # rows graded at another commit are not REV's to move. A CSV with
        # none of them (a version not graded there) has nothing to move.
        tail -n +2 "$scratch/old.sites" | awk -v chapter="$chapter" -v base="$base" -v csv="$csv" '
            { want[chapter "," $0 ","] = 1; n++ }
            END {
                while ((getline r < csv) > 0) {
                    split(r, c, ","); if (c[2] != base) continue
                    rows++; ok = 0
                    for (p in want) if (index(r, p) == 1) { ok = 1; break }
                    if (!ok) exit 1
                }
                exit rows == 0 ? 3 : rows == n ? 0 : 1
            }'
        case $? in
        0) ;;
        3) continue ;;
        *) echo "mutants-remap: $csv: its rows of $base are not the mutants of $since (graded at another commit): left as they are"
           continue ;;
        esac
        # The file's rows at their new lines (a row on a changed line is
        # dropped).
        awk -F, -v base="$base" -v map="$scratch/map" -v shifted="$scratch/shifted" '
            BEGIN { while ((getline l < map) > 0) { split(l, m, " "); to[m[1]] = m[2] } }
            NR > 1 && $2 == base && ($3 in to) && to[$3] != "-" {
                n += to[$3] != $3
                print $1 "," $2 "," to[$3] "," substr($0, length($1) + length($2) + length($3) + 4)
            }
            END { print n + 0 > shifted }' "$csv" >"$scratch/moved" || fail "cannot read $csv"
        # The file's block again, in list order: each mutant with the moved
        # row that is its own, field for field, else not graded yet.
        tail -n +2 "$scratch/sites" | awk -v chapter="$chapter" -v since="$since" -v moved="$scratch/moved" '
            BEGIN { while ((getline r < moved) > 0) row[++n] = r }
            {
                p = chapter "," $0 ","
                for (i = 1; i <= n; i++)
                    if (index(row[i], p) == 1) { print row[i]; carried++; next }
                print p "ungraded,not graded yet: its line changed since " since; fresh++
            }
            END { printf "%d %d\n", carried, fresh > "/dev/stderr" }' >"$scratch/block" 2>"$scratch/counts" ||
            fail "cannot list the rows of $base"
        # The CSV with the file's rows replaced by the block, in their place.
        awk -F, -v base="$base" -v block="$scratch/block" '
            NR > 1 && $2 == base { if (!done) { while ((getline b < block) > 0) print b; done = 1 } next }
            { print }' "$csv" >"$csv.tmp" && mv "$csv.tmp" "$csv" || { rm -f "$csv.tmp"; fail "cannot write $csv"; }
        read -r carried fresh <"$scratch/counts"
        read -r moved <"$scratch/shifted"
        echo "mutants-remap: $csv: $base: $carried rows carried, $moved of them to another line; $fresh not graded yet"
    done

    list=solutions/$chapter/equivalent-mutants
    [ -f "$list" ] || continue
    awk -v base="$base" -v map="$scratch/map" -v list="$list" -v since="$since" -v keys="$scratch/keys" '
        BEGIN {
            while ((getline l < map) > 0) { split(l, m, " "); to[m[1]] = m[2] }
            re = base; gsub(/\./, "[.]", re); re = "(^|[^A-Za-z0-9_.])" re ":[0-9]+:"
        }
        {
            out = ""; s = $0
            while (match(s, re)) {
                pre = substr(s, 1, RSTART - 1); hit = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
                lead = substr(hit, 1, index(hit, base) - 1)
                line = substr(hit, length(lead) + length(base) + 2); sub(/:$/, "", line)
                if (line in to && to[line] != "-") { if (to[line] != line) moved++; line = to[line] }
                else printf "mutants-remap: warning: %s:%d names %s:%s, a line changed since %s: check it\n", list, NR, base, line, since > "/dev/stderr"
                out = out pre lead base ":" line ":"
            }
            print out s
        }
        END { print moved + 0 > keys }' "$list" >"$list.tmp" || { rm -f "$list.tmp"; fail "cannot rewrite $list"; }
    mv "$list.tmp" "$list" || fail "cannot write $list"
    echo "mutants-remap: $list: $(cat "$scratch/keys") of $base's keys moved to another line"
done
[ $moved_files -gt 0 ] || echo "mutants-remap: no solution of $chapter differs from $since: nothing to move"
exit 0
