// Sub-groups (core in OpenCL 2.1/2.2, cl_khr_subgroups in OpenCL C 2.0):
// get_sub_group_size, get_max_sub_group_size, get_num_sub_groups,
// get_enqueued_num_sub_groups, get_sub_group_id, get_sub_group_local_id,
// sub_group_barrier, and the sub-group collectives (OpGroup* with Subgroup
// scope).

kernel void sg_ids(global uint *out) {
    size_t i = get_global_id(0);
    out[6 * i + 0] = get_sub_group_size();
    out[6 * i + 1] = get_max_sub_group_size();
    out[6 * i + 2] = get_num_sub_groups();
    out[6 * i + 3] = get_enqueued_num_sub_groups();
    out[6 * i + 4] = get_sub_group_id();
    out[6 * i + 5] = get_sub_group_local_id();
}

kernel void sg_barrier(global int *data, local int *buf) {
    size_t l = get_local_id(0);
    buf[l] = data[get_global_id(0)];
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group);
    uint base = get_sub_group_id() * get_max_sub_group_size();
    data[get_global_id(0)] = buf[base + (get_sub_group_local_id() + 1) % get_sub_group_size()];
}

kernel void sg_collectives(global const int *in, global int *out, global float *fout) {
    size_t i = get_global_id(0);
    int v = in[i];
    out[8 * i + 0] = sub_group_all(v > 0);
    out[8 * i + 1] = sub_group_any(v < 0);
    out[8 * i + 2] = sub_group_broadcast(v, 0);
    out[8 * i + 3] = sub_group_reduce_add(v);
    out[8 * i + 4] = sub_group_reduce_min(v);
    out[8 * i + 5] = sub_group_reduce_max(v);
    out[8 * i + 6] = sub_group_scan_inclusive_add(v);
    out[8 * i + 7] = sub_group_scan_exclusive_max(v);
    fout[i] = sub_group_reduce_add((float)v) + sub_group_scan_inclusive_min((float)v);
}

kernel void sg_unsigned_long(global const uint *u, global const ulong *l, global ulong *out) {
    size_t i = get_global_id(0);
    out[i] = sub_group_reduce_max(u[i]) + sub_group_scan_exclusive_add(l[i]) +
             sub_group_broadcast(l[i], get_sub_group_size() - 1);
}
