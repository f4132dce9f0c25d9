//! What the `float` and `double` math libraries (`math_f32`, `math_f64`)
//! share: the functions whose logic is the same for both types (special
//! values, bit manipulation, exact reductions, and the `libm` calls that
//! `float` rounds once), written once over the private traits [`Format`]
//! and [`MathFloat`], and one list of their `extern "C"` entry points,
//! which `math_f32` and `math_f64` each define for their type with
//! [`shared_entry_points`] (the names and signatures the JIT and the
//! OpenCL.std table use).
//!
//! What differs between the types lives in the two `MathFloat`
//! implementations: `float` evaluates in double and rounds once (see
//! `math_f32`), `double` carries extra precision in double-double steps
//! (see `math_f64`). Functions whose algorithms differ throughout (the
//! `pi` inverse trigonometric functions, `exp10`, `ldexp`, `rsqrt`) stay
//! in those modules. The generic code only does what is exact in either
//! type: comparisons, sign changes, Sterbenz subtractions, `fmod` by 2,
//! `floor`, `trunc`, integer work on the bits, and one rounding of a
//! `libm` result.

use core::ops::{Add, Div, Neg, Rem, Sub};

/// `ilogb(0)`: clang's `opencl-c-base.h` defines `FP_ILOGB0` as `INT_MIN`.
pub const FP_ILOGB0: i32 = i32::MIN;
/// `ilogb(NaN)`: clang's `opencl-c-base.h` defines `FP_ILOGBNAN` as
/// `INT_MAX`.
pub const FP_ILOGBNAN: i32 = i32::MAX;

/// The format of `f32` or `f64`: constants, bits, the operations that are
/// exact in both, and the conversions from and to double through which the
/// shared functions call `libm`'s double functions (for `float`, that is
/// evaluating in double and rounding once; for `double`, nothing).
pub(crate) trait Format:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Rem<Output = Self>
{
    /// Explicit mantissa bits (23, 52).
    const MANT: u32;
    /// Exponent bias (127, 1023).
    const BIAS: i32;
    /// The sign bit of [`Format::to_bits64`].
    const SIGN: u64;
    /// 0.
    const ZERO: Self;
    /// 0.5.
    const HALF: Self;
    /// 1.
    const ONE: Self;
    /// 2.
    const TWO: Self;
    /// +inf.
    const INFINITY: Self;
    /// -inf.
    const NEG_INFINITY: Self;
    /// The default quiet NaN.
    const NAN: Self;

    /// The bits, zero-extended to 64.
    fn to_bits64(self) -> u64;
    /// The value of the low bits of `b` (the type's width).
    fn from_bits64(b: u64) -> Self;
    /// An integer of at most 11 bits, exactly.
    fn from_exponent(e: i32) -> Self;
    /// Whether NaN.
    fn is_nan(self) -> bool;
    /// Whether ±inf.
    fn is_infinite(self) -> bool;
    /// Whether neither NaN nor infinite.
    fn is_finite(self) -> bool;
    /// Whether the sign bit is set.
    fn is_sign_negative(self) -> bool;
    /// |x|.
    fn abs(self) -> Self;
    /// |x| with the sign of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// `floor(x)`, exact.
    fn floor(self) -> Self;
    /// `trunc(x)`, exact.
    fn trunc(self) -> Self;
    /// The same value as a double (exact).
    fn widen(self) -> f64;
    /// A double rounded to the type (to nearest even; exact for `f64`).
    fn narrow(x: f64) -> Self;
}

/// Implements [`Format`] for a primitive float type with bits `$bits`
/// and `libm`'s exact `floor` and `trunc` of the type.
macro_rules! impl_format {
    ($t:ident, $bits:ident, mant: $mant:expr, bias: $bias:expr, floor: $floor:path, trunc: $trunc:path) => {
        impl Format for $t {
            const MANT: u32 = $mant;
            const BIAS: i32 = $bias;
            const SIGN: u64 = 1 << ($bits::BITS - 1);
            const ZERO: $t = 0.0;
            const HALF: $t = 0.5;
            const ONE: $t = 1.0;
            const TWO: $t = 2.0;
            const INFINITY: $t = $t::INFINITY;
            const NEG_INFINITY: $t = $t::NEG_INFINITY;
            const NAN: $t = $t::NAN;

            fn to_bits64(self) -> u64 {
                self.to_bits() as u64
            }
            fn from_bits64(b: u64) -> $t {
                $t::from_bits(b as $bits)
            }
            fn from_exponent(e: i32) -> $t {
                e as $t
            }
            fn is_nan(self) -> bool {
                $t::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                $t::is_infinite(self)
            }
            fn is_finite(self) -> bool {
                $t::is_finite(self)
            }
            fn is_sign_negative(self) -> bool {
                $t::is_sign_negative(self)
            }
            fn abs(self) -> $t {
                $t::abs(self)
            }
            fn copysign(self, sign: $t) -> $t {
                $t::copysign(self, sign)
            }
            fn floor(self) -> $t {
                $floor(self)
            }
            fn trunc(self) -> $t {
                $trunc(self)
            }
            fn widen(self) -> f64 {
                self as f64
            }
            fn narrow(x: f64) -> $t {
                x as $t
            }
        }
    };
}

