//! Host references and ulp checks for the OpenCL.std math tests on float
//! (`exec_builtins_math.rs`) and double (`exec_fp64_math.rs`): one check of
//! every math, common and float relational function of
//! `kernels/cl/math_body.h`, generic over [`Float`].
//!
//! References are computed in f64 with Rust's functions and the C
//! library's (glibc: erf, erfc, tgamma, lgamma_r, remainder, remquo,
//! acosh, asinh, atanh), never clift's. For float they are exact to well
//! under an ulp of the result, so a result must lie within the spec's
//! bound (0 ulp: within half an ulp, correctly rounded). For double they
//! are in the result's own precision and within about an ulp, so a result
//! must lie within the bound plus one ulp, and a correctly rounded
//! function must match the reference bit for bit.

use crate::rng::Rng;
use std::fmt::{Debug, LowerExp};
use std::ops::{Add, Mul, Sub};

use crate::exec::{Arg, Kernel, Opt};

/// What the checks need of float and double.
pub trait Float:
    Copy + PartialOrd + Debug + LowerExp + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + crate::exec::Pod
{
    /// The OpenCL C type name (`math_<NAME>` is the scalar kernel).
    const NAME: &'static str;
    /// Bits of the fraction field.
    const FRACTION_BITS: i32;
    /// The exponent of the smallest denormal.
    const MIN_DENORMAL_EXP: i32;
    /// The largest finite value.
    const MAX: f64;
    /// The smallest normal value.
    const MIN_POSITIVE: f64;
    /// The sign bit.
    const SIGN_BIT: u64;
    /// The bit that makes a NaN quiet.
    const QUIET_BIT: u64;
    /// The largest value below 1 (what fract clamps to).
    const ONE_MINUS_ULP: f64;
    /// The host reference's own error in ulps of this type: 0 for float
    /// (computed in double), 1 for double (see the module).
    const REFERENCE_ULPS: f64;
    /// Whether mad and mix may be computed fused or not: only double
    /// accepts both (float mad must be the correctly rounded fma, float mix
    /// the unfused expression).
    const FUSED_OR_NOT: bool;
    /// The absolute error allowed for lgamma near its zeros at 1 and 2,
    /// where ulps say nothing.
    const LGAMMA_ABS: f64;
    /// The absolute error allowed for smoothstep.
    const SMOOTHSTEP_ABS: f64;
    /// Whether the kernels have the half_ and native_ forms (float only).
    const HALF_AND_NATIVE: bool;
    /// Two exponent arguments beyond the type's range (for ldexp, pown,
    /// rootn).
    const BIG_K: [i32; 2];
    /// Special input values of this type's own, after those of
    /// [`special`].
    const OWN_SPECIAL: [Self; 5];

    /// The value, exactly, as f64.
    fn to_f64(self) -> f64;
    /// The f64 rounded to this type.
    fn from_f64(d: f64) -> Self;
    /// The bits, widened.
    fn bits(self) -> u64;
    /// The value with these bits (narrowed).
    fn from_bits64(b: u64) -> Self;
    /// fma in this type.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// A random value in [-10, 10] from a generator state.
    fn uniform(s: u64) -> Self;
    /// A random finite bit pattern from a generator state.
    fn finite(s: u64) -> Self;

    /// Whether NaN.
    fn is_nan(self) -> bool {
        self.to_f64().is_nan()
    }
}

