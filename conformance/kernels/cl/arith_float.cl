// Float arithmetic, comparisons (ordered and unordered), select and the
// relational built-ins on float, scalar and every vector width. f[k * n + i]
// holds float result k of work-item i, r[k * n + i] int result k; s is a
// scalar operand.

#define FLOAT_OPS(NAME, FN, IN)                                                \
    kernel void NAME(global const FN *a_, global const FN *b_,                 \
                     global const float *s_, global FN *f, global IN *r) {     \
        size_t i = get_global_id(0), n = get_global_size(0);                   \
        FN a = a_[i], b = b_[i];                                               \
        float s = s_[i];                                                       \
        f[0 * n + i] = a + b;                                                  \
        f[1 * n + i] = a - b;                                                  \
        f[2 * n + i] = a * b;                                                  \
        f[3 * n + i] = a / b;                                                  \
        f[4 * n + i] = -a;                                                     \
        f[5 * n + i] = a < b ? a : b;                                          \
        f[6 * n + i] = a * s;                                                  \
        f[7 * n + i] = s > 0.0f ? a : b;                                       \
        r[0 * n + i] = a == b;                                                 \
        r[1 * n + i] = a != b;                                                 \
        r[2 * n + i] = a < b;                                                  \
        r[3 * n + i] = a <= b;                                                 \
        r[4 * n + i] = a > b;                                                  \
        r[5 * n + i] = a >= b;                                                 \
        r[6 * n + i] = !(a < b);                                               \
        r[7 * n + i] = !(a <= b);                                              \
        r[8 * n + i] = !(a > b);                                               \
        r[9 * n + i] = !(a >= b);                                              \
        r[10 * n + i] = isequal(a, b);                                         \
        r[11 * n + i] = isnotequal(a, b);                                      \
        r[12 * n + i] = isgreater(a, b);                                       \
        r[13 * n + i] = isgreaterequal(a, b);                                  \
        r[14 * n + i] = isless(a, b);                                          \
        r[15 * n + i] = islessequal(a, b);                                     \
        r[16 * n + i] = islessgreater(a, b);                                   \
        r[17 * n + i] = isordered(a, b);                                       \
        r[18 * n + i] = isunordered(a, b);                                     \
        r[19 * n + i] = isnan(a);                                              \
        r[20 * n + i] = isinf(a);                                              \
        r[21 * n + i] = isfinite(a);                                           \
        r[22 * n + i] = isnormal(a);                                           \
        r[23 * n + i] = signbit(a);                                            \
        r[24 * n + i] = (IN)any(as_##IN(a));                                   \
        r[25 * n + i] = (IN)all(as_##IN(a));                                   \
        r[26 * n + i] = (IN)any(a < b);                                        \
        r[27 * n + i] = (IN)all(a <= b);                                       \
    }

FLOAT_OPS(float_ops_float, float, int)
FLOAT_OPS(float_ops_float2, float2, int2)
FLOAT_OPS(float_ops_float3, float3, int3)
FLOAT_OPS(float_ops_float4, float4, int4)
FLOAT_OPS(float_ops_float8, float8, int8)
FLOAT_OPS(float_ops_float16, float16, int16)
