#!/usr/bin/env bash
# t0210-skeletons.t: the committed skeletons in exercises/ are exactly what
# mw-strip generates from solutions/, carry no solution markers, each say
# what to fill in (a TODO), and none lacks its solution. Fix a failure with
# 'make skeletons'. Compiling the skeletons is tested elsewhere.
cd "$(dirname "$0")/.." || exit 1
shopt -s nullglob

TOOL=build/tools/mw-strip
solutions=(solutions/*/*.cu)
exercises=(exercises/*/*.cu)
if [ ${#solutions[@]} -eq 0 ]; then
    echo "1..0 # SKIP no solutions yet"
    exit 0
fi

. tests/lib.sh

if [ ! -x "$TOOL" ] || [ -n "$(find grader/tools/strip.c grader/tools/markers.[ch] \
    grader/tools/textbuf.h -newer "$TOOL")" ]; then
    mkdir -p build/tools
    gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$TOOL" grader/tools/strip.c \
        grader/tools/markers.c
    ok $? "mw-strip builds"
    [ -x "$TOOL" ] || { done_testing; exit 1; }
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# True when git tracks FILE and the working copy differs from HEAD: a
# student's work in exercises/, which must not fail the project's tests.
edited() {
    git rev-parse --git-dir >/dev/null 2>&1 &&
        git ls-files --error-unmatch "$1" >/dev/null 2>&1 &&
        ! git diff --quiet HEAD -- "$1"
}

# The version of FILE to check: the working copy, or HEAD's for an edited one.
checked_copy() {
    if edited "$1"; then
        local copy; copy="$scratch/$(echo "$1" | tr / _)"
        git show "HEAD:$1" >"$copy" && echo "$copy"
    else
        echo "$1"
    fi
}

for solution in "${solutions[@]}"; do
    exercise=exercises/${solution#solutions/}
    message=$("$TOOL" --check "$solution" "$exercise" 2>&1)
    status=$?
    if [ $status -ne 0 ] && edited "$exercise"; then
        # The exercise holds local work: check the committed pair instead.
        echo "# $exercise has local edits; checking the committed skeleton"
        message=$("$TOOL" --check "$(checked_copy "$solution")" "$(checked_copy "$exercise")" 2>&1)
        status=$?
    fi
    ok $status "$exercise is generated from $solution and up to date"
    [ -n "$message" ] && echo "$message" | sed 's/^/#   /'
done

for working in "${exercises[@]}"; do
    exercise=$(checked_copy "$working")
    leaks=$(grep -n SOLUTION "$exercise")
    [ -z "$leaks" ]
    ok $? "$working has no line mentioning SOLUTION"
    [ -n "$leaks" ] && echo "$leaks" | sed 's/^/#   /'
    grep -q TODO "$exercise"
    ok $? "$working has a TODO"
    [ -f "solutions/${working#exercises/}" ]
    ok $? "$working has its solution (not an orphan)"
done

done_testing
