#!/usr/bin/env bash
# mw-batch builds a submission's versions at once, as many at a time as it
# has CPUs (a Slurm task's or a taskset's, not the node's), each version its
# own make lib: with a stand-in nvcc that notes when each build starts and
# ends and takes two seconds more, the two versions of chapter 01 overlap
# where the batch may use two CPUs or more, and follow one another where it
# may use one. build.log holds the versions' messages in the versions'
# order whatever order they end in, and the versions' own logs are gone from
# the student's folder. On a GPU, each version that does not compile is
# named in the status, in the versions' order. A step that leaves links in
# its scratch folder where the logs are (a build that replaces its own log,
# and the check's, with links to a file only the batch's user may read)
# gets nothing of that file copied into OUT; links where the batch writes
# (build.log, steps.csv) are not written through. Runs with or without a GPU
# (mw-batch --student: without one, the student ends ungraded after the
# build).
. tests/lib.sh
[ -x build/01-vector-add/mw-chapter ] || skip_all "build/01-vector-add/mw-chapter is not built"
[ -x build/tools/mw-batch ] || skip_all "build/tools/mw-batch is not built"
real_nvcc=$(command -v nvcc) || skip_all "nvcc not on the PATH"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
# The stand-in runs as the steps run (user nobody when root): its notes
# folder is open to every user.
mkdir -p "$scratch/bin" "$scratch/notes"
chmod 777 "$scratch/notes"
cat >"$scratch/bin/nvcc" <<EOF
#!/bin/sh
v=
for a in "\$@"; do case \$a in *.cu) v=\$(basename "\$a" .cu) ;; esac; done
[ -n "\$v" ] && echo "start \$v \$(date +%s.%N)" >>$scratch/notes/times
sleep 2
$real_nvcc "\$@"
rc=\$?
[ -n "\$v" ] && echo "end \$v \$(date +%s.%N)" >>$scratch/notes/times
# A build that plants links where the batch will read logs: its own log,
# and the check's, to the batch user's secret (HOME is the scratch folder).
for a in "\$@"; do
    case \$a in
    *02_fast.cu) if grep -q PLANT-LINKS "\$a"; then
                     rm -f "\$HOME/build-02_fast.log"
                     ln -s $scratch/secret "\$HOME/build-02_fast.log"
                     ln -s $scratch/secret "\$HOME/check.log"
                 fi
                 if grep -q PLANT-WRITE-LINKS "\$a"; then
                     rm -f "\$HOME/build.log"
                     ln -s $scratch/victim "\$HOME/build.log"
                     ln -s $scratch/victim "\$HOME/steps.csv"
                 fi ;;
    esac
done
exit \$rc
EOF
chmod 755 "$scratch/bin/nvcc"
class=$scratch/class
mkdir -p "$class/ann" "$class/ben"
cp exercises/01-vector-add/01_naive.cu exercises/01-vector-add/02_fast.cu "$class/ann/"
printf '#error the first version is broken\n' >"$class/ben/01_naive.cu"
printf '#error the second version is broken\n' >"$class/ben/02_fast.cu"
mkdir -p "$class/cat"
cp exercises/01-vector-add/01_naive.cu exercises/01-vector-add/02_fast.cu "$class/cat/"
echo '// PLANT-LINKS' >>"$class/cat/02_fast.cu"
chmod -R a+rX "$scratch"
mkdir -p "$class/dan"
cp exercises/01-vector-add/01_naive.cu exercises/01-vector-add/02_fast.cu "$class/dan/"
echo '// PLANT-WRITE-LINKS' >>"$class/dan/02_fast.cu"
chmod -R a+rX "$scratch"
# Readable and writable by the batch's user alone (root, whose steps run as
# nobody).
echo "secret-$$-of-the-batch-user" >"$scratch/secret"
echo "the batch user's file" >"$scratch/victim"
chmod 600 "$scratch/secret" "$scratch/victim"

grade() { # grade STUDENT OUT [launcher...]: one student, as a worker's child does
    local who=$1 out=$2
    shift 2
    rm -f "$scratch/notes/times"
    PATH=$scratch/bin:$PATH "$@" build/tools/mw-batch --chapter 01-vector-add \
        --submissions "$class" --out "$out" --student "$who" >"$scratch/log" 2>&1
}
# overlap: whether the second build started before the first ended (exit
# 2: a build not noted).
overlap() {
    awk '$1 == "start" { s[$2] = $3 } $1 == "end" { e[$2] = $3 }
         END { if (!("01_naive" in s) || !("02_fast" in s) || !("01_naive" in e) || !("02_fast" in e)) exit 2
               first = s["01_naive"] < s["02_fast"] ? "01_naive" : "02_fast"
               second = first == "01_naive" ? "02_fast" : "01_naive"
               exit !(s[second] < e[first]) }' "$scratch/notes/times"
}

cpus=$(nproc)
grade ann "$scratch/out"
if [ "$cpus" -ge 2 ]; then
    overlap
    ok $? "on $cpus CPUs, the two versions build at once" || diag <"$scratch/notes/times"
else
    skip "one CPU here: the builds cannot overlap"
fi
if command -v taskset >/dev/null 2>&1; then
    grade ann "$scratch/out-one" taskset -c "$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')"
    overlap
    ok "$([ $? -eq 1 ] && echo 0 || echo 1)" "held to one CPU, they build one after the other" ||
        diag <"$scratch/notes/times"
else
    skip "no taskset"
fi

grade ben "$scratch/out"
log=$scratch/out/students/ben/build.log
first=$(grep -n 'the first version is broken' "$log" | head -n 1 | cut -d: -f1)
second=$(grep -n 'the second version is broken' "$log" | head -n 1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ]
ok $? "build.log: both versions' messages, 01_naive's first (lines ${first:-none} and ${second:-none})" ||
    diag <"$log"
[ -s "$scratch/out/students/ann/build.log" ] &&
    ! ls "$scratch/out/students/ben" "$scratch/out/students/ann" | grep -q '^build-'
ok $? "no version's own log is left beside build.log" || ls "$scratch/out/students/ben" | diag
grade cat "$scratch/out"
[ -s "$scratch/out/students/cat/build.log" ] && grep -q 01_naive "$scratch/out/students/cat/build.log" &&
    ! grep -r -q "secret-$$-of-the-batch-user" "$scratch/out/students/cat"
ok $? "links left where the logs are: nothing of what they point at is copied into OUT" ||
    { ls -l "$scratch/out/students/cat"; cat "$scratch/out/students/cat/build.log"; } | diag
grade dan "$scratch/out"
[ "$(cat "$scratch/victim")" = "the batch user's file" ] && [ -s "$scratch/out/students/dan/not-graded.txt" -o -s "$scratch/out/students/dan/score.csv" ]
ok $? "links left where the batch writes (build.log, steps.csv): it writes nothing through them" ||
    diag <"$scratch/victim"
if have_gpu; then
    # One student (--student) writes no gradebook: the status is in score.csv.
    grep -q '01_naive does not compile; 02_fast does not compile' "$scratch/out/students/ben/score.csv"
    ok $? "the status names both versions, in order" || diag <"$scratch/out/students/ben/score.csv"
else
    skip "no GPU: the student ends ungraded, with no build status"
fi
done_testing
