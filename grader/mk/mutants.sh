#!/bin/sh
# mutants.sh: mutation testing of the grader (`make mutants CH=NN`;
# docs/mutation-testing.md).
#
#   sh grader/mk/mutants.sh --chapter NN-name --grader build/NN-name/mw-chapter
#       --tool build/tools/mw-mutate --work DIR --results DIR --timeout S
#       --seed S [--version EX] [--part I/P] [--resume]
#
# For each reference solution solutions/NN-name/EX*.cu, mw-mutate lists the
# mutants (one planted mistake at one site each) and writes them under
# DIR/<version>/<K>/. Each is built with `make lib` (in parallel, one job per
# CPU), into a scratch folder outside build/; one that does not compile is
# stillborn. A mutant listed in solutions/NN-name/equivalent-mutants is
# equivalent and is not graded. A version whose reference holds more than
# one kernel, picked by an environment variable, is graded under each
# setting solutions/NN-name/mutant-settings lists for it as well as the
# default: a mutant survives only by passing under every one. The others are graded alone (--version),
# on the small cases first (--small, four mutants at a time on the GPU)
# and, when they pass those, on every case, the smallest first
# (--smallest-first; as many mutants at once as the GPU's memory holds).
# Grading stops at the first case that fails: that case is
# what killed the mutant. A case may run TIMEOUT plus 0.5 s per GiB it holds
# (make check allows 2 s for slow but correct kernels; the references stay
# inside 0.5 s, the slowest with 10.6 s of its 18 on the H100, and a hung
# mutant costs the whole limit). A mutant that passes every case meets
# compute-sanitizer on the small cases (grader/mk/sanitize.sh, the batch's
# sanitizer step, which costs a student its points), where it is
# installed: a read past a buffer that no output shows, or a race, kills it
# there. A mutant that passes all of that survived.
#
# Writes results/<gpu>/NN-name/mutants.csv, one row per mutant in list
# order: chapter,file,line,column,operator,original,mutated,status,killed_by
# (status: killed, survived, equivalent or stillborn), and prints a summary
# with the mutation score, killed / (killed + survived), and the survivors.
# With --version, the file's rows of the other versions stay as they were.
#
# Without a GPU (`mw-chapter info` exits 77) it builds the mutants, which
# shows which compile, writes DIR/mutants.csv with status stillborn or
# ungraded, says that grading needs a GPU, and exits 77. Other exits: 0
# done (survivors are a result, not a failure); 1 some mutants were not
# graded, because the GPU became unusable during the run or the run was
# stopped by INT or TERM once grading had begun (their status is ungraded,
# and the score counts only the graded ones; what was graded is written);
# 2 an error, or stopped before grading began.
#
# --resume (make mutants RESUME=1) goes on from the last run's work folder
# instead of starting afresh: its built mutants (kept, with their
# libraries, under DIR/libs) are not built again and a mutant's stage that
# has a result is not graded again, so a run cut off by a time limit is
# finished by the same command. Without it the work folder is emptied and
# the libraries built in a scratch folder, removed at the end.
#
# --part I/P (make mutants PART=I/P) builds and grades only the I-th of P
# consecutive slices of the mutants, so that a version whose mutants take
# longer than one command may run (05.4's library of many kernels) is
# graded in P commands, in any order, nothing but the results CSV kept
# between them. The CSV holds every mutant of the version: the slice's rows
# as graded now, the others' as the CSV had them (a row that matches the
# mutant field for field), else ungraded, "not graded yet: another part";
# the equivalents list, which needs no GPU, marks its mutants equivalent
# in every part, so that one listed since its part ran is counted so. The
# summary then scores the whole version from the CSV.
#
# Internal entries, for xargs: --build-one and --grade-one (below).
set -u

self=$0
make_cmd=${MAKE:-make}
# split_csv(LINE): the fields of one CSV line (quotes and "" as
# grader/csv.c writes them) into f[1..n]; returns n. POSIX awk.
csv_awk='function split_csv(line,   n, i, c, q, field) {
    n = 0; field = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { field = field c; i++ }
        else if (c == "\"") q = !q
        else if (c == "," && !q) { f[++n] = field; field = "" }
        else field = field c
    }
    f[++n] = field
    return n
}'
grade_jobs=4 # mutants graded at once on one GPU (small cases only)

# ---- one mutant, run by xargs --------------------------------------------------

# --build-one CHAPTER WORK SCRATCH VERSION K: build mutant K of VERSION.
if [ "${1:-}" = --build-one ]; then
    chapter=$2 work=$3 scratch=$4 version=$5 k=$6
    dir=$work/$version/$k
    # --resume: built by the last run, library and all.
    [ "${mutants_resume:-0}" = 1 ] && [ "$(cat "$dir/build.rc" 2>/dev/null)" = 0 ] &&
        [ -f "$scratch/$version/$k/$version.so" ] && exit 0
    $make_cmd -s --no-print-directory lib CH="$chapter" KERNEL="$dir/$version.cu" \
        LIBDIR="$scratch/$version/$k" >"$dir/build.log" 2>&1
    echo $? >"$dir/build.rc"
    exit 0
