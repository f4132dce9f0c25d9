// Sixteen-component vectors (Vector16 capability): swizzles with hex indices
// (.s0123456789abcdef .sFEDCBA9876543210), .lo .hi .even .odd, dynamic element
// access, arithmetic, and a 16-wide kernel argument by value.

#define BODY16(T)                                                   \
    size_t i = get_global_id(0);                                    \
    T##16 x = a[i], y = b[i];                                       \
    T##16 s = x + y * (T##16)((T)3);                                \
    s = s.sFEDCBA9876543210 - x.s0123456789abcdef + y.s0;           \
    s.lo = y.hi;                                                    \
    s.even = x.odd;                                                 \
    s.sA = s.s5;                                                    \
    s.s9f = x.sf9;                                                  \
    s[k & 15] += s[(k * 7) & 15];                                   \
    T##8 h = s.lo + s.hi;                                           \
    a[i] = s;                                                       \
    b[i] = (T##16)(h, h.s76543210);

kernel void v16_char(global char16 *a, global char16 *b, int k) { BODY16(char) }
kernel void v16_uchar(global uchar16 *a, global uchar16 *b, int k) { BODY16(uchar) }
kernel void v16_short(global short16 *a, global short16 *b, int k) { BODY16(short) }
kernel void v16_ushort(global ushort16 *a, global ushort16 *b, int k) { BODY16(ushort) }
kernel void v16_int(global int16 *a, global int16 *b, int k) { BODY16(int) }
kernel void v16_uint(global uint16 *a, global uint16 *b, int k) { BODY16(uint) }
kernel void v16_long(global long16 *a, global long16 *b, int k) { BODY16(long) }
kernel void v16_ulong(global ulong16 *a, global ulong16 *b, int k) { BODY16(ulong) }
kernel void v16_float(global float16 *a, global float16 *b, int k) { BODY16(float) }

kernel void v16_by_value(float16 m, uchar16 bytes, global float16 *out) {
    size_t i = get_global_id(0);
    out[i] = m * convert_float16(bytes) + (float16)(m.s0);
}
