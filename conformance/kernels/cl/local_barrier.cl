// __local memory and barriers (tests/exec_local_barrier.rs): __local arrays
// declared in the kernel and passed as arguments, barriers with local and
// global fences, in loops, in work-group-uniform branches and in called
// functions, private values and arrays live across barriers, 2D and 3D
// work-groups, a tiled matrix multiply, work_group_barrier.

// A __local array declared in the kernel; work-groups of 64.
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reverse_declared(global const int *in, global int *out)
{
    local int tile[64];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[63 - l];
}

// The same with the array passed as an argument, any group size (the last
// group may be smaller: it reverses its own items).
kernel void reverse_arg(global const int *in, global int *out, local int *tile)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[n - 1 - l];
}

// A global-memory fence: items of a group exchange data through a global
// buffer.
kernel void rotate_global(global const int *in, global int *scratch, global int *out)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    size_t base = g - l;
    scratch[g] = in[g] * 2;
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[g] = scratch[base + (l + 1) % n];
}

// Both fences at once, and work_group_barrier with and without a scope.
kernel void rotate_both(global const int *in, global int *scratch, global int *out, local int *tile)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    size_t base = g - l;
    scratch[g] = in[g] + 1;
    tile[l] = in[g] - 1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    int a = scratch[base + (l + 1) % n] * 1000 + tile[(l + 2) % n];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] = a;
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    out[g] = tile[(l + n - 1) % n];
}