impl_format!(f32, u32, mant: 23, bias: 127, floor: libm::floorf, trunc: libm::truncf);
impl_format!(f64, u64, mant: 52, bias: 1023, floor: libm::floor, trunc: libm::trunc);

/// The kernels whose algorithm differs between `f32` (evaluated in double
/// and rounded once: `math_f32`) and `f64` (`libm` and double-double steps:
/// `math_f64`), which implement this trait.
pub(crate) trait MathFloat: Format {
    /// `hypot(x, y)` for x and y not infinite.
    fn hypot_kernel(self, y: Self) -> Self;
    /// `sin(pi r)` for `r` in (0, 0.5].
    fn sinpi_kernel(r: Self) -> Self;
    /// `cos(pi r)` for `r` in [0, 0.5).
    fn cospi_kernel(r: Self) -> Self;
    /// `tan(pi r)` for `r` in (0, 1) other than 0.5.
    fn tanpi_kernel(r: Self) -> Self;
    /// `x^(1/n)` for finite x > 0 and n other than 0, 1 and -1.
    fn rootn_kernel(x: Self, n: i32) -> Self;
    /// The type's `sin(x)` (its entry point's value, which `sincos` also
    /// returns).
    fn sin(x: Self) -> Self;
    /// The type's `cos(x)`.
    fn cos(x: Self) -> Self;
}

/// The NaN result of an invalid argument: `x` itself when it is a NaN,
/// else the default quiet NaN.
#[inline(always)]
pub(crate) fn nan_of<T: Format>(x: T) -> T {
    if x.is_nan() {
        x
    } else {
        T::NAN
    }
}

/// The unbiased exponent of a finite nonzero `x` (denormals included).
pub(crate) fn exponent<T: Format>(x: T) -> i32 {
    let mag = x.to_bits64() & !T::SIGN;
    let e = (mag >> T::MANT) as i32;
    if e == 0 {
        // Denormal: 2^(1 - bias) * 0.m, the exponent of its leading one
        // (the bits above the mantissa field count as leading zeros).
        (1 - T::BIAS) - (mag.leading_zeros() as i32 - (64 - T::MANT) as i32) - 1
    } else {
        e - T::BIAS
    }
}

pub(crate) fn acosh<T: Format>(x: T) -> T {
    if x < T::ONE {
        return T::NAN;
    }
    T::narrow(libm::acosh(x.widen()))
}

pub(crate) fn sinpi<T: MathFloat>(x: T) -> T {
    if !x.is_finite() {
        return nan_of(x);
    }
    // x mod 2 is exact, and so is each reflection below (Sterbenz).
    let mut r = x.abs() % T::TWO;
    let mut neg = x.is_sign_negative();
    if r >= T::ONE {
        r = r - T::ONE; // sin(pi (r + 1)) = -sin(pi r)
        neg = !neg;
    }
    if r > T::HALF {
        r = T::ONE - r; // sin(pi (1 - r)) = sin(pi r)
    }
    if r == T::ZERO {
        return T::ZERO.copysign(x); // integers and ±0: the sign of x
    }
    let v = T::sinpi_kernel(r);
    if neg {
        -v
    } else {
        v
    }
}

pub(crate) fn cospi<T: MathFloat>(x: T) -> T {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = x.abs() % T::TWO;
    if r > T::ONE {
        r = T::TWO - r; // cos(pi (2 - r)) = cos(pi r)
    }
    let mut neg = false;
    if r > T::HALF {
        r = T::ONE - r; // cos(pi (1 - r)) = -cos(pi r)
        neg = true;
    }
    if r == T::HALF {
        return T::ZERO; // n + 0.5: +0 whatever the sign
    }
    let v = T::cospi_kernel(r);
    if neg {
        -v
    } else {
        v
    }
}

