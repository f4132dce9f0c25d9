// Conversions between integers and float: implicit (round to nearest even
// int->float, toward zero float->int), every rounding mode (_rte, _rtz, _rtp,
// _rtn) in both directions, saturating float->int, as_type reinterpretation.

kernel void int_to_float(global const int *si, global const uint *ui, global const long *sl,
                         global const ulong *ul, global float *out) {
    size_t i = get_global_id(0);
    out[8 * i + 0] = (float)si[i];
    out[8 * i + 1] = (float)ui[i];
    out[8 * i + 2] = (float)sl[i];
    out[8 * i + 3] = (float)ul[i];
    out[8 * i + 4] = convert_float_rtz(si[i]);
    out[8 * i + 5] = convert_float_rtp(ui[i]);
    out[8 * i + 6] = convert_float_rtn(sl[i]);
    out[8 * i + 7] = convert_float_rte(ul[i]);
}

kernel void narrow_int_to_float(global const char *c, global const uchar *uc, global const short *s,
                                global const ushort *us, global float *out) {
    size_t i = get_global_id(0);
    out[i] = convert_float(c[i]) + convert_float(uc[i]) + convert_float(s[i]) + convert_float(us[i]);
}

kernel void float_to_int(global const float *f, global int *si, global uint *ui, global long *sl,
                         global ulong *ul) {
    size_t i = get_global_id(0);
    float x = f[i];
    si[5 * i + 0] = (int)x;
    si[5 * i + 1] = convert_int_rte(x);
    si[5 * i + 2] = convert_int_rtz(x);
    si[5 * i + 3] = convert_int_rtp(x);
    si[5 * i + 4] = convert_int_rtn(x);
    ui[i] = convert_uint(x);
    sl[i] = convert_long_rtp(x);
    ul[i] = convert_ulong_rtn(x);
}

kernel void float_to_int_sat(global const float *f, global char *c, global uchar *uc, global short *s,
                             global ushort *us, global int *si, global uint *ui, global long *sl,
                             global ulong *ul) {
    size_t i = get_global_id(0);
    float x = f[i]; // NaN converts to 0 under _sat
    c[i] = convert_char_sat(x);
    uc[i] = convert_uchar_sat_rte(x);
    s[i] = convert_short_sat_rtz(x);
    us[i] = convert_ushort_sat_rtp(x);
    si[i] = convert_int_sat_rtn(x);
    ui[i] = convert_uint_sat(x);
    sl[i] = convert_long_sat(x);
    ul[i] = convert_ulong_sat_rte(x);
}

kernel void float_rounding_same(global float *f) {
    size_t i = get_global_id(0);
    f[i] = convert_float_rtz(f[i]) + convert_float_rtp(f[i + 1]);
}

kernel void reinterpret(global const float *f, global uint *u, global float4 *f4, global int4 *i4,
                        global uchar *bytes) {
    size_t i = get_global_id(0);
    u[i] = as_uint(f[i]) ^ 0x80000000u;
    f4[i] = as_float4(i4[i] & (int4)0x7fffffff);
    uchar4 b = as_uchar4(f[i]);
    bytes[4 * i + 0] = b.x;
    bytes[4 * i + 1] = b.y;
    bytes[4 * i + 2] = b.z;
    bytes[4 * i + 3] = b.w;
    long2 l = as_long2(i4[i]);
    u[i] += (uint)(l.x >> 32);
}

kernel void convert_float_vec(global const int8 *a, global float8 *f, global short8 *s, global uint16 *u) {
    size_t i = get_global_id(0);
    f[i] = convert_float8_rtn(a[i]);
    s[i] = convert_short8_sat_rtz(f[i] * 1000.0f);
    u[i] = convert_uint16_sat((float16)(f[i], f[i] * -1.0f));
}
