#!/usr/bin/env bash
# t0130-docs.t: the docs say what the code does. `make help` names every
# variable the Makefile and the programs read; troubleshooting.md quotes the
# messages make prints and describes EX= and ARCH= as they behave;
# writing-a-chapter.md covers the rubric, the hidden cases, the README
# tables and git, and its checklist holds (every chapter has the files it
# calls needed; the Makefile, grader/, plots/ and tests/lib.sh name no
# chapter but 01); instructors.md shows `make dist`'s summary as it is; and
# every lesson with measured plots embeds them.
. tests/lib.sh

help=$(make --no-print-directory help 2>&1)

# ---- make help names every variable -------------------------------------------

# Read by the Makefile: referenced and never set there, or set with ?=
# (a default the user overrides); and those set with := that a user may
# still give on the command line.
refs=$(grep -o -E '\$[({][A-Z][A-Z0-9_]*[)}]' Makefile | tr -d '${}()' | sort -u)
fixed=$(grep -E '^[[:space:]]*(export[[:space:]]+)?[A-Z][A-Z0-9_]*[[:space:]]*(:=|=|\+=)' Makefile |
    sed -E 's/^[[:space:]]*(export[[:space:]]+)?([A-Z][A-Z0-9_]*).*/\2/' | sort -u)
defaults=$(grep -E '^[[:space:]]*[A-Z][A-Z0-9_]*[[:space:]]*\?=' Makefile |
    sed -E 's/^[[:space:]]*([A-Z][A-Z0-9_]*).*/\1/' | sort -u)
from_make=$( (comm -23 <(printf '%s\n' "$refs") <(printf '%s\n' $fixed $defaults | sort -u); printf '%s\n' $defaults) |
    grep -v -x -E 'MAKE|MAKECMDGOALS|MAKEFLAGS|CURDIR|PATH' | sort -u)
