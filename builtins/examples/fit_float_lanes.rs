//! Regenerates the polynomial coefficients of `src/float_lanes.rs` and
//! `src/double_lanes.rs`: the interpolating polynomial of a function at
//! Chebyshev nodes, computed in MPFR (320 bits), its monomial coefficients
//! (lowest power first) rounded to `f32` (to `f64` for erf's targets,
//! which `float_lanes` evaluates in `f64`, and the `...64` targets of
//! `double_lanes`), and the largest error of that rounded polynomial on
//! 4,001 points.
//!
//! ```text
//! cargo run --release -p clift-builtins --example fit_float_lanes -- expq 5
//! cargo run --release -p clift-builtins --example fit_float_lanes -- logr 8
//! cargo run --release -p clift-builtins --example fit_float_lanes -- erfq 9
//! cargo run --release -p clift-builtins --example fit_float_lanes -- erfc1 9  # erfc2, erfc3 likewise
//! cargo run --release -p clift-builtins --example fit_float_lanes -- log64 11
//! cargo run --release -p clift-builtins --example fit_float_lanes -- exp64 7
//! ```
//!
//! - `expq n`: (e^r - 1 - r) / r^2 on [-0.35, 0.35] (relative error).
//! - `logr n`: (log(1 + f) - f + f^2 / 2) / f^3 on [sqrt(1/2) - 1,
//!   sqrt(2) - 1] (relative error).
//! - `erfq n`: erf(x) / x - 1 on |x| <= ERF_BOUNDS[0] (and a little
//!   beyond) in t = x^2 - ERF_BOUNDS[0]^2 / 2 (absolute error, which is
//!   relative to erf(x) / x >= 0.84).
//! - `erfcI n` (I = 1, 2, 3): erfc on erf's interval I, (ERF_BOUNDS[I - 1],
//!   ERF_BOUNDS[I]], in t = |x| minus the interval's middle (absolute
//!   error: erf = 1 - erfc is near 1).
//! - `log64 n`: log(1 + f) / f on [sqrt(1/2) - 1, sqrt(2) - 1], the
//!   polynomial `double_lanes` multiplies by f = m - 1 (relative error).
//! - `exp64 n`: exp(r) on [-0.35, 0.35] (relative error).

use rug::float::Constant;
use rug::Float;

/// The bounds of erf's intervals (`float_lanes::ERF_B0` ... `ERF_END`);
/// beyond the last, erf is 1.
const ERF_BOUNDS: [f64; 4] = [1.0, 1.75, 2.625, 3.9375];

/// A function of the fit, its interval, and whether the error is
/// relative.
type Target = (Box<dyn Fn(&Float) -> Float>, f64, f64, bool);

/// MPFR precision of every computation, in bits.
const PREC: u32 = 320;

fn big(x: f64) -> Float {
    Float::with_val(PREC, x)
}

/// The polynomial of degree `n` interpolating `f` at the n + 1 Chebyshev
/// nodes of [lo, hi]: solves the Vandermonde system by Gaussian elimination
/// with partial pivoting in MPFR.
fn fit(f: &dyn Fn(&Float) -> Float, lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let m = n + 1;
    let pi = Float::with_val(PREC, Constant::Pi);
    let mid = Float::with_val(PREC, (big(lo) + big(hi)) / 2u32);
    let half = Float::with_val(PREC, (big(hi) - big(lo)) / 2u32);
    let mut rows: Vec<Vec<Float>> = (0..m)
        .map(|j| {
            let angle = Float::with_val(PREC, &pi * (2 * j + 1) as u32) / (2 * m) as u32;
            let t = Float::with_val(PREC, &mid + Float::with_val(PREC, &half * angle.cos()));
            let mut row = Vec::with_capacity(m + 1);
            let mut power = big(1.0);
            for _ in 0..m {
                row.push(power.clone());
                power *= &t;
            }
            row.push(f(&t));
            row
        })
        .collect();
    for col in 0..m {
        let pivot = (col..m)
            .max_by(|&a, &b| rows[a][col].clone().abs().total_cmp(&rows[b][col].clone().abs()))
            .unwrap_or(col);
        rows.swap(col, pivot);
        for r in 0..m {
            if r == col {
                continue;
            }
            let factor = Float::with_val(PREC, &rows[r][col] / &rows[col][col]);
            let pivot_row = rows[col].clone();
            for (x, p) in rows[r].iter_mut().zip(&pivot_row).skip(col) {
                *x -= Float::with_val(PREC, p * &factor);
            }
        }
    }
    (0..m)
        .map(|k| Float::with_val(PREC, &rows[k][m] / &rows[k][k]).to_f64())
        .collect()
}

