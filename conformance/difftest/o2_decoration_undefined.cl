// seed: 47
// open: at -O2 clift's build fails: after the odd-width integer workaround (the switch on an i2 value), the front end refuses the module with "OpDecorate: %N is used but never defined"; -O0 and PoCL build it. Reduced from seed 47 (which also enables cl_khr_fp16; the kernel uses no half).
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
static ulong hmix(ulong h, ulong v) {
    h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
    return h * 0x100000001b3UL;
}
static ulong4 add_ulong4(ulong4 a, ulong4 b) { return a + b; }
static long div_long(long a, long b) { return (b == 0 || (a == ((long)(-9223372036854775807L-1L)) && b == -1)) ? a : (long)(a / b); }
static ushort16 mul_ushort16(ushort16 a, ushort16 b) { return a * b; }
static ulong4 neg_ulong4(ulong4 a) { return -a; }
static ulong neg_ulong(ulong a) { return (ulong)((ulong)0 - (ulong)a); }
static ushort div_ushort(ushort a, ushort b) { return b == 0 ? a : (ushort)(a / b); }
static ulong bits_ulong(ulong v) { return (ulong)v; }
static ulong hash_ulong4(ulong h, ulong4 v) {
    h = hmix(h, bits_ulong(v.s0));
    return h;
}
static ulong hash_ushort16(ulong h, ushort16 v) {
}
static ulong hash_uchar2(ulong h, uchar2 v) {
}
static float f1_2f(double p0) {
    for (int i2 = 0; i2 < 4; i2++) {
        {
            {
            }
        }
    }
}
static double f5_2f(ulong p0, uint8 p1) {
    if (((short)-32768)) {
    }
}
__kernel void k_2f(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    const uint lid = (uint)get_local_id(0);
    if (lid < 4u) {
    }
    ulong h = 0xcbf29ce484222325UL;
    ulong4 v7 = add_ulong4(select(vload4(((gid + 45u) & 127u), (__global const ulong *)in), min(((ulong4)(((ulong)0UL), ((ulong)7UL), ((ulong)1UL), ((ulong)18446744073709551615UL))), vload4(((gid + 70u) & 127u), (__global const ulong *)in)), ((long4)(((long3)((long)gid)), ((long)gid)))), ((ulong4)(((ulong)8UL))));
    ulong v8 = rhadd(popcount(max(((ulong)14316580835322976555UL), ((ulong)15UL))), ((((ulong16)((ulong)gid))).seb6ff88850a051db).sd);
    uchar v9 = clz(((__global const uchar *)in)[((uint)(vload8(171, (__global const ushort *)in)).s3 & 4095u)]);
    ushort16 v11 = vload16(63, (__global const ushort *)in);
    for (int i14 = 0; i14 < 4; i14++) {
        {
            float16 t15 = as_float16(((int16)(((int)1266532421), ((int)0), ((int)709373319), ((int)2147483647), ((int)-1), ((int)1), ((int)943445325), ((int)1), ((int)2), ((int)0), ((int)61084653), ((int)-1), ((int)11), ((int)-714127724), ((int)2147483647), ((int)0))));
            switch ((int)(div_long(convert_long_rtp(((long)gid)), ((long)gid)) & 3)) {
            case 0: {
            } break;
            case 1: {
            } break;
            case 2: {
            } break;
            default: {
                v7 = neg_ulong4(as_ulong4(mul_ushort16(v11, v11)));
            } break;
            }
            if ((gid & 7u) == 2u) {
                v11 = (((((ushort16)(((ushort)15), ((ushort)65535), ((ushort)1), ((ushort)12), ((ushort)0), ((ushort)1), ((ushort)15), ((ushort)65535), ((ushort)29961), ((ushort)0), ((ushort)1), ((ushort)26613), ((ushort)0), ((ushort)15), ((ushort)1), ((ushort)15)))).s38db46089c37b664 | mad_sat(v11, vload16(((uint)((short)(((short)15) & as_short(((__global const ushort *)in)[1642]))) & 127u), (__global const ushort *)in), vload16(((uint)div_ushort(((__global const ushort *)in)[((uint)as_long(as_char8(vload8(((uint)popcount(((ushort)1)) & 511u), (__global const uchar *)in))) & 2047u)], ((__global const ushort *)in)[((uint)((char)((hadd(neg_ulong(v8), ((ulong)lid))) ? as_char(((__global const uchar *)in)[((uint)((__global const uchar *)in)[2735] & 4095u)]) : as_char(((__global const uchar *)in)[((uint)v9 & 4095u)]))) & 2047u)]) & 127u), (__global const ushort *)in))) & shuffle((vload8(((gid + 69u) & 255u), (__global const ushort *)in) & ((ushort8)(((ushort)2736), ((ushort)65535), ((ushort)1), ((ushort)0), ((ushort)0), ((ushort)0), ((ushort)64900), ((ushort)15)))), ((ushort16)(3, 2, 5, 7, 5, 7, 5, 6, 1, 4, 5, 0, 3, 0, 3, 6))));
            }
            v8 = convert_ulong_sat((t15).s0);
        }
    }
    h = hash_ulong4(h, v7);
    out[gid] = h;
}
