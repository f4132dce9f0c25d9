//! ULP harness for the `float` math functions of `clift_builtins::math_f32`.
//!
//! Each function is compared with MPFR (through rug/gmp-mpfr-sys, the
//! system's libmpfr) evaluated at 160 bits from the exact `float` inputs:
//! a different code path from the double-precision `libm` the functions
//! use. Inputs: the special values (±0, ±inf, NaN, denormals, ±FLT_MIN,
//! ±FLT_MAX, integers, halves, multiples of pi/2 and pi/4, the overflow and
//! underflow thresholds) and their neighbours, their pairs for the
//! two-argument functions, then random inputs, half of them uniform over
//! all bit patterns (every magnitude equally) and half uniform over the
//! function's interesting range.
//!
//! The error of a result is |result - exact| / ulp(exact), with ulp as the
//! OpenCL spec defines it for `float` (2^-149 at the bottom, 2^104 above
//! FLT_MAX). Where the exact result is NaN, an infinity or a zero, the
//! result must be exactly that (with the sign of the zero): these are the
//! C99 F.9 special values, which MPFR follows. The explicit OpenCL
//! edge-case list is checked value by value in `edge_cases`.
//!
//! `cargo test` (debug, CI) runs 20,000 random inputs per function;
//! `CLIFT_ULP_FULL=1 cargo test --release -p clift-builtins --test ulp`
//! runs 1,000,000 (or `CLIFT_ULP_N`). `CLIFT_ULP_REPORT=<file>` appends a
//! line per function (name, max ulp, bound, worst input) to the file; add
//! `-- --nocapture` to see them printed.

use std::io::Write;

use clift_builtins::frem::clift_frem_f32;
use clift_builtins::math_f32::*;
use gmp_mpfr_sys::mpfr::{self, rnd_t};
use rug::Float;

const PREC: u32 = 160;
const RNDN: rnd_t = rnd_t::RNDN;

fn random_count() -> usize {
    if let Some(n) = std::env::var("CLIFT_ULP_N").ok().and_then(|v| v.parse().ok()) {
        return n;
    }
    match std::env::var("CLIFT_ULP_FULL") {
        Ok(v) if !v.is_empty() && v != "0" => 1_000_000,
        _ => 20_000,
    }
}

// ---------------------------------------------------------------- inputs

/// splitmix64: a small deterministic generator, seeded per function.
struct Rng(u64);

impl Rng {
    fn new(name: &str) -> Rng {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for b in name.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        Rng(h)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn bits(&mut self) -> f32 {
        f32::from_bits(self.next() as u32)
    }
    fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        (lo as f64 + (hi as f64 - lo as f64) * u) as f32
    }
    /// Half over all bit patterns, half uniform in [lo, hi].
    fn input(&mut self, i: usize, (lo, hi): (f32, f32)) -> f32 {
        if i.is_multiple_of(2) {
            self.bits()
        } else {
            self.uniform(lo, hi)
        }
    }
    fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (self.next() % ((hi as i64 - lo as i64 + 1) as u64)) as i32
    }
}

/// The core special values, both signs.
fn core_specials() -> Vec<f32> {
    let pos = [
        0.0,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        f32::MIN_POSITIVE,
        f32::MAX,
        0.5,
        1.0,
        1.5,
        2.0,
        3.0,
        10.0,
        std::f32::consts::PI,
        std::f32::consts::FRAC_PI_2,
        1e-20,
        1e20,
    ];
    pos.iter().flat_map(|&x| [x, -x]).collect()
}

/// Every special value, boundary and neighbour, both signs.
fn specials() -> Vec<f32> {
    let mut v = vec![
        0.0f32,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(1),
        f32::from_bits(2),
        f32::from_bits(0x007f_ffff),
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::EPSILON,
        0.1,
        0.3,
        1e-5,
        1e-20,
        1e-38,
        1e-40,
        1e10,
        1e20,
        1e30,
        16_777_216.0,
        8_388_607.5,
        4_194_304.0 - 0.25,
        88.722_84,
        89.0,
        87.336_55,
        103.972_08,
        104.0,
        126.0,
        127.0,
        128.0,
        149.0,
        150.0,
        38.53,
        45.0,
        35.04,
        171.0,
        2.457_024_7,
        3.0,
    ];
    for k in 0..=40 {
        v.push(k as f32);
        v.push(k as f32 + 0.5);
        v.push(k as f32 * 0.25);
    }
    for k in 1..=64 {
        v.push((k as f64 * std::f64::consts::FRAC_PI_2) as f32);
        v.push((k as f64 * std::f64::consts::FRAC_PI_4) as f32);
    }
    for e in [
        -126, -100, -64, -24, -23, -12, -1, 12, 23, 24, 31, 32, 63, 64, 100, 126, 127,
    ] {
        v.push(2f32.powi(e));
    }
    let mut out = Vec::new();
    for x in v {
        out.push(x);
        if x.is_finite() {
            for d in [1u32, 2] {
                out.push(f32::from_bits(x.to_bits() + d));
                if let Some(b) = x.to_bits().checked_sub(d) {
                    out.push(f32::from_bits(b));
                }
            }
        }
    }
    let neg: Vec<f32> = out.iter().map(|x| -x).collect();
    out.extend(neg);
    out
}

