#!/usr/bin/env bash
# Chapter 03's tolerance on the CPU (tests/unit/test_matmul.c): FP32 sums in
# any order pass, TF32 products fail, small integers are exact.
if [ ! -x build/tests/test_matmul ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_matmul is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_matmul
