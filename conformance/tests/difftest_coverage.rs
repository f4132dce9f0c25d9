//! How much of clift's 4-lane code the differential tests reach: the
//! campaigns (`difftest.rs`, the `difftest` binary) compare each generated
//! program's 4-lane bodies against its scalar bodies, which checks the
//! vector paths only for kernels that get a 4-lane body. This builds the
//! programs of the CI seed range, with barriers and without
//! (`clift_clgen::uses_barriers`), at -O0 and -O2 with
//! the options of the campaigns' SIMD modes, with `CLIFT_DUMP` set, and
//! counts the kernels that got one (no `<kernel>.scalar.txt` in the dump)
//! and those of them that got an 8-lane body (no `<kernel>.narrow.txt`
//! either), and those whose vector body holds doubles as `f64x2` vectors
//! and 64-bit integers as `i64x2` ones (`Shape::Pair`: a value loaded as
//! two vectors, put together from its lanes, or a block parameter), and
//! 8- or 16-bit integers as `i8x16` or `i16x8` ones (a block parameter:
//! the value held across branches or loops). It fails when fewer than
//! three in four get a vector body, when either kind of kernel (with
//! barriers or without) gets none or no 8-lane body, or when no vector
//! body holds doubles, 64-bit or narrow integers in vectors, so
//! a change to the
//! generator or to the vectorizer that quietly takes the campaigns away
//! from the vector paths is seen.
//!
//! `CLIFT_DUMP` is set before the first OpenCL call, so this file is its
//! own test process with a single test.

use std::ffi::CString;
use std::ptr;

use clift_conformance::dump::Dumps;
use clift_conformance::*;

/// The seeds of `difftest.rs`'s CI range.
const SEEDS: u64 = 40;

#[test]
fn most_generated_kernels_get_four_lane_bodies() {
    let mut dumps = Dumps::new("clift-difftest-coverage");
    let ctx = context();
    let mut report = Vec::new();
    let (mut built, mut vector) = (0usize, 0usize);
    // Per kind (without barriers, with them): builds with a 4-lane body,
    // and with an 8-lane one.
    let (mut by_kind, mut wide) = ([0usize; 2], [0usize; 2]);
    let (mut doubles, mut longs, mut narrow) = (0usize, 0usize, 0usize);
    for seed in 0..SEEDS {
        let barriers = clift_clgen::uses_barriers(seed);
        let unit = clift_clgen::generate(seed, false);
        let source = unit.source();
        assert_eq!(
            source.contains("barrier("),
            barriers,
            "seed {seed}: barriers as uses_barriers says"
        );
        assert_eq!(
            source.contains("__local"),
            barriers,
            "seed {seed}: local memory as uses_barriers says"
        );
        for options in [
            "-O0 -cl-clift-min-lanes=8",
            "-O2 -cl-clift-min-lanes=4 -cl-clift-wide-at-build",
        ] {
            let src = CString::new(source.as_str()).expect("source without NUL");
            let p_src = src.as_ptr();
            let mut err = 0;
            // SAFETY: one NUL-terminated string, lengths NULL (the string
            // ends at its NUL); `err` is a valid out pointer.
            let p = unsafe { clCreateProgramWithSource(ctx, 1, &p_src, ptr::null(), &mut err) };
            check(err);
            check(build(p, options));
            let dir = dumps.newest(&format!("seed {seed} {options}"));
            let why = std::fs::read_to_string(dir.join(format!("{}.scalar.txt", unit.name)));
            built += 1;
            match why {
                Ok(why) => report.push(format!("seed {seed} {options}: scalar: {}", why.trim())),
                Err(_) => {
                    vector += 1;
                    by_kind[usize::from(barriers)] += 1;
                    let clif = std::fs::read_to_string(dir.join(format!("{}.opt.clif", unit.name)))
                        .expect("the optimized IR of a vector body");
                    if clif.contains("load.f64x2") || clif.contains("scalar_to_vector.f64x2") {
                        doubles += 1;
                    }
                    if clif.contains("load.i64x2") || clif.contains(": i64x2") {
                        longs += 1;
                    }
                    if clif.contains(": i8x16") || clif.contains(": i16x8") {
                        narrow += 1;
                    }
                    match std::fs::read_to_string(dir.join(format!("{}.narrow.txt", unit.name))) {
                        Ok(why) => report.push(format!("seed {seed} {options}: 4 lanes: {}", why.trim())),
                        Err(_) => wide[usize::from(barriers)] += 1,
                    }
                }
            }
            // SAFETY: `p` is a program this test created and no longer uses.
            check(unsafe { clReleaseProgram(p) });
        }
    }
    eprintln!(
        "{vector} of {built} builds of generated kernels got a vector body ({} without barriers, {} with), {} an 8-lane one ({} without barriers, {} with), {doubles} holding doubles in f64x2 vectors, {longs} 64-bit integers in i64x2 vectors, {narrow} 8- or 16-bit integers in i8x16 or i16x8 vectors",
        by_kind[0],
        by_kind[1],
        wide[0] + wide[1],
        wide[0],
        wide[1]
    );
    for r in &report {
        eprintln!("{r}");
    }
    assert!(
        4 * vector >= 3 * built,
        "only {vector} of {built} builds of generated kernels got a 4-lane body (reasons above)"
    );
    assert!(
        by_kind.iter().all(|&k| k > 0),
        "a kind of kernel got no 4-lane body: {by_kind:?}"
    );
    assert!(
        wide.iter().all(|&k| k > 0),
        "a kind of kernel got no 8-lane body: {wide:?}"
    );
    assert!(
        doubles > 0,
        "no vector body of a generated kernel holds doubles in f64x2 vectors"
    );
    assert!(
        longs > 0,
        "no vector body of a generated kernel holds 64-bit integers in i64x2 vectors"
    );
    assert!(
        narrow > 0,
        "no vector body of a generated kernel holds 8- or 16-bit integers in i8x16 or i16x8 vectors"
    );
    // SAFETY: the context this test created, no longer used.
    check(unsafe { clReleaseContext(ctx) });
}
