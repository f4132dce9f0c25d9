//! Vectorization across work-items (jit/src/lower/simd): kernels
//! without barriers run chunks of four work-items along x in one 4-lane
//! body, the rest of each row and any abandoned chunk in the scalar body.
//! Each kernel of `kernels/cl/simd.cl` runs at -O0 and -O2 with local sizes
//! that leave remainders (and with NULL), and every output is compared
//! with a host reference. tests/debug_dump.rs checks which kernels got a
//! 4-lane body.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::fenced::Fenced;

/// Local sizes: none given, a multiple of 4, and sizes leaving 1 to 3
/// work-items of each row to the scalar body.
const LOCALS: [Option<usize>; 5] = [None, Some(16), Some(13), Some(6), Some(3)];

#[test]
fn guard_splits_chunks() {
    let global = 1014;
    let a: Vec<f32> = (0..global).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..global).map(|i| 3.0 - i as f32).collect();
    // Every position of the end within a chunk (the 4-lane body tests
    // whether all lanes are below n by its last lane).
    for (n, opt) in (997u32..=1000).flat_map(|n| Opt::BOTH.map(|o| (n, o))) {
        for local in LOCALS {
            let mut c = vec![-1.0f32; global];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "guarded_add")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut c))
                .arg(Arg::value(n))
                .run(&[global], l.as_ref().map(|l| &l[..]));
            for (i, &g) in c.iter().enumerate() {
                let want = if i < n as usize { a[i] + b[i] * 2.0 } else { -1.0 };
                assert_eq!(g, want, "n {n} {opt:?} local {local:?}: c[{i}]");
            }
        }
    }
}

#[test]
fn lanes_that_disagree_run_one_by_one() {
    let global = 999;
    let input: Vec<i32> = (0..global as i32).map(|i| (i * 7919) % 1013 - 500).collect();
    let want: Vec<i32> = input.iter().map(|&x| if x % 3 == 0 { x * 5 } else { x - 7 }).collect();
    for name in ["diverge", "diverge_after_store"] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let mut out = vec![0i32; global];
                let mut side = vec![-1i32; global];
                let l = local.map(|l| [l]);
                let mut k = Kernel::new("simd", opt, name)
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out));
                if name == "diverge_after_store" {
                    k = k.arg(Arg::output(&mut side));
                }
                k.run(&[global], l.as_ref().map(|l| &l[..]));
                for (i, &g) in out.iter().enumerate() {
                    let x = input[i];
                    let w = if name == "diverge" {
                        want[i]
                    } else if x & 1 != 0 {
                        x * 2
                    } else {
                        -x
                    };
                    assert_eq!(g, w, "{name} {opt:?} local {local:?}: out[{i}]");
                }
                if name == "diverge_after_store" {
                    assert!(side.iter().enumerate().all(|(i, &s)| s == i as i32), "{name}: side");
                }
            }
        }
    }
}

#[test]
fn gathers_and_scatters() {
    let n = 301usize;
    let input: Vec<i32> = (0..3 * n as i32 + 2).map(|i| i * 11 - 40).collect();
    let perm: Vec<i32> = (0..n as i32).map(|i| (i * 37 + 5) % n as i32).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0i32; 2 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "strides")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::input(&perm))
                .arg(Arg::value(n as u32))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                assert_eq!(out[2 * i], input[3 * i + 1], "{opt:?} {local:?}: out[{}]", 2 * i);
                assert_eq!(
                    out[2 * i + 1],
                    input[n - 1 - i] + input[perm[i] as usize],
                    "{opt:?} {local:?}: out[{}]",
                    2 * i + 1
                );
            }
        }
    }
}

#[test]
fn uniform_loop_with_uniform_and_contiguous_loads() {
    let (rows, cols, ys) = (37usize, 46usize, 3usize);
    let m: Vec<f32> = (0..rows * cols).map(|i| ((i * 13) % 29) as f32 - 14.0).collect();
    let v: Vec<f32> = (0..rows + ys).map(|i| (i % 7) as f32 * 0.25 - 0.5).collect();
    for opt in Opt::BOTH {
        for local in [None, Some([8usize, 1]), Some([5, 3])] {
            let mut out = vec![0f32; ys * cols];
            Kernel::new("simd", opt, "matvec_t")
                .arg(Arg::input(&m))
                .arg(Arg::input(&v))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(rows as u32))
                .arg(Arg::value(cols as u32))
                .run(&[cols, ys], local.as_ref().map(|l| &l[..]));
            for y in 0..ys {
                for c in 0..cols {
                    let want: f32 = (0..rows).fold(0.0, |acc, r| m[r * cols + c].mul_add(v[r + y], acc));
                    let got = out[y * cols + c];
                    assert!(
                        (got - want).abs() <= 1e-4 * want.abs().max(1.0),
                        "{opt:?} {local:?}: [{y}][{c}] {got} vs {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn float4_per_work_item() {
    let n = 203usize;
    let p: Vec<[f32; 4]> = (0..n)
        .map(|i| [i as f32 * 0.5, 1.0 - i as f32, (i % 5) as f32, i as f32 * 2.0])
        .collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![[0f32; 4]; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "vec4")
                .arg(Arg::input(&p))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let d = [p[i][0] - p[0][0], p[i][1] - p[0][1], p[i][2] - p[0][2]];
                let r = 1.0 / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 1.0).sqrt();
                let want = [d[0] * r, d[1] * r, d[2] * r, p[i][3] + i as f32];
                for c in 0..4 {
                    let tol = 4.0 * f32::EPSILON * want[c].abs().max(1.0);
                    assert!(
                        (out[i][c] - want[c]).abs() <= tol,
                        "{opt:?} {local:?}: out[{i}].{c} {:?} vs {want:?}",
                        out[i]
                    );
                }
            }
        }
    }
}

#[test]
fn widened_indices_that_wrap() {
    let n = 64usize;
    for k in [0u32, 5, u32::MAX - 1, u32::MAX - 9, u32::MAX - 100] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let mut out = vec![0u64; n];
                let mut out2 = vec![0u64; n];
                let l = local.map(|l| [l]);
                Kernel::new("simd", opt, "wrap_index")
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut out2))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for g in 0..n {
                    assert_eq!(
                        out[g],
                        (g as u32).wrapping_add(k) as u64,
                        "{opt:?} {local:?} k {k}: out[{g}]"
                    );
                    let j2 = (g as u32).wrapping_mul(3).wrapping_add(k) as u64;
                    let want2 = j2.wrapping_add((g as i32 - 2) as i64 as u64);
                    assert_eq!(out2[g], want2, "{opt:?} {local:?} k {k}: out2[{g}]");
                }
            }
        }
    }
}

/// `(long)(int)x`, `(long)(short)x`, `(long)(char)x` of an id plus a
/// uniform `k` (clang -O2's shifts left and back), as data, with `k`
/// putting the wrap of each narrow type at every lane of a chunk, and
/// `int i = get_global_id(0)` as an index (sign_extended_ids).
#[test]
fn sign_extended_ids_and_int_indices() {
    let n = 67usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
    // The wrap of each narrow type at every lane of an 8-lane chunk.
    let mut ks = vec![0u64, (1 << 32) - 3];
    for edge in [1u64 << 31, 1 << 15, 1 << 7] {
        ks.extend((1..=8).map(|d| edge - d));
    }
    for k in ks {
        for opt in Opt::BOTH {
            for local in [None, Some(6)] {
                let mut out = vec![0i64; 3 * n];
                let mut fout = vec![0f32; n];
                let l = local.map(|l| [l]);
                Kernel::new("simd", opt, "sign_extended_ids")
                    .arg(Arg::output(&mut out))
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut fout))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for o in 0..n {
                    let g = o as u64 + k;
                    let want = [i64::from(g as i32), i64::from(g as i16), i64::from(g as i8)];
                    assert_eq!(&out[3 * o..3 * o + 3], &want[..], "{opt:?} {local:?} k {k:#x}: {o}");
                    assert_eq!(
                        fout[o],
                        input[o] * 2.0 + (g as i32) as f32,
                        "{opt:?} {local:?} k {k:#x}: fout[{o}]"
                    );
                }
            }
        }
    }
}

/// vload4/vstore4, `uchar4` loads and stores and two components of a
/// `uchar4` read on their own through a `short` index (an id plus `k`)
/// that wraps from 32767 to -32768 at every lane of a chunk
/// (wrapped_small_vectors: whole blocks where no lane wraps, lane by lane
/// where one does).
#[test]
fn small_vectors_through_indices_that_wrap() {
    let n = 64usize;
    let input: Vec<f32> = (0..4 * 65536).map(|i| i as f32).collect();
    // (One more uchar4 for the components read one further.)
    let px: Vec<u8> = (0..4 * 65537u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut ks = vec![0i32, 100, -40];
    ks.extend((1..=9).map(|d| 32768 - d));
    for k in ks {
        for opt in Opt::BOTH {
            for local in [None, Some(6)] {
                let mut out = vec![0f32; 4 * 65536];
                let mut pout = vec![0u8; 4 * 65536];
                let mut fout = vec![0f32; n];
                let l = local.map(|l| [l]);
                Kernel::new("simd", opt, "wrapped_small_vectors")
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::input(&px))
                    .arg(Arg::output(&mut pout))
                    .arg(Arg::output(&mut fout))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for (g, &fo) in fout.iter().enumerate() {
                    let at = (32768 + i64::from((g as i64 + i64::from(k)) as i16)) as usize;
                    for c in 0..4 {
                        assert_eq!(
                            out[4 * at + c],
                            input[4 * at + c] * 2.0,
                            "{opt:?} {local:?} k {k}: {g}.{c}"
                        );
                        assert_eq!(
                            pout[4 * at + c],
                            px[4 * at + 3 - c],
                            "{opt:?} {local:?} k {k}: pixel {g}.{c}"
                        );
                    }
                    let q = 4 * (at + 1);
                    let f = f32::from(px[q]) + 0.5 * f32::from(px[q + 2]);
                    assert_eq!(fo, f, "{opt:?} {local:?} k {k}: components {g}");
                }
                let written = out.iter().filter(|&&v| v != 0.0).count();
                assert!(written <= 4 * n, "{opt:?} {local:?} k {k}: {written} floats written");
            }
        }
    }
}

/// logb and ilogb of floats of every class in every lane position
/// (exponent_lanes): each denormal exponent, normals, ±0, ±inf, NaNs of
/// both signs with payloads (logb passes x's bits on), against the host
/// functions' rules.
#[test]
fn exponents_by_lanes() {
    let mut a: Vec<u32> = Vec::new();
    for s in 0..23 {
        a.extend([1u32 << s, (1u32 << s) | 1, (2u32 << s) - 1, 0x8000_0000 | (1u32 << s)]);
    }
    for e in [1u32, 2, 100, 126, 127, 128, 200, 253, 254] {
        a.extend([e << 23, (e << 23) | 0x7f_ffff, 0x8000_0000 | (e << 23) | 0x12_3456]);
    }
    a.extend([
        0,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0001,
        0x7f80_0001,
        0xffbf_ffff,
        0x7fff_ffff,
    ]);
    let n = a.len();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; 2 * n];
            Kernel::new("simd", opt, "exponent_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for (i, &x) in a.iter().enumerate() {
                let mag = x & 0x7fff_ffff;
                let e = if mag >> 23 == 0 {
                    -118 - mag.leading_zeros() as i32
                } else {
                    (mag >> 23) as i32 - 127
                };
                let want = match mag {
                    0 => [f32::NEG_INFINITY.to_bits(), i32::MIN as u32],
                    0x7f80_0000 => [f32::INFINITY.to_bits(), i32::MAX as u32],
                    m if m > 0x7f80_0000 => [x, i32::MAX as u32],
                    _ => [(e as f32).to_bits(), e as u32],
                };
                assert_eq!(&out[2 * i..2 * i + 2], &want[..], "{opt:?} {local:?}: {x:#x} ({i})");
            }
        }
    }
}

/// powr of floats (powr_lanes): every pair of special values (NaNs of
/// both signs with payloads, infinities, zeros, 1, negatives) exactly as
/// the host function's rules say, and ordinary pairs within an ulp of
/// the double power rounded (the harness compares the bodies bit for bit).
#[test]
fn powr_by_lanes() {
    let xs: [f32; 13] = [
        f32::NAN,
        f32::from_bits(0xffc0_1234),
        f32::NEG_INFINITY,
        -1.0,
        -0.0,
        0.0,
        1e-40,
        0.5,
        1.0,
        2.0,
        10.0,
        f32::MAX,
        f32::INFINITY,
    ];
    let ys: [f32; 12] = [
        f32::from_bits(0x7fc0_0042),
        f32::NEG_INFINITY,
        -2.5,
        -1.0,
        -0.0,
        0.0,
        1e-3,
        0.5,
        1.0,
        3.0,
        100.0,
        f32::INFINITY,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &y in &ys {
        for &x in &xs {
            a.push(x);
            b.push(y);
        }
    }
    for i in 0..200u32 {
        a.push(0.01 + (i as f32) * 0.37);
        b.push((i as f32) * 0.11 - 9.0);
    }
    let n = a.len();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; n];
            Kernel::new("simd", opt, "powr_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (a[i], b[i]);
                let special = if x.is_nan() {
                    Some(x.to_bits() | 0x0040_0000)
                } else if y.is_nan() {
                    Some(y.to_bits() | 0x0040_0000)
                } else if x < 0.0 {
                    Some(f32::NAN.to_bits())
                } else if x == 0.0 || x == f32::INFINITY {
                    let big = if x == 0.0 { y < 0.0 } else { y > 0.0 };
                    Some(if y == 0.0 {
                        f32::NAN.to_bits()
                    } else if big {
                        f32::INFINITY.to_bits()
                    } else {
                        0
                    })
                } else if x == 1.0 {
                    Some(if y.is_infinite() {
                        f32::NAN.to_bits()
                    } else {
                        1f32.to_bits()
                    })
                } else {
                    None
                };
                match special {
                    Some(w) => assert_eq!(out[i], w, "{opt:?} {local:?}: powr({x:e}, {y:e})"),
                    None => {
                        let w = f64::from(x).powf(f64::from(y)) as f32;
                        let d = (out[i] as i64 - i64::from(w.to_bits())).abs();
                        assert!(d <= 1, "{opt:?} {local:?}: powr({x:e}, {y:e}) {:#x} vs {w:e}", out[i]);
                    }
                }
            }
        }
    }
}

