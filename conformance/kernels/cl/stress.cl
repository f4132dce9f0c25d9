// Memory at its limits (tests/exec_big.rs): a __local argument as large as
// the device allows, and an 8 KiB private array per work-item live across a
// barrier in large work-groups.

kernel void fill_local(global int *out, local int *big, uint n)
{
    size_t l = get_local_id(0), lsz = get_local_size(0), grp = get_group_id(0);
    for (size_t i = l; i < n; i += lsz)
        big[i] = (int)(i * 3 + grp);
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (uint k = 0; k < 16; k++)
        s += big[(l * 7 + k * 13 + (size_t)k * n / 16) % n];
    out[get_global_id(0)] = s;
}

kernel void big_private(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int a[2048];
    int x = in[g];
    for (int i = 0; i < 2048; i++)
        a[i] = x ^ i;
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += a[(i * 37 + x) & 2047];
    out[g] = s;
}
