//! The `float` math functions of OpenCL C (OpenCL.std's math instructions),
//! called by JIT code through their addresses.
//!
//! Every function is a pure function of its arguments: no global state, no
//! panics, no allocation, so that it can be applied lane by lane to several
//! work-items at once (as 4-lane kernel bodies do). The approach is the same throughout: an
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
//! values itself, and its comment quotes the rule. Most of those rules are
//! the same for `double`: `crate::math_shared` writes them once for both
//! types and lists the entry points both types have, which
//! `shared_entry_points!(f32)` defines here; the `MathFloat`
//! implementation below supplies the kernels that `float` evaluates in
//! double.
//!
//! `fmod` is `crate::frem::clift_frem_f32`, which OpFRem already uses.
//!
//! The functions with a pointer result (`fract`, `frexp`, `modf`, `remquo`,
//! `sincos`, `lgamma_r`) return the value result and store the pointer
//! result through an out-pointer, which must be valid for a write; the
//! JIT passes the kernel's own pointer (any storage class: OpenCL makes an
//! invalid one undefined behaviour of the kernel).

use core::f64::consts::PI;

use crate::math_shared::MathFloat;
pub use crate::math_shared::{FP_ILOGB0, FP_ILOGBNAN};

crate::math_shared::shared_entry_points!(f32);

/// Rounds a double-precision result to `float` (round to nearest even).
#[inline(always)]
fn f(x: f64) -> f32 {
    x as f32
}

/// The `float` side of the functions `math_shared` writes once: the
/// double-precision evaluations, rounded once.
impl MathFloat for f32 {
    /// In double the squares are exact and cannot overflow. A NaN operand
    /// is the result, x's where both are (quieted): the sum of the squares
    /// would pass on either of two NaNs, as the compiler ordered it (this
    /// crate's release build adds them the other way round from its debug
    /// build), and the 4-lane bodies compute this function inline.
    fn hypot_kernel(self, y: f32) -> f32 {
        if self.is_nan() {
            return self + self;
        }
        if y.is_nan() {
            return y + y;
        }
        let (a, b) = (self as f64, y as f64);
        f((a * a + b * b).sqrt())
    }
    /// Reduced further so that the argument of the double function is at
    /// most pi/4.
    fn sinpi_kernel(r: f32) -> f32 {
        let r = r as f64;
        f(if r <= 0.25 {
            libm::sin(PI * r)
        } else {
            libm::cos(PI * (0.5 - r))
        })
    }
    fn cospi_kernel(r: f32) -> f32 {
        let r = r as f64;
        f(if r <= 0.25 {
            libm::cos(PI * r)
        } else {
            libm::sin(PI * (0.5 - r))
        })
    }
    fn tanpi_kernel(r: f32) -> f32 {
        let r = r as f64;
        f(if r <= 0.25 {
            libm::tan(PI * r)
        } else if r < 0.5 {
            1.0 / libm::tan(PI * (0.5 - r)) // tan(pi/2 - t) = 1 / tan(t)
        } else if r <= 0.75 {
            -1.0 / libm::tan(PI * (r - 0.5)) // tan(pi/2 + t) = -1 / tan(t)
        } else {
            -libm::tan(PI * (1.0 - r)) // tan(pi - t) = -tan(t)
        })
    }
    /// `pow(x, 1/n)` in double: 1/n is inexact, but its relative error
    /// 2^-53 times |log x| <= 104 changes the result by less than 2^-45
    /// relative.
    fn rootn_kernel(x: f32, n: i32) -> f32 {
        f(libm::pow(x as f64, 1.0 / n as f64))
    }
    /// `crate::double_lanes`', whose 4-lane and 8-lane forms give the same
    /// bits.
    fn sin(x: f32) -> f32 {
        clift_sin_f32(x)
    }
    fn cos(x: f32) -> f32 {
        clift_cos_f32(x)
    }
}

pub use crate::double_lanes::{
    clift_cos_f32, clift_cos_f32x4, clift_exp10_f32, clift_exp10_f32x4, clift_exp2_f32, clift_exp2_f32x4,
    clift_log10_f32, clift_log10_f32x4, clift_log2_f32, clift_log2_f32x4, clift_pow_f32, clift_sin_f32,
    clift_sin_f32x4, clift_tan_f32, clift_tan_f32x4,
};
#[cfg(target_arch = "x86_64")]
pub use crate::double_lanes::{
    clift_cos_v4, clift_cos_v8, clift_exp10_v4, clift_exp10_v8, clift_exp2_v4, clift_exp2_v8, clift_log10_v4,
    clift_log10_v8, clift_log2_v4, clift_log2_v8, clift_pow_v4, clift_pow_v8, clift_sin_v4, clift_sin_v8, clift_tan_v4,
    clift_tan_v8,
};
pub use crate::float_lanes::{
    clift_erf_f32, clift_erf_f32x4, clift_exp_f32, clift_exp_f32x4, clift_log_f32, clift_log_f32x4,
};
#[cfg(target_arch = "x86_64")]
pub use crate::float_lanes::{clift_erf_v4, clift_erf_v8, clift_exp_v4, clift_exp_v8, clift_log_v4, clift_log_v8};

