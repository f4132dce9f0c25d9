//! Host references for the half precision tests: binary16 encoding and
//! decoding written here (the `half` crate is not a dependency), rounding
//! from `f64` in each rounding mode, and half ulps.

#![allow(dead_code)]

use clift_conformance::rng::Rng;

/// The four rounding modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// The value of half encoding `h`.
pub fn widen(h: u16) -> f64 {
    let neg = h & 0x8000 != 0;
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    let v = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e - 25),
    };
    if neg {
        -v
    } else {
        v
    }
}

/// `x` rounded to half in `mode` (NaN gives 0x7e00).
pub fn narrow(x: f64, mode: Mode) -> u16 {
    if x.is_nan() {
        return 0x7e00;
    }
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    let neg = sign != 0;
    // Rounding a magnitude toward +inf means up for positives only.
    let up_dir = |exact_below: bool| match mode {
        Mode::Rte => unreachable!(),
        Mode::Rtz => false,
        Mode::Rtp => !neg && exact_below,
        Mode::Rtn => neg && exact_below,
    };
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // The quantum at a: 2^(e - 10) for e >= -14, else 2^-24.
    let e = if a == 0.0 { -30 } else { a.log2().floor() as i32 };
    // log2 may be off by one near powers of two: fix it.
    let e = if a != 0.0 && 2f64.powi(e) > a {
        e - 1
    } else if a != 0.0 && 2f64.powi(e + 1) <= a {
        e + 1
    } else {
        e
    };
    let q = 2f64.powi(e.max(-14) - 10);
    let n = a / q;
    let t = n.floor();
    let frac = n - t;
    let mut k = t;
    let up = match mode {
        Mode::Rte => frac > 0.5 || (frac == 0.5 && (t % 2.0) == 1.0),
        _ => up_dir(frac > 0.0),
    };
    if up {
        k += 1.0;
    }
    let r = k * q;
    if r > 65504.0 {
        let to_inf = match mode {
            Mode::Rte => true,
            Mode::Rtz => false,
            Mode::Rtp => !neg,
            Mode::Rtn => neg,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    // Encode r exactly.
    let bits = if r < 2f64.powi(-14) {
        (r / 2f64.powi(-24)) as u16
    } else {
        let e = r.log2().floor() as i32;
        let e = if 2f64.powi(e) > r { e - 1 } else { e };
        let m = (r / 2f64.powi(e - 10)) as u16 - 1024;
        (((e + 15) as u16) << 10) | m
    };
    sign | bits
}

/// `x` rounded to the nearest half, as an f64.
pub fn rte(x: f64) -> f64 {
    widen(narrow(x, Mode::Rte))
}

/// Whether half encodings mean the same (NaNs alike).
pub fn same(a: u16, b: u16) -> bool {
    a == b || (widen(a).is_nan() && widen(b).is_nan())
}

/// The error of half `got` in half ulps of the reference `want` (an f64);
/// a NaN wants a NaN, an infinity the same infinity.
pub fn ulps(got: u16, want: f64) -> f64 {
    let g = widen(got);
    if want.is_nan() || g.is_nan() {
        return if want.is_nan() && g.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    // A reference past the half range rounds to infinity (or 65504).
    let w = if want.abs() >= 65520.0 {
        f64::INFINITY.copysign(want)
    } else {
        want
    };
    if g.is_infinite() || w.is_infinite() {
        if g == w {
            return 0.0;
        }
        // 65504 against a reference just above it.
        if g.is_finite() && g.abs() == 65504.0 && want.abs() < 65536.0 {
            return (want - g).abs() / 32.0;
        }
        return f64::INFINITY;
    }
    let a = w.abs();
    let e = if a < 2f64.powi(-14) {
        -14
    } else {
        a.log2().floor() as i32
    };
    let ulp = 2f64.powi(e.max(-14) - 10);
    (g - w).abs() / ulp
}

/// The half encodings of `xs`, rounded to nearest.
pub fn halves(xs: &[f64]) -> Vec<u16> {
    xs.iter().map(|&x| narrow(x, Mode::Rte)).collect()
}

/// Deterministic half inputs: special values (±0, ±1, ±inf, NaN, the
/// largest and smallest normal, denormals, halves, integers), then random
/// halves (half of them in [-10, 10], the rest any finite encoding).
pub fn inputs(len: usize, seed: u64) -> Vec<u16> {
    let special: [u16; 20] = [
        0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7bff, 0xfbff, 0x0400, 0x8400, 0x0001, 0x83ff, 0x3800,
        0xc100, 0x4200, 0x5640, 0x3bff, 0x1000, 0x7000,
    ];
    let mut rng = Rng(seed);
    let mut next = move || rng.next_u64() >> 16;
    (0..len)
        .map(|i| {
            if i < special.len() {
                return special[(i + seed as usize) % special.len()];
            }
            let r = next();
            if i % 2 == 0 {
                narrow((r % 20001) as f64 / 1000.0 - 10.0, Mode::Rte)
            } else {
                let h = r as u16;
                if h & 0x7c00 == 0x7c00 {
                    h & 0xbbff
                } else {
                    h
                }
            }
        })
        .collect()
}

#[test]
fn reference_round_trips() {
    for h in 0..=u16::MAX {
        let v = widen(h);
        if v.is_nan() {
            continue;
        }
        for m in [Mode::Rte, Mode::Rtz, Mode::Rtp, Mode::Rtn] {
            assert_eq!(narrow(v, m), h, "{h:#x} {m:?}");
        }
    }
    assert_eq!(narrow(1.0 + 2f64.powi(-11), Mode::Rte), 0x3c00);
    assert_eq!(narrow(1.0 + 3.0 * 2f64.powi(-11), Mode::Rte), 0x3c02);
    assert_eq!(narrow(1.0 + 2f64.powi(-11), Mode::Rtp), 0x3c01);
    assert_eq!(narrow(-(1.0 + 2f64.powi(-11)), Mode::Rtn), 0xbc01);
    assert_eq!(narrow(65520.0, Mode::Rte), 0x7c00);
    assert_eq!(narrow(1e6, Mode::Rtz), 0x7bff);
    assert_eq!(narrow(2f64.powi(-25), Mode::Rte), 0);
    assert_eq!(narrow(3.0 * 2f64.powi(-25), Mode::Rte), 2);
}