pub(crate) fn tanpi<T: MathFloat>(x: T) -> T {
    if !x.is_finite() {
        return nan_of(x);
    }
    let mut r = x.abs() % T::TWO;
    // The period is 1; the half [1, 2) only changes the signs of the zeros
    // and infinities (odd n).
    let odd = r >= T::ONE;
    if odd {
        r = r - T::ONE;
    }
    let v = if r == T::ZERO {
        if odd {
            -T::ZERO
        } else {
            T::ZERO
        }
    } else if r == T::HALF {
        if odd {
            T::NEG_INFINITY
        } else {
            T::INFINITY
        }
    } else {
        T::tanpi_kernel(r)
    };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

pub(crate) fn fdim<T: Format>(x: T, y: T) -> T {
    // A NaN operand, quieted: x's where both are (`x + y` would pass on
    // either, as the compiler ordered it; the 4-lane bodies compute this
    // function too).
    if x.is_nan() {
        return x + x;
    }
    if y.is_nan() {
        return y + y;
    }
    if x > y {
        x - y
    } else {
        T::ZERO
    }
}

pub(crate) fn hypot<T: MathFloat>(x: T, y: T) -> T {
    if x.is_infinite() || y.is_infinite() {
        return T::INFINITY;
    }
    x.hypot_kernel(y)
}

pub(crate) fn ilogb<T: Format>(x: T) -> i32 {
    if x.is_nan() {
        return FP_ILOGBNAN;
    }
    if x.is_infinite() {
        return i32::MAX;
    }
    if x == T::ZERO {
        return FP_ILOGB0;
    }
    exponent(x)
}

pub(crate) fn logb<T: Format>(x: T) -> T {
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return T::INFINITY;
    }
    if x == T::ZERO {
        return T::NEG_INFINITY;
    }
    T::from_exponent(exponent(x))
}

pub(crate) fn nextafter<T: Format>(x: T, y: T) -> T {
    // A NaN operand, quieted: x's where both are (`x + y` would pass on
    // either, as the compiler ordered it; the 4-lane bodies compute this
    // function too).
    if x.is_nan() {
        return x + x;
    }
    if y.is_nan() {
        return y + y;
    }
    if x == y {
        return y;
    }
    if x == T::ZERO {
        return T::from_bits64(1).copysign(y);
    }
    let bits = x.to_bits64();
    // Away from zero when y lies beyond x, else toward zero.
    let away = (y > x) == (x > T::ZERO);
    T::from_bits64(if away { bits + 1 } else { bits - 1 })
}

/// `pown(x, n) = pow(x, n)`: an `int` converts to double exactly.
pub(crate) fn pown<T: Format>(x: T, n: i32) -> T {
    T::narrow(libm::pow(x.widen(), n as f64))
}

pub(crate) fn powr<T: Format>(x: T, y: T) -> T {
    // A NaN operand, quieted: x's where both are (as `fdim`).
    if x.is_nan() {
        return x + x;
    }
    if y.is_nan() {
        return y + y;
    }
    if x < T::ZERO {
        return T::NAN;
    }
    if x == T::ZERO {
        return if y == T::ZERO {
            T::NAN
        } else if y < T::ZERO {
            T::INFINITY
        } else {
            T::ZERO
        };
    }
    if x == T::INFINITY {
        return if y == T::ZERO {
            T::NAN
        } else if y < T::ZERO {
            T::ZERO
        } else {
            T::INFINITY
        };
    }
    if x == T::ONE {
        return if y.is_infinite() { T::NAN } else { T::ONE };
    }
    T::narrow(libm::pow(x.widen(), y.widen()))
}

pub(crate) fn rootn<T: MathFloat>(x: T, n: i32) -> T {
    // x's NaN quieted, else NaN for n = 0 (`x + NaN` would pass on either
    // NaN, as the compiler ordered it; the 4-lane bodies compute this
    // function too).
    if x.is_nan() {
        return x + x;
    }
    if n == 0 {
        return T::NAN;
    }
    let odd = n & 1 != 0;
    if x < T::ZERO && !odd {
        return T::NAN;
    }
    if x == T::ZERO {
        let zero_sign = if odd { x } else { T::ZERO };
        return if n < 0 {
            T::INFINITY.copysign(zero_sign)
        } else {
            T::ZERO.copysign(zero_sign)
        };
    }
    let ax = x.abs();
    let v = if ax.is_infinite() {
        if n > 0 {
            T::INFINITY
        } else {
            T::ZERO
        }
    } else if n == 1 {
        ax
    } else if n == -1 {
        // Correctly rounded in either type (for `float`, the same as the
        // quotient in double rounded once: 53 >= 2 * 24 + 2).
        T::ONE / ax
    } else {
        T::rootn_kernel(ax, n)
    };
    if x < T::ZERO {
        -v
    } else {
        v
    }
}

