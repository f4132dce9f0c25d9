//! OpenCL.std on half through the ICD loader: `kernels/cl/fp16_math.cl`
//! calls every math, common and float relational function that OpenCL C
//! has for half (no half_ or native_ forms: those are float only) on half
//! and half4 at -O0 and -O2, over special values (±0, ±1, ±inf, NaN,
//! HALF_MAX, HALF_MIN, denormals, halves, integers) and random halves; the
//! `geometry` kernel covers cross, dot, length, distance, normalize,
//! shuffle, shuffle2, bitselect, select and vloadn/vstoren on half
//! vectors. References are Rust's f64 functions and the C library's
//! (glibc), evaluated on the half inputs, never clift's. Correctly rounded
//! functions (0 ulp in the spec) must match the reference rounded to half
//! exactly; the others must lie within the half ULP bound of the OpenCL
//! SPIR-V environment (the f64 reference's own error is far below a half
//! ulp). clift computes each half function as the float function on the
//! widened operands, rounded once to half (see jit/src/lower/half.rs).

mod exec_fp16_ref;

use clift_conformance::exec::{Arg, Kernel, Opt};
use exec_fp16_ref::{halves, rte, widen};

/// The one-operand functions, in the kernel's order, with their half bounds.
const F1: &[(&str, f64)] = &[
    ("acos", 2.0),
    ("acosh", 2.0),
    ("acospi", 2.0),
    ("asin", 2.0),
    ("asinh", 2.0),
    ("asinpi", 2.0),
    ("atan", 2.0),
    ("atanh", 2.0),
    ("atanpi", 2.0),
    ("cbrt", 2.0),
    ("ceil", 0.0),
    ("cos", 2.0),
    ("cosh", 2.0),
    ("cospi", 2.0),
    ("erfc", 4.0),
    ("erf", 4.0),
    ("exp", 2.0),
    ("exp2", 2.0),
    ("exp10", 2.0),
    ("expm1", 2.0),
    ("fabs", 0.0),
    ("floor", 0.0),
    ("lgamma", -1.0),
    ("log", 2.0),
    ("log2", 2.0),
    ("log10", 2.0),
    ("log1p", 2.0),
    ("logb", 0.0),
    ("rint", 0.0),
    ("round", 0.0),
    ("rsqrt", 1.0),
    ("sin", 2.0),
    ("sinh", 2.0),
    ("sinpi", 2.0),
    ("sqrt", 1.5),
    ("tan", 2.5),
    ("tanh", 2.0),
    ("tanpi", 2.0),
    ("tgamma", 4.0),
    ("trunc", 0.0),
    ("degrees", 2.0),
    ("radians", 2.0),
    ("sign", 0.0),
];

/// The two-operand functions.
const F2: &[(&str, f64)] = &[
    ("atan2", 2.0),
    ("atan2pi", 2.0),
    ("copysign", 0.0),
    ("fdim", 0.0),
    ("fmax", 0.0),
    ("fmin", 0.0),
    ("fmod", 0.0),
    ("hypot", 2.0),
    ("maxmag", 0.0),
    ("minmag", 0.0),
    ("nextafter", 0.0),
    ("pow", 4.0),
    ("powr", 4.0),
    ("remainder", 0.0),
    ("step", 0.0),
    ("max", 0.0),
    ("min", 0.0),
];

/// The three-operand functions.
const F3: &[&str] = &["fma", "mad", "mix", "smoothstep", "clamp"];

/// Results after F1, F2, F3: ldexp, pown, rootn, nan, bitselect, select,
/// then the pointer-result functions (see the kernel).
const EXTRA: usize = 6 + 5 + 3 + 4 + 2 + 2 + 2 + 2;
const OUTS: usize = F1.len() + F2.len() + F3.len() + EXTRA;

