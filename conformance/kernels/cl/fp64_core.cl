// Double precision (cl_khr_fp64) core instructions: arithmetic, relational,
// vectors, select and bitcasts. tests/exec_fp64.rs checks every result
// against a host reference.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "fp_arith.h"

FP_ARITH(double, long)

// Vector forms: the same on double4 (relational results are long4, -1 for
// true), dot, vector times scalar, any/all.
kernel void vec4(global const double4 *a_, global const double4 *b_, global double4 *o,
                 global long4 *oi, global double *od) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double4 a = a_[i], b = b_[i];
    o[0 * n + i] = a + b;
    o[1 * n + i] = a * b - a;
    o[2 * n + i] = a / b;
    o[3 * n + i] = a * b.x;
    o[4 * n + i] = -a;
    oi[0 * n + i] = a < b;
    oi[1 * n + i] = isnan(a);
    oi[2 * n + i] = isunordered(a, b);
    oi[3 * n + i] = signbit(a);
    oi[4 * n + i] = islessgreater(a, b);
    od[0 * n + i] = dot(a, b);
    od[1 * n + i] = (double)any(a < b) + 2.0 * (double)all(a < b);
}

// double3, double8 and double16 through components and swizzles.
kernel void vec_wide(global const double *a, global double *o) {
    size_t i = get_global_id(0);
    double3 v3 = vload3(i, a);
    double8 v8 = vload8(i, a);
    double16 v16 = vload16(i, a);
    double2 v2 = v8.s73;
    vstore3(v3 * 2.0 + v3.zxy, i, o);
    vstore8(v8.s76543210 - v16.lo, i, o + 3 * get_global_size(0));
    vstore16(v16 * v16.sfedcba9876543210, i, o + 11 * get_global_size(0));
    vstore2(v2, i, o + 27 * get_global_size(0));
}

// Bitcasts between double and 64-bit integer or two 32-bit components.
kernel void bitcasts(global const double *a, global const long *l, global long *ol, global double *od,
                     global int2 *oi2, global float2 *of2, global double *od2) {
    size_t i = get_global_id(0);
    ol[i] = as_long(a[i]);
    od[i] = as_double(l[i]);
    oi2[i] = as_int2(a[i]);
    of2[i] = as_float2(a[i]);
    od2[i] = as_double(as_int2(l[i])) + as_double(as_uint2(l[i]) ^ (uint2)(0, 0x80000000u));
}

// Double kernel arguments by value (scalar, vector) and a double in a
// struct passed by value.
typedef struct { char tag; double d; int k; double2 v; } Mixed;
kernel void args(double s, double4 v, Mixed m, global double *o) {
    size_t i = get_global_id(0);
    o[i * 8 + 0] = s;
    o[i * 8 + 1] = v.x + v.y;
    o[i * 8 + 2] = v.z * v.w;
    o[i * 8 + 3] = m.d;
    o[i * 8 + 4] = (double)m.tag;
    o[i * 8 + 5] = (double)m.k;
    o[i * 8 + 6] = m.v.x;
    o[i * 8 + 7] = m.v.y + (double)i;
}
