// seed: 205440
// open: at -O0 the kernel builds but cannot run: its log says `OpStore: constant %N is not a pointer expression` (in the inlined call of f3_32280): an OpStore whose operand is a constant clift does not take there. Partly reduced from seed 205440 (statements of the kernel removed while the failure stays); -O2 and PoCL run it.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
static ulong hmix(ulong h, ulong v) {
    h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
    return h * 0x100000001b3UL;
}
static ulong canon_f(float x) { return isnan(x) ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong canon_d(double x) { return isnan(x) ? 0x7ff8000000000000UL : as_ulong(x); }
static double8 nonan_double8(double8 x) { return select(x, (double8)1, isnan(x)); }
static uchar div_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a / b); }
static uchar mul_uchar(uchar a, uchar b) { return (uchar)((uint)a * (uint)b); }
static long add_long(long a, long b) { return (long)((ulong)a + (ulong)b); }
static uint sub_uint(uint a, uint b) { return (uint)((uint)a - (uint)b); }
static ulong4 add_ulong4(ulong4 a, ulong4 b) { return a + b; }
static ulong8 shr_ulong8(ulong8 a, ulong8 b) { return a >> (b & (ulong8)(63)); }
static int rem_int(int a, int b) { return (b == 0 || (a == ((int)(-2147483647-1)) && b == -1)) ? a : (int)(a % b); }
static double16 nonan_double16(double16 x) { return select(x, (double16)1, isnan(x)); }
static ulong16 sub_ulong16(ulong16 a, ulong16 b) { return a - b; }
static uint rem_uint(uint a, uint b) { return b == 0 ? a : (uint)(a % b); }
static int16 neg_int16(int16 a) { return as_int16(-as_uint16(a)); }
static char shl_char(char a, char b) { return (char)((uint)a << ((uint)b & 7u)); }
static uint shl_uint(uint a, uint b) { return (uint)((uint)a << ((uint)b & 31u)); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 15)); }
static double4 nonan_double4(double4 x) { return select(x, (double4)1, isnan(x)); }
static ulong4 shr_ulong4(ulong4 a, ulong4 b) { return a >> (b & (ulong4)(63)); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << ((uint)b & 15u)); }
static ushort sub_ushort(ushort a, ushort b) { return (ushort)((uint)a - (uint)b); }
static ushort16 rem_ushort16(ushort16 a, ushort16 b) { ushort16 c = as_ushort16(b == (ushort16)0); return a % ((b & ~c) | (c & (ushort16)1)); }
static float16 nonan_float16(float16 x) { return select(x, (float16)1, isnan(x)); }
static int add_int(int a, int b) { return (int)((uint)a + (uint)b); }
static int mul_int(int a, int b) { return (int)((uint)a * (uint)b); }
static ulong shr_ulong(ulong a, ulong b) { return (ulong)(a >> (b & 63)); }
static char shr_char(char a, char b) { return (char)(a >> (b & 7)); }
static uint16 neg_uint16(uint16 a) { return -a; }
static uint neg_uint(uint a) { return (uint)((uint)0 - (uint)a); }
static uint4 mul_uint4(uint4 a, uint4 b) { return a * b; }
static ulong bits_ushort(ushort v) { return (ulong)v; }
static ulong hash_ushort4(ulong h, ushort4 v) {
    h = hmix(h, bits_ushort(v.s0));
    h = hmix(h, bits_ushort(v.s1));
    h = hmix(h, bits_ushort(v.s2));
    h = hmix(h, bits_ushort(v.s3));
    return h;
}
static ulong bits_uchar(uchar v) { return (ulong)v; }
static ulong hash_uchar2(ulong h, uchar2 v) {
    h = hmix(h, bits_uchar(v.s0));
    h = hmix(h, bits_uchar(v.s1));
    return h;
}
static ulong hash_uchar(ulong h, uchar v) { return hmix(h, bits_uchar(v)); }
static ulong bits_ulong(ulong v) { return (ulong)v; }
static ulong hash_ulong8(ulong h, ulong8 v) {
    h = hmix(h, bits_ulong(v.s0));
    h = hmix(h, bits_ulong(v.s1));
    h = hmix(h, bits_ulong(v.s2));
    h = hmix(h, bits_ulong(v.s3));
    h = hmix(h, bits_ulong(v.s4));
    h = hmix(h, bits_ulong(v.s5));
    h = hmix(h, bits_ulong(v.s6));
    h = hmix(h, bits_ulong(v.s7));
    return h;
}
static ulong bits_double(double v) { return canon_d(v); }
static ulong hash_double4(ulong h, double4 v) {
    h = hmix(h, bits_double(v.s0));
    h = hmix(h, bits_double(v.s1));
    h = hmix(h, bits_double(v.s2));
    h = hmix(h, bits_double(v.s3));
    return h;
}
static ulong hash_ulong16(ulong h, ulong16 v) {
    h = hmix(h, bits_ulong(v.s0));
    h = hmix(h, bits_ulong(v.s1));
    h = hmix(h, bits_ulong(v.s2));
    h = hmix(h, bits_ulong(v.s3));
    h = hmix(h, bits_ulong(v.s4));
    h = hmix(h, bits_ulong(v.s5));
    h = hmix(h, bits_ulong(v.s6));
    h = hmix(h, bits_ulong(v.s7));
    h = hmix(h, bits_ulong(v.s8));
    h = hmix(h, bits_ulong(v.s9));
    h = hmix(h, bits_ulong(v.sa));
    h = hmix(h, bits_ulong(v.sb));
    h = hmix(h, bits_ulong(v.sc));
    h = hmix(h, bits_ulong(v.sd));
    h = hmix(h, bits_ulong(v.se));
    h = hmix(h, bits_ulong(v.sf));
    return h;
}
static ulong bits_uint(uint v) { return (ulong)v; }
static ulong hash_uint(ulong h, uint v) { return hmix(h, bits_uint(v)); }
static ulong bits_int(int v) { return (ulong)v; }
static ulong hash_int16(ulong h, int16 v) {
    h = hmix(h, bits_int(v.s0));
    h = hmix(h, bits_int(v.s1));
    h = hmix(h, bits_int(v.s2));
    h = hmix(h, bits_int(v.s3));
    h = hmix(h, bits_int(v.s4));
    h = hmix(h, bits_int(v.s5));
    h = hmix(h, bits_int(v.s6));
    h = hmix(h, bits_int(v.s7));
    h = hmix(h, bits_int(v.s8));
    h = hmix(h, bits_int(v.s9));
    h = hmix(h, bits_int(v.sa));
    h = hmix(h, bits_int(v.sb));
    h = hmix(h, bits_int(v.sc));
    h = hmix(h, bits_int(v.sd));
    h = hmix(h, bits_int(v.se));
    h = hmix(h, bits_int(v.sf));
    return h;
}
static ulong hash_ushort(ulong h, ushort v) { return hmix(h, bits_ushort(v)); }
static ulong bits_char(char v) { return (ulong)v; }
static ulong hash_char(ulong h, char v) { return hmix(h, bits_char(v)); }
static ulong hash_ushort2(ulong h, ushort2 v) {
    h = hmix(h, bits_ushort(v.s0));
    h = hmix(h, bits_ushort(v.s1));
    return h;
}
static ulong hash_char3(ulong h, char3 v) {
    h = hmix(h, bits_char(v.s0));
    h = hmix(h, bits_char(v.s1));
    h = hmix(h, bits_char(v.s2));
    return h;
}
static ulong bits_short(short v) { return (ulong)v; }
static ulong hash_short16(ulong h, short16 v) {
    h = hmix(h, bits_short(v.s0));
    h = hmix(h, bits_short(v.s1));
    h = hmix(h, bits_short(v.s2));
    h = hmix(h, bits_short(v.s3));
    h = hmix(h, bits_short(v.s4));
    h = hmix(h, bits_short(v.s5));
    h = hmix(h, bits_short(v.s6));
    h = hmix(h, bits_short(v.s7));
    h = hmix(h, bits_short(v.s8));
    h = hmix(h, bits_short(v.s9));
    h = hmix(h, bits_short(v.sa));
    h = hmix(h, bits_short(v.sb));
    h = hmix(h, bits_short(v.sc));
    h = hmix(h, bits_short(v.sd));
    h = hmix(h, bits_short(v.se));
    h = hmix(h, bits_short(v.sf));
    return h;
}
static ulong hash_ulong2(ulong h, ulong2 v) {
    h = hmix(h, bits_ulong(v.s0));
    h = hmix(h, bits_ulong(v.s1));
    return h;
}
static ulong hash_int(ulong h, int v) { return hmix(h, bits_int(v)); }

