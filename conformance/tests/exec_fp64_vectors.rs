//! Doubles in 4- and 8-lane bodies (jit/src/lower/simd, `Shape::Pair`):
//! four work-items' doubles as two `f64x2` vectors. Each kernel of
//! `kernels/cl/fp64_simd.cl` runs at -O0 and -O2, built as clift chooses,
//! with 4-lane bodies alone and with 8-lane bodies wherever they can be
//! made, over local sizes that reach 8-lane, 4-lane and one-work-item
//! chunks; the harness compares every output with the scalar build bit
//! for bit, and the tests here with host references (NaNs compared as
//! NaNs: their payloads are the scalar build's, which the harness checks).
//! tests/exec_fp64_simd.rs checks that the kernels get the vector forms.

use std::cmp::Ordering::{Equal, Greater, Less};

use clift_conformance::exec::{self, Arg, Kernel, Opt};

const GLOBAL: usize = exec::LANE_GLOBAL;
const LOCALS: [Option<usize>; 6] = exec::LANE_LOCALS;

/// Kernel `name` of fp64_simd at `opt`, built the three ways of
/// [`exec::lane_builds`].
fn builds<'a>(opt: Opt, name: &str) -> [Kernel<'a>; 3] {
    exec::lane_builds("fp64_simd", opt, name)
}

/// Doubles that reach every special case: signed zeros, infinities, NaNs
/// (with payloads and signs), subnormals, halfway cases of `rint` and of
/// rounding to float, the largest values.
fn specials() -> Vec<f64> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.5,
        2.5,
        3.5,
        -2.5,
        0.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::from_bits(0x7ff8_0000_0000_0123),
        f64::from_bits(0xfff8_0000_0000_4567),
        5e-324,
        -1e-310,
        1e308,
        f64::MAX,
        0.1,
        1.0 / 3.0,
        123_456.789,
        -7.25,
        // 1 + 2^-24 (halfway between two floats) and just above it.
        1.0 + f64::powi(2.0, -24),
        1.0 + f64::powi(2.0, -24) + f64::powi(2.0, -40),
        3.4028235677973366e38,
        1.401298464324817e-45,
    ]
}

/// `GLOBAL` doubles: the specials, then values of both signs.
fn doubles(seed: u64) -> Vec<f64> {
    let s = specials();
    (0..GLOBAL)
        .map(|i| {
            let j = (i as u64).wrapping_mul(seed) as usize;
            if i % 3 == 0 {
                s[j % s.len()]
            } else {
                ((i as f64) * 0.731 + seed as f64).sin() * 10f64.powi((j % 9) as i32 - 3)
            }
        })
        .collect()
}

/// C99's fmax as clift computes it: a NaN operand gives the other
/// operand (both NaN: the first), +0 is above -0.
fn fmax<T: num_like::Float>(x: T, y: T) -> T {
    if x.nan() {
        y
    } else if y.nan() {
        x
    } else if x == y {
        if x.negative() {
            y
        } else {
            x
        }
    } else if x > y {
        x
    } else {
        y
    }
}

/// C99's fmin as clift computes it: a NaN operand gives the other
/// operand (both NaN: the first), -0 is below +0.
fn fmin<T: num_like::Float>(x: T, y: T) -> T {
    if x.nan() {
        y
    } else if y.nan() {
        x
    } else if x == y {
        if x.negative() {
            x
        } else {
            y
        }
    } else if x < y {
        x
    } else {
        y
    }
}

/// The float and double operations `fmax` and `fmin` need.
mod num_like {
    pub trait Float: Copy + PartialOrd {
        fn nan(self) -> bool;
        /// The sign bit.
        fn negative(self) -> bool;
    }
    impl Float for f32 {
        fn nan(self) -> bool {
            self.is_nan()
        }
        fn negative(self) -> bool {
            self.is_sign_negative()
        }
    }
    impl Float for f64 {
        fn nan(self) -> bool {
            self.is_nan()
        }
        fn negative(self) -> bool {
            self.is_sign_negative()
        }
    }
}

/// OpenCL's hypot as clift computes it: +inf where either is infinite,
/// else `libm`'s.
fn hypot(x: f64, y: f64) -> f64 {
    if x.is_infinite() || y.is_infinite() {
        f64::INFINITY
    } else {
        libm::hypot(x, y)
    }
}

