// Every work-item function in every dimension: get_work_dim, get_global_size,
// get_global_id, get_local_size, get_enqueued_local_size, get_local_id,
// get_num_groups, get_group_id, get_global_offset, get_global_linear_id,
// get_local_linear_id; constant and run-time dimension indices (including
// out-of-range ones, which return the spec's defaults).

kernel void ids_all(global ulong *out) {
    size_t lin = get_global_linear_id();
    global ulong *o = out + lin * 32;
    o[0] = get_work_dim();
    for (uint d = 0; d < 3; d++) {
        o[1 + d * 9 + 0] = get_global_size(d);
        o[1 + d * 9 + 1] = get_global_id(d);
        o[1 + d * 9 + 2] = get_local_size(d);
        o[1 + d * 9 + 3] = get_enqueued_local_size(d);
        o[1 + d * 9 + 4] = get_local_id(d);
        o[1 + d * 9 + 5] = get_num_groups(d);
        o[1 + d * 9 + 6] = get_group_id(d);
        o[1 + d * 9 + 7] = get_global_offset(d);
        o[1 + d * 9 + 8] = get_global_linear_id();
    }
    o[28] = get_local_linear_id();
    o[29] = get_global_linear_id();
}

kernel void ids_constant_dims(global uint *out) {
    size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0) +
               get_global_id(2) * get_global_size(0) * get_global_size(1);
    out[g] = (uint)(get_local_id(0) + get_local_id(1) * 10 + get_local_id(2) * 100) +
             (uint)(get_group_id(0) + get_group_id(1) + get_group_id(2)) * 1000 +
             (uint)(get_num_groups(0) * get_num_groups(1) * get_num_groups(2)) +
             (uint)(get_global_offset(0) + get_global_offset(1) + get_global_offset(2)) +
             (uint)(get_enqueued_local_size(0) + get_enqueued_local_size(1) + get_enqueued_local_size(2));
}

// Dimension indices from memory, possibly >= get_work_dim() (or >= 3).
kernel void ids_runtime_dim(global const uint *dims, global ulong *out) {
    size_t i = get_global_id(0);
    uint d = dims[i];
    out[4 * i + 0] = get_global_size(d); // 1 when d >= get_work_dim()
    out[4 * i + 1] = get_global_id(d);   // 0
    out[4 * i + 2] = get_local_size(d);  // 1
    out[4 * i + 3] = get_group_id(d) + get_local_id(d) + get_num_groups(d) + get_global_offset(d);
}

// Recovering the global id from its parts, as kernels do when they index.
kernel void id_identity(global int *ok) {
    size_t g = get_global_id(0);
    size_t rebuilt = get_group_id(0) * get_enqueued_local_size(0) + get_local_id(0) + get_global_offset(0);
    size_t lin = get_global_linear_id();
    ok[g - get_global_offset(0)] = (g == rebuilt) && (lin == g - get_global_offset(0));
}

// Work-item functions in a helper (the values come from the calling kernel's launch).
__attribute__((noinline)) size_t flat_local(void) {
    return get_local_id(2) * get_local_size(1) * get_local_size(0) + get_local_id(1) * get_local_size(0) +
           get_local_id(0);
}

kernel void ids_in_helper(global ulong *out) {
    out[get_global_linear_id()] = (flat_local() == get_local_linear_id());
}
