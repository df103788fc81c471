#!/usr/bin/env bash
# Every chapter builds for every NVIDIA GPU from sm_70 on (no GPU needed):
# (a) for each architecture, `make -n build` builds every version's library
# except those whose header says they need a newer one (" * Needs: sm_80
# (...)"), whose NN.skip marker it writes instead, and the chapters' own
# kernels and the grader's always; (b) long: every kernel source compiles
# with the Makefile's nvcc flags for each architecture it is built for, one
# nvcc per file with a -gencode pair per architecture (-c, no link); an
# architecture this nvcc cannot build (sm_70 after CUDA 12) is skipped,
# saying so; (c) the marker make writes says what is needed and for what it
# was built, the line check reports for each case (its reader is
# unit-tested in test_grader: mw-chapter check needs a GPU first).
. tests/lib.sh

archs="sm_70 sm_75 sm_80 sm_86 sm_89 sm_90a"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# needs_newer LEVEL: the sources whose header needs more than sm_LEVEL, or
# an architecture-specific target (sm_90a) of another level than LEVEL.
needs_newer() {
    grep -s -m1 -H -E '^ \* Needs: sm_[0-9]+' solutions/*/*.cu exercises/*/*.cu |
        sed -n 's/^\([^:]*\.cu\): \* Needs: sm_\([0-9]*\)\(a\{0,1\}\).*/\2 x\3 \1/p' |
        awk -v level="$1" '($2 == "xa" ? $1 != level : $1 > level) { print $3 }' | sort
}
level_of() { echo "${1#sm_}" | sed 's/[^0-9].*//'; }

