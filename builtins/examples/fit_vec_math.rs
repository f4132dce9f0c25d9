//! Regenerates the polynomial coefficients of `src/vec_math.rs`: the
//! interpolating polynomial of a function at Chebyshev nodes, computed in
//! MPFR (320 bits) and printed as `f64` monomial coefficients (lowest power
//! first) with the largest error of the `f64` polynomial on 4,001 points.
//!
//! ```text
//! cargo run --release -p clift-builtins --example fit_vec_math -- exp 7
//! cargo run --release -p clift-builtins --example fit_vec_math -- log 11
//! cargo run --release -p clift-builtins --example fit_vec_math -- erf0 7
//! cargo run --release -p clift-builtins --example fit_vec_math -- erf1 7   # erf2, erf3 likewise
//! ```
//!
//! - `exp n`: exp(t) on [-0.35, 0.35] (relative error).
//! - `log n`: log(1 + f) / f on [sqrt(1/2) - 1, sqrt(2) - 1], the
//!   polynomial that `log` multiplies by f = m - 1 (relative error).
//! - `erf0 n`: erf(sqrt(u)) / sqrt(u) with u = t + ERF_B^2 / 2 for t in
//!   [-ERF_B^2 / 2, ERF_B^2 / 2] (and a little beyond), that is x P(x^2)
//!   on |x| <= ERF_B (relative error).
//! - `erfI n` (I = 1, 2, 3): erf(t + ERF_C) on the interval
//!   [ERF_B + (I - 1) ERF_W, ERF_B + I ERF_W] of |x|, shifted by ERF_C
//!   (relative error).

use rug::float::Constant;
use rug::Float;

/// erf's first interval is |x| <= ERF_B (`vec_math::ERF_B`).
const ERF_B: f64 = 1.25;
/// The width of erf's other three intervals, [ERF_B, 4) split in three
/// (`vec_math::ERF_W`).
const ERF_W: f64 = (4.0 - ERF_B) / 3.0;
/// The common centre of erf's intervals 1 to 3 (`vec_math::ERF_C`).
const ERF_C: f64 = (4.0 + ERF_B) / 2.0;

/// MPFR precision of every computation, in bits.
const PREC: u32 = 320;

/// A function of the fit, its interval of the error scan, and whether the
/// error is relative.
type Target = (Box<dyn Fn(&Float) -> Float>, f64, f64, bool);

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
    let usage = "usage: fit_vec_math exp|log|erf0|erf1|erf2|erf3 <degree>";
    let (Some(what), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<usize>().ok())) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (f, lo, hi, relative): Target = match what.as_str() {
        "exp" => (
            Box::new(|t: &Float| Float::with_val(PREC, t.exp_ref())),
            -0.35,
            0.35,
            true,
        ),
        "log" => (
            Box::new(|f: &Float| {
                if f.is_zero() {
                    return big(1.0);
                }
                let l = Float::with_val(PREC, f.ln_1p_ref());
                l / f.clone()
            }),
            core::f64::consts::FRAC_1_SQRT_2 - 1.0,
            core::f64::consts::SQRT_2 - 1.0,
            true,
        ),
        "erf0" => {
            // x P(x^2) on |x| <= ERF_B (plus a margin for the rounding of
            // the interval choice), in t = x^2 - ERF_B^2 / 2.
            let half = ERF_B * ERF_B / 2.0;
            (
                Box::new(move |t: &Float| {
                    let u = Float::with_val(PREC, t + half);
                    let s = Float::with_val(PREC, u.sqrt_ref());
                    Float::with_val(PREC, s.erf_ref()) / s
                }),
                -half * 0.9999999,
                (ERF_B + 1e-3) * (ERF_B + 1e-3) - half,
                true,
            )
        }
        other => match other.strip_prefix("erf").and_then(|i| i.parse::<u8>().ok()) {
            Some(i @ 1..=3) => {
                let lo = ERF_B + f64::from(i - 1) * ERF_W - ERF_C;
                (
                    Box::new(|t: &Float| Float::with_val(PREC, Float::with_val(PREC, t + ERF_C).erf_ref())),
                    lo - 1e-9,
                    lo + ERF_W + 1e-9,
                    true,
                )
            }
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        },
    };
    // The fit itself runs on the closed interval the function is defined
    // on; the error scan may stay just inside it (log and erf0 divide by
    // zero at an end point).
    let (fit_lo, fit_hi) = match what.as_str() {
        "erf0" => (-ERF_B * ERF_B / 2.0, hi),
        _ => (lo, hi),
    };
    let c = fit(&*f, fit_lo, fit_hi, n);
    println!("{c:?}");
    println!(
        "max {} error {:e}",
        if relative { "relative" } else { "absolute" },
        max_error(&c, &*f, lo, hi, relative)
    );
}
