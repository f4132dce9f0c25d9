//! Kernels compute in OpenCL's floating-point environment (round to
//! nearest even, denormals kept: the device reports CL_FP_DENORM for float
//! and double) whatever the application thread's is: here the MXCSR has
//! flush-to-zero, denormals-are-zero and round-toward-+inf set before the
//! first OpenCL call, as a host built with -ffast-math (or a library that
//! changed the rounding mode) leaves it, so the device's threads start
//! with it too. `kernels/cl/fp_env.cl` at -O0 and -O2, with and without
//! 4-lane bodies. Its own test binary: the environment is set for the
//! whole process's OpenCL threads.

#![cfg(target_arch = "x86_64")]

use clift_conformance::exec::{Arg, Kernel, Opt};

/// MXCSR: every exception masked (0x1f80), flush-to-zero (0x8000),
/// denormals-are-zero (0x40), round toward +inf (0x4000).
const HOSTILE: u32 = 0x1f80 | 0x8000 | 0x40 | 0x4000;

fn get_mxcsr() -> u32 {
    let mut v = 0u32;
    // SAFETY: stmxcsr writes the 4-byte MXCSR into `v`.
    unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack)) };
    v
}

fn set_mxcsr(v: u32) {
    // SAFETY: ldmxcsr loads a valid MXCSR value (reserved bits clear, as
    // in every value this file uses) for the calling thread.
    unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack)) };
}

#[test]
fn kernels_ignore_the_host_threads_fp_environment() {
    const N: usize = 64;
    let a: Vec<f32> = (0..N)
        .map(|i| match i % 4 {
            0 => f32::from_bits(1 + i as u32 * 12345),
            1 => -f32::from_bits(0x0040_0000 + i as u32),
            2 => 1.0,
            _ => f32::MIN_POSITIVE * (1.0 + i as f32 / 64.0),
        })
        .collect();
    let b: Vec<f32> = (0..N)
        .map(|i| match i % 4 {
            0 => 3.0,
            1 => 0.75,
            2 => 2f32.powi(-30),
            _ => 0.5,
        })
        .collect();
    let c: Vec<f64> = (0..N)
        .map(|i| match i % 4 {
            0 => f64::from_bits(1 + i as u64 * 987_654_321),
            1 => -f64::from_bits(0x0008_0000_0000_0000 + i as u64),
            2 => 1.0,
            _ => f64::MIN_POSITIVE * (1.0 + i as f64 / 64.0),
        })
        .collect();
    let d: Vec<f64> = (0..N)
        .map(|i| match i % 4 {
            0 => 3.0,
            1 => 0.75,
            2 => 2f64.powi(-60),
            _ => 0.5,
        })
        .collect();
    // The references, in this thread's default environment.
    let want: Vec<u32> = (0..N)
        .map(|i| (a[i] * b[i]).to_bits())
        .chain((0..N).map(|i| (a[i] + b[i]).to_bits()))
        .collect();
    let wantd: Vec<u64> = (0..N)
        .map(|i| (c[i] * d[i]).to_bits())
        .chain((0..N).map(|i| (c[i] + d[i]).to_bits()))
        .collect();
    let saved = get_mxcsr();
    set_mxcsr(HOSTILE);
    let mut bad = Vec::new();
    for opt in Opt::BOTH {
        for mode in ["", "-cl-clift-max-lanes=1"] {
            let mut o = vec![0u32; 2 * N];
            let mut od = vec![0u64; 2 * N];
            Kernel::with_il(&clift_conformance::exec::corpus_spirv("fp_env", opt), "arith", mode)
                .unwrap_or_else(|log| panic!("{log}"))
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut o))
                .arg(Arg::input(&c))
                .arg(Arg::input(&d))
                .arg(Arg::output(&mut od))
                .run(&[N], Some(&[16]));
            bad.extend(
                (0..2 * N)
                    .filter(|&k| o[k] != want[k])
                    .map(|k| format!("{opt:?} {mode:?} float [{k}]: {:#x} want {:#x}", o[k], want[k])),
            );
            bad.extend(
                (0..2 * N)
                    .filter(|&k| od[k] != wantd[k])
                    .map(|k| format!("{opt:?} {mode:?} double [{k}]: {:#x} want {:#x}", od[k], wantd[k])),
            );
        }
    }
    // The environment this thread set is its own again (the exception
    // flags, bits 0-5, are sticky status, not environment).
    assert_eq!(get_mxcsr() & !0x3f, HOSTILE, "the application's MXCSR was changed");
    set_mxcsr(saved);
    assert!(
        bad.is_empty(),
        "{} results differ:\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}
