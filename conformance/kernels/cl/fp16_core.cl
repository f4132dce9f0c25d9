// Half precision (cl_khr_fp16) core instructions: arithmetic, relational,
// vectors, conversions in every rounding mode, bitcasts, memory (private,
// local, global, structs, by-value arguments), collectives.
// tests/exec_fp16.rs checks every result against a host reference.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "fp_arith.h"

FP_ARITH(half, int)

// Vector forms on half4 (relational results are short4, -1 for true), dot,
// vector times scalar, any/all, and half2/3/8/16 through vloadn/vstoren.
kernel void vec(global const half *a_, global const half *b_, global half *o, global short *oi) {
    size_t i = get_global_id(0), n = get_global_size(0);
    half4 a = vload4(i, a_), b = vload4(i, b_);
    vstore4(a + b, 0 * n + i, o);
    vstore4(a * b - a, 1 * n + i, o);
    vstore4(a / b, 2 * n + i, o);
    vstore4(a * b.x, 3 * n + i, o);
    vstore4(-a, 4 * n + i, o);
    vstore4((half4)(dot(a, b), any(a < b), all(a < b), 0.0h), 5 * n + i, o);
    vstore4(a.wzyx, 6 * n + i, o);
    vstore4(a < b, 0 * n + i, oi);
    vstore4(isnan(a), 1 * n + i, oi);
    vstore4(isunordered(a, b), 2 * n + i, oi);
    vstore4(signbit(a), 3 * n + i, oi);
    vstore4(islessgreater(a, b), 4 * n + i, oi);
    vstore4(isnormal(a), 5 * n + i, oi);
    vstore4(select(a, b, a < b), 7 * n + i, o);
    // 2, 3, 8 and 16 components: sums of each.
    half2 a2 = vload2(i, a_), b2 = vload2(i, b_);
    half3 a3 = vload3(i, a_), b3 = vload3(i, b_);
    half8 a8 = vload8(i, a_), b8 = vload8(i, b_);
    half16 a16 = vload16(i, a_), b16 = vload16(i, b_);
    half2 s2 = a2 + b2;
    half3 s3 = a3 * b3;
    half8 s8 = a8 - b8;
    half16 s16 = a16 * b16 + a16;
    vstore2(s2, 0, o + 8 * 4 * n + 32 * i);
    vstore3(s3, 0, o + 8 * 4 * n + 32 * i + 2);
    vstore8(s8, 0, o + 8 * 4 * n + 32 * i + 5);
    vstore16(s16, 0, o + 8 * 4 * n + 32 * i + 13);
}

// Conversions: half to every integer type (default, saturated, each
// rounding mode), integers, float and double to half in each rounding
// mode, half to float and double.
kernel void convert(global const half *h_, global const int *k_, global const float *f_,
                    global const double *d_, global long *ol, global half *oh,
                    global float *of, global double *od) {
    size_t i = get_global_id(0), n = get_global_size(0);
    half h = h_[i]; int k = k_[i]; float f = f_[i]; double d = d_[i];
    size_t r = 0;
    ol[r++ * n + i] = convert_char_sat(h);
    ol[r++ * n + i] = convert_uchar_sat(h);
    ol[r++ * n + i] = convert_short_sat(h);
    ol[r++ * n + i] = convert_ushort_sat(h);
    ol[r++ * n + i] = convert_int_sat(h);
    ol[r++ * n + i] = convert_uint_sat(h);
    ol[r++ * n + i] = convert_long_sat(h);
    ol[r++ * n + i] = (long)convert_ulong_sat(h);
    ol[r++ * n + i] = convert_int_sat_rte(h);
    ol[r++ * n + i] = convert_int_sat_rtz(h);
    ol[r++ * n + i] = convert_int_sat_rtp(h);
    ol[r++ * n + i] = convert_int_sat_rtn(h);
    ol[r++ * n + i] = convert_short_sat_rte(h);
    ol[r++ * n + i] = convert_uchar_sat_rtp(h);
    size_t s = 0;
    oh[s++ * n + i] = convert_half(k);
    oh[s++ * n + i] = convert_half_rte(k);
    oh[s++ * n + i] = convert_half_rtz(k);
    oh[s++ * n + i] = convert_half_rtp(k);
    oh[s++ * n + i] = convert_half_rtn(k);
    oh[s++ * n + i] = convert_half((uint)k);
    oh[s++ * n + i] = convert_half_rtz((ulong)(long)k);
    oh[s++ * n + i] = convert_half_rtp((long)k * 1000);
    oh[s++ * n + i] = convert_half((short)k);
    oh[s++ * n + i] = convert_half_rtn((char)k);
    oh[s++ * n + i] = convert_half(f);
    oh[s++ * n + i] = convert_half_rte(f);
    oh[s++ * n + i] = convert_half_rtz(f);
    oh[s++ * n + i] = convert_half_rtp(f);
    oh[s++ * n + i] = convert_half_rtn(f);
    oh[s++ * n + i] = convert_half(d);
    oh[s++ * n + i] = convert_half_rte(d);
    oh[s++ * n + i] = convert_half_rtz(d);
    oh[s++ * n + i] = convert_half_rtp(d);
    oh[s++ * n + i] = convert_half_rtn(d);
    of[i] = convert_float(h);
    od[i] = convert_double(h);
}

