//! The `float` math functions of OpenCL C (OpenCL.std's math instructions),
//! called by JIT code through their addresses.
//!
//! Every function is a pure function of its arguments: no global state, no
//! panics, no allocation, so that it can later be applied lane by lane to
//! several work-items at once. The approach is the same throughout: an
//! `f32` argument converts to `f64` exactly, the function is evaluated in
//! double precision by an algorithm accurate to about one double ulp
//! (`libm`, a pure-Rust port of musl/FreeBSD's msun, or the exact
//! reductions below), and the result is rounded to `f32` once. The error is
//! then at most 0.5 ulp of `f32` plus about 2^-28 ulp, far inside every
//! full-profile bound, and the harness in `tests/ulp.rs` measures it
//! against MPFR.
//!
//! Special values follow C99 Annex F.9 and the OpenCL additions ("Edge Case
//! Behavior" of the OpenCL SPIR-V environment); where `libm`'s double
//! function would not give the prescribed `float` result (the `pi`
//! functions, `pown`, `powr`, `rootn`, `remquo`'s quotient, `fract`,
//! `frexp`, `nextafter`, `lgamma_r`'s sign), the function handles those
//! values itself, and its comment quotes the rule.
//!
//! `fmod` is `crate::frem::clift_frem_f32`, which OpFRem already uses.
//!
//! The functions with a pointer result (`fract`, `frexp`, `modf`, `remquo`,
//! `sincos`, `lgamma_r`) return the value result and store the pointer
//! result through an out-pointer, which must be valid for a write; the
//! JIT passes the kernel's own pointer (any storage class: OpenCL makes an
//! invalid one undefined behaviour of the kernel).

use core::f64::consts::PI;

/// `ilogb(0)`: clang's `opencl-c-base.h` defines `FP_ILOGB0` as `INT_MIN`.
pub const FP_ILOGB0: i32 = i32::MIN;
/// `ilogb(NaN)`: clang's `opencl-c-base.h` defines `FP_ILOGBNAN` as
/// `INT_MAX`.
pub const FP_ILOGBNAN: i32 = i32::MAX;

/// Rounds a double-precision result to `float` (round to nearest even).
#[inline(always)]
fn f(x: f64) -> f32 {
    x as f32
}

/// The NaN result of an invalid argument: `x` itself when it is a NaN,
/// else the default quiet NaN.
#[inline(always)]
fn nan_of(x: f32) -> f32 {
    if x.is_nan() {
        x
    } else {
        f32::NAN
    }
}

