//! The `double` math functions of OpenCL C (OpenCL.std's math instructions
//! on `double` operands), called by JIT code through their addresses.
//!
//! The conventions are those of `math_f32`: every function is a pure
//! function of its arguments (no global state, no panics, no allocation),
//! `extern "C"`, and a pointer result (`fract`, `frexp`, `modf`, `remquo`,
//! `sincos`, `lgamma_r`) goes through an out-pointer that must be valid for
//! a write (the JIT passes the kernel's own pointer).
//!
//! Most functions are `libm`'s (the pure-Rust port of musl/FreeBSD msun,
//! accurate to about one ulp). Where a double result cannot borrow extra
//! precision from a wider type the way the `float` functions do, the
//! functions here carry it themselves with double-double arithmetic (an
//! unevaluated sum `hi + lo`, products split exactly with `fma`):
//!
//! - `sinpi`, `cospi`, `tanpi` reduce `x` modulo 2 exactly, then evaluate
//!   at `pi * r` as a double-double (`pi` itself in two parts) and apply
//!   the first-order correction of the low part;
//! - `acospi`, `asinpi`, `atanpi`, `atan2pi` multiply by `1/pi` in two
//!   parts with one final rounding, and return the exact values the spec
//!   lists (±0.25, ±0.5, ±0.75, ±1) without arithmetic;
//! - `rootn` computes `1/n` as a double-double and corrects `pow(x, hi)`
//!   by the low part (`pow(x, 1.0/n)` alone is off by up to |ln x| * 2^-53
//!   relative, hundreds of ulp for large or tiny x);
//! - `rsqrt` refines `1/sqrt(x)` with one exact-residual Newton step;
//! - `exp10` returns the correctly rounded power for integer arguments up
//!   to ±22 and is `pow(10, x)` otherwise (`libm::exp10` rounds
//!   `log2(10) * y` first, which costs over one ulp).
//!
//! Special values follow C99 Annex F.9 and the OpenCL "Edge Case Behavior"
//! list; denormals are produced and consumed (required for `double`).
//! `fmod` is `crate::frem::clift_frem_f64`, which OpFRem already uses.
//! `tests/ulp.rs` measures every function against MPFR.

use crate::math_f32::{FP_ILOGB0, FP_ILOGBNAN};

/// `pi` as a double-double: `PI_HI + PI_LO` is pi to about 2^-107.
const PI_HI: f64 = core::f64::consts::PI;
const PI_LO: f64 = 1.224_646_799_147_353_2e-16;
/// `1/pi` as a double-double.
const INV_PI_HI: f64 = core::f64::consts::FRAC_1_PI;
const INV_PI_LO: f64 = -1.967_867_667_518_248_6e-17;

/// The NaN result of an invalid argument: `x` itself when it is a NaN,
/// else the default quiet NaN.
#[inline(always)]
fn nan_of(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else {
        f64::NAN
    }
}

/// `a * b` as a double-double (exact unless the product under- or
/// overflows).
#[inline(always)]
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let h = a * b;
    (h, a.mul_add(b, -h))
}

/// `pi * r` as a double-double, for `r` in [0, 1].
#[inline(always)]
fn pi_times(r: f64) -> (f64, f64) {
    let (h, l) = two_prod(PI_HI, r);
    (h, r.mul_add(PI_LO, l))
}

/// `v / pi` rounded once (v times 1/pi in two parts).
#[inline(always)]
fn div_pi(v: f64) -> f64 {
    v.mul_add(INV_PI_HI, v * INV_PI_LO)
}

