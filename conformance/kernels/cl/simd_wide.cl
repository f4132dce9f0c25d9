// 8-lane bodies (jit/src/lower/simd/mod.rs, `Part`): a chunk of eight
// work-items lowered as two 4-lane parts whose values are computed side by
// side. tests/exec_simd_wide.rs runs these with local sizes whose rows hold
// 8-lane chunks, a 4-lane chunk and work-items run one at a time, against
// the host and against the scalar build; tests/debug_dump.rs checks that
// they get 8-lane bodies.

// A loop-carried multiply-add chain per work-item (clbench's sgemm_naive):
// the guard differs between the parts of a chunk when n is not a multiple
// of 8, which abandons the chunk to the scalar body.
kernel void dot_columns(global const float *a, global const float *b, global float *c, uint n, uint k)
{
    uint col = (uint)get_global_id(0);
    if (col >= n)
        return;
    float acc = 0.0f;
    for (uint j = 0; j < k; j++)
        acc = fma(a[j], b[j * n + col], acc);
    c[col] = acc;
}

// A call with varying arguments returning a struct, and a private array
// per work-item indexed by a value that differs between lanes.
typedef struct {
    int sum;
    int top;
} folded;

__attribute__((noinline)) folded fold(const int *t, int len, int bias)
{
    folded f = {bias, t[0]};
    for (int k = 0; k < len; k++) {
        f.sum += t[k];
        f.top = max(f.top, t[k]);
    }
    return f;
}

kernel void private_calls(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int t[5];
    for (int k = 0; k < 5; k++)
        t[k] = in[i] * (k + 1) - (int)i;
    t[i % 5] ^= 0x55;
    folded f = fold(t, 5, (int)get_local_id(0));
    out[2 * i] = f.sum;
    out[2 * i + 1] = f.top;
}

// Atomics whose operands are the same in every lane still count once per
// work-item; the ids of each part are its own.
kernel void counts_and_ids(global int *counter, global uint *ids)
{
    size_t i = get_global_id(0);
    atomic_inc(&counter[0]);
    atomic_add(&counter[1], (int)get_local_id(0));
    ids[3 * i] = (uint)get_local_id(0);
    ids[3 * i + 1] = (uint)get_global_id(0);
    ids[3 * i + 2] = (uint)get_group_id(0);
}

// Values that are only moved keep every bit: NaN payloads through
// shuffles and selects whose condition differs between lanes.
kernel void moves(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    float4 v = as_float4(vload4(i, in));
    float4 w = v.wzyx;
    int4 c = (int4)((int)i & 1, (int)i & 2, (int)i & 4, (int)i & 8) != 0;
    vstore4(as_uint4(select(v, w, c)), i, out);
}

// A loop whose exit differs between work-items: each part of an 8-lane
// body has its own active lanes, and a chunk runs the loop until the last
// of its eight lanes leaves.
kernel void narrowed(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = in[i], s = 0;
    while (x > 1 && s < 100) {
        x = select(x / 2, 3 * x + 1, x & 1);
        s++;
    }
    out[i] = s;
}

// Loops whose exits differ between work-items but only by a few
// iterations (a counter starting at the global or local id and stepping by
// the same amount in every lane, against a bound the same in every lane:
// clbench's grid-stride loops) get 8-lane bodies: a chunk's lanes leave
// within an iteration of one another. Here the stride is a kernel argument,
// so lanes may also leave many iterations apart (stride 1).
kernel void strided(global const uint *in, global uint *out, uint n, uint stride)
{
    uint acc = 0;
    for (size_t i = get_global_id(0); i < n; i += stride)
        acc = acc * 31u + in[i];
    for (size_t j = get_local_id(0) + 3; j < 40; j += stride + 2)
        acc ^= (uint)j << (j & 15);
    out[get_global_id(0)] = acc;
}

// Two loops in a row whose exits differ between work-items: at -O0 the
// second starts right after the block that ends the first (its counter is
// stored there), and its lanes must all be set there (they were not: the
// second loop ran with no lane active, when its header held no counter
// that steps by the same amount in every lane, as here).
kernel void loops_in_a_row(global const uint *in, global uint *out, uint n, uint stride)
{
    uint acc = 0;
    for (size_t i = get_global_id(0); i < n; i += stride)
        acc = acc * 31u + in[i];
    for (size_t j = get_local_id(0) + 1; j < 50; j = j * 2 + stride)
        acc = acc * 7u + (uint)j;
    out[get_global_id(0)] = acc;
}

