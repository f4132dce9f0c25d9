//! Every form of store a 4-lane body (jit/src/lower/simd) can meet, at
//! -O0 and -O2 (`kernels/cl/simd_stores.cl`): the half stores
//! (`vstore_half`, its rounding modes, `vstore_halfN`, `vstorea_halfN`),
//! `vstoreN` after `vloadN`, half16 copies, a `char4` reinterpreted as
//! `uchar3` then `vstore3`, built-ins writing through a pointer argument
//! (`sincos`, `fract`, `frexp`), stores of 3-component vectors and through
//! reinterpreted pointers.
//!
//! Each launch runs with 4-lane bodies and with scalar bodies only and
//! compares them bit for bit (`clift_conformance::exec`); each test also
//! checks the results against the host's. Issue 12 items 1 and 11 (half
//! stores and `vstore3` after `as_uchar3` wrote nothing in 4-lane bodies)
//! are the `*_as_found` tests. `tests/exec_simd_coverage.rs` checks that
//! these kernels get 4-lane bodies; the last test here checks that the
//! comparison really runs a 4-lane body against a scalar one.

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt, SCALAR_ONLY};
use clift_conformance::half::{same_half, to_half, Rounding};

/// Work-group sizes: chosen by clift, and explicit ones that leave a
/// remainder in each row or are a whole number of chunks.
const LOCALS: [Option<usize>; 3] = [None, Some(64), Some(7)];

/// Runs `k` over `n` work-items with local size `local` (if it divides `n`).
fn run(k: Kernel, n: usize, local: Option<usize>) {
    let l = local.filter(|l| n.is_multiple_of(*l)).map(|l| [l]);
    k.run(&[n], l.as_ref().map(|l| &l[..]));
}

/// Float inputs spanning halves' range: normal, subnormal, overflowing,
/// ties, signed zeros and NaN.
fn floats(n: usize) -> Vec<f32> {
    let special = [
        0.0,
        -0.0,
        1.0,
        -2.5,
        65504.0,
        65520.0,
        1e6,
        6e-8,
        3e-5,
        f32::NAN,
        f32::INFINITY,
    ];
    (0..n)
        .map(|i| {
            if i < special.len() {
                special[i]
            } else {
                let h = (i as u32).wrapping_mul(2_654_435_761);
                f32::from_bits(0x3000_0000 + (h >> 4) % 0x1800_0000) * if h & 1 == 1 { -1.0 } else { 1.0 }
            }
        })
        .collect()
}

#[test]
fn half_round_trip_as_found() {
    for (n, kernel) in [
        (64usize, "half_roundtrip"),
        (1 << 16, "half_roundtrip"),
        (1000, "half_roundtrip_mixed"),
        (1 << 16, "half_roundtrip_mixed"),
    ] {
        let input: Vec<u16> = (0..n).map(|i| i as u16).collect();
        for opt in Opt::BOTH {
            for local in LOCALS {
                // Every half (2^16 of them) with clift's local size only.
                if n > 4096 && local.is_some() {
                    continue;
                }
                let mut out = vec![0xdead_u16; n];
                let mut k = Kernel::new("simd_stores", opt, kernel)
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out));
                if kernel.ends_with("mixed") {
                    k = k.arg(Arg::value(0u32));
                }
                run(k, n, local);
                for i in 0..n {
                    assert!(
                        same_half(out[i], input[i]),
                        "{kernel} {opt:?} n={n} {local:?}: [{i}] {:#06x} -> {:#06x}",
                        input[i],
                        out[i]
                    );
                }
            }
        }
    }
}

