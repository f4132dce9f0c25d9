// seed: 332589
// At -O2 a `freeze i1` (InstCombine's `cond.fr`) is left after the pipeline changes for llvm-spirv 15's freeze failure, and clift's rewrite of a leftover freeze as a no-op bitcast made llvm-spirv write an OpBitcast of a boolean, which SPIR-V does not allow: the build failed (clift refused the module; -O0 and PoCL ran it). Fixed in runtime/src/compiler: a boolean freeze becomes `xor %c, false` (OpLogicalNotEqual) instead.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
static ulong hmix(ulong h, ulong v) {
    h ^= v + 0x9e3779b97f4a7c15UL + (h << 6) + (h >> 2);
    return h * 0x100000001b3UL;
}
static ulong canon_f(float x) { return isnan(x) ? 0x7fc00000UL : (ulong)as_uint(x); }
static ulong canon_d(double x) { return isnan(x) ? 0x7ff8000000000000UL : as_ulong(x); }
static uchar shl_uchar(uchar a, uchar b) { return (uchar)((uint)a << ((uint)b & 7u)); }
static int8 neg_int8(int8 a) { return as_int8(-as_uint8(a)); }
static int8 shl_int8(int8 a, int8 b) { return as_int8(as_uint8(a) << (as_uint8(b) & (uint8)(31u))); }
static uchar rem_uchar(uchar a, uchar b) { return b == 0 ? a : (uchar)(a % b); }
static short add_short(short a, short b) { return (short)((uint)a + (uint)b); }
static ushort shl_ushort(ushort a, ushort b) { return (ushort)((uint)a << ((uint)b & 15u)); }
static uchar sub_uchar(uchar a, uchar b) { return (uchar)((uint)a - (uint)b); }
static ulong neg_ulong(ulong a) { return (ulong)((ulong)0 - (ulong)a); }
static long4 clampx_long4(long4 x, long4 a, long4 b) { return clamp(x, min(a, b), max(a, b)); }
static char mul_char(char a, char b) { return (char)((uint)a * (uint)b); }
static uchar4 clampx_uchar4(uchar4 x, uchar4 a, uchar4 b) { return clamp(x, min(a, b), max(a, b)); }
static ulong bits_uint(uint v) { return (ulong)v; }
static ulong hash_uint(ulong h, uint v) { return hmix(h, bits_uint(v)); }
static ushort shr_ushort(ushort a, ushort b) { return (ushort)(a >> (b & 15)); }
static ulong rem_ulong(ulong a, ulong b) { return b == 0 ? a : (ulong)(a % b); }
static ulong sub_ulong(ulong a, ulong b) { return (ulong)((ulong)a - (ulong)b); }
static short16 shl_short16(short16 a, short16 b) { return as_short16(as_ushort16(a) << (as_ushort16(b) & (ushort16)(15u))); }
static ulong shl_ulong(ulong a, ulong b) { return (ulong)((ulong)a << ((ulong)b & 63u)); }
static int clampx_int(int x, int a, int b) { return clamp(x, min(a, b), max(a, b)); }
static uint neg_uint(uint a) { return (uint)((uint)0 - (uint)a); }
static uint add_uint(uint a, uint b) { return (uint)((uint)a + (uint)b); }
static uint clampx_uint(uint x, uint a, uint b) { return clamp(x, min(a, b), max(a, b)); }
static ulong bits_long(long v) { return (ulong)v; }
static float2 nonan_float2(float2 x) { return select(x, (float2)1, isnan(x)); }
static ulong bits_int(int v) { return (ulong)v; }
static ulong hash_int8(ulong h, int8 v) {
    h = hmix(h, bits_int(v.s0));
    h = hmix(h, bits_int(v.s1));
    h = hmix(h, bits_int(v.s2));
    h = hmix(h, bits_int(v.s3));
    h = hmix(h, bits_int(v.s4));
    h = hmix(h, bits_int(v.s5));
    h = hmix(h, bits_int(v.s6));
    h = hmix(h, bits_int(v.s7));
    return h;
}
static ulong bits_ushort(ushort v) { return (ulong)v; }
static ulong hash_ushort(ulong h, ushort v) { return hmix(h, bits_ushort(v)); }
static ulong bits_float(float v) { return canon_f(v); }
static ulong hash_float4(ulong h, float4 v) {
    h = hmix(h, bits_float(v.s0));
    h = hmix(h, bits_float(v.s1));
    h = hmix(h, bits_float(v.s2));
    h = hmix(h, bits_float(v.s3));
    return h;
}
static ulong hash_int(ulong h, int v) { return hmix(h, bits_int(v)); }
static ulong hash_long4(ulong h, long4 v) {
    h = hmix(h, bits_long(v.s0));
    h = hmix(h, bits_long(v.s1));
    h = hmix(h, bits_long(v.s2));
    h = hmix(h, bits_long(v.s3));
    return h;
}
static ulong hash_float16(ulong h, float16 v) {
    h = hmix(h, bits_float(v.s0));
    h = hmix(h, bits_float(v.s1));
    h = hmix(h, bits_float(v.s2));
    h = hmix(h, bits_float(v.s3));
    h = hmix(h, bits_float(v.s4));
    h = hmix(h, bits_float(v.s5));
    h = hmix(h, bits_float(v.s6));
    h = hmix(h, bits_float(v.s7));
    h = hmix(h, bits_float(v.s8));
    h = hmix(h, bits_float(v.s9));
    h = hmix(h, bits_float(v.sa));
    h = hmix(h, bits_float(v.sb));
    h = hmix(h, bits_float(v.sc));
    h = hmix(h, bits_float(v.sd));
    h = hmix(h, bits_float(v.se));
    h = hmix(h, bits_float(v.sf));
    return h;
}
static ulong bits_ulong(ulong v) { return (ulong)v; }
static ulong hash_ulong(ulong h, ulong v) { return hmix(h, bits_ulong(v)); }
static ulong bits_short(short v) { return (ulong)v; }
static ulong hash_short(ulong h, short v) { return hmix(h, bits_short(v)); }

