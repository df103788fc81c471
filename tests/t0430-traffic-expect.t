#!/usr/bin/env bash
# Each chapter's traffic expectations (chapters/<chapter>/traffic-expect)
# hold on the committed H100 results, as t0530 checks them on a fresh
# measurement with a GPU; and the checker fails where they do not.
. tests/lib.sh

gpu=NVIDIA_H100_80GB_HBM3
[ -d "results/$gpu" ] || skip_all "no results/$gpu here"
for ch in $(chapters); do
    tcsv=results/$gpu/$ch/traffic.csv
    if [ ! -f "$tcsv" ]; then
        skip "$ch: no committed $tcsv"
        continue
    fi
    [ -f "chapters/$ch/traffic-expect" ]
    ok $? "$ch: has its traffic-expect"
    check_traffic "$ch" "$tcsv"
done

# The checker itself: a made-up measurement that breaks each test fails it.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/chapters/99-fake"
cat >"$scratch/chapters/99-fake/traffic-expect" <<'X'
ratio reference/a 100 ~ 1.0
ratio reference/b 100 < 1.5
bytes reference/c 100 < 0.5 reference/d
X
{
    echo 'chapter,impl,kind,size,shape,model_read,model_write,dram_read,dram_write,kernels,gpu_time_ms,source'
    echo '99-fake,reference/a,reference,100,x,100,100,300,0,1,1,ncu'
    echo '99-fake,reference/b,reference,100,x,100,100,400,0,1,1,ncu'
    echo '99-fake,reference/c,reference,100,x,100,100,90,10,1,1,ncu'
    echo '99-fake,reference/d,reference,100,x,100,100,100,50,1,1,ncu'
} >"$scratch/traffic.csv"
here=$PWD
results=$(cd "$scratch" && T_COUNT=0 && . "$here/tests/lib.sh" && check_traffic 99-fake traffic.csv)
fails=$(printf '%s\n' "$results" | grep -c '^not ok')
ok "$([ "$fails" -eq 3 ] && echo 0 || echo 1)" "the checker fails all three broken expectations ($fails of 3)"

done_testing
