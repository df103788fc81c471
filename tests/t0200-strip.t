#!/usr/bin/env bash
# t0200-strip.t: the strip tool (grader/tools/strip.c) that makes student skeletons
# from reference solutions. Runs the fixtures in tests/data/strip/:
#   NAME.cu + NAME.expected.cu   a good input and the skeleton it must give;
#   err-*.cu                     a bad input whose first line reads
#                                "// strip fixture: error at line N: TEXT":
#                                exit 1, "err-x.cu:N: ...TEXT..." on stderr,
#                                and no output file created or modified.
cd "$(dirname "$0")/.." || exit 1

TOOL=build/tools/mw-strip
DATA=tests/data/strip
WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"' EXIT

. tests/lib.sh

# Runs the tool, keeping its status in $status and its stderr in $WORK/err.
run() { "$TOOL" "$@" >"$WORK/out" 2>"$WORK/err"; status=$?; }
stderr_has() { grep -qF -- "$1" "$WORK/err"; }

# --- build -----------------------------------------------------------------
if [ ! -x "$TOOL" ] || [ -n "$(find grader/tools/strip.c grader/tools/markers.[ch] \
    grader/tools/textbuf.h -newer "$TOOL")" ]; then
    mkdir -p build/tools
    gcc -std=c11 -Wall -Wextra -Werror -O2 -o "$TOOL" grader/tools/strip.c \
        grader/tools/markers.c 2>"$WORK/err"
    ok $? "mw-strip builds cleanly with -Wall -Wextra -Werror"
    [ -s "$WORK/err" ] && diag <"$WORK/err"
else
    ok 0 "mw-strip is up to date"
fi
if [ ! -x "$TOOL" ]; then
    done_testing
    exit 1
fi

