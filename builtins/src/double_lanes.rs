//! `sin`, `cos`, `tan`, `pow`, `exp2`, `exp10`, `log2` and `log10` of
//! `float`, evaluated in `double`: four lanes per AVX2 instruction, eight
//! per call from 8-lane kernel bodies.
//!
//! Each function is one algorithm written once, generic over `Lanes64` (a
//! set of `f64` lanes with IEEE operations and a fused multiply-add),
//! instantiated for one `f64` (the scalar functions `clift_sin_f32`, ...)
//! and, on x86-64 with AVX2 and FMA, for four `f64`s in one `__m256d` (the
//! 4-lane entry points once, the 8-lane ones twice). As in
//! `crate::float_lanes`, every operation is exact or rounded once (the
//! multiply-adds fused in every form: the instruction, or `f64::mul_add`'s
//! correctly rounded software version on CPUs without FMA), so every form
//! gives the same bits. The arguments convert to `double` exactly and the
//! result is rounded to `float` once. These functions keep `double`
//! arithmetic: evaluated in `float` (measured on this project's machine)
//! sin and cos need a two-`float` reduction that makes them no faster per
//! lane than this, and less accurate (0.72 ulp against 0.5001), and pow
//! needs log x to more bits than a `float` has (an error of one `float`
//! ulp in log x is |y log x| ulp in the result).
//!
//! - `sin(x)`, `cos(x)` for |x| < 2^24 ([`TRIG_BOUND`]): k = round(x 2/pi)
//!   (|k| < 2^24), r = x - k pi/2 with pi/2 in two doubles (x - k P1 is
//!   exact: both are multiples of 2^-52 and the difference is below 1;
//!   the error of k P2 is below 2^-82, tiny against the smallest |r| of a
//!   float argument), then sin(r) = r (1 + r^2 S(r^2)) and cos(r) = 1 + r^2
//!   C(r^2) with the Taylor coefficients up to r^11 and r^12 (truncation
//!   below 1e-11 relative for |r| <= pi/4), and the quadrant k mod 4
//!   (cos: k + 1) picks sin(r) or cos(r) and the sign: relative error
//!   below 2^-31 before the rounding, at most 0.5 ulp plus a few
//!   thousandths.
//! - `tan(x)`: the same reduction, sin(r) / cos(r) for even k and -cos(r)
//!   / sin(r) for odd k (r is never 0 there: pi/2 is irrational), in
//!   `double`: the same accuracy.
//! - Larger arguments of the three, infinities and NaNs are `libm`'s double
//!   functions (exact reduction, Payne-Hanek) rounded once, lane by lane in
//!   every form.
//! - `pow(x, y)` for x > 0 finite and y finite: x = 2^e m with m in
//!   [sqrt(1/2), sqrt(2)) taken from the bits, f = m - 1 (exact), log x = e
//!   ln2 + f P(f) with P of degree 11 (relative error 1.2e-10); t = y log x
//!   (|t| <= 2^128 * 104: finite), clamped to [-104, 89] (beyond, the
//!   `float` result is 0 or inf anyway); k = round(t / ln2), r = t - k
//!   ln2, e^r by a degree-7 polynomial (relative error 6e-11), times 2^k
//!   built from k's bits (exact: a normal double). The relative error
//!   before the rounding is below 1.3e-8 (the log's, times |t| <= 104),
//!   about a fifth of an ulp: the result is within 0.6 ulp (bound 16), and
//!   a result that is a `float` (pow(2, 3), pow(9, 0.5)) comes out exactly,
//!   being within 1.3e-8 of it. Every other lane (x <= 0, x infinite or
//!   NaN, y infinite or NaN: the special values of C99 F.9.4.4 and negative
//!   bases) is `libm`'s double `pow` rounded once, lane by lane in every
//!   form, as the scalar function was before.
//! - `exp2(x)` = e^(x ln2), `exp10(x)` = e^(x ln10) (the product rounded
//!   once, then pow's exponential), for finite x; `log2(x)` = e + l
//!   log2(e), `log10(x)` = e log10(2) + l log10(e), with log x = e ln2 + l
//!   as in pow, for positive finite x (exact for powers of two: l = 0).
//!   Every other argument is `libm`'s double function rounded once, lane
//!   by lane in every form. All four within 0.502 ulp (bound 3).
//!
//! `examples/fit_float_lanes.rs` regenerates the two polynomials of pow
//! and the exp and log functions (`log64 11`, `exp64 7`); sin and cos use
//! the Taylor coefficients.

use crate::float_lanes::{estrin, splat_all, Arith};

/// A set of `f64` lanes: what the algorithms here need besides [`Arith`].
pub(crate) trait Lanes64: Arith<Scalar = f64> {
    /// Lane masks (all ones / all zeros per lane, or a `bool`).
    type Mask: Copy;
    /// `self + o`.
    fn add(self, o: Self) -> Self;
    /// `self - o`.
    fn sub(self, o: Self) -> Self;
    /// `self / o`.
    fn div(self, o: Self) -> Self;
    /// `m ? a : b`, lane by lane.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Whether bit `n` of the bits of `self` is set (the quadrant of
    /// `sin` and `cos`, in the low bits of `k + SHIFT`).
    fn bit(self, n: u32) -> Self::Mask;
    /// `self < o ? self : o` (so `o` when either is NaN).
    fn min(self, o: Self) -> Self;
    /// `self > o ? self : o` (so `o` when either is NaN).
    fn max(self, o: Self) -> Self;
    /// `2^k` from `kd = k + SHIFT` (|k| < 1023): k is in kd's low bits.
    fn pow2_from_shifted(kd: Self) -> Self;
    /// For positive finite normal `self` = 2^e m with m in
    /// [sqrt(1/2), sqrt(2)): `(e, m)`, both exact. Other lanes get
    /// arbitrary values (no trap, no panic).
    fn split_log(self) -> (Self, Self);
}

