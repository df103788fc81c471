#!/bin/sh
# tests/slurm/cluster.sh start DIR | stop DIR: a one-node Slurm cluster on
# this machine, for the tests of make grade SLURM=1 (t0307). Everything it
# runs and writes is in DIR: a munge key and socket, slurm.conf and
# gres.conf, the daemons' state, spool, logs and pid files. `start` prints
# the line to give the clients (SLURM_CONF=DIR/slurm.conf) and waits until
# the node takes jobs; `stop` ends the daemons it started, by their pid
# files. Needs root (slurmd runs jobs as their users), munged, slurmctld,
# slurmd and the clients (sbatch, squeue, scontrol). Ports: SLURM_TEST_PORT
# (slurmctld; slurmd takes the next), by default one picked from the pid.
#
# Without a GPU the node has one in name only: gres.conf gives it `gpu` with
# /dev/null for a device file, so that --gres=gpu:1 is accepted and
# scheduled as on a cluster, and the job still sees no GPU, which is what
# the tests check. With GPUs (/dev/nvidia0 ...), the node has them all, and
# Slurm gives each task its own (CUDA_VISIBLE_DEVICES).
set -u
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

stop() {
    for d in slurmd slurmctld munged; do
        pid=$(cat "$dir/$d.pid" 2>/dev/null) || continue
        kill "$pid" 2>/dev/null
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.3; done
        kill -9 "$pid" 2>/dev/null
        rm -f "$dir/$d.pid"
    done
    return 0
}

if [ "$cmd" = stop ]; then
    stop
    exit 0
fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

for tool in munged slurmctld slurmd sbatch scontrol; do
    command -v "$tool" >/dev/null 2>&1 ||
        [ -x "/usr/sbin/$tool" ] || { echo "$tool is not installed" >&2; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "a Slurm cluster of one node needs root (slurmd)" >&2; exit 77; }
PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" "$dir/munge" || exit 2
dir=$(cd "$dir" && pwd)
chmod 700 "$dir/munge"

# munge: its own key and socket, so that no system munged is needed or
# touched.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munge/munge.seed" || { echo "munged did not start" >&2; exit 2; }

port=${SLURM_TEST_PORT:-$((20000 + $$ % 20000))}
# The device files by number, as they are (a container may hold
# /dev/nvidia2 and /dev/nvidia5 alone): /dev/nvidia[2,5].
numbers=$(ls /dev/ 2>/dev/null | sed -n 's/^nvidia\([0-9][0-9]*\)$/\1/p' | sort -n | paste -sd, -)
gpus=$(echo "$numbers" | tr , '\n' | grep -c .)
if [ "$gpus" -gt 0 ]; then
    gres_line="Name=gpu File=/dev/nvidia[$numbers]"
else
    gpus=1 gres_line="Name=gpu File=/dev/null"
fi
cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
node="NodeName=mwnode NodeHostname=$(hostname -s) NodeAddr=127.0.0.1"
cat >"$dir/slurm.conf" <<EOF
ClusterName=mwtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
GresTypes=gpu
MinJobAge=600
KillWait=5
$node CPUs=$cpus RealMemory=$mem Gres=gpu:$gpus State=UNKNOWN
PartitionName=mwtest Nodes=mwnode Default=YES MaxTime=INFINITE State=UP
EOF
echo "$gres_line" >"$dir/gres.conf"

export SLURM_CONF="$dir/slurm.conf"
failed() { echo "$1 did not start (see $dir/$1.log)" >&2; stop; exit 2; }
slurmctld -i -f "$dir/slurm.conf" || failed slurmctld
# slurmd of Slurm 23 and later sets up cgroups for its job steps even where
# no plugin of slurm.conf uses them, through systemd's D-Bus, which a
# container has not. Where it fails so, cgroup.conf (read from beside
# slurm.conf) tells it another way, the first of these it starts with:
# none at all (24.05 and later), cgroup v1's (set up only when used), or
# v2's without systemd.
started_slurmd() {
    slurmd -N mwnode -f "$dir/slurm.conf" && return 0
    for way in 'CgroupPlugin=disabled' 'CgroupPlugin=cgroup/v1' \
        'CgroupPlugin=cgroup/v2
IgnoreSystemd=yes'; do
        grep -q cgroup "$dir/slurmd.log" 2>/dev/null || return 1
        printf '%s\n' "$way" >"$dir/cgroup.conf"
        echo "slurmd: cgroup.conf: $(echo $way)" >>"$dir/slurmd.log"
        slurmd -N mwnode -f "$dir/slurm.conf" && return 0
    done
    return 1
}
started_slurmd || failed slurmd
for _ in $(seq 1 60); do
    state=$(sinfo -h -n mwnode -o %t 2>/dev/null)
    case $state in
    idle*|mix*|alloc*) echo "SLURM_CONF=$dir/slurm.conf"; exit 0 ;;
    esac
    sleep 0.5
done
echo "the node did not come up (state '$state'; see $dir/slurmctld.log, $dir/slurmd.log)" >&2
stop
exit 2