/// Defines `clift_<name>_f32(x) = round_to_f32(<f64 expression>)` for the
/// one-argument functions whose double implementation already has the C99
/// special values.
macro_rules! via_f64 {
    ($($(#[$doc:meta])* $name:ident => $f64fn:path;)*) => {$(
        $(#[$doc])*
        pub extern "C" fn $name(x: f32) -> f32 {
            f($f64fn(x as f64))
        }
    )*};
}

via_f64! {
    /// `acos(x)`.
    clift_acos_f32 => libm::acos;
    /// `asin(x)`.
    clift_asin_f32 => libm::asin;
    /// `asinh(x)`.
    clift_asinh_f32 => libm::asinh;
    /// `atan(x)`.
    clift_atan_f32 => libm::atan;
    /// `atanh(x)`.
    clift_atanh_f32 => libm::atanh;
    /// `cbrt(x)`.
    clift_cbrt_f32 => libm::cbrt;
    /// `cos(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_cos_f32 => libm::cos;
    /// `cosh(x)`.
    clift_cosh_f32 => libm::cosh;
    /// `erfc(x)`.
    clift_erfc_f32 => libm::erfc;
    /// `exp2(x)`.
    clift_exp2_f32 => libm::exp2;
    /// `exp10(x)`: exp10(±0) = 1, exp10(-inf) = +0, exp10(+inf) = +inf.
    clift_exp10_f32 => libm::exp10;
    /// `expm1(x)`.
    clift_expm1_f32 => libm::expm1;
    /// `lgamma(x)`.
    clift_lgamma_f32 => libm::lgamma;
    /// `log2(x)`.
    clift_log2_f32 => libm::log2;
    /// `log10(x)`.
    clift_log10_f32 => libm::log10;
    /// `log1p(x)`.
    clift_log1p_f32 => libm::log1p;
    /// `sin(x)`: `libm` reduces huge arguments exactly (Payne-Hanek).
    clift_sin_f32 => libm::sin;
    /// `sinh(x)`.
    clift_sinh_f32 => libm::sinh;
    /// `tan(x)`.
    clift_tan_f32 => libm::tan;
    /// `tanh(x)`.
    clift_tanh_f32 => libm::tanh;
    /// `tgamma(x)`.
    clift_tgamma_f32 => libm::tgamma;
}

/// Applies `f` to the four floats at `p`, in place: the entry points that
/// 4-lane kernel code calls once per chunk instead of once per lane.
///
/// # Safety
/// `p` must be valid for reads and writes of four `f32`s (any alignment).
unsafe fn lanes4(p: *mut f32, f: extern "C" fn(f32) -> f32) {
    for k in 0..4 {
        // SAFETY: the caller passes four readable and writable floats.
        unsafe {
            let x = p.add(k).read_unaligned();
            p.add(k).write_unaligned(f(x));
        }
    }
}

/// Defines `clift_<name>_f32x4(p)`: [`lanes4`] of the one-argument function.
macro_rules! x4 {
    ($($name:ident => $f:ident;)*) => {$(
        /// The function on four lanes in place (see [`lanes4`]).
        ///
        /// # Safety
        /// `p` must be valid for reads and writes of four `f32`s.
        pub unsafe extern "C" fn $name(p: *mut f32) {
            // SAFETY: forwarded from the caller.
            unsafe { lanes4(p, $f) }
        }
    )*};
}

pub use crate::vec_math::{
    clift_erf_f32, clift_erf_f32x4, clift_exp_f32, clift_exp_f32x4, clift_log_f32, clift_log_f32x4,
};
#[cfg(target_arch = "x86_64")]
pub use crate::vec_math::{clift_erf_v4, clift_exp_v4, clift_log_v4};

x4! {
    clift_sin_f32x4 => clift_sin_f32;
    clift_cos_f32x4 => clift_cos_f32;
}

/// The 4-lane entry point of one-argument `float` function `name` (an
/// OpenCL.std instruction name), if it has one: its address.
pub fn four_lanes(name: &str) -> Option<usize> {
    let f: unsafe extern "C" fn(*mut f32) = match name {
        "exp" => clift_exp_f32x4,
        "log" => clift_log_f32x4,
        "erf" => clift_erf_f32x4,
        "sin" => clift_sin_f32x4,
        "cos" => clift_cos_f32x4,
        _ => return None,
    };
    Some(f as usize)
}

/// The register form of one-argument `float` function `name`, where it has
/// one (exp, log and erf on x86-64 System V): the address of an
/// `extern "C" fn(__m128) -> __m128` that 4-lane kernel code calls with
/// the four lanes in `xmm0` and gets them back there, bitwise the scalar
/// function on each lane (see `crate::vec_math::register_form`).
pub fn four_lanes_in_register(name: &str) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(windows)))]
    return crate::vec_math::register_form(name);
    #[cfg(not(all(target_arch = "x86_64", not(windows))))]
    {
        let _ = name;
        None
    }
}

/// `acosh(x)`: NaN for x < 1. (`libm::acosh` ignores the sign of large
/// negative arguments, so those are answered here.)
pub extern "C" fn clift_acosh_f32(x: f32) -> f32 {
    if x < 1.0 {
        return f32::NAN;
    }
    f(libm::acosh(x as f64))
}

/// `acospi(x) = acos(x) / pi`: acospi(1) = +0, NaN for |x| > 1.
pub extern "C" fn clift_acospi_f32(x: f32) -> f32 {
    f(libm::acos(x as f64) / PI)
}

/// `asinpi(x) = asin(x) / pi`: asinpi(±0) = ±0, NaN for |x| > 1.
pub extern "C" fn clift_asinpi_f32(x: f32) -> f32 {
    f(libm::asin(x as f64) / PI)
}

