//! OpenCL C that clang-15 -O2 turns into LLVM IR llvm-spirv 15 cannot
//! translate (or translates into a module OpenCL does not allow), built
//! from source through the loader: each program builds, its log names the
//! workaround clift used, and its results match the host's. Without the
//! workarounds each of these programs fails to build.

use clift_conformance::exec::{Arg, Kernel};

/// Kernel `name` of `src` built with `options`; panics with the log if the
/// build fails or the log does not name `workaround`.
fn built<'a>(src: &str, name: &str, options: &str, workaround: &str) -> Kernel<'a> {
    let k = Kernel::with_source(src, name, options).unwrap_or_else(|log| panic!("{name} does not build:\n{log}"));
    let log = k.build_log();
    assert!(
        log.contains(workaround),
        "{name}: the log does not name the workaround {workaround:?}:\n{log}"
    );
    assert!(
        !log.contains("rebuilt at -O0"),
        "{name}: a targeted workaround, not -O0:\n{log}"
    );
    k
}

/// Deterministic test values: edge cases first, then a simple generator.
fn values(n: usize, edges: &[u64]) -> Vec<u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut v: Vec<u64> = edges.to_vec();
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(x);
    }
    v.truncate(n);
    v
}

const N: usize = 64;

#[test]
fn switch_on_a_remainder_keeps_its_integer_width() {
    // InstCombine narrows `x % 3` to `i2` for the switch: InvalidBitWidth.
    let src = "kernel void k(global int *out, global const uint *in) {\n\
               size_t i = get_global_id(0); uint x = in[i]; int r;\n\
               switch (x % 3) { case 0: r = (int)(x * 7u); break; case 1: r = (int)(x + 20u); break;\n\
               default: r = (int)(x ^ 5u); }\n\
               out[i] = r; }\n\
               kernel void sel(global int *out, global const uint *in) {\n\
               size_t i = get_global_id(0); uint x = in[i] & 3;\n\
               out[i] = x == 1 ? 5 : (x == 2 ? 9 : (x == 3 ? 11 : 13)); }";
    let input: Vec<u32> = values(N, &[0, 1, 2, 3, u32::MAX as u64])
        .iter()
        .map(|&v| v as u32)
        .collect();
    for (name, want) in [
        (
            "k",
            input
                .iter()
                .map(|&x| match x % 3 {
                    0 => x.wrapping_mul(7) as i32,
                    1 => x.wrapping_add(20) as i32,
                    _ => (x ^ 5) as i32,
                })
                .collect::<Vec<i32>>(),
        ),
        ("sel", input.iter().map(|&x| [13, 5, 9, 11][(x & 3) as usize]).collect()),
    ] {
        let mut out = vec![0i32; N];
        built(src, name, "", "integers of 2 bits")
            .arg(Arg::output(&mut out))
            .arg(Arg::input(&input))
            .run(&[N], None);
        assert_eq!(out, want, "{name}");
    }
}

#[test]
fn loop_sums_are_not_computed_one_bit_wider() {
    // The exit value of a counted sum is n(n-1)/2 computed in i33 (i65 for
    // ulong, i17 for ushort); without exit values, the ushort loop
    // vectorizes into llvm.vector.reduce.add, which needs the vectorizer
    // left out too.
    let src = "kernel void k(global uint *o32, global ulong *o64, global ushort *o16, global int *tri,\n\
               global const uint *n) {\n\
               size_t g = get_global_id(0); uint m = n[g];\n\
               uint s = 0; for (uint i = 0; i < m; i++) s += i; o32[g] = s;\n\
               ulong t = 0; for (ulong i = 0; i < (ulong)m * 3; i++) t += i * 3 + 1; o64[g] = t;\n\
               ushort u = 0; for (ushort i = 0; i < (ushort)m; i++) u += i; o16[g] = u;\n\
               int c = 0; for (int i = 0; i < (int)(m & 255); i++) for (int j = 0; j < i; j++) c++; tri[g] = c; }";
    let n: Vec<u32> = values(N, &[0, 1, 2, 3, 65535, 65536, 100_000])
        .iter()
        .map(|&v| (v % 200_000) as u32)
        .collect();
    let (mut o32, mut o64, mut o16, mut tri) = (vec![0u32; N], vec![0u64; N], vec![0u16; N], vec![0i32; N]);
    let k = built(
        src,
        "k",
        "",
        "rebuilt at -O2 with 8-, 16-, 32- and 64-bit integers declared native",
    );
    let log = k.build_log();
    assert!(log.contains("integers of 17, 33, 65 bits"), "{log}");
    assert!(log.contains("without the loop and SLP vectorizers"), "{log}");
    k.arg(Arg::output(&mut o32))
        .arg(Arg::output(&mut o64))
        .arg(Arg::output(&mut o16))
        .arg(Arg::output(&mut tri))
        .arg(Arg::input(&n))
        .run(&[N], None);
    for (g, &m) in n.iter().enumerate() {
        let s = (0..m).fold(0u32, |s, i| s.wrapping_add(i));
        let t = (0..u64::from(m) * 3).fold(0u64, |t, i| t.wrapping_add(i.wrapping_mul(3).wrapping_add(1)));
        let u = (0..m as u16).fold(0u16, |u, i| u.wrapping_add(i));
        let c = (0..(m & 255) as i32).map(|i| i.max(0)).sum::<i32>();
        assert_eq!((o32[g], o64[g], o16[g], tri[g]), (s, t, u, c), "n = {m}");
    }
}