# Read by the programs and scripts make runs: getenv() and ${MW_...}.
from_env=$( (grep -h -o -E 'getenv\("[A-Z_]+"\)' grader/*.c grader/*/*.c | sed -E 's/getenv\("([A-Z_]+)"\)/\1/'
    grep -h -o -E '\$\{?MW_[A-Z_]+' grader/mk/*.sh plots/*.sh | tr -d '${') |
    grep -v -x -E 'PATH|HOME|TMPDIR|LD_LIBRARY_PATH|CUDA_VISIBLE_DEVICES' | sort -u)
n=$(printf '%s\n' $from_make | wc -l)
ok "$([ "$n" -ge 15 ] && echo 0 || echo 1)" "the Makefile reads $n variables: $(echo $from_make)"
missing=''
for v in $from_make $from_env NVCC CC RESULTS BUILD; do
    printf '%s\n' "$help" | grep -q -E "(^|[ |])$v=" || missing="$missing $v"
done
ok "$([ -z "$missing" ] && echo 0 || echo 1)" "make help names each of them and those the programs read${missing:+ (missing:$missing)}"

# ---- troubleshooting.md --------------------------------------------------------

doc=docs/troubleshooting.md
! grep -q 'still builds `02_fast.cu`' $doc && ! grep -q 'does not notice that' $doc
ok $? "$doc does not say that EX=01 builds 02_fast.cu, nor that a changed ARCH needs a clean"
out=$(make --no-print-directory -n -B check CH=01 EX=01 2>&1)
printf '%s' "$out" | grep -q 'exercises/01-vector-add/01_naive.so' &&
    ! printf '%s' "$out" | grep -q '02_fast' &&
    tr '\n' ' ' <$doc | grep -q 'make check CH=01 EX=01` builds and grades `01_naive.cu` *alone'
ok $? "EX=01 builds 01_naive alone, as $doc says"
tr '\n' ' ' <$doc | grep -q 'No `make clean` is needed'
ok $? "$doc says a changed ARCH needs no clean (t0126 shows it)"
# Every message make itself prints for a user's mistake is quoted there.
for msg in 'nvcc not found: not on the PATH, nor at' 'not found or not executable' \
    'TIMEOUT must be a whole number of seconds' 'SEED must be a whole number' \
    'matches EX=' 'exercises may not call libraries (cuBLAS, cuDNN, ...)' \
    'but does not define it' 'SRC must be exercises or solutions'; do
    grep -q -F -- "$msg" Makefile && tr '\n' ' ' <$doc | grep -q -F -- "$msg"
    ok $? "make prints '$msg' and $doc explains it"
done
grep -q -F 'must be %s, not' grader/main.c && grep -q -F 'mw-chapter: --timeout must be a positive number of seconds' $doc
ok $? "the grader's own argument errors are in $doc"

# ---- writing-a-chapter.md ----------------------------------------------------------

doc=docs/writing-a-chapter.md
for phrase in 'chapters/NN-name/rubric' 'instructor/hidden/NN-name.cases' 'make tables' \
    '## Chapters' 'git add' 'git ls-files' 'BEGIN INSTRUCTOR ONLY'; do
    grep -q -F -- "$phrase" $doc
    ok $? "$doc covers $phrase"
done
for f in chapters/*/; do
    f=${f%/}
    [ -f "$f/chapter.c" ] || continue
    [ -f "$f/rubric" ]
    ok $? "$f has the rubric the page asks for"
done
# Its checklist: the files it says every chapter needs are there (solutions/
# and tests/wrong/ where this is not a student edition), and it names them.
for phrase in 'chapters/NN-name/README.md' 'chapters/NN-name/chapter.c' 'chapters/NN-name/traffic-expect' \
    'solutions/NN-name/NN_x.cu' 'exercises/NN-name/NN_x.cu' 'tests/wrong/NN-name/<mistake>/expect' \
    'make skeletons' 'tests/t0315-dist-leak.t'; do
    grep -q -F -- "$phrase" $doc
    ok $? "$doc's checklist names $phrase"
done
for f in chapters/*/; do
    f=${f%/} ch=${f#chapters/}
    [ -f "$f/chapter.c" ] || continue
    missing=''
    [ -f "$f/README.md" ] || missing="$missing $f/README.md"
    ls "$f"/*.h >/dev/null 2>&1 || missing="$missing $f/<interface>.h"
    ls "exercises/$ch"/*.cu >/dev/null 2>&1 || missing="$missing exercises/$ch/*.cu"
    if [ -d solutions ]; then
        ls "solutions/$ch"/*.cu >/dev/null 2>&1 || missing="$missing solutions/$ch/*.cu"
    fi
    if [ -d tests/wrong ]; then
        ls "tests/wrong/$ch"/*/expect >/dev/null 2>&1 || missing="$missing tests/wrong/$ch/*/expect"
    fi
    ok "$([ -z "$missing" ] && echo 0 || echo 1)" "$ch has the files $doc calls needed${missing:+ (missing:$missing)}"
done
# A new chapter edits none of the shared build, grader, plot or test-library
# files: they find the chapters by their folders and name none but chapter 01
# (examples, and the top README's table).
named=''
for f in chapters/*/; do
    ch=$(basename "$f")
    [ "$ch" = 01-vector-add ] && continue
    for g in $(grep -l -F -- "$ch" Makefile grader/* grader/*/* plots/* tests/lib.sh 2>/dev/null); do named="$named $g:$ch"; done
done
ok "$([ -z "$named" ] && echo 0 || echo 1)" \
    "the Makefile, grader/, plots/ and tests/lib.sh name no chapter but 01-vector-add, as $doc says${named:+ (named:$named)}"

# ---- instructors.md: make dist's summary ---------------------------------------------

doc=docs/instructors.md
if ls solutions/*/*.cu >/dev/null 2>&1 && [ -z "${MW_DIST_INNER:-}" ] && command -v perl >/dev/null 2>&1; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    real=$(MW_DIST_OUT="$scratch/e.tar.gz" make -s --no-print-directory dist 2>/dev/null)
    shown=$(sed -n '/^```$/,/^```$/p' $doc | grep '^dist: ')
    # The same lines, numbers aside, and the same folders left out and files cut.
    shape() { sed -E 's/[0-9.]+ (files|KiB|MiB|bytes)/N \1/g; s/\([0-9]+\)/(N)/g; s/^dist: [0-9]+ /dist: N /; s|wrote [^:]*:|wrote F:|'; }
    [ -n "$shown" ] && [ "$(printf '%s\n' "$real" | shape)" = "$(printf '%s\n' "$shown" | shape)" ]
    ok $? "$doc shows make dist's summary as make dist prints it now"
    [ $? -eq 0 ] || { diag "make dist:"; printf '%s\n' "$real" | diag; diag "$doc:"; printf '%s\n' "$shown" | diag; }
else
    skip "no solutions/ (a student edition) or no perl: make dist's summary differs here"
fi

# ---- the lessons embed their plots ------------------------------------------------------

gpu=NVIDIA_H100_80GB_HBM3
for lesson in chapters/*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    for plot in speed traffic roofline; do
        [ -f "results/$gpu/$ch/$plot.png" ] || continue
        grep -q -F "](../../results/$gpu/$ch/$plot.png)" "$lesson"
        ok $? "$lesson embeds its $plot plot"
    done
done
bad=''
for lesson in chapters/*/README.md; do
    ch=$(basename "$(dirname "$lesson")")
    [ -d "results/$gpu/$ch" ] || continue # measured later: its links wait for the results
    for link in $(grep -o -E '\]\(\.\./\.\./results/[^)]+\)' "$lesson" | sed -E 's/^\]\(//; s/\)$//'); do
        [ -f "$(dirname "$lesson")/$link" ] || bad="$bad $lesson:$link"
    done
done
ok "$([ -z "$bad" ] && echo 0 || echo 1)" "every results link of a measured lesson resolves${bad:+:$bad}"

done_testing