/// `atanpi(x) = atan(x) / pi`: atanpi(±0) = ±0, atanpi(±inf) = ±0.5
/// (atan gives ±pi/2, which divides by pi exactly).
pub extern "C" fn clift_atanpi_f32(x: f32) -> f32 {
    f(libm::atan(x as f64) / PI)
}

/// `atan2(y, x)`.
pub extern "C" fn clift_atan2_f32(y: f32, x: f32) -> f32 {
    f(libm::atan2(y as f64, x as f64))
}

/// `atan2pi(y, x) = atan2(y, x) / pi`. The exact cases (±1, ±0.5, ±0.75,
/// ±0.25, ±0) come out exactly: atan2 returns pi, pi/2, 3pi/4 and pi/4 to
/// within a double ulp, and the quotient rounds to the `float` constant.
pub extern "C" fn clift_atan2pi_f32(y: f32, x: f32) -> f32 {
    f(libm::atan2(y as f64, x as f64) / PI)
}

/// `sin(pi * r)` for `r` in [0, 0.5], reduced further so that the
/// argument of the double function is at most pi/4.
fn sinpi_kernel(r: f64) -> f64 {
    if r <= 0.25 {
        libm::sin(PI * r)
    } else {
        libm::cos(PI * (0.5 - r))
    }
}

/// `cos(pi * r)` for `r` in [0, 0.5].
fn cospi_kernel(r: f64) -> f64 {
    if r <= 0.25 {
        libm::cos(PI * r)
    } else {
        libm::sin(PI * (0.5 - r))
    }
}

/// `sinpi(x) = sin(pi x)`, reduced exactly (x mod 2 is exact in double):
/// sinpi(±0) = ±0, sinpi(+n) = +0, sinpi(-n) = -0, sinpi(±inf) = NaN.
pub extern "C" fn clift_sinpi_f32(x: f32) -> f32 {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = (x as f64).abs() % 2.0;
    let mut neg = x.is_sign_negative();
    if r >= 1.0 {
        // sin(pi (r + 1)) = -sin(pi r)
        r -= 1.0;
        neg = !neg;
    }
    if r > 0.5 {
        r = 1.0 - r; // sin(pi (1 - r)) = sin(pi r)
    }
    if r == 0.0 {
        // Integers (and ±0): the zero has the sign of x.
        return 0.0f32.copysign(x);
    }
    let v = sinpi_kernel(r);
    f(if neg { -v } else { v })
}

/// `cospi(x) = cos(pi x)`: cospi(±0) = 1, cospi(n + 0.5) = +0,
/// cospi(±inf) = NaN.
pub extern "C" fn clift_cospi_f32(x: f32) -> f32 {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = (x as f64).abs() % 2.0;
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
    f(if neg { -v } else { v })
}

/// `tanpi(x) = tan(pi x)`: tanpi(±0) = ±0, tanpi(±inf) = NaN,
/// tanpi(n) = copysign(0, n) for even n and copysign(0, -n) for odd n,
/// tanpi(n + 0.5) = +inf for even n and -inf for odd n. All of these
/// follow from tanpi being odd and the rules for x >= 0.
pub extern "C" fn clift_tanpi_f32(x: f32) -> f32 {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = (x as f64).abs() % 2.0;
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
        libm::tan(PI * r)
    } else if r < 0.5 {
        1.0 / libm::tan(PI * (0.5 - r)) // tan(pi/2 - t) = 1 / tan(t)
    } else if r <= 0.75 {
        -1.0 / libm::tan(PI * (r - 0.5)) // tan(pi/2 + t) = -1 / tan(t)
    } else {
        -libm::tan(PI * (1.0 - r)) // tan(pi - t) = -tan(t)
    };
    f(if x.is_sign_negative() { -v } else { v })
}

/// `fdim(x, y)`: x - y when x > y, else +0; NaN when either is NaN.
pub extern "C" fn clift_fdim_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return x + y; // one of the NaN operands
    }
    if x > y {
        x - y
    } else {
        0.0
    }
}

