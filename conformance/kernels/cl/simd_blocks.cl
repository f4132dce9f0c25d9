// Small vectors per work-item in 4- and 8-lane bodies
// (tests/exec_simd_blocks.rs): the four lanes' uchar2/uchar4/short2/
// short4/int2/float2/float4 values loaded and stored as one block when
// side by side, gathered and scattered lane by lane as whole values
// otherwise, their components picked out and put back by shuffles, and
// bit casts between types of different component counts through such
// a block. Only moves: every bit is kept (NaN payloads included).

// Loads and stores through pointers moving by the value's size.
kernel void side_by_side(global const uchar2 *a2, global const uchar4 *a4, global const short2 *s2,
                         global const short4 *s4, global const int2 *i2, global const float2 *f2,
                         global const float4 *f4, global uchar2 *o2, global uchar4 *o4, global short2 *t2,
                         global short4 *t4, global int2 *j2, global float2 *g2, global float4 *g4) {
    size_t i = get_global_id(0);
    uchar2 a = a2[i];
    uchar4 b = a4[i];
    short2 c = s2[i];
    short4 d = s4[i];
    int2 e = i2[i];
    float2 f = f2[i];
    float4 g = f4[i];
    o2[i] = a.yx;
    o4[i] = b.wxzy;
    t2[i] = c.yx;
    t4[i] = d.zwxy;
    j2[i] = e.yx;
    g2[i] = f.yx;
    g4[i] = g.wzyx;
}

// The same values through pointers moving by other strides, or not
// affine at all: gathered and scattered (idx is a permutation).
kernel void gathered(global const int *idx, global const uchar4 *a4, global const short2 *s2,
                     global const float4 *f4, global const int2 *i2, global uchar4 *o4, global short2 *t2,
                     global float4 *g4, global int2 *j2) {
    size_t i = get_global_id(0);
    int k = idx[i];
    uchar4 b = a4[k];
    short2 c = s2[2 * i];
    float4 g = f4[k];
    int2 e = i2[3 * i + 1];
    o4[k] = b.yzwx;
    t2[2 * i + 1] = c.yx;
    g4[k] = g.yxwz;
    j2[3 * i] = e.yx;
}

// Bit casts between types of different component counts.
kernel void casts(global const uint *u, global const ulong *l, global uint *ou, global ulong *ol) {
    size_t i = get_global_id(0), n = get_global_size(0);
    uint x = u[i];
    ulong y = l[i];
    uchar4 b = as_uchar4(x);
    short2 s = as_short2(x);
    float2 f = as_float2(y);
    short4 q = as_short4(y);
    uchar8 c = as_uchar8(y);
    ou[0 * n + i] = as_uint(b.wzyx);
    ou[1 * n + i] = as_uint(s.yx);
    ou[2 * n + i] = as_uint((uchar4)(b.x, c.s7, c.s2, b.w));
    ol[0 * n + i] = as_ulong(f.yx);
    ol[1 * n + i] = as_ulong(q.wzyx);
    ol[2 * n + i] = as_ulong((int2)(as_int(s), as_int(f.x)));
}

// Bit casts between 16-byte types whose components are 64-bit (held as
// pairs of 2-lane vectors) and narrower ones.
kernel void casts_wide(global const ulong *a, global const ulong *b, global ulong *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    ulong2 x = (ulong2)(a[i], b[i]);
    uchar16 c = as_uchar16(x);
    short8 s = as_short8(x);
    float4 f = as_float4(x);
    o[0 * n + i] = as_ulong(c.s0123fedc);
    o[1 * n + i] = as_ulong(s.s7531);
    ulong2 r = as_ulong2(c.sfedcba9876543210);
    o[2 * n + i] = r.x;
    o[3 * n + i] = r.y;
    double2 d = as_double2(f.yxwz);
    o[4 * n + i] = as_ulong(d.x);
    o[5 * n + i] = as_ulong(d.y);
    long2 q = as_long2(s.s10325476);
    o[6 * n + i] = q.x;
    o[7 * n + i] = q.y;
}

// vloadn and vstoren of small vectors: at the work-item's id (side by
// side) and at 2i + 1 (whole values lane by lane), from pointers past the
// buffers' starts (no alignment beyond the component's).
kernel void builtins(global const uchar *a, global const short *s, global const float *f, global uchar *oa,
                     global short *os, global float *of) {
    size_t i = get_global_id(0);
    uchar4 x = vload4(i, a + 1);
    uchar8 y = vload8(2 * i + 1, a);
    uchar16 z = vload16(i, a + 3);
    short2 u = vload2(i, s + 1);
    short8 v = vload8(2 * i + 1, s);
    float4 w = vload4(i, f + 2);
    vstore4(x.wzyx, i, oa + 1);
    vstore8(y.s76543210, 2 * i + 1, oa + 512);
    vstore16(z.sfedcba9876543210, i, oa + 2560);
    vstore2(u.yx, i, os + 1);
    vstore8(v.s10325476, 2 * i + 1, os + 512);
    vstore4(w.yxwz, i, of + 3);
}

// Indices made with a bitwise or (clang's 2i + 1 is (i << 1) | 1): an
// affine sequence where the or only sets bits every lane has clear, and
// lane by lane where it does not ((i << 2) | 5, i | 1).
kernel void or_indices(global const int *in, global int *o) {
    size_t i = get_global_id(0);
    o[4 * i + 0] = in[(i << 1) | 1];
    o[4 * i + 1] = in[(i << 2) | 5];
    o[4 * i + 2] = in[i | 1];
    o[4 * i + 3] = in[(i << 3) | 7];
}
