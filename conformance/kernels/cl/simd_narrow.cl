// 8- and 16-bit integers in 4- and 8-lane bodies, held in the low lanes
// of i8x16 and i16x8 vectors (tests/exec_simd_narrow.rs): arithmetic that
// wraps at the narrow width, shifts by a count the same in every
// work-item, comparisons, selects, min/max/clamp/abs, conversions to and
// from int, long, float and double (saturating ones too), contiguous
// narrow loads and stores, narrow values under masks, in loops with
// per-work-item trip counts and kept across barriers.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Result k of work-item i at o[k * n + i]: contiguous narrow stores, for
// unsigned type U, its signed S, a clamp bound LO, the top bit TOP.
// (The clamps' bounds are ordered: clamp is undefined otherwise.)
#define ARITH(name, U, S, LO, SLO, TOP)                                                        \
    kernel void name(global const U *a, global const U *b, global U *o, int sh) {             \
        size_t i = get_global_id(0), n = get_global_size(0);                                  \
        U x = a[i], y = b[i];                                                                  \
        S sx = (S)x, sy = (S)y;                                                                \
        o[0 * n + i] = x + y;                                                                  \
        o[1 * n + i] = x - y;                                                                  \
        o[2 * n + i] = x * y;                                                                  \
        o[3 * n + i] = x & y;                                                                  \
        o[4 * n + i] = x | y;                                                                  \
        o[5 * n + i] = x ^ y;                                                                  \
        o[6 * n + i] = ~x;                                                                     \
        o[7 * n + i] = -x;                                                                     \
        o[8 * n + i] = x << sh;                                                                \
        o[9 * n + i] = x >> sh;                                                                \
        o[10 * n + i] = (U)(sx >> sh);                                                         \
        o[11 * n + i] = min(x, y);                                                             \
        o[12 * n + i] = max(x, y);                                                             \
        o[13 * n + i] = (U)min(sx, sy);                                                        \
        o[14 * n + i] = (U)max(sx, sy);                                                        \
        o[15 * n + i] = clamp(x, (U)LO, (U)(y | TOP));                                         \
        o[16 * n + i] = (U)clamp(sx, (S)SLO, (S)(sy & (TOP - 1)));                              \
        o[17 * n + i] = abs(sx);                                                               \
        o[18 * n + i] = x < y ? x : (U)(y + 1);                                                \
        o[19 * n + i] = sx > sy ? (U)(x * 3) : y;                                              \
        o[20 * n + i] = (U)(sx * sy + sx);                                                     \
    }

ARITH(arith8, uchar, char, 20, -50, 0x80)
ARITH(arith16, ushort, short, 2000, -5000, 0x8000)

// Comparisons as bits of m[i]: bytes, then shorts.
kernel void compare(global const uchar *a, global const uchar *b, global const ushort *c, global const ushort *d,
                    global int *m) {
    size_t i = get_global_id(0);
    uchar x = a[i], y = b[i];
    char sx = (char)x, sy = (char)y;
    ushort u = c[i], v = d[i];
    short su = (short)u, sv = (short)v;
    int r = 0;
    r |= (x == y) << 0;
    r |= (x != y) << 1;
    r |= (x < y) << 2;
    r |= (x >= y) << 3;
    r |= (sx < sy) << 4;
    r |= (sx <= sy) << 5;
    r |= (sx > sy) << 6;
    r |= (u == v) << 7;
    r |= (u > v) << 8;
    r |= (u <= v) << 9;
    r |= (su < sv) << 10;
    r |= (su >= sv) << 11;
    m[i] = r;
}