fi

# --grade-one GRADER TIMEOUT SEED MODE WORK SCRATCH VERSION K: grade mutant
# K of VERSION on the small cases (MODE small) or all of them (MODE full);
# writes DIR/MODE.result: "passed", or "killed<TAB>what killed it".
if [ "${1:-}" = --grade-one ]; then
    grader=$2 timeout=$3 seed=$4 mode=$5 work=$6 scratch=$7 version=$8 k=$9
    dir=$work/$version/$k
    log=$dir/$mode.log
    # The run stopped (make mutants interrupted, or a time limit's TERM):
    # the signal reaches this script's process group but not the check's,
    # which timeout(1) gives a group of its own. Stop the check as well
    # (timeout(1) passes the TERM on to its group and exits once its child
    # has, KILLing it 5 s on), and leave this stage without a result: the
    # run counts it as not graded.
    pid=
    trap '[ -n "$pid" ] && { kill -TERM "$pid" 2>/dev/null; wait "$pid"; }; exit 143' INT TERM
    # --resume: this stage was graded by the last run.
    if [ "${mutants_resume:-0}" = 1 ] && [ -s "$dir/$mode.result" ] &&
        ! grep -q '^ungraded' "$dir/$mode.result"; then
        exit 0
    fi
    # A reference holding more than one kernel, picked by an environment
    # variable (solutions/<chapter>/mutant-settings): the mutant is graded
    # under each setting in turn, the default first, each time by this
    # script again; the first that kills it is its result, and it survives
    # only by passing under all of them. Only the last run's line is shown.
    if [ -s "$work/$version.settings" ] && [ -z "${mutants_setting+set}" ]; then
        while IFS= read -r setting; do
            rm -f "$dir/$mode.result"
            env mutants_setting="$setting" mutants_resume=0 $setting sh "$self" "$@" \
                >"$dir/$mode.out" </dev/null
            grep -q '^passed' "$dir/$mode.result" 2>/dev/null || break
        done <"$work/$version.settings"
        cat "$dir/$mode.out"
        exit 0
    fi
    # The shell's own notes ("Terminated", for the check stopped below) go
    # beside the log, not to the terminal.
    exec 2>"$dir/$mode.stderr"
    # A kill under a setting (above) names the setting.
    mark_setting() {
        [ -n "${mutants_setting:-}" ] && grep -q '^killed' "$dir/$mode.result" || return 0
        marked=$(cat "$dir/$mode.result")
        printf '%s [%s]\n' "$marked" "$mutants_setting" >"$dir/$mode.result"
    }
    # Once one check found no usable GPU, the others would only find the same.
    if [ -f "$work/gpu-lost" ]; then
        printf 'ungraded\t%s\n' "$(cat "$work/gpu-lost")" >"$dir/$mode.result"
        exit 0
    fi
    # The mutant as its one line names it: FILE:LINE:COLUMN:OPERATOR ORIGINAL -> MUTATED.
    site=$(sed -n "$(($(printf '%s' "$k" | sed 's/^0*//') + 1))p" "$work/$version.sites" |
        awk "$csv_awk"' { split_csv($0); printf "%s:%s:%s:%s %s -> %s", f[1], f[2], f[3], f[4], f[5], f[6] }')
    if [ "$mode" = sanitize ]; then
        # The batch's sanitizer step (grader/mk/sanitize.sh: the small cases
        # under memcheck, racecheck, initcheck and synccheck, each view
        # allocated exactly): a read past a buffer's end that no output
        # shows, or a race the two runs did not catch, costs a student
        # the sanitizer's points, so it kills the mutant.
        # The batch's limit, 900 s: under the sanitizer the cases run
        # in-process, with no timeout of their own.
        # In the background, so that a stopped run stops it at once (above).
        MW_SANITIZE_FIRST=${mutants_sanitize_first-1} SEED=$seed timeout -k 5 900 sh "$(dirname "$self")/sanitize.sh" "$grader" "$scratch/$version/$k" \
            "mutant $version/$k" --version "$version" >"$log" 2>&1 &
        pid=$!
        wait "$pid"
        rc=$?
        found=$(grep -m 1 '^sanitize: .* found problems' "$log" | sed 's/^sanitize: //' | cut -c 1-100)
        [ $rc -eq 124 ] && found="timed out after 900 s under it"
        if [ $rc -eq 0 ] || [ $rc -eq 77 ]; then
            echo passed >"$dir/$mode.result"
        elif [ -n "$found" ]; then
            printf 'killed\t%s\n' "compute-sanitizer: $found" >"$dir/$mode.result"
        else
            printf 'killed\t%s\n' "compute-sanitizer: the cases failed under it (exit $rc)" >"$dir/$mode.result"
        fi
        mark_setting
        case "$(cat "$dir/$mode.result")" in
        passed) printf '  %-8s %s\n' SURVIVED "$site" ;;
        *) printf '  %-8s %s: %s\n' KILLED "$site" "$(cut -f 2- "$dir/$mode.result")" ;;
        esac
        exit 0
    fi
    # Small cases first for every mutant; then, for those that passed them,
    # every case by size, smallest first: grading stops at the first
    # failure, so a kill costs the cases smaller than the one that kills.
    # With the cases split by size (below), "full" takes the cases under
    # the split, several checks at once, and "big" the rest, alone.
    cases=--smallest-first
    [ "$mode" = small ] && cases=--small
    [ "$mode" = full ] && [ "${mutants_split:-0}" -gt 0 ] && cases="--smallest-first --below $mutants_split"
    [ "$mode" = big ] && cases="--smallest-first --from $mutants_split"
    # The log emptied first: the loop below reads it as soon as the check
    # starts, and a grading of this mutant before (graded again, alone) left
    # its lines there, which the check's own redirection may not have cleared yet.
    : >"$log"
    # timeout(1) runs the check in a process group of its own: a TERM sent
    # to it reaches the check's forked child too, even one stuck in a kernel.
    timeout -k 5 86400 "$grader" check --lib-dir "$scratch/$version/$k" \
        --label "mutant $version/$k" --version "$version" --timeout "$timeout" \
        --timeout-per-gib 0.5 --seed "$seed" $cases >"$log" 2>&1 &
    pid=$!
    first=
    while :; do
        first=$(grep -m 1 -E '^  (FAIL|ERROR) ' "$log")
        if [ -n "$first" ]; then
            # The detail line under it says why (a timeout is graded again
            # alone, below): wait for it, up to 5 s, before stopping the check.
            waited=0
            while [ $waited -lt 50 ] && kill -0 "$pid" 2>/dev/null &&
                [ -z "$(grep -A 1 -m 1 -F -x -e "$first" "$log" | sed -n 2p)" ]; do
                sleep 0.1
                waited=$((waited + 1))
            done
            kill -TERM "$pid" 2>/dev/null
            break
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    wait "$pid"
    rc=$?
    [ -n "$first" ] || first=$(grep -m 1 -E '^  (FAIL|ERROR) ' "$log")
    if [ -n "$first" ]; then
        # "  FAIL  01_naive     tail     n=31": the group and the shape.
        case_name=$(printf '%s\n' "$first" |
            awk '{ g = $3; $1 = $2 = $3 = ""; sub(/^ +/, ""); print g " " $0 }')
        case "$first" in
        "  FAIL"*) why="wrong answer" ;;
        # The detail's first clause ("timed out after 34 s (...): the
        # kernel never finished"), not its advice, which would be cut
        # mid-word.
        *) why=$(grep -A 1 -m 1 -F -x -e "$first" "$log" | sed -n '2{s/^ *//;s/;.*//;p;}' | cut -c 1-120) ;;
        esac
        printf 'killed\t%s (%s)\n' "$case_name" "${why:-error}" >"$dir/$mode.result"
    elif [ $rc -eq 0 ]; then
        echo passed >"$dir/$mode.result"
    elif [ $rc -eq 77 ]; then
        # Exit 77 is "could not grade" (no usable GPU): the mutant was not
        # judged, so it is neither killed nor survived. The check prints why
        # on the line before its "0 passed, 0 failed, N skipped".
        why=$(grep -B 1 -m 1 -E '^0 passed, 0 failed' "$log" | head -n 1 | cut -c 1-120)
        printf 'ungraded\t%s\n' "the grader could not grade it (exit 77): ${why:-no reason given}" >"$dir/$mode.result"
        # Written whole, then renamed: a check starting beside it never
        # reads half a reason.
        cut -f 2 "$dir/$mode.result" >"$dir/gpu-lost" && mv -f "$dir/gpu-lost" "$work/gpu-lost"
    else
        printf 'killed\t%s\n' "the grader exited $rc without naming a case" >"$dir/$mode.result"
    fi
    mark_setting
    # One line per mutant graded (below): what it is and what became of it.
    result=$(cat "$dir/$mode.result")
    case "$result" in
    passed)
        # Beside other checks, a pass with a case skipped is not yet a
        # survivor: it is graded again alone (below), which says.
        # With the cases split, a pass of "full" still meets the large
        # cases ("big").
        if { [ "$mode" = big ] || { [ "$mode" = full ] && [ "${mutants_split:-0}" = 0 ]; }; } &&
            ! { [ "${mutants_beside:-0}" = 1 ] && tail -n 1 "$log" | grep -q 'skipped$'; }; then
            [ "${sanitize_next:-0}" = 1 ] || printf '  %-8s %s\n' SURVIVED "$site"
        fi ;;
    ungraded*) printf '  %-8s %s: %s\n' UNGRADED "$site" "$(printf '%s' "$result" | cut -f 2-)" ;;
    *) printf '  %-8s %s: %s\n' KILLED "$site" "$(printf '%s' "$result" | cut -f 2-)" ;;
    esac
    exit 0
