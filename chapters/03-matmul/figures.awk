# figures.awk: the measured figures of the lesson's prose and of the
# README's chapter table (plots/figures.sh), from dir/bench.csv,
# dir/traffic.csv and the GPU's roofs (dir/../roofs.csv).
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/traffic.csv", t, "impl,size")
    readcsv(dir "/../roofs.csv", r, "metric")
    # The roofs are the microkernels' (what one instruction can issue); the
    # TF32 peak is the faster of mma.sync and wgmma (blank below sm_90a).
    fig("fp32_roof", as_tflops(get(r, "fp32_ffma_gflops", "value")))
    fig("tf32_roof", as_tflops(peak(r, "tf32")))
    fig("tf32_mma_roof", as_tflops(get(r, "tf32_mma_gflops", "value")))
    fig("tf32_wgmma_over_mma", as_fixed(peak(r, "tf32") / get(r, "tf32_mma_gflops", "value"), 1))
    # cuBLAS is a measured point under those roofs, never one of them.
    fig("sgemm_lib_tflops", as_tflops(get(b, "library/cublasSgemm|8192", "gflops")))
    fig("sgemm_tf32_lib_tflops", as_tflops(get(b, "library/cublasSgemm_TF32|8192", "gflops")))
    fig("tf32_lib_over_fp32", as_fixed(get(b, "library/cublasSgemm_TF32|8192", "gflops") / get(r, "fp32_ffma_gflops", "value"), 0))
    fig("sgemm_lib_pct", as_pct(100 * get(b, "library/cublasSgemm|8192", "gflops") / get(r, "fp32_ffma_gflops", "value"), 0))
    fig("naive_bytes_8192", as_fixed(dram("reference/01_naive", 8192), 0))
    fig("naive_vs_lib", vs_lib("reference/01_naive", 8192))
    fig("tiled_cut", as_x(dram("reference/01_naive", 8192) / dram("reference/02_tiled", 8192), 0))
    fig("tiled_vs_lib", vs_lib("reference/02_tiled", 8192))
    fig("regblock_vs_lib", vs_lib("reference/03_regblock", 8192))
    fig("tuned_vs_lib_4096", vs_lib("reference/04_tuned", 4096))
    fig("tuned_vs_lib_8192", vs_lib("reference/04_tuned", 8192))
    fig("tuned_vs_lib_2048", vs_lib("reference/04_tuned", 2048))
    fig("tuned_vs_lib_4000", vs_lib("reference/04_tuned", 4000))
    # The tuned kernel's DRAM bytes at 4096^3 over its median time.
    k = "reference/04_tuned|4096"
    gb = (get(t, k, "dram_read") + get(t, k, "dram_write")) / 1e9
    sec = get(b, k, "median_ms") / 1000
    fig("tuned_gb", as_fixed(gb, 2))
    fig("tuned_ms", as_fixed(sec * 1000, 2))
    fig("tuned_gbps", as_fixed(gb / sec, 0))
    fig("tuned_copy_pct", as_pct(100 * gb / sec / get(r, "copy_gbps", "value"), 0))
    fig("tuned_ahead_1024", as_pct(100 * (get(b, "reference/04_tuned|1024", "vs_library") - 1), 0))
    fig("tf32_vs_fp32", as_fixed(get(b, "library/cublasSgemm_TF32|8192", "vs_library"), 0))
}
function vs_lib(impl, size) { return as_pct(100 * get(b, impl "|" size, "vs_library"), 0) }
# dram(IMPL, SIZE): Nsight Compute's DRAM bytes over the compulsory ones.
function dram(impl, size,    k) {
    k = impl "|" size
    return (get(t, k, "dram_read") + get(t, k, "dram_write")) / (get(t, k, "model_read") + get(t, k, "model_write"))
}
# The roofs as the lesson's roofline paragraph uses them: the ridge, and a
# kernel of 0.25 FLOP per byte at the copy roof.
BEGIN {
    copy = get(r, "copy_gbps", "value"); fp32 = get(r, "fp32_ffma_gflops", "value")
    fig("copy_roof", as_fixed(copy, 0))
    fig("fp32_roof_e12", as_fixed(fp32 / 1000, 1) "e12")
    fig("copy_roof_e12", as_fixed(copy / 1000, 3) "e12")
    fig("ridge", as_fixed(fp32 / copy, 1))
    fig("ridge_n", as_fixed(10 * int(6 * fp32 / copy / 10 + 0.5), 0))
    fig("quarter_left", as_fixed(fp32 / copy / 0.25, 0))
    fig("quarter_gflops", as_fixed(0.25 * copy, 0))
    fig("quarter_pct", as_pct(100 * 0.25 * copy / fp32, 1))
    fig("tf32_over_fp32", as_fixed(peak(r, "tf32") / fp32, 0))
}
