//! 8- and 16-bit integers and small vectors per work-item in 4- and
//! 8-lane bodies (jit/src/lower/simd: `Shape::V` of `i8x16` and `i16x8`,
//! `interleave`): the arithmetic, comparisons, selects, min/max,
//! conversions and contiguous accesses of chars and shorts have vector
//! forms, and `uchar4`, `short2`, `float4` ... values are loaded, stored
//! and bit cast as blocks of the four lanes' values. `CLIFT_DUMP` shows
//! the code made: the kernels of `kernels/cl/simd_narrow.cl` without
//! gathers (whose results tests/exec_simd_narrow.rs checks) and of
//! `kernels/cl/simd_blocks.cl` (tests/exec_simd_blocks.rs) must get
//! 8-lane bodies at -O0 and -O2 whose values are in vectors, none put
//! together from bytes or words lane by lane or taken apart into them
//! (a gather or scatter moves each lane's whole value: `gathered`, and
//! `builtins`' vloadn and vstoren at 2i + 1; `lookups` reads its byte
//! and short indices lane by lane, `load.i8`, and puts the 32-bit table
//! entries together).
//!
//! The variable is set before the first OpenCL call, so this file is its
//! own test process with a single test (as tests/debug_dump.rs).

use clift_conformance::dump::{self, Dumps};
use clift_conformance::exec::{self, Opt};
use clift_conformance::*;

#[test]
fn narrow_integers_and_small_vectors_run_in_vectors() {
    let mut dumps = Dumps::new("clift-simd-narrow");
    let ctx = context();
    for level in Opt::BOTH {
        for (module, kernels) in [
            (
                "simd_narrow",
                &[
                    ("arith8", "i8x16"),
                    ("arith16", "i16x8"),
                    ("compare", "i8x16"),
                    ("convert", "i8x16"),
                    ("lookups", "load.i8"),
                ][..],
            ),
            (
                "simd_blocks",
                &[
                    ("side_by_side", "shuffle"),
                    ("gathered", "shuffle"),
                    ("casts", "shuffle"),
                    ("casts_wide", "shuffle"),
                    ("builtins", "shuffle"),
                ][..],
            ),
        ] {
            let (p, dir) = dumps.build_with(
                ctx,
                &exec::corpus_spirv(module, level),
                exec::WIDE_AT_BUILD,
                &format!("{module} {level:?}"),
            );
            for &(k, vector) in kernels {
                let clif = dump::eight_lane_ir(&dir, k, &format!("{level:?}: {module}"));
                assert!(
                    clif.contains(vector),
                    "{level:?}: {module} {k}'s values in vectors ({vector}):\n{clif}"
                );
                if !matches!(k, "gathered" | "builtins" | "lookups") {
                    assert!(
                        !clif.contains("insertlane"),
                        "{level:?}: {module} {k} builds vectors lane by lane:\n{clif}"
                    );
                }
                // A contiguous store of four narrow lanes is the vector's
                // low 32 or 64 bits (pextrd/pextrq to memory); byte and
                // word lane moves would be lane-by-lane work.
                let asm = dump::file(&dir, &format!("{k}.asm")).expect("the machine code");
                // (`lookups`' shorts go through an `&` before they index:
                // a vector, whose lanes under a partial mask are words.)
                let moves: &[&str] = if k == "lookups" {
                    &["pextrb", "pinsrb"]
                } else {
                    &["pextrb", "pinsrb", "pextrw", "pinsrw"]
                };
                for lane_move in moves {
                    assert!(
                        !asm.contains(lane_move),
                        "{level:?}: {module} {k} moves narrow lanes one by one ({lane_move}):\n{asm}"
                    );
                }
            }
            // SAFETY: a valid program, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
    }
    // SAFETY: a valid context, released once.
    unsafe { check(clReleaseContext(ctx)) };
}
