# lib.sh: TAP helpers for the project's shell tests (sourced, run from the
# repository root by `prove tests/`).

T_COUNT=0
T_FAILED=0

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# ok CONDITION_STATUS NAME: one TAP point. Returns 1 when it failed, so
# that `ok $? name || diag ...` shows why.
ok() {
    T_COUNT=$((T_COUNT + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $T_COUNT - $2"
    else
        echo "not ok $T_COUNT - $2"
        T_FAILED=$((T_FAILED + 1))
        return 1
    fi
}

# skip_all_unless_full_tree TOOL...: the tests that make a student edition
# run in the full tree only: not inside an edition (t0310 runs the
# edition's own tests there; it has no solutions/ to leave out), and only
# with the tools named.
skip_all_unless_full_tree() {
    [ -n "${MW_DIST_INNER:-}" ] && skip_all "inside a student edition that t0310 is testing"
    ls solutions/*/*.cu >/dev/null 2>&1 ||
        skip_all "no solutions/ here: this is a student edition already"
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || skip_all "$tool not installed"
    done
}

# skip_all_unless_sim_compiler: the CPU emulation compiles kernel files with
# the C++ compiler the Makefile names (SIM_CXX); without it, skip the file.
skip_all_unless_sim_compiler() {
    command -v "$(make -s --no-print-directory --eval 'print-%: ; @echo $($*)' print-SIM_CXX)" \
        >/dev/null 2>&1 || skip_all "g++ not installed: the emulation compiles kernel files with it"
}

# skip_all_unless_known_wrongs: the known-wrong submissions are here (the
# student edition leaves tests/wrong/ out).
skip_all_unless_known_wrongs() {
    [ -d tests/wrong ] || skip_all "no tests/wrong/ here (the student edition leaves it out)"
}

skip() { T_COUNT=$((T_COUNT + 1)); echo "ok $T_COUNT # SKIP $*"; }

# For the tests of the emulation's samples (t0153 to t0155):
# sample_lines: the lines of the cases run on a sample of their blocks.
sample_lines() { grep -E '\(emulated on a sample: [0-9]+ of [0-9]+ blocks\)$'; }
# on_sample REGEX: how many lines of $out match ^  REGEX (after the
# two-space indent) and ran on a sample.
on_sample() { printf '%s\n' "$out" | grep -E "^  $1" | sample_lines | grep -c .; }
# sim_check CHAPTER LIBDIR VERSION ARGS...: one version's emulated check at
# seed 7, its output in $out and its exit code in $rc.
sim_check() {
    local ch=$1 lib=$2 version=$3
    shift 3
    out=$(build/sim/$ch/mw-chapter check --lib-dir "$lib" --version "$version" --seed 7 "$@" 2>&1)
    rc=$?
}
# no_failure: $out holds no failed, erring or crashed case.
no_failure() { ! printf '%s\n' "$out" | grep -q -E '^  (FAIL|ERROR)|crashed'; }
# built_or_say LIB WHAT: 0 when LIB was built for the emulation
# (build_sim_libs); else a failed test that says WHAT does not build, with
# the end of LIB.log.
built_or_say() {
    built "$1" && return 0
    ok 1 "$2 builds for the emulation"
    tail -n 5 "$1.log" | diag
    return 1
}

# diag TEXT...: comment lines; with no arguments, comments standard input.
diag() {
    if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi | sed 's/^/# /'
}

done_testing() {
    echo "1..$T_COUNT"
    [ "$T_FAILED" -eq 0 ]
}

# Two tiers, as git's GIT_TEST_LONG: `make test` runs the fast one and
# skips the long tests, saying so; `make test-full` (MW_TEST_LONG=1, also
# for one file: MW_TEST_LONG=1 prove tests/t0110-build.t) runs them too.
LONG_REASON='long test: run make test-full (or MW_TEST_LONG=1)'
long_tests() { [ "${MW_TEST_LONG:-}" = 1 ]; }
# long_file [WHAT]: a file that is long as a whole skips itself in the fast tier.
long_file() { long_tests || skip_all "$LONG_REASON${1:+: $1}"; }
# skip_long WHAT: one skipped point for a long part the fast tier leaves out.
skip_long() { skip "$LONG_REASON: $*"; }

# The chapter programs, built by `make build` (make test builds them first).
chapters() { for d in chapters/[0-9][0-9]-*/; do d=${d%/}; echo "${d#chapters/}"; done; }

# Sets GPU_REASON and fails when there is no usable CUDA GPU.
have_gpu() {
    local first out
    first=$(chapters | head -n 1)
    out=$(build/"$first"/mw-chapter info 2>&1)
    local rc=$?
    GPU_REASON=$(printf '%s' "$out" | head -n 1)
    [ $rc -eq 0 ]
}

# private_batch_scratch DIR: mw-batch makes its scratch folders in DIR
# (MW_BATCH_SCRATCH), which the steps' user may enter, so that a test's
# check that none is left behind sees no other run's.
private_batch_scratch() {
    export MW_BATCH_SCRATCH=$1
    mkdir -p "$1" && chmod 755 "$1"
}

# Builds one kernel file into a folder of its own, as `make` builds exercises.
build_lib() { # build_lib CHAPTER SOURCE.cu OUTDIR
    make -s --no-print-directory lib CH="$1" KERNEL="$2" LIBDIR="$3"
}

# known_wrong_dirs [CHAPTER...]: the known-wrong submissions, one folder
# tests/wrong/<chapter>/<name> a line (all chapters by default). A folder
# is one when it holds an `expect` file: a folder without one (a shared
# base of one-changes, tests/wrong/<chapter>/base) is no submission.
known_wrong_dirs() {
    local ch dir
    for ch in ${*:-$(ls tests/wrong 2>/dev/null)}; do
        for dir in tests/wrong/"$ch"/*/; do
            if [ -f "$dir/expect" ]; then echo "${dir%/}"; fi
        done
    done
}

# wrong_source DIR OUT: the file of the known-wrong submission in DIR
# (tests/wrong/<chapter>/<name>/). It is DIR/<version>.cu, or, where DIR
# holds a file `one-change` instead, a base file with one hunk replaced,
# written to OUT/<name>/<version>.cu. The base is the chapter's reference
# solution solutions/<chapter>/<version>.cu, or the file a `base: PATH`
# line names (PATH from the repository root: a simple student-style kernel
# that several known-wrongs share). After any "#" comments and the base
# line, `one-change` gives the hunk: its consecutive lines as they are
# ("-" then the line, one or more) and then as they become ("+" then the
# line, none or more). So a mistake planted in a long file follows that
# file as it changes, and reads as the few lines it changes. Fails, saying
# why on stderr, when the base is missing or the lines are not in it, as
# consecutive lines, exactly once.
wrong_source() {
    local dir=${1%/} out=$2 version ch name base
    version=$(sed -n 's/^version: *//p' "$dir/expect")
    if [ ! -f "$dir/one-change" ]; then
        echo "$dir/$version.cu"
        return 0
    fi
    ch=$(basename "$(dirname "$dir")") name=$(basename "$dir")
    base=$(sed -n 's/^base: *//p' "$dir/one-change")
    base=${base:-solutions/$ch/$version.cu}
    if [ ! -f "$base" ]; then
        echo "$dir/one-change: its base $base is missing" >&2
        return 1
    fi
    mkdir -p "$out/$name" || return 1
    perl -e '
        my ($change, $src) = @ARGV;
        open my $c, "<", $change or die "$change: $!\n";
        my (@old, @new);
        while (<$c>) {
            chomp;
            next if /^#/ || /^\s*$/ || /^base:/;
            if (s/^-//) {
                die "$change: a -old line after the +new ones: one hunk is its -old lines, then its +new lines\n" if @new;
                push @old, $_;
            } elsif (s/^\+//) {
                push @new, $_;
            } else {
                die "$change: a line that is neither a comment, base:, -old nor +new: $_\n";
            }
        }
        die "$change: needs at least one -old line (the lines the hunk replaces)\n" unless @old;
        open my $s, "<", $src or die "$src: $!\n";
        my @lines = map { chomp; $_ } <$s>;
        my @at;
        for my $i (0 .. @lines - @old) {
            push @at, $i unless grep { $lines[$i + $_] ne $old[$_] } 0 .. $#old;
        }
        my $what = @old == 1 ? "the line to change is" : "the " . @old . " lines to change (in a row) are";
        die "$change: $what not in $src: $old[0]\n" unless @at;
        die "$change: $what in $src " . @at . " times, not once: $old[0]\n" unless @at == 1;
        splice @lines, $at[0], scalar @old, @new;
        print map { "$_\n" } @lines;
    ' "$dir/one-change" "$base" >"$out/$name/$version.cu" || return 1
    echo "$out/$name/$version.cu"
}

# build_libs LIST: build_lib for each line "CHAPTER SOURCE.cu OUTDIR" of
# LIST (no spaces in them), as many at a time as there are cores; each
# build's output goes to OUTDIR.log and its exit status to OUTDIR.rc.
build_libs() {
    xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 sh -c \
        'mkdir -p "$3" && make -s --no-print-directory lib CH="$1" KERNEL="$2" LIBDIR="$3" >"$3.log" 2>&1; echo $? >"$3.rc"' sh <"$1"
}
# built OUTDIR: the exit status build_libs recorded for OUTDIR (1 if none).
built() { return "$(cat "$1.rc" 2>/dev/null || echo 1)"; }

# check_traffic CHAPTER TRAFFIC.csv: one TAP point per line of the
# chapter's traffic-expect file (docs/writing-a-chapter.md, "Traffic
# expectations"), against measured DRAM bytes (rows whose source is ncu);
# a skip where the row was not measured (no solutions/, no cuDNN, no ncu).
check_traffic() {
    local ch=$1 tcsv=$2 kind impl size op want other got base
    [ -f "chapters/$ch/traffic-expect" ] || return 0
    while read -r kind impl size op want other; do
        case $kind in '' | '#'*) continue ;; esac
        got=$(traffic_value "$tcsv" "$kind" "$impl" "$size")
        base=1
        [ -n "$other" ] && base=$(traffic_value "$tcsv" bytes "$other" "$size")
        if [ -z "$got" ] || [ -z "$base" ]; then
            skip "$ch: $impl${other:+ or $other} not measured at size $size (no solutions/, cuDNN or ncu here?)"
            continue
        fi
        awk -v g="$got" -v b="$base" -v w="$want" -v op="$op" 'BEGIN {
            r = g / b
            exit !(op == "~" ? r > 0.95 * w && r < 1.05 * w : op == "<" ? r < w : r > w) }'
        ok $? "$ch: $impl $( [ "$kind" = ratio ] && echo "moves $got x the minimum" || echo "moves $got bytes, $other $base") at size $size (expected $op $want${other:+ x $other})"
    done <"chapters/$ch/traffic-expect"
}
# traffic_value FILE ratio|bytes IMPL SIZE: measured/model, or measured bytes.
traffic_value() {
    awk -F, -v k="$2" -v i="$3" -v n="$4" 'NR > 1 && $2 == i && $4 == n && $12 == "ncu" {
        print k == "ratio" ? ($8 + $9) / ($6 + $7) : $8 + $9 }' "$1" 2>/dev/null
}

