//! 8- and 16-bit integers in 4- and 8-lane bodies (jit/src/lower/simd,
//! `Shape::V` of `i8x16` and `i16x8`): four work-items' chars or shorts
//! in the low lanes of one vector. Each kernel of
//! `kernels/cl/simd_narrow.cl` runs at -O0 and -O2, built the three ways
//! of `exec::lane_builds`, over local sizes that reach 8-lane, 4-lane and
//! one-work-item chunks; the harness compares every output with the
//! scalar build bit for bit, and the tests here with host references.
//! tests/exec_simd_narrow_forms.rs checks that the kernels get the vector
//! forms.

use clift_conformance::exec::{self, Arg, Kernel, Opt};
use clift_conformance::fenced::Fenced;

const GLOBAL: usize = exec::LANE_GLOBAL;
const LOCALS: [Option<usize>; 6] = exec::LANE_LOCALS;

fn builds<'a>(opt: Opt, name: &str) -> [Kernel<'a>; 3] {
    exec::lane_builds("simd_narrow", opt, name)
}

/// `count` 16-bit values mixing the extremes, values around the 8-bit
/// ones and scrambled bits.
fn shorts(count: usize, seed: u64) -> Vec<u16> {
    let specials = [
        0u16, 1, 0xffff, 0x8000, 0x7fff, 0x8001, 0xff, 0x100, 0x80, 0x7f, 0xff80, 0xff7f, 2, 3, 0xfffe,
    ];
    (0..count)
        .map(|i| {
            let h = (i as u64 ^ seed).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23);
            if i % 3 == 0 {
                specials[(h % specials.len() as u64) as usize]
            } else {
                (h >> 7) as u16
            }
        })
        .collect()
}

/// `count` bytes: the low bytes of [`shorts`] and the 8-bit extremes.
fn bytes(count: usize, seed: u64) -> Vec<u8> {
    let specials = [0u8, 1, 0xff, 0x80, 0x7f, 0x81, 0xfe, 2];
    shorts(count, seed)
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if i % 4 == 1 {
                specials[(v % 8) as usize]
            } else {
                v as u8
            }
        })
        .collect()
}

