//! Conversions of the execution corpus (`kernels/cl/arith_convert.cl`) at
//! -O0 and -O2 against host references: integer to integer (OpUConvert,
//! OpSConvert, OpSatConvertSToU/UToS, SaturatedConversion), float to
//! integer and integer to float under every FPRoundingMode, each kind at
//! every vector width, OpBitcast between different component counts, and
//! OpConvertPtrToU / OpConvertUToPtr.

mod exec_arith_util;

use clift_conformance::exec::Opt;
use exec_arith_util::{from_bytes, mask, sx, to_bytes, IntTy as Ty, Module, INT_TYPES as INTS};

fn ty(name: &str) -> Ty {
    *INTS.iter().find(|t| t.name == name).unwrap()
}

impl Ty {
    fn min(self) -> i128 {
        if self.signed {
            -(1i128 << (self.bits - 1))
        } else {
            0
        }
    }
    fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits - 1)) - 1
        } else {
            (1i128 << self.bits) - 1
        }
    }
    /// The value of bit pattern `v`.
    fn value(self, v: u64) -> i128 {
        if self.signed {
            i128::from(sx(v, self.bits))
        } else {
            i128::from(v & mask(self.bits))
        }
    }
    /// The bit pattern of `v` (wrapped).
    fn bits_of(self, v: i128) -> u64 {
        (v as u64) & mask(self.bits)
    }
}

/// Edge values of `t`.
fn int_values(t: Ty) -> Vec<u64> {
    let mut v: Vec<i128> = vec![
        0, 1, -1, 2, -2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
    ];
    v.extend([
        65536, 16777216, 16777217, 16777219, -16777217, 33554435, 2147483583, 2147483647,
    ]);
    v.extend([
        -2147483648,
        2147483648,
        4294967295,
        4294967296,
        9007199254740993,
        -9007199254740995,
    ]);
    v.extend([
        i128::from(i64::MAX),
        i128::from(i64::MIN),
        i128::from(u64::MAX),
        0x7FFF_FF7F_FFFF_FFFF,
    ]);
    v.extend([
        1 << 62 | 1 << 38 | 1,
        -(1 << 50) - 3,
        0x8000_0080_0000_0001,
        0xFFFF_FF80_0000_0001,
    ]);
    v.extend([t.min(), t.max(), t.min() + 1, t.max() - 1]);
    let mut out: Vec<u64> = v.into_iter().map(|x| t.bits_of(x)).collect();
    out.dedup();
    out
}

