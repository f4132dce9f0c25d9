// 64-bit integers in 4- and 8-lane bodies, held as two i64x2 vectors per
// four work-items (tests/exec_simd_long.rs): the arithmetic, shifts by a
// count the same in every work-item, comparisons, selects, widening and
// truncation with vector forms, bit casts to and from double, contiguous
// and gathered accesses, 64-bit values under masks and kept across
// barriers.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Result k of work-item i at o[k * n + i]: contiguous stores.
kernel void arith(global const long *a, global const long *b, global const int *s, global long *o, int sh) {
    size_t i = get_global_id(0), n = get_global_size(0);
    long x = a[i], y = b[i];
    o[0 * n + i] = x + y;
    o[1 * n + i] = x - y;
    o[2 * n + i] = x * y;
    o[3 * n + i] = x & y;
    o[4 * n + i] = x | y;
    o[5 * n + i] = x ^ y;
    o[6 * n + i] = ~x;
    o[7 * n + i] = -y;
    o[8 * n + i] = x << sh;
    o[9 * n + i] = x >> sh;
    o[10 * n + i] = (long)((ulong)x >> sh);
    o[11 * n + i] = (long)s[i];
    o[12 * n + i] = (long)(uint)s[i];
    o[13 * n + i] = x < y ? x : y + 1;
    o[14 * n + i] = (ulong)x > (ulong)y ? x * 3 : y;
    o[15 * n + i] = x * 0x9E3779B97F4A7C15L + (long)s[i];
    o[16 * n + i] = as_long(as_double(x) * 2.0);
    o[17 * n + i] = min(x, y);
    o[18 * n + i] = max(x, y);
    o[19 * n + i] = (long)min((ulong)x, (ulong)y);
    o[20 * n + i] = (long)max((ulong)x, (ulong)y);
    o[21 * n + i] = clamp(x, -1000L, y);
    o[22 * n + i] = (long)clamp((ulong)x, 5UL, (ulong)y);
    o[23 * n + i] = (long)abs(x);
    o[24 * n + i] = (long)(max((int)x, (int)y) + clamp((int)x, -100, (int)y));
    o[25 * n + i] = as_long((double)x + (double)(y >> 11));
    o[26 * n + i] = as_long((double)(ulong)x);
    o[27 * n + i] = as_long((double)i * 0.5);
}

// Comparisons as bits of m[i], truncations to int.
kernel void compare(global const long *a, global const long *b, global int *m, global int *t) {
    size_t i = get_global_id(0), n = get_global_size(0);
    long x = a[i], y = b[i];
    ulong ux = (ulong)x, uy = (ulong)y;
    int r = 0;
    r |= (x == y) << 0;
    r |= (x != y) << 1;
    r |= (x < y) << 2;
    r |= (x <= y) << 3;
    r |= (x > y) << 4;
    r |= (x >= y) << 5;
    r |= (ux < uy) << 6;
    r |= (ux <= uy) << 7;
    r |= (ux > uy) << 8;
    r |= (ux >= uy) << 9;
    m[i] = r;
    t[0 * n + i] = (int)x;
    t[1 * n + i] = (int)(x >> 32) + (int)y;
}

// 64-bit values under masks: a branch whose sides differ between
// work-items, a loop whose trip count does carrying a 64-bit hash, and a
// gathered load (an index from a table).
kernel void masked(global const long *a, global const int *idx, global long *o, int rounds) {
    size_t i = get_global_id(0), n = get_global_size(0);
    long x = a[idx[i]];
    long y;
    if (x > 0)
        y = x ^ (x >> 7);
    else
        y = -x * 5;
    ulong h = (ulong)y;
    for (int r = 0; r < rounds + (int)(i % 3); r++) {
        h ^= h >> 31;
        h = h * 0x9E3779B97F4A7C15UL + (ulong)r;
        if ((long)h < 0)
            h += 12345;
    }
    o[i] = (long)h;
    o[n + i] = y;
    // A 32-bit index: the pointer's lanes could wrap when widened, so
    // the two vector accesses check first.
    int j = (int)i, m = (int)n;
    o[2 * m + j] = a[j] ^ 0x55;
}

// 64-bit values kept across barriers, changed under a mask between them,
// and a 64-bit tree sum in local memory (the local size a power of two).
kernel void kept(global const long *a, global long *o, local long *tmp) {
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    long v = a[g] * 3;
    long w = v ^ 0x5555;
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l & 1)
        v = tmp[(l + 1) % n] - v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    o[g] = v * w + tmp[0];
}
