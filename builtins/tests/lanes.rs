//! The SIMD `exp`, `log` and `erf` (`clift_builtins::float_lanes`, in
//! `float`) and `sin`, `cos`, `tan`, `exp2`, `exp10`, `log2` and `log10`
//! (`clift_builtins::double_lanes`, in `double`): the 4-lane entry points (in place through a pointer, and in
//! an SSE register) and the 8-lane ones must give bitwise the scalar
//! functions' results lane by lane, and the
//! scalar form without the FMA instruction (what a CPU without FMA runs)
//! must too, on special values, denormals, interval and threshold
//! boundaries with their neighbours, and random inputs. The accuracy
//! against MPFR is `tests/ulp.rs`'s job; a few exact values are checked
//! here.

mod common;

use clift_builtins::double_lanes::TRIG_BOUND;
use clift_builtins::math_f32::*;
use common::SplitMix;

/// The scalar function `name` without the FMA instruction (the module
/// that has it).
fn without_fma_instruction(name: &str, x: f32) -> Option<f32> {
    clift_builtins::float_lanes::without_fma_instruction(name, x)
        .or_else(|| clift_builtins::double_lanes::without_fma_instruction(name, x))
}

type Scalar = extern "C" fn(f32) -> f32;
type Four = unsafe extern "C" fn(*mut f32);

const FUNCTIONS: [(&str, Scalar, Four); 10] = [
    ("exp", clift_exp_f32, clift_exp_f32x4),
    ("log", clift_log_f32, clift_log_f32x4),
    ("erf", clift_erf_f32, clift_erf_f32x4),
    ("sin", clift_sin_f32, clift_sin_f32x4),
    ("cos", clift_cos_f32, clift_cos_f32x4),
    ("tan", clift_tan_f32, clift_tan_f32x4),
    ("exp2", clift_exp2_f32, clift_exp2_f32x4),
    ("exp10", clift_exp10_f32, clift_exp10_f32x4),
    ("log2", clift_log2_f32, clift_log2_f32x4),
    ("log10", clift_log10_f32, clift_log10_f32x4),
];

/// Special values, boundaries of the algorithms (clamps, thresholds of
/// overflow and underflow, erf's intervals, log's split at sqrt(1/2),
/// sin's and cos's bound for their own reduction, multiples of pi/4) and
/// ±4 ulp around each, then random bit patterns and random values in
/// [-110, 110].
fn inputs() -> Vec<f32> {
    let base = [
        0.0f32,
        f32::INFINITY,
        f32::NAN,
        f32::from_bits(0x7fa0_0000), // a signalling NaN
        f32::from_bits(0x7fc1_2345), // a NaN with a payload
        f32::from_bits(1),
        f32::from_bits(2),
        f32::from_bits(0x007f_ffff),
        f32::MIN_POSITIVE,
        f32::MAX,
        f32::EPSILON,
        1e-30,
        1e-8,
        0.5,
        1.0,
        2.0,
        3.0,
        // erf's interval boundaries and middles (float_lanes), its
        // threshold of 1, and the boundaries before (1.25 + k 2.75 / 3).
        1.25,
        2.166_666_7,
        3.083_333_3,
        1.375,
        1.75,
        2.1875,
        2.625,
        3.25,
        3.875,
        3.281_25,
        3.9375,
        3.919_206,
        3.832_507,
        3.9,
        4.0,
        5.0,
        core::f32::consts::SQRT_2,
        core::f32::consts::FRAC_1_SQRT_2,
        core::f32::consts::LN_2,
        core::f32::consts::E,
        88.722_83,
        88.722_84,
        89.0,
        -87.336_55,
        -103.278_93,
        -103.972_08,
        -104.0,
        -105.0,
        1e10,
        123_456.79,
        TRIG_BOUND,
        16_777_215.0,
        1e7,
        3e7,
        // exp2's and exp10's overflow and underflow thresholds, powers of
        // ten.
        127.999_99,
        128.0,
        -126.0,
        -149.0,
        -150.0,
        38.531_84,
        -44.85,
        -45.15,
        10.0,
        1000.0,
        core::f32::consts::FRAC_PI_4,
        core::f32::consts::FRAC_PI_2,
        core::f32::consts::PI,
        3.0 * core::f32::consts::FRAC_PI_2,
    ];
    let mut v = Vec::new();
    for b in base {
        for s in [b, -b] {
            if s.is_nan() {
                v.push(s);
                continue;
            }
            let bits = s.to_bits();
            for d in -4i32..=4 {
                v.push(f32::from_bits(bits.wrapping_add(d as u32)));
            }
        }
    }
    let n = if cfg!(debug_assertions) { 200_000 } else { 2_000_000 };
    let mut r = SplitMix(0x5eed);
    for i in 0..n {
        let x = r.next();
        v.push(match i % 3 {
            0 => f32::from_bits(x as u32),
            1 => (((x >> 11) as f64 / (1u64 << 53) as f64) * 220.0 - 110.0) as f32,
            // Up to sin's and cos's bound (and a little past it).
            _ => (((x >> 11) as f64 / (1u64 << 53) as f64) * 4e7 - 2e7) as f32,
        });
    }
    while !v.len().is_multiple_of(8) {
        v.push(1.0);
    }
    v
}

