# time-common.sh: what ablation.sh and by-n.sh share, sourced by both (with
# $here set to this folder).
#
# median_awk: an awk function, median(key), the median of the rates
# rate[key, 1] .. rate[key, runs[key]]; a key of several subscripts,
# (v, shape), is one string joined by SUBSEP, so median(v SUBSEP shape)
# reads rate[v, shape, i].
median_awk='
function median(key,    c, i, j, x, a) {
    c = runs[key]
    for (i = 1; i <= c; i++) {
        x = rate[key, i]
        for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]
        a[j + 1] = x
    }
    return c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
}'

# build_time NAME [RESULTS_DIR]: on this machine's sm_90 GPU (exit 77
# without one, NAME saying so), builds time.cu with the reference into $bin
# and sets $out to RESULTS_DIR, default results/<this GPU>/05-attention,
# and have_cudnn to 1 where time.cu can time cuDNN (MW_FLASH_WGMMA=cudnn).
build_time() {
    command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 || { echo "$1: no GPU here" >&2; exit 77; }
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 | head -n 1 | sed 's/[^A-Za-z0-9.-]/_/g')
    out=${2:-results/$gpu/05-attention}
    bin=build/instructor/05-wgmma/time
    mkdir -p "$(dirname "$bin")" "$out"
    # cuDNN's fused attention (MW_FLASH_WGMMA=cudnn) where the Makefile
    # finds cudnn.h (make cudnn-h); have_cudnn says whether.
    cudnn_h=$(env -u MAKEFLAGS -u MFLAGS make -s --no-print-directory cudnn-h 2>/dev/null)
    have_cudnn=0
    set -- -Igrader -Ichapters/05-attention
    [ -f "$cudnn_h" ] && { have_cudnn=1; set -- "$@" -DMW_HAVE_CUDNN -I"$(dirname "$cudnn_h")" -lcudnn; }
    nvcc -O3 -gencode arch=compute_90a,code=sm_90a -Xptxas -w "$@" "$here/time.cu" \
        chapters/05-attention/cudnn_sdpa.c solutions/05-attention/04_flash_wgmma.cu -o "$bin" || exit
}