fi

# ---- the chapter ----------------------------------------------------------------

fail() {
    echo "mutants: $*" >&2
    exit 2
}

chapter= grader= tool= work= results= timeout=10 seed=20261122 ex= part=
mutants_resume=0
while [ $# -gt 0 ]; do
    if [ "$1" = --resume ]; then
        mutants_resume=1
        shift
        continue
    fi
    [ $# -ge 2 ] || fail "option $1 needs a value"
    case "$1" in
    --chapter) chapter=$2 ;;
    --grader) grader=$2 ;;
    --tool) tool=$2 ;;
    --work) work=$2 ;;
    --results) results=$2 ;;
    --timeout) timeout=$2 ;;
    --seed) seed=$2 ;;
    --version) ex=$2 ;;
    --part) part=$2 ;;
    *) fail "unknown option '$1'" ;;
    esac
    shift 2
done
[ -n "$chapter" ] && [ -n "$grader" ] && [ -n "$tool" ] && [ -n "$work" ] && [ -n "$results" ] ||
    fail "usage: mutants.sh --chapter NN-name --grader FILE --tool FILE --work DIR --results DIR [--timeout S] [--seed S] [--version EX] [--part I/P] [--resume]"
part_i= parts=
if [ -n "$part" ]; then
    part_i=${part%/*} parts=${part#*/}
    [ "$part_i" -ge 1 ] 2>/dev/null && [ "$parts" -ge "$part_i" ] 2>/dev/null ||
        fail "PART=$part: give I/P with 1 <= I <= P"
