// Pointer operations: arithmetic with positive and negative offsets,
// differences, comparisons, casts between pointer types (byte access to
// words, word access to bytes), pointers to pointers in private memory, NULL
// checks, uintptr_t round trips, const/volatile/restrict-qualified pointers,
// pointer increments in loops.

kernel void ptr_arith(global int *base, global long *out, int off) {
    size_t i = get_global_id(0);
    global int *p = base + i;
    global int *q = p + off;
    global int *r = q - 2 * off;
    out[3 * i + 0] = q - p;
    out[3 * i + 1] = (p < q) + 2 * (p == r + off) + 4 * (r <= p);
    out[3 * i + 2] = *(p + 1) + p[-0] + 1[p];
}

kernel void ptr_casts(global uint *words, global uchar *bytes) {
    size_t i = get_global_id(0);
    global uchar *b = (global uchar *)&words[i];
    uint v = b[0] | (b[1] << 8) | (b[2] << 16) | ((uint)b[3] << 24);
    global ushort *h = (global ushort *)bytes;
    words[i] = v + h[i];
    global float *f = (global float *)&words[i + 1];
    *f = 1.0f;
}

kernel void ptr_to_ptr(global int *a, global int *b, global int *out) {
    size_t i = get_global_id(0);
    global int *choice[2] = {a, b};
    global int **pp = &choice[i & 1];
    **pp += 1;
    *pp = 0;
    out[i] = choice[0] ? *choice[0] : -1;
    out[i] += choice[1] ? *choice[1] : -1;
}

kernel void null_checks(global int *maybe_null, global int *out) {
    size_t i = get_global_id(0);
    if (maybe_null == 0) {
        out[i] = -1;
        return;
    }
    out[i] = maybe_null[i];
}

kernel void intptr_roundtrip(global int *p, global ulong *out) {
    size_t i = get_global_id(0);
    uintptr_t u = (uintptr_t)(p + i);
    intptr_t s = (intptr_t)p;
    global int *back = (global int *)(u + sizeof(int));
    out[i] = (ulong)(u - (uintptr_t)s) + (ulong)(back - p) + (u % 4 == 0);
}

kernel void ptr_walk(global const char *s, global int *len, global char *dst) {
    global const char *p = s;
    while (*p)
        p++;
    *len = (int)(p - s);
    global char *d = dst;
    for (global const char *q = p - 1; q >= s; q--)
        *d++ = *q;
    *d = 0;
}

kernel void ptr_qualifiers(global const int *restrict src, volatile global int *v, global int *restrict dst) {
    size_t i = get_global_id(0);
    dst[i] = src[i] + *v;
    *v = (int)i;
    dst[i] += *v;
}

// size_t and ptrdiff_t arithmetic, including a wrap-around of unsigned indices.
kernel void sizes(global ulong *out) {
    size_t i = get_global_id(0);
    size_t a = i - 1;
    ptrdiff_t d = (ptrdiff_t)a;
    out[i] = a + (ulong)d + sizeof(size_t) + sizeof(void *) + sizeof(ptrdiff_t);
}