/// The OpenCL.std name whose vector forms compute `name`'s `float`
/// function: `name` itself, or for a `half_` or `native_` form whose table
/// row calls the same host function as the plain one (`native_exp` and
/// `exp` both call `clift_exp_f32`), the plain name; so those forms get
/// the plain function's 4-lane and 8-lane entry points, with its bits.
fn vector_name(name: &str) -> &str {
    use crate::opencl_std::{Scalar, OPENCL_STD};
    let f32_fn = |n: &str| {
        OPENCL_STD
            .iter()
            .find(|r| r.name == n)
            .and_then(|r| r.host_fn(Scalar::F32, ""))
            .map(|h| h.func.addr())
    };
    match name.strip_prefix("half_").or_else(|| name.strip_prefix("native_")) {
        Some(base) if f32_fn(base).is_some() && f32_fn(base) == f32_fn(name) => base,
        _ => name,
    }
}

/// The 4-lane entry point of one-argument `float` function `name` (an
/// OpenCL.std instruction name), if it has one: its address.
pub fn four_lanes(name: &str) -> Option<usize> {
    let f: unsafe extern "C" fn(*mut f32) = match vector_name(name) {
        "exp" => clift_exp_f32x4,
        "log" => clift_log_f32x4,
        "erf" => clift_erf_f32x4,
        "sin" => clift_sin_f32x4,
        "cos" => clift_cos_f32x4,
        "tan" => clift_tan_f32x4,
        "exp2" => clift_exp2_f32x4,
        "exp10" => clift_exp10_f32x4,
        "log2" => clift_log2_f32x4,
        "log10" => clift_log10_f32x4,
        _ => return None,
    };
    Some(f as usize)
}

/// The 8-lane form of one-argument `float` function `name`, where it has
/// one (exp, log, erf, sin, cos, tan, exp2, exp10, log2 and log10; acos,
/// asin, atan, erfc, cbrt, expm1, tanh, sinh, cosh, log1p, asinh, acosh,
/// atanh, acospi, asinpi and atanpi; on x86-64 System V): the address of an
/// `extern "C" fn(__m128, __m128, *mut f32)` that 8-lane kernel code calls
/// with its two 4-lane parts in `xmm0` and `xmm1` and eight floats' room
/// in `rdi`, and reloads from there, bitwise the scalar function on each
/// lane (see `crate::float_lanes`, `crate::double_lanes` and
/// `crate::libm_float_lanes`).
pub fn eight_lanes(name: &str) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(windows)))]
    return {
        let name = vector_name(name);
        crate::float_lanes::eight_lanes(name)
            .or_else(|| crate::double_lanes::eight_lanes(name))
            .or_else(|| crate::libm_float_lanes::eight_lanes(name))
    };
    #[cfg(not(all(target_arch = "x86_64", not(windows))))]
    {
        let _ = name;
        None
    }
}

/// The 8-lane form of two-argument `float` function `name`, where it has
/// one (pow, atan2 and atan2pi on x86-64 System V): the address of an `extern "C"
/// fn(__m128, __m128, __m128, __m128, *mut f32)`, the first argument's two
/// parts in `xmm0` and `xmm1`, the second's in `xmm2` and `xmm3` (see
/// `crate::double_lanes`, `crate::libm_float_lanes`).
pub fn eight_lanes_binary(name: &str) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(windows)))]
    return match vector_name(name) {
        "pow" => Some(crate::double_lanes::pow_eight_lanes()),
        other => crate::libm_float_lanes::eight_lanes_binary(other),
    };
    #[cfg(not(all(target_arch = "x86_64", not(windows))))]
    {
        let _ = name;
        None
    }
}

/// The register form of two-argument `float` function `name`, where it
/// has one (pow, atan2 and atan2pi on x86-64 System V): the address of an `extern "C"
/// fn(__m128, __m128) -> __m128`, the arguments in `xmm0` and `xmm1`.
pub fn four_lanes_in_register_binary(name: &str) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(windows)))]
    return match vector_name(name) {
        "pow" => Some(crate::double_lanes::pow_four_lanes_in_register()),
        other => crate::libm_float_lanes::four_lanes_in_register_binary(other),
    };
    #[cfg(not(all(target_arch = "x86_64", not(windows))))]
    {
        let _ = name;
        None
    }
}

