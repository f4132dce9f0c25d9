// FP_ARITH(T, IT): kernel `arith` on the floating type T, included by
// fp16_core.cl and fp64_core.cl and checked by
// clift_conformance::math::check_arith (conformance/src/math.rs; keep in
// sync). Work-item i of n writes result r to o[r * n + i]: a + b, a - b,
// a * b, a / b, -a, fma(a, b, c), a * b + c (contractible), a < b ? a : c,
// sqrt(a), a == a, a * 3 + 0.5 (contractible); and the relations and
// classifications of a and b as IT values (1 for true) to oi[q * n + i]:
// <, <=, >, >=, ==, !=, isequal, isnotequal, isgreater, isgreaterequal,
// isless, islessequal, islessgreater, isfinite, isinf, isnan, isnormal,
// isordered, isunordered, signbit.
#define FP_ARITH(T, IT) \
    kernel void arith(global const T *a_, global const T *b_, global const T *c_, \
                      global T *o, global IT *oi) { \
        size_t i = get_global_id(0), n = get_global_size(0); \
        T a = a_[i], b = b_[i], c = c_[i]; \
        size_t r = 0; \
        o[r++ * n + i] = a + b; \
        o[r++ * n + i] = a - b; \
        o[r++ * n + i] = a * b; \
        o[r++ * n + i] = a / b; \
        o[r++ * n + i] = -a; \
        o[r++ * n + i] = fma(a, b, c); \
        o[r++ * n + i] = a * b + c; \
        o[r++ * n + i] = a < b ? a : c; \
        o[r++ * n + i] = sqrt(a); \
        o[r++ * n + i] = (a == a) ? (T)1 : (T)0; \
        o[r++ * n + i] = a * (T)3 + (T)0.5; \
        size_t q = 0; \
        oi[q++ * n + i] = a < b; \
        oi[q++ * n + i] = a <= b; \
        oi[q++ * n + i] = a > b; \
        oi[q++ * n + i] = a >= b; \
        oi[q++ * n + i] = a == b; \
        oi[q++ * n + i] = a != b; \
        oi[q++ * n + i] = isequal(a, b); \
        oi[q++ * n + i] = isnotequal(a, b); \
        oi[q++ * n + i] = isgreater(a, b); \
        oi[q++ * n + i] = isgreaterequal(a, b); \
        oi[q++ * n + i] = isless(a, b); \
        oi[q++ * n + i] = islessequal(a, b); \
        oi[q++ * n + i] = islessgreater(a, b); \
        oi[q++ * n + i] = isfinite(a); \
        oi[q++ * n + i] = isinf(a); \
        oi[q++ * n + i] = isnan(a); \
        oi[q++ * n + i] = isnormal(a); \
        oi[q++ * n + i] = isordered(a, b); \
        oi[q++ * n + i] = isunordered(a, b); \
        oi[q++ * n + i] = signbit(a); \
    }