fi

files=
for f in solutions/"$chapter"/"$ex"*.cu; do
    [ -f "$f" ] && files="$files $f"
done
if [ -z "$files" ]; then
    if [ -d "solutions/$chapter" ]; then
        fail "no solution of $chapter matches EX=$ex: EX is the start of a version's file name"
    fi
    fail "no solutions/$chapter/: mutation testing needs the reference solutions (the student edition has none)"
fi
equivalents=solutions/$chapter/equivalent-mutants
settings=solutions/$chapter/mutant-settings

start=$(date +%s)
export mutants_resume
if [ $mutants_resume = 1 ]; then
    # Mutants listed from the same solutions come out the same, key for key.
    mkdir -p "$work/libs" || fail "cannot create $work/libs"
    rm -f "$work/gpu-lost"
    scratch=$work/libs
    echo "mutants: going on from $work (--resume): built mutants and graded stages are kept"
else
    rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/mw-mutants.XXXXXX") || fail "cannot create a scratch folder"
    trap 'rm -rf "$scratch"' EXIT
fi
# Stopped (INT, or TERM from timeout(1) or a batch system's time limit,
# which reach the whole process group): before grading there is nothing to
# keep; once it has begun, the mutants graded so far go into the CSV and
# those whose grading had not ended count as not graded (exit 1), so that a
# run cut off keeps what it did. The handler runs once the command in the
# foreground ends (an xargs whose checks stop at once, --grade-one).
grading=0 stopped_why=
stopped() {
    trap '' INT TERM
    if [ $grading = 0 ]; then
        echo "mutants: stopped ($1) before grading began: nothing written" >&2
        exit 2
    fi
    stopped_why="the run was stopped ($1) before the grading ended"
    settle_stopped
    echo "mutants: stopped ($1): writing what was graded"
    finish
}
trap 'stopped INT' INT
trap 'stopped TERM' TERM

# The GPU, first: its name is the results folder, as for make bench.
gpu_out=$("$grader" info 2>&1)
gpu_rc=$?
case $gpu_rc in
0 | 77) ;;
*) fail "'$grader info' failed (exit $gpu_rc): $gpu_out" ;;
esac
gpu_name=$(printf '%s\n' "$gpu_out" | head -n 1 | sed 's/: compute capability.*//')
# The results folder of the GPU: its name with every character but letters,
# digits, '-' and '.' made '_', the rule of mw_safe_name (grader/devinfo.c)
# that make bench uses, as grader/mk/results-dir.sh applies it.
gpu_dir=$(printf '%s' "$gpu_name" | sed 's/[^A-Za-z0-9.-]/_/g')
csv=$results/$gpu_dir/$chapter/mutants.csv

# ---- the mutants ------------------------------------------------------------------

: >"$work/build.list"
total=0
for f in $files; do
    version=$(basename "$f" .cu)
    "$tool" --out "$work/$version" "$f" >"$work/$version.sites" ||
        fail "mw-mutate could not list the mutants of $f"
    n=$(($(wc -l <"$work/$version.sites") - 1))
    total=$((total + n))
    # Settings: "VERSION VAR=VALUE...", # for comments; the default (an
    # empty line) first.
    rm -f "$work/$version.settings"
    if [ -f "$settings" ]; then
        listed=$(sed -e 's/#.*//' "$settings" | awk -v v="$version" '$1 == v { $1 = ""; sub(/^ +/, ""); print }')
        if [ -n "$listed" ]; then
            printf '\n%s\n' "$listed" >"$work/$version.settings"
            echo "mutants: $version graded under each of: the default, $(printf '%s' "$listed" | paste -s -d ',' - | sed 's/,/, /g')"
        fi
    fi
    i=1
    while [ $i -le $n ]; do
        printf '%s %03d\n' "$version" $i >>"$work/build.list"
        i=$((i + 1))
    done