fn int_specials() -> Vec<i32> {
    let mut v: Vec<i32> = (-10..=10).collect();
    v.extend([
        i32::MIN,
        i32::MIN + 1,
        i32::MAX,
        i32::MAX - 1,
        127,
        128,
        -127,
        -128,
        149,
        150,
        -149,
        -150,
        1000,
        -1000,
    ]);
    v
}

// -------------------------------------------------------------- reference

fn fl(x: f32) -> Float {
    Float::with_val(PREC, x)
}

/// MPFR's one-argument function `$f` at `PREC` bits, as a closure of `f32`.
macro_rules! mp1 {
    ($f:ident) => {
        |x: f32| -> Float {
            let a = fl(x);
            let mut r = Float::new(PREC);
            // SAFETY: `r` and `a` are initialised MPFR numbers owned by rug,
            // distinct, and live across the call.
            unsafe { mpfr::$f(r.as_raw_mut(), a.as_raw(), RNDN) };
            r
        }
    };
}

/// MPFR's two-argument function `$f`.
macro_rules! mp2 {
    ($f:ident) => {
        |x: f32, y: f32| -> Float {
            let (a, b) = (fl(x), fl(y));
            let mut r = Float::new(PREC);
            // SAFETY: as in `mp1`.
            unsafe { mpfr::$f(r.as_raw_mut(), a.as_raw(), b.as_raw(), RNDN) };
            r
        }
    };
}

/// MPFR's function `$f` of a number and a `long`.
macro_rules! mpi {
    ($f:ident) => {
        |x: f32, n: i32| -> Float {
            let a = fl(x);
            let mut r = Float::new(PREC);
            // SAFETY: as in `mp1`.
            unsafe { mpfr::$f(r.as_raw_mut(), a.as_raw(), n as std::os::raw::c_long, RNDN) };
            r
        }
    };
}

/// The error of `got` in ulps of the exact value `r`; infinite when a
/// NaN, infinity or zero (with its sign) the reference prescribes is
/// missed.
fn ulp_err(got: f32, r: &Float) -> f64 {
    if r.is_nan() {
        return if got.is_nan() { 0.0 } else { f64::INFINITY };
    }
    if got.is_nan() {
        return f64::INFINITY;
    }
    if r.is_infinite() {
        let same = got.is_infinite() && got.is_sign_negative() == r.is_sign_negative();
        return if same { 0.0 } else { f64::INFINITY };
    }
    if r.is_zero() {
        if got == 0.0 {
            return if got.is_sign_negative() == r.is_sign_negative() {
                0.0
            } else {
                f64::INFINITY
            };
        }
        return got.abs() as f64 / f32::from_bits(1) as f64;
    }
    // r lies in [2^e, 2^(e+1)); a float there has ulp 2^(e-23), with e
    // clamped to the float range (denormals, and beyond FLT_MAX).
    let e = (r.get_exp().unwrap_or(0) - 1).clamp(-126, 127);
    let g = if got.is_infinite() {
        if r.to_f32() == got {
            return 0.0; // the exact value rounds to this infinity
        }
        Float::with_val(PREC, if got > 0.0 { 2f64.powi(128) } else { -(2f64.powi(128)) })
    } else {
        fl(got)
    };
    let diff = Float::with_val(PREC, &g - r).abs();
    (diff << (23 - e)).to_f64()
}

// ------------------------------------------------------------ bookkeeping

struct Stats {
    name: &'static str,
    bound: f64,
    max: f64,
    worst: String,
    count: usize,
    failures: Vec<String>,
}

impl Stats {
    fn new(name: &'static str, bound: f64) -> Stats {
        Stats {
            name,
            bound,
            max: 0.0,
            worst: String::new(),
            count: 0,
            failures: Vec::new(),
        }
    }

    fn add(&mut self, err: f64, what: impl FnOnce() -> String) {
        self.count += 1;
        if err > self.max || (err.is_nan() && !self.max.is_nan()) {
            self.max = err;
            self.worst = what();
            if err > self.bound && self.failures.len() < 10 {
                self.failures.push(self.worst.clone());
            }
        } else if err > self.bound && self.failures.len() < 10 {
            self.failures.push(what());
        }
    }

    fn finish(self) {
        let line = format!(
            "{:<10} max {:>10.4} ulp  bound {:<6} over {} inputs; worst: {}",
            self.name, self.max, self.bound, self.count, self.worst
        );
        println!("{line}");
        if let Ok(path) = std::env::var("CLIFT_ULP_REPORT") {
            if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
                let _ = writeln!(f, "{line}");
            }
        }
        assert!(
            self.failures.is_empty(),
            "{}: {} inputs over the bound of {} ulp (or a wrong special value), e.g.:\n{}",
            self.name,
            self.failures.len(),
            self.bound,
            self.failures.join("\n")
        );
    }
}

fn show(x: f32) -> String {
    format!("{x:e} ({:#010x})", x.to_bits())
}