#[test]
fn half_from_float_as_found() {
    for (n, kernel) in [
        (64usize, "half_from_float"),
        (1 << 20, "half_from_float"),
        (1000, "half_from_float_mixed"),
        (1 << 20, "half_from_float_mixed"),
    ] {
        let input = floats(n);
        for opt in Opt::BOTH {
            for local in LOCALS {
                // The largest only at -O2 with clift's local size.
                if n > 1 << 16 && (opt == Opt::O0 || local.is_some()) {
                    continue;
                }
                let mut out = vec![0xdead_u16; n];
                let mut kern = Kernel::new("simd_stores", opt, kernel)
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out));
                if kernel.ends_with("mixed") {
                    kern = kern.arg(Arg::value(0u32));
                }
                run(kern, n, local);
                for i in 0..n {
                    let x = input[i];
                    let want = to_half(x as f64, Rounding::Rte);
                    assert!(
                        same_half(out[i], want),
                        "{kernel} {opt:?} n={n} {local:?}: [{i}] {x:e} -> {:#06x}, want {want:#06x}",
                        out[i]
                    );
                }
            }
        }
    }
}

#[test]
fn half_stores_in_every_rounding_mode() {
    let n = 203;
    let input = floats(n);
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut outs = [
                vec![0xdead_u16; n],
                vec![0xdead_u16; n],
                vec![0xdead_u16; n],
                vec![0xdead_u16; n],
            ];
            let [a, b, c, d] = &mut outs;
            let k = Kernel::new("simd_stores", opt, "half_rounding")
                .arg(Arg::input(&input))
                .arg(Arg::output(a))
                .arg(Arg::output(b))
                .arg(Arg::output(c))
                .arg(Arg::output(d))
                .arg(Arg::value(0u32));
            run(k, n, local);
            let modes = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];
            for (out, mode) in outs.iter().zip(modes) {
                for i in 0..n {
                    let x = input[i] * (1.0 + 1.0 / 1024.0);
                    let want = to_half(x as f64, mode);
                    assert!(
                        same_half(out[i], want),
                        "{opt:?} {local:?} {mode:?}: [{i}] {x:e} -> {:#06x}, want {want:#06x}",
                        out[i]
                    );
                }
            }
        }
    }
}

#[test]
fn half_vector_stores_aligned_and_not() {
    let n = 203;
    let f = floats(4 * n);
    let input: Vec<[f32; 4]> = (0..n)
        .map(|i| [f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]])
        .collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let (mut h4, mut h3) = (vec![0xdead_u16; 4 * n], vec![0xdead_u16; 3 * n]);
            let (mut a4, mut a3) = (vec![0xdead_u16; 4 * n], vec![0xdead_u16; 4 * n]);
            let k = Kernel::new("simd_stores", opt, "half_vectors")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut h4))
                .arg(Arg::output(&mut h3))
                .arg(Arg::output(&mut a4))
                .arg(Arg::output(&mut a3))
                .arg(Arg::value(0u32));
            run(k, n, local);
            for i in 0..n {
                for c in 0..4 {
                    let want = to_half((input[i][c] * 2.0) as f64, Rounding::Rte);
                    let what = format!("{opt:?} {local:?}: [{i}].{c}");
                    assert!(
                        same_half(h4[4 * i + c], want),
                        "vstore_half4 {what}: {:#06x}",
                        h4[4 * i + c]
                    );
                    assert!(
                        same_half(a4[4 * i + c], want),
                        "vstorea_half4 {what}: {:#06x}",
                        a4[4 * i + c]
                    );
                    if c < 3 {
                        assert!(
                            same_half(h3[3 * i + c], want),
                            "vstore_half3 {what}: {:#06x}",
                            h3[3 * i + c]
                        );
                        assert!(
                            same_half(a3[4 * i + c], want),
                            "vstorea_half3 {what}: {:#06x}",
                            a3[4 * i + c]
                        );
                    } else {
                        assert_eq!(
                            a3[4 * i + 3],
                            0xdead,
                            "vstorea_half3 {what}: the fourth half is not written"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn half16_copies_keep_every_bit() {
    let n = 203;
    let input: Vec<[u16; 16]> = (0..n)
        .map(|i| std::array::from_fn(|c| ((i * 16 + c) as u16).wrapping_mul(40503)))
        .collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![[0u16; 16]; n];
            let k = Kernel::new("simd_stores", opt, "half16_copy")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out));
            run(k, n, local);
            assert!(out == input, "{opt:?} {local:?}: half16 copies differ");
        }
    }
}

