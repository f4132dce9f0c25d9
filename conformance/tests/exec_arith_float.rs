//! Float arithmetic, ordered and unordered comparisons, select, vector
//! times scalar and the relational instructions (OpIsNan, OpIsInf,
//! OpIsFinite, OpIsNormal, OpSignBitSet, OpOrdered, OpUnordered,
//! OpLessOrGreater, OpAny, OpAll) of `kernels/cl/arith_float.cl`, scalar and
//! every vector width, at -O0 and -O2, against a host reference. Inputs
//! pair every edge value (±0, ±1, NaN, ±inf, ±FLT_MAX, ±FLT_MIN,
//! denormals) with every other.

// The references spell out IEEE comparisons with NaN operands: `!(a < b)`
// is not `a >= b`, and `a < b || a > b` is not `a != b`.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]

mod exec_arith_util;

use clift_conformance::exec::Opt;
use exec_arith_util::{from_bytes, Module};

const F_OPS: usize = 8;
const R_OPS: usize = 28;

fn values() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        -2.5,
        3.0,
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        -f32::MAX,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        1.175_494_2e-38, // the largest denormal
        1e20,
    ]
}

fn same(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn float_ref(op: usize, a: f32, b: f32, s: f32) -> f32 {
    match op {
        0 => a + b,
        1 => a - b,
        2 => a * b,
        3 => a / b,
        4 => -a,
        5 => {
            if a < b {
                a
            } else {
                b
            }
        }
        6 => a * s,
        _ => {
            if s > 0.0 {
                a
            } else {
                b
            }
        }
    }
}

/// Lane result `op` (without the 1 / -1 scaling): whether it holds.
fn lane_truth(op: usize, a: f32, b: f32) -> bool {
    let unord = a.is_nan() || b.is_nan();
    match op {
        0 | 10 => a == b,
        1 => a != b,
        11 => a != b,
        2 | 14 => a < b,
        3 | 15 => a <= b,
        4 | 12 => a > b,
        5 | 13 => a >= b,
        6 => !(a < b),
        7 => !(a <= b),
        8 => !(a > b),
        9 => !(a >= b),
        16 => a < b || a > b,
        17 => !unord,
        18 => unord,
        19 => a.is_nan(),
        20 => a.is_infinite(),
        21 => a.is_finite(),
        22 => a.is_normal(),
        23 => a.is_sign_negative(),
        _ => unreachable!(),
    }
}

#[test]
fn float_ops_every_width() {
    let vals = values();
    let e = vals.len();
    let svals = [2.0f32, -1.0, 0.0, f32::NAN, 0.5, f32::INFINITY, -0.0];
    for opt in Opt::BOTH {
        let m = Module::new("arith_float", opt);
        for n in [1usize, 2, 3, 4, 8, 16] {
            let slots = if n == 3 { 4 } else { n };
            let items = (e * e).div_ceil(n);
            let lanes = items * slots;
            let lane = |p: usize| (p / slots) * n + p % slots;
            let a: Vec<f32> = (0..lanes).map(|p| vals[lane(p) % e]).collect();
            let b: Vec<f32> = (0..lanes).map(|p| vals[(lane(p) / e) % e]).collect();
            let s: Vec<f32> = (0..items).map(|i| svals[i % svals.len()]).collect();
            let bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
            let name = if n == 1 {
                "float_ops_float".to_string()
            } else {
                format!("float_ops_float{n}")
            };
            let outs = m.run_outs(
                &name,
                &[&bytes(&a), &bytes(&b), &bytes(&s)],
                &[F_OPS * lanes * 4, R_OPS * lanes * 4],
                items,
            );
            let (fo, ro) = (&outs[0], &outs[1]);
            let fo: Vec<f32> = from_bytes(fo, 4)
                .into_iter()
                .map(|x| f32::from_bits(x as u32))
                .collect();
            let ro: Vec<i32> = from_bytes(ro, 4).into_iter().map(|x| x as u32 as i32).collect();
            let mut bad = Vec::new();
            for p in 0..lanes {
                if p % slots >= n {
                    continue;
                }
                let i = p / slots;
                for op in 0..F_OPS {
                    let (g, w) = (fo[op * lanes + p], float_ref(op, a[p], b[p], s[i]));
                    if !same(g, w) && bad.len() < 10 {
                        bad.push(format!(
                            "float op {op} a={} b={} s={}: got {g}, want {w}",
                            a[p], b[p], s[i]
                        ));
                    }
                }
                let on = if n == 1 { 1 } else { -1 };
                let item_lanes = (0..n).map(|k| (a[i * slots + k], b[i * slots + k]));
                for op in 0..R_OPS {
                    let w = match op {
                        24 => i32::from(item_lanes.clone().any(|(x, _)| x.is_sign_negative())),
                        25 => i32::from(item_lanes.clone().all(|(x, _)| x.is_sign_negative())),
                        // A scalar comparison gives 1, whose sign bit is clear.
                        26 => i32::from(n > 1 && item_lanes.clone().any(|(x, y)| x < y)),
                        27 => i32::from(n > 1 && item_lanes.clone().all(|(x, y)| x <= y)),
                        _ => {
                            if lane_truth(op, a[p], b[p]) {
                                on
                            } else {
                                0
                            }
                        }
                    };
                    let g = ro[op * lanes + p];
                    if g != w && bad.len() < 10 {
                        bad.push(format!("int op {op} a={} b={}: got {g}, want {w}", a[p], b[p]));
                    }
                }
            }
            assert!(bad.is_empty(), "{name} at {opt:?}:\n{}", bad.join("\n"));
        }
    }
}
