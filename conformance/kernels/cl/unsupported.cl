// A kernel that builds but that code generation cannot run
// (tests/ndrange.rs): its private array (4 MiB) is more than the stack
// clift gives a work-item, so the build log says the kernel cannot run and
// its enqueue fails, while the program's other kernels run.
kernel void too_much_private_memory(global int *out, int n)
{
    int big[1 << 20];
    for (int i = 0; i < n; i++)
        big[(i * 7919) & ((1 << 20) - 1)] = i;
    out[get_global_id(0)] = big[n & ((1 << 20) - 1)];
}

kernel void runs(global int *out)
{
    out[get_global_id(0)] = 7;
}
