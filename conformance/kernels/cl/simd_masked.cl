// Masked execution in 4-lane bodies (jit/src/lower/simd/predicate.rs and
// masked.rs): loops whose lanes leave at different iterations with loads,
// stores and atomics inside, and branches whose lanes differ after a
// store, inside loops and in kernels with barriers. Integer arithmetic,
// so that the host references are exact; tests/exec_simd_masked.rs runs
// them (clbench's reduce and hist_local, in local_barrier.cl and
// atomics.cl, are tested in exec_local_barrier.rs and exec_atomics.rs), and
// tests/debug_dump.rs checks that they all get 4-lane bodies.

// A grid-stride sum (clbench's reduce, first half): each lane reads until
// it passes n, and a lane past n reads nothing (the buffer may end there).
kernel void grid_sum(global const int *in, global int *out, uint n)
{
    size_t gid = get_global_id(0), gsz = get_global_size(0);
    int acc = 0;
    for (size_t i = gid; i < n; i += gsz)
        acc += in[i];
    out[gid] = acc;
}

// A branch whose lanes differ inside a loop whose exit differs, storing
// in one arm: the Collatz steps of each input, capped, with the values
// after each odd step.
kernel void collatz(global const uint *in, global uint *steps, global uint *trace, uint cap)
{
    size_t i = get_global_id(0);
    uint x = in[i], s = 0;
    while (x > 1 && s < cap) {
        if (x & 1) {
            x = 3 * x + 1;
            trace[i * cap + s] = x;
        } else {
            x >>= 1;
        }
        s++;
    }
    steps[i] = s;
}

// A branch whose lanes differ after a store, both arms storing, with a
// value from each arm used after them.
kernel void branch_after_store(global const int *in, global int *out, global int *side)
{
    size_t i = get_global_id(0);
    int x = in[i];
    side[2 * i] = x + 1;
    int y;
    if (x % 3 == 0) {
        y = x * 5;
        side[2 * i + 1] = y;
    } else {
        y = x - 7;
        out[i] = -1;
    }
    out[i] += y;
}

// Nested branches whose lanes differ, inside a loop the lanes agree on.
kernel void nested_in_loop(global const int *in, global int *out, global int *acc_out, uint k)
{
    size_t i = get_global_id(0);
    int x = in[i], acc = 0;
    for (uint j = 0; j < k; j++) {
        if (x > (int)j) {
            if ((x ^ (int)j) & 1) {
                acc += x;
                out[i * k + j] = acc;
            } else {
                acc -= (int)j;
            }
        } else {
            acc ^= (int)j;
            out[i * k + j] = -acc;
        }
    }
    acc_out[i] = acc;
}

