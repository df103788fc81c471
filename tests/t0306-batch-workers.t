#!/usr/bin/env bash
# make grade GPUS=0,1 without a GPU (the workers of grader/batch/workers.c):
# each student is graded in a child pinned to one GPU; every child finds no
# GPU, and so every student ends ungraded with the chapter program's own
# no-GPU reason, no score recorded, all of them listed in the gradebook.
# Then a child killed with signal 9 while it builds a submission (an nvcc
# on the PATH that waits, for the file marked so, the first time): that
# student is recorded not graded with the signal as the reason, nothing it
# started is left running, the others end as they would, a student graded
# before is kept, and the same command grades the killed one again. A child
# past --student-limit is stopped, and so recorded. GPUS=all
# without a GPU refuses, writing nothing. --student, --pending and --merge
# on their own.
. tests/lib.sh
have_gpu && skip_all "this machine has a GPU: these are the runs without one"
[ -x build/01-vector-add/mw-chapter ] || skip_all "build/01-vector-add/mw-chapter is not built"
real_nvcc=$(command -v nvcc) || skip_all "nvcc not on the PATH"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
private_batch_scratch "$scratch/batch-root"
reason=$(build/01-vector-add/mw-chapter info 2>&1 | head -n 1)
class=$scratch/class
mkdir -p "$class/ann" "$class/ben"
cp exercises/01-vector-add/01_naive.cu exercises/01-vector-add/02_fast.cu "$class/ann/"
cp exercises/01-vector-add/01_naive.cu "$class/ben/"
cp exercises/01-vector-add/01_naive.cu "$class/cat.cu"
chmod -R a+rX "$scratch"
MAKE_Q="make -s --no-print-directory"

# ---- GPUS=0,1: every student ungraded with the no-GPU reason --------------------
out=$scratch/out
run=$($MAKE_Q grade CH=01 SUBMISSIONS="$class" OUT="$out" GPUS=0,1 2>&1)
rc=$?
printf '%s\n' "$run" | diag
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "GPUS=0,1 without a GPU fails (exit $rc)"
printf '%s\n' "$run" | grep -q 'Error 77'
ok $? "with exit 77, as a one-GPU run without a GPU"
printf '%s\n' "$run" | grep -q 'on 2 GPU(s): 0 1'
ok $? "one worker per GPU named"
rows=$(awk 'NR > 1' "$out/gradebook.csv" | wc -l)
ok "$([ "$rows" -eq 3 ] && echo 0 || echo 1)" "the gradebook lists every student ($rows)"
for who in ann ben cat; do
    grep "^$who," "$out/gradebook.csv" | grep -qF "NOT GRADED: no usable GPU: $reason"
    ok $? "$who: not graded, with the no-GPU reason '$reason'"
    grep "^$who," "$out/gradebook.csv" | grep -q "^$who,,,"
    ok $? "$who: no points recorded"
done
[ -z "$(find "$out" -name score.csv)" ]
ok $? "no score.csv for anyone"
ls -d "$MW_BATCH_SCRATCH"/mw-batch-* >/dev/null 2>&1 && left=1 || left=0
ok $left "no scratch folder is left behind"

# ---- GPUS=all: nvidia-smi lists none ----------------------------------------------
run=$($MAKE_Q grade CH=01 SUBMISSIONS="$class" OUT="$scratch/all" GPUS=all 2>&1)
printf '%s\n' "$run" | grep -q 'Error 77'
ok $? "GPUS=all without a GPU exits 77"
printf '%s\n' "$run" | grep '^mw-batch:' | grep -q 'no usable GPU' &&
    printf '%s\n' "$run" | grep '^mw-batch:' | grep -qF "$reason"
ok $? "saying no usable GPU, and why"
[ ! -e "$scratch/all" ]
ok $? "and writing nothing"
run=$(build/tools/mw-batch --chapter 01-vector-add --submissions "$class" --out "$scratch/all" \
    --gpus 0,0 2>&1)
ok "$([ $? -eq 2 ] && printf '%s' "$run" | grep -q 'twice' && echo 0 || echo 1)" \
    "a GPU named twice is refused"

