// printf compiled the ordinary way, with cl_khr_fp64 (tests/exec_printf.rs):
// clang promotes float arguments to double, and double scalars and vectors
// print with full precision.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// The floats kernel of printf.cl, whose float arguments are now promoted
// to double: the text must be the same.
kernel void double_floats(global const float *f, global int *ret)
{
    ret[0] = printf("[%f|%.0f|%.0f|%#.0f|%8.3f|%-8.2f|%08.2f|%+f|% .1f|%F|%.10f|%f]\n", f[0], f[13], f[0], f[15],
                    f[1], f[0], f[1], f[11], f[15], f[9], f[8], f[10]);
    ret[1] = printf("[%e|%.2e|%E|%.0e|%#.0e|%12.3e|%e|%+e]\n", f[2], f[2], f[3], f[13], f[15], f[1], f[11], f[9]);
    ret[2] = printf("[%g|%g|%g|%g|%g|%.3g|%#g|%G|%010g|%-6g|%g]\n", f[4], f[5], f[6], f[7], f[0], f[1], f[0], f[9],
                    f[1], f[10], f[3]);
    ret[3] = printf("[%a|%a|%a|%A|%a|%.0a|%.1a|%a|%12a|%-9a]\n", f[15], f[14], f[12], f[12], f[8], f[0], f[8], f[11],
                    f[15], f[14]);
}

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