fn float_values() -> Vec<u64> {
    let f: Vec<f32> = vec![
        0.0,
        -0.0,
        0.5,
        1.5,
        2.5,
        -0.5,
        -1.5,
        -2.5,
        0.499_999_97,
        1e-45,
        -1e-45,
        1.000_000_1,
        3.7,
        -3.7,
        100.25,
        -100.75,
        127.5,
        128.5,
        -128.5,
        -129.0,
        255.5,
        256.0,
        32767.5,
        -32768.5,
        65535.5,
        2_147_483_520.0,
        2_147_483_648.0,
        -2_147_483_648.0,
        -2_147_483_904.0,
        4_294_967_040.0,
        4_294_967_296.0,
        9.223_371_5e18,
        9.223_372e18,
        -9.223_372e18,
        -9.223_373e18,
        1.844_674_3e19,
        1.844_674_4e19,
        1e30,
        -1e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    f.into_iter().map(|x| u64::from(x.to_bits())).collect()
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Round {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

fn round_of(suffix: &str, default: Round) -> Round {
    if suffix.ends_with("rte") {
        Round::Rte
    } else if suffix.ends_with("rtz") {
        Round::Rtz
    } else if suffix.ends_with("rtp") {
        Round::Rtp
    } else if suffix.ends_with("rtn") {
        Round::Rtn
    } else {
        default
    }
}

/// Float (bits) to integer type `t`: None where OpenCL leaves the result
/// undefined (out of range without saturation).
fn ref_fi(x: u64, t: Ty, sat: bool, r: Round) -> Option<u64> {
    let f = f64::from(f32::from_bits(x as u32));
    if f.is_nan() {
        return if sat { Some(0) } else { None };
    }
    let g = match r {
        Round::Rte => f.round_ties_even(),
        Round::Rtz => f.trunc(),
        Round::Rtp => f.ceil(),
        Round::Rtn => f.floor(),
    };
    // Exact: |g| < 2^127 or infinite (which `as` saturates).
    let gi = g as i128;
    if gi < t.min() {
        sat.then(|| t.bits_of(t.min()))
    } else if gi > t.max() {
        sat.then(|| t.bits_of(t.max()))
    } else {
        Some(t.bits_of(gi))
    }
}

fn next_up(f: f32) -> f32 {
    let b = f.to_bits();
    f32::from_bits(if f == 0.0 {
        1
    } else if b >> 31 == 0 {
        b + 1
    } else {
        b - 1
    })
}

fn next_down(f: f32) -> f32 {
    -next_up(-f)
}

/// Integer (value) to f32 bits, exactly rounded.
fn ref_if(v: i128, r: Round) -> u64 {
    let f = v as f32; // to nearest, ties to even
    let back = f as f64 as i128; // exact: |f| <= 2^64
    let out = match r {
        Round::Rte => f,
        Round::Rtz if back.abs() > v.abs() => {
            if v > 0 {
                next_down(f)
            } else {
                next_up(f)
            }
        }
        Round::Rtp if back < v => next_up(f),
        Round::Rtn if back > v => next_down(f),
        _ => f,
    };
    u64::from(out.to_bits())
}

/// Runs `kernel` on `lanes` (bit patterns of `sb` bytes) as `n`-wide
/// vectors (3-wide padded to 4), results of `db` bytes per lane.
fn run_lanes(m: &Module, kernel: &str, sb: usize, db: usize, n: usize, lanes: &[u64]) -> Vec<u64> {
    let slots = if n == 3 { 4 } else { n };
    let items = lanes.len().div_ceil(n);
    let mut input = vec![0u64; items * slots];
    for (p, &x) in lanes.iter().enumerate() {
        input[p / n * slots + p % n] = x;
    }
    let out = m.run(kernel, &[&to_bytes(&input, sb)], items * slots * db, items);
    let got = from_bytes(&out, db);
    (0..lanes.len()).map(|p| got[p / n * slots + p % n]).collect()
}

fn check(m: &Module, kernel: &str, lanes: &[u64], got: &[u64], want: impl Fn(u64) -> Option<u64>) {
    let mut bad = Vec::new();
    for (&x, &g) in lanes.iter().zip(got) {
        if let Some(w) = want(x) {
            if g != w && bad.len() < 8 {
                bad.push(format!("input {x:#x}: got {g:#x}, want {w:#x}"));
            }
        }
    }
    assert!(bad.is_empty(), "{kernel} at {:?}:\n{}", m.opt, bad.join("\n"));
}

fn modules() -> Vec<Module> {
    Opt::BOTH.iter().map(|&o| Module::new("arith_convert", o)).collect()
}

#[test]
fn integer_to_integer() {
    for m in modules() {
        for s in INTS {
            let lanes = int_values(s);
            for d in INTS {
                for (n, vec) in [(1, ""), (4, "4")] {
                    for sat in [false, true] {
                        let k = format!("ii_{}{vec}_{}{}", s.name, d.name, if sat { "_sat" } else { "" });
                        let got = run_lanes(&m, &k, (s.bits / 8) as usize, (d.bits / 8) as usize, n, &lanes);
                        check(&m, &k, &lanes, &got, |x| {
                            let v = s.value(x);
                            Some(d.bits_of(if sat { v.clamp(d.min(), d.max()) } else { v }))
                        });
                    }
                }
            }
        }
    }
}

#[test]
fn float_to_integer() {
    let lanes = float_values();
    for m in modules() {
        for d in INTS {
            for suffix in [
                "", "_rte", "_rtz", "_rtp", "_rtn", "_sat", "_sat_rte", "_sat_rtz", "_sat_rtp", "_sat_rtn",
            ] {
                let k = format!("fi_{}{suffix}", d.name);
                let got = run_lanes(&m, &k, 4, (d.bits / 8) as usize, 1, &lanes);
                let (sat, r) = (suffix.contains("sat"), round_of(suffix, Round::Rtz));
                check(&m, &k, &lanes, &got, |x| ref_fi(x, d, sat, r));
            }
        }
    }
}

#[test]
fn integer_to_float() {
    for m in modules() {
        for s in INTS {
            let lanes = int_values(s);
            for suffix in ["", "_rte", "_rtz", "_rtp", "_rtn"] {
                let k = format!("if_{}{suffix}", s.name);
                let got = run_lanes(&m, &k, (s.bits / 8) as usize, 4, 1, &lanes);
                let r = round_of(suffix, Round::Rte);
                check(&m, &k, &lanes, &got, |x| Some(ref_if(s.value(x), r)));
            }
        }
    }
}

#[test]
fn every_vector_width() {
    let floats = float_values();
    let (long, uint, int, short) = (ty("long"), ty("uint"), ty("int"), ty("short"));
    let (uchar, char, ulong) = (ty("uchar"), ty("char"), ty("ulong"));
    for m in modules() {
        for n in [1usize, 2, 3, 4, 8, 16] {
            let w = if n == 1 { String::new() } else { n.to_string() };
            let k = format!("w_fi_int{w}_sat_rtn");
            let got = run_lanes(&m, &k, 4, 4, n, &floats);
            check(&m, &k, &floats, &got, |x| ref_fi(x, int, true, Round::Rtn));
            let k = format!("w_fi_uchar{w}_sat_rte");
            let got = run_lanes(&m, &k, 4, 1, n, &floats);
            check(&m, &k, &floats, &got, |x| ref_fi(x, uchar, true, Round::Rte));
            let lanes = int_values(long);
            let k = format!("w_if_long{w}_rtz");
            let got = run_lanes(&m, &k, 8, 4, n, &lanes);
            check(&m, &k, &lanes, &got, |x| Some(ref_if(long.value(x), Round::Rtz)));
            let lanes = int_values(uint);
            let k = format!("w_if_uint{w}_rtp");
            let got = run_lanes(&m, &k, 4, 4, n, &lanes);
            check(&m, &k, &lanes, &got, |x| Some(ref_if(uint.value(x), Round::Rtp)));
            let lanes = int_values(int);
            let k = format!("w_ii_int{w}_char{w}_sat");
            let got = run_lanes(&m, &k, 4, 1, n, &lanes);
            check(&m, &k, &lanes, &got, |x| {
                Some(char.bits_of(int.value(x).clamp(char.min(), char.max())))
            });
            let lanes = int_values(short);
            let k = format!("w_ii_short{w}_ulong{w}");
            let got = run_lanes(&m, &k, 2, 8, n, &lanes);
            check(&m, &k, &lanes, &got, |x| Some(ulong.bits_of(short.value(x))));
        }
    }
}

#[test]
fn reinterpretations() {
    // (kernel, operand size, how many leading bytes of each result are
    // defined: a 3-component operand's padding lane is not)
    let cases = [
        ("as_long_int2", 8, 8),
        ("as_int2_long", 8, 8),
        ("as_uint_uchar4", 4, 4),
        ("as_uchar4_uint", 4, 4),
        ("as_int4_float4", 16, 16),
        ("as_long2_char16", 16, 16),
        ("as_char16_ulong2", 16, 16),
        ("as_short8_int4", 16, 16),
        ("as_int4_short8", 16, 16),
        ("as_ushort2_float", 4, 4),
        ("as_uint_float", 4, 4),
        ("as_long4_int8", 32, 32),
        ("as_short4_long", 8, 8),
        ("as_int3_float4", 16, 12),
        ("as_int3_char16", 16, 12),
        ("as_short3_long", 8, 6),
        ("as_char3_int", 4, 3),
    ];
    let items = 37;
    for m in modules() {
        for (k, size, defined) in cases {
            let a: Vec<u8> = (0..items * size).map(|i| (i * 73 + 11) as u8).collect();
            let key: Vec<u8> = (0..size).map(|i| (0xC3 ^ (i * 29)) as u8).collect();
            let got = m.run(k, &[&a, &key], items * size, items);
            for (i, (&g, &x)) in got.iter().zip(&a).enumerate() {
                if i % size < defined {
                    assert_eq!(g, x ^ key[i % size], "{k} at {:?}: byte {i}", m.opt);
                }
            }
        }
    }
}

#[test]
fn pointers_and_integers() {
    let items = 50;
    let a: Vec<i32> = (0..items as i32).map(|i| i * 7 + 1).collect();
    let ab: Vec<u8> = a.iter().flat_map(|x| x.to_le_bytes()).collect();
    for m in modules() {
        let got = from_bytes(&m.run("ptr_int", &[&ab], items * 16, items), 8);
        for i in 0..items {
            assert_eq!(got[2 * i], 4 * i as u64, "byte offset of element {i} at {:?}", m.opt);
            let want = a[(a[i] & 3) as usize];
            assert_eq!(
                got[2 * i + 1] as i64,
                i64::from(want),
                "load through {i} at {:?}",
                m.opt
            );
        }
    }
}

#[test]
fn pointers_to_half() {
    let items = 20;
    let src: Vec<u8> = (0..items as u16).flat_map(|i| (0x3C00 + i).to_le_bytes()).collect();
    for m in modules() {
        let outs = m.run_outs("ptr_half", &[&src], &[8 * items, 4 * items], items);
        let got = from_bytes(&outs[0], 8);
        for (i, &g) in got.iter().enumerate() {
            assert_eq!(g, 2 * i as u64, "byte offset of half {i} at {:?}", m.opt);
        }
        // Half 2i+1 holds src[i]; half 2i keeps the 0xABAB the buffer started with.
        let h = from_bytes(&outs[1], 2);
        for i in 0..items {
            assert_eq!(
                (h[2 * i], h[2 * i + 1]),
                (0xABAB, 0x3C00 + i as u64),
                "half {i} at {:?}",
                m.opt
            );
        }
    }
}