#[test]
fn vstore3_after_as_uchar3_as_found() {
    let n = 16384;
    let src: Vec<[u8; 4]> = (0..n)
        .map(|i| std::array::from_fn(|c| (i * 4 + c).wrapping_mul(151) as u8))
        .collect();
    for kernel in ["astype_vstore3", "astype_vstore3_mixed"] {
        for opt in Opt::BOTH {
            for local in [Some(4096), None, Some(7)] {
                let mut dst = vec![0xa5u8; 3 * n];
                let mut k = Kernel::new("simd_stores", opt, kernel)
                    .arg(Arg::input(&src))
                    .arg(Arg::output(&mut dst));
                if kernel.ends_with("mixed") {
                    k = k.arg(Arg::value(0u32));
                }
                run(k, n, local);
                for i in 0..n {
                    assert_eq!(
                        &dst[3 * i..3 * i + 3],
                        &src[i][..3],
                        "{kernel} {opt:?} {local:?}: [{i}]"
                    );
                }
            }
        }
    }
}

#[test]
fn vload_and_vstore_of_every_width() {
    let n = 203;
    let input: Vec<i32> = (0..16 * n as i32 + 16).map(|x| x.wrapping_mul(-7919)).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut o2 = vec![-1i32; 2 * n];
            let mut o3 = vec![-1i32; 3 * n];
            let mut o4 = vec![-1i32; 4 * n];
            let mut o8 = vec![-1i32; 8 * n];
            let mut o16 = vec![-1i32; 16 * n];
            let mut f3 = vec![-1f32; 3 * n];
            let k = Kernel::new("simd_stores", opt, "vload_vstore")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut o2))
                .arg(Arg::output(&mut o3))
                .arg(Arg::output(&mut o4))
                .arg(Arg::output(&mut o8))
                .arg(Arg::output(&mut o16))
                .arg(Arg::output(&mut f3))
                .arg(Arg::value(0u32));
            run(k, n, local);
            for i in 0..n {
                let what = format!("{opt:?} {local:?}: work-item {i}");
                for c in 0..2 {
                    assert_eq!(o2[2 * i + c], input[2 * i + c].wrapping_add(1), "vstore2 {what}");
                }
                for c in 0..3 {
                    assert_eq!(o3[3 * i + c], input[3 * i + c].wrapping_mul(3), "vstore3 {what}");
                    assert_eq!(f3[3 * i + c], input[3 * i + c] as f32 * 0.5, "vstore3 float {what}");
                }
                for c in 0..4 {
                    assert_eq!(o4[4 * i + c], input[4 * i + c].wrapping_sub(4), "vstore4 {what}");
                }
                for c in 0..8 {
                    assert_eq!(o8[8 * i + c], input[8 * i + c] ^ 8, "vstore8 {what}");
                }
                for c in 0..16 {
                    assert_eq!(
                        o16[16 * i + c],
                        input[16 * i + c].wrapping_add(i as i32),
                        "vstore16 {what}"
                    );
                }
            }
        }
    }
}

#[test]
fn built_ins_storing_through_pointers() {
    let n = 203;
    let input: Vec<f32> = (0..n).map(|i| (i as f32 - 100.0) * 0.37).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let [mut s, mut c, mut fr, mut ip, mut m] = std::array::from_fn(|_| vec![f32::NAN; n]);
            let mut ex = vec![i32::MIN; n];
            let k = Kernel::new("simd_stores", opt, "pointer_results")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut s))
                .arg(Arg::output(&mut c))
                .arg(Arg::output(&mut fr))
                .arg(Arg::output(&mut ip))
                .arg(Arg::output(&mut ex))
                .arg(Arg::output(&mut m))
                .arg(Arg::value(0u32));
            run(k, n, local);
            for i in 0..n {
                let x = input[i] * 3.5;
                let what = format!("{opt:?} {local:?}: [{i}] x = {x:e}");
                // sin and cos within 4 ulp (the full profile's bound).
                let close = |got: f32, want: f64| (got as f64 - want).abs() <= 4.0 * f32::EPSILON as f64;
                assert!(close(s[i], (x as f64).sin()), "sincos sine {what}: {}", s[i]);
                assert!(close(c[i], (x as f64).cos()), "sincos cosine {what}: {}", c[i]);
                assert_eq!(ip[i], x.floor(), "fract's integral part {what}");
                assert!(close(fr[i], x as f64 - x.floor() as f64), "fract {what}: {}", fr[i]);
                assert_eq!(
                    m[i] as f64 * 2f64.powi(ex[i]),
                    x as f64,
                    "frexp {what}: {} {}",
                    m[i],
                    ex[i]
                );
                assert!(
                    m[i] == 0.0 || (0.5..1.0).contains(&m[i].abs()),
                    "frexp {what}: {}",
                    m[i]
                );
            }
        }
    }
}

