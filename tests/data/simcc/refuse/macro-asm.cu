#define SYNC_COPIES() \
    asm volatile("cp.async.wait_all;" ::: "memory")
__device__ void f() { SYNC_COPIES(); }
