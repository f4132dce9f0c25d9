// Float and double values that are only moved keep every bit, signaling
// NaNs with payloads and denormals included (tests/exec_fp_moves.rs):
// the kernels of moves_body.h for float and for double; as_type to and
// from every type of the same size; constants; atomic exchanges of float.
// These kernels also get 4-lane bodies.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define T float
#define S int
#define U uint
#include "moves_body.h"
#undef T
#undef S
#undef U
#define T double
#define S long
#define U ulong
#include "moves_body.h"
#undef T
#undef S
#undef U

// as_type from float vectors to every type of the same size (AS_FROM in
// moves_body.h); each region is 64 bytes per work-item. r0..r13: int,
// uint; long, double, int2; int4, long2, double2; int8, long4, double4;
// int16, long8, double8; r14: int3 (vstore3, and element 15 alone).
kernel void astype_from_float(global const float *a, global uchar *o, int k) {
    size_t i = get_global_id(0), bytes = 64 * get_global_size(0);
    global const float *p = a + 16 * i;
    global uchar *q = o + 64 * i;
    for (int j = 0; j < 16; j++)
        ((global int *)q)[j] = as_int(p[j]) ^ k;
    q += bytes;
    for (int j = 0; j < 16; j++)
        ((global uint *)q)[j] = as_uint(p[j]) ^ k;
    q += bytes;
    AS_FROM(float, 2, long, XK)
    AS_FROM(float, 2, double, NONE)
    AS_FROM(float, 2, int2, XK)
    AS_FROM(float, 4, int4, XK)
    AS_FROM(float, 4, long2, XK)
    AS_FROM(float, 4, double2, NONE)
    AS_FROM(float, 8, int8, XK)
    AS_FROM(float, 8, long4, XK)
    AS_FROM(float, 8, double4, NONE)
    AS_FROM(float, 16, int16, XK)
    AS_FROM(float, 16, long8, XK)
    AS_FROM(float, 16, double8, NONE)
    for (int j = 0; j < 5; j++)
        vstore3(as_int3(vload3(j, p)) ^ k, j, (global int *)q);
    ((global int *)q)[15] = as_int(p[15]) ^ k;
}

// The other way: region r of o from the same bytes x read as each type of
// astype_from_float (astype_to_double likewise).
kernel void astype_to_float(global const uchar *b, global float *o, int k) {
    size_t i = get_global_id(0), count = 16 * get_global_size(0);
    global const uchar *x = b + 64 * i;
    global float *q = o + 16 * i;
    for (int j = 0; j < 16; j++)
        q[j] = as_float(((global const int *)x)[j] ^ k);
    q += count;
    for (int j = 0; j < 16; j++)
        q[j] = as_float(((global const uint *)x)[j] ^ k);
    q += count;
    AS_TO(float, 2, long, XK)
    AS_TO(float, 2, double, NONE)
    AS_TO(float, 2, int2, XK)
    AS_TO(float, 4, int4, XK)
    AS_TO(float, 4, long2, XK)
    AS_TO(float, 4, double2, NONE)
    AS_TO(float, 8, int8, XK)
    AS_TO(float, 8, long4, XK)
    AS_TO(float, 8, double4, NONE)
    AS_TO(float, 16, int16, XK)
    AS_TO(float, 16, long8, XK)
    AS_TO(float, 16, double8, NONE)
    for (int j = 0; j < 5; j++)
        vstore3(as_float3(vload3(j, (global const int *)x) ^ k), j, q);
    q[15] = as_float(((global const int *)x)[15] ^ k);
}

// The same for double (128 bytes per work-item): r0..r11: long, ulong,
// float2, int2; long2, int4, float4; long4, int8, float8; long8, float16;
// r12: long3 (vstore3, and element 15 alone).
kernel void astype_from_double(global const double *a, global uchar *o, int k) {
    size_t i = get_global_id(0), bytes = 128 * get_global_size(0);
    global const double *p = a + 16 * i;
    global uchar *q = o + 128 * i;
    for (int j = 0; j < 16; j++)
        ((global long *)q)[j] = as_long(p[j]) ^ k;
    q += bytes;
    for (int j = 0; j < 16; j++)
        ((global ulong *)q)[j] = as_ulong(p[j]) ^ k;
    q += bytes;
    for (int j = 0; j < 16; j++)
        ((global float2 *)q)[j] = as_float2(p[j]);
    q += bytes;
    for (int j = 0; j < 16; j++)
        ((global int2 *)q)[j] = as_int2(p[j]) ^ k;
    q += bytes;
    AS_FROM(double, 2, long2, XK)
    AS_FROM(double, 2, int4, XK)
    AS_FROM(double, 2, float4, NONE)
    AS_FROM(double, 4, long4, XK)
    AS_FROM(double, 4, int8, XK)
    AS_FROM(double, 4, float8, NONE)
    AS_FROM(double, 8, long8, XK)
    AS_FROM(double, 8, float16, NONE)
    for (int j = 0; j < 5; j++)
        vstore3(as_long3(vload3(j, p)) ^ k, j, (global long *)q);
    ((global long *)q)[15] = as_long(p[15]) ^ k;
}

