//! 64-bit integers in 4- and 8-lane bodies (jit/src/lower/simd,
//! `Shape::Pair`): four work-items' `long`s as two `i64x2` vectors. Each
//! kernel of `kernels/cl/simd_long.cl` runs at -O0 and -O2, built the
//! three ways of `exec::lane_builds`, over local sizes that reach 8-lane,
//! 4-lane and one-work-item chunks; the harness compares every output
//! with the scalar build bit for bit, and the tests here with host
//! references. tests/exec_fp64_simd.rs checks that the kernels get the
//! vector forms.

use clift_conformance::exec::{self, Arg, Kernel, Opt};

const GLOBAL: usize = exec::LANE_GLOBAL;
const LOCALS: [Option<usize>; 6] = exec::LANE_LOCALS;

fn builds<'a>(opt: Opt, name: &str) -> [Kernel<'a>; 3] {
    exec::lane_builds("simd_long", opt, name)
}

/// `count` longs mixing the extremes, values around them and around 2^32,
/// and scrambled bits.
fn longs(count: usize, seed: u64) -> Vec<i64> {
    let specials = [
        0i64,
        -1,
        1,
        i64::MIN,
        i64::MAX,
        i64::MIN + 1,
        0xffff_ffff,
        0x1_0000_0000,
        -0x1_0000_0000,
        0x7fff_ffff,
        -0x8000_0000,
        42,
        // Halfway between two doubles: 2^53 + 1, 2^63 + 1024 and
        // 2^64 - 1024 as unsigned, and just above.
        (1 << 53) + 1,
        0x8000_0000_0000_0400u64 as i64,
        0x8000_0000_0000_0401u64 as i64,
        0xffff_ffff_ffff_fc00u64 as i64,
        0x7fff_ffff_ffff_fe00,
    ];
    (0..count)
        .map(|i| {
            let h = (i as u64 ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(17) as i64;
            if i % 3 == 0 {
                specials[(h as u64 % specials.len() as u64) as usize]
            } else if i % 3 == 1 {
                h
            } else {
                h >> (i % 50)
            }
        })
        .collect()
}

#[test]
fn arithmetic_shifts_and_selects() {
    let (a, b) = (longs(GLOBAL, 1), longs(GLOBAL, 2));
    // Equal values where i % 5 == 1.
    let b: Vec<i64> = b
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 5 == 1 { a[i] } else { v })
        .collect();
    let s: Vec<i32> = longs(GLOBAL, 3).iter().map(|&v| v as i32).collect();
    for sh in [0i32, 7, 32, 63] {
        let want: Vec<Vec<i64>> = (0..GLOBAL)
            .map(|i| {
                let (x, y) = (a[i], b[i]);
                vec![
                    x.wrapping_add(y),
                    x.wrapping_sub(y),
                    x.wrapping_mul(y),
                    x & y,
                    x | y,
                    x ^ y,
                    !x,
                    y.wrapping_neg(),
                    x << sh,
                    x >> sh,
                    ((x as u64) >> sh) as i64,
                    i64::from(s[i]),
                    i64::from(s[i] as u32),
                    if x < y { x } else { y.wrapping_add(1) },
                    if (x as u64) > (y as u64) { x.wrapping_mul(3) } else { y },
                    x.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64)
                        .wrapping_add(i64::from(s[i])),
                    (f64::from_bits(x as u64) * 2.0).to_bits() as i64,
                    x.min(y),
                    x.max(y),
                    (x as u64).min(y as u64) as i64,
                    (x as u64).max(y as u64) as i64,
                    x.max(-1000).min(y),
                    (x as u64).max(5).min(y as u64) as i64,
                    x.unsigned_abs() as i64,
                    i64::from(
                        (x as i32)
                            .max(y as i32)
                            .wrapping_add((x as i32).max(-100).min(y as i32)),
                    ),
                    ((x as f64) + ((y >> 11) as f64)).to_bits() as i64,
                    // Rust's `as` rounds to nearest even.
                    ((x as u64) as f64).to_bits() as i64,
                    (i as f64 * 0.5).to_bits() as i64,
                ]
            })
            .collect();
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "arith") {
                    let mut o = vec![0i64; 28 * GLOBAL];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&b))
                        .arg(Arg::input(&s))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::value(sh))
                        .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                    for (i, w) in want.iter().enumerate() {
                        for (k, &w) in w.iter().enumerate() {
                            let g = o[k * GLOBAL + i];
                            // as_long of a NaN product: the scalar build's
                            // payload (the harness checks it); here a NaN.
                            let nan = |v: i64| f64::from_bits(v as u64).is_nan();
                            let ok = g == w || (k == 16 && nan(g) && nan(w));
                            assert!(
                                ok,
                                "sh {sh} {opt:?} local {l:?}: result {k} of {i} ({} {}): {g:#x} want {w:#x}",
                                a[i], b[i]
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn comparisons_and_truncations() {
    let a = longs(GLOBAL, 4);
    let b: Vec<i64> = longs(GLOBAL, 5)
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 4 == 1 { a[i] } else { v })
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "compare") {
                let mut m = vec![-1i32; GLOBAL];
                let mut t = vec![0i32; 2 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut m))
                    .arg(Arg::output(&mut t))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let (x, y) = (a[i], b[i]);
                    let (ux, uy) = (x as u64, y as u64);
                    let bits = [
                        x == y,
                        x != y,
                        x < y,
                        x <= y,
                        x > y,
                        x >= y,
                        ux < uy,
                        ux <= uy,
                        ux > uy,
                        ux >= uy,
                    ];
                    let want: i32 = bits.iter().enumerate().map(|(k, &b)| (b as i32) << k).sum();
                    assert_eq!(m[i], want, "{opt:?} local {l:?}: comparisons of {i} ({x} {y})");
                    assert_eq!(t[i], x as i32, "{opt:?} local {l:?}: (int) of {i}");
                    let w = ((x >> 32) as i32).wrapping_add(y as i32);
                    assert_eq!(t[GLOBAL + i], w, "{opt:?} local {l:?}: high half of {i}");
                }
            }
        }
    }
}