/// rootn of floats (rootn_lanes): every pair of special x (NaNs,
/// infinities, zeros, negatives, a denormal) and n (0, ±1, even, odd,
/// the extremes) exactly as the host function's rules say, ordinary
/// pairs within an ulp of the double power rounded (the harness compares
/// the bodies bit for bit).
#[test]
fn rootn_by_lanes() {
    let xs: [f32; 13] = [
        f32::NAN,
        f32::from_bits(0xff80_0001),
        f32::NEG_INFINITY,
        -8.0,
        -1e-40,
        -0.0,
        0.0,
        1e-40,
        0.5,
        1.0,
        27.0,
        f32::MAX,
        f32::INFINITY,
    ];
    let ns: [i32; 12] = [0, 1, -1, 2, -2, 3, -3, 5, 100, -101, i32::MAX, i32::MIN];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &n in &ns {
        for &x in &xs {
            a.push(x);
            b.push(n);
        }
    }
    for i in 0..200i32 {
        a.push((i as f32) * 0.73 - 60.0);
        b.push(i % 9 - 4);
    }
    let count = a.len();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; count];
            Kernel::new("simd", opt, "rootn_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[count], l.as_ref().map(|l| &l[..]));
            for i in 0..count {
                let (x, n) = (a[i], b[i]);
                let odd = n & 1 != 0;
                let signed = |v: f32| if x < 0.0 { -v } else { v };
                let special = if x.is_nan() {
                    Some(x.to_bits() | 0x0040_0000)
                } else if n == 0 || (x < 0.0 && !odd) {
                    Some(f32::NAN.to_bits())
                } else if x == 0.0 {
                    let sign = if odd { x.to_bits() & 0x8000_0000 } else { 0 };
                    Some(if n < 0 { f32::INFINITY.to_bits() } else { 0 } | sign)
                } else if x.is_infinite() {
                    Some(signed(if n > 0 { f32::INFINITY } else { 0.0 }).to_bits())
                } else if n == 1 {
                    Some(x.to_bits())
                } else if n == -1 {
                    Some(signed(1.0 / x.abs()).to_bits())
                } else {
                    None
                };
                match special {
                    Some(w) => assert_eq!(out[i], w, "{opt:?} {local:?}: rootn({x:e}, {n})"),
                    None => {
                        let w = signed(f64::from(x.abs()).powf(1.0 / f64::from(n)) as f32);
                        let d = (out[i] as i64 - i64::from(w.to_bits())).abs();
                        assert!(d <= 1, "{opt:?} {local:?}: rootn({x:e}, {n}) {:#x} vs {w:e}", out[i]);
                    }
                }
            }
        }
    }
}

/// nextafter of floats (nextafter_lanes): every pair of zeros, denormals,
/// normals, the extremes, infinities and NaNs (quiet and signaling, both
/// signs, with payloads: a NaN comes back quieted, x's where both are),
/// in every lane position.
#[test]
fn nextafter_by_lanes() {
    let v: [u32; 20] = [
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x3f7f_ffff,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_1234,
        0x7f80_0001,
        0xffa0_0005,
        0x4049_0fdb,
        0xc049_0fdb,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &y in &v {
        for &x in &v {
            a.push(x);
            b.push(y);
        }
    }
    let n = a.len();
    let nan = |u: u32| (u & 0x7fff_ffff) > 0x7f80_0000;
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; n];
            Kernel::new("simd", opt, "nextafter_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (a[i], b[i]);
                let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
                let want = if nan(x) {
                    x | 0x0040_0000
                } else if nan(y) {
                    y | 0x0040_0000
                } else if fx == fy {
                    y
                } else if fx == 0.0 {
                    (y & 0x8000_0000) | 1
                } else if (fy > fx) == (fx > 0.0) {
                    x + 1
                } else {
                    x - 1
                };
                assert_eq!(out[i], want, "{opt:?} {local:?}: nextafter({x:#x}, {y:#x})");
            }
        }
    }
}

/// Loop-carried `short` and `char` values in loops whose trip counts
/// differ between work-items (masked_narrow_loop), against the host.
#[test]
fn masked_loops_of_narrow_values() {
    let n = 203usize;
    let a: Vec<i16> = (0..n as i32).map(|i| (i * 7919 % 65536 - 32768) as i16).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut o = vec![0i16; n];
            let mut c = vec![0i8; n];
            Kernel::new("simd", opt, "masked_narrow_loop")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .arg(Arg::output(&mut c))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (mut v, mut w) = (a[i], i as i8);
                for k in 0..(a[i] & 7) {
                    v = v.wrapping_mul(3).wrapping_add(1);
                    w = w.wrapping_mul(5).wrapping_add(k as i8);
                }
                assert_eq!((o[i], c[i]), (v, w), "{opt:?} {local:?}: {i}");
            }
        }
    }
}

#[test]
fn comparisons_conversions_and_shifts() {
    let n = 77usize;
    let a: Vec<i64> = (0..n as i64)
        .map(|i| (i * 1_000_003) % 97 - 40 + if i % 4 == 0 { 1 << 40 } else { 0 })
        .collect();
    let b: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0i64; n];
            let mut f = vec![0f32; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "mixed")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut f))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (a[i], b[i]);
                let s = if x < i as i64 { x } else { i as i64 * 3 };
                let want = s + (y >> 3) as i64 - (y << 2) as i64;
                assert_eq!(out[i], want, "{opt:?} {local:?}: out[{i}]");
                let wf = y as f32 * 0.5 + (x as i32) as f32 - if i > 5 { 1.0 } else { 0.0 };
                assert_eq!(f[i], wf, "{opt:?} {local:?}: f[{i}]");
            }
        }
    }
}

#[test]
fn inlined_calls_with_varying_arguments() {
    let n = 50usize;
    let input: Vec<i32> = (0..n as i32).map(|i| i * i - 100).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0i32; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "calls")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(9i32))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                assert_eq!(out[i], input[i] * 2 + 9 + 19, "{opt:?} {local:?}: out[{i}]");
            }
        }
    }
}

#[test]
fn loops_whose_exit_differs() {
    let n = 90usize;
    let input: Vec<u32> = (1..=n as u32).collect();
    let steps = |mut x: u32| {
        let mut s = 0;
        while x != 1 && s < 1000 {
            x = if x & 1 != 0 { 3 * x + 1 } else { x / 2 };
            s += 1;
        }
        s
    };
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0u32; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "varying_loop")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                assert_eq!(out[i], steps(input[i]), "{opt:?} {local:?}: out[{i}]");
            }
        }
    }
}

#[test]
fn atomics_count_every_lane() {
    let n = 203usize;
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut counter = vec![0i32];
            let mut olds = vec![-1i32; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "count")
                .arg_may_differ(
                    1,
                    "the old values atomic_inc returns depend on the order work-items ran in",
                )
                .arg(Arg::output(&mut counter))
                .arg(Arg::output(&mut olds))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            assert_eq!(counter[0], n as i32, "{opt:?} {local:?}");
            let mut seen = olds.clone();
            seen.sort_unstable();
            assert_eq!(
                seen,
                (0..n as i32).collect::<Vec<_>>(),
                "{opt:?} {local:?}: every old value once"
            );
        }
    }
}

#[test]
fn values_kept_across_barriers() {
    let global = 96usize;
    let input: Vec<f32> = (0..global).map(|i| (i * 7 % 23) as f32 - 5.0).collect();
    for opt in Opt::BOTH {
        // 16 and 8 split into chunks; 6 and 3 do not.
        for local in [16usize, 8, 6, 3] {
            let mut out = vec![0f32; global];
            let mut out64 = vec![0i64; global];
            Kernel::new("simd", opt, "barrier_shapes")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut out64))
                .arg(Arg::Local(local * 4))
                .run(&[global], Some(&[local]));
            for g in 0..global {
                let (base, l) = (g / local * local, g % local);
                let scale = if g & 1 != 0 { 2.0 } else { 1.0 };
                let want: f32 = (0..3).fold(0.0, |acc, r| acc + (input[base + (l + 1) % local] + r as f32) * scale);
                assert_eq!(out[g], want, "{opt:?} local {local}: out[{g}]");
                let w64 = ((g as i64 * 3 - 7) as f32 + l as f32 * input[g]) as i64;
                assert_eq!(out64[g], w64, "{opt:?} local {local}: out64[{g}]");
            }
        }
    }
}

#[test]
fn contiguous_accesses_through_indices_that_wrap() {
    let n = 64usize;
    let input: Vec<f32> = (0..65536).map(|i| i as f32).collect();
    for k in [0u32, 65534, 65533, 65535, 100] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let mut out = vec![0f32; n];
                let mut out2 = vec![0u32; 65536];
                let l = local.map(|l| [l]);
                Kernel::new("simd", opt, "wrap_access")
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut out2))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for (g, &o) in out.iter().enumerate() {
                    let idx = (g as u32 + k) & 0xffff;
                    assert_eq!(o, idx as f32, "{opt:?} {local:?} k {k}: out[{g}]");
                    assert_eq!(out2[idx as usize], g as u32 + 1, "{opt:?} {local:?} k {k}: out2[{idx}]");
                }
                let written = out2.iter().filter(|&&v| v != 0).count();
                assert_eq!(
                    written, n,
                    "{opt:?} {local:?} k {k}: only the indexed elements are written"
                );
            }
        }
    }
}

#[test]
fn masked_loops_keep_each_lanes_exit_values() {
    let n = 203usize;
    let cx: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 601 - 300).collect();
    for maxit in [0u32, 1, 7, 50] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let mut iters = vec![u32::MAX; n];
                let mut last = vec![i32::MIN; n];
                let l = local.map(|l| [l]);
                Kernel::new("simd", opt, "escape")
                    .arg(Arg::input(&cx))
                    .arg(Arg::output(&mut iters))
                    .arg(Arg::output(&mut last))
                    .arg(Arg::value(maxit))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for i in 0..n {
                    let (c, mut z, mut it) = (cx[i], 0i32, 0u32);
                    loop {
                        if it >= maxit {
                            break;
                        }
                        let nz = z * z / 16 + c;
                        if nz.abs() > 1000 {
                            z = -nz;
                            break;
                        }
                        z = nz;
                        it += 1;
                    }
                    assert_eq!(iters[i], it, "{opt:?} {local:?} maxit {maxit}: iters[{i}]");
                    assert_eq!(last[i], z, "{opt:?} {local:?} maxit {maxit}: last[{i}]");
                }
            }
        }
    }
}

#[test]
fn loops_with_side_effects_and_varying_exits() {
    let n = 77usize;
    let input: Vec<u32> = (0..n as u32).map(|i| i * 37 % 1000).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0u32; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "varying_loop_atomic")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let want = if input[i] > 1 { 31 - input[i].leading_zeros() } else { 0 };
                assert_eq!(out[i], want, "{opt:?} {local:?}: out[{i}]");
            }
        }
    }
}

#[test]
fn math_functions_four_lanes_per_call() {
    let n = 301usize;
    let x: Vec<f32> = (0..n).map(|i| (i as f32 - 150.0) * 0.37).collect();
    let ulps = |a: f32, b: f32| {
        if a == b || (a.is_nan() && b.is_nan()) {
            0
        } else {
            (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
        }
    };
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0f32; 5 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "math4")
                .arg(Arg::input(&x))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let v = x[i] as f64;
                let want = [v.exp(), v.ln(), libm_erf(v), v.sin(), v.cos()].map(|w| w as f32);
                for k in 0..5 {
                    let got = out[5 * i + k];
                    assert!(
                        ulps(got, want[k]) <= 1,
                        "{opt:?} {local:?}: function {k} of {}: {got} vs {}",
                        x[i],
                        want[k]
                    );
                }
            }
        }
    }
}

/// erf in double precision (Abramowitz and Stegun 7.1.26 is too coarse):
/// the Maclaurin series below 3, 1 - erfc's continued fraction above.
fn libm_erf(x: f64) -> f64 {
    let a = x.abs();
    let r = if a < 3.0 {
        let (mut term, mut sum, mut k) = (a, a, 0.0);
        while term.abs() > 1e-17 * sum.abs() {
            k += 1.0;
            term *= -a * a / k;
            sum += term / (2.0 * k + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        let mut f = 0.0;
        for k in (1..60).rev() {
            f = (k as f64 / 2.0) / (a + f);
        }
        1.0 - (-a * a).exp() / std::f64::consts::PI.sqrt() / (a + f)
    };
    r.copysign(x)
}

#[test]
fn integer_builtins_four_lanes() {
    // mad24 and mul24 as plain 32-bit multiplies (wrapping), with min,
    // max and abs, in the 4-lane body and the scalar remainder alike.
    let n = 203usize;
    let a: Vec<i32> = (0..n as i32)
        .map(|i| i.wrapping_mul(40_503) % 70_000 - 35_000)
        .collect();
    let b: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0i32; 2 * n];
            let mut uout = vec![0u32; n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "int_builtins")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut uout))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (a[i], b[i]);
                let mut acc = x;
                for k in 0..4 {
                    acc = (acc & 0x7fff).wrapping_mul(x).wrapping_add(k - 2);
                }
                assert_eq!(out[2 * i], acc, "{opt:?} {local:?}: mad24 chain {i}");
                let want = x
                    .wrapping_mul(x.wrapping_neg())
                    .wrapping_add(x.max(3))
                    .wrapping_sub(x.wrapping_abs());
                assert_eq!(out[2 * i + 1], want, "{opt:?} {local:?}: mul24 {i}");
                let u =
                    (y & 0xff_ffff).wrapping_mul((y >> 8) & 0xffff).wrapping_add(y) ^ (y & 0xfff).wrapping_mul(4097);
                assert_eq!(uout[i], u, "{opt:?} {local:?}: unsigned {i}");
            }
        }
    }
}

