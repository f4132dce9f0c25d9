// OpenCL.std geometric, shuffle, vector load/store and half conversion
// built-ins; tests/exec_builtins_misc.rs checks them.

// Geometric on float4 (and float3 through the first three components).
kernel void geometric(global const float4 *a_, global const float4 *b_, global float4 *o, global float *s) {
    size_t i = get_global_id(0), n = get_global_size(0);
    float4 a = a_[i], b = b_[i];
    o[0 * n + i] = cross(a, b);
    o[1 * n + i] = normalize(a);
    o[2 * n + i] = fast_normalize(a);
    o[3 * n + i] = (float4)(cross(a.xyz, b.xyz), 0.0f);
    o[4 * n + i] = (float4)(normalize(a.xy), normalize(a.x), 0.0f);
    s[0 * n + i] = length(a);
    s[1 * n + i] = distance(a, b);
    s[2 * n + i] = fast_length(a);
    s[3 * n + i] = fast_distance(a, b);
    s[4 * n + i] = length(a.xyz);
    s[5 * n + i] = dot(a, b);
}

// shuffle and shuffle2 with masks from memory.
kernel void shuffles(global const int8 *x_, global const int8 *y_, global const uint8 *m_, global int8 *o, global float4 *f) {
    size_t i = get_global_id(0), n = get_global_size(0);
    int8 x = x_[i], y = y_[i];
    uint8 m = m_[i];
    o[0 * n + i] = shuffle(x, m);
    o[1 * n + i] = shuffle2(x, y, m);
    int16 w = shuffle2(x, y, (uint16)(m, m + 3));
    o[2 * n + i] = w.lo;
    o[3 * n + i] = w.hi;
    f[i] = shuffle(convert_float2(x.s01), m.s0123);
    prefetch(x_ + i, 1);
}

// vloadn / vstoren at every width, from global and private memory.
kernel void vload_store(global const float *src, global float *dst, global int *idst) {
    size_t i = get_global_id(0);
    vstore2(vload2(i, src), i, dst);
    vstore3(vload3(i, src + 1), i, dst + 1024);
    vstore4(vload4(i, src), i, dst + 2048);
    vstore8(vload8(i, src), i, dst + 4096);
    vstore16(vload16(i, src), i, dst + 8192);
    int p[8];
    for (int k = 0; k < 8; k++) p[k] = (int)i * 8 + k;
    int4 v = vload4(1, p);
    vstore4(v, i, idst);
}

// Half loads and stores: every rounding mode, scalar and vector, aligned
// forms; h holds float results (as halves), f the floats read back.
#define STORE_MODES(SUFFIX, N, T) \
    vstore_half##SUFFIX(x, i, h + 0 * n * N); \
    vstore_half##SUFFIX##_rte(x, i, h + 1 * n * N); \
    vstore_half##SUFFIX##_rtz(x, i, h + 2 * n * N); \
    vstore_half##SUFFIX##_rtp(x, i, h + 3 * n * N); \
    vstore_half##SUFFIX##_rtn(x, i, h + 4 * n * N);

kernel void half_scalar(global const float *x_, global half *h, global float *f) {
    size_t i = get_global_id(0), n = get_global_size(0);
    float x = x_[i];
    STORE_MODES(, 1, float)
    f[i] = vload_half(i, h + 2 * n);
}

kernel void half_vec4(global const float4 *x_, global half *h, global float4 *f) {
    size_t i = get_global_id(0), n = get_global_size(0);
    float4 x = x_[i];
    STORE_MODES(4, 4, float4)
    f[i] = vload_half4(i, h + 3 * n * 4);
}

kernel void half_vec3(global const float *x_, global half *h, global float *f) {
    size_t i = get_global_id(0), n = get_global_size(0);
    float3 x = vload3(i, x_);
    vstore_half3_rtn(x, i, h);
    vstorea_half3_rtp(x, i, h + 3 * n);
    vstorea_half4_rtz((float4)(x, 1.0f), i, h + 7 * n);
    vstorea_half3(x, i, h + 11 * n);
    vstore3(vload_half3(i, h), i, f);
    vstore3(vloada_half3(i, h + 3 * n), i, f + 3 * n);
    vstore4(vloada_half4(i, h + 7 * n), i, f + 6 * n);
}
