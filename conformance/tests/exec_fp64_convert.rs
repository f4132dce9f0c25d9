//! Double conversions through the ICD loader (`kernels/cl/fp64_convert.cl`
//! at -O0 and -O2): double to every integer type with every rounding mode,
//! with and without saturation; every integer type to double with every
//! rounding mode (long and ulong round); double to float with every mode,
//! float to double; double to half through vstore_half(_r) with every mode
//! and vstore_half4; vector conversions. Every result must equal, bit for
//! bit, a reference computed here with exact integer arithmetic.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::half::{same_half, to_half, Rounding as Mode};
use clift_conformance::rng::Rng;

/// The modes of results 0..4 (the default of float to integer is rtz).
const TO_INT_MODES: [Mode; 5] = [Mode::Rtz, Mode::Rte, Mode::Rtz, Mode::Rtp, Mode::Rtn];
/// The modes of results 0..4 of integer to double (default rte).
const FROM_INT_MODES: [Mode; 5] = [Mode::Rte, Mode::Rte, Mode::Rtz, Mode::Rtp, Mode::Rtn];

/// (name, bits, signed) of the integer types.
const INTS: [(&str, u32, bool); 8] = [
    ("char", 8, true),
    ("uchar", 8, false),
    ("short", 16, true),
    ("ushort", 16, false),
    ("int", 32, true),
    ("uint", 32, false),
    ("long", 64, true),
    ("ulong", 64, false),
];

fn range(bits: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn round_f(x: f64, m: Mode) -> f64 {
    match m {
        Mode::Rte => x.round_ties_even(),
        Mode::Rtz => x.trunc(),
        Mode::Rtp => x.ceil(),
        Mode::Rtn => x.floor(),
    }
}

/// Inputs for double to integer: boundaries of every type, halves, ties,
/// specials and random values of every magnitude.
fn to_int_inputs() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        0.49999999999999994,
        -0.7,
        1e-310,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        -f64::MAX,
        9007199254740993.0,
        4503599627370497.5,
    ];
    for (_, bits, signed) in INTS {
        let (lo, hi) = range(bits, signed);
        for b in [lo as f64, hi as f64] {
            for d in [-1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0] {
                v.push(b + d);
            }
        }
    }
    for e in [63, 64] {
        let p = 2f64.powi(e);
        v.extend([p, -p, f64::from_bits(p.to_bits() - 1), -f64::from_bits(p.to_bits() - 1)]);
    }
    let mut rng = Rng(5u64);
    while v.len() < 512 {
        let s = rng.next_u64();
        let mag = 2f64.powi((s >> 58) as i32 + 1 - 4);
        let frac = (s >> 11 & 0xffff_ffff) as f64 / 2f64.powi(32);
        let sign = if s & 1 == 0 { 1.0 } else { -1.0 };
        v.push(sign * mag * (1.0 + frac));
    }
    v
}

#[test]
fn double_to_every_integer_type_every_mode() {
    let a = to_int_inputs();
    let n = a.len();
    for opt in Opt::BOTH {
        for (t, bits, signed) in INTS {
            let mut o = vec![0i64; 10 * n];
            Kernel::new("fp64_convert", opt, &format!("d_to_{t}"))
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .run(&[n], Some(&[16]));
            let (lo, hi) = range(bits, signed);
            for r in 0..10 {
                let (mode, sat) = (TO_INT_MODES[r % 5], r >= 5);
                for i in 0..n {
                    let x = a[i];
                    let rx = round_f(x, mode);
                    let want: i128 = if sat {
                        if x.is_nan() {
                            0
                        } else if rx <= lo as f64 {
                            lo
                        } else if rx >= hi as f64 {
                            hi
                        } else {
                            rx as i128
                        }
                    } else if x.is_nan() || rx < lo as f64 || rx >= (hi + 1) as f64 {
                        // Undefined without saturation.
                        continue;
                    } else {
                        rx as i128
                    };
                    // The kernel widened the result to long (ulong: its bits).
                    let want = want as i64;
                    assert_eq!(
                        o[r * n + i],
                        want,
                        "{opt:?} convert_{t}{}{} ({x:e} = {:#x})",
                        if sat { "_sat" } else { "" },
                        ["", "_rte", "_rtz", "_rtp", "_rtn"][r % 5],
                        x.to_bits()
                    );
                }
            }
        }
    }
}

