// Function calls: noinline helpers taking pointers (global, local, private,
// constant) and values (scalars of every width, vectors, structs), returning
// values of every kind, call chains, a helper called from several kernels, a
// kernel calling another kernel, void helpers with out-parameters.

typedef struct {
    int a;
    float b;
    long c;
} triple;

__attribute__((noinline)) char f_char(char x) { return x * 2; }
__attribute__((noinline)) uchar f_uchar(uchar x) { return x + 200; }
__attribute__((noinline)) short f_short(short x, short y) { return x - y; }
__attribute__((noinline)) ushort f_ushort(ushort x) { return x >> 3; }
__attribute__((noinline)) int f_int(int x, int y, int z) { return x * y + z; }
__attribute__((noinline)) uint f_uint(uint x) { return x ^ 0xdeadbeefu; }
__attribute__((noinline)) long f_long(long x) { return x << 33; }
__attribute__((noinline)) ulong f_ulong(ulong x, uint y) { return x + y; }
__attribute__((noinline)) float f_float(float x, float y) { return x * y - 1.0f; }
__attribute__((noinline)) bool f_bool(int x) { return x > 3; }
__attribute__((noinline)) int4 f_int4(int4 v, int s) { return v * s; }
__attribute__((noinline)) float3 f_float3(float3 v) { return v.zxy; }
__attribute__((noinline)) triple f_triple(triple t) {
    t.a++;
    t.b *= 2.0f;
    t.c -= t.a;
    return t;
}

__attribute__((noinline)) void out_params(int x, private int *q, private int *r) {
    *q = x / 7;
    *r = x % 7;
}

__attribute__((noinline)) void to_global_ptr(global float *dst, const global float *src, int n) {
    for (int k = 0; k < n; k++)
        dst[k] = src[k] + 1.0f;
}

__attribute__((noinline)) int from_constant(constant int *c, int k) { return c[k]; }

__attribute__((noinline)) void via_local(local int *l, int v) { l[get_local_id(0)] = v; }

__attribute__((noinline)) int depth3(int x) { return x + 3; }
__attribute__((noinline)) int depth2(int x) { return depth3(x) * 2; }
__attribute__((noinline)) int depth1(int x) { return depth2(x) - depth3(x); }

kernel void call_scalars(global long *out) {
    size_t i = get_global_id(0);
    int x = (int)i;
    long r = f_char((char)x) + f_uchar((uchar)x) + f_short((short)x, 3) + f_ushort((ushort)x) +
             f_int(x, x, 1) + f_uint((uint)x) + f_long(x) + (long)f_ulong(i, 5u) +
             (long)f_float((float)x, 0.5f) + f_bool(x);
    out[i] = r;
}

kernel void call_aggregates(global int4 *v, global float3 *f, global triple *t) {
    size_t i = get_global_id(0);
    v[i] = f_int4(v[i], 3);
    f[i] = f_float3(f[i]);
    t[i] = f_triple(t[i]);
}

kernel void call_pointers(global float *dst, global const float *src, constant int *c, local int *l,
                          global int *out) {
    size_t i = get_global_id(0);
    int q, r;
    out_params((int)i * 13, &q, &r);
    to_global_ptr(dst + i * 4, src + i * 4, 4);
    via_local(l, q);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = q + r + from_constant(c, (int)(i & 3)) + l[0] + depth1((int)i);
}

// A kernel called as a function from another kernel.
kernel void callee_kernel(global int *p, int v) { p[get_global_id(0)] += v; }

kernel void caller_kernel(global int *p) {
    callee_kernel(p, 10);
    p[get_global_id(0)] *= 2;
}

// Many parameters, some spilled to the stack by a native ABI.
__attribute__((noinline)) float many_params(float a, int b, float c, long d, float e, char f, float g,
                                            short h, float i2, int4 j, float k, uchar l, float m) {
    return a + b + c + d + e + f + g + h + i2 + j.x + j.w + k + l + m;
}

kernel void call_many(global float *out) {
    size_t i = get_global_id(0);
    out[i] = many_params(1.0f, 2, 3.0f, 4, 5.0f, 6, 7.0f, 8, 9.0f, (int4)(10), 11.0f, 12, (float)i);
}
