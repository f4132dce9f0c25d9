// printf compiled the ordinary way, with cl_khr_fp64 (tests/exec_printf.rs):
// clang promotes float arguments to double, and double scalars and vectors
// print with full precision.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// The floats kernel of printf.cl, whose float arguments are now promoted
// to double: the text must be the same.
#include "printf_floats.h"
PRINTF_FLOATS(double_floats)

// d = {0.1, 1e300, DBL_MAX, DBL_MIN, 4.9e-324, -2.5, 1/3, 123456789.123456789}
kernel void double_values(global const double *d, global int *ret)
{
    ret[0] = printf("[%.17g|%g|%e|%.3e|%a|%a|%A]\n", d[0], d[1], d[1], d[2], d[0], d[4], d[3]);
    ret[1] = printf("[%f|%.20f|%15.6f|%-12.1e|%+.0f|%G]\n", d[5], d[6], d[7], d[5], d[7], d[3]);
    ret[2] = printf("[%.0f]\n", d[1]);
}

kernel void double_vectors(global const double *d, global int *ret)
{
    double4 v = vload4(0, d);
    ret[0] = printf("v2=%v2lf v4=%.3v4le\n", (double2)(d[5], d[6]), v);
    ret[1] = printf("v3=%v3lg v2a=%v2la\n", (double3)(d[0], d[5], d[7]), (double2)(d[0], d[5]));
    ret[2] = printf("v8=%.2v8lf\n", vload8(0, d) * 0.0 + (double8)(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.5));
}
