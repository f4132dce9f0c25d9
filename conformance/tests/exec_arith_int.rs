//! Integer arithmetic, logic, comparisons, select and popcount of the
//! execution corpus (`kernels/cl/arith_int*.cl`), on every integer type
//! signed and unsigned, scalar and every vector width, at -O0 and -O2,
//! against a host reference. Inputs pair every edge value (0, ±1, MIN, MAX,
//! shift counts around the width, bit patterns) with every other.

mod exec_arith_util;

use clift_conformance::exec::Opt;
use exec_arith_util::{from_bytes, mask, sx, to_bytes, IntTy as Ty, Module, INT_TYPES as TYPES};

const WIDTHS: [usize; 6] = [1, 2, 3, 4, 8, 16];
const OPS: usize = 23;
const ITEMS: usize = 400;

/// Edge values of `t` (as bit patterns) followed by pseudo-random ones.
fn values(t: Ty) -> Vec<u64> {
    let m = mask(t.bits);
    let min = if t.signed { 1u64 << (t.bits - 1) } else { 0 };
    let max = if t.signed { m >> 1 } else { m };
    let w = u64::from(t.bits);
    let mut v = vec![
        0,
        1,
        m, // -1
        min,
        max,
        min.wrapping_add(1),
        max - 1,
        2,
        7,
        w - 1,
        w,
        w + 1,
        31,
        33,
        0x5555_5555_5555_5555,
        0xF0F0_F0F0_F0F0_F0F0,
    ];
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    while v.len() < 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(x);
    }
    v.into_iter().map(|x| x & m).collect()
}

/// The expected result of operation `op` on one lane.
fn reference(op: usize, t: Ty, scalar: bool, a: u64, b: u64, d: u64) -> u64 {
    let bits = t.bits;
    let m = mask(bits);
    let (sa, sb, sd) = (sx(a, bits), sx(b, bits), sx(d, bits));
    // Comparisons give 1 for scalars and -1 (all ones) for vectors.
    let truth = |c: bool| {
        if !c {
            0
        } else if scalar {
            1
        } else {
            m
        }
    };
    let lt = if t.signed { sa < sb } else { a < b };
    let gt = if t.signed { sa > sb } else { a > b };
    let r = match op {
        0 => a.wrapping_add(b),
        1 => a.wrapping_sub(b),
        2 => a.wrapping_mul(b),
        3 => {
            if t.signed {
                sa.wrapping_div(sd) as u64
            } else {
                a / d
            }
        }
        4 => {
            if t.signed {
                sb.wrapping_rem(sd) as u64
            } else {
                b % d
            }
        }
        5 | 6 => {
            // Scalars narrower than int are promoted to int first, so the
            // count is taken modulo 32 and bits shift out of the type;
            // vectors shift modulo their own width.
            let (w, x) = if scalar && bits < 32 {
                (32, if t.signed { sa as u64 } else { a })
            } else {
                (bits, if t.signed { sa as u64 } else { a })
            };
            let count = if scalar && bits < 32 {
                (if t.signed { sb as u64 } else { b }) & 31
            } else {
                b & u64::from(w - 1)
            } as u32;
            if op == 5 {
                x << count
            } else if t.signed {
                ((x as i64) >> count) as u64
            } else {
                x >> count
            }
        }
        7 => a & b,
        8 => a | b,
        9 => a ^ b,
        10 => !a,
        11 => a.wrapping_neg(),
        12 => truth(a == b),
        13 => truth(a != b),
        14 => truth(lt),
        15 => truth(!gt),
        16 => truth(gt),
        17 => truth(!lt),
        18 => {
            if lt {
                a
            } else {
                b
            }
        }
        19 => truth(a == 0),
        20 => truth(a != 0 && b != 0),
        21 => truth(a != 0 || b != 0),
        22 => u64::from(a.count_ones()),
        _ => unreachable!(),
    };
    r & m
}

const OP_NAMES: [&str; OPS] = [
    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "~", "neg", "==", "!=", "<", "<=", ">", ">=", "?:", "!", "&&",
    "||", "popcount",
];

fn run_type(t: Ty) {
    let vals = values(t);
    let e = vals.len();
    let bytes = (t.bits / 8) as usize;
    let min = if t.signed { 1u64 << (t.bits - 1) } else { u64::MAX };
    for opt in Opt::BOTH {
        let m = Module::new(&format!("arith_int{}", t.bits), opt);
        for n in WIDTHS {
            let slots = if n == 3 { 4 } else { n };
            let lanes = ITEMS * slots;
            let a: Vec<u64> = (0..lanes).map(|p| vals[p % e]).collect();
            let b: Vec<u64> = (0..lanes).map(|p| vals[(p / e) % e]).collect();
            // Divisors: no zero, and no -1 where a dividend is the minimum.
            let d: Vec<u64> = (0..lanes)
                .map(|p| {
                    let x = vals[(p * 7 + 3) % e];
                    if x == 0 || (t.signed && x == mask(t.bits) && (a[p] == min || b[p] == min)) {
                        3
                    } else {
                        x
                    }
                })
                .collect();
            let name = if n == 1 {
                format!("int_ops_{}", t.name)
            } else {
                format!("int_ops_{}{n}", t.name)
            };
            let (ab, bb, db) = (to_bytes(&a, bytes), to_bytes(&b, bytes), to_bytes(&d, bytes));
            let out = m.run(&name, &[&ab, &bb, &db], OPS * lanes * bytes, ITEMS);
            let got = from_bytes(&out, bytes);
            let mut bad = Vec::new();
            for op in 0..OPS {
                for p in 0..lanes {
                    if p % slots >= n {
                        continue;
                    }
                    let want = reference(op, t, n == 1, a[p], b[p], d[p]);
                    let g = got[op * lanes + p];
                    if g != want && bad.len() < 10 {
                        bad.push(format!(
                            "{} a={:#x} b={:#x} d={:#x}: got {g:#x}, want {want:#x}",
                            OP_NAMES[op], a[p], b[p], d[p]
                        ));
                    }
                }
            }
            assert!(bad.is_empty(), "{name} at {opt:?}:\n{}", bad.join("\n"));
        }
    }
}

#[test]
fn int8() {
    run_type(TYPES[0]);
    run_type(TYPES[1]);
}

#[test]
fn int16() {
    run_type(TYPES[2]);
    run_type(TYPES[3]);
}

#[test]
fn int32() {
    run_type(TYPES[4]);
    run_type(TYPES[5]);
}

#[test]
fn int64() {
    run_type(TYPES[6]);
    run_type(TYPES[7]);
}
