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

use std::path::{Path, PathBuf};

use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

/// The folders under `root`, sorted.
fn folders(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn double_work_runs_lane_by_lane_inside_four_lane_bodies() {
    let root = std::env::temp_dir().join(format!("clift-fp64-simd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::env::set_var("CLIFT_DUMP", &root);
    let ctx = context();
    let mut seen = Vec::new();
    for level in [Opt::O0, Opt::O2] {
        let p = il_program(ctx, &exec::corpus_spirv("fp64_memory", level));
        check(build(p, ""));
        let dirs = folders(&root);
        let new: Vec<&PathBuf> = dirs.iter().filter(|d| !seen.contains(*d)).collect();
        assert_eq!(new.len(), 1, "{level:?}: one new folder, got {dirs:?}");
        let dir = new[0].clone();
        let why = std::fs::read_to_string(dir.join("simd_mostly_float.scalar.txt")).ok();
        assert_eq!(why, None, "{level:?}: simd_mostly_float kept scalar");
        let clif = std::fs::read_to_string(dir.join("simd_mostly_float.opt.clif")).expect("the optimized IR");
        assert!(clif.contains("f32x4"), "{level:?}: float work in 4 lanes:\n{clif}");
        assert!(clif.contains("f64"), "{level:?}: double work on f64 scalars:\n{clif}");
        assert!(!clif.contains("f64x2"), "{level:?}: no double SIMD shapes:\n{clif}");
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
        seen = dirs;
    }
    // SAFETY: a valid context, released once.
    unsafe { check(clReleaseContext(ctx)) };
    let _ = std::fs::remove_dir_all(&root);
}
