// OpenCL.std math, common and float relational built-ins on half and
// half4 (cl_khr_fp16; math_body.h, shared with builtins_math.cl and
// fp64_math.cl: no half_ or native_ forms, which are float only in OpenCL
// C), and the geometric functions, shuffles and vector memory on half.
// k converts to short (its low 16 bits) for select and nan.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#include "math_body.h"

MATH(half, int, ushort, convert_short)
MATH(half4, int4, ushort4, convert_short4)
GEOMETRY(half, short)
