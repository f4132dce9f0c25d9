// OpenCL.std math, common and float relational built-ins on double and
// double4 (cl_khr_fp64; math_body.h, shared with builtins_math.cl and
// fp16_math.cl: no half_ or native_ forms, which are float only in OpenCL
// C), and the geometric functions, shuffles and vector memory on double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "math_body.h"

MATH(double, int, ulong, convert_long)
MATH(double4, int4, ulong4, convert_long4)
GEOMETRY(double, long)
