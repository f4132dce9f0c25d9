//! 8-lane bodies (jit/src/lower/simd/mod.rs, `Part`): kernels without
//! barriers run chunks of eight work-items as two 4-lane parts, then a
//! 4-lane chunk where four to seven work-items of a row are left, then the
//! rest one at a time; kernels with barriers run rows of a multiple of 8
//! in chunks of eight, other multiples of 4 in chunks of four, the rest
//! one at a time (`BARRIER_LOCALS`). Each kernel of `kernels/cl/simd_wide.cl` runs at -O0
//! and -O2 with local sizes that reach each of those, and with NULL; the
//! harness also compares every output with the scalar build, bit for bit,
//! and the tests here with host references, each build three ways: as
//! clift chooses (the harness asks for the 8-lane bodies at the build),
//! with 4-lane bodies alone (what runs until the background thread has
//! compiled the 8-lane ones), and with 8-lane bodies wherever they can be
//! made. tests/debug_dump.rs checks that the kernels got 8-lane bodies.

use clift_conformance::exec::{self, Arg, Kernel, Opt};

/// Local sizes: none given, 8-lane chunks only (16, 24), 8-lane chunks and
/// a 4-lane one (12, 13: and one work-item), a 4-lane chunk and scalar
/// work-items (7), scalar work-items only (3).
const LOCALS: [Option<usize>; 7] = [None, Some(16), Some(24), Some(12), Some(13), Some(7), Some(3)];

fn local(l: Option<usize>) -> Option<[usize; 1]> {
    l.map(|l| [l])
}

use exec::WIDE;

/// Kernel `name` of simd_wide at `opt`, built the three ways of
/// [`exec::lane_builds`].
fn builds<'a>(opt: Opt, name: &str) -> [Kernel<'a>; 3] {
    exec::lane_builds("simd_wide", opt, name)
}

#[test]
fn fma_chains_of_both_parts() {
    let (global, k) = (104usize, 37u32);
    let a: Vec<f32> = (0..k).map(|j| (j as f32 * 0.37).sin() * 3.0).collect();
    let b: Vec<f32> = (0..k as usize * global)
        .map(|j| (j as f32 * 0.011).cos() + 0.25)
        .collect();
    // n where both parts of a chunk agree, where part 0 is in and part 1
    // out (n a multiple of 4, not of 8), and where a part's lanes differ.
    for n in [104u32, 100, 99, 97, 96] {
        let want: Vec<f32> = (0..global)
            .map(|col| {
                if col >= n as usize {
                    return -1.0;
                }
                (0..k as usize).fold(0.0f32, |acc, j| a[j].mul_add(b[j * n as usize + col], acc))
            })
            .collect();
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "dot_columns") {
                    let mut c = vec![-1.0f32; global];
                    let lo = local(l);
                    kernel
                        .arg(Arg::input(&a))
                        .arg(Arg::input(&b))
                        .arg(Arg::output(&mut c))
                        .arg(Arg::value(n))
                        .arg(Arg::value(k))
                        .run(&[global], lo.as_ref().map(|l| &l[..]));
                    for (i, (&g, &w)) in c.iter().zip(&want).enumerate() {
                        assert_eq!(g.to_bits(), w.to_bits(), "n {n} {opt:?} local {l:?}: c[{i}]");
                    }
                }
            }
        }
    }
}

#[test]
fn calls_and_private_arrays_of_both_parts() {
    let global = 120usize;
    let input: Vec<i32> = (0..global as i32).map(|i| (i * 7919) % 2003 - 1000).collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "private_calls") {
                let mut out = vec![0i32; 2 * global];
                let lo = local(l);
                kernel
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                // NULL local size: whatever the runtime picks; the scalar
                // build checks that case, the host the others.
                let Some(ls) = l else { continue };
                for i in 0..global {
                    let mut t: Vec<i32> = (0..5).map(|k| input[i] * (k + 1) - i as i32).collect();
                    t[i % 5] ^= 0x55;
                    let sum = t.iter().fold((i % ls) as i32, |s, &x| s + x);
                    let top = t.iter().copied().fold(t[0], i32::max);
                    assert_eq!(
                        (out[2 * i], out[2 * i + 1]),
                        (sum, top),
                        "{opt:?} local {l:?}: item {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn atomics_and_ids_of_both_parts() {
    let global = 104usize;
    for opt in Opt::BOTH {
        for l in LOCALS.into_iter().flatten() {
            for kernel in builds(opt, "counts_and_ids") {
                let mut counter = vec![0i32; 2];
                let mut ids = vec![u32::MAX; 3 * global];
                kernel
                    .arg(Arg::output(&mut counter))
                    .arg(Arg::output(&mut ids))
                    .run(&[global], Some(&[l]));
                let local_sum: i32 = (0..global).map(|i| (i % l) as i32).sum();
                assert_eq!(counter, [global as i32, local_sum], "{opt:?} local {l}");
                for i in 0..global {
                    assert_eq!(
                        &ids[3 * i..3 * i + 3],
                        &[(i % l) as u32, i as u32, (i / l) as u32],
                        "{opt:?} local {l}: item {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn moves_keep_every_bit_in_both_parts() {
    let global = 60usize;
    // Signalling and quiet NaNs with payloads, infinities, denormals.
    let special = [
        0x7f80_0001u32,
        0xffc0_1234,
        0x7f80_0000,
        0x0000_0001,
        0x8000_0000,
        0x7fbf_ffff,
    ];
    let input: Vec<u32> = (0..4 * global)
        .map(|j| special[j % special.len()] ^ ((j as u32 / 6) & 0x7))
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "moves") {
                let mut out = vec![0u32; 4 * global];
                let lo = local(l);
                kernel
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for i in 0..global {
                    let v = &input[4 * i..4 * i + 4];
                    let want: Vec<u32> = (0..4)
                        .map(|c| if (i >> c) & 1 != 0 { v[3 - c] } else { v[c] })
                        .collect();
                    assert_eq!(&out[4 * i..4 * i + 4], &want[..], "{opt:?} local {l:?}: item {i}");
                }
            }
        }
    }
}

#[test]
fn a_branch_after_a_store_in_both_parts() {
    let global = 100usize;
    let input: Vec<u32> = (0..global as u32).map(|i| i * 7919 % 1000).collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "masked_arm") {
                let (mut out, mut odd) = (vec![0u32; global], vec![7u32; global]);
                let lo = local(l);
                kernel
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut odd))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for (i, &x) in input.iter().enumerate() {
                    let w = if x & 1 != 0 { x * 5 } else { 7 };
                    assert_eq!((out[i], odd[i]), (x / 3, w), "{opt:?} local {l:?}: item {i}");
                }
            }
        }
    }
}

#[test]
fn a_switch_whose_paths_cross_in_both_parts() {
    let global = 1000usize;
    let input: Vec<u32> = (0..global as u32)
        .map(|i| {
            if i % 9 == 4 {
                [3, 100, 250, 997][i as usize % 4]
            } else {
                i
            }
        })
        .collect();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "crossing") {
                let (mut out, mut side) = (vec![0u32; global], vec![1u32; global]);
                let lo = local(l);
                kernel
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut side))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for (i, &x) in input.iter().enumerate() {
                    let w = match x {
                        3 => x,
                        100 | 997 => x * 7,
                        250 => x + 11,
                        _ => 1,
                    };
                    assert_eq!((out[i], side[i]), (x / 3, w), "{opt:?} local {l:?}: item {i}");
                }
            }
        }
    }
}

