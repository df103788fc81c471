#!/usr/bin/env bash
# tests/wrong/README.md's table of what a GPU and the CPU emulation answer
# for each known-wrong submission is what tests/wrong/agreement.sh makes of
# the `expect` files today (the answers t0510 and t0151 check).
. tests/lib.sh
skip_all_unless_known_wrongs
want=$(sh tests/wrong/agreement.sh)
ok $? "agreement.sh runs"
have=$(sed -n '/^<!-- BEGIN agreement -->$/,/^<!-- END agreement -->$/p' tests/wrong/README.md | sed '1d;$d')
[ -n "$want" ] && [ "$have" = "$want" ]
ok $? "tests/wrong/README.md's agreement table is agreement.sh's output (regenerate it)" ||
    diff <(printf '%s\n' "$have") <(printf '%s\n' "$want") | head -n 20 | diag
rows=$(grep -c '^| `' <<<"$want")
dirs=$(ls -d tests/wrong/*/*/ | while read -r d; do [ -f "$d/expect" ] && ! grep -q '^exit: 0$' "$d/expect" && echo "$d"; done | wc -l)
[ "$rows" = "$dirs" ]
ok $? "one row per known-wrong ($rows rows, $dirs folders)"
done_testing
