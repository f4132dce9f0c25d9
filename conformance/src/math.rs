//! Host references and ulp checks for the OpenCL.std math tests on float
//! (`exec_builtins_math.rs`), double (`exec_fp64_math.rs`) and half
//! (`exec_fp16_math.rs`, through [`crate::half::Half`]): one check of
//! every math, common and float relational function of
//! `kernels/cl/math_body.h`, and one of the geometric functions, shuffles
//! and vector memory of its `GEOMETRY` kernel, generic over [`Float`];
//! and, for double and half, the checks of the core kernels they share:
//! arithmetic and relations (`kernels/cl/fp_arith.h`), the hand-written
//! modules of instructions clang never emits (`kernels/spv/hand/fp_core.py`)
//! and specialization constants.
//!
//! References are computed in f64 with Rust's functions and the C
//! library's (glibc: erf, erfc, tgamma, lgamma_r, remainder, remquo,
//! acosh, asinh, atanh), never clift's. For float and half they are exact
//! to well under an ulp of the result, so a result must lie within the
//! spec's bound (0 ulp: within half an ulp for float, the reference
//! rounded to half bit for bit for half). For double they are in the
//! result's own precision and within about an ulp, so a result must lie
//! within the bound plus one ulp, and a correctly rounded function must
//! match the reference bit for bit. The bounds are those of the OpenCL
//! SPIR-V environment: one column for float and double, one for half.

use crate::rng::Rng;
use std::fmt::{Debug, LowerExp};
use std::ops::{Add, Mul, Sub};

use crate::exec::{Arg, Kernel, Opt};

/// What the checks need of float, double and half.
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
    /// and half (computed in double), 1 for double (see the module).
    const REFERENCE_ULPS: f64;
    /// Whether a correctly rounded (0 ulp) result must be the very bits of
    /// the reference rounded to this type, zero signs included (double,
    /// half), rather than within half an ulp of it (float, whose f64
    /// references of fma may sit a hair off a midpoint).
    const EXACT_BITS: bool;
    /// The column of the bound tables ([`F1`], [`F2`], [`OTHER_BOUNDS`])
    /// that holds this type's bounds: 0 for float and double, 1 for half.
    const BOUND_COLUMN: usize;
    /// Whether mad and mix may be computed fused or not: only double
    /// accepts both (float and half mad must be the correctly rounded fma,
    /// float mix the unfused expression).
    const FUSED_OR_NOT: bool;
    /// Whether clift computes this type's built-ins as float's on the
    /// widened operands, rounded once to this type (half, see
    /// `jit/src/lower/half.rs`): then mix is float's recipe rounded
    /// (implementation-defined; it must lie within the `mix` bound of
    /// [`OTHER_BOUNDS`] of the exact recipe), smoothstep's steps cannot
    /// overflow, and the length of a vector with an infinite and a NaN
    /// component may be float's NaN.
    const AS_FLOAT: bool;
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
    const EXACT_BITS: bool = false;
    const BOUND_COLUMN: usize = 0;
    const FUSED_OR_NOT: bool = false;
    const AS_FLOAT: bool = false;
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
    const EXACT_BITS: bool = true;
    const BOUND_COLUMN: usize = 0;
    const FUSED_OR_NOT: bool = true;
    const AS_FLOAT: bool = false;
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

/// A bound in a column a type does not use: the half_ and native_ forms,
/// which only float has.
const NONE: f64 = f64::NAN;

