//! Doubles in 4-lane bodies (jit/src/lower/simd): the vectorizer's SIMD
//! shapes are 32-bit, so double values are four scalars and their
//! instructions run lane by lane. `simd_mostly_float` of
//! `kernels/cl/fp64_memory.cl` (its results are checked in
//! tests/exec_fp64_memory.rs) must still get a 4-lane body at -O0 and
//! -O2, with its float work in f32x4 and its double work on f64 scalars;
//! `CLIFT_DUMP` shows which body was made.
//!
//! The variable is set before the first OpenCL call, so this file is its
//! own test process with a single test (as tests/debug_dump.rs).

use clift_conformance::dump::Dumps;
use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

#[test]
fn double_work_runs_lane_by_lane_inside_four_lane_bodies() {
    let mut dumps = Dumps::new("clift-fp64-simd");
    let ctx = context();
    for level in [Opt::O0, Opt::O2] {
        let (p, dir) = dumps.build(ctx, &exec::corpus_spirv("fp64_memory", level), &format!("{level:?}"));
        let why = std::fs::read_to_string(dir.join("simd_mostly_float.scalar.txt")).ok();
        assert_eq!(why, None, "{level:?}: simd_mostly_float kept scalar");
        let clif = std::fs::read_to_string(dir.join("simd_mostly_float.opt.clif")).expect("the optimized IR");
        assert!(clif.contains("f32x4"), "{level:?}: float work in 4 lanes:\n{clif}");
        assert!(clif.contains("f64"), "{level:?}: double work on f64 scalars:\n{clif}");
        assert!(!clif.contains("f64x2"), "{level:?}: no double SIMD shapes:\n{clif}");
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
    }
    // SAFETY: a valid context, released once.
    unsafe { check(clReleaseContext(ctx)) };
}
