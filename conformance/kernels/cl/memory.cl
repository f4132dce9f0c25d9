// Memory: private arrays, structs (OpenCL C layout) in global memory and by
// value, nested arrays of structs, struct copies, program-scope __constant
// tables and __global variables, generic pointers, calls with pointer and
// by-value parameters, __local pointer arguments, NULL buffer arguments
// (tests/exec_memory.rs).

// A private array indexed with runtime indices, written and read.
kernel void private_array(global const int *in, global const uint *idx, global int *out)
{
    size_t g = get_global_id(0);
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = in[g * 16 + i];
    a[idx[g * 2] & 15] += 1000;
    out[g] = a[idx[g * 2 + 1] & 15];
}

// A private 2D array of longs with runtime row and column.
kernel void private_matrix(global const long *in, global const uint *idx, global long *out)
{
    size_t g = get_global_id(0);
    long m[4][5];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 5; c++)
            m[r][c] = in[g] * (r + 1) + c;
    uint r = idx[g] % 4, c = (idx[g] / 4) % 5;
    m[r][c] = -m[r][c];
    long s = 0;
    for (int i = 0; i < 4; i++)
        s += m[i][c] * (i + 1) + m[r][i];
    out[g] = s;
}

// Members of every alignment: c at 0, i at 4, f at 16, l at 32, size 48.
struct S {
    char c;
    int i;
    float4 f;
    long l;
};

kernel void struct_global(global const struct S *in, global struct S *out)
{
    size_t g = get_global_id(0);
    out[g].c = in[g].c + 1;
    out[g].i = in[g].i * 2;
    out[g].f = in[g].f + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    out[g].l = in[g].l - 3;
}

// A struct passed by value to the kernel.
kernel void struct_by_value(struct S s, global struct S *out)
{
    size_t g = get_global_id(0);
    struct S t = s;
    t.c += (char)g;
    t.i += (int)g;
    t.f.y += (float)g;
    t.l *= (long)g;
    out[g] = t;
}

struct Inner {
    short s[3];
    int v;
};

struct Outer {
    struct Inner in[4];
    char tag;
    ulong w;
};

// Nested arrays of structs with runtime indices.
kernel void nested(global const struct Outer *in, global const uint *idx, global struct Outer *out, global int *sum)
{
    size_t g = get_global_id(0);
    uint a = idx[g] & 3, b = (idx[g] >> 2) % 3;
    struct Outer o = in[g];
    o.in[a].s[b] = (short)(o.in[a].s[b] * 3);
    o.in[3 - a].v += o.tag;
    o.w ^= (ulong)o.in[a].v << 32;
    out[g] = o;
    int t = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++)
            t += in[g].in[i].s[j] * (i * 3 + j + 1);
    sum[g] = t;
}

// Struct assignment: memcpy-like copies (OpCopyMemorySized at -O0).
kernel void struct_copy(global const struct S *in, global const uint *perm, global struct S *out)
{
    size_t g = get_global_id(0);
    struct S t = in[perm[g]];
    struct S u;
    u = t;
    u.i += 1;
    out[g] = u;
}

// A copy of a whole private array through a struct wrapper.
struct Arr {
    int v[9];
};

kernel void array_copy(global const struct Arr *in, global struct Arr *out, global const uint *idx)
{
    size_t g = get_global_id(0);
    struct Arr a = in[g];
    struct Arr b = a;
    b.v[idx[g] % 9] = -1;
    out[g] = b;
}

// Program-scope __constant tables with initializers.
constant int squares[16] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81, 100, 121, 144, 169, 196, 225};
constant struct { short a; float b; } pairs[3] = {{1, 0.5f}, {-2, 1.5f}, {3, -2.25f}};
constant char message[] = "clift!";

kernel void constant_tables(global const uint *idx, global float *out)
{
    size_t g = get_global_id(0);
    uint i = idx[g];
    out[g] = (float)squares[i % 16] + pairs[i % 3].a * pairs[(i >> 4) % 3].b + message[i % 6];
}

// OpenCL 2.0 program-scope __global variables.
global int gcounter = 5;
global int gtable[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
global float4 gvec = (float4)(0.5f, 1.5f, 2.5f, 3.5f);
global long gzero[8]; // zero-initialized

kernel void read_globals(global int *out, global float4 *vout, global long *zout)
{
    size_t g = get_global_id(0);
    out[g] = gtable[g] + gcounter;
    if (g == 0)
        *vout = gvec;
    if (g < 8)
        zout[g] = gzero[g];
}

kernel void write_globals(global const int *in)
{
    size_t g = get_global_id(0);
    gtable[g] = in[g];
    if (g == 0) {
        gcounter = in[16];
        gvec = (float4)(in[17], in[18], in[19], in[20]);
    }
    if (g < 8)
        gzero[g] = (long)in[g] << 40;
}

// Generic pointers: one function called with global, local and private
// pointers; noinline keeps the calls and the casts to generic at -O2.
__attribute__((noinline)) int sum_generic(const int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i] * (i + 1);
    return s;
}