extern "C" {
    fn acosh(x: f64) -> f64;
    fn asinh(x: f64) -> f64;
    fn atanh(x: f64) -> f64;
    fn erf(x: f64) -> f64;
    fn erfc(x: f64) -> f64;
    fn tgamma(x: f64) -> f64;
    fn lgamma_r(x: f64, sign: *mut i32) -> f64;
    fn remainder(x: f64, y: f64) -> f64;
    fn remquo(x: f64, y: f64, quo: *mut i32) -> f64;
}

fn lgamma_sign(x: f64) -> (f64, i32) {
    let mut s = 0;
    // SAFETY: glibc's lgamma_r writes one int through the valid pointer.
    let v = unsafe { lgamma_r(x, &mut s) };
    (v, s)
}

fn remquo_ref(x: f64, y: f64) -> (f64, i32) {
    let mut q = 0;
    // SAFETY: glibc's remquo writes one int through the valid pointer.
    let v = unsafe { remquo(x, y, &mut q) };
    (v, q)
}

/// x - 2 * round(x / 2): exact, in [-1, 1].
fn mod2(x: f64) -> f64 {
    x - 2.0 * (x / 2.0).round()
}

/// sin(pi * x) with the argument reduced exactly to [0, 1/4], where
/// sin and cos of pi * r keep their relative accuracy.
fn sinpi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = mod2(x);
    let (neg, r) = (r.is_sign_negative(), r.abs());
    let r = if r > 0.5 { 1.0 - r } else { r };
    let pi = std::f64::consts::PI;
    let v = if r <= 0.25 {
        (pi * r).sin()
    } else {
        (pi * (0.5 - r)).cos()
    };
    if neg {
        -v
    } else {
        v
    }
}

/// cos(pi * x), reduced the same way.
fn cospi_ref(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = mod2(x).abs();
    let (neg, r) = if r > 0.5 { (true, 1.0 - r) } else { (false, r) };
    let pi = std::f64::consts::PI;
    let v = if r <= 0.25 {
        (pi * r).cos()
    } else {
        (pi * (0.5 - r)).sin()
    };
    if neg {
        -v
    } else {
        v
    }
}

fn fmax_c(x: f64, y: f64) -> f64 {
    if y.is_nan() {
        x
    } else if x.is_nan() {
        y
    } else if x > y {
        x
    } else {
        y
    }
}

fn fmin_c(x: f64, y: f64) -> f64 {
    if y.is_nan() {
        x
    } else if x.is_nan() {
        y
    } else if x < y {
        x
    } else {
        y
    }
}

fn ref1(name: &str, d: f64) -> f64 {
    let pi = std::f64::consts::PI;
    match name {
        "acos" => d.acos(),
        // SAFETY: libm's acosh, asinh, atanh are pure functions of a half
        // (Rust's overflow for huge arguments).
        "acosh" => unsafe { acosh(d) },
        "acospi" => d.acos() / pi,
        "asin" => d.asin(),
        // SAFETY: as above.
        "asinh" => unsafe { asinh(d) },
        "asinpi" => d.asin() / pi,
        "atan" => d.atan(),
        // SAFETY: as above.
        "atanh" => unsafe { atanh(d) },
        "atanpi" => d.atan() / pi,
        "cbrt" => d.cbrt(),
        "ceil" => d.ceil(),
        "cos" => d.cos(),
        "cosh" => d.cosh(),
        "cospi" => cospi_ref(d),
        // SAFETY: libm's erfc, erf, tgamma are pure functions of a half.
        "erfc" => unsafe { erfc(d) },
        // SAFETY: as above.
        "erf" => unsafe { erf(d) },
        // SAFETY: as above.
        "tgamma" => unsafe { tgamma(d) },
        "exp" => d.exp(),
        "exp2" => d.exp2(),
        "exp10" => 10f64.powf(d),
        "expm1" => d.exp_m1(),
        "fabs" => d.abs(),
        "floor" => d.floor(),
        "lgamma" => lgamma_sign(d).0,
        "log" => d.ln(),
        "log2" => d.log2(),
        "log10" => d.log10(),
        "log1p" => d.ln_1p(),
        "logb" => {
            if d == 0.0 {
                f64::NEG_INFINITY
            } else if d.is_infinite() {
                f64::INFINITY
            } else if d.is_nan() {
                d
            } else {
                f64::from(exponent(d))
            }
        }
        "rint" => d.round_ties_even(),
        "round" => d.round(),
        "rsqrt" => 1.0 / d.sqrt(),
        "sin" => d.sin(),
        "sinh" => d.sinh(),
        "sinpi" => {
            let r = mod2(d);
            if r == r.trunc() && d.is_finite() {
                // Exact zeros, with the sign of x.
                0f64.copysign(d)
            } else {
                sinpi_ref(d)
            }
        }
        "sqrt" => d.sqrt(),
        "tan" => d.tan(),
        "tanh" => d.tanh(),
        "tanpi" => {
            let r = d - d.round();
            if r.abs() == 0.5 {
                // tanpi(n + 0.5) is +inf for even n, -inf for odd n.
                let n = d - 0.5;
                if n % 2.0 == 0.0 {
                    f64::INFINITY
                } else {
                    f64::NEG_INFINITY
                }
            } else {
                sinpi_ref(d) / cospi_ref(d)
            }
        }
        "trunc" => d.trunc(),
        "degrees" => d * (180.0 / pi),
        "radians" => d * (pi / 180.0),
        "sign" => {
            if d.is_nan() {
                0.0
            } else if d == 0.0 {
                d
            } else {
                1f64.copysign(d)
            }
        }
        _ => unreachable!("{name}"),
    }
}