/// The double nearest `v` in direction `mode`, from exact integer
/// arithmetic: the top 53 significant bits, rounded by the rest.
fn int_to_double(v: i128, mode: Mode) -> f64 {
    let neg = v < 0;
    let a = v.unsigned_abs();
    let len = 128 - a.leading_zeros();
    let mag = if len <= 53 {
        a as f64
    } else {
        let sh = len - 53;
        let (q, rem) = (a >> sh, a & ((1u128 << sh) - 1));
        let half = 1u128 << (sh - 1);
        let up = match mode {
            Mode::Rte => rem > half || (rem == half && q & 1 == 1),
            Mode::Rtz => false,
            Mode::Rtp => rem != 0 && !neg,
            Mode::Rtn => rem != 0 && neg,
        };
        // q + 1 may be 2^53: still exact, times a power of two.
        ((q + u128::from(up)) as f64) * 2f64.powi(sh as i32)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

#[test]
fn every_integer_type_to_double_every_mode() {
    let mut a: Vec<i64> = vec![
        0,
        1,
        -1,
        i64::MAX,
        i64::MIN,
        i64::MAX - 1,
        i64::MIN + 1,
        (1 << 53) + 1,
        (1 << 53) + 3,
        -(1 << 53) - 1,
        (1 << 54) + 2,
        (1 << 54) + 6,
        -1 - (1 << 60),
        0x7fff_ffff,
        -0x8000_0000,
        0xffff_ffff,
        0x7fff,
        0xff,
        0x80,
    ];
    let mut rng = Rng(3u64);
    while a.len() < 256 {
        let s = rng.next_u64();
        a.push((s >> (s & 31)) as i64 ^ ((s & 1) as i64).wrapping_neg());
    }
    let n = a.len();
    for opt in Opt::BOTH {
        for (t, bits, signed) in INTS {
            let mut o = vec![0f64; 5 * n];
            Kernel::new("fp64_convert", opt, &format!("from_{t}"))
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .run(&[n], Some(&[16]));
            for r in 0..5 {
                for i in 0..n {
                    let low = (a[i] as i128) & ((1i128 << bits) - 1);
                    let v = if signed && low >> (bits - 1) == 1 {
                        low - (1i128 << bits)
                    } else {
                        low
                    };
                    let want = int_to_double(v, FROM_INT_MODES[r]);
                    assert_eq!(
                        o[r * n + i].to_bits(),
                        want.to_bits(),
                        "{opt:?} convert_double{} of {t} {v}: got {} want {want}",
                        ["", "_rte", "_rtz", "_rtp", "_rtn"][r],
                        o[r * n + i]
                    );
                }
            }
        }
    }
}

/// The f32 neighbours of `x` (equal if x is a float) and the nearest-even
/// one.
fn f32_round(x: f64, mode: Mode) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let r = x as f32;
    let (lo, hi) = if f64::from(r) > x {
        (r.next_down(), r)
    } else if f64::from(r) < x {
        (r, r.next_up())
    } else {
        (r, r)
    };
    match mode {
        Mode::Rte => r,
        Mode::Rtp => hi,
        Mode::Rtn => lo,
        Mode::Rtz => {
            if x > 0.0 {
                lo
            } else {
                hi
            }
        }
    }
}

fn float_inputs() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.1,
        -0.1,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        -f64::MAX,
        f64::from(f32::MAX),
        f64::from(f32::MAX) * (1.0 + 2f64.powi(-25)),
        f64::from(f32::MAX) * (1.0 + 2f64.powi(-24)),
        -f64::from(f32::MAX) * (1.0 + 2f64.powi(-30)),
        1e-40,
        -1e-40,
        1e-46,
        -1e-46,
        1e-300,
        -1e-300,
        5e-324,
        1.0 + 2f64.powi(-24),
        1.0 + 3.0 * 2f64.powi(-24),
        65504.0,
        65519.99,
        65520.0,
        -65520.0,
        1e5,
        6.1e-5,
        5.96e-8,
        2.98e-8,
        2.9802322387695312e-8,
        -3e-8,
        1.00048828125,
        1.000732421875,
        1.0009765625,
        -1.00048828125,
    ];
    let mut rng = Rng(9u64);
    while v.len() < 512 {
        let s = rng.next_u64();
        // Exponents from 2^-160 to 2^140 around float's and half's ranges.
        let e = 1023 - 160 + (s >> 55) % 300;
        v.push(f64::from_bits((s & 0x800f_ffff_ffff_ffff) | (e << 52)));
    }
    v
}

