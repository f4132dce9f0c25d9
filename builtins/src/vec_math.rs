//! `exp`, `log`, `erf`, `sin` and `cos` of `float`, four lanes at a time.
//!
//! Each function is one algorithm written once, generic over `Lanes`: a
//! set of `f64` lanes with IEEE operations and a fused multiply-add. It is
//! instantiated for one `f64` (the scalar functions `clift_exp_f32`, ...,
//! and the remainder lanes of a 4-lane kernel body) and, on x86-64 with
//! AVX2 and FMA, for four `f64`s in one `__m256d` (the 4-lane entry points).
//! Every operation is exact or rounded once (the multiply-adds are fused
//! in both: the hardware instruction, or `f64::mul_add`, which is
//! correctly rounded in software where the CPU has no FMA), so the scalar
//! and the vector results are bitwise identical on every machine.
//!
//! A `float` argument converts to `f64` exactly (denormals become normal
//! doubles), the function is evaluated with a relative error below
//! 2^-31 (exp, log, sin, cos) or 2^-26.7 (erf), and the result is rounded to
//! `float` once (which also produces denormal results and overflows
//! correctly). The error is therefore at most 0.5 ulp plus a few
//! thousandths of an ulp (exp, log) or 0.15 ulp (erf).
//!
//! - `exp(x)`: x clamped to [-104, 89] (beyond, the `float` result is 0 or
//!   inf anyway), x = k ln2 + r with k = round(x / ln2) and |r| <= 0.35,
//!   e^r by a degree-7 polynomial, times 2^k built from k's bits.
//! - `log(x)`: x = 2^e m with m in [sqrt(1/2), sqrt(2)) taken from the
//!   bits, f = m - 1, log(m) = f P(f) with P of degree 11 (no division);
//!   plus e ln2.
//! - `sin(x)`, `cos(x)` for |x| < 2^24 ([`TRIG_BOUND`]): k = round(x 2/pi)
//!   (|k| < 2^24), r = x - k pi/2 with pi/2 in two doubles (x - k P1 is
//!   exact: both are multiples of 2^-52 and the difference is below 1;
//!   the error of k P2 is below 2^-82, tiny against the smallest |r| of a
//!   float argument), then sin(r) = r (1 + r^2 S(r^2)) and cos(r) = 1 + r^2
//!   C(r^2) with the Taylor coefficients up to r^11 and r^12 (truncation
//!   below 1e-11 relative for |r| <= pi/4), and the quadrant k mod 4
//!   (cos: k + 1) picks sin(r) or cos(r) and the sign. Larger arguments,
//!   infinities and NaNs are `libm`'s double functions (exact reduction,
//!   Payne-Hanek) rounded once, lane by lane in both forms.
//! - `erf(x)`: odd; for a = |x| < 4 one polynomial of degree 7 per
//!   interval: erf(a) = a P0(a^2 - 0.78125) on [0, 1.25] (relative
//!   accuracy down to the denormals) and erf(a) = Pi(a - 2.625) on the
//!   three intervals of width 11/12 that split (1.25, 4) (i = the number
//!   of the bounds 1.25, 2.1667, 3.0833 that a exceeds); 1 for a >= 4.
//!   The four coefficient sets are the columns of one table, so four
//!   lanes in different intervals pick their coefficients with one
//!   permute each; the variable does not depend on the interval, so the
//!   comparisons, the permutes and the variable run side by side.
//!
//! The polynomials interpolate the functions at Chebyshev nodes (computed
//! with MPFR at 320 bits, monomial coefficients rounded to `f64`); their
//! maximum relative errors are 6e-11 (exp), 1.2e-10 (log) and 9e-9
//! (erf). `examples/fit_vec_math.rs` regenerates them (its doc lists the
//! commands).
//!
//! Special values are selected lane by lane at the end, so both forms
//! compute them the same way: exp(NaN) = NaN, exp(-inf) = +0,
//! exp(+inf) = +inf; log(±0) = -inf, log(x < 0) = NaN, log(+inf) = +inf,
//! log(1) = +0; erf(±0) = ±0, erf(±inf) = ±1; a NaN argument is returned
//! quieted, as `x + x` (not `x` itself: the compiler may fold the scalar
//! form's float-double-float round trip of `x` away and return a
//! signalling NaN unchanged, which the vector form would not).