// Conversions: results k of work-item i at o[k * n + i].
kernel void convert(global const uchar *a, global const ushort *c, global const int *s, global const float *f,
                    global const long *l, global int *o, global float *fo, global long *lo, global double *dob) {
    size_t i = get_global_id(0), n = get_global_size(0);
    uchar x = a[i];
    ushort u = c[i];
    int w = s[i];
    float g = f[i];
    long q = l[i];
    o[0 * n + i] = x;
    o[1 * n + i] = (char)x;
    o[2 * n + i] = u;
    o[3 * n + i] = (short)u;
    o[4 * n + i] = (ushort)(char)x;
    o[5 * n + i] = (uchar)u;
    o[6 * n + i] = convert_uchar_sat(w);
    o[7 * n + i] = convert_char_sat(w);
    o[8 * n + i] = convert_ushort_sat(w);
    o[9 * n + i] = convert_short_sat(w);
    o[10 * n + i] = convert_uchar(g);
    o[11 * n + i] = convert_char(g);
    o[12 * n + i] = convert_ushort(g);
    o[13 * n + i] = convert_short(g);
    o[14 * n + i] = convert_uchar_sat(g);
    o[15 * n + i] = convert_short_sat(g);
    o[16 * n + i] = convert_char_sat((short)u);
    o[17 * n + i] = convert_uchar_sat((short)u);
    o[18 * n + i] = (uchar)q;
    o[19 * n + i] = (short)q;
    fo[0 * n + i] = (float)x;
    fo[1 * n + i] = (float)(char)x;
    fo[2 * n + i] = (float)u;
    fo[3 * n + i] = (float)(short)u * 0.5f;
    lo[0 * n + i] = (long)(char)x;
    lo[1 * n + i] = (long)u;
    lo[2 * n + i] = (long)(short)u + q;
    dob[0 * n + i] = (double)(char)x;
    dob[1 * n + i] = (double)u / 3.0;
}

// Narrow values under masks: a divergent branch, a loop whose trip count
// differs between work-items, values kept across barriers; r[i] gathers
// them.
kernel void masked(global const uchar *a, global const short *s, global uint *r, local uchar *t) {
    size_t i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
    uchar x = a[i];
    short v = s[i];
    char c = (char)a[i + 1];
    if (x & 1) {
        x = x * 3 + 1;
        v = v - x;
    } else {
        x >>= 1;
        v = (short)(v * 7);
    }
    uchar acc = 0;
    short sacc = 1;
    for (int k = 0; k < (a[i + 2] & 15); k++) {
        acc += a[i + k] ^ (uchar)k;
        sacc = (short)(sacc * 3 - c);
        if (acc > 200)
            break;
    }
    t[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar nb = t[(l + 1) % ls];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (c < 0) {
        c = -c;
        nb ^= 0x5a;
    }
    r[4 * i + 0] = x | ((uint)(ushort)v << 8);
    r[4 * i + 1] = acc | ((uint)(ushort)sacc << 8);
    r[4 * i + 2] = nb | ((uint)(uchar)c << 8) | ((uint)(uchar)(x + nb) << 16);
    r[4 * i + 3] = (uint)(short)(v + sacc);
}

// Components read one by one (clang loads only those a kernel uses):
// three bytes of each uchar4 and the second short of each short2, through
// pointers moving by 4 bytes (tests/exec_simd_narrow.rs runs it on
// buffers that end where an inaccessible page starts).
kernel void components(global const uchar4 *p, global const short2 *s, global uint *out) {
    size_t i = get_global_id(0);
    uchar4 v = p[i];
    short2 w = s[i];
    out[i] = (77 * v.x + 150 * v.y + 29 * v.z) ^ ((uint)(ushort)w.y << 16);
}

// Tables indexed by bytes and shorts (a histogram's `bins[data[i]]`): a
// narrow load serving only as an index is read lane by lane
// (`analysis::index_loads`), in a grid-stride loop and under a guard.
kernel void lookups(global const uchar *a, global const ushort *s, global const uint *table, global uint *o,
                    uint n) {
    size_t i = get_global_id(0), gs = get_global_size(0);
    uint acc = 0;
    for (size_t j = i; j < n; j += gs)
        acc += table[a[j]] ^ table[s[j] & 1023];
    o[i] = acc;
    if (i & 1)
        o[gs + i] = table[a[2 * i]];
}
