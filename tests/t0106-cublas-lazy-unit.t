#!/usr/bin/env bash
# The chapter programs load cuBLAS on first use (grader/cublas_lazy.c), so
# that a start of mw-chapter does not pay cuBLAS's 0.37 s of static
# initialisation: the forwarders reach the real library
# (tests/unit/test_cublas_lazy.c), and no chapter program links cuBLAS.
. tests/lib.sh
if [ ! -x build/tests/test_cublas_lazy ]; then
    ok 1 "build/tests/test_cublas_lazy is built (run 'make build')"
    done_testing
fi
build/tests/test_cublas_lazy | sed -e '/^1\.\./d' -e 's/^ok [0-9]* /ok /' -e 's/^not ok [0-9]* /not ok /' >"${TMPDIR:-/tmp}/mw-lazy.$$"
while IFS= read -r line; do
    case $line in
    'ok '*) ok 0 "${line#ok - }" ;;
    'not ok '*) ok 1 "${line#not ok - }" ;;
    esac
done <"${TMPDIR:-/tmp}/mw-lazy.$$"
rm -f "${TMPDIR:-/tmp}/mw-lazy.$$"
for ch in $(chapters); do
    ldd "build/$ch/mw-chapter" 2>/dev/null | grep -q 'libcublas'
    ok "$([ $? -ne 0 ] && [ -x "build/$ch/mw-chapter" ] && echo 0 || echo 1)" "$ch: mw-chapter does not link cuBLAS"
done
done_testing
