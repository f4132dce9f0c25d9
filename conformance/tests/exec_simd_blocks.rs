//! Small vectors per work-item in 4- and 8-lane bodies
//! (jit/src/lower/simd/interleave.rs): `uchar4`, `short2`, `float4` ...
//! loaded and stored as the block of the four lanes' values, gathered and
//! scattered as whole values, and bit casts between types of different
//! component counts. Each kernel of `kernels/cl/simd_blocks.cl` runs at
//! -O0 and -O2, built the three ways of `exec::lane_builds`, over local
//! sizes that reach 8-lane, 4-lane and one-work-item chunks; the harness
//! compares every output with the scalar build bit for bit, and the tests
//! here with host references (the kernels only move bits, so the
//! references are byte permutations). tests/exec_simd_narrow_forms.rs
//! checks that the kernels get the block forms.

use clift_conformance::exec::{self, Arg, Kernel, Opt};

const GLOBAL: usize = exec::LANE_GLOBAL;
const LOCALS: [Option<usize>; 6] = exec::LANE_LOCALS;

fn builds<'a>(opt: Opt, name: &str) -> [Kernel<'a>; 3] {
    exec::lane_builds("simd_blocks", opt, name)
}

/// `count` scrambled 32-bit words, with float NaNs (quiet, signalling,
/// with payloads, negative), infinities and zeros among them.
fn words(count: usize, seed: u64) -> Vec<u32> {
    let specials = [
        0x7fc0_0000u32,
        0xffc0_0001,
        0x7f80_0001,
        0xff80_1234,
        0x7f80_0000,
        0x8000_0000,
        0,
        1,
    ];
    (0..count)
        .map(|i| {
            let h = (i as u64 ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
            if i % 5 == 2 {
                specials[(h % specials.len() as u64) as usize]
            } else {
                (h >> 11) as u32
            }
        })
        .collect()
}

/// The values of `n` components of `T` each, element `i` at
/// `v[n * i..n * i + n]`, with its components permuted by `perm`.
fn permuted<T: Copy>(v: &[T], n: usize, i: usize, perm: &[usize]) -> Vec<T> {
    perm.iter().map(|&c| v[n * i + c]).collect()
}

#[test]
fn side_by_side() {
    let w = words(4 * GLOBAL, 1);
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let halves: Vec<u16> = w.iter().flat_map(|&x| [x as u16, (x >> 16) as u16]).collect();
    let (a2, a4) = (&bytes[..2 * GLOBAL], &bytes[..4 * GLOBAL]);
    let (s2, s4) = (&halves[..2 * GLOBAL], &halves[..4 * GLOBAL]);
    let (i2, f2, f4) = (&w[..2 * GLOBAL], &w[GLOBAL..3 * GLOBAL], &w[..4 * GLOBAL]);
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "side_by_side") {
                let mut o2 = vec![0u8; 2 * GLOBAL];
                let mut o4 = vec![0u8; 4 * GLOBAL];
                let mut t2 = vec![0u16; 2 * GLOBAL];
                let mut t4 = vec![0u16; 4 * GLOBAL];
                let mut j2 = vec![0u32; 2 * GLOBAL];
                let mut g2 = vec![0u32; 2 * GLOBAL];
                let mut g4 = vec![0u32; 4 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(a2))
                    .arg(Arg::input(a4))
                    .arg(Arg::input(s2))
                    .arg(Arg::input(s4))
                    .arg(Arg::input(i2))
                    .arg(Arg::input(f2))
                    .arg(Arg::input(f4))
                    .arg(Arg::output(&mut o2))
                    .arg(Arg::output(&mut o4))
                    .arg(Arg::output(&mut t2))
                    .arg(Arg::output(&mut t4))
                    .arg(Arg::output(&mut j2))
                    .arg(Arg::output(&mut g2))
                    .arg(Arg::output(&mut g4))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let at = format!("{opt:?} local {l:?}: work-item {i}");
                    assert_eq!(o2[2 * i..2 * i + 2], permuted(a2, 2, i, &[1, 0]), "{at}: uchar2");
                    assert_eq!(o4[4 * i..4 * i + 4], permuted(a4, 4, i, &[3, 0, 2, 1]), "{at}: uchar4");
                    assert_eq!(t2[2 * i..2 * i + 2], permuted(s2, 2, i, &[1, 0]), "{at}: short2");
                    assert_eq!(t4[4 * i..4 * i + 4], permuted(s4, 4, i, &[2, 3, 0, 1]), "{at}: short4");
                    assert_eq!(j2[2 * i..2 * i + 2], permuted(i2, 2, i, &[1, 0]), "{at}: int2");
                    assert_eq!(g2[2 * i..2 * i + 2], permuted(f2, 2, i, &[1, 0]), "{at}: float2");
                    assert_eq!(g4[4 * i..4 * i + 4], permuted(f4, 4, i, &[3, 2, 1, 0]), "{at}: float4");
                }
            }
        }
    }
}