/// Shifts and rotates by a count per work-item of 8-, 16-, 32- and
/// 64-bit integers, signed and unsigned (shifts_by_lanes): every count
/// from 0 to 255 in every lane position (the counts modulo the width, as
/// OpenCL C takes them), beside words with every bit pattern edge.
#[test]
fn shifts_by_a_count_per_lane() {
    let mut a: Vec<u32> = Vec::new();
    for s in 0..32 {
        a.extend([1u32 << s, (1u32 << s) - 1, !(1u32 << s), 0x8000_0001 | (1u32 << s)]);
    }
    a.extend([
        0,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        0x8080_8080,
        0x7f7f_7f7f,
        0x8000_8000,
    ]);
    while a.len() < 4 * 256 + 3 {
        let i = a.len() as u32;
        a.push(i.wrapping_mul(2_654_435_761) ^ (i << 7));
    }
    let n = a.len();
    // Every count 0..256 in each byte, the bytes differing (so the 8- and
    // 16-bit lanes see them too), in every lane position of a chunk.
    let b: Vec<u32> = (0..n as u32)
        .map(|i| {
            let c = (i * 5 + i / 256) % 256;
            c | (((c * 7 + 3) % 256) << 8) | (((c + 91) % 256) << 16) | (((c * 13) % 256) << 24)
        })
        .collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; 16 * n];
            let mut out64 = vec![0u64; 5 * n];
            Kernel::new("simd", opt, "shifts_by_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut out64))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, c) = (a[i], b[i]);
                let (xb, cb) = (x.to_le_bytes(), c.to_le_bytes());
                let bytes =
                    |f: &dyn Fn(u8, u8) -> u8| u32::from(u16::from_le_bytes([f(xb[0], cb[0]), f(xb[1], cb[1])]));
                let halves = |f: &dyn Fn(u16, u16) -> u16| {
                    u32::from(f(x as u16, c as u16)) | u32::from(f((x >> 16) as u16, (c >> 16) as u16)) << 16
                };
                let want = [
                    x << (c % 32),
                    x >> (c % 32),
                    ((x as i32) >> (c % 32)) as u32,
                    x.rotate_left(c % 32),
                    x.rotate_left(c % 32),
                    (1u32 << (i % 32)) | (x >> ((i * 3) % 32)),
                    bytes(&|v, k| v << (k % 8)),
                    bytes(&|v, k| v >> (k % 8)),
                    bytes(&|v, k| ((v as i8) >> (k % 8)) as u8),
                    bytes(&|v, k| v.rotate_left(u32::from(k % 8))),
                    halves(&|v, k| v << (k % 16)),
                    halves(&|v, k| v >> (k % 16)),
                    halves(&|v, k| ((v as i16) >> (k % 16)) as u16),
                    halves(&|v, k| v.rotate_left(u32::from(k % 16))),
                    halves(&|v, k| v.rotate_left(u32::from(k % 16))),
                    x << (c & 7) >> (c >> 29),
                ];
                assert_eq!(
                    &out[16 * i..16 * i + 16],
                    &want[..],
                    "{opt:?} {local:?}: {x:#x} by {c:#x} ({i})"
                );
                let (wx, wn) = (
                    (u64::from(x) << 32) | u64::from(x ^ c),
                    (u64::from(c) << 32) | u64::from(c),
                );
                let k = (wn % 64) as u32;
                let want64 = [
                    wx << k,
                    wx >> k,
                    ((wx as i64) >> k) as u64,
                    wx.rotate_left(k),
                    wx.rotate_left(((wn >> 3) % 64) as u32),
                ];
                assert_eq!(
                    &out64[5 * i..5 * i + 5],
                    &want64[..],
                    "{opt:?} {local:?}: {wx:#x} by {wn:#x} ({i})"
                );
            }
        }
    }
}

/// Edge words for the integer tests: the edges of each width (0, 1, the
/// sign bits, all ones) in the low byte, the low half and the word.
const INT_EDGES: [u32; 22] = [
    0,
    1,
    2,
    3,
    7,
    0x7f,
    0x80,
    0xff,
    0x7fff,
    0x8000,
    0xffff,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    u32::MAX,
    0x8080_8080,
    0x7f7f_7f7f,
    0x8000_8000,
    0xffff_0001,
    0x0001_ffff,
    0xff01_80ff,
];

/// Every pair of [`INT_EDGES`] (so every lane position of a chunk sees
/// each), then scrambled pairs.
fn int_edge_pairs() -> (Vec<u32>, Vec<u32>) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &y in &INT_EDGES {
        for &x in &INT_EDGES {
            a.push(x);
            b.push(y);
        }
    }
    for i in 0..203u32 {
        a.push(i.wrapping_mul(2_654_435_761) ^ (i << 7));
        b.push(i.wrapping_mul(0x9e37_79b9).rotate_right(i % 31) >> (i % 29));
    }
    (a, b)
}

/// The quotient (or with `rem` the remainder) as clift's scalar code
/// computes it, where OpenCL leaves it undefined too: by 0, `x` and 0; by
/// -1 (signed), `-x` wrapping and 0.
macro_rules! clift_division {
    ($($udiv:ident, $sdiv:ident: $u:ty, $s:ty;)*) => {$(
        fn $udiv(x: $u, y: $u, rem: bool) -> $u {
            match (y, rem) {
                (0, false) => x,
                (0, true) => 0,
                (_, false) => x / y,
                (_, true) => x % y,
            }
        }
        fn $sdiv(x: $s, y: $s, rem: bool) -> $s {
            match (y, rem) {
                (0, false) => x,
                (-1, false) => x.wrapping_neg(),
                (0 | -1, true) => 0,
                (_, false) => x / y,
                (_, true) => x % y,
            }
        }
    )*};
}
clift_division! {
    udiv32, sdiv32: u32, i32;
    udiv16, sdiv16: u16, i16;
    udiv8, sdiv8: u8, i8;
    udiv64, sdiv64: u64, i64;
}

/// Integer division and remainder of 8-, 16- and 32-bit lanes, signed and
/// unsigned, by a divisor per work-item, a uniform one (0, -1 and
/// `INT_MIN` among them) and constants (divide_by_lanes,
/// remainder_by_lanes: the 4-lane bodies divide in double), against
/// clift's scalar results, the undefined cases included.
#[test]
fn division_by_lanes() {
    let (a, b) = int_edge_pairs();
    let n = a.len();
    for u in [7u32, 0, u32::MAX, 0x8000_0000, 1000] {
        for opt in Opt::BOTH {
            for local in [None, Some(6)] {
                let l = local.map(|l| [l]);
                for (kernel, rem) in [("divide_by_lanes", false), ("remainder_by_lanes", true)] {
                    let mut out = vec![0u32; 12 * n];
                    let mut out2 = vec![0u32; 10 * n];
                    Kernel::new("simd", opt, kernel)
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&b))
                        .arg(Arg::output(&mut out))
                        .arg(Arg::output(&mut out2))
                        .arg(Arg::value(u))
                        .run(&[n], l.as_ref().map(|l| &l[..]));
                    for i in 0..n {
                        let (x, y) = (a[i], b[i]);
                        let (sx, sy) = (x as i32, y as i32);
                        let bytes = |f: &dyn Fn(u8, u8) -> u8| {
                            u32::from(f(x as u8, y as u8)) | u32::from(f((x >> 8) as u8, (y >> 8) as u8)) << 8
                        };
                        let halves = |f: &dyn Fn(u16, u16) -> u16| {
                            u32::from(f(x as u16, y as u16)) | u32::from(f((x >> 16) as u16, (y >> 16) as u16)) << 16
                        };
                        let want = [
                            udiv32(x, y, rem),
                            sdiv32(sx, sy, rem) as u32,
                            udiv32(x, u, rem),
                            sdiv32(sx, u as i32, rem) as u32,
                            udiv32(x, 10, rem),
                            sdiv32(sx, -7, rem) as u32,
                            bytes(&|p, q| udiv8(p, q, rem)),
                            bytes(&|p, q| sdiv8(p as i8, q as i8, rem) as u8),
                            halves(&|p, q| udiv16(p, q, rem)),
                            halves(&|p, q| sdiv16(p as i16, q as i16, rem) as u16),
                            halves(&|p, _| sdiv16(p as i16, u as i16, rem) as u16),
                            bytes(&|p, _| sdiv8(p as i8, -1, rem) as u8),
                        ];
                        assert_eq!(
                            &out[12 * i..12 * i + 12],
                            &want[..],
                            "{kernel} u {u:#x} {opt:?} {local:?}: {x:#x}, {y:#x} ({i})"
                        );
                        let pairs = |f: &dyn Fn(u32, u32) -> u32, bits: u32, (p, q): (u32, u32)| {
                            let m = (1u32 << bits) - 1;
                            (f(x & m, p) & m) | (f((x >> bits) & m, q) & m) << bits
                        };
                        let want2 = [
                            udiv32(x, 3, rem),
                            udiv32(x, 7, rem),
                            udiv32(x, 0x7fff_fffd, rem),
                            sdiv32(sx, 3, rem) as u32,
                            sdiv32(sx, -16, rem) as u32,
                            sdiv32(sx, i32::MIN, rem) as u32,
                            sdiv32(sx, 641, rem) as u32,
                            pairs(&|p, q| u32::from(udiv8(p as u8, q as u8, rem)), 8, (7, 200)),
                            pairs(
                                &|p, q| sdiv16(p as u16 as i16, q as u16 as i16, rem) as u16 as u32,
                                16,
                                ((-3i16) as u16 as u32, 1000),
                            ),
                            pairs(&|p, q| u32::from(udiv16(p as u16, q as u16, rem)), 16, (1000, 65535)),
                        ];
                        assert_eq!(
                            &out2[10 * i..10 * i + 10],
                            &want2[..],
                            "{kernel} constants {opt:?} {local:?}: {x:#x} ({i})"
                        );
                    }
                }
            }
        }
    }
}

/// Division and remainder of 64-bit integers, signed and unsigned
/// (divide_longs_by_lanes, remainder_longs_by_lanes): chunks whose lanes
/// are all below 2^51 in magnitude (divided in double) and chunks with a
/// lane or more beyond (lane by lane), by divisors per work-item (0, -1
/// and `LONG_MIN` among them), uniform and constant (multiplies on the
/// low halves where the lanes fit 32 bits), against clift's scalar
/// results, the undefined cases included.
#[test]
fn long_division_by_lanes() {
    // (With the edges of the ranges where constant divisors multiply:
    // 2^30 signed, 2^32 unsigned.)
    let small: [u64; 19] = [
        0,
        1,
        2,
        1 << 32,
        7,
        (1 << 30) - 1,
        (-(1i64 << 30)) as u64,
        (1 << 32) - 1,
        (-(1i64 << 30) - 1) as u64,
        (-(1i64 << 31)) as u64,
        1000,
        (1 << 51) - 1,
        (-(1i64 << 51)) as u64,
        u64::MAX,
        (-7i64) as u64,
        1 << 40,
        (1 << 50) + 3,
        (-(1i64 << 50) - 5) as u64,
        123_456_789_012_345,
    ];
    let big: [u64; 8] = [
        1 << 51,
        (1 << 51) + 1,
        1 << 63,
        u64::MAX - (1 << 51),
        i64::MAX as u64,
        (1 << 53) | 1,
        (-(1i64 << 51) - 1) as u64,
        0xfedc_ba98_7654_3210,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    // Small by small (whole chunks divide in double), then each big value
    // against small ones and each other, in every lane position.
    for &y in &small {
        for &x in &small {
            a.push(x);
            b.push(y);
        }
    }
    for (k, &v) in big.iter().enumerate() {
        for (j, &w) in small.iter().chain(&big).enumerate() {
            let (x, y) = if (j + k) % 2 == 0 { (v, w) } else { (w, v) };
            a.push(x);
            b.push(y);
        }
    }
    let n = a.len();
    for u in [7u64, 0, u64::MAX, 1 << 60, (1 << 51) - 1] {
        for opt in Opt::BOTH {
            for local in [None, Some(6)] {
                let l = local.map(|l| [l]);
                for (kernel, rem) in [("divide_longs_by_lanes", false), ("remainder_longs_by_lanes", true)] {
                    let mut out = vec![0u64; 10 * n];
                    Kernel::new("simd", opt, kernel)
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&b))
                        .arg(Arg::output(&mut out))
                        .arg(Arg::value(u))
                        .run(&[n], l.as_ref().map(|l| &l[..]));
                    for i in 0..n {
                        let (x, y) = (a[i], b[i]);
                        let (sx, sy) = (x as i64, y as i64);
                        let want = [
                            udiv64(x, y, rem),
                            sdiv64(sx, sy, rem) as u64,
                            udiv64(x, u, rem),
                            sdiv64(sx, u as i64, rem) as u64,
                            udiv64(i as u64, u, rem),
                            sdiv64(sx, 1000, rem) as u64,
                            udiv64(x, 3, rem),
                            udiv64(x, 0xffff_ffff, rem),
                            sdiv64(sx, -7, rem) as u64 ^ sdiv64(sx, -2_147_483_648, rem) as u64,
                            udiv64(i as u64, 3, rem),
                        ];
                        assert_eq!(
                            &out[10 * i..10 * i + 10],
                            &want[..],
                            "{kernel} u {u:#x} {opt:?} {local:?}: {x:#x}, {y:#x} ({i})"
                        );
                    }
                }
            }
        }
    }
}

