//! `acos`, `asin`, `atan`, `erfc`, `cbrt`, `expm1`, `tanh`, `sinh`, `cosh`, `log1p`,
//! `asinh`, `acosh`, `atanh`, `atan2` and the pi forms `acospi`, `asinpi`,
//! `atanpi`, `atan2pi` of `float` on four and eight lanes, bit for bit
//! the scalar functions (`math_shared`'s `clift_atan_f32`, ...,
//! `math_f32`'s `clift_atanpi_f32`, ...).
//!
//! Each of those scalar functions is `libm`'s `double` function of the
//! widened arguments (exact), divided by pi in `double` for the pi forms,
//! rounded to `float` once. The vector forms do the same on four lanes:
//! the arguments widened in one instruction (`vcvtps2pd`, exact as `as
//! f64`), `crate::libm_lanes`' AVX2 form of the `double` function (bitwise
//! `libm`'s on each lane, the lanes it does not compute given to `libm`
//! itself), the division (`vdivpd`, the same IEEE division), and one
//! rounding (`vcvtpd2ps`, to nearest even as `as f32`; NaNs are quieted by
//! both conversions as by the scalar ones). So each lane's bits are the
//! scalar function's, on every CPU: without AVX2 the entry points call the
//! scalar function lane by lane.
//!
//! The entry points follow the conventions of `crate::float_lanes`: the
//! 4-lane form takes and returns its lanes in `xmm0` (`xmm0`, `xmm1` for
//! two arguments), the 8-lane form takes both 4-lane parts (of each
//! argument) in `xmm` registers and stores eight floats to `rdi`.

use core::f64::consts::PI;

use crate::libm_lanes::Function;

/// How a function here is computed from `libm`'s: which `double`
/// function, and whether its result is divided by pi before the rounding.
#[derive(Clone, Copy)]
#[cfg_attr(not(all(target_arch = "x86_64", not(windows))), allow(dead_code))]
struct Form {
    f: Function,
    over_pi: bool,
}

#[cfg_attr(not(all(target_arch = "x86_64", not(windows))), allow(dead_code))]
impl Form {
    /// The form of OpenCL.std `name`, if it is one of this module's.
    fn named(name: &str) -> Option<Form> {
        let (base, over_pi) = match name.strip_suffix("pi") {
            Some(base @ ("acos" | "asin" | "atan" | "atan2")) => (base, true),
            _ => (name, false),
        };
        match base {
            "acos" | "asin" | "atan" | "erfc" | "cbrt" | "expm1" | "tanh" | "sinh" | "cosh" | "log1p" | "asinh"
            | "acosh" | "atanh" | "atan2" => Some(Form {
                f: Function::named(base)?,
                over_pi,
            }),
            _ => None,
        }
    }

    /// Whether the function takes two arguments (atan2, atan2pi).
    fn binary(self) -> bool {
        self.f == Function::Atan2
    }

    /// The function of one lane's arguments (`y` only for the two-argument
    /// ones), as the scalar function computes it.
    fn scalar(self, x: f32, y: f32) -> f32 {
        let r = self.f.call(x as f64, y as f64);
        (if self.over_pi { r / PI } else { r }) as f32
    }
}

