//! `pow` of `float` in `double` lanes (`clift_builtins::double_lanes`): the
//! 4-lane register form and the 8-lane form (directly and at the addresses
//! the JIT calls) must give bitwise the scalar function's results lane by
//! lane, and so must the scalar form without the FMA instruction, on pairs
//! of special values (zeros, infinities, NaNs, negative bases, integer and
//! half-integer exponents, denormals, the thresholds of overflow and
//! underflow) and random pairs. The accuracy against MPFR is
//! `tests/ulp.rs`'s job; exact results are checked here.

#![cfg(all(target_arch = "x86_64", not(windows)))]

mod common;

use clift_builtins::double_lanes::pow_without_fma_instruction;
use clift_builtins::math_f32::{
    clift_pow_f32, clift_pow_v4, clift_pow_v8, eight_lanes_binary, four_lanes_in_register_binary,
};
use common::SplitMix;
use core::arch::x86_64::*;

/// Pairs (x, y): every pair of the special values, then random ones (any
/// bits; x in (0, 100) with y in [-30, 30]; negative x with integer y).
fn pairs() -> Vec<(f32, f32)> {
    let specials = [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        2.0,
        -2.0,
        0.5,
        3.0,
        -3.0,
        0.1,
        10.0,
        1e-30,
        1e30,
        f32::MAX,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1.000_000_1,
        0.999_999_94,
        88.0,
        -104.0,
        128.0,
        -150.0,
        1.5,
        -0.5,
    ];
    let mut v = Vec::new();
    for &x in &specials {
        for &y in &specials {
            v.push((x, y));
        }
    }
    let mut r = SplitMix(0x9017);
    let n = if cfg!(debug_assertions) { 60_000 } else { 600_000 };
    for i in 0..n {
        let (a, b) = (r.next(), r.next());
        let unit = |z: u64| (z >> 11) as f64 / (1u64 << 53) as f64;
        v.push(match i % 3 {
            0 => (f32::from_bits(a as u32), f32::from_bits(b as u32)),
            1 => ((unit(a) * 100.0) as f32, (unit(b) * 60.0 - 30.0) as f32),
            _ => (-(unit(a) * 10.0) as f32, ((unit(b) * 40.0) as i32 - 20) as f32),
        });
    }
    while !v.len().is_multiple_of(8) {
        v.push((2.0, 0.5));
    }
    v
}

fn hex(x: f32) -> String {
    format!("{x:e} ({:#010x})", x.to_bits())
}

#[allow(improper_ctypes_definitions)] // __m128 travels in xmm registers (System V)
type Reg = unsafe extern "C" fn(__m128, __m128) -> __m128;
#[allow(improper_ctypes_definitions)] // as above
type Eight = unsafe extern "C" fn(__m128, __m128, __m128, __m128, *mut f32);