impl Float for f32 {
    const NAME: &'static str = "float";
    const FRACTION_BITS: i32 = 23;
    const MIN_DENORMAL_EXP: i32 = -149;
    const MAX: f64 = f32::MAX as f64;
    const MIN_POSITIVE: f64 = f32::MIN_POSITIVE as f64;
    const SIGN_BIT: u64 = 0x8000_0000;
    const QUIET_BIT: u64 = 0x0040_0000;
    const ONE_MINUS_ULP: f64 = f32::from_bits(0x3f7f_ffff) as f64;
    const REFERENCE_ULPS: f64 = 0.0;
    const FUSED_OR_NOT: bool = false;
    const LGAMMA_ABS: f64 = 1e-6;
    const SMOOTHSTEP_ABS: f64 = 1e-6;
    const HALF_AND_NATIVE: bool = true;
    const BIG_K: [i32; 2] = [130, -150];
    const OWN_SPECIAL: [f32; 5] = [100.0, -88.5, 0.999_999_9, 1e-7, 1e10];

    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(d: f64) -> f32 {
        d as f32
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits64(b: u64) -> f32 {
        f32::from_bits(b as u32)
    }
    fn mul_add(self, a: f32, b: f32) -> f32 {
        f32::mul_add(self, a, b)
    }
    fn uniform(s: u64) -> f32 {
        let r = (s >> 32) as u32;
        (r as f64 / u32::MAX as f64 * 20.0 - 10.0) as f32
    }
    fn finite(s: u64) -> f32 {
        let r = (s >> 32) as u32;
        let f = f32::from_bits(r);
        if f.is_finite() {
            f
        } else {
            f32::from_bits(r & 0xbf7f_ffff)
        }
    }
}

impl Float for f64 {
    const NAME: &'static str = "double";
    const FRACTION_BITS: i32 = 52;
    const MIN_DENORMAL_EXP: i32 = -1074;
    const MAX: f64 = f64::MAX;
    const MIN_POSITIVE: f64 = f64::MIN_POSITIVE;
    const SIGN_BIT: u64 = 0x8000_0000_0000_0000;
    const QUIET_BIT: u64 = 0x0008_0000_0000_0000;
    const ONE_MINUS_ULP: f64 = f64::from_bits(0x3fef_ffff_ffff_ffff);
    const REFERENCE_ULPS: f64 = 1.0;
    const FUSED_OR_NOT: bool = true;
    const LGAMMA_ABS: f64 = 1e-12;
    const SMOOTHSTEP_ABS: f64 = 1e-14;
    const HALF_AND_NATIVE: bool = false;
    const BIG_K: [i32; 2] = [1030, -1100];
    const OWN_SPECIAL: [f64; 5] = [100.0, -700.5, 0.999_999_999_999_999_9, 1e-17, 1e300];

    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(d: f64) -> f64 {
        d
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
    fn from_bits64(b: u64) -> f64 {
        f64::from_bits(b)
    }
    fn mul_add(self, a: f64, b: f64) -> f64 {
        f64::mul_add(self, a, b)
    }
    fn uniform(s: u64) -> f64 {
        (s >> 11) as f64 / (1u64 << 53) as f64 * 20.0 - 10.0
    }
    fn finite(s: u64) -> f64 {
        let f = f64::from_bits(s);
        if f.is_finite() {
            f
        } else {
            f64::from_bits(s & 0xbfef_ffff_ffff_ffff)
        }
    }
}

/// The one-operand functions of the float kernel, in its order, with their
/// bounds in ulps (-1: lgamma, which has none); the double kernel has the
/// same without the half_ and native_ forms.
pub const F1: &[(&str, f64)] = &[
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

/// The two-operand functions, as [`F1`].
pub const F2: &[(&str, f64)] = &[
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
pub const F3: &[&str] = &["fma", "mad", "mix", "smoothstep", "clamp"];

/// Results after F1, F2, F3: ldexp, pown, rootn, nan, bitselect, select,
/// then the pointer-result functions (see the kernel).
const EXTRA: usize = 6 + 5 + 3 + 4 + 2 + 2 + 2 + 2;

/// The entries of `list` that the kernel of `T` has.
fn functions<T: Float>(list: &'static [(&'static str, f64)]) -> impl Iterator<Item = (&'static str, f64)> {
    list.iter()
        .copied()
        .filter(|(f, _)| T::HALF_AND_NATIVE || !(f.starts_with("half_") || f.starts_with("native_")))
}

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

/// lgamma and the sign of gamma (glibc's lgamma_r).
pub fn lgamma_sign(x: f64) -> (f64, i32) {
    let mut s = 0;
    // SAFETY: glibc's lgamma_r writes one int through the valid pointer.
    let v = unsafe { lgamma_r(x, &mut s) };
    (v, s)
}

/// glibc's remquo: the remainder and the low bits of the quotient.
pub fn remquo_ref(x: f64, y: f64) -> (f64, i32) {
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

/// C's fmax: a NaN operand gives the other.
pub fn fmax_c<T: Float>(x: T, y: T) -> T {
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

/// C's fmin: a NaN operand gives the other.
pub fn fmin_c<T: Float>(x: T, y: T) -> T {
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

/// The reference of one-operand function `name` (half_ and native_ forms
/// as the full function) at `d`.
pub fn ref1(name: &str, d: f64) -> f64 {
    let pi = std::f64::consts::PI;
    let base = name.trim_start_matches("half_").trim_start_matches("native_");
    match base {
        "acos" => d.acos(),
        // SAFETY: libm's acosh, asinh, atanh are pure functions of a double
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
        "recip" => 1.0 / d,
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

/// The unbiased exponent of a nonzero finite double (denormals included).
pub fn exponent(d: f64) -> i32 {
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

/// C's nextafter in `T`.
pub fn next_after<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        return if x.is_nan() { x } else { y };
    }
    if x == y {
        return y;
    }
    let b = x.bits();
    if b & !T::SIGN_BIT == 0 {
        return T::from_bits64(1 | (y.bits() & T::SIGN_BIT));
    }
    let up = (y > x) == (b & T::SIGN_BIT == 0);
    T::from_bits64(if up { b + 1 } else { b - 1 })
}

/// The reference of two-operand function `name` at (x, y), or None where
/// the result is undefined.
pub fn ref2<T: Float>(name: &str, x: T, y: T) -> Option<f64> {
    let (a, b) = (x.to_f64(), y.to_f64());
    let pi = std::f64::consts::PI;
    let base = name.trim_start_matches("half_").trim_start_matches("native_");
    Some(match base {
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
        "fmax" => fmax_c(x, y).to_f64(),
        "fmin" => fmin_c(x, y).to_f64(),
        "fmod" => a % b,
        "hypot" => a.hypot(b),
        "maxmag" | "minmag" => {
            let (ax, ay) = (a.abs(), b.abs());
            let max = base == "maxmag";
            let pick = if ax > ay {
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
            };
            pick.to_f64()
        }
        "nextafter" => next_after(x, y).to_f64(),
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
        "max" | "min" if a.is_nan() || b.is_nan() => return None,
        "max" => fmax_c(x, y).to_f64(),
        "min" => fmin_c(x, y).to_f64(),
        _ => unreachable!("{name}"),
    })
}

/// 2^e for e in -1074..=1023, exactly (powi loses denormal powers).
fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// The error of `got` in ulps of `T` at the reference `want` (given in
/// f64); a NaN reference wants a NaN, an infinite result a reference
/// beyond `T`'s largest finite value with its sign.
pub fn ulps<T: Float>(got: T, want: f64) -> f64 {
    let g = got.to_f64();
    if want.is_nan() || g.is_nan() {
        return if want.is_nan() && g.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if g.is_infinite() {
        let ok = want.signum() == g.signum() && want.abs() > T::MAX;
        return if ok { 0.0 } else { f64::INFINITY };
    }
    if want.is_infinite() {
        return f64::INFINITY;
    }
    if g == want {
        return 0.0;
    }
    let mag = want.abs().min(T::MAX);
    let ulp = if mag == 0.0 {
        pow2(T::MIN_DENORMAL_EXP)
    } else {
        pow2((exponent(mag) - T::FRACTION_BITS).max(T::MIN_DENORMAL_EXP))
    };
    let d = (g - want).abs();
    if d.is_finite() {
        d / ulp
    } else {
        // Values far apart: their difference overflows.
        f64::INFINITY
    }
}

/// Whether `got` is within `bound` ulps of `want` plus the reference's own
/// error; bound 0 is correctly rounded: within half an ulp of an exact
/// reference, or the very bits (zero signs included) of one in `T`'s own
/// precision.
pub fn within<T: Float>(got: T, want: f64, bound: f64) -> bool {
    if bound == 0.0 && T::REFERENCE_ULPS > 0.0 {
        return same(got.to_f64(), want);
    }
    ulps(got, want) <= bound.max(0.5) + T::REFERENCE_ULPS + 1e-9
}

/// The same bits, or both NaN.
pub fn same<T: Float>(a: T, b: T) -> bool {
    a.bits() == b.bits() || (a.is_nan() && b.is_nan())
}

/// Correctly rounded, or both zeros of either sign (fract and modf, whose
/// zero's sign the spec leaves open).
fn exact_or_zeros<T: Float>(got: T, want: f64) -> bool {
    within(got, want, 0.0) || (got.to_f64() == 0.0 && want == 0.0)
}

/// Special input values: ±0, ±1, halves, integers, ±inf, NaN, ±MAX, ±MIN,
/// the smallest and (negated) the largest denormal, then `T`'s own.
pub fn special<T: Float>() -> Vec<T> {
    let common = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        -3.0,
        1.5,
        -2.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        T::MAX,
        -T::MAX,
        T::MIN_POSITIVE,
        -T::MIN_POSITIVE,
    ];
    let denormals = [
        T::from_bits64(1),
        T::from_bits64(T::SIGN_BIT | ((1u64 << T::FRACTION_BITS) - 1)),
    ];
    common
        .into_iter()
        .map(T::from_f64)
        .chain(denormals)
        .chain(T::OWN_SPECIAL)
        .collect()
}

/// Deterministic inputs: the special values, then random values (half of
/// them in [-10, 10], the rest any finite bit pattern).
pub fn inputs<T: Float>(len: usize, seed: u64) -> Vec<T> {
    let special = special::<T>();
    let mut rng = Rng(seed);
    let mut next = || rng.next_u64();
    (0..len)
        .map(|i| {
            if i < special.len() {
                return special[(i + seed as usize) % special.len()];
            }
            let r = next();
            if i % 2 == 0 {
                T::uniform(r)
            } else {
                T::finite(r)
            }
        })
        .collect()
}

/// A comparison of two values.
pub type Comparison<T> = fn(T, T) -> bool;

/// The IEEE comparisons of the unordered and ordered SPIR-V instructions
/// (OpLessOrGreater, OpFUnord*, OpFOrdNotEqual, OpOrdered, OpUnordered),
/// by the name of their test kernels.
#[allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]
pub fn unordered_comparisons<T: Float>() -> [(&'static str, Comparison<T>); 10] {
    // `!(a < b)` is not `a >= b`, and `a < b || a > b` is not `a != b`,
    // with NaN operands.
    [
        ("lessorgreater", |x, y| x < y || x > y),
        ("funordequal", |x, y| !(x < y || x > y)),
        ("funordnotequal", |x, y| x != y),
        ("funordlessthan", |x, y| !(x >= y)),
        ("funordlessthanequal", |x, y| !(x > y)),
        ("funordgreaterthan", |x, y| !(x <= y)),
        ("funordgreaterthanequal", |x, y| !(x < y)),
        ("fordnotequal", |x, y| x < y || x > y),
        ("ordered", |x, y| !x.is_nan() && !y.is_nan()),
        ("unordered", |x, y| x.is_nan() || y.is_nan()),
    ]
}

/// Runs `math_<T>` and `math_<T><n>` of corpus `module` for every `n` of
/// `widths` (1: the scalar kernel) at -O0 and -O2 over 512 lanes and checks
/// every result against the references; panics listing the first wrong
/// results of a kernel.
pub fn check_every_function<T: Float>(module: &str, widths: &[usize]) {
    let f1: Vec<(&str, f64)> = functions::<T>(F1).collect();
    let f2: Vec<(&str, f64)> = functions::<T>(F2).collect();
    let outs = f1.len() + f2.len() + F3.len() + EXTRA;
    let items_total = 512;
    let local = 16;
    for opt in Opt::BOTH {
        for &n in widths {
            let items = items_total / n;
            let lanes = items * n;
            let a = inputs::<T>(lanes, 1);
            let b = inputs::<T>(lanes, 7);
            let c = inputs::<T>(lanes, 13);
            let k: Vec<i32> = (0..lanes)
                .map(|p| match p % 13 {
                    0 => 0,
                    1 => -1,
                    2 => 3,
                    3 => -4,
                    4 => 1,
                    5 => i32::MIN,
                    6 => T::BIG_K[0],
                    7 => T::BIG_K[1],
                    _ => (p as i32 * 7919) % 21 - 10,
                })
                .collect();
            let zero = T::from_bits64(0);
            let mut o = vec![zero; outs * lanes];
            let mut oi = vec![0i32; 5 * lanes];
            let mut g = vec![zero; 2 * lanes];
            let mut gi = vec![0i32; 2 * lanes];
            let name = if n == 1 {
                format!("math_{}", T::NAME)
            } else {
                format!("math_{}{n}", T::NAME)
            };
            Kernel::new(module, opt, &name)
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::input(&c))
                .arg(Arg::input(&k))
                .arg(Arg::output(&mut o))
                .arg(Arg::output(&mut oi))
                .arg(Arg::output(&mut g))
                .arg(Arg::output(&mut gi))
                .arg(Arg::Local(local * n * std::mem::size_of::<T>()))
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
                let (dx, dy, dz) = (x.to_f64(), y.to_f64(), z.to_f64());
                let mut r = 0;
                for &(f, bound) in &f1 {
                    let got = out(r, p);
                    let want = ref1(f, dx);
                    let ok = if bound < 0.0 {
                        // lgamma has no bound in the spec: within 16 ulp or
                        // a small absolute error (near its zeros at 1 and 2).
                        within(got, want, 16.0) || (got.to_f64() - want).abs() <= T::LGAMMA_ABS
                    } else {
                        within(got, want, bound)
                    };
                    if !ok {
                        fail(format!("{f}({x:e}) = {got:e}, want {want:e} ({} ulp)", ulps(got, want)));
                    }
                    r += 1;
                }
                for &(f, bound) in &f2 {
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
                    let fused = dx.mul_add(dy, dz);
                    let ok = match f {
                        "fma" => within(got, fused, 0.0),
                        "mad" => within(got, fused, 0.0) || (T::FUSED_OR_NOT && same(got, x * y + z)),
                        "mix" => same(got, x + (y - x) * z) || (T::FUSED_OR_NOT && same(got, (y - x).mul_add(z, x))),
                        "smoothstep" => {
                            if x < y && (y - x).to_f64().is_finite() && dz.is_finite() {
                                let t = ((dz - dx) / (dy - dx)).clamp(0.0, 1.0);
                                (got.to_f64() - t * t * (3.0 - 2.0 * t)).abs() <= T::SMOOTHSTEP_ABS
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
                let want = if dx == 0.0 || !dx.is_finite() {
                    dx
                } else {
                    // Two steps so that neither power of two overflows.
                    let e = kk.clamp(-2200, 2200);
                    dx * 2f64.powi(e / 2) * 2f64.powi(e - e / 2)
                };
                let denormal_ok = want.is_finite() && want.abs() < T::MIN_POSITIVE && within(ld, want, 0.5);
                if !within(ld, want, 0.0) && !denormal_ok {
                    fail(format!("ldexp({x:e}, {kk}) = {ld:e}, want {want:e}"));
                }
                let pn = out(r + 1, p);
                let want = if kk == 0 { 1.0 } else { dx.powf(kf) };
                if !within(pn, want, 16.0) {
                    fail(format!("pown({x:e}, {kk}) = {pn:e}, want {want:e}"));
                }
                let rn = out(r + 2, p);
                let want = if kk == 0 || (dx < 0.0 && kk % 2 == 0) || dx.is_nan() {
                    f64::NAN
                } else if kk % 2 != 0 {
                    dx.abs().powf(1.0 / kf).copysign(dx)
                } else {
                    dx.abs().powf(1.0 / kf)
                };
                // 1/k is rounded: a reference in T's own precision is exact
                // only where the result's sensitivity to the exponent is small.
                let slack = if want.is_finite() && want != 0.0 {
                    T::REFERENCE_ULPS * want.abs().ln().abs()
                } else {
                    0.0
                };
                if !within(rn, want, 16.0 + slack) {
                    fail(format!("rootn({x:e}, {kk}) = {rn:e}, want {want:e}"));
                }
                // nan(code): a quiet NaN.
                let nn = out(r + 3, p);
                if !nn.is_nan() || nn.bits() & T::QUIET_BIT == 0 {
                    fail(format!("nan({kk}) = {:#x}", nn.bits()));
                }
                // bitselect(a, b, c) and select(a, b, k).
                let bs = out(r + 4, p);
                let want = (x.bits() & !z.bits()) | (y.bits() & z.bits());
                if bs.bits() != want {
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
                let fr = if dx.is_nan() {
                    f64::NAN
                } else if dx.is_infinite() {
                    0f64.copysign(dx)
                } else {
                    (dx - fl).min(T::ONE_MINUS_ULP)
                };
                for (got, want, what) in [
                    (out(r, p), fr, "fract"),
                    (out(r + 2, p), fr, "fract (global)"),
                    (out(r + 3, p), fr, "fract (local)"),
                ] {
                    if !exact_or_zeros(got, want) {
                        fail(format!("{what} of {x:e}: {got:e}, want {want:e}"));
                    }
                }
                for (got, what) in [
                    (out(r + 1, p), "fract's private floor"),
                    (g[p], "fract's global floor"),
                    (out(r + 4, p), "fract's local floor"),
                ] {
                    if !within(got, fl, 0.0) {
                        fail(format!("{what} of {x:e}: {got:e}, want {fl:e}"));
                    }
                }
                r += 5;
                // modf: private, global.
                let tr = dx.trunc();
                let mf = if dx.is_infinite() { 0f64.copysign(dx) } else { dx - tr };
                for (got, want) in [
                    (out(r, p), mf),
                    (out(r + 1, p), tr),
                    (out(r + 2, p), mf),
                    (g[lanes + p], tr),
                ] {
                    if !exact_or_zeros(got, want) {
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
                let (fm, fe) = if dx == 0.0 || !dx.is_finite() {
                    (dx, 0)
                } else {
                    let e = exponent(dx) + 1;
                    (dx * 2f64.powi(-e / 2) * 2f64.powi(-(e - e / 2)), e)
                };
                for (got, e) in [(out(r, p), oi[p]), (out(r + 1, p), gi[p])] {
                    if !within(got, fm, 0.0) || (dx.is_finite() && e != fe) {
                        fail(format!("frexp({x:e}) = ({got:e}, {e}), want ({fm:e}, {fe})"));
                    }
                }
                r += 2;
                // remquo: private, local.
                let (rm, q) = remquo_ref(dx, dy);
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
                    let ok = within(got, lg, 16.0) || (got.to_f64() - lg).abs() <= T::LGAMMA_ABS;
                    let sign_ok = !dx.is_finite() || dx <= 0.0 && dx == dx.floor() || s == ls;
                    if !ok || !sign_ok {
                        fail(format!("lgamma_r({x:e}) = ({got:e}, {s}), want ({lg:e}, {ls})"));
                    }
                }
                r += 2;
                // fract through a generic pointer to private memory.
                if !exact_or_zeros(out(r, p), fr) || !within(out(r + 1, p), fl, 0.0) {
                    fail(format!("fract (generic) of {x:e}: {:e} {:e}", out(r, p), out(r + 1, p)));
                }
                r += 2;
                assert_eq!(r, outs);
                // ilogb.
                let want = if dx.is_nan() || dx.is_infinite() {
                    i32::MAX
                } else if dx == 0.0 {
                    i32::MIN
                } else {
                    exponent(dx)
                };
                if oi[4 * lanes + p] != want {
                    fail(format!("ilogb({x:e}) = {}, want {want}", oi[4 * lanes + p]));
                }
            }
            assert!(bad.is_empty(), "{name} at {opt:?}:\n{}", bad.join("\n"));
        }
    }
}
