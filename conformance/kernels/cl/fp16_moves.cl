// Half values that are only moved keep all 16 bits (tests/exec_fp_moves.rs
// feeds every one of the 65,536 encodings): loads and stores, vloadn and
// vstoren, swizzles, shuffles, selects, bitselect, memory spaces, structs,
// arguments by value, async copies and broadcasts (moves_body.h); as_type
// to and from every type of the same size, and constants.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define T half
#define S short
#define U ushort
#include "moves_body.h"

// as_type from half vectors to every type of the same size (AS_FROM in
// moves_body.h); each region is 32 bytes per work-item.
// r0..r22: short, ushort; int, uint, float; long, ulong, double, float2,
// int2, short4; int4, float4, double2, long2, short8; float8, double4,
// long4, int8, short16, ushort16; short3 (vstore3, and element 15 alone).
kernel void astype_from_half(global const half *a, global uchar *o, short k) {
    size_t i = get_global_id(0), bytes = 32 * get_global_size(0);
    global const half *p = a + 16 * i;
    global uchar *q = o + 32 * i;
    for (int j = 0; j < 16; j++)
        ((global short *)q)[j] = as_short(p[j]) ^ k;
    q += bytes;
    for (int j = 0; j < 16; j++)
        ((global ushort *)q)[j] = as_ushort(p[j]) ^ k;
    q += bytes;
    AS_FROM(half, 2, int, XK)
    AS_FROM(half, 2, uint, XK)
    AS_FROM(half, 2, float, NONE)
    AS_FROM(half, 4, long, XK)
    AS_FROM(half, 4, ulong, XK)
    AS_FROM(half, 4, double, NONE)
    AS_FROM(half, 4, float2, NONE)
    AS_FROM(half, 4, int2, XK)
    AS_FROM(half, 4, short4, XK)
    AS_FROM(half, 8, int4, XK)
    AS_FROM(half, 8, float4, NONE)
    AS_FROM(half, 8, double2, NONE)
    AS_FROM(half, 8, long2, XK)
    AS_FROM(half, 8, short8, XK)
    AS_FROM(half, 16, float8, NONE)
    AS_FROM(half, 16, double4, NONE)
    AS_FROM(half, 16, long4, XK)
    AS_FROM(half, 16, int8, XK)
    AS_FROM(half, 16, short16, XK)
    AS_FROM(half, 16, ushort16, XK)
    for (int j = 0; j < 5; j++)
        vstore3(as_short3(vload3(j, p)) ^ k, j, (global short *)q);
    ((global short *)q)[15] = as_short(p[15]) ^ k;
}

// The other way: region r of o (16 halves per work-item) from the same
// bytes x read as each type of astype_from_half.
kernel void astype_to_half(global const uchar *b, global half *o, short k) {
    size_t i = get_global_id(0), count = 16 * get_global_size(0);
    global const uchar *x = b + 32 * i;
    global half *q = o + 16 * i;
    for (int j = 0; j < 16; j++)
        q[j] = as_half((short)(((global const short *)x)[j] ^ k));
    q += count;
    for (int j = 0; j < 16; j++)
        q[j] = as_half((ushort)(((global const ushort *)x)[j] ^ k));
    q += count;
    AS_TO(half, 2, int, XK)
    AS_TO(half, 2, uint, XK)
    AS_TO(half, 2, float, NONE)
    AS_TO(half, 4, long, XK)
    AS_TO(half, 4, ulong, XK)
    AS_TO(half, 4, double, NONE)
    AS_TO(half, 4, float2, NONE)
    AS_TO(half, 4, int2, XK)
    AS_TO(half, 4, short4, XK)
    AS_TO(half, 8, int4, XK)
    AS_TO(half, 8, float4, NONE)
    AS_TO(half, 8, double2, NONE)
    AS_TO(half, 8, long2, XK)
    AS_TO(half, 8, short8, XK)
    AS_TO(half, 16, float8, NONE)
    AS_TO(half, 16, double4, NONE)
    AS_TO(half, 16, long4, XK)
    AS_TO(half, 16, int8, XK)
    AS_TO(half, 16, short16, XK)
    AS_TO(half, 16, ushort16, XK)
    for (int j = 0; j < 5; j++)
        vstore3(as_half3(vload3(j, (global const short *)x) ^ k), j, q);
    q[15] = as_half((short)(((global const short *)x)[15] ^ k));
}

// Constants (one work-item): o[0..16] are as_half of integer constants
// (OpConstant half at -O2), o[16..32] the same bits read from a
// __constant table initialized through a union.
typedef union { ushort u; half h; } HalfBits;
constant HalfBits table[16] = {{0x7d8e}, {0xfc01}, {0x7c01}, {0x7dff}, {0xfd55}, {0x7e00},
                               {0xff8e}, {0x7fff}, {0x7c00}, {0xfc00}, {0x0001}, {0x83ff},
                               {0x8000}, {0x0000}, {0x3c00}, {0xfbff}};
kernel void constants_half(global half *o, int k) {
    o[0] = as_half((ushort)0x7d8e);
    o[1] = as_half((ushort)0xfc01);
    o[2] = as_half((ushort)0x7c01);
    o[3] = as_half((ushort)0x7dff);
    o[4] = as_half((ushort)0xfd55);
    o[5] = as_half((ushort)0x7e00);
    o[6] = as_half((ushort)0xff8e);
    o[7] = as_half((ushort)0x7fff);
    o[8] = as_half((ushort)0x7c00);
    o[9] = as_half((ushort)0xfc00);
    o[10] = as_half((ushort)0x0001);
    o[11] = as_half((ushort)0x83ff);
    o[12] = as_half((ushort)0x8000);
    o[13] = as_half((ushort)0x0000);
    o[14] = as_half((ushort)0x3c00);
    o[15] = as_half((ushort)0xfbff);
    for (int j = 0; j < 16; j++)
        o[16 + j] = table[(j + k) & 15].h;
}
