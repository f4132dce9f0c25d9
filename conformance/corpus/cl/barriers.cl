// Barriers and fences: barrier with local, global and both fences, in loops
// with uniform trip counts, in nested loops, after divergent code that
// reconverges, work_group_barrier with explicit scopes, mem_fence,
// read_mem_fence, write_mem_fence.

kernel void barrier_in_loop(global float *data, local float *buf, int iters) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    buf[l] = data[get_global_id(0)];
    for (int it = 0; it < iters; it++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        float left = buf[(l + n - 1) % n];
        float right = buf[(l + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        buf[l] = 0.5f * buf[l] + 0.25f * (left + right);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = buf[l];
}

kernel void barrier_nested(global int *data, local int *buf) {
    size_t l = get_local_id(0);
    buf[l] = (int)l;
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 2; b++) {
            barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            if (l == 0)
                buf[0] += a * b;
        }
        barrier(CLK_GLOBAL_MEM_FENCE);
        data[get_global_id(0)] += buf[0];
    }
}

kernel void barrier_after_divergence(global int *data, local int *flag) {
    size_t l = get_local_id(0);
    int v = data[get_global_id(0)];
    if (v & 1) {
        v *= 3;
        if (l == 0)
            *flag = v;
    } else {
        v /= 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = v + *flag;
}

kernel void scoped_barriers(global int *data, local int *buf) {
    size_t l = get_local_id(0);
    buf[l] = data[get_global_id(0)];
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int x = buf[(l + 1) % get_local_size(0)];
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_all_svm_devices);
    data[get_global_id(0)] = x;
}

kernel void fences(global int *data, local int *buf) {
    size_t l = get_local_id(0);
    buf[l] = 1;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    data[get_global_id(0)] = buf[l];
    read_mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
}

// A barrier inside a noinline helper called from a loop.
__attribute__((noinline)) void sync_and_shift(local int *buf, size_t l, size_t n) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = buf[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] = v;
}

kernel void barrier_in_helper(global int *data, local int *buf) {
    size_t l = get_local_id(0);
    buf[l] = data[get_global_id(0)];
    for (int k = 0; k < 4; k++)
        sync_and_shift(buf, l, get_local_size(0));
    data[get_global_id(0)] = buf[l];
}
