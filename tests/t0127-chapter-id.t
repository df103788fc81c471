#!/usr/bin/env bash
# A chapter is what its folder says. Chapter 01 copied as chapters/06-copy
# (as docs/writing-a-chapter.md suggests starting one), its id left
# "01-vector-add": its chapter program stops every command (list, check,
# bench) with exit 2 and a reason naming both, and writes nothing into
# chapter 01's results. No GPU needed: the check runs first. The copy is a
# scratch tree of the tracked files with build/ alongside (timestamps kept,
# so only the copied chapter is built).
. tests/lib.sh
[ -x build/01-vector-add/mw-chapter ] || skip_all "build/01-vector-add/mw-chapter is not built (make build)"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
tree=$scratch/tree
mkdir -p "$tree"
git ls-files -z -co --exclude-standard 2>/dev/null | xargs -0 cp -a --parents -t "$tree" 2>/dev/null ||
    cp -a . "$tree" # a tree without git (the student edition)
cp -a build "$tree/" 2>/dev/null
cp -a chapters/01-vector-add "$tree/chapters/06-copy"
cp -a exercises/01-vector-add "$tree/exercises/06-copy"

cd "$tree" || exit 1
out=$(make -s --no-print-directory build/06-copy/mw-chapter 2>&1)
ok $? "the copied chapter builds"; printf "%s\n" "$out" | diag
want="chapters/06-copy/ declares the id '01-vector-add': a chapter's id must be its folder's name"
for cmd in list info "check --lib-dir build/exercises/06-copy" "bench --out $scratch/results"; do
    run=$(build/06-copy/mw-chapter $cmd 2>&1)
    rc=$?
    [ $rc -eq 2 ] && printf '%s\n' "$run" | grep -qF "$want"
    ok $? "mw-chapter ${cmd%% *}: exit 2 and the reason (exit $rc)" || printf '%s\n' "$run" | diag
done
[ ! -e "$scratch/results" ]
ok $? "the bench wrote nothing"
before=$(find results -newer Makefile 2>/dev/null | sort)
run=$(make -s --no-print-directory check CH=06 2>&1)
rc=$?
printf '%s\n' "$run" | grep -qF "$want" && [ $rc -ne 0 ]
ok $? "make check CH=06 fails with the reason"
printf '%s\n' "$run" | grep -q 'Error 2'
ok $? "make reports the grader's exit 2"
[ "$(find results -newer Makefile 2>/dev/null | sort)" = "$before" ]
ok $? "nothing under results/ changed"
# Renamed, it runs.
sed -i 's/"01-vector-add"/"06-copy"/' chapters/06-copy/chapter.c
make -s --no-print-directory build/06-copy/mw-chapter >/dev/null 2>&1
build/06-copy/mw-chapter list | head -n 1 | grep -q '^06-copy:'
ok $? "with .id = \"06-copy\" the program runs"
done_testing