/// The unbiased exponent of a nonzero finite half (denormals included).
fn exponent(d: f64) -> i32 {
    let b = d.abs().to_bits();
    let e = (b >> 52) as i32;
    if e == 0 {
        // Denormal: the position of the top set bit.
        -1074 + 63 - b.leading_zeros() as i32
    } else {
        e - 1023
    }
}

fn powr_ref(x: f64, y: f64) -> f64 {
    if x < 0.0 || x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    let zero_zero = x == 0.0 && y == 0.0;
    let inf_zero = x.is_infinite() && y == 0.0;
    if zero_zero || inf_zero || (x == 1.0 && y.is_infinite()) {
        return f64::NAN;
    }
    // powr(±0, y) treats the zero as +0.
    x.abs().powf(y)
}

/// nextafter on halves: one step of the half encoding toward y.
fn next_after(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return 2f64.powi(-24).copysign(y);
    }
    let b = exec_fp16_ref::narrow(x, exec_fp16_ref::Mode::Rte);
    let up = (y > x) == (x > 0.0);
    widen(if up { b + 1 } else { b - 1 })
}

fn ref2(name: &str, a: f64, b: f64) -> Option<f64> {
    let pi = std::f64::consts::PI;
    Some(match name {
        "atan2" => a.atan2(b),
        "atan2pi" => a.atan2(b) / pi,
        "copysign" => a.copysign(b),
        "fdim" => {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else if a > b {
                a - b
            } else {
                0.0
            }
        }
        "fmax" => fmax_c(a, b),
        "fmin" => fmin_c(a, b),
        "fmod" => a % b,
        "hypot" => a.hypot(b),
        "maxmag" | "minmag" => {
            let (ax, ay) = (a.abs(), b.abs());
            let max = name == "maxmag";
            if ax > ay {
                if max {
                    a
                } else {
                    b
                }
            } else if ay > ax {
                if max {
                    b
                } else {
                    a
                }
            } else if max {
                fmax_c(a, b)
            } else {
                fmin_c(a, b)
            }
        }
        "nextafter" => next_after(a, b),
        "pow" => a.powf(b),
        "powr" => powr_ref(a, b),
        // SAFETY: libm's remainder is a pure function of two halfs.
        "remainder" => unsafe { remainder(a, b) },
        "step" => {
            if b < a {
                0.0
            } else {
                1.0
            }
        }
        // max and min are undefined with a NaN operand.
        "max" | "min" if a.is_nan() || b.is_nan() => return None,
        "max" => fmax_c(a, b),
        "min" => fmin_c(a, b),
        _ => unreachable!("{name}"),
    })
}

