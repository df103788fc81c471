#!/usr/bin/env bash
# A chapter's reference answers are the same whether the check prepares
# them first, on every core (prepare_reference: chapter 04's row
# statistics, chapter 05's attention rows), or asks for them one at a time
# (tests/chapter/reference_agree.c, built as build/<chapter>/reference-agree:
# each way in a process of its own, every case of at most 2^22 outputs,
# as each operation a version computes, chapter 05's bf16 one included,
# hashed bit for bit). No GPU needed: the reference is the CPU's.
. tests/lib.sh

for ch in $(chapters); do
    prog=build/$ch/reference-agree
    if [ ! -x "$prog" ]; then
        ok 1 "$ch: $prog is not built (run 'make build')"
        continue
    fi
    lazy=$("$prog" --lazy 2>&1)
    rc_lazy=$?
    if [ "$lazy" = none ]; then
        skip "$ch: no prepare_reference (its references are asked for one at a time only)"
        continue
    fi
    prepared=$("$prog" --prepared 2>&1)
    rc_prepared=$?
    n=$(printf '%s\n' "$lazy" | grep -c '^case ')
    [ $rc_lazy -eq 0 ] && [ $rc_prepared -eq 0 ] && [ "$n" -gt 0 ] && [ "$lazy" = "$prepared" ]
    ok $? "$ch: prepared and one at a time agree, bit for bit, on $n cases"
    [ "$lazy" = "$prepared" ] || diag "$(diff <(printf '%s\n' "$lazy") <(printf '%s\n' "$prepared") | head -10)"
done
done_testing
