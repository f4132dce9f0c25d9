// Arithmetic whose results depend on the floating-point environment
// (tests/exec_fp_env.rs): products and sums of floats and doubles with
// denormal operands and results, and sums that round.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void arith(global const float *a, global const float *b, global float *o, global const double *c,
                  global const double *d, global double *od) {
    size_t i = get_global_id(0), n = get_global_size(0);
    o[i] = a[i] * b[i];
    o[n + i] = a[i] + b[i];
    od[i] = c[i] * d[i];
    od[n + i] = c[i] + d[i];
}
