// Kernel attributes: reqd_work_group_size, work_group_size_hint and
// vec_type_hint (LocalSize, LocalSizeHint and VecTypeHint execution modes),
// alone and combined; plus argument qualifiers (const, restrict, volatile)
// and function attributes on helpers (always_inline, noinline).

kernel __attribute__((reqd_work_group_size(16, 1, 1))) void reqd_1d(global int *out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}

kernel __attribute__((reqd_work_group_size(8, 4, 2))) void reqd_3d(global int *out) {
    out[get_global_linear_id()] = (int)get_local_linear_id();
}

kernel __attribute__((work_group_size_hint(64, 1, 1))) void hint_1d(global float *out) {
    out[get_global_id(0)] *= 2.0f;
}

kernel __attribute__((vec_type_hint(float4))) void vhint_float4(global float4 *v) {
    v[get_global_id(0)] = v[get_global_id(0)].wzyx;
}

kernel __attribute__((vec_type_hint(int))) void vhint_int(global int *v) { v[get_global_id(0)] += 1; }

kernel __attribute__((vec_type_hint(uchar16))) void vhint_uchar16(global uchar16 *v) {
    v[get_global_id(0)] += (uchar16)(1);
}

kernel __attribute__((vec_type_hint(double2))) void vhint_double2(global float2 *v) {
    // A hint naming double does not need fp64: only the hint's type is recorded.
    v[get_global_id(0)] *= 0.5f;
}

kernel __attribute__((reqd_work_group_size(32, 2, 1))) __attribute__((work_group_size_hint(32, 2, 1)))
__attribute__((vec_type_hint(short8))) void all_three(global short8 *v) {
    v[get_global_id(0)] = v[get_global_id(0)].s01234567 * (short)2;
}

kernel void qualifiers(global const int *restrict in, global int *restrict out, volatile global int *flag,
                       constant float *c, const int n, const uint m) {
    size_t i = get_global_id(0);
    out[i] = in[i] * n + (int)m + (int)c[0];
    *flag = 1;
}

__attribute__((always_inline)) inline int twice(int x) { return 2 * x; }
__attribute__((noinline)) int thrice(int x) { return 3 * x; }

kernel void inline_attrs(global int *p) {
    size_t i = get_global_id(0);
    p[i] = twice(p[i]) + thrice(p[i]);
}
