//! Run-time helpers that JIT code calls through their addresses: the
//! OpenCL.std instruction table (`opencl_std`, which says for every
//! instruction whether the JIT emits it inline, calls one of the functions
//! here, or refuses it), the `float` and `double` math libraries
//! (`math_f32`, `math_f64`, with what they share written once in
//! `math_shared`), the `half` conversions of `vload_half`/`vstore_half`
//! (`half`), the 64-bit `mad_sat` (`integer`), the float remainder of
//! OpFRem (`frem`), the copy of OpGroupAsyncCopy (`group_copy`), the
//! non-uniform sub-group operations over a sub-group's active work-items
//! (`non_uniform`), pipes
//! as kernels use them (`pipe`: the store's layout and the lock-free
//! reservation protocol), images (`image`: formats, texel conversions,
//! and the helpers kernels read, sample and write images through), and
//! printf's formatter and output buffer (`printf`), `exp`, `log` and
//! `erf` of `float` in `float` arithmetic written once for one lane and
//! for eight SIMD lanes (`float_lanes`), `sin`, `cos`, `tan` and `pow` of
//! `float` in `double` arithmetic likewise (`double_lanes`), `libm`'s
//! `double` functions on four AVX2 lanes bit for bit (`libm_lanes`) and
//! the `float` functions computed with them (`libm_float_lanes`); and the
//! floating-point environment kernels and constant folding run in
//! (`fp_env`).
pub mod double_lanes;
pub mod float_lanes;
pub mod fp_env;
pub mod frem;
pub mod group_copy;
pub mod half;
pub mod image;
pub mod integer;
pub mod libm_float_lanes;
pub mod libm_lanes;
pub mod math_f32;
pub mod math_f64;
mod math_shared;
pub mod non_uniform;
pub mod opencl_std;
pub mod pipe;
pub mod printf;