/// Defines `clift_<name>_f64(x) = <libm function>(x)` for the
/// one-argument functions whose `libm` implementation already has the
/// C99 special values and is accurate to about one ulp.
macro_rules! via_libm {
    ($($(#[$doc:meta])* $name:ident => $f:path;)*) => {$(
        $(#[$doc])*
        pub extern "C" fn $name(x: f64) -> f64 {
            $f(x)
        }
    )*};
}

via_libm! {
    /// `acos(x)`.
    clift_acos_f64 => libm::acos;
    /// `asin(x)`.
    clift_asin_f64 => libm::asin;
    /// `asinh(x)`.
    clift_asinh_f64 => libm::asinh;
    /// `atan(x)`.
    clift_atan_f64 => libm::atan;
    /// `atanh(x)`.
    clift_atanh_f64 => libm::atanh;
    /// `cbrt(x)`.
    clift_cbrt_f64 => libm::cbrt;
    /// `cos(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_cos_f64 => libm::cos;
    /// `cosh(x)`.
    clift_cosh_f64 => libm::cosh;
    /// `erfc(x)`.
    clift_erfc_f64 => libm::erfc;
    /// `erf(x)`.
    clift_erf_f64 => libm::erf;
    /// `exp(x)`.
    clift_exp_f64 => libm::exp;
    /// `exp2(x)`.
    clift_exp2_f64 => libm::exp2;
    /// `expm1(x)`.
    clift_expm1_f64 => libm::expm1;
    /// `lgamma(x)` (accuracy implementation-defined).
    clift_lgamma_f64 => libm::lgamma;
    /// `log(x)`.
    clift_log_f64 => libm::log;
    /// `log2(x)`.
    clift_log2_f64 => libm::log2;
    /// `log10(x)`.
    clift_log10_f64 => libm::log10;
    /// `log1p(x)`.
    clift_log1p_f64 => libm::log1p;
    /// `round(x)`: halfway cases away from zero; round(-0.5 < x < 0) = -0.
    clift_round_f64 => libm::round;
    /// `sin(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_sin_f64 => libm::sin;
    /// `sinh(x)`.
    clift_sinh_f64 => libm::sinh;
    /// `tan(x)`.
    clift_tan_f64 => libm::tan;
    /// `tanh(x)`.
    clift_tanh_f64 => libm::tanh;
    /// `tgamma(x)`.
    clift_tgamma_f64 => libm::tgamma;
}

/// `acosh(x)`: NaN for x < 1 (`libm::acosh` ignores the sign of large
/// negative arguments, so those are answered here).
pub extern "C" fn clift_acosh_f64(x: f64) -> f64 {
    if x < 1.0 {
        return f64::NAN;
    }
    libm::acosh(x)
}

/// `acospi(x) = acos(x) / pi`: acospi(1) = +0, acospi(-1) = 1, NaN for
/// |x| > 1.
pub extern "C" fn clift_acospi_f64(x: f64) -> f64 {
    if x == -1.0 {
        return 1.0;
    }
    div_pi(libm::acos(x))
}

/// `asinpi(x) = asin(x) / pi`: asinpi(±0) = ±0, asinpi(±1) = ±0.5, NaN
/// for |x| > 1.
pub extern "C" fn clift_asinpi_f64(x: f64) -> f64 {
    if x == 0.0 {
        return x;
    }
    if x.abs() == 1.0 {
        return 0.5f64.copysign(x);
    }
    div_pi(libm::asin(x))
}

/// `atanpi(x) = atan(x) / pi`: atanpi(±0) = ±0, atanpi(±inf) = ±0.5.
pub extern "C" fn clift_atanpi_f64(x: f64) -> f64 {
    if x == 0.0 {
        return x;
    }
    if x.is_infinite() {
        return 0.5f64.copysign(x);
    }
    div_pi(libm::atan(x))
}

/// `atan2(y, x)`.
pub extern "C" fn clift_atan2_f64(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// `atan2pi(y, x) = atan2(y, x) / pi`, with the exact results of the
/// OpenCL edge-case list returned as constants: atan2pi(±0, -0 or x < 0)
/// = ±1, atan2pi(±0, +0 or x > 0) = ±0, atan2pi(y, ±0) = ±0.5 (y ≠ 0),
/// atan2pi(±y, -inf) = ±1 and (±y, +inf) = ±0 for finite y > 0,
/// atan2pi(±inf, x) = ±0.5 for finite x, atan2pi(±inf, -inf) = ±0.75,
/// atan2pi(±inf, +inf) = ±0.25.
pub extern "C" fn clift_atan2pi_f64(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if y == 0.0 {
        let pi_side = x < 0.0 || (x == 0.0 && x.is_sign_negative());
        return if pi_side {
            1.0f64.copysign(y)
        } else {
            0.0f64.copysign(y)
        };
    }
    if y.is_infinite() {
        let v: f64 = if x == f64::INFINITY {
            0.25
        } else if x == f64::NEG_INFINITY {
            0.75
        } else {
            0.5
        };
        return v.copysign(y);
    }
    if x == 0.0 {
        return 0.5f64.copysign(y);
    }
    if x.is_infinite() {
        return if x > 0.0 {
            0.0f64.copysign(y)
        } else {
            1.0f64.copysign(y)
        };
    }
    div_pi(libm::atan2(y, x))
}

/// `sin(pi * r)` for `r` in (0, 0.5]: the argument is a double-double
/// (at most pi/4 after the reflection), and sin(h + l) = sin(h) +
/// l cos(h) to far below an ulp.
fn sinpi_kernel(r: f64) -> f64 {
    if r <= 0.25 {
        let (h, l) = pi_times(r);
        l.mul_add(libm::cos(h), libm::sin(h))
    } else {
        let (h, l) = pi_times(0.5 - r); // exact for r in [0.25, 0.5]
        (-l).mul_add(libm::sin(h), libm::cos(h))
    }
}

/// `cos(pi * r)` for `r` in [0, 0.5).
fn cospi_kernel(r: f64) -> f64 {
    if r <= 0.25 {
        let (h, l) = pi_times(r);
        (-l).mul_add(libm::sin(h), libm::cos(h))
    } else {
        let (h, l) = pi_times(0.5 - r);
        l.mul_add(libm::cos(h), libm::sin(h))
    }
}

/// `tan(pi * t)` for `t` in [0, 0.25] as a double-double (tan(h + l) =
/// tan(h) + l (1 + tan(h)^2)).
fn tanpi_dd(t: f64) -> (f64, f64) {
    let (h, l) = pi_times(t);
    let v = libm::tan(h);
    (v, l * v.mul_add(v, 1.0))
}

/// `1 / (h + l)` rounded once (to about 0.5 ulp).
fn recip_dd(h: f64, l: f64) -> f64 {
    let q = 1.0 / h;
    // q (1 + e) with e = 1 - q (h + l), the residual computed exactly.
    let e = (-q).mul_add(h, 1.0) - q * l;
    q.mul_add(e, q)
}

/// `sinpi(x) = sin(pi x)`, reduced exactly (x mod 2 is exact): sinpi(±0)
/// = ±0, sinpi(+n) = +0, sinpi(-n) = -0 for integers n, sinpi(±inf) =
/// NaN.
pub extern "C" fn clift_sinpi_f64(x: f64) -> f64 {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = x.abs() % 2.0;
    let mut neg = x.is_sign_negative();
    if r >= 1.0 {
        r -= 1.0; // sin(pi (r + 1)) = -sin(pi r)
        neg = !neg;
    }
    if r > 0.5 {
        r = 1.0 - r; // sin(pi (1 - r)) = sin(pi r)
    }
    if r == 0.0 {
        return 0.0f64.copysign(x); // integers and ±0: the sign of x
    }
    let v = sinpi_kernel(r);
    if neg {
        -v
    } else {
        v
    }
}

/// `cospi(x) = cos(pi x)`: cospi(±0) = 1, cospi(n + 0.5) = +0,
/// cospi(±inf) = NaN.
pub extern "C" fn clift_cospi_f64(x: f64) -> f64 {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = x.abs() % 2.0;
    if r > 1.0 {
        r = 2.0 - r; // cos(pi (2 - r)) = cos(pi r)
    }
    let mut neg = false;
    if r > 0.5 {
        r = 1.0 - r; // cos(pi (1 - r)) = -cos(pi r)
        neg = true;
    }
    if r == 0.5 {
        return 0.0; // n + 0.5: +0 whatever the sign
    }
    let v = cospi_kernel(r);
    if neg {
        -v
    } else {
        v
    }
}

/// `tanpi(x) = tan(pi x)`: tanpi(±0) = ±0, tanpi(±inf) = NaN, tanpi(n) =
/// copysign(0, n) for even n and copysign(0, -n) for odd n, tanpi(n +
/// 0.5) = +inf for even n and -inf for odd n (tanpi is odd; these follow
/// from the rules for x >= 0).
pub extern "C" fn clift_tanpi_f64(x: f64) -> f64 {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = x.abs() % 2.0;
    // The period is 1; the half [1, 2) only changes the signs of the zeros
    // and infinities (odd n).
    let odd = r >= 1.0;
    if odd {
        r -= 1.0;
    }
    let v = if r == 0.0 {
        if odd {
            -0.0
        } else {
            0.0
        }
    } else if r == 0.5 {
        if odd {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }
    } else if r <= 0.25 {
        let (h, l) = tanpi_dd(r);
        h + l
    } else if r < 0.5 {
        let (h, l) = tanpi_dd(0.5 - r); // tan(pi/2 - t) = 1 / tan(t)
        recip_dd(h, l)
    } else if r <= 0.75 {
        let (h, l) = tanpi_dd(r - 0.5); // tan(pi/2 + t) = -1 / tan(t)
        -recip_dd(h, l)
    } else {
        let (h, l) = tanpi_dd(1.0 - r); // tan(pi - t) = -tan(t)
        -(h + l)
    };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

/// The powers of ten that `exp10` returns for integer arguments: the
/// literals are correctly rounded (exact from 1e0 to 1e22).
const POW10: [f64; 45] = [
    1e-22, 1e-21, 1e-20, 1e-19, 1e-18, 1e-17, 1e-16, 1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6,
    1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `exp10(x) = 10^x`: correctly rounded for integers in [-22, 22],
/// `pow(10, x)` (about one ulp) otherwise; exp10(±0) = 1, exp10(-inf) =
/// +0, exp10(+inf) = +inf.
pub extern "C" fn clift_exp10_f64(x: f64) -> f64 {
    if x.abs() <= 22.0 && x == x.trunc() {
        // In range and integral: the index is 0..=44.
        return POW10[(x as i32 + 22) as usize];
    }
    libm::pow(10.0, x)
}

/// `fdim(x, y)`: x - y when x > y, else +0; NaN when either is NaN.
pub extern "C" fn clift_fdim_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y; // one of the NaN operands
    }
    if x > y {
        x - y
    } else {
        0.0
    }
}

/// `hypot(x, y)`: hypot(±inf, y) = +inf even when y is NaN.
pub extern "C" fn clift_hypot_f64(x: f64, y: f64) -> f64 {
    if x.is_infinite() || y.is_infinite() {
        return f64::INFINITY;
    }
    libm::hypot(x, y)
}

/// The unbiased exponent of a finite nonzero `x` (denormals included).
fn exponent(x: f64) -> i32 {
    let bits = x.to_bits() & 0x7fff_ffff_ffff_ffff;
    let e = (bits >> 52) as i32;
    if e == 0 {
        // Denormal: 2^-1022 * 0.m, the exponent of its leading one.
        -1022 - (bits.leading_zeros() as i32 - 12) - 1
    } else {
        e - 1023
    }
}

/// `ilogb(x)`: the unbiased exponent, also of denormals; `FP_ILOGB0` for
/// ±0, `FP_ILOGBNAN` for NaN, `INT_MAX` for ±inf.
pub extern "C" fn clift_ilogb_f64(x: f64) -> i32 {
    if x.is_nan() {
        return FP_ILOGBNAN;
    }
    if x.is_infinite() {
        return i32::MAX;
    }
    if x == 0.0 {
        return FP_ILOGB0;
    }
    exponent(x)
}

/// `logb(x)`: the exponent as a double; logb(±0) = -inf, logb(±inf) =
/// +inf, logb(NaN) = NaN.
pub extern "C" fn clift_logb_f64(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    exponent(x) as f64
}

/// `ldexp(x, n) = x * 2^n`, correctly rounded (`libm::scalbn` scales in
/// steps that round only once, also into the denormals).
pub extern "C" fn clift_ldexp_f64(x: f64, n: i32) -> f64 {
    libm::scalbn(x, n)
}

/// `nextafter(x, y)`: the next `double` after x toward y, through the
/// denormals: nextafter(±0, y > 0) is the smallest positive denormal,
/// nextafter(±0, y < 0) the smallest negative one; nextafter(x, x) = y.
pub extern "C" fn clift_nextafter_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f64::from_bits(1).copysign(y);
    }
    let bits = x.to_bits();
    // Away from zero when y lies beyond x, else toward zero.
    let away = (y > x) == (x > 0.0);
    f64::from_bits(if away { bits + 1 } else { bits - 1 })
}

/// `pow(x, y)` (C99 F.9.4.4, and pow(±0, -inf) = +inf).
pub extern "C" fn clift_pow_f64(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// `pown(x, n)`: pow with an integer exponent, which a double holds
/// exactly, so C99's pow rules for integer y are the OpenCL rules:
/// pown(x, 0) = 1 for any x, pown(±0, n) = ±inf for odd n < 0, +inf for
/// even n < 0, +0 for even n > 0, ±0 for odd n > 0.
pub extern "C" fn clift_pown_f64(x: f64, n: i32) -> f64 {
    libm::pow(x, n as f64)
}

/// `powr(x, y) = exp(y log x)` for x >= 0, with the OpenCL rules:
/// powr(x, ±0) = 1 for finite x > 0; powr(±0, y) = +inf for finite y < 0;
/// powr(±0, -inf) = +inf; powr(±0, y) = +0 for y > 0; powr(+1, y) = 1 for
/// finite y; NaN for x < 0, powr(±0, ±0), powr(+inf, ±0), powr(+1, ±inf);
/// a NaN operand is returned.
pub extern "C" fn clift_powr_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return if y == 0.0 {
            f64::NAN
        } else if y < 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
    }
    if x == f64::INFINITY {
        return if y == 0.0 {
            f64::NAN
        } else if y < 0.0 {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x == 1.0 {
        return if y.is_infinite() { f64::NAN } else { 1.0 };
    }
    libm::pow(x, y)
}

/// `rootn(x, n) = x^(1/n)`: rootn(x, 0) = NaN; NaN for x < 0 and even n;
/// rootn(±0, n) = ±inf for odd n < 0, +inf for even n < 0, +0 for even
/// n > 0, ±0 for odd n > 0. Negative x with odd n is -rootn(-x, n).
///
/// 1/n is split into `hi + lo` (lo = (1 - n hi) / n, the residual exact
/// by `fma`), and x^(1/n) = pow(x, hi) * x^lo with x^lo = 1 + lo ln x to
/// within 2^-100 (|lo ln x| < 2^-43).
pub extern "C" fn clift_rootn_f64(x: f64, n: i32) -> f64 {
    if n == 0 || x.is_nan() {
        return x + f64::NAN;
    }
    let odd = n & 1 != 0;
    if x < 0.0 && !odd {
        return f64::NAN;
    }
    if x == 0.0 {
        let zero_sign = if odd { x } else { 0.0 };
        return if n < 0 {
            f64::INFINITY.copysign(zero_sign)
        } else {
            0.0f64.copysign(zero_sign)
        };
    }
    let ax = x.abs();
    let v = if n == 1 {
        ax
    } else if n == -1 {
        1.0 / ax
    } else if ax.is_infinite() {
        if n > 0 {
            f64::INFINITY
        } else {
            0.0
        }
    } else {
        let nf = n as f64;
        let hi = 1.0 / nf;
        let lo = (-nf).mul_add(hi, 1.0) / nf;
        let p = libm::pow(ax, hi);
        p.mul_add(lo * libm::log(ax), p)
    };
    if x < 0.0 {
        -v
    } else {
        v
    }
}

/// `remainder(x, y)`: exact (IEEE remainder, quotient rounded to even).
pub extern "C" fn clift_remainder_f64(x: f64, y: f64) -> f64 {
    libm::remainder(x, y)
}

/// `rsqrt(x) = 1 / sqrt(x)`: rsqrt(±0) = ±inf, rsqrt(+inf) = +0, NaN for
/// x < 0. Finite positive x is scaled by an even power of two into [1,
/// 4), `1/sqrt` is refined by one Newton step whose residual `1 - x r^2`
/// is computed exactly, and the result scaled back (exactly).
pub extern "C" fn clift_rsqrt_f64(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return 1.0 / x.sqrt();
    }
    let k = exponent(x).div_euclid(2); // x = xs * 4^k, xs in [1, 4)
    let down = f64::from_bits(((1023 - k) as u64) << 52); // 2^-k, normal for |k| <= 537
    let xs = x * down * down;
    let r = 1.0 / xs.sqrt();
    let (h, l) = two_prod(r, r);
    let e = (-xs).mul_add(h, 1.0) - xs * l;
    (r * 0.5).mul_add(e, r) * down
}

/// `fract(x, iptr)`: returns `fmin(x - floor(x), 0x1.fffffffffffffp-1)`
/// and stores `floor(x)`. fract(±0) = ±0 with ±0 stored; fract(±inf) = ±0
/// with ±inf stored; fract(NaN) = the NaN with NaN stored.
///
/// # Safety
/// `iptr` must be valid for writing an `f64`.
pub unsafe extern "C" fn clift_fract_f64(x: f64, iptr: *mut f64) -> f64 {
    let (value, int) = fract(x);
    // SAFETY: the caller guarantees `iptr` is valid for a write.
    unsafe { iptr.write_unaligned(int) };
    value
}

/// `fract` as a pure function: (fractional part, floor).
pub fn fract(x: f64) -> (f64, f64) {
    if x.is_nan() {
        return (x, x);
    }
    if x.is_infinite() {
        return (0.0f64.copysign(x), x);
    }
    let fl = libm::floor(x);
    if x == 0.0 {
        return (x, fl); // floor(±0) = ±0
    }
    // x - floor(x) is rounded once; it may round up to 1.0 for tiny
    // negative x, which the clamp turns into the largest double below 1.
    ((x - fl).min(f64::from_bits(0x3fef_ffff_ffff_ffff)), fl)
}

/// `frexp(x, exp)`: returns the mantissa in [0.5, 1) with x's sign and
/// stores the exponent; frexp(±0) = ±0 with 0, frexp(±inf) = ±inf with
/// 0, frexp(NaN) = the NaN with 0. Denormals are normalised.
///
/// # Safety
/// `exp` must be valid for writing an `i32`.
pub unsafe extern "C" fn clift_frexp_f64(x: f64, exp: *mut i32) -> f64 {
    let (m, e) = frexp(x);
    // SAFETY: the caller guarantees `exp` is valid for a write.
    unsafe { exp.write_unaligned(e) };
    m
}

/// `frexp` as a pure function: (mantissa, exponent).
pub fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let e = exponent(x) + 1;
    let bits = x.to_bits();
    let sign = bits & 0x8000_0000_0000_0000;
    let mag = bits & 0x7fff_ffff_ffff_ffff;
    let m = if mag >> 52 == 0 {
        // Denormal: shift the leading one into the implicit bit position.
        let shift = mag.leading_zeros() - 11;
        (mag << shift) & 0x000f_ffff_ffff_ffff
    } else {
        mag & 0x000f_ffff_ffff_ffff
    };
    (f64::from_bits(sign | (1022 << 52) | m), e)
}

