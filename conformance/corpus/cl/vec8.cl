// Eight-component vectors: swizzles (.s01234567 .lo .hi .even .odd, mixed),
// building from halves, dynamic element access, arithmetic.

#define BODY8(T)                                                    \
    size_t i = get_global_id(0);                                    \
    T##8 x = a[i], y = b[i];                                        \
    T##8 s = x * (T##8)((T)1, (T)2, (T)3, (T)4, (T)5, (T)6, (T)7, (T)8) + y; \
    s = s.s76543210 + x.s01230123 - y.s7;                           \
    s.lo = x.hi;                                                    \
    s.odd = y.even;                                                 \
    s.s25 = s.s52;                                                  \
    s[k & 7] = s[(k + 3) & 7];                                      \
    T##4 q = s.lo + s.hi;                                           \
    T##2 r = q.lo * q.hi;                                           \
    a[i] = s;                                                       \
    b[i] = (T##8)(r, q.even, r.yx, q.odd) + (T##8)(x.s7);

kernel void v8_char(global char8 *a, global char8 *b, int k) { BODY8(char) }
kernel void v8_uchar(global uchar8 *a, global uchar8 *b, int k) { BODY8(uchar) }
kernel void v8_short(global short8 *a, global short8 *b, int k) { BODY8(short) }
kernel void v8_ushort(global ushort8 *a, global ushort8 *b, int k) { BODY8(ushort) }
kernel void v8_int(global int8 *a, global int8 *b, int k) { BODY8(int) }
kernel void v8_uint(global uint8 *a, global uint8 *b, int k) { BODY8(uint) }
kernel void v8_long(global long8 *a, global long8 *b, int k) { BODY8(long) }
kernel void v8_ulong(global ulong8 *a, global ulong8 *b, int k) { BODY8(ulong) }
kernel void v8_float(global float8 *a, global float8 *b, int k) { BODY8(float) }

// Horizontal reduction of an int8 by halving.
kernel void v8_hsum(global const int8 *a, global int *out) {
    size_t i = get_global_id(0);
    int8 v = a[i];
    int4 h4 = v.lo + v.hi;
    int2 h2 = h4.lo + h4.hi;
    out[i] = h2.x + h2.y;
}
