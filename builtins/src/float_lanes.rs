//! `exp`, `log` and `erf` of `float`, eight lanes at a time: `exp` and
//! `log` in `float` arithmetic, erf's polynomial in `f64`.
//!
//! Each function is one algorithm written once, generic over `Lanes32`:
//! a set of `f32` lanes with IEEE operations and a fused multiply-add. It
//! is instantiated for one `f32` (the scalar functions `clift_exp_f32`,
//! ...) and, on x86-64 with AVX2 and FMA, for eight `f32`s in one `__m256`
//! (the 8-lane entry points, and the 4-lane ones with the upper half
//! unused); erf's `f64` part runs on the same lanes as `f64`s (one
//! `f64`, or two `__m256d`). Every operation is exact or rounded once (the
//! multiply-adds are fused in both: the hardware instruction, or
//! `f32::mul_add` and `f64::mul_add`, which are correctly rounded in
//! software where the CPU has no FMA), so the scalar, the 4-lane and the
//! 8-lane results are bitwise identical on every machine. A `__m256`
//! holds twice the lanes of a `__m256d`, in which exp and log were
//! evaluated before (in `double`, rounded once), and the polynomials need
//! fewer terms. (`sin`, `cos`, `tan`, `pow`, `exp2`,
//! `exp10`, `log2` and `log10` are `crate::double_lanes`': they keep
//! `double` arithmetic, which for sin and cos measured no slower per lane
//! and is more accurate, and which pow needs.)
//!
//! The error bounds below add up the rounding of each step; `tests/ulp.rs`
//! measures the functions against MPFR (builtins/README.md lists the
//! maxima: all below one ulp, against full-profile bounds of 3, 3 and 16).
//!
//! - `exp(x)`: x clamped to [-104, 89] (beyond, the result is 0 or inf
//!   anyway); k = round(x log2(e)), r = x - k ln2 with ln2 = `LN2_HI` +
//!   `LN2_LO`: `LN2_HI` has 16 significant bits, so x - k `LN2_HI` is
//!   exact (a multiple of 2^-25 below 0.35 in magnitude) and only the tiny
//!   k `LN2_LO` is rounded. e^r = 1 + (r_hi + (r_lo + r^2 Q(r))) with Q of
//!   degree 5 (relative error 1e-8); then times 2^k, as two powers of two
//!   (each a normal `float`): the first product is exact, the second
//!   rounds once, also into the denormals.
//! - `log(x)`: a denormal x is scaled by 2^23 first; x = 2^e m with m in
//!   [sqrt(1/2), sqrt(2)) taken from the bits, f = m - 1 (exact); log(1 +
//!   f) = f - f^2/2 + f^3 R(f) with R of degree 8 (relative error
//!   7.3e-8): f^2/2 is split exactly into h + h_lo and f - h into w + e1
//!   (two-sum), so log(x) = e `LN2_HI` + (w + rest) with rest = f^3 R + e
//!   `LN2_LO` - h_lo + e1, a few percent of the result, rounded once into
//!   w. e `LN2_HI` is exact; where it and log(m) nearly cancel (e = ±1, m
//!   near the other end) the last sum is exact too.
//! - `erf(x)`: odd; erf(a) = u + u P(t) for a = |x|: on a <= 1, u = a
//!   and P(t) = Q0(a^2 - 0.5), Q0 = erf(a) / a - 1; on the three
//!   intervals that split (1, 3.9375] at 1.75 and 2.625, u = 1 and P(t) =
//!   -Ei(a - ci) with Ei the polynomial of erfc around the interval's
//!   middle ci; 1 beyond (from 3.9192 on, erfc is below half an ulp of
//!   the floats under 1). The polynomials have degree 9 (absolute errors
//!   below 7.5e-11). Their terms of degree 4 and up (below 1.2e-3) are
//!   evaluated in `float`; the rest, and u + u P, in `f64` lanes (two
//!   `__m256d` per eight lanes, or one `__m512d` where the CPU has
//!   AVX-512F: the same operations, so the same bits), rounded to `float`
//!   once at the end. The errors before that rounding add up to below
//!   2e-10, so erf is correctly rounded except within about 0.003 ulp of a
//!   halfway point between two floats. (Evaluated wholly in `float`, it
//!   was within 0.93 ulp, at about half the time per call.) The four
//!   coefficient sets are the columns of one table, so lanes in different
//!   intervals pick their coefficients and the middle with one permute
//!   (per half of the lanes, for the `f64` ones).
//!
//! The polynomials interpolate the functions at Chebyshev nodes (MPFR at
//! 320 bits, coefficients rounded to `f32`; erf's to `f64`, and those of
//! its terms of degree 4 and up then to `f32`); `examples/fit_float_lanes.rs`
//! regenerates them (`expq 5`, `logr 8`, `erfq 9`, `erfc1 9` ... `erfc3 9`).
//!
//! Special values are selected lane by lane at the end, so every form
//! computes them the same way: exp(NaN) = NaN, exp(-inf) = +0,
//! exp(+inf) = +inf; log(±0) = -inf, log(x < 0) = NaN, log(+inf) = +inf,
//! log(1) = +0; erf(±0) = ±0, erf(±inf) = ±1; a NaN argument is returned
//! quieted, as `x + x`.

/// A set of lanes of one scalar type with the product and the fused
/// multiply-add: what [`estrin`] and [`splat_all`] need.
pub(crate) trait Arith: Copy {
    /// The type of one lane.
    type Scalar: Copy;
    /// Every lane `x`.
    fn splat(x: Self::Scalar) -> Self;
    /// `self * o`.
    fn mul(self, o: Self) -> Self;
    /// `self * b + c`, rounded once.
    fn fma(self, b: Self, c: Self) -> Self;
}