#[test]
fn under_masks_and_gathered() {
    let a = longs(2 * GLOBAL, 6);
    let idx: Vec<i32> = (0..GLOBAL).map(|i| ((i * 37) % (2 * GLOBAL)) as i32).collect();
    for rounds in [0i32, 5, 30] {
        let want: Vec<(i64, i64)> = (0..GLOBAL)
            .map(|i| {
                let x = a[idx[i] as usize];
                let y = if x > 0 {
                    x ^ (x >> 7)
                } else {
                    x.wrapping_neg().wrapping_mul(5)
                };
                let mut h = y as u64;
                for r in 0..rounds + (i % 3) as i32 {
                    h ^= h >> 31;
                    h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(r as u64);
                    if (h as i64) < 0 {
                        h = h.wrapping_add(12345);
                    }
                }
                (h as i64, y)
            })
            .collect();
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "masked") {
                    let mut o = vec![0i64; 3 * GLOBAL];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&idx))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::value(rounds))
                        .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                    for (i, &(h, y)) in want.iter().enumerate() {
                        assert_eq!(o[i], h, "rounds {rounds} {opt:?} local {l:?}: hash of {i}");
                        assert_eq!(o[GLOBAL + i], y, "rounds {rounds} {opt:?} local {l:?}: y of {i}");
                        assert_eq!(
                            o[2 * GLOBAL + i],
                            a[i] ^ 0x55,
                            "rounds {rounds} {opt:?} local {l:?}: a[(int)i] of {i}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn kept_across_barriers() {
    let global = 128usize;
    let a = longs(global, 7);
    for n in [32usize, 16, 8, 4, 2, 1] {
        let mut want = vec![0i64; global];
        for g0 in (0..global).step_by(n) {
            let v0: Vec<i64> = (0..n).map(|l| a[g0 + l].wrapping_mul(3)).collect();
            let mut tmp = v0.clone();
            let v: Vec<i64> = (0..n)
                .map(|l| {
                    if l & 1 == 1 {
                        tmp[(l + 1) % n].wrapping_sub(v0[l])
                    } else {
                        v0[l]
                    }
                })
                .collect();
            let mut s = n / 2;
            while s > 0 {
                for l in 0..s {
                    tmp[l] = tmp[l].wrapping_add(tmp[l + s]);
                }
                s /= 2;
            }
            for l in 0..n {
                want[g0 + l] = v[l].wrapping_mul(v0[l] ^ 0x5555).wrapping_add(tmp[0]);
            }
        }
        for opt in Opt::BOTH {
            for kernel in builds(opt, "kept") {
                let mut o = vec![0i64; global];
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::Local(8 * n))
                    .run(&[global], Some(&[n]));
                assert_eq!(o, want, "local {n} {opt:?}");
            }
        }
    }
}