# --- good inputs -------------------------------------------------------------
for expected in "$DATA"/*.expected.cu; do
    name=$(basename "$expected" .expected.cu)
    out=$WORK/$name.out.cu
    run "$DATA/$name.cu" "$out"
    ok $status "$name: exit 0"
    [ -s "$WORK/err" ] && diag <"$WORK/err"
    cmp -s "$out" "$expected"
    ok $? "$name: output is $name.expected.cu byte for byte"
    cmp -s "$out" "$expected" || diff "$expected" "$out" | diag
    run --check "$DATA/$name.cu" "$expected"
    ok $status "$name: --check accepts the expected skeleton"
done
! grep -q SOLUTION "$WORK"/*.out.cu
ok $? "no generated skeleton mentions SOLUTION"
ls -A "$WORK" | grep -q '^\.'
ok $((!$?)) "no temporary file left beside the outputs"
(umask 022 && "$TOOL" "$DATA/good.cu" "$WORK/mode.cu")
[ "$(stat -c %a "$WORK/mode.cu")" = 644 ]
ok $? "output mode follows the umask (644 under 022)"

# A region whose markers and kept lines end in CRLF: markers still match,
# kept lines keep their bytes.
printf 'int f(void)\r\n{\r\n// BEGIN SOLUTION\r\n// TODO: return 1.\r\n// STUB: return 0;\r\nreturn 1;\r\n// END SOLUTION\r\n}\r\n' >"$WORK/crlf.cu"
run "$WORK/crlf.cu" "$WORK/crlf.out"
[ $status -eq 0 ] && [ "$(cat "$WORK/crlf.out")" = "$(printf 'int f(void)\r\n{\r\n// TODO: return 1.\r\nreturn 0;\r\n}\r')" ]
ok $? "CRLF input: markers recognized, kept lines unchanged"

# --- --check -------------------------------------------------------------------
cp "$DATA/good.expected.cu" "$WORK/stale.cu"
sed -i '9s/i < n/i <= n/' "$WORK/stale.cu"
cp "$WORK/stale.cu" "$WORK/stale.orig"
run --check "$DATA/good.cu" "$WORK/stale.cu"
ok $((status != 1)) "--check out of sync: exit 1"
stderr_has "$WORK/stale.cu is out of date with $DATA/good.cu: run 'make skeletons'"
ok $? "--check out of sync: says which file and what to run"
stderr_has "$WORK/stale.cu:9:"
ok $? "--check out of sync: names the first differing line (9)"
diag <"$WORK/err"
cmp -s "$WORK/stale.cu" "$WORK/stale.orig"
ok $? "--check out of sync: writes nothing"
head -c -1 "$DATA/good.expected.cu" >"$WORK/short.cu"
run --check "$DATA/good.cu" "$WORK/short.cu"
[ $status -eq 1 ] && stderr_has "$WORK/short.cu:19:"
ok $? "--check: a missing final newline is a difference (line 19)"
run --check "$DATA/good.cu" "$WORK/missing.cu"
[ $status -eq 1 ] && stderr_has "out of date" && [ ! -e "$WORK/missing.cu" ]
ok $? "--check with no OUT: exit 1, out of date, nothing created"

# --- bad inputs --------------------------------------------------------------
for input in "$DATA"/err-*.cu; do
    name=$(basename "$input")
    header=$(head -n 1 "$input")
    line=$(echo "$header" | sed -n 's/^\/\/ strip fixture: error at line \([0-9]*\): .*/\1/p')
    text=${header#*: error at line $line: }
    if [ -z "$line" ]; then
        ok 1 "$name: first line states the expected error"
        continue
    fi
    out=$WORK/$name.out
    run "$input" "$out"
    [ $status -eq 1 ]
    ok $? "$name: exit 1 (got $status)"
    grep -q "^$(echo "$input" | sed 's/[.]/[.]/g'):$line: .*$text" "$WORK/err"
    ok $? "$name: error names line $line ($text)"
    grep -q . "$WORK/err" || echo "#   no message"
    diag <"$WORK/err"
    [ ! -e "$out" ] && [ -z "$(ls -A "$WORK" | grep "^\.$name")" ]
    ok $? "$name: no output file created"
    echo "previous skeleton" >"$out"
    run "$input" "$out"
    [ $status -eq 1 ] && [ "$(cat "$out")" = "previous skeleton" ]
    ok $? "$name: an existing output is left untouched"
    run --check "$input" "$out"
    [ $status -eq 1 ] && stderr_has "$input:$line:"
    ok $? "$name: --check fails on it too"
done
run --allow-none "$DATA/err-none.cu" "$WORK/none.out"
[ $status -eq 0 ] && cmp -s "$DATA/err-none.cu" "$WORK/none.out"
ok $? "--allow-none: a file with no region is copied unchanged"

# --- usage and I/O errors --------------------------------------------------------
"$TOOL" --help >"$WORK/out" 2>"$WORK/err"
[ $? -eq 0 ] && grep -q '^usage: mw-strip' "$WORK/out" && [ ! -s "$WORK/err" ]
ok $? "--help: usage on stdout, exit 0"
for args in "" "$DATA/good.cu" "$DATA/good.cu $WORK/a $WORK/b" "--bogus $DATA/good.cu $WORK/a"; do
    run $args
    [ $status -eq 2 ] && grep -q '^usage: mw-strip' "$WORK/err" && [ ! -s "$WORK/out" ]
    ok $? "wrong usage '${args//$WORK\//}': exit 2, usage on stderr"
done
[ ! -e "$WORK/a" ]
ok $? "wrong usage creates nothing"
run "$WORK/no-such.cu" "$WORK/a"
[ $status -eq 2 ] && stderr_has "cannot read $WORK/no-such.cu" && [ ! -e "$WORK/a" ]
ok $? "missing IN: exit 2, names the file, creates nothing"
run --check "$WORK/no-such.cu" "$DATA/good.expected.cu"
[ $status -eq 2 ] && stderr_has "cannot read"
ok $? "missing IN with --check: exit 2"
cp "$DATA/good.cu" "$WORK/self.cu"
run "$WORK/self.cu" "$WORK/self.cu"
[ $status -eq 2 ] && cmp -s "$DATA/good.cu" "$WORK/self.cu"
ok $? "IN and OUT the same file: exit 2, the solution is untouched"
run "$DATA/good.cu" "$WORK/no-such-dir/a.cu"
[ $status -eq 2 ] && stderr_has "cannot write"
ok $? "OUT in a missing folder: exit 2"
ln -s "$WORK/target" "$WORK/link.cu"
echo "target" >"$WORK/target"
run "$DATA/good.cu" "$WORK/link.cu"
[ $status -eq 2 ] && [ -L "$WORK/link.cu" ] && [ "$(cat "$WORK/target")" = target ]
ok $? "OUT a symbolic link: exit 2, link and target untouched"

done_testing
