// __local memory: kernel-scope __local variables (scalars, arrays, structs),
// __local pointer kernel arguments (sized by clSetKernelArg), __local
// pointers passed to helpers, barriers between phases.

typedef struct {
    int count;
    float sum;
} stats;

kernel void local_array_reverse(global int *data) {
    local int tile[64];
    size_t l = get_local_id(0);
    size_t g = get_global_id(0);
    tile[l] = data[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[g] = tile[get_local_size(0) - 1 - l];
}

kernel void local_arg_reduce(global const float *in, global float *out, local float *scratch) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}

kernel void two_local_args(global int *out, local int *a, local uchar *b, uint n) {
    size_t l = get_local_id(0);
    a[l] = (int)l;
    b[l] = (uchar)(l * 3);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a[(l + 1) % n] + b[(l + 2) % n];
}

kernel void local_struct(global const float *in, global float *out) {
    local stats st;
    local float4 vbuf[16];
    size_t l = get_local_id(0);
    if (l == 0) {
        st.count = 0;
        st.sum = 0.0f;
    }
    vbuf[l & 15] = (float4)(in[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int k = 0; k < 16; k++) {
            st.count++;
            st.sum += vbuf[k].x;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = st.sum / (float)st.count;
}

__attribute__((noinline)) void fill_local(local int *p, int n, int v) {
    for (int k = (int)get_local_id(0); k < n; k += (int)get_local_size(0))
        p[k] = v + k;
}

__attribute__((noinline)) int read_local(const local int *p, int k) { return p[k]; }

kernel void local_helpers(global int *out, local int *dyn) {
    local int fixed[128];
    fill_local(fixed, 128, 7);
    fill_local(dyn, (int)get_local_size(0), 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    size_t l = get_local_id(0);
    out[get_global_id(0)] = read_local(fixed, (int)(l & 127)) + read_local(dyn, (int)l);
}

// Tiled matrix transpose through a padded local tile.
#define TILE 16
kernel void transpose_tiled(global const float *in, global float *out, int w, int h) {
    local float tile[TILE][TILE + 1];
    int x = get_group_id(0) * TILE + get_local_id(0);
    int y = get_group_id(1) * TILE + get_local_id(1);
    if (x < w && y < h)
        tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TILE + get_local_id(0);
    y = get_group_id(0) * TILE + get_local_id(1);
    if (x < h && y < w)
        out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];
}
