//! Half precision (cl_khr_fp16) through the ICD loader: the kernels of
//! `kernels/cl/fp16_core.cl` at -O0 and -O2 — arithmetic on special and
//! random halves, every comparison and classification, half vectors of 2,
//! 3, 4, 8 and 16 components, conversions between half and every integer
//! type, float and double in every rounding mode (with saturation),
//! bitcasts, half kernel arguments, halves in by-value and global structs,
//! private, local and generic memory, work-group and sub-group collectives
//! (exec_fp16_simd.rs: the 4-lane vectorizer); from the hand-written
//! modules `kernels/spv/hand/fp16_core.spv` (with the Float16 capability)
//! and `fp16_spec.spv`, OpFRem, OpFMod, OpVectorTimesScalar, the ordered
//! and unordered comparisons and half specialization constants — each
//! result checked against a host reference (the exact result rounded once
//! to half: +, -, *, /, sqrt and fma are correctly rounded in half). The
//! arithmetic and relations, the hand-written module and specialization
//! constant checks are the double test's (`clift_conformance::math` over
//! `clift_conformance::half::Half`).

#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::double_comparisons)]

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::half::{from_half, halves, inputs, rte, same_half, to_half, Half, Rounding};
use clift_conformance::math::{self, check_arith, check_hand_written_core, run_spec};

#[test]
fn scalar_arithmetic_and_relations() {
    check_arith::<Half>("fp16_core", math::inputs::<Half>);
}

#[test]
fn vectors() {
    const N: usize = 64;
    let (a, b) = (inputs(16 * N + 16, 3), inputs(16 * N + 16, 5));
    for opt in Opt::BOTH {
        let mut o = vec![0u16; 8 * 4 * N + 32 * N];
        let mut oi = vec![0i16; 6 * 4 * N];
        Kernel::new("fp16_core", opt, "vec")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut o))
            .arg(Arg::output(&mut oi))
            .run(&[N], Some(&[8]));
        for i in 0..N {
            let x: Vec<f64> = (0..4).map(|k| from_half(a[4 * i + k])).collect();
            let y: Vec<f64> = (0..4).map(|k| from_half(b[4 * i + k])).collect();
            let at = |r: usize, k: usize| o[(r * N + i) * 4 + k];
            let ati = |r: usize, k: usize| oi[(r * N + i) * 4 + k];
            for k in 0..4 {
                let w = [x[k] + y[k], rte(x[k] * y[k]) - x[k], x[k] / y[k], x[k] * y[0], -x[k]];
                for (r, w) in w.iter().enumerate() {
                    let want = to_half(*w, Rounding::Rte);
                    // a * b - a may be contracted into one fma.
                    if r == 1 && same_half(at(r, k), to_half(x[k].mul_add(y[k], -x[k]), Rounding::Rte)) {
                        continue;
                    }
                    assert!(
                        same_half(at(r, k), want),
                        "{opt:?} vec op {r} [{i}.{k}] ({:e}, {:e}): {:#x} want {want:#x}",
                        x[k],
                        y[k],
                        at(r, k)
                    );
                }
                assert!(same_half(at(6, k), a[4 * i + 3 - k]), "swizzle");
                let sel = if x[k] < y[k] { b[4 * i + k] } else { a[4 * i + k] };
                assert!(same_half(at(7, k), sel), "{opt:?} select [{i}.{k}]");
                let t = |c: bool| if c { -1i16 } else { 0 };
                assert_eq!(ati(0, k), t(x[k] < y[k]), "{opt:?} <");
                assert_eq!(ati(1, k), t(x[k].is_nan()), "isnan");
                assert_eq!(ati(2, k), t(x[k].is_nan() || y[k].is_nan()), "isunordered");
                assert_eq!(ati(3, k), t(x[k].is_sign_negative()), "signbit");
                assert_eq!(ati(4, k), t(x[k] < y[k] || x[k] > y[k]), "islessgreater");
                assert_eq!(
                    ati(5, k),
                    t(x[k].is_finite() && x[k].abs() >= 2f64.powi(-14)),
                    "isnormal {:e}",
                    x[k]
                );
            }
            // dot: products exact in f64, summed; the result within the
            // spec's absolute tolerance max * max * 7 * HALF_EPSILON.
            let d = from_half(at(5, 0));
            let exact: f64 = (0..4).map(|k| x[k] * y[k]).sum();
            let max = x.iter().chain(&y).fold(0f64, |m, v| m.max(v.abs()));
            if exact.is_finite() && exact.abs() < 65504.0 {
                assert!(
                    (d - exact).abs() <= max * max * 7.0 * 2f64.powi(-10) + 2f64.powi(-24),
                    "{opt:?} dot [{i}] {d:e} want {exact:e}"
                );
            }
            let any = (0..4).any(|k| x[k] < y[k]);
            let all = (0..4).all(|k| x[k] < y[k]);
            // any/all give int 1 (scalar relational result) converted to half.
            assert_eq!(from_half(at(5, 1)), f64::from(u8::from(any)), "{opt:?} any");
            assert_eq!(from_half(at(5, 2)), f64::from(u8::from(all)), "{opt:?} all");
            // 2, 3, 8, 16 components.
            let base = 8 * 4 * N + 32 * i;
            let h = |v: &[u16], j: usize| from_half(v[j]);
            for k in 0..2 {
                let want = to_half(h(&a, 2 * i + k) + h(&b, 2 * i + k), Rounding::Rte);
                assert!(same_half(o[base + k], want), "{opt:?} half2 [{i}.{k}]");
            }
            for k in 0..3 {
                let want = to_half(h(&a, 3 * i + k) * h(&b, 3 * i + k), Rounding::Rte);
                assert!(same_half(o[base + 2 + k], want), "{opt:?} half3 [{i}.{k}]");
            }
            for k in 0..8 {
                let want = to_half(h(&a, 8 * i + k) - h(&b, 8 * i + k), Rounding::Rte);
                assert!(same_half(o[base + 5 + k], want), "{opt:?} half8 [{i}.{k}]");
            }
            for k in 0..16 {
                let (p, q) = (h(&a, 16 * i + k), h(&b, 16 * i + k));
                // mul and add each rounded, or fused (contraction allowed).
                let two = to_half(rte(p * q) + p, Rounding::Rte);
                let fused = to_half(p.mul_add(q, p), Rounding::Rte);
                let g = o[base + 13 + k];
                assert!(
                    same_half(g, two) || same_half(g, fused),
                    "{opt:?} half16 [{i}.{k}] {p:e} {q:e}: {g:#x} want {two:#x}"
                );
            }
        }
    }
}

