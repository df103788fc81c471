/* driver.cu: checks and times the bf16 flash attention of solutions/05-attention/03_flash_bf16.cu.
 *
 *   driver check [--config NAME]      every configuration (or NAME) on the
 *                                     shapes of check_list.h against a double
 *                                     reference; PASS/FAIL a line; exit 1 on
 *                                     any FAIL
 *   driver time [--config NAME|all]   B=4 H=16 N=4096 and B=1 H=16 N=16384,
 *                                     d = 64 and 128, causal 0 and 1: the
 *                                     default configuration per d (or NAME, or
 *                                     all of them), each first checked on a
 *                                     smaller shape, then timed: median of 30
 *                                     launches after 3 warm-up ones
 *
 * Device buffers carry a NaN guard after their end, so a load past the last
 * head's row N - 1 that is not zero-filled shows up as NaN; O and L start
 * poisoned (all bits set: NaN), so a row never written shows up too. */
#include "flash_bf16.h"
#include "check_list.h"

#include <stdlib.h>

#include <algorithm>
#include <string>
#include <vector>

#define CK(call)                                                                             \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                         \
        }                                                                                    \
    } while (0)

namespace {

const size_t kGuard = 8192; /* NaN elements after each input buffer */

struct Dev {
    __nv_bfloat16 *Q = nullptr, *K = nullptr, *V = nullptr, *O = nullptr;
    float *L = nullptr;
    size_t n = 0, nl = 0;
    void alloc(size_t n_, size_t nl_)
    {
        n = n_;
        nl = nl_;
        CK(cudaMalloc(&Q, (n + kGuard) * 2));
        CK(cudaMalloc(&K, (n + kGuard) * 2));
        CK(cudaMalloc(&V, (n + kGuard) * 2));
        CK(cudaMalloc(&O, n * 2));
        CK(cudaMalloc(&L, nl * 4));
    }
    void upload(const std::vector<uint16_t> &q, const std::vector<uint16_t> &k,
                const std::vector<uint16_t> &v)
    {
        std::vector<uint16_t> guard(kGuard, 0x7fc0);
        __nv_bfloat16 *dst[3] = {Q, K, V};
        const std::vector<uint16_t> *src[3] = {&q, &k, &v};
        for (int i = 0; i < 3; i++) {
            CK(cudaMemcpy(dst[i], src[i]->data(), n * 2, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dst[i] + n, guard.data(), kGuard * 2, cudaMemcpyHostToDevice));
        }
    }
    void poison()
    {
        CK(cudaMemset(O, 0xff, n * 2));
        CK(cudaMemset(L, 0xff, nl * 4));
    }
    void free_all()
    {
        cudaFree(Q);
        cudaFree(K);
        cudaFree(V);
        cudaFree(O);
        cudaFree(L);
        *this = Dev();
    }
};

/* Runs configuration v (-1: the public entry point) on case c. */
cudaError_t run(int v, const Dev &D, const ref::Case &c, cudaStream_t st)
{
    if (v < 0)
        return attention_flash_bf16(D.Q, D.K, D.V, D.O, D.L, c.B, c.H, c.N, c.d, c.scale, c.causal, st);
    return attention_flash_bf16_variant(v, D.Q, D.K, D.V, D.O, D.L, c.B, c.H, c.N, c.d, c.scale,
                                        c.causal, st);
}

int find_variant(const char *name)
{
    for (int v = 0; v < attention_flash_bf16_variants(); v++)
        if (!strcmp(attention_flash_bf16_variant_info(v, nullptr, nullptr, nullptr), name))
            return v;
    return -1;
}

/* Checks the variants in vs (-1: the public entry point) on case c; returns failures. */
int check_case(const ref::Case &c, const std::vector<int> &vs, bool quiet = false)
{
    std::vector<uint16_t> q, k, v;
    ref::make_inputs(c, q, k, v);
    ref::Reference R;
    ref::reference(c, q, k, v, R);
    Dev D;
    D.alloc(q.size(), (size_t)c.B * c.H * c.N);
    D.upload(q, k, v);
    char desc[160];
    ref::describe(c, desc, sizeof desc);
    int fails = 0;
    std::vector<uint16_t> O(q.size());
    std::vector<float> L(D.nl);
    for (int vi : vs) {
        const char *name = vi < 0 ? "default" : attention_flash_bf16_variant_info(vi, nullptr, nullptr, nullptr);
        D.poison();
        cudaError_t e = run(vi, D, c, 0);
        if (e == cudaSuccess)
            e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            printf("FAIL  %-10s %s: %s\n", name, desc, cudaGetErrorString(e));
            fails++;
            if (e != cudaErrorInvalidValue)
                exit(2); /* the context is gone */
            continue;
        }
        CK(cudaMemcpy(O.data(), D.O, O.size() * 2, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(L.data(), D.L, L.size() * 4, cudaMemcpyDeviceToHost));
        const ref::Verdict r = ref::compare(c, R, O, L);
        if (!r.pass || !quiet) {
            printf("%s  %-10s %s  maxerr O %.3g (tol %.3g, emulated %.3g) L %.3g", r.pass ? "PASS" : "FAIL",
                   name, desc, r.errO, r.tolO, R.emul_err, r.errL);
            if (r.nanO)
                printf("  [%zu NaN expected]", r.nanO);
            printf("\n");
        }
        if (!r.pass) {
            printf("      %zu O and %zu L elements wrong; first: %s\n", r.badO, r.badL, r.first);
            fails++;
        }
    }
    D.free_all();
    return fails;
}

int cmd_check(int only)
{
    int fails = 0, runs = 0;
    /* bad arguments */
    {
        const int bad[][4] = {{1, 1, 64, 48}, {0, 1, 64, 64}, {1, 0, 64, 64}, {1, 1, 0, 64}, {1, 1, 64, 16}};
        for (auto &b : bad) {
            const cudaError_t e = attention_flash_bf16(nullptr, nullptr, nullptr, nullptr, nullptr, b[0], b[1],
                                                       b[2], b[3], 0.125f, 0, 0);
            const bool ok = e == cudaErrorInvalidValue;
            printf("%s  args       B=%d H=%d N=%d d=%d -> %s\n", ok ? "PASS" : "FAIL", b[0], b[1], b[2], b[3],
                   cudaGetErrorName(e));
            fails += !ok;
            runs++;
        }
        cudaGetLastError();
    }
    for (const ref::Case &c : ref::check_cases()) {
        std::vector<int> vs;
        if (only >= 0) {
            int d = 0;
            attention_flash_bf16_variant_info(only, &d, nullptr, nullptr);
            if (d != c.d)
                continue;
            vs.push_back(only);
        } else {
            vs.push_back(-1); /* the public entry point: the default for d */
            for (int v = 0; v < attention_flash_bf16_variants(); v++) {
                int d = 0, def = 0;
                attention_flash_bf16_variant_info(v, &d, &def, nullptr);
                if (d == c.d && !def)
                    vs.push_back(v);
            }
        }
        fails += check_case(c, vs);
        runs += (int)vs.size();
    }
    printf("%d passed, %d failed\n", runs - fails, fails);
    return fails ? 1 : 0;
}

/* FlashAttention-2 on an H100, as measured for this project (TFLOP/s); 0: none. */
double fa2_tflops(int B, int N, int d, int causal)
{
    if (B == 4 && N == 4096 && !causal)
        return d == 128 ? 345 : d == 64 ? 279 : 0;
    if (B == 4 && N == 4096 && causal && d == 128)
        return 294;
    if (B == 1 && N == 16384 && !causal)
        return d == 128 ? 353 : d == 64 ? 302 : 0;
    return 0;
}

int cmd_time(int only, bool all)
{
    cudaDeviceProp p;
    int dev = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&p, dev));
    printf("device: %s, %d SMs, sm_%d%d\n", p.name, p.multiProcessorCount, p.major, p.minor);
    const int shapes[][5] = {{4, 16, 4096, 64, 0},  {4, 16, 4096, 64, 1},  {4, 16, 4096, 128, 0},
                             {4, 16, 4096, 128, 1}, {1, 16, 16384, 64, 0}, {1, 16, 16384, 64, 1},
                             {1, 16, 16384, 128, 0}, {1, 16, 16384, 128, 1}};
    std::vector<int> checked(attention_flash_bf16_variants(), 0); /* 1 ok, -1 failed */
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    int fails = 0;
    printf("%-10s %-28s %9s %9s %8s\n", "config", "shape", "ms", "TFLOP/s", "vs FA2");
    for (auto &s : shapes) {
        const ref::Case c{s[0], s[1], s[2], s[3], s[4], (float)(1.0 / sqrt((double)s[3])), 1.f, ref::NAN_NONE, 99};
        std::vector<int> vs;
        for (int v = 0; v < attention_flash_bf16_variants(); v++) {
            int d = 0, def = 0;
            attention_flash_bf16_variant_info(v, &d, &def, nullptr);
            if (d == c.d && (all || (only >= 0 ? v == only : def)))
                vs.push_back(v);
        }
        if (vs.empty())
            continue;
        std::vector<uint16_t> q, k, v;
        ref::make_inputs(c, q, k, v);
        Dev D;
        D.alloc(q.size(), (size_t)c.B * c.H * c.N);
        D.upload(q, k, v);
        const double flop = 4.0 * c.B * c.H * (double)c.N * c.N * c.d * (c.causal ? 0.5 : 1.0);
        for (int vi : vs) {
            const char *name = attention_flash_bf16_variant_info(vi, nullptr, nullptr, nullptr);
            if (!checked[vi]) { /* validate before timing, both masks, N not a tile multiple */
                int f = 0;
                for (int causal = 0; causal < 2; causal++)
                    f += check_case(ref::Case{1, 2, 777, c.d, causal, (float)(1.0 / sqrt((double)c.d)), 1.f,
                                              ref::NAN_NONE, 7},
                                    std::vector<int>{vi}, true);
                checked[vi] = f ? -1 : 1;
            }
            if (checked[vi] < 0) {
                printf("%-10s failed its check: not timed\n", name);
                fails++;
                continue;
            }
            for (int i = 0; i < 3; i++)
                CK(run(vi, D, c, st));
            std::vector<float> ms(30);
            for (float &t : ms) {
                CK(cudaEventRecord(e0, st));
                CK(run(vi, D, c, st));
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                CK(cudaEventElapsedTime(&t, e0, e1));
            }
            std::sort(ms.begin(), ms.end());
            const double t = ms[ms.size() / 2];
            const double tf = flop / (t * 1e-3) / 1e12, fa2 = fa2_tflops(c.B, c.N, c.d, c.causal);
            char shape[64], ratio[16] = "-";
            snprintf(shape, sizeof shape, "B=%d H=%d N=%d d=%d%s", c.B, c.H, c.N, c.d, c.causal ? " causal" : "");
            if (fa2 > 0)
                snprintf(ratio, sizeof ratio, "%.2fx", tf / fa2);
            printf("%-10s %-28s %9.3f %9.1f %8s\n", name, shape, t, tf, ratio);
        }
        D.free_all();
    }
    return fails ? 1 : 0;
}

int usage()
{
    fprintf(stderr, "usage: driver check [--config NAME] | driver time [--config NAME|all]\nconfigs:\n");
    for (int v = 0; v < attention_flash_bf16_variants(); v++) {
        int d = 0, def = 0;
        const char *what = nullptr;
        const char *name = attention_flash_bf16_variant_info(v, &d, &def, &what);
        fprintf(stderr, "  %-10s d=%-3d %s%s\n", name, d, what, def ? " (default)" : "");
    }
    return 2;
}

} /* namespace */

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const std::string cmd = argv[1];
    int only = -1;
    bool all = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc) {
            const char *name = argv[++i];
            if (!strcmp(name, "all")) {
                all = true;
            } else if ((only = find_variant(name)) < 0) {
                fprintf(stderr, "unknown config %s\n", name);
                return usage();
            }
        } else {
            return usage();
        }
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "no CUDA device\n");
        return 77;
    }
    if (cmd == "check")
        return cmd_check(all ? -1 : only);
    if (cmd == "time")
        return cmd_time(only, all);
    return usage();
}
