// Dimension indices past the last (OpenCL C: 1 from the sizes and counts,
// 0 from the ids and offsets), written at 8-field steps: constant 3 and
// 0xffffffff (clang leaves them as indices into the built-in vector), the
// argument `dyn` (uniform), and a value each work-item loads from `dims`
// (differing between neighbouring work-items), then get_work_dim() and the
// end marker. tests/exec_workitem.rs checks every field. A module of its
// own: the constant indices fail the build of an implementation refusing
// them.
#define DIM_FIELDS(r, d)                                                                  \
    (r)[0] = get_global_id(d);                                                            \
    (r)[1] = get_local_id(d);                                                             \
    (r)[2] = get_group_id(d);                                                             \
    (r)[3] = get_global_size(d);                                                          \
    (r)[4] = get_local_size(d);                                                           \
    (r)[5] = get_enqueued_local_size(d);                                                  \
    (r)[6] = get_num_groups(d);                                                           \
    (r)[7] = get_global_offset(d);

kernel void ids_past_last(global uint *out, uint dyn, global const uint *dims)
{
    size_t idx = (get_global_id(0) - get_global_offset(0))
        + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
        + (get_global_id(2) - get_global_offset(2)) * get_global_size(0) * get_global_size(1);
    global uint *r = out + idx * 34;
    DIM_FIELDS(r, 3)
    DIM_FIELDS(r + 8, 0xffffffff)
    DIM_FIELDS(r + 16, dyn)
    uint loaded = dims[idx % 4];
    DIM_FIELDS(r + 24, loaded)
    r[32] = get_work_dim();
    r[33] = 0x600d;
}

// The same functions folded into one float per dimension index (weights
// 1 to 128 over the eight functions, exact for the small ranges of the
// test), written at out[j * n + i], next to enough float work that clift
// makes a 4-lane body (tests/exec_simd_coverage.rs checks it does); that
// work contributes y * 0 = 0.
#define FOLD(d)                                                                           \
    ((float)(uint)get_global_id(d) + 2.0f * (float)(uint)get_local_id(d)                  \
     + 4.0f * (float)(uint)get_group_id(d) + 8.0f * (float)(uint)get_global_size(d)       \
     + 16.0f * (float)(uint)get_local_size(d) + 32.0f * (float)(uint)get_enqueued_local_size(d) \
     + 64.0f * (float)(uint)get_num_groups(d) + 128.0f * (float)(uint)get_global_offset(d))

kernel void ids_past_last_simd(global const float *in, global float *out, uint dyn, global const uint *dims)
{
    uint i = get_global_id(0) - get_global_offset(0);
    uint n = get_global_size(0);
    float x = in[i];
    float y = x * x + 1.0f;
    for (int k = 0; k < 3; k++) {
        y = y * 0.5f + x;
        y = y * y - x * 0.25f;
        y = sqrt(fabs(y) + 1.0f);
    }
    float zero = y * 0.0f;
    out[i] = FOLD(3) + zero;
    out[n + i] = FOLD(0xffffffff) + zero;
    out[2 * n + i] = FOLD(dyn) + zero;
    out[3 * n + i] = FOLD(dims[i % 4]) + zero;
    out[4 * n + i] = FOLD(1) + zero;
    out[5 * n + i] = (float)get_work_dim() + zero;
}