#[test]
fn double_to_float_and_half_every_mode() {
    let a = float_inputs();
    let n = a.len();
    let modes = [Mode::Rte, Mode::Rte, Mode::Rtz, Mode::Rtp, Mode::Rtn];
    for opt in Opt::BOTH {
        let (mut of, mut od, mut oh) = (vec![0f32; 5 * n], vec![0f64; n], vec![0u16; 5 * n]);
        Kernel::new("fp64_convert", opt, "floats")
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut of))
            .arg(Arg::output(&mut od))
            .arg(Arg::output(&mut oh))
            .run(&[n], Some(&[16]));
        for (r, &mode) in modes.iter().enumerate() {
            for i in 0..n {
                let (got, want) = (of[r * n + i], f32_round(a[i], mode));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{opt:?} double {:e} ({:#x}) to float {mode:?}: got {got:e} want {want:e}",
                    a[i],
                    a[i].to_bits()
                );
                let (got, want) = (oh[r * n + i], to_half(a[i], mode));
                assert!(
                    same_half(got, want),
                    "{opt:?} vstore_half {mode:?} of {:e} ({:#x}): got {got:#06x} want {want:#06x}",
                    a[i],
                    a[i].to_bits()
                );
            }
        }
        for i in 0..n {
            let f = of[2 * n + i];
            assert!(
                od[i].to_bits() == f64::from(f).to_bits() || (f.is_nan() && od[i].is_nan()),
                "{opt:?} float {f:e} to double: {}",
                od[i]
            );
        }
    }
}

#[test]
fn double_vectors_to_half4_int4_ulong4_float4() {
    let a = float_inputs();
    let n = a.len() / 4;
    for opt in Opt::BOTH {
        let mut oh = vec![0u16; 8 * n];
        Kernel::new("fp64_convert", opt, "to_half4")
            .arg(Arg::input(&a))
            .arg(Arg::output(&mut oh))
            .run(&[n], Some(&[8]));
        for k in 0..4 * n {
            assert!(
                same_half(oh[k], to_half(a[k], Mode::Rte)),
                "{opt:?} vstore_half4 of {:e}",
                a[k]
            );
            let z = oh[4 * n + k];
            assert!(
                same_half(z, to_half(a[k], Mode::Rtz)),
                "{opt:?} vstore_half4_rtz of {:e}",
                a[k]
            );
        }
        let b = to_int_inputs();
        let m = b.len() / 4;
        let (mut oi, mut ou, mut of, mut od) = (
            vec![0i32; 4 * m],
            vec![0u64; 4 * m],
            vec![0f32; 4 * m],
            vec![0f64; 4 * m],
        );
        Kernel::new("fp64_convert", opt, "vectors")
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut oi))
            .arg(Arg::output(&mut ou))
            .arg(Arg::output(&mut of))
            .arg(Arg::output(&mut od))
            .run(&[m], Some(&[8]));
        for k in 0..4 * m {
            let x = b[k];
            let wi = if x.is_nan() {
                0
            } else {
                x.round_ties_even().clamp(i32::MIN as f64, i32::MAX as f64) as i32
            };
            assert_eq!(oi[k], wi, "{opt:?} convert_int4_sat_rte of {x:e}");
            let wu = if x.is_nan() {
                0
            } else {
                x.trunc().clamp(0.0, u64::MAX as f64) as u64
            };
            assert_eq!(ou[k], wu, "{opt:?} convert_ulong4_sat of {x:e}");
            let wf = f32_round(x, Mode::Rtp);
            assert!(
                of[k].to_bits() == wf.to_bits() || (wf.is_nan() && of[k].is_nan()),
                "{opt:?} convert_float4_rtp of {x:e}"
            );
            let wd = f64::from(wi) + f64::from(wf);
            assert!(
                od[k].to_bits() == wd.to_bits() || (wd.is_nan() && od[k].is_nan()),
                "{opt:?} back to double4"
            );
        }
    }
}
