#!/usr/bin/env bash
# The table of roofs and the roofs cache on the CPU
# (tests/unit/test_roofs.c): lookup, percent of roof, the startup check of
# a chapter's roof names, a made-up roof added in one place; and every
# committed results/<gpu>/roofs.csv loads and saves back byte for byte.
if [ ! -x build/tests/test_roofs ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_roofs is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_roofs $(ls results/*/roofs.csv 2>/dev/null)
