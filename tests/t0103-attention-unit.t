#!/usr/bin/env bash
# Chapter 05's tolerance on the CPU (tests/unit/test_attention.c): FP32
# flash and unfused attention in the orders a kernel may use pass with a
# margin; P rounded to bf16 and fp16 sums fail (where the tolerance is known
# to let bf16 through, the check is a TODO); rare NaN inputs give NaN where
# the reference does; exercise 05.3's bf16 tolerance passes the bf16
# kernel's arithmetic with a margin of 2 and fails fp16 sums and no max.
if [ ! -x build/tests/test_attention ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_attention is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_attention
