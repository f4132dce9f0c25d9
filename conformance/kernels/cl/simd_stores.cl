// Every form of store in a 4-lane body (tests/exec_simd_stores.rs): the
// vstore family and the half stores (void extended instructions), vloadn,
// built-ins writing through a pointer argument, stores of 3-component
// vectors and stores after a reinterpretation. Each kernel is one work-item
// per element; the tests compare both execution modes and host results.

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// The identity for k = 0 (every kernel but the three as found takes k and
// the tests pass 0), four 32-bit operations the compiler cannot see
// through: with them a kernel whose stores run lane by lane still does
// more work as vectors, so clift keeps its 4-lane body
// (tests/exec_simd_coverage.rs checks that it does).
#define MIXI(v, k) ((((v) ^ (int)(k)) + (int)(k)) * ((int)(k) + 1) - (int)(k))
#define MIXF(x, k) as_float(MIXI(as_int(x), k))
#define MIXF4(x, k) as_float4(MIXI(as_int4(x), k))

// Issue 12 item 1, as found: half round trip and float to half.
kernel void half_roundtrip(global const half *in, global half *out)
{
    size_t i = get_global_id(0);
    vstore_half(vload_half(i, in), i, out);
}

kernel void half_from_float(global const float *in, global half *out)
{
    size_t i = get_global_id(0);
    vstore_half(in[i], i, out);
}

// The same two with work around them that keeps the 4-lane body.
kernel void half_roundtrip_mixed(global const half *in, global half *out, uint k)
{
    size_t i = get_global_id(0);
    vstore_half(MIXF(vload_half(i, in), k), i, out);
}

kernel void half_from_float_mixed(global const float *in, global half *out, uint k)
{
    size_t i = get_global_id(0);
    vstore_half(MIXF(in[i], k), i, out);
}

// The rounding modes (vstore_half_r: a rounding-mode operand).
kernel void half_rounding(global const float *in, global half *rte, global half *rtz, global half *rtp,
                          global half *rtn, uint k)
{
    size_t i = get_global_id(0);
    float x = MIXF(in[i], k) * 1.0009765625f;
    vstore_half_rte(x, i, rte);
    vstore_half_rtz(MIXF(x, k), i, rtz);
    vstore_half_rtp(MIXF(x, k + 0u), i, rtp);
    vstore_half_rtn(x, i, rtn);
}

// vstore_halfn and vstorea_halfn (3: aligned as 4).
kernel void half_vectors(global const float4 *in, global half *h4, global half *h3, global half *a4, global half *a3,
                         uint k)
{
    size_t i = get_global_id(0);
    float4 x = MIXF4(MIXF4(in[i], k) * 2.0f, k);
    vstore_half4(x, i, h4);
    vstore_half3(x.xyz, i, h3);
    vstorea_half4(x, i, a4);
    vstorea_half3(x.xyz, i, a3);
}

// buffer_write_half: half16 copies (values only moved).
kernel void half16_copy(global const half16 *in, global half16 *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i];
}

// Issue 12 item 11, as found: a char4 reinterpreted as uchar3, then vstore3.
kernel void astype_vstore3(global const char4 *src, global uchar *dst)
{
    size_t i = get_global_id(0);
    uchar3 t = as_uchar3(src[i]);
    vstore3(t, i, dst);
}

// The same with work around it, from an int.
kernel void astype_vstore3_mixed(global const int *src, global uchar *dst, uint k)
{
    size_t i = get_global_id(0);
    uchar3 t = as_uchar3(MIXI(MIXI(src[i], k), k));
    vstore3(t, i, dst);
}

// vloadn and vstoren of every width on int and float.
kernel void vload_vstore(global const int *in, global int *o2, global int *o3, global int *o4, global int *o8,
                         global int *o16, global float *f3, uint k)
{
    size_t i = get_global_id(0);
    vstore2(MIXI(MIXI(vload2(i, in), k), k) + 1, i, o2);
    vstore3(MIXI(MIXI(vload3(i, in), k), k) * 3, i, o3);
    vstore4(MIXI(MIXI(vload4(i, in), k), k) - 4, i, o4);
    vstore8(MIXI(MIXI(vload8(i, in), k), k) ^ 8, i, o8);
    vstore16(MIXI(MIXI(vload16(i, in), k), k) + (int)i, i, o16);
    vstore3(convert_float3(MIXI(vload3(i, in), k)) * 0.5f, i, f3);
}

// Built-ins that store through a pointer argument.
kernel void pointer_results(global const float *in, global float *s, global float *c, global float *fr,
                            global float *ip, global int *ex, global float *m, uint k)
{
    size_t i = get_global_id(0);
    float x = MIXF(MIXF(in[i], k) * 3.5f, k);
    float cs;
    s[i] = MIXF(MIXF(sincos(x, &cs), k), k);
    c[i] = MIXF(MIXF(cs, k), k);
    fr[i] = MIXF(MIXF(fract(x, ip + i), k), k);
    m[i] = MIXF(MIXF(frexp(x, ex + i), k), k);
}

// Stores of 3-component vectors (16-byte stride) and through
// reinterpreted pointers.
kernel void odd_and_reinterpreted(global const int *in, global int3 *v3, global float3 *f3, global uint *bits,
                                  global char4 *c4, uint k)
{
    size_t i = get_global_id(0);
    int x = MIXI(in[i], k);
    v3[i] = (int3)(x, x + 1, x * 2);
    f3[i] = (float3)((float)x, 0.5f, -(float)x);
    bits[i] = as_uint(as_char4(x) + (char4)(1));
    ((global int *)c4)[i] = x * 7;
}
