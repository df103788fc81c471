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

count=0
failed=0
ok() { # ok CONDITION-STATUS NAME
    count=$((count + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $count - $2"
    else
        echo "not ok $count - $2"
        failed=$((failed + 1))
    fi
}

if [ ! -x "$TOOL" ] || [ grader/strip.c -nt "$TOOL" ]; then
    mkdir -p build/tools
    gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$TOOL" grader/strip.c
    ok $? "mw-strip builds"
    [ -x "$TOOL" ] || { echo "1..$count"; exit 1; }
fi

for solution in "${solutions[@]}"; do
    exercise=exercises/${solution#solutions/}
    message=$("$TOOL" --check "$solution" "$exercise" 2>&1)
    ok $? "$exercise is generated from $solution and up to date"
    [ -n "$message" ] && echo "$message" | sed 's/^/#   /'
done

for exercise in "${exercises[@]}"; do
    leaks=$(grep -n SOLUTION "$exercise")
    [ -z "$leaks" ]
    ok $? "$exercise has no line mentioning SOLUTION"
    [ -n "$leaks" ] && echo "$leaks" | sed 's/^/#   /'
    grep -q TODO "$exercise"
    ok $? "$exercise has a TODO"
    [ -f "solutions/${exercise#exercises/}" ]
    ok $? "$exercise has its solution (not an orphan)"
done

echo "1..$count"
[ $failed -eq 0 ]
