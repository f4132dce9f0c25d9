//! The paths of a CPU without AVX-512 and of one without AVX2 and FMA:
//! every math function with vector forms (`float_lanes`, `double_lanes`)
//! computed first as this CPU runs it, then again, in this process, after
//! `take_the_paths_without_avx512` (erf's `f64` lanes in two `__m256d`
//! instead of one `__m512d`), and again after
//! `take_the_paths_without_avx2_fma` (per-lane portable 4-lane and 8-lane
//! forms, fused multiply-adds in software), must give the same bits, in
//! every form, including at the addresses the JIT calls. One test, so
//! nothing else runs in this process across the switches. (On a CPU
//! without AVX-512 the first two runs take the same path, and the test
//! says so.)

#![cfg(all(target_arch = "x86_64", not(windows)))]

mod common;

use clift_builtins::math_f32::{self as m, *};
use common::SplitMix;
use core::arch::x86_64::*;

type Scalar = extern "C" fn(f32) -> f32;
#[allow(improper_ctypes_definitions)] // __m128 travels in xmm registers (System V)
type Reg = unsafe extern "C" fn(__m128) -> __m128;
#[allow(improper_ctypes_definitions)] // as above
type Eight = unsafe extern "C" fn(__m128, __m128, *mut f32);
#[allow(improper_ctypes_definitions)] // as above
type Reg2 = unsafe extern "C" fn(__m128, __m128) -> __m128;
#[allow(improper_ctypes_definitions)] // as above
type Eight2 = unsafe extern "C" fn(__m128, __m128, __m128, __m128, *mut f32);

const ONE_ARG: [(&str, Scalar); 10] = [
    ("exp", clift_exp_f32),
    ("log", clift_log_f32),
    ("erf", clift_erf_f32),
    ("sin", clift_sin_f32),
    ("cos", clift_cos_f32),
    ("tan", clift_tan_f32),
    ("exp2", clift_exp2_f32),
    ("exp10", clift_exp10_f32),
    ("log2", clift_log2_f32),
    ("log10", clift_log10_f32),
];

/// Special values and their neighbours, then random bit patterns and
/// random values in [-120, 120]; a multiple of 8 long.
fn inputs() -> Vec<f32> {
    let mut v = Vec::new();
    for b in [
        0.0f32,
        1.0,
        0.5,
        2.0,
        1.375,
        1.75,
        2.625,
        3.281_25,
        3.875,
        3.919_206,
        3.9375,
        88.72,
        -103.9,
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::MAX,
        f32::INFINITY,
        16_777_216.0,
        core::f32::consts::FRAC_PI_2,
    ] {
        for s in [b, -b] {
            for d in -2i32..=2 {
                v.push(f32::from_bits(s.to_bits().wrapping_add(d as u32)));
            }
        }
    }
    v.push(f32::NAN);
    let mut r = SplitMix(0xa5a5);
    for i in 0..6_000 {
        let x = r.next();
        v.push(if i % 2 == 0 {
            f32::from_bits(x as u32)
        } else {
            (((x >> 11) as f64 / (1u64 << 53) as f64) * 240.0 - 120.0) as f32
        });
    }
    while !v.len().is_multiple_of(8) {
        v.push(1.5);
    }
    v
}

