//! OpenCL.std geometric (cross, length, distance, normalize and the fast_
//! forms on float2/3/4), shuffle and shuffle2, prefetch, vloadn/vstoren
//! (global and private memory), and the half loads and stores (vload_half,
//! vload_halfn, vloada_halfn, vstore_half, vstore_halfn, vstorea_halfn with
//! every rounding mode) of `kernels/cl/builtins_misc.cl`, at -O0 and -O2.
//! Half conversions must be bit-exact against a reference written here
//! (exact arithmetic in f64); geometric results within a few ulps of a
//! double-precision reference.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::half::{from_half, same_half, to_half, Rounding as Mode};
use clift_conformance::math::same;
use clift_conformance::rng::Rng;

/// Float inputs for the half tests: every exponent region of half
/// (normal, denormal, underflow, overflow, ties) and random bit patterns.
fn half_inputs(len: usize) -> Vec<f32> {
    let special = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        65504.0,
        65519.0,
        65520.0,
        -65520.0,
        70000.0,
        -1e10,
        6.1e-5,
        5.96e-8,
        2.98e-8,
        2.99e-8,
        -3e-8,
        1e-10,
        1.000_488_3,
        1.000_976_6,
        1.001_464_8,
        -1.000_488_3,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        0.333_333_34,
    ];
    let mut rng = Rng(99u64);
    (0..len)
        .map(|i| {
            if i < special.len() {
                return special[i];
            }
            let s = rng.next_u64();
            let bits = (s >> 32) as u32;
            // Exponents around half's range: 2^-30 .. 2^20.
            let e = 97 + (bits >> 24) % 50;
            f32::from_bits((bits & 0x807f_ffff) | (e << 23))
        })
        .collect()
}

#[test]
fn half_loads_and_stores_every_rounding_mode() {
    let modes = [Mode::Rte, Mode::Rte, Mode::Rtz, Mode::Rtp, Mode::Rtn];
    for opt in Opt::BOTH {
        // Scalar and 4-wide: five stores each (default, rte, rtz, rtp, rtn).
        for (kernel, width) in [("half_scalar", 1usize), ("half_vec4", 4)] {
            let items = 256;
            let lanes = items * width;
            let x = half_inputs(lanes);
            let mut h = vec![0u16; 5 * lanes];
            let mut f = vec![0f32; lanes];
            Kernel::new("builtins_misc", opt, kernel)
                .arg(Arg::input(&x))
                .arg(Arg::output(&mut h))
                .arg(Arg::output(&mut f))
                .run(&[items], None);
            for p in 0..lanes {
                for (k, &mode) in modes.iter().enumerate() {
                    let want = to_half(f64::from(x[p]), mode);
                    let got = h[k * lanes + p];
                    assert!(
                        same_half(got, want),
                        "{kernel} at {opt:?}: store {k} of {:e} ({:#x}) = {got:#x}, want {want:#x}",
                        x[p],
                        x[p].to_bits()
                    );
                }
                // Loaded back from the rtz (scalar) or rtp (vector) stores.
                let src = if width == 1 { 2 } else { 3 };
                let want = from_half(h[src * lanes + p]) as f32;
                assert!(
                    same(f[p], want),
                    "{kernel} at {opt:?}: vload_half of {:#x}",
                    h[src * lanes + p]
                );
            }
        }
        // 3-wide: packed and aligned (4-slot) forms.
        let items = 128;
        let x = half_inputs(3 * items);
        let mut h = vec![0u16; 15 * items];
        let mut f = vec![0f32; 10 * items];
        Kernel::new("builtins_misc", opt, "half_vec3")
            .arg(Arg::input(&x))
            .arg(Arg::output(&mut h))
            .arg(Arg::output(&mut f))
            .run(&[items], None);
        for i in 0..items {
            for c in 0..3 {
                let v = x[3 * i + c];
                let checks = [
                    (h[3 * i + c], to_half(f64::from(v), Mode::Rtn), "vstore_half3_rtn"),
                    (
                        h[3 * items + 4 * i + c],
                        to_half(f64::from(v), Mode::Rtp),
                        "vstorea_half3_rtp",
                    ),
                    (
                        h[7 * items + 4 * i + c],
                        to_half(f64::from(v), Mode::Rtz),
                        "vstorea_half4_rtz",
                    ),
                    (
                        h[11 * items + 4 * i + c],
                        to_half(f64::from(v), Mode::Rte),
                        "vstorea_half3",
                    ),
                ];
                for (got, want, what) in checks {
                    assert!(
                        same_half(got, want),
                        "{what} at {opt:?}: {v:e} -> {got:#x}, want {want:#x}"
                    );
                }
                assert!(
                    same(f[3 * i + c], from_half(h[3 * i + c]) as f32),
                    "vload_half3 at {opt:?}"
                );
                assert!(
                    same(f[3 * items + 3 * i + c], from_half(h[3 * items + 4 * i + c]) as f32),
                    "vloada_half3 at {opt:?}"
                );
            }
            assert_eq!(h[7 * items + 4 * i + 3], 0x3c00, "vstorea_half4_rtz of 1.0 at {opt:?}");
            for c in 0..4 {
                assert!(
                    same(f[6 * items + 4 * i + c], from_half(h[7 * items + 4 * i + c]) as f32),
                    "vloada_half4 at {opt:?}"
                );
            }
        }
    }
}

