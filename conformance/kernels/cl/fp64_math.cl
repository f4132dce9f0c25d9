// OpenCL.std math, common and float relational built-ins on double and
// double4 (cl_khr_fp64; math_body.h, shared with builtins_math.cl: no
// half_ or native_ forms, which are float only in OpenCL C), and the
// geometric functions, shuffles and vector memory on double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define MATH_FLOAT_ONLY_1
#define MATH_FLOAT_ONLY_2
#include "math_body.h"

MATH(double, int, ulong, convert_long)
MATH(double4, int4, ulong4, convert_long4)

// Geometric functions, shuffles and vector loads and stores on double.
kernel void geometry(global const double *a, global const double *b, global double *o, global const long *m) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double4 x4 = vload4(i, a), y4 = vload4(i, b);
    double3 x3 = vload3(i, a), y3 = vload3(i, b);
    double2 x2 = vload2(i, a), y2 = vload2(i, b);
    double x1 = a[i], y1 = b[i];
    global double *p = o + 64 * i;
    vstore4(cross(x4, y4), 0, p);
    vstore3(cross(x3, y3), 0, p + 4);
    p[7] = dot(x4, y4);
    p[8] = dot(x3, y3);
    p[9] = dot(x2, y2);
    p[10] = dot(x1, y1);
    p[11] = length(x4);
    p[12] = length(x3);
    p[13] = length(x2);
    p[14] = length(x1);
    p[15] = distance(x4, y4);
    p[16] = distance(x3, y3);
    p[17] = distance(x2, y2);
    p[18] = distance(x1, y1);
    vstore4(normalize(x4), 0, p + 20);
    vstore3(normalize(x3), 0, p + 24);
    vstore2(normalize(x2), 0, p + 28);
    p[30] = normalize(x1);
    long4 m4 = vload4(i, m);
    vstore4(shuffle(x4, as_ulong4(m4)), 0, p + 32);
    double8 s8 = shuffle2(x4, y4, as_ulong8((long8)(m4, m4 >> 3)));
    vstore8(s8, 0, p + 36);
    vstore4(bitselect(x4, y4, as_double4(m4)), 0, p + 44);
    vstore4(select(x4, y4, m4), 0, p + 48);
    vstore2(shuffle(x2, as_ulong2(m4.s12)), 0, p + 52);
    double16 w = vload16(0, a + 16 * (i % 4));
    p[54] = w.s0 + w.sf;
    vstore3(vload3(0, a + i) * 2.0, 0, p + 55);
}
