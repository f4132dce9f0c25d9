//! `sin` and `cos` of `float`, four lanes at a time, evaluated in `double`
//! (`crate::float_lanes` has `exp`, `log` and `erf`, in `float`
//! arithmetic; its entry points are re-exported here).
//!
//! Each function is one algorithm written once, generic over `Lanes`: a
//! set of `f64` lanes with IEEE operations and a fused multiply-add. It is
//! instantiated for one `f64` (the scalar functions `clift_sin_f32`, ...,
//! and the remainder lanes of a 4-lane kernel body) and, on x86-64 with
//! AVX2 and FMA, for four `f64`s in one `__m256d` (the 4-lane entry points).
//! Every operation is exact or rounded once (the multiply-adds are fused
//! in both: the hardware instruction, or `f64::mul_add`, which is
//! correctly rounded in software where the CPU has no FMA), so the scalar
//! and the vector results are bitwise identical on every machine.
//!
//! A `float` argument converts to `f64` exactly (denormals become normal
//! doubles), the function is evaluated with a relative error below
//! 2^-31, and the result is rounded to `float` once. The error is
//! therefore at most 0.5 ulp plus a few thousandths of an ulp.
//!
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

pub use crate::float_lanes::{
    clift_erf_f32, clift_erf_f32x4, clift_exp_f32, clift_exp_f32x4, clift_log_f32, clift_log_f32x4,
};
#[cfg(target_arch = "x86_64")]
pub use crate::float_lanes::{clift_erf_v4, clift_erf_v8, clift_exp_v4, clift_exp_v8, clift_log_v4, clift_log_v8};

/// The product and the fused multiply-add of a set of lanes: what
/// [`estrin`] needs, for the `f64` lanes here and the `f32` lanes of
/// `crate::float_lanes`.
pub(crate) trait Arith: Copy {
    /// `self * o`.
    fn mul(self, o: Self) -> Self;
    /// `self * b + c`, rounded once.
    fn fma(self, b: Self, c: Self) -> Self;
}

/// A set of `f64` lanes: what the algorithms below need. Implemented for
/// `f64` (one lane) and, on x86-64, for AVX2's `__m256d`.
pub(crate) trait Lanes: Arith {
    /// Lane masks (all ones / all zeros per lane, or a `bool`).
    type Mask: Copy;
    /// Every lane `x`.
    fn splat(x: f64) -> Self;
    /// `self + o`.
    fn add(self, o: Self) -> Self;
    /// `self - o`.
    fn sub(self, o: Self) -> Self;
    /// `m ? a : b`, lane by lane.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
    /// Whether bit `n` of the bits of `self` is set (the quadrant of
    /// `sin` and `cos`, in the low bits of `k + 1.5 * 2^52`).
    fn bit(self, n: u32) -> Self::Mask;
}

/// One lane. `mul_add` is the fused multiply-add (the FMA instruction
/// where the function is compiled with it, a correctly rounded software
/// fused multiply-add otherwise).
impl Arith for f64 {
    #[inline(always)]
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    #[inline(always)]
    fn fma(self, b: f64, c: f64) -> f64 {
        self.mul_add(b, c)
    }
}

impl Lanes for f64 {
    type Mask = bool;
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
    fn select(m: bool, a: f64, b: f64) -> f64 {
        if m {
            a
        } else {
            b
        }
    }
    #[inline(always)]
    fn bit(self, n: u32) -> bool {
        (self.to_bits() >> n) & 1 == 1
    }
}

/// 1.5 * 2^52: adding it rounds a double of magnitude < 2^51 to an
/// integer (to nearest, ties to even), which lands in the low bits.
const SHIFT: f64 = 6_755_399_441_055_744.0;

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
    if let Some(y) = crate::float_lanes::without_fma_instruction(name, x) {
        return Some(y);
    }
    let large = is_large(x);
    let x64 = x as f64;
    Some(match name {
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
    if let Some(f) = crate::float_lanes::four_lanes_in_register(name) {
        return Some(f);
    }
    let avx = has_avx2_fma();
    let f: Reg = match (name, avx) {
        ("sin", true) => avx2::sin,
        ("cos", true) => avx2::cos,
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
    /// `sin(x)`: at most 0.5 ulp plus about 0.001 ulp.
    sin: clift_sin_f32, clift_sin_f32x4, clift_sin_v4, sin_fma1, large: large_sin;
    /// `cos(x)`: at most 0.5 ulp plus about 0.001 ulp.
    cos: clift_cos_f32, clift_cos_f32x4, clift_cos_v4, cos_fma1, large: large_cos;
}

/// The AVX2 + FMA instantiation: four `f64` lanes in one `__m256d`.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    use super::{Arith, Lanes};

    /// Four lanes. Values of this type exist only inside the
    /// `#[target_feature(enable = "avx2,fma")]` functions below, which run
    /// only after `has_avx2_fma` said yes: that is what makes the
    /// intrinsics in its methods sound (the methods are always inlined
    /// into those functions).
    #[derive(Clone, Copy)]
    pub(super) struct V4(__m256d);

    impl Arith for V4 {
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
    }

    impl Lanes for V4 {
        type Mask = __m256d;
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
        fn select(m: __m256d, a: V4, b: V4) -> V4 {
            // SAFETY: AVX is available (see `V4`).
            V4(unsafe { _mm256_blendv_pd(b.0, a.0, m) })
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

    x4!(sin large large_sin, cos large large_cos);

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