/// OpenCL's acosh as clift computes it: NaN below 1, else `libm`'s.
fn acosh(x: f64) -> f64 {
    if x < 1.0 {
        f64::NAN
    } else {
        libm::acosh(x)
    }
}

fn same(got: f64, want: f64) -> bool {
    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
}

#[test]
fn arithmetic_and_selects() {
    let (a, b) = (doubles(7), doubles(11));
    let want: Vec<Vec<f64>> = (0..GLOBAL)
        .map(|i| {
            let (x, y) = (a[i], b[i]);
            vec![
                x + y,
                x - y,
                x * y,
                x / y,
                x.mul_add(y, x),
                y.mul_add(y, x),
                x.abs().sqrt(),
                x.floor(),
                y.ceil(),
                x.trunc(),
                y.round_ties_even(),
                -x,
                if x < y { x } else { y * 2.0 },
                y.abs() * 0.5,
                fmax(x, y),
                fmin(x, y),
                fmin(fmax(x, -2.0), 3.0),
                fmin(fmax(y, -x.abs()), x.abs()),
                f64::from(fmax(x as f32, y as f32)),
                f64::from(fmin(x as f32, y as f32)),
                f64::from(fmin(fmax(x as f32, -1.0), y as f32)),
                libm::exp(x),
                libm::log(y),
                libm::exp(y * 0.01) + libm::log(x.abs()),
                libm::log2(y.abs()),
                libm::log10(x),
                libm::sin(x),
                libm::cos(y * 100.0),
                libm::pow(x.abs(), y * 0.01),
                libm::pow(y, 3.0),
                libm::tan(y),
                libm::erf(x),
                libm::atan(x),
                libm::asin(x * 0.01),
                libm::acos(y * 0.1),
                libm::expm1(x * 0.1),
                libm::tanh(y * 0.05),
                libm::expm1(y) - libm::tanh(x),
                libm::sinh(x * 0.1),
                libm::cosh(y * 0.02) + libm::sinh(y),
                libm::log1p(x),
                libm::atan2(x, y),
                libm::atan2(y * 1e-20, x) + libm::atan2(-x, 1.0),
                libm::asinh(x),
                acosh(y.abs() + 0.5),
                libm::atanh(y * 0.001),
                libm::erfc(x) + libm::erfc(y * 0.25),
                libm::erfc(x * 0.001 + 27.0),
                libm::cbrt(x) + libm::cbrt(y.trunc() * y.trunc() * y.trunc()),
                hypot(x, y) + hypot(x * 2f64.powi(600), y * 2f64.powi(-500)),
            ]
        })
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "arith") {
                let mut o = vec![0.0f64; 50 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut o))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for (i, w) in want.iter().enumerate() {
                    for (k, &w) in w.iter().enumerate() {
                        let g = o[k * GLOBAL + i];
                        assert!(
                            same(g, w),
                            "{opt:?} local {l:?}: result {k} of {i} ({} {}): {g:e} want {w:e}",
                            a[i],
                            b[i]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn comparisons() {
    let a = doubles(5);
    // Equal pairs too: b repeats a where i % 4 == 1.
    let b: Vec<f64> = doubles(13)
        .into_iter()
        .enumerate()
        .map(|(i, v)| if i % 4 == 1 { a[i] } else { v })
        .collect();
    let want: Vec<i32> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| {
            let t = [
                x == y,
                x != y,
                x < y,
                x <= y,
                x > y,
                x >= y,
                matches!(x.partial_cmp(&y), Some(Less | Greater)),
                !x.is_nan() && !y.is_nan(),
                x.is_nan() || y.is_nan(),
                x.partial_cmp(&y) != Some(Less),
                !matches!(x.partial_cmp(&y), Some(Greater | Equal)),
                !(x == y),
                x.is_nan(),
                y.is_infinite(),
                x.is_finite(),
                y.is_normal(),
                (x as f32).is_nan(),
                (y as f32).is_infinite(),
                (x as f32).is_finite(),
                (y as f32).is_normal(),
                (x as f32).is_nan() || (y as f32).is_nan(),
                matches!((x as f32).partial_cmp(&(y as f32)), Some(Less | Greater)),
            ];
            t.iter().enumerate().map(|(k, &b)| (b as i32) << k).sum()
        })
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "compare") {
                let mut m = vec![-1i32; GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut m))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    assert_eq!(m[i], want[i], "{opt:?} local {l:?}: {i} ({} {})", a[i], b[i]);
                }
            }
        }
    }
}

