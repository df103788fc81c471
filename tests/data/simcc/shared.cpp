#line 1 "tests/data/simcc/shared.cu"
// __shared__: several declarators, __align__, dimensions from template
// parameters, a declaration over lines, volatile, extern (dynamic).
struct ml {
    float m, l;
};

template <int BM, int BK> __global__ void tiles(float *out)
{
    struct mw_sim_sh_0_0 { __align__(16) float As[BK][BM + 4]; }; static char mw_sim_key_0_0; auto &As = static_cast<mw_sim_sh_0_0 *>(::mw_sim::shared_static<decltype(mw_sim_sh_0_0::As)>(&mw_sim_key_0_0, sizeof(mw_sim_sh_0_0), alignof(mw_sim_sh_0_0), "As", __FILE__, __LINE__))->As; struct mw_sim_sh_0_1 { __align__(16) float s_max; }; static char mw_sim_key_0_1; auto &s_max = static_cast<mw_sim_sh_0_1 *>(::mw_sim::shared_static<decltype(mw_sim_sh_0_1::s_max)>(&mw_sim_key_0_1, sizeof(mw_sim_sh_0_1), alignof(mw_sim_sh_0_1), "s_max", __FILE__, __LINE__))->s_max;
    struct mw_sim_sh_1_0 { ml red[32]; }; static char mw_sim_key_1_0; auto &red = static_cast<mw_sim_sh_1_0 *>(::mw_sim::shared_static<decltype(mw_sim_sh_1_0::red)>(&mw_sim_key_1_0, sizeof(mw_sim_sh_1_0), alignof(mw_sim_sh_1_0), "red", __FILE__, __LINE__))->red;
    struct mw_sim_sh_2_0 { volatile int flag; }; static char mw_sim_key_2_0; auto &flag = static_cast<mw_sim_sh_2_0 *>(::mw_sim::shared_static<decltype(mw_sim_sh_2_0::flag)>(&mw_sim_key_2_0, sizeof(mw_sim_sh_2_0), alignof(mw_sim_sh_2_0), "flag", __FILE__, __LINE__))->flag;
    struct mw_sim_sh_3_0 { float split[2][ 8]; }; static char mw_sim_key_3_0; auto &split = static_cast<mw_sim_sh_3_0 *>(::mw_sim::shared_static<decltype(mw_sim_sh_3_0::split)>(&mw_sim_key_3_0, sizeof(mw_sim_sh_3_0), alignof(mw_sim_sh_3_0), "split", __FILE__, __LINE__))->split

; // over lines
    unsigned char *const smem = ::mw_sim::shared_dynamic<unsigned char>("smem", __FILE__, __LINE__);
    struct mw_sim_sh_4_0 { unsigned ticket; }; static char mw_sim_key_4_0; auto &ticket = static_cast<mw_sim_sh_4_0 *>(::mw_sim::shared_static<decltype(mw_sim_sh_4_0::ticket)>(&mw_sim_key_4_0, sizeof(mw_sim_sh_4_0), alignof(mw_sim_sh_4_0), "ticket", __FILE__, __LINE__))->ticket;
    out[0] = As[0][0] + s_max + red[0].m + flag + split[1][7] + smem[0] + ticket;
}

__global__ void dynamic(float *out) { float4 *const buf = ::mw_sim::shared_dynamic<float4>("buf", __FILE__, __LINE__); out[0] = buf[0].x; }