/// The mantissa bits of sqrt(1/2): subtracting them from a double's bits
/// moves the exponent boundary from 1 to sqrt(1/2) (used by `split_log`).
const SQRT_HALF_MANT: u64 = 0x0006_a09e_667f_3bcd;
/// The sign and exponent field of a double.
const EXP_MASK: u64 = 0xfff0_0000_0000_0000;
/// The exponent field of 0.5 (biased exponent 1022).
const HALF_EXP: u64 = 0x3fe0_0000_0000_0000;
/// The bits of 2^52: OR-ing an integer n < 2^52 into them gives 2^52 + n.
const TWO52_BITS: u64 = 0x4330_0000_0000_0000;
/// 2^52 + 1022: the biased exponent field, read through [`TWO52_BITS`],
/// minus this is the exponent of x relative to [sqrt(1/2), sqrt(2)).
const E_OFFSET: f64 = 4_503_599_627_371_518.0;
/// 1.5 * 2^52: adding it rounds a double of magnitude < 2^51 to an
/// integer (to nearest, ties to even), which lands in the low bits.
const SHIFT: f64 = 6_755_399_441_055_744.0;

/// P(f) = log(1 + f) / f for f in [sqrt(1/2) - 1, sqrt(2) - 1], relative
/// error 1.2e-10.
const LOG_POLY: [f64; 12] = [
    1.000000000048012,
    -0.5000000030845538,
    0.3333333084628052,
    -0.24999936585814816,
    0.2000016963794254,
    -0.16670383652377296,
    0.14283798395270253,
    -0.12410885665961421,
    0.11042736039719009,
    -0.10898112577877182,
    0.10636542375579949,
    -0.058456713350896326,
];

/// e^r for |r| <= 0.35, relative error 6e-11.
const EXP_POLY: [f64; 8] = [
    0.9999999999562482,
    0.9999999999951411,
    0.5000000114285581,
    0.1666666679358881,
    0.04166620030195901,
    0.008333281538106084,
    0.0013949766623900918,
    0.00019908888752377812,
];

