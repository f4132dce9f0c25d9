//! `exp`, `log`, `log2`, `log10`, `sin`, `cos`, `tan`, `erf`, `erfc`, `cbrt`, `atan`,
//! `asin`, `acos`, `expm1`, `tanh`, `sinh`, `cosh`, `log1p`, `asinh`,
//! `acosh`, `atanh`, `pow`, `atan2` and `hypot` of `double` on four lanes at once,
//! bit for bit what `libm`'s functions of the same names (FreeBSD's
//! algorithms, which the scalar lowering calls for one `double`:
//! `math_f64::clift_exp_f64`, ...) give for each lane.
//!
//! The AVX2 form performs, for the lanes it handles, the same IEEE
//! operations in the same order as the scalar function's path for that
//! argument (each one rounded once, no fused multiply-add: `libm` has
//! none there and Rust never contracts), with the scalar branches turned
//! into selects; so each lane's result is the scalar function's. The
//! lanes it does not handle (the scalar functions' special paths) are
//! given to `libm` one by one:
//!
//! - `exp(x)` for 2^-28 < |x| < 708.39...: the reduction x = k ln2 + r
//!   (k from `x / ln2 +- 1/2` truncated for |x| >= 1.5 ln2, +-1 above 0.5
//!   ln2, 0 below), the rational approximation of e^r, then the result
//!   times 2^k, which for these k (|k| <= 1022) is one multiplication in
//!   `libm`'s `scalbn` too. Tiny, huge, infinite and NaN arguments go to
//!   `libm`.
//! - `log(x)` for positive normal finite x: the reduction to [sqrt(1/2),
//!   sqrt(2)) on the high word, then the polynomial in s = f / (2 + f).
//!   Zeros, negative numbers, subnormals, infinities and NaNs go to
//!   `libm`.
//! - `log2(x)`, `log10(x)`: the same reduction and polynomial, then
//!   log(1 + f) split into a high part with 32 bits and the rest, each
//!   scaled by 1/ln2 (1/ln10) in two parts, the exponent added with its
//!   rounding error carried; the same lanes go to `libm`.
//! - `sin(x)`, `cos(x)` for |x| < 2^20 pi/2: below pi/4 the argument
//!   itself (sin below 2^-26), 1 (cos below 2^-27 sqrt(2)) or the kernel
//!   polynomials on (x, 0); beyond, `rem_pio2`'s reduction x = n pi/2 +
//!   y0 + y1 (up to 9pi/4 by n = +-1 .. +-4 in one step, but near pi/2,
//!   pi, 3pi/2 and 2pi; else n = rint(x 2/pi) and one to three rounds
//!   with pi/2 in more parts, as the scalar function decides per lane),
//!   then the sine or cosine kernel by the quadrant n mod 4, negated in
//!   two quadrants. Larger arguments (the Payne-Hanek reduction),
//!   infinities and NaNs go to `libm`.
//! - `tan(x)` for |x| < 2^20 pi/2: x itself below 2^-27, else the same
//!   reduction and the tangent kernel with n's parity (on pi/4 - y where
//!   |y| >= 0.6744; -1/(y + r) in two parts for odd n); the same lanes go
//!   to `libm`.
//! - `erf(x)` for finite x: its four ranges (split at 0.84375, 1.25 and
//!   6), each a rational approximation (the third through two `exp`s,
//!   this module's: a lane whose exponent `exp` leaves to `libm` is left
//!   to `libm` whole). Infinities and NaNs go to `libm`.
//! - `erfc(x)` for finite x: the same ranges (1 - x below 2^-56, 1 - (x +
//!   x y) or 0.5 - (x - 0.5 + x y) split at 1/4 below 0.84375, then
//!   `erf`'s `erfc1` and `erfc2` up to 28, each taken from 2 for negative
//!   x, and 2^-1022 squared or 2 - 2^-1022 beyond); lanes whose exponents
//!   `exp` leaves to `libm` (from |x| of about 26.6), infinities and NaNs
//!   go to `libm`.
//! - `cbrt(x)` for normal x, where the CPU has FMA: `libm`'s (CORE-MATH's
//!   correctly rounded) main path, the exponent divided by 3 as a product,
//!   the Newton steps with fused multiply-adds where `libm` has them;
//!   lanes within `libm`'s 2^-75 of a rounding boundary or caught by its
//!   exactness test, zeros, subnormals, infinities and NaNs go to `libm`.
//! - `atan(x)`: its five ranges by |x| (the argument itself, the series,
//!   the series on a reduced argument added to atan(0.5), atan(1),
//!   atan(1.5) or pi/2, pi/2); NaNs go to `libm`.
//! - `asin(x)`, `acos(x)` for |x| < 1: the rational R(z) on x^2 below
//!   0.5, on (1 -+ x)/2 with its square root (in two parts where `libm`
//!   splits it) above; |x| >= 1 and NaNs go to `libm`.
//! - `expm1(x)` for |x| < 56 ln2: x itself below 2^-54, else the reduction
//!   x = k ln2 + r as `exp`'s with its correction term, the rational
//!   approximation in the scaled Q's, and the assembly the scalar function
//!   picks by k (0, -1, 1, other negative k, 2 to 19, 20 and up). Larger
//!   arguments (the scalar function's filter: -1, overflow) and NaNs go to
//!   `libm`.
//! - `tanh(x)` for |x| < 19.4: on |x|, 1 - 2/(expm1(2|x|) + 2) above
//!   log(3)/2, t/(t + 2) with t = expm1(2|x|) above log(5/3)/2, -t/(t + 2)
//!   with t = expm1(-2|x|) down to 2^-1022, |x| below, x's sign on the
//!   result (this module's `expm1`, whose lanes cover 2|x| < 56 ln2);
//!   larger arguments and NaNs go to `libm`.
//! - `sinh(x)` for |x| < 56 ln2: t = expm1(|x|), h = +-0.5 by x's sign; x
//!   itself below 2^-26, h (2t - t^2/(t + 1)) below 1, h (t + t/(t + 1))
//!   above. Larger arguments and NaNs go to `libm`.
//! - `cosh(x)`: 1 below 2^-26, 1 + t^2/(2 (1 + t)) with t = expm1(|x|)
//!   below log(2), 0.5 (t + 1/t) with t = exp(|x|) up to 708.39 (`exp`'s
//!   lanes); larger arguments and NaNs go to `libm`.
//! - `log1p(x)` for finite x > -1: x itself below 2^-53; f = x on
//!   [-0.2929, 0.4142), else 1 + x reduced to [sqrt(2)/2, sqrt(2)) on its
//!   high word with the correction term for the rounding of 1 + x; then
//!   `log`'s polynomial in s = f / (2 + f) and k ln2 in two parts.
//!   Arguments at most -1, infinities and NaNs go to `libm`.
//! - `asinh(x)`, `acosh(x)`, `atanh(x)`: the scalar functions' forms by
//!   the exponent of |x| (asinh: |x| below 2^-26, then log1p, log, log +
//!   ln2; acosh: log1p below 2, log, log + ln2 from 2^26; atanh: |x| below
//!   2^-32, then two log1p forms split at 0.5), with square roots
//!   (correctly rounded, as `libm`'s) and this module's `log` and `log1p`;
//!   lanes those leave to `libm` (infinities, NaNs), acosh's below 1
//!   (NaN) and atanh's at |x| >= 1 go to the scalar function.
//! - `pow(x, y)` for x positive, normal and finite, y finite with |y| <=
//!   2^31: the exponents `libm` answers first (0, +-1, 2 and 0.5), base 1,
//!   then its main path (log2 x in two parts, times y in two parts, two to
//!   that power); lanes whose result overflows, underflows or would be
//!   subnormal, and every other argument, go to `libm`.
//! - `atan2(y, x)` for finite non-zero y and x, x not 1: +-pi/2 where
//!   |y/x| > 2^64 by the high words, else z = atan(|y/x|) by this module's
//!   `atan` (0 for x < 0 and |y/x| < 2^-64), then z, -z, pi - (z - pi_lo)
//!   or (z - pi_lo) - pi by the signs. Zeros, infinities, NaNs and x = 1
//!   (the scalar function's special cases) go to `libm`.
//! - `hypot(x, y)` for every argument (no lane goes to `libm`): +inf where
//!   either is infinite (clift's rule, which `libm`'s gives too), else
//!   `libm`'s special cases by the ordered bits of |x| and |y| (NaNs,
//!   zero, exponents more than 64 apart) and its main path: the scaling
//!   by 2^-+700 beyond 2^511 and below 2^-450, both squares in two parts
//!   (Dekker's split), their sum from the lowest part, the square root.
//!
//! The one-argument functions have an eight-lane form too, for 8-lane
//! kernel bodies: both parts' four lanes in one call, their computations
//! side by side (two independent dependency chains), each lane's bits as
//! the four-lane form gives them.
//!
//! Without AVX2 every lane is `libm`'s function, one after another.
//! `tests` compares the AVX2 form with `libm` lane for lane on the
//! boundaries of every branch and on random bit patterns, and the
//! eight-lane forms with the four-lane ones.

/// The entry points: `$four` is `$f` on four doubles, lanes 0-1 in `lo`
/// (`xmm0`), lanes 2-3 in `hi` (`xmm1`), the results stored to `out`
/// (`rdi`): 4-lane kernel bodies call it for a `double` component (two
/// 2-lane halves). `$eight` is `$f` on both 4-lane parts of an 8-lane body
/// in one call (part 0's halves in `xmm0` and `xmm1`, part 1's in `xmm2`
/// and `xmm3`, eight results to `out`), each lane's bits the same.
macro_rules! entry_points {
    ($($name:literal: $four:ident, $eight:ident => $f:ident;)*) => {$(
        #[doc = concat!("`", $name, "` on four doubles.")]
        ///
        /// # Safety
        /// `out` must be valid for writes of four `f64`s (any alignment).
        // `__m128d` is an SSE vector, which the System V ABI passes in
        // `xmm` registers (SSE is part of x86-64); the lint only says that
        // Rust does not promise a C layout for SIMD types in general.
        #[cfg(target_arch = "x86_64")]
        #[allow(improper_ctypes_definitions)]
        pub unsafe extern "C" fn $four(
            lo: core::arch::x86_64::__m128d,
            hi: core::arch::x86_64::__m128d,
            out: *mut f64,
        ) {
            // SAFETY: the caller passes four writable doubles.
            unsafe { four(Function::$f, [lo, hi], [lo, hi], out) }
        }

        #[doc = concat!("`", $name, "` on eight doubles: two 4-lane parts.")]
        ///
        /// # Safety
        /// `out` must be valid for writes of eight `f64`s (any alignment).
        #[cfg(target_arch = "x86_64")]
        #[allow(improper_ctypes_definitions)] // as the four-lane form
        pub unsafe extern "C" fn $eight(
            p0_lo: core::arch::x86_64::__m128d,
            p0_hi: core::arch::x86_64::__m128d,
            p1_lo: core::arch::x86_64::__m128d,
            p1_hi: core::arch::x86_64::__m128d,
            out: *mut f64,
        ) {
            // SAFETY: the caller passes eight writable doubles.
            unsafe { eight(Function::$f, [p0_lo, p0_hi], [p1_lo, p1_hi], out) }
        }
    )*

        /// The addresses of one-argument function `f`'s four- and
        /// eight-lane entry points (None for `pow`, `atan2` and `hypot`).
        #[cfg(target_arch = "x86_64")]
        fn entry_points_of(f: Function) -> Option<(usize, usize)> {
            match f {
                $(Function::$f => Some(($four as *const () as usize, $eight as *const () as usize)),)*
                Function::Pow | Function::Atan2 | Function::Hypot => None,
            }
        }
    };
}

entry_points! {
    "exp": clift_exp_f64x4, clift_exp_f64x8 => Exp;
    "log": clift_log_f64x4, clift_log_f64x8 => Log;
    "log2": clift_log2_f64x4, clift_log2_f64x8 => Log2;
    "log10": clift_log10_f64x4, clift_log10_f64x8 => Log10;
    "sin": clift_sin_f64x4, clift_sin_f64x8 => Sin;
    "cos": clift_cos_f64x4, clift_cos_f64x8 => Cos;
    "tan": clift_tan_f64x4, clift_tan_f64x8 => Tan;
    "erf": clift_erf_f64x4, clift_erf_f64x8 => Erf;
    "erfc": clift_erfc_f64x4, clift_erfc_f64x8 => Erfc;
    "cbrt": clift_cbrt_f64x4, clift_cbrt_f64x8 => Cbrt;
    "atan": clift_atan_f64x4, clift_atan_f64x8 => Atan;
    "asin": clift_asin_f64x4, clift_asin_f64x8 => Asin;
    "acos": clift_acos_f64x4, clift_acos_f64x8 => Acos;
    "expm1": clift_expm1_f64x4, clift_expm1_f64x8 => Expm1;
    "tanh": clift_tanh_f64x4, clift_tanh_f64x8 => Tanh;
    "sinh": clift_sinh_f64x4, clift_sinh_f64x8 => Sinh;
    "cosh": clift_cosh_f64x4, clift_cosh_f64x8 => Cosh;
    "log1p": clift_log1p_f64x4, clift_log1p_f64x8 => Log1p;
    "asinh": clift_asinh_f64x4, clift_asinh_f64x8 => Asinh;
    "acosh": clift_acosh_f64x4, clift_acosh_f64x8 => Acosh;
    "atanh": clift_atanh_f64x4, clift_atanh_f64x8 => Atanh;
}

/// One-argument function `f` on the eight doubles of two 4-lane parts'
/// halves, stored to `out`: both parts in one AVX2 function (their
/// computations side by side, where the compiler can interleave them)
/// where the CPU has AVX2, else the four-lane form on each part.
///
/// # Safety
/// `out` must be valid for writes of eight `f64`s (any alignment).
#[cfg(target_arch = "x86_64")]
unsafe fn eight(
    f: Function,
    p0: [core::arch::x86_64::__m128d; 2],
    p1: [core::arch::x86_64::__m128d; 2],
    out: *mut f64,
) {
    if is_x86_feature_detected!("avx2") {
        let ([p0_lo, p0_hi], [p1_lo, p1_hi]) = (p0, p1);
        // SAFETY: the CPU has AVX2 (checked at run time); the caller
        // passes eight writable doubles.
        unsafe { avx2::unary_both(f, p0_lo, p0_hi, p1_lo, p1_hi, out) };
        return;
    }
    // SAFETY: the caller passes eight writable doubles, four per part.
    unsafe {
        four(f, p0, p0, out);
        four(f, p1, p1, out.add(4));
    }
}

/// `pow` on four pairs of doubles: x's lanes 0-1 in `x_lo` (`xmm0`), 2-3
/// in `x_hi` (`xmm1`), y's in `y_lo` (`xmm2`) and `y_hi` (`xmm3`), the
/// results stored to `out` (`rdi`).
///
/// # Safety
/// `out` must be valid for writes of four `f64`s (any alignment).
#[cfg(target_arch = "x86_64")]
#[allow(improper_ctypes_definitions)] // see `entry_points!`
pub unsafe extern "C" fn clift_pow_f64x4(
    x_lo: core::arch::x86_64::__m128d,
    x_hi: core::arch::x86_64::__m128d,
    y_lo: core::arch::x86_64::__m128d,
    y_hi: core::arch::x86_64::__m128d,
    out: *mut f64,
) {
    // SAFETY: the caller passes four writable doubles.
    unsafe { four(Function::Pow, [x_lo, x_hi], [y_lo, y_hi], out) }
}

/// `atan2(y, x)` on four pairs of doubles, as [`clift_pow_f64x4`] takes
/// them (y's lanes first, then x's).
///
/// # Safety
/// `out` must be valid for writes of four `f64`s (any alignment).
#[cfg(target_arch = "x86_64")]
#[allow(improper_ctypes_definitions)] // see `entry_points!`
pub unsafe extern "C" fn clift_atan2_f64x4(
    y_lo: core::arch::x86_64::__m128d,
    y_hi: core::arch::x86_64::__m128d,
    x_lo: core::arch::x86_64::__m128d,
    x_hi: core::arch::x86_64::__m128d,
    out: *mut f64,
) {
    // SAFETY: the caller passes four writable doubles.
    unsafe { four(Function::Atan2, [y_lo, y_hi], [x_lo, x_hi], out) }
}

/// `hypot(x, y)` on four pairs of doubles, as [`clift_pow_f64x4`] takes
/// them.
///
/// # Safety
/// `out` must be valid for writes of four `f64`s (any alignment).
#[cfg(target_arch = "x86_64")]
#[allow(improper_ctypes_definitions)] // see `entry_points!`
pub unsafe extern "C" fn clift_hypot_f64x4(
    x_lo: core::arch::x86_64::__m128d,
    x_hi: core::arch::x86_64::__m128d,
    y_lo: core::arch::x86_64::__m128d,
    y_hi: core::arch::x86_64::__m128d,
    out: *mut f64,
) {
    // SAFETY: the caller passes four writable doubles.
    unsafe { four(Function::Hypot, [x_lo, x_hi], [y_lo, y_hi], out) }
}

/// The address of the four-lane form of two-argument `name` (`pow`,
/// `atan2`, `hypot`) of
/// `double` for JIT code on x86-64 System V: an `extern "C"
/// fn(__m128d, __m128d, __m128d, __m128d, *mut f64)` (see
/// [`clift_pow_f64x4`]).
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn four_lanes_binary(name: &str) -> Option<usize> {
    use core::arch::x86_64::__m128d;
    #[allow(improper_ctypes_definitions)] // see `entry_points!`
    type Four = unsafe extern "C" fn(__m128d, __m128d, __m128d, __m128d, *mut f64);
    let f: Four = match name {
        "pow" => clift_pow_f64x4,
        "atan2" => clift_atan2_f64x4,
        "hypot" => clift_hypot_f64x4,
        _ => return None,
    };
    Some(f as usize)
}

/// Elsewhere no four-lane forms.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn four_lanes_binary(_name: &str) -> Option<usize> {
    None
}

/// Which function a four-lane entry point computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Function {
    Exp,
    Log,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Erf,
    Erfc,
    Cbrt,
    Atan,
    Asin,
    Acos,
    Expm1,
    Tanh,
    Sinh,
    Cosh,
    Log1p,
    Asinh,
    Acosh,
    Atanh,
    Pow,
    Atan2,
    Hypot,
}

/// Function `f` on the four lanes of its arguments (each as two halves;
/// `y` only for `pow`), stored to `out`: the AVX2 form where the CPU has
/// AVX2 (the halves joined in registers, no trip through memory), else
/// the scalar function on each lane.
///
/// # Safety
/// `out` must be valid for writes of four `f64`s (any alignment).
#[cfg(target_arch = "x86_64")]
unsafe fn four(f: Function, x: [core::arch::x86_64::__m128d; 2], y: [core::arch::x86_64::__m128d; 2], out: *mut f64) {
    use core::arch::x86_64::_mm_storeu_pd;
    if is_x86_feature_detected!("avx2") {
        // The halves go one by one: a 32-byte load of two halves stored
        // one by one would wait for both stores, which costs more than the
        // function.
        let ([x_lo, x_hi], [y_lo, y_hi]) = (x, y);
        // SAFETY: the CPU has AVX2 (checked at run time); the caller
        // passes four writable doubles.
        unsafe {
            match f {
                Function::Pow | Function::Atan2 | Function::Hypot => avx2::binary(f, x_lo, x_hi, y_lo, y_hi, out),
                _ => avx2::unary(f, x_lo, x_hi, out),
            }
        }
        return;
    }
    let mut args = [0.0f64; 8];
    // SAFETY: `args` holds eight doubles: unaligned 16-byte stores (SSE2
    // is part of x86-64); the caller passes four writable doubles at
    // `out`.
    unsafe {
        for (k, &h) in x.iter().chain(&y).enumerate() {
            _mm_storeu_pd(args.as_mut_ptr().add(2 * k), h);
        }
        for lane in 0..4 {
            *out.add(lane) = f.call(args[lane], args[lane + 4]);
        }
    }
}