/// The error of half `got` (as an f64) in half ulps of the reference.
fn ulps(got: f64, want: f64) -> f64 {
    exec_fp16_ref::ulps(exec_fp16_ref::narrow(got, exec_fp16_ref::Mode::Rte), want)
}

/// Whether `got` is within `bound` half ulps of `want`: the reference
/// rounded to half exactly if the bound is 0.
fn within(got: f64, want: f64, bound: f64) -> bool {
    if bound == 0.0 {
        return same(got, want);
    }
    ulps(got, want) <= bound + 1e-9
}

/// Whether half `a` is `b` rounded to half (NaNs alike).
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == rte(b).to_bits() || (a.is_nan() && b.is_nan())
}

/// `same`, or both zeros of either sign (fract and modf, whose zero's sign
/// the spec leaves open).
fn same_or_zeros(a: f64, b: f64) -> bool {
    same(a, b) || (a == 0.0 && b == 0.0)
}

/// Deterministic half inputs (special values first), as f64s.
fn inputs(len: usize, seed: u64) -> Vec<f64> {
    exec_fp16_ref::inputs(len, seed).into_iter().map(widen).collect()
}

#[test]
fn math_every_function_on_half_and_half4() {
    let items_total = 512;
    let local = 16;
    for opt in Opt::BOTH {
        for n in [1usize, 4] {
            let items = items_total / n;
            let lanes = items * n;
            let a = inputs(lanes, 1);
            let b = inputs(lanes, 7);
            let c = inputs(lanes, 13);
            let k: Vec<i32> = (0..lanes)
                .map(|p| match p % 13 {
                    0 => 0,
                    1 => -1,
                    2 => 3,
                    3 => -4,
                    4 => 1,
                    5 => i32::MIN,
                    6 => 30,
                    7 => -40,
                    _ => (p as i32 * 7919) % 21 - 10,
                })
                .collect();
            let (ah, bh, ch) = (halves(&a), halves(&b), halves(&c));
            let mut oh = vec![0u16; OUTS * lanes];
            let mut oi = vec![0i32; 5 * lanes];
            let mut gh = vec![0u16; 2 * lanes];
            let mut gi = vec![0i32; 2 * lanes];
            let name = if n == 1 {
                "math_half".to_string()
            } else {
                format!("math_half{n}")
            };
            Kernel::new("fp16_math", opt, &name)
                .arg(Arg::input(&ah))
                .arg(Arg::input(&bh))
                .arg(Arg::input(&ch))
                .arg(Arg::input(&k))
                .arg(Arg::output(&mut oh))
                .arg(Arg::output(&mut oi))
                .arg(Arg::output(&mut gh))
                .arg(Arg::output(&mut gi))
                .arg(Arg::Local(local * n * 2))
                .arg(Arg::Local(local * n * 4))
                .run(&[items], Some(&[local]));
            let o: Vec<f64> = oh.iter().map(|&h| widen(h)).collect();
            let g: Vec<f64> = gh.iter().map(|&h| widen(h)).collect();
            let mut bad = Vec::new();
            let mut fail = |what: String| {
                if bad.len() < 20 {
                    bad.push(what)
                }
            };
            let out = |r: usize, p: usize| o[r * lanes + p];
            for p in 0..lanes {
                let (x, y, z, kk) = (a[p], b[p], c[p], k[p]);
                let mut r = 0;
                for &(f, bound) in F1 {
                    let got = out(r, p);
                    let want = ref1(f, x);
                    let ok = if bound < 0.0 {
                        // lgamma has no bound in the spec: within 16 ulp or
                        // 1e-12 absolute (near its zeros at 1 and 2).
                        within(got, want, 16.0) || (got - want).abs() <= 2e-3
                    } else {
                        within(got, want, bound)
                    };
                    if !ok {
                        fail(format!("{f}({x:e}) = {got:e}, want {want:e} ({} ulp)", ulps(got, want)));
                    }
                    r += 1;
                }
                for &(f, bound) in F2 {
                    let got = out(r, p);
                    if let Some(want) = ref2(f, x, y) {
                        if !within(got, want, bound) {
                            fail(format!(
                                "{f}({x:e}, {y:e}) = {got:e}, want {want:e} ({} ulp)",
                                ulps(got, want)
                            ));
                        }
                    }
                    r += 1;
                }
                for &f in F3 {
                    let got = out(r, p);
                    let ok = match f {
                        "fma" => same(got, x.mul_add(y, z)),
                        // mad may be fused or not.
                        "mad" => same(got, x.mul_add(y, z)) || same(got, x * y + z),
                        // Implementation-defined for half: the float
                        // recipe rounded, within 2 ulp of the exact value.
                        "mix" => {
                            let w = x + (y - x) * z;
                            !w.is_finite() || (y - x).abs() >= 65504.0 || within(got, w, 2.0)
                        }
                        "smoothstep" => {
                            if x < y && (y - x).is_finite() && z.is_finite() {
                                let t = ((z - x) / (y - x)).clamp(0.0, 1.0);
                                (got - t * t * (3.0 - 2.0 * t)).abs() <= 2e-3
                            } else {
                                true
                            }
                        }
                        _ => {
                            // clamp(x, lo, hi): undefined if lo > hi or NaN.
                            if y <= z && !x.is_nan() {
                                same(got, fmin_c(fmax_c(x, y), z))
                            } else {
                                true
                            }
                        }
                    };
                    if !ok {
                        fail(format!("{f}({x:e}, {y:e}, {z:e}) = {got:e}"));
                    }
                    r += 1;
                }
                // ldexp, pown, rootn.
                let kf = f64::from(kk);
                let ld = out(r, p);
                let want = if x == 0.0 || !x.is_finite() {
                    x
                } else {
                    // Two steps so that neither power of two overflows.
                    let e = kk.clamp(-2200, 2200);
                    x * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
                };
                if !same(ld, want) {
                    fail(format!("ldexp({x:e}, {kk}) = {ld:e}, want {want:e}"));
                }
                let pn = out(r + 1, p);
                let want = if kk == 0 { 1.0 } else { x.powf(kf) };
                if !within(pn, want, 4.0) {
                    fail(format!("pown({x:e}, {kk}) = {pn:e}, want {want:e}"));
                }
                let rn = out(r + 2, p);
                let want = if kk == 0 || (x < 0.0 && kk % 2 == 0) || x.is_nan() {
                    f64::NAN
                } else if kk % 2 != 0 {
                    x.abs().powf(1.0 / kf).copysign(x)
                } else {
                    x.abs().powf(1.0 / kf)
                };
                // 1/k is rounded: the reference is exact only where the
                // result's sensitivity to the exponent is small.
                let slack = if want.is_finite() && want != 0.0 {
                    want.abs().ln().abs()
                } else {
                    0.0
                };
                if !within(rn, want, 4.0 + slack) {
                    fail(format!("rootn({x:e}, {kk}) = {rn:e}, want {want:e}"));
                }
                // nan(code): a quiet NaN.
                let nn = out(r + 3, p);
                if !nn.is_nan() || oh[(r + 3) * lanes + p] & 0x7e00 != 0x7e00 {
                    fail(format!("nan({kk}) = {:#x}", oh[(r + 3) * lanes + p]));
                }
                // bitselect(a, b, c) and select(a, b, k).
                let bs = out(r + 4, p);
                let want = (ah[p] & !ch[p]) | (bh[p] & ch[p]);
                if !same(bs, widen(want)) {
                    fail(format!("bitselect({x:e}, {y:e}, {z:e}) = {bs:e}"));
                }
                let sel = out(r + 5, p);
                // The condition is convert_short(k): its low 16 bits.
                let pick = if n == 1 { kk as i16 != 0 } else { (kk as i16) < 0 };
                if !same(sel, if pick { y } else { x }) {
                    fail(format!("select({x:e}, {y:e}, {kk}) = {sel:e}"));
                }
                r += 6;
                // fract through private, global, local.
                let fl = x.floor();
                let fr = if x.is_nan() {
                    f64::NAN
                } else if x.is_infinite() {
                    0f64.copysign(x)
                } else {
                    // The largest half below 1.
                    (x - fl).min(1.0 - 2f64.powi(-11))
                };
                let checks: [(f64, f64, &str); 5] = [
                    (out(r, p), fr, "fract"),
                    (out(r + 1, p), fl, "fract's private floor"),
                    (out(r + 2, p), fr, "fract (global)"),
                    (g[p], fl, "fract's global floor"),
                    (out(r + 3, p), fr, "fract (local)"),
                ];
                for (got, want, what) in checks {
                    if !same_or_zeros(got, want) {
                        fail(format!("{what} of {x:e}: {got:e}, want {want:e}"));
                    }
                }
                if !same(out(r + 4, p), fl) {
                    fail(format!("fract's local floor of {x:e}: {:e}", out(r + 4, p)));
                }
                r += 5;
                // modf: private, global.
                let tr = x.trunc();
                let mf = if x.is_infinite() { 0f64.copysign(x) } else { x - tr };
                for (got, want) in [
                    (out(r, p), mf),
                    (out(r + 1, p), tr),
                    (out(r + 2, p), mf),
                    (g[lanes + p], tr),
                ] {
                    if !same_or_zeros(got, want) {
                        fail(format!("modf({x:e}): {got:e}, want {want:e}"));
                    }
                }
                r += 3;
                // sincos: private, local.
                for (got, want) in [
                    (out(r, p), x.sin()),
                    (out(r + 1, p), x.cos()),
                    (out(r + 2, p), x.sin()),
                    (out(r + 3, p), x.cos()),
                ] {
                    if !within(got, want, 2.0) {
                        fail(format!("sincos({x:e}): {got:e}, want {want:e}"));
                    }
                }
                r += 4;
                // frexp: private, global.
                let (fm, fe) = if x == 0.0 || !x.is_finite() {
                    (x, 0)
                } else {
                    let e = exponent(x) + 1;
                    (x * 2f64.powi(-e / 2) * 2f64.powi(-(e - e / 2)), e)
                };
                for (got, e) in [(out(r, p), oi[p]), (out(r + 1, p), gi[p])] {
                    if !same(got, fm) || (x.is_finite() && e != fe) {
                        fail(format!("frexp({x:e}) = ({got:e}, {e}), want ({fm:e}, {fe})"));
                    }
                }
                r += 2;
                // remquo: private, local.
                let (rm, q) = remquo_ref(x, y);
                for (got, gq) in [(out(r, p), oi[lanes + p]), (out(r + 1, p), oi[2 * lanes + p])] {
                    let quo_ok = rm.is_nan()
                        || ((gq.unsigned_abs() & 7) == (q.unsigned_abs() & 7) && (q == 0 || gq.signum() == q.signum()));
                    if !same(got, rm) || !quo_ok {
                        fail(format!("remquo({x:e}, {y:e}) = ({got:e}, {gq}), want ({rm:e}, {q})"));
                    }
                }
                r += 2;
                // lgamma_r: private, global.
                let (lg, ls) = lgamma_sign(x);
                for (got, s) in [(out(r, p), oi[3 * lanes + p]), (out(r + 1, p), gi[lanes + p])] {
                    let ok = within(got, lg, 16.0) || (got - lg).abs() <= 2e-3;
                    let sign_ok = !x.is_finite() || x <= 0.0 && x == x.floor() || s == ls;
                    if !ok || !sign_ok {
                        fail(format!("lgamma_r({x:e}) = ({got:e}, {s}), want ({lg:e}, {ls})"));
                    }
                }
                r += 2;
                // fract through a generic pointer to private memory.
                if !same_or_zeros(out(r, p), fr) || !same(out(r + 1, p), fl) {
                    fail(format!("fract (generic) of {x:e}: {:e} {:e}", out(r, p), out(r + 1, p)));
                }
                r += 2;
                assert_eq!(r, OUTS);
                // ilogb.
                let want = if x.is_nan() || x.is_infinite() {
                    i32::MAX
                } else if x == 0.0 {
                    i32::MIN
                } else {
                    exponent(x)
                };
                if oi[4 * lanes + p] != want {
                    fail(format!("ilogb({x:e}) = {}, want {want}", oi[4 * lanes + p]));
                }
            }
            assert!(bad.is_empty(), "{name} at {opt:?}:\n{}", bad.join("\n"));
        }
    }
}