#[test]
fn four_and_eight_lanes_equal_scalar_bitwise() {
    // SAFETY: the addresses are those of functions of these signatures
    // that may run on this CPU.
    let (jit4, jit8) = unsafe {
        (
            std::mem::transmute::<usize, Reg>(four_lanes_in_register_binary("pow").expect("pow has a 4-lane form")),
            std::mem::transmute::<usize, Eight>(eight_lanes_binary("pow").expect("pow has an 8-lane form")),
        )
    };
    assert!(four_lanes_in_register_binary("powr").is_none());
    assert!(eight_lanes_binary("fmod").is_none());
    let fours: [(&str, Reg); 2] = [("clift_pow_v4", clift_pow_v4), ("4-lane address", jit4)];
    let eights: [(&str, Eight); 2] = [("clift_pow_v8", clift_pow_v8), ("8-lane address", jit8)];
    let v = pairs();
    let xs: Vec<f32> = v.iter().map(|p| p.0).collect();
    let ys: Vec<f32> = v.iter().map(|p| p.1).collect();
    let check = |form: &str, base: usize, got: &[f32]| {
        for (k, &g) in got.iter().enumerate() {
            let (x, y) = v[base + k];
            let want = clift_pow_f32(x, y);
            assert_eq!(
                g.to_bits(),
                want.to_bits(),
                "pow({}, {}): {} from {form}, {} scalar",
                hex(x),
                hex(y),
                hex(g),
                hex(want)
            );
        }
    };
    for i in (0..v.len()).step_by(8) {
        for (name, f) in fours {
            for h in [i, i + 4] {
                let mut out = [0.0f32; 4];
                // SAFETY: SSE is part of x86-64; four floats each way
                // (unaligned loads and store).
                unsafe {
                    let r = f(_mm_loadu_ps(xs[h..].as_ptr()), _mm_loadu_ps(ys[h..].as_ptr()));
                    _mm_storeu_ps(out.as_mut_ptr(), r);
                }
                check(name, h, &out);
            }
        }
        for (name, f) in eights {
            let mut out = [0.0f32; 8];
            // SAFETY: SSE is part of x86-64; eight floats each way.
            unsafe {
                f(
                    _mm_loadu_ps(xs[i..].as_ptr()),
                    _mm_loadu_ps(xs[i + 4..].as_ptr()),
                    _mm_loadu_ps(ys[i..].as_ptr()),
                    _mm_loadu_ps(ys[i + 4..].as_ptr()),
                    out.as_mut_ptr(),
                )
            };
            check(name, i, &out);
        }
    }
}

#[test]
fn without_fma_instruction_equals_scalar_bitwise() {
    // The software fused multiply-add is slow: every 5th pair.
    for &(x, y) in pairs().iter().step_by(5) {
        let (got, want) = (pow_without_fma_instruction(x, y), clift_pow_f32(x, y));
        assert_eq!(got.to_bits(), want.to_bits(), "pow({}, {})", hex(x), hex(y));
    }
}

#[test]
fn exact_results_and_special_values() {
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    // Results that are floats come out exactly.
    for (x, y, want) in [
        (2.0f32, 3.0f32, 8.0f32),
        (9.0, 0.5, 3.0),
        (10.0, 2.0, 100.0),
        (2.0, -149.0, f32::from_bits(1)),
        (2.0, 127.0, 1.701_411_8e38),
        (4.0, 0.5, 2.0),
        (0.25, -0.5, 2.0),
        (1.5, 2.0, 2.25),
        (3.0, 10.0, 59049.0),
        (7.0, 1.0, 7.0),
        (0.1, 1.0, 0.1),
        (123.456, 1.0, 123.456),
    ] {
        assert!(
            same(clift_pow_f32(x, y), want),
            "pow({x}, {y}) = {}",
            clift_pow_f32(x, y)
        );
    }
    // Overflow, underflow, and C99 F.9.4.4's special values (the libm lanes).
    assert!(same(clift_pow_f32(2.0, 128.0), f32::INFINITY));
    assert!(same(clift_pow_f32(2.0, -150.0), 0.0));
    assert!(same(clift_pow_f32(1.0, f32::NAN), 1.0));
    assert!(same(clift_pow_f32(f32::NAN, 0.0), 1.0));
    assert!(same(clift_pow_f32(-0.0, -3.0), f32::NEG_INFINITY));
    assert!(same(clift_pow_f32(-0.0, 3.0), -0.0));
    assert!(same(clift_pow_f32(0.0, f32::NEG_INFINITY), f32::INFINITY));
    assert!(same(clift_pow_f32(-1.0, f32::INFINITY), 1.0));
    assert!(same(clift_pow_f32(-2.0, 3.0), -8.0));
    assert!(clift_pow_f32(-2.0, 0.5).is_nan());
    assert!(same(clift_pow_f32(0.5, f32::INFINITY), 0.0));
    assert!(same(clift_pow_f32(f32::INFINITY, -1.0), 0.0));
}
