// Kernels for the 4-lane bodies (tests/exec_simd.rs): chunks of four
// work-items along x, a scalar remainder, and chunks abandoned when lanes
// disagree on a branch or a widened 32-bit index wraps.

// A guard that splits chunks (n not a multiple of 4).
kernel void guarded_add(global const float *a, global const float *b, global float *c, uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i] * 2.0f;
}

// Lanes that take different sides of a branch before any store.
kernel void diverge(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int x = in[i];
    int r;
    if (x % 3 == 0)
        r = x * 5;
    else
        r = x - 7;
    out[i] = r;
}

// A branch that differs between work-items after a store: not vectorized,
// still correct.
kernel void diverge_after_store(global const int *in, global int *out, global int *side)
{
    size_t i = get_global_id(0);
    side[i] = (int)i;
    if (in[i] & 1)
        out[i] = in[i] * 2;
    else
        out[i] = -in[i];
}

// Gathers and scatters: strides other than one element, negative strides,
// indices from memory.
kernel void strides(global const int *in, global int *out, global const int *perm, uint n)
{
    uint i = (uint)get_global_id(0);
    out[2 * i] = in[3 * i + 1];
    out[2 * i + 1] = in[n - 1 - i] + in[perm[i]];
}

// A uniform loop with uniform and contiguous loads (sgemm's shape).
kernel void matvec_t(global const float *m, global const float *v, global float *out, uint rows, uint cols)
{
    uint c = (uint)get_global_id(0);
    uint r0 = (uint)get_global_id(1);
    float acc = 0.0f;
    for (uint r = 0; r < rows; r++)
        acc = mad(m[r * cols + c], v[r + r0], acc);
    out[r0 * cols + c] = acc;
}

// float4 per work-item (nbody's shape): vector loads, shuffles, dot, rsqrt.
kernel void vec4(global const float4 *p, global float4 *out)
{
    size_t i = get_global_id(0);
    float4 a = p[i];
    float4 b = p[0];
    float3 d = a.xyz - b.xyz;
    float r = rsqrt(dot(d, d) + 1.0f);
    out[i] = (float4)(d * r, a.w + (float)i);
}

// A 32-bit index widened after wrapping inside a chunk: before any store
// (the chunk is abandoned) and after one (done lane by lane).
kernel void wrap_index(global ulong *out, global ulong *out2, uint k)
{
    size_t g = get_global_id(0);
    uint j = (uint)g + k;
    out[g] = (ulong)j;
    uint j2 = (uint)g * 3u + k;
    out2[g] = (ulong)j2 + (ulong)(int)((int)g - 2);
}

// The low 32, 16 and 8 bits of an id sign-extended, which clang -O2
// writes `(x << c) >> c` (jit/src/lower/simd/ops.rs,
// sign_extended_low_bits: an affine sequence, wrapping as the narrow
// type does), as data and as an index (`int i = get_global_id(0)`).
kernel void sign_extended_ids(global long *out, global const float *in, global float *fout, ulong k)
{
    size_t o = get_global_id(0);
    size_t g = o + k;
    out[3 * o] = (long)(int)g;
    out[3 * o + 1] = (long)(short)g;
    out[3 * o + 2] = (long)(char)g;
    int i = get_global_id(0);
    fout[i] = in[i] * 2.0f + (float)(int)g;
}

// vload4/vstore4 and uchar4 accesses through a `short` index that wraps
// within a chunk (the pointers moved to the middle of their buffers, so
// every index from -32768 to 32767 is inside): the block accesses test
// the wrap and gather the lanes when it happens
// (jit/src/lower/simd/memory.rs, load_block).
kernel void wrapped_small_vectors(global const float *in, global float *out, global const uchar4 *px,
                                  global uchar4 *pout, global float *fout, int k)
{
    size_t g = get_global_id(0);
    short i = (short)(g + k);
    float4 v = vload4(i, in + 4 * 32768);
    vstore4(v * 2.0f, i, out + 4 * 32768);
    uchar4 p = (px + 32768)[i];
    (pout + 32768)[i] = p.wzyx;
    // Two components read on their own (bytes 4 apart).
    global const uchar4 *q = px + 32768 + 1;
    fout[g] = (float)q[i].x + 0.5f * (float)q[i].z;
}

// logb and ilogb of floats (the 4-lane bodies read the exponent from the
// bits: jit/src/lower/simd/float_bits.rs; the scalar body calls the host
// functions).
kernel void exponent_lanes(global const uint *a, global uint *out)
{
    size_t i = get_global_id(0);
    float x = as_float(a[i]);
    out[2 * i] = as_uint(logb(x));
    out[2 * i + 1] = (uint)ilogb(x);
}

// powr of floats (the 4-lane bodies call the four-lane double pow and
// select the special cases: jit/src/lower/simd/float_bits.rs).
kernel void powr_lanes(global const float *a, global const float *b, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uint(powr(a[i], b[i]));
}

// rootn of floats (as powr: jit/src/lower/simd/float_bits.rs).
kernel void rootn_lanes(global const float *a, global const int *n, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uint(rootn(a[i], n[i]));
}

// nextafter of floats (the 4-lane bodies step the bits:
// jit/src/lower/simd/float_bits.rs).
kernel void nextafter_lanes(global const uint *a, global const uint *b, global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = as_uint(nextafter(as_float(a[i]), as_float(b[i])));
}

// Loops whose trip counts differ between work-items carrying short and
// char values (a masked loop: each lane's values blended in while it
// runs, 16-bit lanes through byte blends).
kernel void masked_narrow_loop(global const short *a, global short *o, global char *c)
{
    size_t i = get_global_id(0);
    short v = a[i];
    char w = (char)i;
    for (int k = 0; k < (a[i] & 7); k++) {
        v = (short)(v * 3 + 1);
        w = (char)(w * 5 + k);
    }
    o[i] = v;
    c[i] = w;
}

