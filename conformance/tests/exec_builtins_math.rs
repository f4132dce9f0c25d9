//! OpenCL.std math, common and float relational instructions through the
//! ICD loader: `kernels/cl/builtins_math.cl` calls every f32 function
//! (the half_ and native_ forms included) on float, float2, float4 and
//! float16 at -O0 and -O2, over special values (±0, ±1, ±inf, NaN,
//! FLT_MAX, FLT_MIN, denormals, halves, integers) and random inputs, and
//! each result is checked against a double-precision host reference within
//! the full-profile ULP bound of the OpenCL SPIR-V environment (0 ulp means
//! correctly rounded: at most half an ulp). Pointer results go through
//! private, local, global and generic pointers.

use clift_conformance::exec::{Arg, Kernel, Opt};

/// The one-operand functions, in the kernel's order, with their bounds.
const F1: &[(&str, f64)] = &[
    ("acos", 4.0),
    ("acosh", 4.0),
    ("acospi", 5.0),
    ("asin", 4.0),
    ("asinh", 4.0),
    ("asinpi", 5.0),
    ("atan", 5.0),
    ("atanh", 5.0),
    ("atanpi", 5.0),
    ("cbrt", 2.0),
    ("ceil", 0.0),
    ("cos", 4.0),
    ("cosh", 4.0),
    ("cospi", 4.0),
    ("erfc", 16.0),
    ("erf", 16.0),
    ("exp", 3.0),
    ("exp2", 3.0),
    ("exp10", 3.0),
    ("expm1", 3.0),
    ("fabs", 0.0),
    ("floor", 0.0),
    ("lgamma", -1.0),
    ("log", 3.0),
    ("log2", 3.0),
    ("log10", 3.0),
    ("log1p", 2.0),
    ("logb", 0.0),
    ("rint", 0.0),
    ("round", 0.0),
    ("rsqrt", 2.0),
    ("sin", 4.0),
    ("sinh", 4.0),
    ("sinpi", 4.0),
    ("sqrt", 0.0),
    ("tan", 5.0),
    ("tanh", 5.0),
    ("tanpi", 6.0),
    ("tgamma", 16.0),
    ("trunc", 0.0),
    ("half_cos", 8192.0),
    ("half_exp", 8192.0),
    ("half_exp2", 8192.0),
    ("half_exp10", 8192.0),
    ("half_log", 8192.0),
    ("half_log2", 8192.0),
    ("half_log10", 8192.0),
    ("half_recip", 8192.0),
    ("half_rsqrt", 8192.0),
    ("half_sin", 8192.0),
    ("half_sqrt", 8192.0),
    ("half_tan", 8192.0),
    ("native_cos", 8192.0),
    ("native_exp", 8192.0),
    ("native_exp2", 8192.0),
    ("native_exp10", 8192.0),
    ("native_log", 8192.0),
    ("native_log2", 8192.0),
    ("native_log10", 8192.0),
    ("native_recip", 8192.0),
    ("native_rsqrt", 8192.0),
    ("native_sin", 8192.0),
    ("native_sqrt", 8192.0),
    ("native_tan", 8192.0),
    ("degrees", 2.0),
    ("radians", 2.0),
    ("sign", 0.0),
];

/// The two-operand functions.
const F2: &[(&str, f64)] = &[
    ("atan2", 6.0),
    ("atan2pi", 6.0),
    ("copysign", 0.0),
    ("fdim", 0.0),
    ("fmax", 0.0),
    ("fmin", 0.0),
    ("fmod", 0.0),
    ("hypot", 4.0),
    ("maxmag", 0.0),
    ("minmag", 0.0),
    ("nextafter", 0.0),
    ("pow", 16.0),
    ("powr", 16.0),
    ("remainder", 0.0),
    ("half_divide", 8192.0),
    ("half_powr", 8192.0),
    ("native_divide", 8192.0),
    ("native_powr", 8192.0),
    ("step", 0.0),
    ("max", 0.0),
    ("min", 0.0),
];

/// The three-operand functions.
const F3: &[&str] = &["fma", "mad", "mix", "smoothstep", "clamp"];

/// Float results after F1, F2, F3: ldexp, pown, rootn, nan, bitselect,
/// select, then the pointer-result functions (see the kernel).
const EXTRA: usize = 6 + 5 + 3 + 4 + 2 + 2 + 2 + 2;
const OUTS: usize = F1.len() + F2.len() + F3.len() + EXTRA;