#[test]
fn conversions() {
    let floats = [
        0.0f32,
        -0.0,
        1.5,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(0xffc0_1234),
        1e-45,
        -3.0e38,
        0.1,
        -5.5,
        2_147_483_648.0,
        3.0e9,
        -0.999,
        4_294_967_040.0,
        -2_147_483_904.0,
    ];
    let ints = [0i32, -1, i32::MIN, i32::MAX, 12345, -98765, 1 << 30];
    let uints = [0u32, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0x8000_0001, 4_000_000_000];
    let f: Vec<f32> = (0..GLOBAL).map(|i| floats[i % floats.len()]).collect();
    let s: Vec<i32> = (0..GLOBAL).map(|i| ints[(i * 3) % ints.len()]).collect();
    let u: Vec<u32> = (0..GLOBAL).map(|i| uints[(i * 5) % uints.len()]).collect();
    let d = doubles(3);
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "convert") {
                let mut o = vec![0.0f64; 4 * GLOBAL];
                let mut of = vec![0.0f32; 2 * GLOBAL];
                let mut oi = vec![0i32; 5 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&f))
                    .arg(Arg::input(&s))
                    .arg(Arg::input(&u))
                    .arg(Arg::input(&d))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::output(&mut of))
                    .arg(Arg::output(&mut oi))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let want = [
                        f64::from(f[i]),
                        f64::from(s[i]),
                        f64::from(u[i]),
                        f64::from(f[i]) * f64::from(s[i]),
                    ];
                    for (k, &w) in want.iter().enumerate() {
                        let g = o[k * GLOBAL + i];
                        assert!(same(g, w), "{opt:?} local {l:?}: double {k} of {i}: {g:e} want {w:e}");
                    }
                    let want = [d[i] as f32, (d[i] * 3.0) as f32 + f[i]];
                    for (k, &w) in want.iter().enumerate() {
                        let g = of[k * GLOBAL + i];
                        let ok = g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
                        assert!(
                            ok,
                            "{opt:?} local {l:?}: float {k} of {i} ({:e}): {g:e} want {w:e}",
                            d[i]
                        );
                    }
                    // Rust's `as` saturates and takes NaN to 0, as clift.
                    let want = [
                        f[i] as i32,
                        f[i] as u32 as i32,
                        (f[i] * 1e9) as i32,
                        d[i] as i32,
                        (d[i] * 1e10) as i32,
                    ];
                    for (k, &w) in want.iter().enumerate() {
                        let g = oi[k * GLOBAL + i];
                        assert_eq!(g, w, "{opt:?} local {l:?}: int {k} of {i} ({:e})", f[i]);
                    }
                }
            }
        }
    }
}

#[test]
fn under_masks_and_gathered() {
    let a: Vec<f64> = (0..2 * GLOBAL + 2)
        .map(|j| {
            if j % 5 == 0 {
                -(j as f64) * 0.3
            } else {
                (j as f64 * 0.41).sin() * 9.0
            }
        })
        .collect();
    let idx: Vec<i32> = (0..GLOBAL).map(|i| ((i * 37) % (2 * GLOBAL)) as i32).collect();
    for lim in [3i32, 60, 1000] {
        let want: Vec<(f64, f64)> = (0..GLOBAL)
            .map(|i| {
                let x = a[2 * i + 1];
                let y = if x > 0.0 {
                    x.sqrt() + a[idx[i] as usize]
                } else {
                    -x * 2.0
                };
                let (mut t, mut k) = (y, 0);
                while t < f64::from(lim) && k < 40 + (i % 3) as i32 {
                    t = t * 1.5 + 0.25;
                    if t > 100.0 {
                        t -= x;
                    }
                    k += 1;
                }
                (t, f64::from(k) + y)
            })
            .collect();
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "masked") {
                    let mut o = vec![0.0f64; 3 * GLOBAL];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&idx))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::value(lim))
                        .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                    for (i, &(t, ky)) in want.iter().enumerate() {
                        assert!(
                            same(o[i], t),
                            "lim {lim} {opt:?} local {l:?}: t of {i}: {} want {t}",
                            o[i]
                        );
                        let g = o[GLOBAL + i];
                        assert!(
                            same(g, ky),
                            "lim {lim} {opt:?} local {l:?}: k + y of {i}: {g} want {ky}"
                        );
                        let (g, w) = (o[2 * GLOBAL + i], a[i] * 2.0);
                        assert!(
                            same(g, w),
                            "lim {lim} {opt:?} local {l:?}: a[(int)i] * 2 of {i}: {g} want {w}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn exp_alone() {
    let a = doubles(19);
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "exp_alone") {
                let mut o = vec![0.0f64; GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::output(&mut o))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for (i, (&x, &g)) in a.iter().zip(&o).enumerate() {
                    let w = libm::exp(x);
                    assert!(same(g, w), "{opt:?} local {l:?}: exp({x:e}) of {i}: {g:e} want {w:e}");
                }
            }
        }
    }
}