fn check1(
    name: &'static str,
    bound: f64,
    ours: extern "C" fn(f32) -> f32,
    reference: impl Fn(f32) -> Float,
    domain: (f32, f32),
) {
    let mut st = Stats::new(name, bound);
    let mut rng = Rng::new(name);
    let n = random_count();
    let inputs = specials().into_iter().chain((0..n).map(|i| rng.input(i, domain)));
    for x in inputs {
        let got = ours(x);
        let r = reference(x);
        let err = ulp_err(got, &r);
        st.add(err, || {
            format!("{name}({}) = {} expected {}", show(x), show(got), r.to_f64())
        });
    }
    st.finish();
}

fn check2(
    name: &'static str,
    bound: f64,
    ours: extern "C" fn(f32, f32) -> f32,
    reference: impl Fn(f32, f32) -> Float,
    dx: (f32, f32),
    dy: (f32, f32),
) {
    let mut st = Stats::new(name, bound);
    let mut rng = Rng::new(name);
    let core = core_specials();
    let all = specials();
    let mut pairs: Vec<(f32, f32)> = Vec::new();
    for &x in &core {
        for &y in &core {
            pairs.push((x, y));
        }
    }
    for &x in &all {
        pairs.push((x, core[rng.next() as usize % core.len()]));
        pairs.push((core[rng.next() as usize % core.len()], x));
        pairs.push((x, all[rng.next() as usize % all.len()]));
    }
    let n = random_count();
    for i in 0..n {
        let (x, y) = match i % 4 {
            0 => (rng.bits(), rng.bits()),
            1 => (rng.uniform(dx.0, dx.1), rng.uniform(dy.0, dy.1)),
            2 => (rng.uniform(dx.0, dx.1), rng.bits()),
            _ => (rng.bits(), rng.uniform(dy.0, dy.1)),
        };
        pairs.push((x, y));
    }
    for (x, y) in pairs {
        let got = ours(x, y);
        let r = reference(x, y);
        let err = ulp_err(got, &r);
        st.add(err, || {
            format!(
                "{name}({}, {}) = {} expected {}",
                show(x),
                show(y),
                show(got),
                r.to_f64()
            )
        });
    }
    st.finish();
}

fn check_fi(
    name: &'static str,
    bound: f64,
    ours: extern "C" fn(f32, i32) -> f32,
    reference: impl Fn(f32, i32) -> Float,
    dx: (f32, f32),
    dn: (i32, i32),
) {
    let mut st = Stats::new(name, bound);
    let mut rng = Rng::new(name);
    let mut pairs = Vec::new();
    for &x in &specials() {
        for &n in &int_specials() {
            pairs.push((x, n));
        }
    }
    for i in 0..random_count() {
        let x = rng.input(i, dx);
        let n = if i % 8 == 7 {
            rng.next() as i32
        } else {
            rng.int(dn.0, dn.1)
        };
        pairs.push((x, n));
    }
    for (x, n) in pairs {
        let got = ours(x, n);
        let r = reference(x, n);
        let err = ulp_err(got, &r);
        st.add(err, || {
            format!("{name}({}, {n}) = {} expected {}", show(x), show(got), r.to_f64())
        });
    }
    st.finish();
}

// ----------------------------------------------------- one-argument tests

macro_rules! one_arg {
    ($($test:ident: $name:literal, $bound:expr, $ours:expr, $mp:ident, $domain:expr;)*) => {$(
        #[test]
        fn $test() {
            check1($name, $bound, $ours, mp1!($mp), $domain);
        }
    )*};
}

one_arg! {
    acos: "acos", 4.0, clift_acos_f32, acos, (-1.0, 1.0);
    acosh: "acosh", 4.0, clift_acosh_f32, acosh, (1.0, 1e4);
    acospi: "acospi", 5.0, clift_acospi_f32, acospi, (-1.0, 1.0);
    asin: "asin", 4.0, clift_asin_f32, asin, (-1.0, 1.0);
    asinh: "asinh", 4.0, clift_asinh_f32, asinh, (-1e4, 1e4);
    asinpi: "asinpi", 5.0, clift_asinpi_f32, asinpi, (-1.0, 1.0);
    atan: "atan", 5.0, clift_atan_f32, atan, (-1e4, 1e4);
    atanh: "atanh", 5.0, clift_atanh_f32, atanh, (-1.0, 1.0);
    atanpi: "atanpi", 5.0, clift_atanpi_f32, atanpi, (-1e4, 1e4);
    cbrt: "cbrt", 2.0, clift_cbrt_f32, cbrt, (-1e6, 1e6);
    cos: "cos", 4.0, clift_cos_f32, cos, (-1e3, 1e3);
    cosh: "cosh", 4.0, clift_cosh_f32, cosh, (-90.0, 90.0);
    cospi: "cospi", 4.0, clift_cospi_f32, cospi, (-1e3, 1e3);
    erfc: "erfc", 16.0, clift_erfc_f32, erfc, (-5.0, 12.0);
    erf: "erf", 16.0, clift_erf_f32, erf, (-5.0, 5.0);
    exp: "exp", 3.0, clift_exp_f32, exp, (-104.0, 89.0);
    exp2: "exp2", 3.0, clift_exp2_f32, exp2, (-150.0, 129.0);
    exp10: "exp10", 3.0, clift_exp10_f32, exp10, (-46.0, 39.0);
    expm1: "expm1", 3.0, clift_expm1_f32, expm1, (-20.0, 89.0);
    log: "log", 3.0, clift_log_f32, log, (0.0, 1e4);
    log2: "log2", 3.0, clift_log2_f32, log2, (0.0, 1e4);
    log10: "log10", 3.0, clift_log10_f32, log10, (0.0, 1e4);
    log1p: "log1p", 2.0, clift_log1p_f32, log1p, (-1.0, 1e4);
    sin: "sin", 4.0, clift_sin_f32, sin, (-1e3, 1e3);
    sinh: "sinh", 4.0, clift_sinh_f32, sinh, (-90.0, 90.0);
    sinpi: "sinpi", 4.0, clift_sinpi_f32, sinpi, (-1e3, 1e3);
    tan: "tan", 5.0, clift_tan_f32, tan, (-1e3, 1e3);
    tanh: "tanh", 5.0, clift_tanh_f32, tanh, (-20.0, 20.0);
    tanpi: "tanpi", 6.0, clift_tanpi_f32, tanpi, (-1e3, 1e3);
    tgamma: "tgamma", 16.0, clift_tgamma_f32, gamma, (-40.0, 36.0);
    round: "round", 0.0, clift_round_f32, rint_round, (-1e3, 1e3);
}

