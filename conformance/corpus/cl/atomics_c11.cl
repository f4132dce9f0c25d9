// OpenCL C 2.0 atomics: atomic_int / atomic_uint in global and
// local memory; atomic_init, atomic_load/store, atomic_exchange,
// atomic_compare_exchange_strong/weak, atomic_fetch_add/sub/or/xor/and/min/max
// with explicit memory_order and memory_scope; atomic_flag; fences.

kernel void c11_fetch(global atomic_int *a, global atomic_uint *u, global int *out) {
    size_t i = get_global_id(0);
    int v = (int)i;
    out[8 * i + 0] = atomic_fetch_add(&a[0], v);
    out[8 * i + 1] = atomic_fetch_sub_explicit(&a[1], v, memory_order_relaxed);
    out[8 * i + 2] = atomic_fetch_or_explicit(&a[2], v, memory_order_acquire, memory_scope_work_group);
    out[8 * i + 3] = atomic_fetch_xor_explicit(&a[3], v, memory_order_release, memory_scope_device);
    out[8 * i + 4] = atomic_fetch_and_explicit(&a[4], v, memory_order_acq_rel, memory_scope_all_svm_devices);
    out[8 * i + 5] = atomic_fetch_min_explicit(&a[5], v, memory_order_seq_cst, memory_scope_device);
    out[8 * i + 6] = (int)atomic_fetch_max_explicit(&u[0], (uint)v, memory_order_relaxed, memory_scope_work_group);
    out[8 * i + 7] = (int)atomic_fetch_add_explicit(&u[1], 1u, memory_order_relaxed, memory_scope_device);
}

kernel void c11_load_store(global atomic_int *flag, global atomic_uint *u, global int *data, global int *out) {
    size_t i = get_global_id(0);
    if (i == 0) {
        data[0] = 42;
        atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
        atomic_store(u, 7u);
    }
    int seen = atomic_load_explicit(flag, memory_order_acquire, memory_scope_device);
    uint uv = atomic_load(u);
    uint prev = atomic_exchange_explicit(u, uv + 1, memory_order_acq_rel, memory_scope_device);
    out[i] = seen + (int)prev + (seen ? data[0] : 0);
}

kernel void c11_cmpxchg(global atomic_int *a, global atomic_uint *u, global int *out) {
    size_t i = get_global_id(0);
    int expected = atomic_load(a);
    int tries = 0;
    // A CAS loop computing a max.
    while (!atomic_compare_exchange_weak_explicit(a, &expected, max(expected, (int)i), memory_order_acq_rel,
                                                  memory_order_relaxed, memory_scope_device))
        tries++;
    uint e2 = 0;
    bool ok = atomic_compare_exchange_strong(u, &e2, (uint)i + 1);
    uint e3 = 7;
    bool ok3 = atomic_compare_exchange_strong_explicit(u, &e3, 9u, memory_order_seq_cst, memory_order_seq_cst,
                                                       memory_scope_work_group);
    out[i] = tries * 4 + ok * 2 + ok3 + (int)e2;
}

kernel void c11_local(global int *out) {
    local atomic_int counter;
    local atomic_uint bits;
    size_t l = get_local_id(0);
    if (l == 0) {
        atomic_init(&counter, 0);
        atomic_init(&bits, 0u);
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int slot = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_or_explicit(&bits, 1u << (l & 31), memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = slot + (int)atomic_load_explicit(&bits, memory_order_relaxed, memory_scope_work_group);
}

kernel void c11_flag(global atomic_flag *lock, global int *counter) {
    if (get_local_id(0) != 0)
        return;
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire, memory_scope_device))
        ;
    *counter += 1;
    atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
}

kernel void c11_fences(global int *data, global atomic_int *ready) {
    size_t i = get_global_id(0);
    data[i] = (int)i;
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    atomic_fetch_add_explicit(ready, 1, memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_acquire,
                           memory_scope_work_group);
    atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_seq_cst, memory_scope_work_group);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_all_svm_devices);
}

// Atomics through generic pointers.
__attribute__((noinline)) int bump(atomic_int *p) {
    return atomic_fetch_add_explicit(p, 1, memory_order_relaxed, memory_scope_device);
}

kernel void c11_generic(global atomic_int *g, global int *out) {
    local atomic_int l;
    if (get_local_id(0) == 0)
        atomic_init(&l, 100);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = bump(g) + bump(&l);
}