#[test]
fn short_sums_are_not_vectorized_into_reductions() {
    let src = "kernel void k(global ushort *out, global const ushort *in, int n) {\n\
               ushort s = 0; for (int i = 0; i < n; i++) s += in[i]; out[get_global_id(0)] = s; }";
    let input: Vec<u16> = values(1000, &[0xffff, 0xfffe, 1]).iter().map(|&v| v as u16).collect();
    for n in [0usize, 1, 7, 8, 999, 1000] {
        let mut out = vec![0u16; 2];
        built(src, "k", "", "without the loop and SLP vectorizers")
            .arg(Arg::output(&mut out))
            .arg(Arg::input(&input))
            .arg(Arg::value(n as i32))
            .run(&[2], None);
        let want = input[..n].iter().fold(0u16, |s, &x| s.wrapping_add(x));
        assert_eq!(out, [want, want], "n = {n}");
    }
}

#[test]
fn clamped_sums_and_differences_saturate() {
    // InstCombine turns these into llvm.uadd.sat, llvm.ssub.sat and
    // llvm.sadd.sat (on i8, which stops llvm-spirv with an assertion).
    let src = "kernel void k(global uint *u32, global const uint *a32, global short *s16, global const short *a16,\n\
               global char *s8, global const char *a8, global uchar *u8, global const uchar *b8,\n\
               global ulong *u64, global const ulong *a64) {\n\
               size_t i = get_global_id(0);\n\
               uint s = a32[2*i] + a32[2*i+1]; u32[i] = s < a32[2*i] ? 0xffffffffu : s;\n\
               int d = (int)a16[2*i] - (int)a16[2*i+1]; s16[i] = (short)(d > 32767 ? 32767 : (d < -32768 ? -32768 : d));\n\
               int e = (int)a8[2*i] + (int)a8[2*i+1]; s8[i] = (char)(e > 127 ? 127 : (e < -128 ? -128 : e));\n\
               int f = (int)b8[2*i] - (int)b8[2*i+1]; u8[i] = (uchar)(f < 0 ? 0 : f);\n\
               ulong t = a64[2*i] + a64[2*i+1]; u64[i] = t < a64[2*i] ? 0xfffffffffffffffful : t; }";
    let v = values(
        2 * N,
        &[
            0,
            u64::MAX,
            1,
            u64::MAX - 1,
            0x8000_0000_0000_0000,
            0x7fff_ffff_ffff_ffff,
        ],
    );
    let a32: Vec<u32> = v.iter().map(|&x| x as u32).collect();
    let a16: Vec<i16> = v.iter().map(|&x| x as i16).collect();
    let a8: Vec<i8> = v.iter().map(|&x| x as i8).collect();
    let b8: Vec<u8> = v.iter().map(|&x| (x >> 8) as u8).collect();
    let (mut u32o, mut s16o, mut s8o, mut u8o, mut u64o) =
        (vec![0u32; N], vec![0i16; N], vec![0i8; N], vec![0u8; N], vec![0u64; N]);
    built(src, "k", "", "calls replaced by OpenCL add_sat and sub_sat")
        .arg(Arg::output(&mut u32o))
        .arg(Arg::input(&a32))
        .arg(Arg::output(&mut s16o))
        .arg(Arg::input(&a16))
        .arg(Arg::output(&mut s8o))
        .arg(Arg::input(&a8))
        .arg(Arg::output(&mut u8o))
        .arg(Arg::input(&b8))
        .arg(Arg::output(&mut u64o))
        .arg(Arg::input(&v))
        .run(&[N], None);
    for i in 0..N {
        let (j, k) = (2 * i, 2 * i + 1);
        assert_eq!(u32o[i], a32[j].saturating_add(a32[k]), "uint {i}");
        assert_eq!(s16o[i], a16[j].saturating_sub(a16[k]), "short {i}");
        assert_eq!(s8o[i], a8[j].saturating_add(a8[k]), "char {i}");
        assert_eq!(u8o[i], b8[j].saturating_sub(b8[k]), "uchar {i}");
        assert_eq!(u64o[i], v[j].saturating_add(v[k]), "ulong {i}");
    }
}

