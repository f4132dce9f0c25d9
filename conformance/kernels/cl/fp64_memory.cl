// Doubles in every address space, across barriers, in work-group
// collectives and async copies, and in kernels that also get 4-lane bodies
// (tests/exec_fp64_memory.rs).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

constant double table[4] = {0.5, -1.25, 3.0e300, 4.9e-324};
global double accum[2] = {1.0, 2.0};

typedef struct { double x; float f; double2 v; } Rec;

// Private arrays and structs, generic pointers, program-scope variables.
kernel void spaces(global const double *a, global Rec *recs, global double *o) {
    size_t i = get_global_id(0);
    double priv[5];
    for (int k = 0; k < 5; k++) priv[k] = a[i] * (double)(k + 1);
    generic double *gp = &priv[2];
    Rec r = recs[i];
    r.x += priv[4];
    r.v = r.v.yx * table[i % 4];
    r.f = (float)(r.x);
    recs[i] = r;
    o[i] = *gp + table[(i + 1) % 4] + accum[i % 2];
}

// A local-memory tree reduction across barriers (the local size is a
// power of two), and a double kept live across a barrier.
kernel void local_sum(global const double *a, global double *o, local double *scratch) {
    size_t l = get_local_id(0), n = get_local_size(0);
    double mine = a[get_global_id(0)];
    double keep = mine * 3.0;
    scratch[l] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    o[2 * get_global_id(0)] = scratch[0];
    o[2 * get_global_id(0) + 1] = keep;
}

// Work-group collectives on double.
kernel void collectives(global const double *a, global double *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double x = a[i];
    o[0 * n + i] = work_group_reduce_add(x);
    o[1 * n + i] = work_group_reduce_min(x);
    o[2 * n + i] = work_group_reduce_max(x);
    o[3 * n + i] = work_group_scan_inclusive_add(x);
    o[4 * n + i] = work_group_scan_exclusive_add(x);
    o[5 * n + i] = work_group_scan_inclusive_min(x);
    o[6 * n + i] = work_group_scan_exclusive_max(x);
    o[7 * n + i] = work_group_broadcast(x, 3);
}

// Async copies of doubles and double2 between global and local memory.
kernel void copies(global const double *a, global double2 *o, local double *buf, local double2 *buf2) {
    size_t g = get_group_id(0), n = get_local_size(0);
    event_t e = async_work_group_copy(buf, a + g * n, n, 0);
    wait_group_events(1, &e);
    buf2[get_local_id(0)] = (double2)(buf[n - 1 - get_local_id(0)], buf[get_local_id(0)] * 2.0);
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t f = async_work_group_strided_copy(o + g * n, buf2, n, 1, 0);
    wait_group_events(1, &f);
}

// Straight-line double work, a float part the 4-lane body vectorizes, and
// a uniform loop: stays correct whatever the vectorizer does with doubles.
kernel void simd_mix(global const double *a, global const float *b, global double *o, global float *of, int iters) {
    size_t i = get_global_id(0);
    double x = a[i];
    float y = b[i] * 2.0f + 1.0f;
    double acc = 0.0;
    for (int k = 0; k < iters; k++) acc = acc * 0.5 + x * (double)k;
    o[i] = acc + (double)y;
    of[i] = y + (float)x;
}

// A branch that depends on the double (varying), with a double phi.
kernel void simd_branch(global const double *a, global double *o) {
    size_t i = get_global_id(0);
    double x = a[i];
    double r;
    if (x > 0.0) r = sqrt(x); else r = -x * 2.0;
    o[i] = r + (double)i;
}

// Mostly float work (worth a 4-lane body) with a little double work the
// 4-lane body runs lane by lane, behind a guard.
kernel void simd_mostly_float(global const float *a, global const double *d, global float *o,
                              global double *od, uint n) {
    size_t i = get_global_id(0);
    if (i >= n) return;
    float x = a[i];
    float y = x * x + 3.0f * x - 1.0f;
    float z = y * x - y / (x * x + 1.0f);
    float w = z * z - y * 0.5f + x * 0.25f;
    float v = w * y - z * x + w * 0.125f;
    o[i] = v * v + w - z + y * x;
    od[i] = d[i] * 2.0 + (double)x * (double)x;
}

// Sub-group collectives on double.
kernel void collectives_sub(global const double *a, global double *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double x = a[i];
    o[0 * n + i] = sub_group_reduce_max(x);
    o[1 * n + i] = sub_group_scan_inclusive_min(x);
    o[2 * n + i] = sub_group_broadcast(x, 1);
}

// A struct holding an array of doubles, by value, and a double array in a
// private struct copied whole.
typedef struct { int n; double v[3]; } Arr;
kernel void array_arg(Arr s, global double *o) {
    size_t i = get_global_id(0);
    Arr c = s;
    c.v[i % 3] *= 2.0;
    o[4 * i + 0] = (double)c.n;
    o[4 * i + 1] = c.v[0];
    o[4 * i + 2] = c.v[1];
    o[4 * i + 3] = c.v[2];
}
