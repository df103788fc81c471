#!/bin/sh
# grader/mk/slurm.sh: make grade SLURM=1. A class graded on a Slurm cluster
# with Slurm's own tools, run from the repository root on a machine that can
# submit jobs (a login node), the repository and OUT on a file system the
# nodes share:
#
#   sh grader/mk/slurm.sh --batch build/tools/mw-batch
#       [--roofs 'build/NN-name/mw-chapter roofs --results results'] [--partition P]
#       [--account A] [--time MINUTES|D-HH:MM:SS] [--constraint C]
#       [--gres GRES] [--opts 'more sbatch options'] [--wait]
#       -- MW-BATCH-ARGUMENTS (--chapter, --submissions, --out, ...)
#
# 1. `mw-batch --pending` lists the students this run grades: those without
#    a grade in OUT (all of them with --force). None: the gradebook is
#    written here, and that is all.
# 2. A job array, one task per student (`--gres=gpu:1`; the time limit
#    what one student may take at most, `mw-batch --time-limit`), each
#    task the roofs (--roofs, under flock: the timing reads them) and then
#    `mw-batch --student NAME` into OUT: a task without a GPU records why
#    and exits 77.
# 3. A job after it (`--dependency=afterany`), whatever became of the
#    tasks: a student whose task ended with no word of its own (a time
#    limit, a node failure, cancelled) is recorded as not graded with
#    Slurm's reason (`scontrol show job`, else `sacct`), then
#    `mw-batch --merge` writes OUT/gradebook.csv, every student in it.
#
# What each run submitted is in OUT/slurm/<time>-<pid>/: students.txt (the
# array's task i is line i+1), task.sh, merge.sh, jobs.txt and the jobs'
# output. The same command again grades the students still without a grade.
# --wait waits for the gradebook and prints its summary; without it the job
# ids are printed with the commands to follow them. No scheduling of our
# own: Slurm decides where and when each task runs.
set -u

usage() {
    echo "usage: $0 --batch MW-BATCH [--roofs COMMAND] [--partition P] [--account A]" \
        "[--time T] [--constraint C] [--gres G] [--opts OPTS] [--wait] -- MW-BATCH-ARGUMENTS" >&2
    exit 2
}

batch= roofs= partition= account= time= constraint= gres=gpu:1 opts= wait=0
while [ $# -gt 0 ]; do
    case $1 in
    --wait) wait=1; shift; continue ;;
    --) shift; break ;;
    esac
    [ $# -ge 2 ] || usage
    case $1 in
    --batch) batch=$2 ;;
    --roofs) roofs=$2 ;;
    --partition) partition=$2 ;;
    --account) account=$2 ;;
    --time) time=$2 ;;
    --constraint) constraint=$2 ;;
    --gres) gres=$2 ;;
    --opts) opts=$2 ;;
    *) usage ;;
    esac
    shift 2
done
[ -n "$batch" ] && [ $# -gt 0 ] || usage

out=
prev=
for a in "$@"; do
    [ "$prev" = --out ] && out=$a
    prev=$a
done
[ -n "$out" ] || { echo "make grade SLURM=1: no --out given" >&2; exit 2; }
for tool in sbatch scontrol; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "make grade SLURM=1: $tool not found: run it where Slurm's commands are" \
            "(a login node of the cluster), or grade here without SLURM=1" >&2
        exit 2
    }
done

# A word quoted for sh: the task and merge scripts repeat the arguments.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

