/* PTX the emulation does not run, in the branch an architecture-specific
 * build alone compiles (MW_ARCH_SPECIFIC, a "Tuned for" file): rewritten,
 * not refused, since the preprocessor drops it before the emulation. */
#ifdef MW_ARCH_SPECIFIC
__device__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
#if defined(MW_ARCH_SPECIFIC)
__device__ void wait() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
#endif
#else
__device__ void fence() {}
#endif
__device__ float half(float x) { return x * 0.5f; }
