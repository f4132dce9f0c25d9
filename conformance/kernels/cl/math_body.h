// OpenCL.std math, common and float relational built-ins on one floating
// type, scalar or vector: included by builtins_math.cl (float),
// fp64_math.cl (double) and fp16_math.cl (half). Work-item i reads the
// vectors a[i], b[i], c[i] and k[i] and writes result r of function number
// r to o[r * n + i] (the order of the F1/F2/F3 lists of
// conformance/src/math.rs, which the tests share; keep in sync).
// Pointer-result functions write their second result through private,
// local, global and generic pointers.
//
// MATH(T, IT, UKT, K): T the type, IT the int vector of k, UKT the unsigned
// integer type of T's width (for nan), K a function-like macro making k the
// integer type of T's width (for select and nan). The float includer
// defines MATH_FLOAT_ONLY_1 and MATH_FLOAT_ONLY_2: the one- and two-operand
// functions only float has (half_ and native_), after trunc and remainder;
// they are empty for the other types.
//
// GEOMETRY(T, S) makes kernel `geometry` for scalar type T with S the
// signed integer type of its width: geometric functions, shuffles and
// vector loads and stores (conformance/src/math.rs, check_geometry).

#ifndef MATH_FLOAT_ONLY_1
#define MATH_FLOAT_ONLY_1
#define MATH_FLOAT_ONLY_2
#endif