/// Runs `kernel` (arith8 or arith16) over every local size and level and
/// checks result k of work-item i against `want(x, y, sh)[k]`.
fn arith<T>(name: &str, a: &[T], b: &[T], want: impl Fn(T, T, i32) -> Vec<T>)
where
    T: exec::Pod + PartialEq + std::fmt::Debug + Copy,
{
    for sh in [0i32, 3, 7, 9, 15] {
        let want: Vec<Vec<T>> = (0..GLOBAL).map(|i| want(a[i], b[i], sh)).collect();
        let results = want[0].len();
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, name) {
                    let mut o = vec![a[0]; results * GLOBAL];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::input(a))
                        .arg(Arg::input(b))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::value(sh))
                        .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                    for (i, w) in want.iter().enumerate() {
                        for (k, w) in w.iter().enumerate() {
                            assert_eq!(
                                o[k * GLOBAL + i],
                                *w,
                                "{name} sh {sh} {opt:?} local {l:?}: result {k} of {i} ({:?} {:?})",
                                a[i],
                                b[i]
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The host reference of `arith8` / `arith16` (kernels/cl/simd_narrow.cl's
/// `ARITH`) for unsigned type `$u`, its signed `$s`, the clamp bounds
/// `$lo`, `$slo` and the top bit `$top`: C's integer promotions, then the
/// truncation of each store.
macro_rules! arith_reference {
    ($u:ty, $s:ty, $lo:expr, $slo:expr, $top:expr) => {
        |x: $u, y: $u, sh: i32| -> Vec<$u> {
            let (sx, sy) = (x as $s, y as $s);
            let ix = i32::from(x);
            let sh = (sh & 31) as u32;
            vec![
                x.wrapping_add(y),
                x.wrapping_sub(y),
                x.wrapping_mul(y),
                x & y,
                x | y,
                x ^ y,
                !x,
                x.wrapping_neg(),
                (ix << sh) as $u,
                (ix >> sh) as $u,
                (i32::from(sx) >> sh) as $u,
                x.min(y),
                x.max(y),
                sx.min(sy) as $u,
                sx.max(sy) as $u,
                x.max($lo).min(y | $top),
                sx.max($slo).min(sy & ($top - 1) as $s) as $u,
                sx.unsigned_abs(),
                if x < y { x } else { y.wrapping_add(1) },
                if sx > sy { x.wrapping_mul(3) } else { y },
                (i32::from(sx) * i32::from(sy) + i32::from(sx)) as $u,
            ]
        }
    };
}

/// `a` and `b` of a narrow arithmetic test: equal values where i % 5 == 1.
fn with_equals<T: Copy>(a: &[T], b: &[T]) -> Vec<T> {
    b.iter()
        .enumerate()
        .map(|(i, &v)| if i % 5 == 1 { a[i] } else { v })
        .collect()
}

#[test]
fn byte_arithmetic() {
    let a = bytes(GLOBAL, 1);
    let b = with_equals(&a, &bytes(GLOBAL, 2));
    arith("arith8", &a, &b, arith_reference!(u8, i8, 20, -50, 0x80));
}

#[test]
fn short_arithmetic() {
    let a = shorts(GLOBAL, 3);
    let b = with_equals(&a, &shorts(GLOBAL, 4));
    arith("arith16", &a, &b, arith_reference!(u16, i16, 2000, -5000, 0x8000));
}

#[test]
fn comparisons() {
    let a = bytes(GLOBAL, 5);
    let b: Vec<u8> = bytes(GLOBAL, 6)
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 4 == 1 { a[i] } else { v })
        .collect();
    let c = shorts(GLOBAL, 7);
    let d: Vec<u16> = shorts(GLOBAL, 8)
        .iter()
        .enumerate()
        .map(|(i, &v)| if i % 4 == 2 { c[i] } else { v })
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "compare") {
                let mut m = vec![-1i32; GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::input(&c))
                    .arg(Arg::input(&d))
                    .arg(Arg::output(&mut m))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let (x, y, u, v) = (a[i], b[i], c[i], d[i]);
                    let (sx, sy, su, sv) = (x as i8, y as i8, u as i16, v as i16);
                    let bits = [
                        x == y,
                        x != y,
                        x < y,
                        x >= y,
                        sx < sy,
                        sx <= sy,
                        sx > sy,
                        u == v,
                        u > v,
                        u <= v,
                        su < sv,
                        su >= sv,
                    ];
                    let want: i32 = bits.iter().enumerate().map(|(k, &b)| (b as i32) << k).sum();
                    assert_eq!(m[i], want, "{opt:?} local {l:?}: comparisons of {i} ({x} {y} {u} {v})");
                }
            }
        }
    }
}

