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
//!
//! The special values, reductions and bit manipulations that are the same
//! for `float` are written once in `crate::math_shared`, which also lists
//! the entry points both types have (`shared_entry_points!(f64)` defines
//! them here); the `MathFloat` implementation below supplies the
//! double-double kernels.

use crate::math_shared::{exponent, MathFloat};

crate::math_shared::shared_entry_points!(f64);

/// `pi` as a double-double: `PI_HI + PI_LO` is pi to about 2^-107.
const PI_HI: f64 = core::f64::consts::PI;
const PI_LO: f64 = 1.224_646_799_147_353_2e-16;
/// `1/pi` as a double-double.
/// 1/pi in two parts (their sum is 1/pi to about 2^-107): the JIT's
/// vector forms of the pi functions multiply by them as `div_pi` does.
pub const INV_PI_HI: f64 = core::f64::consts::FRAC_1_PI;
/// See [`INV_PI_HI`].
pub const INV_PI_LO: f64 = -1.967_867_667_518_248_6e-17;

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

/// `v / pi` rounded once (v times 1/pi in two parts); a zero keeps its
/// sign (the two parts' sum would make -0 into +0: `atan2(-tiny, huge)`
/// is -0).
#[inline(always)]
fn div_pi(v: f64) -> f64 {
    if v == 0.0 {
        return v;
    }
    v.mul_add(INV_PI_HI, v * INV_PI_LO)
}

/// Defines `clift_<name>_f64(x) = <libm function>(x)` for the
/// one-argument functions whose `libm` implementation already has the
/// C99 special values and is accurate to about one ulp (those `math_f32`
/// does not take from `libm` too; the others are `math_shared`'s).
macro_rules! via_libm {
    ($($(#[$doc:meta])* $name:ident => $f:path;)*) => {$(
        $(#[$doc])*
        pub extern "C" fn $name(x: f64) -> f64 {
            $f(x)
        }
    )*};
}

/// `pow(x, y)` (C99 F.9.4.4, and pow(±0, -inf) = +inf).
pub extern "C" fn clift_pow_f64(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

via_libm! {
    /// `erf(x)`.
    clift_erf_f64 => libm::erf;
    /// `exp(x)`.
    clift_exp_f64 => libm::exp;
    /// `log(x)`.
    clift_log_f64 => libm::log;
    /// `sin(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_sin_f64 => libm::sin;
    /// `cos(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_cos_f64 => libm::cos;
    /// `tan(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_tan_f64 => libm::tan;
    /// `exp2(x)`.
    clift_exp2_f64 => libm::exp2;
    /// `log2(x)`.
    clift_log2_f64 => libm::log2;
    /// `log10(x)`.
    clift_log10_f64 => libm::log10;
    /// `round(x)`: halfway cases away from zero; round(-0.5 < x < 0) = -0.
    clift_round_f64 => libm::round;
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

/// `ldexp(x, n) = x * 2^n`, correctly rounded (`libm::scalbn` scales in
/// steps that round only once, also into the denormals).
pub extern "C" fn clift_ldexp_f64(x: f64, n: i32) -> f64 {
    libm::scalbn(x, n)
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

/// The `double` side of the functions `math_shared` writes once: `libm`,
/// and the double-double kernels above.
impl MathFloat for f64 {
    fn hypot_kernel(self, y: f64) -> f64 {
        libm::hypot(self, y)
    }
    fn sinpi_kernel(r: f64) -> f64 {
        sinpi_kernel(r)
    }
    fn cospi_kernel(r: f64) -> f64 {
        cospi_kernel(r)
    }
    fn tanpi_kernel(r: f64) -> f64 {
        if r <= 0.25 {
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
        }
    }
    /// 1/n is split into `hi + lo` (lo = (1 - n hi) / n, the residual
    /// exact by `fma`), and x^(1/n) = pow(x, hi) * x^lo with x^lo = 1 +
    /// lo ln x to within 2^-100 (|lo ln x| < 2^-43).
    fn rootn_kernel(x: f64, n: i32) -> f64 {
        let nf = n as f64;
        let hi = 1.0 / nf;
        let lo = (-nf).mul_add(hi, 1.0) / nf;
        let p = libm::pow(x, hi);
        p.mul_add(lo * libm::log(x), p)
    }
    fn sin(x: f64) -> f64 {
        libm::sin(x)
    }
    fn cos(x: f64) -> f64 {
        libm::cos(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math_shared::same;

    // The rules `math_shared` implements for both types are tested there;
    // these are the double-double kernels and the `double`-only functions.

    #[test]
    fn pi_functions_exact_values() {
        assert!(same(clift_tanpi_f64(0.25), 1.0));
        assert!(same(clift_atan2pi_f64(f64::INFINITY, f64::NEG_INFINITY), 0.75));
        assert!(same(clift_acospi_f64(-1.0), 1.0));
        assert!(same(clift_atanpi_f64(f64::NEG_INFINITY), -0.5));
    }

    #[test]
    fn pi_functions_keep_the_sign_of_an_underflowing_zero() {
        // atan2(-tiny, huge) underflows to -0, and -0 / pi is -0.
        let tiny = -f64::from_bits(0x000f_ffff_ffff_ffff);
        assert_eq!(clift_atan2pi_f64(tiny, 1e300).to_bits(), (-0.0f64).to_bits());
        assert_eq!(clift_atan2pi_f64(-tiny, 1e300).to_bits(), 0.0f64.to_bits());
        // Results that do not underflow keep their sign anyway.
        assert!(clift_asinpi_f64(-f64::from_bits(1)).is_sign_negative());
    }

    #[test]
    fn exact_functions_and_denormals() {
        assert_eq!(clift_ldexp_f64(1.0, -1074), f64::from_bits(1));
        assert_eq!(clift_ldexp_f64(1.5, -1074), f64::from_bits(2)); // ties to even
        assert_eq!(clift_ldexp_f64(1.0, i32::MAX), f64::INFINITY);
        assert_eq!(clift_exp10_f64(22.0), 1e22);
        assert_eq!(clift_exp10_f64(-5.0), 1e-5);
        assert_eq!(clift_rsqrt_f64(4.0), 0.5);
        assert_eq!(clift_rsqrt_f64(f64::from_bits(1)), 2f64.powi(537));
        assert!(same(clift_rsqrt_f64(-0.0), f64::NEG_INFINITY));
    }

    #[test]
    fn power_rules() {
        assert!(same(clift_pown_f64(f64::NAN, 0), 1.0));
        assert!(same(clift_pown_f64(-0.0, -3), f64::NEG_INFINITY));
        assert!(same(clift_pown_f64(-0.0, 2), 0.0));
        assert!(same(clift_rootn_f64(1e300, 100), 1e3));
        assert!(same(clift_rootn_f64(f64::from_bits(1), 2), 2f64.powi(-537)));
        assert!(same(clift_pow_f64(-0.0, f64::NEG_INFINITY), f64::INFINITY));
    }
}
