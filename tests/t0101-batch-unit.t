#!/usr/bin/env bash
# Unit tests of the batch grader's pure-C parts (tests/unit/test_batch.c).
if [ ! -x build/tests/test_batch ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_batch is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_batch