#define MATH(T, IT, UKT, K) \
    kernel void math_##T(global const T *a_, global const T *b_, global const T *c_, \
                         global const IT *k_, global T *o, global IT *oi, \
                         global T *g, global IT *gi, local T *l, local IT *li) { \
        size_t i = get_global_id(0), n = get_global_size(0), j = get_local_id(0); \
        T a = a_[i], b = b_[i], c = c_[i]; IT k = k_[i]; size_t r = 0; \
        o[r++ * n + i] = acos(a); \
        o[r++ * n + i] = acosh(a); \
        o[r++ * n + i] = acospi(a); \
        o[r++ * n + i] = asin(a); \
        o[r++ * n + i] = asinh(a); \
        o[r++ * n + i] = asinpi(a); \
        o[r++ * n + i] = atan(a); \
        o[r++ * n + i] = atanh(a); \
        o[r++ * n + i] = atanpi(a); \
        o[r++ * n + i] = cbrt(a); \
        o[r++ * n + i] = ceil(a); \
        o[r++ * n + i] = cos(a); \
        o[r++ * n + i] = cosh(a); \
        o[r++ * n + i] = cospi(a); \
        o[r++ * n + i] = erfc(a); \
        o[r++ * n + i] = erf(a); \
        o[r++ * n + i] = exp(a); \
        o[r++ * n + i] = exp2(a); \
        o[r++ * n + i] = exp10(a); \
        o[r++ * n + i] = expm1(a); \
        o[r++ * n + i] = fabs(a); \
        o[r++ * n + i] = floor(a); \
        o[r++ * n + i] = lgamma(a); \
        o[r++ * n + i] = log(a); \
        o[r++ * n + i] = log2(a); \
        o[r++ * n + i] = log10(a); \
        o[r++ * n + i] = log1p(a); \
        o[r++ * n + i] = logb(a); \
        o[r++ * n + i] = rint(a); \
        o[r++ * n + i] = round(a); \
        o[r++ * n + i] = rsqrt(a); \
        o[r++ * n + i] = sin(a); \
        o[r++ * n + i] = sinh(a); \
        o[r++ * n + i] = sinpi(a); \
        o[r++ * n + i] = sqrt(a); \
        o[r++ * n + i] = tan(a); \
        o[r++ * n + i] = tanh(a); \
        o[r++ * n + i] = tanpi(a); \
        o[r++ * n + i] = tgamma(a); \
        o[r++ * n + i] = trunc(a); \
        MATH_FLOAT_ONLY_1 \
        o[r++ * n + i] = degrees(a); \
        o[r++ * n + i] = radians(a); \
        o[r++ * n + i] = sign(a); \
        o[r++ * n + i] = atan2(a, b); \
        o[r++ * n + i] = atan2pi(a, b); \
        o[r++ * n + i] = copysign(a, b); \
        o[r++ * n + i] = fdim(a, b); \
        o[r++ * n + i] = fmax(a, b); \
        o[r++ * n + i] = fmin(a, b); \
        o[r++ * n + i] = fmod(a, b); \
        o[r++ * n + i] = hypot(a, b); \
        o[r++ * n + i] = maxmag(a, b); \
        o[r++ * n + i] = minmag(a, b); \
        o[r++ * n + i] = nextafter(a, b); \
        o[r++ * n + i] = pow(a, b); \
        o[r++ * n + i] = powr(a, b); \
        o[r++ * n + i] = remainder(a, b); \
        MATH_FLOAT_ONLY_2 \
        o[r++ * n + i] = step(a, b); \
        o[r++ * n + i] = max(a, b); \
        o[r++ * n + i] = min(a, b); \
        o[r++ * n + i] = fma(a, b, c); \
        o[r++ * n + i] = mad(a, b, c); \
        o[r++ * n + i] = mix(a, b, c); \
        o[r++ * n + i] = smoothstep(a, b, c); \
        o[r++ * n + i] = clamp(a, b, c); \
        o[r++ * n + i] = ldexp(a, k); \
        o[r++ * n + i] = pown(a, k); \
        o[r++ * n + i] = rootn(a, k); \
        o[r++ * n + i] = nan(as_##UKT(K(k))); \
        o[r++ * n + i] = bitselect(a, b, c); \
        o[r++ * n + i] = select(a, b, K(k)); \
        size_t q = 0; T p; IT pi_; \
        o[r++ * n + i] = fract(a, &p); o[r++ * n + i] = p; \
        o[r++ * n + i] = fract(a, &g[q++ * n + i]); \
        o[r++ * n + i] = fract(a, &l[j]); o[r++ * n + i] = l[j]; \
        o[r++ * n + i] = modf(a, &p); o[r++ * n + i] = p; \
        o[r++ * n + i] = modf(a, &g[q++ * n + i]); \
        o[r++ * n + i] = sincos(a, &p); o[r++ * n + i] = p; \
        o[r++ * n + i] = sincos(a, &l[j]); o[r++ * n + i] = l[j]; \
        o[r++ * n + i] = frexp(a, &pi_); oi[0 * n + i] = pi_; \
        o[r++ * n + i] = frexp(a, &gi[0 * n + i]); \
        o[r++ * n + i] = remquo(a, b, &pi_); oi[1 * n + i] = pi_; \
        o[r++ * n + i] = remquo(a, b, &li[j]); oi[2 * n + i] = li[j]; \
        o[r++ * n + i] = lgamma_r(a, &pi_); oi[3 * n + i] = pi_; \
        o[r++ * n + i] = lgamma_r(a, &gi[1 * n + i]); \
        generic T *gp = &p; o[r++ * n + i] = fract(a, gp); o[r++ * n + i] = p; \
        oi[4 * n + i] = ilogb(a); \
    }

#define GEOMETRY(T, S) \
    kernel void geometry(global const T *a, global const T *b, global T *o, global const S *m) { \
        size_t i = get_global_id(0); \
        T##4 x4 = vload4(i, a), y4 = vload4(i, b); \
        T##3 x3 = vload3(i, a), y3 = vload3(i, b); \
        T##2 x2 = vload2(i, a), y2 = vload2(i, b); \
        T x1 = a[i], y1 = b[i]; \
        global T *p = o + 64 * i; \
        vstore4(cross(x4, y4), 0, p); \
        vstore3(cross(x3, y3), 0, p + 4); \
        p[7] = dot(x4, y4); \
        p[8] = dot(x3, y3); \
        p[9] = dot(x2, y2); \
        p[10] = dot(x1, y1); \
        p[11] = length(x4); \
        p[12] = length(x3); \
        p[13] = length(x2); \
        p[14] = length(x1); \
        p[15] = distance(x4, y4); \
        p[16] = distance(x3, y3); \
        p[17] = distance(x2, y2); \
        p[18] = distance(x1, y1); \
        vstore4(normalize(x4), 0, p + 20); \
        vstore3(normalize(x3), 0, p + 24); \
        vstore2(normalize(x2), 0, p + 28); \
        p[30] = normalize(x1); \
        S##4 m4 = vload4(i, m); \
        vstore4(shuffle(x4, as_u##S##4(m4)), 0, p + 32); \
        T##8 s8 = shuffle2(x4, y4, as_u##S##8((S##8)(m4, m4 >> 3))); \
        vstore8(s8, 0, p + 36); \
        vstore4(bitselect(x4, y4, as_##T##4(m4)), 0, p + 44); \
        vstore4(select(x4, y4, m4), 0, p + 48); \
        vstore2(shuffle(x2, as_u##S##2(m4.s12)), 0, p + 52); \
        T##16 w = vload16(0, a + 16 * (i % 4)); \
        p[54] = w.s0 + w.sf; \
        vstore3(vload3(0, a + i) * (T)2, 0, p + 55); \
    }