/// A set of `f64` lanes: what the algorithms below need. Implemented for
/// `f64` (one lane) and, on x86-64, for AVX2's `__m256d`.
pub(crate) trait Lanes: Copy {
    /// Lane masks (all ones / all zeros per lane, or a `bool`).
    type Mask: Copy;
    /// The table column selected by an erf interval index, per lane.
    type Index: Copy;
    /// Every lane `x`.
    fn splat(x: f64) -> Self;
    /// `self + o`.
    fn add(self, o: Self) -> Self;
    /// `self - o`.
    fn sub(self, o: Self) -> Self;
    /// `self * o`.
    fn mul(self, o: Self) -> Self;
    /// `self * b + c`, rounded once.
    fn fma(self, b: Self, c: Self) -> Self;
    /// `|self|`.
    fn abs(self) -> Self;
    /// `self < o ? self : o` (so `o` when either is NaN).
    fn min(self, o: Self) -> Self;
    /// `self > o ? self : o` (so `o` when either is NaN).
    fn max(self, o: Self) -> Self;
    /// The magnitude of `self` (non-negative) with the sign of `s`.
    fn copysign(self, s: Self) -> Self;
    /// `self < o` (false for NaN).
    fn lt(self, o: Self) -> Self::Mask;
    /// `self == o` (false for NaN).
    fn eq(self, o: Self) -> Self::Mask;
    /// `self` is NaN.
    fn is_nan(self) -> Self::Mask;
    /// Both masks.
    fn and(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// `m ? a : b`, lane by lane.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// `2^k` from `kd = k + 1.5 * 2^52` (|k| < 1023): k is in kd's low bits.
    fn pow2_from_shifted(kd: Self) -> Self;
    /// For positive finite normal `self` = 2^e m with m in
    /// [sqrt(1/2), sqrt(2)): `(e, m)`, both exact. Other lanes get
    /// arbitrary values (no trap, no panic).
    fn split_log(self) -> (Self, Self);
    /// The erf interval index: how many of the three masks are set, per
    /// lane.
    fn count3(m1: Self::Mask, m2: Self::Mask, m3: Self::Mask) -> Self::Index;
    /// Column `idx` of a table row, per lane.
    fn pick(row: &[f64; 4], idx: Self::Index) -> Self;
    /// Whether bit `n` of the bits of `self` is set (the quadrant of
    /// `sin` and `cos`, in the low bits of `k + 1.5 * 2^52`).
    fn bit(self, n: u32) -> Self::Mask;
}

/// One lane. `mul_add` is the fused multiply-add (the FMA instruction
/// where the function is compiled with it, a correctly rounded software
/// fused multiply-add otherwise).
impl Lanes for f64 {
    type Mask = bool;
    type Index = usize;
    #[inline(always)]
    fn splat(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn add(self, o: f64) -> f64 {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: f64) -> f64 {
        self - o
    }
    #[inline(always)]
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    #[inline(always)]
    fn fma(self, b: f64, c: f64) -> f64 {
        self.mul_add(b, c)
    }
    #[inline(always)]
    fn abs(self) -> f64 {
        f64::abs(self)
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
    fn copysign(self, s: f64) -> f64 {
        f64::copysign(self, s)
    }
    #[inline(always)]
    fn lt(self, o: f64) -> bool {
        self < o
    }
    #[inline(always)]
    fn eq(self, o: f64) -> bool {
        self == o
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    #[inline(always)]
    fn and(a: bool, b: bool) -> bool {
        a & b
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
    #[inline(always)]
    fn count3(m1: bool, m2: bool, m3: bool) -> usize {
        usize::from(m1) + usize::from(m2) + usize::from(m3)
    }
    #[inline(always)]
    fn pick(row: &[f64; 4], idx: usize) -> f64 {
        row[idx & 3]
    }
    #[inline(always)]
    fn bit(self, n: u32) -> bool {
        (self.to_bits() >> n) & 1 == 1
    }
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

/// The bound of erf's first interval: |x| <= ERF_B, by x P0(x^2).
const ERF_B: f64 = 1.25;
/// The width of erf's other three intervals, which split [ERF_B, 4).
const ERF_W: f64 = (4.0 - ERF_B) / 3.0;
/// The variable of intervals 1 to 3 is |x| - ERF_C, their common centre
/// (so it does not wait for the interval's choice).
const ERF_C: f64 = (4.0 + ERF_B) / 2.0;

/// erf's polynomials of degree 7: row k holds the coefficients of t^k for
/// the intervals [0, ERF_B] (of x P0(t), t = x^2 - ERF_B^2 / 2) and
/// (ERF_B + (i - 1) ERF_W, ERF_B + i ERF_W] for i = 1, 2, 3 (t = |x| -
/// ERF_C). Aligned so that a row is one 32-byte load.
#[repr(C, align(32))]
struct ErfTable([[f64; 4]; 8]);

static ERF_POLY: ErfTable = ErfTable([
    [
        0.8923127005383442,
        0.9995580610840613,
        0.9997946232766913,
        0.9998080066894596,
    ],
    [
        -0.24044996740472785,
        -0.0013430383257154177,
        0.0011478775059954166,
        0.0010071270590530238,
    ],
    [
        0.0655169354677713,
        -0.01428707661179563,
        -0.003013022910889073,
        -0.002372042830819181,
    ],
    [
        -0.014779656245089418,
        -0.02372072420851162,
        0.004890063884667071,
        0.003230957529918041,
    ],
    [
        0.002776567054859548,
        -0.0497869569584028,
        -0.005417708186941402,
        -0.0027289004151037663,
    ],
    [
        -0.00044377044497759304,
        -0.038426524049711024,
        0.004226490198032145,
        0.0014188548199655971,
    ],
    [
        6.253017750356312e-05,
        -0.026325985869852762,
        -0.002223509209260754,
        -0.0004177071443112187,
    ],
    [
        -7.608692768045e-06,
        -0.005795404852622893,
        0.000615624864338772,
        5.340920017788002e-05,
    ],
]);

/// The polynomial with coefficients `c` (of t^0, t^1, ..., t^(N-1), N <=
/// 16) at `t` by Estrin's scheme: neighbouring coefficients pair up as
/// `c[2i+1] t + c[2i]`, those pairs pair up with t^2, then with t^4, ...,
/// so the chain of dependent operations is about log2(N) multiply-adds
/// long instead of N - 1. The order of operations is fixed, so every
/// [`Lanes`] type gets the same bits. (Written out level by level: the
/// compiler keeps everything in registers.)
#[inline(always)]
fn estrin<V: Lanes, const N: usize>(t: V, c: [V; N]) -> V {
    // Level by level into fixed arrays; each level's loop has a constant
    // trip count, which the compiler unrolls.
    #[inline(always)]
    fn level<V: Lanes, const M: usize>(c: &[V; M], n: usize, power: V) -> [V; M] {
        let mut out = *c;
        let mut i = 0;
        while 2 * i + 1 < n {
            out[i] = c[2 * i + 1].fma(power, c[2 * i]);
            i += 1;
        }
        if n % 2 == 1 {
            out[n / 2] = c[n - 1];
        }
        out
    }
    let t2 = t.mul(t);
    let t4 = t2.mul(t2);
    let t8 = t4.mul(t4);
    let c1 = level(&c, N, t);
    let c2 = level(&c1, N.div_ceil(2), t2);
    let c3 = level(&c2, N.div_ceil(4), t4);
    let c4 = level(&c3, N.div_ceil(8), t8);
    debug_assert!(N <= 16);
    c4[0]
}

/// `exp` of `float` arguments held exactly in `f64` lanes.
#[inline(always)]
pub(crate) fn exp<V: Lanes>(x: V) -> V {
    // NaN lanes become -104 here and are replaced at the end.
    let xc = x.max(V::splat(-104.0)).min(V::splat(89.0));
    let kd = xc.fma(V::splat(core::f64::consts::LOG2_E), V::splat(SHIFT));
    let k = kd.sub(V::splat(SHIFT));
    // |k| <= 150: r's error k * (ln2 - LN_2) is below 4e-15.
    let r = k.fma(V::splat(-core::f64::consts::LN_2), xc);
    let p = estrin(r, core::array::from_fn::<V, 8, _>(|k| V::splat(EXP_POLY[k])));
    // 2^k is a normal double for k in [-150, 128]: the product is exact.
    let v = p.mul(V::pow2_from_shifted(kd));
    V::select(x.is_nan(), x.add(x), v)
}

/// `log` of `float` arguments held exactly in `f64` lanes.
#[inline(always)]
pub(crate) fn log<V: Lanes>(x: V) -> V {
    let (e, m) = x.split_log();
    let f = m.sub(V::splat(1.0)); // exact: m in [0.7, 1.5)
    let p = estrin(f, core::array::from_fn::<V, 12, _>(|k| V::splat(LOG_POLY[k])));
    let v = e.fma(V::splat(core::f64::consts::LN_2), f.mul(p));
    // x > 0 and finite: v; +0 and -0: -inf; +inf: +inf; NaN: x; x < 0 and
    // -inf: NaN.
    let inf = V::splat(f64::INFINITY);
    let zero = V::splat(0.0);
    let special = V::select(
        x.eq(zero),
        V::splat(f64::NEG_INFINITY),
        V::select(x.eq(inf), inf, V::select(x.is_nan(), x.add(x), V::splat(f64::NAN))),
    );
    V::select(V::and(zero.lt(x), x.lt(inf)), v, special)
}

/// `erf` of `float` arguments held exactly in `f64` lanes.
#[inline(always)]
pub(crate) fn erf<V: Lanes>(x: V) -> V {
    let a = x.abs();
    // The interval i: how many of its lower bounds a exceeds (NaN: none,
    // inf: all; both are replaced at the end). The comparisons, the
    // permutes and t are independent of one another.
    let m1 = V::splat(ERF_B).lt(a);
    let m2 = V::splat(ERF_B + ERF_W).lt(a);
    let m3 = V::splat(ERF_B + 2.0 * ERF_W).lt(a);
    let idx = V::count3(m1, m2, m3);
    let t = V::select(m1, a.sub(V::splat(ERF_C)), a.fma(a, V::splat(-0.5 * ERF_B * ERF_B)));
    let one = V::splat(1.0).copysign(x);
    let p = estrin(t, core::array::from_fn::<V, 8, _>(|k| V::pick(&ERF_POLY.0[k], idx)));
    // Interval 0 is x P0(x^2) (odd: the sign comes with x), the others
    // ±Pi(t).
    let v = V::select(m1, one, x).mul(p);
    let v = V::select(a.lt(V::splat(4.0)), v, one);
    V::select(x.is_nan(), x.add(x), v)
}

/// `sin` and `cos` reduce arguments of smaller magnitude themselves
/// (2^24: the quadrant k fits 24 bits, so `x - k * PIO2_HI` is exact);
/// larger ones, infinities and NaNs are [`large_sin`] and [`large_cos`].
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

/// sin(x + turns * pi/2) (turns 0 or 1) of `float` arguments held exactly
/// in `f64` lanes, |x| < [`TRIG_BOUND`] (other lanes get arbitrary values).
#[inline(always)]
fn sin_quarter_turns<V: Lanes>(x: V, turns: f64) -> V {
    let kd = x.fma(V::splat(core::f64::consts::FRAC_2_PI), V::splat(SHIFT));
    let k = kd.sub(V::splat(SHIFT));
    let r = k.fma(V::splat(-PIO2_HI), x);
    let r = k.fma(V::splat(-PIO2_LO), r);
    let t = r.mul(r);
    // r (1 + t S(t)), not r + r t S(t): sin(-0) = -0.
    let s = r.mul(t.fma(estrin(t, SIN_POLY.map(V::splat)), V::splat(1.0)));
    let c = t.fma(estrin(t, COS_POLY.map(V::splat)), V::splat(1.0));
    // sin(r + q pi/2) for q = k + turns: sin, cos, -sin, -cos by q mod 4.
    let q = kd.add(V::splat(turns));
    let v = V::select(q.bit(0), c, s);
    V::select(q.bit(1), v.mul(V::splat(-1.0)), v)
}

/// `sin` of `float` arguments below [`TRIG_BOUND`] held exactly in `f64`
/// lanes.
#[inline(always)]
pub(crate) fn sin<V: Lanes>(x: V) -> V {
    sin_quarter_turns(x, 0.0)
}

/// `cos` of `float` arguments below [`TRIG_BOUND`] held exactly in `f64`
/// lanes.
#[inline(always)]
pub(crate) fn cos<V: Lanes>(x: V) -> V {
    sin_quarter_turns(x, 1.0)
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

/// Whether `sin` and `cos` of `x` are [`large_sin`] and [`large_cos`].
#[inline(always)]
fn is_large(x: f32) -> bool {
    x.is_nan() || x.abs() >= TRIG_BOUND
}

/// `exp`, `log`, `erf`, `sin` or `cos` (by OpenCL.std name) of `x` computed without the
/// FMA instruction, as a CPU without FMA does (the fused multiply-adds in
/// software): for tests, which check that it agrees bitwise with the
/// entry points. `None` for other names.
pub fn without_fma_instruction(name: &str, x: f32) -> Option<f32> {
    let large = is_large(x);
    let x64 = x as f64;
    Some(match name {
        "exp" => exp::<f64>(x64) as f32,
        "log" => log::<f64>(x64) as f32,
        "erf" => erf::<f64>(x64) as f32,
        "sin" if large => large_sin(x),
        "cos" if large => large_cos(x),
        "sin" => sin::<f64>(x64) as f32,
        "cos" => cos::<f64>(x64) as f32,
        _ => return None,
    })
}

/// The address of the register form of `exp`, `log`, `erf`, `sin` or `cos` (by
/// OpenCL.std name) for JIT code on x86-64 System V: an
/// `extern "C" fn(__m128) -> __m128`, argument and result in `xmm0`. Where
/// the CPU has AVX2 and FMA, the AVX2 function itself (no check per call),
/// else the portable form, which applies the scalar function per lane.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn register_form(name: &str) -> Option<usize> {
    #[allow(improper_ctypes_definitions)] // see `entry_points!`
    type Reg = unsafe extern "C" fn(core::arch::x86_64::__m128) -> core::arch::x86_64::__m128;
    let avx = has_avx2_fma();
    let f: Reg = match (name, avx) {
        ("exp", true) => avx2::exp,
        ("log", true) => avx2::log,
        ("erf", true) => avx2::erf,
        ("sin", true) => avx2::sin,
        ("cos", true) => avx2::cos,
        ("exp", false) => clift_exp_v4,
        ("log", false) => clift_log_v4,
        ("erf", false) => clift_erf_v4,
        ("sin", false) => clift_sin_v4,
        ("cos", false) => clift_cos_v4,
        _ => return None,
    };
    Some(f as usize)
}

/// Whether the CPU has AVX2 and FMA, detected once: 0 not yet known, 1
/// no, 2 yes.
#[cfg(target_arch = "x86_64")]
static AVX2_FMA: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Whether the AVX2 + FMA forms may run on this CPU (a relaxed load after
/// the first call).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_avx2_fma() -> bool {
    use core::sync::atomic::Ordering::Relaxed;
    match AVX2_FMA.load(Relaxed) {
        2 => true,
        1 => false,
        _ => {
            let yes = is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma");
            AVX2_FMA.store(if yes { 2 } else { 1 }, Relaxed);
            yes
        }
    }
}

/// Defines the scalar and 4-lane entry points of one function.
macro_rules! entry_points {
    ($($(#[$doc:meta])* $kernel:ident: $scalar:ident, $x4:ident, $v4:ident, $fma1:ident $(, large: $large:ident)?;)*) => {$(
        /// The scalar form compiled with the FMA instruction.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "fma")]
        fn $fma1(x: f32) -> f32 {
            $kernel::<f64>(x as f64) as f32
        }

        $(#[$doc])*
        pub extern "C" fn $scalar(x: f32) -> f32 {
            $(if is_large(x) {
                return $large(x);
            })?
            #[cfg(target_arch = "x86_64")]
            if has_avx2_fma() {
                // SAFETY: the CPU has FMA (checked at run time).
                return unsafe { $fma1(x) };
            }
            $kernel::<f64>(x as f64) as f32
        }

        /// The function on four floats in place: bitwise the scalar
        /// function on each.
        ///
        /// # Safety
        /// `p` must be valid for reads and writes of four `f32`s (any
        /// alignment).
        pub unsafe extern "C" fn $x4(p: *mut f32) {
            #[cfg(target_arch = "x86_64")]
            if has_avx2_fma() {
                // SAFETY: the CPU has AVX2 and FMA (checked at run time);
                // the caller passes four readable and writable floats.
                unsafe {
                    let x = core::arch::x86_64::_mm_loadu_ps(p);
                    core::arch::x86_64::_mm_storeu_ps(p, avx2::$kernel(x));
                }
                return;
            }
            for k in 0..4 {
                // SAFETY: the caller passes four readable and writable
                // floats.
                unsafe {
                    let x = p.add(k).read_unaligned();
                    p.add(k).write_unaligned($scalar(x));
                }
            }
        }

        /// The function on the four floats of an SSE register (System V:
        /// argument and result in `xmm0`): bitwise the scalar function on
        /// each. The JIT calls this form on x86-64.
        // `__m128` is an SSE vector, which the System V ABI passes and
        // returns in `xmm0` (SSE is part of x86-64); the lint only says that
        // Rust does not promise a C layout for SIMD types in general.
        #[cfg(target_arch = "x86_64")]
        #[allow(improper_ctypes_definitions)]
        pub extern "C" fn $v4(x: core::arch::x86_64::__m128) -> core::arch::x86_64::__m128 {
            if has_avx2_fma() {
                // SAFETY: the CPU has AVX2 and FMA (checked at run time).
                return unsafe { avx2::$kernel(x) };
            }
            let mut a = [0.0f32; 4];
            // SAFETY: `a` holds four floats: unaligned 16-byte store and
            // load (SSE is part of x86-64).
            unsafe {
                core::arch::x86_64::_mm_storeu_ps(a.as_mut_ptr(), x);
                for v in &mut a {
                    *v = $scalar(*v);
                }
                core::arch::x86_64::_mm_loadu_ps(a.as_ptr())
            }
        }
    )*};
}

entry_points! {
    /// `exp(x)`: at most 0.5 ulp plus about 0.001 ulp (see the module
    /// documentation).
    exp: clift_exp_f32, clift_exp_f32x4, clift_exp_v4, exp_fma1;
    /// `log(x)`: at most 0.5 ulp plus about 0.002 ulp.
    log: clift_log_f32, clift_log_f32x4, clift_log_v4, log_fma1;
    /// `erf(x)`: at most 0.5 ulp plus about 0.15 ulp.
    erf: clift_erf_f32, clift_erf_f32x4, clift_erf_v4, erf_fma1;
    /// `sin(x)`: at most 0.5 ulp plus about 0.001 ulp.
    sin: clift_sin_f32, clift_sin_f32x4, clift_sin_v4, sin_fma1, large: large_sin;
    /// `cos(x)`: at most 0.5 ulp plus about 0.001 ulp.
    cos: clift_cos_f32, clift_cos_f32x4, clift_cos_v4, cos_fma1, large: large_cos;
}

/// The AVX2 + FMA instantiation: four `f64` lanes in one `__m256d`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::Lanes;

    /// Four lanes. Values of this type exist only inside the
    /// `#[target_feature(enable = "avx2,fma")]` functions below, which run
    /// only after `has_avx2_fma` said yes: that is what makes the
    /// intrinsics in its methods sound (the methods are always inlined
    /// into those functions).
    #[derive(Clone, Copy)]
    pub(super) struct V4(__m256d);

    impl Lanes for V4 {
        type Mask = __m256d;
        type Index = __m256i;
        #[inline(always)]
        fn splat(x: f64) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_set1_pd(x) })
        }
        #[inline(always)]
        fn add(self, o: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_add_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_sub_pd(self.0, o.0) })
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
        #[inline(always)]
        fn abs(self) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_andnot_pd(_mm256_set1_pd(-0.0), self.0) })
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
        fn copysign(self, s: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe {
                let sign = _mm256_set1_pd(-0.0);
                _mm256_or_pd(_mm256_andnot_pd(sign, self.0), _mm256_and_pd(sign, s.0))
            })
        }
        #[inline(always)]
        fn lt(self, o: V4) -> __m256d {
            // SAFETY: AVX is available (see `V4`).
            unsafe { _mm256_cmp_pd::<_CMP_LT_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn eq(self, o: V4) -> __m256d {
            // SAFETY: AVX is available (see `V4`).
            unsafe { _mm256_cmp_pd::<_CMP_EQ_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn is_nan(self) -> __m256d {
            // SAFETY: AVX is available (see `V4`).
            unsafe { _mm256_cmp_pd::<_CMP_UNORD_Q>(self.0, self.0) }
        }
        #[inline(always)]
        fn and(a: __m256d, b: __m256d) -> __m256d {
            // SAFETY: AVX is available (see `V4`).
            unsafe { _mm256_and_pd(a, b) }
        }
        #[inline(always)]
        fn select(m: __m256d, a: V4, b: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_blendv_pd(b.0, a.0, m) })
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
        #[inline(always)]
        fn count3(m1: __m256d, m2: __m256d, m3: __m256d) -> __m256i {
            // Per 64-bit lane the vpermps indices (2i, 2i + 1), which move
            // double i of a row there: a set mask is -1 in each 32-bit
            // half, so (0, 1) minus twice the masks' sum.
            // SAFETY: AVX2 is available (see `V4`).
            unsafe {
                let s = _mm256_add_epi32(
                    _mm256_add_epi32(_mm256_castpd_si256(m1), _mm256_castpd_si256(m2)),
                    _mm256_castpd_si256(m3),
                );
                _mm256_sub_epi32(_mm256_set_epi32(1, 0, 1, 0, 1, 0, 1, 0), _mm256_add_epi32(s, s))
            }
        }
        #[inline(always)]
        fn pick(row: &[f64; 4], idx: __m256i) -> V4 {
            // SAFETY: AVX2 is available (see `V4`); `row` is four readable
            // doubles.
            V4(unsafe {
                let r = _mm256_castpd_ps(_mm256_loadu_pd(row.as_ptr()));
                _mm256_castps_pd(_mm256_permutevar8x32_ps(r, idx))
            })
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
    }

    /// Defines the 4-lane form of a generic kernel.
    macro_rules! x4 {
        ($($name:ident $(large $large:ident)?),*) => {$(
            /// The kernel on four floats; `extern "C"` so that JIT code
            /// can call it directly with the argument and result in
            /// `xmm0`.
            ///
            /// # Safety
            /// The CPU must have AVX2 and FMA.
            #[target_feature(enable = "avx2,fma")]
            #[allow(improper_ctypes_definitions)] // see `entry_points!`
            pub(super) unsafe extern "C" fn $name(x: __m128) -> __m128 {
                let y = super::$name(V4(_mm256_cvtps_pd(x))).0;
                // Rounds each lane to float once (round to nearest even,
                // as the scalar `as f32`).
                let y = _mm256_cvtpd_ps(y);
                $(
                    // Lanes whose argument `$large` takes (see
                    // `super::is_large`): |x| not below the bound, NaN.
                    let abs = _mm_andnot_ps(_mm_set1_ps(-0.0), x);
                    let big = _mm_movemask_ps(_mm_cmp_ps::<_CMP_NLT_UQ>(abs, _mm_set1_ps(super::TRIG_BOUND)));
                    if big != 0 {
                        return large_lanes(x, y, big, super::$large);
                    }
                )?
                y
            }
        )*};
    }

    x4!(exp, log, erf, sin large large_sin, cos large large_cos);

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
}