// A branch whose lanes differ after a store: its arm runs under each
// part's mask.
kernel void masked_arm(global const uint *in, global uint *out, global uint *odd)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    out[i] = x / 3;
    if (x & 1)
        odd[i] = x * 5;
}

// A switch whose selector differs between lanes, after a store: its
// paths cross (a DAG region, jit/src/lower/simd/dag.rs), each part with
// its blocks' own masks.
kernel void crossing(global const uint *in, global uint *out, global uint *side)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    out[i] = x / 3;
    switch (x) {
    case 3:
        side[i] = x;
        break;
    case 100:
    case 997:
        side[i] = x * 7;
        break;
    case 250:
        side[i] = x + 11;
        break;
    default:
        break;
    }
}

// exp, log, erf, sin, cos, tan and pow of float and of each component of
// a float2: one call of the 8-lane form for both parts
// (builtins/src/float_lanes.rs, double_lanes.rs), which must give the scalar
// body's bits.
kernel void math8(global const float *x, global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i];
    float2 w = (float2)(v, v * -0.75f);
    float2 r[7] = { exp(w), log(w), erf(w), sin(w), cos(w), tan(w), pow(fabs(w), w.yx) };
    out[21 * i] = exp(v);
    out[21 * i + 1] = log(v);
    out[21 * i + 2] = erf(v);
    out[21 * i + 3] = sin(v);
    out[21 * i + 4] = cos(v);
    out[21 * i + 5] = tan(v);
    out[21 * i + 6] = pow(fabs(v), v * 0.37f);
    for (int k = 0; k < 7; k++) {
        out[21 * i + 7 + 2 * k] = r[k].x;
        out[21 * i + 8 + 2 * k] = r[k].y;
    }
}

// The float functions that are libm's double functions rounded (and the
// pi forms, divided by pi first) of a float and of each component of a
// float2: one call of their 8-lane form for both parts
// (builtins/src/libm_float_lanes.rs), the scalar body's bits; and hypot,
// computed inline in double (jit/src/lower/simd/ops.rs).
kernel void math8_libm(global const float *x, global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i];
    float2 w = (float2)(v, v * -0.75f);
    float2 s = w * 0.125f;
    float2 r[19] = { acos(s), asin(s), atan(w), expm1(w), tanh(w), sinh(w), cosh(w), log1p(w),
                     asinh(w), acosh(w), atanh(s), atan2(w, w.yx), acospi(s), asinpi(s), atanpi(w),
                     atan2pi(w.yx, w), erfc(w), cbrt(w), hypot(w, w.yx) };
    float u = v * 0.125f;
    float one[19] = { acos(u), asin(u), atan(v), expm1(v), tanh(v), sinh(v), cosh(v), log1p(v),
                      asinh(v), acosh(v), atanh(u), atan2(v, v - 1.5f), acospi(u), asinpi(u), atanpi(v),
                      atan2pi(v - 1.5f, v), erfc(v), cbrt(v), hypot(v, v - 1.5f) };
    for (int k = 0; k < 19; k++) {
        out[57 * i + k] = one[k];
        out[57 * i + 19 + 2 * k] = r[k].x;
        out[57 * i + 20 + 2 * k] = r[k].y;
    }
}