/// One lane. `mul_add` is the fused multiply-add (the FMA instruction
/// where the function is compiled with it, a correctly rounded software
/// fused multiply-add otherwise).
impl Arith for f64 {
    type Scalar = f64;
    #[inline(always)]
    fn splat(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    #[inline(always)]
    fn fma(self, b: f64, c: f64) -> f64 {
        self.mul_add(b, c)
    }
}

impl Lanes64 for f64 {
    type Mask = bool;
    #[inline(always)]
    fn add(self, o: f64) -> f64 {
        self + o
    }
    #[inline(always)]
    fn div(self, o: f64) -> f64 {
        self / o
    }
    #[inline(always)]
    fn select(m: bool, a: f64, b: f64) -> f64 {
        if m {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn bit(self, n: u32) -> bool {
        (self.to_bits() >> n) & 1 == 1
    }
    #[inline(always)]
    fn sub(self, o: f64) -> f64 {
        self - o
    }
    #[inline(always)]
    fn min(self, o: f64) -> f64 {
        if self < o {
            self
        } else {
            o
        }
    }
    #[inline(always)]
    fn max(self, o: f64) -> f64 {
        if self > o {
            self
        } else {
            o
        }
    }
    #[inline(always)]
    fn pow2_from_shifted(kd: f64) -> f64 {
        f64::from_bits(kd.to_bits().wrapping_add(1023) << 52)
    }
    #[inline(always)]
    fn split_log(self) -> (f64, f64) {
        let u = self.to_bits();
        let v = u.wrapping_sub(SQRT_HALF_MANT);
        let m = f64::from_bits(u.wrapping_sub(v & EXP_MASK).wrapping_add(HALF_EXP));
        let e = f64::from_bits((v >> 52) | TWO52_BITS) - E_OFFSET;
        (e, m)
    }
}

/// For positive finite `x` (a `float` held exactly in `f64` lanes; other
/// lanes get arbitrary values): `(e, l)` with log x = e ln2 + l, e an
/// integer, l = log(m) for m = x 2^-e in [sqrt(1/2), sqrt(2)) (relative
/// error 1.2e-10).
#[inline(always)]
fn log_parts<V: Lanes64>(x: V) -> (V, V) {
    let (e, m) = x.split_log();
    let f = m.sub(V::splat(1.0)); // exact: m in [0.7, 1.5)
    (e, f.mul(estrin(f, splat_all(&LOG_POLY))))
}

/// e^t for finite `t`, before the rounding to `float` (relative error 6e-11;
/// beyond [-104, 89] the `float` result is 0 or inf, which the clamped
/// argument still gives).
#[inline(always)]
fn exp_of<V: Lanes64>(t: V) -> V {
    let tc = t.max(V::splat(-104.0)).min(V::splat(89.0));
    let kd = tc.fma(V::splat(core::f64::consts::LOG2_E), V::splat(SHIFT));
    let k = kd.sub(V::splat(SHIFT));
    // |k| <= 150: r's error k * (ln2 - LN_2) is below 4e-15.
    let r = k.fma(V::splat(-core::f64::consts::LN_2), tc);
    let q = estrin(r, splat_all(&EXP_POLY));
    // 2^k is a normal double for k in [-150, 128]: the product is exact.
    q.mul(V::pow2_from_shifted(kd))
}

/// pow(x, y) of `float` arguments held exactly in `f64` lanes, for x > 0
/// finite and y finite (other lanes get arbitrary values), before the
/// rounding to `float`.
#[inline(always)]
pub(crate) fn pow_finite<V: Lanes64>(x: V, y: V) -> V {
    let (e, l) = log_parts(x);
    let log_x = e.fma(V::splat(core::f64::consts::LN_2), l);
    exp_of(y.mul(log_x))
}

/// `exp2` of finite `float` arguments held exactly in `f64` lanes: e^(x
/// ln2), the product's rounding (2^-53 relative, |x ln2| <= 104 where it
/// matters) far below the rest.
#[inline(always)]
pub(crate) fn exp2<V: Lanes64>(x: V) -> V {
    exp_of(x.mul(V::splat(core::f64::consts::LN_2)))
}

/// `exp10` of finite `float` arguments held exactly in `f64` lanes: e^(x
/// ln10).
#[inline(always)]
pub(crate) fn exp10<V: Lanes64>(x: V) -> V {
    exp_of(x.mul(V::splat(core::f64::consts::LN_10)))
}

/// `log2` of positive finite `float` arguments held exactly in `f64`
/// lanes: e + l log2(e) (exact for powers of two: l = 0).
#[inline(always)]
pub(crate) fn log2<V: Lanes64>(x: V) -> V {
    let (e, l) = log_parts(x);
    l.fma(V::splat(core::f64::consts::LOG2_E), e)
}

/// `log10` of positive finite `float` arguments held exactly in `f64`
/// lanes: e log10(2) + l log10(e).
#[inline(always)]
pub(crate) fn log10<V: Lanes64>(x: V) -> V {
    let (e, l) = log_parts(x);
    e.fma(
        V::splat(core::f64::consts::LOG10_2),
        l.mul(V::splat(core::f64::consts::LOG10_E)),
    )
}

/// `sin`, `cos` and `tan` reduce arguments of smaller magnitude
/// themselves (2^24: the quadrant k fits 24 bits, so `x - k * PIO2_HI` is
/// exact); larger ones, infinities and NaNs are [`large_sin`],
/// [`large_cos`] and [`large_tan`].
pub const TRIG_BOUND: f32 = 16_777_216.0;
/// pi/2 rounded to double.
const PIO2_HI: f64 = core::f64::consts::FRAC_PI_2;
/// pi/2 - PIO2_HI rounded to double.
const PIO2_LO: f64 = 6.123_233_995_736_766e-17;
/// sin(r) = r (1 + r^2 S(r^2)): the Taylor coefficients of r^3 ... r^11.
const SIN_POLY: [f64; 5] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
];
/// cos(r) = 1 + r^2 C(r^2): the Taylor coefficients of r^2 ... r^12.
const COS_POLY: [f64; 6] = [
    -1.0 / 2.0,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
];

/// For `float` arguments held exactly in `f64` lanes, |x| <
/// [`TRIG_BOUND`] (other lanes get arbitrary values): `kd` = k + `SHIFT`
/// with k = round(x 2/pi), sin(r) and cos(r) for r = x - k pi/2.
#[inline(always)]
fn reduced_sin_cos<V: Lanes64>(x: V) -> (V, V, V) {
    let kd = x.fma(V::splat(core::f64::consts::FRAC_2_PI), V::splat(SHIFT));
    let k = kd.sub(V::splat(SHIFT));
    let r = k.fma(V::splat(-PIO2_HI), x);
    let r = k.fma(V::splat(-PIO2_LO), r);
    let t = r.mul(r);
    // r (1 + t S(t)), not r + r t S(t): sin(-0) = -0.
    let s = r.mul(t.fma(estrin(t, splat_all(&SIN_POLY)), V::splat(1.0)));
    let c = t.fma(estrin(t, splat_all(&COS_POLY)), V::splat(1.0));
    (kd, s, c)
}

/// sin(x + turns * pi/2) (turns 0 or 1) of `float` arguments held exactly
/// in `f64` lanes, |x| < [`TRIG_BOUND`] (other lanes get arbitrary values).
#[inline(always)]
fn sin_quarter_turns<V: Lanes64>(x: V, turns: f64) -> V {
    let (kd, s, c) = reduced_sin_cos(x);
    // sin(r + q pi/2) for q = k + turns: sin, cos, -sin, -cos by q mod 4.
    let q = kd.add(V::splat(turns));
    let v = V::select(q.bit(0), c, s);
    V::select(q.bit(1), v.mul(V::splat(-1.0)), v)
}

/// `sin` of `float` arguments below [`TRIG_BOUND`] held exactly in `f64`
/// lanes.
#[inline(always)]
pub(crate) fn sin<V: Lanes64>(x: V) -> V {
    sin_quarter_turns(x, 0.0)
}

/// `cos` of `float` arguments below [`TRIG_BOUND`] held exactly in `f64`
/// lanes.
#[inline(always)]
pub(crate) fn cos<V: Lanes64>(x: V) -> V {
    sin_quarter_turns(x, 1.0)
}

/// `tan` of `float` arguments below [`TRIG_BOUND`] held exactly in `f64`
/// lanes: tan(r + k pi/2) is sin(r) / cos(r) for even k, -cos(r) / sin(r)
/// for odd k.
#[inline(always)]
pub(crate) fn tan<V: Lanes64>(x: V) -> V {
    let (kd, s, c) = reduced_sin_cos(x);
    let odd = kd.bit(0);
    V::select(odd, c.mul(V::splat(-1.0)), s).div(V::select(odd, s, c))
}

/// `sin(x)` for |x| >= [`TRIG_BOUND`], ±inf and NaN: `libm`'s double
/// function (exact reduction) rounded once.
pub fn large_sin(x: f32) -> f32 {
    libm::sin(x as f64) as f32
}

/// `cos(x)` for |x| >= [`TRIG_BOUND`], ±inf and NaN (see [`large_sin`]).
pub fn large_cos(x: f32) -> f32 {
    libm::cos(x as f64) as f32
}

/// `tan(x)` for |x| >= [`TRIG_BOUND`], ±inf and NaN (see [`large_sin`]).
pub fn large_tan(x: f32) -> f32 {
    libm::tan(x as f64) as f32
}

/// `exp2(x)` for infinite and NaN `x`: `libm`'s double function rounded
/// once (exp2(-inf) = +0, exp2(+inf) = +inf, NaN quieted).
pub fn exp2_by_libm(x: f32) -> f32 {
    libm::exp2(x as f64) as f32
}

/// `exp10(x)` for infinite and NaN `x` (see [`exp2_by_libm`]).
pub fn exp10_by_libm(x: f32) -> f32 {
    libm::exp10(x as f64) as f32
}

/// `log2(x)` for x <= 0, +inf and NaN: `libm`'s double function rounded
/// once (log2(±0) = -inf, NaN below 0, log2(+inf) = +inf).
pub fn log2_by_libm(x: f32) -> f32 {
    libm::log2(x as f64) as f32
}

/// `log10(x)` for x <= 0, +inf and NaN (see [`log2_by_libm`]).
pub fn log10_by_libm(x: f32) -> f32 {
    libm::log10(x as f64) as f32
}

/// The arguments a one-argument function here computes itself: `lo < v <
/// hi` for v = |x| (`abs`) or x; NaNs never. Every other argument goes to
/// the function's `libm` fallback, lane by lane in every form.
#[derive(Clone, Copy)]
struct Handled {
    abs: bool,
    lo: f32,
    hi: f32,
}

impl Handled {
    /// sin, cos, tan: |x| < [`TRIG_BOUND`].
    const TRIG: Handled = Handled {
        abs: true,
        lo: -1.0,
        hi: TRIG_BOUND,
    };
    /// exp2, exp10: finite x.
    const FINITE: Handled = Handled {
        abs: true,
        lo: -1.0,
        hi: f32::INFINITY,
    };
    /// log2, log10: positive finite x.
    const POSITIVE: Handled = Handled {
        abs: false,
        lo: 0.0,
        hi: f32::INFINITY,
    };

