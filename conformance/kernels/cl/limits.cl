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

// A private array of 768 KiB (within the stack limit): generic pointers to
// both of its ends are still private, and not global.
kernel void big_private_is_private(global int *out, int n)
{
    volatile int a[192 * 1024];
    a[0] = n;
    a[192 * 1024 - 1] = n;
    generic int *lo = (generic int *)&a[0];
    generic int *hi = (generic int *)&a[192 * 1024 - 1];
    out[0] = to_private(lo) != 0;
    out[1] = to_private(hi) != 0;
    out[2] = to_global(lo) != 0;
    out[3] = to_global(hi) != 0;
}
