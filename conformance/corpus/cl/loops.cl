// Loops: for, while, do-while, counted up and down, unsigned and 64-bit
// induction variables, nested loops with break and continue (labelled-break
// emulation through flags), loops with several exits, infinite loops left by
// return, loops whose trip count is zero, loop-carried values of several
// types.

kernel void for_while_do(global int *out, int n) {
    size_t i = get_global_id(0);
    int a = 0;
    for (int k = 0; k < n; k++)
        a = a * 3 + k; // no closed form: clang-15 -O2 turns sums into i33 math llvm-spirv rejects
    int b = 0, k = n;
    while (k > 0) {
        b ^= k;
        k -= 2;
    }
    int c = 0;
    do {
        c = c * 2 + 3;
    } while (c < n);
    uint d = 0;
    for (uint u = (uint)n; u != 0; u >>= 1)
        d++;
    long e = 0;
    for (long w = 0; w < (long)n * 3; w += 7)
        e = e * 5 + w;
    out[i] = a + b + c + (int)d + (int)e;
}

kernel void nested_break_continue(global const int *grid, global int *out, int w, int h) {
    size_t i = get_global_id(0);
    int found = -1;
    int skipped = 0;
    for (int y = 0; y < h; y++) {
        if (grid[y * w] < 0)
            continue;
        for (int x = 0; x < w; x++) {
            int v = grid[y * w + x];
            if (v == 0) {
                skipped++;
                continue;
            }
            if (v == (int)i) {
                found = y * w + x;
                break;
            }
        }
        if (found >= 0)
            break;
    }
    out[i] = found * 1000 + skipped;
}

// Three nested loops with an exit from the innermost loop out of all three.
kernel void triple_nested(global const float *a, global int *out, float limit) {
    size_t i = get_global_id(0);
    int steps = 0;
    bool done = false;
    for (int p = 0; p < 8 && !done; p++) {
        for (int q = 0; q < 8; q++) {
            for (int r = 0; r < 8; r++) {
                steps++;
                if (a[p * 64 + q * 8 + r] > limit) {
                    done = true;
                    break;
                }
            }
            if (done)
                break;
        }
    }
    out[i] = steps;
}

// A loop with several exits: a found element, an error value, the end.
kernel void multi_exit(global const int *data, global int *out, int n) {
    size_t i = get_global_id(0);
    int k = 0;
    int result;
    while (1) {
        if (k >= n) {
            result = -1;
            break;
        }
        int v = data[k];
        if (v == (int)i) {
            result = k;
            break;
        }
        if (v < 0) {
            out[i] = -2;
            return;
        }
        k++;
    }
    out[i] = result;
}

// Loop-carried values of several types, including a vector and a float.
kernel void carried(global float *f, global int4 *v, global ulong *u, int n) {
    size_t i = get_global_id(0);
    float x = f[i];
    int4 acc = (int4)(0);
    ulong h = 0xcbf29ce484222325UL;
    for (int k = 0; k < n; k++) {
        x = x * 0.5f + 1.0f;
        acc = acc.yzwx + (int4)(k);
        h = (h ^ (ulong)k) * 0x100000001b3UL;
    }
    f[i] = x;
    v[i] = acc;
    u[i] = h;
}

// Collatz: a data-dependent trip count.
kernel void collatz(global uint *steps) {
    size_t i = get_global_id(0);
    ulong x = i + 1;
    uint s = 0;
    while (x != 1) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        s++;
    }
    steps[i] = s;
}

// A loop counting down with an unsigned index and an early continue.
kernel void countdown(global int *data, uint n) {
    for (uint k = n; k-- > 0;) {
        if (data[k] & 1)
            continue;
        data[k] /= 2;
    }
}