extern "C" {
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

/// x - 2 * round(x / 2): exact for f32 x, in [-1, 1].
fn mod2(x: f64) -> f64 {
    x - 2.0 * (x / 2.0).round()
}

fn fmax_c(x: f32, y: f32) -> f32 {
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

fn fmin_c(x: f32, y: f32) -> f32 {
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

fn ref1(name: &str, x: f32) -> f64 {
    let d = f64::from(x);
    let pi = std::f64::consts::PI;
    let base = name.trim_start_matches("half_").trim_start_matches("native_");
    match base {
        "acos" => d.acos(),
        "acosh" => d.acosh(),
        "acospi" => d.acos() / pi,
        "asin" => d.asin(),
        "asinh" => d.asinh(),
        "asinpi" => d.asin() / pi,
        "atan" => d.atan(),
        "atanh" => d.atanh(),
        "atanpi" => d.atan() / pi,
        "cbrt" => d.cbrt(),
        "ceil" => d.ceil(),
        "cos" => d.cos(),
        "cosh" => d.cosh(),
        "cospi" => {
            let r = mod2(d);
            if r.abs() == 0.5 {
                0.0
            } else {
                (pi * r).cos()
            }
        }
        // SAFETY: libm's erfc, erf, tgamma are pure functions of a double.
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
            if x == 0.0 {
                f64::NEG_INFINITY
            } else if x.is_infinite() {
                f64::INFINITY
            } else {
                d.abs().log2().floor()
            }
        }
        "rint" => d.round_ties_even(),
        "round" => d.round(),
        "rsqrt" => 1.0 / d.sqrt(),
        "sin" => d.sin(),
        "sinh" => d.sinh(),
        "sinpi" => {
            let r = mod2(d);
            if r == r.trunc() {
                0.0
            } else {
                (pi * r).sin()
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
                (pi * r).tan()
            }
        }
        "trunc" => d.trunc(),
        "recip" => 1.0 / d,
        "degrees" => d * (180.0 / pi),
        "radians" => d * (pi / 180.0),
        "sign" => {
            if x.is_nan() {
                0.0
            } else if x == 0.0 {
                d
            } else {
                1f64.copysign(d)
            }
        }
        _ => unreachable!("{name}"),
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

fn next_after(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return f32::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f32::from_bits(1).copysign(y);
    }
    let b = x.to_bits();
    let up = (y > x) == (x > 0.0);
    f32::from_bits(if up { b + 1 } else { b - 1 })
}

fn ref2(name: &str, x: f32, y: f32) -> Option<f64> {
    let (a, b) = (f64::from(x), f64::from(y));
    let pi = std::f64::consts::PI;
    let base = name.trim_start_matches("half_").trim_start_matches("native_");
    Some(match base {
        "atan2" => a.atan2(b),
        "atan2pi" => a.atan2(b) / pi,
        "copysign" => a.copysign(b),
        "fdim" => {
            if x.is_nan() || y.is_nan() {
                f64::NAN
            } else if a > b {
                a - b
            } else {
                0.0
            }
        }
        "fmax" => f64::from(fmax_c(x, y)),
        "fmin" => f64::from(fmin_c(x, y)),
        "fmod" => a % b,
        "hypot" => a.hypot(b),
        "maxmag" | "minmag" => {
            let (ax, ay) = (x.abs(), y.abs());
            let max = base == "maxmag";
            f64::from(if ax > ay {
                if max {
                    x
                } else {
                    y
                }
            } else if ay > ax {
                if max {
                    y
                } else {
                    x
                }
            } else if max {
                fmax_c(x, y)
            } else {
                fmin_c(x, y)
            })
        }
        "nextafter" => f64::from(next_after(x, y)),
        "pow" => a.powf(b),
        "powr" => powr_ref(a, b),
        // SAFETY: libm's remainder is a pure function of two doubles.
        "remainder" => unsafe { remainder(a, b) },
        "divide" => a / b,
        "step" => {
            if b < a {
                0.0
            } else {
                1.0
            }
        }
        // max and min are undefined with a NaN operand.
        "max" | "min" if x.is_nan() || y.is_nan() => return None,
        "max" => f64::from(fmax_c(x, y)),
        "min" => f64::from(fmin_c(x, y)),
        _ => unreachable!("{name}"),
    })
}

/// The error of `got` in ulps of the f32 nearest the reference; a NaN
/// reference wants a NaN, an overflowing one an infinity (or a finite
/// value within the bound of FLT_MAX).
fn ulps(got: f32, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let g = f64::from(got);
    if got.is_infinite() {
        let ok = want.signum() == g.signum() && want.abs() >= f64::from(f32::MAX);
        return if ok { 0.0 } else { f64::INFINITY };
    }
    if want.is_infinite() {
        return f64::INFINITY;
    }
    let mag = want.abs().min(f64::from(f32::MAX));
    let ulp = if mag < f64::from(f32::MIN_POSITIVE) {
        2f64.powi(-149)
    } else {
        2f64.powi(mag.log2().floor() as i32 - 23)
    };
    (g - want).abs() / ulp
}

/// Whether `got` is within `bound` ulps of `want` (0: correctly rounded).
fn within(got: f32, want: f64, bound: f64) -> bool {
    ulps(got, want) <= bound.max(0.5) + 1e-9
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Deterministic inputs: every special value, then random floats (half
/// of them in [-10, 10], the rest any finite bit pattern).
fn inputs(len: usize, seed: u64) -> Vec<f32> {
    let special = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -3.0,
        1.5,
        -2.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        -f32::from_bits(0x7f_ffff),
        100.0,
        -88.5,
        0.999_999_9,
        1e-7,
        1e10,
    ];
    let mut s = seed;
    let mut next = || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (s >> 32) as u32
    };
    (0..len)
        .map(|i| {
            if i < special.len() {
                return special[(i + seed as usize) % special.len()];
            }
            let r = next();
            if i % 2 == 0 {
                (r as f64 / u32::MAX as f64 * 20.0 - 10.0) as f32
            } else {
                let f = f32::from_bits(r);
                if f.is_finite() {
                    f
                } else {
                    f32::from_bits(r & 0xbf7f_ffff)
                }
            }
        })
        .collect()
}

#[test]
fn math_every_function_every_width() {
    let items_total = 512;
    let local = 16;
    for opt in Opt::BOTH {
        for n in [1usize, 2, 4, 16] {
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
                    6 => 130,
                    7 => -150,
                    _ => (p as i32 * 7919) % 21 - 10,
                })
                .collect();
            let mut o = vec![0f32; OUTS * lanes];
            let mut oi = vec![0i32; 5 * lanes];
            let mut g = vec![0f32; 2 * lanes];
            let mut gi = vec![0i32; 2 * lanes];
            let name = if n == 1 {
                "math_float".to_string()
            } else {
                format!("math_float{n}")
            };
            Kernel::new("builtins_math", opt, &name)
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::input(&c))
                .arg(Arg::input(&k))
                .arg(Arg::output(&mut o))
                .arg(Arg::output(&mut oi))
                .arg(Arg::output(&mut g))
                .arg(Arg::output(&mut gi))
                .arg(Arg::Local(local * n * 4))
                .arg(Arg::Local(local * n * 4))
                .run(&[items], Some(&[local]));
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
                        // 1e-6 absolute (near its zeros at 1 and 2).
                        within(got, want, 16.0) || (f64::from(got) - want).abs() <= 1e-6
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
                            fail(format!("{f}({x:e}, {y:e}) = {got:e}, want {want:e}"));
                        }
                    }
                    r += 1;
                }
                for &f in F3 {
                    let got = out(r, p);
                    let (dx, dy, dz) = (f64::from(x), f64::from(y), f64::from(z));
                    let ok = match f {
                        "fma" | "mad" => within(got, dx.mul_add(dy, dz), 0.0),
                        "mix" => same(got, x + (y - x) * z),
                        "smoothstep" => {
                            if x < y && (y - x).is_finite() && z.is_finite() {
                                let t = ((dz - dx) / (dy - dx)).clamp(0.0, 1.0);
                                (f64::from(got) - t * t * (3.0 - 2.0 * t)).abs() <= 1e-6
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
                let (dx, kf) = (f64::from(x), f64::from(kk));
                let ld = out(r, p);
                if !within(ld, dx * 2f64.powi(kk.clamp(-400, 400)), 0.0) {
                    fail(format!("ldexp({x:e}, {kk}) = {ld:e}"));
                }
                let pn = out(r + 1, p);
                let want = if kk == 0 { 1.0 } else { dx.powf(kf) };
                if !within(pn, want, 16.0) {
                    fail(format!("pown({x:e}, {kk}) = {pn:e}, want {want:e}"));
                }
                let rn = out(r + 2, p);
                let want = if kk == 0 || (x < 0.0 && kk % 2 == 0) || x.is_nan() {
                    f64::NAN
                } else if kk % 2 != 0 {
                    dx.abs().powf(1.0 / kf).copysign(dx)
                } else {
                    dx.abs().powf(1.0 / kf)
                };
                if !within(rn, want, 16.0) {
                    fail(format!("rootn({x:e}, {kk}) = {rn:e}, want {want:e}"));
                }
                // nan(code): a quiet NaN.
                let nn = out(r + 3, p);
                if !nn.is_nan() || nn.to_bits() & 0x0040_0000 == 0 {
                    fail(format!("nan({kk}) = {:#x}", nn.to_bits()));
                }
                // bitselect(a, b, c) and select(a, b, k).
                let bs = out(r + 4, p);
                let want = (x.to_bits() & !z.to_bits()) | (y.to_bits() & z.to_bits());
                if bs.to_bits() != want {
                    fail(format!("bitselect({x:e}, {y:e}, {z:e}) = {bs:e}"));
                }
                let sel = out(r + 5, p);
                let pick = if n == 1 { kk != 0 } else { kk < 0 };
                if !same(sel, if pick { y } else { x }) {
                    fail(format!("select({x:e}, {y:e}, {kk}) = {sel:e}"));
                }
                r += 6;
                // fract through private, global, local.
                let fl = dx.floor();
                let fr = if x.is_nan() {
                    f64::NAN
                } else if x.is_infinite() {
                    0.0
                } else {
                    (dx - fl).min(f64::from(f32::from_bits(0x3f7f_ffff)))
                };
                let checks: [(f32, f64, &str); 5] = [
                    (out(r, p), fr, "fract"),
                    (out(r + 1, p), fl, "fract's private floor"),
                    (out(r + 2, p), fr, "fract (global)"),
                    (g[p], fl, "fract's global floor"),
                    (out(r + 3, p), fr, "fract (local)"),
                ];
                for (got, want, what) in checks {
                    if !within(got, want, 0.0) {
                        fail(format!("{what} of {x:e}: {got:e}, want {want:e}"));
                    }
                }
                if !within(out(r + 4, p), fl, 0.0) {
                    fail(format!("fract's local floor of {x:e}: {:e}", out(r + 4, p)));
                }
                r += 5;
                // modf: private, global.
                let tr = dx.trunc();
                let mf = if x.is_infinite() { 0.0 } else { dx - tr };
                for (got, want) in [
                    (out(r, p), mf),
                    (out(r + 1, p), tr),
                    (out(r + 2, p), mf),
                    (g[lanes + p], tr),
                ] {
                    if !within(got, want, 0.0) {
                        fail(format!("modf({x:e}): {got:e}, want {want:e}"));
                    }
                }
                r += 3;
                // sincos: private, local.
                for (got, want) in [
                    (out(r, p), dx.sin()),
                    (out(r + 1, p), dx.cos()),
                    (out(r + 2, p), dx.sin()),
                    (out(r + 3, p), dx.cos()),
                ] {
                    if !within(got, want, 4.0) {
                        fail(format!("sincos({x:e}): {got:e}, want {want:e}"));
                    }
                }
                r += 4;
                // frexp: private, global.
                let (fm, fe) = if x == 0.0 || !x.is_finite() {
                    (dx, 0)
                } else {
                    let e = dx.abs().log2().floor() as i32 + 1;
                    (dx / 2f64.powi(e), e)
                };
                for (got, e) in [(out(r, p), oi[p]), (out(r + 1, p), gi[p])] {
                    if !within(got, fm, 0.0) || (x.is_finite() && e != fe) {
                        fail(format!("frexp({x:e}) = ({got:e}, {e}), want ({fm:e}, {fe})"));
                    }
                }
                r += 2;
                // remquo: private, local.
                let (rm, q) = remquo_ref(dx, f64::from(y));
                for (got, gq) in [(out(r, p), oi[lanes + p]), (out(r + 1, p), oi[2 * lanes + p])] {
                    let quo_ok = rm.is_nan()
                        || ((gq.unsigned_abs() & 7) == (q.unsigned_abs() & 7) && (q == 0 || gq.signum() == q.signum()));
                    if !within(got, rm, 0.0) || !quo_ok {
                        fail(format!("remquo({x:e}, {y:e}) = ({got:e}, {gq}), want ({rm:e}, {q})"));
                    }
                }
                r += 2;
                // lgamma_r: private, global.
                let (lg, ls) = lgamma_sign(dx);
                for (got, s) in [(out(r, p), oi[3 * lanes + p]), (out(r + 1, p), gi[lanes + p])] {
                    let ok = within(got, lg, 16.0) || (f64::from(got) - lg).abs() <= 1e-6;
                    let sign_ok = !x.is_finite() || x <= 0.0 && x == x.floor() || s == ls;
                    if !ok || !sign_ok {
                        fail(format!("lgamma_r({x:e}) = ({got:e}, {s}), want ({lg:e}, {ls})"));
                    }
                }
                r += 2;
                // fract through a generic pointer to private memory.
                if !within(out(r, p), fr, 0.0) || !within(out(r + 1, p), fl, 0.0) {
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
                    dx.abs().log2().floor() as i32
                };
                if oi[4 * lanes + p] != want {
                    fail(format!("ilogb({x:e}) = {}, want {want}", oi[4 * lanes + p]));
                }
            }
            assert!(bad.is_empty(), "{name} at {opt:?}:\n{}", bad.join("\n"));
        }
    }
}