impl Function {
    /// The scalar function on one lane's arguments (`y` only for `pow`),
    /// as the scalar lowering calls it (each is `libm`'s function of the
    /// same name).
    pub(crate) fn call(self, x: f64, y: f64) -> f64 {
        use crate::math_f64::*;
        match self {
            Function::Exp => clift_exp_f64(x),
            Function::Log => clift_log_f64(x),
            Function::Log2 => clift_log2_f64(x),
            Function::Log10 => clift_log10_f64(x),
            Function::Sin => clift_sin_f64(x),
            Function::Cos => clift_cos_f64(x),
            Function::Tan => clift_tan_f64(x),
            Function::Erf => clift_erf_f64(x),
            Function::Erfc => clift_erfc_f64(x),
            Function::Cbrt => clift_cbrt_f64(x),
            Function::Atan => clift_atan_f64(x),
            Function::Asin => clift_asin_f64(x),
            Function::Acos => clift_acos_f64(x),
            Function::Expm1 => clift_expm1_f64(x),
            Function::Tanh => clift_tanh_f64(x),
            Function::Sinh => clift_sinh_f64(x),
            Function::Cosh => clift_cosh_f64(x),
            Function::Log1p => clift_log1p_f64(x),
            Function::Asinh => clift_asinh_f64(x),
            Function::Acosh => clift_acosh_f64(x),
            Function::Atanh => clift_atanh_f64(x),
            Function::Pow => clift_pow_f64(x, y),
            Function::Atan2 => clift_atan2_f64(x, y),
            Function::Hypot => clift_hypot_f64(x, y),
        }
    }

    /// The function of OpenCL.std name `name`, if it has a four-lane form.
    pub(crate) fn named(name: &str) -> Option<Function> {
        Some(match name {
            "exp" => Function::Exp,
            "log" => Function::Log,
            "log2" => Function::Log2,
            "log10" => Function::Log10,
            "sin" => Function::Sin,
            "cos" => Function::Cos,
            "tan" => Function::Tan,
            "erf" => Function::Erf,
            "erfc" => Function::Erfc,
            "cbrt" => Function::Cbrt,
            "atan" => Function::Atan,
            "asin" => Function::Asin,
            "acos" => Function::Acos,
            "expm1" => Function::Expm1,
            "tanh" => Function::Tanh,
            "sinh" => Function::Sinh,
            "cosh" => Function::Cosh,
            "log1p" => Function::Log1p,
            "asinh" => Function::Asinh,
            "acosh" => Function::Acosh,
            "atanh" => Function::Atanh,
            "pow" => Function::Pow,
            "atan2" => Function::Atan2,
            "hypot" => Function::Hypot,
            _ => return None,
        })
    }
}

/// The address of the four-lane form of one-argument `name` (an
/// OpenCL.std name: `exp`, `log`, `log2`, `log10`, `sin`, `cos`, `tan`,
/// `erf`, `erfc`, `cbrt`, `atan`, `asin`, `acos`, `expm1`, `tanh`, `sinh`, `cosh`,
/// `log1p`, `asinh`, `acosh` or `atanh`) of `double` for JIT code on x86-64
/// System V: an `extern "C" fn(__m128d, __m128d, *mut f64)` (see
/// `entry_points!`).
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn four_lanes(name: &str) -> Option<usize> {
    entry_points_of(Function::named(name)?).map(|(four, _)| four)
}

/// The address of the eight-lane form of one-argument `name` (as
/// [`four_lanes`]) for 8-lane bodies on x86-64 System V: an `extern "C"
/// fn(__m128d, __m128d, __m128d, __m128d, *mut f64)` (see
/// `entry_points!`).
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn eight_lanes(name: &str) -> Option<usize> {
    entry_points_of(Function::named(name)?).map(|(_, eight)| eight)
}

/// Elsewhere no eight-lane forms.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn eight_lanes(_name: &str) -> Option<usize> {
    None
}

/// Elsewhere no four-lane forms: these functions of `double` run lane by
/// lane.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn four_lanes(_name: &str) -> Option<usize> {
    None
}

/// `name` (`pow` with two arguments) on four lanes of `args` by the AVX2
/// form, or None where the CPU has no AVX2 or `name` has no four-lane
/// form: for tests, which compare it with [`reference()`] lane for lane.
#[cfg(target_arch = "x86_64")]
pub fn avx2_form(name: &str, args: &[[f64; 4]]) -> Option<[f64; 4]> {
    use core::arch::x86_64::_mm_loadu_pd;
    let f = Function::named(name)?;
    if !is_x86_feature_detected!("avx2") {
        return None;
    }
    let (x, y) = (*args.first()?, *args.last()?);
    let mut out = [0.0f64; 4];
    // SAFETY: the CPU has AVX2 (checked above); `x`, `y` and `out` hold
    // four doubles (unaligned loads, SSE2 is part of x86-64).
    unsafe {
        four(
            f,
            [_mm_loadu_pd(x.as_ptr()), _mm_loadu_pd(x.as_ptr().add(2))],
            [_mm_loadu_pd(y.as_ptr()), _mm_loadu_pd(y.as_ptr().add(2))],
            out.as_mut_ptr(),
        )
    };
    Some(out)
}

/// The scalar code's function `name` (as [`four_lanes`], or `pow`) of `x`
/// (and `y` for `pow`): what every lane of the four-lane forms must give.
pub fn reference(name: &str, x: f64, y: f64) -> Option<f64> {
    Function::named(name).map(|f| f.call(x, y))
}

/// The AVX2 forms: four `f64` lanes in one `__m256d`.
#[cfg(target_arch = "x86_64")]
// The constants are written as `libm` writes them (FreeBSD's digits, which
// round to the same doubles).
// (INVLN2 is not `LOG2_E` in every digit, but the same double.)
#[allow(clippy::excessive_precision, clippy::approx_constant)]
pub(crate) mod avx2 {
    use core::arch::x86_64::*;

    use super::Function;

    // `libm`'s constants (exp.rs, log.rs, log2.rs and log10.rs here;
    // rem_pio2.rs, k_sin.rs and k_cos.rs below; those of tan, erf and pow
    // in their functions), bit for bit.
    const LN2HI: f64 = 6.93147180369123816490e-01;
    const LN2LO: f64 = 1.90821492927058770002e-10;
    const INVLN2: f64 = 1.44269504088896338700e+00;
    const P1: f64 = 1.66666666666666019037e-01;
    const P2: f64 = -2.77777777770155933842e-03;
    const P3: f64 = 6.61375632143793436117e-05;
    const P4: f64 = -1.65339022054652515390e-06;
    const P5: f64 = 4.13813679705723846039e-08;
    const LG1: f64 = 6.666666666666735130e-01;
    const LG2: f64 = 3.999999999940941908e-01;
    const LG3: f64 = 2.857142874366239149e-01;
    const LG4: f64 = 2.222219843214978396e-01;
    const LG5: f64 = 1.818357216161805012e-01;
    const LG6: f64 = 1.531383769920937332e-01;
    const LG7: f64 = 1.479819860511658591e-01;
    const IVLN2HI: f64 = 1.44269504072144627571e+00;
    const IVLN2LO: f64 = 1.67517131648865118353e-10;
    const IVLN10HI: f64 = 4.34294481878168880939e-01;
    const IVLN10LO: f64 = 2.50829467116452752298e-11;
    const LOG10_2HI: f64 = 3.01029995663611771306e-01;
    const LOG10_2LO: f64 = 3.69423907715893078616e-13;
    // rem_pio2.rs, k_sin.rs, k_cos.rs.
    const TO_INT: f64 = 1.5 / f64::EPSILON;
    const INV_PIO2: f64 = 6.36619772367581382433e-01;
    const PIO2_1: f64 = 1.57079632673412561417e+00;
    const PIO2_1T: f64 = 6.07710050650619224932e-11;
    const PIO2_2: f64 = 6.07710050630396597660e-11;
    const PIO2_2T: f64 = 2.02226624879595063154e-21;
    const PIO2_3: f64 = 2.02226624871116645580e-21;
    const PIO2_3T: f64 = 8.47842766036889956997e-32;
    const S1: f64 = -1.66666666666666324348e-01;
    const S2: f64 = 8.33333333332248946124e-03;
    const S3: f64 = -1.98412698298579493134e-04;
    const S4: f64 = 2.75573137070700676789e-06;
    const S5: f64 = -2.50507602534068634195e-08;
    const S6: f64 = 1.58969099521155010221e-10;
    const C1: f64 = 4.16666666666666019037e-02;
    const C2: f64 = -1.38888888888741095749e-03;
    const C3: f64 = 2.48015872894767294178e-05;
    const C4: f64 = -2.75573143513906633035e-07;
    const C5: f64 = 2.08757232129817482790e-09;
    const C6: f64 = -1.13596475577881948265e-11;
    /// 1.5 * 2^52: an integer below 2^51 in magnitude added to it lands in
    /// the low bits.
    const SHIFT: f64 = 6_755_399_441_055_744.0;

    /// `$apply!(g)` for one-argument function `$f`'s AVX2 form `g` (a
    /// function or closure of one `__m256d` giving the results and the
    /// mask of the lanes it computed), `$two` for `pow`, `atan2` and `hypot`: the
    /// one list of the forms every dispatch below uses.
    macro_rules! one_argument {
        ($f:expr, $apply:ident, $two:expr) => {
            match $f {
                Function::Exp => $apply!(exp),
                Function::Log => $apply!(log),
                Function::Log2 => $apply!(log2),
                Function::Log10 => $apply!(log10),
                Function::Sin => $apply!(|v| sin_cos(v, false)),
                Function::Cos => $apply!(|v| sin_cos(v, true)),
                Function::Tan => $apply!(tan),
                Function::Erf => $apply!(erf),
                Function::Erfc => $apply!(erfc),
                Function::Cbrt => $apply!(cbrt),
                Function::Atan => $apply!(atan),
                Function::Asin => $apply!(asin),
                Function::Acos => $apply!(acos),
                Function::Expm1 => $apply!(expm1),
                Function::Tanh => $apply!(tanh),
                Function::Sinh => $apply!(sinh),
                Function::Cosh => $apply!(cosh),
                Function::Log1p => $apply!(log1p),
                Function::Asinh => $apply!(asinh),
                Function::Acosh => $apply!(acosh),
                Function::Atanh => $apply!(atanh),
                Function::Pow | Function::Atan2 | Function::Hypot => $two,
            }
        };
    }

    /// `$apply!(g)` for two-argument function `$f`'s AVX2 form `g` (of two
    /// `__m256d`, giving the results and the mask of the lanes it
    /// computed): the one list of them.
    macro_rules! two_arguments {
        ($f:expr, $apply:ident) => {
            match $f {
                Function::Pow => $apply!(pow),
                Function::Atan2 => $apply!(atan2),
                Function::Hypot => $apply!(hypot),
                _ => unreachable!("one-argument functions: `one_argument!`"),
            }
        };
    }

