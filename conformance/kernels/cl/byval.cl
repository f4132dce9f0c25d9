// Structs passed by value that the kernel writes to (tests/exec_byval.rs):
// each work-item gets its own copy of the argument, with and without
// barriers (where the copy lives in the work-item's frame).
typedef struct { int a; float b; int c[4]; } S;

kernel void written(S s, global int *out)
{
    size_t i = get_global_id(0);
    s.a += (int)i;
    s.c[i & 3] = 7;
    out[i] = s.a + s.c[0] + s.c[3] + (int)s.b;
}

kernel void written_across_barrier(S s, global int *out, local int *scratch)
{
    size_t i = get_global_id(0);
    size_t l = get_local_id(0);
    s.a += (int)i;
    scratch[l] = s.a;
    barrier(CLK_LOCAL_MEM_FENCE);
    s.c[1] += scratch[(l + 1) % get_local_size(0)];
    out[i] = s.a + s.c[1];
}
