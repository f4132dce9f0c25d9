// OpenCL.std integer built-ins on every integer type, scalar and 4 and 16
// wide: work-item i reads the vectors a[i], b[i], c[i] and writes result r
// to o[r * n + i]; abs to ua[i], upsample to up[i] (the double-width type).
// The order is the one tests/exec_builtins_int.rs checks.

#define INT_OPS(NAME, T, UT) \
    kernel void NAME(global const T *a_, global const T *b_, global const T *c_, \
                     global T *o, global UT *ua) { \
        size_t i = get_global_id(0), n = get_global_size(0); \
        T a = a_[i], b = b_[i], c = c_[i]; size_t r = 0; \
        o[r++ * n + i] = as_##T(abs_diff(a, b)); \
        o[r++ * n + i] = add_sat(a, b); \
        o[r++ * n + i] = sub_sat(a, b); \
        o[r++ * n + i] = hadd(a, b); \
        o[r++ * n + i] = rhadd(a, b); \
        o[r++ * n + i] = mul_hi(a, b); \
        o[r++ * n + i] = rotate(a, b); \
        o[r++ * n + i] = min(a, b); \
        o[r++ * n + i] = max(a, b); \
        o[r++ * n + i] = clamp(a, min(b, c), max(b, c)); \
        o[r++ * n + i] = mad_hi(a, b, c); \
        o[r++ * n + i] = mad_sat(a, b, c); \
        o[r++ * n + i] = clz(a); \
        o[r++ * n + i] = ctz(a); \
        o[r++ * n + i] = popcount(a); \
        ua[i] = abs(a); \
    }

#define UPSAMPLE(NAME, T, UT, WT) \
    kernel void NAME(global const T *a_, global const UT *b_, global WT *o) { \
        size_t i = get_global_id(0); \
        o[i] = upsample(a_[i], b_[i]); \
    }

#define MUL24(NAME, T) \
    kernel void NAME(global const T *a_, global const T *b_, global const T *c_, global T *o) { \
        size_t i = get_global_id(0), n = get_global_size(0); \
        T a = a_[i], b = b_[i], c = c_[i]; \
        o[i] = mul24(a, b); \
        o[n + i] = mad24(a, b, c); \
    }

INT_OPS(int_ops_char, char, uchar)
UPSAMPLE(upsample_char, char, uchar, short)
INT_OPS(int_ops_char4, char4, uchar4)
UPSAMPLE(upsample_char4, char4, uchar4, short4)
INT_OPS(int_ops_char16, char16, uchar16)
UPSAMPLE(upsample_char16, char16, uchar16, short16)
INT_OPS(int_ops_uchar, uchar, uchar)
UPSAMPLE(upsample_uchar, uchar, uchar, ushort)
INT_OPS(int_ops_uchar4, uchar4, uchar4)
UPSAMPLE(upsample_uchar4, uchar4, uchar4, ushort4)
INT_OPS(int_ops_uchar16, uchar16, uchar16)
UPSAMPLE(upsample_uchar16, uchar16, uchar16, ushort16)
INT_OPS(int_ops_short, short, ushort)
UPSAMPLE(upsample_short, short, ushort, int)
INT_OPS(int_ops_short4, short4, ushort4)
UPSAMPLE(upsample_short4, short4, ushort4, int4)
INT_OPS(int_ops_short16, short16, ushort16)
UPSAMPLE(upsample_short16, short16, ushort16, int16)
INT_OPS(int_ops_ushort, ushort, ushort)
UPSAMPLE(upsample_ushort, ushort, ushort, uint)
INT_OPS(int_ops_ushort4, ushort4, ushort4)
UPSAMPLE(upsample_ushort4, ushort4, ushort4, uint4)
INT_OPS(int_ops_ushort16, ushort16, ushort16)
UPSAMPLE(upsample_ushort16, ushort16, ushort16, uint16)
INT_OPS(int_ops_int, int, uint)
UPSAMPLE(upsample_int, int, uint, long)
INT_OPS(int_ops_int4, int4, uint4)
UPSAMPLE(upsample_int4, int4, uint4, long4)
INT_OPS(int_ops_int16, int16, uint16)
UPSAMPLE(upsample_int16, int16, uint16, long16)
INT_OPS(int_ops_uint, uint, uint)
UPSAMPLE(upsample_uint, uint, uint, ulong)
INT_OPS(int_ops_uint4, uint4, uint4)
UPSAMPLE(upsample_uint4, uint4, uint4, ulong4)
INT_OPS(int_ops_uint16, uint16, uint16)
UPSAMPLE(upsample_uint16, uint16, uint16, ulong16)
INT_OPS(int_ops_long, long, ulong)
INT_OPS(int_ops_long4, long4, ulong4)
INT_OPS(int_ops_long16, long16, ulong16)
INT_OPS(int_ops_ulong, ulong, ulong)
INT_OPS(int_ops_ulong4, ulong4, ulong4)
INT_OPS(int_ops_ulong16, ulong16, ulong16)
MUL24(mul24_int, int)
MUL24(mul24_uint, uint)
MUL24(mul24_int4, int4)
MUL24(mul24_uint4, uint4)
