#!/usr/bin/env bash
# The facts of a bench run's rows on the CPU (tests/unit/test_facts.c):
# timed or not and why, the library row each row is compared with (two
# libraries computing two operations, chapter 02), the ratio as bench.csv
# holds it, the roofs' values, the columns written, the terminal table.
if [ ! -x build/tests/test_facts ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_facts is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_facts