/// lgamma's accuracy is implementation-defined; 16 ulp (tgamma's bound)
/// holds it to a useful standard and catches regressions.
#[test]
fn lgamma() {
    let reference = |x: f32| {
        let a = fl(x);
        let mut r = Float::new(PREC);
        let mut sign = 0;
        // SAFETY: as in `mp1`; `sign` is a live local.
        unsafe { mpfr::lgamma(r.as_raw_mut(), &mut sign, a.as_raw(), RNDN) };
        r
    };
    check1("lgamma", 16.0, clift_lgamma_f32, reference, (-40.0, 40.0));
}

/// rsqrt against 1 / sqrt(x) in MPFR (MPFR's rec_sqrt gives +inf for -0,
/// where 1/sqrt(-0) is -inf).
#[test]
fn rsqrt() {
    let reference = |x: f32| {
        let s = mp1!(sqrt)(x);
        Float::with_val(PREC, 1.0 / &s)
    };
    check1("rsqrt", 2.0, clift_rsqrt_f32, reference, (0.0, 1e4));
}

#[test]
fn ilogb_logb() {
    let mut st_i = Stats::new("ilogb", 0.0);
    let mut st_l = Stats::new("logb", 0.0);
    let mut rng = Rng::new("ilogb");
    let inputs: Vec<f32> = specials()
        .into_iter()
        .chain((0..random_count()).map(|_| rng.bits()))
        .collect();
    for x in inputs {
        let a = fl(x);
        // The reference: MPFR's exponent (x = m 2^e, 0.5 <= |m| < 1).
        let (want_i, want_l) = if x.is_nan() {
            (FP_ILOGBNAN, f32::NAN)
        } else if x.is_infinite() {
            (i32::MAX, f32::INFINITY)
        } else if x == 0.0 {
            (FP_ILOGB0, f32::NEG_INFINITY)
        } else {
            let e = a.get_exp().unwrap_or(0) - 1;
            (e, e as f32)
        };
        let got_i = clift_ilogb_f32(x);
        st_i.add(if got_i == want_i { 0.0 } else { f64::INFINITY }, || {
            format!("ilogb({}) = {got_i}", show(x))
        });
        let got_l = clift_logb_f32(x);
        let ok = got_l.to_bits() == want_l.to_bits() || (got_l.is_nan() && want_l.is_nan());
        st_l.add(if ok { 0.0 } else { f64::INFINITY }, || {
            format!("logb({}) = {got_l}", show(x))
        });
    }
    st_i.finish();
    st_l.finish();
}

// ----------------------------------------------------- two-argument tests

macro_rules! two_arg {
    ($($test:ident: $name:literal, $bound:expr, $ours:expr, $mp:ident, $dx:expr, $dy:expr;)*) => {$(
        #[test]
        fn $test() {
            check2($name, $bound, $ours, mp2!($mp), $dx, $dy);
        }
    )*};
}

two_arg! {
    atan2: "atan2", 6.0, clift_atan2_f32, atan2, (-10.0, 10.0), (-10.0, 10.0);
    atan2pi: "atan2pi", 6.0, clift_atan2pi_f32, atan2pi, (-10.0, 10.0), (-10.0, 10.0);
    fdim: "fdim", 0.5, clift_fdim_f32, dim, (-10.0, 10.0), (-10.0, 10.0);
    fmod: "fmod", 0.0, clift_frem_f32, fmod, (-100.0, 100.0), (-10.0, 10.0);
    hypot: "hypot", 4.0, clift_hypot_f32, hypot, (-1e4, 1e4), (-1e4, 1e4);
    pow: "pow", 16.0, clift_pow_f32, pow, (0.0, 10.0), (-40.0, 40.0);
    remainder: "remainder", 0.0, clift_remainder_f32, remainder, (-100.0, 100.0), (-10.0, 10.0);
}