#[test]
fn gathered_and_scattered() {
    let w = words(6 * GLOBAL, 2);
    let bytes: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let halves: Vec<u16> = w.iter().flat_map(|&x| [x as u16, (x >> 16) as u16]).collect();
    let (a4, s2, f4, i2) = (
        &bytes[..4 * GLOBAL],
        &halves[..4 * GLOBAL],
        &w[..4 * GLOBAL],
        &w[..6 * GLOBAL],
    );
    // A permutation: neighbouring work-items far apart.
    let idx: Vec<i32> = (0..GLOBAL).map(|i| ((i * 37 + 11) % GLOBAL) as i32).collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "gathered") {
                let mut o4 = vec![0xa5u8; 4 * GLOBAL];
                let mut t2 = vec![0xa5a5u16; 4 * GLOBAL];
                let mut g4 = vec![0xa5a5_a5a5u32; 4 * GLOBAL];
                let mut j2 = vec![0xa5a5_a5a5u32; 6 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&idx))
                    .arg(Arg::input(a4))
                    .arg(Arg::input(s2))
                    .arg(Arg::input(f4))
                    .arg(Arg::input(i2))
                    .arg(Arg::output(&mut o4))
                    .arg(Arg::output(&mut t2))
                    .arg(Arg::output(&mut g4))
                    .arg(Arg::output(&mut j2))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let k = idx[i] as usize;
                    let at = format!("{opt:?} local {l:?}: work-item {i}");
                    assert_eq!(o4[4 * k..4 * k + 4], permuted(a4, 4, k, &[1, 2, 3, 0]), "{at}: uchar4");
                    assert_eq!(g4[4 * k..4 * k + 4], permuted(f4, 4, k, &[1, 0, 3, 2]), "{at}: float4");
                    // short2 element 2i + 1 from element 2i; the even ones
                    // untouched.
                    assert_eq!(
                        t2[4 * i + 2..4 * i + 4],
                        permuted(s2, 2, 2 * i, &[1, 0]),
                        "{at}: short2"
                    );
                    assert_eq!(t2[4 * i..4 * i + 2], [0xa5a5; 2], "{at}: short2 not written");
                    // int2 element 3i from element 3i + 1; the others
                    // untouched.
                    assert_eq!(j2[6 * i..6 * i + 2], permuted(i2, 2, 3 * i + 1, &[1, 0]), "{at}: int2");
                    assert_eq!(j2[6 * i + 2..6 * i + 6], [0xa5a5_a5a5; 4], "{at}: int2 not written");
                }
            }
        }
    }
}

#[test]
fn casts_between_component_counts() {
    let u = words(GLOBAL, 3);
    let l: Vec<u64> = words(2 * GLOBAL, 4)
        .chunks(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect();
    for opt in Opt::BOTH {
        for lsz in LOCALS {
            for kernel in builds(opt, "casts") {
                let mut ou = vec![0u32; 3 * GLOBAL];
                let mut ol = vec![0u64; 3 * GLOBAL];
                let lo = lsz.map(|l| [l]);
                kernel
                    .arg(Arg::input(&u))
                    .arg(Arg::input(&l))
                    .arg(Arg::output(&mut ou))
                    .arg(Arg::output(&mut ol))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let (x, y) = (u[i], l[i]);
                    let (b, c) = (x.to_le_bytes(), y.to_le_bytes());
                    let q: Vec<u16> = (0..4).map(|k| (y >> (16 * k)) as u16).collect();
                    let want_u = [
                        x.swap_bytes(),
                        x.rotate_left(16),
                        u32::from_le_bytes([b[0], c[7], c[2], b[3]]),
                    ];
                    let want_l = [
                        y.rotate_left(32),
                        u64::from(q[3]) | u64::from(q[2]) << 16 | u64::from(q[1]) << 32 | u64::from(q[0]) << 48,
                        u64::from(x) | (y & 0xffff_ffff) << 32,
                    ];
                    for k in 0..3 {
                        let at = format!("{opt:?} local {lsz:?}: result {k} of {i} ({x:#x} {y:#x})");
                        assert_eq!(ou[k * GLOBAL + i], want_u[k], "{at}");
                        assert_eq!(ol[k * GLOBAL + i], want_l[k], "{at}");
                    }
                }
            }
        }
    }
}

/// The `count` 16-bit pieces of `bytes` (little-endian).
fn pieces16(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(2)
        .map(|p| u64::from(u16::from_le_bytes([p[0], p[1]])))
        .collect()
}

