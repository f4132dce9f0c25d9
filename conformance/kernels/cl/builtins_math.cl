// OpenCL.std math, common and float relational built-ins on float, scalar
// and vector widths (math_body.h, shared with fp64_math.cl and
// fp16_math.cl), with the half_ and native_ forms only float has.

#define MATH_FLOAT_ONLY_1 \
        o[r++ * n + i] = half_cos(a); \
        o[r++ * n + i] = half_exp(a); \
        o[r++ * n + i] = half_exp2(a); \
        o[r++ * n + i] = half_exp10(a); \
        o[r++ * n + i] = half_log(a); \
        o[r++ * n + i] = half_log2(a); \
        o[r++ * n + i] = half_log10(a); \
        o[r++ * n + i] = half_recip(a); \
        o[r++ * n + i] = half_rsqrt(a); \
        o[r++ * n + i] = half_sin(a); \
        o[r++ * n + i] = half_sqrt(a); \
        o[r++ * n + i] = half_tan(a); \
        o[r++ * n + i] = native_cos(a); \
        o[r++ * n + i] = native_exp(a); \
        o[r++ * n + i] = native_exp2(a); \
        o[r++ * n + i] = native_exp10(a); \
        o[r++ * n + i] = native_log(a); \
        o[r++ * n + i] = native_log2(a); \
        o[r++ * n + i] = native_log10(a); \
        o[r++ * n + i] = native_recip(a); \
        o[r++ * n + i] = native_rsqrt(a); \
        o[r++ * n + i] = native_sin(a); \
        o[r++ * n + i] = native_sqrt(a); \
        o[r++ * n + i] = native_tan(a);

#define MATH_FLOAT_ONLY_2 \
        o[r++ * n + i] = half_divide(a, b); \
        o[r++ * n + i] = half_powr(a, b); \
        o[r++ * n + i] = native_divide(a, b); \
        o[r++ * n + i] = native_powr(a, b);

#define KEEP(k) (k)
#include "math_body.h"

MATH(float, int, uint, KEEP)
MATH(float2, int2, uint2, KEEP)
MATH(float4, int4, uint4, KEEP)
MATH(float16, int16, uint16, KEEP)