pub(crate) fn fract<T: Format>(x: T) -> (T, T) {
    if x.is_nan() {
        return (x, x);
    }
    if x.is_infinite() {
        return (T::ZERO.copysign(x), x);
    }
    let fl = x.floor();
    if x == T::ZERO {
        return (x, fl); // floor(±0) = ±0
    }
    // x - floor(x) is rounded once; it may round up to 1.0 for tiny
    // negative x, which the clamp turns into the largest value below 1.
    let below_one = T::from_bits64(T::ONE.to_bits64() - 1);
    let d = x - fl;
    (if d < below_one { d } else { below_one }, fl)
}

pub(crate) fn frexp<T: Format>(x: T) -> (T, i32) {
    if x == T::ZERO || !x.is_finite() {
        return (x, 0);
    }
    let e = exponent(x) + 1;
    // x / 2^e, exact: build the mantissa from the bits of the normalised
    // value, with the exponent of 0.5.
    let bits = x.to_bits64();
    let sign = bits & T::SIGN;
    let mag = bits & !T::SIGN;
    let mant_mask = (1u64 << T::MANT) - 1;
    let m = if mag >> T::MANT == 0 {
        // Denormal: shift the leading one into the implicit bit position.
        let shift = mag.leading_zeros() - (63 - T::MANT);
        (mag << shift) & mant_mask
    } else {
        mag & mant_mask
    };
    (T::from_bits64(sign | (((T::BIAS - 1) as u64) << T::MANT) | m), e)
}

pub(crate) fn modf<T: Format>(x: T) -> (T, T) {
    let t = x.trunc();
    let frac = if x.is_infinite() { T::ZERO } else { x - t };
    (frac.copysign(x), t)
}

pub(crate) fn remquo<T: Format>(x: T, y: T) -> (T, i32) {
    if x.is_nan() || y.is_nan() {
        return (x + y, 0);
    }
    if x.is_infinite() || y == T::ZERO {
        return (T::NAN, 0);
    }
    let (r, q) = libm::remquo(x.widen(), y.widen());
    (T::narrow(r), q) // the remainder is exact, also rounded to `float`
}

pub(crate) fn sincos<T: MathFloat>(x: T) -> (T, T) {
    (T::sin(x), T::cos(x))
}

pub(crate) fn lgamma_r<T: Format>(x: T) -> (T, i32) {
    let (v, s) = libm::lgamma_r(x.widen());
    let pole = x == T::ZERO || (x < T::ZERO && x == x.floor());
    // Γ has no sign at -inf (lgamma(-inf) = +inf); report 0 like a pole.
    let sign = if pole || x.is_nan() || x == T::NEG_INFINITY {
        0
    } else {
        s
    };
    (T::narrow(v), sign)
}

/// The C type of an entry point's parameter or result: `T` (the float
/// type `$t`) or `i32`.
macro_rules! c_type {
    (T, $t:ty) => {
        $t
    };
    (i32, $t:ty) => {
        i32
    };
}

