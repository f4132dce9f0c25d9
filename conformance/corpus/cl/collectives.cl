// Work-group collective functions (OpenCL C 2.0): work_group_all/any,
// work_group_broadcast (1-, 2- and 3-D), work_group_reduce/scan_inclusive/
// scan_exclusive with add/min/max on int, uint, long, ulong and float.

kernel void wg_vote_broadcast(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int v = in[i];
    out[4 * i + 0] = work_group_all(v >= 0);
    out[4 * i + 1] = work_group_any(v == 7);
    out[4 * i + 2] = work_group_broadcast(v, 0);
    out[4 * i + 3] = work_group_broadcast(v, get_local_size(0) - 1);
}

kernel void wg_broadcast_nd(global const float *in, global float *out) {
    size_t g = get_global_linear_id();
    float v = in[g];
    out[g] = work_group_broadcast(v, 0, 0) + work_group_broadcast(v, 1, 0, 0);
}

kernel void wg_reduce_scan_int(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int v = in[i];
    out[9 * i + 0] = work_group_reduce_add(v);
    out[9 * i + 1] = work_group_reduce_min(v);
    out[9 * i + 2] = work_group_reduce_max(v);
    out[9 * i + 3] = work_group_scan_inclusive_add(v);
    out[9 * i + 4] = work_group_scan_inclusive_min(v);
    out[9 * i + 5] = work_group_scan_inclusive_max(v);
    out[9 * i + 6] = work_group_scan_exclusive_add(v);
    out[9 * i + 7] = work_group_scan_exclusive_min(v);
    out[9 * i + 8] = work_group_scan_exclusive_max(v);
}

kernel void wg_reduce_other_types(global const uint *u, global const long *l, global const ulong *ul,
                                  global const float *f, global ulong *out, global float *fout) {
    size_t i = get_global_id(0);
    out[i] = work_group_reduce_min(u[i]) + work_group_scan_inclusive_add(l[i]) +
             work_group_scan_exclusive_max(ul[i]);
    fout[i] = work_group_reduce_add(f[i]) + work_group_scan_inclusive_max(f[i]) +
              work_group_scan_exclusive_min(f[i]);
}

// Stream compaction with an exclusive scan.
kernel void compact(global const int *in, global int *out, global int *count) {
    size_t i = get_global_id(0);
    int keep = in[i] > 0;
    int pos = work_group_scan_exclusive_add(keep);
    int total = work_group_reduce_add(keep);
    if (keep)
        out[get_group_id(0) * get_local_size(0) + pos] = in[i];
    if (get_local_id(0) == 0)
        count[get_group_id(0)] = total;
}
