# figures.awk: the measured figures of the lesson's prose and of the
# README's chapter table (plots/figures.sh), from dir/bench.csv,
# dir/traffic.csv, dir/ablation.csv, dir/ablation-wgmma.csv, dir/fa2.csv,
# dir/torch-fp32.csv (PyTorch's FP32 attention) and the GPU's roofs
# (dir/../roofs.csv). B = 4, H = 16, d = 64 unless a name says d128; the
# bf16 ranges are over the shapes of the lesson's bf16 table: N = 4096 and
# 16384, d = 64 and 128, full and causal. Only bench.csv and the roofs
# must be there: the figures of a file the folder lacks (another GPU's,
# holding the bench alone) are left out, and a lesson's marker of one fails
# by name.
BEGIN {
    readcsv(dir "/bench.csv", b, "impl,size")
    readcsv(dir "/../roofs.csv", r, "metric")
    has_t = readcsv_if(dir "/traffic.csv", t, "impl,size")
    has_ab = readcsv_if(dir "/ablation.csv", ab, "step undone")
    has_fa = readcsv_if(dir "/fa2.csv", fa, "N,d,causal")
    has_pt = readcsv_if(dir "/torch-fp32.csv", pt, "B,H,N,d,causal")
    has_nc = readcsv_if(dir "/ncu-d128.csv", nc, "path,metric")
    has_aw = readcsv_if(dir "/ablation-wgmma.csv", aw, "MW_FLASH_WGMMA")
    # The FFMA roof for FP32; for bf16 the peak (the faster of mma.sync and
    # wgmma) and mma.sync's own roof, the instruction 05.3 issues.
    fp32 = get(r, "fp32_ffma_gflops", "value")
    bf16 = peak(r, "bf16")
    bf16_mma = get(r, "bf16_mma_gflops", "value")
    copy = get(r, "copy_gbps", "value")
    fig("fp32_roof", as_fixed(fp32 / 1000, 1))
    fig("copy_roof", as_fixed(copy, 0))
    fig("bf16_roof", as_fixed(bf16 / 1000, 0))
    fig("bf16_over_fp32", as_fixed(bf16 / fp32, 0))
    fig("bf16_mma_roof", as_fixed(bf16_mma / 1000, 0))
    fig("bf16_mma_over_fp32", as_fixed(bf16_mma / fp32, 0))
    fig("bf16_peak_over_mma", as_fixed(bf16 / bf16_mma, 1))

    # FP32, N = 4096: bytes.
    flash = "reference/02_flash|4096"; lib = "library/cublas_cudnn_unfused|4096"
    unf = "reference/01_unfused|4096"
    if (has_t) {
        fig("flash_mb", as_fixed(dram(flash) / 1e6, 0))
        fig("flash_bytes", as_x(dram(flash) / model(flash), 2))
        fig("lib_gb", as_fixed(dram(lib) / 1e9, 1))
        fig("lib_bytes", as_x(dram(lib) / model(lib), 1))
        fig("unfused_gb", as_fixed(dram(unf) / 1e9, 1))
        fig("unfused_bytes", as_x(dram(unf) / model(unf), 1))
        fig("lib_bytes_16384", as_x(dram("library/cublas_cudnn_unfused|16384") / model("library/cublas_cudnn_unfused|16384"), 0))
    }
    fig("flash_tflops_32768", as_fixed(get(b, "reference/02_flash|32768", "gflops") / 1000, 1))
    # FP32, N = 4096: time.
    fig("flash_tflops", as_fixed(get(b, flash, "gflops") / 1000, 1))
    fig("flash_pct", as_pct(100 * get(b, flash, "gflops") / fp32, 0))
    fig("flash_vs_lib", as_x(get(b, flash, "vs_library"), 2))
    fig("lib_tflops", as_fixed(get(b, lib, "gflops") / 1000, 1))
    fig("flash_vs_unfused", as_x(get(b, unf, "median_ms") / get(b, flash, "median_ms"), 1))
    # The composition's softmax pass, S read and P written (a model: 8 N^2
    # bytes per head), at the measured copy roof.
    softmax_bytes = 8 * 4096 * 4096 * 64
    fig("softmax_ms", as_fixed(softmax_bytes / copy / 1e6, 1))
    fig("lib_ms", as_fixed(get(b, lib, "median_ms"), 1))
    fig("lib_ms2", as_fixed(get(b, lib, "median_ms"), 2))
    fig("roof_ms", as_fixed(get(b, flash, "model_flops") / fp32 / 1e6, 2))
    fig("roof_vs_lib", as_x(get(b, lib, "median_ms") / (get(b, flash, "model_flops") / fp32 / 1e6), 1))
    # The reference's aim, 31 TFLOP/s, against the FFMA roof.
    fig("aim_pct", as_pct(100 * 31000 / fp32, 0))
    fig("causal_vs_full", as_x(get(b, flash, "median_ms") / get(b, "reference/02_flash-causal|4096", "median_ms"), 2))
    fig("causal_vs_lib", as_x(get(b, "reference/02_flash-causal|4096", "vs_library"), 2))

    # bf16 (05.3), N = 4096 and 16384, d = 64 and 128, full and causal.
    split("4096 16384", sizes, " ")
    split("|-causal|-d128|-d128-causal", tails, "|")
    for (s = 1; s in sizes; s++)
        for (i = 1; i in tails; i++) {
            k = tails[i] "|" sizes[s]
            mine = "reference/03_flash_bf16" k
            range("bf16_tflops", get(b, mine, "gflops") / 1000)
            range("cudnn_tflops", get(b, "library/cudnn_sdpa" k, "gflops") / 1000)
            range("of_cudnn", 100 * get(b, mine, "vs_library"))
            range("cudnn_over", 1 / get(b, mine, "vs_library"))
            range("over_fp32", get(b, "reference/02_flash" k, "median_ms") / get(b, mine, "median_ms"))
            range("over_comp", get(b, "library/cublas_cudnn_unfused_bf16" k, "median_ms") / get(b, mine, "median_ms"))
            if (sizes[s] == 4096)
                range("over_comp_4096", get(b, "library/cublas_cudnn_unfused_bf16" k, "median_ms") / get(b, mine, "median_ms"))
            if (tails[i] !~ /causal/) range("comp_tflops", get(b, "library/cublas_cudnn_unfused_bf16" k, "gflops") / 1000)
        }
    fig("bf16_tflops", range_text("bf16_tflops", 0))
    fig("cudnn_tflops", range_text("cudnn_tflops", 0))
    fig("of_cudnn", range_text("of_cudnn", 0) "%")
    fig("cudnn_over", range_text("cudnn_over", 1))
    fig("over_fp32", span(short(range_lo["over_fp32"]), short(range_hi["over_fp32"])))
    fig("over_comp", range_text("over_comp", 0))
    fig("over_comp_4096", range_text("over_comp_4096", 0))
    fig("comp_tflops", range_text("comp_tflops", 0))
    fig("bf16_tflops_d128", as_fixed(get(b, "reference/03_flash_bf16-d128|4096", "gflops") / 1000, 0))
    if (has_fa)
        fig("vs_fa2_d128", as_x(get(b, "reference/03_flash_bf16-d128|4096", "gflops") / 1000 / get(fa, "4096|128|0", "tflops"), 2))
    # bf16 bytes, N = 4096 and 16384.
    mine = "reference/03_flash_bf16|4096"
    comp = "library/cublas_cudnn_unfused_bf16|"
    if (has_t) {
        fig("bf16_mb", as_fixed(dram(mine) / 1e6, 0))
        fig("bf16_model_mb", as_fixed(model(mine) / 1e6, 0))
        fig("bf16_bytes", as_x(dram(mine) / model(mine), 2))
        fig("bf16_bytes_16384", as_x(dram("reference/03_flash_bf16|16384") / model("reference/03_flash_bf16|16384"), 2))
        fig("cudnn_bytes", as_x(dram("library/cudnn_sdpa|4096") / model("library/cudnn_sdpa|4096"), 2))
        fig("cudnn_bytes_16384", as_x(dram("library/cudnn_sdpa|16384") / model("library/cudnn_sdpa|16384"), 2))
        fig("comp_gb", as_fixed(dram(comp 4096) / 1e9, 1))
        fig("comp_bytes", as_x(dram(comp 4096) / model(comp 4096), 0))
        fig("comp_bytes_16384", as_x(dram(comp 16384) / model(comp 16384), 0))
    }
    if (has_ab)
        ablation_figures()

    # 05.4: the reference's default kernel (the bench's rows) against cuDNN
    # and 05.3 over the same shapes as 05.3's; its steps from the ablation's
    # own run, compared only with each other.
    for (s = 1; s in sizes; s++)
        for (i = 1; i in tails; i++) {
            k = tails[i] "|" sizes[s]
            mine = get(b, "reference/04_flash_wgmma" k, "gflops")
            sdpa = get(b, "library/cudnn_sdpa" k, "gflops")
            d128 = tails[i] ~ /d128/
            range("wgmma_of_cudnn", 100 * mine / sdpa)
            range("wgmma_of_cudnn" (d128 ? "_d128" : "_d64"), 100 * mine / sdpa)
            range("wgmma_over_mma", mine / get(b, "reference/03_flash_bf16" k, "gflops"))
            if (d128)
                range("wgmma_tflops_d128", mine / 1000)
            if (!has_aw)
                continue
            col = "N=" sizes[s] " d=" (d128 ? 128 : 64) (tails[i] ~ /causal/ ? " causal" : "")
            ws = get(aw, "ws", col); ws2 = get(aw, "ws2", col); step1 = get(aw, "step1", col)
            eager = get(aw, "ws-eager", col)
            range("ws_over_step1" (d128 ? "_d128" : "_d64"), ws / step1)
            range("bc128_worth" (d128 ? "_d128" : "_d64"), ws2 / get(aw, "ws-bc64", col))
            range("lazy_worth", ws / eager)
            if (d128) {
                range("pp_worth_d128", ws2 / get(aw, "ws-nopp", col))
                range("ov_worth_d128", ws2 / get(aw, "ws-noov", col))
                range("ws_plain_d128", get(aw, "ws-plain", col) / step1)
                if (tails[i] ~ /causal/)
                    # ws-eager and ws2 are one kernel at d = 128 with the
                    # causal mask (key tiles of 128): the same run twice
                    range("same_kernel_d128", 100 * (eager > ws2 ? eager / ws2 - 1 : ws2 / eager - 1))
                else
                    range("bc176_worth_d128", eager / ws2)
                # ws is the default at d = 128; cuDNN, where the run has
                # its row, timed in the same rounds
                if (("cudnn", col) in aw)
                    range("ws_of_cudnn_rounds_d128", 100 * ws / get(aw, "cudnn", col))
            } else {
                range("three_over_two_d64", eager / ws2)
            }
        }
    fig("wgmma_of_cudnn", range_text("wgmma_of_cudnn", 0) "%")
    fig("wgmma_of_cudnn_d64", range_text("wgmma_of_cudnn_d64", 0) "%")
    fig("wgmma_of_cudnn_d128", range_text("wgmma_of_cudnn_d128", 0) "%")
    fig("wgmma_over_mma", range_text("wgmma_over_mma", 2))
    fig("wgmma_tflops_d128", range_text("wgmma_tflops_d128", 0))
    if (has_aw)
        wgmma_ablation_figures()
}
# 05.4's steps, from its ablation's own run (dir/ablation-wgmma.csv).
function wgmma_ablation_figures() {
    fig("ws_over_step1_d128", range_text("ws_over_step1_d128", 2))
    fig("ws_over_step1_d64", range_text("ws_over_step1_d64", 2))
    fig("bc128_worth_d128", range_text("bc128_worth_d128", 2))
    fig("bc128_worth_d64", range_text("bc128_worth_d64", 2))
    fig("bc176_worth_d128", range_text("bc176_worth_d128", 2))
    fig("lazy_worth", range_text("lazy_worth", 2))
    fig("pp_worth_d128", range_text("pp_worth_d128", 2))
    fig("ov_worth_d128", range_text("ov_worth_d128", 2))
    fig("ws_plain_d128", range_text("ws_plain_d128", 2))
    fig("three_over_two_d64", range_text("three_over_two_d64", 2))
    fig("same_kernel_d128", range_text("same_kernel_d128", 0) "%")
    if ("ws_of_cudnn_rounds_d128" in range_lo)
        fig("ws_of_cudnn_rounds_d128", range_text("ws_of_cudnn_rounds_d128", 0) "%")
}
# 05.3's ablation (dir/ablation.csv): how many times slower it runs without
# its swizzle, and how much faster full attention runs in the plain grid
# order.
function ablation_figures(    swizzle, grid, cols, i) {
    swizzle = ablation_row("XOR swizzle")
    split("d = 64,d = 64 causal,d = 128,d = 128 causal", cols, ",")
    for (i = 1; i in cols; i++) range("swizzle", get(ab, swizzle, cols[i]))
    fig("swizzle", range_text("swizzle", 2))
    # How much faster full attention runs in the plain grid order.
    grid = ablation_row("grid order")
    range("grid_plain", 100 * (1 / get(ab, grid, "d = 64") - 1))
    range("grid_plain", 100 * (1 / get(ab, grid, "d = 128") - 1))
    fig("grid_plain", range_text("grid_plain", 0) "%")
}
# The "step undone" of dir/ablation.csv that begins with START.
function ablation_row(start,    key, part) {
    for (key in ab) {
        split(key, part, SUBSEP)
        if (index(part[1], start) == 1) return part[1]
    }
    results_fail("no " start " row in " dir "/ablation.csv")
}
function dram(k) { return get(t, k, "dram_read") + get(t, k, "dram_write") }
function model(k) { return get(t, k, "model_read") + get(t, k, "model_write") }
# short(V): one decimal, none where it is 0 ("7 to 9.5").
function short(v) { v = as_fixed(v, 1); sub(/\.0$/, "", v); return v }

