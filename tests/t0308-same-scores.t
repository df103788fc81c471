#!/usr/bin/env bash
# grader/mk/same-scores.awk, which class-bench uses to say whether a class
# graded on several GPUs got the grades of its one-GPU run: equal points
# and status, performance points within 2%, a student missing differs.
. tests/lib.sh
base=$(mktemp)
other=$(mktemp)
trap 'rm -f "$base" "$other"' EXIT
cat >"$base" <<'CSV'
student,total,max,edge,tail,sanitize,performance,time_ms,reference_ms,library_ms,status
alice,110,110,10,15,10,20,0.74,0.75,0.75,graded
bob,90.6487,110,10,15,10,0.648697,27.5,0.74,0.74,graded
carol,41.5721,110,10,10.7143,0,0,,,,graded
dave,40,110,10,15,0,0,,,,02_fast does not compile
CSV
compare() { awk -f grader/mk/same-scores.awk "$base" "$other" 2>/dev/null; }
# differs SED-EXPRESSION NAME: the gradebook edited so, compared: not the same.
differs() {
    sed "$1" "$base" >"$other"
    [ "$(compare | cut -d' ' -f1)" = 1 ]
    ok $? "$2"
}

cp "$base" "$other"
[ "$(compare)" = "0 0" ]
ok $? "a gradebook is the same as itself"

sed 's/^bob,90.6487,\(.*\),0.648697,27.5/bob,90.6513,\1,0.651277,27.4/' "$base" >"$other"
[ "$(compare)" = "0 0.00258" ]
ok $? "performance 0.4% apart (and a time_ms of its own): the same, the gap 0.00258"

differs 's/^bob,90.6487,\(.*\),0.648697,/bob,90.6,\1,0.6,/' \
    "performance 8% apart: differs"

differs 's/^carol,41.5721,110,10,/carol,31.5721,110,0,/' \
    "a group's points differ: differs"

differs 's/^alice,110,110,10,15,10,20,/alice,110,110,10,15,10,20.5,/' \
    "performance moved but total did not: differs"

differs 's/^dave,\(.*\),02_fast does not compile$/dave,\1,graded/' \
    "the status differs: differs"

grep -v '^alice,' "$base" >"$other"
[ "$(compare | cut -d' ' -f1)" = 1 ]
ok $? "a student missing: differs"
awk -f grader/mk/same-scores.awk "$base" "$other" 2>&1 >/dev/null | grep -q 'alice: not in the gradebook'
ok $? "and is named on stderr"
done_testing
