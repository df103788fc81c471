# lib.sh: TAP helpers for the project's shell tests (sourced, run from the
# repository root by `prove tests/`).

T_COUNT=0
T_FAILED=0

plan() { echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }

ok() { # ok CONDITION_STATUS NAME
    T_COUNT=$((T_COUNT + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $T_COUNT - $2"
    else
        echo "not ok $T_COUNT - $2"
        T_FAILED=$((T_FAILED + 1))
    fi
}

skip() { T_COUNT=$((T_COUNT + 1)); echo "ok $T_COUNT # SKIP $*"; }

# diag TEXT...: comment lines; with no arguments, comments standard input.
diag() {
    if [ $# -gt 0 ]; then printf '%s\n' "$@"; else cat; fi | sed 's/^/# /'
}

done_testing() {
    echo "1..$T_COUNT"
    [ "$T_FAILED" -eq 0 ]
}

# The chapter programs, built by `make build` (make test builds them first).
chapters() { for d in chapters/[0-9][0-9]-*/; do d=${d%/}; echo "${d#chapters/}"; done; }

# Sets GPU_REASON and fails when there is no usable CUDA GPU.
have_gpu() {
    local first out
    first=$(chapters | head -n 1)
    out=$(build/"$first"/mw-grade info 2>&1)
    local rc=$?
    GPU_REASON=$(printf '%s' "$out" | head -n 1)
    [ $rc -eq 0 ]
}

# Builds one kernel file into a folder of its own, as `make` builds exercises.
build_lib() { # build_lib CHAPTER SOURCE.cu OUTDIR
    make -s --no-print-directory lib CH="$1" KERNEL="$2" LIBDIR="$3"
}