# The budgets of the lesson's first half: the model's bytes and FLOPs at
# B H = 64, N = 4096, d = 64 over the measured roofs.
BEGIN {
    flops = get(b, "reference/02_flash|4096", "model_flops")
    fig("copy_roof_tbs", as_fixed(copy / 1000, 3))
    fig("ridge", as_fixed(fp32 / copy, 1))
    fig("ridge_n", as_fixed(fp32 / copy * (4 * 64 + 1) / 64, 0))
    fig("ridge_n_about", as_fixed(10 * int(4 * fp32 / copy / 10 + 0.5), 0))
    fig("ridge_n_causal", as_fixed(10 * int(8 * fp32 / copy / 10 + 0.5), 0))
    fig("min_us", as_fixed(get(b, "reference/02_flash|4096", "model_bytes") / copy / 1e3, 0))
    fig("extra_ms", as_fixed(4 * 64 * 4096 * 4096 * 4 / copy / 1e6, 2))
    fig("causal_roof_ms", as_fixed(flops / 2 / fp32 / 1e6, 2))
    fig("scores_over_ridge", as_x(31.0 / (fp32 / copy), 1))
    # Unfused at the roofs: two GEMMs at the FP32 roof, the softmax (S read,
    # P written) at the copy roof.
    gemm = flops / 2 / fp32 / 1e6
    smax = softmax_bytes / copy / 1e6
    unfused_ms = as_fixed(2 * gemm, 2) + as_fixed(smax, 2)
    fig("softmax_ms2", as_fixed(smax, 2))
    fig("unfused_min_ms", as_fixed(unfused_ms, 2))
    fig("unfused_max_tflops", as_fixed(flops / unfused_ms / 1e9, 1))
    fig("unfused_max_pct", as_pct(100 * flops / unfused_ms / 1e6 / fp32, 0))
    fig("unfused_causal_tflops", as_fixed(flops / 2 / unfused_ms / 1e9, 1))

    # speed.png, FP32 at d = 64.
    fig("flash_tflops_1024", as_fixed(get(b, "reference/02_flash|1024", "gflops") / 1000, 1))
    fig("flash_tflops_16384", as_fixed(get(b, "reference/02_flash|16384", "gflops") / 1000, 1))
    # Causal against full: the largest gap between their rates from 4096 on.
    for (size = 4096; size <= 32768; size *= 2) {
        v = get(b, "reference/02_flash-causal|" size, "gflops") / get(b, "reference/02_flash|" size, "gflops")
        range("causal_gap", v > 1 ? v - 1 : 1 - v)
    }
    fig("causal_within", within(1 + range_hi["causal_gap"]))
    fig("lib_causal_tflops", as_fixed(get(b, "library/cublas_cudnn_unfused-causal|4096", "gflops") / 1000, 1))
    fig("unfused_tflops", as_fixed(get(b, unf, "gflops") / 1000, 1))
    # traffic.png, FP32 at d = 64.
    if (has_t) {
        fig("flash_bytes_1024", as_x(dram("reference/02_flash|1024") / model("reference/02_flash|1024"), 2))
        fig("flash_bytes_16384", as_x(dram("reference/02_flash|16384") / model("reference/02_flash|16384"), 2))
        fig("flash_write_gb_16384", as_fixed(get(t, "reference/02_flash|16384", "dram_write") / 1e9, 2))
        fig("flash_read_gb_16384", as_fixed(get(t, "reference/02_flash|16384", "dram_read") / 1e9, 2))
        fig("flash_model_read_gb_16384", as_fixed(get(t, "reference/02_flash|16384", "model_read") / 1e9, 2))
        fig("unfused_bytes_1024", as_x(dram("reference/01_unfused|1024") / model("reference/01_unfused|1024"), 1))
        fig("unfused_bytes_16384", as_x(dram("reference/01_unfused|16384") / model("reference/01_unfused|16384"), 0))
        fig("lib_bytes_1024", as_x(dram("library/cublas_cudnn_unfused|1024") / model("library/cublas_cudnn_unfused|1024"), 1))
    }

    # speed-bf16.png.
    for (size = 2048; size <= 32768; size *= 2)
        for (i = 1; i in tails; i++) {
            k = "reference/03_flash_bf16" tails[i] "|" size
            if ((k, "vs_library") in b)    # d = 128 stops at 16384
                range("cudnn_over_2048", 1 / get(b, k, "vs_library"))
        }
    for (size = 256; size <= 512; size *= 2) {
        range("small_vs_cudnn", get(b, "reference/03_flash_bf16|" size, "vs_library"))
        range("small_vs_cudnn", get(b, "reference/03_flash_bf16-causal|" size, "vs_library"))
    }
    for (size = 4096; size <= 16384; size *= 2) {
        range("comp_d64", get(b, "library/cublas_cudnn_unfused_bf16|" size, "gflops") / 1000)
        range("comp_d128", get(b, "library/cublas_cudnn_unfused_bf16-d128|" size, "gflops") / 1000)
    }
    for (size = 8192; size <= 32768; size *= 2) {
        range("bf16_level", get(b, "reference/03_flash_bf16|" size, "gflops") / 1000)
        if (size <= 16384) range("bf16_level", get(b, "reference/03_flash_bf16-d128|" size, "gflops") / 1000)
    }
    fig("bf16_tflops_4096", as_fixed(get(b, "reference/03_flash_bf16|4096", "gflops") / 1000, 0))
    fig("bf16_level", range_text("bf16_level", 0))
    fig("cudnn_over_2048", range_text("cudnn_over_2048", 1))
    fig("small_vs_cudnn", range_text("small_vs_cudnn", 2))
    fig("comp_d64", range_text("comp_d64", 0))
    fig("comp_d128", range_text("comp_d128", 0))
    fig("bf16_tflops_32768", as_fixed(get(b, "reference/03_flash_bf16|32768", "gflops") / 1000, 0))
    fig("cudnn_tflops_32768", as_fixed(get(b, "library/cudnn_sdpa|32768", "gflops") / 1000, 0))
    # speed-d128.png.
    fig("flash_d128_tflops", as_fixed(get(b, "reference/02_flash-d128|16384", "gflops") / 1000, 0))
    fig("flash_d128_vs_lib", as_x(get(b, "reference/02_flash-d128|16384", "vs_library"), 2))
    fig("flash_d128_causal_vs_lib", as_x(get(b, "reference/02_flash-d128-causal|16384", "vs_library"), 2))
    # d = 128 on tensor cores (3xTF32: three TF32 products per one counted,
    # so a third of the TF32 wgmma roof bounds it), N = 16384 full.
    d128 = get(b, "reference/02_flash-d128|16384", "gflops")
    fig("flash_d128_tflops_4096", as_fixed(get(b, "reference/02_flash-d128|4096", "gflops") / 1000, 1))
    fig("tf32x3_bound", as_fixed(get(r, "tf32_wgmma_gflops", "value") / 3000, 0))
    fig("d128_of_3x", as_pct(100 * d128 / (get(r, "tf32_wgmma_gflops", "value") / 3), 0))
    fig("d128_of_ffma", as_pct(100 * d128 / fp32, 0))
    # The FP32 reference against PyTorch's FP32 attention, over the shapes of
    # the lesson's FP32 table: N = 4096 and 16384, d = 64 and 128, full and causal.
    for (s = 4096; has_pt && s <= 16384; s *= 4)
        for (e = 64; e <= 128; e *= 2)
            for (c = 0; c <= 1; c++) {
                k = (e == 128 ? "-d128" : "") (c ? "-causal" : "") "|" s
                range("vs_torch", get(b, "reference/02_flash" k, "gflops") / (1000 * get(pt, "4|16|" s "|" e "|" c, "tflops")))
            }
    if (has_pt)
        fig("vs_torch", range_text("vs_torch", 2))
    if (has_nc)
        ncu_d128_figures()
}
# What limits each d = 128 path: Nsight Compute at N = 4096, full
# (dir/ncu-d128.csv, instructor/dev/05-d128/profile.sh).
function ncu_d128_figures(    issue, ffma_share) {
    issue = get(nc, "ffma|smsp__issue_active.avg.pct_of_peak_sustained_active", "value") / 100
    ffma_share = get(nc, "ffma|smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "value") / 32 / \
        get(nc, "ffma|smsp__inst_executed.sum", "value")
    fig("ffma_d128_regs", as_fixed(get(nc, "ffma|launch__registers_per_thread", "value"), 0))
    fig("ffma_d128_warps", as_fixed(get(nc, "ffma|smsp__warps_active.avg.per_cycle_active", "value"), 0))
    fig("ffma_d128_issue", as_pct(100 * issue, 0))
    fig("ffma_d128_idle", as_pct(100 * (1 - issue), 0))
    fig("ffma_d128_share", as_pct(100 * ffma_share, 0))
    fig("ffma_d128_other", as_pct(100 * (1 - ffma_share), 0))
    fig("ffma_d128_product", as_fixed(issue * ffma_share, 2))
    fig("ffma_d128_tflops", as_fixed(issue * ffma_share * fp32 / 1000, 0))
    fig("tf32_d128_tensor", as_pct(get(nc, "tf32|sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "value"), 0))
}