# (a) what make would build, per architecture.
for arch in $archs; do
    b=$scratch/$arch
    mkdir -p "$b" && echo "$arch" >"$b/.arch" # make -n writes no stamp
    make -n --no-print-directory build ARCH="$arch" BUILD="$b" >"$scratch/plan" 2>&1
    ok $? "$arch: make -n build" || { tail -n 5 "$scratch/plan" | diag; continue; }
    # The libraries and markers the plan writes (mkdir and rm lines aside).
    grep -v -E '^(mkdir|rm) ' "$scratch/plan" |
        grep -o -E "$b/(solutions|exercises)/[^ ]+\.(so|skip)\b" | sed "s|^$b/||" | sort -u \
        >"$scratch/built"
    want_skip=$(needs_newer "$(level_of "$arch")")
    : >"$scratch/want"
    for f in solutions/*/*.cu exercises/*/*.cu; do
        [ -e "$f" ] || continue # the student edition has no solutions/
        if printf '%s\n' $want_skip | grep -qx "$f"; then
            echo "${f%.cu}.skip"
        else
            echo "${f%.cu}.so"
        fi
    done | sort >"$scratch/want"
    diff "$scratch/want" "$scratch/built" >"$scratch/diff"
    ok $? "$arch: a library for every version, a marker for those that need a newer GPU" ||
        diag <"$scratch/diff"
    expect=
    for src in solutions exercises; do
        case $arch in
        sm_7*) bf16=$src/05-attention/03_flash_bf16 ;;
        *) bf16= ;;
        esac
        [ -n "$bf16" ] && [ -e $bf16.cu ] && expect="${expect:+$expect }$bf16.skip"
        # 05.4 is built for sm_90a alone (and sm_90, whose GPUs run it).
        wgmma=$src/05-attention/04_flash_wgmma
        case $arch in
        sm_90*) ;;
        *) [ -e $wgmma.cu ] && expect="${expect:+$expect }$wgmma.skip" ;;
        esac
    done
    got=$(grep '\.skip$' "$scratch/built" | sort | tr '\n' ' ')
    want=$(for x in $expect; do echo "$x"; done | sort | tr '\n' ' ')
    [ "$got" = "$want" ]
    ok $? "$arch: skipped: ${expect:-nothing}" || diag "skipped: ${got:-nothing}"
    # A solution "Tuned for: sm_90a" is built for sm_90a with
    # MW_ARCH_SPECIFIC=90 where the level is 90, as any other elsewhere.
    for f in $(grep -s -l -E '^ \* Tuned for: sm_90a' solutions/*/*.cu); do
        line=$(grep -E -- "-o $b/${f%.cu}\.so " "$scratch/plan" | head -n 1)
        case $arch in
        sm_90*) printf '%s' "$line" | grep -q -- '-DMW_ARCH_SPECIFIC=90' &&
            printf '%s' "$line" | grep -q -- 'code=sm_90a' ;;
        *) [ -n "$line" ] && ! printf '%s' "$line" | grep -q -- 'MW_ARCH_SPECIFIC' ;;
        esac
        ok $? "$arch: $f (tuned for sm_90a) built $(case $arch in sm_90*) echo with ;; *) echo without ;; esac) its sm_90a path" ||
            diag "${line:-no nvcc line for $f}"
    done
    missing=
    for f in chapters/*/*.cu; do
        [ -e "$f" ] || continue # the student edition ships them compiled (*.cu.o)
        ch=$(basename "$(dirname "$f")")
        grep -q -- "-o $b/$ch/$(basename "$f").o\b" "$scratch/plan" || missing="$missing $f"
    done
    grep -q -- "-o $b/grader/device.o\b" "$scratch/plan" || missing="$missing grader/device.cu"
    [ -z "$missing" ]
    ok $? "$arch: the chapters' own kernels and the grader's are built" || diag "not built:$missing"
done

# (c) the marker's line.
b=$scratch/sm_75
bf16=$(ls solutions/*/*.cu >/dev/null 2>&1 && echo solutions || echo exercises)/05-attention/03_flash_bf16
make -s --no-print-directory ARCH=sm_75 BUILD="$b" "$b/$bf16.skip" >"$scratch/out" 2>&1
ok $? "make writes 05.3's marker for sm_75" || diag <"$scratch/out"
line=$(cat "$b/$bf16.skip" 2>/dev/null)
case $line in
"needs sm_80 or newer ("*"mma.sync"*"); built for sm_75") ok 0 "the marker: $line" ;;
*) ok 1 "the marker names sm_80, why, and sm_75" || diag "marker: '$line'" ;;
esac
[ ! -e "$b/$bf16.so" ]
ok $? "no library beside the marker"

# 05.4 needs sm_90a, an architecture-specific target: a later GPU gets the
# marker too, and sm_90 builds it for compute_90a, never compute_90.
wgmma=${bf16%/*}/04_flash_wgmma
if [ -e "$wgmma.cu" ]; then
    b=$scratch/sm_100
    make -s --no-print-directory ARCH=sm_100 BUILD="$b" "$b/$wgmma.skip" >"$scratch/out" 2>&1
    ok $? "make writes 05.4's marker for sm_100" || diag <"$scratch/out"
    line=$(cat "$b/$wgmma.skip" 2>/dev/null)
    case $line in
    "needs sm_90a ("*"wgmma"*"), that architecture alone; built for sm_100") ok 0 "the marker: $line" ;;
    *) ok 1 "the marker names sm_90a, why, and sm_100" || diag "marker: '$line'" ;;
    esac
    b=$scratch/sm_90
    mkdir -p "$b" && echo sm_90 >"$b/.arch" # make -n writes no stamp
    make -n --no-print-directory ARCH=sm_90 BUILD="$b" "$b/$wgmma.so" >"$scratch/plan" 2>&1
    grep -F -- "$wgmma.cu" "$scratch/plan" | grep -q -- '-gencode arch=compute_90a,code=sm_90a' &&
        ! grep -F -- "$wgmma.cu" "$scratch/plan" | grep -q -- 'compute_90,'
    ok $? "sm_90 builds 05.4 for compute_90a alone" || diag <"$scratch/plan"
fi

# (b) every kernel source compiles for every architecture it is built for.
if ! long_tests; then
    skip_long "every kernel source compiles for $archs"
    done_testing
    exit
fi
command -v nvcc >/dev/null 2>&1 || { skip "nvcc not installed"; done_testing; exit; }
# The Makefile's flags, less its one -gencode pair and the dependency files.
flags=$(make -pn --no-print-directory ARCH=sm_90 BUILD="$scratch/flags" help 2>/dev/null |
    sed -n 's/^NVFLAGS := //p' | sed -e 's/-gencode [^ ]*//' -e 's/-MMD//' -e 's/-MP//')
[ -n "$flags" ]
ok $? "the Makefile's nvcc flags: $flags"
# nvcc lists compute_90, not the arch-specific compute_90a it also builds.
supported=$(nvcc --list-gpu-arch 2>/dev/null)
can_build() { printf '%s\n' "$supported" | grep -qx "compute_$(level_of "$1")"; }
for arch in $archs; do
    can_build "$arch" ||
        skip "$arch: this nvcc ($(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'))" \
            "cannot build it"
done
for f in chapters/*/*.cu grader/*.cu solutions/*/*.cu exercises/*/*.cu; do
    [ -e "$f" ] || continue
    gencode= built_for=
    for arch in $archs; do
        num=${arch#sm_}
        can_build "$arch" || continue
        needs_newer "$(level_of "$arch")" | grep -qx "$f" && continue
        gencode="$gencode -gencode arch=compute_$num,code=sm_$num"
        built_for="$built_for $arch"
    done
    [ -n "$gencode" ] || continue
    inc=
    case $f in
    chapters/* | solutions/* | exercises/*) inc=-Ichapters/$(basename "$(dirname "$f")") ;;
    esac
    # shellcheck disable=SC2086 # flags and gencodes are words
    nvcc $flags $inc $gencode -c "$f" -o "$scratch/kernel.o" >"$scratch/out" 2>&1
    ok $? "$f compiles for$built_for" || head -n 20 "$scratch/out" | diag
done
done_testing
