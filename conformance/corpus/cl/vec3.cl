// Three-component vectors: 4-element size and alignment in memory, vload3 /
// vstore3 for packed arrays, swizzles (.xyz .zyx .lo .hi .even .odd), dynamic
// element access, and the vec3 <-> vec4 conversions.

#define BODY3(T)                                                    \
    size_t i = get_global_id(0);                                    \
    T##3 x = a[i], y = b[i];                                        \
    T##3 s = x * (T##3)((T)1, (T)2, (T)3) + y;                      \
    s = s.zyx - x.xxy + y.s201;                                     \
    s.xz = x.lo;                                                    \
    s.y = y.hi.x;                                                   \
    s.s2 = s[k % 3];                                                \
    ((T *)&s)[(k + 1) % 3] += (T)1;                                 \
    a[i] = s;                                                       \
    T##3 p = vload3(i, packed);                                     \
    vstore3(p + s, i + 1, packed);                                  \
    T##4 w = (T##4)(s, (T)0);                                       \
    b[i] = w.xyz + w.www;

kernel void v3_char(global char3 *a, global char3 *b, global char *packed, int k) { BODY3(char) }
kernel void v3_uchar(global uchar3 *a, global uchar3 *b, global uchar *packed, int k) { BODY3(uchar) }
kernel void v3_short(global short3 *a, global short3 *b, global short *packed, int k) { BODY3(short) }
kernel void v3_ushort(global ushort3 *a, global ushort3 *b, global ushort *packed, int k) { BODY3(ushort) }
kernel void v3_int(global int3 *a, global int3 *b, global int *packed, int k) { BODY3(int) }
kernel void v3_uint(global uint3 *a, global uint3 *b, global uint *packed, int k) { BODY3(uint) }
kernel void v3_long(global long3 *a, global long3 *b, global long *packed, int k) { BODY3(long) }
kernel void v3_ulong(global ulong3 *a, global ulong3 *b, global ulong *packed, int k) { BODY3(ulong) }
kernel void v3_float(global float3 *a, global float3 *b, global float *packed, int k) { BODY3(float) }

// Cross product and dot product by hand on float3.
kernel void v3_geometry(global const float3 *a, global const float3 *b, global float3 *c, global float *d) {
    size_t i = get_global_id(0);
    float3 u = a[i], v = b[i];
    c[i] = u.yzx * v.zxy - u.zxy * v.yzx;
    float3 m = u * v;
    d[i] = m.x + m.y + m.z;
}

// vec3 kernel argument by value (16 bytes, like a vec4).
kernel void v3_by_value(int3 v, float3 f, global int3 *out, global float3 *fout) {
    out[get_global_id(0)] = v.zyx + (int3)get_global_id(0);
    fout[get_global_id(0)] = f * 2.0f;
}