// 64-bit comparisons and selects, integer conversions and shifts.
kernel void mixed(global const long *a, global const uint *b, global long *out, global float *f)
{
    size_t i = get_global_id(0);
    long x = a[i];
    uint y = b[i];
    long s = x < (long)i ? x : (long)i * 3;
    out[i] = s + (long)(y >> 3) - (long)(y << 2);
    f[i] = (float)y * 0.5f + (float)(int)x - (float)(i > 5);
}

// A helper function with a varying argument and result.
int twice_plus(int x, int k) { return x * 2 + k; }
kernel void calls(global const int *in, global int *out, int k)
{
    size_t i = get_global_id(0);
    out[i] = twice_plus(in[i], k) + twice_plus(k, 1);
}

// A loop whose exit differs between work-items: not vectorized.
kernel void varying_loop(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = in[i], steps = 0;
    while (x != 1 && steps < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    out[i] = steps;
}

// Atomics run once per lane, even with the same operands in every lane.
kernel void count(global int *counter, global int *olds)
{
    size_t i = get_global_id(0);
    olds[i] = atomic_add(counter, 1);
}

// Values of every shape kept across barriers inside a loop: the phases of
// a kernel with barriers resume chunks of four work-items when the
// group's x size is a multiple of 4, single work-items otherwise.
kernel void barrier_shapes(global const float *in, global float *out, global long *out64, local float *tile)
{
    size_t l = get_local_id(0);
    size_t g = get_global_id(0);
    size_t n = get_local_size(0);
    float x = in[g];
    long big = (long)g * 3 - 7;
    int odd = (g & 1) != 0;
    float acc = 0.0f;
    for (int r = 0; r < 3; r++) {
        tile[l] = x + (float)r;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += tile[(l + 1) % n] * (odd ? 2.0f : 1.0f);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = acc;
    out64[g] = big + (long)l * x;
}

// Contiguous loads and stores through a 16-bit index that wraps inside a
// chunk (lanes 65534, 65535, 0, 1): the vector access is checked and the
// wrapped lanes are gathered and scattered.
kernel void wrap_access(global const float *in, global float *out, global uint *out2, uint k)
{
    size_t g = get_global_id(0);
    out[g] = in[(ushort)(g + k)];
    out2[(ushort)(g + k)] = (uint)g + 1u;
}

// A loop whose exit differs between work-items and with a side effect
// inside: run under a mask, each lane's atomics only while it is in it.
kernel void varying_loop_atomic(global const uint *in, global uint *out)
{
    size_t i = get_global_id(0);
    uint x = in[i];
    while (x > 1) {
        atomic_inc(&out[i]);
        x >>= 1;
    }
}

// Loops whose lanes leave at different iterations through different
// exits, with values from each (a masked loop): escape-time iteration
// (in integers, so that the host reference is exact).
kernel void escape(global const int *cx, global uint *iters, global int *last, uint maxit)
{
    size_t i = get_global_id(0);
    int c = cx[i], z = 0;
    uint it = 0;
    for (;;) {
        if (it >= maxit)
            break;
        int nz = z * z / 16 + c;
        if (abs(nz) > 1000) {
            z = -nz;
            break;
        }
        z = nz;
        it++;
    }
    iters[i] = it;
    last[i] = z;
}

// Math built-ins with 4-lane host entry points (one call per chunk).
kernel void math4(global const float *x, global float *out)
{
    size_t i = get_global_id(0);
    float v = x[i];
    out[5 * i] = exp(v);
    out[5 * i + 1] = log(v);
    out[5 * i + 2] = erf(v);
    out[5 * i + 3] = sin(v);
    out[5 * i + 4] = cos(v);
}

// Integer built-ins the 4-lane body computes as vectors: mad24 and mul24
// (a plain multiply, the operands being 24-bit), with min, max and abs.
kernel void int_builtins(global const int *a, global const uint *b, global int *out, global uint *uout)
{
    size_t i = get_global_id(0);
    int x = a[i];
    uint y = b[i];
    int acc = x;
    for (int k = 0; k < 4; k++)
        acc = mad24(acc & 0x7fff, x, k - 2);
    out[2 * i] = acc;
    out[2 * i + 1] = mul24(x, -x) + max(x, 3) - abs(x);
    uout[i] = mad24(y & 0xffffffu, (y >> 8) & 0xffffu, y) ^ mul24(y & 0xfffu, 4097u);
}

// Integer bit built-ins the 4-lane body computes as vectors (rotate by a
// count the same in every lane, popcount, clz, mul_hi), beside a rotate
// by a varying count, which runs lane by lane.
kernel void int_bits(global const uint *a, global const uint *b, global uint *out, uint k)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    out[8 * i] = rotate(x, k);
    out[8 * i + 1] = rotate(x, y);
    out[8 * i + 2] = popcount(x);
    out[8 * i + 3] = clz(x);
    out[8 * i + 4] = mul_hi(x, y);
    out[8 * i + 5] = (uint)mul_hi(sx, sy);
    out[8 * i + 6] = mul_hi(x, 0xC2B2AE35u) ^ (uint)clz(sx);
    out[8 * i + 7] = (uint)clz(sy) + popcount(y);
}

// Shifts and rotates by a count per work-item, of every integer width
// (the 4-lane body shifts int lanes left by multiplying with powers of
// two, jit/src/lower/simd/ops.rs, shift_left_by_lanes; the others run
// lane by lane); OpenCL C takes a count modulo the width of the shifted
// value's type.
kernel void shifts_by_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    uint x = a[i], n = b[i];
    int sx = (int)x;
    out[16 * i] = x << n;
    out[16 * i + 1] = x >> n;
    out[16 * i + 2] = (uint)(sx >> (int)n);
    out[16 * i + 3] = rotate(x, n);
    out[16 * i + 4] = (uint)rotate(sx, (int)n);
    // The count an affine sequence (`1 << id`).
    out[16 * i + 5] = (1u << (uint)i) | (x >> (uint)(i * 3));
    uchar2 c = as_uchar2((ushort)x), cn = as_uchar2((ushort)n);
    char2 sc = as_char2((ushort)x), scn = as_char2((ushort)n);
    out[16 * i + 6] = as_ushort(c << cn);
    out[16 * i + 7] = as_ushort(c >> cn);
    out[16 * i + 8] = as_ushort(sc >> scn);
    out[16 * i + 9] = as_ushort(rotate(c, cn));
    ushort2 h = as_ushort2(x), hn = as_ushort2(n);
    short2 sh = as_short2(x), shn = as_short2(n);
    out[16 * i + 10] = as_uint(h << hn);
    out[16 * i + 11] = as_uint(h >> hn);
    out[16 * i + 12] = as_uint(sh >> shn);
    out[16 * i + 13] = as_uint(rotate(h, hn));
    out[16 * i + 14] = as_uint(rotate(sh, shn));
    out[16 * i + 15] = x << (n & 7u) >> (n >> 29);
    ulong X = ((ulong)x << 32) | (x ^ n), N = ((ulong)n << 32) | n;
    long SX = (long)X;
    out64[5 * i] = X << N;
    out64[5 * i + 1] = X >> N;
    out64[5 * i + 2] = (ulong)(SX >> (long)N);
    out64[5 * i + 3] = rotate(X, N);
    out64[5 * i + 4] = (ulong)rotate(SX, (long)(N >> 3));
}