/// C's conversion of a half to an integer type of `bits` bits, saturated,
/// after rounding in `mode` (NaN gives 0).
fn to_int(x: f64, mode: Rounding, lo: f64, hi: f64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let r = match mode {
        Rounding::Rte => x.round_ties_even(),
        Rounding::Rtz => x.trunc(),
        Rounding::Rtp => x.ceil(),
        Rounding::Rtn => x.floor(),
    };
    r.clamp(lo, hi) as i64
}

#[test]
fn conversions_in_every_rounding_mode() {
    const N: usize = 256;
    let h = inputs(N, 11);
    let k: Vec<i32> = (0..N as i32)
        .map(|i| match i % 9 {
            0 => i32::MAX,
            1 => i32::MIN,
            2 => 65504 + i,
            3 => 2049 + 2 * i,
            4 => -4097 - i,
            _ => (i * 7919) % 70001 - 35000,
        })
        .collect();
    let f: Vec<f32> = (0..N)
        .map(|i| {
            let v = from_half(h[i]) as f32;
            // Between halves: nudge by a fraction of a half ulp.
            match i % 4 {
                0 => v,
                1 => v * (1.0 + 2f32.powi(-12)),
                2 => v * (1.0 - 3.0 * 2f32.powi(-13)),
                _ => f32::from_bits(v.to_bits().wrapping_add(4096)),
            }
        })
        .collect();
    let d: Vec<f64> = (0..N).map(|i| f64::from(f[i]) * (1.0 + 2f64.powi(-30))).collect();
    for opt in Opt::BOTH {
        let mut ol = vec![0i64; 14 * N];
        let mut oh = vec![0u16; 20 * N];
        let mut of = vec![0f32; N];
        let mut od = vec![0f64; N];
        Kernel::new("fp16_core", opt, "convert")
            .arg(Arg::input(&h))
            .arg(Arg::input(&k))
            .arg(Arg::input(&f))
            .arg(Arg::input(&d))
            .arg(Arg::output(&mut ol))
            .arg(Arg::output(&mut oh))
            .arg(Arg::output(&mut of))
            .arg(Arg::output(&mut od))
            .run(&[N], Some(&[16]));
        for i in 0..N {
            let x = from_half(h[i]);
            let sat = |mode, lo: f64, hi: f64| to_int(x, mode, lo, hi);
            let want = [
                sat(Rounding::Rtz, -128.0, 127.0),
                sat(Rounding::Rtz, 0.0, 255.0),
                sat(Rounding::Rtz, -32768.0, 32767.0),
                sat(Rounding::Rtz, 0.0, 65535.0),
                sat(Rounding::Rtz, -2147483648.0, 2147483647.0),
                sat(Rounding::Rtz, 0.0, 4294967295.0),
                sat(Rounding::Rtz, -9.223372036854776e18, 9.223372036854776e18),
                if x.is_nan() {
                    0
                } else {
                    sat(Rounding::Rtz, 0.0, 1.8446744073709552e19)
                },
                sat(Rounding::Rte, -2147483648.0, 2147483647.0),
                sat(Rounding::Rtz, -2147483648.0, 2147483647.0),
                sat(Rounding::Rtp, -2147483648.0, 2147483647.0),
                sat(Rounding::Rtn, -2147483648.0, 2147483647.0),
                sat(Rounding::Rte, -32768.0, 32767.0),
                sat(Rounding::Rtp, 0.0, 255.0),
            ];
            for (r, w) in want.iter().enumerate() {
                if r == 6 && x.is_infinite() {
                    // long from ±inf saturates to LONG_MAX/LONG_MIN.
                    let w = if x > 0.0 { i64::MAX } else { i64::MIN };
                    assert_eq!(ol[r * N + i], w, "{opt:?} long_sat({x:e})");
                    continue;
                }
                if r == 7 {
                    let w = if x == f64::INFINITY { -1 } else { *w };
                    assert_eq!(ol[r * N + i], w, "{opt:?} ulong_sat({x:e})");
                    continue;
                }
                assert_eq!(ol[r * N + i], *w, "{opt:?} conversion {r} of {x:e}");
            }
            let kk = f64::from(k[i]);
            let ff = f64::from(f[i]);
            let want = [
                to_half(kk, Rounding::Rte),
                to_half(kk, Rounding::Rte),
                to_half(kk, Rounding::Rtz),
                to_half(kk, Rounding::Rtp),
                to_half(kk, Rounding::Rtn),
                to_half(f64::from(k[i] as u32), Rounding::Rte),
                to_half(k[i] as i64 as u64 as f64, Rounding::Rtz),
                to_half((k[i] as i64 * 1000) as f64, Rounding::Rtp),
                to_half(f64::from(k[i] as i16), Rounding::Rte),
                to_half(f64::from(k[i] as i8), Rounding::Rtn),
                to_half(ff, Rounding::Rte),
                to_half(ff, Rounding::Rte),
                to_half(ff, Rounding::Rtz),
                to_half(ff, Rounding::Rtp),
                to_half(ff, Rounding::Rtn),
                to_half(d[i], Rounding::Rte),
                to_half(d[i], Rounding::Rte),
                to_half(d[i], Rounding::Rtz),
                to_half(d[i], Rounding::Rtp),
                to_half(d[i], Rounding::Rtn),
            ];
            for (s, w) in want.iter().enumerate() {
                let g = oh[s * N + i];
                assert!(
                    same_half(g, *w),
                    "{opt:?} to half {s} [{i}] (k {}, f {:e}, d {:e}): {g:#x} want {w:#x}",
                    k[i],
                    f[i],
                    d[i]
                );
            }
            assert!(
                of[i].to_bits() == (x as f32).to_bits() || (x.is_nan() && of[i].is_nan()),
                "{opt:?} float({x:e})"
            );
            assert!(
                od[i].to_bits() == x.to_bits() || (x.is_nan() && od[i].is_nan()),
                "{opt:?} double({x:e})"
            );
        }
    }
}

