//! Function variables turned into values by the build
//! (`jit/src/promote.rs`) and the ones it keeps in memory: the kernels of
//! `kernels/cl/promote.cl` at -O0 (where clang keeps every local in a
//! variable) and -O2, each output compared with a host reference. The
//! harness runs every launch again as the module is written (variables
//! in memory, scalar bodies: `exec::TWIN`) and compares the bytes, so each
//! shape is checked against the unpromoted module too.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::rng::Rng;

/// Local sizes: none given, a multiple of 8, and ones leaving remainders.
const LOCALS: [Option<usize>; 4] = [None, Some(16), Some(13), Some(6)];

fn ints(n: usize, seed: u64, lo: i32, hi: i32) -> Vec<i32> {
    Rng(seed).ints(n, lo, hi)
}

/// Runs `kernel(input, out)` over `global` work-items in groups of
/// `local` (none: the runtime's choice): the `out_len` ints it wrote.
fn run_ints(kernel: &str, opt: Opt, input: &[i32], out_len: usize, global: usize, local: Option<usize>) -> Vec<i32> {
    let mut out = vec![0i32; out_len];
    let l = local.map(|l| [l]);
    Kernel::new("promote", opt, kernel)
        .arg(Arg::input(input))
        .arg(Arg::output(&mut out))
        .run(&[global], l.as_ref().map(|l| &l[..]));
    out
}

#[test]
fn a_store_in_one_arm() {
    let input = ints(256, 1, -50, 50);
    for opt in Opt::BOTH {
        for local in LOCALS {
            let out = run_ints("one_arm", opt, &input, 256, 256, local);
            for (i, &x) in input.iter().enumerate() {
                let v = if x & 1 != 0 { x * 3 } else { 7 };
                let w = if x > 0 { 1 } else { -1 };
                assert_eq!(out[i], v + w, "{opt:?} local {local:?}: [{i}]");
            }
        }
    }
}

#[test]
fn loops_left_at_different_iterations() {
    let input = ints(256, 2, -5, 20);
    for opt in Opt::BOTH {
        for local in LOCALS {
            let out = run_ints("early_exit", opt, &input, 512, 256, local);
            for i in 0..256 {
                let mut acc = 0;
                let mut k = 0;
                while k < 64 {
                    acc += input[(i + k as usize) % 256];
                    if acc > input[i] * 4 {
                        acc -= k;
                        break;
                    }
                    k += 1;
                }
                assert_eq!([out[2 * i], out[2 * i + 1]], [acc, k], "{opt:?} local {local:?}: [{i}]");
            }
        }
    }
}

#[test]
fn nested_loops_a_do_while_and_a_switch() {
    let input: Vec<f32> = (0..128).map(|i| (i as f32 * 0.37).sin()).collect();
    for opt in Opt::BOTH {
        for n in [0, 1, 5] {
            let mut out = vec![0f32; 200];
            Kernel::new("promote", opt, "nested")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(n))
                .run(&[200], Some(&[8]));
            for (i, &got) in out.iter().enumerate() {
                let mut s = 0f32;
                for a in 0..n {
                    let mut b = 0i32;
                    loop {
                        s += input[(i + (a * b) as usize) % 128] * b as f32;
                        b += 1;
                        if b >= (i % 5) as i32 {
                            break;
                        }
                    }
                    match (a * 5 + i as i32) % 7 {
                        0 => s *= 0.5,
                        3 => s += 1.0,
                        _ => s -= a as f32,
                    }
                }
                assert_eq!(got.to_bits(), s.to_bits(), "{opt:?} n {n}: [{i}] {got} want {s}");
            }
        }
    }
}

#[test]
fn values_carried_around_a_loop() {
    let input = ints(64, 3, -100, 100);
    for opt in Opt::BOTH {
        let out = run_ints("carried", opt, &input, 2 * 100, 100, None);
        for i in 0..100 {
            let (mut prev, mut cur) = (0i32, 0i32);
            for k in 0..(i % 7) + 1 {
                prev = cur;
                cur = cur.wrapping_mul(3).wrapping_add(input[(i + k) % 64]);
            }
            assert_eq!([out[2 * i], out[2 * i + 1]], [prev, cur], "{opt:?}: [{i}]");
        }
    }
}

#[test]
fn escaping_variables_components_and_float3_stay_right() {
    let input = ints(64, 4, -1000, 1000);
    for opt in Opt::BOTH {
        let mut out = vec![0i32; 64];
        let mut f = vec![0f32; 3 * 64];
        Kernel::new("promote", opt, "escapes")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut f))
            .run(&[64], Some(&[16]));
        for i in 0..64 {
            let x = input[i] + 5;
            assert_eq!(out[i], x + input[(i + 1) % 64] + 3, "{opt:?}: out[{i}]");
            let q = [(input[i] as f32 + 1.0) * 2.0, (2.0 + x as f32) * 2.0, 6.0];
            assert_eq!(&f[3 * i..3 * i + 3], &q, "{opt:?}: f[{i}]");
        }
    }
}

#[test]
fn a_volatile_variable_stays_in_memory() {
    let input = ints(64, 5, -1000, 1000);
    for opt in Opt::BOTH {
        let out = run_ints("volatile_local", opt, &input, 64, 64, None);
        for i in 0..64 {
            assert_eq!(out[i], input[i] * 2 + 1, "{opt:?}: [{i}]");
        }
    }
}

#[test]
fn values_kept_across_barriers() {
    let input = ints(8, 6, -100, 100);
    for opt in Opt::BOTH {
        for local in [4usize, 8, 13, 16] {
            let global = local * 3;
            let mut out = vec![0i32; global];
            Kernel::new("promote", opt, "across_barrier")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .run(&[global], Some(&[local]));
            let acc = |l: usize| input[..l % 5].iter().sum::<i32>();
            let mut other: Vec<i32> = (0..local).map(|l| acc((l + 1) % local)).collect();
            for k in 0..2 {
                let tmp: Vec<i32> = other.iter().map(|o| o + k).collect();
                for l in 0..local {
                    other[l] += tmp[(l + 3) % local];
                }
            }
            for (g, &got) in out.iter().enumerate() {
                let l = g % local;
                assert_eq!(got, acc(l) * 1000 + other[l], "{opt:?} local {local}: [{g}]");
            }
        }
    }
}