#[test]
fn vloadn_vstoren_every_width() {
    for opt in Opt::BOTH {
        let items = 64;
        let src: Vec<f32> = (0..16 * items + 16).map(|k| k as f32 * 0.5 - 7.0).collect();
        let mut dst = vec![-1f32; 8192 + 16 * items];
        let mut idst = vec![0i32; 4 * items];
        Kernel::new("builtins_misc", opt, "vload_store")
            .arg(Arg::input(&src))
            .arg(Arg::output(&mut dst))
            .arg(Arg::output(&mut idst))
            .run(&[items], None);
        for i in 0..items {
            for (n, base, from) in [(2, 0, 0), (3, 1024, 1), (4, 2048, 0), (8, 4096, 0), (16, 8192, 0)] {
                for k in 0..n {
                    let (got, want) = (dst[base + n * i + k], src[from + n * i + k]);
                    assert_eq!(got, want, "vload{n}/vstore{n} at {opt:?}: item {i} component {k}");
                }
            }
            for k in 0..4 {
                assert_eq!(idst[4 * i + k], (8 * i + 4 + k) as i32, "private vload4 at {opt:?}");
            }
        }
        // vstore3 packs: nothing between or after the items' components.
        assert_eq!(dst[1023], -1.0);
        assert_eq!(dst[1024 + 3 * items], -1.0);
    }
}

#[test]
fn shuffles_and_prefetch() {
    for opt in Opt::BOTH {
        let items = 64;
        let x: Vec<i32> = (0..8 * items as i32).map(|k| k * 3 + 1).collect();
        let y: Vec<i32> = (0..8 * items as i32).map(|k| -k * 5 - 2).collect();
        // Masks with high bits set: only the low bits count.
        let m: Vec<u32> = (0..8 * items as u32).map(|k| k.wrapping_mul(2654435761) >> 3).collect();
        let mut o = vec![0i32; 4 * 8 * items];
        let mut f = vec![0f32; 4 * items];
        Kernel::new("builtins_misc", opt, "shuffles")
            .arg(Arg::input(&x))
            .arg(Arg::input(&y))
            .arg(Arg::input(&m))
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut f))
            .run(&[items], None);
        let lanes = 8 * items;
        for i in 0..items {
            let xv = &x[8 * i..8 * i + 8];
            let yv = &y[8 * i..8 * i + 8];
            let both: Vec<i32> = xv.iter().chain(yv).copied().collect();
            for k in 0..8 {
                let mk = m[8 * i + k] as usize;
                assert_eq!(o[8 * i + k], xv[mk % 8], "shuffle at {opt:?}");
                assert_eq!(o[lanes + 8 * i + k], both[mk % 16], "shuffle2 at {opt:?}");
                assert_eq!(o[2 * lanes + 8 * i + k], both[mk % 16], "shuffle2 to 16 at {opt:?}");
                let m3 = (m[8 * i + k].wrapping_add(3)) as usize;
                assert_eq!(
                    o[3 * lanes + 8 * i + k],
                    both[m3 % 16],
                    "shuffle2 to 16 (hi) at {opt:?}"
                );
            }
            for k in 0..4 {
                let mk = m[8 * i + k] as usize;
                assert_eq!(f[4 * i + k], xv[mk % 2] as f32, "shuffle of float2 at {opt:?}");
            }
        }
    }
}

fn ulps(got: f32, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let mag = want.abs();
    let ulp = if mag < f64::from(f32::MIN_POSITIVE) {
        2f64.powi(-149)
    } else {
        2f64.powi(mag.log2().floor() as i32 - 23)
    };
    (f64::from(got) - want).abs() / ulp
}

fn normalize_ref(v: &[f32]) -> Vec<f64> {
    if v.iter().all(|&x| x == 0.0) {
        return v.iter().map(|&x| f64::from(x)).collect();
    }
    let d: Vec<f64> = if v.iter().any(|x| x.is_infinite()) {
        v.iter()
            .map(|&x| {
                if x.is_infinite() {
                    1f64.copysign(f64::from(x))
                } else {
                    0.0 * f64::from(x)
                }
            })
            .collect()
    } else {
        v.iter().map(|&x| f64::from(x)).collect()
    };
    let l = d.iter().map(|x| x * x).sum::<f64>().sqrt();
    d.iter().map(|x| x / l).collect()
}