    #[inline(always)]
    fn contains(self, x: f32) -> bool {
        let v = if self.abs { x.abs() } else { x };
        v > self.lo && v < self.hi
    }
}

crate::float_lanes::lane_entry_points! {
    /// `sin(x)`: at most 0.5 ulp plus about 0.001 ulp.
    sin: clift_sin_f32, clift_sin_f32x4, clift_sin_v4, clift_sin_v8, sin_fma1, x => sin::<f64>(x as f64) as f32, Handled::TRIG, large_sin;
    /// `cos(x)`: at most 0.5 ulp plus about 0.001 ulp.
    cos: clift_cos_f32, clift_cos_f32x4, clift_cos_v4, clift_cos_v8, cos_fma1, x => cos::<f64>(x as f64) as f32, Handled::TRIG, large_cos;
    /// `tan(x)`: at most 0.5 ulp plus a few thousandths of an ulp.
    tan: clift_tan_f32, clift_tan_f32x4, clift_tan_v4, clift_tan_v8, tan_fma1, x => tan::<f64>(x as f64) as f32, Handled::TRIG, large_tan;
    /// `exp2(x)`: at most 0.5 ulp plus a few thousandths of an ulp.
    exp2: clift_exp2_f32, clift_exp2_f32x4, clift_exp2_v4, clift_exp2_v8, exp2_fma1, x => exp2::<f64>(x as f64) as f32, Handled::FINITE, exp2_by_libm;
    /// `exp10(x)`: at most 0.5 ulp plus a few thousandths of an ulp.
    exp10: clift_exp10_f32, clift_exp10_f32x4, clift_exp10_v4, clift_exp10_v8, exp10_fma1, x => exp10::<f64>(x as f64) as f32, Handled::FINITE, exp10_by_libm;
    /// `log2(x)`: at most 0.5 ulp plus a few thousandths of an ulp.
    log2: clift_log2_f32, clift_log2_f32x4, clift_log2_v4, clift_log2_v8, log2_fma1, x => log2::<f64>(x as f64) as f32, Handled::POSITIVE, log2_by_libm;
    /// `log10(x)`: at most 0.5 ulp plus a few thousandths of an ulp.
    log10: clift_log10_f32, clift_log10_f32x4, clift_log10_v4, clift_log10_v8, log10_fma1, x => log10::<f64>(x as f64) as f32, Handled::POSITIVE, log10_by_libm;
}

/// `sin`, `cos`, `tan`, `exp2`, `exp10`, `log2` or `log10` (by OpenCL.std
/// name) of `x` computed without the FMA instruction, as a CPU without FMA does (the fused multiply-adds in
/// software): for tests, which check that it agrees bitwise with the entry
/// points. `None` for other names.
pub fn without_fma_instruction(name: &str, x: f32) -> Option<f32> {
    let x64 = x as f64;
    type Parts = (Handled, fn(f32) -> f32, fn(f64) -> f64);
    let (handled, fallback, kernel): Parts = match name {
        "sin" => (Handled::TRIG, large_sin, sin::<f64>),
        "cos" => (Handled::TRIG, large_cos, cos::<f64>),
        "tan" => (Handled::TRIG, large_tan, tan::<f64>),
        "exp2" => (Handled::FINITE, exp2_by_libm, exp2::<f64>),
        "exp10" => (Handled::FINITE, exp10_by_libm, exp10::<f64>),
        "log2" => (Handled::POSITIVE, log2_by_libm, log2::<f64>),
        "log10" => (Handled::POSITIVE, log10_by_libm, log10::<f64>),
        _ => return None,
    };
    Some(if handled.contains(x) {
        kernel(x64) as f32
    } else {
        fallback(x)
    })
}

/// The address of the 8-lane form of `sin`, `cos`, `tan`, `exp2`, `exp10`,
/// `log2` or `log10` (by OpenCL.std
/// name) for JIT code on x86-64 System V: an `extern "C" fn(__m128,
/// __m128, *mut f32)` (see `clift_sin_v8`). Where the CPU has AVX2 and FMA,
/// the AVX2 function itself (no check per call), else the portable form.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn eight_lanes(name: &str) -> Option<usize> {
    #[allow(improper_ctypes_definitions)] // see `float_lanes::lane_entry_points!`
    type Eight = unsafe extern "C" fn(core::arch::x86_64::__m128, core::arch::x86_64::__m128, *mut f32);
    let avx = crate::float_lanes::has_avx2_fma();
    let f: Eight = match (name, avx) {
        ("sin", true) => avx2::sin::eight,
        ("cos", true) => avx2::cos::eight,
        ("tan", true) => avx2::tan::eight,
        ("exp2", true) => avx2::exp2::eight,
        ("exp10", true) => avx2::exp10::eight,
        ("log2", true) => avx2::log2::eight,
        ("log10", true) => avx2::log10::eight,
        ("sin", false) => clift_sin_v8,
        ("cos", false) => clift_cos_v8,
        ("tan", false) => clift_tan_v8,
        ("exp2", false) => clift_exp2_v8,
        ("exp10", false) => clift_exp10_v8,
        ("log2", false) => clift_log2_v8,
        ("log10", false) => clift_log10_v8,
        _ => return None,
    };
    Some(f as usize)
}

/// The address of the register form of `sin`, `cos`, `tan`, `exp2`,
/// `exp10`, `log2` or `log10` (by
/// OpenCL.std name) for JIT code on x86-64 System V: an `extern "C"
/// fn(__m128) -> __m128`. Where the CPU has AVX2 and FMA, the AVX2
/// function itself, else the portable form.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn four_lanes_in_register(name: &str) -> Option<usize> {
    #[allow(improper_ctypes_definitions)] // see `float_lanes::lane_entry_points!`
    type Reg = unsafe extern "C" fn(core::arch::x86_64::__m128) -> core::arch::x86_64::__m128;
    let avx = crate::float_lanes::has_avx2_fma();
    let f: Reg = match (name, avx) {
        ("sin", true) => avx2::sin::four,
        ("cos", true) => avx2::cos::four,
        ("tan", true) => avx2::tan::four,
        ("exp2", true) => avx2::exp2::four,
        ("exp10", true) => avx2::exp10::four,
        ("log2", true) => avx2::log2::four,
        ("log10", true) => avx2::log10::four,
        ("sin", false) => clift_sin_v4,
        ("cos", false) => clift_cos_v4,
        ("tan", false) => clift_tan_v4,
        ("exp2", false) => clift_exp2_v4,
        ("exp10", false) => clift_exp10_v4,
        ("log2", false) => clift_log2_v4,
        ("log10", false) => clift_log10_v4,
        _ => return None,
    };
    Some(f as usize)
}

