// Comparisons and selection: scalar relational operators (ordered and
// unordered float semantics), vector comparisons yielding -1/0 masks, the
// relational built-ins (isequal, isnan, isinf, isfinite, isnormal, signbit,
// isordered, isunordered, any, all), select, bitselect and ?: on scalars and
// vectors.

kernel void cmp_int(global const int *a, global const int *b, global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    out[6 * i + 0] = x == y;
    out[6 * i + 1] = x != y;
    out[6 * i + 2] = x < y;
    out[6 * i + 3] = x <= y;
    out[6 * i + 4] = (uint)x > (uint)y;
    out[6 * i + 5] = (uint)x >= (uint)y;
}

kernel void cmp_float(global const float *a, global const float *b, global int *out) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[8 * i + 0] = x == y;
    out[8 * i + 1] = x != y; // true for NaN
    out[8 * i + 2] = x < y;
    out[8 * i + 3] = x >= y;
    out[8 * i + 4] = isnan(x) | (isinf(y) << 1) | (isfinite(x) << 2) | (isnormal(y) << 3);
    out[8 * i + 5] = signbit(x) + isordered(x, y) + isunordered(x, y);
    out[8 * i + 6] = isequal(x, y) + isnotequal(x, y) + isgreater(x, y) + islessgreater(x, y);
    out[8 * i + 7] = !(x < y) && !(x >= y);
}

kernel void cmp_vec(global const int4 *a, global const int4 *b, global int4 *mask, global int *flags) {
    size_t i = get_global_id(0);
    int4 m = a[i] < b[i];
    mask[i] = m;
    flags[i] = any(m) + 2 * all(m) + 4 * any(a[i] == b[i]);
}

kernel void cmp_vec_float(global const float8 *a, global const float8 *b, global int8 *mask) {
    size_t i = get_global_id(0);
    mask[i] = (a[i] > b[i]) | isnan(a[i]) | (isless(a[i], b[i]) & 2);
}

kernel void sel_scalar(global const int *a, global const float *f, global int *out, global float *fout) {
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = select(x, -x, x < 0) + (x > 10 ? 10 : x) + bitselect(x, ~x, 0x0f0f0f0f);
    float g = f[i];
    fout[i] = select(g, 0.0f, isnan(g)) + (g < 0.0f ? -g : g) + bitselect(g, -g, as_float(0x80000000u));
}

kernel void sel_vector(global const short8 *a, global const short8 *b, global short8 *out,
                       global float4 *f) {
    size_t i = get_global_id(0);
    short8 x = a[i], y = b[i];
    out[i] = select(x, y, x > y);     // per-component on the mask's sign bit
    out[i] += x < y ? x : y;          // vector ?: selects per component
    float4 v = f[i];
    f[i] = select(v, (float4)(0.0f), v < (float4)(0.0f));
}

kernel void sel_long(global long *p, global ulong *q) {
    size_t i = get_global_id(0);
    long x = p[i];
    p[i] = select(x, (long)0, (long)(x < 0)) + min(x, (long)100);
    q[i] = q[i] > 0xffffffffUL ? q[i] >> 32 : q[i];
}