/// `modf(x, iptr)`: stores `trunc(x)` and returns
/// `copysign(isinf(x) ? 0 : x - trunc(x), x)`, as the OpenCL spec defines.
///
/// # Safety
/// `iptr` must be valid for writing an `f64`.
pub unsafe extern "C" fn clift_modf_f64(x: f64, iptr: *mut f64) -> f64 {
    let (frac, int) = modf(x);
    // SAFETY: the caller guarantees `iptr` is valid for a write.
    unsafe { iptr.write_unaligned(int) };
    frac
}

/// `modf` as a pure function: (fractional part, integral part).
pub fn modf(x: f64) -> (f64, f64) {
    let t = libm::trunc(x);
    let frac = if x.is_infinite() { 0.0 } else { x - t };
    (frac.copysign(x), t)
}

/// `remquo(x, y, quo)`: returns `remainder(x, y)` and stores the low 31
/// bits of the integral quotient x/y with its sign (OpenCL asks for at
/// least 7). Returns a NaN and stores 0 when x is ±inf, y is 0, or either
/// is NaN.
///
/// # Safety
/// `quo` must be valid for writing an `i32`.
pub unsafe extern "C" fn clift_remquo_f64(x: f64, y: f64, quo: *mut i32) -> f64 {
    let (r, q) = remquo(x, y);
    // SAFETY: the caller guarantees `quo` is valid for a write.
    unsafe { quo.write_unaligned(q) };
    r
}