/// Masked loops in 8-lane bodies (each part with its own active lanes),
/// which clift makes only when the build asks for at least 8 lanes
/// (`-cl-clift-min-lanes=8`): simd_masked's loops whose exits differ,
/// with branches under masks inside and around them, against the host
/// (grid_sum, narrowed) and the scalar build (all).
#[test]
fn masked_loops_in_eight_lane_bodies() {
    let input: Vec<i32> = (0..203).map(|i| (i * 7919 + 13) % 1001 - 500).collect();
    let n = input.len();
    for opt in Opt::BOTH {
        let masked = exec::corpus_spirv("simd_masked", opt);
        for (global, l) in [
            (64, None),
            (60, Some(12)),
            (52, Some(13)),
            (32, Some(16)),
            (203, Some(7)),
        ] {
            let lo = local(l);
            let lo = lo.as_ref().map(|l| &l[..]);
            let mut out = vec![i32::MIN; global];
            Kernel::with_il(&masked, "grid_sum", WIDE)
                .unwrap()
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(n as u32))
                .run(&[global], lo);
            for (g, &got) in out.iter().enumerate() {
                let want: i32 = (g..n).step_by(global).map(|i| input[i]).sum();
                assert_eq!(got, want, "{opt:?} global {global} local {l:?}: out[{g}]");
            }
            for k in [0, 1, 5] {
                let (mut out, mut trace) = (vec![0i32; n], vec![i32::MIN; 8 * n]);
                Kernel::with_il(&masked, "guarded_rotated_loop", WIDE)
                    .unwrap()
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut trace))
                    .arg(Arg::value(k))
                    .run(&[n], lo);
            }
            for k in [0u32, 3, 9] {
                let (mut out, mut acc) = (vec![0i32; n * k as usize], vec![0i32; n]);
                Kernel::with_il(&masked, "nested_in_loop", WIDE)
                    .unwrap()
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut acc))
                    .arg(Arg::value(k))
                    .run(&[n], lo);
                let (mut out, mut trace) = (vec![0i32; n], vec![i32::MIN; 4 * n]);
                Kernel::with_il(&masked, "loop_in_arm", WIDE)
                    .unwrap()
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut trace))
                    .arg(Arg::value(k as i32))
                    .run(&[n], lo);
            }
            let steps_in: Vec<u32> = (0..n as u32).map(|i| (i * 37) % 97 + (i % 3)).collect();
            for cap in [0u32, 9, 40] {
                let (mut steps, mut trace) = (vec![u32::MAX; n], vec![7u32; n * cap as usize]);
                Kernel::with_il(&masked, "collatz", WIDE)
                    .unwrap()
                    .arg(Arg::input(&steps_in))
                    .arg(Arg::output(&mut steps))
                    .arg(Arg::output(&mut trace))
                    .arg(Arg::value(cap))
                    .run(&[n], lo);
            }
            let collatz_in: Vec<u32> = (0..n as u32).map(|i| i * 37 % 1000).collect();
            for kernel in builds(opt, "narrowed") {
                let mut out = vec![0u32; n];
                kernel
                    .arg(Arg::input(&collatz_in))
                    .arg(Arg::output(&mut out))
                    .run(&[n], lo);
                for (i, &x0) in collatz_in.iter().enumerate() {
                    let (mut x, mut s) = (x0, 0);
                    while x > 1 && s < 100 {
                        x = if x & 1 != 0 { 3 * x + 1 } else { x / 2 };
                        s += 1;
                    }
                    assert_eq!(out[i], s, "{opt:?} local {l:?}: item {i}");
                }
            }
        }
    }
}

