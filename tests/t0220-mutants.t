#!/usr/bin/env bash
# t0220-mutants.t: mutation testing of the grader (make mutants; the
# generator grader/tools/mutate.c, the driver grader/mk/mutants.sh;
# docs/mutation-testing.md).
#
#  - mw-mutate lists exactly tests/data/mutate/sample.expected.csv for
#    sample.cu (every operator, and the places that must never be sites);
#  - each mutant it writes is the original with one line changed, at the
#    listed line and column, inside a solution region, never in a comment
#    or a preprocessor line; the same holds for every reference solution,
#    each of which has mutants, under unique keys; every key of the
#    solutions' equivalent-mutants lists names one of them;
#  - templates.cu: a declared template's angles, whatever they hold, and a
#    static_assert are no sites;
#  - it refuses marker errors and a file with nothing to mutate;
#  - grader/mk/mutants.sh, with stand-ins for `make lib` and mw-chapter: the
#    statuses, killed_by, the score, the results folder named after the
#    GPU, the equivalents list and its stale keys, a hung check stopped, a
#    mutant graded on every case once it passes the small ones, then under
#    compute-sanitizer (a stand-in) once it passes every case (its four
#    tools at once for a mutant alone there, one at a time for several), a second
#    kernel graded under mutant-settings, EX= (which
#    keeps the other versions' rows), PART= (a slice of the mutants, the
#    others' rows kept from the CSV, the equivalents list applied to them
#    too; a slice with nothing left to grade),
#    a run stopped by TERM under a hung sanitizer (what it graded written,
#    the rest not graded, the sanitizer stopped), and without a GPU exit 77
#    after the builds;
#  - make mutants: its argument checks and what it passes to the script.
#
# The long tier (make test-full, MW_TEST_LONG=1) runs `make mutants CH=01`
# for real: every mutant of chapter 01 built (72; about 100 s on two cores),
# none stillborn, and without a GPU exit 77 saying grading needs one; on a
# GPU, graded into a scratch results folder.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

TOOL=build/tools/mw-mutate
DATA=tests/data/mutate
WORK=$(mktemp -d) || exit 1
trap 'rm -rf "$WORK"' EXIT

make -s --no-print-directory "$TOOL" >"$WORK/err" 2>&1
ok $? "mw-mutate builds cleanly with -Wall -Wextra -Werror"
[ -s "$WORK/err" ] && diag <"$WORK/err"
if [ ! -x "$TOOL" ]; then
    done_testing
    exit 1
fi