// Division and remainder of 8-, 16- and 32-bit integers, signed and
// unsigned, by a divisor per work-item, a uniform one and constants (the
// 4-lane bodies divide in double: jit/src/lower/simd/integer.rs,
// divide4; by constants, multiplying: simd/divisor.rs). OpenCL C leaves x / 0 and INT_MIN / -1 undefined; clift's
// scalar code gives x / 0 == x, x % 0 == 0, x / -1 == -x (wrapping) and
// x % -1 == 0, and every body must give the same.
// (Quotients and remainders in two kernels: llvm-spirv-15 cannot
// translate the `freeze` LLVM's div-rem-pairs pass leaves when a kernel
// has both of the same operands.)
#define DIVIDE_BY_LANES(name, OP)                                                   \
    kernel void name(global const uint *a, global const uint *b, global uint *out, global uint *out2, uint u) \
    {                                                                               \
        size_t i = get_global_id(0);                                                \
        uint x = a[i], y = b[i];                                                    \
        int sx = (int)x, sy = (int)y, su = (int)u;                                  \
        out[12 * i] = x OP y;                                                       \
        out[12 * i + 1] = (uint)(sx OP sy);                                         \
        out[12 * i + 2] = x OP u;                                                   \
        out[12 * i + 3] = (uint)(sx OP su);                                         \
        out[12 * i + 4] = x OP 10u;                                                 \
        out[12 * i + 5] = (uint)(sx OP -7);                                         \
        uchar2 c = as_uchar2((ushort)x), cn = as_uchar2((ushort)y);                 \
        char2 sc = as_char2((ushort)x), scn = as_char2((ushort)y);                  \
        out[12 * i + 6] = as_ushort(c OP cn);                                       \
        out[12 * i + 7] = as_ushort(sc OP scn);                                     \
        ushort2 h = as_ushort2(x), hn = as_ushort2(y);                              \
        short2 sh = as_short2(x), shn = as_short2(y);                               \
        out[12 * i + 8] = as_uint(h OP hn);                                         \
        out[12 * i + 9] = as_uint(sh OP shn);                                       \
        out[12 * i + 10] = as_uint(sh OP (short2)((short)su));                      \
        out[12 * i + 11] = as_ushort(sc OP (char2)(-1));                            \
        /* Constants of each kind: magic numbers with and without the add       \
           step, powers of two, the extremes. */                                 \
        out2[10 * i] = x OP 3u;                                                     \
        out2[10 * i + 1] = x OP 7u;                                                 \
        out2[10 * i + 2] = x OP 0x7ffffffdu;                                        \
        out2[10 * i + 3] = (uint)(sx OP 3);                                         \
        out2[10 * i + 4] = (uint)(sx OP -16);                                       \
        out2[10 * i + 5] = (uint)(sx OP (int)0x80000000);                           \
        out2[10 * i + 6] = (uint)(sx OP 641);                                       \
        out2[10 * i + 7] = as_ushort(c OP (uchar2)(7, 200));                        \
        out2[10 * i + 8] = as_uint(sh OP (short2)(-3, 1000));                       \
        out2[10 * i + 9] = as_uint(h OP (ushort2)(1000, 65535));                    \
    }
DIVIDE_BY_LANES(divide_by_lanes, /)
DIVIDE_BY_LANES(remainder_by_lanes, %)

// Division and remainder of 64-bit integers (the 4-lane bodies divide in
// double where every lane of a part is below 2^51 in magnitude, lane by
// lane otherwise: jit/src/lower/simd/integer.rs, divide_pairs), by a
// divisor per work-item, a uniform one and a constant, and an index
// divided by a width (`get_global_id(0) / u`).
#define DIVIDE_LONGS_BY_LANES(name, OP)                                                   \
    kernel void name(global const ulong *a, global const ulong *b, global ulong *out, ulong u) \
    {                                                                                     \
        size_t i = get_global_id(0);                                                      \
        ulong x = a[i], y = b[i];                                                         \
        long sx = (long)x, sy = (long)y;                                                  \
        out[10 * i] = x OP y;                                                             \
        out[10 * i + 1] = (ulong)(sx OP sy);                                              \
        out[10 * i + 2] = x OP u;                                                         \
        out[10 * i + 3] = (ulong)(sx OP (long)u);                                         \
        out[10 * i + 4] = i OP u;                                                         \
        out[10 * i + 5] = (ulong)(sx OP 1000);                                            \
        /* Constants that fit 32 bits (multiplies where the lanes do too). */           \
        out[10 * i + 6] = x OP 3ul;                                                       \
        out[10 * i + 7] = x OP 0xfffffffful;                                              \
        out[10 * i + 8] = (ulong)(sx OP -7) ^ (ulong)(sx OP -2147483648L);                \
        out[10 * i + 9] = i OP 3;                                                         \
    }
