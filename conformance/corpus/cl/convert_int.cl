// Integer to integer conversions: truncation, sign and zero extension (C
// casts and implicit promotions), convert_<type>() and the saturating forms
// convert_<type>_sat() between every pair of widths and signednesses.

kernel void cast_widths(global const long *src, global char *c, global uchar *uc, global short *s,
                        global ushort *us, global int *si, global uint *ui, global ulong *ul) {
    size_t i = get_global_id(0);
    long v = src[i];
    c[i] = (char)v;
    uc[i] = (uchar)v;
    s[i] = (short)v;
    us[i] = (ushort)v;
    si[i] = (int)v;
    ui[i] = (uint)v;
    ul[i] = (ulong)c[i] + (ulong)uc[i] + (ulong)s[i] + (ulong)us[i] + (ulong)si[i] + (ulong)ui[i];
}

kernel void convert_plain(global const int *src, global long *out) {
    size_t i = get_global_id(0);
    int v = src[i];
    out[i] = convert_long(convert_char(v)) + convert_long(convert_uchar(v)) +
             convert_long(convert_short(v)) + convert_long(convert_ushort(v)) +
             convert_long(convert_uint(v)) + convert_long(v) + (long)convert_ulong(v);
}

kernel void convert_sat_signed(global const long *src, global char *c, global short *s, global int *si,
                               global uchar *uc, global ushort *us, global uint *ui, global ulong *ul) {
    size_t i = get_global_id(0);
    long v = src[i];
    c[i] = convert_char_sat(v);
    s[i] = convert_short_sat(v);
    si[i] = convert_int_sat(v);
    uc[i] = convert_uchar_sat(v);
    us[i] = convert_ushort_sat(v);
    ui[i] = convert_uint_sat(v);
    ul[i] = convert_ulong_sat(v);
}

kernel void convert_sat_unsigned(global const ulong *src, global char *c, global short *s, global int *si,
                                 global long *sl, global uchar *uc, global ushort *us) {
    size_t i = get_global_id(0);
    ulong v = src[i];
    c[i] = convert_char_sat(v);
    s[i] = convert_short_sat(v);
    si[i] = convert_int_sat(v);
    sl[i] = convert_long_sat(v);
    uc[i] = convert_uchar_sat(v);
    us[i] = convert_ushort_sat(v);
}

kernel void convert_sat_narrow(global const char *c, global const short *s, global uchar *uc,
                               global ushort *us, global uint *ui, global char *sc) {
    size_t i = get_global_id(0);
    uc[i] = convert_uchar_sat(c[i]);
    us[i] = convert_ushort_sat(s[i]) + convert_ushort_sat(c[i]);
    ui[i] = convert_uint_sat(s[i]);
    sc[i] = convert_char_sat(s[i]) + convert_char_sat(uc[i]);
}

kernel void convert_int_vec(global const int4 *src, global char4 *c, global ushort4 *us, global long4 *l,
                            global uchar16 *u16) {
    size_t i = get_global_id(0);
    int4 v = src[i];
    c[i] = convert_char4_sat(v);
    us[i] = convert_ushort4(v);
    l[i] = convert_long4(v);
    u16[i] = convert_uchar16_sat((int16)(v, v * 2, v * 3, v * 4));
}
