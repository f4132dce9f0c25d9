//! Doubles and 64-bit integers in 4- and 8-lane bodies (jit/src/lower/simd,
//! `Shape::Pair`): four work-items' doubles are two `f64x2` vectors, their
//! `long`s two `i64x2`, and the arithmetic, comparisons,
//! classifications, selects, conversions and contiguous accesses of
//! both have vector forms. `CLIFT_DUMP` shows the code made: the kernels
//! of `kernels/cl/fp64_simd.cl` (whose results tests/exec_fp64_vectors.rs
//! checks), of `kernels/cl/simd_long.cl` (tests/exec_simd_long.rs) and
//! `simd_mostly_float` of `kernels/cl/fp64_memory.cl`
//! (tests/exec_fp64_memory.rs) must get 8-lane bodies at -O0 and -O2
//! whose 64-bit work is in 2-lane vectors, none of it taken apart lane by
//! lane; fp64_simd's `math_masked` a vector body whose math built-ins
//! take no double apart.
//!
//! The variable is set before the first OpenCL call, so this file is its
//! own test process with a single test (as tests/debug_dump.rs).

use clift_conformance::dump::{self, Dumps};
use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

#[test]
fn sixty_four_bit_work_runs_in_two_lane_vectors() {
    let mut dumps = Dumps::new("clift-fp64-simd");
    let ctx = context();
    for level in Opt::BOTH {
        for (module, kernels, vector) in [
            ("fp64_simd", &["arith", "compare", "convert"][..], "f64x2"),
            ("fp64_memory", &["simd_mostly_float"][..], "f64x2"),
            ("simd_long", &["arith", "compare"][..], "i64x2"),
        ] {
            let (p, dir) = dumps.build_with(
                ctx,
                &exec::corpus_spirv(module, level),
                exec::WIDE_AT_BUILD,
                &format!("{module} {level:?}"),
            );
            for k in kernels {
                let clif = dump::eight_lane_ir(&dir, k, &format!("{level:?}: {module}"));
                assert!(
                    clif.contains(vector),
                    "{level:?}: {module} {k}'s 64-bit values in {vector} vectors:\n{clif}"
                );
                for taken_apart in ["extractlane", "insertlane", "scalar_to_vector"] {
                    assert!(
                        !clif.contains(taken_apart),
                        "{level:?}: {module} {k} takes vectors apart ({taken_apart}):\n{clif}"
                    );
                }
            }
            // One double `exp`: the scalar tail, the 4-lane body and the
            // 8-lane body call it once each (the 8-lane body for both parts
            // at once; two calls there before its eight-lane form).
            if module == "fp64_simd" {
                let clif = dump::eight_lane_ir(&dir, "exp_alone", &format!("{level:?}: {module}"));
                let calls = clif.matches("call_indirect").count();
                assert!(calls <= 3, "{level:?}: exp_alone makes {calls} calls:\n{clif}");
            }
            // The math built-ins with four-lane forms, under masks (a
            // 4-lane body: its loop's exit differs between work-items):
            // their arguments are not taken apart lane by lane.
            if module == "fp64_simd" {
                let clif = dump::vector_ir(&dir, "math_masked", &format!("{level:?}: {module}"));
                assert!(
                    !clif.contains("extractlane"),
                    "{level:?}: {module} math_masked takes its doubles apart:\n{clif}"
                );
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
    }
    // SAFETY: a valid context, released once.
    unsafe { check(clReleaseContext(ctx)) };
}