# ---- a child killed with signal 9 while it builds ----------------------------------
# An nvcc that, for the file marked SLOW-BUILD, says it started and waits,
# once; every other build is the real nvcc's. It runs as the steps run (user
# nobody when root): its folders are open to every user.
fake=$scratch/fake
mkdir -p "$fake" "$scratch/flag"
chmod 777 "$scratch/flag"
cat >"$fake/nvcc" <<EOF
#!/bin/sh
echo "\$*" >>$scratch/flag/args
for a in "\$@"; do
    case \$a in
    *.cu) if grep -q SLOW-BUILD "\$a" && [ ! -e $scratch/flag/started ]; then
              echo \$\$ >$scratch/flag/started
              sleep 300
              exit 1
          fi ;;
    esac
done
exec $real_nvcc "\$@"
EOF
chmod 755 "$fake/nvcc"
echo '// SLOW-BUILD' >>"$class/ben/01_naive.cu"
mkdir -p "$class/dan"
cp exercises/01-vector-add/01_naive.cu "$class/dan/"
chmod -R a+rX "$scratch"
out=$scratch/killed
# ann graded by an earlier run: kept.
mkdir -p "$out/students/ann"
printf 'key,value\nstudent,ann\nstatus,graded\ntotal,40\nmax,110\n' >"$out/students/ann/score.csv"
echo '# report' >"$out/students/ann/report.md"
echo '{}' >"$out/students/ann/results.json"
batch() { # called in a subshell: it becomes mw-batch, and $! its pid
    PATH=$fake:$PATH exec build/tools/mw-batch --chapter 01-vector-add --submissions "$class" \
        --out "$out" --gpus 0,1
}
(batch) >"$scratch/run1.log" 2>&1 &
parent=$!
for _ in $(seq 1 300); do [ -s "$scratch/flag/started" ] && break; sleep 0.2; done
ok "$([ -s "$scratch/flag/started" ] && echo 0 || echo 1)" "ben's build started (and waits)"
waiting=$(cat "$scratch/flag/started" 2>/dev/null)
ls -d "$MW_BATCH_SCRATCH"/mw-batch-gpu-*/mw-batch-* >/dev/null 2>&1
ok $? "the workers' scratch folders, and their children's, are made in MW_BATCH_SCRATCH"
victim=
for pid in $(ps -o pid= --ppid "$parent"); do
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- '--student ben' && victim=$pid
done
ok "$([ -n "$victim" ] && echo 0 || echo 1)" "the child grading ben found (pid ${victim:-none})"
[ -n "$victim" ] && kill -9 "$victim"
wait "$parent"
rc=$?
diag <"$scratch/run1.log"
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "the run reports students not graded (exit $rc)"
builds=$(grep -c -- '/src/0[12]_[a-z]*\.cu$' "$scratch/flag/args")
graded=$(grep -- '/src/0[12]_[a-z]*\.cu$' "$scratch/flag/args" | grep -c -- ' -DMW_GRADED ')
ok "$([ "$builds" -gt 0 ] && [ "$graded" -eq "$builds" ] && echo 0 || echo 1)" \
    "each version is built as make grade builds it, MW_GRADED defined ($graded of $builds)"
grep '^ben,' "$out/gradebook.csv" | grep -q 'NOT GRADED: worker on GPU [01] exited on signal 9'
ok $? "ben: not graded, the signal the reason"
grep -q '^ben,,,' "$out/gradebook.csv"
ok $? "ben: no points recorded"
[ -s "$out/students/ben/unpack.log" ] || [ -s "$out/students/ben/build.log" ]
ok $? "ben: the logs of the attempt are kept"
sleep 0.5
[ -n "$waiting" ] && ! kill -0 "$waiting" 2>/dev/null
ok $? "the build the killed child started is not left running (pid ${waiting:-none})"
for who in cat dan; do
    grep "^$who," "$out/gradebook.csv" | grep -qF "NOT GRADED: no usable GPU: $reason"
    ok $? "$who: as it would be, the no-GPU reason"
done
grep -q '^ann,40,110,' "$out/gradebook.csv"
ok $? "ann: the earlier grade kept"
grep -q '^  ann  *already graded' "$scratch/run1.log"
ok $? "and said so"
ls -d "$MW_BATCH_SCRATCH"/mw-batch-* >/dev/null 2>&1 && left=1 || left=0
ok $left "no scratch folder is left behind"

