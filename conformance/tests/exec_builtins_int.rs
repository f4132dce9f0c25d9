//! OpenCL.std integer instructions through the ICD loader:
//! `kernels/cl/builtins_int.cl` calls abs, abs_diff, add_sat, sub_sat,
//! hadd, rhadd, mul_hi, rotate, min, max, clamp, mad_hi, mad_sat, clz, ctz,
//! popcount and upsample on all eight integer types, scalar, 4 and 16 wide,
//! and mul24/mad24 on int and uint, at -O0 and -O2, over edge values (0,
//! ±1, the minimum and maximum, single bits) and random ones; every result
//! must equal the exact value computed in 128 bits.

mod exec_arith_util;

use clift_conformance::exec::Opt;
use clift_conformance::rng::Rng;
use exec_arith_util::{from_bytes, mask, sx, to_bytes, IntTy, Module, INT_TYPES};

const OPS: usize = 15;

/// Inputs of `bits` wide integers: edge values, then pseudo-random ones.
fn inputs(len: usize, bits: u32, seed: u64) -> Vec<u64> {
    let m = mask(bits);
    let edges = [0, 1, m, m >> 1, (m >> 1) + 1, 2, m - 1, 1 << (bits / 2), 0x55 & m, 3];
    let mut rng = Rng(seed);
    (0..len)
        .map(|i| {
            let s = rng.next_u64();
            if i < 40 {
                edges[(i * (seed as usize + 1) + i / edges.len()) % edges.len()]
            } else if i % 3 == 0 {
                (s >> 17) & 0xff & m
            } else {
                (s ^ (s >> 29)) & m
            }
        })
        .collect()
}

/// The value of `v` (`bits` wide) as a signed or unsigned number.
fn val(v: u64, t: IntTy) -> i128 {
    if t.signed {
        i128::from(sx(v, t.bits))
    } else {
        i128::from(v)
    }
}

fn min_max(t: IntTy) -> (i128, i128) {
    if t.signed {
        (-(1i128 << (t.bits - 1)), (1i128 << (t.bits - 1)) - 1)
    } else {
        (0, (1i128 << t.bits) - 1)
    }
}

/// The exact result of operation `op` (the kernel's order), as bits.
fn reference(op: usize, t: IntTy, a: u64, b: u64, c: u64) -> u64 {
    let (x, y, z) = (val(a, t), val(b, t), val(c, t));
    let (lo, hi) = min_max(t);
    let w = t.bits;
    let m = mask(w);
    // The full product (unsigned 64-bit products need u128).
    let prod = |hi_only: bool| -> i128 {
        if t.signed {
            let p = x * y;
            if hi_only {
                p >> w
            } else {
                p
            }
        } else {
            let p = u128::from(a) * u128::from(b);
            if hi_only {
                (p >> w) as i128
            } else {
                p.min(u128::from(u64::MAX) * 2) as i128
            }
        }
    };
    let r: i128 = match op {
        0 => (x - y).abs(),
        1 => (x + y).clamp(lo, hi),
        2 => (x - y).clamp(lo, hi),
        3 => (x + y) >> 1,
        4 => (x + y + 1) >> 1,
        5 => prod(true),
        6 => {
            let n = (b as u32) % w;
            let r = if n == 0 { a } else { ((a << n) | (a >> (w - n))) & m };
            return r;
        }
        7 => x.min(y),
        8 => x.max(y),
        9 => x.clamp(y.min(z), y.max(z)),
        10 => prod(true) + z,
        11 => (prod(false) + z).clamp(lo, hi),
        12 => i128::from(a.leading_zeros() - (64 - w)),
        13 => i128::from(if a == 0 { w } else { a.trailing_zeros() }),
        14 => i128::from(a.count_ones()),
        _ => unreachable!(),
    };
    (r as u64) & m
}