/// `hypot(x, y)`: in double the squares are exact and cannot overflow.
/// hypot(±inf, y) = +inf even when y is NaN.
pub extern "C" fn clift_hypot_f32(x: f32, y: f32) -> f32 {
    if x.is_infinite() || y.is_infinite() {
        return f32::INFINITY;
    }
    let (a, b) = (x as f64, y as f64);
    f((a * a + b * b).sqrt())
}

/// `ilogb(x)`: the unbiased exponent, also of denormals; `FP_ILOGB0` for
/// ±0, `FP_ILOGBNAN` for NaN, `INT_MAX` for ±inf.
pub extern "C" fn clift_ilogb_f32(x: f32) -> i32 {
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

/// The unbiased exponent of a finite nonzero `x` (denormals included).
fn exponent(x: f32) -> i32 {
    let bits = x.to_bits() & 0x7fff_ffff;
    let e = (bits >> 23) as i32;
    if e == 0 {
        // Denormal: 2^-126 * 0.m, the exponent of its leading one.
        -126 - (bits.leading_zeros() as i32 - 9) - 1
    } else {
        e - 127
    }
}

/// `logb(x)`: the exponent as a float; logb(±0) = -inf, logb(±inf) = +inf.
pub extern "C" fn clift_logb_f32(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f32::INFINITY;
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    exponent(x) as f32
}

/// `ldexp(x, n) = x * 2^n`, correctly rounded: in double the product is
/// exact for every `float` x and |n| <= 300 (beyond, the result is 0 or
/// inf for every nonzero finite x anyway), and rounds to `float` once.
pub extern "C" fn clift_ldexp_f32(x: f32, n: i32) -> f32 {
    let n = n.clamp(-300, 300);
    let scale = f64::from_bits(((1023 + n) as u64) << 52);
    f(x as f64 * scale)
}

/// `nextafter(x, y)`: the next `float` after x toward y, through the
/// denormals: nextafter(-0, y > 0) and nextafter(+0, y > 0) are the
/// smallest positive denormal, nextafter(±0, y < 0) the smallest negative
/// one; nextafter(x, x) = y (C99).
pub extern "C" fn clift_nextafter_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f32::from_bits(1).copysign(y);
    }
    let bits = x.to_bits();
    // Away from zero when y lies beyond x, else toward zero.
    let away = (y > x) == (x > 0.0);
    f32::from_bits(if away { bits + 1 } else { bits - 1 })
}

/// `pow(x, y)` (C99 F.9.4.4, and pow(±0, -inf) = +inf).
pub extern "C" fn clift_pow_f32(x: f32, y: f32) -> f32 {
    f(libm::pow(x as f64, y as f64))
}

/// `pown(x, n)`: pow with an integer exponent, which double represents
/// exactly, so C99's pow rules for integer y give the OpenCL rules:
/// pown(x, 0) = 1 for any x, pown(±0, n) = ±inf for odd n < 0, +inf for
/// even n < 0, +0 for even n > 0, ±0 for odd n > 0.
pub extern "C" fn clift_pown_f32(x: f32, n: i32) -> f32 {
    f(libm::pow(x as f64, n as f64))
}

/// `powr(x, y) = exp(y log x)` for x >= 0, with the OpenCL rules:
/// powr(x, ±0) = 1 for finite x > 0; powr(±0, y) = +inf for finite y < 0;
/// powr(±0, -inf) = +inf; powr(±0, y) = +0 for y > 0; powr(+1, y) = 1 for
/// finite y; NaN for x < 0, powr(±0, ±0), powr(+inf, ±0), powr(+1, ±inf);
/// a NaN operand is returned.
pub extern "C" fn clift_powr_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x < 0.0 {
        return f32::NAN;
    }
    if x == 0.0 {
        return if y == 0.0 {
            f32::NAN
        } else if y < 0.0 {
            f32::INFINITY
        } else {
            0.0
        };
    }
    if x == f32::INFINITY {
        return if y == 0.0 {
            f32::NAN
        } else if y < 0.0 {
            0.0
        } else {
            f32::INFINITY
        };
    }
    if x == 1.0 {
        return if y.is_infinite() { f32::NAN } else { 1.0 };
    }
    f(libm::pow(x as f64, y as f64))
}

