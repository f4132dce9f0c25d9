// Atomics contended by every work-item: OpenCL 1.2 atomic_* (Workgroup
// scope on global memory), OpenCL 2.0 C11 atomics, float exchange, flags,
// local memory. 64-bit atomics are in mem_atomics64.cl.

kernel void atomics12(global int *g, global uint *u, global int *xchg_old, global float *f) {
    int i = get_global_id(0);
    atomic_add(&g[0], 1);
    atomic_sub(&g[1], 2);
    atomic_inc(&g[2]);
    atomic_dec(&g[3]);
    atomic_min(&g[4], i - 500);
    atomic_max(&g[5], i - 500);
    atomic_and(&g[6], ~(1 << (i % 32)));
    atomic_or(&g[7], 1 << (i % 32));
    atomic_xor(&g[8], i);
    xchg_old[i] = atomic_xchg(&g[9], i);
    int o;
    do {
        o = g[10];
    } while (atomic_cmpxchg(&g[10], o, o + 3) != o);
    atomic_min(&u[0], (uint)i + 7u);
    atomic_max(&u[1], (uint)i * 3u);
    atomic_xchg(&f[0], (float)i);
}

kernel void atomics20(global atomic_int *a, global int *out, global atomic_flag *flag, global atomic_int *won) {
    int i = get_global_id(0);
    atomic_fetch_add_explicit(&a[0], 2, memory_order_relaxed, memory_scope_device);
    atomic_fetch_sub_explicit(&a[1], 1, memory_order_acq_rel, memory_scope_work_group);
    atomic_fetch_or(&a[2], 1 << (i & 15));
    int e = atomic_load(&a[3]);
    while (!atomic_compare_exchange_weak(&a[3], &e, e + 1))
        ;
    atomic_store_explicit(&a[4], 42, memory_order_release);
    if (!atomic_flag_test_and_set(flag))
        atomic_fetch_add(won, 1);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    out[i] = atomic_load_explicit(&a[4], memory_order_acquire);
}

kernel void flag_clear(global atomic_flag *flag) {
    atomic_flag_clear(flag);
}

kernel void local_atomics(global int *out, local int *cnt) {
    int l = get_local_id(0);
    if (l == 0)
        *cnt = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(cnt, l + 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        out[get_group_id(0)] = *cnt;
}