# not_code FILE SITES: the sites (lines "LINE COLUMN") of SITES that are not
# code inside a solution region of FILE: between the markers, not on a
# preprocessor line, not after a // on its line, not in a /* */ comment.
not_code() {
    awk '
        NR == FNR { want[$1] = want[$1] " " $2; next }
        { t = $0; gsub(/^[ \t]+|[ \t\r]+$/, "", t) }
        t == "// BEGIN SOLUTION" { inside = 1; next }
        t == "// END SOLUTION" { inside = 0; next }
        {
            # Where each column stands: in a block comment or a // one?
            line = $0; n = length(line); split("", state)
            for (c = 1; c <= n; c++) {
                two = substr(line, c, 2)
                if (open) { state[c] = 1; if (two == "*/") { state[c + 1] = 1; c++; open = 0 } continue }
                if (two == "/*") { open = 1; state[c] = 1; state[c + 1] = 1; c++; continue }
                if (two == "//") { for (; c <= n; c++) state[c] = 1; break }
            }
            if (FNR in want) {
                split(substr(want[FNR], 2), cols, " ")
                for (k in cols)
                    if (!inside || t ~ /^#/ || state[cols[k]]) print FNR ":" cols[k]
            }
        }' "$2" "$1"
}

# check_mutants FILE: lists FILE's mutants, writes them, and checks each:
# its site is code inside a region, and it differs from FILE in one place
# that holds the site's line. Prints the problems (nothing when all is well).
check_mutants() {
    local file=$1 out=$WORK/m.$RANDOM k line col op hunk first last
    "$TOOL" --out "$out" "$file" >"$out.csv" 2>"$out.err" || { echo "exit $? on $file: $(cat "$out.err")"; return; }
    tail -n +2 "$out.csv" | awk -F, '{ print $2, $3 }' >"$out.sites"
    not_code "$file" "$out.sites" | sed "s|^|$file:|; s|$|: not code inside a region|"
    k=0
    tail -n +2 "$out.csv" | while IFS=, read -r _ line col op _; do
        k=$((k + 1))
        mutant=$out/$(printf '%03d' $k)/$(basename "$file")
        [ -f "$mutant" ] || { echo "$file: mutant $k not written"; continue; }
        hunk=$(diff "$file" "$mutant" | grep -E '^[0-9]+(,[0-9]+)?[acd][0-9]+(,[0-9]+)?$')
        first=${hunk%%[acd]*} first=${first%%,*}
        last=${hunk%%[acd]*} last=${last##*,}
        [ "$(printf '%s\n' "$hunk" | wc -l)" = 1 ] && [ -n "$hunk" ] &&
            [ "$first" -le "$line" ] && [ "$line" -le "$last" ] ||
            echo "$file:$line:$col: $op: the mutant changes ${hunk:-nothing}, not one place at line $line"
    done
}

# ---- the sample ------------------------------------------------------------------

"$TOOL" "$DATA/sample.cu" >"$WORK/sample.csv" 2>"$WORK/err"
ok $? "sample.cu: exit 0"
cmp -s "$WORK/sample.csv" "$DATA/sample.expected.csv"
ok $? "sample.cu: the list is sample.expected.csv, site for site"
cmp -s "$WORK/sample.csv" "$DATA/sample.expected.csv" || diff "$DATA/sample.expected.csv" "$WORK/sample.csv" | diag
n=$(($(wc -l <"$DATA/sample.expected.csv") - 1))
ops=$(tail -n +2 "$DATA/sample.expected.csv" | cut -d, -f4 | sort -u | tr '\n' ' ')
[ "$ops" = "cmp-bound cmp-flip guard-drop index-dec index-inc loop-early narrow ninf-zero stride-half sync-drop term-drop " ]
ok $? "sample.cu: its $n mutants use all 11 operators ($ops)"
problems=$(check_mutants "$DATA/sample.cu")
ok "$([ -z "$problems" ] && echo 0 || echo 1)" "sample.cu: each mutant changes one place, at its site, which is code inside a region"
[ -z "$problems" ] || printf '%s\n' "$problems" | head -n 20 | diag

# What must never be a site: the code outside the regions (lines 13-18),
# comments (31 after column 28, 37), strings (69), the host function that
# launches nothing (54-57), the
# error path (67), -INFINITY compared with (38, column 46), the loops of a
# fixed trip (33, 42), declarations and register arrays (29, 39, 43).
for never in '1[3-8],' '5[4-7],' '67,' '38,4[6-9],' '33,' '42,' '29,' '43,' '31,(29|[3-9][0-9]),' '37,' '39,' '69,'; do
    ! tail -n +2 "$WORK/sample.csv" | cut -d, -f2- | grep -q -E "^$never"
    ok $? "sample.cu: no site at line ${never%,}"
done
sed -n '36p;46p' "$DATA/sample.cu" | grep -q 'x\[row + c\]' &&
    grep -q '^sample.cu,36,29,index-inc,row + c,row + c + 1$' "$WORK/sample.csv" &&
    grep -q '^sample.cu,31,18,ninf-zero,-INFINITY,0.f$' "$WORK/sample.csv" &&
    grep -q '^sample.cu,40,5,sync-drop,__syncthreads();,;$' "$WORK/sample.csv"
ok $? "sample.cu: an index, the -INFINITY start and the barrier are sites, as listed"

# A template's angles and a static_assert (templates.cu): the call of a
# declared template holds && and == in its angles, which are no sites and
# bound the operands of the && chains around them; the same tokens after
# a name that declares no template (a < b && c > (d)) are comparisons.
"$TOOL" "$DATA/templates.cu" >"$WORK/templates.csv" 2>"$WORK/err"
ok $? "templates.cu: exit 0"
cmp -s "$WORK/templates.csv" "$DATA/templates.expected.csv"
ok $? "templates.cu: the list is templates.expected.csv, site for site"
cmp -s "$WORK/templates.csv" "$DATA/templates.expected.csv" || diff "$DATA/templates.expected.csv" "$WORK/templates.csv" | diag
! grep -q -E '^templates.cu,20,|^templates.cu,22,(22|55),' "$WORK/templates.csv"
ok $? "templates.cu: no site in the static_assert (line 20), nor at fold's angles (line 22, columns 22 and 55)"
grep -q -x -F 'templates.cu,22,37,term-drop,WIDTH == 4 && sizeof(float) == 4,WIDTH == 4' "$WORK/templates.csv" &&
    grep -q -x -F 'templates.cu,22,18,term-drop,i < n && fold<WIDTH == 4 && sizeof(float) == 4>(w) > 1,i < n' "$WORK/templates.csv" &&
    grep -q -x -F 'templates.cu,24,20,cmp-flip,>,<=' "$WORK/templates.csv"
ok $? "templates.cu: a && inside the angles drops a term of its own; the chain around them keeps the call whole; a < b && c > (d) compares"
problems=$(check_mutants "$DATA/templates.cu")
ok "$([ -z "$problems" ] && echo 0 || echo 1)" "templates.cu: each mutant changes one place, at its site, which is code inside a region"
[ -z "$problems" ] || printf '%s\n' "$problems" | head -n 20 | diag

# ---- errors --------------------------------------------------------------------------

printf 'int f(void)\n{\n// BEGIN SOLUTION\n// TODO: x\n// BEGIN SOLUTION\nreturn 1 < 2;\n// END SOLUTION\n}\n' >"$WORK/nested.cu"
"$TOOL" "$WORK/nested.cu" >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] && grep -q "nested.cu:5: nested '// BEGIN SOLUTION'" "$WORK/err"
ok $? "a nested marker: exit 1 with FILE:LINE"
printf '__global__ void k(float *y, int n)\n{\n    if (threadIdx.x < n)\n        y[threadIdx.x] = 0.f;\n}\n' >"$WORK/none.cu"
"$TOOL" "$WORK/none.cu" >"$WORK/out" 2>"$WORK/err"
[ $? -eq 1 ] && grep -q 'no mutation site' "$WORK/err" && [ ! -s "$WORK/out" ]
ok $? "a file without a region: exit 1, 'no mutation site', no list (never an empty success)"
"$TOOL" --bogus "$DATA/sample.cu" >/dev/null 2>&1
ok "$([ $? -eq 2 ] && echo 0 || echo 1)" "an unknown option: exit 2"

# ---- the reference solutions -------------------------------------------------------

shopt -s nullglob
solutions=(solutions/[0-9][0-9]-*/*.cu)
if [ ${#solutions[@]} -eq 0 ]; then
    skip "the reference solutions: none here (the student edition leaves them out)"
else
    # The site checks of the sample on every solution, but one diff per
    # mutant would take a minute: here the sites are checked, and the files
    # counted.
    all=''
    counts=''
    for f in "${solutions[@]}"; do
        out=$WORK/$(basename "$f" .cu)
        "$TOOL" --out "$out" "$f" >"$out.csv" 2>"$out.err" || all="$all $f: exit $?: $(cat "$out.err")"
        count=$(($(wc -l <"$out.csv") - 1))
        counts="$counts $(basename "$f" .cu)=$count"
        [ $count -gt 0 ] && [ "$(ls "$out" | wc -l)" -eq $count ] || all="$all $f: $count listed, $(ls "$out" 2>/dev/null | wc -l) written;"
        dup=$(tail -n +2 "$out.csv" | cut -d, -f1-4 | sort | uniq -d | head -n 3)
        [ -z "$dup" ] || all="$all $f: keys listed twice: $dup;"
        tail -n +2 "$out.csv" | awk -F, '{ print $2, $3 }' >"$out.sites"
        bad=$(not_code "$f" "$out.sites" | head -n 5 | tr '\n' ' ')
        [ -z "$bad" ] || all="$all $f: sites not code inside a region: $bad;"
    done
    ok "$([ -z "$all" ] && echo 0 || echo 1)" "every solution has mutants, each written, under unique keys, at code inside a region"
    [ -z "$all" ] || diag "$all"
    diag "mutants per version:$counts"
    # Every key an equivalent-mutants list names is a mutant of the solution
    # as it is: a line added above a listed site moves its key, and the
    # list must follow (else the next run grades the site and skips another).
    stale=''
    for eq in solutions/[0-9][0-9]-*/equivalent-mutants; do
        dir=$(dirname "$eq")
        while read -r key _; do
            file=${key%%:*} rest=${key#*:}
            keys=$WORK/keys-$(basename "$dir")-${file%.cu}
            [ -f "$keys" ] || { "$TOOL" "$dir/$file" 2>/dev/null | tail -n +2 | cut -d, -f2-4 | tr , : >"$keys"; }
            grep -qx -- "$rest" "$keys" || stale="$stale $dir/$key"
        done < <(sed 's/#.*//' "$eq" | awk 'NF')
    done
    [ -z "$stale" ]
    ok $? "every key of the equivalent-mutants lists names a mutant of the solution as it is" ||
        diag "stale:$stale"
fi

# ---- the driver, with stand-ins for make and the grader -------------------------------
#
# grader/mk/mutants.sh on a chapter 99-fake whose solution is the sample, with
# a `make lib` that copies the mutant (and refuses the one without its
# barrier: stillborn) and an `mw-chapter` that names a GPU and decides from
# the mutant's text: most fail a case, one hangs after its ERROR line (the
# driver must stop it), one fails only a large case, one passes everything.

fake=$WORK/fake
mkdir -p "$fake/solutions/99-fake" "$fake/bin"
cp "$DATA/sample.cu" "$fake/solutions/99-fake/01_sample.cu"
printf '# listed\n01_sample.cu:35:49:stride-half   equivalent, says the test\n01_sample.cu:1:1:narrow   no such mutant\n' \
    >"$fake/solutions/99-fake/equivalent-mutants"
cat >"$fake/bin/make" <<'EOF'
#!/bin/sh
for a; do case $a in KERNEL=*) k=${a#KERNEL=} ;; LIBDIR=*) d=${a#LIBDIR=} ;; esac; done
grep -q '^    __syncthreads();' "$k" || { echo "stand-in: does not compile" >&2; exit 2; }
mkdir -p "$d" && cp "$k" "$d/$(basename "$k" .cu).so"
EOF
cat >"$fake/bin/mw-chapter" <<'EOF'
#!/bin/sh
if [ "$1" = info ] && [ -n "${FAKE_NO_GPU:-}" ]; then echo "no CUDA GPU (stand-in)"; exit 77; fi
if [ "$1" = info ]; then echo "Fake GPU 80GB (test): compute capability 9.0, 1 SMs, 80.0 GiB memory"; exit 0; fi
if [ "$1" = list ]; then printf 'kind,name,symbol,optional,group,shape,sampled,bytes\ncase,,,,huge,"n=3, say",1,%s\n' "${FAKE_BYTES:-8589934592}"; exit 0; fi
if [ -n "${FAKE_LOSE_GPU:-}" ]; then
    echo "memwall check (stand-in)"; echo "CUDA GPU unusable: cudaErrorDevicesUnavailable (stand-in)"
    echo "0 passed, 0 failed, 3 skipped"; exit 77
fi
[ "$1" = check ] && echo "$*" >>"$FAKE_PIDS.calls"
if [ -n "${FAKE_PASS_ALL:-}" ]; then
    echo "memwall check (stand-in)"; echo "  PASS  01_sample    edge     n=1"; echo "1 passed, 0 failed"
    exit 0
fi
lib= small=0
while [ $# -gt 0 ]; do case $1 in --lib-dir) lib=$2; shift ;; --small) small=1 ;; esac; shift; done
so=$(ls "$lib"/*.so)
echo "memwall check (stand-in)"
if grep -q 'c < cols - 1' "$so"; then
    printf '  ERROR 01_sample    shape    n=3\n        timed out after 10 s: the kernel never finished\n'
    echo $$ >>"$FAKE_PIDS"
    exec sleep 600
elif grep -q 'row + c + 1' "$so" && [ $small = 0 ] && [ ! -f "$lib/slow" ]; then
    # Its first check on every case times out (as beside other checks, whose
    # kernels take the GPU's time); graded again, alone, it fails a case.
    : >"$lib/slow"
    printf '  ERROR 01_sample    huge     n=2147483651 (sampled check)\n        timed out after 14 s (TIMEOUT=10 and 4 s for the case'"'"'s size): the kernel never finished\n'
    echo "0 passed, 1 failed"; exit 2
elif grep -q 'row + c + 1' "$so" && [ $small = 0 ]; then
    printf '  FAIL  01_sample    huge     n=2147483651 (sampled check)\n        3 of 1000 wrong\n'
    echo "0 passed, 1 failed"; exit 1
elif grep -q 'row + c + 1' "$so"; then
    echo "  PASS  01_sample    edge     n=1"; echo "1 passed, 0 failed"; exit 0
elif grep -q 'int row' "$so" && [ -n "${FAKE_STRICT:-}" ]; then
    printf '  FAIL  01_sample    edge     n=1\n        1 of 1 wrong\n'; echo "0 passed, 1 failed"; exit 1
elif grep -q 'int row' "$so"; then
    echo "  PASS  01_sample    edge     n=1"; echo "1 passed, 0 failed"; exit 0
elif ! grep -q '(size_t)blockIdx.x' "$so"; then
    echo "  PASS  01_sample    edge     n=1"
    [ $small = 1 ] && { echo "1 passed, 0 failed"; exit 0; }
    # Its first check on every case finds no memory for the huge one (as
    # beside other checks); graded again, it fails it.
    if [ ! -f "$lib/seen" ]; then
        : >"$lib/seen"; echo "  SKIP  01_sample    huge     n=2147483651 (needs 24 GiB)"
        echo "1 passed, 0 failed, 1 skipped"; exit 0
    fi
    printf '  FAIL  01_sample    huge     n=2147483651 (sampled check)\n        3 of 1000 wrong\n'
    echo "1 passed, 1 failed"; exit 1
fi
echo "  PASS  01_sample    edge     n=0"
printf '  FAIL  01_sample    offset   n=33 (views offset by 3,3,3 floats)\n        1 of 33 wrong\n'
sleep 2; echo "  PASS  01_sample    edge     n=2"; echo "2 passed, 1 failed"; exit 1
EOF
# compute-sanitizer: finds nothing, or (FAKE_SANITIZER_FINDS) an invalid
# read under memcheck, or (FAKE_SANITIZER_HANGS) never ends; the real one,
# where installed, stays out of the way. Each run notes its tool, and
# whether sanitize.sh ran the tools one at a time (MW_SANITIZE_FIRST).
mkdir -p "$fake/san"
cat >"$fake/san/compute-sanitizer" <<'EOF'
#!/bin/sh
tool=$2
echo "$tool${MW_SANITIZE_FIRST:+ one-at-a-time}" >>"$FAKE_PIDS.tools"
if [ -n "${FAKE_SANITIZER_HANGS:-}" ]; then
    echo $$ >>"$FAKE_PIDS.san"
    exec sleep 600
fi
if [ -n "${FAKE_SANITIZER_FINDS:-}" ] && [ "$tool" = memcheck ]; then
    echo "========= Invalid __global__ read of size 4 bytes (stand-in)"
    echo "========= ERROR SUMMARY: 1 error"; exit 10
fi
echo "========= ERROR SUMMARY: 0 errors"; exit 0
EOF
chmod +x "$fake/bin/make" "$fake/bin/mw-chapter" "$fake/san/compute-sanitizer"
PATH=$fake/san:$PATH
export FAKE_PIDS=$fake/pids
: >"$FAKE_PIDS"
driver=$PWD/grader/mk/mutants.sh tool=$PWD/$TOOL

# The runs below wait, mostly (the stand-ins' sleeps, the driver's polling):
# the --resume pair and the 32 GiB run, which need nothing of the others,
# run meanwhile, each on a copy of the stand-in chapter (the later runs
# change its solutions) with its own calls file; their checks come at their
# place below, once each is done. drive FAKE LOG [VAR=VALUE...] -- ARGS: one
# run of the driver on FAKE, its output in LOG and its exit code in LOG.rc.
drive() {
    local f=$1 log=$2
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    (cd "$f" && env "${envs[@]}" MAKE="$f/bin/make" sh "$driver" --chapter 99-fake \
        --grader "$f/bin/mw-chapter" --tool "$tool" "$@" >"$log" 2>&1)
    echo $? >"$log.rc"
}
fake_resume=$WORK/fake-resume fake_split=$WORK/fake-split fake_settings=$WORK/fake-settings
fake_stop=$WORK/fake-stop fake_many=$WORK/fake-many
for f in "$fake_resume" "$fake_split" "$fake_settings" "$fake_stop" "$fake_many"; do cp -R "$fake" "$f"; done
(
    f=$fake_resume
    export FAKE_PIDS=$f/pids
    drive "$f" "$f/run1" -- --work "$f/work-resume" --results "$f/resume" --timeout 10 --resume
    # the cut: one killed mutant's stages and its library removed
    key=$(tail -n +2 "$f/resume/Fake_GPU_80GB__test_/99-fake/mutants.csv" |
        awk -F, '$8 == "killed" && /offset n=33/ { print NR; exit }')
    echo "$key" >"$f/cut_key"
    dir=$f/work-resume/01_sample/$(printf '%03d' "$key")
    rm -f "$dir"/*.result "$f/work-resume/libs/01_sample/$(basename "$dir")/01_sample.so"
    : >"$FAKE_PIDS.calls"
    drive "$f" "$f/run2" -- --work "$f/work-resume" --results "$f/resume" --timeout 10 --resume
) &
resume_pid=$!
(
    f=$fake_split
    export FAKE_PIDS=$f/pids
    drive "$f" "$f/run1" FAKE_BYTES=34359738368 -- --work "$f/work-split" --results "$f/split" --timeout 10
) &
split_pid=$!
(
    f=$fake_settings
    export FAKE_PIDS=$f/pids
    printf '# a second kernel, say\n01_sample FAKE_STRICT=1\n02_other FAKE_NEVER=1\n' \
        >"$f/solutions/99-fake/mutant-settings"
    drive "$f" "$f/run1" -- --work "$f/work-settings" --results "$f/settings" --timeout 10
) &
settings_pid=$!
(
    # Every mutant passes every case: several meet the sanitizer.
    f=$fake_many
    export FAKE_PIDS=$f/pids
    drive "$f" "$f/run1" FAKE_PASS_ALL=1 -- --work "$f/work-many" --results "$f/many" --timeout 10
) &
many_pid=$!
(
    # Stopped as a time limit stops it: TERM to the driver's process group
    # (timeout(1), Slurm), once the survivor hangs under the sanitizer.
    f=$fake_stop
    export FAKE_PIDS=$f/pids
    cd "$f" || exit 1
    FAKE_SANITIZER_HANGS=1 MAKE=$f/bin/make perl -e 'setpgrp(0, 0); exec @ARGV or die' \
        sh "$driver" --chapter 99-fake --grader "$f/bin/mw-chapter" --tool "$tool" \
        --work "$f/work-stop" --results "$f/stop" --timeout 10 >"$f/run1" 2>&1 &
    group=$!
    waited=0
    while [ ! -s "$f/pids.san" ] && [ $waited -lt 600 ] && kill -0 $group 2>/dev/null; do
        sleep 0.5
        waited=$((waited + 1))
    done
    kill -TERM -- -$group
    wait $group
    echo $? >"$f/run1.rc"
) &
stop_pid=$!
out=$(cd "$fake" && MAKE=$fake/bin/make sh "$driver" --chapter 99-fake --grader "$fake/bin/mw-chapter" \
    --tool "$tool" --work "$fake/work" --results "$fake/results" --timeout 10 2>&1)
ok $? "mutants.sh with stand-ins: exit 0"
calls=$(grep -c . "$FAKE_PIDS.calls"); small_re='--small( |$)'
full=$(grep -E -v -c -e "$small_re" "$FAKE_PIDS.calls")
[ "$full" -gt 0 ] && [ "$(grep -E -v -e "$small_re" "$FAKE_PIDS.calls" | grep -c -e '--smallest-first')" -eq "$full" ] &&
    [ "$(grep -E -e "$small_re" "$FAKE_PIDS.calls" | grep -c -e '--smallest-first')" -eq 0 ]
ok $? "the checks on every case ask for the smallest cases first, the small ones do not ($full of $calls on every case)"
csv=$fake/results/Fake_GPU_80GB__test_/99-fake/mutants.csv
[ -f "$csv" ]
ok $? "the results folder is the GPU's name as make bench makes it (Fake_GPU_80GB__test_)"
count() { tail -n +2 "$csv" | grep -c -E "$1"; }
[ "$(tail -n +2 "$csv" | wc -l)" -eq "$n" ] && [ "$(count ',stillborn,build failed$')" -eq 1 ] &&
    [ "$(count ',equivalent,$')" -eq 1 ] && [ "$(count ',survived,$')" -eq 1 ] &&
    [ "$(count ',killed,.')" -eq $((n - 3)) ]
ok $? "mutants.csv: $n rows: 1 stillborn, 1 equivalent, 1 survived, $((n - 3)) killed"
[ "$(sed -n 1p "$csv")" = chapter,file,line,column,operator,original,mutated,status,killed_by ] &&
    grep -q -x -F '99-fake,01_sample.cu,40,5,sync-drop,__syncthreads();,;,stillborn,build failed' "$csv" &&
    grep -q -x -F '99-fake,01_sample.cu,35,49,stride-half,blockDim.x,blockDim.x / 2,equivalent,' "$csv" &&
    grep -q -x -F '99-fake,01_sample.cu,32,11,narrow,size_t,int,survived,' "$csv"
ok $? "the stillborn, the listed equivalent and the survivor are the expected mutants"
grep -q -x -F '99-fake,01_sample.cu,32,24,narrow,(size_t)blockIdx.x,blockIdx.x,killed,huge n=2147483651 (sampled check) (wrong answer)' "$csv"
ok $? "a mutant passing the small cases is graded on every case: killed by the large one"
printf '%s' "$out" | grep -q 'mutants: 1 passed every case: under compute-sanitizer' &&
    printf '%s' "$out" | grep -q 'SURVIVED 01_sample.cu:32:11:narrow'
ok $? "a mutant that passes every case meets the sanitizer; one it finds nothing in survives"
[ "$(sort "$FAKE_PIDS.tools" | tr '\n' ' ')" = "initcheck memcheck racecheck synccheck " ]
ok $? "the one mutant at the sanitizer has its four tools run at once ($(tr '\n' ' ' <"$FAKE_PIDS.tools"))" ||
    diag <"$FAKE_PIDS.tools"
printf '%s' "$out" | grep -q 'grading those on every case, 4 at a time (the largest case needs 8.0 GiB; the GPU has 80.0 GiB)' &&
    printf '%s' "$out" | grep -q -x 'mutants: 1 passed with a case skipped: grading those again, alone' &&
    ! printf '%s' "$out" | grep -q 'SURVIVED 01_sample.cu:32:24'
ok $? "every case, as many at once as the GPU's memory holds; a pass with a case skipped graded again alone"
grep -q -x -F '99-fake,01_sample.cu,36,29,index-inc,row + c,row + c + 1,killed,huge n=2147483651 (sampled check) (wrong answer)' "$csv" &&
    printf '%s' "$out" | grep -q -x 'mutants: 1 killed by a timeout beside other checks: grading those again, alone'
ok $? "a kill by a timeout beside other checks is graded again alone, and that result is the mutant's"
grep -q -x -F '99-fake,01_sample.cu,35,38,loop-early,cols,cols - 1,killed,shape n=3 (timed out after 10 s: the kernel never finished)' "$csv" &&
    grep -q -x -F '99-fake,01_sample.cu,31,18,ninf-zero,-INFINITY,0.f,killed,"offset n=33 (views offset by 3,3,3 floats) (wrong answer)"' "$csv"
ok $? "killed_by names the first failing case, its group and shape, and why (quoted when it holds a comma)"
alive=''
for pid in $(cat "$FAKE_PIDS"); do kill -0 "$pid" 2>/dev/null && alive="$alive $pid"; done
[ -s "$FAKE_PIDS" ] && [ -z "$alive" ]
ok $? "the check that hung after its ERROR line was stopped${alive:+ (still running:$alive)}"
for pid in $alive; do kill "$pid"; done
printf '%s' "$out" | grep -q -F "mutants: 99-fake on Fake GPU 80GB (test): $n mutants, 1 stillborn, $((n - 3)) killed, 1 equivalent, 1 survived; mutation score 96.7% (killed / (killed + survived))"
ok $? "the summary: counts and the mutation score"
printf '%s' "$out" | grep -q 'lists 01_sample.cu:1:1:narrow, which is no mutant' &&
    printf '%s' "$out" | grep -q -x -F '  01_sample.cu:32:11:narrow size_t -> int'
ok $? "it warns about a listed key that names no mutant, and lists the survivor"
printf '%s\n' "$out" | grep '^mutants:' | diag

# --resume: a run cut off (here, one killed mutant's stages and one
# library removed, as if the limit struck there) is finished by the same
# command: that mutant alone is built and graded again, and mutants.csv
# comes out as the whole run's. (Run in the background, above.)
wait "$resume_pid"
f=$fake_resume
rc=$(cat "$f/run1.rc")
rcsv=$f/resume/Fake_GPU_80GB__test_/99-fake/mutants.csv
[ "$rc" -eq 0 ] && [ "$(tail -n +2 "$rcsv" | cut -d, -f 1-8)" = "$(tail -n +2 "$csv" | cut -d, -f 1-8)" ] &&
    [ -n "$(ls "$f"/work-resume/libs/01_sample/*/01_sample.so 2>/dev/null)" ]
ok $? "--resume from nothing: the same statuses as a plain run, the libraries kept under the work folder"
cut_key=$(cat "$f/cut_key")
cut_dir=$f/work-resume/01_sample/$(printf '%03d' "$cut_key")
rc=$(cat "$f/run2.rc")
calls=$(grep -c . "$f/pids.calls")
[ "$rc" -eq 0 ] && [ -n "$cut_key" ] && [ "$calls" -eq 1 ] &&
    grep -q -e "--lib-dir $f/work-resume/libs/01_sample/$(basename "$cut_dir") " "$f/pids.calls" &&
    [ "$(tail -n +2 "$rcsv" | cut -d, -f 1-9)" = "$(tail -n +2 "$csv" | cut -d, -f 1-9)" ] &&
    grep -q 'going on from' "$f/run2"
ok $? "--resume after a cut: only the mutant cut off is graded again ($calls check), rebuilt; the same mutants.csv"

# A largest case of 32 GiB on the 80 GiB stand-in holds the checks to two
# at a time: the cases under what four hold at once (80 x 0.95 / 4 - 1.5 =
# 17.5 GiB) run four at a time (--below), and the mutants that pass them
# meet the larger ones alone (--from). The same mutants die and survive.
# (Run in the background, above.)
wait "$split_pid"
f=$fake_split
rc=$(cat "$f/run1.rc") out=$(cat "$f/run1")
split=18790481920
below=$(grep -c -e "--smallest-first --below $split" "$f/pids.calls")
from=$(grep -c -e "--smallest-first --from $split" "$f/pids.calls")
scsv=$f/split/Fake_GPU_80GB__test_/99-fake/mutants.csv
[ "$rc" -eq 0 ] && [ "$below" -gt 0 ] && [ "$from" -eq 1 ] &&
    printf '%s' "$out" | grep -q 'grading those on every case under 17.5 GiB, 4 at a time, then those that pass on the larger ones, one at a time (the largest case needs 32.0 GiB; the GPU has 80.0 GiB)' &&
    printf '%s' "$out" | grep -q -x 'mutants: 1 passed the cases under 17.5 GiB: grading those on the larger ones, one at a time' &&
    [ "$(tail -n +2 "$scsv" | cut -d, -f 1-8)" = "$(tail -n +2 "$csv" | cut -d, -f 1-8)" ]
ok $? "a 32 GiB case: the cases under 17.5 GiB four at a time ($below checks), the larger ones alone for the one that passed them ($from); the same statuses"
printf '%s\n' "$out" | grep '^mutants:' | diag

# mutant-settings: 01_sample's mutants graded under FAKE_STRICT=1 as well
# as the default; the survivor of the default (int row) fails under it, and
# says so in killed_by; those the default kills are not graded again, so
# their killed_by names no setting; a line for another version is not
# this one's. (Run in the background, above.)
wait "$settings_pid"
f=$fake_settings
rc=$(cat "$f/run1.rc") out=$(cat "$f/run1")
tcsv=$f/settings/Fake_GPU_80GB__test_/99-fake/mutants.csv
[ "$rc" -eq 0 ] &&
    grep -q -x -F '99-fake,01_sample.cu,32,11,narrow,size_t,int,killed,edge n=1 (wrong answer) [FAKE_STRICT=1]' "$tcsv" &&
    [ "$(tail -n +2 "$tcsv" | grep -c ',survived,')" -eq 0 ] &&
    [ "$(tail -n +2 "$tcsv" | grep -c 'offset n=33')" -gt 0 ] &&
    [ "$(tail -n +2 "$tcsv" | grep 'offset n=33' | grep -c 'FAKE_STRICT')" -eq 0 ] &&
    ! grep -q FAKE_NEVER "$tcsv" &&
    printf '%s' "$out" | grep -q -x 'mutants: 01_sample graded under each of: the default, FAKE_STRICT=1' &&
    printf '%s' "$out" | grep -q 'KILLED   01_sample.cu:32:11:narrow size_t -> int: edge n=1 (wrong answer) \[FAKE_STRICT=1\]'
ok $? "mutant-settings: the default's survivor killed under FAKE_STRICT=1, named in killed_by; those the default kills name no setting"
[ "$rc" -eq 0 ] || diag <"$f/run1"

# Several mutants at the sanitizer (every case passed: run in the
# background, above): each one's tools run one at a time, several mutants
# at once, and every tool runs when none finds a problem.
wait "$many_pid"
f=$fake_many
rc=$(cat "$f/run1.rc")
survivors=$(tail -n +2 "$f/many/Fake_GPU_80GB__test_/99-fake/mutants.csv" | grep -c ',survived,$')
[ "$rc" -eq 0 ] && [ "$survivors" -eq $((n - 2)) ] &&
    [ "$(grep -c ' one-at-a-time$' "$f/pids.tools")" -eq $((4 * survivors)) ] &&
    [ "$(grep -c . "$f/pids.tools")" -eq $((4 * survivors)) ]
ok $? "$survivors mutants at the sanitizer: each one's four tools one at a time (exit $rc)" ||
    { diag <"$f/run1"; sort "$f/pids.tools" | uniq -c | diag; }

# A run stopped by TERM while the survivor hangs under the sanitizer (run
# in the background, above): the mutants graded so far are written, the
# one being graded is not graded (with the stages it passed), the exit is
# 1, and the hung sanitizer is stopped with it.
wait "$stop_pid"
f=$fake_stop
rc=$(cat "$f/run1.rc") out=$(cat "$f/run1")
pcsv=$f/stop/Fake_GPU_80GB__test_/99-fake/mutants.csv
[ "$rc" -eq 1 ] && [ -s "$f/pids.san" ] && [ -f "$pcsv" ] &&
    [ "$(tail -n +2 "$pcsv" | grep -v ',32,11,narrow,' | cut -d, -f 1-8)" = "$(tail -n +2 "$csv" | grep -v ',32,11,narrow,' | cut -d, -f 1-8)" ] &&
    grep -q -x -F '99-fake,01_sample.cu,32,11,narrow,size_t,int,ungraded,"the run was stopped (TERM) before the grading ended (passed: the small cases, every case)"' "$pcsv"
ok $? "stopped by TERM under the sanitizer: exit 1 (got $rc), the graded mutants written as a whole run writes them, the one under it not graded"
[ "$rc" -eq 1 ] && [ -f "$pcsv" ] || diag <"$f/run1"
printf '%s' "$out" | grep -q -x 'mutants: stopped (TERM): writing what was graded' &&
    printf '%s' "$out" | grep -q "0 survived, 1 NOT GRADED; mutation score 100.0%" &&
    printf '%s' "$out" | grep -q 'mutants: 1 mutants were not graded, so the score is incomplete: the run was stopped (TERM)'
ok $? "the summary says the run was stopped and counts the mutant under the sanitizer as not graded"
# Still running: a process that exists and is not a zombie (an orphan that
# died waits for init to reap it, which a container's init may never do).
# A signal lands at once, but the process takes a moment to go: up to 10 s.
running() {
    kill -0 "$1" 2>/dev/null || return 1
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c 1)
    [ "$state" != Z ]
}
alive=x waited=0
while [ -n "$alive" ] && [ $waited -lt 20 ]; do
    alive=''
    for pid in $(cat "$f/pids.san" 2>/dev/null); do running "$pid" && alive="$alive $pid"; done
    [ -n "$alive" ] && sleep 0.5
    waited=$((waited + 1))
done
[ -z "$alive" ]
ok $? "the hung sanitizer was stopped with the run${alive:+ (still running:$alive)}"
for pid in $alive; do kill "$pid"; done

# Without a GPU (info exits 77) and with EX=01: only 01_sample.cu's mutants,
# built, listed as ungraded, exit 77 with the reason; the listed key of
# 02_copy.cu, which EX leaves out, is no stale key.
cp "$DATA/sample.cu" "$fake/solutions/99-fake/02_copy.cu"
printf '01_sample.cu:35:49:stride-half  listed\n02_copy.cu:35:49:stride-half  listed\n' \
    >"$fake/solutions/99-fake/equivalent-mutants"
out=$(cd "$fake" && FAKE_NO_GPU=1 MAKE=$fake/bin/make sh "$driver" --chapter 99-fake \
    --grader "$fake/bin/mw-chapter" --tool "$tool" --work "$fake/work" --results "$fake/results" \
    --timeout 10 --version 01 2>&1)
rc=$?
[ $rc -eq 77 ] && printf '%s' "$out" | grep -q -x -F 'mutants: grading needs a GPU: no CUDA GPU (stand-in)'
ok $? "without a GPU: exit 77, 'grading needs a GPU' and the reason (got $rc)"
printf '%s' "$out" | grep -q "mutants: 99-fake: $n mutants, 1 stillborn, $((n - 1)) built" &&
    printf '%s' "$out" | grep -q '  STILLBORN 01_sample.cu:40:5:sync-drop' &&
    [ ! -d "$fake/work/02_copy" ] && ! printf '%s' "$out" | grep -q warning
ok $? "EX=01: the $n mutants of 01_sample.cu alone built, the stillborn named, no stale-key warning"
csv=$fake/work/mutants.csv
[ "$(tail -n +2 "$csv" | grep -c ',ungraded,$')" -eq $((n - 2)) ] &&
    [ "$(tail -n +2 "$csv" | grep -c ',equivalent,$')" -eq 1 ] &&
    [ "$(tail -n +2 "$csv" | grep -c ',stillborn,build failed$')" -eq 1 ]
ok $? "the work folder's mutants.csv: $((n - 2)) ungraded, 1 equivalent, 1 stillborn"

# The GPU lost during grading (info worked; every check exits 77): no mutant
# is called killed for it. Each is ungraded with the reason, the summary says
# so, and the exit is 1.
out=$(cd "$fake" && FAKE_LOSE_GPU=1 MAKE=$fake/bin/make sh "$driver" --chapter 99-fake \
    --grader "$fake/bin/mw-chapter" --tool "$tool" --work "$fake/work" --results "$fake/lost" \
    --timeout 10 --version 01 2>&1)
rc=$?
csv=$fake/lost/Fake_GPU_80GB__test_/99-fake/mutants.csv
[ $rc -eq 1 ] && [ "$(tail -n +2 "$csv" | grep -c ',killed,')" -eq 0 ] &&
    [ "$(tail -n +2 "$csv" | grep -c ',ungraded,the grader could not grade it (exit 77): CUDA GPU unusable: cudaErrorDevicesUnavailable (stand-in)$')" -eq $((n - 2)) ]
ok $? "the GPU lost while grading: exit 1 (got $rc), $((n - 2)) ungraded with the reason, none killed"
printf '%s' "$out" | grep -q "0 killed, 1 equivalent, 0 survived, $((n - 2)) NOT GRADED; mutation score undefined" &&
    printf '%s' "$out" | grep -q "mutants: $((n - 2)) mutants were not graded, so the score is incomplete: the grader could not grade it"
ok $? "the summary counts them as not graded and says the score is incomplete"

# EX=02 on the GPU into the results of the first run: 02_copy.cu's rows are
# added after 01_sample.cu's, which stay as that run wrote them.
csv=$fake/results/Fake_GPU_80GB__test_/99-fake/mutants.csv
cp "$csv" "$WORK/first.csv"
out=$(cd "$fake" && FAKE_SANITIZER_FINDS=1 MAKE=$fake/bin/make sh "$driver" --chapter 99-fake \
    --grader "$fake/bin/mw-chapter" --tool "$tool" --work "$fake/work" --results "$fake/results" \
    --timeout 10 --version 02 2>&1)
rc=$?
first_rows=$(tail -n +2 "$WORK/first.csv" | grep -c ',01_sample\.cu,')
[ $rc -eq 0 ] && [ "$(head -n $((first_rows + 1)) "$csv")" = "$(head -n $((first_rows + 1)) "$WORK/first.csv")" ] &&
    [ "$(tail -n +2 "$csv" | grep -c ',02_copy\.cu,')" -eq "$n" ] &&
    [ "$(wc -l <"$csv")" -eq $((first_rows + n + 1)) ] &&
    printf '%s' "$out" | grep -q "keeping the $first_rows rows of the other versions from its last run"
ok $? "EX=02 keeps 01_sample.cu's $first_rows rows of the last run and adds 02_copy.cu's $n after them (exit $rc)"
grep -q -x -F '99-fake,02_copy.cu,32,11,narrow,size_t,int,killed,compute-sanitizer: memcheck found problems: ERROR SUMMARY: 1 error' "$csv"
ok $? "a mutant that passes every case but reads out of bounds is killed by compute-sanitizer, which killed_by names"

# PART=I/P: EX=01 in two parts, the second first, into a results folder
# of their own. Alone, part 2 grades the second half and writes the first
# half's rows ungraded; part 1 then fills those in from its own grading,
# keeping part 2's rows from the CSV: the rows are those of the whole run.
parts_csv=$fake/parts/Fake_GPU_80GB__test_/99-fake/mutants.csv
whole=$(grep ',01_sample\.cu,' "$WORK/first.csv")
run_part() { # run_part I/P
    (cd "$fake" && MAKE=$fake/bin/make sh "$driver" --chapter 99-fake --grader "$fake/bin/mw-chapter" \
        --tool "$tool" --work "$fake/work-parts" --results "$fake/parts" --timeout 10 --version 01 \
        --part "$1" 2>&1)
}
out=$(run_part 2/2)
rc=$?
half=$((n / 2))
# The first half's listed equivalent (35:49) is marked so by the list.
listed_first=$(printf '%s\n' "$whole" | head -n $half | grep -c ',equivalent,$')
[ $rc -eq 0 ] && [ "$listed_first" -eq 1 ] &&
    [ "$(tail -n +2 "$parts_csv" | grep -c ',ungraded,not graded yet: another part$')" -eq $((half - 1)) ] &&
    [ "$(tail -n +2 "$parts_csv" | head -n $half | grep -c ',equivalent,$')" -eq 1 ] &&
    [ "$(tail -n +2 "$parts_csv" | tail -n +$((half + 1)))" = "$(printf '%s\n' "$whole" | tail -n +$((half + 1)))" ] &&
    printf '%s' "$out" | grep -q "mutants: part 2/2: $((n - half)) of the $n mutants" &&
    printf '%s' "$out" | grep -q "$((half - 1)) not graded yet"
ok $? "PART=2/2 alone: the second half graded as in a whole run, of the first $half rows the listed equivalent so and the rest not graded yet (exit $rc)"
[ $rc -eq 0 ] || diag <<<"$out"
out=$(run_part 1/2)
rc=$?
[ $rc -eq 0 ] && [ "$(tail -n +2 "$parts_csv")" = "$whole" ] &&
    printf '%s' "$out" | grep -q ", 0 not graded yet; mutation score"
ok $? "then PART=1/2: every row that of the whole run, part 2's kept from the CSV (exit $rc)"
[ $rc -eq 0 ] || diag <<<"$out"
out=$(run_part 3/2)
[ $? -eq 2 ] && printf '%s' "$out" | grep -q 'PART=3/2: give I/P with 1 <= I <= P'
ok $? "PART=3/2 is refused, saying why"
# The equivalents list decides without a GPU, in every part: a killed
# mutant of part 1 listed since, then the list back as it was, each
# followed by part 2 alone. Every other row stays the whole run's.
lists=$fake/solutions/99-fake/equivalent-mutants
cp "$lists" "$WORK/list.saved"
k_late=$(printf '%s\n' "$whole" | head -n $half | grep -n ',killed,' | head -n 1 | cut -d: -f1)
late=$(printf '%s\n' "$whole" | sed -n "${k_late}p")
late_key=$(printf '%s' "$late" | cut -d, -f2-5 | tr , :)
late_site=$(printf '%s' "$late" | sed 's/,killed,.*//')
others() { tail -n +2 "$parts_csv" | sed "${k_late}d"; }
whole_others=$(printf '%s\n' "$whole" | sed "${k_late}d")
printf '%s  listed after its part ran\n' "$late_key" >>"$lists"
out=$(run_part 2/2)
rc=$?
[ $rc -eq 0 ] && [ -n "$k_late" ] && grep -q -x -F -e "$late_site,equivalent," "$parts_csv" &&
    [ "$(others)" = "$whole_others" ]
ok $? "a mutant of part 1 listed equivalent since is equivalent after part 2, the other rows as they were (exit $rc)"
[ $rc -eq 0 ] || diag <<<"$out"
cp "$WORK/list.saved" "$lists"
out=$(run_part 2/2)
rc=$?
[ $rc -eq 0 ] && grep -q -x -F -e "$late_site,ungraded,not graded yet: no longer listed equivalent" "$parts_csv" &&
    [ "$(others)" = "$whole_others" ] &&
    grep -q ',35,49,stride-half,blockDim.x,blockDim.x / 2,equivalent,$' "$parts_csv"
ok $? "off the list again: not graded yet, 'no longer listed equivalent'; the one still listed stays equivalent (exit $rc)"
[ $rc -eq 0 ] || diag <<<"$out"
# A part of one mutant: the listed equivalent (nothing to grade), then one
# the small cases kill (nothing left for every case). Each later stage
# meets an empty list and must start no check for it: xargs would run its
# command once, without a mutant.
for site in '35,49,stride-half' '31,18,ninf-zero'; do
    k=$(printf '%s\n' "$whole" | grep -n -F ",$site," | cut -d: -f1)
    expect=$(printf '%s\n' "$whole" | sed -n "${k}p")
    out=$(run_part "$k/$n")
    rc=$?
    [ $rc -eq 0 ] && [ -n "$k" ] && grep -q -x -F -e "$expect" "$parts_csv" &&
        printf '%s' "$out" | grep -q "mutants: part $k/$n: 1 of the $n mutants" &&
        ! printf '%s' "$out" | grep -q 'parameter not set\|usage:'
    ok $? "PART=$k/$n, the $site mutant alone: its row as in the whole run, no stage run on an empty list (exit $rc)"
    [ $rc -eq 0 ] || diag <<<"$out"
done

# ---- make mutants ------------------------------------------------------------------------

out=$(make --no-print-directory -n mutants 2>&1)
printf '%s' "$out" | grep -q 'give a chapter: make mutants CH=01'
ok $? "make mutants without CH asks for one"
out=$(make --no-print-directory -n mutants CH=nope 2>&1)
printf '%s' "$out" | grep -q 'no chapter matches CH=nope'
ok $? "make mutants CH=nope names the mistake"
out=$(make --no-print-directory -n mutants CH=01 TIMEOUT=soon 2>&1)
printf '%s' "$out" | grep -q "TIMEOUT must be a whole number of seconds, 1 or more, not 'soon'"
ok $? "make mutants checks TIMEOUT"
out=$(make --no-print-directory -n mutants CH=01 2>&1)
printf '%s' "$out" | grep -q -- '--timeout 10 ' && printf '%s' "$out" | grep -q -- '--chapter 01-vector-add'
ok $? "make mutants CH=01: chapter 01-vector-add, 10 s per case by default"
out=$(make --no-print-directory -n mutants CH=01 TIMEOUT=4 SEED=9 EX=02 2>&1)
printf '%s' "$out" | grep -q -- '--timeout 4 ' && printf '%s' "$out" | grep -q -- '--seed 9' &&
    printf '%s' "$out" | grep -q -- '--version 02'
ok $? "TIMEOUT, SEED and EX reach grader/mk/mutants.sh"
out=$(make --no-print-directory -n mutants CH=01 PART=2/3 2>&1)
printf '%s' "$out" | grep -q -- '--part 2/3'
ok $? "PART reaches grader/mk/mutants.sh"
make --no-print-directory help 2>&1 | grep -q 'make mutants CH=01'
ok $? "make help names make mutants"

if [ ! -f solutions/01-vector-add/01_naive.cu ]; then
    skip "make mutants CH=01: no solutions here (the student edition)"
elif ! long_tests; then
    skip_long "make mutants CH=01 builds every mutant of chapter 01 (about 100 s on two cores), and grades them on a GPU"
elif have_gpu; then
    out=$(make --no-print-directory mutants CH=01 RESULTS="$WORK/results" 2>&1)
    ok $? "make mutants CH=01 on a GPU: exit 0"
    csv=$(ls "$WORK"/results/*/01-vector-add/mutants.csv 2>/dev/null | head -n 1)
    rows=$( [ -n "$csv" ] && tail -n +2 "$csv" | wc -l)
    [ -n "$csv" ] && [ "$rows" -gt 0 ] &&
        [ "$(tail -n +2 "$csv" | grep -c -E ',(killed|survived|equivalent|stillborn),')" -eq "$rows" ]
    ok $? "mutants.csv: each row killed, survived, equivalent or stillborn"
    printf '%s' "$out" | grep -q -E 'mutation score [0-9.]+%' && ! printf '%s' "$out" | grep -q warning
    ok $? "the summary gives the mutation score; no warning about the equivalents list"
    printf '%s\n' "$out" | grep -E '^mutants:|SURVIVED' | diag
else
    start=$(date +%s)
    out=$(make --no-print-directory mutants CH=01 2>&1)
    rc=$?
    took=$(($(date +%s) - start))
    total=0
    for f in solutions/01-vector-add/*.cu; do total=$((total + $("$TOOL" "$f" | wc -l) - 1)); done
    listed=$(sed 's/#.*//' solutions/01-vector-add/equivalent-mutants | awk 'NF' | wc -l)
    [ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'Error 77' &&
        printf '%s' "$out" | grep -q 'mutants: grading needs a GPU: no CUDA GPU'
    ok $? "make mutants CH=01 without a GPU: exit 77 (make: Error 77), saying grading needs a GPU and why"
    printf '%s' "$out" | grep -q "mutants: 01-vector-add: $total mutants, 0 stillborn, $total built"
    ok $? "every one of the $total mutants of chapter 01 compiles ($took s)"
    csv=build/mutants/01-vector-add/mutants.csv
    [ "$(tail -n +2 $csv | grep -c ',ungraded,$')" -eq $((total - listed)) ] &&
        [ "$(tail -n +2 $csv | grep -c ',equivalent,$')" -eq "$listed" ] && ! printf '%s' "$out" | grep -q warning
    ok $? "$csv: the $listed listed equivalents marked so, the rest ungraded; the list names no stale key"
    printf '%s\n' "$out" | grep '^mutants:' | diag
fi

done_testing