/// The one-operand functions of the float kernel, in its order, with their
/// bounds in ulps for float and double, then for half (-1: lgamma, which
/// has none); the double and half kernels have the same without the half_
/// and native_ forms.
pub const F1: &[(&str, [f64; 2])] = &[
    ("acos", [4.0, 2.0]),
    ("acosh", [4.0, 2.0]),
    ("acospi", [5.0, 2.0]),
    ("asin", [4.0, 2.0]),
    ("asinh", [4.0, 2.0]),
    ("asinpi", [5.0, 2.0]),
    ("atan", [5.0, 2.0]),
    ("atanh", [5.0, 2.0]),
    ("atanpi", [5.0, 2.0]),
    ("cbrt", [2.0, 2.0]),
    ("ceil", [0.0, 0.0]),
    ("cos", [4.0, 2.0]),
    ("cosh", [4.0, 2.0]),
    ("cospi", [4.0, 2.0]),
    ("erfc", [16.0, 4.0]),
    ("erf", [16.0, 4.0]),
    ("exp", [3.0, 2.0]),
    ("exp2", [3.0, 2.0]),
    ("exp10", [3.0, 2.0]),
    ("expm1", [3.0, 2.0]),
    ("fabs", [0.0, 0.0]),
    ("floor", [0.0, 0.0]),
    ("lgamma", [-1.0, -1.0]),
    ("log", [3.0, 2.0]),
    ("log2", [3.0, 2.0]),
    ("log10", [3.0, 2.0]),
    ("log1p", [2.0, 2.0]),
    ("logb", [0.0, 0.0]),
    ("rint", [0.0, 0.0]),
    ("round", [0.0, 0.0]),
    ("rsqrt", [2.0, 1.0]),
    ("sin", [4.0, 2.0]),
    ("sinh", [4.0, 2.0]),
    ("sinpi", [4.0, 2.0]),
    ("sqrt", [0.0, 1.5]),
    ("tan", [5.0, 2.5]),
    ("tanh", [5.0, 2.0]),
    ("tanpi", [6.0, 2.0]),
    ("tgamma", [16.0, 4.0]),
    ("trunc", [0.0, 0.0]),
    ("half_cos", [8192.0, NONE]),
    ("half_exp", [8192.0, NONE]),
    ("half_exp2", [8192.0, NONE]),
    ("half_exp10", [8192.0, NONE]),
    ("half_log", [8192.0, NONE]),
    ("half_log2", [8192.0, NONE]),
    ("half_log10", [8192.0, NONE]),
    ("half_recip", [8192.0, NONE]),
    ("half_rsqrt", [8192.0, NONE]),
    ("half_sin", [8192.0, NONE]),
    ("half_sqrt", [8192.0, NONE]),
    ("half_tan", [8192.0, NONE]),
    ("native_cos", [8192.0, NONE]),
    ("native_exp", [8192.0, NONE]),
    ("native_exp2", [8192.0, NONE]),
    ("native_exp10", [8192.0, NONE]),
    ("native_log", [8192.0, NONE]),
    ("native_log2", [8192.0, NONE]),
    ("native_log10", [8192.0, NONE]),
    ("native_recip", [8192.0, NONE]),
    ("native_rsqrt", [8192.0, NONE]),
    ("native_sin", [8192.0, NONE]),
    ("native_sqrt", [8192.0, NONE]),
    ("native_tan", [8192.0, NONE]),
    ("degrees", [2.0, 2.0]),
    ("radians", [2.0, 2.0]),
    ("sign", [0.0, 0.0]),
];

/// The two-operand functions, as [`F1`].
pub const F2: &[(&str, [f64; 2])] = &[
    ("atan2", [6.0, 2.0]),
    ("atan2pi", [6.0, 2.0]),
    ("copysign", [0.0, 0.0]),
    ("fdim", [0.0, 0.0]),
    ("fmax", [0.0, 0.0]),
    ("fmin", [0.0, 0.0]),
    ("fmod", [0.0, 0.0]),
    ("hypot", [4.0, 2.0]),
    ("maxmag", [0.0, 0.0]),
    ("minmag", [0.0, 0.0]),
    ("nextafter", [0.0, 0.0]),
    ("pow", [16.0, 4.0]),
    ("powr", [16.0, 4.0]),
    ("remainder", [0.0, 0.0]),
    ("half_divide", [8192.0, NONE]),
    ("half_powr", [8192.0, NONE]),
    ("native_divide", [8192.0, NONE]),
    ("native_powr", [8192.0, NONE]),
    ("step", [0.0, 0.0]),
    ("max", [0.0, 0.0]),
    ("min", [0.0, 0.0]),
];

/// The three-operand functions.
pub const F3: &[&str] = &["fma", "mad", "mix", "smoothstep", "clamp"];