done

# A part: the slice's mutants are the ones built and graded; all.list keeps
# them all, for the CSV.
cp "$work/build.list" "$work/all.list"
if [ -n "$part" ]; then
    awk -v i="$part_i" -v p="$parts" -v n="$total" 'int((NR - 1) * p / n) + 1 == i' \
        "$work/all.list" >"$work/build.list"
    echo "mutants: part $part: $(wc -l <"$work/build.list") of the $total mutants"
fi

# Equivalent mutants: "FILE:LINE:COLUMN:OPERATOR reason", # for comments.
: >"$work/equivalent.keys"
if [ -f "$equivalents" ]; then
    sed -e 's/#.*//' "$equivalents" | awk 'NF { print $1 }' >"$work/equivalent.keys"
fi

jobs=$(nproc 2>/dev/null || echo 2)
echo "mutants: $chapter: $total mutants of$files; building them, $jobs at a time"
# Here and below, xargs runs only over a list that is not empty: it would
# run its command once for none (a part of none, every mutant equivalent,
# none passing the small cases), without a version and a mutant.
[ -s "$work/build.list" ] &&
    xargs -P "$jobs" -L 1 sh "$self" --build-one "$chapter" "$work" "$scratch" <"$work/build.list"
built_at=$(date +%s)

# key VERSION K: FILE:LINE:COLUMN:OPERATOR of mutant K (row K + 1 of the list).
key() { sed -n "$(($(printf '%s' "$2" | sed 's/^0*//') + 1))p" "$work/$1.sites" | cut -d, -f1-4 | tr , :; }
# listed VERSION K: whether mutant K is on the chapter's equivalents list.
listed() { grep -q -x -F -e "$(key "$1" "$2")" "$work/equivalent.keys"; }

stillborn=0 equivalent=0
: >"$work/grade.list"
while read -r version k; do
    dir=$work/$version/$k
    if [ "$(cat "$dir/build.rc" 2>/dev/null)" != 0 ]; then
        printf 'stillborn\tbuild failed\n' >"$dir/result"
        stillborn=$((stillborn + 1))
        echo "  STILLBORN $(key "$version" "$k"): $dir/build.log"
    elif listed "$version" "$k"; then
        printf 'equivalent\t\n' >"$dir/result"
        equivalent=$((equivalent + 1))
    else
        # A result of the last run (--resume) is decided again, stage by stage.
        rm -f "$dir/result"
        echo "$version $k" >>"$work/grade.list"
    fi
done <"$work/build.list"

# Listed equivalents of the files mutated here that match no mutant: the
# solution moved under them.
while read -r listed; do
    f=solutions/$chapter/${listed%%:*}
    if [ ! -f "$f" ]; then
        echo "mutants: warning: $equivalents lists $listed, but there is no $f: update the list"
        continue
    fi
    case " $files " in
    *" $f "*) ;;
    *) continue ;; # another version, left out by EX=, or a file that is gone
    esac
    tail -n +2 "$work/$(basename "$f" .cu).sites" | cut -d, -f1-4 | tr , : | grep -q -x -F -e "$listed" ||
        echo "mutants: warning: $equivalents lists $listed, which is no mutant of $f now: update the list"
done <"$work/equivalent.keys"

# write_csv OUT [LAST]: the CSV, one row per mutant in list order. A
# mutant of another part (not in build.list) keeps its row of LAST, the
# CSV as the last run left it, where that row is this mutant's; but the
# list of equivalents decides without a GPU, as it does for the part's
# own: a mutant listed is equivalent, and one that LAST calls equivalent
# and the list no longer names is not graded yet.
write_csv() {
    out=$1 last=${2:-}
    mkdir -p "$(dirname "$out")" || fail "cannot create the folder of $out"
    {
        echo "chapter,file,line,column,operator,original,mutated,status,killed_by"
        while read -r version k; do
            row=$(sed -n "$(($(printf '%s' "$k" | sed 's/^0*//') + 1))p" "$work/$version.sites")
            if ! grep -q -x -F -e "$version $k" "$work/build.list"; then
                old=
                [ -n "$last" ] && [ -f "$last" ] &&
                    old=$(awk -v p="$chapter,$row," 'index($0, p) == 1 { print; exit }' "$last")
                if listed "$version" "$k"; then
                    old="$chapter,$row,equivalent,"
                else
                    case "$old" in
                    "$chapter,$row,equivalent,"*) old="$chapter,$row,ungraded,not graded yet: no longer listed equivalent" ;;
                    esac
                fi
                echo "${old:-$chapter,$row,ungraded,not graded yet: another part}"
                continue
            fi
            status=$(cut -f 1 "$work/$version/$k/result")
            by=$(cut -f 2- "$work/$version/$k/result")
            case "$by" in
            *[,\"]*) by="\"$(printf '%s' "$by" | sed 's/"/""/g')\"" ;;
            esac
            echo "$chapter,$row,$status,$by"
        done <"$work/all.list"
    } >"$out.tmp" && mv "$out.tmp" "$out" || fail "cannot write $out"
}

