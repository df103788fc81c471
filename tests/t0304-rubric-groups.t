#!/usr/bin/env bash
# Every case group is scored: each group of each chapter's cases (as
# `mw-chapter list --csv` gives them) and `hidden` (the group of every
# instructor's hidden case) has a line in the chapter's default rubric, with
# points, or 0 and a comment saying why (the loader refuses a bare 0).
# make grade refuses a rubric that leaves a group out before it grades
# anyone, saying which; no GPU needed, since the rubric is read first.
. tests/lib.sh
[ -x build/tools/mw-batch ] || skip_all "build/tools/mw-batch is not built (make build)"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

rubric_groups() { awk '$1 == "group" { print $2 }' "$1"; }
for ch in $(chapters); do
    list=build/$ch/mw-chapter
    if [ ! -x "$list" ]; then
        skip "$ch: $list is not built"
        continue
    fi
    groups=$("$list" list --csv | awk -F, '$1 == "case" { print $5 }' | sort -u)
    [ -n "$groups" ]
    ok $? "$ch: its cases have groups ($(printf '%s' "$groups" | tr '\n' ' '))"
    missing=
    for g in $groups hidden; do
        rubric_groups "chapters/$ch/rubric" | grep -qxF -e "$g" || missing="$missing $g"
    done
    [ -z "$missing" ]
    ok $? "$ch: the default rubric names every group${missing:+ (missing:$missing)}"
    # A default rubric's 0 needs its reason, as the loader asks of any.
    bare=$(awk '$1 == "group" && $3 + 0 == 0 && $0 !~ /#/ && prev !~ /^[ \t]*#/ { print $2 } { prev = $0 }' \
        "chapters/$ch/rubric")
    [ -z "$bare" ]
    ok $? "$ch: no group worth 0 without a comment${bare:+ ($bare)}"
    hidden=instructor/hidden/$ch.cases
    if [ -f "$hidden" ]; then
        hgroups=$(awk '$1 == "case" { print $2 }' "$hidden" | sort -u)
        [ "$hgroups" = hidden ]
        ok $? "$ch: the hidden cases are all in group hidden ($(printf '%s' "$hgroups" | tr '\n' ' '))"
    fi
done

[ -d tests/class/01-vector-add ] || { skip "no fixture class (student edition): mw-batch's refusal"; done_testing; exit 0; }
# A rubric without the `tail` line: refused before anyone is graded, naming
# the group; exit 2, whatever the GPU.
grep -v '^group tail' chapters/01-vector-add/rubric >"$scratch/no-tail"
run=$(build/tools/mw-batch --chapter 01-vector-add --submissions tests/class/01-vector-add \
    --out "$scratch/out" --rubric "$scratch/no-tail" 2>&1)
rc=$?
printf '%s\n' "$run" | diag
[ $rc -eq 2 ]
ok $? "a rubric that leaves a group out stops mw-batch with exit 2 (got $rc)"
printf '%s\n' "$run" | grep -q "no-tail names no line for the case group 'tail'"
ok $? "and says which group"
[ ! -e "$scratch/out" ]
ok $? "before anything is written"

# With hidden cases, `hidden` must be named too.
grep -v '^group hidden' chapters/01-vector-add/rubric >"$scratch/no-hidden"
if [ -f instructor/hidden/01-vector-add.cases ]; then
    run=$(build/tools/mw-batch --chapter 01-vector-add --submissions tests/class/01-vector-add \
        --out "$scratch/out" --rubric "$scratch/no-hidden" --hidden instructor/hidden/01-vector-add.cases 2>&1)
    rc=$?
    [ $rc -eq 2 ] && printf '%s\n' "$run" | grep -q "group 'hidden'"
    ok $? "with hidden cases, a rubric without 'hidden' is refused (exit $rc)"
else
    skip "no instructor/hidden/01-vector-add.cases (student edition)"
fi
done_testing