typedef struct {
    char f0;
    ushort2 f1;
    char3 f2;
    ushort f3;
    short16 f4;
} S1_32280;
typedef struct {
    char f0;
    ulong2 f1;
    int f2;
} S2_32280;
static uchar f3_32280(uchar p0) {
    {
        double2 t4 = ((trunc(((double2)(((double)0x1.e848000000000p+19), ((double)0x0.0000000000001p-1022)))) - (((double2)(((double)0x0p+0), ((double)NAN))) - ((double2)(((double)0x0p+0), ((double)0x1.6dd324c1cb4dfp-5))))) - ((double2)((((double)0x0.0000000000001p-1022) - ((double)NAN)), as_double(((short4)(((short)15)))))));
        for (int i5 = 0; i5 < 5; i5++) {
            t4 = t4;
            t4.s10 = (fmin(((double2)(((double)0x1.0000000000000p+0), ((double)0x1.c72e61882daa0p-13))), t4) + (double2)0);
            p0 = p0;
        }
        t4 = convert_double2_rte(clz(((ushort2)(((ushort)65535), ((ushort)42163)))));
        p0 = convert_uchar_sat((t4).s0);
    }
    {
        float4 t6 = (convert_float8_rte(copysign(((double8)(((double)-0x1.10e995efc978cp+7))), nonan_double8(((double8)(((double)(-INFINITY)), ((double)-0x1.701ad5da424e1p+1), ((double)0x1.d41784bb0c4e4p-10), ((double)0x0p+0), ((double)0x1.6e7a70f36fbadp+8), ((double)INFINITY), ((double)0x0p+0), ((double)(-INFINITY)))))))).odd;
        p0 = convert_uchar_sat((t6).s0);
    }
    return mul_uchar(p0, div_uchar(((uchar)(((uchar)0) & p0)), abs(((char)-128))));
}
__kernel void k_32280(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    const uint lid = (uint)get_local_id(0);
    if (lid < 4u) {
    }
    ushort4 v7 = shuffle(vload2(((uint)add_long(((long)6689121881239802161L), ((long)(-9223372036854775807L-1L))) & 1023u), (__global const ushort *)in), ((ushort4)(0, 1, 0, 1)));
    uchar v9 = convert_uchar_sat_rtn(((__global const ushort *)in)[((gid + 844u) & 2047u)]);
    double4 v11 = (fmax(convert_double4(popcount(vload4(((uint)rem_int(as_int(((__global const uint *)in)[((gid + 861u) & 1023u)]), ((int)-1)) & 255u), (__global const uint *)in))), (trunc(as_double8(vload8(((gid + 12u) & 63u), (__global const ulong *)in) & (ulong8)0xf7ffffffffffffffUL))).even) + (double4)0);
    uint v13 = ((uint)(((uint)(upsample(((ushort)0), ((__global const ushort *)in)[((uint)((__global const ushort *)in)[((gid + 1907u) & 2047u)] & 2047u)]) | lid)) & min((vload4(7, (__global const uint *)in)).w, rem_uint(((uint)0u), ((uint)gid)))));
    ushort a15[8];
    for (int i = 0; i < 8; i++)
        a15[i] = ((__global const ushort *)in)[((uint)((int)0) & 2047u)];
    S1_32280 s16 = { ((char)(convert_char_sat_rtz(gid) ^ convert_char(((__global const uint *)in)[((gid + 469u) & 1023u)]))), as_ushort2(mul_hi(as_int(((__global const uint *)in)[((uint)((long)0L) & 1023u)]), ((int)-1))), convert_char3_sat(as_float3(vload3(((uint)shl_char(((char)lid), ((char)lid)) & 255u), (__global const uint *)in) & (uint3)0xf7ffffffu)), hadd(add_sat(a15[((gid + 7u) & 7u)], ((ushort)1)), ((__global const ushort *)in)[((uint)upsample(((__global const ushort *)in)[((uint)shr_ushort(((__global const ushort *)in)[((uint)shl_uint(v13, gid) & 2047u)], a15[((uint)((__global const uint *)in)[((gid + 131u) & 1023u)] & 7u)]) & 2047u)], a15[4]) & 2047u)]), as_short16(nonan_double4((as_double4(vload4(97, (__global const ulong *)in) & (ulong4)0xf7ffffffffffffffUL) * v11))) };
    for (int i18 = 0; i18 < 2; i18++) {
        {
            v7.s1 = ((ushort)((convert_short_sat_rte((((double)0x1.24c1625dc4614p-3) / as_double(((__global const ulong *)in)[((uint)shr_char(as_char(((__global const uchar *)in)[1234]), ((char)0)) & 511u)] & (ulong)0xf7ffffffffffffffUL)))) ? s16.f3 : ((ushort)((as_char(((__global const uchar *)in)[((uint)shr_ulong(((ulong)0UL), ((ulong)0UL)) & 4095u)])) ? s16.f3 : ((__global const ushort *)in)[((uint)f3_32280(v9) & 2047u)]))));
            {
            }
        }
    }
}