#[test]
fn math_under_masks() {
    let a = doubles(17);
    let want: Vec<(f64, f64)> = (0..GLOBAL)
        .map(|i| {
            let x = a[i];
            let y = if x > 0.5 {
                libm::log(x) + libm::pow(x, 0.75)
            } else {
                libm::exp(x * 0.125) - libm::sin(x)
            };
            let mut t = 0.0;
            for _ in 0..i % 7 {
                t += libm::atan(t + x) * libm::cos(y);
            }
            (y, t)
        })
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "math_masked") {
                let mut o = vec![0.0f64; 2 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::output(&mut o))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for (i, &(y, t)) in want.iter().enumerate() {
                    assert!(
                        same(o[i], y),
                        "{opt:?} local {l:?}: y of {i} ({}): {} want {y}",
                        a[i],
                        o[i]
                    );
                    let g = o[GLOBAL + i];
                    assert!(same(g, t), "{opt:?} local {l:?}: t of {i} ({}): {g} want {t}", a[i]);
                }
            }
        }
    }
}

#[test]
fn kept_across_barriers() {
    let global = 128usize;
    let a: Vec<f64> = (0..global).map(|i| (i as f64 * 0.77).cos() * 1e3 + 0.125).collect();
    // Powers of two: 8-lane chunks (32, 16, 8), 4-lane (4), one at a time.
    for n in [32usize, 16, 8, 4, 2, 1] {
        let mut want = vec![0.0f64; global];
        for g0 in (0..global).step_by(n) {
            let v0: Vec<f64> = (0..n).map(|l| a[g0 + l] * 2.0).collect();
            let mut tmp = v0.clone();
            let v: Vec<f64> = (0..n)
                .map(|l| if l & 1 == 1 { -v0[l] + tmp[(l + 1) % n] } else { v0[l] })
                .collect();
            let mut s = n / 2;
            while s > 0 {
                for l in 0..s {
                    tmp[l] += tmp[l + s];
                }
                s /= 2;
            }
            for l in 0..n {
                want[g0 + l] = v[l] * (v0[l] + 1.0) + tmp[0];
            }
        }
        for opt in Opt::BOTH {
            for kernel in builds(opt, "kept") {
                let mut o = vec![0.0f64; global];
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::Local(8 * n))
                    .run(&[global], Some(&[n]));
                for i in 0..global {
                    assert!(same(o[i], want[i]), "local {n} {opt:?}: {i}: {} want {}", o[i], want[i]);
                }
            }
        }
    }
}

/// A NaN's bits quieted, as x86 returns a NaN operand.
fn quiet(bits: u64) -> u64 {
    bits | 0x0008_0000_0000_0000
}

