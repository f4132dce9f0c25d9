//! Half precision and the 4-lane vectorizer: kernels computing with half
//! values get 4-lane bodies at -O2 (`CLIFT_DUMP` writes no
//! `<kernel>.scalar.txt`), whose loads and stores move four halves at once
//! and whose +, -, * and / are vector code rounded to half. Their results,
//! at -O0 and -O2, are the rounded half results, and the harness checks
//! them bit for bit against the scalar body (`-cl-clift-max-lanes=1`). Its
//! own test binary, since `CLIFT_DUMP` is process-wide.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::half::{from_half, inputs, rte, same_half, to_half, Rounding};

/// The dump directory's kernel file `file` of every program built so far.
fn dumped(dir: &std::path::Path, file: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| std::fs::read_to_string(e.path().join(file)).ok())
        .collect()
}

#[test]
fn four_lane_kernels_compute_half_right() {
    // 103 work-items: 25 full chunks and a partial one.
    const N: usize = 103;
    const LEN: usize = 100;
    let (a, b) = (inputs(N, 29), inputs(N, 31));
    let dir = std::env::temp_dir().join(format!("clift-fp16-simd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::env::set_var("CLIFT_DUMP", &dir);
    for opt in Opt::BOTH {
        let mut o = vec![0xffffu16; N];
        Kernel::new("fp16_core", opt, "simd")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::value(LEN as i32))
            .run(&[N], Some(&[N]));
        for i in 0..N {
            let (x, y) = (from_half(a[i]), from_half(b[i]));
            if i >= LEN {
                assert_eq!(o[i], 0xffff, "untouched");
                continue;
            }
            let two = to_half(rte(x * y) + x, Rounding::Rte);
            let fused = to_half(x.mul_add(y, x), Rounding::Rte);
            assert!(
                same_half(o[i], two) || same_half(o[i], fused),
                "{opt:?} [{i}] {x:e} {y:e}: {:#x} want {two:#x}",
                o[i]
            );
        }
        let mut o = vec![0xffffu16; 6 * LEN + 8];
        Kernel::new("fp16_core", opt, "simd_arith")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::value(LEN as i32))
            .run(&[N], Some(&[N]));
        for i in 0..LEN {
            let (x, y) = (from_half(a[i]), from_half(b[i]));
            // Exact in f64 (the quotient rounded once there: 53 bits make
            // the second rounding harmless), then rounded to half.
            let h = |v: f64| to_half(v, Rounding::Rte);
            let (s, p) = (h(x + y), h(x * y));
            let want = [s, h(x - y), p, h(x / y), if x < y { p } else { s }, a[i] ^ 0x8000];
            for (k, w) in want.iter().enumerate() {
                let got = o[k * LEN + i];
                assert!(
                    same_half(got, *w),
                    "{opt:?} result {k} of [{i}] {x:e} {y:e}: {got:#x} want {w:#x}"
                );
            }
        }
        assert!(o[6 * LEN..].iter().all(|&h| h == 0xffff), "{opt:?}: past the end");
    }
    // The scalar twin's build (launches run both) writes the same dump
    // files: build each level once more, without launching.
    let _ = std::fs::remove_dir_all(&dir);
    for opt in Opt::BOTH {
        let _ = Kernel::new("fp16_core", opt, "simd");
    }
    let scalar = dumped(&dir, "simd_arith.scalar.txt");
    let clif = dumped(&dir, "simd_arith.opt.clif");
    let mad_clif = dumped(&dir, "simd.opt.clif");
    let mad_scalar = dumped(&dir, "simd.scalar.txt");
    let _ = std::fs::remove_dir_all(&dir);
    // One program per level. At -O2 both kernels get 4-lane bodies whose
    // half loads move four halves at once; at -O0 every local is a
    // private variable, so the indices are per lane, the accesses lane by
    // lane, and the kernels stay scalar.
    assert_eq!(clif.len(), 2, "both levels dumped");
    assert_eq!(scalar.len(), 1, "simd_arith gets a 4-lane body at -O2: {scalar:?}");
    assert_eq!(mad_scalar.len(), 1, "simd gets a 4-lane body at -O2: {mad_scalar:?}");
    let vector = |c: &String| c.contains("uload16x4") && c.contains("unarrow");
    assert_eq!(
        clif.iter().filter(|c| vector(c)).count(),
        1,
        "simd_arith: vector half code at -O2"
    );
    assert_eq!(
        mad_clif.iter().filter(|c| c.contains("uload16x4")).count(),
        1,
        "simd: four halves at once at -O2"
    );
}