#[test]
fn shift_and_mask_bit_reversal_stays_opencl() {
    // InstCombine recognises these as llvm.bitreverse, which llvm-spirv
    // writes as OpBitReverse under the Shader capability.
    let src = "uchar r8(uchar v) { v = (uchar)(((v >> 1) & 0x55) | ((v & 0x55) << 1));\n\
               v = (uchar)(((v >> 2) & 0x33) | ((v & 0x33) << 2)); return (uchar)((v >> 4) | (v << 4)); }\n\
               ushort r16(ushort v) { v = ((v >> 1) & 0x5555) | ((v & 0x5555) << 1); v = ((v >> 2) & 0x3333) | ((v & 0x3333) << 2);\n\
               v = ((v >> 4) & 0x0F0F) | ((v & 0x0F0F) << 4); return (ushort)((v >> 8) | (v << 8)); }\n\
               uint4 r32(uint4 v) { v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);\n\
               v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2); v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);\n\
               v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8); return (v >> 16) | (v << 16); }\n\
               ulong r64(ulong v) { v = ((v >> 1) & 0x5555555555555555ul) | ((v & 0x5555555555555555ul) << 1);\n\
               v = ((v >> 2) & 0x3333333333333333ul) | ((v & 0x3333333333333333ul) << 2);\n\
               v = ((v >> 4) & 0x0F0F0F0F0F0F0F0Ful) | ((v & 0x0F0F0F0F0F0F0F0Ful) << 4);\n\
               v = ((v >> 8) & 0x00FF00FF00FF00FFul) | ((v & 0x00FF00FF00FF00FFul) << 8);\n\
               v = ((v >> 16) & 0x0000FFFF0000FFFFul) | ((v & 0x0000FFFF0000FFFFul) << 16); return (v >> 32) | (v << 32); }\n\
               kernel void k(global uchar *a, global ushort *b, global uint4 *c, global ulong *d) {\n\
               size_t i = get_global_id(0); a[i] = r8(a[i]); b[i] = r16(b[i]); c[i] = r32(c[i]); d[i] = r64(d[i]); }";
    let v = values(4 * N, &[0, u64::MAX, 1, 0x8000_0000_0000_0000]);
    let mut a: Vec<u8> = v[..N].iter().map(|&x| x as u8).collect();
    let mut b: Vec<u16> = v[..N].iter().map(|&x| x as u16).collect();
    let mut c: Vec<u32> = v.iter().map(|&x| x as u32).collect();
    let mut d: Vec<u64> = v[..N].to_vec();
    let (a0, b0, c0, d0) = (a.clone(), b.clone(), c.clone(), d.clone());
    built(src, "k", "", "calls replaced by a shift-and-mask function")
        .arg(Arg::output(&mut a))
        .arg(Arg::output(&mut b))
        .arg(Arg::output(&mut c))
        .arg(Arg::output(&mut d))
        .run(&[N], None);
    assert_eq!(a, a0.iter().map(|x| x.reverse_bits()).collect::<Vec<_>>());
    assert_eq!(b, b0.iter().map(|x| x.reverse_bits()).collect::<Vec<_>>());
    assert_eq!(c, c0.iter().map(|x| x.reverse_bits()).collect::<Vec<_>>());
    assert_eq!(d, d0.iter().map(|x| x.reverse_bits()).collect::<Vec<_>>());
}

#[test]
fn workarounds_hold_at_every_optimisation_level() {
    // -O1, -O3, -Os and -Oz run their own pipelines; -O0 needs none.
    let src = "kernel void k(global int *out, global const uint *in) {\n\
               size_t i = get_global_id(0); uint x = in[i]; int r;\n\
               switch (x % 3) { case 0: r = 11; break; case 1: r = (int)x; break; default: r = -(int)x; }\n\
               uint s = x + 7u; out[i] = r + (int)(s < x ? 0xffffffffu : s); }";
    let input: Vec<u32> = values(N, &[0, 1, 2, 0xffff_ffff, 0xffff_fff9])
        .iter()
        .map(|&v| v as u32)
        .collect();
    let want: Vec<i32> = input
        .iter()
        .map(|&x| {
            let r = match x % 3 {
                0 => 11,
                1 => x as i32,
                _ => (x as i32).wrapping_neg(),
            };
            r.wrapping_add(x.saturating_add(7) as i32)
        })
        .collect();
    for level in ["-O1", "-O3", "-Os", "-Oz", "-O0"] {
        let mut out = vec![0i32; N];
        let k = Kernel::with_source(src, "k", level).unwrap_or_else(|log| panic!("{level}:\n{log}"));
        let log = k.build_log();
        if level == "-O0" {
            assert!(!log.contains("clift:"), "{log}");
        } else {
            assert!(log.contains(&format!("rebuilt at {level}")), "{level}:\n{log}");
        }
        k.arg(Arg::output(&mut out)).arg(Arg::input(&input)).run(&[N], None);
        assert_eq!(out, want, "{level}");
    }
}