#[test]
fn casts_between_wide_and_narrow_components() {
    let w = words(4 * GLOBAL, 5);
    let a: Vec<u64> = w[..2 * GLOBAL]
        .chunks(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect();
    let b: Vec<u64> = w[2 * GLOBAL..]
        .chunks(2)
        .map(|p| u64::from(p[0]) | u64::from(p[1]) << 32)
        .collect();
    let le8 = |v: &[u8]| u64::from_le_bytes(v.try_into().expect("8 bytes"));
    for opt in Opt::BOTH {
        for lsz in LOCALS {
            for kernel in builds(opt, "casts_wide") {
                let mut o = vec![0u64; 8 * GLOBAL];
                let lo = lsz.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut o))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let bytes: Vec<u8> = [a[i], b[i]].iter().flat_map(|v| v.to_le_bytes()).collect();
                    let s = pieces16(&bytes);
                    let f: Vec<u64> = bytes
                        .chunks(4)
                        .map(|p| u64::from(u32::from_le_bytes([p[0], p[1], p[2], p[3]])))
                        .collect();
                    let rev: Vec<u8> = bytes.iter().rev().copied().collect();
                    let c = &bytes;
                    let want = [
                        le8(&[c[0], c[1], c[2], c[3], c[15], c[14], c[13], c[12]]),
                        s[7] | s[5] << 16 | s[3] << 32 | s[1] << 48,
                        le8(&rev[..8]),
                        le8(&rev[8..]),
                        f[1] | f[0] << 32,
                        f[3] | f[2] << 32,
                        s[1] | s[0] << 16 | s[3] << 32 | s[2] << 48,
                        s[5] | s[4] << 16 | s[7] << 32 | s[6] << 48,
                    ];
                    for (k, &wk) in want.iter().enumerate() {
                        assert_eq!(o[k * GLOBAL + i], wk, "{opt:?} local {lsz:?}: result {k} of {i}");
                    }
                }
            }
        }
    }
}

#[test]
fn vload_and_vstore() {
    let w = words(16 * GLOBAL + 64, 6);
    let a: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
    let s: Vec<u16> = w.iter().map(|&x| x as u16).collect();
    let f: Vec<u32> = w[..4 * GLOBAL + 8].to_vec();
    for opt in Opt::BOTH {
        for lsz in LOCALS {
            for kernel in builds(opt, "builtins") {
                let mut oa = vec![0xa5u8; 2560 + 16 * GLOBAL];
                let mut os = vec![0xa5a5u16; 512 + 16 * GLOBAL + 16];
                let mut of = vec![0xa5a5_a5a5u32; 4 * GLOBAL + 8];
                let lo = lsz.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&s))
                    .arg(Arg::input(&f))
                    .arg(Arg::output(&mut oa))
                    .arg(Arg::output(&mut os))
                    .arg(Arg::output(&mut of))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                let mut want_a = vec![0xa5u8; oa.len()];
                let mut want_s = vec![0xa5a5u16; os.len()];
                let mut want_f = vec![0xa5a5_a5a5u32; of.len()];
                for i in 0..GLOBAL {
                    for k in 0..4 {
                        want_a[1 + 4 * i + k] = a[1 + 4 * i + 3 - k];
                        want_f[3 + 4 * i + k] = f[2 + 4 * i + [1, 0, 3, 2][k]];
                    }
                    let j = 2 * i + 1;
                    for k in 0..8 {
                        want_a[512 + 8 * j + k] = a[8 * j + 7 - k];
                        want_s[512 + 8 * j + k] = s[8 * j + (k ^ 1)];
                    }
                    for k in 0..16 {
                        want_a[2560 + 16 * i + k] = a[3 + 16 * i + 15 - k];
                    }
                    for k in 0..2 {
                        want_s[1 + 2 * i + k] = s[1 + 2 * i + 1 - k];
                    }
                }
                let at = format!("{opt:?} local {lsz:?}");
                assert_eq!(oa, want_a, "{at}: bytes");
                assert_eq!(os, want_s, "{at}: shorts");
                assert_eq!(of, want_f, "{at}: floats");
            }
        }
    }
}

#[test]
fn indices_made_with_a_bitwise_or() {
    let input: Vec<i32> = (0..8 * GLOBAL as i32 + 8).map(|v| v * 7 - 300).collect();
    for opt in Opt::BOTH {
        for lsz in LOCALS {
            for kernel in builds(opt, "or_indices") {
                let mut o = vec![0i32; 4 * GLOBAL];
                let lo = lsz.map(|l| [l]);
                kernel
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut o))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let want = [
                        input[(i << 1) | 1],
                        input[(i << 2) | 5],
                        input[i | 1],
                        input[(i << 3) | 7],
                    ];
                    assert_eq!(o[4 * i..4 * i + 4], want, "{opt:?} local {lsz:?}: work-item {i}");
                }
            }
        }
    }
}
