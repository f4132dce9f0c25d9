// Two-component vectors of every scalar type: construction, arithmetic,
// swizzles (.xy .yx .s01 .lo .hi .even .odd), swizzle assignment, dynamic
// element access through a subscript and through a pointer, comparisons.

#define BODY2(T)                                                    \
    size_t i = get_global_id(0);                                    \
    T##2 x = a[i], y = b[i];                                        \
    T##2 s = x + y * (T##2)((T)2, (T)3);                            \
    s = s.yx - x.xx + y.s10;                                        \
    s.y = x.lo + y.hi;                                              \
    s.even = x.odd;                                                 \
    s.s1 = s[k & 1];                                                \
    T *e = (T *)&s;                                                 \
    e[(k + 1) & 1] += (T)1;                                         \
    T##4 w = (T##4)(x, y.yx);                                       \
    a[i] = s;                                                       \
    b[i] = w.zw + (T##2)(x.x < y.x ? (T)1 : (T)0, x.y) + (x.y > y.x ? x : y);

kernel void v2_char(global char2 *a, global char2 *b, int k) { BODY2(char) }
kernel void v2_uchar(global uchar2 *a, global uchar2 *b, int k) { BODY2(uchar) }
kernel void v2_short(global short2 *a, global short2 *b, int k) { BODY2(short) }
kernel void v2_ushort(global ushort2 *a, global ushort2 *b, int k) { BODY2(ushort) }
kernel void v2_int(global int2 *a, global int2 *b, int k) { BODY2(int) }
kernel void v2_uint(global uint2 *a, global uint2 *b, int k) { BODY2(uint) }
kernel void v2_long(global long2 *a, global long2 *b, int k) { BODY2(long) }
kernel void v2_ulong(global ulong2 *a, global ulong2 *b, int k) { BODY2(ulong) }
kernel void v2_float(global float2 *a, global float2 *b, int k) { BODY2(float) }

// Integer-only operators on vectors, and vector comparisons as masks.
kernel void v2_int_ops(global int2 *a, global uint2 *u, global long2 *l) {
    size_t i = get_global_id(0);
    int2 x = a[i];
    a[i] = (x << 3) ^ (x >> (int2)(1, 2)) | ~x & (x % (int2)(7, 9)) / (int2)(3, -3);
    u[i] = (u[i] >> 1) + as_uint2(x == a[i]);
    l[i] = (l[i] < (long2)0) + (l[i] & (long2)(0xff, 0xff00));
}

// A vector passed by value to a kernel and to a helper, and returned.
__attribute__((noinline)) float2 rot90(float2 v) { return (float2)(-v.y, v.x); }

kernel void v2_by_value(float2 v, long2 l, global float2 *out, global long2 *lout) {
    out[get_global_id(0)] = rot90(v);
    lout[get_global_id(0)] = l.yx;
}
