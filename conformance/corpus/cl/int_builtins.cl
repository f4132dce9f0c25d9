// The OpenCL C integer built-ins: rotate, popcount, clz, ctz, abs, abs_diff,
// add_sat, sub_sat, hadd, rhadd, mul_hi, mad_hi, mad_sat, mul24, mad24,
// upsample, min, max, clamp.

kernel void bits_u8(global uchar *p) {
    size_t i = get_global_id(0);
    uchar x = p[i];
    p[i] = rotate(x, (uchar)3) + popcount(x) + clz(x) + ctz(x);
}

kernel void bits_i16(global short *p) {
    size_t i = get_global_id(0);
    short x = p[i];
    p[i] = rotate(x, (short)-5) ^ popcount(x) ^ clz(x) ^ ctz(x);
}

kernel void bits_u32(global uint *p, uint r) {
    size_t i = get_global_id(0);
    uint x = p[i];
    p[4 * i + 0] = rotate(x, r);
    p[4 * i + 1] = popcount(x);
    p[4 * i + 2] = clz(x);
    p[4 * i + 3] = ctz(x);
}

kernel void bits_i64(global long *p, long r) {
    size_t i = get_global_id(0);
    long x = p[i];
    p[4 * i + 0] = rotate(x, r);
    p[4 * i + 1] = popcount(x);
    p[4 * i + 2] = clz(x);
    p[4 * i + 3] = ctz(x);
}

kernel void sat_ops(global char *c, global uchar *uc, global short *s, global ushort *us,
                    global int *si, global uint *ui, global long *sl, global ulong *ul) {
    size_t i = get_global_id(0);
    c[i] = add_sat(c[i], (char)100) + sub_sat(c[i], (char)-100);
    uc[i] = add_sat(uc[i], (uchar)200) - sub_sat(uc[i], (uchar)3);
    s[i] = add_sat(s[i], (short)30000) + sub_sat(s[i], (short)-30000);
    us[i] = add_sat(us[i], (ushort)60000) + sub_sat(us[i], (ushort)1);
    si[i] = add_sat(si[i], INT_MAX) + sub_sat(si[i], INT_MIN);
    ui[i] = add_sat(ui[i], UINT_MAX - 5) + sub_sat(ui[i], 7u);
    sl[i] = add_sat(sl[i], LONG_MAX) + sub_sat(sl[i], LONG_MIN);
    ul[i] = add_sat(ul[i], ULONG_MAX) + sub_sat(ul[i], 9ul);
}

kernel void avg_hi(global int *si, global uint *ui, global long *sl, global ulong *ul) {
    size_t i = get_global_id(0);
    int a = si[2 * i], b = si[2 * i + 1];
    si[2 * i] = hadd(a, b) + rhadd(a, b);
    si[2 * i + 1] = mul_hi(a, b) + mad_hi(a, b, 3) + mad_sat(a, b, 1);
    uint c = ui[2 * i], d = ui[2 * i + 1];
    ui[2 * i] = hadd(c, d) ^ rhadd(c, d);
    ui[2 * i + 1] = mul_hi(c, d) ^ mad_hi(c, d, 1u) ^ mad_sat(c, d, 5u);
    sl[i] = mul_hi(sl[i], (long)si[i]) + hadd(sl[i], -1l);
    ul[i] = mul_hi(ul[i], 0xFFFFFFFFFFFFFFFFul) + rhadd(ul[i], 1ul);
}

kernel void abs_minmax(global int *si, global uint *ui, global char *c, global long *l) {
    size_t i = get_global_id(0);
    int a = si[i];
    ui[i] = abs(a) + abs_diff(a, -7);
    si[i] = min(a, 10) + max(a, -10) + clamp(a, -3, 3);
    uint u = ui[i];
    ui[i] = min(u, 5u) + max(u, 9u) + clamp(u, 2u, 4u);
    c[i] = clamp(c[i], (char)-8, (char)8) + (char)abs(c[i]);
    l[i] = max(l[i], (long)a) - min(l[i], 0l) + (long)abs_diff(l[i], 3l);
}

kernel void mul24_upsample(global int *si, global uint *ui, global short *hi, global ushort *lo,
                           global int *wide) {
    size_t i = get_global_id(0);
    si[i] = mul24(si[i], 3) + mad24(si[i], si[i], -1);
    ui[i] = mul24(ui[i], 5u) + mad24(ui[i], 2u, 7u);
    wide[i] = upsample(hi[i], lo[i]);
    long up = upsample(wide[i], ui[i]);
    wide[i] += (int)(up >> 17);
}

kernel void bits_vec(global uint4 *p, global char8 *c) {
    size_t i = get_global_id(0);
    uint4 v = p[i];
    p[i] = rotate(v, (uint4)(1, 2, 3, 4)) + popcount(v) + clz(v) + ctz(v);
    c[i] = add_sat(c[i], (char8)(127)) + clz(c[i]);
}