// The common and math built-ins the scalar lowering writes once for
// scalars and vectors (jit/src/lower/ext_inst.rs, lanewise): copysign,
// the half_ and native_ square roots, divisions and reciprocals,
// maxmag/minmag, mix, step, smoothstep, sign, degrees/radians and select
// (with a scalar and with a vector condition), of floats and doubles,
// in 4- and 8-lane bodies as vectors; and round, fdim and ldexp, whose
// host functions the vector bodies compute as vector code
// (jit/src/lower/simd/ops.rs, rounding4). Result k of work-item i at
// o[k * n + i].
kernel void common_lanes(global const float *a, global const float *b, global const int *c,
                         global const double *d, global float *o, global double *od, global int *oi)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    float x = a[i], y = b[i];
    int k = c[i];
    double p = d[i], q = d[i] * -0.5;
    float2 v = (float2)(x, y), w = (float2)(y, 0.25f);
    o[0 * n + i] = copysign(x, y);
    o[1 * n + i] = native_sqrt(fabs(x)) + half_sqrt(fabs(y));
    o[2 * n + i] = maxmag(x, y);
    o[3 * n + i] = minmag(x, y);
    o[4 * n + i] = native_divide(x, y);
    o[5 * n + i] = native_recip(x) + half_recip(y);
    o[6 * n + i] = mix(x, y, 0.3f);
    o[7 * n + i] = step(y, x);
    o[8 * n + i] = smoothstep(-1.0f, y, x);
    o[9 * n + i] = sign(x);
    o[10 * n + i] = degrees(x);
    o[11 * n + i] = radians(y);
    o[12 * n + i] = select(x, y, k);
    o[13 * n + i] = select(v, w, (int2)(k, -k)).y;
    o[14 * n + i] = select(v, w, (int2)(k, -k)).x;
    o[15 * n + i] = sign(v * -2.0f).y;
    o[16 * n + i] = round(x);
    o[17 * n + i] = fdim(x, y);
    o[18 * n + i] = ldexp(x, k);
    o[19 * n + i] = round(y * 0.5f);
    o[20 * n + i] = native_rsqrt(x);
    o[21 * n + i] = half_rsqrt(y);
    o[22 * n + i] = pown(x, k);
    o[23 * n + i] = pown(y, 3);
    o[24 * n + i] = sinpi(x);
    o[25 * n + i] = cospi(y);
    o[26 * n + i] = sinpi(y * 0.25f);
    o[27 * n + i] = cospi(x * 4.0f);
    o[28 * n + i] = tanpi(x);
    o[29 * n + i] = tanpi(y * 0.25f);
    od[0 * n + i] = copysign(p, q);
    od[1 * n + i] = maxmag(p, q);
    od[2 * n + i] = mix(p, q, 0.25);
    od[3 * n + i] = step(q, p);
    od[4 * n + i] = smoothstep(-2.0, q, p);
    od[5 * n + i] = sign(p);
    od[6 * n + i] = degrees(p) + radians(q);
    od[7 * n + i] = select(p, q, (long)k);
    od[8 * n + i] = round(p);
    od[9 * n + i] = fdim(p, q);
    od[10 * n + i] = pown(p, k);
    // Conversions to integers with a rounding mode (rounded first, then
    // converted as toward zero).
    float z = x * 3.75f;
    oi[0 * n + i] = convert_int_rte(z);
    oi[1 * n + i] = convert_int_rtp(z);
    oi[2 * n + i] = convert_int_rtn(z);
    oi[3 * n + i] = convert_int_sat_rte(z);
    oi[4 * n + i] = (int)convert_uint_sat_rtp(z);
    oi[5 * n + i] = convert_int_rte(p * 2.5);
    oi[6 * n + i] = convert_int_sat_rtn(q);
}

// The geometric functions whose recipes combine components, as vectors
// in 4- and 8-lane bodies (jit/src/lower/simd/ops.rs, geometric4): cross
// of float3, float4 and double3, length, distance and normalize (and
// their fast_ forms) of float2 ... float4. Result k of work-item i at
// o[k * n + i].
kernel void geometry_lanes(global const float4 *a, global const float4 *b, global float *o, global double *od)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    float4 u = a[i], v = b[i];
    float3 c3 = cross(u.xyz, v.xyz);
    float4 c4 = cross(u, v);
    double3 cd = cross(convert_double3(u.xyz), convert_double3(v.zyx));
    float2 n2 = normalize(u.xy);
    float3 n3 = fast_normalize(v.xyz);
    float4 n4 = normalize(u);
    o[0 * n + i] = c3.x;
    o[1 * n + i] = c3.y;
    o[2 * n + i] = c3.z;
    o[3 * n + i] = c4.x + c4.y + c4.z;
    o[4 * n + i] = c4.w;
    o[5 * n + i] = length(u.xy);
    o[6 * n + i] = length(v.xyz);
    o[7 * n + i] = fast_length(u);
    o[8 * n + i] = distance(u.xyz, v.xyz);
    o[9 * n + i] = fast_distance(u, v);
    o[10 * n + i] = n2.x;
    o[11 * n + i] = n2.y;
    o[12 * n + i] = n3.z;
    o[13 * n + i] = n4.x;
    o[14 * n + i] = n4.w;
    od[0 * n + i] = cd.x;
    od[1 * n + i] = cd.y + cd.z;
}