#[test]
fn bitcasts() {
    const N: usize = 64;
    let a = inputs(4 * N + 4, 17);
    let s: Vec<i16> = (0..N).map(|i| (i as i16).wrapping_mul(1237) ^ 0x3c00).collect();
    for opt in Opt::BOTH {
        let mut oi = vec![0i32; 5 * N];
        let mut oh = vec![0u16; 4 * N];
        Kernel::new("fp16_core", opt, "bitcast")
            .arg(Arg::input(&a))
            .arg(Arg::input(&s))
            .arg(Arg::output(&mut oi))
            .arg(Arg::output(&mut oh))
            .run(&[N], Some(&[8]));
        for i in 0..N {
            // Every encoding is kept, NaN payloads and signaling bits too.
            let bits_ok = |got: u32, h: u16| got == u32::from(h);
            assert!(
                bits_ok(oi[i] as i16 as u16 as u32, a[i]),
                "{opt:?} as_short({:#x}) = {:#x}",
                a[i],
                oi[i]
            );
            assert!(bits_ok(oi[N + i] as u32, a[i]), "{opt:?} as_ushort");
            let w2 = oi[2 * N + i] as u32;
            assert!(
                bits_ok(w2 & 0xffff, a[2 * i]) && bits_ok(w2 >> 16, a[2 * i + 1]),
                "{opt:?} as_int({:#x}, {:#x}) = {w2:#x}",
                a[2 * i],
                a[2 * i + 1]
            );
            let w4 = oi[3 * N + i] as u32;
            assert!(
                bits_ok(w4 & 0xffff, a[4 * i + 1]) && bits_ok(w4 >> 16, a[4 * i + 2]),
                "{opt:?} as_long"
            );
            assert!(
                bits_ok(oi[4 * N + i] as i16 as u16 as u32, a[2 * i + 1]),
                "{opt:?} as_short2"
            );
            let sh = s[i] as u16;
            assert_eq!(oh[i], sh, "{opt:?} as_half({sh:#x})");
            let sh1 = (s[i].wrapping_add(1)) as u16;
            assert_eq!(oh[N + i], sh1, "{opt:?} as_half(ushort)");
            assert_eq!(oh[2 * N + i], a[2 * i + 1] ^ 0x8000, "{opt:?} as_half2(int ^ sign)");
            assert_eq!(oh[3 * N + i], a[2 * i], "{opt:?} as_half2(uint)");
        }
    }
}