/// The entry points: `$name`'s 4-lane and 8-lane forms, portable (the
/// scalar function per lane) and AVX2 (each in `portable` and `avx2`).
#[cfg(all(target_arch = "x86_64", not(windows)))]
macro_rules! entry_points {
    ($($name:literal: $four:ident, $eight:ident => $f:ident, $pi:literal;)*) => {
        /// The portable forms: the scalar function on each lane.
        mod portable {
            use core::arch::x86_64::*;

            use super::Form;
            use crate::libm_lanes::Function;

            /// `form` on the lanes of `x` (and `y`).
            fn each(form: Form, x: __m128, y: __m128) -> __m128 {
                let (mut xs, mut ys) = ([0f32; 4], [0f32; 4]);
                // SAFETY: `xs`, `ys` and `r` hold four floats (unaligned
                // accesses; SSE is part of x86-64).
                unsafe {
                    _mm_storeu_ps(xs.as_mut_ptr(), x);
                    _mm_storeu_ps(ys.as_mut_ptr(), y);
                    let r: [f32; 4] = core::array::from_fn(|k| form.scalar(xs[k], ys[k]));
                    _mm_loadu_ps(r.as_ptr())
                }
            }

            $(
                #[doc = concat!("`", $name, "` on four floats, lane by lane.")]
                // `__m128` is an SSE vector, which the System V ABI passes in
                // `xmm` registers; the lint only says that Rust does not
                // promise a C layout for SIMD types in general.
                #[allow(improper_ctypes_definitions)]
                pub extern "C" fn $four(x: __m128, y: __m128) -> __m128 {
                    each(Form { f: Function::$f, over_pi: $pi }, x, y)
                }

                #[doc = concat!("`", $name, "` on two 4-lane parts, lane by lane.")]
                ///
                /// # Safety
                /// `out` must be valid for writes of eight floats (any
                /// alignment).
                #[allow(improper_ctypes_definitions)] // as the 4-lane form
                pub unsafe extern "C" fn $eight(x0: __m128, x1: __m128, y0: __m128, y1: __m128, out: *mut f32) {
                    let form = Form { f: Function::$f, over_pi: $pi };
                    // SAFETY: the caller passes eight writable floats.
                    unsafe {
                        _mm_storeu_ps(out, each(form, x0, y0));
                        _mm_storeu_ps(out.add(4), each(form, x1, y1));
                    }
                }
            )*
        }

        /// The AVX2 forms.
        mod avx2 {
            use core::arch::x86_64::*;

            use super::Form;
            use crate::libm_lanes::Function;

            /// The AVX2 `double` form of `form` on the widened lanes of `x`
            /// (and `y`), divided by pi for the pi forms, rounded to float.
            ///
            /// # Safety
            /// The CPU must have AVX2.
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn four(form: Form, x: __m128, y: __m128) -> __m128 {
                // SAFETY: the CPU has AVX2 (the caller's promise).
                let r = unsafe { crate::libm_lanes::avx2::lanes(form.f, _mm256_cvtps_pd(x), _mm256_cvtps_pd(y)) };
                rounded(form, r)
            }

            /// [`four`] on two parts, their computations side by side,
            /// stored to `out` (eight floats).
            ///
            /// # Safety
            /// The CPU must have AVX2; `out` must be valid for writes of
            /// eight floats (any alignment).
            #[inline]
            #[target_feature(enable = "avx2")]
            unsafe fn eight(form: Form, x: [__m128; 2], y: [__m128; 2], out: *mut f32) {
                let wide = |v: __m128| _mm256_cvtps_pd(v);
                // SAFETY: the CPU has AVX2 (the caller's promise).
                let (r0, r1) = unsafe {
                    crate::libm_lanes::avx2::lanes_both(form.f, (wide(x[0]), wide(y[0])), (wide(x[1]), wide(y[1])))
                };
                // SAFETY: the caller passes eight writable floats.
                unsafe {
                    _mm_storeu_ps(out, rounded(form, r0));
                    _mm_storeu_ps(out.add(4), rounded(form, r1));
                }
            }

            /// The `double` results `r` divided by pi for the pi forms,
            /// rounded to float.
            #[inline]
            #[target_feature(enable = "avx2")]
            fn rounded(form: Form, r: __m256d) -> __m128 {
                let r = if form.over_pi {
                    _mm256_div_pd(r, _mm256_set1_pd(core::f64::consts::PI))
                } else {
                    r
                };
                _mm256_cvtpd_ps(r)
            }

            $(
                #[doc = concat!("`", $name, "` on four floats (AVX2).")]
                ///
                /// # Safety
                /// The CPU must have AVX2.
                #[allow(improper_ctypes_definitions)] // see `portable`
                #[target_feature(enable = "avx2")]
                pub unsafe extern "C" fn $four(x: __m128, y: __m128) -> __m128 {
                    // SAFETY: the CPU has AVX2 (the caller's promise).
                    unsafe { four(Form { f: Function::$f, over_pi: $pi }, x, y) }
                }

                #[doc = concat!("`", $name, "` on two 4-lane parts (AVX2).")]
                ///
                /// # Safety
                /// The CPU must have AVX2; `out` must be valid for writes
                /// of eight floats (any alignment).
                #[allow(improper_ctypes_definitions)] // see `portable`
                #[target_feature(enable = "avx2")]
                pub unsafe extern "C" fn $eight(x0: __m128, x1: __m128, y0: __m128, y1: __m128, out: *mut f32) {
                    // SAFETY: the CPU has AVX2 and `out` holds eight
                    // writable floats (the caller's promises).
                    unsafe { eight(Form { f: Function::$f, over_pi: $pi }, [x0, x1], [y0, y1], out) }
                }
            )*
        }

        /// The addresses of the 4-lane and 8-lane entry points of `name`:
        /// the AVX2 ones where the CPU has AVX2, else the portable ones.
        fn entry_points_of(name: &str) -> Option<(usize, usize)> {
            #[allow(improper_ctypes_definitions)] // see `portable`
            type Four = unsafe extern "C" fn(
                core::arch::x86_64::__m128,
                core::arch::x86_64::__m128,
            ) -> core::arch::x86_64::__m128;
            #[allow(improper_ctypes_definitions)] // see `portable`
            type Eight = unsafe extern "C" fn(
                core::arch::x86_64::__m128,
                core::arch::x86_64::__m128,
                core::arch::x86_64::__m128,
                core::arch::x86_64::__m128,
                *mut f32,
            );
            let avx2 = is_x86_feature_detected!("avx2");
            let (four, eight): (Four, Eight) = match (name, avx2) {
                $(
                    ($name, true) => (avx2::$four, avx2::$eight),
                    ($name, false) => (portable::$four, portable::$eight),
                )*
                _ => return None,
            };
            Some((four as usize, eight as usize))
        }

        /// The 4-lane and 8-lane entry points of `name`: the portable
        /// ones, then the AVX2 ones where the CPU has AVX2 (for tests,
        /// which check each against the scalar function).
        #[cfg(test)]
        fn every_form_of(name: &str) -> Vec<(usize, usize)> {
            let mut forms = Vec::new();
            $(
                if name == $name {
                    forms.push((portable::$four as *const () as usize, portable::$eight as *const () as usize));
                    if is_x86_feature_detected!("avx2") {
                        forms.push((avx2::$four as *const () as usize, avx2::$eight as *const () as usize));
                    }
                }
            )*
            forms
        }
    };
}

