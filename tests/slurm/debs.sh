#!/bin/sh
# tests/slurm/debs.sh fetch DIR [SOURCES] | install DIR: Slurm and munge
# for a machine without a package registry (a GPU machine reached through a
# device tool that carries files, not the network). `fetch`, where apt
# works, downloads into DIR the .deb files of slurmctld, slurmd,
# slurm-client and munge with everything they depend on (about 60 files,
# 17 MB, most of them installed on any Debian already); `install`, on the
# other machine (root), installs those of them that are not installed there
# yet, with dpkg. The packages must be of the other machine's release: by
# default this machine's; SOURCES, a sources.list file naming another
# (`deb [trusted=yes] http://archive.ubuntu.com/ubuntu noble main universe`,
# and its -updates suite), makes apt read that release's package lists
# into a folder of their own, apart from this machine's. Then tests/slurm/cluster.sh
# starts a cluster there, and make grade SLURM=1 grades on it.
set -eu
cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 fetch|install DIR" >&2; exit 2; }
packages="slurmctld slurmd slurm-client munge"

case $cmd in
fetch)
    mkdir -p "$dir"
    apt_options=
    if [ -n "${3:-}" ]; then
        state=$(mktemp -d)
        trap 'rm -rf "$state"' EXIT
        mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
        apt_options="-o Dir::Etc::SourceList=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
            -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$state/lists
            -o Dir::Cache=$state/cache -o Dir::State::status=$state/status"
        # An empty list of what is installed: the other release's versions
        # are the candidates even where this machine has a newer one.
        : >"$state/status"
        # shellcheck disable=SC2086 # one option a word
        apt-get -q $apt_options update >/dev/null
    fi
    # What they depend on, the first of each set of alternatives only
    # (apt-cache marks "A | B" with a '|' before A): the others may conflict
    # with what is installed (libelogind0 with libsystemd0).
    closure=
    todo=$packages
    while [ -n "$todo" ]; do
        next=
        for p in $todo; do
            case " $closure " in *" $p "*) continue ;; esac
            closure="$closure $p"
            # shellcheck disable=SC2086
            next="$next $(apt-cache $apt_options depends --no-recommends --no-suggests --no-conflicts \
                --no-breaks --no-replaces --no-enhances "$p" |
                awk 'skip { skip = 0; next } /^ *\|/ { skip = 1 }
                     /Depends:/ && $2 !~ /^</ { print $2 }')"
        done
        todo=$next
    done
    # shellcheck disable=SC2086 # one package name a word
    (cd "$dir" && apt-get $apt_options download -q $closure)
    echo "$(ls "$dir"/*.deb | wc -l) packages in $dir ($(du -sh "$dir" | cut -f 1))"
    ;;
install)
    missing=
    for deb in "$dir"/*.deb; do
        name=$(dpkg-deb -f "$deb" Package)
        status=$(dpkg-query -W -f='${Status}' "$name" 2>/dev/null || true)
        [ "$status" = "install ok installed" ] || missing="$missing $deb"
    done
    if [ -z "$missing" ]; then
        echo "every package is installed already"
        exit 0
    fi
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive dpkg -i $missing >/dev/null
    for tool in sbatch slurmctld slurmd munged; do
        command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] ||
            { echo "$tool is still missing" >&2; exit 2; }
    done
    echo "installed:$(for d in $missing; do printf ' %s' "$(dpkg-deb -f "$d" Package)"; done)"
    ;;
*)
    echo "usage: $0 fetch|install DIR" >&2
    exit 2
    ;;
esac
