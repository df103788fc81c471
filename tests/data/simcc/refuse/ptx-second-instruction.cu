__device__ void sync_copies()
{
    asm volatile("cp.async.commit_group;\n"
                 "bar.sync 0;\n" ::: "memory");
}