#[cfg(all(target_arch = "x86_64", not(windows)))]
entry_points! {
    "acos": acos_v4, acos_v8 => Acos, false;
    "asin": asin_v4, asin_v8 => Asin, false;
    "atan": atan_v4, atan_v8 => Atan, false;
    "erfc": erfc_v4, erfc_v8 => Erfc, false;
    "cbrt": cbrt_v4, cbrt_v8 => Cbrt, false;
    "expm1": expm1_v4, expm1_v8 => Expm1, false;
    "tanh": tanh_v4, tanh_v8 => Tanh, false;
    "sinh": sinh_v4, sinh_v8 => Sinh, false;
    "cosh": cosh_v4, cosh_v8 => Cosh, false;
    "log1p": log1p_v4, log1p_v8 => Log1p, false;
    "asinh": asinh_v4, asinh_v8 => Asinh, false;
    "acosh": acosh_v4, acosh_v8 => Acosh, false;
    "atanh": atanh_v4, atanh_v8 => Atanh, false;
    "atan2": atan2_v4, atan2_v8 => Atan2, false;
    "acospi": acospi_v4, acospi_v8 => Acos, true;
    "asinpi": asinpi_v4, asinpi_v8 => Asin, true;
    "atanpi": atanpi_v4, atanpi_v8 => Atan, true;
    "atan2pi": atan2pi_v4, atan2pi_v8 => Atan2, true;
}

/// The address of the 4-lane register form of one-argument `name` (an
/// OpenCL.std name of this module's) for JIT code on x86-64 System V: an
/// `extern "C" fn(__m128) -> __m128` (the entry point's second argument,
/// unused by one-argument functions, is whatever `xmm1` holds).
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn four_lanes_in_register(name: &str) -> Option<usize> {
    let form = Form::named(name)?;
    (!form.binary()).then_some(entry_points_of(name)?.0)
}

/// The address of the 8-lane form of one-argument `name` for JIT code on
/// x86-64 System V: an `extern "C" fn(__m128, __m128, *mut f32)` (part
/// 0's lanes in `xmm0`, part 1's in `xmm1`, eight results to `rdi`; the
/// unused second argument's parts are whatever `xmm2` and `xmm3` hold).
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn eight_lanes(name: &str) -> Option<usize> {
    let form = Form::named(name)?;
    (!form.binary()).then_some(entry_points_of(name)?.1)
}

/// The address of the 4-lane register form of two-argument `name`
/// (`atan2`, `atan2pi`): an `extern "C" fn(__m128, __m128) -> __m128`.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn four_lanes_in_register_binary(name: &str) -> Option<usize> {
    let form = Form::named(name)?;
    form.binary().then_some(entry_points_of(name)?.0)
}

