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
        // Conversions: floats around half's limits and denormals, integers
        // past half's range, halves back to float.
        let f: Vec<f32> = (0..N)
            .map(|i| match i % 8 {
                0 => f32::from_bits(0x3380_0000 + (i as u32) * 0x1_0000), // near 2^-24
                1 => 65504.0 + (i as f32) * 0.5,
                2 => -(i as f32) * 1.001e-3,
                3 => f32::NAN,
                4 => f32::INFINITY,
                5 => -0.0,
                6 => f32::from_bits(0x3880_0000 - i as u32), // below 2^-14
                _ => (i as f32) * 3.3,
            })
            .collect();
        let ni: Vec<i32> = (0..N)
            .map(|i| (i as i32 - 50) * 1337 + if i % 5 == 0 { 1 << 24 } else { 0 })
            .collect();
        let nu: Vec<u32> = (0..N)
            .map(|i| (i as u32) * 2049 + if i % 7 == 0 { 0xf000_0000 } else { 0 })
            .collect();
        let mut o = vec![0xffffu16; 3 * LEN];
        let mut w = vec![-1f32; N];
        Kernel::new("fp16_core", opt, "simd_convert")
            .arg(Arg::input(&f))
            .arg(Arg::input(&ni))
            .arg(Arg::input(&nu))
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut w))
            .arg(Arg::value(LEN as i32))
            .run(&[N], Some(&[N]));
        let h = |v: f64| to_half(v, Rounding::Rte);
        for i in 0..LEN {
            let want = [h(f64::from(f[i])), h(f64::from(ni[i])), h(f64::from(nu[i]))];
            for (k, w) in want.iter().enumerate() {
                let got = o[k * LEN + i];
                assert!(
                    same_half(got, *w),
                    "{opt:?} conversion {k} of [{i}]: {got:#x} want {w:#x}"
                );
            }
            let back = from_half(a[i]) * 2.0;
            assert!(
                w[i] as f64 == back || (w[i].is_nan() && back.is_nan()),
                "{opt:?} (float)h[{i}] * 2: {} want {back}",
                w[i]
            );
        }
        assert!(w[LEN..].iter().all(|&x| x == -1.0), "{opt:?}: past the end");
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
    let convert_scalar = dumped(&dir, "simd_convert.scalar.txt");
    let convert = dumped(&dir, "simd_convert.opt.clif");
    let _ = std::fs::remove_dir_all(&dir);
    // One program per level. The arithmetic kernels get 4-lane bodies
    // whose half loads move four halves at once, at -O0 too: clang -O0
    // keeps every local in a private variable, which the build turns into
    // values (jit/src/promote.rs), so the indices are consecutive across
    // the lanes as at -O2. The conversions get 4-lane bodies at both
    // levels.
    assert_eq!(clif.len(), 2, "both levels dumped");
    assert!(scalar.is_empty(), "simd_arith gets 4-lane bodies: {scalar:?}");
    assert!(mad_scalar.is_empty(), "simd gets 4-lane bodies: {mad_scalar:?}");
    let vector = |c: &String| c.contains("uload16x4") && c.contains("unarrow");
    assert!(
        convert_scalar.is_empty(),
        "simd_convert gets 4-lane bodies: {convert_scalar:?}"
    );
    assert!(
        convert
            .iter()
            .any(|c| c.contains("fcvt_from_sint.f32x4") && c.contains("fcvt_from_uint.f32x4")),
        "simd_convert: vector conversions at -O2"
    );
    assert_eq!(
        clif.iter().filter(|c| vector(c)).count(),
        2,
        "simd_arith: vector half code at both levels"
    );
    assert_eq!(
        mad_clif.iter().filter(|c| c.contains("uload16x4")).count(),
        2,
        "simd: four halves at once at both levels"
    );
}
