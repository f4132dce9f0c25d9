//! The private-variable kernels of `kernels/cl/alignment.cl` (their
//! addresses and values are checked in tests/exec_alignment.rs) get a
//! 4-lane body at -O0 and -O2, so their variables' per-lane copies are what
//! that test checks; `CLIFT_DUMP` shows which body was made (a
//! `<kernel>.scalar.txt` says why a kernel kept the scalar body alone).
//!
//! The variable is set before the first OpenCL call, so this file is its
//! own test process with a single test (as tests/debug_dump.rs).

use clift_conformance::dump::Dumps;
use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

#[test]
fn private_variable_kernels_get_four_lane_bodies() {
    let mut dumps = Dumps::new("clift-alignment-simd");
    let ctx = context();
    for level in Opt::BOTH {
        let (p, dir) = dumps.build(ctx, &exec::corpus_spirv("alignment", level), &format!("{level:?}"));
        for t in [
            "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "structs",
        ] {
            let kernel = format!("private_{t}");
            let why = std::fs::read_to_string(dir.join(format!("{kernel}.scalar.txt"))).ok();
            assert_eq!(why, None, "{level:?}: {kernel} kept the scalar body alone");
        }
        // SAFETY: a valid program, released once.
        unsafe { check(clReleaseProgram(p)) };
    }
    // SAFETY: a valid context, released once.
    unsafe { check(clReleaseContext(ctx)) };
}