// Bitcasts: half <-> short/ushort, half2 <-> int/uint, half4 <-> long,
// half2 <-> short2; as_half of integer arithmetic.
kernel void bitcast(global const half *a_, global const short *s_, global int *oi, global half *oh) {
    size_t i = get_global_id(0), n = get_global_size(0);
    half a = a_[i];
    short s = s_[i];
    half2 a2 = vload2(i, a_);
    half4 a4 = vload4(i, a_);
    oi[0 * n + i] = as_short(a);
    oi[1 * n + i] = as_ushort(a);
    oi[2 * n + i] = as_int(a2);
    oi[3 * n + i] = (int)(as_long(a4) >> 16);
    short2 sv = as_short2(a2);
    oi[4 * n + i] = sv.y;
    oh[0 * n + i] = as_half(s);
    oh[1 * n + i] = as_half((ushort)(s + 1));
    half2 h2 = as_half2(as_int(a2) ^ 0x80000000);
    oh[2 * n + i] = h2.y;
    oh[3 * n + i] = as_half2(as_uint(a2)).x;
}

typedef struct {
    char tag;
    half h;
    half2 v;
    float f;
    half arr[3];
} S;

// Memory: a by-value half argument and struct, private and local half
// arrays, a struct in global memory, generic pointers.
kernel void memory(global const half *a_, half scale, S s, global S *gs, global half *o, local half *lh) {
    size_t i = get_global_id(0), n = get_global_size(0), j = get_local_id(0);
    local half tile[64];
    half priv[4];
    half a = a_[i];
    for (int k = 0; k < 4; k++)
        priv[k] = a * (half)(k + 1);
    tile[j] = a * scale;
    lh[j] = a + s.h;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t other = get_local_size(0) - 1 - j;
    o[0 * n + i] = tile[other];
    o[1 * n + i] = lh[other];
    o[2 * n + i] = priv[3] - priv[1];
    o[3 * n + i] = s.v.x * s.v.y + s.arr[2];
    generic half *gp = &priv[2];
    o[4 * n + i] = *gp;
    S t = gs[i];
    t.h = t.h + a;
    t.arr[1] = t.v.y * scale;
    t.f = (float)t.arr[0];
    gs[i] = t;
}

// Work-group and sub-group collectives on half.
kernel void collective(global const half *a_, global half *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    half a = a_[i];
    o[0 * n + i] = work_group_reduce_add(a);
    o[1 * n + i] = work_group_reduce_min(a);
    o[2 * n + i] = work_group_reduce_max(a);
    o[3 * n + i] = work_group_scan_inclusive_add(a);
    o[4 * n + i] = work_group_scan_exclusive_max(a);
    o[5 * n + i] = work_group_broadcast(a, 3);
    o[6 * n + i] = sub_group_reduce_add(a);
}

// A multiply-add on half in a 4-lane body (the loads and stores as
// vectors, mad lane by lane).
kernel void simd(global const half *a, global const half *b, global half *o, int len) {
    size_t i = get_global_id(0);
    if (i < len)
        o[i] = a[i] * b[i] + a[i];
}

// Half arithmetic in a 4-lane body: +, -, * and / as vector code rounded
// to half, a comparison and a select, a negation, loads and stores of
// four halves at once (and lane by lane in the last, partial chunk).
kernel void simd_arith(global const half *a, global const half *b, global half *o, int len) {
    size_t i = get_global_id(0);
    if (i < len) {
        half x = a[i], y = b[i];
        half s = x + y, p = x * y;
        o[i] = s;
        o[len + i] = x - y;
        o[2 * len + i] = p;
        o[3 * len + i] = x / y;
        o[4 * len + i] = x < y ? p : s;
        o[5 * len + i] = -x;
    }
}

// Conversions to and from half in a 4-lane body: float, int and uint to
// half rounded to nearest, half to float.
kernel void simd_convert(global const float *f, global const int *n, global const uint *u,
                         global const half *h, global half *o, global float *w, int len) {
    size_t i = get_global_id(0);
    if (i < len) {
        o[i] = (half)f[i];
        o[len + i] = (half)n[i];
        o[2 * len + i] = (half)u[i];
        w[i] = (float)h[i] * 2.0f;
    }
}

// Program-scope half variables: a __constant table (initializer bytes
// written at build) and a __global half updated by the kernel; a helper
// function taking and returning half vectors. Only a launch of one
// work-item updates acc: in a larger launch, work-items of other
// work-groups would read it while it is written (a data race, whose
// result the spec leaves undefined).
constant half table[4] = {1.0h, -2.5h, 65504.0h, 0x1p-24h};
global half acc = 0.75h;

half2 twice_plus(half2 v, half s) { return v * (half)2.0h + s; }

kernel void program_scope(global const half *a_, global half *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    half a = a_[i];
    o[0 * n + i] = table[i % 4] * a;
    o[1 * n + i] = acc + a;
    half2 t = twice_plus((half2)(a, table[i % 4]), acc);
    o[2 * n + i] = t.x;
    o[3 * n + i] = t.y;
    if (n == 1)
        acc = acc * (half)3.0h;
}