/// Defines one entry point, of float type `$t`:
/// `fn(args) -> result = generic` returns the generic function's value;
/// `fn(args; out) -> T = generic` returns the first element of its pair
/// and stores the second through the out-pointer `out`;
/// `= libm_function(args)` evaluates the `libm` double function at the
/// arguments' double values and rounds the result to `$t` once.
macro_rules! entry_point {
    ($(#[$doc:meta])* $name:ident, $t:ident, ($($a:ident: $at:ident),*) -> $r:ident = $g:ident) => {
        $(#[$doc])*
        pub extern "C" fn $name(
            $($a: $crate::math_shared::c_type!($at, $t)),*
        ) -> $crate::math_shared::c_type!($r, $t) {
            $crate::math_shared::$g($($a),*)
        }
    };
    ($(#[$doc:meta])* $name:ident, $t:ident, ($($a:ident: $at:ident),*; $out:ident: $ot:ident) -> T = $g:ident) => {
        $(#[$doc])*
        pub unsafe extern "C" fn $name(
            $($a: $t,)* $out: *mut $crate::math_shared::c_type!($ot, $t)
        ) -> $t {
            let (value, stored) = $crate::math_shared::$g($($a),*);
            // SAFETY: the caller guarantees the out-pointer is valid for a
            // write.
            unsafe { $out.write_unaligned(stored) };
            value
        }
    };
    ($(#[$doc:meta])* $name:ident, $t:ident, libm $f:ident, ($($a:ident),+)) => {
        $(#[$doc])*
        pub extern "C" fn $name($($a: $t),+) -> $t {
            use $crate::math_shared::Format;
            <$t>::narrow(libm::$f($($a.widen()),+))
        }
    };
}

/// Defines the entry points of float type `$t` (`f32` or `f64`) of a list
/// whose rows name each function's `float` and `double` entry point, one
/// doc comment for both.
macro_rules! entry_points {
    ($t:ident;) => {};
    (f32; $(#[$doc:meta])* $n32:ident, $n64:ident: fn $sig:tt -> $r:ident = $g:ident; $($rest:tt)*) => {
        $crate::math_shared::entry_point!($(#[$doc])* $n32, f32, $sig -> $r = $g);
        $crate::math_shared::entry_points!(f32; $($rest)*);
    };
    (f64; $(#[$doc:meta])* $n32:ident, $n64:ident: fn $sig:tt -> $r:ident = $g:ident; $($rest:tt)*) => {
        $crate::math_shared::entry_point!($(#[$doc])* $n64, f64, $sig -> $r = $g);
        $crate::math_shared::entry_points!(f64; $($rest)*);
    };
    (f32; $(#[$doc:meta])* $n32:ident, $n64:ident = libm::$f:ident $args:tt; $($rest:tt)*) => {
        $crate::math_shared::entry_point!($(#[$doc])* $n32, f32, libm $f, $args);
        $crate::math_shared::entry_points!(f32; $($rest)*);
    };
    (f64; $(#[$doc:meta])* $n32:ident, $n64:ident = libm::$f:ident $args:tt; $($rest:tt)*) => {
        $crate::math_shared::entry_point!($(#[$doc])* $n64, f64, libm $f, $args);
        $crate::math_shared::entry_points!(f64; $($rest)*);
    };
}

/// Defines, in the module that invokes it, the `extern "C"` entry points
/// of float type `$t` (`f32` in `math_f32`, `f64` in `math_f64`) of every
/// function the two types share: those written once in this module, and
/// the `libm` functions whose double implementation already has the C99
/// special values (the `double` entry point is the `libm` function, the
/// `float` one evaluates it at the exact double value of its arguments and
/// rounds once).
macro_rules! shared_entry_points {
    ($t:ident) => {
        $crate::math_shared::entry_points! { $t;
            /// `acosh(x)`: NaN for x < 1. (`libm::acosh` ignores the sign of large
            /// negative arguments, so those are answered here.)
            clift_acosh_f32, clift_acosh_f64: fn(x: T) -> T = acosh;
            /// `sinpi(x) = sin(pi x)`, reduced exactly (x mod 2 is exact):
            /// sinpi(±0) = ±0, sinpi(+n) = +0, sinpi(-n) = -0 for integers n,
            /// sinpi(±inf) = NaN.
            clift_sinpi_f32, clift_sinpi_f64: fn(x: T) -> T = sinpi;
            /// `cospi(x) = cos(pi x)`: cospi(±0) = 1, cospi(n + 0.5) = +0,
            /// cospi(±inf) = NaN.
            clift_cospi_f32, clift_cospi_f64: fn(x: T) -> T = cospi;
            /// `tanpi(x) = tan(pi x)`: tanpi(±0) = ±0, tanpi(±inf) = NaN,
            /// tanpi(n) = copysign(0, n) for even n and copysign(0, -n) for odd n,
            /// tanpi(n + 0.5) = +inf for even n and -inf for odd n. All of these
            /// follow from tanpi being odd and the rules for x >= 0.
            clift_tanpi_f32, clift_tanpi_f64: fn(x: T) -> T = tanpi;
            /// `fdim(x, y)`: x - y when x > y, else +0; a NaN operand (quieted, x's
            /// where both are).
            clift_fdim_f32, clift_fdim_f64: fn(x: T, y: T) -> T = fdim;
            /// `hypot(x, y)`: hypot(±inf, y) = +inf even when y is NaN.
            clift_hypot_f32, clift_hypot_f64: fn(x: T, y: T) -> T = hypot;
            /// `ilogb(x)`: the unbiased exponent, also of denormals; `FP_ILOGB0`
            /// for ±0, `FP_ILOGBNAN` for NaN, `INT_MAX` for ±inf.
            clift_ilogb_f32, clift_ilogb_f64: fn(x: T) -> i32 = ilogb;
            /// `logb(x)`: the exponent as a value of x's type; logb(±0) = -inf,
            /// logb(±inf) = +inf, logb(NaN) = NaN.
            clift_logb_f32, clift_logb_f64: fn(x: T) -> T = logb;
            /// `nextafter(x, y)`: the next value of x's type after x toward y,
            /// through the denormals: nextafter(±0, y > 0) is the smallest
            /// positive denormal, nextafter(±0, y < 0) the smallest negative one;
            /// nextafter(x, x) = y (C99).
            clift_nextafter_f32, clift_nextafter_f64: fn(x: T, y: T) -> T = nextafter;
            /// `pown(x, n)`: pow with an integer exponent, which double
            /// represents exactly, so C99's pow rules for integer y give the
            /// OpenCL rules: pown(x, 0) = 1 for any x, pown(±0, n) = ±inf for
            /// odd n < 0, +inf for even n < 0, +0 for even n > 0, ±0 for odd
            /// n > 0.
            clift_pown_f32, clift_pown_f64: fn(x: T, n: i32) -> T = pown;
            /// `powr(x, y) = exp(y log x)` for x >= 0, with the OpenCL rules:
            /// powr(x, ±0) = 1 for finite x > 0; powr(±0, y) = +inf for finite
            /// y < 0; powr(±0, -inf) = +inf; powr(±0, y) = +0 for y > 0;
            /// powr(+1, y) = 1 for finite y; NaN for x < 0, powr(±0, ±0),
            /// powr(+inf, ±0), powr(+1, ±inf); a NaN operand is returned.
            clift_powr_f32, clift_powr_f64: fn(x: T, y: T) -> T = powr;
            /// `rootn(x, n) = x^(1/n)`: rootn(x, 0) = NaN; NaN for x < 0 and even
            /// n; rootn(±0, n) = ±inf for odd n < 0, +inf for even n < 0, +0 for
            /// even n > 0, ±0 for odd n > 0. Negative x with odd n is
            /// -rootn(-x, n). (How each type computes the root: the
            /// `rootn_kernel` of its module.)
            clift_rootn_f32, clift_rootn_f64: fn(x: T, n: i32) -> T = rootn;
            /// `fract(x, iptr)`: returns `fmin(x - floor(x), the largest value
            /// below 1)` and stores `floor(x)`. fract(±0) = ±0 with ±0 stored;
            /// fract(±inf) = ±0 with ±inf stored; fract(NaN) = the NaN with NaN
            /// stored.
            ///
            /// # Safety
            /// `iptr` must be valid for writing a value of x's type.
            clift_fract_f32, clift_fract_f64: fn(x: T; iptr: T) -> T = fract;
            /// `frexp(x, exp)`: returns the mantissa in [0.5, 1) with x's sign and
            /// stores the exponent; frexp(±0) = ±0 with 0, frexp(±inf) = ±inf with
            /// 0, frexp(NaN) = the NaN with 0. Denormals are normalised.
            ///
            /// # Safety
            /// `exp` must be valid for writing an `i32`.
            clift_frexp_f32, clift_frexp_f64: fn(x: T; exp: i32) -> T = frexp;
            /// `modf(x, iptr)`: stores `trunc(x)` and returns
            /// `copysign(isinf(x) ? 0 : x - trunc(x), x)`, as the OpenCL spec
            /// defines.
            ///
            /// # Safety
            /// `iptr` must be valid for writing a value of x's type.
            clift_modf_f32, clift_modf_f64: fn(x: T; iptr: T) -> T = modf;
            /// `remquo(x, y, quo)`: returns `remainder(x, y)` and stores the low 31
            /// bits of the integral quotient x/y with its sign (OpenCL asks for at
            /// least 7). Returns a NaN and stores 0 when x is ±inf, y is 0, or
            /// either is NaN.
            ///
            /// # Safety
            /// `quo` must be valid for writing an `i32`.
            clift_remquo_f32, clift_remquo_f64: fn(x: T, y: T; quo: i32) -> T = remquo;
            /// `sincos(x, cosval)`: returns `sin(x)` and stores `cos(x)`, the
            /// values of the type's `sin` and `cos`.
            ///
            /// # Safety
            /// `cosval` must be valid for writing a value of x's type.
            clift_sincos_f32, clift_sincos_f64: fn(x: T; cosval: T) -> T = sincos;
            /// `lgamma_r(x, signp)`: returns `lgamma(x)` and stores the sign of
            /// Γ(x) (1 or -1), or 0 when x is zero, a negative integer, -inf or
            /// NaN.
            ///
            /// # Safety
            /// `signp` must be valid for writing an `i32`.
            clift_lgamma_r_f32, clift_lgamma_r_f64: fn(x: T; signp: i32) -> T = lgamma_r;
            /// `acos(x)`.
            clift_acos_f32, clift_acos_f64 = libm::acos(x);
            /// `asin(x)`.
            clift_asin_f32, clift_asin_f64 = libm::asin(x);
            /// `asinh(x)`.
            clift_asinh_f32, clift_asinh_f64 = libm::asinh(x);
            /// `atan(x)`.
            clift_atan_f32, clift_atan_f64 = libm::atan(x);
            /// `atanh(x)`.
            clift_atanh_f32, clift_atanh_f64 = libm::atanh(x);
            /// `cbrt(x)`.
            clift_cbrt_f32, clift_cbrt_f64 = libm::cbrt(x);
            /// `cosh(x)`.
            clift_cosh_f32, clift_cosh_f64 = libm::cosh(x);
            /// `erfc(x)`.
            clift_erfc_f32, clift_erfc_f64 = libm::erfc(x);
            /// `expm1(x)`.
            clift_expm1_f32, clift_expm1_f64 = libm::expm1(x);
            /// `lgamma(x)` (accuracy implementation-defined for `double`).
            clift_lgamma_f32, clift_lgamma_f64 = libm::lgamma(x);
            /// `log1p(x)`.
            clift_log1p_f32, clift_log1p_f64 = libm::log1p(x);
            /// `sinh(x)`.
            clift_sinh_f32, clift_sinh_f64 = libm::sinh(x);
            /// `tanh(x)`.
            clift_tanh_f32, clift_tanh_f64 = libm::tanh(x);
            /// `tgamma(x)`.
            clift_tgamma_f32, clift_tgamma_f64 = libm::tgamma(x);
            /// `atan2(y, x)`.
            clift_atan2_f32, clift_atan2_f64 = libm::atan2(y, x);
            /// `remainder(x, y)`: exact (IEEE remainder, quotient rounded to
            /// even).
            clift_remainder_f32, clift_remainder_f64 = libm::remainder(x, y);
        }
    };
}

pub(crate) use {c_type, entry_point, entry_points, shared_entry_points};

/// Whether `a` and `b` are the same value: the same bits, or both NaN
/// (for the unit tests of both types).
#[cfg(test)]
pub(crate) fn same<T: Format>(a: T, b: T) -> bool {
    a.to_bits64() == b.to_bits64() || (a.is_nan() && b.is_nan())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A literal of either type.
    trait Lit: MathFloat + core::fmt::Debug {
        fn lit(x: f64) -> Self;
    }

    impl Lit for f32 {
        fn lit(x: f64) -> f32 {
            x as f32
        }
    }

    impl Lit for f64 {
        fn lit(x: f64) -> f64 {
            x
        }
    }

    fn same_as<T: Lit>(a: T, b: f64) -> bool {
        same(a, T::lit(b))
    }

    /// The smallest positive denormal.
    fn min_denormal<T: Lit>() -> T {
        T::from_bits64(1)
    }

    fn pi_functions_zeros_and_poles<T: Lit>() {
        let two_p = 2f64.powi(T::MANT as i32 + 1); // 2^p, p the precision: even
        let max = T::from_bits64(((2 * T::BIAS as u64) << T::MANT) | ((1 << T::MANT) - 1));
        for n in [1.0, 2.0, 3.0, 4.0, 1e7, two_p] {
            assert!(same_as(sinpi(T::lit(n)), 0.0), "sinpi({n})");
            assert!(same_as(sinpi(T::lit(-n)), -0.0), "sinpi(-{n})");
        }
        assert!(same_as(sinpi(max), 0.0));
        for h in [0.5, 1.5, 2.5, -0.5, -1.5, two_p / 4.0 - 0.5] {
            assert!(same_as(cospi(T::lit(h)), 0.0), "cospi({h})");
        }
        for (x, want) in [
            (0.5, f64::INFINITY),
            (1.5, f64::NEG_INFINITY),
            (-0.5, f64::NEG_INFINITY),
            (-1.5, f64::INFINITY),
            (1.0, -0.0),
            (2.0, 0.0),
            (-1.0, 0.0),
            (-2.0, -0.0),
        ] {
            assert!(same_as(tanpi(T::lit(x)), want), "tanpi({x})");
        }
        assert!(same_as(sinpi(T::HALF), 1.0));
        assert!(same_as(cospi(T::ONE), -1.0));
        assert!(sinpi(T::INFINITY).is_nan());
    }

    fn exact_functions_and_denormals<T: Lit>() {
        let tiny = min_denormal::<T>();
        let e_tiny = 1 - T::BIAS - T::MANT as i32; // -149, -1074
        assert_eq!(frexp(T::ONE), (T::HALF, 1));
        assert_eq!(frexp(T::lit(-3.0)), (T::lit(-0.75), 2));
        assert_eq!(frexp(tiny), (T::HALF, e_tiny + 1));
        assert_eq!(frexp(T::INFINITY), (T::INFINITY, 0));
        assert_eq!(ilogb(tiny), e_tiny);
        assert_eq!(ilogb(T::ZERO), FP_ILOGB0);
        assert_eq!(ilogb(T::NAN), FP_ILOGBNAN);
        // The largest exponent a denormal has: 2^-BIAS.
        assert_eq!(logb(T::from_bits64(1 << (T::MANT - 1))), T::from_exponent(-T::BIAS));
        assert_eq!(nextafter(-T::ZERO, T::ONE).to_bits64(), tiny.to_bits64());
        assert_eq!(nextafter(T::ZERO, -T::ONE).to_bits64(), (-tiny).to_bits64());
        assert_eq!(nextafter(tiny, T::ZERO).to_bits64(), 0);
        let below_one = T::from_bits64(T::ONE.to_bits64() - 1);
        assert_eq!(fract(-tiny), (below_one, -T::ONE));
    }

    fn pointer_results<T: Lit>() {
        assert_eq!(remquo(T::lit(7.0), T::TWO), (-T::ONE, 4));
        let (r, q) = remquo(T::INFINITY, T::TWO);
        assert!(r.is_nan() && q == 0);
        assert_eq!(lgamma_r(T::lit(-2.0)), (T::INFINITY, 0));
        assert_eq!(lgamma_r(T::lit(-2.5)).1, -1);
        assert_eq!(lgamma_r(T::NEG_INFINITY).1, 0);
        let (v, s) = lgamma_r(T::lit(-2.5));
        assert!(v < T::lit(-0.056) && v > T::lit(-0.057) && s == -1);
    }

    fn power_rules<T: Lit>() {
        assert!(same_as(rootn(T::lit(-8.0), 3), -2.0));
        assert!(rootn(T::lit(-8.0), 2).is_nan());
        assert!(rootn(T::lit(8.0), 0).is_nan());
        assert!(same_as(rootn(-T::ZERO, -3), f64::NEG_INFINITY));
        assert!(same_as(rootn(-T::ZERO, 2), 0.0));
        assert!(same_as(rootn(T::lit(0.25), -1), 4.0));
        assert!(same_as(rootn(T::NEG_INFINITY, 3), f64::NEG_INFINITY));
        assert!(powr(-T::ONE, T::TWO).is_nan());
        assert!(powr(T::ONE, T::INFINITY).is_nan());
        assert!(same_as(powr(-T::ZERO, T::lit(3.0)), 0.0));
        assert!(same_as(powr(T::ZERO, T::NEG_INFINITY), f64::INFINITY));
    }

    #[test]
    fn shared_rules_f32() {
        pi_functions_zeros_and_poles::<f32>();
        exact_functions_and_denormals::<f32>();
        pointer_results::<f32>();
        power_rules::<f32>();
    }

    #[test]
    fn shared_rules_f64() {
        pi_functions_zeros_and_poles::<f64>();
        exact_functions_and_denormals::<f64>();
        pointer_results::<f64>();
        power_rules::<f64>();
    }
}
