//! OpenCL.std on double through the ICD loader: `kernels/cl/fp64_math.cl`
//! calls every math, common and float relational function that OpenCL C
//! has for double (no half_ or native_ forms: those are float only) on
//! double and double4 at -O0 and -O2, over special values (±0, ±1, ±inf,
//! NaN, DBL_MAX, DBL_MIN, denormals, halves, integers) and random inputs;
//! the `geometry` kernel covers cross, dot, length, distance, normalize,
//! shuffle, shuffle2, bitselect, select and vloadn/vstoren on double
//! vectors. References are Rust's f64 functions and the C library's
//! (glibc: erf, erfc, tgamma, lgamma_r, remainder, remquo), never clift's.
//! Correctly rounded functions (0 ulp in the spec) must match exactly; the
//! others must lie within the double ULP bound of the OpenCL SPIR-V
//! environment plus one ulp for the reference's own error (glibc's and
//! Rust's functions are within about one ulp, not correctly rounded). The
//! lists, references and checks are shared with the float and half tests
//! (`clift_conformance::math`).

use clift_conformance::math::{check_every_function, check_geometry};

#[test]
fn math_every_function_on_double_and_double4() {
    check_every_function::<f64>("fp64_math", &[1, 4]);
}

#[test]
fn geometry_shuffles_and_vector_memory_on_double() {
    let masks: Vec<i64> = (0..256i64)
        .map(|i| i.wrapping_mul(0x1234_5678_9abc_def1_i64).rotate_left(i as u32 % 64))
        .collect();
    check_geometry::<f64>("fp64_math", 1e20, &masks);
}
