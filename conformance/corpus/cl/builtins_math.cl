// Math built-ins beyond the core arithmetic (OpenCL.std extended
// instructions): trigonometric, exponential,
// logarithmic, power, sqrt / rsqrt, native_ and half_ variants, fract /
// modf / frexp / ldexp with pointer out-parameters, remquo, geometric
// functions, common functions, integer mad/clamp on vectors.

kernel void trig(global float *x, global float4 *v) {
    size_t i = get_global_id(0);
    float a = x[i];
    x[i] = sin(a) + cos(a) + tan(a) + asin(a * 0.5f) + acos(a * 0.5f) + atan(a) + atan2(a, 2.0f) +
           sinh(a) + cosh(a) + tanh(a) + asinh(a) + acosh(a + 2.0f) + atanh(a * 0.5f) + sinpi(a) +
           cospi(a) + tanpi(a * 0.25f) + asinpi(a * 0.5f) + acospi(a * 0.5f) + atanpi(a) + atan2pi(a, 3.0f);
    float c;
    float s = sincos(a, &c);
    v[i] = sin(v[i]) + cos(v[i]) + (float4)(s, c, 0.0f, 1.0f);
}

kernel void exp_log_pow(global float *x, global float8 *v) {
    size_t i = get_global_id(0);
    float a = fabs(x[i]) + 0.5f;
    x[i] = exp(a) + exp2(a) + exp10(a) + expm1(a) + log(a) + log2(a) + log10(a) + log1p(a) + logb(a) +
           pow(a, 1.5f) + pown(a, 3) + powr(a, 0.5f) + rootn(a, 3) + sqrt(a) + rsqrt(a) + cbrt(a) +
           hypot(a, 1.0f) + erf(a) + erfc(a) + tgamma(a) + lgamma(a) + (float)ilogb(a);
    v[i] = exp(v[i]) * log(fabs(v[i]) + 1.0f) + sqrt(fabs(v[i]));
}

kernel void native_half(global float *x) {
    size_t i = get_global_id(0);
    float a = fabs(x[i]) + 1.0f;
    x[i] = native_sin(a) + native_cos(a) + native_exp(a) + native_log(a) + native_sqrt(a) +
           native_rsqrt(a) + native_recip(a) + native_divide(a, 3.0f) + native_powr(a, 2.0f) +
           native_tan(a) + native_exp2(a) + native_log2(a) + native_exp10(a) + native_log10(a) +
           half_sin(a) + half_cos(a) + half_exp(a) + half_log(a) + half_sqrt(a) + half_rsqrt(a) +
           half_recip(a) + half_divide(a, 2.0f) + half_powr(a, 2.0f);
}

kernel void out_params(global float *x, global int *e, global float *frac, global int *quo) {
    size_t i = get_global_id(0);
    float a = x[i];
    float ip;
    int ex;
    int q;
    private float fl;
    frac[i] = fract(a, &fl) + modf(a, &ip) + frexp(a, &ex) + ldexp(a, 3) + remquo(a, 1.5f, &q) +
              lgamma_r(a, &ex);
    x[i] = fl + ip;
    e[i] = ex;
    quo[i] = q;
}

kernel void common_geometric(global float4 *a, global float4 *b, global float *s) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    s[i] = dot(x, y) + length(x) + distance(x, y) + fast_length(y) + fast_distance(x, y);
    a[i] = normalize(x) + fast_normalize(y) + (float4)(cross(x.xyz, y.xyz), 0.0f);
    b[i] = clamp(x, 0.0f, 1.0f) + degrees(x) + radians(y) + mix(x, y, 0.25f) + step(0.5f, x) +
           smoothstep(0.0f, 1.0f, y) + sign(x) + fmod(x, y) + remainder(x, y) + fdim(x, y) +
           maxmag(x, y) + minmag(x, y) + nextafter(x, y) + logb(y) + nan((uint4)1);
}