    /// One-argument function `f` on the four lanes of `lo` and `hi`, stored
    /// to `out`: the vector form for the lanes it handles, the scalar
    /// function for the others.
    ///
    /// # Safety
    /// The CPU must have AVX2; `out` must be valid for writes of four
    /// `f64`s (any alignment).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn unary(f: Function, lo: __m128d, hi: __m128d, out: *mut f64) {
        let v = _mm256_set_m128d(hi, lo);
        // Each arm stores its own results (a `match` that gave the pair of
        // vectors back merged them through the stack).
        macro_rules! one {
            ($g:expr) => {
                // SAFETY: the caller passes four writable doubles.
                unsafe { store(f, $g(v), v, v, out) }
            };
        }
        // (`four` gives the two-argument functions to `binary`: not reached.)
        one_argument!(f, one, unreachable!("two-argument functions: `binary`"))
    }

    /// One-argument function `f` on two sets of four lanes (part 0's
    /// halves `p0_lo`, `p0_hi`, part 1's `p1_lo`, `p1_hi`), stored to
    /// `out` and `out + 4`, each as [`unary`] stores it.
    ///
    /// # Safety
    /// The CPU must have AVX2; `out` must be valid for writes of eight
    /// `f64`s (any alignment).
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn unary_both(
        f: Function,
        p0_lo: __m128d,
        p0_hi: __m128d,
        p1_lo: __m128d,
        p1_hi: __m128d,
        out: *mut f64,
    ) {
        let (v0, v1) = (_mm256_set_m128d(p0_hi, p0_lo), _mm256_set_m128d(p1_hi, p1_lo));
        // Both parts' results first (independent chains), then the stores.
        macro_rules! both {
            ($g:expr) => {{
                let (r0, r1) = ($g(v0), $g(v1));
                // SAFETY: the caller passes eight writable doubles.
                unsafe {
                    store(f, r0, v0, v0, out);
                    store(f, r1, v1, v1, out.add(4));
                }
            }};
        }
        // (`eight` serves one-argument functions only: not reached.)
        one_argument!(
            f,
            both,
            unreachable!("the two-argument functions have no eight-lane form")
        )
    }

    /// Which lanes of `x` (and `y`) the AVX2 form of `f` computes itself
    /// (bit k for lane k), for the tests: a form whose mask never held a
    /// lane would still give the scalar bits, by the scalar function.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(test)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn handled_lanes(f: Function, x: [f64; 4], y: [f64; 4]) -> i32 {
        // SAFETY: `x` and `y` hold four doubles (unaligned loads).
        let (v, w) = unsafe { (_mm256_loadu_pd(x.as_ptr()), _mm256_loadu_pd(y.as_ptr())) };
        macro_rules! mask {
            ($g:expr) => {
                $g(v).1
            };
        }
        macro_rules! mask2 {
            ($g:expr) => {
                $g(v, w).1
            };
        }
        let handled = one_argument!(f, mask, two_arguments!(f, mask2));
        _mm256_movemask_pd(_mm256_castsi256_pd(handled))
    }

    /// Two-argument function `f` (`pow`, `atan2`, `hypot`) on the four lanes of `x_lo`/`x_hi`
    /// and `y_lo`/`y_hi`, stored to `out`, as [`unary`].
    ///
    /// # Safety
    /// As [`unary`].
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn binary(
        f: Function,
        x_lo: __m128d,
        x_hi: __m128d,
        y_lo: __m128d,
        y_hi: __m128d,
        out: *mut f64,
    ) {
        let (v, w) = (_mm256_set_m128d(x_hi, x_lo), _mm256_set_m128d(y_hi, y_lo));
        macro_rules! two {
            ($g:expr) => {
                // SAFETY: the caller passes four writable doubles.
                unsafe { store(f, $g(v, w), v, w, out) }
            };
        }
        two_arguments!(f, two)
    }

    /// `f` on the four lanes of `x` (and `y` for the two-argument functions): the
    /// AVX2 form's results, the scalar function's on the lanes the form
    /// leaves to it (each lane bitwise the scalar function's). For the
    /// `float` forms of `crate::libm_float_lanes`.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn lanes(f: Function, x: __m256d, y: __m256d) -> __m256d {
        // Each arm finishes its own lanes (see `unary`).
        macro_rules! value {
            ($g:expr) => {
                merged(f, $g(x), x, y)
            };
        }
        macro_rules! value2 {
            ($g:expr) => {
                merged(f, $g(x, y), x, y)
            };
        }
        one_argument!(f, value, two_arguments!(f, value2))
    }

    /// [`lanes`] on two sets of four lanes (`x0`, `y0` and `x1`, `y1`), the
    /// two computations side by side (independent dependency chains, as
    /// [`unary_both`]'s).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn lanes_both(
        f: Function,
        (x0, y0): (__m256d, __m256d),
        (x1, y1): (__m256d, __m256d),
    ) -> (__m256d, __m256d) {
        macro_rules! both {
            ($g:expr) => {{
                let (r0, r1) = ($g(x0), $g(x1));
                (merged(f, r0, x0, y0), merged(f, r1, x1, y1))
            }};
        }
        macro_rules! both2 {
            ($g:expr) => {{
                let (r0, r1) = ($g(x0, y0), $g(x1, y1));
                (merged(f, r0, x0, y0), merged(f, r1, x1, y1))
            }};
        }
        one_argument!(f, both, two_arguments!(f, both2))
    }

    /// The results `r` of `f` on `x` (and `y`), but the scalar function's
    /// on the lanes not set in `handled`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn merged(f: Function, (r, handled): (__m256d, __m256i), x: __m256d, y: __m256d) -> __m256d {
        let handled = _mm256_movemask_pd(_mm256_castsi256_pd(handled));
        if handled == 0b1111 {
            return r;
        }
        let mut out = [0.0f64; 4];
        // SAFETY: `out` holds four doubles (unaligned accesses).
        unsafe {
            _mm256_storeu_pd(out.as_mut_ptr(), r);
            others(f, x, y, handled, out.as_mut_ptr());
            _mm256_loadu_pd(out.as_ptr())
        }
    }

    /// Stores the results `y` of `f` on `x` (and `y` for `pow`) to `out`,
    /// then the scalar function's for the lanes not set in `handled`.
    ///
    /// # Safety
    /// `out` must be valid for writes of four `f64`s (any alignment).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(f: Function, (r, handled): (__m256d, __m256i), x: __m256d, y: __m256d, out: *mut f64) {
        // SAFETY: the caller passes four writable doubles.
        unsafe { _mm256_storeu_pd(out, r) };
        let handled = _mm256_movemask_pd(_mm256_castsi256_pd(handled));
        if handled != 0b1111 {
            // SAFETY: as above.
            unsafe { others(f, x, y, handled, out) };
        }
    }

    /// The scalar function `f` on the lanes of `x` (and `y`) whose bit in
    /// `handled` is clear, stored to their places in `out`.
    ///
    /// # Safety
    /// `out` must be valid for writes of four `f64`s (any alignment).
    #[cold]
    #[target_feature(enable = "avx2")]
    unsafe fn others(f: Function, x: __m256d, y: __m256d, handled: i32, out: *mut f64) {
        let (mut xs, mut ys) = ([0.0f64; 4], [0.0f64; 4]);
        // SAFETY: `xs` and `ys` hold four doubles (unaligned stores); the
        // caller passes four writable ones at `out`.
        unsafe {
            _mm256_storeu_pd(xs.as_mut_ptr(), x);
            _mm256_storeu_pd(ys.as_mut_ptr(), y);
            for lane in 0..4 {
                if handled & (1 << lane) == 0 {
                    *out.add(lane) = f.call(xs[lane], ys[lane]);
                }
            }
        }
    }

    /// Every 64-bit lane `c`.
    #[target_feature(enable = "avx2")]
    fn int(c: i64) -> __m256i {
        _mm256_set1_epi64x(c)
    }

    /// Every lane `c`.
    #[target_feature(enable = "avx2")]
    fn splat(c: f64) -> __m256d {
        _mm256_set1_pd(c)
    }

    /// The high 32 bits of each lane's bits, zero-extended to 64.
    #[target_feature(enable = "avx2")]
    fn high_words(v: __m256d) -> __m256i {
        _mm256_srli_epi64::<32>(_mm256_castpd_si256(v))
    }

    /// Lanes (integers below 2^31 in magnitude in 64-bit lanes) as doubles.
    #[target_feature(enable = "avx2")]
    fn to_double(k: __m256i) -> __m256d {
        // The low halves of the four 64-bit lanes, as four i32s.
        let low = _mm256_permutevar8x32_epi32(k, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
        _mm256_cvtepi32_pd(_mm256_castsi256_si128(low))
    }

    /// The reduction `exp` and [`expm1`] share, x = k ln2 + (hi - lo), for
    /// `ahx` the high words of |x|: k = (x / ln2 + (x < 0 ? -1/2 : 1/2))
    /// truncated for |x| >= 1.5 ln2, 1 - 2 sign for |x| > 0.5 ln2, else 0
    /// (blendv picks on x's sign bit); hi = x - k ln2hi, lo = k ln2lo, r =
    /// hi - lo (k = 0: hi = r = x, lo = +0, as the scalar paths have them).
    /// Returns k (an integral double), hi, lo and r.
    #[target_feature(enable = "avx2")]
    fn reduce_ln2(x: __m256d, ahx: __m256i) -> (__m256d, __m256d, __m256d, __m256d) {
        let half = _mm256_blendv_pd(splat(0.5), splat(-0.5), x);
        let t = _mm256_add_pd(_mm256_mul_pd(splat(INVLN2), x), half);
        let k_far = _mm256_round_pd::<{ _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC }>(t);
        let k_near = _mm256_blendv_pd(splat(1.0), splat(-1.0), x);
        let far = _mm256_castsi256_pd(_mm256_cmpgt_epi64(ahx, int(0x3ff0_a2b1)));
        let near = _mm256_castsi256_pd(_mm256_cmpgt_epi64(ahx, int(0x3fd6_2e42)));
        let kd = _mm256_blendv_pd(_mm256_and_pd(near, k_near), k_far, far);
        let hi = _mm256_sub_pd(x, _mm256_mul_pd(kd, splat(LN2HI)));
        let lo = _mm256_mul_pd(kd, splat(LN2LO));
        (kd, hi, lo, _mm256_sub_pd(hi, lo))
    }

    /// `exp` of the lanes of `x` with 2^-28 < |x| < 708.39... (the lanes
    /// set in the mask); other lanes get arbitrary values.
    #[target_feature(enable = "avx2")]
    fn exp(x: __m256d) -> (__m256d, __m256i) {
        let ahx = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        // 2^-28 < |x| < 708.39...: the general path (k may be 0).
        let handled = _mm256_andnot_si256(
            _mm256_cmpgt_epi64(ahx, int(0x4086_232a)),
            _mm256_cmpgt_epi64(ahx, int(0x3e30_0000)),
        );
        let (kd, hi, lo, r) = reduce_ln2(x, ahx);
        let xx = _mm256_mul_pd(r, r);
        let mut p = _mm256_mul_pd(xx, splat(P5));
        p = _mm256_mul_pd(xx, _mm256_add_pd(splat(P4), p));
        p = _mm256_mul_pd(xx, _mm256_add_pd(splat(P3), p));
        p = _mm256_mul_pd(xx, _mm256_add_pd(splat(P2), p));
        p = _mm256_mul_pd(xx, _mm256_add_pd(splat(P1), p));
        let c = _mm256_sub_pd(r, p);
        // 1 + (r c / (2 - c) - lo + hi)
        let q = _mm256_div_pd(_mm256_mul_pd(r, c), _mm256_sub_pd(splat(2.0), c));
        let y = _mm256_add_pd(splat(1.0), _mm256_add_pd(_mm256_sub_pd(q, lo), hi));
        // times 2^k (|k| <= 1022: one multiplication, as in `scalbn`; 1
        // for k = 0, where the scalar path returns y itself).
        // (k + 1.5 2^52 has k in its low bits, two's complement; the
        // shift drops the bits above.)
        let shifted = _mm256_castpd_si256(_mm256_add_pd(kd, splat(SHIFT)));
        let scale = _mm256_slli_epi64::<52>(_mm256_add_epi64(shifted, int(1023)));
        (_mm256_mul_pd(y, _mm256_castsi256_pd(scale)), handled)
    }

    /// The reduction `log`, `log2` and `log10` share, for the lanes of `x`
    /// that are positive, normal and finite (the mask; other lanes get
    /// arbitrary values): x = 2^k (1 + f) with 1 + f in [sqrt(1/2),
    /// sqrt(2)), hfsq = f^2 / 2, s = f / (2 + f) and the polynomial part
    /// r, as the scalar functions compute them.
    #[target_feature(enable = "avx2")]
    fn log_parts(x: __m256d) -> LogParts {
        let bits = _mm256_castpd_si256(x);
        let hx = high_words(x);
        // 0x00100000 <= hx < 0x7ff00000 (a set sign bit makes hx larger).
        let handled = _mm256_andnot_si256(
            _mm256_cmpgt_epi64(hx, int(0x7fef_ffff)),
            _mm256_cmpgt_epi64(hx, int(0x000f_ffff)),
        );
        // x into [sqrt(2)/2, sqrt(2)) on the high word: k is the exponent.
        let h = _mm256_add_epi64(hx, int(0x3ff0_0000 - 0x3fe6_a09e));
        let k = _mm256_sub_epi64(_mm256_srli_epi64::<20>(h), int(0x3ff));
        let h = _mm256_add_epi64(_mm256_and_si256(h, int(0x000f_ffff)), int(0x3fe6_a09e));
        let m = _mm256_or_si256(_mm256_slli_epi64::<32>(h), _mm256_and_si256(bits, int(0xffff_ffff)));
        let m = _mm256_castsi256_pd(m);
        let f = _mm256_sub_pd(m, splat(1.0));
        let hfsq = _mm256_mul_pd(_mm256_mul_pd(splat(0.5), f), f);
        let s = _mm256_div_pd(f, _mm256_add_pd(splat(2.0), f));
        let z = _mm256_mul_pd(s, s);
        let w = _mm256_mul_pd(z, z);
        // t1 = w (LG2 + w (LG4 + w LG6)), t2 = z (LG1 + w (LG3 + w (LG5 + w LG7)))
        let mut t1 = _mm256_mul_pd(w, splat(LG6));
        t1 = _mm256_mul_pd(w, _mm256_add_pd(splat(LG4), t1));
        t1 = _mm256_mul_pd(w, _mm256_add_pd(splat(LG2), t1));
        let mut t2 = _mm256_mul_pd(w, splat(LG7));
        t2 = _mm256_mul_pd(w, _mm256_add_pd(splat(LG5), t2));
        t2 = _mm256_mul_pd(w, _mm256_add_pd(splat(LG3), t2));
        t2 = _mm256_mul_pd(z, _mm256_add_pd(splat(LG1), t2));
        LogParts {
            f,
            hfsq,
            s,
            r: _mm256_add_pd(t2, t1),
            dk: to_double(k),
            handled,
        }
    }

    /// What [`log_parts`] computes.
    struct LogParts {
        f: __m256d,
        hfsq: __m256d,
        s: __m256d,
        r: __m256d,
        dk: __m256d,
        handled: __m256i,
    }

    /// `log` of the lanes of `x` that are positive, normal and finite
    /// (the lanes set in the mask); other lanes get arbitrary values.
    #[target_feature(enable = "avx2")]
    fn log(x: __m256d) -> (__m256d, __m256i) {
        let LogParts {
            f,
            hfsq,
            s,
            r,
            dk,
            handled,
        } = log_parts(x);
        // s (hfsq + r) + dk ln2lo - hfsq + f + dk ln2hi, left to right
        // (log.rs's LN2_HI and LN2_LO are exp.rs's LN2HI and LN2LO).
        let mut y = _mm256_mul_pd(s, _mm256_add_pd(hfsq, r));
        y = _mm256_add_pd(y, _mm256_mul_pd(dk, splat(LN2LO)));
        y = _mm256_sub_pd(y, hfsq);
        y = _mm256_add_pd(y, f);
        y = _mm256_add_pd(y, _mm256_mul_pd(dk, splat(LN2HI)));
        (y, handled)
    }

    /// log(1 + f) as hi + lo, hi with its low 32 bits cleared (log2.rs and
    /// log10.rs): hi = f - hfsq truncated, lo = f - hi - hfsq + s (hfsq +
    /// r).
    #[target_feature(enable = "avx2")]
    fn log1p_hi_lo(p: &LogParts) -> (__m256d, __m256d) {
        let hi = _mm256_sub_pd(p.f, p.hfsq);
        let hi = _mm256_castsi256_pd(_mm256_and_si256(_mm256_castpd_si256(hi), int(-1i64 << 32)));
        let lo = _mm256_sub_pd(_mm256_sub_pd(p.f, hi), p.hfsq);
        let lo = _mm256_add_pd(lo, _mm256_mul_pd(p.s, _mm256_add_pd(p.hfsq, p.r)));
        (hi, lo)
    }

    /// The end both log2 and log10 share: y + val_hi + val_lo with the
    /// rounding error of the first sum carried into the second.
    #[target_feature(enable = "avx2")]
    fn sum_carried(y: __m256d, val_hi: __m256d, val_lo: __m256d) -> __m256d {
        let w = _mm256_add_pd(y, val_hi);
        let val_lo = _mm256_add_pd(val_lo, _mm256_add_pd(_mm256_sub_pd(y, w), val_hi));
        _mm256_add_pd(val_lo, w)
    }

    /// `log2` of the lanes of `x` that are positive, normal and finite
    /// (the lanes set in the mask); other lanes get arbitrary values.
    #[target_feature(enable = "avx2")]
    fn log2(x: __m256d) -> (__m256d, __m256i) {
        let p = log_parts(x);
        let (hi, lo) = log1p_hi_lo(&p);
        let val_hi = _mm256_mul_pd(hi, splat(IVLN2HI));
        let val_lo = _mm256_add_pd(
            _mm256_mul_pd(_mm256_add_pd(lo, hi), splat(IVLN2LO)),
            _mm256_mul_pd(lo, splat(IVLN2HI)),
        );
        (sum_carried(p.dk, val_hi, val_lo), p.handled)
    }

    /// `log10` of the lanes of `x` that are positive, normal and finite
    /// (the lanes set in the mask); other lanes get arbitrary values.
    #[target_feature(enable = "avx2")]
    fn log10(x: __m256d) -> (__m256d, __m256i) {
        let p = log_parts(x);
        let (hi, lo) = log1p_hi_lo(&p);
        let val_hi = _mm256_mul_pd(hi, splat(IVLN10HI));
        let y = _mm256_mul_pd(p.dk, splat(LOG10_2HI));
        // dk log10_2lo + (lo + hi) ivln10lo + lo ivln10hi, left to right
        let val_lo = _mm256_add_pd(
            _mm256_mul_pd(p.dk, splat(LOG10_2LO)),
            _mm256_mul_pd(_mm256_add_pd(lo, hi), splat(IVLN10LO)),
        );
        let val_lo = _mm256_add_pd(val_lo, _mm256_mul_pd(lo, splat(IVLN10HI)));
        (sum_carried(y, val_hi, val_lo), p.handled)
    }

    /// `expm1` of the lanes of `x` with |x| < 56 ln2 (high word of |x|
    /// below 0x4043687a; the lanes set in the mask; others, NaNs among
    /// them, get arbitrary values): x itself below 2^-54; else the
    /// reduction x = k ln2 + r (k = 0 up to 0.5 ln2, +-1 up to 1.5 ln2,
    /// else `x / ln2 +- 1/2` truncated) with its correction c, the
    /// rational approximation of e^r - 1 in the scaled Q's, then each of
    /// the scalar function's assemblies by k (0, -1, 1 split at x = -0.25,
    /// other negative k, 2 to 19, 20 and up), as it picks them.
    #[target_feature(enable = "avx2")]
    fn expm1(x: __m256d) -> (__m256d, __m256i) {
        const Q1: f64 = -3.33333333333331316428e-02;
        const Q2: f64 = 1.58730158725481460165e-03;
        const Q3: f64 = -7.93650757867487942473e-05;
        const Q4: f64 = 4.00821782732936239552e-06;
        const Q5: f64 = -2.01099218183624371326e-07;
        let hx = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let handled = below(hx, 0x4043_687a);
        let tiny = below(hx, 0x3c90_0000);
        // k as in `exp` (the same thresholds and rounding), and the
        // reduced x with its correction c (k = 0: x itself, c = +0, as
        // the scalar path has them).
        let (kd, hi, lo, r) = reduce_ln2(x, hx);
        let c = _mm256_sub_pd(_mm256_sub_pd(hi, r), lo);
        // k as a 64-bit integer (|k| <= 56 here).
        let k = _mm256_sub_epi64(
            _mm256_castpd_si256(_mm256_add_pd(kd, splat(SHIFT))),
            _mm256_castpd_si256(splat(SHIFT)),
        );
        let hfx = _mm256_mul_pd(splat(0.5), r);
        let hxs = _mm256_mul_pd(r, hfx);
        let mut p = _mm256_add_pd(splat(Q4), _mm256_mul_pd(hxs, splat(Q5)));
        p = _mm256_add_pd(splat(Q3), _mm256_mul_pd(hxs, p));
        p = _mm256_add_pd(splat(Q2), _mm256_mul_pd(hxs, p));
        p = _mm256_add_pd(splat(Q1), _mm256_mul_pd(hxs, p));
        let r1 = _mm256_add_pd(splat(1.0), _mm256_mul_pd(hxs, p));
        let t = _mm256_sub_pd(splat(3.0), _mm256_mul_pd(r1, hfx));
        let e = _mm256_mul_pd(
            hxs,
            _mm256_div_pd(_mm256_sub_pd(r1, t), _mm256_sub_pd(splat(6.0), _mm256_mul_pd(r, t))),
        );
        // k = 0: x - (x e - hxs).
        let k0 = _mm256_sub_pd(r, _mm256_sub_pd(_mm256_mul_pd(r, e), hxs));
        // The others: e = x (e - c) - c - hxs.
        let e = _mm256_sub_pd(_mm256_sub_pd(_mm256_mul_pd(r, _mm256_sub_pd(e, c)), c), hxs);
        let x_e = _mm256_sub_pd(r, e);
        // k = -1: 0.5 (x - e) - 0.5.
        let km1 = _mm256_sub_pd(_mm256_mul_pd(splat(0.5), x_e), splat(0.5));
        // k = 1: -2 (e - (x + 0.5)) for x < -0.25, else 1 + 2 (x - e).
        let k1 = pick(
            _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_LT_OQ>(r, splat(-0.25))),
            _mm256_mul_pd(splat(-2.0), _mm256_sub_pd(e, _mm256_add_pd(r, splat(0.5)))),
            _mm256_add_pd(splat(1.0), _mm256_mul_pd(splat(2.0), x_e)),
        );
        let twopk = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_add_epi64(k, int(0x3ff))));
        // Other negative k: (x - e + 1) 2^k - 1.
        let kneg = _mm256_sub_pd(_mm256_mul_pd(_mm256_add_pd(x_e, splat(1.0)), twopk), splat(1.0));
        // k = 2 .. 19: (x - e + (1 - 2^-k)) 2^k; 20 and up: (x - (e +
        // 2^-k) + 1) 2^k.
        let uf = _mm256_castsi256_pd(_mm256_slli_epi64::<52>(_mm256_sub_epi64(int(0x3ff), k)));
        let klow = _mm256_mul_pd(_mm256_add_pd(x_e, _mm256_sub_pd(splat(1.0), uf)), twopk);
        let khigh = _mm256_mul_pd(_mm256_add_pd(_mm256_sub_pd(r, _mm256_add_pd(e, uf)), splat(1.0)), twopk);
        let mut y = pick(_mm256_cmpgt_epi64(int(20), k), klow, khigh);
        y = pick(_mm256_cmpgt_epi64(int(0), k), kneg, y);
        y = pick(equal(k, 1), k1, y);
        y = pick(equal(k, -1), km1, y);
        y = pick(equal(k, 0), k0, y);
        (pick(tiny, x, y), handled)
    }

    /// `tanh` of the lanes of `x` with |x| < 19.4 (2|x| within
    /// [`expm1`]'s lanes; the mask; others, NaNs among them, get
    /// arbitrary values), as the scalar function computes it on |x|:
    /// above log(3)/2 1 - 2/(expm1(2|x|) + 2), above log(5/3)/2 t/(t + 2)
    /// with t = expm1(2|x|), down to 2^-1022 -t/(t + 2) with t =
    /// expm1(-2|x|), below |x| itself; x's sign on the result.
    #[target_feature(enable = "avx2")]
    fn tanh(x: __m256d) -> (__m256d, __m256i) {
        let sign = _mm256_and_pd(x, splat(-0.0));
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let w = high_words(ax);
        let big = _mm256_cmpgt_epi64(w, int(0x3fe1_93ea));
        let mid = _mm256_cmpgt_epi64(w, int(0x3fd0_58ae));
        let sub = below(w, 0x0010_0000);
        let two = _mm256_mul_pd(splat(2.0), ax);
        let minus_two = _mm256_mul_pd(splat(-2.0), ax);
        let (t, handled) = expm1(pick(mid, two, minus_two));
        let t2 = _mm256_add_pd(t, splat(2.0));
        let mut r = _mm256_div_pd(negate(t), t2);
        r = pick(mid, _mm256_div_pd(t, t2), r);
        r = pick(big, _mm256_sub_pd(splat(1.0), _mm256_div_pd(splat(2.0), t2)), r);
        r = pick(sub, ax, r);
        // (x's sign flips the result's, as the scalar `-t` does.)
        (_mm256_xor_pd(r, sign), _mm256_or_si256(handled, sub))
    }

    /// `sinh` of the lanes of `x` with |x| < 56 ln2 ([`expm1`]'s lanes;
    /// the mask; others, NaNs among them, get arbitrary values), as the
    /// scalar function computes it from t = expm1(|x|) and h = +-0.5 by
    /// x's sign: x itself below 2^-26, h (2t - t^2/(t + 1)) below 1, h (t
    /// + t/(t + 1)) above.
    #[target_feature(enable = "avx2")]
    fn sinh(x: __m256d) -> (__m256d, __m256i) {
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let h = _mm256_or_pd(splat(0.5), _mm256_and_pd(x, splat(-0.0)));
        let w = high_words(ax);
        let (t, handled) = expm1(ax);
        let t1 = _mm256_add_pd(t, splat(1.0));
        let small = _mm256_sub_pd(_mm256_mul_pd(splat(2.0), t), _mm256_div_pd(_mm256_mul_pd(t, t), t1));
        let large = _mm256_add_pd(t, _mm256_div_pd(t, t1));
        let r = _mm256_mul_pd(h, pick(below(w, 0x3ff0_0000), small, large));
        (pick(below(w, 0x3e50_0000), x, r), handled)
    }

    /// `cosh` of the lanes of `x` the scalar function computes by
    /// [`expm1`] or [`exp`] where those handle |x| (the mask; others,
    /// NaNs among them, get arbitrary values): 1 below 2^-26, 1 + t^2/(2
    /// (1 + t)) with t = expm1(|x|) below log(2), 0.5 (t + 1/t) with t =
    /// exp(|x|) below log(DBL_MAX) (a function no lane needs is not
    /// computed).
    #[target_feature(enable = "avx2")]
    fn cosh(x: __m256d) -> (__m256d, __m256i) {
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let w = high_words(ax);
        let one = below(w, 0x3e50_0000);
        let near = _mm256_andnot_si256(one, below(w, 0x3fe6_2e42));
        let far = _mm256_andnot_si256(below(w, 0x3fe6_2e42), below(w, 0x4086_2e42));
        let mut r = splat(1.0);
        let mut handled = one;
        if !none(near) {
            let (t, h) = expm1(ax);
            let v = _mm256_add_pd(
                splat(1.0),
                _mm256_div_pd(
                    _mm256_mul_pd(t, t),
                    _mm256_mul_pd(splat(2.0), _mm256_add_pd(splat(1.0), t)),
                ),
            );
            r = pick(near, v, r);
            handled = _mm256_or_si256(handled, _mm256_and_si256(near, h));
        }
        if !none(far) {
            let (t, h) = exp(ax);
            let v = _mm256_mul_pd(splat(0.5), _mm256_add_pd(t, _mm256_div_pd(splat(1.0), t)));
            r = pick(far, v, r);
            handled = _mm256_or_si256(handled, _mm256_and_si256(far, h));
        }
        (r, handled)
    }

    /// `log1p` of the lanes of `x` above -1 and finite (the mask; others
    /// get arbitrary values), as the scalar function computes it: x itself
    /// for |x| < 2^-53; f = x, c = 0, k = 0 for -0.2929 <= x < 0.4142;
    /// else u = 1 + x reduced to [sqrt(2)/2, sqrt(2)) on its high word (k
    /// its exponent, f = u' - 1) with the correction c = (1 - (u - x)) / u
    /// for k >= 2, (x - (u - 1)) / u below, 0 from 54 on; then the
    /// polynomial in s = f / (2 + f) and k ln2 in two parts, the same
    /// expression for every lane (k = 0 and c = 0 add exact zeros where the
    /// scalar function has them too).
    #[target_feature(enable = "avx2")]
    fn log1p(x: __m256d) -> (__m256d, __m256i) {
        let hx = high_words(x);
        let small = _mm256_or_si256(below(hx, 0x3fda_827a), _mm256_cmpgt_epi64(hx, int(0x7fff_ffff)));
        let tiny = below(_mm256_and_si256(hx, int(0x7fff_ffff)), 0x3ca0_0000);
        let at_most_minus_one = _mm256_cmpgt_epi64(hx, int(0xbfef_ffff));
        let non_finite = _mm256_andnot_si256(small, _mm256_cmpgt_epi64(hx, int(0x7fef_ffff)));
        let handled = _mm256_xor_si256(_mm256_or_si256(at_most_minus_one, non_finite), int(-1));
        let k0 = _mm256_and_si256(small, below(hx, 0xbfd2_bec5));
        // The reduction of u = 1 + x.
        let u = _mm256_add_pd(splat(1.0), x);
        let hu = _mm256_add_epi64(high_words(u), int(0x3ff0_0000 - 0x3fe6_a09e));
        let k = _mm256_sub_epi64(_mm256_srli_epi64::<20>(hu), int(0x3ff));
        let c_big = _mm256_sub_pd(splat(1.0), _mm256_sub_pd(u, x));
        let c_small = _mm256_sub_pd(x, _mm256_sub_pd(u, splat(1.0)));
        let c = _mm256_div_pd(pick(_mm256_cmpgt_epi64(k, int(1)), c_big, c_small), u);
        let c = _mm256_and_pd(c, _mm256_castsi256_pd(below(k, 54)));
        let reduced = _mm256_or_si256(
            _mm256_slli_epi64::<32>(_mm256_add_epi64(
                _mm256_and_si256(hu, int(0x000f_ffff)),
                int(0x3fe6_a09e),
            )),
            _mm256_and_si256(_mm256_castpd_si256(u), int(0xffff_ffff)),
        );
        let f_u = _mm256_sub_pd(_mm256_castsi256_pd(reduced), splat(1.0));
        let f = pick(k0, x, f_u);
        let c = _mm256_andnot_pd(_mm256_castsi256_pd(k0), c);
        let dk = _mm256_andnot_pd(_mm256_castsi256_pd(k0), to_double(k));
        let hfsq = _mm256_mul_pd(_mm256_mul_pd(splat(0.5), f), f);
        let s = _mm256_div_pd(f, _mm256_add_pd(splat(2.0), f));
        let z = _mm256_mul_pd(s, s);
        let w = _mm256_mul_pd(z, z);
        let t1 = _mm256_mul_pd(
            w,
            _mm256_add_pd(
                splat(LG2),
                _mm256_mul_pd(w, _mm256_add_pd(splat(LG4), _mm256_mul_pd(w, splat(LG6)))),
            ),
        );
        let t2 = _mm256_mul_pd(
            z,
            _mm256_add_pd(
                splat(LG1),
                _mm256_mul_pd(
                    w,
                    _mm256_add_pd(
                        splat(LG3),
                        _mm256_mul_pd(w, _mm256_add_pd(splat(LG5), _mm256_mul_pd(w, splat(LG7)))),
                    ),
                ),
            ),
        );
        let r = _mm256_add_pd(t2, t1);
        let mut y = _mm256_mul_pd(s, _mm256_add_pd(hfsq, r));
        y = _mm256_add_pd(y, _mm256_add_pd(_mm256_mul_pd(dk, splat(LN2LO)), c));
        y = _mm256_add_pd(_mm256_sub_pd(y, hfsq), f);
        y = _mm256_add_pd(y, _mm256_mul_pd(dk, splat(LN2HI)));
        (pick(tiny, x, y), handled)
    }

    /// `atan2(y, x)` of the lanes where both are finite and non-zero and
    /// x is not 1 (the mask; the others, which the scalar function answers
    /// by its special cases, get arbitrary values): +-pi/2 where |y/x| >
    /// 2^64 (by the high words), else z = atan(|y/x|) (0 where x < 0 and
    /// |y/x| < 2^-64), then z, -z, pi - (z - pi_lo) or (z - pi_lo) - pi by
    /// the signs of y and x, as the scalar function picks them.
    #[target_feature(enable = "avx2")]
    fn atan2(y: __m256d, x: __m256d) -> (__m256d, __m256i) {
        const PI: f64 = 3.1415926535897931160E+00;
        const PI_LO: f64 = 1.2246467991473531772E-16;
        let (iy, ix) = (high_words(y), high_words(x));
        let (ay, ax) = (
            _mm256_and_si256(iy, int(0x7fff_ffff)),
            _mm256_and_si256(ix, int(0x7fff_ffff)),
        );
        let finite_non_zero = |v: __m256d, a: __m256i| {
            let zero = _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_EQ_OQ>(v, splat(0.0)));
            _mm256_andnot_si256(zero, below(a, 0x7ff0_0000))
        };
        let x_is_one = _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_EQ_OQ>(x, splat(1.0)));
        let handled = _mm256_andnot_si256(
            x_is_one,
            _mm256_and_si256(finite_non_zero(y, ay), finite_non_zero(x, ax)),
        );
        let y_neg = _mm256_cmpgt_epi64(iy, int(0x7fff_ffff));
        let x_neg = _mm256_cmpgt_epi64(ix, int(0x7fff_ffff));
        let steep = _mm256_cmpgt_epi64(ay, _mm256_add_epi64(ax, int(64 << 20)));
        let flat = _mm256_and_si256(x_neg, _mm256_cmpgt_epi64(ax, _mm256_add_epi64(ay, int(64 << 20))));
        let (z, _) = atan(_mm256_andnot_pd(splat(-0.0), _mm256_div_pd(y, x)));
        let z = _mm256_andnot_pd(_mm256_castsi256_pd(flat), z);
        let left_up = _mm256_sub_pd(splat(PI), _mm256_sub_pd(z, splat(PI_LO)));
        let left_down = _mm256_sub_pd(_mm256_sub_pd(z, splat(PI_LO)), splat(PI));
        let right = pick(y_neg, negate(z), z);
        let mut r = pick(x_neg, pick(y_neg, left_down, left_up), right);
        r = pick(steep, pick(y_neg, splat(-PI / 2.0), splat(PI / 2.0)), r);
        (r, handled)
    }

    /// `asinh` of the lanes of `x` whose path through [`log`] or
    /// [`log1p`] those handle (the mask; others, NaNs and infinities among
    /// them, get arbitrary values), as the scalar function computes it on
    /// |x| by its exponent e: log(|x|) + ln2 from 2^26, log(2|x| +
    /// 1/(sqrt(x^2 + 1) + |x|)) from 2, log1p(|x| + x^2/(sqrt(x^2 + 1) +
    /// 1)) from 2^-26, |x| below; x's sign on the result.
    #[target_feature(enable = "avx2")]
    fn asinh(x: __m256d) -> (__m256d, __m256i) {
        const LN2: f64 = 0.693147180559945309417232121458176568;
        let sign = _mm256_and_pd(x, splat(-0.0));
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let e = exponent(ax);
        let huge = _mm256_cmpgt_epi64(e, int(0x3ff + 25));
        let big = _mm256_andnot_si256(huge, _mm256_cmpgt_epi64(e, int(0x3ff)));
        let mid = _mm256_andnot_si256(_mm256_or_si256(huge, big), _mm256_cmpgt_epi64(e, int(0x3ff - 27)));
        let tiny = below(e, 0x3ff - 26);
        let xx = _mm256_mul_pd(ax, ax);
        let root = _mm256_sqrt_pd(_mm256_add_pd(xx, splat(1.0)));
        let mut r = ax;
        let mut handled = tiny;
        if !none(_mm256_or_si256(huge, big)) {
            let big_arg = _mm256_add_pd(
                _mm256_mul_pd(splat(2.0), ax),
                _mm256_div_pd(splat(1.0), _mm256_add_pd(root, ax)),
            );
            let (l, h) = log(pick(huge, ax, big_arg));
            r = pick(huge, _mm256_add_pd(l, splat(LN2)), pick(big, l, r));
            handled = _mm256_or_si256(handled, _mm256_and_si256(_mm256_or_si256(huge, big), h));
        }
        if !none(mid) {
            let arg = _mm256_add_pd(ax, _mm256_div_pd(xx, _mm256_add_pd(root, splat(1.0))));
            let (l, h) = log1p(arg);
            r = pick(mid, l, r);
            handled = _mm256_or_si256(handled, _mm256_and_si256(mid, h));
        }
        (_mm256_xor_pd(r, sign), handled)
    }

    /// `acosh` of the lanes of `x` at least 1 whose path through [`log`]
    /// or [`log1p`] those handle (the mask; others, below 1 and NaNs among
    /// them, get arbitrary values): log1p(x - 1 + sqrt((x - 1)^2 + 2 (x -
    /// 1))) below 2, log(2x - 1/(x + sqrt(x^2 - 1))) below 2^26, log(x) +
    /// ln2 above, as the scalar function computes them.
    #[target_feature(enable = "avx2")]
    fn acosh(x: __m256d) -> (__m256d, __m256i) {
        const LN2: f64 = 0.693147180559945309417232121458176568;
        let at_least_one = _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_GE_OQ>(x, splat(1.0)));
        let e = exponent(x);
        let near = below(e, 0x3ff + 1);
        let huge = _mm256_cmpgt_epi64(e, int(0x3ff + 25));
        let mid = _mm256_andnot_si256(_mm256_or_si256(near, huge), int(-1));
        let mut r = splat(0.0);
        let mut handled = _mm256_setzero_si256();
        if !none(_mm256_or_si256(mid, huge)) {
            let root = _mm256_sqrt_pd(_mm256_sub_pd(_mm256_mul_pd(x, x), splat(1.0)));
            let mid_arg = _mm256_sub_pd(
                _mm256_mul_pd(splat(2.0), x),
                _mm256_div_pd(splat(1.0), _mm256_add_pd(x, root)),
            );
            let (l, h) = log(pick(huge, x, mid_arg));
            r = pick(huge, _mm256_add_pd(l, splat(LN2)), l);
            handled = _mm256_andnot_si256(near, h);
        }
        if !none(near) {
            let t = _mm256_sub_pd(x, splat(1.0));
            let root = _mm256_sqrt_pd(_mm256_add_pd(_mm256_mul_pd(t, t), _mm256_mul_pd(splat(2.0), t)));
            let (l, h) = log1p(_mm256_add_pd(t, root));
            r = pick(near, l, r);
            handled = _mm256_or_si256(handled, _mm256_and_si256(near, h));
        }
        (r, _mm256_and_si256(handled, at_least_one))
    }

    /// `atanh` of the lanes of `x` whose path through [`log1p`] that
    /// handles (the mask; others, |x| >= 1 and NaNs among them, get
    /// arbitrary values), as the scalar function computes it on |x| = y:
    /// y itself below 2^-32, 0.5 log1p(2y + 2y^2/(1 - y)) below 0.5, 0.5
    /// log1p(2 (y/(1 - y))) above; x's sign on the result.
    #[target_feature(enable = "avx2")]
    fn atanh(x: __m256d) -> (__m256d, __m256i) {
        let sign = _mm256_and_pd(x, splat(-0.0));
        let y = _mm256_andnot_pd(splat(-0.0), x);
        let e = exponent(y);
        let tiny = below(e, 0x3ff - 32);
        let small = below(e, 0x3ff - 1);
        let one_minus = _mm256_sub_pd(splat(1.0), y);
        let two_y = _mm256_mul_pd(splat(2.0), y);
        let small_arg = _mm256_add_pd(two_y, _mm256_div_pd(_mm256_mul_pd(two_y, y), one_minus));
        let large_arg = _mm256_mul_pd(splat(2.0), _mm256_div_pd(y, one_minus));
        let (l, h) = log1p(pick(small, small_arg, large_arg));
        let r = pick(tiny, y, _mm256_mul_pd(splat(0.5), l));
        (_mm256_xor_pd(r, sign), _mm256_or_si256(h, tiny))
    }

    /// `m ? a : b` per lane, on a 64-bit lane mask.
    #[target_feature(enable = "avx2")]
    fn pick(m: __m256i, a: __m256d, b: __m256d) -> __m256d {
        _mm256_blendv_pd(b, a, _mm256_castsi256_pd(m))
    }

    /// Each lane of `a` below `c` (both non-negative 64-bit integers).
    #[target_feature(enable = "avx2")]
    fn below(a: __m256i, c: i64) -> __m256i {
        _mm256_cmpgt_epi64(int(c), a)
    }

    /// Each lane of `a` equal to `c`.
    #[target_feature(enable = "avx2")]
    fn equal(a: __m256i, c: i64) -> __m256i {
        _mm256_cmpeq_epi64(a, int(c))
    }

    /// The biased exponent field of each lane.
    #[target_feature(enable = "avx2")]
    fn exponent(v: __m256d) -> __m256i {
        _mm256_and_si256(_mm256_srli_epi64::<52>(_mm256_castpd_si256(v)), int(0x7ff))
    }

    /// `-v`.
    #[target_feature(enable = "avx2")]
    fn negate(v: __m256d) -> __m256d {
        _mm256_xor_pd(v, splat(-0.0))
    }

    /// `libm`'s `rem_pio2` for lanes with pi/4 < |x| < 2^20 pi/2 (`ix` the
    /// high word of |x|; other lanes get arbitrary values): x = n pi/2 +
    /// y0 + y1, n as an integral double. Up to 9pi/4 x - n pi/2 in one
    /// step (pi/2 in two parts), but near pi/2, pi, 3pi/2 and 2pi (whose
    /// cancellation the scalar function sends to its medium path); beyond,
    /// the medium path: n = rint(x 2/pi), then one, two or three rounds
    /// with pi/2 in more parts as the exponent of y0 drops (a lane takes
    /// the scalar function's rounds; a path or round no lane takes is
    /// skipped).
    #[target_feature(enable = "avx2")]
    fn rem_pio2(x: __m256d, ix: __m256i) -> (__m256d, __m256d, __m256d) {
        // Up to 9pi/4: n = +-1 .. +-4 by the bounds on ix, x - n pi/2 with
        // n PIO2_1 exact and n PIO2_1T rounded once (the scalar
        // function's constants).
        let k = _mm256_blendv_pd(
            _mm256_blendv_pd(splat(4.0), splat(3.0), _mm256_castsi256_pd(below(ix, 0x4015_fdbd))),
            _mm256_blendv_pd(splat(2.0), splat(1.0), _mm256_castsi256_pd(below(ix, 0x4002_d97d))),
            _mm256_castsi256_pd(below(ix, 0x400f_6a7b)),
        );
        let n_near = _mm256_or_pd(k, _mm256_and_pd(x, splat(-0.0)));
        let z = _mm256_sub_pd(x, _mm256_mul_pd(n_near, splat(PIO2_1)));
        let c = _mm256_mul_pd(n_near, splat(PIO2_1T));
        let y0_near = _mm256_sub_pd(z, c);
        let y1_near = _mm256_sub_pd(_mm256_sub_pd(z, y0_near), c);
        let cancels = _mm256_or_si256(
            _mm256_and_si256(
                below(ix, 0x400f_6a7b),
                equal(_mm256_and_si256(ix, int(0xfffff)), 0x921fb),
            ),
            _mm256_or_si256(equal(ix, 0x4012_d97c), equal(ix, 0x4019_21fb)),
        );
        let near = _mm256_andnot_si256(cancels, below(ix, 0x401c_463c));
        if all(near) {
            return (n_near, y0_near, y1_near);
        }
        // Medium: n = rint(x 2/pi), then the rounds (the second and third
        // only where a lane takes them).
        let f_n = _mm256_sub_pd(
            _mm256_add_pd(_mm256_mul_pd(x, splat(INV_PIO2)), splat(TO_INT)),
            splat(TO_INT),
        );
        let mut r = _mm256_sub_pd(x, _mm256_mul_pd(f_n, splat(PIO2_1)));
        let mut w = _mm256_mul_pd(f_n, splat(PIO2_1T));
        let mut y0 = _mm256_sub_pd(r, w);
        let ex = _mm256_srli_epi64::<20>(ix);
        let second = _mm256_cmpgt_epi64(_mm256_sub_epi64(ex, exponent(y0)), int(16));
        if !none(second) {
            (r, w, y0) = round(f_n, (r, w, y0), second, PIO2_2, PIO2_2T);
            let third = _mm256_and_si256(second, _mm256_cmpgt_epi64(_mm256_sub_epi64(ex, exponent(y0)), int(49)));
            if !none(third) {
                (r, w, y0) = round(f_n, (r, w, y0), third, PIO2_3, PIO2_3T);
            }
        }
        let y1 = _mm256_sub_pd(_mm256_sub_pd(r, y0), w);
        (
            pick(near, n_near, f_n),
            pick(near, y0_near, y0),
            pick(near, y1_near, y1),
        )
    }

    /// One more round of `rem_pio2`'s medium path from (r, w, y0) in the
    /// lanes of `take`, with pi/2's next parts `p` and `pt` (the other
    /// lanes keep theirs).
    #[target_feature(enable = "avx2")]
    fn round(
        f_n: __m256d,
        (r, w, y0): (__m256d, __m256d, __m256d),
        take: __m256i,
        p: f64,
        pt: f64,
    ) -> (__m256d, __m256d, __m256d) {
        let wn = _mm256_mul_pd(f_n, splat(p));
        let rn = _mm256_sub_pd(r, wn);
        let wn = _mm256_sub_pd(_mm256_mul_pd(f_n, splat(pt)), _mm256_sub_pd(_mm256_sub_pd(r, rn), wn));
        (
            pick(take, rn, r),
            pick(take, wn, w),
            pick(take, _mm256_sub_pd(rn, wn), y0),
        )
    }

    /// Whether every lane of mask `m` is set.
    #[target_feature(enable = "avx2")]
    fn all(m: __m256i) -> bool {
        _mm256_movemask_pd(_mm256_castsi256_pd(m)) == 0b1111
    }

    /// Whether no lane of mask `m` is set.
    #[target_feature(enable = "avx2")]
    fn none(m: __m256i) -> bool {
        _mm256_movemask_pd(_mm256_castsi256_pd(m)) == 0
    }

    /// What [`reduce`] gives.
    struct Reduced {
        /// The high word of |x|.
        ix: __m256i,
        /// |x| < 2^20 pi/2: the lanes sin, cos and tan compute here.
        handled: __m256i,
        /// |x| ~<= pi/4 (no reduction: y0 = x, y1 = 0, n = 0).
        small: __m256i,
        /// n's parity (all ones where odd) and its bit 1: the quadrant.
        odd: __m256i,
        high: __m256i,
        y0: __m256d,
        y1: __m256d,
    }

    /// The argument reduction of sin, cos and tan: x = n pi/2 + y0 + y1
    /// (`rem_pio2`, skipped when every lane is small).
    #[target_feature(enable = "avx2")]
    fn reduce(x: __m256d) -> Reduced {
        let ix = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let handled = below(ix, 0x4139_21fb);
        let small = below(ix, 0x3fe9_21fc);
        let (n, y0, y1) = if all(small) {
            (splat(0.0), x, splat(0.0))
        } else {
            let (n, y0, y1) = rem_pio2(x, ix);
            (
                pick(small, splat(0.0), n),
                pick(small, x, y0),
                pick(small, splat(0.0), y1),
            )
        };
        // The quadrant: n's low bits (two's complement) through n + 1.5 2^52.
        let q = _mm256_castpd_si256(_mm256_add_pd(n, splat(SHIFT)));
        Reduced {
            ix,
            handled,
            small,
            odd: equal(_mm256_and_si256(q, int(1)), 1),
            high: equal(_mm256_and_si256(q, int(2)), 2),
            y0,
            y1,
        }
    }

    /// `tan` of the lanes of `x` with |x| < 2^20 pi/2 (the lanes set in
    /// the mask; others get arbitrary values): x itself below 2^-27, else
    /// `libm`'s kernel on the reduced argument (x, 0 up to pi/4) with n's
    /// parity: near pi/4 (|y0| >= 0.6744) on pi/4 - y instead, the result
    /// from that; for odd n -1/(y0 + r) computed in two parts.
    #[target_feature(enable = "avx2")]
    fn tan(x: __m256d) -> (__m256d, __m256i) {
        const T: [f64; 13] = [
            3.33333333333334091986e-01,
            1.33333333333201242699e-01,
            5.39682539762260521377e-02,
            2.18694882948595424599e-02,
            8.86323982359930005737e-03,
            3.59207910759131235356e-03,
            1.45620945432529025516e-03,
            5.88041240820264096874e-04,
            2.46463134818469906812e-04,
            7.81794442939557092300e-05,
            7.14072491382608190305e-05,
            -1.85586374855275456654e-05,
            2.59073051863633712884e-05,
        ];
        const PIO4: f64 = 7.85398163397448278999e-01;
        const PIO4_LO: f64 = 3.06161699786838301793e-17;
        let Reduced {
            ix,
            handled,
            small,
            odd,
            y0,
            y1,
            ..
        } = reduce(x);
        // k_tan(y0, y1, odd).
        let hx = high_words(y0);
        let big = _mm256_cmpgt_epi64(_mm256_and_si256(hx, int(0x7fff_ffff)), int(0x3fe5_9427));
        let negative = _mm256_castpd_si256(_mm256_and_pd(y0, splat(-0.0)));
        let negative = _mm256_cmpeq_epi64(negative, int(i64::MIN));
        let ax = pick(negative, negate(y0), y0);
        let ay = pick(negative, negate(y1), y1);
        let xb = _mm256_add_pd(_mm256_sub_pd(splat(PIO4), ax), _mm256_sub_pd(splat(PIO4_LO), ay));
        let xk = pick(big, xb, y0);
        let yk = pick(big, splat(0.0), y1);
        let z = _mm256_mul_pd(xk, xk);
        let w = _mm256_mul_pd(z, z);
        // r = T1 + w (T3 + w (T5 + w (T7 + w (T9 + w T11)))),
        // v = z (T2 + w (T4 + w (T6 + w (T8 + w (T10 + w T12))))).
        let mut r = _mm256_mul_pd(w, splat(T[11]));
        for c in [T[9], T[7], T[5], T[3]] {
            r = _mm256_mul_pd(w, _mm256_add_pd(splat(c), r));
        }
        r = _mm256_add_pd(splat(T[1]), r);
        let mut v = _mm256_mul_pd(w, splat(T[12]));
        for c in [T[10], T[8], T[6], T[4]] {
            v = _mm256_mul_pd(w, _mm256_add_pd(splat(c), v));
        }
        v = _mm256_mul_pd(z, _mm256_add_pd(splat(T[2]), v));
        let s = _mm256_mul_pd(z, xk);
        // r = y + z (s (r + v) + y) + s T0
        let r = _mm256_add_pd(
            _mm256_add_pd(
                yk,
                _mm256_mul_pd(z, _mm256_add_pd(_mm256_mul_pd(s, _mm256_add_pd(r, v)), yk)),
            ),
            _mm256_mul_pd(s, splat(T[0])),
        );
        let w = _mm256_add_pd(xk, r);
        // Near pi/4: s = 1 - 2 odd, v = s - 2 (x + (r - w^2 / (w + s))),
        // negated for a negative y0.
        let sgn = pick(odd, splat(-1.0), splat(1.0));
        let vb = _mm256_sub_pd(
            sgn,
            _mm256_mul_pd(
                splat(2.0),
                _mm256_add_pd(
                    xk,
                    _mm256_sub_pd(r, _mm256_div_pd(_mm256_mul_pd(w, w), _mm256_add_pd(w, sgn))),
                ),
            ),
        );
        let near_quarter = pick(negative, negate(vb), vb);
        // Odd n: -1 / w in two parts.
        let w0 = clear_low(w);
        let vo = _mm256_sub_pd(r, _mm256_sub_pd(w0, xk));
        let a = _mm256_div_pd(splat(-1.0), w);
        let a0 = clear_low(a);
        let inverse = _mm256_add_pd(
            a0,
            _mm256_mul_pd(
                a,
                _mm256_add_pd(_mm256_add_pd(splat(1.0), _mm256_mul_pd(a0, w0)), _mm256_mul_pd(a0, vo)),
            ),
        );
        let k = pick(big, near_quarter, pick(odd, inverse, w));
        let y = pick(small, pick(below(ix, 0x3e40_0000), x, k), k);
        (y, handled)
    }

    /// `sin` (or with `cos`, `cos`) of the lanes of `x` with |x| < 2^20
    /// pi/2 (the lanes set in the mask; others get arbitrary values):
    /// `libm`'s paths. |x| ~<= pi/4: x itself below 2^-26 (sin), 1 below
    /// 2^-27 sqrt(2) (cos), else the kernel on (x, 0) (sin's first form);
    /// beyond, `rem_pio2` and the kernel of the quadrant n mod 4, negated
    /// in two of them.
    #[target_feature(enable = "avx2")]
    fn sin_cos(x: __m256d, cos: bool) -> (__m256d, __m256i) {
        let Reduced {
            ix,
            handled,
            small,
            odd,
            high,
            y0,
            y1,
        } = reduce(x);
        // k_sin(y0, y1, iy) for iy = 0 and 1, k_cos(y0, y1).
        let z = _mm256_mul_pd(y0, y0);
        let w = _mm256_mul_pd(z, z);
        let r = _mm256_add_pd(
            _mm256_add_pd(
                splat(S2),
                _mm256_mul_pd(z, _mm256_add_pd(splat(S3), _mm256_mul_pd(z, splat(S4)))),
            ),
            _mm256_mul_pd(
                _mm256_mul_pd(z, w),
                _mm256_add_pd(splat(S5), _mm256_mul_pd(z, splat(S6))),
            ),
        );
        let v = _mm256_mul_pd(z, y0);
        let sin0 = _mm256_add_pd(y0, _mm256_mul_pd(v, _mm256_add_pd(splat(S1), _mm256_mul_pd(z, r))));
        let inner = _mm256_sub_pd(_mm256_mul_pd(splat(0.5), y1), _mm256_mul_pd(v, r));
        let sin1 = _mm256_sub_pd(
            y0,
            _mm256_sub_pd(_mm256_sub_pd(_mm256_mul_pd(z, inner), y1), _mm256_mul_pd(v, splat(S1))),
        );
        let rc = _mm256_add_pd(
            _mm256_mul_pd(
                z,
                _mm256_add_pd(
                    splat(C1),
                    _mm256_mul_pd(z, _mm256_add_pd(splat(C2), _mm256_mul_pd(z, splat(C3)))),
                ),
            ),
            _mm256_mul_pd(
                _mm256_mul_pd(w, w),
                _mm256_add_pd(
                    splat(C4),
                    _mm256_mul_pd(z, _mm256_add_pd(splat(C5), _mm256_mul_pd(z, splat(C6)))),
                ),
            ),
        );
        let hz = _mm256_mul_pd(splat(0.5), z);
        let wc = _mm256_sub_pd(splat(1.0), hz);
        let kc = _mm256_add_pd(
            wc,
            _mm256_add_pd(
                _mm256_sub_pd(_mm256_sub_pd(splat(1.0), wc), hz),
                _mm256_sub_pd(_mm256_mul_pd(z, rc), _mm256_mul_pd(y0, y1)),
            ),
        );
        let y = if cos {
            // 0: k_cos, 1: -k_sin, 2: -k_cos, 3: k_sin.
            let base = pick(odd, sin1, kc);
            let neg = _mm256_xor_si256(high, odd);
            let far = pick(neg, negate(base), base);
            let near = pick(below(ix, 0x3e46_a09e), splat(1.0), kc);
            pick(small, near, far)
        } else {
            // 0: k_sin, 1: k_cos, 2: -k_sin, 3: -k_cos.
            let base = pick(odd, kc, sin1);
            let far = pick(high, negate(base), base);
            let near = pick(below(ix, 0x3e50_0000), x, sin0);
            pick(small, near, far)
        };
        (y, handled)
    }

    /// Each lane's bits with the low 32 cleared (`with_set_low_word(v, 0)`).
    #[target_feature(enable = "avx2")]
    fn clear_low(v: __m256d) -> __m256d {
        _mm256_castsi256_pd(_mm256_and_si256(_mm256_castpd_si256(v), int(-1i64 << 32)))
    }

    /// Each lane's high word as a signed 32-bit integer in 64 bits.
    #[target_feature(enable = "avx2")]
    fn signed_high(v: __m256d) -> __m256i {
        let h = high_words(v);
        _mm256_sub_epi64(_mm256_xor_si256(h, int(0x8000_0000)), int(0x8000_0000))
    }

    /// `v` with its high word replaced by the low 32 bits of `h`.
    #[target_feature(enable = "avx2")]
    fn set_high(v: __m256d, h: __m256i) -> __m256d {
        let low = _mm256_and_si256(_mm256_castpd_si256(v), int(0xffff_ffff));
        _mm256_castsi256_pd(_mm256_or_si256(_mm256_slli_epi64::<32>(h), low))
    }

    /// `pow(x, y)` for the lanes with x positive, normal, finite and y
    /// finite with |y| <= 2^31 (and a result that is normal: the lanes
    /// set in the mask; others get arbitrary values): `libm`'s special
    /// exponents (0, +-1, 2, 0.5 when its low word is 0), base 1, then its
    /// main path: log2(x) to about 64 bits as t1 + t2 (x scaled to [1,
    /// sqrt(3/2)) or [sqrt(3/2), sqrt(3)) around 1 or 1.5, the series in
    /// s = (x - b) / (x + b)), times y split in two, 2^(p_h + p_l) with the
    /// integer part n of the exponent (lanes that overflow, underflow or
    /// come out subnormal are left to `libm`).
    #[target_feature(enable = "avx2")]
    fn pow(x: __m256d, y: __m256d) -> (__m256d, __m256i) {
        const BP1: f64 = 1.5;
        const DP_H1: f64 = 5.84962487220764160156e-01;
        const DP_L1: f64 = 1.35003920212974897128e-08;
        const L1: f64 = 5.99999999999994648725e-01;
        const L2: f64 = 4.28571428578550184252e-01;
        const L3: f64 = 3.33333329818377432918e-01;
        const L4: f64 = 2.72728123808534006489e-01;
        const L5: f64 = 2.30660745775561754067e-01;
        const L6: f64 = 2.06975017800338417784e-01;
        const LG2: f64 = 6.93147180559945286227e-01;
        const LG2_H: f64 = 6.93147182464599609375e-01;
        const LG2_L: f64 = -1.90465429995776804525e-09;
        const CP: f64 = 9.61796693925975554329e-01;
        const CP_H: f64 = 9.61796700954437255859e-01;
        const CP_L: f64 = -7.02846165095275826516e-09;
        let ybits = _mm256_castpd_si256(y);
        let hx = high_words(x);
        let iy = _mm256_and_si256(high_words(y), int(0x7fff_ffff));
        let hy = high_words(y);
        let y_low_zero = equal(_mm256_and_si256(ybits, int(0xffff_ffff)), 0);
        // x positive, normal, finite; y finite, |y| <= 2^31 (iy <=
        // 0x41e00000).
        let mut handled = _mm256_and_si256(
            _mm256_andnot_si256(
                _mm256_cmpgt_epi64(hx, int(0x7fef_ffff)),
                _mm256_cmpgt_epi64(hx, int(0x000f_ffff)),
            ),
            below(iy, 0x41e0_0001),
        );
        // log2(x) = t1 + t2.
        let ix = hx;
        let n0 = _mm256_sub_epi64(_mm256_srli_epi64::<20>(ix), int(0x3ff));
        let j = _mm256_and_si256(ix, int(0x000f_ffff));
        // k = 1 for 0x3988e < j < 0xbb67a; j >= 0xbb67a: k = 0, n + 1,
        // the exponent one lower.
        let upper = _mm256_cmpgt_epi64(j, int(0xbb679));
        let k1 = _mm256_andnot_si256(upper, _mm256_cmpgt_epi64(j, int(0x3988e)));
        let n = _mm256_sub_epi64(n0, upper);
        let ixn = _mm256_add_epi64(
            _mm256_or_si256(j, int(0x3ff0_0000)),
            _mm256_and_si256(upper, int(-0x0010_0000)),
        );
        let ax = set_high(x, ixn);
        let k1d = _mm256_castsi256_pd(k1);
        let bp = _mm256_blendv_pd(splat(1.0), splat(BP1), k1d);
        let dp_h = _mm256_and_pd(k1d, splat(DP_H1));
        let dp_l = _mm256_and_pd(k1d, splat(DP_L1));
        let u = _mm256_sub_pd(ax, bp);
        let v = _mm256_div_pd(splat(1.0), _mm256_add_pd(ax, bp));
        let ss = _mm256_mul_pd(u, v);
        let s_h = clear_low(ss);
        let th_word = _mm256_add_epi64(
            _mm256_add_epi64(
                _mm256_or_si256(_mm256_srli_epi64::<1>(ixn), int(0x2000_0000)),
                int(0x0008_0000),
            ),
            _mm256_and_si256(k1, int(1 << 18)),
        );
        let t_h = _mm256_castsi256_pd(_mm256_slli_epi64::<32>(th_word));
        let t_l = _mm256_sub_pd(ax, _mm256_sub_pd(t_h, bp));
        let s_l = _mm256_mul_pd(
            v,
            _mm256_sub_pd(_mm256_sub_pd(u, _mm256_mul_pd(s_h, t_h)), _mm256_mul_pd(s_h, t_l)),
        );
        let s2 = _mm256_mul_pd(ss, ss);
        let mut poly = _mm256_mul_pd(s2, splat(L6));
        for c in [L5, L4, L3, L2] {
            poly = _mm256_mul_pd(s2, _mm256_add_pd(splat(c), poly));
        }
        poly = _mm256_add_pd(splat(L1), poly);
        let mut r = _mm256_mul_pd(_mm256_mul_pd(s2, s2), poly);
        r = _mm256_add_pd(r, _mm256_mul_pd(s_l, _mm256_add_pd(s_h, ss)));
        let s2 = _mm256_mul_pd(s_h, s_h);
        let t_h = clear_low(_mm256_add_pd(_mm256_add_pd(splat(3.0), s2), r));
        let t_l = _mm256_sub_pd(r, _mm256_sub_pd(_mm256_sub_pd(t_h, splat(3.0)), s2));
        let u = _mm256_mul_pd(s_h, t_h);
        let v = _mm256_add_pd(_mm256_mul_pd(s_l, t_h), _mm256_mul_pd(t_l, ss));
        let p_h = clear_low(_mm256_add_pd(u, v));
        let p_l = _mm256_sub_pd(v, _mm256_sub_pd(p_h, u));
        let z_h = _mm256_mul_pd(splat(CP_H), p_h);
        let z_l = _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(splat(CP_L), p_h), _mm256_mul_pd(p_l, splat(CP))),
            dp_l,
        );
        let t = to_double(n);
        let t1 = clear_low(_mm256_add_pd(_mm256_add_pd(_mm256_add_pd(z_h, z_l), dp_h), t));
        let t2 = _mm256_sub_pd(z_l, _mm256_sub_pd(_mm256_sub_pd(_mm256_sub_pd(t1, t), dp_h), z_h));
        // (y1 + y2) (t1 + t2), y1 = y with its low word cleared.
        let y1 = clear_low(y);
        let p_l = _mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(y, y1), t1), _mm256_mul_pd(y, t2));
        let mut p_h = _mm256_mul_pd(y1, t1);
        let z = _mm256_add_pd(p_l, p_h);
        let jz = signed_high(z);
        // z >= 1024 or z <= -1075: libm's overflow and underflow tests.
        let ajz = _mm256_and_si256(jz, int(0x7fff_ffff));
        handled = _mm256_andnot_si256(_mm256_cmpgt_epi64(ajz, int(0x4090_cbff)), handled);
        handled = _mm256_andnot_si256(_mm256_cmpgt_epi64(jz, int(0x408f_ffff)), handled);
        // n = [z + 0.5] where |z| > 0.5, p_h reduced by it.
        let kz = _mm256_sub_epi64(_mm256_srli_epi64::<20>(ajz), int(0x3ff));
        let big = _mm256_cmpgt_epi64(ajz, int(0x3fe0_0000));
        // (For lanes not `big` the shift counts are out of range, which
        // gives 0 in AVX2's variable shifts; those lanes use n = 0.)
        let nn = _mm256_add_epi64(jz, _mm256_srlv_epi64(int(0x0010_0000), _mm256_add_epi64(kz, int(1))));
        let kn = _mm256_sub_epi64(
            _mm256_srli_epi64::<20>(_mm256_and_si256(nn, int(0x7fff_ffff))),
            int(0x3ff),
        );
        let tword = _mm256_andnot_si256(_mm256_srlv_epi64(int(0x000f_ffff), kn), nn);
        let tn = _mm256_castsi256_pd(_mm256_slli_epi64::<32>(_mm256_and_si256(tword, int(0xffff_ffff))));
        let mag = _mm256_srlv_epi64(
            _mm256_or_si256(_mm256_and_si256(nn, int(0x000f_ffff)), int(0x0010_0000)),
            _mm256_sub_epi64(int(20), kn),
        );
        let negative = _mm256_cmpgt_epi64(int(0), jz);
        let signed_n = _mm256_sub_epi64(_mm256_xor_si256(mag, negative), negative);
        let n = _mm256_and_si256(big, signed_n);
        p_h = pick(big, _mm256_sub_pd(p_h, tn), p_h);
        // 2^(p_h + p_l): exp's rational form on z = (p_h + p_l) ln2.
        let t = clear_low(_mm256_add_pd(p_l, p_h));
        let u = _mm256_mul_pd(t, splat(LG2_H));
        let v = _mm256_add_pd(
            _mm256_mul_pd(_mm256_sub_pd(p_l, _mm256_sub_pd(t, p_h)), splat(LG2)),
            _mm256_mul_pd(t, splat(LG2_L)),
        );
        let z = _mm256_add_pd(u, v);
        let w = _mm256_sub_pd(v, _mm256_sub_pd(z, u));
        let t = _mm256_mul_pd(z, z);
        let mut q = _mm256_mul_pd(t, splat(P5));
        for c in [P4, P3, P2] {
            q = _mm256_mul_pd(t, _mm256_add_pd(splat(c), q));
        }
        q = _mm256_mul_pd(t, _mm256_add_pd(splat(P1), q));
        let t1 = _mm256_sub_pd(z, q);
        let r = _mm256_sub_pd(
            _mm256_div_pd(_mm256_mul_pd(z, t1), _mm256_sub_pd(t1, splat(2.0))),
            _mm256_add_pd(w, _mm256_mul_pd(z, w)),
        );
        let z = _mm256_sub_pd(splat(1.0), _mm256_sub_pd(r, z));
        // The exponent n added to z's high word; a result that would be
        // subnormal ((j >> 20) <= 0) is libm's.
        let jr = _mm256_add_epi64(signed_high(z), _mm256_slli_epi64::<20>(n));
        handled = _mm256_and_si256(handled, _mm256_cmpgt_epi64(jr, int(0x000f_ffff)));
        let main = set_high(z, jr);
        // The special exponents (low word 0) and base 1, which libm
        // returns before its main path.
        let y_zero = equal(_mm256_slli_epi64::<1>(ybits), 0);
        let y_one = _mm256_and_si256(y_low_zero, equal(iy, 0x3ff0_0000));
        let y_two = _mm256_and_si256(y_low_zero, equal(hy, 0x4000_0000));
        let y_half = _mm256_and_si256(y_low_zero, equal(hy, 0x3fe0_0000));
        let x_one = equal(_mm256_castpd_si256(x), 0x3ff0_0000_0000_0000);
        let one_over = pick(equal(hy, 0x3ff0_0000), x, _mm256_div_pd(splat(1.0), x));
        let mut out = main;
        out = pick(y_half, _mm256_sqrt_pd(x), out);
        out = pick(y_two, _mm256_mul_pd(x, x), out);
        out = pick(y_one, one_over, out);
        out = pick(_mm256_or_si256(y_zero, x_one), splat(1.0), out);
        // A special lane is handled whatever the main path gave it.
        let special = _mm256_or_si256(
            _mm256_or_si256(y_zero, x_one),
            _mm256_or_si256(y_one, _mm256_or_si256(y_two, y_half)),
        );
        let valid_input = _mm256_and_si256(
            _mm256_andnot_si256(
                _mm256_cmpgt_epi64(hx, int(0x7fef_ffff)),
                _mm256_cmpgt_epi64(hx, int(0x000f_ffff)),
            ),
            below(iy, 0x7ff0_0000),
        );
        handled = _mm256_or_si256(handled, _mm256_and_si256(special, valid_input));
        (out, handled)
    }

    /// c[0] + s (c[1] + s (c[2] + ... + s c[n])), innermost first (as
    /// `libm` writes its polynomials).
    #[target_feature(enable = "avx2")]
    fn horner(s: __m256d, c: &[f64]) -> __m256d {
        let (last, rest) = c.split_last().expect("a polynomial has coefficients");
        let mut acc = _mm256_mul_pd(s, splat(*last));
        for &k in rest[1..].iter().rev() {
            acc = _mm256_mul_pd(s, _mm256_add_pd(splat(k), acc));
        }
        _mm256_add_pd(splat(rest[0]), acc)
    }

    // erf.rs's constants (erf and erfc share them).
    const ERX: f64 = 8.45062911510467529297e-01;
    const EFX8: f64 = 1.02703333676410069053e+00;
    const PP: [f64; 5] = [
        1.28379167095512558561e-01,
        -3.25042107247001499370e-01,
        -2.84817495755985104766e-02,
        -5.77027029648944159157e-03,
        -2.37630166566501626084e-05,
    ];
    const QQ: [f64; 6] = [
        1.0,
        3.97917223959155352819e-01,
        6.50222499887672944485e-02,
        5.08130628187576562776e-03,
        1.32494738004321644526e-04,
        -3.96022827877536812320e-06,
    ];
    const PA: [f64; 7] = [
        -2.36211856075265944077e-03,
        4.14856118683748331666e-01,
        -3.72207876035701323847e-01,
        3.18346619901161753674e-01,
        -1.10894694282396677476e-01,
        3.54783043256182359371e-02,
        -2.16637559486879084300e-03,
    ];
    const QA: [f64; 7] = [
        1.0,
        1.06420880400844228286e-01,
        5.40397917702171048937e-01,
        7.18286544141962662868e-02,
        1.26171219808761642112e-01,
        1.36370839120290507362e-02,
        1.19844998467991074170e-02,
    ];
    const RA: [f64; 8] = [
        -9.86494403484714822705e-03,
        -6.93858572707181764372e-01,
        -1.05586262253232909814e+01,
        -6.23753324503260060396e+01,
        -1.62396669462573470355e+02,
        -1.84605092906711035994e+02,
        -8.12874355063065934246e+01,
        -9.81432934416914548592e+00,
    ];
    const SA: [f64; 9] = [
        1.0,
        1.96512716674392571292e+01,
        1.37657754143519042600e+02,
        4.34565877475229228821e+02,
        6.45387271733267880336e+02,
        4.29008140027567833386e+02,
        1.08635005541779435134e+02,
        6.57024977031928170135e+00,
        -6.04244152148580987438e-02,
    ];
    const RB: [f64; 7] = [
        -9.86494292470009928597e-03,
        -7.99283237680523006574e-01,
        -1.77579549177547519889e+01,
        -1.60636384855821916062e+02,
        -6.37566443368389627722e+02,
        -1.02509513161107724954e+03,
        -4.83519191608651397019e+02,
    ];
    const SB: [f64; 8] = [
        1.0,
        3.03380607434824582924e+01,
        3.25792512996573918826e+02,
        1.53672958608443695994e+03,
        3.19985821950859553908e+03,
        2.55305040643316442583e+03,
        4.74528541206955367215e+02,
        -2.24409524465858183362e+01,
    ];

    /// `erf` of the lanes of finite `x` (the lanes set in the mask; others
    /// get arbitrary values): `libm`'s four ranges, each computed where a
    /// lane falls in it. |x| < 0.84375: x + x P(x^2)/Q(x^2) (x (1 + 8
    /// efx / 8) below 2^-28); below 1.25: 1 - (1 - erx - P(s)/Q(s)) with
    /// s = |x| - 1; below 6: 1 - e^(-z^2 - 0.5625) e^((z - |x|)(z + |x|) +
    /// R/S) over |x|, with z = |x| to 20 bits and R/S in 1/x^2 (two sets of
    /// coefficients, below and above 1/0.35), by this module's `exp` (a
    /// lane whose exponent that leaves to `libm` is left to `libm` whole);
    /// beyond, 1 - 2^-1022; the sign of x on the last three.
    #[target_feature(enable = "avx2")]
    fn erf(x: __m256d) -> (__m256d, __m256i) {
        let ix = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let mut handled = below(ix, 0x7ff0_0000);
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let small = below(ix, 0x3feb_0000);
        let middle = _mm256_andnot_si256(small, below(ix, 0x3ff4_0000));
        let far = _mm256_andnot_si256(_mm256_or_si256(small, middle), below(ix, 0x4018_0000));
        let zero = splat(0.0);
        // |x| < 0.84375
        let y_small = if none(small) {
            zero
        } else {
            let y_tiny = _mm256_mul_pd(
                splat(0.125),
                _mm256_add_pd(_mm256_mul_pd(splat(8.0), x), _mm256_mul_pd(splat(EFX8), x)),
            );
            let z = _mm256_mul_pd(x, x);
            let y = _mm256_div_pd(horner(z, &PP), horner(z, &QQ));
            pick(below(ix, 0x3e30_0000), y_tiny, _mm256_add_pd(x, _mm256_mul_pd(x, y)))
        };
        // 0.84375 <= |x| < 1.25: 1 - erfc1(x)
        let y_middle = if none(middle) {
            zero
        } else {
            _mm256_sub_pd(splat(1.0), erfc_middle(ax))
        };
        // 1.25 <= |x| < 6: 1 - erfc2(x)
        let y_far = if none(far) {
            zero
        } else {
            let (erfc2, computed) = erfc_far(ax, ix);
            handled = _mm256_andnot_si256(_mm256_andnot_si256(computed, far), handled);
            _mm256_sub_pd(splat(1.0), erfc2)
        };
        let y_huge = splat(1.0 - f64::from_bits(0x0010_0000_0000_0000));
        let unsigned = pick(middle, y_middle, pick(far, y_far, y_huge));
        let signed = _mm256_or_pd(unsigned, _mm256_and_pd(x, splat(-0.0)));
        (pick(small, y_small, signed), handled)
    }

    /// `hypot(x, y)` of every lane, as `clift_hypot_f64` computes it: +inf
    /// where either is infinite (NaN or not), else `libm`'s: |x| and |y|
    /// ordered by their bits, |y| where it is NaN (its bits), |x| where it
    /// is NaN or |y| is 0, |x| + |y| where their exponents differ by more
    /// than 64, else both scaled by 2^-700 or 2^700 where |x| is beyond
    /// 2^511 or |y| below 2^-450, each squared in two parts (Dekker's
    /// split by 2^27 + 1), the parts summed from the lowest, the square
    /// root, scaled back.
    #[target_feature(enable = "avx2")]
    fn hypot(x: __m256d, y: __m256d) -> (__m256d, __m256i) {
        let abs = int(i64::MAX);
        let (ux, uy) = (
            _mm256_and_si256(_mm256_castpd_si256(x), abs),
            _mm256_and_si256(_mm256_castpd_si256(y), abs),
        );
        // |x| >= |y| by the bits (both below 2^63: signed compares).
        let swap = _mm256_cmpgt_epi64(uy, ux);
        let (big, small) = (_mm256_blendv_epi8(ux, uy, swap), _mm256_blendv_epi8(uy, ux, swap));
        let (ex, ey) = (_mm256_srli_epi64::<52>(big), _mm256_srli_epi64::<52>(small));
        let (a, b) = (_mm256_castsi256_pd(big), _mm256_castsi256_pd(small));
        // Scaling: 2^-700 for ex > 0x3ff + 510, 2^700 for ey < 0x3ff - 450.
        let large = _mm256_cmpgt_epi64(ex, int(0x3ff + 510));
        let little = _mm256_andnot_si256(large, below(ey, 0x3ff - 450));
        let (p700, m700) = (
            f64::from_bits(0x6bb0_0000_0000_0000),
            f64::from_bits(0x1430_0000_0000_0000),
        );
        let z = pick(large, splat(p700), pick(little, splat(m700), splat(1.0)));
        let k = pick(large, splat(m700), pick(little, splat(p700), splat(1.0)));
        let (xs, ys) = (_mm256_mul_pd(a, k), _mm256_mul_pd(b, k));
        let scaled = _mm256_or_si256(large, little);
        let (xs, ys) = (pick(scaled, xs, a), pick(scaled, ys, b));
        let (hx, lx) = square(xs);
        let (hy, ly) = square(ys);
        let sum = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(ly, lx), hy), hx);
        let main = _mm256_mul_pd(z, _mm256_sqrt_pd(sum));
        // libm's special cases, in its order (the last applies first).
        let far = _mm256_cmpgt_epi64(_mm256_sub_epi64(ex, ey), int(64));
        let r = pick(far, _mm256_add_pd(a, b), main);
        let r = pick(_mm256_or_si256(equal(ex, 0x7ff), equal(small, 0)), a, r);
        let r = pick(equal(ey, 0x7ff), b, r);
        // clift's: +inf where either is infinite.
        let inf = 0x7ff0_0000_0000_0000;
        let infinite = _mm256_or_si256(equal(ux, inf), equal(uy, inf));
        (pick(infinite, splat(f64::INFINITY), r), int(-1))
    }

    /// `libm`'s `sq` of hypot: x^2 as hi + lo (hi = x x, lo its rounding
    /// error from the halves of Dekker's split), in its order.
    #[target_feature(enable = "avx2")]
    fn square(x: __m256d) -> (__m256d, __m256d) {
        let xc = _mm256_mul_pd(x, splat(134_217_728.0 + 1.0));
        let xh = _mm256_add_pd(_mm256_sub_pd(x, xc), xc);
        let xl = _mm256_sub_pd(x, xh);
        let hi = _mm256_mul_pd(x, x);
        let lo = _mm256_add_pd(
            _mm256_add_pd(
                _mm256_sub_pd(_mm256_mul_pd(xh, xh), hi),
                _mm256_mul_pd(_mm256_mul_pd(splat(2.0), xh), xl),
            ),
            _mm256_mul_pd(xl, xl),
        );
        (hi, lo)
    }

    /// `libm`'s `erfc1` for 0.84375 <= |x| < 1.25 (`ax` = |x|): 1 - erx -
    /// P(s)/Q(s) with s = |x| - 1.
    #[target_feature(enable = "avx2")]
    fn erfc_middle(ax: __m256d) -> __m256d {
        let s = _mm256_sub_pd(ax, splat(1.0));
        _mm256_sub_pd(splat(1.0 - ERX), _mm256_div_pd(horner(s, &PA), horner(s, &QA)))
    }

    /// `libm`'s `erfc2` for |x| >= 1.25 (`ax` = |x|, `ix` its high word):
    /// e^(-z^2 - 0.5625) e^((z - |x|)(z + |x|) + R/S) / |x| with z = |x|
    /// to 20 bits and R/S in 1/x^2 (two sets of coefficients, below and
    /// above 1/0.35), by this module's `exp`; and the lanes whose two
    /// exponents that `exp` computes (the others get arbitrary values).
    #[target_feature(enable = "avx2")]
    fn erfc_far(ax: __m256d, ix: __m256i) -> (__m256d, __m256i) {
        let s = _mm256_div_pd(splat(1.0), _mm256_mul_pd(ax, ax));
        let below_035 = below(ix, 0x4006_db6d);
        let r = pick(below_035, horner(s, &RA), horner(s, &RB));
        let big_s = pick(below_035, horner(s, &SA), horner(s, &SB));
        let z = clear_low(ax);
        let (e1, h1) = exp(_mm256_sub_pd(_mm256_mul_pd(negate(z), z), splat(0.5625)));
        let arg = _mm256_add_pd(
            _mm256_mul_pd(_mm256_sub_pd(z, ax), _mm256_add_pd(z, ax)),
            _mm256_div_pd(r, big_s),
        );
        let (e2, h2) = exp(arg);
        (_mm256_div_pd(_mm256_mul_pd(e1, e2), ax), _mm256_and_si256(h1, h2))
    }

    /// `erfc` of the lanes of finite `x` (the mask; others, and lanes whose
    /// exponents this module's `exp` leaves to `libm`, get arbitrary
    /// values): `libm`'s ranges by |x|. Below 0.84375: 1 - x below 2^-56,
    /// else with y = P(x^2)/Q(x^2) 1 - (x + x y) for x < 1/4 (negative x
    /// included), 0.5 - (x - 0.5 + x y) above; below 1.25 `erfc1`, below 28
    /// `erfc2` ([`erfc_middle`], [`erfc_far`]), each taken from 2 for
    /// negative x; beyond, 2 - 2^-1022 for negative x, 2^-1022 squared
    /// (+0) for positive.
    #[target_feature(enable = "avx2")]
    fn erfc(x: __m256d) -> (__m256d, __m256i) {
        let ix = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let mut handled = below(ix, 0x7ff0_0000);
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let negative = _mm256_cmpgt_epi64(int(0), _mm256_castpd_si256(x));
        let small = below(ix, 0x3feb_0000);
        let middle = _mm256_andnot_si256(small, below(ix, 0x3ff4_0000));
        let far = _mm256_andnot_si256(_mm256_or_si256(small, middle), below(ix, 0x403c_0000));
        let zero = splat(0.0);
        // |x| < 0.84375
        let y_small = if none(small) {
            zero
        } else {
            let z = _mm256_mul_pd(x, x);
            let y = _mm256_div_pd(horner(z, &PP), horner(z, &QQ));
            let xy = _mm256_mul_pd(x, y);
            let quarter = _mm256_or_si256(negative, below(ix, 0x3fd0_0000));
            let near = _mm256_sub_pd(splat(1.0), _mm256_add_pd(x, xy));
            let beyond = _mm256_sub_pd(splat(0.5), _mm256_add_pd(_mm256_sub_pd(x, splat(0.5)), xy));
            let tiny = _mm256_sub_pd(splat(1.0), x);
            pick(below(ix, 0x3c70_0000), tiny, pick(quarter, near, beyond))
        };
        // 0.84375 <= |x| < 1.25: erfc1(x)
        let y_middle = if none(middle) { zero } else { erfc_middle(ax) };
        // 1.25 <= |x| < 28: erfc2(x)
        let y_far = if none(far) {
            zero
        } else {
            let (erfc2, computed) = erfc_far(ax, ix);
            handled = _mm256_andnot_si256(_mm256_andnot_si256(computed, far), handled);
            erfc2
        };
        let tiny = f64::from_bits(0x0010_0000_0000_0000);
        let positive = pick(
            middle,
            y_middle,
            pick(far, y_far, _mm256_mul_pd(splat(tiny), splat(tiny))),
        );
        let from_two = pick(
            _mm256_or_si256(middle, far),
            _mm256_sub_pd(splat(2.0), positive),
            splat(2.0 - tiny),
        );
        let y = pick(negative, from_two, positive);
        (pick(small, y_small, y), handled)
    }

    /// `cbrt` of the lanes of normal `x` (the mask; others, and lanes on
    /// `libm`'s cold paths, get arbitrary values), where the CPU has FMA
    /// (without it no lane): `libm`'s (CORE-MATH's correctly rounded)
    /// algorithm, see [`cbrt_fma`].
    #[target_feature(enable = "avx2")]
    fn cbrt(x: __m256d) -> (__m256d, __m256i) {
        if !is_x86_feature_detected!("fma") {
            return (x, int(0));
        }
        // SAFETY: the CPU has FMA (checked above) and AVX2 (this
        // function's promise).
        unsafe { cbrt_fma(x) }
    }

    /// `libm`'s `cbrt` for normal x: x = 2^(3 et + it - 3 * 1365) z (sign
    /// and all) with z in [1, 2) from the bits (e + 3072 divided by 3 as a
    /// product, exact below 2^16); y = z^(1/3) by a cubic in z and one
    /// cubic Newton step, times 1, 2^(1/3) or 2^(2/3) by it; one more
    /// linear step with y^3 in two parts (fused multiply-adds, as
    /// `libm`'s); the exponent added to the bits. Lanes whose correction
    /// is within 2^-75 of a rounding boundary (a second step in `libm`),
    /// or whose result's bits end in `libm`'s exactness test (exact cubes
    /// among them), are left to `libm`.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    unsafe fn cbrt_fma(x: __m256d) -> (__m256d, __m256i) {
        let float = |bits: u64| splat(f64::from_bits(bits));
        let (c0, c1, c2, c3) = (
            float(0x3fe1_b0ba_bccf_ef9c),
            float(0x3fe2_c9a3_e94d_1da5),
            float(0xbfc4_dc30_b1a1_ddba),
            float(0x3f97_a8d3_e4ec_9b07),
        );
        let (u0, u1) = (float(0x3fd5_5555_5555_5555), float(0x3fcc_71c7_1c71_c71c));
        let hx = _mm256_castpd_si256(x);
        let sign = _mm256_and_si256(hx, int(i64::MIN));
        let mant = _mm256_and_si256(hx, int((1 << 52) - 1));
        let e = _mm256_and_si256(_mm256_srli_epi64::<52>(hx), int(0x7ff));
        // Normal: e neither 0 nor 0x7ff.
        let handled = _mm256_andnot_si256(equal(e, 0), below(e, 0x7ff));
        let e = _mm256_add_epi64(e, int(3072));
        // e / 3 and e % 3 for e < 2^16: (e * 0xaaab) >> 17.
        let et = _mm256_srli_epi64::<17>(_mm256_mul_epu32(e, int(0xaaab)));
        let it = _mm256_sub_epi64(e, _mm256_add_epi64(et, _mm256_add_epi64(et, et)));
        let cvt1 = _mm256_or_si256(mant, int(0x3ff << 52));
        let zz = _mm256_castsi256_pd(_mm256_or_si256(
            _mm256_add_epi64(cvt1, _mm256_slli_epi64::<52>(it)),
            sign,
        ));
        let (it1, it2) = (equal(it, 1), equal(it, 2));
        let escale = pick(
            it1,
            float(0x3ff4_28a2_f98d_728b),
            pick(it2, float(0x3ff9_65fe_a53d_6e3d), splat(1.0)),
        );
        let cvt2 = _mm256_or_pd(escale, _mm256_castsi256_pd(sign));
        let z = _mm256_castsi256_pd(cvt1);
        let r = _mm256_div_pd(splat(1.0), z);
        // rsc[(it << 1) | sign]: +-2^-it.
        let rsc = _mm256_or_si256(_mm256_slli_epi64::<52>(_mm256_sub_epi64(int(1023), it)), sign);
        let rr = _mm256_mul_pd(r, _mm256_castsi256_pd(rsc));
        let z2 = _mm256_mul_pd(z, z);
        let p0 = _mm256_add_pd(c0, _mm256_mul_pd(z, c1));
        let p2 = _mm256_add_pd(c2, _mm256_mul_pd(z, c3));
        let mut y = _mm256_add_pd(p0, _mm256_mul_pd(z2, p2));
        let mut y2 = _mm256_mul_pd(y, y);
        let mut h = _mm256_sub_pd(_mm256_mul_pd(y2, _mm256_mul_pd(y, r)), splat(1.0));
        y = _mm256_sub_pd(
            y,
            _mm256_mul_pd(_mm256_mul_pd(h, y), _mm256_sub_pd(u0, _mm256_mul_pd(u1, h))),
        );
        y = _mm256_mul_pd(y, cvt2);
        y2 = _mm256_mul_pd(y, y);
        let y2l = _mm256_fmadd_pd(y, y, negate(y2));
        let y3 = _mm256_mul_pd(y2, y);
        let y3l = _mm256_add_pd(_mm256_fmadd_pd(y, y2, negate(y3)), _mm256_mul_pd(y, y2l));
        h = _mm256_mul_pd(_mm256_add_pd(_mm256_sub_pd(y3, zz), y3l), rr);
        let mut dy = _mm256_mul_pd(h, _mm256_mul_pd(y, u0));
        let y1 = _mm256_sub_pd(y, dy);
        dy = _mm256_sub_pd(_mm256_sub_pd(y, y1), dy);
        let ady = _mm256_andnot_pd(splat(-0.0), dy);
        let near = |c: f64| {
            let d = _mm256_andnot_pd(splat(-0.0), _mm256_sub_pd(ady, splat(c)));
            _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_LT_OQ>(
                d,
                splat(f64::from_bits(0x3b40_0000_0000_0000)),
            ))
        };
        // libm's second step: within 2^-75 of 1/2 or 3/2 ulp.
        let cold = _mm256_or_si256(
            near(f64::from_bits(0x3ca0_0000_0000_0000)),
            near(f64::from_bits(0x3cb0_0000_0000_0000) + f64::from_bits(0x3ca0_0000_0000_0000)),
        );
        let cvt3 = _mm256_add_epi64(
            _mm256_castpd_si256(y1),
            _mm256_slli_epi64::<52>(_mm256_sub_epi64(et, int(342 + 1023))),
        );
        // libm's exactness test: (m0 ^ m1) <= 2^30 with m0 = cvt3 << 30,
        // m1 its top bit.
        let m0 = _mm256_slli_epi64::<30>(cvt3);
        let m1 = _mm256_srli_epi64::<63>(m0);
        let flipped = _mm256_xor_si256(m0, m1);
        // Unsigned flipped <= 2^30: signed after flipping the top bits.
        let top = int(i64::MIN);
        let exact = _mm256_cmpgt_epi64(
            _mm256_xor_si256(int((1 << 30) + 1), top),
            _mm256_xor_si256(flipped, top),
        );
        let handled = _mm256_andnot_si256(_mm256_or_si256(cold, exact), handled);
        (_mm256_castsi256_pd(cvt3), handled)
    }

    /// `atan` of the lanes of `x` that are not NaN (the mask; others get
    /// arbitrary values): `libm`'s five ranges by |x| (x itself below
    /// 2^-27; below 0.4375 the series on x; up to 2^66 the series on x
    /// moved by one of atan(0.5), atan(1), atan(1.5), atan(inf) = pi/2 in
    /// two parts; beyond, pi/2), signed as x.
    #[target_feature(enable = "avx2")]
    fn atan(x: __m256d) -> (__m256d, __m256i) {
        const ATANHI: [f64; 4] = [
            4.63647609000806093515e-01,
            7.85398163397448278999e-01,
            9.82793723247329054082e-01,
            1.57079632679489655800e+00,
        ];
        const ATANLO: [f64; 4] = [
            2.26987774529616870924e-17,
            3.06161699786838301793e-17,
            1.39033110312309984516e-17,
            6.12323399573676603587e-17,
        ];
        const AT_ODD: [f64; 6] = [
            3.33333333333329318027e-01,
            1.42857142725034663711e-01,
            9.09088713343650656196e-02,
            6.66107313738753120669e-02,
            4.97687799461593236017e-02,
            1.62858201153657823623e-02,
        ];
        const AT_EVEN: [f64; 5] = [
            -1.99999999998764832476e-01,
            -1.11111104054623557880e-01,
            -7.69187620504482999495e-02,
            -5.83357013379057348645e-02,
            -3.65315727442169155270e-02,
        ];
        // libm's answer beyond 2^66 (pi/2 plus its tiny term, as written).
        const HUGE_ATAN: f64 = ATANHI[3] + f64::from_bits(0x0380_0000);
        let ix = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let nan = _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_UNORD_Q>(x, x));
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let sign = _mm256_and_pd(x, splat(-0.0));
        let near = below(ix, 0x3fdc_0000);
        // The reduced argument: (2|x| - 1)/(2 + |x|), (|x| - 1)/(|x| + 1),
        // (|x| - 1.5)/(1 + 1.5|x|) or -1/|x| by range (x itself near 0).
        let id0 = below(ix, 0x3fe6_0000);
        let id1 = below(ix, 0x3ff3_0000);
        let id2 = below(ix, 0x4003_8000);
        let num = pick(
            id0,
            _mm256_sub_pd(_mm256_mul_pd(splat(2.0), ax), splat(1.0)),
            pick(
                id1,
                _mm256_sub_pd(ax, splat(1.0)),
                pick(id2, _mm256_sub_pd(ax, splat(1.5)), splat(-1.0)),
            ),
        );
        let den = pick(
            id0,
            _mm256_add_pd(splat(2.0), ax),
            pick(
                id1,
                _mm256_add_pd(ax, splat(1.0)),
                pick(id2, _mm256_add_pd(splat(1.0), _mm256_mul_pd(splat(1.5), ax)), ax),
            ),
        );
        let t = pick(near, x, _mm256_div_pd(num, den));
        let z = _mm256_mul_pd(t, t);
        let w = _mm256_mul_pd(z, z);
        let s1 = _mm256_mul_pd(z, horner(w, &AT_ODD));
        let s2 = _mm256_mul_pd(w, horner(w, &AT_EVEN));
        let sum = _mm256_add_pd(s1, s2);
        let y_near = pick(below(ix, 0x3e40_0000), x, _mm256_sub_pd(t, _mm256_mul_pd(t, sum)));
        let pick4 = |c: [f64; 4]| {
            pick(
                id0,
                splat(c[0]),
                pick(id1, splat(c[1]), pick(id2, splat(c[2]), splat(c[3]))),
            )
        };
        let hi = pick4(ATANHI);
        let lo = pick4(ATANLO);
        let y_far = _mm256_sub_pd(hi, _mm256_sub_pd(_mm256_sub_pd(_mm256_mul_pd(t, sum), lo), t));
        let y_far = pick(below(ix, 0x4410_0000), y_far, splat(HUGE_ATAN));
        let y = pick(near, y_near, _mm256_or_pd(y_far, sign));
        (y, _mm256_xor_si256(nan, int(-1)))
    }

    /// R(z) = P(z) / Q(z) of `asin` and `acos`.
    #[target_feature(enable = "avx2")]
    fn asin_r(z: __m256d) -> __m256d {
        const P: [f64; 6] = [
            1.66666666666666657415e-01,
            -3.25565818622400915405e-01,
            2.01212532134862925881e-01,
            -4.00555345006794114027e-02,
            7.91534994289814532176e-04,
            3.47933107596021167570e-05,
        ];
        const Q: [f64; 5] = [
            1.0,
            -2.40339491173441421878e+00,
            2.02094576023350569471e+00,
            -6.88283971605453293030e-01,
            7.70381505559019352791e-02,
        ];
        _mm256_div_pd(_mm256_mul_pd(z, horner(z, &P)), horner(z, &Q))
    }

    /// pi/2 in two parts (`asin` and `acos`).
    const PIO2_HI: f64 = 1.57079632679489655800e+00;
    const PIO2_LO: f64 = 6.12323399573676603587e-17;

    /// `asin` of the lanes of `x` with |x| < 1 (the mask; others get
    /// arbitrary values): below 0.5 x + x R(x^2) (x itself from 2^-1022 to
    /// 2^-26); above, from s = sqrt((1 - |x|)/2): pi/2 - 2(s + s R) above
    /// 0.975, else with s split in two parts; signed as x.
    #[target_feature(enable = "avx2")]
    fn asin(x: __m256d) -> (__m256d, __m256i) {
        let ix = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let handled = below(ix, 0x3ff0_0000);
        let ax = _mm256_andnot_pd(splat(-0.0), x);
        let small = below(ix, 0x3fe0_0000);
        let as_is = _mm256_andnot_si256(below(ix, 0x0010_0000), below(ix, 0x3e50_0000));
        let y_small = pick(
            as_is,
            x,
            _mm256_add_pd(x, _mm256_mul_pd(x, asin_r(_mm256_mul_pd(x, x)))),
        );
        let z = _mm256_mul_pd(_mm256_sub_pd(splat(1.0), ax), splat(0.5));
        let s = _mm256_sqrt_pd(z);
        let r = asin_r(z);
        // |x| > 0.975: pi/2 - (2 (s + s r) - pio2_lo)
        let y_top = _mm256_sub_pd(
            splat(PIO2_HI),
            _mm256_sub_pd(
                _mm256_mul_pd(splat(2.0), _mm256_add_pd(s, _mm256_mul_pd(s, r))),
                splat(PIO2_LO),
            ),
        );
        // f + c = sqrt(z): pi/4 - (2 s r - (pio2_lo - 2 c) - (pi/4 - 2 f))
        let f = clear_low(s);
        let c = _mm256_div_pd(_mm256_sub_pd(z, _mm256_mul_pd(f, f)), _mm256_add_pd(s, f));
        let y_mid = _mm256_sub_pd(
            splat(0.5 * PIO2_HI),
            _mm256_sub_pd(
                _mm256_sub_pd(
                    _mm256_mul_pd(_mm256_mul_pd(splat(2.0), s), r),
                    _mm256_sub_pd(splat(PIO2_LO), _mm256_mul_pd(splat(2.0), c)),
                ),
                _mm256_sub_pd(splat(0.5 * PIO2_HI), _mm256_mul_pd(splat(2.0), f)),
            ),
        );
        let y_big = pick(below(ix, 0x3fef_3333), y_mid, y_top);
        let y_big = _mm256_or_pd(y_big, _mm256_and_pd(x, splat(-0.0)));
        (pick(small, y_small, y_big), handled)
    }

    /// `acos` of the lanes of `x` with |x| < 1 (the mask; others get
    /// arbitrary values): below 0.5 pi/2 - (x - (pio2_lo - x R(x^2)))
    /// (pi/2 below 2^-57); below -0.5 from s = sqrt((1 + x)/2), above 0.5
    /// from s = sqrt((1 - x)/2) split in two parts.
    #[target_feature(enable = "avx2")]
    fn acos(x: __m256d) -> (__m256d, __m256i) {
        // libm's answer below 2^-57 (pi/2 plus its tiny term, as written).
        const TINY_ACOS: f64 = PIO2_HI + f64::from_bits(0x3870_0000_0000_0000);
        let ix = _mm256_and_si256(high_words(x), int(0x7fff_ffff));
        let handled = below(ix, 0x3ff0_0000);
        let small = below(ix, 0x3fe0_0000);
        let y_small = _mm256_sub_pd(
            splat(PIO2_HI),
            _mm256_sub_pd(
                x,
                _mm256_sub_pd(splat(PIO2_LO), _mm256_mul_pd(x, asin_r(_mm256_mul_pd(x, x)))),
            ),
        );
        let y_small = pick(below(ix, 0x3c60_0001), splat(TINY_ACOS), y_small);
        let negative = _mm256_castpd_si256(_mm256_cmp_pd::<_CMP_LT_OQ>(x, splat(0.0)));
        // z = (1 + x)/2 below -0.5, (1 - x)/2 above 0.5.
        let z = _mm256_mul_pd(
            pick(negative, _mm256_add_pd(splat(1.0), x), _mm256_sub_pd(splat(1.0), x)),
            splat(0.5),
        );
        let s = _mm256_sqrt_pd(z);
        let r = asin_r(z);
        let w = _mm256_sub_pd(_mm256_mul_pd(r, s), splat(PIO2_LO));
        let y_neg = _mm256_mul_pd(splat(2.0), _mm256_sub_pd(splat(PIO2_HI), _mm256_add_pd(s, w)));
        let df = clear_low(s);
        let c = _mm256_div_pd(_mm256_sub_pd(z, _mm256_mul_pd(df, df)), _mm256_add_pd(s, df));
        let w = _mm256_add_pd(_mm256_mul_pd(r, s), c);
        let y_pos = _mm256_mul_pd(splat(2.0), _mm256_add_pd(df, w));
        (pick(small, y_small, pick(negative, y_neg, y_pos)), handled)
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    /// The functions with a four-lane form here, by OpenCL.std name.
    const NAMES: [&str; 21] = [
        "exp", "log", "log2", "log10", "sin", "cos", "tan", "erf", "erfc", "cbrt", "atan", "asin", "acos", "expm1",
        "tanh", "sinh", "cosh", "log1p", "asinh", "acosh", "atanh",
    ];

    /// Lane-for-lane comparison of the AVX2 form of `name` on `args` (one
    /// set of four lanes, two for `pow`) with the scalar function, bit for
    /// bit (NaN payloads too).
    fn check(name: &str, args: &[[f64; 4]]) {
        let Some(r) = avx2_form(name, args) else { return };
        let (x, y) = (args[0], args[args.len() - 1]);
        for lane in 0..4 {
            let want = reference(name, x[lane], y[lane]).unwrap();
            assert!(
                want.to_bits() == r[lane].to_bits(),
                "{name}({:e}, {:e}) [{:#018x}, {:#018x}] lane {lane}: {:e} [{:#018x}] against the scalar {want:e} [{:#018x}]",
                x[lane],
                y[lane],
                x[lane].to_bits(),
                y[lane].to_bits(),
                r[lane],
                r[lane].to_bits(),
                want.to_bits()
            );
        }
    }

    /// The high words where a branch of either function changes, and the
    /// doubles around them.
    fn boundaries() -> Vec<f64> {
        let words: [u64; 60] = [
            // exp
            0x3e30_0000,
            0x3fd6_2e42,
            0x3ff0_a2b2,
            0x4086_232b,
            0x4086_2e42,
            0x4087_4910,
            // the logarithms
            0x0010_0000,
            0x7ff0_0000,
            0x3ff0_0000,
            0x3fe6_a09e,
            // sin and cos: tiny, pi/4, the bounds of n = 1 .. 4, pi/2,
            // pi, 3pi/2, 2pi (cancellation), 2^20 pi/2
            0x3e50_0000,
            0x3e46_a09e,
            // tan: tiny, and the reduced argument's 0.6744
            0x3e40_0000,
            0x3fe5_9428,
            // erf: 0.84375, 1.25, 1/0.35, 6
            0x3feb_0000,
            0x3ff4_0000,
            0x4006_db6d,
            0x4018_0000,
            // erfc: 2^-56, 1/4, 28, where its exps leave the lanes to libm
            0x3c70_0000,
            0x3fd0_0000,
            0x403c_0000,
            0x403a_8000,
            // atan: 0.4375, 11/16, 19/16, 2.4375, 2^66
            0x3fdc_0000,
            0x3fe6_0000,
            0x3ff3_0000,
            0x4003_8000,
            0x4410_0000,
            // asin, acos: 2^-57, 2^-26, 0.5, 0.975
            0x3c60_0000,
            0x3e50_0000,
            0x3fe0_0000,
            0x3fef_3333,
            0x3fe9_21fb,
            0x4002_d97c,
            0x400f_6a7a,
            0x4015_fdbc,
            0x401c_463b,
            0x3ff9_21fb,
            0x4009_21fb,
            0x4012_d97c,
            0x4019_21fb,
            0x4139_21fb,
            // expm1: 2^-54, 56 ln2 (and exp's 0.5 ln2, 1.5 ln2); tanh:
            // log(5/3)/2, log(3)/2, 20 (and 2^-1022, 19.4: expm1's bound
            // for 2|x|)
            0x3c90_0000,
            0x4043_687a,
            0x3fd0_58ae,
            0x3fe1_93ea,
            0x4034_0000,
            0x4033_687a,
            0x4043_0000,
            // sinh and cosh: 2^-26, log(2), 1, log(DBL_MAX)
            0x3e50_0000,
            0x3fe6_2e42,
            0x3ff0_0000,
            0x4086_2e42,
            // log1p: 0.4142 (sqrt(2) - 1), -0.2929, -1, 2^-53
            0x3fda_827a,
            0xbfd2_bec4,
            0xbff0_0000,
            0x3ca0_0000,
            // asinh, acosh, atanh: 2^26, 2, 2^-26, 0.5, 2^-32
            0x4190_0000,
            0x4000_0000,
            0x3e50_0000,
            0x3df0_0000,
        ];
        let mut out = Vec::new();
        for w in words {
            for low in [0u64, 1, 0x7fff_ffff, 0xffff_ffff] {
                for d in [-1i64, 0, 1] {
                    let bits = ((w as i64 + d) as u64) << 32 | low;
                    out.push(f64::from_bits(bits));
                    out.push(-f64::from_bits(bits));
                }
            }
        }
        // The doubles around multiples of pi/2 (sin's and cos's
        // cancellation, their medium path's later rounds).
        for k in 1..=12 {
            let m = (k as f64 * core::f64::consts::FRAC_PI_2).to_bits();
            for d in -4i64..=4 {
                let v = f64::from_bits(m.wrapping_add(d as u64));
                out.extend([v, -v]);
            }
        }
        out.extend([
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from_bits(0x7ff0_0000_0000_0001),
            f64::from_bits(0xfff8_0000_dead_beef),
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            f64::MAX,
            708.396_418_532_264_1,
            709.782_712_893_384,
            -745.133_219_101_941_1,
            0.5 * core::f64::consts::LN_2,
            1.5 * core::f64::consts::LN_2,
            core::f64::consts::SQRT_2,
            core::f64::consts::FRAC_1_SQRT_2,
            // Exact cubes (cbrt's exactness test), and the two arguments
            // libm's cbrt corrects by name.
            8.0,
            -27.0,
            0.125,
            1e-300 * 1e-300 * 1e-3,
            f64::from_bits(0x4009_b782_23aa_307c),
            f64::from_bits(0x401a_202b_fc89_ddff),
        ]);
        out
    }

    /// A small deterministic generator (xorshift64*).
    fn next(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    #[test]
    fn boundaries_match_libm() {
        let b = boundaries();
        for name in NAMES {
            // Every value in every lane, next to the others (handled and
            // not handled lanes mixed).
            for (i, &a) in b.iter().enumerate() {
                let n = b.len();
                check(name, &[[a, b[(i + 1) % n], b[(i + 7) % n], b[(i + 13) % n]]]);
                check(name, &[[b[(i + 3) % n], a, 1.0, 2.5]]);
            }
        }
    }

    #[test]
    fn random_arguments_match_libm() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for name in NAMES {
            for round in 0..400_000 {
                let x = [0; 4].map(|_| {
                    let r = next(&mut s);
                    let signed = r as i64 as f64 / 9.3e18;
                    match round % 10 {
                        // Any bits.
                        0 => f64::from_bits(r),
                        // exp's interesting range, log's positive doubles.
                        1 => signed * 800.0,
                        2 => f64::from_bits(r >> 1),
                        // Near 1 (log's cancellation, exp's small r).
                        3 => 1.0 + signed * 1e-19,
                        // (-1, 1): asin's and acos's whole domain.
                        7 => signed,
                        // expm1's k from -57 to 57 (its assemblies by k,
                        // 20 at 13.86), tanh's range up to 40.
                        8 => signed * 40.0,
                        // expm1's k = 19, 20 and 21 (where its last
                        // assembly changes form), either sign.
                        9 => signed.signum() * (13.0 + signed.abs() * 1.5),
                        // sin and cos: up to 9pi/4, and near multiples of
                        // pi/2 up to 2^21 pi/2 (their medium path's
                        // second and third rounds).
                        4 => signed * 8.0,
                        // High words where a kernel changes form (tan's
                        // 0.6744; erf's 0.84375, 1.25, 1/0.35 and 6;
                        // asin's 0.975, 0.5; atan's range bounds), any
                        // low word, either sign.
                        6 => {
                            let high = [
                                0x3fe5_9428_u64,
                                0x3feb_0000,
                                0x3ff4_0000,
                                0x4006_db6d,
                                0x4018_0000,
                                0x3fef_3333,
                                0x3fe0_0000,
                                0x3fdc_0000,
                                0x3fe6_0000,
                                0x3ff3_0000,
                                0x4003_8000,
                                0x3fd0_58ae,
                                0x3fe1_93ea,
                                0x3fd6_2e42,
                                0x3ff0_a2b2,
                                0x3ff0_0000,
                                0x3fef_ffff,
                                0x3fe6_2e42,
                                0x3fe6_2e41,
                                0xbfd2_bec4,
                                0xbfd2_bec5,
                                0x4340_0000,
                                0x433f_ffff,
                            ][(r >> 32) as usize % 23];
                            f64::from_bits(high << 32 | (r & 0x8000_0000_ffff_ffff))
                        }
                        _ => {
                            let k = (r >> 40) as f64;
                            let m = k * core::f64::consts::FRAC_PI_2;
                            f64::from_bits(m.to_bits().wrapping_add((r & 7).wrapping_sub(3)))
                        }
                    }
                });
                check(name, &[x]);
            }
        }
    }

    #[test]
    fn pow_matches_libm() {
        // Bases around the interval bounds of its log2 (the mantissa's
        // high bits 0x3988e and 0xbb67a), 1, 2, and the others above;
        // exponents with the special values, integers, halves, and the
        // sizes where the result leaves the normal range.
        let mut xs = boundaries();
        for w in [
            0x3ff3_988e_u64,
            0x3ff3_988f,
            0x3ffb_b679,
            0x3ffb_b67a,
            0x3ff0_0000,
            0x4000_0000,
            0x3fef_ffff,
        ] {
            for low in [0u64, 1, 0xffff_ffff] {
                let v = f64::from_bits(w << 32 | low);
                xs.extend([v, -v, v * 1e10, v * 1e-10]);
            }
        }
        let ys: Vec<f64> = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.0,
            -2.0,
            0.5,
            -0.5,
            3.0,
            1.5,
            1e-3,
            7.25,
            -7.25,
            100.0,
            -100.0,
            1023.5,
            -1074.5,
            1075.0,
            2147483648.0,
            2147483649.0,
            1e10,
            f64::INFINITY,
            f64::NAN,
            1.0000000000000002,
            0.49999999999999994,
        ]
        .into_iter()
        .flat_map(|v| [v, -v])
        .collect();
        check_pairs("pow", &xs, &ys, (1.7, 2.5), 0x1234_5678_9abc_def1, |round, a, b| {
            let u = a as i64 as f64 / 9.3e18;
            let v = b as i64 as f64 / 9.3e18;
            match round % 5 {
                // Any bits.
                0 => (f64::from_bits(a), f64::from_bits(b)),
                // Bases on the bounds of log2's intervals.
                4 => {
                    let high = [0x3ffb_b67a_u64, 0x3ffb_b679, 0x3ff3_988e, 0x3ff3_988f][(a >> 62) as usize];
                    let scale = ((a >> 32) % 64) as i32 - 32;
                    (
                        f64::from_bits(high << 32 | (a & 0xffff_ffff)) * 2f64.powi(scale),
                        v * 30.0,
                    )
                }
                // Positive bases of every size, moderate exponents.
                1 => (f64::from_bits(a >> 1), v * 4.0),
                // Bases near 1, large exponents.
                2 => (1.0 + u * 1e-6, v * 1e8),
                // The usual: bases up to 1000, exponents up to 50.
                _ => (u.abs() * 1000.0, v * 50.0),
            }
        });
    }

    /// Two-argument `name` on every pair of `xs` and `ys` (other pairs
    /// and `fill`'s values in the other lanes), then on 400,000 sets of
    /// four random pairs: `pair(round, a, b)` of two random words, the
    /// generator seeded with `seed`.
    fn check_pairs(
        name: &str,
        xs: &[f64],
        ys: &[f64],
        fill: (f64, f64),
        seed: u64,
        pair: impl Fn(usize, u64, u64) -> (f64, f64),
    ) {
        for (i, &x) in xs.iter().enumerate() {
            for (j, &y) in ys.iter().enumerate() {
                let x2 = xs[(i + 5) % xs.len()];
                let y2 = ys[(j + 3) % ys.len()];
                check(name, &[[x, x2, fill.0, x], [y, y2, y, fill.1]]);
            }
        }
        let mut s = seed;
        for round in 0..400_000 {
            let mut one = || {
                let (a, b) = (next(&mut s), next(&mut s));
                pair(round, a, b)
            };
            let (p, q, r, t) = (one(), one(), one(), one());
            check(name, &[[p.0, q.0, r.0, t.0], [p.1, q.1, r.1, t.1]]);
        }
    }

    #[test]
    fn the_vector_forms_compute_their_main_paths() {
        if !is_x86_feature_detected!("avx2") {
            return;
        }
        // Per function, four arguments on its main paths (one per range or
        // branch where it has several): the AVX2 form must compute every
        // lane itself.
        let cases: [(&str, [f64; 4], [f64; 4]); 26] = [
            ("exp", [0.5, -3.0, 10.0, 1e-5], [0.0; 4]),
            ("log", [0.5, 3.0, 1e10, 1.5], [0.0; 4]),
            ("log2", [0.5, 3.0, 1e10, 1.5], [0.0; 4]),
            ("log10", [0.5, 3.0, 1e10, 1.5], [0.0; 4]),
            ("sin", [0.3, 2.0, -100.0, 1e5], [0.0; 4]),
            ("cos", [0.3, 2.0, -100.0, 1e5], [0.0; 4]),
            ("tan", [0.3, 2.0, -100.0, 1e5], [0.0; 4]),
            ("erf", [0.3, 1.0, 3.0, -7.0], [0.0; 4]),
            ("erfc", [0.1, -0.5, 1.0, -3.0], [0.0; 4]),
            ("erfc", [0.5, 1e-20, 20.0, 30.0], [0.0; 4]),
            ("cbrt", [2.0, -10.0, 0.3, 1e300], [0.0; 4]),
            ("cbrt", [-1e-300, 3.5, 1e-5, -7.0], [0.0; 4]),
            ("atan", [0.3, 1.0, 3.0, -1e30], [0.0; 4]),
            ("asin", [0.3, -0.6, 0.99, 1e-10], [0.0; 4]),
            ("acos", [0.3, -0.6, 0.99, 1e-10], [0.0; 4]),
            ("expm1", [1e-3, 0.5, -3.0, 20.0], [0.0; 4]),
            ("tanh", [0.1, 0.4, 1.0, -5.0], [0.0; 4]),
            ("sinh", [1e-9, 0.5, 3.0, -20.0], [0.0; 4]),
            ("cosh", [1e-9, 0.5, 3.0, -100.0], [0.0; 4]),
            ("log1p", [1e-3, 0.3, -0.5, 100.0], [0.0; 4]),
            ("asinh", [1e-9, 0.5, 3.0, -1e9], [0.0; 4]),
            ("acosh", [1.0001, 1.5, 3.0, 1e9], [0.0; 4]),
            ("atanh", [1e-11, 0.3, -0.7, 0.99], [0.0; 4]),
            ("pow", [1.5, 10.0, 0.3, 7.0], [2.3, -1.7, 3.3, 0.1]),
            ("atan2", [1.0, -3.0, 2.0, -1.0], [2.0, 0.5, -5.0, -1.0]),
            (
                "hypot",
                [3.0, -1e300, 1e-300, f64::INFINITY],
                [4.0, 2.0, -5e-310, f64::NAN],
            ),
        ];
        for (name, x, y) in cases {
            let f = Function::named(name).unwrap();
            // SAFETY: the CPU has AVX2 (checked above).
            let handled = unsafe { avx2::handled_lanes(f, x, y) };
            assert_eq!(handled, 0b1111, "{name}({x:?}, {y:?}): lanes computed {handled:#06b}");
        }
    }

    #[test]
    fn cbrt_of_cubes_matches_libm() {
        // Exact cubes (libm's exactness test and its rounding of the
        // result's last 16 bits) at several scales, and their neighbours.
        for k in 1..60_000u64 {
            let c = (k * k * k) as f64;
            let scale = [1.0, 0.125, 2f64.powi(-600), 2f64.powi(900)][(k % 4) as usize];
            let x = c * scale;
            let n = [f64::from_bits(x.to_bits() - 1), x, -x, f64::from_bits(x.to_bits() + 1)];
            check("cbrt", &[n]);
        }
    }

    #[test]
    fn atan2_matches_libm() {
        // Every pair of the special values and boundaries (zeros,
        // infinities, NaNs, 1, the high words where atan's ranges change),
        // then random pairs: any bits, ratios around 2^+-64 (the steep and
        // flat cases), both signs, the usual sizes.
        let specials: Vec<f64> = boundaries().into_iter().step_by(7).collect();
        check_pairs(
            "atan2",
            &specials,
            &specials,
            (1.5, -2.5),
            0x5555_1234_abcd_0987,
            |round, a, b| {
                let u = a as i64 as f64 / 9.3e18;
                let v = b as i64 as f64 / 9.3e18;
                match round % 4 {
                    0 => (f64::from_bits(a), f64::from_bits(b)),
                    // |y/x| near 2^64 and 2^-64 (either way round).
                    1 => {
                        let e = if a & 1 == 0 { 64 } else { -64 };
                        (u * 2f64.powi(e) * (1.0 + v.abs()), v)
                    }
                    2 => (u * 1e3, v * 1e-3),
                    _ => (u * 10.0, v * 10.0),
                }
            },
        );
    }

    #[test]
    fn hypot_matches_libm() {
        // Every pair of a fifth of the special values and boundaries
        // (zeros, infinities, NaNs with payloads), with the exponents where
        // libm's hypot scales (2^511, 2^-450) and its far case (exponents
        // 64 apart) around them; then random pairs: any bits, exponents
        // near those bounds and 64 apart, the usual sizes, subnormals.
        let mut specials: Vec<f64> = boundaries().into_iter().step_by(5).collect();
        for e in [511, 512, -449, -450, -451, 0, 64, 65, -64, -1022, 1023] {
            let p = 2f64.powi(e);
            specials.extend([p, -p * 1.5, f64::from_bits(p.to_bits() - 1)]);
        }
        // The smallest subnormal (powi cannot make it).
        specials.push(f64::from_bits(1));
        specials.push(f64::from_bits(0x7ff8_0000_0000_1234));
        specials.push(f64::from_bits(0xfff0_0000_0000_0001));
        check_pairs(
            "hypot",
            &specials,
            &specials,
            (3.0, -4.0),
            0x7777_0123_4567_abcd,
            |round, a, b| {
                let u = a as i64 as f64 / 9.3e18;
                let v = b as i64 as f64 / 9.3e18;
                let near = |e: i32, w: f64| w * 2f64.powi(e);
                match round % 6 {
                    0 => (f64::from_bits(a), f64::from_bits(b)),
                    1 => (near(511 + (a % 3) as i32 - 1, 1.0 + u.abs()), v * 1e100),
                    2 => (near(-450 + (a % 3) as i32 - 1, 1.0 + u.abs()), near(-460, v)),
                    3 => (u, near(-64 + (b % 3) as i32 - 1, 1.0 + v.abs())),
                    4 => (f64::from_bits(a >> 12), f64::from_bits(b >> 12)),
                    _ => (u * 10.0, v * 10.0),
                }
            },
        );
    }

    #[test]
    fn eight_lane_forms_match_the_four_lane_ones() {
        use core::arch::x86_64::{__m128d, _mm_loadu_pd};
        #[allow(improper_ctypes_definitions)] // see `entry_points!`
        type Four = unsafe extern "C" fn(__m128d, __m128d, *mut f64);
        #[allow(improper_ctypes_definitions)] // see `entry_points!`
        type Eight = unsafe extern "C" fn(__m128d, __m128d, __m128d, __m128d, *mut f64);
        let b = boundaries();
        let mut s = 0x0123_4567_89ab_cdefu64;
        for name in NAMES {
            // SAFETY: the addresses are of functions of these types.
            let (f, g) = unsafe {
                (
                    core::mem::transmute::<usize, Four>(four_lanes(name).unwrap()),
                    core::mem::transmute::<usize, Eight>(eight_lanes(name).unwrap()),
                )
            };
            for round in 0..b.len() + 20_000 {
                let x: [f64; 8] = core::array::from_fn(|k| match b.get(round) {
                    Some(_) => b[(round + 5 * k) % b.len()],
                    None => f64::from_bits(next(&mut s)) * if k % 2 == 0 { 1.0 } else { 1e-300 },
                });
                let (mut four, mut eight) = ([0.0f64; 8], [0.0f64; 8]);
                // SAFETY: `x` holds eight doubles (unaligned loads, SSE2 is
                // part of x86-64); `four` and `eight` eight writable ones.
                unsafe {
                    let h: [__m128d; 4] = core::array::from_fn(|k| _mm_loadu_pd(x.as_ptr().add(2 * k)));
                    f(h[0], h[1], four.as_mut_ptr());
                    f(h[2], h[3], four.as_mut_ptr().add(4));
                    g(h[0], h[1], h[2], h[3], eight.as_mut_ptr());
                }
                for k in 0..8 {
                    assert_eq!(
                        four[k].to_bits(),
                        eight[k].to_bits(),
                        "{name}({:e}) lane {k}: eight-lane form against the four-lane one",
                        x[k]
                    );
                }
            }
        }
        assert!(eight_lanes("pow").is_none());
    }

    #[test]
    fn entry_points_store_libm_lanes() {
        use core::arch::x86_64::_mm_setr_pd;
        for name in NAMES {
            let addr = four_lanes(name).unwrap();
            // SAFETY: `four_lanes` returns an `extern "C" fn(__m128d,
            // __m128d, *mut f64)`; `out` holds four doubles.
            unsafe {
                #[allow(improper_ctypes_definitions)] // see `entry_points!`
                type Four = unsafe extern "C" fn(core::arch::x86_64::__m128d, core::arch::x86_64::__m128d, *mut f64);
                let f: Four = core::mem::transmute::<usize, Four>(addr);
                let x = [0.25, -3.0, 700.0, 1e-300];
                let mut out = [0.0; 4];
                f(_mm_setr_pd(x[0], x[1]), _mm_setr_pd(x[2], x[3]), out.as_mut_ptr());
                for (a, v) in x.iter().zip(out) {
                    assert_eq!(v.to_bits(), reference(name, *a, 0.0).unwrap().to_bits(), "{name}({a})");
                }
            }
        }
        assert!(four_lanes("atan2").is_none());
    }
}