#[test]
fn three_component_and_reinterpreted_stores() {
    let n = 203;
    let input: Vec<i32> = (0..n as i32).map(|x| x.wrapping_mul(-104_729)).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut v3 = vec![[-1i32; 4]; n];
            let mut f3 = vec![[-1f32; 4]; n];
            let mut bits = vec![0u32; n];
            let mut c4 = vec![[0u8; 4]; n];
            let k = Kernel::new("simd_stores", opt, "odd_and_reinterpreted")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut v3))
                .arg(Arg::output(&mut f3))
                .arg(Arg::output(&mut bits))
                .arg(Arg::output(&mut c4))
                .arg(Arg::value(0u32));
            run(k, n, local);
            for i in 0..n {
                let x = input[i];
                let what = format!("{opt:?} {local:?}: [{i}]");
                assert_eq!(&v3[i][..3], &[x, x + 1, x.wrapping_mul(2)], "int3 {what}");
                assert_eq!(&f3[i][..3], &[x as f32, 0.5, -(x as f32)], "float3 {what}");
                let want = u32::from_le_bytes(x.to_le_bytes().map(|b| b.wrapping_add(1)));
                assert_eq!(bits[i], want, "as_uint(as_char4(x) + 1) {what}");
                assert_eq!(c4[i], x.wrapping_mul(7).to_le_bytes(), "int through char4 * {what}");
            }
        }
    }
}

/// The comparison of execution modes runs a 4-lane body against a scalar
/// one: `alignment.cl`'s `private_int` records the address of a private
/// array, which is the same for neighbouring work-items in the scalar body
/// (they run one after the other in one frame) and differs in a 4-lane
/// body (each lane has its own copy); so the build as made shows
/// different addresses, the scalar-only build the same, and a launch
/// without the opt-out fails, naming the kernel.
#[test]
fn the_comparison_runs_a_four_lane_body_against_a_scalar_one() {
    const REC: usize = 256;
    let opt = Opt::O2;
    let il = corpus_spirv("alignment", opt);
    // The first record word of work-items 0 and 1.
    let launch = |k: Kernel| {
        let mut out = vec![0u32; 8 * REC];
        k.arg(Arg::output(&mut out))
            .arg(Arg::value(REC as u32))
            .run(&[8], Some(&[8]));
        (out[0], out[REC])
    };
    let built = Kernel::with_il(&il, "private_int", "").unwrap_or_else(|log| panic!("{log}"));
    let why = "the kernel records a private variable's address";
    let (a, b) = launch(built.sibling("private_int").modes_may_differ(why));
    assert_ne!(a, b, "as built, work-items 0 and 1 have their own copies (4 lanes)");
    let scalar = Kernel::with_il(&il, "private_int", SCALAR_ONLY).unwrap_or_else(|log| panic!("{log}"));
    let (a, b) = launch(scalar.modes_may_differ(why));
    assert_eq!(a, b, "with {SCALAR_ONLY}, work-items 0 and 1 run one after the other");
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| launch(built.sibling("private_int"))))
        .expect_err("the modes differ");
    let msg = failed.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        msg.contains("\"private_int\"") && msg.contains("differs between execution modes"),
        "{msg}"
    );
}