#[test]
fn conversions() {
    let a = bytes(GLOBAL, 9);
    let c = shorts(GLOBAL, 10);
    let specials = [
        0, -1, 1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
    ];
    let s: Vec<i32> = (0..GLOBAL)
        .map(|i| {
            let h = (i as u32).wrapping_mul(0x9e37_79b9).rotate_left(11) as i32;
            if i % 2 == 0 {
                specials[i / 2 % specials.len()]
            } else {
                h >> (i % 24)
            }
        })
        .collect();
    let fspecials = [
        0.0f32,
        -0.0,
        0.5,
        -0.5,
        -0.99,
        1.5,
        127.5,
        128.0,
        -128.5,
        -129.0,
        255.9,
        256.0,
        32767.5,
        -32768.9,
        65535.0,
        70000.0,
        -1e9,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    let f: Vec<f32> = (0..GLOBAL)
        .map(|i| {
            if i % 2 == 0 {
                fspecials[i / 2 % fspecials.len()]
            } else {
                (s[i] as f32) * 0.37
            }
        })
        .collect();
    let q: Vec<i64> = (0..GLOBAL)
        .map(|i| (i as i64 ^ 0x5a5a).wrapping_mul(0x9e37_79b9_7f4a_7c15u64 as i64) >> (i % 60))
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "convert") {
                let mut o = vec![0i32; 20 * GLOBAL];
                let mut fo = vec![0f32; 4 * GLOBAL];
                let mut lo = vec![0i64; 3 * GLOBAL];
                let mut dob = vec![0f64; 2 * GLOBAL];
                let loc = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&c))
                    .arg(Arg::input(&s))
                    .arg(Arg::input(&f))
                    .arg(Arg::input(&q))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::output(&mut fo))
                    .arg(Arg::output(&mut lo))
                    .arg(Arg::output(&mut dob))
                    .run(&[GLOBAL], loc.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let (x, u, w, g, q) = (a[i], c[i], s[i], f[i], q[i]);
                    let (sx, su) = (x as i8, u as i16);
                    // Rust's float-to-integer `as` saturates and takes NaN
                    // to 0, as clift's conversions do (saturating ones by
                    // the spec, the others by clift's choice for values
                    // out of range).
                    let want = [
                        i32::from(x),
                        i32::from(sx),
                        i32::from(u),
                        i32::from(su),
                        i32::from(i16::from(sx) as u16),
                        i32::from(u as u8),
                        w.clamp(0, 255),
                        w.clamp(-128, 127),
                        w.clamp(0, 65535),
                        w.clamp(-32768, 32767),
                        i32::from(g as u8),
                        i32::from(g as i8),
                        i32::from(g as u16),
                        i32::from(g as i16),
                        i32::from(g as u8),
                        i32::from(g as i16),
                        i32::from(su.clamp(-128, 127)),
                        i32::from(su.clamp(0, 255)),
                        i32::from(q as u8),
                        i32::from(q as i16),
                    ];
                    for (k, &w) in want.iter().enumerate() {
                        assert_eq!(
                            o[k * GLOBAL + i],
                            w,
                            "{opt:?} local {l:?}: int result {k} of {i} ({x} {u} {w} {g} {q})"
                        );
                    }
                    let fw = [f32::from(x), f32::from(sx), f32::from(u), f32::from(su) * 0.5];
                    for (k, &w) in fw.iter().enumerate() {
                        assert_eq!(
                            fo[k * GLOBAL + i].to_bits(),
                            w.to_bits(),
                            "{opt:?} local {l:?}: float result {k} of {i}"
                        );
                    }
                    let lw = [i64::from(sx), i64::from(u), i64::from(su).wrapping_add(q)];
                    for (k, &w) in lw.iter().enumerate() {
                        assert_eq!(lo[k * GLOBAL + i], w, "{opt:?} local {l:?}: long result {k} of {i}");
                    }
                    let dw = [f64::from(sx), f64::from(u) / 3.0];
                    for (k, &w) in dw.iter().enumerate() {
                        assert_eq!(
                            dob[k * GLOBAL + i].to_bits(),
                            w.to_bits(),
                            "{opt:?} local {l:?}: double result {k} of {i}"
                        );
                    }
                }
            }
        }
    }
}

/// One work-item of `masked` before the barrier: its x, v, c, acc and
/// sacc.
fn masked_item(a: &[u8], s: &[i16], i: usize) -> (u8, i16, i8, u8, i16) {
    let (mut x, mut v, c) = (a[i], s[i], a[i + 1] as i8);
    if x & 1 != 0 {
        x = (i32::from(x) * 3 + 1) as u8;
        v = (i32::from(v) - i32::from(x)) as i16;
    } else {
        x >>= 1;
        v = (i32::from(v) * 7) as i16;
    }
    let (mut acc, mut sacc) = (0u8, 1i16);
    for k in 0..usize::from(a[i + 2] & 15) {
        acc = (i32::from(acc) + i32::from(a[i + k] ^ k as u8)) as u8;
        sacc = (i32::from(sacc) * 3 - i32::from(c)) as i16;
        if acc > 200 {
            break;
        }
    }
    (x, v, c, acc, sacc)
}

#[test]
fn under_masks_in_loops_and_across_barriers() {
    let a = bytes(GLOBAL + 16, 11);
    let s: Vec<i16> = shorts(GLOBAL, 12).iter().map(|&v| v as i16).collect();
    let items: Vec<_> = (0..GLOBAL).map(|i| masked_item(&a, &s, i)).collect();
    for opt in Opt::BOTH {
        for local in [8usize, 52, 13, 7, 2, GLOBAL] {
            for kernel in builds(opt, "masked") {
                let mut r = vec![0u32; 4 * GLOBAL];
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&s))
                    .arg(Arg::output(&mut r))
                    .arg(Arg::Local(local))
                    .run(&[GLOBAL], Some(&[local]));
                for i in 0..GLOBAL {
                    let (x, v, mut c, acc, sacc) = items[i];
                    // The next work-item's acc in the group (the last
                    // group may be smaller).
                    let base = i / local * local;
                    let size = local.min(GLOBAL - base);
                    let mut nb = items[base + (i - base + 1) % size].3;
                    if c < 0 {
                        c = c.wrapping_neg();
                        nb ^= 0x5a;
                    }
                    let want = [
                        u32::from(x) | u32::from(v as u16) << 8,
                        u32::from(acc) | u32::from(sacc as u16) << 8,
                        u32::from(nb) | u32::from(c as u8) << 8 | u32::from(x.wrapping_add(nb)) << 16,
                        (i32::from(v) + i32::from(sacc)) as i16 as i32 as u32,
                    ];
                    for (k, &w) in want.iter().enumerate() {
                        assert_eq!(r[4 * i + k], w, "{opt:?} local {local}: result {k} of {i}");
                    }
                }
            }
        }
    }
}