#[test]
fn program_scope_variables_survive_the_switch_to_8_lane_bodies() {
    // A build without clift's options (the harness adds
    // -cl-clift-wide-at-build): launches run the 4-lane bodies until the
    // background thread has compiled the 8-lane ones, then those, and both
    // must update the same program-scope variables. mem_globals' `bump`
    // adds i to zeroed[i] (work-item 0 also bumps `counter`, `*gp` and
    // `wide`), `read_back` copies them out. The launches are spread over
    // about a second, so that the switch falls among them.
    use clift_conformance::*;
    setup();
    let ctx = context();
    let q = queue(ctx, 0);
    let p = il_program(ctx, &exec::corpus_spirv("mem_globals", Opt::O2));
    check(build(p, ""));
    let (bump, read_back) = (kernel(p, "bump"), kernel(p, "read_back"));
    let out = buffer(ctx, CL_MEM_READ_WRITE, 24 * 4);
    check(set_arg(bump, 0, &out));
    check(set_arg(read_back, 0, &out));
    let launches = 100;
    let (global, local) = (16usize, 16usize);
    for _ in 0..launches {
        // SAFETY: a built kernel with its argument set, sizes that live
        // across the call.
        check(unsafe {
            clEnqueueNDRangeKernel(
                q,
                bump,
                1,
                std::ptr::null(),
                &global,
                &local,
                0,
                std::ptr::null(),
                std::ptr::null_mut(),
            )
        });
        // SAFETY: a valid queue.
        check(unsafe { clFinish(q) });
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // SAFETY: as above.
    check(unsafe {
        clEnqueueNDRangeKernel(
            q,
            read_back,
            1,
            std::ptr::null(),
            &global,
            &local,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
        )
    });
    let bytes = read_bytes(q, out, 0, 24 * 4);
    let got: Vec<i32> = bytes
        .chunks(4)
        .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
        .collect();
    for (i, &v) in got[..16].iter().enumerate() {
        let extra = if i == 3 { 100 * launches } else { 0 };
        assert_eq!(v, launches * i as i32 + extra, "zeroed[{i}]");
    }
    // counter starts at 5, wide at 2^32.
    assert_eq!(got[16..19], [5 + launches, 1, launches]);
    release_mem(out);
    // SAFETY: handles this test created, released once.
    unsafe {
        clReleaseKernel(bump);
        clReleaseKernel(read_back);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}

/// exp, log, erf, sin, cos, tan and pow: both parts in one call of the
/// 8-lane form, for a float and for each component of a float2. The harness
/// compares every output with the scalar build bit for bit; here each is
/// also within an ulp of the host's double function (clift's are below one
/// ulp). The inputs: the special values, erf's interval
/// bounds and middles (builtins/src/float_lanes.rs) with their neighbours,
/// the ends of exp's range, sin's and cos's bound for their own reduction
/// and multiples of pi/2 (both sides of it), then a ramp.
#[test]
fn math_of_both_parts_in_one_call() {
    use clift_conformance::math::{ref1, ref2, special, ulps};
    let mut x: Vec<f32> = special::<f32>();
    let bounds = [
        1.0f32,
        1.375,
        1.75,
        2.1875,
        2.625,
        3.25,
        3.875,
        88.72,
        -87.5,
        -103.9,
        4_194_304.0,
        -4_194_304.0,
    ];
    let multiples = [1.0f64, 2.0, 3.0, 1e3, 2e6, 3e6].map(|k| (k * core::f64::consts::FRAC_PI_2) as f32);
    for b in bounds.into_iter().chain(multiples) {
        for d in -1i32..=1 {
            x.push(f32::from_bits(b.to_bits().wrapping_add(d as u32)));
        }
    }
    while x.len() < 203 {
        x.push((x.len() as f32 - 100.0) * 0.173);
    }
    let names = ["exp", "log", "erf", "sin", "cos", "tan"];
    each_launch_of_unary("math8", &x, 21, 0.0, |opt, l, out| {
        for (i, &v) in x.iter().enumerate() {
            let w = [v, v * -0.75];
            let pow = |a: f32, b: f32| ref2("pow", a.abs(), b).unwrap_or(f64::NAN);
            // The float's results, then each function of both
            // components.
            let want = names
                .iter()
                .map(|&f| (f, ref1(f, v as f64)))
                .chain([("pow", pow(v, v * 0.37))])
                .chain(names.iter().flat_map(|&f| w.map(|c| (f, ref1(f, c as f64)))))
                .chain([("pow", pow(w[0], w[1])), ("pow", pow(w[1], w[0]))]);
            for (k, (f, want)) in want.enumerate() {
                let got = out[21 * i + k];
                let nan = got.is_nan() && want.is_nan();
                assert!(
                    nan || ulps(got, want) <= 1.0,
                    "{opt:?} local {l:?}: result {k} ({f}) of x[{i}] = {v:e}: {got:e} against {want:e}"
                );
            }
        }
    });
}

/// acos, asin, atan, expm1, tanh, sinh, cosh, log1p, asinh, acosh,
/// atanh, atan2, the pi forms, erfc, cbrt and hypot of a float and of each component of a
/// float2 (builtins/src/libm_float_lanes.rs: libm's double functions on
/// four AVX2 lanes, rounded to float). The harness compares every output
/// with the scalar build bit for bit; here each is also within an ulp of
/// the host's double function (libm's are within one double ulp, so the
/// rounded float within half a float ulp and a little).
#[test]
fn libm_math_of_both_parts_in_one_call() {
    use clift_conformance::math::{ref1, ref2, special, ulps};
    let mut x: Vec<f32> = special::<f32>();
    // The bounds of the double forms' branches (libm_lanes), as floats,
    // with their neighbours; times 8 where the kernel divides by 8.
    for b in [
        0.84375f32, 0.975, 19.4, 22.0, 38.8, 88.7, 89.5, 0.2929, 0.4142, 2.4375, 4.0, 6.0, 8.0,
    ] {
        for d in -1i32..=1 {
            x.push(f32::from_bits(b.to_bits().wrapping_add(d as u32)));
            x.push(-f32::from_bits(b.to_bits().wrapping_add(d as u32)));
        }
    }
    // asinpi(u) for u = x / 8 = 1.6206961e-4, where dividing by pi and
    // multiplying by 1 / pi round to different floats.
    x.push(f32::from_bits(0x3929_f13b) * 8.0);
    while x.len() < 203 {
        x.push((x.len() as f32 - 130.0) * 0.113);
    }
    let names = [
        "acos", "asin", "atan", "expm1", "tanh", "sinh", "cosh", "log1p", "asinh", "acosh", "atanh", "atan2", "acospi",
        "asinpi", "atanpi", "atan2pi", "erfc", "cbrt", "hypot",
    ];
    each_launch_of_unary("math8_libm", &x, 57, 0.0, |opt, l, out| {
        for (i, &v) in x.iter().enumerate() {
            // The arguments as the kernel computes them (each
            // product exact or rounded once, as on the host).
            let (u, w) = (v * 0.125, [v, v * -0.75]);
            let s = w.map(|c| c * 0.125);
            let of = |k: usize, a: f32, b: f32, c: f32| -> f64 {
                let f = names[k];
                match f {
                    "atan2" | "hypot" => ref2(f, a, b).unwrap(),
                    "atan2pi" => ref2(f, b, a).unwrap(),
                    "acos" | "asin" | "atanh" | "acospi" | "asinpi" => ref1(f, c as f64),
                    _ => ref1(f, a as f64),
                }
            };
            let mut want: Vec<(usize, f64)> = (0..19).map(|k| (k, of(k, v, v - 1.5, u))).collect();
            for k in 0..19 {
                want.push((k, of(k, w[0], w[1], s[0])));
                want.push((k, of(k, w[1], w[0], s[1])));
            }
            for (j, (k, want)) in want.into_iter().enumerate() {
                let got = out[57 * i + j];
                let nan = got.is_nan() && want.is_nan();
                assert!(
                    nan || ulps(got, want) <= 1.0,
                    "{opt:?} local {l:?}: result {j} ({}) of x[{i}] = {v:e}: {got:e} against {want:e}",
                    names[k]
                );
            }
        }
    });
}

/// sinpi of a float as clift computes it (builtins' `math_shared::sinpi`
/// with `math_f32`'s kernel): |x| mod 2 reflected into [0, 1/2], then
/// libm's sin or cos of pi times it in double, rounded once.
fn sinpi(x: f32) -> f32 {
    use std::f64::consts::PI;
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f32::NAN;
    }
    let mut r = x.abs() % 2.0;
    let mut neg = x.is_sign_negative();
    if r >= 1.0 {
        r -= 1.0;
        neg = !neg;
    }
    if r > 0.5 {
        r = 1.0 - r;
    }
    if r == 0.0 {
        return 0f32.copysign(x);
    }
    let r = r as f64;
    let v = (if r <= 0.25 {
        libm::sin(PI * r)
    } else {
        libm::cos(PI * (0.5 - r))
    }) as f32;
    if neg {
        -v
    } else {
        v
    }
}

/// cospi of a float as clift computes it (see [`sinpi`]).
fn cospi(x: f32) -> f32 {
    use std::f64::consts::PI;
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f32::NAN;
    }
    let mut r = x.abs() % 2.0;
    if r > 1.0 {
        r = 2.0 - r;
    }
    let mut neg = false;
    if r > 0.5 {
        r = 1.0 - r;
        neg = true;
    }
    if r == 0.5 {
        return 0.0;
    }
    let r = r as f64;
    let v = (if r <= 0.25 {
        libm::cos(PI * r)
    } else {
        libm::sin(PI * (0.5 - r))
    }) as f32;
    if neg {
        -v
    } else {
        v
    }
}