root=$(pwd)
case $batch in /*) ;; *) batch=$root/$batch ;; esac
mkdir -p "$out" || exit 2
run=$(cd "$out" && pwd)/slurm/$(date -u +%Y%m%d-%H%M%S)-$$
mkdir -p "$run" || exit 2
"$batch" "$@" --pending >"$run/pending.txt" || exit 2
cut -d ' ' -f 2- "$run/pending.txt" >"$run/students.txt"
n=$(wc -l <"$run/students.txt")
if [ "$n" -eq 0 ]; then
    echo "every student in $out is graded already (FORCE=1 grades them again)"
    rm -rf "$run"
    exec "$batch" "$@" --merge
fi
if [ -z "$time" ]; then
    limit=$("$batch" "$@" --time-limit) || exit 2
    time=$(((limit + 59) / 60))
fi

args=
for a in "$@"; do args="$args $(quote "$a")"; done
cat >"$run/task.sh" <<EOF
#!/bin/sh
# One array task of make grade SLURM=1: the student on line
# SLURM_ARRAY_TASK_ID + 1 of students.txt, graded into $(quote "$out").
name=\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" $(quote "$run/students.txt"))
[ -n "\$name" ] || { echo "no student for task \$SLURM_ARRAY_TASK_ID" >&2; exit 2; }
cd $(quote "$root") || exit 2
# The GPU's roofs, which the timing step reads, measured once per kind of
# GPU (make grade measures them on the machine it runs on, which may have
# none); one task at a time, where flock is, so that no two write the file.
if [ -n $(quote "$roofs") ] && command -v flock >/dev/null 2>&1; then
    flock $(quote "$run/../roofs.lock") $roofs >/dev/null 2>&1
elif [ -n $(quote "$roofs") ]; then
    $roofs >/dev/null 2>&1
fi
# A scratch root of the task's, removed however the task ends: Slurm sends
# SIGTERM before it kills a task past its time limit.
scratch=\$(mktemp -d /tmp/mw-batch-task-XXXXXX) || exit 2
chmod 755 "\$scratch"
trap 'rm -rf "\$scratch"' EXIT
trap 'exit 143' TERM INT
MW_BATCH_SCRATCH=\$scratch $(quote "$batch")$args --student "\$name" &
wait \$!
EOF

# Slurm's word for a task that ended without its own; "" where the task
# ended as it chose (it wrote the student's status itself).
cat >"$run/merge.sh" <<EOF
#!/bin/sh
# The gradebook of make grade SLURM=1, after every task of array \$1.
array=\$1
run=$(quote "$run")
cd $(quote "$root") || exit 2
i=0
while IFS= read -r name; do
    task=\${array}_\$i
    state=\$(scontrol -o show job "\$task" 2>/dev/null | tr ' ' '\\n' | sed -n 's/^JobState=//p')
    [ -n "\$state" ] ||
        state=\$(sacct -n -X -P -o State -j "\$task" 2>/dev/null | head -n 1 | cut -d ' ' -f 1)
    case \$state in
    TIMEOUT) why='time limit' ;;
    NODE_FAIL) why='node failure' ;;
    BOOT_FAIL) why='the node failed to boot' ;;
    OUT_OF_MEMORY) why='out of memory' ;;
    PREEMPTED) why='preempted' ;;
    DEADLINE) why='deadline' ;;
    CANCELLED*) why='cancelled' ;;
    FAILED) why='failed' ;;
    PENDING|RUNNING|COMPLETING|REQUEUED|SUSPENDED) why="still \$state" ;;
    *) why= ;;
    esac
    [ -z "\$why" ] || $(quote "$batch")$args --student "\$name" \\
        --ungraded "Slurm task ended: \$why (task \$task; its output: \$run/task-\$task.out)" \\
        >/dev/null
    i=\$((i + 1))
done <$(quote "$run/students.txt")
exec $(quote "$batch")$args --merge
EOF

set -- -J "mw-grade" --chdir="$root"
[ -n "$partition" ] && set -- "$@" --partition="$partition"
[ -n "$account" ] && set -- "$@" --account="$account"
# shellcheck disable=SC2086 # SLURM_OPTS: sbatch options, word by word
array_id=$(sbatch --parsable "$@" ${gres:+--gres="$gres"} --time="$time" \
    ${constraint:+--constraint="$constraint"} $opts --array=0-$((n - 1)) \
    --output="$run/task-%A_%a.out" "$run/task.sh") || {
    echo "make grade SLURM=1: sbatch refused the job array (see above)" >&2
    exit 2
}
array_id=${array_id%%;*}
echo "submitted job array $array_id ($n student(s), --time=$time each${gres:+, --gres=$gres})"
echo "  outputs: $run/"
[ "$wait" -eq 1 ] &&
    echo "waiting for the gradebook (sbatch --wait: the merge job ends after every task)"
# shellcheck disable=SC2086
merge_id=$(sbatch --parsable "$@" --time=30 $opts --dependency=afterany:"$array_id" \
    --output="$run/merge-%j.out" $([ "$wait" -eq 1 ] && echo --wait) "$run/merge.sh" "$array_id")
rc=$?
merge_id=$(printf '%s\n' "$merge_id" | sed -n '1{s/;.*//;p;}')
if [ -z "$merge_id" ]; then
    echo "make grade SLURM=1: sbatch refused the merge job (see above); the tasks run:" \
        "scancel $array_id, or, once they end, write the gradebook with MERGE=1" >&2
    exit 2
fi
printf 'array %s\nmerge %s\n' "$array_id" "$merge_id" >"$run/jobs.txt"
gradebook="$(cd "$out" && pwd)/gradebook.csv"
if [ "$wait" -eq 1 ]; then
    cat "$run/merge-$merge_id.out" 2>/dev/null
    exit $rc
fi
echo "submitted merge job $merge_id (after every task of $array_id): it writes $gradebook"
echo "  follow: squeue -j $array_id,$merge_id; sacct -j $array_id,$merge_id"
echo "  then: the same make grade command grades again the students it lists not graded"