if [ $gpu_rc -eq 77 ]; then
    while read -r version k; do
        printf 'ungraded\t\n' >"$work/$version/$k/result"
    done <"$work/grade.list"
    write_csv "$work/mutants.csv"
    echo "mutants: $chapter: $total mutants, $stillborn stillborn, $((total - stillborn)) built" \
        "in $((built_at - start)) s; $equivalent listed as equivalent; written to $work/mutants.csv"
    echo "mutants: grading needs a GPU: $(printf '%s\n' "$gpu_out" | head -n 1)"
    exit 77
fi

# ---- grading -------------------------------------------------------------------------

graded=$(wc -l <"$work/grade.list")
# next_stage STAGE LIST OUT: the mutants of LIST that passed STAGE go on to
# the next, listed in OUT; for the others, STAGE's result is their result.
next_stage() {
    : >"$3"
    while read -r version k; do
        if [ "$(cat "$work/$version/$k/$1.result")" = passed ]; then
            echo "$version $k" >>"$3"
        else
            cp "$work/$version/$k/$1.result" "$work/$version/$k/result"
        fi
    done <"$2"
}
# settle_stopped: a result for each graded mutant that has none when the
# run stops: a stage's kill is final (grading stops at the first failing
# case); without one it was not graded, and the stages it passed are named.
stage_name() {
    case $1 in
    small) echo "the small cases" ;;
    full) [ "${split:-0}" -gt 0 ] && echo "the cases under the split" || echo "every case" ;;
    big) echo "the larger cases" ;;
    *) echo compute-sanitizer ;;
    esac
}
settle_stopped() {
    while read -r version k; do
        dir=$work/$version/$k
        [ -s "$dir/result" ] && continue
        passed= result=
        for stage in small full big sanitize; do
            [ -f "$dir/$stage.result" ] || continue
            # Beside other checks, a timeout or a pass with a case skipped
            # waits to be graded again alone (below): neither is a result yet.
            if [ $stage = full ] && [ "${full_jobs:-1}" -gt 1 ] && [ ! -f "$work/full-alone.done" ]; then
                case "$(cat "$dir/full.result")" in
                killed*"(timed out after "*) break ;;
                passed) tail -n 1 "$dir/full.log" 2>/dev/null | grep -q 'skipped$' && break ;;
                esac
            fi
            case "$(cat "$dir/$stage.result")" in
            killed*) result=$stage && break ;;
            passed) passed="$passed, $(stage_name "$stage")" ;;
            esac
        done
        if [ -n "$result" ]; then
            cp "$dir/$result.result" "$dir/result"
        elif [ "$(cat "$dir/sanitize.result" 2>/dev/null)" = passed ]; then
            # The sanitizer comes last: it passed everything.
            printf 'survived\t\n' >"$dir/result"
        else
            printf 'ungraded\t%s%s\n' "$stopped_why" "${passed:+ (passed: ${passed#, })}" >"$dir/result"
        fi
    done <"$work/grade.list"
}
# finish: the CSV and the summary, from each graded mutant's result; exits.
# A signal now would only write the same CSV again.
finish() {
    trap '' INT TERM
    end=$(date +%s)
    # count STATUS: the graded mutants whose result is STATUS.
    count() {
        n=0
        while read -r version k; do
            [ "$(cut -f 1 "$work/$version/$k/result")" = "$1" ] && n=$((n + 1))
        done <"$work/grade.list"
        echo $n
    }
    killed=$(count killed) survived=$(count survived) ungraded=$(count ungraded)

    # With EX=, the rows of the other versions from the last run stay: a
    # chapter can be graded one version at a time (chapter 04's every-case
    # phase does not fit one 10-minute run).
    # The versions graded now, " a.cu b.cu ", for matching rows by file.
    mine=" $(for f in $files; do basename "$f"; done | tr '\n' ' ')"
    kept=0
    if [ -n "$ex" ] && [ -f "$csv" ]; then
        tail -n +2 "$csv" | awk -F, -v mine="$mine" -v dir="solutions/$chapter" '
            index(mine, " " $2 " ") == 0 && system("test -f \"" dir "/" $2 "\"") == 0' >"$work/kept.rows"
        kept=$(wc -l <"$work/kept.rows")
    fi
    write_csv "$csv" "$csv"
    if [ "$kept" -gt 0 ]; then
        { head -n 1 "$csv" && tail -n +2 "$csv" | cat "$work/kept.rows" - | LC_ALL=C sort -s -t, -k2,2; } \
            >"$csv.tmp" && mv "$csv.tmp" "$csv" || fail "cannot write $csv"
    fi

    if [ $((killed + survived)) -gt 0 ]; then
        score=$(awk -v k=$killed -v s=$survived 'BEGIN { printf "%.1f%%", 100 * k / (k + s) }')
    else
        score="undefined (nothing graded)"
    fi
    not_graded=
    [ "$ungraded" -gt 0 ] && not_graded=", $ungraded NOT GRADED"
    what="$total mutants"
    [ -n "$part" ] && what="part $part, $(wc -l <"$work/build.list") of the $total mutants"
    echo "mutants: $chapter on $gpu_name: $what, $stillborn stillborn, $killed killed," \
        "$equivalent equivalent, $survived survived$not_graded; mutation score $score (killed / (killed + survived))"
    if [ -n "$part" ]; then
        # The whole of the versions graded in parts: their rows of the CSV.
        awk "$csv_awk"' NR > 1 { split_csv($0); if (index(mine, " " f[2] " ")) n[f[8]]++ }
            END { k = n["killed"] + 0; s = n["survived"] + 0
                  shown = mine; sub(/ +$/, "", shown)
                  printf "mutants: all of%s, from the CSV: %d killed, %d survived, %d equivalent, %d stillborn, %d not graded yet; ",
                         shown, k, s, n["equivalent"], n["stillborn"], n["ungraded"]
                  if (k + s) printf "mutation score %.1f%%\n", 100 * k / (k + s); else print "mutation score undefined" }' \
            mine="$mine" "$csv"
    fi
    # A stopped run: the stages it did not reach took no time.
    small_at=${small_at:-$end} full_at=${full_at:-$end}
    echo "mutants: $((end - start)) s: build $((built_at - start)) s, small cases $((small_at - built_at)) s," \
        "every case $((full_at - small_at)) s, sanitizer $((end - full_at)) s"
    if [ $survived -gt 0 ]; then
        echo "mutants: the survivors (mark one equivalent in $equivalents when no input can tell it apart):"
        awk "$csv_awk"' NR > 1 { split_csv($0); if (f[8] == "survived")
            printf "  %s:%s:%s:%s %s -> %s\n", f[2], f[3], f[4], f[5], f[6], f[7] }' "$csv"
    fi
    echo "mutants: wrote $csv$([ "$kept" -gt 0 ] && printf ", keeping the %s rows of the other versions from its last run" "$kept")"
    if [ "$ungraded" -gt 0 ]; then
        echo "mutants: $ungraded mutants were not graded, so the score is incomplete: ${stopped_why:-$(cat "$work/gpu-lost")}" >&2
        exit 1
    fi
    exit 0
}
rm -f "$work/full-alone.done"
grading=1
echo "mutants: built in $((built_at - start)) s; grading $graded on the small cases, $grade_jobs at a time (TIMEOUT=$timeout, SEED=$seed)"
[ -s "$work/grade.list" ] &&
    xargs -P "$grade_jobs" -L 1 sh "$self" --grade-one "$grader" "$timeout" "$seed" small \
        "$work" "$scratch" <"$work/grade.list"
