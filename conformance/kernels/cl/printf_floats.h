// The float conversions of printf: included by printf.cl (compiled without
// cl_khr_fp64, so the float arguments stay float) and printf_double.cl
// (with it, so clang promotes them to double); the text must be the same
// (tests/exec_printf.rs).
//
// f = {1.5, -3.14159, 1234.5, 0.000123, 100000, 1e6, 0.0001, 1e-5, 0.1,
//      inf, nan, -0.0, 255, 2.5, 0.5, 1.0}

#define PRINTF_FLOATS(NAME) \
kernel void NAME(global const float *f, global int *ret) \
{ \
    ret[0] = printf("[%f|%.0f|%.0f|%#.0f|%8.3f|%-8.2f|%08.2f|%+f|% .1f|%F|%.10f|%f]\n", f[0], f[13], f[0], f[15], \
                    f[1], f[0], f[1], f[11], f[15], f[9], f[8], f[10]); \
    ret[1] = printf("[%e|%.2e|%E|%.0e|%#.0e|%12.3e|%e|%+e]\n", f[2], f[2], f[3], f[13], f[15], f[1], f[11], f[9]); \
    ret[2] = printf("[%g|%g|%g|%g|%g|%.3g|%#g|%G|%010g|%-6g|%g]\n", f[4], f[5], f[6], f[7], f[0], f[1], f[0], f[9], \
                    f[1], f[10], f[3]); \
    ret[3] = printf("[%a|%a|%a|%A|%a|%.0a|%.1a|%a|%12a|%-9a]\n", f[15], f[14], f[12], f[12], f[8], f[0], f[8], f[11], \
                    f[15], f[14]); \
}