/// `remquo` as a pure function: (remainder, quotient bits).
pub fn remquo(x: f64, y: f64) -> (f64, i32) {
    if x.is_nan() || y.is_nan() {
        return (x + y, 0);
    }
    if x.is_infinite() || y == 0.0 {
        return (f64::NAN, 0);
    }
    libm::remquo(x, y)
}

/// `sincos(x, cosval)`: returns `sin(x)` and stores `cos(x)`.
///
/// # Safety
/// `cosval` must be valid for writing an `f64`.
pub unsafe extern "C" fn clift_sincos_f64(x: f64, cosval: *mut f64) -> f64 {
    // SAFETY: the caller guarantees `cosval` is valid for a write.
    unsafe { cosval.write_unaligned(libm::cos(x)) };
    libm::sin(x)
}

/// `lgamma_r(x, signp)`: returns `lgamma(x)` and stores the sign of Γ(x)
/// (1 or -1), or 0 when x is zero, a negative integer, -inf or NaN.
///
/// # Safety
/// `signp` must be valid for writing an `i32`.
pub unsafe extern "C" fn clift_lgamma_r_f64(x: f64, signp: *mut i32) -> f64 {
    let (v, s) = lgamma_r(x);
    // SAFETY: the caller guarantees `signp` is valid for a write.
    unsafe { signp.write_unaligned(s) };
    v
}