/// The polynomial in `f64` by Horner's rule with fused multiply-adds.
fn horner(c: &[f64], t: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc.mul_add(t, k))
}

/// The largest error of `c` against `f` on 4,001 evenly spaced points of
/// [lo, hi], relative or absolute.
fn max_error(c: &[f64], f: &dyn Fn(&Float) -> Float, lo: f64, hi: f64, relative: bool) -> f64 {
    (0..=4000)
        .map(|i| {
            let t = lo + (hi - lo) * f64::from(i) / 4000.0;
            let exact = f(&big(t));
            let d = Float::with_val(PREC, big(horner(c, t)) - &exact);
            let d = if relative { d / exact } else { d };
            d.to_f64().abs()
        })
        .fold(0.0, f64::max)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: fit_float_lanes expq|logr|erfq|erfc1|erfc2|erfc3|log64|exp64 <degree>";
    let (Some(what), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<usize>().ok())) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (f, lo, hi, relative): Target = match what.as_str() {
        "log64" => (
            Box::new(|f: &Float| {
                if f.is_zero() {
                    return big(1.0);
                }
                Float::with_val(PREC, f.ln_1p_ref()) / f.clone()
            }),
            core::f64::consts::FRAC_1_SQRT_2 - 1.0,
            core::f64::consts::SQRT_2 - 1.0,
            true,
        ),
        "exp64" => (
            Box::new(|r: &Float| Float::with_val(PREC, r.exp_ref())),
            -0.35,
            0.35,
            true,
        ),
        "expq" => (
            Box::new(|r: &Float| {
                if r.is_zero() {
                    return big(0.5);
                }
                let e = Float::with_val(PREC, r.exp_m1_ref()) - r.clone();
                e / Float::with_val(PREC, r.square_ref())
            }),
            -0.35,
            0.35,
            true,
        ),
        "logr" => (
            Box::new(|f: &Float| {
                if f.is_zero() {
                    return Float::with_val(PREC, 1u32) / 3u32;
                }
                let f2 = Float::with_val(PREC, f.square_ref());
                let l = Float::with_val(PREC, f.ln_1p_ref()) - f.clone() + Float::with_val(PREC, &f2 / 2u32);
                l / Float::with_val(PREC, &f2 * f)
            }),
            core::f64::consts::FRAC_1_SQRT_2 - 1.0,
            core::f64::consts::SQRT_2 - 1.0,
            true,
        ),
        "erfq" => {
            let b = ERF_BOUNDS[0];
            let half = b * b / 2.0;
            (
                Box::new(move |t: &Float| {
                    let u = Float::with_val(PREC, t + half);
                    if u.is_zero() {
                        let pi = Float::with_val(PREC, Constant::Pi);
                        return Float::with_val(PREC, 2u32 / pi.sqrt()) - 1u32;
                    }
                    let s = Float::with_val(PREC, u.sqrt_ref());
                    Float::with_val(PREC, s.erf_ref()) / s - 1u32
                }),
                -half,
                (b + 1e-3) * (b + 1e-3) - half,
                false,
            )
        }
        other => match other.strip_prefix("erfc").and_then(|i| i.parse::<usize>().ok()) {
            Some(i @ 1..=3) => {
                let (a, b) = (ERF_BOUNDS[i - 1], ERF_BOUNDS[i]);
                // Centred on the interval's middle as `float_lanes` holds
                // it (rounded to `f32`).
                let centre = f64::from(((a + b) / 2.0) as f32);
                (
                    Box::new(move |t: &Float| Float::with_val(PREC, Float::with_val(PREC, t + centre).erfc_ref())),
                    a - centre - 1e-6,
                    b - centre + 1e-6,
                    false,
                )
            }
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        },
    };
    let c = fit(&*f, lo, hi, n);
    let c: Vec<f64> = if what.ends_with("64") || what.starts_with("erf") {
        println!("{c:?}");
        c
    } else {
        let c32: Vec<f32> = c.iter().map(|&k| k as f32).collect();
        println!("{c32:?}");
        c32.iter().map(|&k| f64::from(k)).collect()
    };
    println!(
        "max {} error {:e}",
        if relative { "relative" } else { "absolute" },
        max_error(&c, &*f, lo, hi, relative)
    );
}