/// Conversions between 64-bit integers and floats and doubles
/// (long_conversions_by_lanes): chunks whose lanes are all within 2^31
/// (converted in vectors) and chunks with a lane beyond, NaN or infinite
/// (lane by lane), against Rust's conversions, which round and saturate
/// as clift's scalar code does (NaN to 0).
#[test]
fn long_conversions_by_lanes() {
    // Within 2^31 (converted in vectors; 2^24 + 1 and 2^30 + 3 round to
    // float), and beyond.
    let ints: [u64; 10] = [
        0,
        1,
        (1 << 31) - 1,
        (-(1i64 << 31)) as u64,
        u64::MAX,
        (1 << 24) + 1,
        (1 << 30) + 3,
        (-(1i64 << 30) - 1) as u64,
        0x7fff_fff7,
        12_345_678,
    ];
    let big_ints: [u64; 6] = [
        1 << 31,
        (1 << 53) + 1,
        1 << 63,
        i64::MAX as u64,
        0x8000_0000_0000_0401,
        (1 << 62) + (1 << 38) + 1,
    ];
    let reals: [f64; 12] = [
        0.0,
        -0.0,
        0.9,
        -0.9,
        2.5,
        -2.5,
        1e9 + 0.5,
        -1e9 - 0.5,
        2147483520.0,
        -2.0,
        1.0,
        2147483647.0,
    ];
    let big_reals: [f64; 8] = [
        2147483648.0,
        -2147483648.0,
        4503599627370497.0,
        1e19,
        -1e19,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    let n = 512;
    // Chunks of eight in range, then chunks with a value beyond in a lane
    // that moves, for each operand on its own.
    let pick = |i: usize, small: &dyn Fn(usize) -> u64, big: &dyn Fn(usize) -> u64, salt: usize| {
        if (i / 8) % 2 == 1 && i % 5 == salt % 5 {
            big(i + salt)
        } else {
            small(i * 7 + salt)
        }
    };
    let a: Vec<u64> = (0..n)
        .map(|i| pick(i, &|k| ints[k % 10], &|k| big_ints[k % 6], 0))
        .collect();
    let d: Vec<f64> = (0..n)
        .map(|i| {
            f64::from_bits(pick(
                i,
                &|k| reals[k % 12].to_bits(),
                &|k| big_reals[k % 8].to_bits(),
                1,
            ))
        })
        .collect();
    let f: Vec<f32> = (0..n)
        .map(|i| {
            f64::from_bits(pick(
                i,
                &|k| reals[k % 12].to_bits(),
                &|k| big_reals[k % 8].to_bits(),
                2,
            )) as f32
        })
        .collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; 3 * n];
            let mut out64 = vec![0u64; 6 * n];
            Kernel::new("simd", opt, "long_conversions_by_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&d))
                .arg(Arg::input(&f))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut out64))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, dv, fv) = (a[i], d[i], f[i]);
                let want = [
                    (x as i64 as f32).to_bits(),
                    (x as f32).to_bits(),
                    (i as f32 * 0.5).to_bits(),
                ];
                assert_eq!(&out[3 * i..3 * i + 3], &want[..], "{opt:?} {local:?}: {x:#x} ({i})");
                let want64 = [
                    dv as i64 as u64,
                    dv as u64,
                    fv as i64 as u64,
                    fv as u64,
                    dv.round_ties_even() as i64 as u64,
                    fv.floor() as u64,
                ];
                assert_eq!(
                    &out64[6 * i..6 * i + 6],
                    &want64[..],
                    "{opt:?} {local:?}: {dv:e}, {fv:e} ({i})"
                );
            }
        }
    }
}

/// abs_diff, add_sat, sub_sat, hadd, rhadd and mad_hi of 8-, 16-, 32- and
/// 64-bit integers, signed and unsigned (int_builtins_lanes), on the edge
/// pairs, against host references.
#[test]
fn integer_builtins_by_lanes() {
    macro_rules! reference {
        ($($name:ident: $u:ty, $s:ty, $w:ty, $sw:ty;)*) => {$(
            mod $name {
                pub fn hadd(x: $u, y: $u) -> $u { ((<$w>::from(x) + <$w>::from(y)) >> 1) as $u }
                pub fn rhadd(x: $u, y: $u) -> $u { ((<$w>::from(x) + <$w>::from(y) + 1) >> 1) as $u }
                pub fn s_hadd(x: $s, y: $s) -> $s { ((<$sw>::from(x) + <$sw>::from(y)) >> 1) as $s }
                pub fn s_rhadd(x: $s, y: $s) -> $s { ((<$sw>::from(x) + <$sw>::from(y) + 1) >> 1) as $s }
            }
        )*};
    }
    reference! {
        r8: u8, i8, u16, i16;
        r16: u16, i16, u32, i32;
        r32: u32, i32, u64, i64;
        r64: u64, i64, u128, i128;
    }
    let (a, b) = int_edge_pairs();
    let n = a.len();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; 16 * n];
            let mut out64 = vec![0u64; 8 * n];
            Kernel::new("simd", opt, "int_builtins_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut out64))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (a[i], b[i]);
                let (sx, sy) = (x as i32, y as i32);
                // Each byte (`f` of the bytes of x and y) or half in place.
                let bytes = |f: &dyn Fn(u8, u8) -> u8| {
                    u32::from_le_bytes([0, 1, 2, 3].map(|k| f((x >> (8 * k)) as u8, (y >> (8 * k)) as u8)))
                };
                let halves = |f: &dyn Fn(u16, u16) -> u16| {
                    u32::from(f(x as u16, y as u16)) | u32::from(f((x >> 16) as u16, (y >> 16) as u16)) << 16
                };
                let mul_hi = |p: u32, q: u32| ((u64::from(p) * u64::from(q)) >> 32) as u32;
                let smul_hi = |p: i32, q: i32| ((i64::from(p) * i64::from(q)) >> 32) as i32;
                let sb = |f: fn(i8, i8) -> i8| move |p: u8, q: u8| f(p as i8, q as i8) as u8;
                let sh = |f: fn(i16, i16) -> i16| move |p: u16, q: u16| f(p as i16, q as i16) as u16;
                let want = [
                    x.abs_diff(y),
                    sx.abs_diff(sy),
                    x.saturating_add(y) ^ x.saturating_sub(y),
                    sx.saturating_add(sy) as u32,
                    sx.saturating_sub(sy) as u32,
                    r32::hadd(x, y).wrapping_add((r32::s_hadd(sx, sy) as u32).wrapping_mul(3)),
                    r32::rhadd(x, y).wrapping_add((r32::s_rhadd(sx, sy) as u32).wrapping_mul(3)),
                    mul_hi(x, y).wrapping_add(x ^ 0x9e37_79b9) ^ (smul_hi(sx, sy).wrapping_add(sx) as u32),
                    bytes(&|p, q| p.saturating_add(q)) ^ bytes(&|p, q| (p as i8).abs_diff(q as i8)),
                    bytes(&|p, q| p.saturating_sub(q)).wrapping_add(bytes(&|p, q| p.abs_diff(q))),
                    bytes(&sb(i8::saturating_add)) ^ bytes(&sb(i8::saturating_sub)).wrapping_mul(5),
                    bytes(&r8::hadd)
                        ^ bytes(&r8::rhadd).wrapping_mul(3)
                        ^ bytes(&sb(r8::s_hadd)).wrapping_mul(7)
                        ^ bytes(&sb(r8::s_rhadd)).wrapping_mul(11),
                    halves(&|p, q| p.saturating_add(q))
                        ^ halves(&|p, q| p.saturating_sub(q)).wrapping_mul(3)
                        ^ halves(&|p, q| (p as i16).abs_diff(q as i16)).wrapping_mul(5),
                    halves(&sh(i16::saturating_add))
                        ^ halves(&sh(i16::saturating_sub)).wrapping_mul(3)
                        ^ halves(&|p, q| p.abs_diff(q)).wrapping_mul(5),
                    halves(&r16::hadd)
                        ^ halves(&r16::rhadd).wrapping_mul(3)
                        ^ halves(&sh(r16::s_hadd)).wrapping_mul(7)
                        ^ halves(&sh(r16::s_rhadd)).wrapping_mul(11),
                    0,
                ];
                assert_eq!(
                    &out[16 * i..16 * i + 16],
                    &want[..],
                    "{opt:?} {local:?}: {x:#x}, {y:#x} ({i})"
                );
                let wx = (u64::from(x) << 32) | u64::from(x ^ y);
                let wy = (u64::from(y) << 32) | u64::from(y.wrapping_mul(0x9e37_79b9));
                let (swx, swy) = (wx as i64, wy as i64);
                let want64 = [
                    wx.abs_diff(wy),
                    swx.abs_diff(swy),
                    wx.saturating_add(wy) ^ wx.saturating_sub(wy),
                    swx.saturating_add(swy) as u64,
                    swx.saturating_sub(swy) as u64,
                    r64::hadd(wx, wy) ^ r64::s_hadd(swx, swy) as u64,
                    r64::rhadd(wx, wy) ^ r64::s_rhadd(swx, swy) as u64,
                    0,
                ];
                assert_eq!(
                    &out64[8 * i..8 * i + 8],
                    &want64[..],
                    "{opt:?} {local:?}: 64-bit {wx:#x}, {wy:#x} ({i})"
                );
            }
        }
    }
}

#[test]
fn integer_bit_builtins_four_lanes() {
    // rotate by a count the same in every lane, popcount, clz and mul_hi
    // as vector code, rotate by a varying count lane by lane (int_bits);
    // clbench's hash loop, whose 4-lane body holds its values as scalars
    // per lane (hash_lanes). Inputs: the edges of each (0, 1, powers of
    // two and one less, the sign bit, all ones) in every lane position,
    // then scrambled words.
    let mut a: Vec<u32> = Vec::new();
    for s in 0..32 {
        a.extend([1u32 << s, (1u32 << s) - 1, !(1u32 << s), (1u32 << s) | 1]);
    }
    a.extend([0, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0xffff_fffe, 0x00ff_ff00]);
    let n = a.len() + 77;
    a.extend((0..77u32).map(|i| i.wrapping_mul(2_654_435_761) ^ (i << 7)));
    let b: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9).rotate_left(i % 29) ^ (i * 3))
        .collect();
    let mul_hi = |p: u32, q: u32| ((u64::from(p) * u64::from(q)) >> 32) as u32;
    for k in [0u32, 1, 13, 32, 45] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let l = local.map(|l| [l]);
                let mut out = vec![0u32; 8 * n];
                Kernel::new("simd", opt, "int_bits")
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for i in 0..n {
                    let (x, y) = (a[i], b[i]);
                    let smul_hi = (((x as i32 as i64) * (y as i32 as i64)) >> 32) as u32;
                    let want = [
                        x.rotate_left(k % 32),
                        x.rotate_left(y % 32),
                        x.count_ones(),
                        x.leading_zeros(),
                        mul_hi(x, y),
                        smul_hi,
                        mul_hi(x, 0xc2b2_ae35) ^ x.leading_zeros(),
                        y.leading_zeros() + y.count_ones(),
                    ];
                    assert_eq!(
                        &out[8 * i..8 * i + 8],
                        &want[..],
                        "{opt:?} {local:?} k {k}: {x:#x} {y:#x} ({i})"
                    );
                }

                let mut out = vec![0u32; n];
                let mut out64 = vec![0u64; n];
                Kernel::new("simd", opt, "hash_lanes")
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut out64))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for i in 0..n {
                    let (x, y) = (a[i], b[i]);
                    let mut h = x ^ k;
                    let mut z = (u64::from(x) << 32) | u64::from(y);
                    for _ in 0..k {
                        h ^= h.rotate_left(13);
                        h = h.wrapping_mul(0x85eb_ca6b).wrapping_add(h.count_ones());
                        h ^= mul_hi(h, 0xc2b2_ae35);
                        h = h.wrapping_add((h | 1).leading_zeros());
                        z ^= z >> 31;
                        z = z.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(u64::from(h));
                        z ^= ((u128::from(z) * 0xbf58_476d_1ce4_e5b9u128) >> 64) as u64;
                        z = z.rotate_left(h & 63);
                    }
                    assert_eq!((out[i], out64[i]), (h, z), "{opt:?} {local:?} k {k}: hash of {i}");
                }
            }
        }
    }
}

#[test]
fn struct_arguments_and_generic_casts_per_lane() {
    // A struct passed by value whose lanes hold different contents (each
    // lane's copy side by side), and OpGenericCastToPtrExplicit of a
    // pointer whose lanes point at different address spaces: both used to
    // keep their kernels out of 4-lane bodies (tests/debug_dump.rs checks
    // they now get one).
    let n = 103usize;
    let boxes: Vec<i32> = (0..6 * n as i32).map(|k| k.wrapping_mul(7919) % 2001 - 1000).collect();
    let g: Vec<i32> = (0..n as i32).map(|i| i * 31 - 700).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut got = boxes.clone();
            Kernel::new("simd", opt, "byval_lanes")
                .arg(Arg::output(&mut got))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let b = &boxes[6 * i..6 * i + 6];
                let mut c: Vec<i32> = (0..6).map(|k| b[k] * 2 + k as i32).collect();
                c[i % 6] = b[0] - i as i32;
                assert_eq!(&got[6 * i..6 * i + 6], &c[..], "{opt:?} {local:?}: box {i}");
            }

            let mut out = vec![0i32; n];
            // Room for the largest group the device allows.
            Kernel::new("simd", opt, "cast_back")
                .arg(Arg::input(&g))
                .arg(Arg::Local(4 * 4096))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for (i, &r) in out.iter().enumerate() {
                let want = if i & 1 != 0 {
                    g[i]
                } else if i & 2 != 0 {
                    3 * (1000 + i as i32)
                } else {
                    5 * i as i32
                };
                assert_eq!(r, want, "{opt:?} {local:?}: out[{i}]");
            }
        }
    }
}

