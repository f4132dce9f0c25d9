// The relations and classifications of the floating values a and b, as
// ints (1 for true), for work-item i of n at oi[q * n + i], q = 0..19 in
// the order of clift_conformance::math::relations (conformance/src/math.rs;
// keep in sync). Included by fp16_core.cl and fp64_core.cl.
#define FP_RELATIONS(oi, a, b) \
    { \
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
