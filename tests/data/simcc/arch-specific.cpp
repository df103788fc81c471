#line 1 "tests/data/simcc/arch-specific.cu"
/* PTX the emulation does not run, in the branch an architecture-specific
 * build alone compiles (MW_ARCH_SPECIFIC, a "Tuned for" file): rewritten,
 * not refused, since the preprocessor drops it before the emulation. */
#ifdef MW_ARCH_SPECIFIC
__device__ void fence() { ::mw_sim_asm("wgmma.fence.sync.aligned;", __FILE__, __LINE__, {}, {}); }
#if defined(MW_ARCH_SPECIFIC)
__device__ void wait() { ::mw_sim_asm("wgmma.wait_group.sync.aligned 0;", __FILE__, __LINE__, {}, {}); }
#endif
#else
__device__ void fence() {}
#endif
__device__ float half(float x) { return x * 0.5f; }
