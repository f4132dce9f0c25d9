//! OpenCL.std on half through the ICD loader: `kernels/cl/fp16_math.cl`
//! calls every math, common and float relational function that OpenCL C
//! has for half (no half_ or native_ forms: those are float only) on half
//! and half4 at -O0 and -O2, over special values (±0, ±1, ±inf, NaN,
//! HALF_MAX, HALF_MIN, denormals, halves, integers) and random halves; the
//! `geometry` kernel covers cross, dot, length, distance, normalize,
//! shuffle, shuffle2, bitselect, select and vloadn/vstoren on half
//! vectors. References are Rust's f64 functions and the C library's
//! (glibc), evaluated on the half inputs, never clift's. Correctly rounded
//! functions (0 ulp in the spec) must match the reference rounded to half
//! exactly; the others must lie within the half ULP bound of the OpenCL
//! SPIR-V environment (the f64 reference's own error is far below a half
//! ulp). clift computes each half function as the float function on the
//! widened operands, rounded once to half (see jit/src/lower/half.rs). The
//! lists, references and checks are the float and double tests'
//! (`clift_conformance::math`, over `clift_conformance::half::Half`).

use clift_conformance::half::Half;
use clift_conformance::math::{check_every_function, check_geometry};

#[test]
fn math_every_function_on_half_and_half4() {
    check_every_function::<Half>("fp16_math", &[1, 4]);
}

#[test]
fn geometry_shuffles_and_vector_memory_on_half() {
    let masks: Vec<i64> = (0..256i16)
        .map(|i| i64::from(i.wrapping_mul(0x1235_i16).rotate_left(i as u32 % 16)))
        .collect();
    check_geometry::<Half>("fp16_math", 100.0, &masks);
}