/// powr against MPFR's (IEEE 754's) powr, except that OpenCL returns the
/// NaN for powr(x, NaN) even when x is 1.
#[test]
fn powr() {
    let reference = |x: f32, y: f32| {
        if x.is_nan() || y.is_nan() {
            Float::with_val(PREC, f64::NAN)
        } else {
            mp2!(powr)(x, y)
        }
    };
    check2("powr", 16.0, clift_powr_f32, reference, (0.0, 10.0), (-40.0, 40.0));
}

/// pow with a negative base and integer exponents, which the random pairs
/// above rarely produce.
#[test]
fn pow_negative_base() {
    let mut rng = Rng::new("pow-");
    let mut st = Stats::new("pow(-x,n)", 16.0);
    let reference = mp2!(pow);
    for _ in 0..random_count() / 4 {
        let x = -rng.uniform(0.0, 4.0);
        let y = rng.int(-80, 80) as f32;
        let err = ulp_err(clift_pow_f32(x, y), &reference(x, y));
        st.add(err, || format!("pow({}, {y})", show(x)));
    }
    st.finish();
}

#[test]
fn nextafter() {
    // The reference is libm's nextafterf, independent code.
    check2(
        "nextafter",
        0.0,
        clift_nextafter_f32,
        |x, y| fl(libm::nextafterf(x, y)),
        (-10.0, 10.0),
        (-10.0, 10.0),
    );
}

// ------------------------------------------------- float, int arguments

#[test]
fn ldexp() {
    check_fi("ldexp", 0.5, clift_ldexp_f32, mpi!(mul_2si), (-1e4, 1e4), (-300, 300));
}

#[test]
fn pown() {
    check_fi("pown", 16.0, clift_pown_f32, mpi!(pow_si), (-4.0, 4.0), (-60, 60));
}

#[test]
fn rootn() {
    check_fi("rootn", 16.0, clift_rootn_f32, mpi!(rootn_si), (-1e4, 1e4), (-20, 20));
}

// ------------------------------------------------ pointer-result tests