DIVIDE_LONGS_BY_LANES(divide_longs_by_lanes, /)
DIVIDE_LONGS_BY_LANES(remainder_longs_by_lanes, %)

// Conversions between 64-bit integers and floats or doubles (the 4-lane
// bodies convert in vectors where every lane is within 2^51, lane by lane
// otherwise: jit/src/lower/simd/integer.rs, convert_long4), and an index
// converted to float.
kernel void long_conversions_by_lanes(global const ulong *a, global const double *d, global const float *f,
                                      global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    ulong x = a[i];
    long sx = (long)x;
    double dv = d[i];
    float fv = f[i];
    out[3 * i] = as_uint((float)sx);
    out[3 * i + 1] = as_uint((float)x);
    out[3 * i + 2] = as_uint((float)i * 0.5f);
    out64[6 * i] = (ulong)(long)dv;
    out64[6 * i + 1] = (ulong)dv;
    out64[6 * i + 2] = (ulong)(long)fv;
    out64[6 * i + 3] = (ulong)fv;
    out64[6 * i + 4] = (ulong)convert_long_sat_rte(dv);
    out64[6 * i + 5] = convert_ulong_sat_rtn(fv);
}

// The integer built-ins with a recipe shared by the scalar and vector
// bodies (jit/src/lower/ext_inst.rs, Lowering::lanewise; the narrow
// vectors' saturating and averaging instructions), and mad_hi, of 8-, 16-,
// 32- and 64-bit integers.
kernel void int_builtins_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    out[16 * i] = abs_diff(x, y);
    out[16 * i + 1] = abs_diff(sx, sy);
    out[16 * i + 2] = add_sat(x, y) ^ sub_sat(x, y);
    out[16 * i + 3] = (uint)add_sat(sx, sy);
    out[16 * i + 4] = (uint)sub_sat(sx, sy);
    out[16 * i + 5] = hadd(x, y) + (uint)hadd(sx, sy) * 3u;
    out[16 * i + 6] = rhadd(x, y) + (uint)rhadd(sx, sy) * 3u;
    out[16 * i + 7] = mad_hi(x, y, x ^ 0x9e3779b9u) ^ (uint)mad_hi(sx, sy, sx);
    uchar4 c = as_uchar4(x), cn = as_uchar4(y);
    char4 sc = as_char4(x), scn = as_char4(y);
    out[16 * i + 8] = as_uint(add_sat(c, cn)) ^ as_uint(abs_diff(sc, scn));
    out[16 * i + 9] = as_uint(sub_sat(c, cn)) + as_uint(abs_diff(c, cn));
    out[16 * i + 10] = as_uint(add_sat(sc, scn)) ^ as_uint(sub_sat(sc, scn)) * 5u;
    out[16 * i + 11] = as_uint(hadd(c, cn)) ^ as_uint(rhadd(c, cn)) * 3u ^ as_uint(hadd(sc, scn)) * 7u ^ as_uint(rhadd(sc, scn)) * 11u;
    ushort2 h = as_ushort2(x), hn = as_ushort2(y);
    short2 sh = as_short2(x), shn = as_short2(y);
    out[16 * i + 12] = as_uint(add_sat(h, hn)) ^ as_uint(sub_sat(h, hn)) * 3u ^ as_uint(abs_diff(sh, shn)) * 5u;
    out[16 * i + 13] = as_uint(add_sat(sh, shn)) ^ as_uint(sub_sat(sh, shn)) * 3u ^ as_uint(abs_diff(h, hn)) * 5u;
    out[16 * i + 14] = as_uint(hadd(h, hn)) ^ as_uint(rhadd(h, hn)) * 3u ^ as_uint(hadd(sh, shn)) * 7u ^ as_uint(rhadd(sh, shn)) * 11u;
    out[16 * i + 15] = 0;
    ulong X = ((ulong)x << 32) | (x ^ y), Y = ((ulong)y << 32) | (y * 0x9e3779b9u);
    long SX = (long)X, SY = (long)Y;
    out64[8 * i] = abs_diff(X, Y);
    out64[8 * i + 1] = abs_diff(SX, SY);
    out64[8 * i + 2] = add_sat(X, Y) ^ sub_sat(X, Y);
    out64[8 * i + 3] = (ulong)add_sat(SX, SY);
    out64[8 * i + 4] = (ulong)sub_sat(SX, SY);
    out64[8 * i + 5] = hadd(X, Y) ^ (ulong)hadd(SX, SY);
    out64[8 * i + 6] = rhadd(X, Y) ^ (ulong)rhadd(SX, SY);
    out64[8 * i + 7] = 0;
}

// clbench's hash loop: a 32-bit hash feeding a 64-bit one every round, so
// the 4-lane body holds every value as scalars per lane
// (Chunk::scalar_lanes).
kernel void hash_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64, uint k)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    uint h = x ^ k;
    ulong z = ((ulong)x << 32) | y;
    for (uint r = 0; r < k; r++) {
        h ^= rotate(h, 13u);
        h = h * 0x85EBCA6Bu + popcount(h);
        h ^= mul_hi(h, 0xC2B2AE35u);
        h += clz(h | 1u);
        z ^= z >> 31;
        z = z * 0x9E3779B97F4A7C15UL + (ulong)h;
        z ^= mul_hi(z, 0xBF58476D1CE4E5B9UL);
        z = rotate(z, (ulong)(h & 63u));
    }
    out[i] = h;
    out64[i] = z;
}

// A struct passed by value to a function that is not inlined in the
// SPIR-V (clift inlines it), its contents differing between lanes: each
// lane's copy side by side.
typedef struct { int v[6]; } box6;

__attribute__((noinline)) box6 doubled6(box6 b)
{
    for (int k = 0; k < 6; k++)
        b.v[k] = b.v[k] * 2 + k;
    return b;
}

kernel void byval_lanes(global box6 *boxes)
{
    size_t i = get_global_id(0);
    box6 b = boxes[i];
    box6 c = doubled6(b);
    c.v[i % 6] = b.v[0] - (int)i;
    boxes[i] = c;
}