/// The address of the 8-lane form of two-argument `name` (`atan2`,
/// `atan2pi`): an `extern "C" fn(__m128, __m128, __m128, __m128, *mut
/// f32)`, the first argument's parts in `xmm0` and `xmm1`, the second's
/// in `xmm2` and `xmm3`.
#[cfg(all(target_arch = "x86_64", not(windows)))]
pub fn eight_lanes_binary(name: &str) -> Option<usize> {
    let form = Form::named(name)?;
    form.binary().then_some(entry_points_of(name)?.1)
}

/// Elsewhere no vector forms: these functions run lane by lane.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn four_lanes_in_register(_name: &str) -> Option<usize> {
    None
}

/// Elsewhere no vector forms.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn eight_lanes(_name: &str) -> Option<usize> {
    None
}

/// Elsewhere no vector forms.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn four_lanes_in_register_binary(_name: &str) -> Option<usize> {
    None
}

/// Elsewhere no vector forms.
#[cfg(not(all(target_arch = "x86_64", not(windows))))]
pub fn eight_lanes_binary(_name: &str) -> Option<usize> {
    None
}

#[cfg(all(test, target_arch = "x86_64", not(windows)))]
mod tests {
    use core::arch::x86_64::*;

    use super::*;
    use crate::opencl_std::{FnPtr, Scalar, OPENCL_STD};

    /// The functions here, by OpenCL.std name.
    const NAMES: [&str; 18] = [
        "acos", "asin", "atan", "erfc", "cbrt", "expm1", "tanh", "sinh", "cosh", "log1p", "asinh", "acosh", "atanh",
        "atan2", "acospi", "asinpi", "atanpi", "atan2pi",
    ];

    /// The scalar function the OpenCL.std table gives the scalar lowering
    /// for `float` `name` (the second argument only for two-argument
    /// functions).
    fn scalar(name: &str) -> Box<dyn Fn(f32, f32) -> f32> {
        let row = OPENCL_STD.iter().find(|r| r.name == name).unwrap();
        match row.host_fn(Scalar::F32, "").unwrap().func {
            FnPtr::F32_F32(f) => Box::new(move |x, _| f(x)),
            FnPtr::F32F32_F32(f) => Box::new(move |x, y| f(x, y)),
            _ => panic!("{name}: not a float function of floats"),
        }
    }

    #[allow(improper_ctypes_definitions)] // see `portable`
    type Four = unsafe extern "C" fn(__m128, __m128) -> __m128;
    #[allow(improper_ctypes_definitions)] // see `portable`
    type Eight = unsafe extern "C" fn(__m128, __m128, __m128, __m128, *mut f32);

    /// Every entry point of `name` on the eight lanes of `x` (and `y`),
    /// each lane bit for bit the scalar function's.
    fn check(name: &str, x: [f32; 8], y: [f32; 8]) {
        let want = scalar(name);
        for (four, eight) in every_form_of(name) {
            // SAFETY: the addresses are entry points of these types
            // (`every_form_of` gives the AVX2 ones only where the CPU has
            // AVX2); every load and store is of eight floats in arrays of
            // eight.
            let got: [[f32; 8]; 2] = unsafe {
                let (four, eight) = (
                    core::mem::transmute::<usize, Four>(four),
                    core::mem::transmute::<usize, Eight>(eight),
                );
                let v = |a: &[f32; 8], k: usize| _mm_loadu_ps(a.as_ptr().add(4 * k));
                let mut by_four = [0f32; 8];
                _mm_storeu_ps(by_four.as_mut_ptr(), four(v(&x, 0), v(&y, 0)));
                _mm_storeu_ps(by_four.as_mut_ptr().add(4), four(v(&x, 1), v(&y, 1)));
                let mut by_eight = [0f32; 8];
                eight(v(&x, 0), v(&x, 1), v(&y, 0), v(&y, 1), by_eight.as_mut_ptr());
                [by_four, by_eight]
            };
            for (form, lanes) in ["4-lane", "8-lane"].iter().zip(got) {
                for lane in 0..8 {
                    let w = want(x[lane], y[lane]);
                    assert!(
                        lanes[lane].to_bits() == w.to_bits(),
                        "{name} {form}({:e}, {:e}) [{:#010x}, {:#010x}] lane {lane}: {:e} [{:#010x}] against the scalar {w:e} [{:#010x}]",
                        x[lane],
                        y[lane],
                        x[lane].to_bits(),
                        y[lane].to_bits(),
                        lanes[lane],
                        lanes[lane].to_bits(),
                        w.to_bits()
                    );
                }
            }
        }
    }

