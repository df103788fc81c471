#!/usr/bin/env bash
# Unit tests of the localisation of wrong elements (tests/unit/test_locate.c).
if [ ! -x build/tests/test_locate ]; then
    echo "1..1"
    echo "not ok 1 - build/tests/test_locate is not built (run 'make build')"
    exit 1
fi
exec build/tests/test_locate