// A generic pointer whose lanes point at global, local and private
// memory, cast back to each (OpGenericCastToPtrExplicit, lane by lane).
kernel void cast_back(global int *g, local int *l, global int *out)
{
    size_t i = get_global_id(0), li = get_local_id(0);
    int priv[2] = {1, (int)i};
    l[li] = 1000 + (int)i;
    int *p = (i & 1) ? (int *)&g[i] : (i & 2) ? (int *)&l[li] : priv;
    global int *gp = to_global(p);
    local int *lp = to_local(p);
    private int *pp = to_private(p);
    int r = 0;
    if (gp)
        r += *gp;
    if (lp)
        r += *lp * 3;
    if (pp)
        r += pp[1] * 5;
    out[i] = r;
}

// islessgreater (ordered and not equal) and its negation (unordered or
// equal) in a 4-lane body: x86-64 has no one vector compare for either,
// so each is two compares and a mask operation.
kernel void ordered_compares(global const float *x, global const float *y, global int *out)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    float a = x[i], b = y[i];
    out[i] = islessgreater(a, b) ? 5 : 9;
    out[n + i] = !islessgreater(a, b) ? 7 : 3;
    out[2 * n + i] = ((a == b) | isunordered(a, b)) ? 11 : 13;
}

// Indices clamped to a buffer (stencils): where no lane of a chunk is
// clamped, a 4-lane body reads and writes the affine sequence's lanes as
// one vector, lane by lane where one is (jit/src/lower/simd/clamp.rs).
// Each row y is a case: its offset d = ds[y] and width w = ws[y], the
// same in every lane. `mid` lies 64 floats into `in`, so indices from -64
// on are inside.
kernel void clamped_indices(global const float *in, global float *out, global const float4 *in4,
                            global float4 *out4, global int *marks, global const int *ds, global const int *ws)
{
    int x = get_global_id(0), n = get_global_size(0);
    int y = get_global_id(1);
    int d = ds[y], w = ws[y];
    global const float *mid = in + 64;
    float a = mid[clamp(x + d, 0, w - 1)];
    float b = mid[min(x + d, w - 1)];
    float c = mid[max(x - d, 0)];
    // Lanes moving down.
    float e = mid[clamp(w - 1 - x + d, 0, w - 1)];
    // Unsigned: a negative x + d is a large value, clamped to w.
    float f = mid[clamp((uint)(x + d), 3u, (uint)w)];
    float g = mid[clamp((long)x + d, 1L, (long)w - 2)];
    // Every other float, and bounds the wrong way round (every lane gets
    // the upper one).
    float h = mid[clamp(2 * x + d, 0, 2 * w - 1)];
    float k = mid[clamp(x + d, w, 5)];
    float8 r = (float8)(a, b, c, e, f, g, h, k);
    vstore8(r, x, out + 8 * n * y);
    out4[n * y + x] = (in4 + n * y)[clamp(x + d, 0, w - 1)] * 2.0f;
    // Work-items clamped to the same element store the same value.
    int j = clamp(x + d, 0, w - 1);
    (marks + n * y)[j] = j * 3 + 1;
}

// Indices clamped by hand, with conditional expressions (row y's offset d
// = ds[y] and width w = ws[y]): clang -O2 writes `i < 0 ? 0 : i` as a
// select of the comparison's own operands (a max: clamp.rs,
// select_as_min_max) and `i + 1 < w ? i + 1 : i` as `i + (i + 1 < w)`, a
// select of constants by a comparison of the sequence, or of sequences of
// one stride (note_uniform_choice);
// where the lanes agree, a 4-lane body reads them as one vector. `mid` lies
// 64 floats into `in`.
kernel void selected_indices(global const float *in, global float *out, global const int *ds, global const int *ws)
{
    int x = get_global_id(0), n = get_global_size(0), y = get_global_id(1);
    int d = ds[y], w = ws[y];
    global const float *mid = in + 64;
    int i = x + d;
    float a = mid[i < 0 ? 0 : i];
    float b = mid[i > w - 1 ? w - 1 : i];
    float c = mid[i + 1 < w ? i + 1 : i];
    // (Unsigned: where x + d wraps from 2^32 - 1 to 0 in the middle of a
    // chunk, lane 0's and lane 3's conditions agree but not the others'.)
    float e = mid[(uint)x + (uint)d > (uint)w ? x + 1 : x - 1];
    float f = mid[(uint)i >= (uint)w ? 0 : i];
    long l = (long)x + d;
    float g = mid[l < 2 ? 2 : l];
    float h = mid[2 * x + (2 * x + d < w ? 1 : -1)];
    int j = w - 1 - x;
    float k = mid[j + d > 3 ? j - 1 : j];
    vstore8((float8)(a, b, c, e, f, g, h, k), 0, out + 10 * (n * y + x));
    // (clang compares d with x: the uniform value first.)
    out[10 * (n * y + x) + 8] = mid[x > d ? x - 1 : x];
    out[10 * (n * y + x) + 9] = mid[x < w ? x : w];
}

// acospi, asinpi, atanpi and atan2pi of doubles (jit/src/lower/simd/ops.rs,
// pi_forms_pair: the four-lane acos, asin, atan or atan2, times 1/pi in
// two parts, the special values selected), as bit patterns.
kernel void pi_forms_double(global const ulong *a, global const ulong *b, global ulong *out)
{
    size_t i = get_global_id(0);
    double x = as_double(a[i]), y = as_double(b[i]);
    out[5 * i] = as_ulong(acospi(x));
    out[5 * i + 1] = as_ulong(asinpi(x));
    out[5 * i + 2] = as_ulong(atanpi(x));
    out[5 * i + 3] = as_ulong(atan2pi(x, y));
    out[5 * i + 4] = as_ulong(atan2pi(y, x * 0.5));
}

