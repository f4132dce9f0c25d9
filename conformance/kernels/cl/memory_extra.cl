// More memory patterns (tests/exec_memory.rs): program-scope variables whose
// initializers hold addresses of other variables, tables of string
// pointers, volatile accesses, float3 members, pointer <-> integer
// conversions, pointer comparisons and differences, selects and phis of
// pointers, OpUnreachable.

global int gdata[8] = {10, 20, 30, 40, 50, 60, 70, 80};
global int *gptr = &gdata[3];
constant char *constant names[4] = {"zero", "one", "two", "three"};
constant int ctab[4] = {5, 6, 7, 8};
constant int *constant cptr = &ctab[1];

kernel void pointer_initializers(global int *out)
{
    size_t g = get_global_id(0);
    if (g == 0) {
        out[0] = *gptr;
        out[1] = gptr[2];
        out[2] = *cptr + cptr[2];
        // Bump gdata through the pointer variable, then move the pointer.
        *gptr += 1000;
        gptr = &gdata[5];
        out[3] = *gptr;
    }
}

kernel void read_after_pointer_moved(global int *out)
{
    size_t g = get_global_id(0);
    if (g < 8)
        out[g] = gdata[g];
    if (g == 8)
        out[8] = (int)(gptr - gdata);
}

kernel void string_table(global const uint *idx, global char *out)
{
    size_t g = get_global_id(0);
    constant char *s = names[idx[g] % 4];
    int n = 0;
    while (s[n] && n < 7) {
        out[g * 8 + n] = s[n];
        n++;
    }
    out[g * 8 + 7] = (char)n;
}

// Volatile loads and stores.
kernel void volatile_access(global int *buf, global int *out)
{
    size_t g = get_global_id(0);
    volatile global int *p = buf + g;
    *p = *p + 1;
    *p = *p * 3;
    volatile int priv = (int)g;
    priv += *p;
    out[g] = priv;
}

// float3 members are 16 bytes, like float4.
struct V3 {
    float3 v; // 0, 16 bytes
    int tag;  // 16, size 32
};

kernel void float3_members(global const struct V3 *in, global struct V3 *out)
{
    size_t g = get_global_id(0);
    struct V3 s = in[g];
    out[g].v = s.v.zxy * 2.0f;
    out[g].tag = s.tag + 1;
}

// Pointers as integers and back, differences and comparisons.
kernel void pointer_arith(global int *base, global const uint *off, global long *out)
{
    size_t g = get_global_id(0);
    ulong a = (ulong)base;
    global int *p = (global int *)(a + (ulong)(off[g] % 64) * sizeof(int));
    global int *q = base + (off[g] >> 8) % 64;
    out[g * 4 + 0] = p - base;
    out[g * 4 + 1] = q - p;
    out[g * 4 + 2] = (p < q) + 2 * (p == q) + 4 * (p > q);
    out[g * 4 + 3] = *p + *q;
}

// Selects and phis of pointers into different buffers.
kernel void pointer_select(global const int *a, global const int *b, global const int *c, global int *out, int n)
{
    size_t g = get_global_id(0);
    global const int *p = (g & 1) ? a : b;
    for (int i = 0; i < n; i++)
        if (p[g] < 0)
            p = c;
        else if (p == c)
            p = a;
    out[g] = p[g];
}

// __builtin_unreachable in the default of a switch the host never reaches
// (every in[g] is below 4; `in[g] & 3` would become an i2 selector, which
// llvm-spirv-15 rejects).
kernel void unreachable(global const uint *in, global int *out)
{
    size_t g = get_global_id(0);
    int r;
    switch (in[g]) {
    case 0: r = 10; break;
    case 1: r = 20; break;
    case 2: r = 30; break;
    case 3: r = 40; break;
    default: __builtin_unreachable();
    }
    out[g] = r + (int)in[g] * 100;
}

// get_fence on generic pointers (OpGenericPtrMemSemantics): global and
// local pointers give their fence flags.
__attribute__((noinline)) int fence_of(const int *p)
{
    return (int)get_fence(p);
}

kernel void fences(global const int *gbuf, global const int *which, global int *out, local int *lbuf)
{
    size_t g = get_global_id(0), l = get_local_id(0);
    lbuf[l] = (int)g;
    int priv = (int)g;
    int w = which[g] % 3;
    const int *p = w == 0 ? (const int *)(gbuf + g) : w == 1 ? (const int *)(lbuf + l) : (const int *)&priv;
    out[g * 2] = fence_of(p);
    out[g * 2 + 1] = fence_of(gbuf) * 16 + fence_of(lbuf);
}
