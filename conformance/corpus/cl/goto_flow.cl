// Unstructured control flow: goto forwards and backwards, a goto into the
// middle of a loop (an irreducible loop), early returns from deep nesting,
// short-circuit && and || chains, conditional expressions that become
// branches.

kernel void goto_cleanup(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int r = 0;
    int v = in[i];
    if (v < 0)
        goto fail;
    r = v * 2;
    if (r > 1000)
        goto clamp;
    goto done;
clamp:
    r = 1000;
    goto done;
fail:
    r = -1;
done:
    out[i] = r;
}

kernel void goto_loop(global int *data, int n) {
    int k = 0;
again:
    if (k >= n)
        return;
    data[k] += k;
    k++;
    goto again;
}

// Two entries into the same loop: irreducible control flow.
kernel void irreducible(global int *out, int start, int n) {
    size_t i = get_global_id(0);
    int x = 0;
    if (start & 1)
        goto second;
first:
    x += 1;
    if (x > n)
        goto end;
second:
    x += 2;
    if (x < n * 2)
        goto first;
end:
    out[i] = x;
}

kernel void early_returns(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int v = in[i];
    if (v == 0)
        return;
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 4; b++) {
            if (a * b == v) {
                out[i] = a * 4 + b;
                return;
            }
        }
    }
    if (v > 100) {
        out[i] = 100;
        return;
    }
    out[i] = -v;
}

kernel void short_circuit(global const int *a, global const int *b, global int *out) {
    size_t i = get_global_id(0);
    // The right-hand sides load memory, so they must not be evaluated early.
    int r = 0;
    if (i < 10 && a[i] > 0 && b[a[i] & 7] > 0)
        r |= 1;
    if (i >= 10 || a[0] == 0 || b[a[0] & 7] == 0)
        r |= 2;
    bool x = (a[i] & 1) && !(b[i] & 1);
    r |= x ? 4 : 0;
    out[i] = r + ((a[i] > b[i]) ? a[i] : (b[i] > 0 ? b[i] : 0));
}
