//! Corpus kernels whose execution tests are meant to cover 4-lane bodies
//! (jit/src/lower/simd) get one at -O0 and -O2; `CLIFT_DUMP` shows which
//! body was made (a `<kernel>.scalar.txt` says why a kernel kept the scalar
//! body alone). Their results are checked elsewhere, with 4-lane bodies and
//! with `-cl-clift-max-lanes=1`:
//! - `alignment.cl`'s private-variable kernels (tests/exec_alignment.rs):
//!   their variables' per-lane copies;
//! - `workitem_dims.cl`'s `ids_past_last_simd` (tests/exec_workitem.rs):
//!   work-item functions with dimension indices past the last;
//! - `simd_stores.cl`'s kernels that mix their values
//!   (tests/exec_simd_stores.rs): every form of store (the vstore and
//!   half-store built-ins, built-ins writing through pointers, 3-component
//!   vectors, reinterpretations) in a 4-lane body.
//!
//! The variable is set before the first OpenCL call, so this file is its
//! own test process with a single test (as tests/debug_dump.rs).

use clift_conformance::dump::Dumps;
use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

#[test]
fn kernels_covering_four_lane_bodies_get_one() {
    let private: Vec<String> = [
        "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "structs",
    ]
    .iter()
    .map(|t| format!("private_{t}"))
    .collect();
    let stores: Vec<String> = [
        "half_roundtrip_mixed",
        "half_from_float_mixed",
        "half_rounding",
        "half_vectors",
        "astype_vstore3_mixed",
        "vload_vstore",
        "pointer_results",
        "odd_and_reinterpreted",
    ]
    .iter()
    .map(|k| k.to_string())
    .collect();
    let modules: [(&str, Vec<String>); 3] = [
        ("alignment", private),
        ("workitem_dims", vec!["ids_past_last_simd".to_string()]),
        ("simd_stores", stores),
    ];
    let mut dumps = Dumps::new("clift-simd-coverage");
    let ctx = context();
    for (module, kernels) in &modules {
        for level in Opt::BOTH {
            let (p, dir) = dumps.build(ctx, &exec::corpus_spirv(module, level), &format!("{module} {level:?}"));
            for kernel in kernels {
                let why = std::fs::read_to_string(dir.join(format!("{kernel}.scalar.txt"))).ok();
                let first_line = why.as_deref().map(|w| w.lines().next().unwrap_or_default());
                assert_eq!(
                    first_line, None,
                    "{module} {level:?}: {kernel} kept the scalar body alone"
                );
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
    }
    // SAFETY: a valid context, released once.
    unsafe { check(clReleaseContext(ctx)) };
}