/// Whether pow(x, y) is [`pow_finite`]'s (else [`pow_by_libm`]'s).
#[inline(always)]
fn is_finite_case(x: f32, y: f32) -> bool {
    x > 0.0 && x < f32::INFINITY && y.abs() < f32::INFINITY
}

/// pow(x, y) for the other arguments: `libm`'s double function rounded
/// once, with C99's special values (F.9.4.4).
pub fn pow_by_libm(x: f32, y: f32) -> f32 {
    libm::pow(x as f64, y as f64) as f32
}

/// The scalar form compiled with the FMA instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
fn pow_fma1(x: f32, y: f32) -> f32 {
    pow_finite::<f64>(x as f64, y as f64) as f32
}

/// `pow(x, y)`: within 0.7 ulp, exact where the result is a `float` (see
/// the module documentation).
pub extern "C" fn clift_pow_f32(x: f32, y: f32) -> f32 {
    if !is_finite_case(x, y) {
        return pow_by_libm(x, y);
    }
    #[cfg(target_arch = "x86_64")]
    if crate::float_lanes::has_avx2_fma() {
        // SAFETY: the CPU has FMA (checked at run time).
        return unsafe { pow_fma1(x, y) };
    }
    pow_finite::<f64>(x as f64, y as f64) as f32
}

