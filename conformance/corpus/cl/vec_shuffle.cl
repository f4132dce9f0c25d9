// shuffle and shuffle2 with constant and run-time masks between widths,
// vector literals from mixed parts, and vload/vstore of every width.

kernel void shuffle_const(global const int4 *a, global const int4 *b, global int8 *out) {
    size_t i = get_global_id(0);
    int8 lo = shuffle(a[i], (uint8)(3, 2, 1, 0, 0, 1, 2, 3));
    int8 mix = shuffle2(a[i], b[i], (uint8)(0, 4, 1, 5, 2, 6, 3, 7));
    out[i] = lo + mix;
}

kernel void shuffle_runtime(global const float8 *a, global const uint8 *mask, global float8 *out,
                            global float4 *narrow) {
    size_t i = get_global_id(0);
    out[i] = shuffle(a[i], mask[i]);
    narrow[i] = shuffle2(a[i].lo, a[i].hi, mask[i].lo);
}

kernel void shuffle_widths(global const uchar16 *a, global uchar2 *o2, global uchar4 *o4,
                           global uchar16 *o16, global const ushort2 *s, global ushort16 *s16) {
    size_t i = get_global_id(0);
    uchar16 v = a[i];
    o2[i] = shuffle(v, (uchar2)(15, 0));
    o4[i] = shuffle(v, (uchar4)(1, 3, 5, 7));
    o16[i] = shuffle2(v, v.s0123456789abcdef + (uchar)1,
                      (uchar16)(31, 30, 29, 28, 27, 26, 25, 24, 0, 1, 2, 3, 4, 5, 6, 7));
    s16[i] = shuffle(s[i], (ushort16)(0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0));
}

kernel void shuffle_long(global const long2 *a, global long4 *out, global ulong8 *wide) {
    size_t i = get_global_id(0);
    out[i] = shuffle(a[i], (ulong4)(1, 0, 1, 0));
    wide[i] = as_ulong8(shuffle2(a[i], a[i] * 2, (ulong8)(0, 1, 2, 3, 3, 2, 1, 0)));
}

kernel void vload_vstore(global const float *src, global float *dst, global const short *ss, global short *sd) {
    size_t i = get_global_id(0);
    float2 a = vload2(i, src);
    float3 b = vload3(i, src + 1);
    float4 c = vload4(i, src + 2);
    float8 d = vload8(i, src + 3);
    float16 e = vload16(i, src + 4);
    vstore2(a * 2.0f, i, dst);
    vstore3(b, i, dst + 1);
    vstore4(c + d.hi, i, dst + 2);
    vstore8(d - e.lo, i, dst + 3);
    vstore16(e, i, dst + 4);
    short8 s = vload8(0, ss + i);
    vstore8(s.s76543210, 0, sd + i);
}

// Half-precision storage (Float16Buffer): vload_half / vstore_half with rounding modes.
kernel void half_storage(global const half *h, global half *o, global float *f) {
    size_t i = get_global_id(0);
    float x = vload_half(i, h);
    float4 v = vload_half4(i, h);
    f[i] = x + v.w;
    vstore_half(x * 2.0f, i, o);
    vstore_half_rtz(x, i + 1, o);
    vstore_half4_rtn(v, i, o);
    vstore_half8(vload8(i, f), i, o);
}