/// The register form of one-argument `float` function `name`, where it has
/// one (those of [`eight_lanes`]): the address of an
/// `extern "C" fn(__m128) -> __m128` that 4-lane kernel code calls with
/// the four lanes in `xmm0` and gets them back there, bitwise the scalar
/// function on each lane.
pub fn four_lanes_in_register(name: &str) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", not(windows)))]
    return {
        let name = vector_name(name);
        crate::float_lanes::four_lanes_in_register(name)
            .or_else(|| crate::double_lanes::four_lanes_in_register(name))
            .or_else(|| crate::libm_float_lanes::four_lanes_in_register(name))
    };
    #[cfg(not(all(target_arch = "x86_64", not(windows))))]
    {
        let _ = name;
        None
    }
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

/// `atan2pi(y, x) = atan2(y, x) / pi`. The exact cases (±1, ±0.5, ±0.75,
/// ±0.25, ±0) come out exactly: atan2 returns pi, pi/2, 3pi/4 and pi/4 to
/// within a double ulp, and the quotient rounds to the `float` constant.
/// (`math_f64` has no wider type to absorb that error, so it returns those
/// values as constants.)
pub extern "C" fn clift_atan2pi_f32(y: f32, x: f32) -> f32 {
    f(libm::atan2(y as f64, x as f64) / PI)
}

/// `ldexp(x, n) = x * 2^n`, correctly rounded: in double the product is
/// exact for every `float` x and |n| <= 300 (beyond, the result is 0 or
/// inf for every nonzero finite x anyway), and rounds to `float` once.
pub extern "C" fn clift_ldexp_f32(x: f32, n: i32) -> f32 {
    let n = n.clamp(-300, 300);
    let scale = f64::from_bits(((1023 + n) as u64) << 52);
    f(x as f64 * scale)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math_shared::same;

    // The rules `math_shared` implements for both types are tested there.

    #[test]
    fn half_and_native_forms_share_the_plain_vector_forms() {
        assert_eq!(vector_name("native_exp"), "exp");
        assert_eq!(vector_name("half_log"), "log");
        assert_eq!(vector_name("native_tan"), "tan");
        assert_eq!(vector_name("half_cos"), "cos");
        // Inline forms and functions of their own keep their names.
        assert_eq!(vector_name("native_divide"), "native_divide");
        assert_eq!(vector_name("native_recip"), "native_recip");
        assert_eq!(vector_name("exp"), "exp");
        assert_eq!(four_lanes("native_sin"), four_lanes("sin"));
        assert!(four_lanes("native_sin").is_some());
        assert_eq!(four_lanes_in_register("half_exp"), four_lanes_in_register("exp"));
        assert_eq!(eight_lanes("native_log"), eight_lanes("log"));
        assert!(four_lanes("native_powr").is_none());
        assert_eq!(four_lanes("native_exp2"), four_lanes("exp2"));
    }

    #[test]
    fn hypot_passes_on_the_first_nan() {
        let (a, b) = (f32::from_bits(0x7f80_0001), f32::from_bits(0xffc0_1234));
        // Quieted, x's where both are NaNs; infinities first.
        assert_eq!(clift_hypot_f32(a, b).to_bits(), 0x7fc0_0001);
        assert_eq!(clift_hypot_f32(b, a).to_bits(), 0xffc0_1234);
        assert_eq!(clift_hypot_f32(3.0, a).to_bits(), 0x7fc0_0001);
        assert_eq!(clift_hypot_f32(b, f32::NEG_INFINITY), f32::INFINITY);
        assert_eq!(clift_hypot_f32(3.0, -4.0), 5.0);
    }

    #[test]
    fn ldexp_through_the_denormals() {
        assert_eq!(clift_ldexp_f32(1.0, -149), f32::from_bits(1));
        assert_eq!(clift_ldexp_f32(1.5, -149), f32::from_bits(2)); // ties to even
        assert_eq!(clift_ldexp_f32(1.0, i32::MAX), f32::INFINITY);
    }

    #[test]
    fn power_rules() {
        assert!(same(clift_pown_f32(f32::NAN, 0), 1.0));
        assert!(same(clift_pown_f32(-0.0, -3), f32::NEG_INFINITY));
        assert!(same(clift_pown_f32(-0.0, -2), f32::INFINITY));
        assert!(same(clift_pown_f32(-0.0, 2), 0.0));
        assert!(same(clift_pown_f32(-0.0, 3), -0.0));
        assert!(same(clift_pow_f32(-0.0, f32::NEG_INFINITY), f32::INFINITY));
        assert!(same(clift_rootn_f32(1e30, 3), 1e10));
    }
}
