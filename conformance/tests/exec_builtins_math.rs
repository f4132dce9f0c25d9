//! OpenCL.std math, common and float relational instructions through the
//! ICD loader: `kernels/cl/builtins_math.cl` calls every f32 function
//! (the half_ and native_ forms included) on float, float2, float4 and
//! float16 at -O0 and -O2, over special values (±0, ±1, ±inf, NaN,
//! FLT_MAX, FLT_MIN, denormals, halves, integers) and random inputs, and
//! each result is checked against a double-precision host reference within
//! the full-profile ULP bound of the OpenCL SPIR-V environment (0 ulp means
//! correctly rounded: at most half an ulp). Pointer results go through
//! private, local, global and generic pointers. The lists, references and
//! checks are shared with the double test (`clift_conformance::math`).

use clift_conformance::math::check_every_function;

#[test]
fn math_every_function_every_width() {
    check_every_function::<f32>("builtins_math", &[1, 2, 4, 16]);
}