/// tanpi of a float as clift computes it (see [`sinpi`]).
fn tanpi(x: f32) -> f32 {
    use std::f64::consts::PI;
    if x.is_nan() {
        return x;
    }
    if x.is_infinite() {
        return f32::NAN;
    }
    let mut r = x.abs() % 2.0;
    let odd = r >= 1.0;
    if odd {
        r -= 1.0;
    }
    let v = if r == 0.0 {
        if odd {
            -0.0
        } else {
            0.0
        }
    } else if r == 0.5 {
        if odd {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        }
    } else {
        let r = r as f64;
        (if r <= 0.25 {
            libm::tan(PI * r)
        } else if r < 0.5 {
            1.0 / libm::tan(PI * (0.5 - r))
        } else if r <= 0.75 {
            -1.0 / libm::tan(PI * (r - 0.5))
        } else {
            -libm::tan(PI * (1.0 - r))
        }) as f32
    };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

/// The lane-wise recipes of common_lanes in every build (the harness
/// compares each with the scalar build bit for bit); here the results
/// that the spec fixes exactly are checked against the host too: copysign,
/// the square roots, divisions, reciprocals, step, sign, select, degrees
/// and radians (in double, rounded once), round, fdim, ldexp, pown
/// (libm's pow of the widened operands), of floats and doubles, over
/// the special values (NaNs with payloads, infinities, zeros of both
/// signs, denormals) and a ramp.
#[test]
fn common_functions_as_vectors() {
    use clift_conformance::math::special;
    let mut a: Vec<f32> = special::<f32>();
    a.extend([
        f32::from_bits(0x7fc1_2345),
        f32::from_bits(0xffc0_0001),
        -0.0,
        1e-40,
        3.5,
        -2.25,
    ]);
    while a.len() < 203 {
        a.push((a.len() as f32 - 97.0) * 0.173);
    }
    let global = a.len();
    let b: Vec<f32> = (0..global).map(|i| a[(i * 7 + 3) % global]).collect();
    let c: Vec<i32> = (0..global as i32)
        .map(|i| [0, 1, -1, i32::MIN, 7][(i % 5) as usize])
        .collect();
    let d: Vec<f64> = a.iter().map(|&x| x as f64 * 1.000_000_1).collect();
    let same32 = |g: f32, w: f32| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
    let same64 = |g: f64, w: f64| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "common_lanes") {
                let mut o = vec![0f32; 30 * global];
                let mut od = vec![0f64; 11 * global];
                let mut oi = vec![0i32; 7 * global];
                let lo = local(l);
                kernel
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::input(&c))
                    .arg(Arg::input(&d))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::output(&mut od))
                    .arg(Arg::output(&mut oi))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for i in 0..global {
                    let (x, y, k, p) = (a[i], b[i], c[i], d[i]);
                    // clift's conversions saturate (NaN to 0) with or
                    // without _sat, as Rust's `as` does.
                    let z = x * 3.75;
                    let ints = [
                        z.round_ties_even() as i32,
                        z.ceil() as i32,
                        z.floor() as i32,
                        z.round_ties_even() as i32,
                        z.ceil() as u32 as i32,
                        (p * 2.5).round_ties_even() as i32,
                        (p * -0.5).floor() as i32,
                    ];
                    for (j, &w) in ints.iter().enumerate() {
                        let g = oi[j * global + i];
                        assert_eq!(g, w, "{opt:?} local {l:?}: conversion {j} of {x:e} ({p:e})");
                    }
                    let q = p * -0.5;
                    let sign = |v: f32| {
                        if v.is_nan() {
                            0.0
                        } else if v == 0.0 {
                            v
                        } else {
                            1f32.copysign(v)
                        }
                    };
                    let sign64 = |v: f64| {
                        if v.is_nan() {
                            0.0
                        } else if v == 0.0 {
                            v
                        } else {
                            1f64.copysign(v)
                        }
                    };
                    let quiet = |v: f32| f32::from_bits(v.to_bits() | 0x0040_0000);
                    let quiet64 = |v: f64| f64::from_bits(v.to_bits() | 0x0008_0000_0000_0000);
                    let round = |v: f32| if v.is_nan() { quiet(v) } else { v.round() };
                    let fdim = |a: f32, b: f32| {
                        if a.is_nan() {
                            quiet(a)
                        } else if b.is_nan() {
                            quiet(b)
                        } else if a > b {
                            a - b
                        } else {
                            0.0
                        }
                    };
                    let ldexp = |v: f32, n: i32| (v as f64 * 2f64.powi(n.clamp(-300, 300))) as f32;
                    let rsqrt = |v: f32| (1.0 / (v as f64).sqrt()) as f32;
                    let pown = |v: f32, n: i32| libm::pow(v as f64, n as f64) as f32;
                    let want: [(usize, f32); 26] = [
                        (0, x.copysign(y)),
                        (1, x.abs().sqrt() + y.abs().sqrt()),
                        (4, x / y),
                        (5, 1.0 / x + 1.0 / y),
                        (7, if x < y { 0.0 } else { 1.0 }),
                        (9, sign(x)),
                        (10, (x as f64 * (180.0 / std::f64::consts::PI)) as f32),
                        (11, (y as f64 * (std::f64::consts::PI / 180.0)) as f32),
                        (12, if k != 0 { y } else { x }),
                        (13, if k.wrapping_neg() < 0 { 0.25 } else { y }),
                        (14, if k < 0 { y } else { x }),
                        (15, sign(y * -2.0)),
                        (16, round(x)),
                        (17, fdim(x, y)),
                        (18, ldexp(x, k)),
                        (19, round(y * 0.5)),
                        (20, rsqrt(x)),
                        (21, rsqrt(y)),
                        (22, pown(x, k)),
                        (23, pown(y, 3)),
                        (24, sinpi(x)),
                        (25, cospi(y)),
                        (26, sinpi(y * 0.25)),
                        (27, cospi(x * 4.0)),
                        (28, tanpi(x)),
                        (29, tanpi(y * 0.25)),
                    ];
                    for (j, w) in want {
                        let g = o[j * global + i];
                        // round, fdim and ldexp: NaNs bit for bit too.
                        let exact = j >= 16 && g.to_bits() == w.to_bits();
                        assert!(
                            exact || (j < 16 && same32(g, w)),
                            "{opt:?} local {l:?}: result {j} of {x:e}, {y:e}, {k}: {g:e} against {w:e}"
                        );
                    }
                    let fdim64 = |a: f64, b: f64| {
                        if a.is_nan() {
                            quiet64(a)
                        } else if b.is_nan() {
                            quiet64(b)
                        } else if a > b {
                            a - b
                        } else {
                            0.0
                        }
                    };
                    let round64 = |v: f64| if v.is_nan() { quiet64(v) } else { v.round() };
                    let want64: [(usize, f64); 8] = [
                        (0, p.copysign(q)),
                        (3, if p < q { 0.0 } else { 1.0 }),
                        (5, sign64(p)),
                        (
                            6,
                            p * (180.0 / std::f64::consts::PI) + q * (std::f64::consts::PI / 180.0),
                        ),
                        (7, if k != 0 { q } else { p }),
                        (8, round64(p)),
                        (9, fdim64(p, q)),
                        (10, libm::pow(p, k as f64)),
                    ];
                    for (j, w) in want64 {
                        let g = od[j * global + i];
                        let exact = j >= 8 && g.to_bits() == w.to_bits();
                        assert!(
                            exact || (j < 8 && same64(g, w)),
                            "{opt:?} local {l:?}: double result {j} of {p:e}, {k}: {g:e} against {w:e}"
                        );
                    }
                }
            }
        }
    }
}