#[test]
fn overflow_builtins_report_results_and_overflow() {
    // clang's __builtin_*_overflow become llvm.*.with.overflow at every
    // level; llvm-spirv 15 translates only the unsigned multiply (and stops
    // on the signed 8-bit add with an assertion).
    let src = "kernel void k(global int *res, global int *flags, global const int *in, global const char *c,\n\
               global long *lres, global const long *l) {\n\
               size_t i = get_global_id(0); int a = in[2*i], b = in[2*i+1]; int r; uint u; char cr; long lr;\n\
               int f = __builtin_add_overflow(a, b, &r); res[6*i] = r;\n\
               f |= __builtin_sub_overflow(a, b, &r) << 1; res[6*i+1] = r;\n\
               f |= __builtin_mul_overflow(a, b, &r) << 2; res[6*i+2] = r;\n\
               f |= __builtin_add_overflow((uint)a, (uint)b, &u) << 3; res[6*i+3] = (int)u;\n\
               f |= __builtin_sub_overflow((uint)a, (uint)b, &u) << 4; res[6*i+4] = (int)u;\n\
               f |= __builtin_add_overflow(c[2*i], c[2*i+1], &cr) << 5; res[6*i+5] = cr;\n\
               f |= __builtin_mul_overflow(l[2*i], l[2*i+1], &lr) << 6; lres[i] = lr;\n\
               flags[i] = f; }";
    let v = values(
        2 * N,
        &[
            0,
            1,
            0x7fff_ffff,
            1,
            0x8000_0000,
            0xffff_ffff,
            0x4000_0000,
            2,
            0x7f,
            0x7f,
            0x8000_0000_0000_0000,
            0xffff_ffff_ffff_ffff,
        ],
    );
    let ints: Vec<i32> = v.iter().map(|&x| x as i32).collect();
    let chars: Vec<i8> = v.iter().map(|&x| x as i8).collect();
    let longs: Vec<i64> = v.iter().map(|&x| (x as i64) >> (x % 40)).collect();
    for level in ["", "-O0", "-O3"] {
        let (mut res, mut flags, mut lres) = (vec![0i32; 6 * N], vec![0i32; N], vec![0i64; N]);
        built(
            src,
            "k",
            level,
            "calls replaced by functions computing the result and the overflow",
        )
        .arg(Arg::output(&mut res))
        .arg(Arg::output(&mut flags))
        .arg(Arg::input(&ints))
        .arg(Arg::input(&chars))
        .arg(Arg::output(&mut lres))
        .arg(Arg::input(&longs))
        .run(&[N], None);
        for i in 0..N {
            let (a, b) = (ints[2 * i], ints[2 * i + 1]);
            let (ua, ub) = (a as u32, b as u32);
            let (c, d) = (chars[2 * i], chars[2 * i + 1]);
            let (la, lb) = (longs[2 * i], longs[2 * i + 1]);
            let r = [
                a.overflowing_add(b),
                a.overflowing_sub(b),
                a.overflowing_mul(b),
                (ua.overflowing_add(ub).0 as i32, ua.overflowing_add(ub).1),
                (ua.overflowing_sub(ub).0 as i32, ua.overflowing_sub(ub).1),
                (i32::from(c.overflowing_add(d).0), c.overflowing_add(d).1),
            ];
            let want_flags = r.iter().enumerate().fold(0, |f, (k, (_, o))| f | (i32::from(*o) << k))
                | (i32::from(la.overflowing_mul(lb).1) << 6);
            assert_eq!(&res[6 * i..6 * i + 6], r.map(|(x, _)| x), "{level} {i}: results");
            assert_eq!(lres[i], la.overflowing_mul(lb).0, "{level} {i}: long product");
            assert_eq!(flags[i], want_flags, "{level} {i}: overflow flags");
        }
    }
}