fn inputs_for(name: &str, domain: (f32, f32)) -> Vec<f32> {
    let mut rng = Rng::new(name);
    specials()
        .into_iter()
        .chain((0..random_count()).map(|i| rng.input(i, domain)))
        .collect()
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

#[test]
fn fract() {
    let mut st = Stats::new("fract", 0.5);
    for x in inputs_for("fract", (-100.0, 100.0)) {
        let mut ip = 0.0f32;
        // SAFETY: `ip` is a live local.
        let got = unsafe { clift_fract_f32(x, &mut ip) };
        // Reference: floor and x - floor in MPFR, rounded once, clamped.
        let fl_x = mp1!(rint_floor)(x);
        let (want, want_ip) = if x.is_nan() {
            (x, x)
        } else if x.is_infinite() {
            (0.0f32.copysign(x), x)
        } else if x == 0.0 {
            (x, x)
        } else {
            let frac = Float::with_val(PREC, &fl(x) - &fl_x).to_f32();
            (frac.min(f32::from_bits(0x3f7f_ffff)), fl_x.to_f32())
        };
        let ok = same(got, want) && same(ip, want_ip) && !(got >= 1.0 || got < 0.0 && got != 0.0);
        st.add(if ok { 0.0 } else { f64::INFINITY }, || {
            format!(
                "fract({}) = {} {} expected {} {}",
                show(x),
                show(got),
                show(ip),
                show(want),
                show(want_ip)
            )
        });
    }
    st.finish();
}

#[test]
fn frexp() {
    let mut st = Stats::new("frexp", 0.0);
    for x in inputs_for("frexp", (-100.0, 100.0)) {
        let mut e = 12345;
        // SAFETY: `e` is a live local.
        let got = unsafe { clift_frexp_f32(x, &mut e) };
        let (want, want_e) = if x == 0.0 || !x.is_finite() {
            (x, 0)
        } else {
            let a = fl(x);
            let ex = a.get_exp().unwrap_or(0);
            (Float::with_val(PREC, &a >> ex).to_f32(), ex)
        };
        let ok = same(got, want) && e == want_e;
        st.add(if ok { 0.0 } else { f64::INFINITY }, || {
            format!("frexp({}) = {} {e}", show(x), show(got))
        });
    }
    st.finish();
}

#[test]
fn modf() {
    let mut st = Stats::new("modf", 0.0);
    for x in inputs_for("modf", (-100.0, 100.0)) {
        let mut ip = 0.0f32;
        // SAFETY: `ip` is a live local.
        let got = unsafe { clift_modf_f32(x, &mut ip) };
        let t = mp1!(rint_trunc)(x);
        let want_ip = t.to_f32();
        let want = if x.is_nan() {
            x
        } else if x.is_infinite() {
            0.0f32.copysign(x)
        } else {
            Float::with_val(PREC, &fl(x) - &t).to_f32().copysign(x)
        };
        let ok = same(got, want) && same(ip, want_ip);
        st.add(if ok { 0.0 } else { f64::INFINITY }, || {
            format!("modf({}) = {} {}", show(x), show(got), show(ip))
        });
    }
    st.finish();
}

#[test]
fn remquo() {
    let mut st = Stats::new("remquo", 0.0);
    let mut rng = Rng::new("remquo");
    let core = core_specials();
    let mut pairs = Vec::new();
    for &x in &core {
        for &y in &core {
            pairs.push((x, y));
        }
    }
    for i in 0..random_count() {
        pairs.push(if i % 2 == 0 {
            (rng.bits(), rng.bits())
        } else {
            (rng.uniform(-1000.0, 1000.0), rng.uniform(-10.0, 10.0))
        });
    }
    for (x, y) in pairs {
        let mut q = 12345;
        // SAFETY: `q` is a live local.
        let got = unsafe { clift_remquo_f32(x, y, &mut q) };
        let (a, b) = (fl(x), fl(y));
        let mut r = Float::new(PREC);
        let mut rq: std::os::raw::c_long = 0;
        // SAFETY: as in `mp1`; `rq` is a live local.
        unsafe { mpfr::remquo(r.as_raw_mut(), &mut rq, a.as_raw(), b.as_raw(), RNDN) };
        let special = x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0;
        let ok = if special {
            got.is_nan() && q == 0
        } else {
            // The remainder exactly; at least the low 7 bits of the
            // quotient, with its sign.
            let sign_ok = rq & 0x7f == 0 || (q < 0) == (rq < 0);
            ulp_err(got, &r) == 0.0 && (q.unsigned_abs() & 0x7f) as i64 == (rq.unsigned_abs() & 0x7f) as i64 && sign_ok
        };
        st.add(if ok { 0.0 } else { f64::INFINITY }, || {
            format!(
                "remquo({}, {}) = {} {q} expected {} {rq}",
                show(x),
                show(y),
                show(got),
                r.to_f64()
            )
        });
    }
    st.finish();
}

#[test]
fn sincos() {
    let mut st = Stats::new("sincos", 4.0);
    let (s, c) = (mp1!(sin), mp1!(cos));
    for x in inputs_for("sincos", (-1e3, 1e3)) {
        let mut cv = 0.0f32;
        // SAFETY: `cv` is a live local.
        let sv = unsafe { clift_sincos_f32(x, &mut cv) };
        let err = ulp_err(sv, &s(x)).max(ulp_err(cv, &c(x)));
        st.add(err, || format!("sincos({}) = {} {}", show(x), show(sv), show(cv)));
    }
    st.finish();
}

#[test]
fn lgamma_r() {
    let mut st = Stats::new("lgamma_r", 16.0);
    for x in inputs_for("lgamma_r", (-40.0, 40.0)) {
        let mut sg = 12345;
        // SAFETY: `sg` is a live local.
        let got = unsafe { clift_lgamma_r_f32(x, &mut sg) };
        let a = fl(x);
        let mut r = Float::new(PREC);
        let mut rs = 0;
        // SAFETY: as in `mp1`; `rs` is a live local.
        unsafe { mpfr::lgamma(r.as_raw_mut(), &mut rs, a.as_raw(), RNDN) };
        let pole = x == 0.0 || (x < 0.0 && x == x.floor());
        let sign_ok = if pole {
            sg == 0
        } else if x.is_nan() || x == f32::NEG_INFINITY {
            true
        } else {
            sg == rs
        };
        let err = if sign_ok { ulp_err(got, &r) } else { f64::INFINITY };
        st.add(err, || {
            format!(
                "lgamma_r({}) = {} sign {sg} expected {} sign {rs}",
                show(x),
                show(got),
                r.to_f64()
            )
        });
    }
    st.finish();
}

// ---------------------------------------------------------- edge cases

/// The OpenCL "Edge Case Behavior" list and the C99 F.9 values it relies
/// on, value by value: each must be produced exactly.
#[test]
fn edge_cases() {
    let inf = f32::INFINITY;
    let nan = f32::NAN;
    let mut bad = Vec::new();
    let mut expect = |what: String, got: f32, want: f32| {
        if !same(got, want) {
            bad.push(format!("{what} = {} expected {}", show(got), show(want)));
        }
    };
    let finite_pos = [f32::from_bits(1), 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 1e10, f32::MAX];
    let ints = [
        1.0f32,
        2.0,
        3.0,
        4.0,
        5.0,
        100.0,
        101.0,
        8_388_607.0,
        8_388_608.0,
        16_777_216.0,
        3e38,
    ];
    let halves = [0.5f32, 1.5, 2.5, 3.5, 100.5, 8_388_607.5];

    expect("acospi(1)".into(), clift_acospi_f32(1.0), 0.0);
    for x in [1.5f32, -1.5, 2.0, inf, -inf] {
        expect(format!("acospi({x})"), clift_acospi_f32(x), nan);
        expect(format!("asinpi({x})"), clift_asinpi_f32(x), nan);
    }
    for z in [0.0f32, -0.0] {
        expect(format!("asinpi({z})"), clift_asinpi_f32(z), z);
        expect(format!("atanpi({z})"), clift_atanpi_f32(z), z);
        expect(format!("sinpi({z})"), clift_sinpi_f32(z), z);
        expect(format!("tanpi({z})"), clift_tanpi_f32(z), z);
        expect(format!("cospi({z})"), clift_cospi_f32(z), 1.0);
        expect(format!("exp10({z})"), clift_exp10_f32(z), 1.0);
        expect(
            format!("atan2pi({z}, -0)"),
            clift_atan2pi_f32(z, -0.0),
            1.0f32.copysign(z),
        );
        expect(format!("atan2pi({z}, +0)"), clift_atan2pi_f32(z, 0.0), z);
        for &x in &finite_pos {
            expect(
                format!("atan2pi({z}, -{x})"),
                clift_atan2pi_f32(z, -x),
                1.0f32.copysign(z),
            );
            expect(format!("atan2pi({z}, {x})"), clift_atan2pi_f32(z, x), z);
        }
        for &y in &finite_pos {
            expect(format!("atan2pi(-{y}, {z})"), clift_atan2pi_f32(-y, z), -0.5);
            expect(format!("atan2pi({y}, {z})"), clift_atan2pi_f32(y, z), 0.5);
        }
        expect(format!("fmod({z}, NaN)"), clift_frem_f32(z, nan), nan);
        expect(format!("powr({z}, -inf)"), clift_powr_f32(z, -inf), inf);
        expect(format!("pow({z}, -inf)"), clift_pow_f32(z, -inf), inf);
        expect(format!("powr({z}, +0)"), clift_powr_f32(z, 0.0), nan);
        expect(format!("powr({z}, -0)"), clift_powr_f32(z, -0.0), nan);
    }
    expect("atanpi(inf)".into(), clift_atanpi_f32(inf), 0.5);
    expect("atanpi(-inf)".into(), clift_atanpi_f32(-inf), -0.5);
    for &y in &finite_pos {
        for s in [1.0f32, -1.0] {
            expect(format!("atan2pi({}, -inf)", s * y), clift_atan2pi_f32(s * y, -inf), s);
            expect(
                format!("atan2pi({}, +inf)", s * y),
                clift_atan2pi_f32(s * y, inf),
                0.0f32.copysign(s),
            );
        }
    }
    for s in [1.0f32, -1.0] {
        for &x in finite_pos.iter().chain(&[0.0]) {
            expect(
                format!("atan2pi({}, {x})", s * inf),
                clift_atan2pi_f32(s * inf, x),
                0.5 * s,
            );
            expect(
                format!("atan2pi({}, {})", s * inf, -x),
                clift_atan2pi_f32(s * inf, -x),
                0.5 * s,
            );
        }
        expect(
            format!("atan2pi({}, -inf)", s * inf),
            clift_atan2pi_f32(s * inf, -inf),
            0.75 * s,
        );
        expect(
            format!("atan2pi({}, inf)", s * inf),
            clift_atan2pi_f32(s * inf, inf),
            0.25 * s,
        );
    }
    for &h in &halves {
        expect(format!("cospi({h})"), clift_cospi_f32(h), 0.0);
        expect(format!("cospi(-{h})"), clift_cospi_f32(-h), 0.0);
    }
    for x in [inf, -inf] {
        expect(format!("cospi({x})"), clift_cospi_f32(x), nan);
        expect(format!("sinpi({x})"), clift_sinpi_f32(x), nan);
        expect(format!("tanpi({x})"), clift_tanpi_f32(x), nan);
    }
    expect("exp10(-inf)".into(), clift_exp10_f32(-inf), 0.0);
    expect("exp10(inf)".into(), clift_exp10_f32(inf), inf);
    for &x in &[1.0f32, -1.0, 0.0, inf, -inf] {
        expect(format!("fdim({x}, NaN)"), clift_fdim_f32(x, nan), nan);
        expect(format!("fdim(NaN, {x})"), clift_fdim_f32(nan, x), nan);
    }
    // fract
    let mut ip = 7.0f32;
    for (x, want, want_ip) in [
        (0.0f32, 0.0f32, 0.0f32),
        (-0.0, -0.0, -0.0),
        (inf, 0.0, inf),
        (-inf, -0.0, -inf),
    ] {
        // SAFETY: `ip` is a live local.
        let got = unsafe { clift_fract_f32(x, &mut ip) };
        expect(format!("fract({x})"), got, want);
        expect(format!("fract({x}) iptr"), ip, want_ip);
    }
    // SAFETY: as above.
    let got = unsafe { clift_fract_f32(nan, &mut ip) };
    expect("fract(NaN)".into(), got, nan);
    expect("fract(NaN) iptr".into(), ip, nan);
    // frexp
    for x in [inf, -inf, nan] {
        let mut e = 7;
        // SAFETY: `e` is a live local.
        let got = unsafe { clift_frexp_f32(x, &mut e) };
        expect(format!("frexp({x})"), got, x);
        expect(format!("frexp({x}) exp"), e as f32, 0.0);
    }
    // lgamma_r sign at zero and the negative integers
    for x in [0.0f32, -0.0, -1.0, -2.0, -3.0, -100.0, -8_388_608.0] {
        let mut s = 7;
        // SAFETY: `s` is a live local.
        unsafe { clift_lgamma_r_f32(x, &mut s) };
        expect(format!("lgamma_r({x}) sign"), s as f32, 0.0);
    }
    // nextafter through the denormals
    expect(
        "nextafter(-0, 1)".into(),
        clift_nextafter_f32(-0.0, 1.0),
        f32::from_bits(1),
    );
    expect(
        "nextafter(+0, -1)".into(),
        clift_nextafter_f32(0.0, -1.0),
        -f32::from_bits(1),
    );
    expect(
        "nextafter(MIN, 0)".into(),
        clift_nextafter_f32(f32::MIN_POSITIVE, 0.0),
        f32::from_bits(0x007f_ffff),
    );
    // pown
    for x in [0.0f32, -0.0, 1.0, -3.5, inf, -inf, nan] {
        expect(format!("pown({x}, 0)"), clift_pown_f32(x, 0), 1.0);
    }
    for z in [0.0f32, -0.0] {
        for n in [-1, -3, -5, i32::MIN + 1] {
            expect(format!("pown({z}, {n})"), clift_pown_f32(z, n), inf.copysign(z));
            expect(format!("rootn({z}, {n})"), clift_rootn_f32(z, n), inf.copysign(z));
        }
        for n in [-2, -4, i32::MIN] {
            expect(format!("pown({z}, {n})"), clift_pown_f32(z, n), inf);
            expect(format!("rootn({z}, {n})"), clift_rootn_f32(z, n), inf);
        }
        for n in [2, 4, i32::MAX - 1] {
            expect(format!("pown({z}, {n})"), clift_pown_f32(z, n), 0.0);
            expect(format!("rootn({z}, {n})"), clift_rootn_f32(z, n), 0.0);
        }
        for n in [1, 3, i32::MAX] {
            expect(format!("pown({z}, {n})"), clift_pown_f32(z, n), z);
            expect(format!("rootn({z}, {n})"), clift_rootn_f32(z, n), z);
        }
    }
    // powr
    for &x in &finite_pos {
        expect(format!("powr({x}, 0)"), clift_powr_f32(x, 0.0), 1.0);
        expect(format!("powr({x}, -0)"), clift_powr_f32(x, -0.0), 1.0);
        expect(format!("powr(1, {x})"), clift_powr_f32(1.0, x), 1.0);
        expect(format!("powr(1, -{x})"), clift_powr_f32(1.0, -x), 1.0);
        expect(format!("powr(-{x}, 2)"), clift_powr_f32(-x, 2.0), nan);
        for z in [0.0f32, -0.0] {
            expect(format!("powr({z}, -{x})"), clift_powr_f32(z, -x), inf);
            expect(format!("powr({z}, {x})"), clift_powr_f32(z, x), 0.0);
        }
        expect(format!("powr({x}, NaN)"), clift_powr_f32(x, nan), nan);
        expect(format!("powr(NaN, {x})"), clift_powr_f32(nan, x), nan);
    }
    expect("powr(0, inf)".into(), clift_powr_f32(0.0, inf), 0.0);
    expect("powr(inf, 0)".into(), clift_powr_f32(inf, 0.0), nan);
    expect("powr(inf, -0)".into(), clift_powr_f32(inf, -0.0), nan);
    expect("powr(1, inf)".into(), clift_powr_f32(1.0, inf), nan);
    expect("powr(1, -inf)".into(), clift_powr_f32(1.0, -inf), nan);
    expect("powr(-inf, 2)".into(), clift_powr_f32(-inf, 2.0), nan);
    // remquo
    for (x, y) in [
        (inf, 1.0f32),
        (-inf, 2.0),
        (1.0, 0.0),
        (1.0, -0.0),
        (nan, 1.0),
        (1.0, nan),
        (0.0, 0.0),
    ] {
        let mut q = 7;
        // SAFETY: `q` is a live local.
        let got = unsafe { clift_remquo_f32(x, y, &mut q) };
        expect(format!("remquo({x}, {y})"), got, nan);
        expect(format!("remquo({x}, {y}) quo"), q as f32, 0.0);
    }
    // rootn
    for x in [-1.0f32, -8.0, -inf] {
        for n in [2, 4, -2] {
            expect(format!("rootn({x}, {n})"), clift_rootn_f32(x, n), nan);
        }
    }
    for x in [0.0f32, 1.0, 8.0, -8.0, inf] {
        expect(format!("rootn({x}, 0)"), clift_rootn_f32(x, 0), nan);
    }
    // round, sinpi, tanpi
    for x in [-0.25f32, -0.49999997, -f32::from_bits(1)] {
        expect(format!("round({x})"), clift_round_f32(x), -0.0);
    }
    for &n in &ints {
        expect(format!("sinpi({n})"), clift_sinpi_f32(n), 0.0);
        expect(format!("sinpi(-{n})"), clift_sinpi_f32(-n), -0.0);
        let odd = n < 16_777_216.0 && (n as i64) % 2 == 1;
        let t = if odd { -0.0 } else { 0.0 };
        expect(format!("tanpi({n})"), clift_tanpi_f32(n), t);
        expect(format!("tanpi(-{n})"), clift_tanpi_f32(-n), -t);
    }
    for &h in &halves {
        let n = (h - 0.5) as i64; // h = n + 0.5
        let pole = if n % 2 == 0 { inf } else { -inf };
        expect(format!("tanpi({h})"), clift_tanpi_f32(h), pole);
        // -h = -(n + 1) + 0.5: the parity of n + 1.
        expect(format!("tanpi(-{h})"), clift_tanpi_f32(-h), -pole);
    }
    assert!(bad.is_empty(), "{} edge cases wrong:\n{}", bad.len(), bad.join("\n"));
}
