// OpenCL 1.x atomics on 32-bit int and uint in global and local memory:
// atomic_inc/dec/add/sub/xchg/min/max/and/or/xor/cmpxchg, the atom_* spellings,
// and results used (fetched values) and unused. (atomic_xchg on float is in
// atomics_float.cl.)

kernel void atomics_global_int(volatile global int *p, global int *old) {
    size_t i = get_global_id(0);
    int v = (int)i;
    old[11 * i + 0] = atomic_inc(&p[0]);
    old[11 * i + 1] = atomic_dec(&p[1]);
    old[11 * i + 2] = atomic_add(&p[2], v);
    old[11 * i + 3] = atomic_sub(&p[3], v);
    old[11 * i + 4] = atomic_xchg(&p[4], v);
    old[11 * i + 5] = atomic_min(&p[5], v - 8);
    old[11 * i + 6] = atomic_max(&p[6], v - 8);
    old[11 * i + 7] = atomic_and(&p[7], ~v);
    old[11 * i + 8] = atomic_or(&p[8], v);
    old[11 * i + 9] = atomic_xor(&p[9], v);
    old[11 * i + 10] = atomic_cmpxchg(&p[10], v, v + 1);
}

kernel void atomics_global_uint(volatile global uint *p, global uint *old) {
    size_t i = get_global_id(0);
    uint v = (uint)i;
    old[4 * i + 0] = atomic_min(&p[0], v);  // unsigned comparison
    old[4 * i + 1] = atomic_max(&p[1], v);
    old[4 * i + 2] = atomic_cmpxchg(&p[2], v, v * 2);
    old[4 * i + 3] = atomic_add(&p[3], 1u);
    atomic_inc(&p[4]); // result unused
    atomic_or(&p[5], 1u << (i & 31));
}

kernel void atomics_local(global int *out, global uint *uout) {
    local int counters[4];
    local uint ucounter;
    size_t l = get_local_id(0);
    if (l == 0) {
        for (int k = 0; k < 4; k++)
            counters[k] = 0;
        ucounter = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&counters[0]);
    atomic_add(&counters[1], (int)l);
    atomic_max(&counters[2], (int)l);
    int prev = atomic_cmpxchg(&counters[3], 0, (int)l + 1);
    uint u = atomic_xchg(&ucounter, (uint)l);
    atomic_min(&ucounter, u);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int k = 0; k < 4; k++)
            out[get_group_id(0) * 4 + k] = counters[k];
        uout[get_group_id(0)] = ucounter;
    }
    out[get_global_id(0) + 1024] = prev;
}

kernel void atomics_local_arg(local int *hist, global const uchar *data, global int *out) {
    size_t l = get_local_id(0);
    for (size_t k = l; k < 256; k += get_local_size(0))
        hist[k] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&hist[data[get_global_id(0)]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t k = l; k < 256; k += get_local_size(0))
        atomic_add(&out[k], hist[k]);
}

kernel void atom_spellings(volatile global int *g, global uint *u) {
    size_t i = get_global_id(0);
    atom_add(&g[0], 1);
    atom_inc(&g[1]);
    atom_xor(&g[2], (int)i);
    u[i] = atom_cmpxchg((volatile global uint *)&g[3], 0u, 1u);
}

// A spin lock built from cmpxchg, protecting a non-atomic update.
kernel void spin_lock(volatile global int *lock, global int *shared_value) {
    if (get_local_id(0) != 0)
        return; // one work-item per group, so groups cannot deadlock each other
    while (atomic_cmpxchg(lock, 0, 1) != 0)
        ;
    *shared_value += 1;
    atomic_xchg(lock, 0);
}