/// `x` rounded toward zero to a float (the host rounds to nearest).
fn f32_rtz(x: f64) -> f32 {
    let f = x as f32;
    if f.is_infinite() {
        f32::MAX.copysign(f)
    } else if (f as f64).abs() > x.abs() {
        f32::from_bits(f.to_bits() - 1)
    } else {
        f
    }
}

#[test]
fn conversions_carried_around_loops_keep_their_rounding_and_saturation() {
    // At -O2 each loop's phi uses the conversion's result before its
    // definition: llvm-spirv 15 decorates another id (FPRoundingMode,
    // SaturatedConversion) and leaves the conversion undecorated, a module
    // clift must refuse.
    let src = "kernel void k(global int *oi, global float *of, global ulong *ou, global int *o4,\n\
               global const float *f, global const double *d, int n) {\n\
               size_t g = get_global_id(0) * (n + 1);\n\
               int a = 0; float b = 0.0f; ulong c = 0; int4 v = 0;\n\
               for (int i = 0; i < n; i++) {\n\
               oi[g + i] = a; of[g + i] = b; ou[g + i] = c; vstore4(v, g + i, o4);\n\
               a = convert_int_rte(f[g + i]); b = convert_float_rtz(d[g + i]);\n\
               c = convert_ulong_sat(f[g + i] * 1.0e10f); v = convert_int4_sat_rtn(vload4(g + i, f) * 1.0e3f); }\n\
               oi[g + n] = a; of[g + n] = b; ou[g + n] = c; vstore4(v, g + n, o4); }";
    const ITEMS: usize = 16;
    const STEPS: usize = 7;
    let len = ITEMS * (STEPS + 1);
    // NaN and infinity for the saturated conversions; other floats within
    // int range (the unsaturated conversion's result is undefined past it).
    let f: Vec<f32> = values(
        4 * len,
        &[0x3fc0_0000, 0x4020_0000, 0xbfc0_0000, 0x7fc0_0000, 0x7f80_0000],
    )
    .iter()
    .map(|&b| {
        let x = f32::from_bits(b as u32);
        if x.is_finite() {
            x % 1.0e6
        } else {
            x
        }
    })
    .collect();
    // Finite doubles, halfway cases, subnormal floats and values past
    // FLT_MAX among them.
    let d: Vec<f64> = values(
        len,
        &[
            0.1f64.to_bits(),
            (-0.1f64).to_bits(),
            1e300f64.to_bits(),
            1e-40f64.to_bits(),
        ],
    )
    .iter()
    .map(|&b| {
        let x = f64::from_bits(b);
        if x.is_finite() {
            x
        } else {
            0.25
        }
    })
    .collect();
    let (mut oi, mut of, mut ou, mut o4) = (vec![0i32; len], vec![0f32; len], vec![0u64; len], vec![0i32; 4 * len]);
    built(src, "k", "-O2", "made through functions of the module")
        .arg(Arg::output(&mut oi))
        .arg(Arg::output(&mut of))
        .arg(Arg::output(&mut ou))
        .arg(Arg::output(&mut o4))
        .arg(Arg::input(&f))
        .arg(Arg::input(&d))
        .arg(Arg::value(STEPS as i32))
        .run(&[ITEMS], None);
    for g in 0..ITEMS {
        for i in 0..=STEPS {
            let at = g * (STEPS + 1) + i;
            let what = format!("work-item {g} step {i}");
            let Some(p) = i.checked_sub(1).map(|i| g * (STEPS + 1) + i) else {
                assert_eq!((oi[at], of[at].to_bits(), ou[at]), (0, 0, 0), "{what}");
                assert_eq!(o4[4 * at..4 * at + 4], [0; 4], "{what}");
                continue;
            };
            if f[p].is_finite() {
                assert_eq!(
                    oi[at],
                    f[p].round_ties_even() as i32,
                    "convert_int_rte({}), {what}",
                    f[p]
                );
            }
            assert_eq!(
                of[at].to_bits(),
                f32_rtz(d[p]).to_bits(),
                "convert_float_rtz({:e}), {what}",
                d[p]
            );
            assert_eq!(
                ou[at],
                (f[p] * 1.0e10f32) as u64,
                "convert_ulong_sat({}), {what}",
                f[p] * 1.0e10
            );
            let v4: Vec<i32> = (0..4).map(|l| (f[4 * p + l] * 1.0e3f32).floor() as i32).collect();
            assert_eq!(o4[4 * at..4 * at + 4], v4[..], "convert_int4_sat_rtn, {what}");
        }
    }
}

