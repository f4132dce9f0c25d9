// Single-precision arithmetic: + - * /, negation, contraction candidates,
// special values (inf, nan, -0.0), and the core float helpers that are plain
// instructions or trivial (fabs, copysign, fmin, fmax, fma, mad, floor, ceil,
// trunc, rint, round).

kernel void fbasic(global const float *a, global const float *b, global float *out) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[6 * i + 0] = x + y;
    out[6 * i + 1] = x - y;
    out[6 * i + 2] = x * y;
    out[6 * i + 3] = x / y;
    out[6 * i + 4] = -x;
    out[6 * i + 5] = x * y + out[6 * i]; // mul-add, not fused unless -cl-mad-enable
}

kernel void fspecial(global float *out) {
    size_t i = get_global_id(0);
    float z = out[i] * 0.0f;
    out[8 * i + 0] = INFINITY;
    out[8 * i + 1] = -INFINITY;
    out[8 * i + 2] = NAN;
    out[8 * i + 3] = -0.0f;
    out[8 * i + 4] = 1.0f / z;
    out[8 * i + 5] = z / z;
    out[8 * i + 6] = FLT_MAX * 2.0f;
    out[8 * i + 7] = FLT_MIN / 4.0f; // a denormal
}

kernel void fhelpers(global float *p) {
    size_t i = get_global_id(0);
    float x = p[i];
    float y = p[i + 1];
    p[i] = fabs(x) + copysign(1.0f, y) + fmin(x, y) + fmax(x, y) + fma(x, y, 1.0f) +
           mad(x, y, 2.0f) + floor(x) + ceil(x) + trunc(x) + rint(x) + round(x);
}

kernel void fcompound(global float *p, float scale, float bias) {
    size_t i = get_global_id(0);
    float v = p[i];
    v *= scale;
    v += bias;
    v /= (scale + 1.0f);
    v -= 0.5f;
    p[i] = v;
}

// A Horner polynomial and a Kahan-compensated sum: orderings the compiler must keep.
kernel void fpoly_kahan(global const float *x, global float *out, int n) {
    size_t i = get_global_id(0);
    float t = x[i];
    float poly = ((((0.5f * t + 0.25f) * t - 1.0f) * t + 3.0f) * t - 7.0f);
    float sum = 0.0f, c = 0.0f;
    for (int k = 0; k < n; k++) {
        float y = x[k] - c;
        float s = sum + y;
        c = (s - sum) - y;
        sum = s;
    }
    out[i] = poly + sum;
}

kernel void fvec(global float4 *a, global float2 *b, global float8 *c) {
    size_t i = get_global_id(0);
    a[i] = a[i] * 2.0f + (float4)(1.0f, -1.0f, 0.5f, -0.5f);
    b[i] = b[i] / b[i].yx - 1.0f;
    c[i] = -c[i] * c[i] + fabs(c[i]);
}