/// islessgreater and its negation on NaNs, infinities, zeros of both signs
/// and equal values, in every lane position: the vector forms of "ordered
/// and not equal" (two compares on x86-64) against the host.
#[test]
fn ordered_not_equal_four_lanes() {
    let specials = [0.0f32, -0.0, 1.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 2.5];
    let mut x = Vec::new();
    let mut y = Vec::new();
    for &a in &specials {
        for &b in &specials {
            x.push(a);
            y.push(b);
        }
    }
    // Shifted by one so each pair lands in another lane too.
    x.extend(x.clone().iter().skip(1));
    y.extend(y.clone().iter().skip(1));
    let n = x.len();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0i32; 3 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "ordered_compares")
                .arg(Arg::input(&x))
                .arg(Arg::input(&y))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (a, b) = (x[i], y[i]);
                // Ordered and not equal (false for a NaN).
                let lg = matches!(
                    a.partial_cmp(&b),
                    Some(std::cmp::Ordering::Less | std::cmp::Ordering::Greater)
                );
                let want = [
                    if lg { 5 } else { 9 },
                    if lg { 3 } else { 7 },
                    if a == b || a.is_nan() || b.is_nan() { 11 } else { 13 },
                ];
                for k in 0..3 {
                    assert_eq!(out[k * n + i], want[k], "{opt:?} {local:?}: result {k} of ({a}, {b})");
                }
            }
        }
    }
}

/// OpenCL C's `clamp` of integers (`min(max(x, lo), hi)`, the upper
/// bound winning when the bounds are the wrong way round).
fn clamp_i64(x: i64, lo: i64, hi: i64) -> i64 {
    x.max(lo).min(hi)
}

/// Indices clamped to a buffer (clamped_indices: the 4-lane bodies read
/// and write one vector where no lane of a chunk is clamped, lane by lane
/// where one is), with the clamp at every lane position of a chunk at
/// either end: signed and unsigned `int`, `long`, min and max alone,
/// lanes moving down, a stride of 2, bounds the wrong way round, float4
/// elements, and stores. One row of the NDRange per offset and width.
#[test]
fn clamped_indices_by_lanes() {
    let n = 61usize;
    let mut cases = stencil_cases(n);
    cases.push((-40, n as i32));
    let rows = cases.len();
    let (ds, ws): (Vec<i32>, Vec<i32>) = cases.iter().copied().unzip();
    let input: Vec<f32> = (0..64 + 2 * n + 64).map(|i| i as f32 * 0.5 - 7.0).collect();
    let input4: Vec<f32> = (0..4 * n * rows).map(|i| (i * 7 % 23) as f32 - 4.0).collect();
    for opt in Opt::BOTH {
        for local in [None, Some([6usize, 1]), Some([16, 2])] {
            let mut out = vec![0f32; 8 * n * rows];
            let mut out4 = vec![0f32; 4 * n * rows];
            let mut marks = vec![-1i32; n * rows];
            Kernel::new("simd", opt, "clamped_indices")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::input(&input4))
                .arg(Arg::output(&mut out4))
                .arg(Arg::output(&mut marks))
                .arg(Arg::input(&ds))
                .arg(Arg::input(&ws))
                .run(&[n, rows], local.as_ref().map(|l| &l[..]));
            let mid = |i: i64| input[(64 + i) as usize];
            for (y, &(d, w)) in cases.iter().enumerate() {
                let (d, w) = (i64::from(d), i64::from(w));
                for x in 0..n as i64 {
                    let unsigned = u64::from((x + d) as u32).max(3).min(w as u64) as i64;
                    let want = [
                        mid(clamp_i64(x + d, 0, w - 1)),
                        mid((x + d).min(w - 1)),
                        mid((x - d).max(0)),
                        mid(clamp_i64(w - 1 - x + d, 0, w - 1)),
                        mid(unsigned),
                        mid(clamp_i64(x + d, 1, w - 2)),
                        mid(clamp_i64(2 * x + d, 0, 2 * w - 1)),
                        mid(clamp_i64(x + d, w, 5)),
                    ];
                    let at = 8 * (n * y + x as usize);
                    assert_eq!(&out[at..at + 8], &want[..], "d {d} w {w} {opt:?} {local:?}: x {x}");
                    let j = n * y + clamp_i64(x + d, 0, w - 1) as usize;
                    let o = 4 * (n * y + x as usize);
                    let want4: Vec<f32> = input4[4 * j..4 * j + 4].iter().map(|v| v * 2.0).collect();
                    assert_eq!(&out4[o..o + 4], &want4[..], "d {d} w {w} {opt:?} {local:?}: out4 {x}");
                }
                for j in 0..n {
                    let hit = (0..n as i64).any(|x| clamp_i64(x + d, 0, w - 1) == j as i64);
                    let want = if hit { 3 * j as i32 + 1 } else { -1 };
                    assert_eq!(marks[n * y + j], want, "d {d} w {w} {opt:?} {local:?}: marks[{j}]");
                }
            }
        }
    }
}

/// Indices clamped by hand with conditional expressions
/// (selected_indices: selects of a comparison's own operands, and `i +
/// (i + 1 < w)`, read as one vector where the lanes agree), with the
/// condition changing at every lane position of a chunk, signed and
/// unsigned, `long`, a stride of 2, lanes moving down. One row of the
/// NDRange per offset and width.
#[test]
fn selected_indices_by_lanes() {
    let n = 61usize;
    let mut cases = stencil_cases(n);
    // (-7, -2): x + d wraps around 2^32 at x = 7, and only x = 6 is above
    // w (unsigned).
    cases.extend([(-40, n as i32), (20, 50), (33, 0), (-7, -2)]);
    let input: Vec<f32> = (0..64 + 2 * n + 64).map(|i| i as f32 * 0.5 - 7.0).collect();
    let locals = [None, Some([6usize, 1]), Some([16, 2])];
    offset_width_rows(
        "selected_indices",
        n,
        &cases,
        &input,
        10,
        &locals,
        |label, (d, w), x, out| {
            let mid = |i: i64| input[(64 + i) as usize];
            let i = x + d;
            let j = w - 1 - x;
            let want = [
                mid(i.max(0)),
                mid(i.min(w - 1)),
                mid(if i + 1 < w { i + 1 } else { i }),
                mid(if (x + d) as u32 > w as u32 { x + 1 } else { x - 1 }),
                mid(if i as u32 >= w as u32 { 0 } else { i }),
                mid(i.max(2)),
                mid(2 * x + if 2 * x + d < w { 1 } else { -1 }),
                mid(if j + d > 3 { j - 1 } else { j }),
                mid(if x > d { x - 1 } else { x }),
                mid(x.min(w)),
            ];
            assert_eq!(out, &want[..], "{label}");
        },
    );
}

/// The (offset, width) rows of the stencil tests: offsets -9 to 9 at the
/// full width `n`, and a few offsets at narrower widths (7, 1).
fn stencil_cases(n: usize) -> Vec<(i32, i32)> {
    let mut cases: Vec<(i32, i32)> = (-9..=9).map(|d| (d, n as i32)).collect();
    for w in [n as i32 - 5, 7, 1] {
        cases.extend([-5, -1, 0, 3, 40].map(|d| (d, w)));
    }
    cases
}

/// Runs kernel `kernel` of simd.cl over an `n` x rows NDRange, row y the
/// case (offset, width) `cases[y]`, at both levels and with each local
/// size of `locals`: its arguments `input`, room for `per` floats per
/// work-item, the offsets and the widths; `check` gets a label, the case
/// and x of each work-item, and its `per` floats.
fn offset_width_rows(
    kernel: &str,
    n: usize,
    cases: &[(i32, i32)],
    input: &[f32],
    per: usize,
    locals: &[Option<[usize; 2]>],
    mut check: impl FnMut(&str, (i64, i64), i64, &[f32]),
) {
    let rows = cases.len();
    let (ds, ws): (Vec<i32>, Vec<i32>) = cases.iter().copied().unzip();
    for opt in Opt::BOTH {
        for local in locals {
            let mut out = vec![0f32; per * n * rows];
            Kernel::new("simd", opt, kernel)
                .arg(Arg::input(input))
                .arg(Arg::output(&mut out))
                .arg(Arg::input(&ds))
                .arg(Arg::input(&ws))
                .run(&[n, rows], local.as_ref().map(|l| &l[..]));
            for (y, &(d, w)) in cases.iter().enumerate() {
                for x in 0..n {
                    let o = per * (n * y + x);
                    let label = format!("{kernel} d {d} w {w} {opt:?} {local:?}: x {x}");
                    check(&label, (d.into(), w.into()), x as i64, &out[o..o + per]);
                }
            }
        }
    }
}

/// acospi, asinpi, atanpi and atan2pi of doubles (pi_forms_double: the
/// four-lane acos, asin, atan or atan2 times 1/pi, the special values
/// selected), every special value at every lane and every pair of them
/// for atan2pi, against the host: the special values exactly (OpenCL's
/// edge-case list), the rest within 2 ulp of the host's function over pi
/// (the harness compares every bit with the scalar build).
#[test]
fn double_pi_forms_by_lanes() {
    use std::f64::consts::PI;
    let ds = double_specials();
    let mut a = at_every_lane(&ds, 0.25f64.to_bits());
    let mut b: Vec<u64> = (0..a.len()).map(|i| ds[(i * 5 + 3) % ds.len()]).collect();
    for &y in &ds {
        for &x in &ds {
            a.push(x);
            b.push(y);
        }
    }
    let n = a.len();
    let near = |got: f64, want: f64| {
        (got.is_nan() && want.is_nan()) || got == want || (got - want).abs() <= 2.0 * f64::EPSILON * want.abs()
    };
    // atan2pi(y, x) by OpenCL's edge cases, else atan2 / pi.
    let atan2pi = |y: f64, x: f64| -> f64 {
        if x.is_nan() || y.is_nan() {
            return f64::NAN;
        }
        if y == 0.0 {
            return if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
                1f64.copysign(y)
            } else {
                0f64.copysign(y)
            };
        }
        if y.is_infinite() {
            let v = if x == f64::INFINITY {
                0.25
            } else if x == f64::NEG_INFINITY {
                0.75
            } else {
                0.5
            };
            return f64::copysign(v, y);
        }
        if x == 0.0 {
            return 0.5f64.copysign(y);
        }
        if x.is_infinite() {
            return if x > 0.0 { 0f64.copysign(y) } else { 1f64.copysign(y) };
        }
        y.atan2(x) / PI
    };
    for opt in Opt::BOTH {
        for local in [None, Some(6usize)] {
            let mut out = vec![0u64; 5 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "pi_forms_double")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (f64::from_bits(a[i]), f64::from_bits(b[i]));
                let acospi = if x == -1.0 { 1.0 } else { x.acos() / PI };
                let asinpi = if x == 0.0 {
                    x
                } else if x.abs() == 1.0 {
                    0.5f64.copysign(x)
                } else {
                    x.asin() / PI
                };
                let atanpi = if x == 0.0 {
                    x
                } else if x.is_infinite() {
                    0.5f64.copysign(x)
                } else {
                    x.atan() / PI
                };
                let want = [acospi, asinpi, atanpi, atan2pi(x, y), atan2pi(y, x * 0.5)];
                for (k, &w) in want.iter().enumerate() {
                    let got = f64::from_bits(out[5 * i + k]);
                    assert!(
                        near(got, w) && (w != 0.0 || got.to_bits() == w.to_bits()),
                        "{opt:?} {local:?}: result {k} of x = {x:e}, y = {y:e}: {got:e} against {w:e}"
                    );
                }
            }
        }
    }
}