#[test]
fn as_type_of_constants_builds_at_o0() {
    // At -O0 clang writes `as_uchar2((ushort)3271)` as `bitcast (<1 x i16>
    // <i16 3271> to <2 x i8>)`; an assertion stops llvm-spirv 15 on the
    // one-component vector. The folded constants keep every bit (a
    // signalling NaN's too).
    let src = "kernel void k(global uchar2 *a, global char4 *b, global half2 *c, global uchar8 *d,\n\
               global short2 *e, global float2 *f, global uint2 *g) {\n\
               a[0] = as_uchar2((ushort)3271); b[0] = as_char4(-123456); c[0] = as_half2(0x3c004000u);\n\
               d[0] = as_uchar8(1.5); e[0] = as_short2(as_float(0x7fa00001u));\n\
               f[0] = as_float2(0xc0000000ff800001ul); g[0] = as_uint2(0ul); }";
    let (mut a, mut b, mut c, mut d) = ([0u8; 2], [0i8; 4], [0u16; 2], [0u8; 8]);
    let (mut e, mut f, mut g) = ([0i16; 2], [0u32; 2], [7u32; 2]);
    let k = built(src, "k", "-O0", "folded to the constants they make");
    k.arg(Arg::output(&mut a))
        .arg(Arg::output(&mut b))
        .arg(Arg::output(&mut c))
        .arg(Arg::output(&mut d))
        .arg(Arg::output(&mut e))
        .arg(Arg::output(&mut f))
        .arg(Arg::output(&mut g))
        .run(&[1], None);
    assert_eq!(a, 3271u16.to_le_bytes());
    assert_eq!(b, (-123456i32).to_le_bytes().map(|x| x as i8));
    assert_eq!(c, [0x4000, 0x3c00]);
    assert_eq!(d, 1.5f64.to_le_bytes());
    assert_eq!(e, [0x0001, 0x7fa0]);
    assert_eq!(f, [0xff80_0001, 0xc000_0000]);
    assert_eq!(g, [0, 0]);
}

#[test]
fn as_type_of_constants_inside_other_constants_builds_at_o0() {
    // `-as_float8(c)` becomes `fneg (extractelement (bitcast (<16 x i16>
    // ...)))` per lane (an assertion stops llvm-spirv 15); `as_ulong(c)`
    // inside a vector literal becomes a bitcast inside the vector constant,
    // which llvm-spirv 15 writes before the constant it is made of (an
    // invalid module).
    let src = "kernel void k(global float8 *a, global ulong4 *b, global const ulong *in) {\n\
               a[0] = -as_float8((short16)(short)0x7fa0);\n\
               ulong2 x = vload2(0, in);\n\
               b[0] = (ulong4)(as_ulong((short4)(short)-3), x, in[2]); }";
    let (mut a, mut b) = ([0u32; 8], [0u64; 4]);
    let input = [0x1234_5678_9abc_def0u64, 7, u64::MAX];
    built(src, "k", "-O0", "folded to the constants they make")
        .arg(Arg::output(&mut a))
        .arg(Arg::output(&mut b))
        .arg(Arg::input(&input))
        .run(&[1], None);
    // A signalling NaN in every lane: negation flips the sign bit only.
    assert_eq!(a, [0xffa0_7fa0; 8]);
    assert_eq!(b, [0xfffd_fffd_fffd_fffd, input[0], input[1], input[2]]);
}

/// OpenCL C's `a / b` with the divisor's zero (and the overflowing
/// `MIN / -1`) lanes replaced by 1, as the kernel below computes it.
fn safe_div(a: i32, b: i32) -> i32 {
    if b == 0 || (a == i32::MIN && b == -1) {
        a
    } else {
        a / b
    }
}

#[test]
fn freeze_left_by_instcombine_becomes_a_no_op() {
    // InstCombine (not div-rem-pairs) makes a `freeze` of the masked
    // divisor of the inner divisions; leaving out div-rem-pairs does not
    // remove it.
    let src = "static int16 div_int16(int16 a, int16 b) {\n\
               int16 c = as_int16((b == (int16)0) | ((a == (int16)(-2147483647-1)) & (b == (int16)(-1))));\n\
               return a / ((b & ~c) | (c & (int16)1)); }\n\
               kernel void k(global int16 *o, global const int *in) {\n\
               size_t i = get_global_id(0);\n\
               int16 q = div_int16((int16)((int)i), (int16)(31, 31, 2147483647, -1249254383, -2147483647-1, 2147483647,\n\
               15, 2147483647, 3, -2147483647-1, 2147483647, 2147483647, 0, -809504280, 6, 1));\n\
               o[i] = div_int16((int16)(in[i]), div_int16((int16)1, q)); }";
    let d: [i32; 16] = [
        31,
        31,
        i32::MAX,
        -1_249_254_383,
        i32::MIN,
        i32::MAX,
        15,
        i32::MAX,
        3,
        i32::MIN,
        i32::MAX,
        i32::MAX,
        0,
        -809_504_280,
        6,
        1,
    ];
    let input: Vec<i32> = values(N, &[0, 1, 0x8000_0000, 0xffff_ffff, 7])
        .iter()
        .map(|&v| v as i32)
        .collect();
    let mut out = vec![0i32; 16 * N];
    built(src, "k", "-O2", "written as a no-op cast")
        .arg(Arg::output(&mut out))
        .arg(Arg::input(&input))
        .run(&[N], None);
    for i in 0..N {
        for l in 0..16 {
            let q = safe_div(i as i32, d[l]);
            let want = safe_div(input[i], safe_div(1, q));
            assert_eq!(out[16 * i + l], want, "work-item {i} lane {l}");
        }
    }
}

