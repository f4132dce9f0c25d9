//! Double precision (cl_khr_fp64) through the ICD loader: the kernels of
//! `kernels/cl/fp64_core.cl` at -O0 and -O2 — arithmetic on special and
//! random values, every comparison and classification, double vectors of
//! 2, 3, 4, 8 and 16 components, bitcasts, double kernel arguments and
//! doubles inside by-value structs — and, from the hand-written module
//! `kernels/spv/hand/fp64_core.spv`, OpFRem, OpFMod, OpVectorTimesScalar,
//! OpLessOrGreater, OpOrdered, OpUnordered and the unordered comparisons;
//! each result checked against a host reference computed with Rust's f64
//! (exact: IEEE arithmetic is correctly rounded on both sides). The
//! arithmetic and relations, the hand-written module and specialization
//! constant checks are shared with the half test (`clift_conformance::math`).

// The references spell out IEEE comparisons with NaN operands: `!(a < b)`
// is not `a >= b`, and `a < b || a > b` is not `a != b`.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::math::{check_arith, check_hand_written_core, run_spec, same};
use clift_conformance::rng::Rng;

/// Special values first (±0, ±1, ±inf, NaN, DBL_MAX, DBL_MIN, denormals,
/// integers, halves), then random doubles: half in [-100, 100], half any
/// finite bit pattern.
fn inputs(len: usize, seed: u64) -> Vec<f64> {
    let special = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        -2.5e-320,
        0.5,
        -2.5,
        3.0,
        1e300,
        -1e-300,
        0.1,
    ];
    let mut rng = Rng(seed);
    let mut next = move || rng.next_u64();
    (0..len)
        .map(|i| {
            let k = (i + seed as usize) % (2 * special.len());
            if k < special.len() && i < 3 * special.len() {
                return special[k];
            }
            let r = next();
            if r & 1 == 0 {
                (r >> 11) as f64 / (1u64 << 53) as f64 * 200.0 - 100.0
            } else {
                let b = next();
                let d = f64::from_bits(b);
                if d.is_finite() {
                    d
                } else {
                    f64::from_bits(b & 0x800f_ffff_ffff_ffff)
                }
            }
        })
        .collect()
}

fn check(what: &str, got: &[f64], want: &[f64]) {
    let bad: Vec<String> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| !same(**g, **w))
        .take(8)
        .map(|(k, (g, w))| format!("[{k}] got {g:e} ({:#x}) want {w:e} ({:#x})", g.to_bits(), w.to_bits()))
        .collect();
    assert!(bad.is_empty(), "{what}:\n{}", bad.join("\n"));
}

#[test]
fn scalar_arithmetic_and_relations() {
    check_arith::<f64>("fp64_core", inputs);
}