/// The struct `S` of the kernel: char tag; half h; half2 v; float f;
/// half arr[3] (offsets 0, 2, 4, 8, 12; 20 bytes).
fn s_bytes(tag: u8, h: u16, v: [u16; 2], f: f32, arr: Vec<u16>) -> Vec<u8> {
    let mut b = vec![0u8; 20];
    b[0] = tag;
    b[2..4].copy_from_slice(&h.to_le_bytes());
    b[4..6].copy_from_slice(&v[0].to_le_bytes());
    b[6..8].copy_from_slice(&v[1].to_le_bytes());
    b[8..12].copy_from_slice(&f.to_le_bytes());
    for k in 0..3 {
        b[12 + 2 * k..14 + 2 * k].copy_from_slice(&arr[k].to_le_bytes());
    }
    b
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

#[test]
fn memory_arguments_and_structs() {
    const N: usize = 64;
    const L: usize = 16;
    let a = inputs(N, 23);
    let scale = to_half(1.5, Rounding::Rte);
    let sv = s_bytes(
        7,
        to_half(0.25, Rounding::Rte),
        [to_half(3.0, Rounding::Rte), to_half(-0.5, Rounding::Rte)],
        2.0,
        halves(&[1.0, 2.0, 0.125]),
    );
    let g0: Vec<u8> = (0..N)
        .flat_map(|i| {
            let x = from_half(a[i]);
            s_bytes(
                i as u8,
                to_half(x * 0.5, Rounding::Rte),
                [a[i], to_half(i as f64, Rounding::Rte)],
                0.0,
                halves(&[x, 0.0, -x]),
            )
        })
        .collect();
    for opt in Opt::BOTH {
        let mut o = vec![0u16; 5 * N];
        let mut gs = g0.clone();
        Kernel::new("fp16_core", opt, "memory")
            .arg(Arg::input(&a))
            .arg(Arg::value(scale))
            .arg(Arg::bytes(&sv))
            .arg(Arg::output_bytes(&mut gs))
            .arg(Arg::output(&mut o))
            .arg(Arg::Local(L * 2))
            .run(&[N], Some(&[L]));
        for i in 0..N {
            let other = i / L * L + (L - 1 - i % L);
            let (x, xo) = (from_half(a[i]), from_half(a[other]));
            let chk = |r: usize, want: u16| {
                assert!(
                    same_half(o[r * N + i], want),
                    "{opt:?} memory {r} [{i}] ({x:e}): {:#x} want {want:#x}",
                    o[r * N + i]
                );
            };
            chk(0, to_half(xo * 1.5, Rounding::Rte));
            chk(1, to_half(xo + 0.25, Rounding::Rte));
            chk(2, to_half(rte(x * 4.0) - rte(x * 2.0), Rounding::Rte));
            chk(3, to_half(3.0 * -0.5 + 0.125, Rounding::Rte));
            chk(4, to_half(x * 3.0, Rounding::Rte));
            let s = &gs[20 * i..20 * (i + 1)];
            assert_eq!(s[0], i as u8, "tag kept");
            assert!(
                same_half(u16_at(s, 2), to_half(rte(x * 0.5) + x, Rounding::Rte)),
                "{opt:?} t.h [{i}]"
            );
            assert!(same_half(u16_at(s, 4), a[i]), "t.v.x kept");
            assert!(
                same_half(u16_at(s, 14), to_half(i as f64 * 1.5, Rounding::Rte)),
                "{opt:?} t.arr[1] [{i}]"
            );
            let f = f32::from_le_bytes([s[8], s[9], s[10], s[11]]);
            assert!(
                f.to_bits() == (x as f32).to_bits() || (x.is_nan() && f.is_nan()),
                "{opt:?} t.f [{i}]"
            );
            assert!(same_half(u16_at(s, 16), to_half(-x, Rounding::Rte)), "t.arr[2] kept");
        }
    }
}

#[test]
fn collectives() {
    const N: usize = 64;
    const L: usize = 16;
    // Small integers and halves: every partial sum is exact in half.
    let a: Vec<u16> = (0..N)
        .map(|i| to_half(((i * 37) % 23) as f64 * 0.25 - 2.0, Rounding::Rte))
        .collect();
    for opt in Opt::BOTH {
        let mut o = vec![0u16; 7 * N];
        Kernel::new("fp16_core", opt, "collective")
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut o))
            .run(&[N], Some(&[L]));
        // Sub-groups of consecutive work-items.
        let sub = clift_conformance::sub_group_size();
        for g in 0..N / L {
            let xs: Vec<f64> = (0..L).map(|j| from_half(a[g * L + j])).collect();
            let sum: f64 = xs.iter().sum();
            let min = xs.iter().cloned().fold(f64::INFINITY, f64::min);
            let max = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            for j in 0..L {
                let i = g * L + j;
                let at = |r: usize| from_half(o[r * N + i]);
                assert_eq!(at(0), sum, "{opt:?} reduce_add");
                assert_eq!(at(1), min, "{opt:?} reduce_min");
                assert_eq!(at(2), max, "{opt:?} reduce_max");
                assert_eq!(at(3), xs[..=j].iter().sum::<f64>(), "{opt:?} scan_inclusive_add [{i}]");
                let ex = xs[..j].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(at(4), ex, "{opt:?} scan_exclusive_max [{i}]");
                assert_eq!(at(5), xs[3], "{opt:?} broadcast");
                let s0 = j / sub * sub;
                let ssum: f64 = xs[s0..(s0 + sub).min(L)].iter().sum();
                assert_eq!(at(6), ssum, "{opt:?} sub_group_reduce_add [{i}]");
            }
        }
    }
}