typedef struct {
    long4 f0;
    float16 f1;
    ulong f2;
    long4 f3;
    short f4;
} S1_5132d;
__constant ulong C2_5132d[16] = { ((ulong)0UL), ((ulong)1UL), ((ulong)0UL), ((ulong)0UL), ((ulong)18446744073709551615UL), ((ulong)15422960693210630255UL), ((ulong)6879781008385080369UL), ((ulong)0UL), ((ulong)0UL), ((ulong)0UL), ((ulong)8UL), ((ulong)1UL), ((ulong)0UL), ((ulong)1UL), ((ulong)0UL), ((ulong)13678073242131387199UL) };
static double f3_5132d(short p0, long p1, uchar p2, S1_5132d p3) {
    p1 = clz(p1);
    {
        short t4 = upsample(select(((char)-128), ((char)(((char)126) & ((char)-78))), select(((uchar)8), ((uchar)7), p2)), abs_diff(convert_uchar_rte(p3.f2), p2));
        p0 = ((short)((select(((short8)(((short)2), ((short)1), ((short)32767), ((short)-17325), ((short)-13559), ((short)1), ((short)32767), ((short)32767))), ((short8)(((short)32767), ((short)-1), ((short)7), ((short)15), ((short)-32768), ((short)-1), ((short)-32768), ((short)1))), ((short8)(((short)31938))))).s4 | ((short)1)));
        p1 = convert_long(t4);
    }
    return convert_double(shl_uchar(abs(p2), clz(((uchar)15))));
}
__kernel void k_5132d(__global ulong *out, __global ulong *res, __global uint *cnt,
        __global const uint *in, __global half *hs) {
    const uint gid = (uint)get_global_id(0);
    const uint lid = (uint)get_local_id(0);
    __global half *hsp = hs + gid * 16u;
    __global ulong *resp = res + gid * 8u;
    __local uint lcnt[4];
    __local uint lb10[4];
    if (lid < 4u) {
        if (lid == 0u) lcnt[0] = 0u;
        if (lid == 1u) lcnt[1] = 0u;
        if (lid == 2u) lcnt[2] = 0u;
        if (lid == 3u) lcnt[3] = 0xffffffffu;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong h = 0xcbf29ce484222325UL;
    int8 v5 = (neg_int8(((int8)(((int)6), ((int)-1694616967), ((int)0), ((int)6), ((int)(-2147483647-1)), ((int)2084277232), ((int)1), ((int)(-2147483647-1))))) | shl_int8(select(as_int8(vload8(((uint)hadd(((int)lid), ((int)4)) & 127u), (__global const uint *)in)), as_int8(vload8(((uint)upsample(((int)lid), gid) & 127u), (__global const uint *)in)), vload8(((uint)((ulong)lid) & 127u), (__global const uint *)in)), convert_int8_rtp(((short8)(((short)1), ((short)-1), ((short)15), ((short)15), ((short)0), ((short)11057), ((short)1), ((short)1))))));
    ushort v6 = shl_ushort(upsample(((uchar)0), ((uchar)(((uchar)81) | ((uchar)gid)))), ((ushort)((vload8(((uint)rem_uchar(((__global const uchar *)in)[((gid + 3517u) & 4095u)], ((__global const uchar *)in)[((gid + 3960u) & 4095u)]) & 255u), (__global const ushort *)in)).s0 | rhadd(((__global const ushort *)in)[((gid + 1081u) & 2047u)], ((__global const ushort *)in)[((uint)abs(((__global const uchar *)in)[((uint)add_short(((short)lid), as_short(((__global const ushort *)in)[((gid + 1138u) & 2047u)])) & 4095u)]) & 2047u)]))));
    float4 v7 = as_float4(vload4(((gid + 187u) & 255u), (__global const uint *)in) & (uint4)0xf7ffffffu);
    int v8 = (sub_uchar(mad_sat(((__global const uchar *)in)[1162], ((uchar)lid), ((uchar)3)), (((uchar2)(((uchar)1)))).s1) > popcount(select(((__global const uchar *)in)[((uint)bitselect(as_long(((__global const ulong *)in)[((gid + 422u) & 511u)]), ((long)gid), as_long(((__global const ulong *)in)[((uint)convert_uchar(((ulong)18446744073709551615UL)) & 511u)])) & 4095u)], ((__global const uchar *)in)[832], ((char)1))));
    S1_5132d s9 = { as_long4(vload4(((uint)popcount(((uchar)lid)) & 127u), (__global const ulong *)in)), (as_float16(vload16(4, (__global const uint *)in) & (uint16)0xf7ffffffu)).s19f58b2d49e1da0b, ((ulong)~neg_ulong(((ulong)0UL))), clampx_long4(convert_long4_sat_rte(v7), ((long4)((long)gid)), hadd(((long4)((long)gid)), as_long4(vload4(16, (__global const ulong *)in)))), ((short)-32768) };
    lb10[lid] = as_uint(abs_diff(((uchar4)(((uchar)0), ((uchar)16), ((uchar)255), ((uchar)64))), clampx_uchar4(vload4(((uint)((long)(as_long(((__global const ulong *)in)[((uint)convert_int_sat_rtz(((uchar)gid)) & 511u)]) | ((long)1L))) & 1023u), (__global const uchar *)in), vload4(((uint)rhadd(((uint)4294967295u), lid) & 1023u), (__global const uchar *)in), vload4(((uint)(as_char16(vload16(((uint)mul_char(((char)-128), as_char(((__global const uchar *)in)[1331])) & 255u), (__global const uchar *)in))).sa & 1023u), (__global const uchar *)in))));
    barrier(CLK_LOCAL_MEM_FENCE);
    h = hash_uint(h, lb10[(lid + 4u) % 4u]);
    barrier(CLK_LOCAL_MEM_FENCE);
    v6 = ((ushort)~((ushort)26219));
    for (int i11 = 0; i11 < 1; i11++) {
        for (int i12 = 0; i12 < 3; i12++) {
            if (convert_ulong_sat(convert_long_rte(((ulong)18446744073709551615UL)))) {
                atomic_or(&cnt[4], lid);
                vstore8(convert_ulong8(shuffle(shuffle(as_int2(vload2(((uint)as_ushort(as_char2(vload2(((uint)max(i11, i12) & 2047u), (__global const uchar *)in))) & 511u), (__global const uint *)in)), ((uint8)(0, 0, 1, 0, 0, 1, 0, 0))), ((uint8)(2, 5, 0, 0, 5, 5, 1, 4)))), ((gid + 0u) & 0u), resp);
                v6 = shr_ushort(upsample(((uchar)14), rotate(((__global const uchar *)in)[((gid + 111u) & 4095u)], ((__global const uchar *)in)[((gid + 2045u) & 4095u)])), shl_ushort(v6, ((ushort)12)));
                atomic_or(&lcnt[2], ((__global const uint *)in)[((uint)rem_ulong(((ulong)0UL), s9.f2) & 1023u)]);
            } else {
                v7 = (-((as_float16(vload16(((gid + 15u) & 63u), (__global const uint *)in) & (uint16)0xf7ffffffu) + as_float16(vload16(((gid + 9u) & 63u), (__global const uint *)in) & (uint16)0xf7ffffffu))).s7df6);
            }
            {
                ulong4 t13 = as_ulong4(mad_sat(convert_short16(((ushort16)(((ushort)65535)))), (((ushort16)(((ushort)65535), ((ushort)0), ((ushort)15), ((ushort)0), ((ushort)65535), ((ushort)0), ((ushort)1), ((ushort)65535), ((ushort)15), ((ushort)0), ((ushort)13), ((ushort)65535), ((ushort)50241), ((ushort)1), ((ushort)8), ((ushort)15))) < vload16(((uint)(((char4)(((char)108), ((char)7), ((char)1), ((char)-89)))).x & 127u), (__global const ushort *)in)), shl_short16(as_short16(vload16(22, (__global const ushort *)in)), as_short16(vload16(((uint)sub_ulong(C2_5132d[0], s9.f2) & 127u), (__global const ushort *)in)))));
                v5.s0 = clampx_int(popcount(i11), as_int(((__global const uint *)in)[((uint)shl_ulong(((__global const ulong *)in)[((uint)convert_uchar_rtp(i12) & 511u)], C2_5132d[((uint)convert_uchar_sat_rte(as_short(((__global const ushort *)in)[((uint)clz(((__global const ulong *)in)[((uint)(((uint2)(((uint)0u), ((uint)3u)))).lo & 511u)]) & 2047u)])) & 15u)]) & 1023u)]), as_int(vload2(134, (__global const ushort *)in)));
                s9.f0 = min((convert_ulong4_sat(((char4)((char)gid))) != popcount(vload4(((gid + 115u) & 127u), (__global const ulong *)in))), ((long4)(((long)9223372036854775807L), ((long)-367335639642148430L), ((long)-2420881296765933158L), ((long)0L))));
                atomic_add(&cnt[7], add_uint(neg_uint(((__global const uint *)in)[((uint)((int)(((((int)-1) > as_int(((__global const uint *)in)[91])) <= as_int((((ushort2)((ushort)lid)) | ((ushort2)(((ushort)43458)))))) ? as_int(((__global const uint *)in)[((uint)((ulong)(s9.f2 | ((__global const ulong *)in)[((uint)((__global const uchar *)in)[((uint)((short)-32768) & 4095u)] & 511u)])) & 1023u)]) : ((int)lid))) & 1023u)]), lid));
                v6 = convert_ushort((t13).s0);
            }
            atomic_add(&cnt[7], ((uint)lid));
        }
        v7 = v7;
        if ((gid & 3u) == 0u) {
            if (convert_ulong_sat(as_float(((__global const uint *)in)[((uint)popcount(((long)gid)) & 1023u)] & (uint)0xf7ffffffu))) {
                atomic_add(&cnt[0], (vload3(((uint)clampx_uint(((uint)gid), ((uint)1u), ((__global const uint *)in)[881]) & 255u), (__global const uint *)in)).z);
                resp[2] = bits_long((convert_long2_sat_rtn(clz(vload2(((uint)((int)(v8 & ((int)1833276831))) & 1023u), (__global const ushort *)in)))).hi);
            } else {
                v8 = i11;
            }
            v6 = ((__global const ushort *)in)[1066];
        }
        v6 = ((__global const ushort *)in)[((uint)any(as_int3(vload3(((uint)select(((char)gid), as_char(((__global const uchar *)in)[((gid + 4011u) & 4095u)]), ((char)lid)) & 255u), (__global const uint *)in))) & 2047u)];
    }
    v6 = upsample(abs_diff((((char8)(((char)7)))).s1, convert_char_rtp(v8)), select(((uchar)(((__global const uchar *)in)[((gid + 4076u) & 4095u)] & ((__global const uchar *)in)[((uint)as_ulong(nonan_float2(as_float2(vload2(((gid + 96u) & 511u), (__global const uint *)in) & (uint2)0xf7ffffffu))) & 4095u)])), ((uchar)(((uchar)7) & ((uchar)lid))), ((__global const uchar *)in)[((uint)min(as_char(((__global const uchar *)in)[766]), as_char(((__global const uchar *)in)[((gid + 2859u) & 4095u)])) & 4095u)]));
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; i++) h = hmix(h, lcnt[i]);
    h = hash_int8(h, v5);
    h = hash_ushort(h, v6);
    h = hash_float4(h, v7);
    h = hash_int(h, v8);
    h = hash_long4(h, s9.f0);
    h = hash_float16(h, s9.f1);
    h = hash_ulong(h, s9.f2);
    h = hash_long4(h, s9.f3);
    h = hash_short(h, s9.f4);
    out[gid] = h;
}