#[test]
fn double4_arithmetic_relations_and_dot() {
    const N: usize = 64;
    let (a, b) = (inputs(4 * N, 3), inputs(4 * N, 5));
    for opt in Opt::BOTH {
        let mut o = vec![0f64; 5 * 4 * N];
        let mut oi = vec![0i64; 5 * 4 * N];
        let mut od = vec![0f64; 2 * N];
        Kernel::new("fp64_core", opt, "vec4")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut oi))
            .arg(Arg::output(&mut od))
            .run(&[N], Some(&[8]));
        let m = 4 * N;
        let mut want = vec![0f64; 5 * m];
        let mut want_i = vec![0i64; 5 * m];
        for k in 0..m {
            let (x, y, bx) = (a[k], b[k], b[k / 4 * 4]);
            want[k] = x + y;
            want[m + k] = x * y - x;
            want[2 * m + k] = x / y;
            want[3 * m + k] = x * bx;
            want[4 * m + k] = -x;
            let t = |c: bool| if c { -1 } else { 0 };
            want_i[k] = t(x < y);
            want_i[m + k] = t(x.is_nan());
            want_i[2 * m + k] = t(x.is_nan() || y.is_nan());
            want_i[3 * m + k] = t(x.is_sign_negative());
            want_i[4 * m + k] = t(!x.is_nan() && !y.is_nan() && x != y);
        }
        // a * b - a may be contracted: accept the fused form there.
        for k in 0..m {
            let fused = a[k].mul_add(b[k], -a[k]);
            if same(o[m + k], fused) {
                want[m + k] = fused;
            }
        }
        check(&format!("{opt:?} double4"), &o, &want);
        assert_eq!(oi, want_i, "{opt:?} double4 relations");
        for i in 0..N {
            let (x, y) = (&a[4 * i..4 * i + 4], &b[4 * i..4 * i + 4]);
            // dot: the products summed; any order and contraction within
            // a few ulp of the exact sum, and the special values exact.
            let plain = x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
            let got = od[i];
            let exact: f64 = x.iter().zip(y).map(|(p, q)| p * q).sum();
            let ok = same(got, plain)
                || (got.is_nan() && exact.is_nan())
                || (exact.is_finite() && (got - plain).abs() <= plain.abs() * 4.0 * f64::EPSILON);
            assert!(ok, "{opt:?} dot({x:?}, {y:?}) = {got}, want about {plain}");
            let lt: Vec<bool> = (0..4).map(|k| x[k] < y[k]).collect();
            let want = f64::from(u8::from(lt.iter().any(|&c| c))) + 2.0 * f64::from(u8::from(lt.iter().all(|&c| c)));
            assert_eq!(od[N + i], want, "{opt:?} any/all of {x:?} < {y:?}");
        }
    }
}

#[test]
fn double3_8_16_and_swizzles() {
    const N: usize = 16;
    let a = inputs(16 * N + 16, 11);
    for opt in Opt::BOTH {
        let mut o = vec![0f64; 29 * N];
        Kernel::new("fp64_core", opt, "vec_wide")
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut o))
            .run(&[N], Some(&[4]));
        let mut want = vec![0f64; 29 * N];
        for i in 0..N {
            let v3 = &a[3 * i..3 * i + 3];
            let v8 = &a[8 * i..8 * i + 8];
            let v16 = &a[16 * i..16 * i + 16];
            for k in 0..3 {
                let zxy = [v3[2], v3[0], v3[1]][k];
                let twice = v3[k] * 2.0;
                want[3 * i + k] = twice + zxy;
                if same(o[3 * i + k], twice.mul_add(1.0, zxy)) {
                    want[3 * i + k] = o[3 * i + k];
                }
            }
            for k in 0..8 {
                want[3 * N + 8 * i + k] = v8[7 - k] - v16[k];
            }
            for k in 0..16 {
                want[11 * N + 16 * i + k] = v16[k] * v16[15 - k];
            }
            want[27 * N + 2 * i] = v8[7];
            want[27 * N + 2 * i + 1] = v8[3];
        }
        check(&format!("{opt:?} vec_wide"), &o, &want);
    }
}