/// cross, length, distance and normalize of float vectors (and cross of
/// doubles) in every build (the harness compares with the scalar build bit
/// for bit); here against the host's same steps: products and
/// differences for cross, squares summed in double in component order for
/// length and distance, normalize's infinite and zero vectors. Inputs:
/// zeros, infinities, NaNs, huge and tiny components, and a ramp.
#[test]
fn geometric_functions_as_vectors() {
    let specials = [
        0.0f32,
        -0.0,
        1.0,
        -3.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        3e38,
        1e-40,
        -2.0,
    ];
    let mut a: Vec<[f32; 4]> = Vec::new();
    let mut b: Vec<[f32; 4]> = Vec::new();
    for i in 0..203usize {
        let s = |k: usize| specials[(i * 3 + k * 7) % specials.len()];
        let r = |k: usize| (i as f32 - 100.0) * 0.37 + k as f32;
        if i % 3 == 0 {
            a.push([s(0), s(1), s(2), s(3)]);
            b.push([r(0), s(4), r(2), s(5)]);
        } else if i % 7 == 1 {
            a.push([0.0, -0.0, 0.0, 0.0]);
            b.push([r(1), r(2), r(3), r(0)]);
        } else {
            a.push([r(0), r(1), -r(2), r(3)]);
            b.push([r(3), -r(0), r(1), r(2) * 0.5]);
        }
    }
    let global = a.len();
    let flat = |v: &[[f32; 4]]| v.iter().flatten().copied().collect::<Vec<f32>>();
    let (fa, fb) = (flat(&a), flat(&b));
    let len = |v: &[f32]| {
        let mut acc: Option<f64> = None;
        for &c in v {
            let c = c as f64;
            acc = Some(match acc {
                None => c * c,
                Some(s) => s + c * c,
            });
        }
        acc.unwrap().sqrt() as f32
    };
    let normalize = |v: &[f32]| -> Vec<f32> {
        let any_inf = v.iter().any(|c| c.is_infinite());
        let d: Vec<f32> = v
            .iter()
            .map(|&c| {
                if !any_inf {
                    c
                } else if c.is_infinite() {
                    1f32.copysign(c)
                } else {
                    (c * 0.0).copysign(c)
                }
            })
            .collect();
        let l = {
            let mut acc: Option<f64> = None;
            for &c in &d {
                let c = c as f64;
                acc = Some(match acc {
                    None => c * c,
                    Some(s) => s + c * c,
                });
            }
            acc.unwrap().sqrt()
        };
        let zero = v.iter().all(|&c| c == 0.0);
        v.iter()
            .zip(&d)
            .map(|(&c, &w)| if zero { c } else { (w as f64 / l) as f32 })
            .collect()
    };
    let cross = |u: &[f32], v: &[f32]| {
        [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ]
    };
    let same = |g: f32, w: f32| g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "geometry_lanes") {
                let mut o = vec![0f32; 15 * global];
                let mut od = vec![0f64; 2 * global];
                let lo = local(l);
                kernel
                    .arg(Arg::input(&fa))
                    .arg(Arg::input(&fb))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::output(&mut od))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for i in 0..global {
                    let (u, v) = (&a[i], &b[i]);
                    let c3 = cross(u, v);
                    let d3: Vec<f32> = (0..3).map(|k| u[k] - v[k]).collect();
                    let d4: Vec<f32> = (0..4).map(|k| u[k] - v[k]).collect();
                    let (n2, n3, n4) = (normalize(&u[..2]), normalize(&v[..3]), normalize(u));
                    let _ = (d3, d4);
                    let dist = |p: &[f32], q: &[f32]| {
                        let mut acc: Option<f64> = None;
                        for (&x, &y) in p.iter().zip(q) {
                            let d = x as f64 - y as f64;
                            acc = Some(match acc {
                                None => d * d,
                                Some(s) => s + d * d,
                            });
                        }
                        acc.unwrap().sqrt() as f32
                    };
                    let want = [
                        c3[0],
                        c3[1],
                        c3[2],
                        c3[0] + c3[1] + c3[2],
                        0.0,
                        len(&u[..2]),
                        len(&v[..3]),
                        len(u),
                        dist(&u[..3], &v[..3]),
                        dist(u, v),
                        n2[0],
                        n2[1],
                        n3[2],
                        n4[0],
                        n4[3],
                    ];
                    for (k, &w) in want.iter().enumerate() {
                        let g = o[k * global + i];
                        assert!(
                            same(g, w),
                            "{opt:?} local {l:?}: result {k} of {u:?}, {v:?}: {g:e} against {w:e}"
                        );
                    }
                    let (ud, vd) = (u.map(f64::from), [v[2], v[1], v[0]].map(f64::from));
                    let cx = ud[1] * vd[2] - ud[2] * vd[1];
                    let cyz = (ud[2] * vd[0] - ud[0] * vd[2]) + (ud[0] * vd[1] - ud[1] * vd[0]);
                    for (k, w) in [cx, cyz].into_iter().enumerate() {
                        let g = od[k * global + i];
                        assert!(
                            g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()),
                            "{opt:?} local {l:?}: double cross {k} of {u:?}, {v:?}: {g:e} against {w:e}"
                        );
                    }
                }
            }
        }
    }
}

