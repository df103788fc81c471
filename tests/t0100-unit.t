#!/usr/bin/env bash
# Unit tests of the grader's pure-C parts (tests/unit/test_grader.c).
if [ ! -x build/tests/test_grader ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_grader is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_grader tests/data