/// Every form of every function on `xs` (and pow on pairs of them): the
/// results in one list, in a fixed order.
fn all_forms(xs: &[f32]) -> Vec<u32> {
    let mut out = Vec::new();
    for (name, scalar) in ONE_ARG {
        // SAFETY: the addresses are those of functions of these signatures
        // that may run on this CPU.
        let (reg, eight) = unsafe {
            (
                std::mem::transmute::<usize, Reg>(m::four_lanes_in_register(name).expect("a register form")),
                std::mem::transmute::<usize, Eight>(m::eight_lanes(name).expect("an 8-lane form")),
            )
        };
        // SAFETY: as above.
        let in_place: unsafe extern "C" fn(*mut f32) =
            unsafe { std::mem::transmute::<usize, _>(m::four_lanes(name).expect("a 4-lane form")) };
        for c in xs.chunks_exact(8) {
            out.extend(c.iter().map(|&x| scalar(x).to_bits()));
            let mut a = [0.0f32; 8];
            let mut b = [c[0], c[1], c[2], c[3]];
            // SAFETY: SSE is part of x86-64; eight floats each way, four in
            // place (unaligned loads and stores).
            unsafe {
                _mm_storeu_ps(a.as_mut_ptr(), reg(_mm_loadu_ps(c.as_ptr())));
                _mm_storeu_ps(a.as_mut_ptr().add(4), reg(_mm_loadu_ps(c.as_ptr().add(4))));
                out.extend(a.iter().map(|x| x.to_bits()));
                eight(
                    _mm_loadu_ps(c.as_ptr()),
                    _mm_loadu_ps(c.as_ptr().add(4)),
                    a.as_mut_ptr(),
                );
                out.extend(a.iter().map(|x| x.to_bits()));
                in_place(b.as_mut_ptr());
            }
            out.extend(b.iter().map(|x| x.to_bits()));
        }
    }
    // SAFETY: as above.
    let (reg2, eight2) = unsafe {
        (
            std::mem::transmute::<usize, Reg2>(m::four_lanes_in_register_binary("pow").expect("pow's register form")),
            std::mem::transmute::<usize, Eight2>(m::eight_lanes_binary("pow").expect("pow's 8-lane form")),
        )
    };
    for (c, d) in xs.chunks_exact(8).zip(xs.chunks_exact(8).rev()) {
        let (x, y) = (c, d.iter().map(|v| v * 0.1).collect::<Vec<f32>>());
        out.extend(x.iter().zip(&y).map(|(&a, &b)| clift_pow_f32(a.abs(), b).to_bits()));
        let xa: Vec<f32> = x.iter().map(|v| v.abs()).collect();
        let mut a = [0.0f32; 8];
        // SAFETY: SSE is part of x86-64; eight floats each way.
        unsafe {
            _mm_storeu_ps(
                a.as_mut_ptr(),
                reg2(_mm_loadu_ps(xa.as_ptr()), _mm_loadu_ps(y.as_ptr())),
            );
            _mm_storeu_ps(
                a.as_mut_ptr().add(4),
                reg2(_mm_loadu_ps(xa.as_ptr().add(4)), _mm_loadu_ps(y.as_ptr().add(4))),
            );
            out.extend(a.iter().map(|x| x.to_bits()));
            eight2(
                _mm_loadu_ps(xa.as_ptr()),
                _mm_loadu_ps(xa.as_ptr().add(4)),
                _mm_loadu_ps(y.as_ptr()),
                _mm_loadu_ps(y.as_ptr().add(4)),
                a.as_mut_ptr(),
            );
        }
        out.extend(a.iter().map(|x| x.to_bits()));
    }
    out
}

#[test]
fn the_paths_without_avx512_and_without_avx2_fma_give_the_same_bits() {
    let xs = inputs();
    if !is_x86_feature_detected!("avx512f") {
        eprintln!("this CPU has no AVX-512F: its path is the one without AVX-512");
    }
    let this_cpu = all_forms(&xs);
    clift_builtins::float_lanes::take_the_paths_without_avx512();
    let without_avx512 = all_forms(&xs);
    clift_builtins::float_lanes::take_the_paths_without_avx2_fma();
    let without_avx2 = all_forms(&xs);
    for (what, other) in [("AVX-512", &without_avx512), ("AVX2 and FMA", &without_avx2)] {
        assert_eq!(this_cpu.len(), other.len());
        let differ = this_cpu.iter().zip(other).filter(|(a, b)| a != b).count();
        // NaN results: the same bits too (every form quiets them the same
        // way).
        assert_eq!(
            differ, 0,
            "{differ} results differ between this CPU's path and the one without {what}"
        );
    }
}