/// The hand-written module `kernels/spv/hand/fp16_core.spv` (from
/// `fp_core.py`; it declares the Float16 capability where llvm-spirv
/// declares Float16Buffer): OpFRem, OpFMod, OpVectorTimesScalar,
/// OpLessOrGreater, OpOrdered, OpUnordered and the unordered comparisons
/// on half and half vectors.
#[test]
fn hand_written_frem_fmod_vector_times_scalar_and_comparisons() {
    check_hand_written_core::<Half>(math::inputs::<Half>);
}

/// Half specialization constants: the module's defaults and values set by
/// clSetProgramSpecializationConstant (2 bytes), folded through
/// OpSpecConstantOp.
#[test]
fn half_specialization_constants() {
    let h = |x: f64| to_half(x, Rounding::Rte);
    let run_spec = |set: &[(u32, Vec<u8>)]| {
        let (o, l) = run_spec::<Half>(set);
        (o.map(|v| v.0), l)
    };
    let (o, l) = run_spec(&[]);
    assert_eq!((o, l), ([h(2.5), h(6.25), h(4.0)], 2));
    let (o, l) = run_spec(&[
        (0, h(-300.5).to_ne_bytes().to_vec()),
        (1, 0.1f32.to_ne_bytes().to_vec()),
    ]);
    // -300.5 * -300.5 overflows half; half(0.1f) + -300.5 rounds once more.
    let want = [h(-300.5), 0x7c00, h(rte(f64::from(0.1f32)) - 300.5)];
    assert_eq!(o, want, "{o:x?} want {want:x?}");
    assert_eq!(l, -300);
}