// Lanes moving down (`in[n - 1 - i]`, which clang writes `(i ^ -1) + n`):
// read or written as one vector from the lowest lane's address, the lanes
// reversed by a shuffle (jit/src/lower/simd/memory.rs, reverse_lanes), of
// 32-, 8-, 16- and 64-bit values; a short index moving down that wraps from
// -32768 to 32767 at work-item 6 (k = -32763: lane by lane on that branch).
kernel void reversed_access(global const uint *in, global uint *out, global const ushort *in16, global ushort *out16,
                            global const ulong *in64, global ulong *out64, int k)
{
    int i = get_global_id(0), n = get_global_size(0);
    int r = n - 1 - i;
    out[i] = in[r];
    out[n + r] = in[i] ^ 0x5a5a5a5au;
    out[2 * n + i] = ((global const uchar *)in)[r];
    ((global uchar *)(out + 3 * n))[r] = (uchar)(i * 7);
    out16[i] = in16[(short)(k - i) + 32768];
    out16[n + r] = (ushort)(in16[i] + 1);
    // The same short moving up (its complement, -s - 1), widened to long
    // first (an OpBitwiseXor with -1 at -O0, a subtraction at -O2).
    out16[2 * n + i] = in16[~(long)(short)(k - i) + 32768];
    out64[i] = in64[r];
    out64[n + r] = ~in64[i];
}

// Local memory reversed within a work-group (t[m - 1 - l]), both ways.
kernel void reversed_local(global const float *in, global float *out, local float *t)
{
    int l = get_local_id(0), m = get_local_size(0), g = get_global_id(0);
    t[m - 1 - l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = t[l] * 2.0f + t[m - 1 - l];
}

// A short index clamped to bounds (row y's: k = ks[y], lo = los[y], hi =
// his[y]): where they are its type's, it is never clamped but wraps from
// 32767 to -32768 (the 4-lane body tests both). The same as unsigned
// (bounds ulos[y], uhis[y]) sign-extended: unclamped lanes that wrap as
// signed values. A row index that wraps and a clamped column moving
// down: consecutive floats where neither happens. Last, a long clamped
// from a short that wraps. `in` holds
// 2 * 65536 + 256 floats.
kernel void clamped_short_indices(global const float *in, global float *out, global const int *ks,
                                  global const short *los, global const short *his, global const ushort *ulos,
                                  global const ushort *uhis)
{
    size_t g = get_global_id(0), y = get_global_id(1), n = get_global_size(0);
    global const float *mid = in + 65536 + 128;
    short s = clamp((short)(g + ks[y]), los[y], his[y]);
    out[4 * n * y + g] = mid[s];
    ushort u = clamp((ushort)(g + ks[y]), ulos[y], uhis[y]);
    out[4 * n * y + n + g] = mid[(short)u];
    global const float(*rows)[2] = (global const float(*)[2])mid;
    out[4 * n * y + 2 * n + g] = rows[(short)(g + ks[y])][clamp(7 - (int)g, (int)los[y], (int)his[y])];
    // A long clamped from a short sequence that wraps.
    out[4 * n * y + 3 * n + g] = mid[clamp((long)(short)(g + ks[y]) + 1, 4L * los[y], 4L * his[y])];
}

// A 5x3 box filter over an image with clamped edges (weights and pixels
// small integers, so every order of the sums gives the same float).
kernel void clamped_blur(global const float *in, global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    float s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -2; dx <= 2; dx++)
            s += in[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)] * (float)(dx + 3 * dy);
    out[y * w + x] = s;
}

// sincos, fract and modf, whose second result goes through a pointer (the
// 4-lane bodies compute both as vectors and store the second as one
// vector: jit/src/lower/simd/pointer_results.rs): into private variables
// and straight into global memory, of floats, float2 and doubles; frexp
// of floats and float2 (its int exponents through the pointer).
kernel void pointer_results_lanes(global const uint *a, global const ulong *b, global uint *out,
                                  global float *cosines, global ulong *out64, global float2 *out2, global int *exps)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    float x = as_float(a[i]);
    float c, fl, ip;
    float s = sincos(x, &c);
    float fr = fract(x, &fl);
    float mf = modf(x, &ip);
    float s2 = sincos(x * 0.5f, cosines + i);
    float2 v = (float2)(x, -x), v2;
    float2 f2 = fract(v, &v2);
    int e;
    float fm = frexp(x, &e);
    int2 e2;
    float2 fm2 = frexp((float2)(-x, x * 0.25f), &e2);
    exps[3 * i] = e;
    exps[3 * i + 1] = e2.x;
    exps[3 * i + 2] = e2.y;
    out2[3 * n + i] = fm2;
    uint8 r = (uint8)(as_uint(s), as_uint(c), as_uint(fr), as_uint(fl), as_uint(mf), as_uint(ip), as_uint(s2),
                      as_uint(fm));
    vstore8(r, i, out);
    out2[2 * i] = f2;
    out2[2 * i + 1] = v2;
    double d = as_double(b[i]);
    double dc, dfl, dip;
    double ds = sincos(d, &dc);
    double dfr = fract(d, &dfl);
    double dmf = modf(d, &dip);
    out64[6 * i] = as_ulong(ds);
    out64[6 * i + 1] = as_ulong(dc);
    out64[6 * i + 2] = as_ulong(dfr);
    out64[6 * i + 3] = as_ulong(dfl);
    out64[6 * i + 4] = as_ulong(dmf);
    out64[6 * i + 5] = as_ulong(dip);
}

// signbit of floats, float4 and doubles (the 4-lane bodies copy the sign
// bit into a lane mask).
kernel void sign_bits_lanes(global const uint *a, global const ulong *b, global int *out)
{
    size_t i = get_global_id(0);
    float x = as_float(a[i]);
    double d = as_double(b[i]);
    int4 v = signbit((float4)(x, -x, x * 0.5f, 1.0f));
    out[6 * i] = signbit(x);
    out[6 * i + 1] = signbit(d);
    out[6 * i + 2] = v.x;
    out[6 * i + 3] = v.y;
    out[6 * i + 4] = v.z;
    out[6 * i + 5] = signbit(d) ? 7 : 9;
}