next_stage small "$work/grade.list" "$work/full.list"
small_at=$(date +%s)
# Every case, as many checks at once as the GPU's memory holds with each at
# its largest case (list --csv's bytes, with 1.5 GiB for its context and the
# check's spare), at most grade_jobs: a case skipped for lack of memory
# would let a mutant pass it.
most=$("$grader" list --csv 2>/dev/null | awk "$csv_awk"'
    NR == 1 { n = split_csv($0); for (i = 1; i <= n; i++) col[f[i]] = i; next }
    { split_csv($0); b = f[col["bytes"]] + 0; if (b > most) most = b }
    END { printf "%.0f", most }')
gib=$(printf '%s\n' "$gpu_out" | head -n 1 | sed -n 's/.* \([0-9][0-9.]*\) GiB memory.*/\1/p')
[ "${most:-0}" -gt 0 ] 2>/dev/null || gib= # no sizes listed: one check at a time
full_jobs=$(awk -v most="${most:-0}" -v gib="${gib:-0}" -v cap=$grade_jobs 'BEGIN {
    j = int(gib * 0.95 * 2^30 / (most + 1.5 * 2^30)); print (j < 1 ? 1 : (j > cap ? cap : j)) }')
# When the largest cases hold the checks to fewer than grade_jobs at once
# (chapter 05's 43 GB case: one), the cases under what grade_jobs checks
# hold at once (split, bytes) run grade_jobs at a time, and only the
# mutants that pass them meet the larger ones, one at a time: most die on
# the smaller cases, smallest first.
split=$(awk -v most="${most:-0}" -v gib="${gib:-0}" -v jobs=$grade_jobs -v fj=$full_jobs 'BEGIN {
    t = gib * 0.95 * 2^30 / jobs - 1.5 * 2^30
    if (gib > 0 && fj < jobs && t >= 2^30 && most >= t) printf "%.0f", t; else print 0 }')
gib_of() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 2^30 }'; }
passed_small=$(wc -l <"$work/full.list")
if [ "$split" -gt 0 ]; then
    full_jobs=$grade_jobs
    echo "mutants: small cases done in $((small_at - built_at)) s; $passed_small passed them:" \
        "grading those on every case under $(gib_of "$split") GiB, $full_jobs at a time, then" \
        "those that pass on the larger ones, one at a time (the largest case needs" \
        "$(gib_of "${most:-0}") GiB; the GPU has $gib GiB)"
