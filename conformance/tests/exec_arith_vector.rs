//! Vector instructions of `kernels/cl/arith_vector.cl` at -O0 and -O2:
//! OpVectorExtractDynamic and OpVectorInsertDynamic with every index type
//! on every vector width, vector times scalar, OpDot, and swizzles
//! (OpVectorShuffle), against host references.

mod exec_arith_util;

use clift_conformance::exec::Opt;
use exec_arith_util::{from_bytes, to_bytes, Module};

const ITEMS: usize = 64;

fn slots(n: usize) -> usize {
    if n == 3 {
        4
    } else {
        n
    }
}

/// Distinct bit patterns of `bytes` bytes for lane `p`.
fn pattern(p: usize, bytes: usize) -> u64 {
    let x = (p as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7;
    if bytes == 8 {
        x
    } else {
        x & ((1u64 << (8 * bytes)) - 1)
    }
}

#[test]
fn dynamic_extract_and_insert() {
    let elems = [("int", 4usize), ("float", 4), ("char", 1), ("long", 8)];
    let shapes = [
        (2usize, "uchar", 1usize),
        (3, "ushort", 2),
        (4, "uint", 4),
        (8, "ulong", 8),
        (16, "int", 4),
        (4, "char", 1),
        (16, "long", 8),
    ];
    for opt in Opt::BOTH {
        let m = Module::new("arith_vector", opt);
        for (t, eb) in elems {
            for (n, idx, ib) in shapes {
                let s = slots(n);
                // Float lanes hold small integers' bits, never NaN.
                let val = |p: usize| {
                    if t == "float" {
                        u64::from((p as f32 * 0.25 - 100.0).to_bits())
                    } else {
                        pattern(p, eb)
                    }
                };
                let a: Vec<u64> = (0..ITEMS * s).map(val).collect();
                let k: Vec<u64> = (0..ITEMS).map(|i| ((i * 5 + 1) % n) as u64).collect();
                let x: Vec<u64> = (0..ITEMS).map(|i| val(10_000 + i)).collect();
                let name = format!("dyn_{t}{n}_{idx}");
                let out = m.run(
                    &name,
                    &[&to_bytes(&a, eb), &to_bytes(&k, ib), &to_bytes(&x, eb)],
                    2 * ITEMS * s * eb,
                    ITEMS,
                );
                let got = from_bytes(&out, eb);
                for i in 0..ITEMS {
                    let j = k[i] as usize;
                    for c in 0..n {
                        let e = got[i * s + c];
                        assert_eq!(e, a[i * s + j], "{name} at {opt:?}: item {i} v[{j}] in lane {c}");
                        let ins = got[(ITEMS + i) * s + c];
                        let want = if c == (j + 1) % n { x[i] } else { a[i * s + c] };
                        assert_eq!(
                            ins,
                            want,
                            "{name} at {opt:?}: item {i} lane {c} after v[{}] = x",
                            (j + 1) % n
                        );
                    }
                }
            }
        }
    }
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn back(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn times_scalar_and_dot() {
    for opt in Opt::BOTH {
        let m = Module::new("arith_vector", opt);
        for n in [1usize, 2, 3, 4, 8, 16] {
            let s = slots(n);
            // Small integers and halves: every product and sum is exact, so
            // the order of the additions does not matter.
            let a: Vec<f32> = (0..ITEMS * s).map(|p| (p % 13) as f32 - 6.5).collect();
            let b: Vec<f32> = (0..ITEMS * s).map(|p| (p % 7) as f32 * 2.0 - 5.0).collect();
            let sc: Vec<f32> = (0..ITEMS).map(|i| i as f32 * 0.5 - 3.0).collect();
            if n > 1 {
                let name = format!("scale_float{n}");
                let got = back(&m.run(&name, &[&floats(&a), &floats(&sc)], ITEMS * s * 4, ITEMS));
                for p in 0..ITEMS * s {
                    if p % s < n {
                        assert_eq!(got[p], a[p] * sc[p / s], "{name} at {opt:?}: lane {p}");
                    }
                }
            }
            if n <= 4 {
                let name = if n == 1 {
                    "dot_float".to_string()
                } else {
                    format!("dot_float{n}")
                };
                let got = back(&m.run(&name, &[&floats(&a), &floats(&b)], ITEMS * 4, ITEMS));
                for i in 0..ITEMS {
                    let want: f32 = (0..n).map(|c| a[i * s + c] * b[i * s + c]).sum();
                    assert_eq!(got[i], want, "{name} at {opt:?}: item {i}");
                }
            }
        }
    }
}

#[test]
fn swizzles() {
    for opt in Opt::BOTH {
        let m = Module::new("arith_vector", opt);
        for (t, eb) in [("int", 4usize), ("float", 4), ("short", 2), ("ulong", 8)] {
            for n in [2usize, 3, 4, 8, 16] {
                let s = slots(n);
                let a: Vec<u64> = (0..ITEMS * s).map(|p| pattern(p, eb)).collect();
                let name = format!("swz_{t}{n}");
                let got = from_bytes(&m.run(&name, &[&to_bytes(&a, eb)], ITEMS * s * eb, ITEMS), eb);
                // (odd lanes, even lanes); the 3-wide kernel takes .s201.
                let order: Vec<usize> = if n == 3 {
                    vec![2, 0, 1]
                } else {
                    (1..n).step_by(2).chain((0..n).step_by(2)).collect()
                };
                for i in 0..ITEMS {
                    for (c, &src) in order.iter().enumerate() {
                        assert_eq!(got[i * s + c], a[i * s + src], "{name} at {opt:?}: item {i} lane {c}");
                    }
                }
            }
        }
    }
}
