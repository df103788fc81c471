#!/usr/bin/env bash
# On a GPU: every known-wrong submission in tests/wrong/<chapter>/<name>/ is
# rejected with the exit code and the diagnostic its `expect` file names.
# MW_TEST_CHAPTERS="01-vector-add 02-add-relu" limits it to those chapters.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "every known-wrong submission graded"
wrong_dirs() { known_wrong_dirs ${MW_TEST_CHAPTERS:-}; }
[ -n "$(wrong_dirs)" ] ||
    skip_all "no tests/wrong/ here (the student edition leaves it out)"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
field() { sed -n "s/^$1: *//p" "$2"; }
# The GPU's memory in MiB.
gpu_mib() { nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 | head -n 1; }

# Every submission built first, side by side; then graded one at a time.
for dir in $(wrong_dirs); do
    dir=${dir%/}
    ch=$(basename "$(dirname "$dir")")
    src=$(wrong_source "$dir" "$scratch/derived") || continue # its build is then missing
    echo "$ch $src $scratch/$ch-$(basename "$dir")"
done >"$scratch/list"
build_libs "$scratch/list"

for dir in $(wrong_dirs); do
    dir=${dir%/}
    name=$(basename "$dir")
    ch=$(basename "$(dirname "$dir")")
    expect=$dir/expect
    version=$(field version "$expect")
    want_exit=$(field exit "$expect")
    phrase=$(field diagnostic "$expect")
    timeout=$(field timeout "$expect")
    needs=$(field needs_gib "$expect")
    # `sanitize: 1`: what catches it is make check's sanitizer step.
    quick=$([ "$(field sanitize "$expect")" = 1 ] && echo --quick-sanitize)
    if [ -n "$needs" ] && [ "$(gpu_mib)" -lt $((needs * 1024)) ]; then
        skip "$ch/$name: its case needs $needs GiB; this GPU has $(($(gpu_mib) / 1024))"
        continue
    fi
    lib=$scratch/$ch-$name
    if ! built "$lib"; then
        ok 1 "$ch/$name: builds"
        tail -n 5 "$lib.log" | diag
        continue
    fi
    out=$(build/$ch/mw-chapter check --lib-dir "$lib" --version "$version" \
        --timeout "${timeout:-30}" --seed 7 $quick 2>&1)
    rc=$?
    # `exit: 1 2` accepts either code (docs/writing-a-chapter.md).
    case " $want_exit " in *" $rc "*) exit_ok=0 ;; *) exit_ok=1 ;; esac
    ok $exit_ok "$ch/$name: exit $want_exit (got $rc)"
    printf '%s' "$out" | grep -q -F -- "$phrase"
    ok $? "$ch/$name: says '$phrase'"
    if [ $exit_ok != 0 ] || ! printf '%s' "$out" | grep -q -F -- "$phrase"; then
        printf '%s\n' "$out" | grep -v '^  PASS' | head -n 30 | diag
    fi
    printf '%s' "$out" | tail -n 1 | grep -q -E '^[0-9]+ passed, [0-9]+ failed'
    ok $? "$ch/$name: the last line is the pass/fail count"
done

done_testing
