//! OpenCL.std on double through the ICD loader: `kernels/cl/fp64_math.cl`
//! calls every math, common and float relational function that OpenCL C
//! has for double (no half_ or native_ forms: those are float only) on
//! double and double4 at -O0 and -O2, over special values (±0, ±1, ±inf,
//! NaN, DBL_MAX, DBL_MIN, denormals, halves, integers) and random inputs;
//! the `geometry` kernel covers cross, dot, length, distance, normalize,
//! shuffle, shuffle2, bitselect, select and vloadn/vstoren on double
//! vectors. References are Rust's f64 functions and the C library's
//! (glibc: erf, erfc, tgamma, lgamma_r, remainder, remquo), never clift's.
//! Correctly rounded functions (0 ulp in the spec) must match exactly; the
//! others must lie within the double ULP bound of the OpenCL SPIR-V
//! environment plus one ulp for the reference's own error (glibc's and
//! Rust's functions are within about one ulp, not correctly rounded). The
//! lists, references and checks are shared with the float test
//! (`clift_conformance::math`).

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::math::{check_every_function, inputs, same, ulps};

#[test]
fn math_every_function_on_double_and_double4() {
    check_every_function::<f64>("fp64_math", &[1, 4]);
}

/// The exact sum of products `x · y` of a few doubles, rounded once: a
/// reference for dot, length and distance within a few ulps.
fn dot_ref(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// length with the scaling a careful implementation does (by the largest
/// magnitude), in plain f64 otherwise.
fn length_ref(x: &[f64]) -> f64 {
    let m = x.iter().fold(0f64, |m, v| m.max(v.abs()));
    if x.iter().any(|v| v.is_infinite()) {
        return f64::INFINITY;
    }
    if x.iter().any(|v| v.is_nan()) {
        return f64::NAN;
    }
    if m == 0.0 {
        return 0.0;
    }
    let s: f64 = x.iter().map(|v| (v / m) * (v / m)).sum();
    m * s.sqrt()
}

fn close(got: f64, want: f64, ulp_bound: f64) -> bool {
    same(got, want) || ulps(got, want) <= ulp_bound
}

#[test]
fn geometry_shuffles_and_vector_memory_on_double() {
    const N: usize = 64;
    let a: Vec<f64> = inputs(4 * N + 64, 3);
    // Mostly ordinary values for the geometric functions, specials first.
    let mut b: Vec<f64> = inputs::<f64>(4 * N + 64, 5)
        .iter()
        .map(|v| if v.abs() > 1e20 { v.sqrt() } else { *v })
        .collect();
    b[0] = 3.0;
    let m: Vec<i64> = (0..4 * N as i64)
        .map(|i| i.wrapping_mul(0x1234_5678_9abc_def1_i64).rotate_left(i as u32 % 64))
        .collect();
    for opt in Opt::BOTH {
        let mut o = vec![0f64; 64 * N];
        Kernel::new("fp64_math", opt, "geometry")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::input(&m))
            .run(&[N], Some(&[8]));
        let mut bad = Vec::new();
        for i in 0..N {
            let p = &o[64 * i..64 * i + 64];
            let x4 = &a[4 * i..4 * i + 4];
            let y4 = &b[4 * i..4 * i + 4];
            let x3 = &a[3 * i..3 * i + 3];
            let y3 = &b[3 * i..3 * i + 3];
            let x2 = &a[2 * i..2 * i + 2];
            let y2 = &b[2 * i..2 * i + 2];
            let cross = |x: &[f64], y: &[f64]| {
                [
                    x[1] * y[2] - x[2] * y[1],
                    x[2] * y[0] - x[0] * y[2],
                    x[0] * y[1] - x[1] * y[0],
                ]
            };
            let c4 = cross(x4, y4);
            let c3 = cross(x3, y3);
            let mut want: Vec<(usize, f64, f64)> = vec![
                (0, c4[0], 0.0),
                (1, c4[1], 0.0),
                (2, c4[2], 0.0),
                (3, 0.0, 0.0),
                (4, c3[0], 0.0),
                (5, c3[1], 0.0),
                (6, c3[2], 0.0),
            ];
            // Products may be fused in cross and dot: a few ulps of the
            // largest term where they do not cancel.
            want.extend([
                (7, dot_ref(x4, y4), 8.0),
                (8, dot_ref(x3, y3), 8.0),
                (9, dot_ref(x2, y2), 8.0),
                (10, a[i] * b[i], 0.0),
                (11, length_ref(x4), 4.0),
                (12, length_ref(x3), 4.0),
                (13, length_ref(x2), 4.0),
                (14, a[i].abs(), 0.0),
            ]);
            let d = |x: &[f64], y: &[f64]| length_ref(&x.iter().zip(y).map(|(p, q)| p - q).collect::<Vec<_>>());
            want.extend([
                (15, d(x4, y4), 4.0),
                (16, d(x3, y3), 4.0),
                (17, d(x2, y2), 4.0),
                (18, (a[i] - b[i]).abs(), 0.0),
            ]);
            for (k, x) in [(20, x4), (24, x3), (28, x2)] {
                let l = length_ref(x);
                for (j, v) in x.iter().enumerate() {
                    let w = if l == 0.0 || !l.is_finite() { f64::NAN } else { v / l };
                    if w.is_finite() {
                        want.push((k + j, w, 4.0));
                    }
                }
            }
            want.push((
                30,
                if a[i].is_nan() {
                    f64::NAN
                } else if a[i] == 0.0 {
                    a[i]
                } else {
                    1f64.copysign(a[i])
                },
                0.0,
            ));
            let m4 = &m[4 * i..4 * i + 4];
            for j in 0..4 {
                want.push((32 + j, x4[(m4[j] & 3) as usize], 0.0));
            }
            let xy: Vec<f64> = x4.iter().chain(y4).copied().collect();
            for j in 0..8 {
                let mk = if j < 4 { m4[j] } else { m4[j - 4] >> 3 };
                want.push((36 + j, xy[(mk & 7) as usize], 0.0));
            }
            for j in 0..4 {
                let bits = (x4[j].to_bits() & !(m4[j] as u64)) | (y4[j].to_bits() & m4[j] as u64);
                want.push((44 + j, f64::from_bits(bits), 0.0));
                want.push((48 + j, if m4[j] < 0 { y4[j] } else { x4[j] }, 0.0));
            }
            want.push((52, x2[(m4[1] & 1) as usize], 0.0));
            want.push((53, x2[(m4[2] & 1) as usize], 0.0));
            let w16 = &a[16 * (i % 4)..16 * (i % 4) + 16];
            want.push((54, w16[0] + w16[15], 0.0));
            for j in 0..3 {
                want.push((55 + j, a[i + j] * 2.0, 0.0));
            }
            for (k, w, bound) in want {
                let got = p[k];
                let ok = if bound == 0.0 {
                    same(got, w) || (k < 7 && (same(got, w) || ulps(got, w) <= 2.0 || (got - w).abs() <= 1e-300))
                } else if (7..=9).contains(&k) {
                    // dot: within a few ulps of the largest product.
                    let big = match k {
                        7 => x4.iter().zip(y4).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                        8 => x3.iter().zip(y3).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                        _ => x2.iter().zip(y2).fold(0f64, |m, (p, q)| m.max((p * q).abs())),
                    };
                    same(got, w) || (got.is_nan() && w.is_nan()) || (got - w).abs() <= big * 8.0 * f64::EPSILON
                } else {
                    close(got, w, bound)
                };
                if !ok && bad.len() < 20 {
                    bad.push(format!("item {i} result {k}: got {got:e} want {w:e}"));
                }
            }
        }
        assert!(bad.is_empty(), "{opt:?} geometry:\n{}", bad.join("\n"));
    }
}