#[test]
fn what_clift_does_not_support_is_reported_by_the_build_not_blamed_on_the_translator() {
    // Only modules that refer to ids they never define count as failed
    // translations; a program clift refuses (recursion, which OpenCL C
    // does not allow but clang-15 compiles) builds its module once and the
    // build log names the instruction and the rule.
    let src = "int f(int n) { return n < 2 ? n : f(n - 1) * 3 + f(n - 2); }\n\
               kernel void k(global int *out) { out[get_global_id(0)] = f(out[0]); }";
    let log = match Kernel::with_source(src, "k", "-cl-std=CL2.0") {
        Ok(_) => panic!("a recursive program built"),
        Err(log) => log,
    };
    assert!(log.contains("recursion is not supported"), "{log}");
    assert!(!log.contains("rebuilt at -O0") && !log.contains("llvm-spirv"), "{log}");
}

#[test]
fn comparisons_converted_to_floating_point_keep_their_sign() {
    // InstCombine makes `sitofp i1` (true is -1) of each `(T)(c ? -1 : 0)`:
    // scalar (float, half, double, in a loop too) and, after the SLP
    // vectorizer, `sitofp <4 x i1>`. llvm-spirv 15 translates it as a
    // select of 1 and 0 then a signed conversion: +1 for true.
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
               #pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
               kernel void k(global float *f, global float4 *f4, global double *d, global half *h,\n\
               global float *loop, global const int4 *a) {\n\
               size_t i = get_global_id(0); int4 x = a[i];\n\
               f[i] = (float)(x.x != 0 ? -1 : 0);\n\
               float4 r; r.x = (float)(x.x > 3 ? -1 : 0); r.y = (float)(x.y > 3 ? -1 : 0);\n\
               r.z = (float)(x.z > 3 ? -1 : 0); r.w = (float)(x.w > 3 ? -1 : 0); f4[i] = r;\n\
               d[i] = (double)(x.y < 0 ? -1 : 0);\n\
               vstore_half((float)(half)(x.z > 5 ? -1 : 0), i, h);\n\
               if (i == 0) for (int j = 0; j < 64; j++) loop[j] = (float)(a[j].w > 3 ? -1 : 0); }";
    let input: Vec<i32> = values(4 * N, &[0, 1, 4, 3, 0xffff_ffff, 6, 0x8000_0000, 9])
        .iter()
        .map(|&v| (v as i32) % 9)
        .collect();
    let mut f = vec![7f32; N];
    let mut f4 = vec![7f32; 4 * N];
    let mut d = vec![7f64; N];
    let mut h = vec![0x4700u16; N];
    let mut loop_out = vec![7f32; 64];
    for options in ["-O1", "-O2", "-O3"] {
        built(src, "k", options, "mistranslates conversions of i1 values")
            .arg(Arg::output(&mut f))
            .arg(Arg::output(&mut f4))
            .arg(Arg::output(&mut d))
            .arg(Arg::output(&mut h))
            .arg(Arg::output(&mut loop_out))
            .arg(Arg::input(&input))
            .run(&[N], None);
        let m1 = |c: bool| if c { -1.0f32 } else { 0.0 };
        for i in 0..N {
            let x = &input[4 * i..4 * i + 4];
            assert_eq!(f[i].to_bits(), m1(x[0] != 0).to_bits(), "{options} f[{i}]");
            for l in 0..4 {
                assert_eq!(f4[4 * i + l].to_bits(), m1(x[l] > 3).to_bits(), "{options} f4[{i}].{l}");
            }
            assert_eq!(d[i].to_bits(), (m1(x[1] < 0) as f64).to_bits(), "{options} d[{i}]");
            assert_eq!(h[i], if x[2] > 5 { 0xbc00 } else { 0 }, "{options} h[{i}]");
        }
        for j in 0..64 {
            assert_eq!(
                loop_out[j].to_bits(),
                m1(input[4 * j + 3] > 3).to_bits(),
                "{options} loop[{j}]"
            );
        }
    }
}