/// The bounds of the functions checked apart from the lists, as [`F1`]:
/// pown, rootn and sincos; and mix where it is implementation-defined
/// ([`Float::AS_FLOAT`]; float and double compute its recipe exactly).
pub const OTHER_BOUNDS: &[(&str, [f64; 2])] = &[
    ("pown", [16.0, 4.0]),
    ("rootn", [16.0, 4.0]),
    ("sincos", [4.0, 2.0]),
    ("mix", [NONE, 2.0]),
];

/// `T`'s bound of function `name` of [`OTHER_BOUNDS`].
fn other_bound<T: Float>(name: &str) -> f64 {
    let (_, b) = OTHER_BOUNDS
        .iter()
        .find(|(f, _)| *f == name)
        .expect("a function of OTHER_BOUNDS");
    b[T::BOUND_COLUMN]
}

/// Results after F1, F2, F3: ldexp, pown, rootn, nan, bitselect, select,
/// then the pointer-result functions (see the kernel).
const EXTRA: usize = 6 + 5 + 3 + 4 + 2 + 2 + 2 + 2;

/// The entries of `list` that the kernel of `T` has, with `T`'s bounds.
fn functions<T: Float>(list: &'static [(&'static str, [f64; 2])]) -> impl Iterator<Item = (&'static str, f64)> {
    list.iter()
        .filter(|(f, _)| T::HALF_AND_NATIVE || !(f.starts_with("half_") || f.starts_with("native_")))
        .map(|&(f, b)| (f, b[T::BOUND_COLUMN]))
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
/// f64); a NaN reference wants a NaN, a reference that rounds to infinity
/// in `T` wants that infinity (or the largest finite value, while the
/// reference stays below it plus one ulp), an infinite result such a
/// reference.
pub fn ulps<T: Float>(got: T, want: f64) -> f64 {
    let g = got.to_f64();
    if want.is_nan() || g.is_nan() {
        return if want.is_nan() && g.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let overflows = T::from_f64(want).to_f64().is_infinite();
    if g.is_infinite() {
        let ok = want.signum() == g.signum() && overflows;
        return if ok { 0.0 } else { f64::INFINITY };
    }
    let max_ulp = pow2(exponent(T::MAX) - T::FRACTION_BITS);
    if overflows && !(g.abs() == T::MAX && want.abs() < T::MAX + max_ulp) {
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
/// error; bound 0 is correctly rounded: within half an ulp of the
/// reference, or with [`Float::EXACT_BITS`] the very bits (zero signs
/// included) of the reference rounded to `T`.
pub fn within<T: Float>(got: T, want: f64, bound: f64) -> bool {
    if bound == 0.0 && T::EXACT_BITS {
        return same(got, T::from_f64(want));
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

/// The relations and classifications of `FP_ARITH`
/// (`kernels/cl/fp_arith.h`), in its order: <, <=, >, >=, ==, !=,
/// isequal, isnotequal, isgreater, isgreaterequal, isless, islessequal,
/// islessgreater, isfinite, isinf, isnan, isnormal, isordered,
/// isunordered, signbit.
#[allow(clippy::double_comparisons)]
fn relations<T: Float>() -> [Comparison<T>; 20] {
    [
        |a, b| a < b,
        |a, b| a <= b,
        |a, b| a > b,
        |a, b| a >= b,
        |a, b| a == b,
        |a, b| a != b,
        |a, b| a == b,
        |a, b| a != b,
        |a, b| a > b,
        |a, b| a >= b,
        |a, b| a < b,
        |a, b| a <= b,
        |a, b| a < b || a > b,
        |a, _| a.to_f64().is_finite(),
        |a, _| a.to_f64().is_infinite(),
        |a, _| a.is_nan(),
        |a, _| a.to_f64().is_finite() && a.to_f64().abs() >= T::MIN_POSITIVE,
        |a, b| !a.is_nan() && !b.is_nan(),
        |a, b| a.is_nan() || b.is_nan(),
        |a, _| a.bits() & T::SIGN_BIT != 0,
    ]
}

/// Runs kernel `arith` of corpus `module` (`FP_ARITH` of
/// `kernels/cl/fp_arith.h`, its integer results `int` for half and `long`
/// for double: at least 32 bits, `T`'s width) at -O0 and -O2 over 256
/// work-items, with `inputs` (a function of length and seed) as operands,
/// and checks every result: IEEE arithmetic, fma and sqrt are the exact
/// result rounded once to `T` (f64 holds it exactly, or closely enough
/// that the second rounding is harmless); a * b + c and a * 3 + 0.5 are
/// computed in `T` or fused, as OpenCL C allows; relations are exact.
pub fn check_arith<T: Float>(module: &str, inputs: fn(usize, u64) -> Vec<T>) {
    const N: usize = 256;
    let (a, b, c) = (inputs(N, 1), inputs(N, 7), inputs(N, 13));
    let int_bytes = std::mem::size_of::<T>().max(4);
    let zero = T::from_bits64(0);
    for opt in Opt::BOTH {
        let mut o = vec![zero; 11 * N];
        let mut oi = vec![0u8; 20 * N * int_bytes];
        Kernel::new(module, opt, "arith")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::input(&c))
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut oi))
            .run(&[N], Some(&[16]));
        let exact: [fn(f64, f64) -> f64; 4] = [|a, b| a + b, |a, b| a - b, |a, b| a * b, |a, b| a / b];
        let (three, half) = (T::from_f64(3.0), T::from_f64(0.5));
        let mut bad = Vec::new();
        for i in 0..N {
            let (x, y, z) = (a[i], b[i], c[i]);
            let (dx, dy, dz) = (x.to_f64(), y.to_f64(), z.to_f64());
            let fused = T::from_f64(dx.mul_add(dy, dz));
            let mut wants: Vec<Vec<T>> = exact.iter().map(|f| vec![T::from_f64(f(dx, dy))]).collect();
            wants.extend([
                vec![T::from_f64(-dx)],
                vec![fused],
                vec![x * y + z, fused],
                vec![if x < y { x } else { z }],
                vec![T::from_f64(dx.sqrt())],
                vec![T::from_f64(if x.is_nan() { 0.0 } else { 1.0 })],
                vec![x * three + half, T::from_f64(dx.mul_add(3.0, 0.5))],
            ]);
            for (r, want) in wants.iter().enumerate() {
                let got = o[r * N + i];
                if !want.iter().any(|w| same(got, *w)) && bad.len() < 8 {
                    bad.push(format!("result {r} of ({x:?}, {y:?}, {z:?}): {got:?}, want {want:?}"));
                }
            }
            for (q, f) in relations::<T>().iter().enumerate() {
                let at = (q * N + i) * int_bytes;
                let bytes = &oi[at..at + int_bytes];
                let got = match bytes.try_into() {
                    Ok(b4) => i64::from(i32::from_ne_bytes(b4)),
                    Err(_) => i64::from_ne_bytes(bytes.try_into().expect("4 or 8 bytes")),
                };
                if got != i64::from(f(x, y)) && bad.len() < 8 {
                    bad.push(format!("relation {q} of ({x:?}, {y:?}): {got}"));
                }
            }
        }
        assert!(bad.is_empty(), "{module} arith at {opt:?}:\n{}", bad.join("\n"));
    }
}

/// Builds kernel `spec_<T>` of the hand-written module
/// `kernels/spv/hand/fp<bits>_spec.spv` with the specialization constant
/// values `set` (id, bytes), runs it once and returns `(o[0..3], l[0])`.
pub fn run_spec<T: Float>(set: &[(u32, Vec<u8>)]) -> ([T; 3], i64) {
    let bits = 8 * std::mem::size_of::<T>();
    let zero = T::from_bits64(0);
    let (mut o, mut l) = ([zero; 3], [0i64; 1]);
    let il = crate::exec::hand_spirv(&format!("fp{bits}_spec"));
    Kernel::with_spec(&il, &format!("spec_{}", T::NAME), "", set)
        .unwrap_or_else(|log| panic!("build: {log}"))
        .arg(Arg::output(&mut o))
        .arg(Arg::output(&mut l))
        .run(&[1], None);
    (o, l[0])
}

/// Runs the kernels of the hand-written module
/// `kernels/spv/hand/fp<bits>_core.spv` (`fp_core.py`: core instructions
/// clang never emits) on `T` and its vectors, over `inputs` (a function of
/// length and seed): OpFRem (the sign of x, C's fmod) and OpFMod (the sign
/// of y: a nonzero remainder of the other sign moves by y) on the scalar
/// and 2-, 3- (padded to 4) and 16-vectors, with small divisors among the
/// random ones; OpVectorTimesScalar on 2-, 4- and 16-vectors;
/// OpLessOrGreater, OpOrdered, OpUnordered and the unordered comparisons
/// on scalars. Every result is the exact one rounded once to `T`.
pub fn check_hand_written_core<T: Float>(inputs: fn(usize, u64) -> Vec<T>) {
    const N: usize = 96;
    let f = format!("f{}", 8 * std::mem::size_of::<T>());
    let il = crate::exec::hand_spirv(&format!("fp{}_core", 8 * std::mem::size_of::<T>()));
    let kernel = |name: &str| Kernel::with_il(&il, name, "").unwrap_or_else(|log| panic!("{name}: {log}"));
    for n in [1usize, 2, 3, 16] {
        let t = if n == 1 { f.clone() } else { format!("v{n}{f}") };
        let slots = if n == 3 { 4 } else { n };
        let a = inputs(N * slots, 21);
        let mut b = inputs(N * slots, 23);
        // Small divisors too, so that the quotient is not always huge.
        for (k, v) in b.iter_mut().enumerate() {
            if k % 3 == 0 {
                *v = T::from_f64((k % 17) as f64 * 0.75 - 6.0);
            }
        }
        for op in ["frem", "fmod"] {
            let mut o = vec![T::from_bits64(0); N * slots];
            kernel(&format!("{op}_{t}"))
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut o))
                .run(&[N], None);
            for k in (0..N * slots).filter(|k| k % slots < n) {
                let (x, y) = (a[k].to_f64(), b[k].to_f64());
                let r = x % y;
                let want = if op == "fmod" && r != 0.0 && r.is_sign_negative() != y.is_sign_negative() {
                    r + y
                } else {
                    r
                };
                let want = T::from_f64(want);
                assert!(same(o[k], want), "{op}_{t}({x:e}, {y:e}) = {:?}, want {want:?}", o[k]);
            }
        }
    }
    for n in [2usize, 4, 16] {
        let t = format!("v{n}{f}");
        let a = inputs(N * n, 25);
        let s = inputs(N, 27);
        let mut o = vec![T::from_bits64(0); N * n];
        kernel(&format!("vectortimesscalar_{t}"))
            .arg(Arg::input(&a))
            .arg(Arg::input(&s))
            .arg(Arg::output(&mut o))
            .run(&[N], None);
        for k in 0..N * n {
            let want = T::from_f64(a[k].to_f64() * s[k / n].to_f64());
            assert!(
                same(o[k], want),
                "vectortimesscalar_{t} [{k}]: {:?}, want {want:?}",
                o[k]
            );
        }
    }
    let (a, b) = (inputs(N, 29), inputs(N, 31));
    for (name, cmp) in unordered_comparisons::<T>() {
        let mut o = vec![0i32; N];
        kernel(&format!("{name}_{f}"))
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .run(&[N], None);
        for k in 0..N {
            assert_eq!(o[k], i32::from(cmp(a[k], b[k])), "{name}({:e}, {:e})", a[k], b[k]);
        }
    }
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
                        "mix" if T::AS_FLOAT => {
                            // Float's recipe rounded: within the bound of
                            // the exact recipe, unless a step overflows T.
                            let w = dx + (dy - dx) * dz;
                            !w.is_finite() || (dy - dx).abs() >= T::MAX || within(got, w, other_bound::<T>("mix"))
                        }
                        "mix" => same(got, x + (y - x) * z) || (T::FUSED_OR_NOT && same(got, (y - x).mul_add(z, x))),
                        "smoothstep" => {
                            // Undefined unless x < y; y - x must not
                            // overflow either (in T's own precision, unless
                            // computed as float).
                            let steps_finite = if T::AS_FLOAT {
                                (dy - dx).is_finite()
                            } else {
                                (y - x).to_f64().is_finite()
                            };
                            if x < y && steps_finite && dz.is_finite() {
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
                // A reference of T's own precision may itself be rounded
                // twice where the result is denormal.
                let denormal_ok = T::REFERENCE_ULPS > 0.0
                    && want.is_finite()
                    && want.abs() < T::MIN_POSITIVE
                    && within(ld, want, 0.5);
                if !within(ld, want, 0.0) && !denormal_ok {
                    fail(format!("ldexp({x:e}, {kk}) = {ld:e}, want {want:e}"));
                }
                let pn = out(r + 1, p);
                let want = if kk == 0 { 1.0 } else { dx.powf(kf) };
                if !within(pn, want, other_bound::<T>("pown")) {
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
                if !within(rn, want, other_bound::<T>("rootn") + slack) {
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
                // The condition is k converted to the integer type of T's
                // width (its low bits: half's is a short).
                let width = 8 * std::mem::size_of::<T>() as u32;
                let kt = (i64::from(kk) << (64 - width)) >> (64 - width);
                let pick = if n == 1 { kt != 0 } else { kt < 0 };
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
                    if !within(got, want, other_bound::<T>("sincos")) {
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

/// The exact sum of products `x · y` of a few values, rounded once: a
/// reference for dot, length and distance within a few ulps.
fn dot_ref(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// length with the scaling a careful implementation does (by the largest
/// magnitude), in plain f64 otherwise.
fn length_ref(x: &[f64]) -> f64 {
    let m = x.iter().fold(0f64, |m, v| m.max(v.abs()));
    if x.iter().any(|v| v.is_infinite()) {
        return f64::INFINITY;
    }
    if x.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    if m == 0.0 {
        return 0.0;
    }
    let s: f64 = x.iter().map(|v| (v / m) * (v / m)).sum();
    m * s.sqrt()
}

/// Runs kernel `geometry` of corpus `module` (`GEOMETRY` of
/// `kernels/cl/math_body.h`) at -O0 and -O2 over 64 work-items and checks
/// every result: cross, dot, length, distance and normalize on 1 to 4
/// components, shuffle, shuffle2, bitselect and select on 4-vectors, and
/// vloadn/vstoren of 2, 3, 4, 8 and 16 components. Its second operands
/// are [`inputs`] with magnitudes above `big` replaced by their square
/// roots (so that the geometric functions see mostly ordinary values);
/// `masks` (256 of them, as values of the integer type of `T`'s width)
/// drive shuffle, bitselect and select.
pub fn check_geometry<T: Float>(module: &str, big: f64, masks: &[i64]) {
    const N: usize = 64;
    assert_eq!(masks.len(), 4 * N);
    let at: Vec<T> = inputs(4 * N + 64, 3);
    let mut b: Vec<f64> = inputs::<T>(4 * N + 64, 5)
        .iter()
        .map(|v| v.to_f64())
        .map(|v| if v.abs() > big { v.sqrt() } else { v })
        .collect();
    b[0] = 3.0;
    // The kernel sees values of T: so does the reference.
    let bt: Vec<T> = b.iter().map(|&v| T::from_f64(v)).collect();
    let a: Vec<f64> = at.iter().map(|v| v.to_f64()).collect();
    let b: Vec<f64> = bt.iter().map(|v| v.to_f64()).collect();
    let width = 8 * std::mem::size_of::<T>() as u32;
    let ones = u64::MAX >> (64 - width);
    // The masks in T's width: a buffer of the same bytes as the kernel's
    // integer vectors.
    let mt: Vec<T> = masks.iter().map(|&m| T::from_bits64(m as u64 & ones)).collect();
    let epsilon = pow2(-T::FRACTION_BITS);
    for opt in Opt::BOTH {
        let mut o = vec![T::from_bits64(0); 64 * N];
        Kernel::new(module, opt, "geometry")
            .arg(Arg::input(&at))
            .arg(Arg::input(&bt))
            .arg(Arg::output(&mut o))
            .arg(Arg::input(&mt))
            .run(&[N], Some(&[8]));
        let mut bad = Vec::new();
        for i in 0..N {
            let p = &o[64 * i..64 * i + 64];
            let x4 = &a[4 * i..4 * i + 4];
            let y4 = &b[4 * i..4 * i + 4];
            let x3 = &a[3 * i..3 * i + 3];
            let y3 = &b[3 * i..3 * i + 3];
            let x2 = &a[2 * i..2 * i + 2];
            let y2 = &b[2 * i..2 * i + 2];
            let cross = |x: &[f64], y: &[f64]| {
                [
                    x[1] * y[2] - x[2] * y[1],
                    x[2] * y[0] - x[0] * y[2],
                    x[0] * y[1] - x[1] * y[0],
                ]
            };
            let c4 = cross(x4, y4);
            let c3 = cross(x3, y3);
            let mut want: Vec<(usize, f64, f64)> = vec![
                (0, c4[0], 0.0),
                (1, c4[1], 0.0),
                (2, c4[2], 0.0),
                (3, 0.0, 0.0),
                (4, c3[0], 0.0),
                (5, c3[1], 0.0),
                (6, c3[2], 0.0),
            ];
            // Products may be fused in cross and dot: a few ulps of the
            // largest term where they do not cancel.
            want.extend([
                (7, dot_ref(x4, y4), 8.0),
                (8, dot_ref(x3, y3), 8.0),
                (9, dot_ref(x2, y2), 8.0),
                (10, a[i] * b[i], 0.0),
                (11, length_ref(x4), 4.0),
                (12, length_ref(x3), 4.0),
                (13, length_ref(x2), 4.0),
                (14, a[i].abs(), 0.0),
            ]);
            let d = |x: &[f64], y: &[f64]| length_ref(&x.iter().zip(y).map(|(p, q)| p - q).collect::<Vec<_>>());
            want.extend([
                (15, d(x4, y4), 4.0),
                (16, d(x3, y3), 4.0),
                (17, d(x2, y2), 4.0),
                (18, (a[i] - b[i]).abs(), 0.0),
            ]);
            for (k, x) in [(20, x4), (24, x3), (28, x2)] {
                let l = length_ref(x);
                for (j, v) in x.iter().enumerate() {
                    let w = if l == 0.0 || !l.is_finite() { f64::NAN } else { v / l };
                    if w.is_finite() {
                        want.push((k + j, w, 4.0));
                    }
                }
            }
            want.push((
                30,
                if a[i].is_nan() {
                    f64::NAN
                } else if a[i] == 0.0 {
                    a[i]
                } else {
                    1f64.copysign(a[i])
                },
                0.0,
            ));
            let m4 = &masks[4 * i..4 * i + 4];
            for j in 0..4 {
                want.push((32 + j, x4[(m4[j] & 3) as usize], 0.0));
            }
            let xy: Vec<f64> = x4.iter().chain(y4).copied().collect();
            for j in 0..8 {
                let mk = if j < 4 { m4[j] } else { m4[j - 4] >> 3 };
                want.push((36 + j, xy[(mk & 7) as usize], 0.0));
            }
            for j in 0..4 {
                let mb = m4[j] as u64 & ones;
                let bits = (at[4 * i + j].bits() & !mb) | (bt[4 * i + j].bits() & mb);
                want.push((44 + j, T::from_bits64(bits).to_f64(), 0.0));
                want.push((48 + j, if m4[j] < 0 { y4[j] } else { x4[j] }, 0.0));
            }
            want.push((52, x2[(m4[1] & 1) as usize], 0.0));
            want.push((53, x2[(m4[2] & 1) as usize], 0.0));
            let w16 = &a[16 * (i % 4)..16 * (i % 4) + 16];
            want.push((54, w16[0] + w16[15], 0.0));
            for j in 0..3 {
                want.push((55 + j, a[i + j] * 2.0, 0.0));
            }
            for (k, w, bound) in want {
                let got = p[k];
                let g = got.to_f64();
                let ok = if bound == 0.0 {
                    same(got, T::from_f64(w))
                        || (k < 7 && {
                            if T::REFERENCE_ULPS > 0.0 {
                                // A reference rounded in T's own precision:
                                // within 2 ulps of it, or a tiny error.
                                ulps(got, w) <= 2.0 || (g - w).abs() <= 1e-300
                            } else {
                                // An exact reference: the spec's
                                // max * max * 3 * EPSILON.
                                let mx = x4.iter().chain(y4).fold(0f64, |m, v| m.max(v.abs()));
                                (g - w).abs() <= mx * mx * 3.0 * epsilon
                            }
                        })
                } else if (7..=9).contains(&k) {
                    // dot: within a few ulps of the largest product.
                    let big = match k {
                        7 => x4.iter().zip(y4).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                        8 => x3.iter().zip(y3).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                        _ => x2.iter().zip(y2).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                    };
                    same(got, T::from_f64(w)) || (g.is_nan() && w.is_nan()) || (g - w).abs() <= big * 8.0 * epsilon
                } else if T::AS_FLOAT && (11..=17).contains(&k) && g.is_nan() && w.is_infinite() {
                    // An infinite component beside a NaN: the float row's
                    // length is NaN (the spec does not say; C's hypot
                    // would give infinity).
                    let v: &[f64] = match k {
                        11 | 15 => x4,
                        12 | 16 => x3,
                        _ => x2,
                    };
                    let u: &[f64] = match k {
                        15 => y4,
                        16 => y3,
                        17 => y2,
                        _ => &[],
                    };
                    v.iter().chain(u).any(|c| c.is_nan())
                } else {
                    same(got, T::from_f64(w)) || ulps(got, w) <= bound
                };
                if !ok && bad.len() < 20 {
                    bad.push(format!("item {i} result {k}: got {got:e} want {w:e}"));
                }
            }
        }
        assert!(bad.is_empty(), "{} {opt:?} geometry:\n{}", T::NAME, bad.join("\n"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::half::Half;

    #[test]
    fn ulps_at_the_top_of_the_range() {
        let (max, inf) = (Half(0x7bff), Half(0x7c00));
        // A reference that rounds to infinity wants infinity, or the
        // largest half while it stays below that plus one ulp (65536).
        assert_eq!(ulps(inf, 65520.0), 0.0);
        assert_eq!(ulps(inf, 1e6), 0.0);
        assert_eq!(ulps(inf, 65519.0), f64::INFINITY);
        assert_eq!(ulps(Half(0xfc00), 65520.0), f64::INFINITY);
        assert_eq!(ulps(max, 65520.0), 0.5);
        assert_eq!(ulps(max, 65536.0), f64::INFINITY);
        assert_eq!(ulps(max, 65504.0 + 8.0), 0.25);
        // The same rules on float, and on double, whose references cannot
        // exceed its range.
        assert_eq!(ulps(f32::INFINITY, 2f64.powi(128)), 0.0);
        assert_eq!(ulps(f32::INFINITY, f64::from(f32::MAX) + 1.0), f64::INFINITY);
        assert_eq!(ulps(f32::MAX, 2f64.powi(128)), f64::INFINITY);
        assert_eq!(ulps(f64::INFINITY, f64::INFINITY), 0.0);
        assert_eq!(ulps(f64::MAX, f64::INFINITY), f64::INFINITY);
        assert_eq!(ulps(Half(0x0001), 0.0), 1.0);
    }

    #[test]
    fn correctly_rounded_means_bits_for_half_and_double() {
        // Half and double: the reference rounded, zero signs included.
        assert!(within(Half(0x3c00), 1.0 + 2f64.powi(-11), 0.0));
        assert!(!within(Half(0x3c01), 1.0 + 2f64.powi(-11), 0.0));
        assert!(!within(Half(0x8000), 0.0, 0.0));
        assert!(within(Half(0x7e01), f64::NAN, 0.0));
        assert!(!within(-0.0f64, 0.0, 0.0));
        // Float: within half an ulp (either neighbour of a midpoint).
        assert!(within(-0.0f32, 0.0, 0.0));
        assert!(within(1.0f32, 1.0 + 2f64.powi(-24), 0.0));
        assert!(within(1.0 + f32::EPSILON, 1.0 + 2f64.powi(-24), 0.0));
        // Bounds above 0 are ulps of the reference.
        assert!(within(Half(0x3c02), 1.0, 2.0));
        assert!(!within(Half(0x3c03), 1.0, 2.0));
    }
}