/// Lanes moving down (reversed_access: one vector access from the lowest
/// lane's address, reversed by a shuffle), of 32-, 8-, 16- and 64-bit
/// values, loads and stores, a short index wrapping at work-item 6; and
/// local memory reversed within a group (reversed_local), with local
/// sizes that make 8-lane, 4-lane and scalar chunks.
#[test]
fn reversed_access_by_lanes() {
    let n = 83usize;
    let input: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(0x9e37_79b9) ^ i).collect();
    let in16: Vec<u16> = (0..65536 + 256u32)
        .map(|i| (i.wrapping_mul(40503) >> 3) as u16)
        .collect();
    let in64: Vec<u64> = (0..n as u64)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ i << 7)
        .collect();
    let k = -32763i32;
    let floats: Vec<f32> = (0..n).map(|i| i as f32 * 0.75 - 20.0).collect();
    for opt in Opt::BOTH {
        for local in [None, Some(1usize), Some(6), Some(16), Some(83)] {
            let l = local.map(|l| [l]);
            let mut out = vec![0u32; 4 * n];
            let mut out16 = vec![0u16; 3 * n];
            let mut out64 = vec![0u64; 2 * n];
            Kernel::new("simd", opt, "reversed_access")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::input(&in16))
                .arg(Arg::output(&mut out16))
                .arg(Arg::input(&in64))
                .arg(Arg::output(&mut out64))
                .arg(Arg::value(k))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_ne_bytes()).collect();
            let label = format!("{opt:?} {local:?}");
            for i in 0..n {
                let r = n - 1 - i;
                assert_eq!(out[i], input[r], "{label}: in[{r}] to {i}");
                assert_eq!(out[n + r], input[i] ^ 0x5a5a_5a5a, "{label}: {i} to out[{}]", n + r);
                assert_eq!(out[2 * n + i], u32::from(bytes[r]), "{label}: byte {r}");
                let j = (i64::from((k - i as i32) as i16) + 32768) as usize;
                assert_eq!(out16[i], in16[j], "{label}: in16[{j}] to {i}");
                assert_eq!(out16[n + r], in16[i].wrapping_add(1), "{label}: short {i}");
                let up = (32767 - i64::from((k - i as i32) as i16)) as usize;
                assert_eq!(out16[2 * n + i], in16[up], "{label}: in16[{up}] to {i}");
                assert_eq!(out64[i], in64[r], "{label}: in64[{r}] to {i}");
                assert_eq!(out64[n + r], !in64[i], "{label}: long {i}");
            }
            let stored: Vec<u8> = out[3 * n..].iter().flat_map(|v| v.to_ne_bytes()).collect();
            for (j, &b) in stored.iter().enumerate() {
                let want = if j < n { ((n - 1 - j) * 7) as u8 } else { 0 };
                assert_eq!(b, want, "{label}: byte stored at {j}");
            }
        }
        for m in [8usize, 16, 24, 12, 13, 7, 1] {
            let global = m * (83 / m).max(1);
            let mut out = vec![0f32; global];
            Kernel::new("simd", opt, "reversed_local")
                .arg(Arg::input(&floats[..global]))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(4 * m))
                .run(&[global], Some(&[m]));
            for (g, &got) in out.iter().enumerate() {
                let (base, l) = (g - g % m, g % m);
                let t = |j: usize| floats[base + m - 1 - j];
                assert_eq!(got, t(l) * 2.0 + t(m - 1 - l), "{opt:?} local {m}: item {g}");
            }
        }
    }
}

/// A `short` index clamped to bounds (clamped_short_indices): with its
/// type's bounds it is never clamped but wraps from 32767 to -32768, at
/// every lane of an 8-lane chunk; with narrower ones it is clamped too.
/// Also a `ushort` clamp sign-extended (lanes within the unsigned bounds
/// that wrap as signed values) and a row index that wraps beside a
/// clamped column, and a `long` clamped from a `short` that wraps. One
/// row of the NDRange per offset and bounds.
#[test]
fn clamped_short_indices_by_lanes() {
    let n = 67usize;
    let input: Vec<f32> = (0..2 * 65536 + 256).map(|i| i as f32 - 9.5).collect();
    let mut offsets: Vec<i32> = vec![0, -100, -30, 32700];
    offsets.extend((1..=9).map(|d| 32768 - d));
    let mut cases = Vec::new();
    for k in offsets {
        for (lo, hi, ulo, uhi) in [
            (i16::MIN, i16::MAX, 0, u16::MAX),
            (-5, 20, 5, 40000),
            (100, 32000, 100, 32000),
        ] {
            cases.push((k, lo, hi, ulo, uhi));
        }
    }
    let rows = cases.len();
    let ks: Vec<i32> = cases.iter().map(|c| c.0).collect();
    let los: Vec<i16> = cases.iter().map(|c| c.1).collect();
    let his: Vec<i16> = cases.iter().map(|c| c.2).collect();
    let ulos: Vec<u16> = cases.iter().map(|c| c.3).collect();
    let uhis: Vec<u16> = cases.iter().map(|c| c.4).collect();
    let mid = |i: i64| input[(65536 + 128 + i) as usize];
    for opt in Opt::BOTH {
        for local in [None, Some([6usize, 1])] {
            let mut out = vec![0f32; 4 * n * rows];
            Kernel::new("simd", opt, "clamped_short_indices")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::input(&ks))
                .arg(Arg::input(&los))
                .arg(Arg::input(&his))
                .arg(Arg::input(&ulos))
                .arg(Arg::input(&uhis))
                .run(&[n, rows], local.as_ref().map(|l| &l[..]));
            for (y, &(k, lo, hi, ulo, uhi)) in cases.iter().enumerate() {
                for g in 0..n {
                    let x = g as i64 + i64::from(k);
                    let s = clamp_i64(i64::from(x as i16), lo.into(), hi.into());
                    let u = clamp_i64(i64::from(x as u16), ulo.into(), uhi.into());
                    let col = clamp_i64(7 - g as i64, lo.into(), hi.into());
                    let l = clamp_i64(i64::from(x as i16) + 1, 4 * i64::from(lo), 4 * i64::from(hi));
                    let want = [
                        mid(s),
                        mid(i64::from(u as u16 as i16)),
                        mid(2 * i64::from(x as i16) + col),
                        mid(l),
                    ];
                    let got = [0, 1, 2, 3].map(|c| out[4 * n * y + c * n + g]);
                    assert_eq!(got, want, "k {k} ({lo}, {hi}) ({ulo}, {uhi}) {opt:?} {local:?}: {g}");
                }
            }
        }
    }
}

/// A 5x3 box filter with clamped edges (clamped_blur), over images whose
/// rows leave every remainder of a chunk.
#[test]
fn clamped_blur_by_lanes() {
    for (w, h) in [(29usize, 7usize), (3, 5), (64, 1), (10, 3)] {
        let input: Vec<f32> = (0..w * h).map(|i| ((i * 37) % 17) as f32 - 8.0).collect();
        for opt in Opt::BOTH {
            for local in [None, Some([8usize, 1]), Some([5, 2])] {
                let mut out = vec![0f32; w * h];
                Kernel::new("simd", opt, "clamped_blur")
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::value(w as i32))
                    .arg(Arg::value(h as i32))
                    .run(&[w, h], local.as_ref().map(|l| &l[..]));
                for y in 0..h as i64 {
                    for x in 0..w as i64 {
                        let mut s = 0f32;
                        for dy in -1..=1i64 {
                            for dx in -2..=2i64 {
                                let (cy, cx) = (clamp_i64(y + dy, 0, h as i64 - 1), clamp_i64(x + dx, 0, w as i64 - 1));
                                s += input[(cy * w as i64 + cx) as usize] * (dx + 3 * dy) as f32;
                            }
                        }
                        assert_eq!(
                            out[(y * w as i64 + x) as usize],
                            s,
                            "{w}x{h} {opt:?} {local:?}: ({x}, {y})"
                        );
                    }
                }
            }
        }
    }
}

/// Each value of `specials` at every lane position of an 8-lane chunk
/// (the list repeated with 0 to 7 fillers before it).
fn at_every_lane<T: Copy>(specials: &[T], filler: T) -> Vec<T> {
    let mut v = Vec::new();
    for k in 0..8 {
        v.extend(std::iter::repeat_n(filler, k));
        v.extend_from_slice(specials);
    }
    v
}

/// fract of a float or double as builtins computes it (the spec's
/// `fmin(x - floor(x), largest below 1)`, `floor(x)` stored; NaN, the
/// infinities and the zeros as the spec's special cases), and modf
/// (`x - trunc(x)` with x's sign, `trunc(x)` stored); NaNs compared as
/// NaNs. `round` rounds a difference to the type (a float's differences
/// are exact as doubles).
fn fract_modf(x: f64, below_one: f64, round: fn(f64) -> f64) -> [f64; 4] {
    let fract = if x.is_nan() {
        (x, x)
    } else if x.is_infinite() {
        (0f64.copysign(x), x)
    } else if x == 0.0 {
        (x, x)
    } else {
        (round(x - x.floor()).min(below_one), x.floor())
    };
    let frac = if x.is_infinite() { 0.0 } else { round(x - x.trunc()) };
    [fract.0, fract.1, frac.copysign(x), x.trunc()]
}

/// Floats that stress the float built-ins: zeros, halves, values just
/// below and past integers and 2^23, huge and tiny ones, infinities, NaNs
/// of both signs (quiet, signaling, with payloads), denormals.
fn float_specials() -> Vec<u32> {
    [
        0.0f32,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        -1e-10,
        1e-10,
        8388608.0,
        8388609.0,
        -8388609.0,
        16777218.0,
        1e30,
        -1e30,
        3.25159,
        -2.61828,
        100.25,
        -100.75,
        1e-7,
        -0.99999994,
        0.99999994,
    ]
    .iter()
    .map(|f| f.to_bits())
    .chain([
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0xffa0_1234,
        0x7fc1_2345,
        1,
        0x807f_ffff,
        0x8000_0001,
    ])
    .collect()
}

/// The same for doubles.
fn double_specials() -> Vec<u64> {
    [
        0.0f64,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        -1e-20,
        4503599627370497.0,
        -4503599627370497.5,
        1e300,
        3.25159,
        -2.61828,
        -0.9999999999999999,
    ]
    .iter()
    .map(|f| f.to_bits())
    .chain([
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0xfff8_0000_1234_5678,
        1,
        0x800f_ffff_ffff_ffff,
    ])
    .collect()
}

/// frexp of a float: the mantissa (magnitude in [0.5, 1), the sign of x)
/// and the exponent, exactly; a zero, infinity or NaN as it is and 0.
fn frexp_f32(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let d = f64::from(x);
    let e = ((d.to_bits() >> 52) & 0x7ff) as i32 - 1022;
    ((d / f64::powi(2.0, e)) as f32, e)
}

/// sincos, fract and modf (pointer_results_lanes: the 4-lane bodies
/// compute both results as vectors and store the second as a vector
/// store) of floats, float2 and doubles, every special value (NaN
/// payloads, signaling NaNs, infinities, zeros, denormals, values just
/// below an integer, values past 2^23 and 2^52) at every lane, against
/// the host; the harness compares every bit with the scalar build.
#[test]
fn pointer_results_by_lanes() {
    let (fs, ds) = (float_specials(), double_specials());
    let a = at_every_lane(&fs, 0x4040_0000);
    let mut b = at_every_lane(&ds, 2.5f64.to_bits());
    b.resize(a.len(), 2.5f64.to_bits());
    b.truncate(a.len());
    let n = a.len();
    let below_f = f64::from(f32::from_bits(0x3f7f_ffff));
    let below_d = f64::from_bits(0x3fef_ffff_ffff_ffff);
    let same = |got: f64, want: f64| got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan());
    let to_float: fn(f64) -> f64 = |v| f64::from(v as f32);
    for opt in Opt::BOTH {
        for local in [None, Some(6)] {
            let mut out = vec![0u32; 8 * n];
            let mut cosines = vec![0f32; n];
            let mut out64 = vec![0u64; 6 * n];
            let mut out2 = vec![0f32; 8 * n];
            let mut exps = vec![0i32; 3 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "pointer_results_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut cosines))
                .arg(Arg::output(&mut out64))
                .arg(Arg::output(&mut out2))
                .arg(Arg::output(&mut exps))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let x = f32::from_bits(a[i]);
                let r: Vec<f32> = out[8 * i..8 * i + 8].iter().map(|&u| f32::from_bits(u)).collect();
                let fm = fract_modf(f64::from(x), below_f, to_float);
                for (k, &w) in fm.iter().enumerate() {
                    assert!(
                        same(f64::from(r[2 + k]), w),
                        "{opt:?} {local:?}: result {} of {x:e} ({:#x}): {}",
                        2 + k,
                        a[i],
                        r[2 + k]
                    );
                }
                // float2 (x, -x): fractions, then floors.
                let (p, q) = (
                    fract_modf(f64::from(x), below_f, to_float),
                    fract_modf(-f64::from(x), below_f, to_float),
                );
                let want2 = [p[0], q[0], p[1], q[1]];
                for (k, &w) in want2.iter().enumerate() {
                    let got = f64::from(out2[4 * i + k]);
                    assert!(same(got, w), "{opt:?} {local:?}: float2 result {k} of {x:e}: {got:e}");
                }
                // frexp of x, -x and x / 4.
                let fx = [x, -x, x * 0.25];
                let got_m = [r[7], out2[6 * n + 2 * i], out2[6 * n + 2 * i + 1]];
                for (k, &v) in fx.iter().enumerate() {
                    let (wm, we) = frexp_f32(v);
                    assert!(
                        got_m[k].to_bits() == wm.to_bits() || (k > 0 && got_m[k].is_nan() && wm.is_nan()),
                        "{opt:?} {local:?}: frexp({v:e}) mantissa {:e}",
                        got_m[k]
                    );
                    assert_eq!(exps[3 * i + k], we, "{opt:?} {local:?}: frexp({v:e}) exponent");
                }
                // sin and cos near the double ones (the harness compares
                // their bits with the scalar build's).
                let near = |got: f32, want: f64| {
                    if x.is_nan() || x.is_infinite() {
                        return got.is_nan();
                    }
                    x.abs() > 1e6
                        || (f64::from(got) - want).abs() <= 4.0 * f64::from(f32::EPSILON) * want.abs().max(1e-30)
                };
                let xd = f64::from(x);
                assert!(
                    near(r[0], xd.sin()) && near(r[1], xd.cos()),
                    "{opt:?}: sincos({x:e}) = {}, {}",
                    r[0],
                    r[1]
                );
                let half = f64::from(x * 0.5);
                assert!(
                    near(r[6], half.sin()) && near(cosines[i], half.cos()),
                    "{opt:?}: sincos({x:e} / 2)"
                );
                let d = f64::from_bits(b[i]);
                let w = fract_modf(d, below_d, |v| v);
                for (k, &wk) in w.iter().enumerate() {
                    let got = f64::from_bits(out64[6 * i + 2 + k]);
                    assert!(
                        same(got, wk),
                        "{opt:?} {local:?}: double result {} of {d:e} ({:#x}): {got:e}",
                        2 + k,
                        b[i]
                    );
                }
                let (ds_, dc) = (f64::from_bits(out64[6 * i]), f64::from_bits(out64[6 * i + 1]));
                if d.is_finite() && d.abs() < 1e6 {
                    assert!(
                        (ds_ - d.sin()).abs() <= 1e-15 && (dc - d.cos()).abs() <= 1e-15,
                        "{opt:?}: sincos({d:e})"
                    );
                }
            }
        }
    }
}