#[test]
fn as_type_of_a_vector_constant_to_a_scalar_inside_a_vector_literal_runs_at_o0() {
    // llvm-spirv 15 translates this one (no workaround): an OpSpecConstantOp
    // Bitcast from four lanes to one, inside an OpConstantComposite, which
    // clift's constant folding once refused for its lane count (the kernel
    // built but could not run; seed 205440).
    let src = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
               kernel void k(global double2 *a) { a[0] = (double2)(0.5, as_double((short4)15)); }";
    let k = Kernel::with_source(src, "k", "-O0").unwrap_or_else(|log| panic!("{log}"));
    assert!(!k.build_log().contains("clift:"), "{}", k.build_log());
    let mut a = [0u64; 2];
    k.arg(Arg::output(&mut a)).run(&[1], None);
    assert_eq!(a, [0.5f64.to_bits(), 0x000f_000f_000f_000f]);
}

#[test]
fn a_comparison_mask_reinterpreted_as_an_integer_is_tested_whole() {
    // `as_long(char8 comparison) != 0` becomes `bitcast <8 x i1> %c to i8`
    // under InstCombine, which llvm-spirv 15 writes as an OpBitcast of a
    // boolean vector (a module clift refused; seed 315439): the workaround
    // computes the mask with integer vectors. The 4-lane form becomes
    // `i4`, an odd width, which is rebuilt at -O0 (program `src4`).
    let src = "kernel void k(global int *out, global const char8 *a, global const short8 *c,\n\
               global const char16 *d) {\n\
               size_t i = get_global_id(0); int r = 0;\n\
               if (as_long(a[i] <= (char8)(14, -128, 1, 0, 7, 98, 127, -90))) r |= 1;\n\
               if (as_long2(c[i] == (short8)(5)).x | as_long2(c[i] == (short8)(5)).y) r |= 4;\n\
               if (as_long2(d[i] != (char16)(0)).x == -1L) r |= 8;\n\
               if (as_long2(d[i] < (char16)(-5)).y == 0) r |= 16;\n\
               out[i] = r; }";
    let src4 = "kernel void k4(global int *out, global const char4 *b) {\n\
                size_t i = get_global_id(0); out[i] = as_int(b[i] > (char4)(3)) ? 2 : 0; }";
    let raw = values(16 * N, &[0, 0x8080_8080_8080_8080, u64::MAX, 0x0505_0505_0505_0505, 3]);
    let bytes: Vec<i8> = raw.iter().flat_map(|v| v.to_le_bytes()).map(|b| b as i8).collect();
    let a: Vec<i8> = bytes[..8 * N].to_vec();
    let b: Vec<i8> = bytes[8 * N..12 * N].to_vec();
    let c: Vec<i16> = bytes[..16 * N]
        .chunks(2)
        .map(|p| i16::from_le_bytes([p[0] as u8, p[1] as u8]) % 7)
        .collect();
    let d: Vec<i8> = bytes[16 * N..32 * N].iter().map(|&x| x % 3).collect();
    let lim: [i8; 8] = [14, -128, 1, 0, 7, 98, 127, -90];
    let want: Vec<i32> = (0..N)
        .map(|i| {
            let mut r = 0;
            if (0..8).any(|l| a[8 * i + l] <= lim[l]) {
                r |= 1;
            }
            if (0..8).any(|l| c[8 * i + l] == 5) {
                r |= 4;
            }
            if (0..8).all(|l| d[16 * i + l] != 0) {
                r |= 8;
            }
            if (8..16).all(|l| d[16 * i + l] >= -5) {
                r |= 16;
            }
            r
        })
        .collect();
    let want4: Vec<i32> = (0..N)
        .map(|i| if (0..4).any(|l| b[4 * i + l] > 3) { 2 } else { 0 })
        .collect();
    for options in ["-O2", "-O1"] {
        let mut out = vec![-1i32; N];
        built(src, "k", options, "mistranslates conversions of i1 values")
            .arg(Arg::output(&mut out))
            .arg(Arg::input(&a))
            .arg(Arg::input(&c))
            .arg(Arg::input(&d))
            .run(&[N], None);
        assert_eq!(out, want, "{options}");
        let mut out4 = vec![-1i32; N];
        Kernel::with_source(src4, "k4", options)
            .unwrap_or_else(|log| panic!("{options}: {log}"))
            .arg(Arg::output(&mut out4))
            .arg(Arg::input(&b))
            .run(&[N], None);
        assert_eq!(out4, want4, "{options}: k4");
    }
}