#[test]
fn negated_operands_of_fma_and_multiplies() {
    const SIGN: u64 = 1 << 63;
    // Finite, non-zero (no 0 * inf to make a NaN of its own).
    let a: Vec<f64> = (0..GLOBAL)
        .map(|i| [1.5, -2.25, 1e300, -5e-324, 7.0][i % 5] * (1.0 + i as f64))
        .collect();
    let b: Vec<f64> = doubles(17);
    let f: Vec<f32> = a
        .iter()
        .map(|&x| x as f32)
        .map(|x| if x.is_finite() { x } else { 3.0 })
        .collect();
    for p in [0i32, 5] {
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "negations") {
                    let mut o = vec![0u64; 7 * GLOBAL];
                    let mut of = vec![0u32; 4 * GLOBAL];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&b))
                        .arg(Arg::input(&f))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::output(&mut of))
                        .arg(Arg::value(p))
                        .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                    for i in 0..GLOBAL {
                        let (x, y) = (a[i], b[i]);
                        let ub = o[6 * GLOBAL + i];
                        let u = f64::from_bits(ub);
                        assert_eq!(u.is_nan(), p > 0, "p {p}: sqrt(-p) is {u}");
                        // The negated NaN, quieted: the only NaN operand.
                        let nu = quiet(ub ^ SIGN);
                        let want = if p > 0 {
                            [nu, nu, (-x).mul_add(3.0, 1.0).to_bits(), nu, nu]
                        } else {
                            [
                                (-u).mul_add(x, 1.0).to_bits(),
                                x.mul_add(2.0, -u).to_bits(),
                                (-x).mul_add(3.0, 1.0).to_bits(),
                                ((-x) * (-u)).to_bits(),
                                (-x).mul_add(x, -u).to_bits(),
                            ]
                        };
                        for (k, &w) in want.iter().enumerate() {
                            let mut g = o[k * GLOBAL + i];
                            // clang -O2 folds (-x) * (-u) to x * u: the
                            // NaN's sign is the module's either way (the
                            // harness compares the bodies' bits).
                            if k == 3 && p > 0 {
                                g |= SIGN;
                                g ^= SIGN & !w;
                            }
                            assert_eq!(
                                g, w,
                                "p {p} {opt:?} local {l:?}: double {k} of {i} ({x:e}): {g:#x} want {w:#x}"
                            );
                        }
                        let w5 = if y.is_nan() {
                            quiet(y.to_bits() ^ SIGN)
                        } else {
                            (-y).mul_add(3.0, 1.0).to_bits()
                        };
                        assert_eq!(
                            o[5 * GLOBAL + i],
                            w5,
                            "p {p} {opt:?} local {l:?}: fma(-y) of {i} ({y:e})"
                        );
                        let fub = of[3 * GLOBAL + i];
                        let (fu, fx) = (f32::from_bits(fub), f[i]);
                        let fnu = (fub ^ 0x8000_0000) | 0x0040_0000;
                        let want = if p > 0 {
                            [fnu, (-fx).mul_add(2.0, 1.0).to_bits(), fnu]
                        } else {
                            [
                                (-fu).mul_add(fx, 1.0).to_bits(),
                                (-fx).mul_add(2.0, 1.0).to_bits(),
                                ((-fx) * (-fu)).to_bits(),
                            ]
                        };
                        for (k, &w) in want.iter().enumerate() {
                            let mut g = of[k * GLOBAL + i];
                            if k == 2 && p > 0 {
                                g |= 0x8000_0000;
                                g ^= 0x8000_0000 & !w;
                            }
                            assert_eq!(
                                g, w,
                                "p {p} {opt:?} local {l:?}: float {k} of {i} ({fx:e}): {g:#x} want {w:#x}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn negations_in_a_body_of_scalars_per_lane() {
    const SIGN: u64 = 1 << 63;
    let input: Vec<u64> = (0..=GLOBAL)
        .map(|i| match i % 4 {
            0 => 0xfff8_0000_0000_0000,
            1 => 0x7ff4_0000_0000_0123 ^ i as u64,
            2 => (1.5 + i as f64).to_bits(),
            _ => (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
        })
        .collect();
    for rounds in [1i32, 6] {
        let want: Vec<u64> = (0..GLOBAL)
            .flat_map(|g| {
                let (mut h, mut d) = (input[g], f64::from_bits(input[g + 1]));
                for _ in 0..rounds {
                    d = if d.is_nan() {
                        f64::from_bits(quiet(d.to_bits() ^ SIGN))
                    } else {
                        (-d).mul_add(1.25, 1.0)
                    };
                    h = ((u128::from(h) * u128::from(h)) >> 64) as u64 + 1;
                }
                [h, d.to_bits()]
            })
            .collect();
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "negations_in_lanes") {
                    let mut o = vec![0u64; 2 * GLOBAL];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::input(&input))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::value(rounds))
                        .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                    assert_eq!(o, want, "rounds {rounds} {opt:?} local {l:?}");
                }
            }
        }
    }
}