// length, distance and normalize of doubles (the scalar recipe, which
// scales the components by a power of two, lane by lane in the 4- and
// 8-lane bodies), of double2, double3 and double4.
kernel void geometry_lanes_double(global const double4 *a, global const double4 *b, global double *od)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    double4 u = a[i], v = b[i];
    double2 n2 = normalize(u.xy);
    double3 n3 = normalize(v.xyz);
    double4 n4 = normalize(u);
    od[0 * n + i] = length(u.xy);
    od[1 * n + i] = length(v.xyz);
    od[2 * n + i] = length(u);
    od[3 * n + i] = distance(u.xyz, v.xyz);
    od[4 * n + i] = distance(u, v);
    od[5 * n + i] = n2.x;
    od[6 * n + i] = n2.y;
    od[7 * n + i] = n3.x;
    od[8 * n + i] = n3.z;
    od[9 * n + i] = n4.x;
    od[10 * n + i] = n4.w;
    od[11 * n + i] = length(u.x);
}

// hypot of two floats, NaNs with payloads among them: the 4- and 8-lane
// bodies compute it inline as the scalar function does, a NaN operand
// the result (x's where both are).
kernel void hypot_lanes(global const float *x, global const float *y, global float *out)
{
    size_t i = get_global_id(0);
    out[i] = hypot(x[i], y[i]);
}

// The same calls where lanes differ: in the arms of a branch (each part's
// lanes under its own mask) and in a loop whose exit differs between
// work-items (a masked loop with -cl-clift-min-lanes=8).
kernel void math8_masked(global const float *x, global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i];
    float acc;
    if (v > 0.5f)
        acc = exp(-v) + sin(v);
    else
        acc = log(fabs(v) + 1.0f) - cos(v);
    for (uint k = 0; k < (uint)(i % 3) + 1; k++) {
        acc += erf(acc * 0.5f);
        out[3 * i + k] = acc;
    }
}

// The half_ and native_ forms the OpenCL.std table implements with the
// plain functions: the plain functions' 8-lane forms, the same bits; and
// exp2, exp10, log2 and log10 (builtins/src/double_lanes.rs).
kernel void math8_native(global const float *x, global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i];
    out[9 * i] = native_exp(v);
    out[9 * i + 1] = half_log(fabs(v) + 0.5f);
    out[9 * i + 2] = native_sin(v);
    out[9 * i + 3] = half_cos(v);
    out[9 * i + 4] = native_tan(v);
    out[9 * i + 5] = exp2(v * 7.0f);
    out[9 * i + 6] = native_exp10(v * 2.5f);
    out[9 * i + 7] = log2(fabs(v) + 0.5f);
    out[9 * i + 8] = half_log10(fabs(v) * 1000.0f);
}

// sincos in 8-lane bodies (jit/src/lower/simd/ops.rs, sincos_both_parts):
// the 8-lane sin and cos for both parts, one call each per component, the
// cosines stored through each part's pointers: into a private float, a
// private float2, global memory 12 floats apart, a private double.
kernel void math8_sincos(global const float *x, global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i], c;
    float2 c2;
    out[12 * i] = sincos(v, &c);
    out[12 * i + 1] = c;
    vstore2(sincos((float2)(v, v * -0.75f), &c2), 0, out + 12 * i + 2);
    vstore2(c2, 0, out + 12 * i + 4);
    out[12 * i + 6] = sincos(v * 0.5f, out + 12 * i + 7);
    double d, vd = (double)v * 3.0;
    global double *o64 = (global double *)(out + 12 * i + 8);
    o64[0] = sincos(vd, &d);
    o64[1] = d;
}

