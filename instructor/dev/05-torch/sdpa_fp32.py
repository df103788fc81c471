"""Times PyTorch's FP32 scaled_dot_product_attention at the bench's shapes of
chapter 05 (B = 4, H = 16, N = 4096 and 16384, d = 64 and 128, full and
causal) and writes the rates as a CSV beside bench.csv, for the lesson's
FP32 table (chapters/05-attention/flash-fp32.awk). A cross-check on the GPU
machine, outside the grader: nothing in the workbook needs PyTorch.

    python3 instructor/dev/05-torch/sdpa_fp32.py results/<GPU>/05-attention/torch-fp32.csv

Each rate is the median of 20 calls timed with CUDA events, 256 MB written
before each so that the L2 starts cold, as the bench does; inputs uniform in
[-1, 1); TFLOP/s at 4 B H N^2 d, halved when causal. Before timing, each
shape's result on its first head is compared with the same attention in
double: the script refuses to write a rate for output off by more than
1e-5 relative (FP32 lands near 1e-6; TF32 would be near 1e-3)."""
import datetime
import sys

import torch
import torch.nn.functional as F


def rel_error(q, k, v, causal):
    """|O - O64| / |O64| on head 0 of batch 0."""
    q1, k1, v1 = (t[:1, :1] for t in (q, k, v))
    out = F.scaled_dot_product_attention(q1, k1, v1, is_causal=causal)
    ref = F.scaled_dot_product_attention(q1.double(), k1.double(), v1.double(), is_causal=causal)
    return ((out.double() - ref).norm() / ref.norm()).item()


def median_ms(q, k, v, causal, runs=20):
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    times = []
    for r in range(runs):
        flush.fill_(r & 0xFF)
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        stop.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[runs // 2]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sdpa_fp32.py OUT.csv")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    how = f"torch.nn.functional.scaled_dot_product_attention in FP32 (PyTorch {torch.__version__})"
    date = datetime.date.today().isoformat()
    rows = ["impl,B,H,N,d,causal,tflops,rel_error,date,how"]
    B, H = 4, 16
    for N in (4096, 16384):
        for d in (64, 128):
            gen = torch.Generator(device="cuda").manual_seed(N + d)
            q, k, v = (torch.rand(B, H, N, d, device="cuda", generator=gen) * 2 - 1
                       for _ in range(3))
            for causal in (0, 1):
                err = rel_error(q, k, v, bool(causal))
                if not err < 1e-5:
                    print(f"N={N} d={d} causal={causal}: relative error {err:.2e}, not FP32: no rate",
                          file=sys.stderr)
                    continue
                F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                ms = median_ms(q, k, v, bool(causal))
                flop = 4 * B * H * N * N * d * (0.5 if causal else 1)
                tflops = flop / ms / 1e9
                print(f"N={N} d={d} causal={causal}: {ms:.3f} ms {tflops:.1f} TFLOP/s "
                      f"(relative error {err:.1e})", flush=True)
                rows.append(f"sdpa_fp32,{B},{H},{N},{d},{causal},{tflops:.1f},{err:.1e},{date},{how}")
            del q, k, v
            torch.cuda.empty_cache()
    with open(sys.argv[1], "w") as out:
        out.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