/// signbit of floats, float4 and doubles (sign_bits_lanes: a lane mask
/// from the sign bit), every special value at every lane.
#[test]
fn sign_bits_by_lanes() {
    let a = at_every_lane(&float_specials(), 0x4040_0000);
    let mut b = at_every_lane(&double_specials(), 2.5f64.to_bits());
    b.resize(a.len(), 0x8000_0000_0000_0000);
    let n = a.len();
    for opt in Opt::BOTH {
        for local in [None, Some(6)] {
            let mut out = vec![0i32; 6 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "sign_bits_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let x = f32::from_bits(a[i]);
                let neg = |v: f32| v.is_sign_negative();
                let d = b[i] >> 63 == 1;
                let want = [
                    i32::from(neg(x)),
                    i32::from(d),
                    -i32::from(neg(x)),
                    -i32::from(neg(-x)),
                    -i32::from(neg(x * 0.5)),
                    if d { 7 } else { 9 },
                ];
                assert_eq!(
                    &out[6 * i..6 * i + 6],
                    &want[..],
                    "{opt:?} {local:?}: {:#x}, {:#x}",
                    a[i],
                    b[i]
                );
            }
        }
    }
}

/// ctz of every power of two, its neighbours, 0 and all ones in every
/// lane position (ctz_lanes: the vector popcount of the bits below the
/// lowest set one).
#[test]
fn trailing_zeros_by_lanes() {
    let mut a: Vec<u32> = Vec::new();
    for s in 0..32 {
        a.extend([1u32 << s, (1u32 << s) - 1, !(1u32 << s), (1u32 << s) | 1, 0]);
    }
    a.extend((0..77u32).map(|i| i.wrapping_mul(2_654_435_761) << (i % 32)));
    let n = a.len();
    let b: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) << (i % 33 % 32))
        .collect();
    for opt in Opt::BOTH {
        for local in [None, Some(6)] {
            let mut out = vec![0u32; 2 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "ctz_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let want = [
                    a[i].trailing_zeros(),
                    (a[i] ^ b[i]).trailing_zeros() + b[i].trailing_zeros(),
                ];
                assert_eq!(
                    &out[2 * i..2 * i + 2],
                    &want[..],
                    "{opt:?} {local:?}: {:#x}, {:#x}",
                    a[i],
                    b[i]
                );
            }
        }
    }
}

/// A half's value as a float (exact; a NaN keeps its payload and
/// signaling bit as the top of the float's significand).
fn half_bits_to_float(h: u16) -> u32 {
    let sign = u32::from(h & 0x8000) << 16;
    let (e, m) = (u32::from(h >> 10) & 0x1f, u32::from(h & 0x3ff));
    match e {
        0 => sign | (m as f32 * f32::from_bits(0x3380_0000)).to_bits(),
        31 => sign | 0x7f80_0000 | (m << 13),
        _ => sign | ((e + 112) << 23) | (m << 13),
    }
}

/// vload_half, vload_half2/4/8/16 and vloada_half4 of every half's bits
/// (half_loads_lanes: blocks widened with vector code), and vload_half4
/// through a short offset that wraps at every lane position of an 8-lane
/// chunk.
#[test]
fn half_loads_by_lanes() {
    let n = 4096usize;
    let h: Vec<u16> = (0..=u16::MAX).collect();
    let w: Vec<u16> = (0..4 * 65536u32)
        .map(|j| (j.wrapping_mul(2_654_435_761) >> 16) as u16)
        .collect();
    let mut ks: Vec<i32> = vec![0, 100];
    ks.extend((1..=9).map(|d| 32768 - d));
    for k in ks {
        for opt in Opt::BOTH {
            let mut out = vec![0u32; 96 * n];
            let mut wout = vec![0u32; 4 * n];
            Kernel::new("simd", opt, "half_loads_lanes")
                .arg(Arg::input(&h))
                .arg(Arg::output(&mut out))
                .arg(Arg::input(&w))
                .arg(Arg::output(&mut wout))
                .arg(Arg::value(k))
                .run(&[n], Some(&[64]));
            // Every form reads h in order: element e of its 16n outputs
            // is h[e], but vloada_half4 (4 slots, as vload_half4).
            for form in 0..6 {
                for e in 0..16 * n {
                    let want = half_bits_to_float(h[e]);
                    assert_eq!(
                        out[16 * n * form + e],
                        want,
                        "k {k} {opt:?}: form {form}, half {:#x}",
                        h[e]
                    );
                }
            }
            for i in 0..n {
                let at = 4 * (32768 + i64::from((i as i64 + i64::from(k)) as i16)) as usize;
                for c in 0..4 {
                    assert_eq!(
                        wout[4 * i + c],
                        half_bits_to_float(w[at + c]),
                        "k {k} {opt:?}: wrapped {i}.{c}"
                    );
                }
            }
        }
    }
}

/// A float rounded to half, to nearest even (`rtz`: toward zero), as its
/// bits: a NaN quiet with its payload's top 9 bits, overflow infinity
/// (rtz: the largest finite half).
fn float_to_half_bits(x: f32, rtz: bool) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if x.is_nan() {
        return sign | 0x7e00 | ((b >> 13) & 0x1ff) as u16;
    }
    let a = f64::from(x.abs());
    let round = |v: f64| if rtz { v.trunc() } else { v.round_ties_even() };
    let bits = if a.is_infinite() {
        0x7c00
    } else if a < f64::powi(2.0, -14) {
        round(a * f64::powi(2.0, 24)) as u16
    } else {
        let e = ((a.to_bits() >> 52) as i32) - 1023;
        let m = round(a / f64::powi(2.0, e - 10)) as i32;
        let (e, m) = if m == 2048 { (e + 1, 1024) } else { (e, m) };
        if e > 15 {
            0x7c00
        } else {
            (((e + 15) << 10) | (m - 1024)) as u16
        }
    };
    let bits = if rtz && bits == 0x7c00 && !a.is_infinite() {
        0x7bff
    } else {
        bits
    };
    sign | bits
}

/// vstore_half, vstore_half_rte, vstore_half2/4/8/16 and
/// vstorea_half4_rte of every half value, the midpoints between
/// neighbours and the floats next to them, of both signs, NaNs with
/// payloads, infinities and overflows (half_stores_lanes: rounded and
/// encoded with vector code), vstore_half_rtz (lane by lane), and
/// vstore_half4 through a short offset that wraps at every lane position
/// of an 8-lane chunk.
#[test]
fn half_stores_by_lanes() {
    let mut x: Vec<f32> = Vec::new();
    for h in 0..0x7c00u16 {
        let v = f32::from_bits(half_bits_to_float(h));
        let next = f32::from_bits(half_bits_to_float(h + 1));
        let mid = (v + next) * 0.5;
        for f in [
            v,
            mid,
            f32::from_bits(mid.to_bits() + 1),
            f32::from_bits(mid.to_bits() - 1),
        ] {
            x.extend([f, -f]);
        }
    }
    x.extend([65504.0f32, 65519.99, 65520.0, 1e10, f32::MAX, 1e-30, f32::from_bits(1)]);
    x.extend(float_specials().into_iter().map(f32::from_bits));
    x.extend([0x7f80_1234u32, 0xffc0_2000, 0x7fff_ffff, 0x7f80_2000].map(f32::from_bits));
    // 16 floats per work-item, groups of 64.
    let n = x.len().div_ceil(16 * 64) * 64;
    x.resize(16 * n, 1.0);
    let w_in: Vec<u16> = vec![0x5555; 4 * 65536];
    for k in [0i32, 32760, 32761, 32762, 32763, 32764, 32765, 32766, 32767] {
        for opt in Opt::BOTH {
            let mut out = vec![0u16; 128 * n];
            let mut w = w_in.clone();
            Kernel::new("simd", opt, "half_stores_lanes")
                .arg(Arg::input(&x))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut w))
                .arg(Arg::value(k))
                .run(&[n], Some(&[64]));
            for form in 0..8 {
                let rtz = form == 7;
                for (e, &f) in x.iter().enumerate() {
                    let got = out[16 * n * form + e];
                    assert_eq!(
                        got,
                        float_to_half_bits(f, rtz),
                        "k {k} {opt:?}: form {form}, {f:e} ({:#x})",
                        f.to_bits()
                    );
                }
            }
            let mut want = w_in.clone();
            for i in 0..n {
                let at = 4 * (32768 + i64::from((i as i64 + i64::from(k)) as i16)) as usize;
                for c in 0..4 {
                    want[at + c] = float_to_half_bits(x[4 * i + c], false);
                }
            }
            assert!(w == want, "k {k} {opt:?}: the stores through a wrapping offset");
        }
    }
}

/// IEEE remainder of floats (quotient rounded to nearest even), exactly,
/// as fdlibm computes it: fmod by 2|y|, then at most two subtractions of
/// |y| (every step exact in double).
fn remainder_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() || y == 0.0 || x.is_infinite() {
        return f32::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    let p = f64::from(y).abs();
    let mut r = (f64::from(x) % (p + p)).abs();
    if r + r > p {
        r -= p;
        if r + r >= p {
            r -= p;
        }
    }
    let r = if x < 0.0 { -r } else { r };
    if r == 0.0 {
        0f32.copysign(x)
    } else {
        r as f32
    }
}

/// fmod and remainder of floats (remainders_lanes: in double where every
/// lane's quotient is small, the host function per lane otherwise):
/// pairs of special values at every lane, quotients at and around the
/// double path's limits (2^28 and 2^29), ties, exact multiples of both
/// signs, and scrambled bits.
#[test]
fn remainders_by_lanes() {
    let sp = float_specials();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &sp {
        for &y in &sp {
            a.push(f32::from_bits(x));
            b.push(f32::from_bits(y));
        }
    }
    for y in [1.5f32, -0.7, 3.0, 1e-3, -1e20, 7.25e-39, 0.1] {
        for q in [
            0.5f64,
            1.5,
            2.5,
            -3.5,
            6.0,
            -6.0,
            268_435_455.0,
            268_435_456.0,
            268_435_457.0,
            536_870_911.0,
            536_870_912.0,
            536_870_913.0,
            1e12,
        ] {
            let x = (f64::from(y) * q) as f32;
            for d in [0i32, 1, -1] {
                a.push(f32::from_bits(x.to_bits().wrapping_add_signed(d)));
                b.push(y);
            }
        }
    }
    for k in 0..400u32 {
        let h = k.wrapping_mul(2_654_435_761);
        a.push(f32::from_bits(h ^ (h >> 7)));
        b.push(f32::from_bits(h.rotate_left(11) & 0xbfff_ffff));
    }
    let n = a.len();
    for opt in Opt::BOTH {
        for local in [None, Some(6)] {
            let mut out = vec![0f32; 4 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, "remainders_lanes")
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let (x, y) = (a[i], b[i]);
                let want = [x % y, remainder_f32(x, y), x % 1.5, remainder_f32(x, -0.7)];
                for (k, &w) in want.iter().enumerate() {
                    let got = out[4 * i + k];
                    assert!(
                        got.to_bits() == w.to_bits() || (got.is_nan() && w.is_nan()),
                        "{opt:?} {local:?}: result {k} of ({x:e}, {y:e}) = {got:e}, want {w:e}"
                    );
                }
            }
        }
    }
}

/// 32-bit values through pointers moving by 8 or 12 bytes
/// (strided_loads_lanes: two 16-byte reads and a shuffle), from buffers
/// that end where an inaccessible page starts, right after the last
/// value read (a read past the lanes' span faults), and through a short
/// index that wraps at every lane position of an 8-lane chunk (one row
/// of the NDRange per offset).
#[test]
fn strided_loads_by_lanes() {
    let n = 64usize;
    let mut f2 = Fenced::<f32>::new(2 * n);
    let mut p3 = Fenced::<f32>::new(3 * n);
    let mut i2 = Fenced::<i32>::new(2 * n);
    let mut f = Fenced::<f32>::new(3 * n);
    for (j, v) in f2.slice().iter_mut().enumerate() {
        *v = j as f32 * 0.5 - 3.0;
    }
    for (j, v) in p3.slice().iter_mut().enumerate() {
        *v = (j * 7 % 31) as f32 - 10.0;
    }
    for (j, v) in i2.slice().iter_mut().enumerate() {
        *v = (j as i32).wrapping_mul(-1_640_531_527);
    }
    for (j, v) in f.slice().iter_mut().enumerate() {
        *v = (j * 13 % 97) as f32 + 0.25;
    }
    let w: Vec<f32> = (0..4 * 65536).map(|j| (j % 1000) as f32 + 0.75).collect();
    let mut ks = vec![0i32, 7];
    ks.extend((1..=9).map(|d| 32768 - d));
    let rows = ks.len();
    let (f2v, p3v, i2v, fv) = (
        f2.slice().to_vec(),
        p3.slice().to_vec(),
        i2.slice().to_vec(),
        f.slice().to_vec(),
    );
    for opt in Opt::BOTH {
        for local in [None, Some([6usize, 1])] {
            let mut out = vec![0f32; 5 * n * rows];
            let mut iout = vec![0i32; n * rows];
            Kernel::new("simd", opt, "strided_loads_lanes")
                .arg(Arg::host_input(f2.slice()))
                .arg(Arg::host_input(p3.slice()))
                .arg(Arg::host_input(i2.slice()))
                .arg(Arg::host_input(f.slice()))
                .arg(Arg::input(&w))
                .arg(Arg::input(&ks))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut iout))
                .run(&[n, rows], local.as_ref().map(|l| &l[..]));
            for (y, &k) in ks.iter().enumerate() {
                for i in 0..n {
                    let o = y * n + i;
                    let at = (2 * 32768 + 2 * i64::from((i as i64 + i64::from(k)) as i16) + 1) as usize;
                    let want = [
                        f2v[2 * i + 1] * 3.0,
                        p3v[3 * i] + p3v[3 * i + 1] * p3v[3 * i + 2],
                        fv[3 * i + 2] - fv[3 * i],
                        w[at],
                        p3v[3 * i + 2],
                    ];
                    assert_eq!(&out[5 * o..5 * o + 5], &want[..], "k {k} {opt:?} {local:?}: {i}");
                    assert_eq!(
                        iout[o],
                        i2v[2 * i + 1].wrapping_sub(i2v[2 * i].wrapping_mul(3)),
                        "{opt:?}: {i}"
                    );
                }
            }
        }
    }
}