/// The exact sum of products `x · y` of a few halfs, rounded once: a
/// reference for dot, length and distance within a few ulps.
fn dot_ref(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// length with the scaling a careful implementation does (by the largest
/// magnitude), in plain f64 otherwise.
fn length_ref(x: &[f64]) -> f64 {
    let m = x.iter().fold(0f64, |m, v| m.max(v.abs()));
    if x.iter().any(|v| v.is_infinite()) {
        return f64::INFINITY;
    }
    if x.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    if m == 0.0 {
        return 0.0;
    }
    let s: f64 = x.iter().map(|v| (v / m) * (v / m)).sum();
    m * s.sqrt()
}

fn close(got: f64, want: f64, ulp_bound: f64) -> bool {
    same(got, want) || ulps(got, want) <= ulp_bound
}

#[test]
fn geometry_shuffles_and_vector_memory_on_half() {
    const N: usize = 64;
    let a = inputs(4 * N + 64, 3);
    // Mostly ordinary values for the geometric functions, specials first.
    let mut b: Vec<f64> = inputs(4 * N + 64, 5)
        .iter()
        .map(|v| if v.abs() > 100.0 { v.sqrt() } else { *v })
        .collect();
    b[0] = 3.0;
    // The kernel sees halves: so does the reference.
    let b: Vec<f64> = b.into_iter().map(rte).collect();
    let m: Vec<i16> = (0..4 * N as i16)
        .map(|i| i.wrapping_mul(0x1235_i16).rotate_left(i as u32 % 16))
        .collect();
    let (ah, bh) = (halves(&a), halves(&b));
    for opt in Opt::BOTH {
        let mut oh = vec![0u16; 64 * N];
        Kernel::new("fp16_math", opt, "geometry")
            .arg(Arg::input(&ah))
            .arg(Arg::input(&bh))
            .arg(Arg::output(&mut oh))
            .arg(Arg::input(&m))
            .run(&[N], Some(&[8]));
        let o: Vec<f64> = oh.iter().map(|&h| widen(h)).collect();
        let mut bad = Vec::new();
        for i in 0..N {
            let p = &o[64 * i..64 * i + 64];
            let x4 = &a[4 * i..4 * i + 4];
            let y4 = &b[4 * i..4 * i + 4];
            let x3 = &a[3 * i..3 * i + 3];
            let y3 = &b[3 * i..3 * i + 3];
            let x2 = &a[2 * i..2 * i + 2];
            let y2 = &b[2 * i..2 * i + 2];
            let cross = |x: &[f64], y: &[f64]| {
                [
                    x[1] * y[2] - x[2] * y[1],
                    x[2] * y[0] - x[0] * y[2],
                    x[0] * y[1] - x[1] * y[0],
                ]
            };
            let c4 = cross(x4, y4);
            let c3 = cross(x3, y3);
            let mut want: Vec<(usize, f64, f64)> = vec![
                (0, c4[0], 0.0),
                (1, c4[1], 0.0),
                (2, c4[2], 0.0),
                (3, 0.0, 0.0),
                (4, c3[0], 0.0),
                (5, c3[1], 0.0),
                (6, c3[2], 0.0),
            ];
            // Products may be fused in cross and dot: a few ulps of the
            // largest term where they do not cancel.
            want.extend([
                (7, dot_ref(x4, y4), 8.0),
                (8, dot_ref(x3, y3), 8.0),
                (9, dot_ref(x2, y2), 8.0),
                (10, a[i] * b[i], 0.0),
                (11, length_ref(x4), 4.0),
                (12, length_ref(x3), 4.0),
                (13, length_ref(x2), 4.0),
                (14, a[i].abs(), 0.0),
            ]);
            let d = |x: &[f64], y: &[f64]| length_ref(&x.iter().zip(y).map(|(p, q)| p - q).collect::<Vec<_>>());
            want.extend([
                (15, d(x4, y4), 4.0),
                (16, d(x3, y3), 4.0),
                (17, d(x2, y2), 4.0),
                (18, (a[i] - b[i]).abs(), 0.0),
            ]);
            for (k, x) in [(20, x4), (24, x3), (28, x2)] {
                let l = length_ref(x);
                for (j, v) in x.iter().enumerate() {
                    let w = if l == 0.0 || !l.is_finite() { f64::NAN } else { v / l };
                    if w.is_finite() {
                        want.push((k + j, w, 4.0));
                    }
                }
            }
            want.push((
                30,
                if a[i].is_nan() {
                    f64::NAN
                } else if a[i] == 0.0 {
                    a[i]
                } else {
                    1f64.copysign(a[i])
                },
                0.0,
            ));
            let m4 = &m[4 * i..4 * i + 4];
            for j in 0..4 {
                want.push((32 + j, x4[(m4[j] & 3) as usize], 0.0));
            }
            let xy: Vec<f64> = x4.iter().chain(y4).copied().collect();
            for j in 0..8 {
                let mk = if j < 4 { m4[j] } else { m4[j - 4] >> 3 };
                want.push((36 + j, xy[(mk & 7) as usize], 0.0));
            }
            for j in 0..4 {
                let bits = (ah[4 * i + j] & !(m4[j] as u16)) | (bh[4 * i + j] & m4[j] as u16);
                want.push((44 + j, widen(bits), 0.0));
                want.push((48 + j, if m4[j] < 0 { y4[j] } else { x4[j] }, 0.0));
            }
            want.push((52, x2[(m4[1] & 1) as usize], 0.0));
            want.push((53, x2[(m4[2] & 1) as usize], 0.0));
            let w16 = &a[16 * (i % 4)..16 * (i % 4) + 16];
            want.push((54, w16[0] + w16[15], 0.0));
            for j in 0..3 {
                want.push((55 + j, a[i + j] * 2.0, 0.0));
            }
            for (k, w, bound) in want {
                let got = p[k];
                let ok = if bound == 0.0 {
                    // cross: the spec's max * max * 3 * HALF_EPSILON.
                    let mx = x4.iter().chain(y4).fold(0f64, |m, v| m.max(v.abs()));
                    same(got, w) || (k < 7 && (got - w).abs() <= mx * mx * 3.0 * 2f64.powi(-10))
                } else if (7..=9).contains(&k) {
                    // dot: within a few ulps of the largest product.
                    let big = match k {
                        7 => x4.iter().zip(y4).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                        8 => x3.iter().zip(y3).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                        _ => x2.iter().zip(y2).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                    };
                    same(got, w) || (got.is_nan() && w.is_nan()) || (got - w).abs() <= big * 8.0 * 2f64.powi(-10)
                } else if (11..=17).contains(&k) && got.is_nan() && w.is_infinite() {
                    // An infinite component beside a NaN: the float row's
                    // length is NaN (the spec does not say; C's hypot
                    // would give infinity).
                    let v: &[f64] = match k {
                        11 | 15 => x4,
                        12 | 16 => x3,
                        _ => x2,
                    };
                    let u: &[f64] = match k {
                        15 => y4,
                        16 => y3,
                        17 => y2,
                        _ => &[],
                    };
                    v.iter().chain(u).any(|c| c.is_nan())
                } else {
                    close(got, w, bound)
                };
                if !ok && bad.len() < 20 {
                    bad.push(format!("item {i} result {k}: got {got:e} want {w:e}"));
                }
            }
        }
        assert!(bad.is_empty(), "{opt:?} geometry:\n{}", bad.join("\n"));
    }
}