#[test]
fn integer_ops_every_type_and_width() {
    for opt in Opt::BOTH {
        let m = Module::new("builtins_int", opt);
        for t in INT_TYPES {
            let bytes = (t.bits / 8) as usize;
            for n in [1usize, 4, 16] {
                let items = 256 / n;
                let lanes = items * n;
                let a = inputs(lanes, t.bits, 1);
                let b = inputs(lanes, t.bits, 5);
                let c = inputs(lanes, t.bits, 11);
                let suffix = if n == 1 { String::new() } else { n.to_string() };
                let name = format!("int_ops_{}{suffix}", t.name);
                let outs = m.run_outs(
                    &name,
                    &[&to_bytes(&a, bytes), &to_bytes(&b, bytes), &to_bytes(&c, bytes)],
                    &[OPS * lanes * bytes, lanes * bytes],
                    items,
                );
                let o = from_bytes(&outs[0], bytes);
                let ua = from_bytes(&outs[1], bytes);
                let mut bad = Vec::new();
                for p in 0..lanes {
                    for op in 0..OPS {
                        let want = reference(op, t, a[p], b[p], c[p]);
                        let got = o[op * lanes + p];
                        if got != want && bad.len() < 20 {
                            bad.push(format!(
                                "op {op} a={:#x} b={:#x} c={:#x}: got {got:#x}, want {want:#x}",
                                a[p], b[p], c[p]
                            ));
                        }
                    }
                    let want = (val(a[p], t).unsigned_abs() as u64) & mask(t.bits);
                    if ua[p] != want && bad.len() < 20 {
                        bad.push(format!("abs({:#x}) = {:#x}, want {want:#x}", a[p], ua[p]));
                    }
                }
                assert!(bad.is_empty(), "{name} at {opt:?}:\n{}", bad.join("\n"));
                if t.bits < 64 {
                    // upsample(hi, lo): hi's type and the unsigned lo.
                    let name = format!("upsample_{}{suffix}", t.name);
                    let out = m.run(
                        &name,
                        &[&to_bytes(&a, bytes), &to_bytes(&b, bytes)],
                        lanes * bytes * 2,
                        items,
                    );
                    let got = from_bytes(&out, bytes * 2);
                    for p in 0..lanes {
                        let want = ((val(a[p], t) << t.bits) as u64 | b[p]) & mask(t.bits * 2);
                        assert_eq!(got[p], want, "{name} at {opt:?}: upsample({:#x}, {:#x})", a[p], b[p]);
                    }
                }
            }
        }
        // mul24 and mad24 on 24-bit operands.
        for (ty, signed) in [("int", true), ("uint", false)] {
            for n in [1usize, 4] {
                let items = 128 / n;
                let lanes = items * n;
                let gen = |seed: u64| -> Vec<u64> {
                    inputs(lanes, 32, seed)
                        .into_iter()
                        .map(|v| {
                            if signed {
                                (sx(v & 0xff_ffff, 24) as u64) & 0xffff_ffff
                            } else {
                                v & 0xff_ffff
                            }
                        })
                        .collect()
                };
                let (a, b, c) = (gen(2), gen(3), gen(4));
                let suffix = if n == 1 { String::new() } else { n.to_string() };
                let name = format!("mul24_{ty}{suffix}");
                let out = m.run(
                    &name,
                    &[&to_bytes(&a, 4), &to_bytes(&b, 4), &to_bytes(&c, 4)],
                    2 * lanes * 4,
                    items,
                );
                let got = from_bytes(&out, 4);
                let t = IntTy {
                    name: ty,
                    bits: 32,
                    signed,
                };
                for p in 0..lanes {
                    let prod = val(a[p], t) * val(b[p], t);
                    let want_mul = (prod as u64) & 0xffff_ffff;
                    let want_mad = ((prod + val(c[p], t)) as u64) & 0xffff_ffff;
                    assert_eq!(got[p], want_mul, "{name} at {opt:?}: mul24({:#x}, {:#x})", a[p], b[p]);
                    assert_eq!(got[lanes + p], want_mad, "{name} at {opt:?}: mad24");
                }
            }
        }
    }
}
