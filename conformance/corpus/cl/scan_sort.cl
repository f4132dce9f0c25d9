// Whole algorithms as applications write them: a Blelloch work-efficient
// scan in local memory, a bitonic sort of a local tile (barriers inside
// nested loops with data-dependent swaps), a 256-bin histogram with local
// atomics, a radix-sort digit count, a 2-D stencil with halo loads.

kernel void blelloch_scan(global const int *in, global int *out, local int *tmp, global int *block_sums) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0) * 2;
    size_t base = get_group_id(0) * n;
    tmp[2 * l] = in[base + 2 * l];
    tmp[2 * l + 1] = in[base + 2 * l + 1];
    size_t offset = 1;
    for (size_t d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            size_t ai = offset * (2 * l + 1) - 1;
            size_t bi = offset * (2 * l + 2) - 1;
            tmp[bi] += tmp[ai];
        }
        offset *= 2;
    }
    if (l == 0) {
        block_sums[get_group_id(0)] = tmp[n - 1];
        tmp[n - 1] = 0;
    }
    for (size_t d = 1; d < n; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            size_t ai = offset * (2 * l + 1) - 1;
            size_t bi = offset * (2 * l + 2) - 1;
            int t = tmp[ai];
            tmp[ai] = tmp[bi];
            tmp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * l] = tmp[2 * l];
    out[base + 2 * l + 1] = tmp[2 * l + 1];
}

kernel void bitonic_local(global float *data, local float *tile) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    size_t base = get_group_id(0) * n;
    tile[l] = data[base + l];
    for (size_t k = 2; k <= n; k <<= 1) {
        for (size_t j = k >> 1; j > 0; j >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            size_t p = l ^ j;
            if (p > l) {
                bool up = (l & k) == 0;
                float a = tile[l], b = tile[p];
                if ((a > b) == up) {
                    tile[l] = b;
                    tile[p] = a;
                }
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[base + l] = tile[l];
}

kernel void histogram256(global const uchar *data, uint n, global uint *hist) {
    local uint bins[256];
    size_t l = get_local_id(0);
    for (size_t b = l; b < 256; b += get_local_size(0))
        bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = get_global_id(0); k < n; k += get_global_size(0))
        atomic_inc(&bins[data[k]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t b = l; b < 256; b += get_local_size(0))
        if (bins[b])
            atomic_add(&hist[b], bins[b]);
}

kernel void radix_count(global const uint *keys, global uint *counts, uint shift, uint n) {
    local uint c[16];
    size_t l = get_local_id(0);
    if (l < 16)
        c[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t g = get_global_id(0);
    if (g < n)
        atomic_inc(&c[(keys[g] >> shift) & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16)
        counts[get_group_id(0) * 16 + l] = c[l];
}

kernel void stencil5(global const float *in, global float *out, int w, int h) {
    local float tile[18][18];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    for (int dy = ly; dy < 18; dy += get_local_size(1))
        for (int dx = lx; dx < 18; dx += get_local_size(0)) {
            int sx = clamp((int)get_group_id(0) * 16 + dx - 1, 0, w - 1);
            int sy = clamp((int)get_group_id(1) * 16 + dy - 1, 0, h - 1);
            tile[dy][dx] = in[sy * w + sx];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gx < w && gy < h)
        out[gy * w + gx] = 0.2f * (tile[ly + 1][lx + 1] + tile[ly][lx + 1] + tile[ly + 2][lx + 1] +
                                   tile[ly + 1][lx] + tile[ly + 1][lx + 2]);
}