(batch) >"$scratch/run2.log" 2>&1
diag <"$scratch/run2.log"
grep '^ben,' "$out/gradebook.csv" | grep -qF "NOT GRADED: no usable GPU: $reason"
ok $? "the same command again grades ben again (now: the no-GPU reason)"
grep -q '^  ann  *already graded' "$scratch/run2.log" && grep -q '^ann,40,110,' "$out/gradebook.csv"
ok $? "and keeps ann's grade"

# ---- a child past the whole-student limit ------------------------------------------
# eve's build never ends (an nvcc that waits for every file marked
# HANG-BUILD): past --student-limit 4 her child is stopped, with the build.
hang=$scratch/hang
mkdir -p "$hang/bin" "$hang/class/eve"
cat >"$hang/bin/nvcc" <<EOF
#!/bin/sh
for a in "\$@"; do
    case \$a in
    *.cu) grep -q HANG-BUILD "\$a" && { echo \$\$ >$scratch/flag/hung; exec sleep 300; } ;;
    esac
done
exec $real_nvcc "\$@"
EOF
chmod 755 "$hang/bin/nvcc"
cp exercises/01-vector-add/01_naive.cu "$hang/class/eve/"
echo '// HANG-BUILD' >>"$hang/class/eve/01_naive.cu"
chmod -R a+rX "$hang"
start=$(date +%s)
PATH=$hang/bin:$PATH build/tools/mw-batch --chapter 01-vector-add --submissions "$hang/class" \
    --out "$hang/out" --gpus 0 --student-limit 4 >"$scratch/hang.log" 2>&1
took=$(($(date +%s) - start))
diag <"$scratch/hang.log"
grep '^eve,,,' "$hang/out/gradebook.csv" |
    grep -q 'NOT GRADED: worker on GPU 0 ran past the whole-student limit of 4 s and was stopped'
ok $? "eve: not graded, past the whole-student limit"
ok "$([ "$took" -lt 60 ] && echo 0 || echo 1)" "stopped then, not after the build's 300 s ($took s)"
sleep 0.5
hung=$(cat "$scratch/flag/hung" 2>/dev/null)
[ -n "$hung" ] && ! kill -0 "$hung" 2>/dev/null
ok $? "and the build it started is not left running (pid ${hung:-none})"

# ---- the building blocks on their own ----------------------------------------------
B="build/tools/mw-batch --chapter 01-vector-add --submissions $class --out $out"
[ "$($B --pending | tr '\n' ' ')" = "1 ben 2 cat 3 dan " ]
ok $? "--pending lists the students without a grade, with their index"
$B --student-index 1 >"$scratch/one.log" 2>&1
rc=$?
ok "$([ $rc -eq 77 ] && echo 0 || echo 1)" "--student-index 1 (ben) exits 77 without a GPU ($rc)"
head -n 1 "$out/students/ben/not-graded.txt" | grep -qF "no usable GPU: $reason"
ok $? "and says why in not-graded.txt"
rm -rf "$out/students/dan"
$B --student cat --ungraded 'Slurm task ended: time limit' >/dev/null 2>&1
head -n 1 "$out/students/cat/not-graded.txt" | grep -qF "no usable GPU: $reason"
ok $? "--ungraded keeps a student's own reason"
$B --student dan --ungraded 'Slurm task ended: time limit' >/dev/null 2>&1
head -n 1 "$out/students/dan/not-graded.txt" | grep -qx 'Slurm task ended: time limit'
ok $? "--ungraded records a student that has none"
$B --student ann --ungraded 'Slurm task ended: time limit' >/dev/null 2>&1
[ ! -e "$out/students/ann/not-graded.txt" ]
ok $? "--ungraded leaves a graded student alone"
rm -rf "$out/students/dan"
$B --merge >"$scratch/merge.log" 2>&1
rc=$?
ok "$([ $rc -eq 2 ] && echo 0 || echo 1)" "--merge exits 2 with students not graded ($rc)"
grep -q '^dan,,,.*NOT GRADED: not graded yet' "$out/gradebook.csv"
ok $? "a student OUT holds nothing of: 'not graded yet'"
grep -q '4 submissions: 1 graded, 3 not graded' "$scratch/merge.log"
ok $? "the merge's summary counts them"

done_testing