__attribute__((noinline)) void scale_generic(int *p, int n, int k)
{
    for (int i = 0; i < n; i++)
        p[i] *= k;
}

kernel void generic_spaces(global int *in, global int *out, local int *scratch)
{
    size_t g = get_global_id(0), l = get_local_id(0);
    int priv[4];
    for (int i = 0; i < 4; i++) {
        priv[i] = in[g * 4 + i] + 1;
        scratch[l * 4 + i] = in[g * 4 + i] + 2;
    }
    scale_generic(priv, 4, 3);
    scale_generic(scratch + l * 4, 4, 5);
    scale_generic(in + g * 4, 4, 7);
    out[g * 4 + 0] = sum_generic(in + g * 4, 4);
    out[g * 4 + 1] = sum_generic(scratch + l * 4, 4);
    out[g * 4 + 2] = sum_generic(priv, 4);
    out[g * 4 + 3] = sum_generic(priv, 2) + sum_generic(scratch + l * 4 + 2, 2);
}

// to_global / to_local / to_private on a generic pointer chosen at run time:
// the right space gives the pointer back, the others NULL.
kernel void generic_casts(global int *gbuf, global const int *which, global int *out, local int *lbuf)
{
    size_t g = get_global_id(0), l = get_local_id(0);
    int priv[2] = {(int)g, 7};
    lbuf[l] = 100 + (int)g;
    gbuf[g] = 200 + (int)g;
    int w = which[g] % 3;
    int *p = w == 0 ? (int *)(gbuf + g) : w == 1 ? (int *)(lbuf + l) : (int *)priv;
    global int *pg = to_global(p);
    local int *pl = to_local(p);
    private int *pp = to_private(p);
    int flags = (pg != NULL) | ((pl != NULL) << 1) | ((pp != NULL) << 2);
    int v = pg ? *pg : pl ? *pl : pp ? *pp : -1;
    out[g * 2] = flags;
    out[g * 2 + 1] = v + *p;
}

// Calls with by-value structs, pointers to private structs, returned
// structs (noinline: real calls at both levels).
__attribute__((noinline)) struct S combine(struct S a, const struct S *b, int k)
{
    struct S r;
    r.c = a.c + b->c;
    r.i = a.i * k + b->i;
    r.f = a.f * (float)k - b->f;
    r.l = a.l + b->l * k;
    return r;
}

__attribute__((noinline)) void bump(struct S *s, global long *acc)
{
    s->i += 1;
    *acc += s->l;
}

__attribute__((noinline)) int pick(int a, long b, float c, char d)
{
    return a + (int)b * 2 + (int)c * 3 + d * 4;
}

kernel void calls(global const struct S *in, global struct S *out, global long *acc, global int *picked)
{
    size_t g = get_global_id(0);
    struct S a = in[g], b = in[g + 1];
    struct S r = combine(a, &b, (int)g + 1);
    bump(&r, acc + g);
    out[g] = r;
    picked[g] = pick(a.i, b.l, a.f.x, b.c);
}

// A __local pointer argument: each work-item writes and reads its own slots.
kernel void local_arg(global const int *in, global int *out, local int *a, local long *b)
{
    size_t g = get_global_id(0), l = get_local_id(0);
    a[l] = in[g] * 2;
    b[l] = (long)in[g] << 33;
    out[g] = a[l] + (int)(b[l] >> 33);
}

// A NULL buffer argument.
kernel void maybe_null(global const int *p, global int *out)
{
    size_t g = get_global_id(0);
    out[g] = p ? p[g] + 1 : -1;
}

// A __constant pointer argument.
kernel void constant_arg(constant int *tab, global const uint *idx, global int *out)
{
    size_t g = get_global_id(0);
    out[g] = tab[idx[g] % 100] * 2 + tab[(idx[g] >> 8) % 100];
}

// Vectors by value (int3 takes 16 bytes, like int4).
kernel void vector_args(float4 a, int3 b, uchar16 c, long2 d, short8 e, global float *out)
{
    size_t g = get_global_id(0);
    out[g] = a.x * (float)g + a.y + a.z + a.w + (float)(b.x + b.y * 2 + b.z * 3)
        + (float)(c.s0 + c.sf * 2 + c.s7) + (float)(d.x - d.y) + (float)e.s3 * (float)e.s6;
}
