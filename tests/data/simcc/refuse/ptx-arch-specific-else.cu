/* The #else of an `#ifdef MW_ARCH_SPECIFIC` is what the emulation compiles:
 * its PTX is checked as any other. */
#ifdef MW_ARCH_SPECIFIC
__device__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
#else
__device__ void fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
#endif
