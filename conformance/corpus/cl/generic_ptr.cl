// The generic address space (OpenCL C 2.0): unqualified pointers in helpers
// that receive global, local and private addresses; to_global, to_local,
// to_private; get_fence; generic pointers stored in memory and compared.

__attribute__((noinline)) void inc(int *p) { *p += 1; }

__attribute__((noinline)) int load_any(const int *p, int k) { return p[k]; }

__attribute__((noinline)) int classify(int *p) {
    if (to_global(p))
        return 1;
    if (to_local(p))
        return 2;
    if (to_private(p))
        return 3;
    return 0;
}

kernel void generic_calls(global int *g, local int *l, global int *out) {
    int priv = 5;
    size_t i = get_global_id(0);
    size_t li = get_local_id(0);
    l[li] = (int)li;
    barrier(CLK_LOCAL_MEM_FENCE);
    inc(&g[i]);
    inc(&l[li]);
    inc(&priv);
    out[i] = load_any(g, (int)i) + load_any(l, (int)li) + load_any(&priv, 0);
}

kernel void generic_cast_back(global int *g, local int *l, global int *out) {
    size_t i = get_global_id(0);
    int priv[2] = {1, 2};
    int *p = (i & 1) ? (int *)&g[i] : (i & 2) ? (int *)l : priv;
    global int *gp = to_global(p);
    local int *lp = to_local(p);
    private int *pp = to_private(p);
    int r = 0;
    if (gp)
        r += *gp;
    if (lp)
        r += 100;
    if (pp)
        r += pp[1];
    out[i] = r * 10 + classify(p);
}

kernel void generic_fence(global int *g, local int *l, global uint *out) {
    size_t i = get_global_id(0);
    int *p = (i & 1) ? (int *)g : (int *)l;
    cl_mem_fence_flags f = get_fence(p);
    // (The fence flags must be a constant in SPIR-V: llvm-spirv-15 cannot take f.)
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_order_release,
                           memory_scope_work_group);
    out[i] = f;
}

kernel void generic_in_memory(global int *data, global uint *out) {
    size_t i = get_global_id(0);
    int *ptrs[2];
    int here = (int)i;
    ptrs[0] = &data[i];
    ptrs[1] = &here;
    int *chosen = ptrs[data[i] & 1];
    *chosen += 3;
    out[i] = (uint)(ptrs[0] == (int *)&data[i]) + (uint)(chosen != ptrs[1]) + (uint)here;
}

// Generic pointer arithmetic and difference.
__attribute__((noinline)) long span(const float *first, const float *last) { return last - first; }

kernel void generic_arith(global float *a, global long *out) {
    size_t i = get_global_id(0);
    float *p = a;
    p += i;
    out[i] = span(a, p) + span(p, p + 3);
}