// ctz of uint (the 4-lane bodies count the bits below the lowest set one
// with the vector popcount).
kernel void ctz_lanes(global const uint *a, global const uint *b, global uint *out)
{
    size_t i = get_global_id(0);
    out[2 * i] = ctz(a[i]);
    out[2 * i + 1] = ctz(a[i] ^ b[i]) + ctz((int)b[i]);
}

// vload_half, vload_halfn and vloada_halfn through an offset moving by 1
// (the 4-lane bodies read the lanes' halves as one block and widen them
// with vector code: jit/src/lower/simd/memory.rs, simd_half_load). Each
// form reads all of `h` (every half's bits when n is the global size
// times 16); the last through a short offset that wraps from 32767 to
// -32768 (`w`, 4 * 65536 halves from its middle on either side).
kernel void half_loads_lanes(global const half *h, global float *out, global const half *w, global float *wout,
                             int k)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    for (int j = 0; j < 16; j++)
        out[j * n + i] = vload_half(i, h + j * n);
    for (int j = 0; j < 8; j++)
        vstore2(vload_half2(i, h + 2 * j * n), j * n + i, out + 16 * n);
    for (int j = 0; j < 4; j++)
        vstore4(vload_half4(i, h + 4 * j * n), j * n + i, out + 32 * n);
    for (int j = 0; j < 2; j++)
        vstore8(vload_half8(i, h + 8 * j * n), j * n + i, out + 48 * n);
    vstore16(vload_half16(i, h), i, out + 64 * n);
    for (int j = 0; j < 4; j++)
        vstore4(vloada_half4(i, h + 4 * j * n), j * n + i, out + 80 * n);
    vstore4(vload_half4((short)(i + k), w + 4 * 32768), i, wout);
}

// vstore_half, vstore_halfn and vstorea_halfn of floats rounding to
// nearest even (the 4-lane bodies round and encode with vector code and
// write the lanes' halves as one block: simd_half_store), each form
// storing all of `x` in order; vstore_half_rtz lane by lane; the last
// through a short offset that wraps from 32767 to -32768 (`w`, 4 * 65536
// halves from its middle on either side).
kernel void half_stores_lanes(global const float *x, global half *out, global half *w, int k)
{
    size_t i = get_global_id(0), n = get_global_size(0);
    for (int j = 0; j < 16; j++)
        vstore_half(x[j * n + i], i, out + j * n);
    for (int j = 0; j < 16; j++)
        vstore_half_rte(x[j * n + i], i, out + 16 * n + j * n);
    for (int j = 0; j < 8; j++)
        vstore_half2(vload2(i, x + 2 * j * n), i, out + 32 * n + 2 * j * n);
    for (int j = 0; j < 4; j++)
        vstore_half4(vload4(i, x + 4 * j * n), i, out + 48 * n + 4 * j * n);
    for (int j = 0; j < 2; j++)
        vstore_half8(vload8(i, x + 8 * j * n), i, out + 64 * n + 8 * j * n);
    vstore_half16(vload16(i, x), i, out + 80 * n);
    for (int j = 0; j < 4; j++)
        vstorea_half4_rte(vload4(i, x + 4 * j * n), i, out + 96 * n + 4 * j * n);
    for (int j = 0; j < 16; j++)
        vstore_half_rtz(x[j * n + i], i, out + 112 * n + j * n);
    vstore_half4(vload4(i, x), (short)(i + k), w + 4 * 32768);
}

// fmod and remainder of floats (the 4-lane bodies divide in double where
// every lane's quotient is small, else call the host function per lane:
// jit/src/lower/simd/remainders.rs).
kernel void remainders_lanes(global const float *a, global const float *b, global float *out)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    out[4 * i] = fmod(x, y);
    out[4 * i + 1] = remainder(x, y);
    out[4 * i + 2] = fmod(x, 1.5f);
    out[4 * i + 3] = remainder(x, -0.7f);
}

// 32-bit values read through pointers moving by 8 or 12 bytes (a float2's
// components, a struct of three floats, every third float; the 4-lane
// bodies read the span twice and pick the lanes with one shuffle:
// jit/src/lower/simd/memory.rs, strided_load32). Row y also reads through
// a short index (offset ks[y]) that wraps from 32767 to -32768 (`w` holds
// 2 * 65536 floats from its middle on either side).
typedef struct { float x, y, z; } point3;
typedef struct { int a, b; } pair2;
kernel void strided_loads_lanes(global const float2 *f2, global const point3 *p3, global const pair2 *i2,
                                global const float *f, global const float *w, global const int *ks,
                                global float *out, global int *iout)
{
    size_t i = get_global_id(0), y = get_global_id(1), n = get_global_size(0);
    size_t o = y * n + i;
    out[5 * o] = f2[i].y * 3.0f;
    out[5 * o + 1] = p3[i].x + p3[i].y * p3[i].z;
    out[5 * o + 2] = f[3 * i + 2] - f[3 * i];
    out[5 * o + 3] = (w + 2 * 32768)[2 * (short)(i + ks[y]) + 1];
    out[5 * o + 4] = p3[i].z;
    iout[o] = i2[i].b - 3 * i2[i].a;
}

// vload3 and vstore3 of floats and ints through an offset moving by 1
// (the 4-lane bodies read and write the lanes' 48 bytes as three vectors
// and put the components together with shuffles: vector3_access); row y
// also reads and writes through a short offset (ks[y] on) that wraps
// from 32767 to -32768, `w` and each row's 3 * 65536 floats of `wout`
// from their middle on either side.
kernel void vector3_lanes(global const float *a, global float *b, global const int *ia, global int *ib,
                          global const float *w, global float *wout, global const int *ks)
{
    size_t i = get_global_id(0), y = get_global_id(1);
    if (y == 0) {
        float3 v = vload3(i, a);
        vstore3(v.zxy, i, b);
        int3 u = vload3(i, ia);
        vstore3(u + (int3)(1, 2, 3), i, ib);
    }
    short s = (short)(i + ks[y]);
    float3 q = vload3(s, w + 3 * 32768);
    vstore3(q * 2.0f, s, wout + 3 * 32768 + y * 3 * 65536);
}