# The CPU emulation (grader/sim/): its compiler and flags, as the build
# has them (grader/sim/sim.mk), for the steps of host.mk's sim_so.
sim_flags() {
    local v
    for v in SIM_CXX SIM_KFLAGS; do
        make -s --no-print-directory --eval 'print-%: ; @echo $($*)' "print-$v"
    done
}
# build_sim_lib CHAPTER SOURCE.cu OUTDIR: one kernel file for the emulation,
# as host.mk's sim_so builds it: rewritten by mw-simcc, compiled, linked
# into OUTDIR/<version>.so. Needs build/sim/tools/mw-simcc and SIM_CXX and
# SIM_KFLAGS set (sim_flags).
build_sim_lib() {
    local ch=$1 src=$2 out=$3 base
    base=$out/$(basename "${2%.cu}")
    mkdir -p "$out" && build/sim/tools/mw-simcc "$src" "$base.cpp" &&
        $SIM_CXX $SIM_KFLAGS -Ichapters/"$ch" -Igrader -c "$base.cpp" -o "$base.o" &&
        $SIM_CXX -shared -o "$base.so" "$base.o"
}
# build_sim_libs LIST: build_sim_lib for each line "CHAPTER SOURCE.cu
# OUTDIR" of LIST, as many at a time as there are cores; OUTDIR.log and
# OUTDIR.rc as build_libs writes them (built reads them).
build_sim_libs() {
    local flags
    flags=$(sim_flags) || return 1
    SIM_CXX=$(printf '%s\n' "$flags" | sed -n 1p) SIM_KFLAGS=$(printf '%s\n' "$flags" | sed -n 2p) \
        MW_LIB_SH=tests/lib.sh xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 bash -c \
        '. "$MW_LIB_SH"; build_sim_lib "$@" >"$3.log" 2>&1; echo $? >"$3.rc"' sh <"$1"
}
