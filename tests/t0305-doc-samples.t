#!/usr/bin/env bash
# t0305-doc-samples.t: the sample outputs in README.md and docs/*.md are the
# files docs/samples.sh captured from real runs (docs/samples/NAME.txt, or
# NAME.placeholder.txt until a GPU captures it), every marker names a
# sample, and the samples that need no GPU are what the code prints now.
# Numbered with the batch tests: it runs make grade (make test runs t030x
# one after another).
. tests/lib.sh

[ -f docs/samples.sh ] || skip_all "no docs/samples.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

out=$(sh docs/samples.sh check 2>&1)
ok $? "every doc shows its samples as captured, and every sample is shown"
[ -z "$out" ] || printf '%s\n' "$out" | diag

# The check can fail: a doc whose sample was edited by hand, a marker that
# names no sample, a sample without its end marker.
mk() { printf '%s\n' 'Text.' '' "<!-- sample: $1 -->" '```' "$2" '```' "$3" >"$scratch/$4.md"; }
mk dist 'dist: wrote nothing' '<!-- end sample -->' edited
mk no-such-sample '' '<!-- end sample -->' unknown
mk dist "$(cat docs/samples/dist.txt)" '' unended
mk dist "$(cat docs/samples/dist.txt)" '<!-- end sample -->' right
for doc in edited unknown unended; do
    ! MW_SAMPLE_DOCS=$scratch/$doc.md sh docs/samples.sh check >/dev/null 2>&1
    ok $? "check fails on a doc with a sample $doc"
done
MW_SAMPLE_DOCS=$scratch/right.md sh docs/samples.sh check >/dev/null 2>&1
ok $? "check passes on a doc whose sample is the captured file"
MW_SAMPLE_DOCS=$scratch/edited.md sh docs/samples.sh render >/dev/null 2>&1 &&
    cmp -s "$scratch/edited.md" "$scratch/right.md"
ok $? "render puts the captured sample in"

# Nothing of the machine that captured them: its paths, its temporary
# folders, the Makefile's line numbers (which move with every edit).
bad=$(grep -l -E "$PWD|/tmp/[A-Za-z0-9._-]*[a-z0-9]|Makefile:[0-9]+:" docs/samples/*.txt 2>/dev/null)
ok "$([ -z "$bad" ] && echo 0 || echo 1)" "the samples are normalised${bad:+ (not: $bad)}"
[ -z "$(ls docs/samples/*.placeholder.txt 2>/dev/null)" ] ||
    diag "not captured yet (need a GPU: sh docs/samples.sh capture docs/samples; sh docs/samples.sh render):" \
        $(ls docs/samples/*.placeholder.txt)

# Captured again now, those that need no GPU are the same: a change in what
# the code prints (a message, make dist's counts) needs a capture and a render.
if [ ! -d solutions ] || [ -n "${MW_DIST_INNER:-}" ]; then
    skip "a student edition: make dist and make grade print otherwise here"
else
    names=$(sh docs/samples.sh list | awk '($2 == "any" || $2 == "nogpu") && $5 != "slow" { print $1 }')
    sh docs/samples.sh capture "$scratch/fresh" $names >"$scratch/log" 2>&1
    ok $? "docs/samples.sh captures the samples that need no GPU"
    [ $? -eq 0 ] || diag <"$scratch/log"
    for name in $names; do
        if [ ! -f "$scratch/fresh/$name.txt" ]; then
            skip "$name: $(grep "^samples: $name:" "$scratch/log" | sed 's/^samples: [^:]*: //')"
            continue
        fi
        cmp -s "$scratch/fresh/$name.txt" "docs/samples/$name.txt"
        ok $? "$name: the committed sample is what the code prints now" || {
            diff "docs/samples/$name.txt" "$scratch/fresh/$name.txt" | head -n 20 | diag
            diag "after git add: sh docs/samples.sh capture docs/samples $name && sh docs/samples.sh render"
        }
    done
fi

done_testing
