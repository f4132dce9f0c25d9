// async_work_group_copy / async_work_group_strided_copy between global and
// local memory, wait_group_events, and prefetch (OpGroupAsyncCopy,
// OpGroupWaitEvents, the prefetch extended instruction).

kernel void async_in_out(global const float4 *in, global float4 *out, local float4 *tile) {
    size_t n = get_local_size(0);
    size_t base = get_group_id(0) * n;
    event_t e = async_work_group_copy(tile, in + base, n, 0);
    wait_group_events(1, &e);
    size_t l = get_local_id(0);
    tile[l] *= 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, tile, n, 0);
    wait_group_events(1, &e);
}

kernel void async_strided(global const int *in, global int *out, local int *tile, local int *extra,
                          uint stride) {
    size_t n = get_local_size(0);
    event_t ev[2];
    ev[0] = async_work_group_strided_copy(tile, in + get_group_id(0), n, stride, 0);
    ev[1] = async_work_group_copy(extra, in, n, 0);
    wait_group_events(2, ev);
    tile[get_local_id(0)] += extra[get_local_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_strided_copy(out + get_group_id(0), tile, n, stride, 0);
    wait_group_events(1, &e);
}

kernel void async_chained(global const uchar *in, global uchar *out, local uchar *a, local uchar *b) {
    size_t n = get_local_size(0);
    size_t base = get_group_id(0) * n;
    event_t e = async_work_group_copy(a, in + base, n, 0);
    e = async_work_group_copy(b, in + base + n, n, e); // joins the first copy's event
    wait_group_events(1, &e);
    size_t l = get_local_id(0);
    a[l] ^= b[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, a, n, 0);
    wait_group_events(1, &e);
}

kernel void with_prefetch(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    prefetch(in + i + 64, 16);
    out[i] = in[i] + 1.0f;
}