    /// The special values and, with their neighbours, the arguments where
    /// a branch of one of the `double` forms changes (`libm_lanes`), as
    /// floats.
    fn boundaries() -> Vec<f32> {
        let mut b = vec![
            0.0f32,
            f32::INFINITY,
            f32::NAN,
            f32::from_bits(0x7f80_0001), // signalling NaN
            f32::from_bits(0x7fc1_2345), // NaN with a payload
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            1.0,
            0.5,
            0.4375,
            0.6875,
            1.1875,
            2.4375,
            0.84375,
            0.975,
            2.0,
            19.4,
            22.0,
            26.5,
            28.0,
            38.8,
            88.7,
            89.5,
            core::f32::consts::LN_2,
            core::f32::consts::LN_2 / 2.0,
            0.2929,
            0.4142,
            (2f32).powi(-26),
            (2f32).powi(-28),
            (2f32).powi(-32),
            (2f32).powi(-54 + 60) / (2f32).powi(60),
            (2f32).powi(26),
            (2f32).powi(28),
            (2f32).powi(64),
            (2f32).powi(-64),
            // Where asin(x) / pi and asin(x) * (1 / pi) round to different
            // floats (a search over every float): the pi forms divide.
            f32::from_bits(0x3929_f13b),
            // Exact cubes.
            8.0,
            27.0,
            0.125,
        ];
        let mut out = Vec::new();
        for v in b.drain(..) {
            for s in [1.0f32, -1.0] {
                for d in [-1i32, 0, 1] {
                    let w = f32::from_bits((v * s).to_bits().wrapping_add(d as u32));
                    out.push(w);
                }
            }
        }
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
    fn boundaries_match_the_scalar_functions() {
        let b = boundaries();
        let n = b.len();
        for name in NAMES {
            for i in 0..n {
                let x = core::array::from_fn(|k| b[(i + 5 * k) % n]);
                let y = core::array::from_fn(|k| b[(i * 7 + 3 * k + 1) % n]);
                check(name, x, y);
            }
        }
    }

    #[test]
    fn random_arguments_match_the_scalar_functions() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for name in NAMES {
            for round in 0..20_000 {
                let mut arg = || {
                    let r = next(&mut s);
                    let signed = (r as i64 as f64 / 9.3e18) as f32;
                    match round % 4 {
                        // Any bits.
                        0 => f32::from_bits(r as u32),
                        // (-1, 1): asin's, acos's and atanh's domain.
                        1 => signed,
                        // Up to 40: tanh's, expm1's, sinh's and cosh's
                        // ranges and beyond.
                        2 => signed * 40.0,
                        // Any exponent, either sign.
                        _ => f32::from_bits((r as u32 & 0x807f_ffff) | (((r >> 40) as u32 % 255) << 23)),
                    }
                };
                let x = core::array::from_fn(|_| arg());
                let y = core::array::from_fn(|_| arg());
                check(name, x, y);
            }
        }
    }

    /// Where the CPU has AVX2, the JIT gets the AVX2 entry points (the
    /// portable ones compute lane by lane).
    #[test]
    fn the_jit_gets_the_avx2_forms() {
        for name in NAMES {
            let forms = every_form_of(name);
            let two = Form::named(name).unwrap().binary();
            let got = if two {
                (four_lanes_in_register_binary(name), eight_lanes_binary(name))
            } else {
                (four_lanes_in_register(name), eight_lanes(name))
            };
            let last = *forms.last().unwrap();
            assert_eq!(got, (Some(last.0), Some(last.1)), "{name}");
            assert_eq!(forms.len(), if is_x86_feature_detected!("avx2") { 2 } else { 1 });
            let (one, other) = (four_lanes_in_register(name), four_lanes_in_register_binary(name));
            assert_eq!(
                (one.is_some(), other.is_some()),
                (!two, two),
                "{name}: one form by arity"
            );
        }
        // The float functions of other modules are not these.
        for name in ["exp", "log", "erf", "sin", "pow", "sinpi", "exp2", "hypot"] {
            assert!(Form::named(name).is_none(), "{name}");
        }
    }
}