// A tree reduction with a barrier in a loop (clbench's reduce, on ints so
// the result is exact): one sum per group, plus a grid-stride prologue.
kernel void reduce(global const int *in, global int *partial, local int *scratch, uint n)
{
    size_t gid = get_global_id(0), gsz = get_global_size(0);
    size_t lid = get_local_id(0), lsz = get_local_size(0);
    int acc = 0;
    for (size_t i = gid; i < n; i += gsz)
        acc += in[i];
    scratch[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

// An inclusive prefix sum (Hillis-Steele): two barriers per step of a loop.
kernel void scan(global const int *in, global int *out, local int *t)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    t[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t off = 1; off < n; off <<= 1) {
        int v = l >= off ? t[l - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = t[l];
}

// Barriers in branches that are uniform over the work-group (on the group
// id and on an argument), each branch with its own barriers.
kernel void uniform_branches(global const int *in, global int *out, local int *t, int mode)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int x = in[g];
    if (get_group_id(0) & 1) {
        t[l] = x * 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        x = t[(l + 1) % n];
    } else {
        t[l] = x * 3;
        barrier(CLK_LOCAL_MEM_FENCE);
        x = t[(l + n - 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = x + 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        x = t[n - 1 - l];
    }
    if (mode > 0) {
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = x;
        barrier(CLK_LOCAL_MEM_FENCE);
        x += t[0];
    }
    out[g] = x;
}

// Private values and a private array computed before barriers and used
// after them.
kernel void live_across(global const int *in, global int *out, local int *t)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int p = in[g] * 3 + 1;
    long q = (long)in[g] << 20;
    int arr[8];
    for (int i = 0; i < 8; i++)
        arr[i] = in[g] + i * i;
    t[l] = p;
    barrier(CLK_LOCAL_MEM_FENCE);
    int nb = t[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] = arr[nb & 7];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = nb + p + (int)(q >> 20) + arr[in[g] & 7] + t[(l + 3) % n];
}

// An iterated 1D stencil: a loop with an argument trip count and two
// barriers per iteration; every item keeps private state across all of them.
kernel void smooth(global const int *in, global int *out, local int *t, int iters)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int v = in[g], changes = 0;
    for (int it = 0; it < iters; it++) {
        t[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int left = l > 0 ? t[l - 1] : t[n - 1];
        int right = l + 1 < n ? t[l + 1] : t[0];
        int nv = (left + 2 * v + right) / 4 + it;
        changes += nv != v;
        v = nv;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g * 2] = v;
    out[g * 2 + 1] = changes;
}

// A barrier inside a called function (a real call at -O0, and at -O2
// thanks to noinline).
__attribute__((noinline)) int exchange(local int *t, int v, size_t l, size_t n)
{
    t[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r = t[(l + 5) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

kernel void barrier_in_function(global const int *in, global int *out, local int *t)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int v = in[g];
    v = exchange(t, v, l, n) + 1;
    v = exchange(t, v * 2, l, n);
    out[g] = v;
}

// A 2D work-group: transpose 8x8 tiles of a W x H matrix through a
// __local tile (W and H multiples of 8).
kernel void transpose(global const float *in, global float *out, uint w, uint h)
{
    local float tile[8][9];
    size_t lx = get_local_id(0), ly = get_local_id(1);
    size_t gx = get_global_id(0), gy = get_global_id(1);
    tile[ly][lx] = in[gy * w + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t ox = get_group_id(1) * 8 + lx, oy = get_group_id(0) * 8 + ly;
    out[oy * h + ox] = tile[lx][ly];
}

// A 3D work-group: every item reads the item mirrored through the group's
// centre, in a __local array sized by the argument.
kernel void mirror3d(global const int *in, global int *out, local int *t)
{
    size_t lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
    size_t nx = get_local_size(0), ny = get_local_size(1), nz = get_local_size(2);
    size_t g = get_global_id(0) + get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
    t[lx + nx * (ly + ny * lz)] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t mx = nx - 1 - lx, my = ny - 1 - ly, mz = nz - 1 - lz;
    out[g] = t[mx + nx * (my + ny * mz)] * 10 + (int)get_local_linear_id();
}

// Tiled SGEMM as in clbench: 8x8 tiles, two barriers per tile.
#define TS 8
kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm_tiled(global const float *A, global const float *B, global float *C, uint M, uint N, uint K)
{
    local float As[TS][TS];
    local float Bs[TS][TS];
    uint lc = (uint)get_local_id(0), lr = (uint)get_local_id(1);
    uint col = (uint)get_global_id(0), row = (uint)get_global_id(1);
    float acc = 0.0f;
    for (uint t = 0; t < K; t += TS) {
        As[lr][lc] = A[row * K + (t + lc)];
        Bs[lr][lc] = B[(t + lr) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; k++)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}

// The largest work-groups: a private array per work-item live across three
// barriers.
kernel void big_group(global const int *in, global int *out, local int *t)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int priv[32];
    for (int i = 0; i < 32; i++)
        priv[i] = in[g] + i;
    t[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int i = 0; i < 32; i++)
        s += priv[(i + t[(l + i) % n]) & 31];
    barrier(CLK_LOCAL_MEM_FENCE);
    t[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = t[n - 1 - l] + priv[l & 31];
}

// Barriers in nested loops (the inner trip count depends on the outer
// index), in a uniform if and in a uniform switch (on sel[i], which the
// host sets to i % 3: a selector of unknown range, as `i % 3` would become
// an i2 that llvm-spirv-15 rejects).
kernel void nested_barrier_loops(global const int *in, global int *out, local int *t, int outer, int inner,
                                 global const int *sel)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int v = in[g];
    for (int i = 0; i < outer; i++) {
        for (int j = 0; j < inner + i; j++) {
            t[l] = v;
            barrier(CLK_LOCAL_MEM_FENCE);
            v = v + t[(l + j + 1) % n] % 7;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (i & 1) {
            t[l] = v * 2;
            barrier(CLK_LOCAL_MEM_FENCE);
            v -= t[(l + 1) % n] / 3;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        switch (sel[i]) {
        case 0:
            t[l] = v;
            barrier(CLK_LOCAL_MEM_FENCE);
            v ^= t[0];
            barrier(CLK_LOCAL_MEM_FENCE);
            break;
        case 1:
            v += 1;
            break;
        default:
            barrier(CLK_LOCAL_MEM_FENCE);
            v += (int)l;
            break;
        }
    }
    out[g] = v;
}

// A loop left by a break that is uniform because every work-item computes
// it from __local data after a barrier.
kernel void converge(global const int *in, global int *out, global int *iters, local int *t)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int v = in[g], it = 0;
    for (;;) {
        t[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int m = t[0];
        for (size_t k = 1; k < n; k++)
            m = max(m, t[k]);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (m < 10)
            break;
        v = v / 2 + (int)(l & 1);
        it++;
    }
    out[g] = v;
    if (l == 0)
        iters[get_group_id(0)] = it;
}
