// Work-group and sub-group collective functions of OpenCL C 2.0 (OpGroupAll,
// OpGroupAny, OpGroupBroadcast, OpGroupIAdd/FAdd/SMin/UMin/FMin/SMax/UMax/
// FMax with Reduce, InclusiveScan and ExclusiveScan; Workgroup and
// Subgroup scope) and async_work_group_copy / wait_group_events
// (OpGroupAsyncCopy, OpGroupWaitEvents). tests/exec_workgroup.rs.

kernel void collectives_int(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g];
    global int *r = out + g * 12;
    r[0] = work_group_all(x > 0);
    r[1] = work_group_any(x > 100);
    r[2] = work_group_broadcast(x, 3);
    r[3] = work_group_reduce_add(x);
    r[4] = work_group_reduce_min(x);
    r[5] = work_group_reduce_max(x);
    r[6] = work_group_scan_inclusive_add(x);
    r[7] = work_group_scan_inclusive_min(x);
    r[8] = work_group_scan_inclusive_max(x);
    r[9] = work_group_scan_exclusive_add(x);
    r[10] = work_group_scan_exclusive_min(x);
    r[11] = work_group_scan_exclusive_max(x);
}

kernel void collectives_uint(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint x = in[g];
    global uint *r = out + g * 6;
    r[0] = work_group_reduce_min(x);
    r[1] = work_group_reduce_max(x);
    r[2] = work_group_scan_inclusive_min(x);
    r[3] = work_group_scan_inclusive_max(x);
    r[4] = work_group_scan_exclusive_min(x);
    r[5] = work_group_scan_exclusive_max(x);
}

kernel void collectives_long(global const long *in, global long *out)
{
    size_t g = get_global_id(0);
    long x = in[g];
    global long *r = out + g * 4;
    r[0] = work_group_reduce_add(x);
    r[1] = work_group_scan_inclusive_add(x);
    r[2] = work_group_scan_exclusive_max(x);
    r[3] = work_group_broadcast(x, 1);
}

kernel void collectives_float(global const float *in, global float *out)
{
    size_t g = get_global_id(0);
    float x = in[g];
    global float *r = out + g * 5;
    r[0] = work_group_reduce_add(x);
    r[1] = work_group_reduce_min(x);
    r[2] = work_group_reduce_max(x);
    r[3] = work_group_scan_inclusive_add(x);
    r[4] = work_group_scan_exclusive_max(x);
}

// Broadcast from a 2D local id, in a 2D range.
kernel void broadcast_2d(global const int *in, global int *out)
{
    size_t g = get_global_id(0) + get_global_id(1) * get_global_size(0);
    out[g] = work_group_broadcast(in[g], 1, 2) + work_group_reduce_add(1);
}

// Broadcasts in a loop with no other suspension point: the source
// work-item comes back to the same broadcast before later work-items have
// read its value.
kernel void broadcast_loop(global int *out, int n)
{
    int lid = get_local_id(0);
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc += work_group_broadcast(lid * 100 + i, 0) + work_group_broadcast(lid * 1000 + i, 5);
    out[get_global_id(0)] = acc;
}

// Sub-group collectives: clift runs one sub-group per work-group.
kernel void collectives_sub(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g];
    global int *r = out + g * 6;
    r[0] = sub_group_all(x > 0);
    r[1] = sub_group_any(x > 100);
    r[2] = sub_group_broadcast(x, 2);
    r[3] = sub_group_reduce_add(x);
    r[4] = sub_group_scan_inclusive_max(x);
    r[5] = sub_group_scan_exclusive_add(x);
}

// async_work_group_copy global -> local and local -> global, with a stride.
kernel void async_copy(global const int *in, global int *out, global int *out2, local int *tile)
{
    size_t l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * get_enqueued_local_size(0);
    event_t e = async_work_group_copy(tile, in + base, n, 0);
    wait_group_events(1, &e);
    out[base + l] = tile[n - 1 - l] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[l] += 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e2 = async_work_group_strided_copy(out2 + base * 2, tile, n, 2, 0);
    wait_group_events(1, &e2);
}