/// Program-scope half variables (a __constant table, a __global half the
/// kernel updates) and a function on half vectors.
#[test]
fn program_scope_variables_and_functions() {
    const N: usize = 64;
    let a = inputs(N, 37);
    let table = [1.0, -2.5, 65504.0, 2f64.powi(-24)];
    let h = |v: f64| to_half(v, Rounding::Rte);
    for opt in Opt::BOTH {
        let first = Kernel::new("fp16_core", opt, "program_scope");
        // The second launch (same program) sees acc * 3.
        let second = first.sibling("program_scope");
        for (launch, k, acc) in [(0, first, 0.75f64), (1, second, 2.25)] {
            let mut o = vec![0u16; 4 * N];
            // One work-item per launch: it reads acc before writing it.
            k.arg(Arg::input(&a)).arg(Arg::output(&mut o)).run(&[1], Some(&[1]));
            let x = from_half(a[0]);
            let want = [
                h(table[0] * x),
                h(acc + x),
                h(rte(x * 2.0) + acc),
                h(rte(table[0] * 2.0) + acc),
            ];
            for (r, w) in want.iter().enumerate() {
                assert!(
                    same_half(o[r], *w),
                    "{opt:?} launch {launch} result {r}: {:#x} want {w:#x}",
                    o[r]
                );
            }
        }
        // Every table entry, in one launch of a fresh program.
        let mut o = vec![0u16; 4 * N];
        Kernel::new("fp16_core", opt, "program_scope")
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut o))
            .run(&[N], Some(&[16]));
        for i in 0..N {
            let want = h(table[i % 4] * from_half(a[i]));
            assert!(
                same_half(o[i], want),
                "{opt:?} table[{}] * {:e}: {:#x} want {want:#x}",
                i % 4,
                from_half(a[i]),
                o[i]
            );
            // acc is updated only by launches of one work-item, so every
            // work-item of this one reads its initial value.
            let want = h(0.75 + from_half(a[i]));
            assert!(
                same_half(o[N + i], want),
                "{opt:?} acc + a[{i}]: {:#x} want {want:#x}",
                o[N + i]
            );
        }
    }
}