kernel void astype_to_double(global const uchar *b, global double *o, int k) {
    size_t i = get_global_id(0), count = 16 * get_global_size(0);
    global const uchar *x = b + 128 * i;
    global double *q = o + 16 * i;
    for (int j = 0; j < 16; j++)
        q[j] = as_double(((global const long *)x)[j] ^ k);
    q += count;
    for (int j = 0; j < 16; j++)
        q[j] = as_double(((global const ulong *)x)[j] ^ k);
    q += count;
    for (int j = 0; j < 16; j++)
        q[j] = as_double(((global const float2 *)x)[j]);
    q += count;
    for (int j = 0; j < 16; j++)
        q[j] = as_double(((global const int2 *)x)[j] ^ k);
    q += count;
    AS_TO(double, 2, long2, XK)
    AS_TO(double, 2, int4, XK)
    AS_TO(double, 2, float4, NONE)
    AS_TO(double, 4, long4, XK)
    AS_TO(double, 4, int8, XK)
    AS_TO(double, 4, float8, NONE)
    AS_TO(double, 8, long8, XK)
    AS_TO(double, 8, float16, NONE)
    for (int j = 0; j < 5; j++)
        vstore3(as_double3(vload3(j, (global const long *)x) ^ k), j, q);
    q[15] = as_double(((global const long *)x)[15] ^ k);
}

// Constants (one work-item): o[0..8] are as_float of integer constants
// (OpConstant float at -O2), o[8..16] the same bits from a __constant
// table; od likewise for double.
constant uint float_table[8] = {0x7f800001, 0xffa5a5a5, 0x7fbfffff, 0x7fc00001,
                                0xffc12345, 0x00000001, 0x807fffff, 0x80000000};
constant ulong double_table[8] = {0x7ff0000000000001, 0xfff5a5a5a5a5a5a5, 0x7ff7ffffffffffff,
                                  0x7ff8000000000001, 0xfff8123456789abc, 0x0000000000000001,
                                  0x800fffffffffffff, 0x8000000000000000};
kernel void constants_fp(global float *o, global double *od, int k) {
    o[0] = as_float(0x7f800001u);
    o[1] = as_float(0xffa5a5a5u);
    o[2] = as_float(0x7fbfffffu);
    o[3] = as_float(0x7fc00001u);
    o[4] = as_float(0xffc12345u);
    o[5] = as_float(0x00000001u);
    o[6] = as_float(0x807fffffu);
    o[7] = as_float(0x80000000u);
    od[0] = as_double(0x7ff0000000000001ul);
    od[1] = as_double(0xfff5a5a5a5a5a5a5ul);
    od[2] = as_double(0x7ff7fffffffffffful);
    od[3] = as_double(0x7ff8000000000001ul);
    od[4] = as_double(0xfff8123456789abcul);
    od[5] = as_double(0x0000000000000001ul);
    od[6] = as_double(0x800ffffffffffffful);
    od[7] = as_double(0x8000000000000000ul);
    for (int j = 0; j < 8; j++) {
        o[8 + j] = ((constant float *)float_table)[(j + k) & 7];
        od[8 + j] = ((constant double *)double_table)[(j + k) & 7];
    }
}

// Atomic exchanges of floats: cell[i] takes a[i] and old[i] gets what
// cell[i] held (atomic_xchg), then the same through C11 atomics on cell2
// (atomic_exchange; atomic_load and atomic_store into ld and cell3).
kernel void exchange_float(global float *cell, global const float *a, global float *old,
                           global atomic_float *cell2, global float *old2, global atomic_float *cell3,
                           global float *ld) {
    size_t i = get_global_id(0);
    old[i] = atomic_xchg(&cell[i], a[i]);
    old2[i] = atomic_exchange(&cell2[i], a[i]);
    ld[i] = atomic_load(&cell2[i]);
    atomic_store(&cell3[i], a[i]);
}