#[test]
fn bitcasts_between_double_long_int2_float2() {
    const N: usize = 64;
    let a = inputs(N, 17);
    let l: Vec<i64> = inputs(N, 19).iter().map(|d| d.to_bits() as i64 ^ 0x5555).collect();
    for opt in Opt::BOTH {
        let (mut ol, mut od, mut oi2, mut of2, mut od2) = (
            vec![0i64; N],
            vec![0f64; N],
            vec![0i32; 2 * N],
            vec![0f32; 2 * N],
            vec![0f64; N],
        );
        Kernel::new("fp64_core", opt, "bitcasts")
            .arg(Arg::input(&a))
            .arg(Arg::input(&l))
            .arg(Arg::output(&mut ol))
            .arg(Arg::output(&mut od))
            .arg(Arg::output(&mut oi2))
            .arg(Arg::output(&mut of2))
            .arg(Arg::output(&mut od2))
            .run(&[N], Some(&[8]));
        for i in 0..N {
            let bits = a[i].to_bits();
            assert_eq!(ol[i] as u64, bits, "{opt:?} as_long({:e})", a[i]);
            assert_eq!(od[i].to_bits(), l[i] as u64, "{opt:?} as_double({:#x})", l[i]);
            assert_eq!(
                [oi2[2 * i] as u32, oi2[2 * i + 1] as u32],
                [bits as u32, (bits >> 32) as u32]
            );
            assert_eq!(
                [of2[2 * i].to_bits(), of2[2 * i + 1].to_bits()],
                [bits as u32, (bits >> 32) as u32]
            );
            let x = f64::from_bits(l[i] as u64);
            let want = x + (-x);
            assert!(
                same(od2[i], want),
                "{opt:?} as_double(int2) sum: {} want {want}",
                od2[i]
            );
        }
    }
}

#[test]
fn double_arguments_and_structs_by_value() {
    // struct { char tag; double d; int k; double2 v; }: offsets 0, 8, 16, 32
    // (double2 aligns to 16); size 48.
    let mut m = vec![0u8; 48];
    m[0] = 0xf9; // -7
    m[8..16].copy_from_slice(&(-1.25e-300f64).to_le_bytes());
    m[16..20].copy_from_slice(&123_456i32.to_le_bytes());
    m[32..40].copy_from_slice(&f64::MAX.to_le_bytes());
    m[40..48].copy_from_slice(&0.1f64.to_le_bytes());
    let v = [1.5f64, 2.25, -3.0, 1e200];
    for opt in Opt::BOTH {
        let mut o = vec![0f64; 8 * 4];
        Kernel::new("fp64_core", opt, "args")
            .arg(Arg::value(std::f64::consts::PI))
            .arg(Arg::value(v))
            .arg(Arg::bytes(&m))
            .arg(Arg::output(&mut o))
            .run(&[4], None);
        for i in 0..4 {
            let want = [
                std::f64::consts::PI,
                3.75,
                -3e200,
                -1.25e-300,
                -7.0,
                123_456.0,
                f64::MAX,
                0.1 + i as f64,
            ];
            check(&format!("{opt:?} args of item {i}"), &o[8 * i..8 * i + 8], &want);
        }
    }
}

/// The hand-written module `kernels/spv/hand/fp64_core.spv` (from
/// `fp_core.py`): OpFRem, OpFMod, OpVectorTimesScalar, OpLessOrGreater,
/// OpOrdered, OpUnordered and the unordered comparisons on double and
/// double vectors.
#[test]
fn hand_written_frem_fmod_vector_times_scalar_and_comparisons() {
    check_hand_written_core::<f64>(inputs);
}

/// Double specialization constants: the module's defaults and values set
/// by clSetProgramSpecializationConstant, folded through OpSpecConstantOp.
#[test]
fn double_specialization_constants() {
    let (o, l) = run_spec::<f64>(&[]);
    assert_eq!((o, l), ([2.5, 6.25, 4.0], 2));
    let d = -1.0e300f64 / 3.0;
    let (o, l) = run_spec::<f64>(&[(0, d.to_ne_bytes().to_vec()), (1, 0.1f32.to_ne_bytes().to_vec())]);
    let want = [d, d * d, f64::from(0.1f32) + d];
    assert!(o.iter().zip(&want).all(|(g, w)| same(*g, *w)), "{o:?} want {want:?}");
    assert_eq!(l, i64::MIN, "ConvertFToS of {d:e} saturates");
    let (o, l) = run_spec::<f64>(&[(0, (-7.75f64).to_ne_bytes().to_vec())]);
    assert!(
        same(o[0], -7.75) && same(o[1], 60.0625) && same(o[2], 1.5 - 7.75),
        "{o:?}"
    );
    assert_eq!(l, -7);
}