/// `rootn(x, n) = x^(1/n)`: rootn(x, 0) = NaN; NaN for x < 0 and even n;
/// rootn(±0, n) = ±inf for odd n < 0, +inf for even n < 0, +0 for even
/// n > 0, ±0 for odd n > 0. Negative x with odd n is -rootn(-x, n).
/// 1/n is inexact in double, but its relative error 2^-53 times |log x|
/// <= 104 changes the result by less than 2^-45 relative.
pub extern "C" fn clift_rootn_f32(x: f32, n: i32) -> f32 {
    if n == 0 || x.is_nan() {
        return x + f32::NAN;
    }
    let odd = n & 1 != 0;
    if x < 0.0 && !odd {
        return f32::NAN;
    }
    if x == 0.0 {
        let zero_sign = if odd { x } else { 0.0 };
        return if n < 0 {
            f32::INFINITY.copysign(zero_sign)
        } else {
            0.0f32.copysign(zero_sign)
        };
    }
    let ax = (x as f64).abs();
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
        libm::pow(ax, 1.0 / n as f64)
    };
    f(if x < 0.0 { -v } else { v })
}

/// `remainder(x, y)`: exact (IEEE remainder, quotient rounded to even).
pub extern "C" fn clift_remainder_f32(x: f32, y: f32) -> f32 {
    f(libm::remainder(x as f64, y as f64))
}

/// `round(x)`: halfway cases away from zero; round(-0.5 < x < 0) = -0.
pub extern "C" fn clift_round_f32(x: f32) -> f32 {
    libm::roundf(x)
}

/// `rsqrt(x) = 1 / sqrt(x)`: both operations in double, rounded once.
/// rsqrt(±0) = ±inf, rsqrt(+inf) = +0, NaN for x < 0.
pub extern "C" fn clift_rsqrt_f32(x: f32) -> f32 {
    f(1.0 / (x as f64).sqrt())
}

/// `fract(x, iptr)`: returns `fmin(x - floor(x), 0x1.fffffep-1f)` and
/// stores `floor(x)`. fract(±0) = ±0 with ±0 stored; fract(±inf) = ±0 with
/// ±inf stored; fract(NaN) = the NaN with NaN stored.
///
/// # Safety
/// `iptr` must be valid for writing an `f32`.
pub unsafe extern "C" fn clift_fract_f32(x: f32, iptr: *mut f32) -> f32 {
    let (value, int) = fract(x);
    // SAFETY: the caller guarantees `iptr` is valid for a write.
    unsafe { iptr.write_unaligned(int) };
    value
}

/// `fract` as a pure function: (fractional part, floor).
pub fn fract(x: f32) -> (f32, f32) {
    if x.is_nan() {
        return (x, x);
    }
    if x.is_infinite() {
        return (0.0f32.copysign(x), x);
    }
    let fl = libm::floorf(x);
    if x == 0.0 {
        return (x, fl); // floor(±0) = ±0
    }
    // x - floor(x) is rounded once; it may round up to 1.0 for tiny
    // negative x, which the clamp turns into the largest float below 1.
    ((x - fl).min(f32::from_bits(0x3f7f_ffff)), fl)
}

/// `frexp(x, exp)`: returns the mantissa in [0.5, 1) with x's sign and
/// stores the exponent; frexp(±0) = ±0 with 0, frexp(±inf) = ±inf with 0,
/// frexp(NaN) = the NaN with 0. Denormals are normalised.
///
/// # Safety
/// `exp` must be valid for writing an `i32`.
pub unsafe extern "C" fn clift_frexp_f32(x: f32, exp: *mut i32) -> f32 {
    let (m, e) = frexp(x);
    // SAFETY: the caller guarantees `exp` is valid for a write.
    unsafe { exp.write_unaligned(e) };
    m
}

/// `frexp` as a pure function: (mantissa, exponent).
pub fn frexp(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let e = exponent(x) + 1;
    // x / 2^e, exact: build the mantissa from the bits of the normalised
    // value.
    let bits = x.to_bits();
    let sign = bits & 0x8000_0000;
    let mag = bits & 0x7fff_ffff;
    let m = if mag >> 23 == 0 {
        // Denormal: shift the leading one into the implicit bit position.
        let shift = mag.leading_zeros() - 8;
        (mag << shift) & 0x007f_ffff
    } else {
        mag & 0x007f_ffff
    };
    (f32::from_bits(sign | (126 << 23) | m), e)
}

