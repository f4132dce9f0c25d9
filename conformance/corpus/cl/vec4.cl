// Four-component vectors: swizzles (.xyzw .wzyx .s0123 .lo .hi .even .odd),
// repeated components, swizzle assignment, dynamic element access,
// comparisons and select.

#define BODY4(T)                                                    \
    size_t i = get_global_id(0);                                    \
    T##4 x = a[i], y = b[i];                                        \
    T##4 s = x + y * (T##4)((T)1, (T)2, (T)3, (T)4);                \
    s = s.wzyx - x.xxyy + y.s3120;                                  \
    s.xz = s.yw;                                                    \
    s.hi = x.lo;                                                    \
    s.odd = y.even;                                                 \
    s.s3 = s[k & 3];                                                \
    ((T *)&s)[(k + 1) & 3] += (T)1;                                 \
    T##2 h = s.lo * s.hi;                                           \
    a[i] = s;                                                       \
    b[i] = (T##4)(h, h.yx) + select(x, y, (x < y));

kernel void v4_char(global char4 *a, global char4 *b, int k) { BODY4(char) }
kernel void v4_uchar(global uchar4 *a, global uchar4 *b, int k) { BODY4(uchar) }
kernel void v4_short(global short4 *a, global short4 *b, int k) { BODY4(short) }
kernel void v4_ushort(global ushort4 *a, global ushort4 *b, int k) { BODY4(ushort) }
kernel void v4_int(global int4 *a, global int4 *b, int k) { BODY4(int) }
kernel void v4_uint(global uint4 *a, global uint4 *b, int k) { BODY4(uint) }
kernel void v4_long(global long4 *a, global long4 *b, int k) { BODY4(long) }
kernel void v4_ulong(global ulong4 *a, global ulong4 *b, int k) { BODY4(ulong) }

// float4's select needs an int4 mask.
kernel void v4_float(global float4 *a, global float4 *b, int k) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    float4 s = x + y * (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    s = s.wzyx - x.xxyy + y.s3120;
    s.xz = s.yw;
    s.hi = x.lo;
    s.odd = y.even;
    s.s3 = s[k & 3];
    ((float *)&s)[(k + 1) & 3] += 1.0f;
    a[i] = s;
    b[i] = select(x, y, x < y) + (float4)(s.lo * s.hi, 0.0f, 1.0f);
}

// Writing a vector one component at a time in a loop with a dynamic index.
kernel void v4_dynamic_fill(global uint4 *out, global const uint *idx) {
    size_t i = get_global_id(0);
    uint4 v = (uint4)(0);
    for (int c = 0; c < 4; c++)
        v[idx[c] & 3] += (uint)c + 1;
    out[i] = v;
}

// Vectors as kernel arguments by value.
kernel void v4_by_value(uchar4 c, short4 s, int4 v, float4 f, ulong4 l, global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = convert_float4(c) + convert_float4(s) + convert_float4(v) + f + convert_float4(l);
}