// Kernels with barriers in 8-lane bodies (jit/src/lower/barrier.rs): a
// chunk of eight suspends and resumes as one, each part's values kept
// across barriers in its own frame slots, its private array (a copy per
// lane, side by side in the chunk's frame at -O0) after part 0's, and the
// addresses computed from its local id computed again where it resumes.
// Local sizes that are multiples of 8 run 8-lane chunks, other multiples
// of 4 run 4-lane ones, the rest run one work-item at a time. The values
// are integers (exact in float), so contracting a multiply and an add
// changes nothing.
kernel void tiles_across_barriers(global const float *in, global float *out, global int *side, uint rounds)
{
    local float tile[64];
    local int counts[64];
    uint lid = get_local_id(0);
    uint lsz = get_local_size(0);
    size_t gid = get_global_id(0);
    // Varying, kept across every barrier.
    float mine = in[gid] * 3.0f + (float)lid;
    int priv[5];
    for (int k = 0; k < 5; k++)
        priv[k] = (int)(gid * (k + 1)) ^ (int)lid;
    float acc = 0.0f;
    for (uint r = 0; r < rounds; r++) {
        tile[lid] = mine + (float)r;
        counts[lid] = priv[(gid + r) % 5];
        barrier(CLK_LOCAL_MEM_FENCE);
        // Another work-item's values, across the parts of a chunk and
        // across chunks.
        uint other = (lid + 5 + r) % lsz;
        acc = fma(tile[other], 0.5f, acc);
        // A branch whose lanes differ, after a store: a masked region.
        if ((counts[other] & 3) == 1)
            priv[r % 5] += counts[other];
        else
            acc -= 1.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid] = acc;
    side[gid] = priv[0] + priv[1] * 3 + priv[2] * 5 + priv[3] * 7 + priv[4] * 11;
}

// A tree sum in local memory (clbench's reduce without its grid-stride
// loop): the lanes that add differ within a chunk and between its parts.
kernel void tree_sums(global const uint *in, global uint *out, local uint *scratch)
{
    uint lid = get_local_id(0);
    uint lsz = get_local_size(0);
    scratch[lid] = in[get_global_id(0)] * 7u + lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = scratch[0] ^ (lid * 0x9e3779b9u);
}

// A loop carrying a float8 and an int4 per work-item: 12 vector registers
// per 4-lane part, more than two parts fit in (x86-64 has 16) but not one:
// clift estimates a 4-lane body faster (tests/debug_dump.rs checks the
// estimate, -cl-clift-min-lanes=8 makes the 8-lane body anyway).
kernel void vector_chains(global const float8 *a, global float8 *o, global int4 *oi, int rounds)
{
    size_t i = get_global_id(0);
    float8 acc = a[i];
    int4 h = convert_int4(acc.lo);
    for (int r = 0; r < rounds; r++) {
        acc = fma(acc, (float8)(0.75f), (float8)((float)r));
        h = h * 3 + (int4)(r);
    }
    o[i] = acc;
    oi[i] = h;
}

// A loop whose exit differs between work-items (clbench's mandelbrot) and
// which reads more per-work-item invariants (cx, cy, the offsets, the
// double dx) and constants than the 16 vector registers hold with the
// values it carries: jit/src/invariant_loads.rs then stores each
// invariant once and reads it from memory inside the loop. Checked
// against the host, bit for bit (no contraction), in every build.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void crowded_escape(global const float *c, global uint *out, global float *last, float scale, uint maxit)
{
#pragma OPENCL FP_CONTRACT OFF
    size_t i = get_global_id(0);
    float cx = c[2 * i], cy = c[2 * i + 1];
    float ox = (cx * scale - (cx + 0.5f)) * 0.001f, oy = (cy - scale - cy * 0.25f) * 0.001f;
    double dx = (double)cx * 1.5;
    float zx = 0.0f, zy = 0.0f;
    double acc = 0.0;
    uint it = 0;
    while (it < maxit) {
        float zx2 = zx * zx, zy2 = zy * zy;
        if (zx2 + zy2 > 4.0f)
            break;
        zy = 2.0f * zx * zy + cy + oy;
        zx = zx2 - zy2 + cx + ox;
        acc += dx * (double)zx;
        it++;
    }
    out[i] = it;
    last[i] = zx + zy + (float)acc;
}
