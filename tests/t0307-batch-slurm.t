#!/usr/bin/env bash
# make grade SLURM=1 end to end on a one-node Slurm cluster started here
# (tests/slurm/cluster.sh: munge, slurmctld, slurmd, a node with a gpu gres
# and no GPU). The job array has a task per student not graded yet, each
# asking for --gres=gpu:1; without a GPU each task records the chapter
# program's no-GPU reason, and the merge job after the array lists every
# student ungraded with it, recording no score, and keeps a grade from an
# earlier run. Then a task that runs past its time limit (SLURM_TIME=1, an
# nvcc on the PATH that waits for the file marked so): the merge lists that
# student "Slurm task ended: time limit", and the others as before.
. tests/lib.sh
long_file "a Slurm cluster and its jobs (about two minutes)"
for tool in sbatch squeue scontrol sinfo slurmctld slurmd munged; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] ||
        skip_all "$tool is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip_all "a one-node Slurm cluster needs root (slurmd)"
have_gpu && skip_all "this machine has a GPU: the tasks would grade; these runs are without one"
[ -x build/01-vector-add/mw-chapter ] || skip_all "build/01-vector-add/mw-chapter is not built"
real_nvcc=$(command -v nvcc) || skip_all "nvcc not on the PATH"

scratch=$(mktemp -d)
chmod 755 "$scratch"
cluster=$scratch/cluster
trap 'sh tests/slurm/cluster.sh stop "$cluster"; rm -rf "$scratch"' EXIT
started=$(sh tests/slurm/cluster.sh start "$cluster" 2>&1)
rc=$?
printf '%s\n' "$started" | diag
[ $rc -eq 0 ] || { tail -n 20 "$cluster"/*.log 2>/dev/null | diag; }
ok $rc "a one-node cluster starts" || { done_testing; exit; }
export SLURM_CONF=$cluster/slurm.conf
reason=$(build/01-vector-add/mw-chapter info 2>&1 | head -n 1)

class=$scratch/class
mkdir -p "$class/ann" "$class/ben" "$class/dan"
cp exercises/01-vector-add/01_naive.cu exercises/01-vector-add/02_fast.cu "$class/ben/"
cp exercises/01-vector-add/01_naive.cu "$class/ann/"
cp exercises/01-vector-add/01_naive.cu "$class/dan/"
cp exercises/01-vector-add/01_naive.cu "$class/cat.cu"
out=$scratch/out
mkdir -p "$out/students/ann" # graded by an earlier run: kept
printf 'key,value\nstudent,ann\nstatus,graded\ntotal,40\nmax,110\n' >"$out/students/ann/score.csv"
echo '# report' >"$out/students/ann/report.md"
echo '{}' >"$out/students/ann/results.json"
chmod -R a+rX "$scratch"
MAKE_Q="make -s --no-print-directory"

# ---- WAIT=1: the array, then the gradebook ------------------------------------------
run=$($MAKE_Q grade CH=01 SUBMISSIONS="$class" OUT="$out" SLURM=1 WAIT=1 2>&1)
rc=$?
printf '%s\n' "$run" | diag
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" \
    "make grade SLURM=1 WAIT=1 fails: no student graded (exit $rc)"
printf '%s\n' "$run" |
    grep -q 'submitted job array [0-9]* (3 student(s), --time=[0-9]* each, --gres=gpu:1)'
ok $? "a job array of the three students without a grade, --gres=gpu:1"
runs=$(ls -d "$out"/slurm/*/ | head -n 1)
[ "$(tr '\n' ' ' <"$runs/students.txt")" = "ben cat dan " ]
ok $? "the array's students: ben cat dan (ann is graded)"
[ "$(ls "$runs" | grep -c '^task-.*\.out$')" -eq 3 ]
ok $? "each task wrote its output in OUT/slurm/<run>/"
printf '%s\n' "$run" | grep -q '4 submissions: 1 graded, 3 not graded'
ok $? "WAIT=1 prints the merge's summary"
rows=$(awk 'NR > 1' "$out/gradebook.csv" 2>/dev/null | wc -l)
ok "$([ "$rows" -eq 4 ] && echo 0 || echo 1)" "the gradebook lists every student ($rows)"
for who in ben cat dan; do
    grep "^$who,,,.*NOT GRADED: no usable GPU: " "$out/gradebook.csv" | grep -qF "$reason"
    ok $? "$who: not graded, no points, the no-GPU reason '$reason'"
done
grep -q '^ann,40,110,' "$out/gradebook.csv"
ok $? "ann: the earlier grade kept"
[ -z "$(find "$out/students" -name score.csv ! -path '*/ann/*')" ]
ok $? "no score.csv recorded for the others"

# ---- a task past its time limit ------------------------------------------------------
fake=$scratch/fake
mkdir -p "$fake"
cat >"$fake/nvcc" <<EOF
#!/bin/sh
for a in "\$@"; do
    case \$a in *.cu) grep -q SLOW-BUILD "\$a" && exec sleep 600 ;; esac
done
exec $real_nvcc "\$@"
EOF
chmod 755 "$fake/nvcc"
echo '// SLOW-BUILD' >>"$class/dan/01_naive.cu"
chmod -R a+rX "$scratch"
run=$(PATH=$fake:$PATH $MAKE_Q grade CH=01 SUBMISSIONS="$class" OUT="$out" SLURM=1 \
    SLURM_TIME=1 2>&1)
rc=$?
printf '%s\n' "$run" | diag
ok $rc "without WAIT=1 the jobs are submitted and make returns"
printf '%s\n' "$run" | grep -q 'follow: squeue -j [0-9]*,[0-9]*; sacct -j'
ok $? "saying how to follow them"
merge=$(printf '%s\n' "$run" | sed -n 's/^submitted merge job \([0-9]*\) .*/\1/p')
for _ in $(seq 1 120); do
    [ -n "$merge" ] && squeue -h -j "$merge" 2>/dev/null | grep -q . || break
    sleep 2
done
grep '^dan,,,' "$out/gradebook.csv" | grep -q 'NOT GRADED: Slurm task ended: time limit'
ok $? "dan, past the time limit: 'Slurm task ended: time limit', no points" ||
    grep '^dan,' "$out/gradebook.csv" | diag
for who in ben cat; do
    grep "^$who,,,.*NOT GRADED: no usable GPU: " "$out/gradebook.csv" | grep -qF "$reason"
    ok $? "$who: graded again, the no-GPU reason again"
done
grep -q '^ann,40,110,' "$out/gradebook.csv"
ok $? "ann: still kept"

done_testing