/// A boolean in a Function variable kept in memory
/// (`-cl-clift-keep-variables`) is a byte per lane there, but no 8-bit
/// integer: its four lanes' copies are not read as one `i8x16` (a mask
/// is wanted).
#[test]
fn a_boolean_in_a_private_variable_stays_a_boolean() {
    let il = exec::hand_spirv("simd_private_bool");
    for options in [
        "-cl-clift-keep-variables",
        "-cl-clift-keep-variables -cl-clift-max-lanes=4",
        "-cl-clift-keep-variables -cl-clift-min-lanes=8",
    ] {
        for local in [None, Some(8usize), Some(4), Some(3)] {
            let mut out = vec![0u32; 16];
            let lo = local.map(|l| [l]);
            Kernel::with_il(&il, "k", options)
                .unwrap_or_else(|e| panic!("{options}: {e}"))
                .arg(Arg::output(&mut out))
                .run(&[16], lo.as_ref().map(|l| &l[..]));
            let want: Vec<u32> = (0..16).map(|i| if i < 5 { 1 } else { 7 }).collect();
            assert_eq!(out, want, "{options:?} local {local:?}");
        }
    }
}

/// Components read one by one through pointers moving by 4 bytes
/// (`components`): a 4-lane body reads the 16 bytes from lane 0's value
/// when they lie in its page, else gathers. The buffers end where an
/// inaccessible page starts, so a read past the end would fault: the last
/// chunk's first byte is 16 bytes before the fence (the 16 bytes fit),
/// its second and third are not (gathered).
#[test]
fn components_read_one_by_one_up_to_a_fence() {
    for global in [64usize, 96, 104, 13] {
        let mut p = Fenced::<u8>::new(4 * global);
        let mut sh = Fenced::<u16>::new(2 * global);
        p.slice().copy_from_slice(&bytes(4 * global, 13));
        sh.slice().copy_from_slice(&shorts(2 * global, 14));
        let want: Vec<u32> = (0..global)
            .map(|i| {
                let v = &p.slice()[4 * i..4 * i + 4];
                let dot = 77 * u32::from(v[0]) + 150 * u32::from(v[1]) + 29 * u32::from(v[2]);
                dot ^ u32::from(sh.slice()[2 * i + 1]) << 16
            })
            .collect();
        for opt in Opt::BOTH {
            for l in [None, Some(8usize), Some(4), Some(global)] {
                for kernel in builds(opt, "components") {
                    let mut out = vec![0u32; global];
                    let lo = l.map(|l| [l]);
                    kernel
                        .arg(Arg::host_input(p.slice()))
                        .arg(Arg::host_input(sh.slice()))
                        .arg(Arg::output(&mut out))
                        .run(&[global], lo.as_ref().map(|l| &l[..]));
                    assert_eq!(out, want, "{opt:?} global {global} local {l:?}");
                }
            }
        }
    }
}

#[test]
fn tables_indexed_by_narrow_loads() {
    let n = 5 * GLOBAL as u32 + 3;
    let a = bytes(n as usize + 2 * GLOBAL, 15);
    let s = shorts(n as usize, 16);
    let table: Vec<u32> = (0..1024u32)
        .map(|k| k.wrapping_mul(0x9e37_79b9).rotate_left(7))
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "lookups") {
                let mut o = vec![7u32; 2 * GLOBAL];
                let lo = l.map(|l| [l]);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&s))
                    .arg(Arg::input(&table))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::value(n))
                    .run(&[GLOBAL], lo.as_ref().map(|l| &l[..]));
                for i in 0..GLOBAL {
                    let acc = (i..n as usize).step_by(GLOBAL).fold(0u32, |acc, j| {
                        acc.wrapping_add(table[usize::from(a[j])] ^ table[usize::from(s[j] & 1023)])
                    });
                    assert_eq!(o[i], acc, "{opt:?} local {l:?}: sum of {i}");
                    let odd = if i & 1 == 1 { table[usize::from(a[2 * i])] } else { 7 };
                    assert_eq!(o[GLOBAL + i], odd, "{opt:?} local {l:?}: lookup of {i}");
                }
            }
        }
    }
}