/// The polynomial with coefficients `c` (of t^0, t^1, ..., t^(N-1), N <=
/// 16) at `t` by Estrin's scheme: neighbouring coefficients pair up as
/// `c[2i+1] t + c[2i]`, those pairs pair up with t^2, then with t^4, ...,
/// so the chain of dependent operations is about log2(N) multiply-adds
/// long instead of N - 1. The order of operations is fixed, so every
/// [`Arith`] type gets the same bits. (Written out level by level: the
/// compiler keeps everything in registers.)
#[inline(always)]
pub(crate) fn estrin<V: Arith, const N: usize>(t: V, c: [V; N]) -> V {
    // Level by level into fixed arrays; each level's loop has a constant
    // trip count, which the compiler unrolls.
    #[inline(always)]
    fn level<V: Arith, const M: usize>(c: &[V; M], n: usize, power: V) -> [V; M] {
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

/// A set of `f32` lanes: what the algorithms below need (besides
/// [`Arith`]'s product and fused multiply-add). Implemented for `f32` (one
/// lane) and, on x86-64, for AVX2's `__m256`.
pub(crate) trait Lanes32: Arith<Scalar = f32> {
    /// Lane masks (all ones / all zeros per lane, or a `bool`).
    type Mask: Copy;
    /// The table column selected by an erf interval index, per lane.
    type Index: Copy;
    /// `self + o`.
    fn add(self, o: Self) -> Self;
    /// `self - o`.
    fn sub(self, o: Self) -> Self;
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
    /// `self * 2^k` rounded once, from `kd = k + SHIFT` (|k| <= 150, `k`
    /// in `kd`'s low bits): `self` times 2^(k >> 1) (exact for `self` in
    /// [0.5, 2)), times 2^(k - (k >> 1)).
    fn scale(self, kd: Self) -> Self;
    /// For positive finite normal `self` = 2^e m with m in
    /// [sqrt(1/2), sqrt(2)): `(e, m)`, both exact. Other lanes get
    /// arbitrary values (no trap, no panic).
    fn split_log(self) -> (Self, Self);
    /// The erf interval index: how many of the three masks are set, per
    /// lane.
    fn count3(m1: Self::Mask, m2: Self::Mask, m3: Self::Mask) -> Self::Index;
    /// Column `idx` of a table row, per lane.
    fn pick(row: &Row, idx: Self::Index) -> Self;
}

/// As many `f64` lanes as `V` has `f32` lanes, in which erf computes part
/// of its polynomial. Implemented for `f64` (one lane) and, on x86-64,
/// for two AVX2 `__m256d` and for one AVX-512 `__m512d`, which give the
/// same bits (every operation is IEEE, rounded once).
pub(crate) trait Widen<V: Lanes32>: Arith<Scalar = f64> {
    /// The table column per lane, in the form `pick` takes.
    type Index: Copy;
    /// The column per lane from `V`'s.
    fn index(idx: V::Index) -> Self::Index;
    /// Column `idx` of a table row of `f64`s, per lane.
    fn pick(row: &RowD, idx: Self::Index) -> Self;
    /// Each lane of `x` as an `f64` (exact).
    fn widen(x: V) -> Self;
    /// Each lane rounded to `f32` (once, into the denormals too).
    fn narrow(self) -> V;
}

/// Four `f32`s, aligned so that a row is one 16-byte load.
#[repr(C, align(16))]
pub(crate) struct Row(pub(crate) [f32; 4]);

/// Four `f64`s, aligned so that a row is one 32-byte load.
#[repr(C, align(32))]
pub(crate) struct RowD(pub(crate) [f64; 4]);

/// 1.5 * 2^23: adding it rounds a `float` of magnitude < 2^22 to an
/// integer (to nearest, ties to even), which lands in the low bits.
const SHIFT: f32 = 12_582_912.0;
/// The bits of [`SHIFT`]: a `kd`'s bits minus these are its integer.
const SHIFT_BITS: i32 = 0x4b40_0000;
/// ln2 rounded to 16 significant bits: 0xb172 * 2^-16 = 0.693145751953125.
const LN2_HI: f32 = f32::from_bits(0x3f31_7200);
/// ln2 - [`LN2_HI`] rounded to `float`.
const LN2_LO: f32 = 1.428_606_8e-6;
/// The mantissa bits of sqrt(1/2): subtracting them from a float's bits
/// moves the exponent boundary from 1 to sqrt(1/2) (used by `split_log`).
const SQRT_HALF_MANT: u32 = 0x0035_04f3;
/// The sign and exponent field of a float.
const EXP_MASK: u32 = 0xff80_0000;
/// The exponent field of 0.5 (biased exponent 126).
const HALF_EXP: u32 = 0x3f00_0000;

/// Q(r) = (e^r - 1 - r) / r^2 for |r| <= 0.35, relative error 1e-8.
const EXP_Q: [f32; 6] = [
    0.5,
    0.166_666_67,
    0.041_666_456,
    0.008_333_310_5,
    0.001_393_453_2,
    0.000_198_919_7,
];

/// R(f) = (log(1 + f) - f + f^2 / 2) / f^3 for f in [sqrt(1/2) - 1,
/// sqrt(2) - 1], relative error 7.3e-8.
const LOG_R: [f32; 9] = [
    0.333_333_3,
    -0.249_999_97,
    0.200_007_16,
    -0.166_678_03,
    0.142_490_58,
    -0.124_256_87,
    0.116_854_2,
    -0.114_797_34,
    0.069_716_12,
];

/// The bounds of erf's intervals: |x| <= ERF_B0 (interval 0, by x + x
/// Q0), then (ERF_B0, ERF_B1], (ERF_B1, ERF_B2] and (ERF_B2, ERF_END)
/// (intervals 1 to 3, by 1 - erfc); beyond, erf rounds to 1 (erfc(x) is
/// below 2^-25, half an ulp of the floats below 1, from x = 3.9192 on).
const ERF_B0: f32 = 1.0;
const ERF_B1: f32 = 1.75;
const ERF_B2: f32 = 2.625;
const ERF_END: f32 = 3.9375;

/// Per interval: minus the value subtracted from the variable (interval
/// 0: x^2 - 0.5; intervals 1 to 3: |x| minus the interval's middle).
static ERF_NEG_CENTRE: Row = Row([-0.5, -1.375, -2.1875, -3.281_25]);

/// [`ERF_NEG_CENTRE`] in `f64`.
static ERF_NEG_CENTRE_D: RowD = RowD([-0.5, -1.375, -2.1875, -3.281_25]);

/// erf's polynomials P, each of degree 9: Q0 (interval 0: erf(x) / x - 1,
/// absolute error 1.9e-14) and -E1, -E2, -E3 (minus erfc on intervals 1
/// to 3, absolute errors 4.9e-11, 5.5e-11, 7.4e-11; `fit_float_lanes`
/// prints the Ei). Row k holds the coefficients of t^k of the four, here
/// those of t^0 to t^3, in `f64`.
static ERF_LOW: [RowD; 4] = [
    RowD([
        -0.034531261330114374,
        -0.051829927182169215,
        -0.0019774912192676176,
        -3.4775915807011674e-06,
    ]),
    RowD([
        -0.28107217804542844,
        0.17035977365264304,
        0.009425146442028926,
        2.3800055475928355e-05,
    ]),
    RowD([
        0.07940998675228474,
        -0.2342447015253429,
        -0.020617498449927215,
        -7.808953705893156e-05,
    ]),
    RowD([
        -0.018283884489316386,
        0.1579377192595714,
        0.026925472969902806,
        0.0001629068295542883,
    ]),
];

/// The coefficients of t^4 to t^9 of the same polynomials, rounded to
/// `f32` (their terms are below 1.2e-3, so the rounding of the
/// coefficients and of their `float` evaluation stays below 1.2e-10).
static ERF_HIGH: [Row; 6] = [
    Row([0.0034802747, -0.030499889, -0.022577632, -0.00024131384]),
    Row([-0.00056118943, -0.030606683, 0.011677878, 0.00026756647]),
    Row([7.82952e-05, 0.022146896, -0.0024886108, -0.00022784738]),
    Row([-9.614749e-06, -0.0014049293, -0.0012278331, 0.00015155942]),
    Row([1.0595496e-06, -0.0041451436, 0.0011699524, -7.663972e-05]),
    Row([-1.04598726e-07, 0.0014620046, -0.00030877485, 2.230167e-05]),
];

/// One lane. `mul_add` is the fused multiply-add (the FMA instruction
/// where the function is compiled with it, a correctly rounded software
/// fused multiply-add otherwise).
impl Arith for f32 {
    type Scalar = f32;
    #[inline(always)]
    fn splat(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn mul(self, o: f32) -> f32 {
        self * o
    }
    #[inline(always)]
    fn fma(self, b: f32, c: f32) -> f32 {
        self.mul_add(b, c)
    }
}

impl Lanes32 for f32 {
    type Mask = bool;
    type Index = usize;
    #[inline(always)]
    fn add(self, o: f32) -> f32 {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: f32) -> f32 {
        self - o
    }
    #[inline(always)]
    fn abs(self) -> f32 {
        f32::abs(self)
    }
    #[inline(always)]
    fn min(self, o: f32) -> f32 {
        if self < o {
            self
        } else {
            o
        }
    }
    #[inline(always)]
    fn max(self, o: f32) -> f32 {
        if self > o {
            self
        } else {
            o
        }
    }
    #[inline(always)]
    fn copysign(self, s: f32) -> f32 {
        f32::copysign(self, s)
    }
    #[inline(always)]
    fn lt(self, o: f32) -> bool {
        self < o
    }
    #[inline(always)]
    fn eq(self, o: f32) -> bool {
        self == o
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    #[inline(always)]
    fn and(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn select(m: bool, a: f32, b: f32) -> f32 {
        if m {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn scale(self, kd: f32) -> f32 {
        let k = (kd.to_bits() as i32).wrapping_sub(SHIFT_BITS);
        let k1 = k >> 1;
        let k2 = k.wrapping_sub(k1);
        let p1 = f32::from_bits((k1.wrapping_add(127) as u32) << 23);
        let p2 = f32::from_bits((k2.wrapping_add(127) as u32) << 23);
        self * p1 * p2
    }
    #[inline(always)]
    fn split_log(self) -> (f32, f32) {
        let u = self.to_bits();
        let v = u.wrapping_sub(SQRT_HALF_MANT);
        let m = f32::from_bits(u.wrapping_sub(v & EXP_MASK).wrapping_add(HALF_EXP));
        let e = ((v >> 23) as i32).wrapping_sub(126) as f32;
        (e, m)
    }
    #[inline(always)]
    fn count3(m1: bool, m2: bool, m3: bool) -> usize {
        usize::from(m1) + usize::from(m2) + usize::from(m3)
    }
    #[inline(always)]
    fn pick(row: &Row, idx: usize) -> f32 {
        row.0[idx & 3]
    }
}

/// One lane.
impl Widen<f32> for f64 {
    type Index = usize;
    #[inline(always)]
    fn index(idx: usize) -> usize {
        idx
    }
    #[inline(always)]
    fn pick(row: &RowD, idx: usize) -> f64 {
        row.0[idx & 3]
    }
    #[inline(always)]
    fn widen(x: f32) -> f64 {
        f64::from(x)
    }
    #[inline(always)]
    fn narrow(self) -> f32 {
        self as f32
    }
}

/// Every coefficient of `c` in every lane: a loop that the compiler inlines
/// into the AVX2 functions (an array's `map` with a function argument may
/// stay a call, out of which the broadcast intrinsic cannot be inlined: a
/// call per coefficient, measured ten times slower).
#[inline(always)]
pub(crate) fn splat_all<V: Arith, const N: usize>(c: &[V::Scalar; N]) -> [V; N] {
    let mut v = [V::splat(c[0]); N];
    let mut i = 1;
    while i < N {
        v[i] = V::splat(c[i]);
        i += 1;
    }
    v
}

/// `exp` of `float` lanes.
#[inline(always)]
pub(crate) fn exp<V: Lanes32>(x: V) -> V {
    // NaN lanes become -104 here and are replaced at the end.
    let xc = x.max(V::splat(-104.0)).min(V::splat(89.0));
    let kd = xc.fma(V::splat(core::f32::consts::LOG2_E), V::splat(SHIFT));
    let k = kd.sub(V::splat(SHIFT));
    let r_hi = k.fma(V::splat(-LN2_HI), xc); // exact
    let r_lo = k.mul(V::splat(-LN2_LO));
    let r = r_hi.add(r_lo);
    let q = estrin(r, splat_all(&EXP_Q));
    let p = r_hi.add(r.mul(r).fma(q, r_lo));
    let v = V::splat(1.0).add(p).scale(kd);
    V::select(x.is_nan(), x.add(x), v)
}

/// `log` of `float` lanes.
#[inline(always)]
pub(crate) fn log<V: Lanes32>(x: V) -> V {
    let small = x.lt(V::splat(f32::MIN_POSITIVE));
    let xs = V::select(small, x.mul(V::splat(8_388_608.0)), x); // 2^23
    let (e, m) = xs.split_log();
    let e = e.sub(V::select(small, V::splat(23.0), V::splat(0.0)));
    let f = m.sub(V::splat(1.0)); // exact: m in [0.7, 1.5)
    let r = estrin(f, splat_all(&LOG_R));
    // log(1 + f) = f - f^2/2 + f^3 R(f): f^2/2 = h + h_lo exactly, f - h =
    // w + e1 exactly (|h| <= |f|), and the small rest is added once.
    let f2 = f.mul(f);
    let half = V::splat(0.5);
    let h = f2.mul(half);
    let h_lo = f.fma(f, f2.mul(V::splat(-1.0))).mul(half);
    let w = f.sub(h);
    let e1 = f.sub(w).sub(h);
    let rest = f2.mul(f).fma(r, e.mul(V::splat(LN2_LO))).sub(h_lo).add(e1);
    let v = e.mul(V::splat(LN2_HI)).add(w.add(rest));
    // x > 0 and finite: v; +0 and -0: -inf; +inf: +inf; NaN: x; x < 0 and
    // -inf: NaN.
    let inf = V::splat(f32::INFINITY);
    let zero = V::splat(0.0);
    let special = V::select(
        x.eq(zero),
        V::splat(f32::NEG_INFINITY),
        V::select(x.eq(inf), inf, V::select(x.is_nan(), x.add(x), V::splat(f32::NAN))),
    );
    V::select(V::and(zero.lt(x), x.lt(inf)), v, special)
}

/// `erf` of `float` lanes, part of it in the `f64` lanes `W`.
#[inline(always)]
pub(crate) fn erf<V: Lanes32, W: Widen<V>>(x: V) -> V {
    let a = x.abs();
    // The interval i: how many of its lower bounds a exceeds (NaN: none,
    // inf: all; both are replaced at the end).
    let m1 = V::splat(ERF_B0).lt(a);
    let m2 = V::splat(ERF_B1).lt(a);
    let m3 = V::splat(ERF_B2).lt(a);
    let idx = V::count3(m1, m2, m3);
    let one = V::splat(1.0);
    // erf = u + u p with u = a on interval 0 and 1 on the others, p =
    // P(t) the interval's polynomial (Q0, or -Ei): its terms of degree 4
    // and up in `float`, the rest in `f64`.
    let u = V::select(m1, one, a);
    let neg_centre = V::pick(&ERF_NEG_CENTRE, idx);
    // t = a^2 - 0.5 or |x| - ci: in `float` rounded once (exact for |x| -
    // ci: ci / 2 <= |x| <= 2 ci), in `f64` within 2^-54 (exact for |x| - ci).
    let mut high = [neg_centre; 6];
    for (h, row) in high.iter_mut().zip(&ERF_HIGH) {
        *h = V::pick(row, idx);
    }
    let high = estrin(a.fma(u, neg_centre), high);
    let wide = W::index(idx);
    let uw = W::widen(u);
    let t = W::widen(a).fma(uw, W::pick(&ERF_NEG_CENTRE_D, wide));
    // (c0 + c1 t) + t^2 ((c2 + c3 t) + t^2 high): two multiply-adds after
    // `high`.
    let (c0, c1) = (W::pick(&ERF_LOW[0], wide), W::pick(&ERF_LOW[1], wide));
    let (c2, c3) = (W::pick(&ERF_LOW[2], wide), W::pick(&ERF_LOW[3], wide));
    let t2 = t.mul(t);
    let p = t2.fma(t2.fma(W::widen(high), c3.fma(t, c2)), c1.fma(t, c0));
    let w = uw.fma(p, uw).narrow();
    let w = V::select(a.lt(V::splat(ERF_END)), w, one);
    V::select(x.is_nan(), x.add(x), w.copysign(x))
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

/// Whether the CPU has AVX-512F (besides AVX2 and FMA), detected once: 0
/// not yet known, 1 no, 2 yes.
#[cfg(target_arch = "x86_64")]
static AVX512F: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Whether erf's forms may compute their `f64` lanes in one `__m512d`
/// instead of two `__m256d` (a relaxed load after the first call).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn has_avx512f() -> bool {
    use core::sync::atomic::Ordering::Relaxed;
    match AVX512F.load(Relaxed) {
        2 => true,
        1 => false,
        _ => {
            let yes = has_avx2_fma() && is_x86_feature_detected!("avx512f");
            AVX512F.store(if yes { 2 } else { 1 }, Relaxed);
            yes
        }
    }
}

/// Makes erf's AVX2 forms, from now on in this process, compute their
/// `f64` lanes as a CPU without AVX-512 does (two `__m256d`): for the test
/// that checks both give the same bits. A call already running keeps its
/// path.
#[doc(hidden)]
#[cfg(target_arch = "x86_64")]
pub fn take_the_paths_without_avx512() {
    AVX512F.store(1, core::sync::atomic::Ordering::Relaxed);
}

/// Makes every function of this module and `crate::double_lanes` take,
/// from now on in this process, the paths of a CPU without AVX2 and FMA
/// (per-lane portable forms, software fused multiply-adds in the scalar
/// ones): for the test that checks those paths give the same bits. A call
/// already running keeps its path; either path's results are the same.
#[doc(hidden)]
#[cfg(target_arch = "x86_64")]
pub fn take_the_paths_without_avx2_fma() {
    AVX2_FMA.store(1, core::sync::atomic::Ordering::Relaxed);
}

/// `f` on each of the four floats at `p`, in place: the 4-lane form of a
/// function where the CPU has no AVX2 and FMA.
///
/// # Safety
/// `p` must be valid for reads and writes of four `f32`s (any alignment).
pub(crate) unsafe fn each_of_four_in_place(p: *mut f32, f: extern "C" fn(f32) -> f32) {
    for k in 0..4 {
        // SAFETY: the caller passes four readable and writable floats.
        unsafe {
            let x = p.add(k).read_unaligned();
            p.add(k).write_unaligned(f(x));
        }
    }
}

/// `f` on each of the four floats of `x`: the register form of a function
/// where the CPU has no AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
pub(crate) fn each_of_four(x: core::arch::x86_64::__m128, f: extern "C" fn(f32) -> f32) -> core::arch::x86_64::__m128 {
    let mut a = [0.0f32; 4];
    // SAFETY: `a` holds four floats: unaligned 16-byte store and load (SSE
    // is part of x86-64).
    unsafe {
        core::arch::x86_64::_mm_storeu_ps(a.as_mut_ptr(), x);
        for v in &mut a {
            *v = f(*v);
        }
        core::arch::x86_64::_mm_loadu_ps(a.as_ptr())
    }
}

/// Defines the scalar, the 4-lane and the 8-lane entry points of one-argument
/// functions (here and in `crate::double_lanes`): per function its kernel
/// (whose module `avx2::<kernel>` has the `four` and `eight` forms), the
/// names of the entry points and of the FMA-compiled scalar form, the
/// scalar evaluation of argument `x` (`x => expression`), and optionally
/// the arguments the kernel handles and the function the others go to.
macro_rules! lane_entry_points {
    ($($(#[$doc:meta])* $kernel:ident: $scalar:ident, $x4:ident, $v4:ident, $v8:ident, $fma1:ident,
        $x:ident => $eval:expr $(, $handled:expr, $fallback:ident)?;)*) => {$(
        /// The scalar form compiled with the FMA instruction.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "fma")]
        fn $fma1($x: f32) -> f32 {
            $eval
        }

        $(#[$doc])*
        pub extern "C" fn $scalar($x: f32) -> f32 {
            $(if !$handled.contains($x) {
                return $fallback($x);
            })?
            #[cfg(target_arch = "x86_64")]
            if $crate::float_lanes::has_avx2_fma() {
                // SAFETY: the CPU has FMA (checked at run time).
                return unsafe { $fma1($x) };
            }
            $eval
        }

        /// The function on four floats in place: bitwise the scalar
        /// function on each.
        ///
        /// # Safety
        /// `p` must be valid for reads and writes of four `f32`s (any
        /// alignment).
        pub unsafe extern "C" fn $x4(p: *mut f32) {
            #[cfg(target_arch = "x86_64")]
            if $crate::float_lanes::has_avx2_fma() {
                // SAFETY: the CPU has AVX2 and FMA (checked at run time);
                // the caller passes four readable and writable floats.
                unsafe {
                    let x = core::arch::x86_64::_mm_loadu_ps(p);
                    core::arch::x86_64::_mm_storeu_ps(p, avx2::$kernel::four(x));
                }
                return;
            }
            // SAFETY: the caller passes four readable and writable floats.
            unsafe { $crate::float_lanes::each_of_four_in_place(p, $scalar) }
        }

        /// The function on the four floats of an SSE register (System V:
        /// argument and result in `xmm0`): bitwise the scalar function on
        /// each. 4-lane kernel bodies call this form on x86-64.
        // `__m128` is an SSE vector, which the System V ABI passes and
        // returns in `xmm0` (SSE is part of x86-64); the lint only says that
        // Rust does not promise a C layout for SIMD types in general.
        #[cfg(target_arch = "x86_64")]
        #[allow(improper_ctypes_definitions)]
        pub extern "C" fn $v4(x: core::arch::x86_64::__m128) -> core::arch::x86_64::__m128 {
            if $crate::float_lanes::has_avx2_fma() {
                // SAFETY: the CPU has AVX2 and FMA (checked at run time).
                return unsafe { avx2::$kernel::four(x) };
            }
            $crate::float_lanes::each_of_four(x, $scalar)
        }

        /// The function on eight floats, the low four in `lo` (`xmm0`) and
        /// the high four in `hi` (`xmm1`), stored to `out` (`rdi`):
        /// bitwise the scalar function on each. 8-lane kernel bodies call
        /// this form on x86-64, once for both 4-lane parts.
        ///
        /// # Safety
        /// `out` must be valid for writes of eight `f32`s (any alignment).
        #[cfg(target_arch = "x86_64")]
        #[allow(improper_ctypes_definitions)] // see the 4-lane form
        pub unsafe extern "C" fn $v8(
            lo: core::arch::x86_64::__m128,
            hi: core::arch::x86_64::__m128,
            out: *mut f32,
        ) {
            if $crate::float_lanes::has_avx2_fma() {
                // SAFETY: the CPU has AVX2 and FMA (checked at run time);
                // the caller passes eight writable floats.
                unsafe { avx2::$kernel::eight(lo, hi, out) };
                return;
            }
            // SAFETY: the caller passes eight writable floats.
            unsafe {
                core::arch::x86_64::_mm_storeu_ps(out, $crate::float_lanes::each_of_four(lo, $scalar));
                core::arch::x86_64::_mm_storeu_ps(out.add(4), $crate::float_lanes::each_of_four(hi, $scalar));
            }
        }
    )*};
}

pub(crate) use lane_entry_points;

lane_entry_points! {
    /// `exp(x)`: below one ulp (see the module documentation).
    exp: clift_exp_f32, clift_exp_f32x4, clift_exp_v4, clift_exp_v8, exp_fma1, x => exp::<f32>(x);
    /// `log(x)`: below one ulp.
    log: clift_log_f32, clift_log_f32x4, clift_log_v4, clift_log_v8, log_fma1, x => log::<f32>(x);
    /// `erf(x)`: correctly rounded except within about 0.003 ulp of a
    /// halfway point (see the module documentation).
    erf: clift_erf_f32, clift_erf_f32x4, clift_erf_v4, clift_erf_v8, erf_fma1, x => erf::<f32, f64>(x);
}

/// `exp`, `log` or `erf` (by OpenCL.std name) of `x` computed without the
/// FMA instruction, as a CPU without FMA does (the
/// fused multiply-adds in software): for tests, which check that it agrees
/// bitwise with the entry points. `None` for other names.
pub fn without_fma_instruction(name: &str, x: f32) -> Option<f32> {
    Some(match name {
        "exp" => exp::<f32>(x),
        "log" => log::<f32>(x),
        "erf" => erf::<f32, f64>(x),
        _ => return None,
    })
}

/// The address of the 8-lane form of `exp`, `log` or `erf` (by OpenCL.std
/// name) for JIT code on x86-64 System V: an `extern "C" fn(__m128, __m128,
/// *mut f32)` (see `clift_exp_v8`). Where the CPU has AVX2 and FMA, the
/// AVX2 function itself (no check per call), else the portable form.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn eight_lanes(name: &str) -> Option<usize> {
    #[allow(improper_ctypes_definitions)] // see `lane_entry_points!`
    type Eight = unsafe extern "C" fn(core::arch::x86_64::__m128, core::arch::x86_64::__m128, *mut f32);
    let avx = has_avx2_fma();
    let f: Eight = match (name, avx) {
        ("exp", true) => avx2::exp::eight,
        ("log", true) => avx2::log::eight,
        ("erf", true) => avx2::erf::eight,
        ("exp", false) => clift_exp_v8,
        ("log", false) => clift_log_v8,
        ("erf", false) => clift_erf_v8,
        _ => return None,
    };
    Some(f as usize)
}

/// The address of the register form of `exp`, `log` or `erf` (by
/// OpenCL.std name) for JIT code on x86-64 System V: an `extern "C"
/// fn(__m128) -> __m128`. Where the CPU has AVX2 and FMA, the AVX2
/// function itself, else the portable form.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn four_lanes_in_register(name: &str) -> Option<usize> {
    #[allow(improper_ctypes_definitions)] // see `lane_entry_points!`
    type Reg = unsafe extern "C" fn(core::arch::x86_64::__m128) -> core::arch::x86_64::__m128;
    let avx = has_avx2_fma();
    let f: Reg = match (name, avx) {
        ("exp", true) => avx2::exp::four,
        ("log", true) => avx2::log::four,
        ("erf", true) => avx2::erf::four,
        ("exp", false) => clift_exp_v4,
        ("log", false) => clift_log_v4,
        ("erf", false) => clift_erf_v4,
        _ => return None,
    };
    Some(f as usize)
}

/// The AVX2 + FMA instantiation: eight `f32` lanes in one `__m256`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::{Arith, Lanes32, Row, RowD, Widen};

    /// Eight lanes. Values of this type exist only inside the
    /// `#[target_feature(enable = "avx2,fma")]` functions below, which run
    /// only after `has_avx2_fma` said yes: that is what makes the
    /// intrinsics in its methods sound (the methods are always inlined
    /// into those functions).
    #[derive(Clone, Copy)]
    pub(super) struct V8(pub(super) __m256);

    impl Arith for V8 {
        type Scalar = f32;
        #[inline(always)]
        fn splat(x: f32) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_set1_ps(x) })
        }
        #[inline(always)]
        fn mul(self, o: V8) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn fma(self, b: V8, c: V8) -> V8 {
            // SAFETY: FMA is available (see `V8`).
            V8(unsafe { _mm256_fmadd_ps(self.0, b.0, c.0) })
        }
    }

    impl Lanes32 for V8 {
        type Mask = __m256;
        type Index = __m256i;
        #[inline(always)]
        fn add(self, o: V8) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: V8) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_sub_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn abs(self) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
        }
        #[inline(always)]
        fn min(self, o: V8) -> V8 {
            // vminps returns its second operand unless the first is less.
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: V8) -> V8 {
            // vmaxps returns its second operand unless the first is greater.
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn copysign(self, s: V8) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe {
                let sign = _mm256_set1_ps(-0.0);
                _mm256_or_ps(_mm256_andnot_ps(sign, self.0), _mm256_and_ps(sign, s.0))
            })
        }
        #[inline(always)]
        fn lt(self, o: V8) -> __m256 {
            // SAFETY: AVX is available (see `V8`).
            unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn eq(self, o: V8) -> __m256 {
            // SAFETY: AVX is available (see `V8`).
            unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, o.0) }
        }
        #[inline(always)]
        fn is_nan(self) -> __m256 {
            // SAFETY: AVX is available (see `V8`).
            unsafe { _mm256_cmp_ps::<_CMP_UNORD_Q>(self.0, self.0) }
        }
        #[inline(always)]
        fn and(a: __m256, b: __m256) -> __m256 {
            // SAFETY: AVX is available (see `V8`).
            unsafe { _mm256_and_ps(a, b) }
        }
        #[inline(always)]
        fn select(m: __m256, a: V8, b: V8) -> V8 {
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_blendv_ps(b.0, a.0, m) })
        }
        #[inline(always)]
        fn scale(self, kd: V8) -> V8 {
            // SAFETY: AVX2 is available (see `V8`).
            V8(unsafe {
                let k = _mm256_sub_epi32(_mm256_castps_si256(kd.0), _mm256_set1_epi32(super::SHIFT_BITS));
                let k1 = _mm256_srai_epi32::<1>(k);
                let k2 = _mm256_sub_epi32(k, k1);
                let bias = _mm256_set1_epi32(127);
                let p1 = _mm256_slli_epi32::<23>(_mm256_add_epi32(k1, bias));
                let p2 = _mm256_slli_epi32::<23>(_mm256_add_epi32(k2, bias));
                _mm256_mul_ps(_mm256_mul_ps(self.0, _mm256_castsi256_ps(p1)), _mm256_castsi256_ps(p2))
            })
        }
        #[inline(always)]
        fn split_log(self) -> (V8, V8) {
            // SAFETY: AVX2 is available (see `V8`).
            unsafe {
                let u = _mm256_castps_si256(self.0);
                let v = _mm256_sub_epi32(u, _mm256_set1_epi32(super::SQRT_HALF_MANT as i32));
                let hi = _mm256_and_si256(v, _mm256_set1_epi32(super::EXP_MASK as i32));
                let m = _mm256_add_epi32(_mm256_sub_epi32(u, hi), _mm256_set1_epi32(super::HALF_EXP as i32));
                let e = _mm256_sub_epi32(_mm256_srli_epi32::<23>(v), _mm256_set1_epi32(126));
                (V8(_mm256_cvtepi32_ps(e)), V8(_mm256_castsi256_ps(m)))
            }
        }
        #[inline(always)]
        fn count3(m1: __m256, m2: __m256, m3: __m256) -> __m256i {
            // A set mask is -1 per lane: minus the sum.
            // SAFETY: AVX2 is available (see `V8`).
            unsafe {
                let s = _mm256_add_epi32(
                    _mm256_add_epi32(_mm256_castps_si256(m1), _mm256_castps_si256(m2)),
                    _mm256_castps_si256(m3),
                );
                _mm256_sub_epi32(_mm256_setzero_si256(), s)
            }
        }
        #[inline(always)]
        fn pick(row: &Row, idx: __m256i) -> V8 {
            // The row in both 128-bit halves; vpermilps picks within each
            // half by the index's low two bits.
            // SAFETY: AVX is available (see `V8`); `row` is four readable
            // floats, 16-byte aligned.
            V8(unsafe {
                let r = _mm256_broadcast_ps(&*(row.0.as_ptr() as *const __m128));
                _mm256_permutevar_ps(r, idx)
            })
        }
    }

    /// Eight `f64` lanes in two AVX2 vectors: the low four lanes of a
    /// [`V8`] in the first, the high four in the second. Exists only where
    /// `V8` does.
    #[derive(Clone, Copy)]
    pub(super) struct W8(__m256d, __m256d);

    impl Arith for W8 {
        type Scalar = f64;
        #[inline(always)]
        fn splat(x: f64) -> W8 {
            // SAFETY: AVX is available (see `V8`).
            unsafe { W8(_mm256_set1_pd(x), _mm256_set1_pd(x)) }
        }
        #[inline(always)]
        fn mul(self, o: W8) -> W8 {
            // SAFETY: AVX is available (see `V8`).
            unsafe { W8(_mm256_mul_pd(self.0, o.0), _mm256_mul_pd(self.1, o.1)) }
        }
        #[inline(always)]
        fn fma(self, b: W8, c: W8) -> W8 {
            // SAFETY: FMA is available (see `V8`).
            unsafe { W8(_mm256_fmadd_pd(self.0, b.0, c.0), _mm256_fmadd_pd(self.1, b.1, c.1)) }
        }
    }

    impl Widen<V8> for W8 {
        /// Per half of the lanes, the `f32` positions of each lane's `f64`
        /// in a row: 2i and 2i + 1 for column i.
        type Index = (__m256i, __m256i);
        #[inline(always)]
        fn index(idx: __m256i) -> (__m256i, __m256i) {
            // SAFETY: AVX2 is available (see `V8`).
            unsafe {
                let twice = _mm256_add_epi32(idx, idx);
                let odd = _mm256_add_epi32(twice, _mm256_set1_epi32(1));
                // Lanes 0, 1 | 4, 5 and 2, 3 | 6, 7 interleaved, then the
                // halves regrouped as lanes 0 to 3 and 4 to 7.
                let a = _mm256_unpacklo_epi32(twice, odd);
                let b = _mm256_unpackhi_epi32(twice, odd);
                (
                    _mm256_permute2x128_si256::<0x20>(a, b),
                    _mm256_permute2x128_si256::<0x31>(a, b),
                )
            }
        }
        #[inline(always)]
        fn pick(row: &RowD, idx: (__m256i, __m256i)) -> W8 {
            // vpermps moves the two halves of each lane's `f64`.
            // SAFETY: AVX2 is available (see `V8`); `row` is four readable
            // `f64`s, 32-byte aligned.
            unsafe {
                let r = _mm256_load_ps(row.0.as_ptr().cast::<f32>());
                W8(
                    _mm256_castps_pd(_mm256_permutevar8x32_ps(r, idx.0)),
                    _mm256_castps_pd(_mm256_permutevar8x32_ps(r, idx.1)),
                )
            }
        }
        #[inline(always)]
        fn widen(x: V8) -> W8 {
            // SAFETY: AVX is available (see `V8`).
            unsafe {
                W8(
                    _mm256_cvtps_pd(_mm256_castps256_ps128(x.0)),
                    _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(x.0)),
                )
            }
        }
        #[inline(always)]
        fn narrow(self) -> V8 {
            // vcvtpd2ps rounds by MXCSR: to nearest, as Rust's `as f32`.
            // SAFETY: AVX is available (see `V8`).
            V8(unsafe { _mm256_set_m128(_mm256_cvtpd_ps(self.1), _mm256_cvtpd_ps(self.0)) })
        }
    }

    /// Eight `f64` lanes in one AVX-512 vector. Values of this type exist
    /// only inside the `#[target_feature(enable = "avx2,fma,avx512f")]`
    /// functions below, which run only after `has_avx512f` said yes.
    #[derive(Clone, Copy)]
    pub(super) struct Z8(__m512d);

    impl Arith for Z8 {
        type Scalar = f64;
        #[inline(always)]
        fn splat(x: f64) -> Z8 {
            // SAFETY: AVX-512F is available (see `Z8`).
            Z8(unsafe { _mm512_set1_pd(x) })
        }
        #[inline(always)]
        fn mul(self, o: Z8) -> Z8 {
            // SAFETY: AVX-512F is available (see `Z8`).
            Z8(unsafe { _mm512_mul_pd(self.0, o.0) })
        }
        #[inline(always)]
        fn fma(self, b: Z8, c: Z8) -> Z8 {
            // SAFETY: AVX-512F is available (see `Z8`).
            Z8(unsafe { _mm512_fmadd_pd(self.0, b.0, c.0) })
        }
    }

    impl Widen<V8> for Z8 {
        /// The column per lane as a 64-bit index.
        type Index = __m512i;
        #[inline(always)]
        fn index(idx: __m256i) -> __m512i {
            // SAFETY: AVX-512F is available (see `Z8`).
            unsafe { _mm512_cvtepi32_epi64(idx) }
        }
        #[inline(always)]
        fn pick(row: &RowD, idx: __m512i) -> Z8 {
            // The row in both 256-bit halves; vpermpd picks by the index's
            // low three bits (0 to 3 here).
            // SAFETY: AVX-512F is available (see `Z8`); `row` is four
            // readable `f64`s, 32-byte aligned.
            Z8(unsafe { _mm512_permutexvar_pd(idx, _mm512_broadcast_f64x4(_mm256_load_pd(row.0.as_ptr()))) })
        }
        #[inline(always)]
        fn widen(x: V8) -> Z8 {
            // SAFETY: AVX-512F is available (see `Z8`).
            Z8(unsafe { _mm512_cvtps_pd(x.0) })
        }
        #[inline(always)]
        fn narrow(self) -> V8 {
            // vcvtpd2ps rounds by MXCSR: to nearest, as Rust's `as f32`.
            // SAFETY: AVX-512F is available (see `Z8`).
            V8(unsafe { _mm512_cvtpd_ps(self.0) })
        }
    }

    /// Defines the 4-lane and the 8-lane forms of a generic kernel,
    /// `extern "C"` so that JIT code can call them directly (see the entry
    /// points of the same name without AVX2 for the conventions): per
    /// kernel its instantiation for AVX2 and FMA and, optionally, one for
    /// AVX-512F (in the module named before it) that the 8-lane form takes
    /// where the CPU has it. (The 4-lane form keeps AVX2: the compiler
    /// drops the work of the unused half from it, which it cannot do
    /// inside an AVX-512 vector.)
    macro_rules! forms {
        ($($name:ident: $f:expr $(, $avx512:ident: $wide:expr)?;)*) => {$(
            pub(super) mod $name {
                use core::arch::x86_64::*;

                use crate::float_lanes::avx2::V8;

                /// The kernel on four floats (the upper half of the
                /// vector computes zeros, which are dropped).
                ///
                /// # Safety
                /// The CPU must have AVX2 and FMA.
                #[target_feature(enable = "avx2,fma")]
                #[allow(improper_ctypes_definitions)] // see `lane_entry_points!`
                pub(in super::super) unsafe extern "C" fn four(x: __m128) -> __m128 {
                    let v = _mm256_insertf128_ps::<0>(_mm256_setzero_ps(), x);
                    _mm256_castps256_ps128($f(V8(v)).0)
                }

                /// The kernel on eight floats, stored to `out`.
                ///
                /// # Safety
                /// The CPU must have AVX2 and FMA; `out` must be valid
                /// for writes of eight floats.
                #[target_feature(enable = "avx2,fma")]
                #[allow(improper_ctypes_definitions)] // see `lane_entry_points!`
                pub(in super::super) unsafe extern "C" fn eight(lo: __m128, hi: __m128, out: *mut f32) {
                    $(if crate::float_lanes::has_avx512f() {
                        // SAFETY: the CPU has AVX-512F (checked at run
                        // time); the caller passes eight writable floats.
                        return unsafe { $avx512::eight(lo, hi, out) };
                    })?
                    let v = _mm256_set_m128(hi, lo);
                    // SAFETY: the caller passes eight writable floats.
                    unsafe { _mm256_storeu_ps(out, $f(V8(v)).0) };
                }

                $(
                /// The forms with AVX-512F.
                mod $avx512 {
                    use core::arch::x86_64::*;

                    use crate::float_lanes::avx2::V8;

                    /// As the outer `eight`.
                    ///
                    /// # Safety
                    /// The CPU must have AVX2, FMA and AVX-512F; `out` must
                    /// be valid for writes of eight floats.
                    #[target_feature(enable = "avx2,fma,avx512f")]
                    pub(super) unsafe fn eight(lo: __m128, hi: __m128, out: *mut f32) {
                        let v = _mm256_set_m128(hi, lo);
                        // SAFETY: the caller passes eight writable floats.
                        unsafe { _mm256_storeu_ps(out, $wide(V8(v)).0) };
                    }
                }
                )?
            }
        )*};
    }

    forms! {
        exp: crate::float_lanes::exp::<V8>;
        log: crate::float_lanes::log::<V8>;
        erf: crate::float_lanes::erf::<V8, crate::float_lanes::avx2::W8>,
            avx512: crate::float_lanes::erf::<V8, crate::float_lanes::avx2::Z8>;
    }
}
