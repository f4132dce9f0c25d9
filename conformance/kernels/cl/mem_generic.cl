// The generic address space: casts to named spaces (NULL when the address
// is elsewhere), get_fence, volatile accesses, copies through generic
// pointers.
__attribute__((noinline)) int classify(int *p) {
    return (to_global(p) != 0) + 2 * (to_local(p) != 0) + 4 * (to_private(p) != 0);
}

__attribute__((noinline)) int fence_of(int *p) {
    return get_fence(p);
}

kernel void generic_cast(global int *g, local int *l, global int *out) {
    int i = get_global_id(0);
    int priv[2];
    priv[i & 1] = i;
    l[get_local_id(0)] = i;
    out[i * 5 + 0] = classify(g + i);
    out[i * 5 + 1] = classify(l + get_local_id(0));
    out[i * 5 + 2] = classify(&priv[i & 1]);
    out[i * 5 + 3] = fence_of(g) | (fence_of(l) << 4);
    int *gen = (i & 1) ? (int *)&priv[i & 1] : (int *)(g + i);
    out[i * 5 + 4] = *gen;
}

kernel void volatile_ops(volatile global int *v, global int *out) {
    int i = get_global_id(0);
    v[i] = i;
    v[i] = i + 1;
    int a = v[i];
    int b = v[i];
    out[i] = a + b;
}