// bitselect of integers of every width (the 4-lane bodies: two bit
// operations on the lanes' vectors).
kernel void bitselect_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    ulong c = (ulong)i * 0x9e3779b97f4a7c15UL ^ (ulong)i << 40;
    out[3 * i] = bitselect(x, y, 0xf0f0f0f0u ^ x);
    out[3 * i + 1] = (uint)bitselect((uchar)x, (uchar)y, (uchar)(y >> 8)) | (uint)bitselect((short)(x >> 16), (short)y, (short)(x >> 3)) << 16;
    out[3 * i + 2] = as_uint(bitselect(as_float(x), as_float(y), as_float(x ^ y)));
    out64[i] = bitselect(c, (ulong)x << 32 | y, c >> 7);
}

// upsample of chars, shorts and ints, signed and unsigned (the 4-lane
// bodies widen both halves and put them side by side).
kernel void upsample_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    out[3 * i] = (uint)(ushort)upsample((char)x, (uchar)y) | (uint)upsample((uchar)(x >> 8), (uchar)(y >> 8)) << 16;
    out[3 * i + 1] = (uint)upsample((short)x, (ushort)y);
    out[3 * i + 2] = upsample((ushort)(x >> 16), (ushort)(y >> 16));
    out64[2 * i] = (ulong)upsample((int)x, y);
    out64[2 * i + 1] = upsample(y, x);
}

// popcount, clz, ctz, mul_hi and rotate of 8- and 16-bit integers (the
// 4-lane bodies widen the lanes to 32 bits: a rotate is a multiply by
// powers of two whose low and high parts are put together).
kernel void narrow_bits_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    uchar cx = (uchar)x, cy = (uchar)y;
    char sx = (char)(x >> 8), sy = (char)(y >> 8);
    ushort hx = (ushort)(x >> 16), hy = (ushort)y;
    short tx = (short)x, ty = (short)(y >> 16);
    out[6 * i] = (uint)popcount(cx) | (uint)(uchar)popcount(sx) << 8 | (uint)popcount(hx) << 16 | (uint)(ushort)popcount(tx) << 24;
    out[6 * i + 1] = (uint)clz(cx) | (uint)(uchar)clz(sx) << 8 | (uint)clz(hx) << 16 | (uint)(ushort)clz(tx) << 24;
    out[6 * i + 2] = (uint)ctz(cx) | (uint)(uchar)ctz(sx) << 8 | (uint)ctz(hx) << 16 | (uint)(ushort)ctz(tx) << 24;
    out[6 * i + 3] = (uint)mul_hi(cx, cy) | (uint)(uchar)mul_hi(sx, sy) << 8 | (uint)mul_hi(hx, hy) << 16;
    out[6 * i + 4] = (uint)(ushort)mul_hi(tx, ty) | (uint)rotate(cx, cy) << 16 | (uint)(uchar)rotate(sx, (char)3) << 24;
    out[6 * i + 5] = (uint)rotate(hx, hy) | (uint)(ushort)rotate(tx, (short)-5) << 16;
    out64[i] = 0;
}

// mad_sat of chars, shorts and ints and mad_hi of chars and shorts, signed
// and unsigned (jit/src/lower/simd/integer.rs: narrow lanes widened to 32
// bits, ints to 64), and rotates of longs by counts the same in every lane
// (rotate_by_uniform: constants, one past the width, the global size).
kernel void mad_sat_lanes(global const uint *a, global const uint *b, global uint *out, global ulong *out64)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i], z = x * 0x9e3779b9u ^ y >> 3;
    uchar cx = (uchar)x, cy = (uchar)y, cz = (uchar)z;
    char sx = (char)(x >> 8), sy = (char)(y >> 8), sz = (char)(z >> 8);
    ushort hx = (ushort)(x >> 16), hy = (ushort)y, hz = (ushort)(z >> 16);
    short tx = (short)x, ty = (short)(y >> 16), tz = (short)z;
    out[5 * i] = (uint)mad_sat(cx, cy, cz) | (uint)(uchar)mad_sat(sx, sy, sz) << 8 | (uint)mad_sat(hx, hy, hz) << 16;
    out[5 * i + 1] = (uint)(ushort)mad_sat(tx, ty, tz) | (uint)mad_hi(cx, cy, cz) << 16 | (uint)(uchar)mad_hi(sx, sy, sz) << 24;
    out[5 * i + 2] = (uint)mad_hi(hx, hy, hz) | (uint)(ushort)mad_hi(tx, ty, tz) << 16;
    out[5 * i + 3] = (uint)mad_sat((int)x, (int)y, (int)z);
    out[5 * i + 4] = mad_sat(x, y, z);
    ulong l = (ulong)x << 32 | y;
    out64[3 * i] = rotate(l, (ulong)13);
    out64[3 * i + 1] = (ulong)rotate((long)l, -1L) ^ rotate(l, (ulong)69);
    out64[3 * i + 2] = rotate(l ^ z, (ulong)get_global_size(0));
}

// Indices taken modulo a width (periodic boundaries, ring buffers): where
// no lane of a chunk reaches the next multiple of the width, a 4-lane
// body reads the lanes' values as one vector (jit/src/lower/simd/clamp.rs,
// note_remainder). Row y is a case: offset ds[y], width ws[y]; `mid` lies
// 64 floats into `in`, so indices from -64 on are inside.
kernel void remainder_indices(global const float *in, global float *out, global const int *ds, global const int *ws)
{
    int x = get_global_id(0), n = get_global_size(0), y = get_global_id(1);
    int d = ds[y], w = ws[y];
    global const float *mid = in + 64;
    int o = 4 * (n * y + x);
    out[o] = mid[(x + d) % w];
    out[o + 1] = mid[(uint)(x + d) % (uint)w];
    out[o + 2] = mid[(x + d + w) % w];
    float4 v = ((global const float4 *)mid)[(x + d) % w];
    out[o + 3] = v.x - v.w;
}