#[test]
fn geometric_functions() {
    for opt in Opt::BOTH {
        let items = 200;
        let mut rng = Rng(5u64);
        let mut rnd = || {
            let s = rng.next_u64();
            ((s >> 33) as f64 / (1u64 << 31) as f64 * 200.0 - 100.0) as f32
        };
        let mut a: Vec<f32> = (0..4 * items).map(|_| rnd()).collect();
        let b: Vec<f32> = (0..4 * items).map(|_| rnd()).collect();
        let specials: [[f32; 4]; 6] = [
            [0.0, 0.0, 0.0, 0.0],
            [-0.0, 0.0, -0.0, 0.0],
            [f32::INFINITY, 1.0, -f32::INFINITY, 2.0],
            [1e30, -3e30, 2e30, 1e30],
            [1e-40, -2e-40, 0.0, 3e-41],
            [f32::NAN, 1.0, 2.0, 3.0],
        ];
        for (r, v) in specials.iter().enumerate() {
            a[4 * r..4 * r + 4].copy_from_slice(v);
        }
        let mut o = vec![0f32; 5 * 4 * items];
        let mut sc = vec![0f32; 6 * items];
        Kernel::new("builtins_misc", opt, "geometric")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut sc))
            .run(&[items], None);
        let lanes = 4 * items;
        for i in 0..items {
            let av = &a[4 * i..4 * i + 4];
            let bv = &b[4 * i..4 * i + 4];
            let (d, e): (Vec<f64>, Vec<f64>) = (
                av.iter().map(|&x| f64::from(x)).collect(),
                bv.iter().map(|&x| f64::from(x)).collect(),
            );
            if av.iter().all(|x| x.is_finite()) {
                let cr = [
                    d[1] * e[2] - d[2] * e[1],
                    d[2] * e[0] - d[0] * e[2],
                    d[0] * e[1] - d[1] * e[0],
                    0.0,
                ];
                let big = d.iter().take(3).fold(0f64, |m, x| m.max(x.abs()))
                    * e.iter().take(3).fold(0f64, |m, x| m.max(x.abs()));
                for k in 0..4 {
                    for r in [0, 3] {
                        let got = f64::from(o[r * lanes + 4 * i + k]);
                        assert!(
                            (got - cr[k]).abs() <= big * 3.0 * f64::from(f32::EPSILON),
                            "cross at {opt:?}: {av:?} x {bv:?} [{k}] = {got}, want {}",
                            cr[k]
                        );
                    }
                }
            }
            let len = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
            let checks = [
                (sc[i], len(&d), "length"),
                (sc[2 * items + i], len(&d), "fast_length"),
                (sc[4 * items + i], len(&d[..3]), "length3"),
            ];
            for (got, want, what) in checks {
                let want = if av.iter().any(|x| x.is_infinite()) && !av.iter().any(|x| x.is_nan()) {
                    f64::INFINITY
                } else {
                    want
                };
                let ok = if want.is_infinite() {
                    got == f32::INFINITY
                } else {
                    ulps(got, want) <= 3.0
                };
                assert!(ok, "{what} at {opt:?} of {av:?} = {got:e}, want {want:e}");
            }
            let diff: Vec<f64> = d.iter().zip(&e).map(|(x, y)| x - y).collect();
            for (got, what) in [(sc[items + i], "distance"), (sc[3 * items + i], "fast_distance")] {
                let want = len(&diff);
                let ok = if want.is_infinite() {
                    got == f32::INFINITY
                } else {
                    ulps(got, want) <= 3.0
                };
                assert!(ok, "{what} at {opt:?} of {av:?}, {bv:?} = {got:e}, want {want:e}");
            }
            for (r, sub, what) in [(1, 4, "normalize"), (2, 4, "fast_normalize"), (4, 2, "normalize2")] {
                let want = normalize_ref(&av[..sub]);
                for k in 0..sub {
                    let got = o[r * lanes + 4 * i + k];
                    let ok = if want[k] == 0.0 {
                        got == 0.0
                    } else {
                        ulps(got, want[k]) <= 3.0
                    };
                    assert!(ok, "{what} at {opt:?} of {av:?}: [{k}] = {got:e}, want {:e}", want[k]);
                }
            }
            // normalize(scalar) is sign(x) for nonzero x.
            let g = o[4 * lanes + 4 * i + 2];
            let want = normalize_ref(&av[..1])[0];
            assert!(
                ulps(g, want) <= 0.5 || (want == 0.0 && g == 0.0),
                "normalize1 at {opt:?} of {}: {g}",
                av[0]
            );
        }
    }
}