/// `pow` on the four floats of two SSE registers (System V: `x` in
/// `xmm0`, `y` in `xmm1`, the result in `xmm0`): bitwise the scalar
/// function on each lane. 4-lane kernel bodies call this form on x86-64.
// `__m128` is an SSE vector, which the System V ABI passes and returns in
// `xmm` registers (SSE is part of x86-64); the lint only says that Rust
// does not promise a C layout for SIMD types in general.
#[cfg(target_arch = "x86_64")]
#[allow(improper_ctypes_definitions)]
pub extern "C" fn clift_pow_v4(
    x: core::arch::x86_64::__m128,
    y: core::arch::x86_64::__m128,
) -> core::arch::x86_64::__m128 {
    if crate::float_lanes::has_avx2_fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked at run time).
        return unsafe { avx2::four(x, y) };
    }
    let (mut a, mut b) = ([0.0f32; 4], [0.0f32; 4]);
    // SAFETY: `a` and `b` hold four floats: unaligned 16-byte stores and
    // load (SSE is part of x86-64).
    unsafe {
        core::arch::x86_64::_mm_storeu_ps(a.as_mut_ptr(), x);
        core::arch::x86_64::_mm_storeu_ps(b.as_mut_ptr(), y);
        for (v, &w) in a.iter_mut().zip(&b) {
            *v = clift_pow_f32(*v, w);
        }
        core::arch::x86_64::_mm_loadu_ps(a.as_ptr())
    }
}

/// `pow` on eight lanes: `x` in `x_lo` (`xmm0`) and `x_hi` (`xmm1`), `y` in
/// `y_lo` (`xmm2`) and `y_hi` (`xmm3`), the results stored to `out`
/// (`rdi`): bitwise the scalar function on each. 8-lane kernel bodies call
/// this form on x86-64, once for both 4-lane parts.
///
/// # Safety
/// `out` must be valid for writes of eight `f32`s (any alignment).
#[cfg(target_arch = "x86_64")]
#[allow(improper_ctypes_definitions)] // see `clift_pow_v4`
pub unsafe extern "C" fn clift_pow_v8(
    x_lo: core::arch::x86_64::__m128,
    x_hi: core::arch::x86_64::__m128,
    y_lo: core::arch::x86_64::__m128,
    y_hi: core::arch::x86_64::__m128,
    out: *mut f32,
) {
    if crate::float_lanes::has_avx2_fma() {
        // SAFETY: the CPU has AVX2 and FMA (checked at run time); the
        // caller passes eight writable floats.
        unsafe { avx2::eight(x_lo, x_hi, y_lo, y_hi, out) };
        return;
    }
    let lo = clift_pow_v4(x_lo, y_lo);
    let hi = clift_pow_v4(x_hi, y_hi);
    // SAFETY: the caller passes eight writable floats (unaligned 16-byte
    // stores; SSE is part of x86-64).
    unsafe {
        core::arch::x86_64::_mm_storeu_ps(out, lo);
        core::arch::x86_64::_mm_storeu_ps(out.add(4), hi);
    }
}

/// `pow(x, y)` computed without the FMA instruction, as a CPU without FMA
/// does (the fused multiply-adds in software): for tests, which check that
/// it agrees bitwise with the entry points.
pub fn pow_without_fma_instruction(x: f32, y: f32) -> f32 {
    if !is_finite_case(x, y) {
        return pow_by_libm(x, y);
    }
    pow_finite::<f64>(x as f64, y as f64) as f32
}

/// The address of the 4-lane register form of `pow` for JIT code on
/// x86-64 System V (an `extern "C" fn(__m128, __m128) -> __m128`): the
/// AVX2 function itself where the CPU has AVX2 and FMA, else the portable
/// form.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn pow_four_lanes_in_register() -> usize {
    #[allow(improper_ctypes_definitions)] // see `clift_pow_v4`
    type Reg =
        unsafe extern "C" fn(core::arch::x86_64::__m128, core::arch::x86_64::__m128) -> core::arch::x86_64::__m128;
    let f: Reg = if crate::float_lanes::has_avx2_fma() {
        avx2::four
    } else {
        clift_pow_v4
    };
    f as usize
}

/// The address of the 8-lane form of `pow` for JIT code on x86-64 System V
/// (see [`clift_pow_v8`]): the AVX2 function itself where the CPU has AVX2
/// and FMA, else the portable form.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn pow_eight_lanes() -> usize {
    use core::arch::x86_64::__m128;
    #[allow(improper_ctypes_definitions)] // see `clift_pow_v4`
    type Eight = unsafe extern "C" fn(__m128, __m128, __m128, __m128, *mut f32);
    let f: Eight = if crate::float_lanes::has_avx2_fma() {
        avx2::eight
    } else {
        clift_pow_v8
    };
    f as usize
}