/// length, distance and normalize of double2, double3 and double4 in
/// 4- and 8-lane bodies (geometry_lanes_double: the scalar recipe, which
/// scales by a power of two, lane by lane: as `f64x2` vector code it
/// measured slower, criterion `math/length_double` 1.74 -> 2.06 ms), with
/// huge, tiny, denormal, infinite, NaN and zero components in every lane
/// position (the harness compares every bit with the scalar build);
/// against the host: infinities and NaNs by C's hypot rule, zero vectors
/// unchanged, the rest within 2 ulp of the length scaled in Rust.
#[test]
fn double_geometry_as_vectors() {
    let specials = [
        0.0f64,
        -0.0,
        1.0,
        -3.5,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e300,
        -1e-300,
        5e-324,
        f64::MAX,
        1e154,
        -2.0,
    ];
    let mut a: Vec<[f64; 4]> = Vec::new();
    let mut b: Vec<[f64; 4]> = Vec::new();
    for i in 0..203usize {
        let s = |k: usize| specials[(i * 3 + k * 7) % specials.len()];
        let r = |k: usize| (i as f64 - 100.0) * 0.37 + k as f64;
        if i % 3 == 0 {
            a.push([s(0), s(1), s(2), s(3)]);
            b.push([r(0), s(4), r(2), s(5)]);
        } else if i % 7 == 1 {
            a.push([0.0, -0.0, 0.0, 0.0]);
            b.push([r(1) * 1e-310, r(2) * 1e-310, r(3), r(0)]);
        } else {
            a.push([r(0) * 1e200, r(1), -r(2), r(3) * 1e-200]);
            b.push([r(3), -r(0), r(1) * 1e-320, r(2) * 0.5]);
        }
    }
    let global = a.len();
    let flat = |v: &[[f64; 4]]| v.iter().flatten().copied().collect::<Vec<f64>>();
    let (fa, fb) = (flat(&a), flat(&b));
    // The length as the recipe defines it: exact scaling by a power of
    // two, the squares summed in order, the square root, scaled back.
    let len = |v: &[f64]| -> f64 {
        if v.iter().any(|c| c.is_infinite()) {
            return f64::INFINITY;
        }
        if v.iter().any(|c| c.is_nan()) {
            return f64::NAN;
        }
        let big = v.iter().fold(0f64, |m, c| m.max(c.abs()));
        if big == 0.0 {
            return 0.0;
        }
        let e = big.log2().floor() as i32;
        let k = 2f64.powi(-e.clamp(-1000, 1000)) * if e < -1000 { 2f64.powi(-e - 1000) } else { 1.0 };
        let s: f64 = v.iter().map(|&c| (c * k) * (c * k)).sum();
        s.sqrt() / k
    };
    let near = |got: f64, want: f64| {
        (got.is_nan() && want.is_nan()) || got == want || (got - want).abs() <= 4.0 * f64::EPSILON * want.abs()
    };
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in exec::lane_builds("simd_wide", opt, "geometry_lanes_double") {
                let mut od = vec![0f64; 12 * global];
                let lo = local(l);
                kernel
                    .arg(Arg::input(&fa))
                    .arg(Arg::input(&fb))
                    .arg(Arg::output(&mut od))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for i in 0..global {
                    let (u, v) = (a[i], b[i]);
                    let d3: Vec<f64> = (0..3).map(|k| u[k] - v[k]).collect();
                    let d4: Vec<f64> = (0..4).map(|k| u[k] - v[k]).collect();
                    let lengths = [len(&u[..2]), len(&v[..3]), len(&u), len(&d3), len(&d4), u[0].abs()];
                    for (k, &want) in lengths.iter().enumerate() {
                        let slot = if k == 5 { 11 } else { k };
                        let got = od[slot * global + i];
                        assert!(
                            near(got, want),
                            "{opt:?} local {l:?}: length {k} of item {i} ({u:?}, {v:?}): {got:e} against {want:e}"
                        );
                    }
                    // normalize: each component over the length where
                    // every component is finite and some is not zero.
                    for (slot, comps, k) in [
                        (5, &u[..2], 0),
                        (6, &u[..2], 1),
                        (7, &v[..3], 0),
                        (8, &v[..3], 2),
                        (9, &u[..], 0),
                        (10, &u[..], 3),
                    ] {
                        let got = od[slot * global + i];
                        if comps.iter().all(|c| *c == 0.0) {
                            assert_eq!(
                                got.to_bits(),
                                comps[k].to_bits(),
                                "{opt:?} {l:?}: zero vector, item {i}"
                            );
                        } else if comps.iter().all(|c| c.is_finite()) {
                            let want = comps[k] / len(comps);
                            assert!(
                                near(got, want) || (want.abs() < 1e-300 && got.abs() < 1e-300),
                                "{opt:?} local {l:?}: normalize slot {slot} of item {i} ({comps:?}): {got:e} against {want:e}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// hypot of floats in every build, bit for bit clift's rule: +inf where
/// either operand is infinite, else a NaN operand quieted (x's where both
/// are NaNs: two NaNs of different payloads in every lane position), else
/// the square root of the sum of the squares in double, rounded once.
#[test]
fn hypot_of_nans_and_the_rest() {
    let specials: Vec<u32> = vec![
        0x7fc0_0000,
        0xffc0_1234,
        0x7f80_0001,
        0xff80_4321,
        0x7f80_0000,
        0xff80_0000,
        0,
        0x8000_0000,
        0x3f80_0000,
        0x7f7f_ffff,
        1,
        0x4049_0fdb,
    ];
    let mut x = Vec::new();
    let mut y = Vec::new();
    for &a in &specials {
        for &b in &specials {
            x.push(f32::from_bits(a));
            y.push(f32::from_bits(b));
        }
    }
    while x.len() % 8 != 5 {
        x.push(x.len() as f32 * 0.37);
        y.push(-(y.len() as f32) * 1.3);
    }
    let quiet = |v: f32| f32::from_bits(v.to_bits() | 0x0040_0000);
    let want: Vec<u32> = x
        .iter()
        .zip(&y)
        .map(|(&a, &b)| {
            if a.is_infinite() || b.is_infinite() {
                f32::INFINITY
            } else if a.is_nan() {
                quiet(a)
            } else if b.is_nan() {
                quiet(b)
            } else {
                let (a, b) = (a as f64, b as f64);
                (a * a + b * b).sqrt() as f32
            }
        })
        .map(f32::to_bits)
        .collect();
    let global = x.len();
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, "hypot_lanes") {
                let mut out = vec![0f32; global];
                let lo = local(l);
                kernel
                    .arg(Arg::input(&x))
                    .arg(Arg::input(&y))
                    .arg(Arg::output(&mut out))
                    .run(&[global], lo.as_ref().map(|l| &l[..]));
                for i in 0..global {
                    assert_eq!(
                        out[i].to_bits(),
                        want[i],
                        "{opt:?} local {l:?}: hypot({:#010x}, {:#010x})",
                        x[i].to_bits(),
                        y[i].to_bits()
                    );
                }
            }
        }
    }
}

/// The 8-lane math calls in the arms of a branch whose lanes differ and in
/// a loop whose exit differs (it stores each step, so no value leaves the
/// loop: with one store after it, clang's -O2 module got no 8-lane body,
/// `CLIFT_DUMP` saying "a value it computes is used after it"): the
/// harness compares with the scalar build
/// bit for bit, and here with the same steps on the host in double (the
/// errors of a few sub-ulp functions, far below the tolerance).
#[test]
fn math_of_both_parts_under_masks() {
    let global = 203usize;
    let x: Vec<f32> = (0..global).map(|i| (i as f32 - 101.0) * 0.071).collect();
    each_launch_of_unary("math8_masked", &x, 3, -1.0, |opt, l, out| {
        for (i, &v) in x.iter().enumerate() {
            let v = v as f64;
            let mut acc = if v > 0.5 {
                (-v).exp() + v.sin()
            } else {
                (v.abs() + 1.0).ln() - v.cos()
            };
            for k in 0..3 {
                let got = out[3 * i + k] as f64;
                if k > i % 3 {
                    assert_eq!(got, -1.0, "{opt:?} local {l:?}: out[{}] written", 3 * i + k);
                    continue;
                }
                acc += clift_conformance::math::ref1("erf", acc * 0.5);
                assert!(
                    (got - acc).abs() <= 1e-5 * acc.abs().max(1.0),
                    "{opt:?} local {l:?}: out[{}] = {got} against {acc}",
                    3 * i + k
                );
            }
        }
    });
}

/// sincos in 8-lane bodies: one call of the 8-lane sin and one of the
/// 8-lane cos per component for both parts, the cosines stored through
/// private floats, a private float2, global memory and a private double
/// (math8_sincos; the harness compares every bit with the scalar build).
/// Here each result is near the host's.
#[test]
fn sincos_of_both_parts_in_two_calls() {
    use clift_conformance::math::{ref1, special, ulps};
    let mut x: Vec<f32> = special::<f32>();
    let multiples = [1.0f64, 2.0, 3.0, 1e3, 2e6].map(|k| (k * core::f64::consts::FRAC_PI_2) as f32);
    for b in multiples {
        for d in -1i32..=1 {
            x.push(f32::from_bits(b.to_bits().wrapping_add(d as u32)));
        }
    }
    while x.len() < 203 {
        x.push((x.len() as f32 - 100.0) * 0.173);
    }
    each_launch_of_unary("math8_sincos", &x, 12, 0.0, |opt, l, out| {
        for (i, &v) in x.iter().enumerate() {
            let o = &out[12 * i..12 * i + 12];
            let (w, h) = (v * -0.75, v * 0.5);
            let floats = [
                ("sin", v),
                ("cos", v),
                ("sin", v),
                ("sin", w),
                ("cos", v),
                ("cos", w),
                ("sin", h),
                ("cos", h),
            ];
            for (k, (f, a)) in floats.into_iter().enumerate() {
                let (got, want) = (o[k], ref1(f, f64::from(a)));
                assert!(
                    ulps(got, want) <= 1.0 || (got.is_nan() && want.is_nan()),
                    "{opt:?} local {l:?}: result {k} ({f}) of x[{i}] = {v:e}: {got:e} against {want:e}"
                );
            }
            let bits = |k: usize| f64::from_bits(u64::from(o[k].to_bits()) | u64::from(o[k + 1].to_bits()) << 32);
            let vd = f64::from(v) * 3.0;
            for (k, want) in [(8, vd.sin()), (10, vd.cos())] {
                let got = bits(k);
                let near = (got - want).abs() <= 4.0 * f64::EPSILON * want.abs().max(1e-300);
                assert!(
                    near || (got.is_nan() && want.is_nan()) || vd.abs() > 1e9,
                    "{opt:?} local {l:?}: double result at {k} of x[{i}] = {v:e}: {got:e} against {want:e}"
                );
            }
        }
    });
}

/// native_exp, half_log, native_sin, half_cos and native_tan: the
/// OpenCL.std table implements them with the plain functions, and the
/// 8-lane bodies call the plain functions' 8-lane forms; with exp2,
/// native_exp10, log2 and half_log10 (the harness compares with the scalar
/// build bit for bit). Here each is within an ulp of the host's double
/// function, as the plain ones are.
#[test]
fn half_and_native_math_of_both_parts() {
    use clift_conformance::math::{ref1, ulps};
    let global = 203usize;
    let x: Vec<f32> = (0..global).map(|i| (i as f32 - 101.0) * 0.093).collect();
    each_launch_of_unary("math8_native", &x, 9, 0.0, |opt, l, out| {
        for (i, &v) in x.iter().enumerate() {
            let want = [
                ref1("exp", v as f64),
                ref1("log", (v.abs() + 0.5) as f64),
                ref1("sin", v as f64),
                ref1("cos", v as f64),
                ref1("tan", v as f64),
                ref1("exp2", (v * 7.0) as f64),
                ref1("exp10", (v * 2.5) as f64),
                ref1("log2", (v.abs() + 0.5) as f64),
                ref1("log10", (v.abs() * 1000.0) as f64),
            ];
            for (k, &w) in want.iter().enumerate() {
                let got = out[9 * i + k];
                assert!(
                    ulps(got, w) <= 1.0 || (got.is_nan() && w.is_nan()),
                    "{opt:?} local {l:?}: result {k} of x[{i}] = {v:e}: {got:e} against {w:e}"
                );
            }
        }
    });
}

/// Kernel `name` of simd_wide (arguments: `x`, then room for `per_item`
/// floats per work-item, filled with `fill`) over `x` at both levels, in
/// each of its three builds ([`builds`]) and with every local size of
/// [`LOCALS`]; `check(opt, local, out)` after each launch.
fn each_launch_of_unary(
    name: &str,
    x: &[f32],
    per_item: usize,
    fill: f32,
    mut check: impl FnMut(Opt, Option<usize>, &[f32]),
) {
    for opt in Opt::BOTH {
        for l in LOCALS {
            for kernel in builds(opt, name) {
                let mut out = vec![fill; per_item * x.len()];
                let lo = local(l);
                kernel
                    .arg(Arg::input(x))
                    .arg(Arg::output(&mut out))
                    .run(&[x.len()], lo.as_ref().map(|l| &l[..]));
                check(opt, l, &out);
            }
        }
    }
}

/// Local sizes for the kernels with barriers: rows of 8-lane chunks (8,
/// 16, 24, 40), of 4-lane chunks (12, 20: multiples of 4, not of 8), of
/// work-items one at a time (13, 7, 3). Groups of a global size that is
/// not a multiple are smaller at the end (OpenCL 2.0's non-uniform
/// work-groups), which may change which of the three runs.
const BARRIER_LOCALS: [usize; 9] = [8, 16, 24, 40, 12, 20, 13, 7, 3];

/// The work-items of each work-group of `global` work-items in groups of
/// `l`: its first global id and its size.
fn groups(global: usize, l: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..global).step_by(l).map(move |g| (g, l.min(global - g)))
}

#[test]
fn values_and_private_arrays_across_barriers_in_both_parts() {
    let global = 120usize;
    let input: Vec<f32> = (0..global).map(|i| ((i * 7919) % 601) as f32 - 300.0).collect();
    for rounds in [0u32, 1, 3, 7] {
        let (mut want_out, mut want_side) = (vec![0f32; global], vec![0i32; global]);
        for l in BARRIER_LOCALS {
            for (g0, lsz) in groups(global, l) {
                // The group's work-items, phase by phase.
                let mine: Vec<f32> = (0..lsz).map(|x| input[g0 + x] * 3.0 + x as f32).collect();
                let mut privs: Vec<[i32; 5]> = (0..lsz)
                    .map(|x| std::array::from_fn(|k| ((g0 + x) * (k + 1)) as i32 ^ x as i32))
                    .collect();
                let mut acc = vec![0f32; lsz];
                for r in 0..rounds as usize {
                    let tile: Vec<f32> = mine.iter().map(|m| m + r as f32).collect();
                    let counts: Vec<i32> = (0..lsz).map(|x| privs[x][(g0 + x + r) % 5]).collect();
                    for x in 0..lsz {
                        let other = (x + 5 + r) % lsz;
                        acc[x] = tile[other].mul_add(0.5, acc[x]);
                        if counts[other] & 3 == 1 {
                            privs[x][r % 5] += counts[other];
                        } else {
                            acc[x] -= 1.0;
                        }
                    }
                }
                for x in 0..lsz {
                    let p = privs[x];
                    want_out[g0 + x] = acc[x];
                    want_side[g0 + x] = p[0] + p[1] * 3 + p[2] * 5 + p[3] * 7 + p[4] * 11;
                }
            }
            for opt in Opt::BOTH {
                for kernel in builds(opt, "tiles_across_barriers") {
                    let (mut out, mut side) = (vec![-9f32; global], vec![-9i32; global]);
                    kernel
                        .arg(Arg::input(&input))
                        .arg(Arg::output(&mut out))
                        .arg(Arg::output(&mut side))
                        .arg(Arg::value(rounds))
                        .run(&[global], Some(&[l]));
                    for i in 0..global {
                        assert_eq!(
                            (out[i].to_bits(), side[i]),
                            (want_out[i].to_bits(), want_side[i]),
                            "rounds {rounds} {opt:?} local {l}: item {i}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_tree_sum_whose_lanes_differ_in_both_parts() {
    let global = 120usize;
    let input: Vec<u32> = (0..global as u32).map(|i| i.wrapping_mul(2_654_435_761) >> 7).collect();
    for l in BARRIER_LOCALS {
        let mut want = vec![0u32; global];
        for (g0, lsz) in groups(global, l) {
            let mut scratch: Vec<u32> = (0..lsz)
                .map(|x| input[g0 + x].wrapping_mul(7).wrapping_add(x as u32))
                .collect();
            let mut s = lsz / 2;
            while s > 0 {
                for x in 0..s {
                    scratch[x] = scratch[x].wrapping_add(scratch[x + s]);
                }
                s >>= 1;
            }
            for x in 0..lsz {
                want[g0 + x] = scratch[0] ^ (x as u32).wrapping_mul(0x9e37_79b9);
            }
        }
        for opt in Opt::BOTH {
            for kernel in builds(opt, "tree_sums") {
                let mut out = vec![0u32; global];
                kernel
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::Local(4 * l))
                    .run(&[global], Some(&[l]));
                assert_eq!(out, want, "{opt:?} local {l}");
            }
        }
    }
}

/// `acc` of simd_wide's `strided` (`in_a_row` false) or `loops_in_a_row`
/// (true) for work-item `g` of a group of `ls`.
fn strided_acc(input: &[u32], g: usize, ls: usize, n: u32, stride: u32, in_a_row: bool) -> u32 {
    let mut acc = 0u32;
    let mut i = g;
    while i < n as usize {
        acc = acc.wrapping_mul(31).wrapping_add(input[i]);
        i += stride as usize;
    }
    if in_a_row {
        let mut j = g % ls + 1;
        while j < 50 {
            acc = acc.wrapping_mul(7).wrapping_add(j as u32);
            j = j * 2 + stride as usize;
        }
        return acc;
    }
    let mut j = g % ls + 3;
    while j < 40 {
        acc ^= (j as u32) << (j & 15);
        j += stride as usize + 2;
    }
    acc
}

#[test]
fn strided_loops_in_both_parts() {
    let global = 104usize;
    let input: Vec<u32> = (0..global as u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x5bd1)
        .collect();
    // Lanes one iteration apart (strides of 8 and more), or many (1, 5).
    for (n, stride) in [(104u32, 1u32), (97, 5), (60, 8), (3, 104)] {
        for opt in Opt::BOTH {
            for (name, in_a_row) in [("strided", false), ("loops_in_a_row", true)] {
                for l in LOCALS {
                    for kernel in builds(opt, name) {
                        let mut out = vec![0u32; global];
                        let lo = local(l);
                        kernel
                            .arg(Arg::input(&input))
                            .arg(Arg::output(&mut out))
                            .arg(Arg::value(n))
                            .arg(Arg::value(stride))
                            .run(&[global], lo.as_ref().map(|l| &l[..]));
                        let Some(ls) = l else { continue };
                        for (g, &got) in out.iter().enumerate() {
                            let acc = strided_acc(&input, g, ls, n, stride, in_a_row);
                            assert_eq!(got, acc, "{name} n {n} stride {stride} {opt:?} local {l:?}: item {g}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn vector_chains_in_four_and_eight_lanes() {
    let global = 104usize;
    let a: Vec<f32> = (0..8 * global).map(|j| ((j as f32) * 0.37).sin() * 50.0).collect();
    for rounds in [0i32, 3, 17] {
        let mut want = vec![0.0f32; 8 * global];
        let mut want_h = vec![0i32; 4 * global];
        for (j, w) in want.iter_mut().enumerate() {
            let mut acc = a[j];
            for r in 0..rounds {
                acc = acc.mul_add(0.75, r as f32);
            }
            *w = acc;
        }
        // h: the low four components of each work-item's float8.
        for (j, wh) in want_h.iter_mut().enumerate() {
            let mut h = a[8 * (j / 4) + j % 4] as i32;
            for r in 0..rounds {
                h = h.wrapping_mul(3).wrapping_add(r);
            }
            *wh = h;
        }
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "vector_chains") {
                    let (mut o, mut oi) = (vec![0.0f32; 8 * global], vec![0i32; 4 * global]);
                    let lo = local(l);
                    kernel
                        .arg(Arg::input(&a))
                        .arg(Arg::output(&mut o))
                        .arg(Arg::output(&mut oi))
                        .arg(Arg::value(rounds))
                        .run(&[global], lo.as_ref().map(|l| &l[..]));
                    for j in 0..8 * global {
                        assert_eq!(
                            o[j].to_bits(),
                            want[j].to_bits(),
                            "rounds {rounds} {opt:?} local {l:?}: acc {j}"
                        );
                    }
                    assert_eq!(oi, want_h, "rounds {rounds} {opt:?} local {l:?}: h");
                }
            }
        }
    }
}

/// `crowded_escape`: its masked loop reads more invariants than the vector
/// registers hold beside what it carries (jit/src/invariant_loads.rs reads
/// them from memory in the loop). Points on a grid crossing the
/// Mandelbrot set's boundary, so neighbours leave after different counts,
/// against the host, bit for bit.
#[test]
fn a_loop_crowded_with_invariants() {
    let global = 203usize;
    let c: Vec<f32> = (0..global)
        .flat_map(|i| [-2.0 + (i % 29) as f32 * 0.09, -1.2 + (i / 29) as f32 * 0.35])
        .collect();
    for (scale, maxit) in [(0.5f32, 0u32), (0.5, 7), (1.25, 200)] {
        let mut want = vec![0u32; global];
        let mut want_last = vec![0f32; global];
        for i in 0..global {
            let (cx, cy) = (c[2 * i], c[2 * i + 1]);
            let ox = (cx * scale - (cx + 0.5)) * 0.001;
            let oy = (cy - scale - cy * 0.25) * 0.001;
            let dx = cx as f64 * 1.5;
            let (mut zx, mut zy, mut acc, mut it) = (0f32, 0f32, 0f64, 0u32);
            while it < maxit {
                let (zx2, zy2) = (zx * zx, zy * zy);
                if zx2 + zy2 > 4.0 {
                    break;
                }
                zy = 2.0 * zx * zy + cy + oy;
                zx = zx2 - zy2 + cx + ox;
                acc += dx * zx as f64;
                it += 1;
            }
            want[i] = it;
            want_last[i] = zx + zy + acc as f32;
        }
        for opt in Opt::BOTH {
            for l in LOCALS {
                for kernel in builds(opt, "crowded_escape") {
                    let (mut out, mut last) = (vec![u32::MAX; global], vec![f32::NAN; global]);
                    let lo = local(l);
                    kernel
                        .arg(Arg::input(&c))
                        .arg(Arg::output(&mut out))
                        .arg(Arg::output(&mut last))
                        .arg(Arg::value(scale))
                        .arg(Arg::value(maxit))
                        .run(&[global], lo.as_ref().map(|l| &l[..]));
                    assert_eq!(out, want, "scale {scale} maxit {maxit} {opt:?} local {l:?}: counts");
                    for i in 0..global {
                        assert_eq!(
                            last[i].to_bits(),
                            want_last[i].to_bits(),
                            "scale {scale} maxit {maxit} {opt:?} local {l:?}: last[{i}]"
                        );
                    }
                }
            }
        }
    }
}
