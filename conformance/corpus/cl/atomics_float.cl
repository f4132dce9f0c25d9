// 32-bit float atomics that OpenCL C has in core: atomic_xchg on float
// (OpenCL 1.1) and atomic_float load/store/exchange (OpenCL C 2.0). They are
// OpAtomicExchange / OpAtomicLoad / OpAtomicStore on a 32-bit float, which the
// SPIR-V spec allows; the environment spec's "only 32-bit integer types" rule
// is read as not excluding them. A float atomic add built from cmpxchg on the
// bits, as real kernels write it.

kernel void float_xchg(volatile global float *f, global float *old) {
    size_t i = get_global_id(0);
    old[i] = atomic_xchg(f, (float)i);
}

kernel void float_xchg_local(global float *out) {
    local float slot;
    if (get_local_id(0) == 0)
        slot = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float prev = atomic_xchg(&slot, (float)get_local_id(0));
    out[get_global_id(0)] = prev;
}

kernel void c11_float(global atomic_float *f, global float *out) {
    size_t i = get_global_id(0);
    if (i == 0)
        atomic_store_explicit(f, 1.5f, memory_order_release, memory_scope_device);
    float v = atomic_load_explicit(f, memory_order_acquire, memory_scope_device);
    out[i] = atomic_exchange(f, v + 1.0f);
}

// static: a plain C99 `inline` has no external definition, so at -O0 (no
// inlining) the module would import a function nobody defines.
static inline void atomic_add_float(volatile global float *p, float v) {
    union {
        uint u;
        float f;
    } old, upd;
    do {
        old.f = *p;
        upd.f = old.f + v;
    } while (atomic_cmpxchg((volatile global uint *)p, old.u, upd.u) != old.u);
}

kernel void float_add_by_cas(volatile global float *sum, global const float *x) {
    atomic_add_float(sum, x[get_global_id(0)]);
}