/// The AVX2 + FMA instantiation: four `f64` lanes in one `__m256d`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::Lanes64;
    use crate::float_lanes::Arith;

    /// Four lanes. Values of this type exist only inside the
    /// `#[target_feature(enable = "avx2,fma")]` functions below, which run
    /// only after `has_avx2_fma` said yes: that is what makes the
    /// intrinsics in its methods sound (the methods are always inlined
    /// into those functions).
    #[derive(Clone, Copy)]
    struct V4(__m256d);

    impl Arith for V4 {
        type Scalar = f64;
        #[inline(always)]
        fn splat(x: f64) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_set1_pd(x) })
        }
        #[inline(always)]
        fn mul(self, o: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_mul_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn fma(self, b: V4, c: V4) -> V4 {
            // SAFETY: FMA is available (see `V4`).
            V4(unsafe { _mm256_fmadd_pd(self.0, b.0, c.0) })
        }
    }

    impl Lanes64 for V4 {
        type Mask = __m256d;
        #[inline(always)]
        fn add(self, o: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_add_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn div(self, o: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_div_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn select(m: __m256d, a: V4, b: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_blendv_pd(b.0, a.0, m) })
        }
        #[inline(always)]
        fn bit(self, n: u32) -> __m256d {
            // SAFETY: AVX2 is available (see `V4`).
            unsafe {
                let b = _mm256_set1_epi64x(1 << n);
                let m = _mm256_and_si256(_mm256_castpd_si256(self.0), b);
                _mm256_castsi256_pd(_mm256_cmpeq_epi64(m, b))
            }
        }
        #[inline(always)]
        fn sub(self, o: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_sub_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn min(self, o: V4) -> V4 {
            // vminpd returns its second operand unless the first is less.
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_min_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: V4) -> V4 {
            // vmaxpd returns its second operand unless the first is greater.
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_max_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn pow2_from_shifted(kd: V4) -> V4 {
            // SAFETY: AVX2 is available (see `V4`).
            V4(unsafe {
                let k = _mm256_add_epi64(_mm256_castpd_si256(kd.0), _mm256_set1_epi64x(1023));
                _mm256_castsi256_pd(_mm256_slli_epi64::<52>(k))
            })
        }
        #[inline(always)]
        fn split_log(self) -> (V4, V4) {
            // SAFETY: AVX2 is available (see `V4`).
            unsafe {
                let u = _mm256_castpd_si256(self.0);
                let v = _mm256_sub_epi64(u, _mm256_set1_epi64x(super::SQRT_HALF_MANT as i64));
                let hi = _mm256_and_si256(v, _mm256_set1_epi64x(super::EXP_MASK as i64));
                let m = _mm256_add_epi64(_mm256_sub_epi64(u, hi), _mm256_set1_epi64x(super::HALF_EXP as i64));
                let eb = _mm256_or_si256(_mm256_srli_epi64::<52>(v), _mm256_set1_epi64x(super::TWO52_BITS as i64));
                let e = _mm256_sub_pd(_mm256_castsi256_pd(eb), _mm256_set1_pd(super::E_OFFSET));
                (V4(e), V4(_mm256_castsi256_pd(m)))
            }
        }
    }

    /// pow of four lanes, the lanes `super::is_finite_case` refuses not
    /// yet replaced; and those lanes as a `movemask`.
    #[inline(always)]
    fn pow4(x: __m128, y: __m128) -> (__m128, i32) {
        // SAFETY: AVX2 and FMA are available (the callers' target
        // features, which they have only after `has_avx2_fma`).
        unsafe {
            let r = super::pow_finite(V4(_mm256_cvtps_pd(x)), V4(_mm256_cvtps_pd(y))).0;
            let ok = _mm_and_ps(
                _mm_and_ps(
                    _mm_cmp_ps::<_CMP_GT_OQ>(x, _mm_setzero_ps()),
                    _mm_cmp_ps::<_CMP_LT_OQ>(x, _mm_set1_ps(f32::INFINITY)),
                ),
                _mm_cmp_ps::<_CMP_LT_OQ>(_mm_andnot_ps(_mm_set1_ps(-0.0), y), _mm_set1_ps(f32::INFINITY)),
            );
            // Rounds each lane to float once (round to nearest even, as
            // the scalar `as f32`).
            (_mm256_cvtpd_ps(r), !_mm_movemask_ps(ok) & 0xf)
        }
    }

    /// `y` with the lanes set in `bad` replaced by `pow_by_libm` of the
    /// same lanes of `x` and `y`.
    #[inline(never)]
    fn by_libm(x: __m128, y: __m128, r: __m128, bad: i32) -> __m128 {
        let (mut xs, mut ys, mut rs) = ([0.0f32; 4], [0.0f32; 4], [0.0f32; 4]);
        // SAFETY: SSE is part of x86-64; the arrays hold four floats each
        // (unaligned stores and load).
        unsafe {
            _mm_storeu_ps(xs.as_mut_ptr(), x);
            _mm_storeu_ps(ys.as_mut_ptr(), y);
            _mm_storeu_ps(rs.as_mut_ptr(), r);
        }
        for k in 0..4 {
            if bad & (1 << k) != 0 {
                rs[k] = super::pow_by_libm(xs[k], ys[k]);
            }
        }
        // SAFETY: as above.
        unsafe { _mm_loadu_ps(rs.as_ptr()) }
    }

    /// `pow` on four lanes (see `super::clift_pow_v4`).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    #[allow(improper_ctypes_definitions)] // see `super::clift_pow_v4`
    pub(super) unsafe extern "C" fn four(x: __m128, y: __m128) -> __m128 {
        let (r, bad) = pow4(x, y);
        if bad != 0 {
            return by_libm(x, y, r, bad);
        }
        r
    }

    /// `pow` on eight lanes (see `super::clift_pow_v8`).
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA; `out` must be valid for writes of
    /// eight floats.
    #[target_feature(enable = "avx2,fma")]
    #[allow(improper_ctypes_definitions)] // see `super::clift_pow_v4`
    pub(super) unsafe extern "C" fn eight(x_lo: __m128, x_hi: __m128, y_lo: __m128, y_hi: __m128, out: *mut f32) {
        let (lo, bad_lo) = pow4(x_lo, y_lo);
        let (hi, bad_hi) = pow4(x_hi, y_hi);
        let lo = if bad_lo != 0 {
            by_libm(x_lo, y_lo, lo, bad_lo)
        } else {
            lo
        };
        let hi = if bad_hi != 0 {
            by_libm(x_hi, y_hi, hi, bad_hi)
        } else {
            hi
        };
        // SAFETY: the caller passes eight writable floats (unaligned).
        unsafe {
            _mm_storeu_ps(out, lo);
            _mm_storeu_ps(out.add(4), hi);
        }
    }

    /// `y` with the lanes set in `big` (a `movemask` of four lanes)
    /// replaced by `f` of the same lanes of `x`.
    #[inline(never)]
    fn large_lanes(x: __m128, y: __m128, big: i32, f: fn(f32) -> f32) -> __m128 {
        let (mut xs, mut ys) = ([0.0f32; 4], [0.0f32; 4]);
        // SAFETY: SSE is part of x86-64; both arrays hold four floats
        // (unaligned stores and load).
        unsafe {
            _mm_storeu_ps(xs.as_mut_ptr(), x);
            _mm_storeu_ps(ys.as_mut_ptr(), y);
        }
        for k in 0..4 {
            if big & (1 << k) != 0 {
                ys[k] = f(xs[k]);
            }
        }
        // SAFETY: as above.
        unsafe { _mm_loadu_ps(ys.as_ptr()) }
    }

    /// The lanes of `x` that `h` does not contain, as a `movemask`.
    #[inline(always)]
    fn outside(x: __m128, h: super::Handled) -> i32 {
        // SAFETY: SSE is part of x86-64; AVX (the VEX comparisons) is
        // available: the callers run only after `has_avx2_fma`.
        unsafe {
            let v = if h.abs { _mm_andnot_ps(_mm_set1_ps(-0.0), x) } else { x };
            let inside = _mm_and_ps(
                _mm_cmp_ps::<_CMP_GT_OQ>(v, _mm_set1_ps(h.lo)),
                _mm_cmp_ps::<_CMP_LT_OQ>(v, _mm_set1_ps(h.hi)),
            );
            !_mm_movemask_ps(inside) & 0xf
        }
    }

    /// Defines the 4-lane and the 8-lane forms of the one-argument
    /// functions, `extern "C"` so that JIT code can call them directly.
    macro_rules! one_arg_forms {
        ($($name:ident $handled:expr, $fallback:ident;)*) => {$(
            pub(super) mod $name {
                use core::arch::x86_64::*;

                use super::V4;

                /// The kernel on four floats; the lanes its `Handled`
                /// leaves out are its `libm` fallback's.
                ///
                /// # Safety
                /// The CPU must have AVX2 and FMA.
                #[target_feature(enable = "avx2,fma")]
                #[allow(improper_ctypes_definitions)] // see `super::super::clift_pow_v4`
                pub(in super::super) unsafe extern "C" fn four(x: __m128) -> __m128 {
                    // Rounds each lane to float once (round to nearest
                    // even, as the scalar `as f32`).
                    let y = _mm256_cvtpd_ps(super::super::$name(V4(_mm256_cvtps_pd(x))).0);
                    let bad = super::outside(x, $handled);
                    if bad != 0 {
                        return super::large_lanes(x, y, bad, super::super::$fallback);
                    }
                    y
                }

                /// The kernel on eight floats, stored to `out`.
                ///
                /// # Safety
                /// The CPU must have AVX2 and FMA; `out` must be valid
                /// for writes of eight floats.
                #[target_feature(enable = "avx2,fma")]
                #[allow(improper_ctypes_definitions)] // see `super::super::clift_pow_v4`
                pub(in super::super) unsafe extern "C" fn eight(lo: __m128, hi: __m128, out: *mut f32) {
                    // SAFETY: AVX2 and FMA (this function's features); the
                    // caller passes eight writable floats (unaligned).
                    unsafe {
                        _mm_storeu_ps(out, four(lo));
                        _mm_storeu_ps(out.add(4), four(hi));
                    }
                }
            }
        )*};
    }

    one_arg_forms! {
        sin super::super::Handled::TRIG, large_sin;
        cos super::super::Handled::TRIG, large_cos;
        tan super::super::Handled::TRIG, large_tan;
        exp2 super::super::Handled::FINITE, exp2_by_libm;
        exp10 super::super::Handled::FINITE, exp10_by_libm;
        log2 super::super::Handled::POSITIVE, log2_by_libm;
        log10 super::super::Handled::POSITIVE, log10_by_libm;
    }
}