fn hex(x: f32) -> String {
    format!("{x:e} ({:#010x})", x.to_bits())
}

#[test]
fn four_lanes_equal_scalar_bitwise() {
    let xs = inputs();
    for (name, scalar, four) in FUNCTIONS {
        let mut mismatches = 0usize;
        let mut first = None;
        for chunk in xs.chunks_exact(4) {
            let mut lanes = [chunk[0], chunk[1], chunk[2], chunk[3]];
            // SAFETY: four readable and writable floats.
            unsafe { four(lanes.as_mut_ptr()) };
            for (k, &x) in chunk.iter().enumerate() {
                let want = scalar(x);
                if lanes[k].to_bits() != want.to_bits() {
                    mismatches += 1;
                    first.get_or_insert((x, lanes[k], want));
                }
            }
        }
        if let Some((x, got, want)) = first {
            panic!(
                "{name}: {mismatches} lanes differ from the scalar function; first: {name}({}) = {} in 4 lanes, {} scalar",
                hex(x),
                hex(got),
                hex(want)
            );
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn register_form_equals_scalar_bitwise() {
    use core::arch::x86_64::*;
    #[allow(improper_ctypes_definitions)] // __m128 travels in xmm0 (System V)
    type Reg = extern "C" fn(__m128) -> __m128;
    let forms: [(&str, Scalar, Reg); 10] = [
        ("exp", clift_exp_f32, clift_exp_v4),
        ("log", clift_log_f32, clift_log_v4),
        ("erf", clift_erf_f32, clift_erf_v4),
        ("sin", clift_sin_f32, clift_sin_v4),
        ("cos", clift_cos_f32, clift_cos_v4),
        ("tan", clift_tan_f32, clift_tan_v4),
        ("exp2", clift_exp2_f32, clift_exp2_v4),
        ("exp10", clift_exp10_f32, clift_exp10_v4),
        ("log2", clift_log2_f32, clift_log2_v4),
        ("log10", clift_log10_f32, clift_log10_v4),
    ];
    // What the JIT calls: the AVX2 function itself where the CPU has it.
    #[cfg(not(windows))]
    let forms = forms.map(|(name, scalar, reg)| {
        let addr = four_lanes_in_register(name).expect("each has a register form");
        // SAFETY: `four_lanes_in_register` returns the address of an
        // `extern "C" fn(__m128) -> __m128` that may run on this CPU.
        let jit: Reg = unsafe { std::mem::transmute::<usize, Reg>(addr) };
        assert!(four_lanes_in_register("lgamma").is_none());
        [(name, scalar, reg), (name, scalar, jit)]
    });
    #[cfg(not(windows))]
    let forms = forms.as_flattened();
    let xs = inputs();
    for &(name, scalar, reg) in forms.iter() {
        for chunk in xs.chunks_exact(4) {
            let mut out = [0.0f32; 4];
            // SAFETY: SSE is part of x86-64; `chunk` and `out` hold four
            // floats each (unaligned load and store).
            unsafe { _mm_storeu_ps(out.as_mut_ptr(), reg(_mm_loadu_ps(chunk.as_ptr()))) };
            for (k, &x) in chunk.iter().enumerate() {
                let want = scalar(x);
                assert_eq!(
                    out[k].to_bits(),
                    want.to_bits(),
                    "{name}({}): {} in a register, {} scalar",
                    hex(x),
                    hex(out[k]),
                    hex(want)
                );
            }
        }
    }
}

/// The 8-lane forms (`clift_*_v8`) and what the JIT calls
/// (`math_f32::eight_lanes`), against the scalar functions lane by lane.
#[cfg(all(target_arch = "x86_64", not(windows)))]
#[test]
fn eight_lanes_equal_scalar_bitwise() {
    use core::arch::x86_64::*;
    #[allow(improper_ctypes_definitions)] // __m128 travels in xmm0 and xmm1 (System V)
    type Eight = unsafe extern "C" fn(__m128, __m128, *mut f32);
    let forms: [(&str, Scalar, Eight); 10] = [
        ("exp", clift_exp_f32, clift_exp_v8),
        ("log", clift_log_f32, clift_log_v8),
        ("erf", clift_erf_f32, clift_erf_v8),
        ("sin", clift_sin_f32, clift_sin_v8),
        ("cos", clift_cos_f32, clift_cos_v8),
        ("tan", clift_tan_f32, clift_tan_v8),
        ("exp2", clift_exp2_f32, clift_exp2_v8),
        ("exp10", clift_exp10_f32, clift_exp10_v8),
        ("log2", clift_log2_f32, clift_log2_v8),
        ("log10", clift_log10_f32, clift_log10_v8),
    ];
    let forms = forms.map(|(name, scalar, direct)| {
        let addr = clift_builtins::math_f32::eight_lanes(name).expect("each has an 8-lane form");
        // SAFETY: `eight_lanes` returns the address of an
        // `extern "C" fn(__m128, __m128, *mut f32)`.
        let jit: Eight = unsafe { std::mem::transmute::<usize, Eight>(addr) };
        [(name, scalar, direct), (name, scalar, jit)]
    });
    assert!(clift_builtins::math_f32::eight_lanes("lgamma").is_none());
    let xs = inputs();
    for &(name, scalar, eight) in forms.as_flattened() {
        let mut mismatches = 0usize;
        let mut first = None;
        for chunk in xs.chunks_exact(8) {
            let mut out = [0.0f32; 8];
            // SAFETY: SSE is part of x86-64; `chunk` holds eight floats
            // (unaligned loads), `out` takes eight.
            unsafe {
                let lo = _mm_loadu_ps(chunk.as_ptr());
                let hi = _mm_loadu_ps(chunk.as_ptr().add(4));
                eight(lo, hi, out.as_mut_ptr());
            }
            for (k, &x) in chunk.iter().enumerate() {
                let want = scalar(x);
                if out[k].to_bits() != want.to_bits() {
                    mismatches += 1;
                    first.get_or_insert((x, out[k], want));
                }
            }
        }
        if let Some((x, got, want)) = first {
            panic!(
                "{name}: {mismatches} lanes differ; first: {name}({}) = {} in 8 lanes, {} scalar",
                hex(x),
                hex(got),
                hex(want)
            );
        }
    }
}

#[test]
fn without_fma_instruction_equals_scalar_bitwise() {
    let xs = inputs();
    // The software fused multiply-add is slow: every 7th input.
    for (name, scalar, _) in FUNCTIONS {
        for &x in xs.iter().step_by(7) {
            let got = without_fma_instruction(name, x).unwrap();
            let want = scalar(x);
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "{name}({}): {} without FMA, {} scalar",
                hex(x),
                hex(got),
                hex(want)
            );
        }
    }
    assert_eq!(without_fma_instruction("tanh", 1.0), None);
}

#[test]
fn exact_values() {
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits();
    assert!(same(clift_exp_f32(0.0), 1.0));
    assert!(same(clift_exp_f32(-0.0), 1.0));
    assert!(same(clift_exp_f32(f32::INFINITY), f32::INFINITY));
    assert!(same(clift_exp_f32(f32::NEG_INFINITY), 0.0));
    assert!(same(clift_exp_f32(88.722_84), f32::INFINITY));
    // Near overflow, through the denormals and at the underflow threshold
    // (e^-103.972 is just below 2^-150: zero), as libm's double function
    // rounded once, which is correctly rounded at these inputs.
    for x in [
        88.722_83f32,
        88.0,
        -87.5,
        -90.0,
        -100.0,
        -103.0,
        -103.278_93,
        -103.9,
        -103.972_08,
    ] {
        assert!(same(clift_exp_f32(x), libm::exp(x as f64) as f32), "exp({x})");
    }
    for x in [
        f32::from_bits(1),
        f32::from_bits(0x0012_3456),
        1e-40,
        3e38,
        0.999_999_94,
        1.000_000_1,
    ] {
        assert!(same(clift_log_f32(x), libm::log(x as f64) as f32), "log({x})");
    }
    for x in [1e-40f32, 1e-20, 0.3, 0.99, 1.01, 1.99, 2.5, 3.5, 3.8] {
        assert!(same(clift_erf_f32(x), libm::erf(x as f64) as f32), "erf({x})");
    }
    // Around where erf starts rounding to 1: erfc(x) is half an ulp of the
    // floats below 1 (2^-25) at x = 3.91920584.
    assert!(same(clift_erf_f32(3.9), 1.0 - f32::EPSILON / 2.0));
    assert!(same(clift_erf_f32(3.915), 1.0 - f32::EPSILON / 2.0));
    assert!(same(clift_erf_f32(3.923), 1.0));
    assert!(same(clift_exp_f32(1.0), core::f32::consts::E));
    assert!(clift_exp_f32(f32::NAN).is_nan());
    assert!(same(clift_log_f32(1.0), 0.0));
    assert!(same(clift_log_f32(0.0), f32::NEG_INFINITY));
    assert!(same(clift_log_f32(-0.0), f32::NEG_INFINITY));
    assert!(same(clift_log_f32(f32::INFINITY), f32::INFINITY));
    assert!(clift_log_f32(-1.0).is_nan());
    assert!(clift_log_f32(f32::NEG_INFINITY).is_nan());
    assert!(clift_log_f32(f32::NAN).is_nan());
    // log of the smallest denormal: -149 ln 2 = -103.27893...
    assert!(same(clift_log_f32(f32::from_bits(1)), -103.278_93));
    assert!(same(clift_erf_f32(0.0), 0.0));
    assert!(same(clift_erf_f32(-0.0), -0.0));
    assert!(same(clift_erf_f32(f32::INFINITY), 1.0));
    assert!(same(clift_erf_f32(f32::NEG_INFINITY), -1.0));
    assert!(same(clift_erf_f32(4.0), 1.0));
    assert!(same(clift_erf_f32(-10.0), -1.0));
    assert!(clift_erf_f32(f32::NAN).is_nan());
    // erf(x) = 2x / sqrt(pi) for denormal x: 1.128 * 2^-149 rounds to 2^-149.
    assert!(same(clift_erf_f32(f32::from_bits(1)), f32::from_bits(1)));
    assert!(same(clift_erf_f32(f32::from_bits(100)), f32::from_bits(113)));
    assert!(same(clift_erf_f32(1.0), 0.842_700_8));
}

/// Around each of erf's interval boundaries (and where it rounds to ±1,
/// and the earlier ends 3.875 and 4), 20,000 consecutive floats on either
/// side: within 1 ulp of libm's double erf rounded to float (a wrong
/// interval or a centre off by a little shows here), and the 4-lane form
/// agrees bitwise.
#[test]
fn erf_near_interval_boundaries() {
    for b in [1.0f32, 1.75, 2.625, 3.875, 3.919_206, 3.9375, 4.0] {
        let xs: Vec<f32> = (-20_000i32..20_000)
            .map(|d| f32::from_bits(b.to_bits().wrapping_add(d as u32)))
            .collect();
        for &x in &xs {
            for x in [x, -x] {
                let got = clift_erf_f32(x);
                let want = libm::erf(x as f64) as f32;
                let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
                assert!(ulps <= 1, "erf({x:e}) = {got:e}, libm {want:e}");
            }
        }
        for c in xs.chunks_exact(4) {
            let mut v = [c[0], c[1], c[2], c[3]];
            // SAFETY: `v` is four writable floats.
            unsafe { clift_erf_f32x4(v.as_mut_ptr()) };
            for k in 0..4 {
                assert_eq!(v[k].to_bits(), clift_erf_f32(c[k]).to_bits(), "erf4({:e})", c[k]);
            }
        }
    }
}

/// sin and cos against `libm`'s double functions rounded once (the
/// previous implementation, within 0.5 ulp plus a hair): within 1 ulp on
/// every input of [`inputs`] and on 20,000 consecutive floats on either
/// side of multiples of pi/2 up to the bound, where the reduced argument
/// is small and a reduction error would show.
#[test]
fn sin_cos_against_libm() {
    let mut xs = inputs();
    for k in [1.0f64, 2.0, 3.0, 7.0, 100.0, 12_345.0, 1e6, 1.0e7] {
        let m = (k * core::f64::consts::FRAC_PI_2) as f32;
        xs.extend((-20_000i32..20_000).map(|d| f32::from_bits(m.to_bits().wrapping_add(d as u32))));
    }
    for (name, ours, reference) in [
        ("sin", clift_sin_f32 as Scalar, libm::sin as fn(f64) -> f64),
        ("cos", clift_cos_f32, libm::cos),
    ] {
        for &x in &xs {
            let got = ours(x);
            let want = reference(x as f64) as f32;
            if want.is_nan() {
                assert!(got.is_nan(), "{name}({}) = {}, want NaN", hex(x), hex(got));
                continue;
            }
            let ulps = (got.to_bits() as i32 as i64 - want.to_bits() as i32 as i64).abs();
            assert!(ulps <= 1, "{name}({}) = {}, libm {}", hex(x), hex(got), hex(want));
        }
    }
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits();
    assert!(same(clift_sin_f32(0.0), 0.0));
    assert!(same(clift_sin_f32(-0.0), -0.0));
    assert!(same(clift_cos_f32(-0.0), 1.0));
    assert!(same(clift_sin_f32(f32::from_bits(1)), f32::from_bits(1)));
    assert!(same(clift_sin_f32(-f32::from_bits(1)), -f32::from_bits(1)));
    assert!(clift_sin_f32(f32::INFINITY).is_nan());
    assert!(clift_cos_f32(f32::NEG_INFINITY).is_nan());
}