/// vload3 and vstore3 of floats (NaN payloads among them, moved bit for
/// bit) and ints (vector3_lanes: three vector reads or writes for four
/// lanes), read from buffers that end where an inaccessible page starts
/// and written to buffers whose 16 values after the last one written must
/// stay as they were, and through a short offset that wraps at every
/// lane position of an 8-lane chunk (one row of the NDRange per offset).
#[test]
fn vector3_by_lanes() {
    let n = 64usize;
    let mut a = Fenced::<u32>::new(3 * n);
    let mut ia = Fenced::<i32>::new(3 * n);
    let specials = float_specials();
    for (j, v) in a.slice().iter_mut().enumerate() {
        *v = specials[j % specials.len()] ^ (j as u32 & 0x3);
    }
    for (j, v) in ia.slice().iter_mut().enumerate() {
        *v = (j as i32).wrapping_mul(-1_640_531_527);
    }
    let (av, iav) = (a.slice().to_vec(), ia.slice().to_vec());
    let w: Vec<f32> = (0..3 * 65536).map(|j| (j % 1013) as f32 - 0.5).collect();
    let mut ks = vec![0i32];
    ks.extend((1..=8).map(|d| 32768 - d));
    let rows = ks.len();
    for opt in Opt::BOTH {
        for local in [None, Some([6usize, 1])] {
            let mut b = vec![7u32; 3 * n + 16];
            let mut ib = vec![7i32; 3 * n + 16];
            let mut wout = vec![0f32; rows * 3 * 65536];
            Kernel::new("simd", opt, "vector3_lanes")
                .arg(Arg::host_input(a.slice()))
                .arg(Arg::output(&mut b))
                .arg(Arg::host_input(ia.slice()))
                .arg(Arg::output(&mut ib))
                .arg(Arg::input(&w))
                .arg(Arg::output(&mut wout))
                .arg(Arg::input(&ks))
                .run(&[n, rows], local.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let want = [av[3 * i + 2], av[3 * i], av[3 * i + 1]];
                assert_eq!(&b[3 * i..3 * i + 3], &want[..], "{opt:?} {local:?}: vload3/vstore3 {i}");
                let iwant = [1, 2, 3].map(|c: i32| iav[3 * i + c as usize - 1].wrapping_add(c));
                assert_eq!(&ib[3 * i..3 * i + 3], &iwant[..], "{opt:?} {local:?}: int3 {i}");
            }
            assert!(
                b[3 * n..].iter().all(|&v| v == 7) && ib[3 * n..].iter().all(|&v| v == 7),
                "{opt:?}: past the end"
            );
            for (y, &k) in ks.iter().enumerate() {
                let row = &wout[y * 3 * 65536..(y + 1) * 3 * 65536];
                let mut want = vec![0f32; 3 * 65536];
                for i in 0..n {
                    let at = 3 * (32768 + i64::from((i as i64 + i64::from(k)) as i16)) as usize;
                    for c in 0..3 {
                        want[at + c] = w[at + c] * 2.0;
                    }
                }
                assert!(row == &want[..], "k {k} {opt:?} {local:?}: through a wrapping offset");
            }
        }
    }
}

/// Runs kernel `kernel` of simd.cl, whose arguments are the edge pairs
/// of [`int_edge_pairs`] (a, b) and outputs of `w32` `uint`s and `w64`
/// `ulong`s per work-item, at both levels and with two local sizes;
/// `check` gets the pair's index, a label and the item's outputs.
fn edge_pair_runs(kernel: &str, w32: usize, w64: usize, mut check: impl FnMut(usize, &str, &[u32], &[u64])) {
    let (a, b) = int_edge_pairs();
    let n = a.len();
    for opt in Opt::BOTH {
        for local in [None, Some(6)] {
            let mut out = vec![0u32; w32 * n];
            let mut out64 = vec![0u64; w64 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd", opt, kernel)
                .arg(Arg::input(&a))
                .arg(Arg::input(&b))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut out64))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            let label = format!("{kernel} {opt:?} {local:?}: {:#x}, {:#x}", a[0], b[0]);
            for i in 0..n {
                let label = format!("{label} (item {i}: {:#x}, {:#x})", a[i], b[i]);
                check(i, &label, &out[w32 * i..w32 * (i + 1)], &out64[w64 * i..w64 * (i + 1)]);
            }
        }
    }
}

/// bitselect of int, uchar, short, float (bit patterns, NaNs included)
/// and ulong lanes (bitselect_lanes), against the bitwise definition.
#[test]
fn bitselect_by_lanes() {
    let (a, b) = int_edge_pairs();
    let sel = |p: u64, q: u64, m: u64| (p & !m) | (q & m);
    edge_pair_runs("bitselect_lanes", 3, 1, |i, label, out, out64| {
        let (x, y) = (u64::from(a[i]), u64::from(b[i]));
        let lo = sel(x & 0xff, y & 0xff, (y >> 8) & 0xff);
        let hi = sel(x >> 16, y & 0xffff, (x >> 3) & 0xffff);
        let want = [
            sel(x, y, 0xf0f0_f0f0 ^ x) as u32,
            (lo | hi << 16) as u32,
            sel(x, y, x ^ y) as u32,
        ];
        assert_eq!(out, &want[..], "{label}");
        let c = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (i as u64) << 40;
        assert_eq!(out64, &[sel(c, x << 32 | y, c >> 7)], "{label}");
    });
}

/// upsample of chars, shorts and ints, signed and unsigned
/// (upsample_lanes), of every edge pair in every lane position.
#[test]
fn upsample_by_lanes() {
    let (a, b) = int_edge_pairs();
    edge_pair_runs("upsample_lanes", 3, 2, |i, label, out, out64| {
        let (x, y) = (a[i], b[i]);
        let c = (i32::from(x as u8 as i8) << 8) as u32 & 0xff00 | (y & 0xff);
        let uc = ((x >> 8) & 0xff) << 8 | ((y >> 8) & 0xff);
        let want = [
            c | uc << 16,
            ((i32::from(x as u16 as i16) << 16) as u32) | (y & 0xffff),
            (x >> 16) << 16 | (y >> 16),
        ];
        assert_eq!(out, &want[..], "{label}");
        let want64 = [
            ((i64::from(x as i32) << 32) as u64) | u64::from(y),
            u64::from(y) << 32 | u64::from(x),
        ];
        assert_eq!(out64, &want64[..], "{label}");
    });
}

/// popcount, clz, ctz, mul_hi and rotate (by a count per lane and by a
/// constant) of uchar, char, ushort and short (narrow_bits_lanes: the
/// lanes widened to 32 bits), of every edge pair in every lane position.
#[test]
fn narrow_bit_builtins_by_lanes() {
    let (a, b) = int_edge_pairs();
    edge_pair_runs("narrow_bits_lanes", 6, 1, |i, label, out, _| {
        let (x, y) = (a[i], b[i]);
        let (cx, cy, sx, sy) = (x as u8, y as u8, (x >> 8) as u8, (y >> 8) as u8);
        let (hx, hy, tx, ty) = ((x >> 16) as u16, y as u16, x as u16, (y >> 16) as u16);
        let four = |f: &dyn Fn(u32) -> u32, g: &dyn Fn(u32) -> u32| {
            f(cx.into()) | f(sx.into()) << 8 | g(hx.into()) << 16 | g(tx.into()) << 24
        };
        let smul8 = ((i16::from(sx as i8) * i16::from(sy as i8)) >> 8) as u8;
        let smul16 = ((i32::from(tx as i16) * i32::from(ty as i16)) >> 16) as u16;
        let want = [
            four(&|v| v.count_ones(), &|v| v.count_ones()),
            four(&|v| (v as u8).leading_zeros(), &|v| (v as u16).leading_zeros()),
            four(&|v| (v as u8).trailing_zeros(), &|v| (v as u16).trailing_zeros()),
            ((u32::from(cx) * u32::from(cy)) >> 8)
                | u32::from(smul8) << 8
                | ((u32::from(hx) * u32::from(hy)) >> 16) << 16,
            u32::from(smul16) | u32::from(cx.rotate_left(u32::from(cy))) << 16 | u32::from(sx.rotate_left(3)) << 24,
            u32::from(hx.rotate_left(u32::from(hy))) | u32::from(tx.rotate_left(11)) << 16,
        ];
        assert_eq!(out, &want[..], "{label}");
    });
}

/// mad_sat of uchar, char, ushort, short, int and uint, mad_hi of the
/// narrow types and rotates of ulong by counts the same in every lane
/// (mad_sat_lanes), of every edge pair in every lane position, against the
/// definitions.
#[test]
fn mad_sat_by_lanes() {
    let (a, b) = int_edge_pairs();
    let n = a.len() as u32;
    edge_pair_runs("mad_sat_lanes", 5, 3, |i, label, out, out64| {
        let (x, y) = (a[i], b[i]);
        let z = x.wrapping_mul(0x9e37_79b9) ^ y >> 3;
        let sat = |v: i64, lo: i64, hi: i64| v.clamp(lo, hi) as u32;
        let (cx, cy, cz) = (i64::from(x as u8), i64::from(y as u8), i64::from(z as u8));
        let (sx, sy, sz) = (
            i64::from((x >> 8) as i8),
            i64::from((y >> 8) as i8),
            i64::from((z >> 8) as i8),
        );
        let (hx, hy, hz) = (
            i64::from((x >> 16) as u16),
            i64::from(y as u16),
            i64::from((z >> 16) as u16),
        );
        let (tx, ty, tz) = (i64::from(x as i16), i64::from((y >> 16) as i16), i64::from(z as i16));
        let hi8 = |p: i64, c: i64| ((p >> 8) + c) as u32 & 0xff;
        let hi16 = |p: i64, c: i64| ((p >> 16) + c) as u32 & 0xffff;
        let want = [
            sat(cx * cy + cz, 0, 255) | (sat(sx * sy + sz, -128, 127) & 0xff) << 8 | sat(hx * hy + hz, 0, 65535) << 16,
            (sat(tx * ty + tz, -32768, 32767) & 0xffff) | hi8(cx * cy, cz) << 16 | hi8(sx * sy, sz) << 24,
            hi16(hx * hy, hz) | hi16(tx * ty, tz) << 16,
            sat(
                i64::from(x as i32) * i64::from(y as i32) + i64::from(z as i32),
                i32::MIN.into(),
                i32::MAX.into(),
            ),
            (u64::from(x) * u64::from(y) + u64::from(z)).min(u32::MAX.into()) as u32,
        ];
        assert_eq!(out, &want[..], "{label}");
        let l = u64::from(x) << 32 | u64::from(y);
        let want64 = [
            l.rotate_left(13),
            l.rotate_left(63) ^ l.rotate_left(5),
            (l ^ u64::from(z)).rotate_left(n % 64),
        ];
        assert_eq!(out64, &want64[..], "{label}");
    });
}

/// Indices taken modulo a width (remainder_indices: one vector read where
/// no lane reaches the next multiple of the width), signed and unsigned,
/// with the wrap at every lane position of a chunk, widths of 1, 0 and
/// negative ones (the scalar build's results, compared by the harness;
/// the host checks the defined cases), one NDRange row per case.
#[test]
fn remainder_indices_by_lanes() {
    let n = 64usize;
    let mut cases: Vec<(i32, i32)> = Vec::new();
    for w in [64, 61, 13, 7, 5, 4, 1] {
        cases.extend([0, 1, 2, 3, 5, 6, 7, 60].map(|d| (d, w)));
    }
    // Lanes below zero (signed: the wrap test; unsigned: values that
    // wrap around 2^32, which is no multiple of 7 or 13).
    for w in [5, 7, 13] {
        cases.extend([-1, -2, -8, -13, -60].map(|d| (d, w)));
    }
    cases.extend([(3, 0), (2, -3), (5, -64)]);
    let input: Vec<f32> = (0..64 + 4 * 64 + 64).map(|i| i as f32 * 0.25 - 9.0).collect();
    let locals = [None, Some([6usize, 1])];
    offset_width_rows(
        "remainder_indices",
        n,
        &cases,
        &input,
        4,
        &locals,
        |label, (d, w), x, out| {
            if w <= 0 {
                return;
            }
            let mid = |i: i64| input[(64 + i) as usize];
            let j = (x + d) % w;
            let u = i64::from((x + d) as u32 % w as u32);
            let want = [mid(j), mid(u), mid((x + d + w) % w), mid(4 * j) - mid(4 * j + 3)];
            assert_eq!(out, &want[..], "{label}");
        },
    );
}