else
    echo "mutants: small cases done in $((small_at - built_at)) s; $passed_small passed them:" \
        "grading those on every case, $full_jobs at a time (the largest case needs" \
        "$(gib_of "${most:-0}") GiB; the GPU has ${gib:-an unknown amount of} GiB)"
fi
sanitize_next=$(command -v compute-sanitizer >/dev/null 2>&1 && echo 1 || echo 0)
export sanitize_next
[ -s "$work/full.list" ] &&
    mutants_split=$split mutants_beside=$((full_jobs > 1)) xargs -P "$full_jobs" -L 1 sh "$self" \
        --grade-one "$grader" "$timeout" "$seed" full "$work" "$scratch" <"$work/full.list"
# Beside other checks, a mutant that passed with a case skipped may have
# lost that case's memory to them, and one killed by a timeout its GPU time
# (a slow case's kernels wait their turn behind theirs, and the reference
# itself would time out so): both are graded again, alone, and that result
# is theirs.
if [ "$full_jobs" -gt 1 ]; then
    : >"$work/again.list"
    skipped=0 timed_out=0
    while read -r version k; do
        result=$work/$version/$k/full.result
        if [ "$(cat "$result")" = passed ] && tail -n 1 "$work/$version/$k/full.log" | grep -q 'skipped$'; then
            skipped=$((skipped + 1))
        elif [ "$(cut -f 1 "$result")" = killed ] && cut -f 2 "$result" | grep -q '(timed out after '; then
            timed_out=$((timed_out + 1))
        else
            continue
        fi
        echo "$version $k" >>"$work/again.list"
    done <"$work/full.list"
    if [ -s "$work/again.list" ]; then
        [ $skipped -gt 0 ] && echo "mutants: $skipped passed with a case skipped: grading those again, alone"
        [ $timed_out -gt 0 ] && echo "mutants: $timed_out killed by a timeout beside other checks: grading those again, alone"
        # Their first result goes, or --resume would keep it.
        while read -r version k; do rm -f "$work/$version/$k/full.result"; done <"$work/again.list"
        mutants_split=$split xargs -P 1 -L 1 sh "$self" --grade-one "$grader" "$timeout" "$seed" \
            full "$work" "$scratch" <"$work/again.list"
    fi
fi
: >"$work/full-alone.done"
# The cases from the split on, alone, for the mutants that passed the rest.
if [ "$split" -gt 0 ]; then
    : >"$work/big.list"
    while read -r version k; do
        [ "$(cat "$work/$version/$k/full.result")" = passed ] && echo "$version $k" >>"$work/big.list"
    done <"$work/full.list"
    if [ -s "$work/big.list" ]; then
        echo "mutants: $(wc -l <"$work/big.list") passed the cases under $(gib_of "$split") GiB:" \
            "grading those on the larger ones, one at a time"
        mutants_split=$split xargs -P 1 -L 1 sh "$self" --grade-one "$grader" "$timeout" "$seed" \
            big "$work" "$scratch" <"$work/big.list"
        while read -r version k; do
            cp "$work/$version/$k/big.result" "$work/$version/$k/full.result"
        done <"$work/big.list"
    fi
fi
full_at=$(date +%s)
# The mutants that pass every case meet the sanitizer, as a submission does
# in the batch (where compute-sanitizer is installed).
next_stage full "$work/full.list" "$work/sanitize.list"
sanitized=no
if [ -s "$work/sanitize.list" ] && command -v compute-sanitizer >/dev/null 2>&1; then
    sanitized=yes
    # Each mutant's four tools one after another (sanitize.sh's
    # MW_SANITIZE_FIRST), $grade_jobs mutants at once; a mutant alone here
    # would leave the others' cores idle, so its tools run at once, as the
    # batch runs them. Most of a tool's time is the host's, patching every
    # kernel of the library, under each setting of mutant-settings: for
    # 05.4's reference that is minutes.
    mutants_sanitize_first=1
    [ "$(wc -l <"$work/sanitize.list")" -eq 1 ] && mutants_sanitize_first=
    export mutants_sanitize_first
    echo "mutants: $(wc -l <"$work/sanitize.list") passed every case: under compute-sanitizer" \
        "(the batch's sanitizer step), $grade_jobs at a time"
    xargs -P "$grade_jobs" -L 1 sh "$self" --grade-one "$grader" "$timeout" "$seed" sanitize \
        "$work" "$scratch" <"$work/sanitize.list"
elif [ -s "$work/sanitize.list" ]; then
    echo "mutants: compute-sanitizer not found: the $(wc -l <"$work/sanitize.list") that passed every case survive without it"
fi
while read -r version k; do
    if [ $sanitized = no ] || [ "$(cat "$work/$version/$k/sanitize.result")" = passed ]; then
        printf 'survived\t\n' >"$work/$version/$k/result"
    else
        cp "$work/$version/$k/sanitize.result" "$work/$version/$k/result"
    fi
done <"$work/sanitize.list"
finish
