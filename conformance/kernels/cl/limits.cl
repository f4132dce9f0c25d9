// Private memory limits (tests/exec_limits.rs): a barrier-free kernel keeps
// its private variables on the stack (at most 1 MiB per work-item); a kernel
// with barriers keeps them in per-work-item frames, whose total per
// work-group is bounded at enqueue.

kernel void big_stack(global int *out, int n)
{
    volatile int a[512 * 1024];   // 2 MiB
    a[n] = n;
    out[get_global_id(0)] = a[n];
}

kernel void big_frame(global int *out, int n)
{
    int a[1024 * 1024];           // 4 MiB per work-item, live across the barrier
    for (int i = 0; i < 1024 * 1024; i += 4096)
        a[i] = i + (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a[n];
}