/// `lgamma_r` as a pure function: (lgamma, sign of gamma).
pub fn lgamma_r(x: f64) -> (f64, i32) {
    let (v, s) = libm::lgamma_r(x);
    let pole = x == 0.0 || (x < 0.0 && x == libm::floor(x));
    let sign = if pole || x.is_nan() || x == f64::NEG_INFINITY {
        0
    } else {
        s
    };
    (v, sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn pi_functions_zeros_and_poles() {
        for n in [1.0f64, 2.0, 3.0, 4.0, 1e7, 9007199254740992.0, 1e300] {
            assert!(same(clift_sinpi_f64(n), 0.0), "sinpi({n})");
            assert!(same(clift_sinpi_f64(-n), -0.0), "sinpi(-{n})");
        }
        for h in [0.5f64, 1.5, 2.5, -0.5, -1.5, 4503599627370495.5] {
            assert!(same(clift_cospi_f64(h), 0.0), "cospi({h})");
        }
        assert!(same(clift_tanpi_f64(0.5), f64::INFINITY));
        assert!(same(clift_tanpi_f64(1.5), f64::NEG_INFINITY));
        assert!(same(clift_tanpi_f64(-0.5), f64::NEG_INFINITY));
        assert!(same(clift_tanpi_f64(1.0), -0.0));
        assert!(same(clift_tanpi_f64(-2.0), -0.0));
        assert!(same(clift_sinpi_f64(0.5), 1.0));
        assert!(same(clift_cospi_f64(1.0), -1.0));
        assert!(same(clift_tanpi_f64(0.25), 1.0));
        assert!(same(clift_atan2pi_f64(f64::INFINITY, f64::NEG_INFINITY), 0.75));
        assert!(same(clift_acospi_f64(-1.0), 1.0));
        assert!(same(clift_atanpi_f64(f64::NEG_INFINITY), -0.5));
        assert!(clift_sinpi_f64(f64::INFINITY).is_nan());
    }

    #[test]
    fn exact_functions_and_denormals() {
        assert_eq!(frexp(1.0), (0.5, 1));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(frexp(f64::from_bits(1)), (0.5, -1073));
        assert_eq!(clift_ilogb_f64(f64::from_bits(1)), -1074);
        assert_eq!(clift_ilogb_f64(0.0), FP_ILOGB0);
        assert_eq!(clift_logb_f64(f64::from_bits(0x0008_0000_0000_0000)), -1023.0);
        assert_eq!(clift_ldexp_f64(1.0, -1074), f64::from_bits(1));
        assert_eq!(clift_ldexp_f64(1.5, -1074), f64::from_bits(2)); // ties to even
        assert_eq!(clift_ldexp_f64(1.0, i32::MAX), f64::INFINITY);
        assert!(same(clift_nextafter_f64(-0.0, 1.0), f64::from_bits(1)));
        assert!(same(clift_nextafter_f64(0.0, -1.0), -f64::from_bits(1)));
        assert_eq!(clift_exp10_f64(22.0), 1e22);
        assert_eq!(clift_exp10_f64(-5.0), 1e-5);
        assert_eq!(clift_rsqrt_f64(4.0), 0.5);
        assert_eq!(clift_rsqrt_f64(f64::from_bits(1)), 2f64.powi(537));
        assert!(same(clift_rsqrt_f64(-0.0), f64::NEG_INFINITY));
        let mut i = 0.0f64;
        // SAFETY: `i` is a live local.
        let v = unsafe { clift_fract_f64(-1e-300, &mut i) };
        assert_eq!((v, i), (f64::from_bits(0x3fef_ffff_ffff_ffff), -1.0));
    }

    #[test]
    fn power_rules() {
        assert!(same(clift_pown_f64(f64::NAN, 0), 1.0));
        assert!(same(clift_pown_f64(-0.0, -3), f64::NEG_INFINITY));
        assert!(same(clift_pown_f64(-0.0, 2), 0.0));
        assert!(same(clift_rootn_f64(-8.0, 3), -2.0));
        assert!(same(clift_rootn_f64(1e300, 100), 1e3));
        assert!(same(clift_rootn_f64(f64::from_bits(1), 2), 2f64.powi(-537)));
        assert!(clift_rootn_f64(-8.0, 2).is_nan());
        assert!(same(clift_rootn_f64(-0.0, -3), f64::NEG_INFINITY));
        assert!(clift_powr_f64(1.0, f64::INFINITY).is_nan());
        assert!(same(clift_pow_f64(-0.0, f64::NEG_INFINITY), f64::INFINITY));
    }
}