// Values from both arms of a branch whose lanes differ, kept across a
// barrier, and local memory written in both.
kernel void arms_across_barrier(global const int *in, global int *out, local int *tmp)
{
    size_t l = get_local_id(0), g = get_global_id(0), n = get_local_size(0);
    int x = in[g];
    int y;
    if (x & 1) {
        tmp[l] = x;
        y = x * 3;
    } else {
        tmp[l] = -x;
        y = x / 2;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = y + tmp[(l + 1) % n];
}

// The usual guard, in a kernel with barriers (whose chunks cannot be
// abandoned): lanes past n neither read nor write (the buffers may end
// at n).
kernel void guarded_tail(global const int *in, global int *out, uint n)
{
    size_t g = get_global_id(0);
    int v = 0;
    if (g < n)
        v = in[g];
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (g < n)
        out[g] = v * 2 + 1;
}

// A function called in an arm of a branch whose lanes differ and in a
// loop whose exit differs, after a store (so the chunk runs under masks):
// its body is inlined with the caller's mask as its guard, so its store
// and atomic happen for the active lanes only. noinline keeps the calls
// at -O2 too (clang keeps them at -O0).
__attribute__((noinline)) static int note(global int *slot, global int *count, int x)
{
    *slot = x * 3;
    atomic_add(count, x);
    return x + 1;
}

// Called in an arm: a loop whose exit differs, inside the callee, starts
// with the lanes active at the call.
__attribute__((noinline)) static void spin(global int *slot, int x)
{
    int k = 0;
    do {
        slot[k] = x;
        x -= 4;
        k++;
        slot[5] = k;
    } while (x > 3 && k < 5);
}

kernel void calls_under_masks(global const int *in, global int *out, global int *slots,
                              global int *count)
{
    size_t i = get_global_id(0);
    int x = in[i];
    out[i] = -1;
    int r = x;
    if (x & 1)
        r = note(&slots[8 * i], count, x);
    if (x & 2)
        spin(&slots[8 * i + 2], x);
    int n = 0;
    do {
        r = note(&slots[8 * i + 1], count, r - 7);
        n++;
        out[i] = r * 16 + n;
    } while (r > 0 && n < 6);
}

// Branches whose paths cross before they meet (DAG regions,
// jit/src/lower/simd/dag.rs), after a store so that the chunk cannot be
// abandoned: `a || b` and `a && b` (at -O0 the second test and the arm of
// the first lead to the same block), a switch whose selector differs
// between lanes with a fallthrough, a duplicate target and a default,
// a switch on a char, and both inside a loop. Stores happen in the
// blocks, and the merge's phis pick each lane's value.
kernel void crossing_paths(global const int *in, global int *out, global int *side)
{
    size_t i = get_global_id(0);
    int x = in[i];
    out[3 * i] = 0;
    int r = 0;
    if ((x & 3) == 1 || (x > 40 && (x & 4))) {
        r = x * 3;
        side[2 * i] = r;
    } else if (x < -20 && (x & 8)) {
        r = -x;
    }
    int s = 0;
    switch (x) {
    case 0:
        s += 5;
    case 1:
        s += x;
        side[2 * i + 1] = s;
        break;
    case 3:
    case 6:
        s = -1;
        break;
    case 4:
        break;
    default:
        s = 100 + x;
    }
    char c = (char)(x >> 2);
    int t = 0;
    for (int k = 0; k < 3; k++) {
        switch ((char)(c + k)) {
        case 'a' - 90:
            t += 7;
            break;
        case 0:
        case 1:
            t += k + 1;
            if (x & 1 || k == 2)
                t *= 3;
            break;
        default:
            t -= 1;
        }
    }
    out[3 * i] = r;
    out[3 * i + 1] = s;
    out[3 * i + 2] = t;
}

// A loop whose exit differs, with the test LLVM puts before a rotated
// loop and code hoisted between that test and the loop (a preheader):
// the preheader runs for the lanes that enter the loop.
kernel void guarded_rotated_loop(global const int *in, global int *out, global int *trace, int k)
{
    size_t i = get_global_id(0);
    int x = in[i];
    // A store first, so that the chunk runs under masks (it cannot be
    // abandoned).
    trace[8 * i + 7] = x;
    int n = 0;
    while (x > 0 && n < 6) {
        trace[8 * i + n] = x * k;
        x -= 7 + (k & 3);
        n++;
    }
    out[i] = x * 16 + n;
}

// A private array of a kernel with barriers, written under masks before
// and after a barrier: each lane's copy lives in the chunk's frame.
kernel void private_across_barriers(global const int *in, global int *out, local int *t)
{
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    int acc[4] = {1, 2, 3, 4};
    int x = in[g];
    if (x & 1)
        acc[x & 3] = x;
    t[l] = acc[(x >> 1) & 3];
    barrier(CLK_LOCAL_MEM_FENCE);
    int y = t[(l + 1) % n];
    if (y > 0)
        acc[y & 3] += y;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = acc[0] + 2 * acc[1] + 3 * acc[2] + 5 * acc[3];
}

// A loop in an arm of a branch whose lanes differ, after a store: its trip
// count is the same in every lane (k), and it runs, stores included, for
// the arm's lanes only.
kernel void loop_in_arm(global const int *in, global int *out, global int *trace, int k)
{
    size_t i = get_global_id(0);
    int x = in[i];
    trace[4 * i + 3] = x;
    int r = x;
    if (x & 1) {
        for (int j = 0; j < k; j++) {
            r = r * 3 + j;
            trace[4 * i + (j & 1)] = r;
        }
    } else {
        r = -r;
    }
    out[i] = r;
}

// A loop bounded by a load the same in every lane, in a function called
// where no lane may have arrived: the call runs only when one did.
__attribute__((noinline)) static int sum_below(global const int *far, int k)
{
    int s = 0;
    for (int j = 0; j < far[k]; j++)
        s = s * 3 + j;
    return s;
}

// Accesses the same in every lane inside a DAG region, whose blocks all
// run whether or not a lane reached them: made only when one did.
kernel void uniform_access_in_crossing_paths(global const int *in, global int *out, global int *flag,
                                             global const int *far, int k)
{
    size_t i = get_global_id(0);
    int x = in[i];
    out[i] = 0;
    int r = -1;
    if ((x & 3) == 1 || (x > 1000 && (x & 4))) {
        flag[0] = 1;
        r = far[k] + sum_below(far, k);
    }
    out[i] = r;
}

// A switch whose selector differs between lanes, after a store, with
// loops in its cases whose trip count is the same in every lane: each
// loop runs, stores included, for the lanes of its case.
kernel void switch_with_loops(global const int *in, global int *out, global int *trace, int k)
{
    size_t i = get_global_id(0);
    int x = in[i];
    trace[8 * i + 7] = x;
    int r = 0;
    switch (x) {
    case 1:
        for (int j = 0; j < k; j++) {
            r += j * x + 1;
            trace[8 * i + (j & 3)] = r;
        }
        break;
    case 2:
    case 5:
        for (int j = k; j > 0; j--)
            r = r * 2 + j;
        trace[8 * i + 4] = r;
        break;
    default:
        r = -x;
    }
    out[i] = r;
}