/// `modf(x, iptr)`: stores `trunc(x)` and returns
/// `copysign(isinf(x) ? 0 : x - trunc(x), x)`, as the OpenCL spec defines.
///
/// # Safety
/// `iptr` must be valid for writing an `f32`.
pub unsafe extern "C" fn clift_modf_f32(x: f32, iptr: *mut f32) -> f32 {
    let (frac, int) = modf(x);
    // SAFETY: the caller guarantees `iptr` is valid for a write.
    unsafe { iptr.write_unaligned(int) };
    frac
}

/// `modf` as a pure function: (fractional part, integral part).
pub fn modf(x: f32) -> (f32, f32) {
    let t = libm::truncf(x);
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
pub unsafe extern "C" fn clift_remquo_f32(x: f32, y: f32, quo: *mut i32) -> f32 {
    let (r, q) = remquo(x, y);
    // SAFETY: the caller guarantees `quo` is valid for a write.
    unsafe { quo.write_unaligned(q) };
    r
}

/// `remquo` as a pure function: (remainder, quotient bits).
pub fn remquo(x: f32, y: f32) -> (f32, i32) {
    if x.is_nan() || y.is_nan() {
        return (x + y, 0);
    }
    if x.is_infinite() || y == 0.0 {
        return (f32::NAN, 0);
    }
    let (r, q) = libm::remquo(x as f64, y as f64);
    (f(r), q)
}

/// `sincos(x, cosval)`: returns `sin(x)` and stores `cos(x)`.
///
/// # Safety
/// `cosval` must be valid for writing an `f32`.
pub unsafe extern "C" fn clift_sincos_f32(x: f32, cosval: *mut f32) -> f32 {
    // SAFETY: the caller guarantees `cosval` is valid for a write.
    unsafe { cosval.write_unaligned(clift_cos_f32(x)) };
    clift_sin_f32(x)
}

/// `lgamma_r(x, signp)`: returns `lgamma(x)` and stores the sign of
/// Γ(x) (1 or -1), or 0 when x is zero, a negative integer, or NaN.
///
/// # Safety
/// `signp` must be valid for writing an `i32`.
pub unsafe extern "C" fn clift_lgamma_r_f32(x: f32, signp: *mut i32) -> f32 {
    let (v, s) = lgamma_r(x);
    // SAFETY: the caller guarantees `signp` is valid for a write.
    unsafe { signp.write_unaligned(s) };
    v
}

/// `lgamma_r` as a pure function: (lgamma, sign of gamma).
pub fn lgamma_r(x: f32) -> (f32, i32) {
    let (v, s) = libm::lgamma_r(x as f64);
    let pole = x == 0.0 || (x < 0.0 && x == libm::floorf(x));
    let sign = if pole || x.is_nan() {
        0
    } else if x == f32::NEG_INFINITY {
        // Γ has no sign at -inf (lgamma(-inf) = +inf); report 0 like a pole.
        0
    } else {
        s
    };
    (f(v), sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(a: f32, b: f32) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn pi_functions_zeros_and_poles() {
        for n in [1.0f32, 2.0, 3.0, 4.0, 1e7, 16777216.0, 3e38] {
            assert!(same(clift_sinpi_f32(n), 0.0), "sinpi({n})");
            assert!(same(clift_sinpi_f32(-n), -0.0), "sinpi(-{n})");
        }
        for h in [0.5f32, 1.5, 2.5, -0.5, -1.5, 8388607.5] {
            assert!(same(clift_cospi_f32(h), 0.0), "cospi({h})");
        }
        assert!(same(clift_tanpi_f32(0.5), f32::INFINITY));
        assert!(same(clift_tanpi_f32(1.5), f32::NEG_INFINITY));
        assert!(same(clift_tanpi_f32(-0.5), f32::NEG_INFINITY));
        assert!(same(clift_tanpi_f32(-1.5), f32::INFINITY));
        assert!(same(clift_tanpi_f32(1.0), -0.0));
        assert!(same(clift_tanpi_f32(2.0), 0.0));
        assert!(same(clift_tanpi_f32(-1.0), 0.0));
        assert!(same(clift_tanpi_f32(-2.0), -0.0));
        assert!(same(clift_sinpi_f32(0.5), 1.0));
        assert!(same(clift_cospi_f32(1.0), -1.0));
        assert!(clift_sinpi_f32(f32::INFINITY).is_nan());
    }

    #[test]
    fn frexp_ilogb_logb_and_denormals() {
        assert_eq!(frexp(1.0), (0.5, 1));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(frexp(f32::from_bits(1)), (0.5, -148));
        assert_eq!(frexp(f32::INFINITY), (f32::INFINITY, 0));
        assert_eq!(clift_ilogb_f32(f32::from_bits(1)), -149);
        assert_eq!(clift_ilogb_f32(0.0), FP_ILOGB0);
        assert_eq!(clift_ilogb_f32(f32::NAN), FP_ILOGBNAN);
        assert_eq!(clift_logb_f32(f32::from_bits(0x0040_0000)), -127.0);
        assert_eq!(clift_ldexp_f32(1.0, -149), f32::from_bits(1));
        assert_eq!(clift_ldexp_f32(1.5, -149), f32::from_bits(2)); // ties to even
        assert_eq!(clift_ldexp_f32(1.0, i32::MAX), f32::INFINITY);
        assert!(same(clift_nextafter_f32(-0.0, 1.0), f32::from_bits(1)));
        assert!(same(clift_nextafter_f32(0.0, -1.0), -f32::from_bits(1)));
        assert!(same(clift_nextafter_f32(f32::from_bits(1), 0.0), 0.0));
    }

    #[test]
    fn pointer_results() {
        let mut i = 0.0f32;
        // SAFETY: `i` is a live local.
        let v = unsafe { clift_fract_f32(-1e-10, &mut i) };
        assert_eq!((v, i), (f32::from_bits(0x3f7f_ffff), -1.0));
        let mut q = 99;
        // SAFETY: `q` is a live local.
        let r = unsafe { clift_remquo_f32(7.0, 2.0, &mut q) };
        assert_eq!((r, q), (-1.0, 4));
        // SAFETY: as above.
        let r = unsafe { clift_remquo_f32(f32::INFINITY, 2.0, &mut q) };
        assert!(r.is_nan() && q == 0);
        let mut s = 7;
        // SAFETY: as above.
        let v = unsafe { clift_lgamma_r_f32(-2.0, &mut s) };
        assert_eq!((v, s), (f32::INFINITY, 0));
        // SAFETY: as above.
        let v = unsafe { clift_lgamma_r_f32(-2.5, &mut s) };
        assert_eq!(s, -1);
        assert!((v - (-0.056_243_718_f32)).abs() < 1e-6);
    }

    #[test]
    fn power_rules() {
        assert!(same(clift_pown_f32(f32::NAN, 0), 1.0));
        assert!(same(clift_pown_f32(-0.0, -3), f32::NEG_INFINITY));
        assert!(same(clift_pown_f32(-0.0, -2), f32::INFINITY));
        assert!(same(clift_pown_f32(-0.0, 2), 0.0));
        assert!(same(clift_pown_f32(-0.0, 3), -0.0));
        assert!(same(clift_rootn_f32(-8.0, 3), -2.0));
        assert!(clift_rootn_f32(-8.0, 2).is_nan());
        assert!(clift_rootn_f32(8.0, 0).is_nan());
        assert!(same(clift_rootn_f32(-0.0, -3), f32::NEG_INFINITY));
        assert!(same(clift_rootn_f32(-0.0, 2), 0.0));
        assert!(clift_powr_f32(-1.0, 2.0).is_nan());
        assert!(clift_powr_f32(1.0, f32::INFINITY).is_nan());
        assert!(same(clift_powr_f32(-0.0, 3.0), 0.0));
        assert!(same(clift_pow_f32(-0.0, f32::NEG_INFINITY), f32::INFINITY));
    }
}
