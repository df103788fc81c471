#!/usr/bin/env bash
# t0135-hint-table.t: the table step of tests/hint-table.sh on hand-written
# grader logs (tests/data/hint-table/): the first hint is the first `hint:`
# line, or the first line under the first failing case where there is
# none; it names the cause when it holds the expect file's `cause:`
# phrase; a right submission (`cause: none`) is left out of the share, one
# with no log counts as a miss; a `|` is escaped; `run` without a GPU
# grades nothing. And every known-wrong
# submission has a `cause:` line, so that the table on a GPU's logs means
# something.
. tests/lib.sh

data=tests/data/hint-table
out=$(sh tests/hint-table.sh table "$data/logs" "$data/wrong" 2>&1)
ok $? "the table step succeeds on the sample logs"
[ "$out" = "$(cat "$data/expected.md")" ]
ok $? "it writes the expected table ($data/expected.md)"
if [ "$out" != "$(cat "$data/expected.md")" ]; then
    diff <(printf '%s\n' "$out") "$data/expected.md" | diag
fi
printf '%s\n' "$out" | grep -q -F '| 01-x/generic-first | ReLU applied before the add | 1 (1) | yes | wrong only at i = 3..4 of 33 | no |'
ok $? "a cause named only by a later hint is a miss"
printf '%s\n' "$out" | grep -q -F 'Share: 3 of 5 known-wrong submissions (60.0%)'
ok $? "the share leaves the right submission out and counts the ungraded one as a miss"

sh tests/hint-table.sh table 2>/dev/null
ok "$([ $? -eq 2 ] && echo 0 || echo 1)" "table without OUTDIR: usage, exit 2"
sh tests/hint-table.sh frobnicate x 2>/dev/null
ok "$([ $? -eq 2 ] && echo 0 || echo 1)" "an unknown step: usage, exit 2"

if have_gpu; then
    skip "run on a GPU grades every submission: the GPU tier's job, not this test's"
else
    scratch=$(mktemp -d)
    sh tests/hint-table.sh run "$scratch/logs" 02-add-relu >/dev/null 2>&1
    rc=$?
    [ $rc -eq 77 ] && [ -z "$(ls -A "$scratch/logs" 2>/dev/null)" ]
    ok $? "run without a GPU: exit 77 (got $rc), no log written"
    rm -rf "$scratch"
fi

missing=''
if [ -d tests/wrong ]; then
    for expect in tests/wrong/*/*/expect; do
        grep -q '^cause: ..' "$expect" || missing="$missing ${expect%/expect}"
    done
    ok "$([ -z "$missing" ] && echo 0 || echo 1)" "every known-wrong submission names its cause${missing:+ (missing:$missing)}"
else
    skip "no tests/wrong/ here (the student edition leaves it out)"
fi

done_testing
