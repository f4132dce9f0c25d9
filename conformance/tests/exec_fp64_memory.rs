//! Doubles in memory and across work-items through the ICD loader
//! (`kernels/cl/fp64_memory.cl` at -O0 and -O2): private arrays, structs
//! holding doubles, generic pointers, program-scope `__constant` and
//! `__global` doubles, a local-memory reduction across barriers, the
//! work-group collectives (reduce, scans, broadcast), async copies, and
//! kernels that mix doubles with 4-lane (vectorized) float work and
//! varying branches, with local sizes that leave remainders.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::rng::Rng;

fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 1000.0
        })
        .collect()
}

#[test]
fn private_struct_generic_and_program_scope_doubles() {
    const N: usize = 37;
    let a = values(N, 1);
    let table = [0.5, -1.25, 3.0e300, 4.9e-324];
    let accum = [1.0, 2.0];
    // Rec { double x; float f; double2 v; }: 0, 8, 16; 32 bytes.
    let mut recs = vec![0u8; 32 * N];
    for i in 0..N {
        let r = &mut recs[32 * i..32 * i + 32];
        r[0..8].copy_from_slice(&(i as f64 * 0.25).to_le_bytes());
        r[8..12].copy_from_slice(&7.5f32.to_le_bytes());
        r[16..24].copy_from_slice(&(i as f64).to_le_bytes());
        r[24..32].copy_from_slice(&(-(i as f64) - 0.5).to_le_bytes());
    }
    for opt in Opt::BOTH {
        let mut rs = recs.clone();
        let mut o = vec![0f64; N];
        Kernel::new("fp64_memory", opt, "spaces")
            .arg(Arg::input(&a))
            .arg(Arg::output_bytes(&mut rs))
            .arg(Arg::output(&mut o))
            .run(&[N], None);
        for i in 0..N {
            let rd = |k: usize| f64::from_le_bytes(rs[32 * i + k..32 * i + k + 8].try_into().unwrap());
            let x = i as f64 * 0.25 + a[i] * 5.0;
            assert!(same(rd(0), x), "{opt:?} rec {i}.x: {} want {x}", rd(0));
            let f = f32::from_le_bytes(rs[32 * i + 8..32 * i + 12].try_into().unwrap());
            assert_eq!(f, x as f32, "{opt:?} rec {i}.f");
            let t = table[i % 4];
            assert!(same(rd(16), (-(i as f64) - 0.5) * t), "{opt:?} rec {i}.v.x");
            assert!(same(rd(24), i as f64 * t), "{opt:?} rec {i}.v.y");
            let want = a[i] * 3.0 + table[(i + 1) % 4] + accum[i % 2];
            assert!(same(o[i], want), "{opt:?} o[{i}] = {} want {want}", o[i]);
        }
    }
}

#[test]
fn local_reduction_across_barriers() {
    let a = values(256, 3);
    for opt in Opt::BOTH {
        for local in [1usize, 4, 16, 64] {
            let mut o = vec![0f64; 512];
            Kernel::new("fp64_memory", opt, "local_sum")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .arg(Arg::Local(local * 8))
                .run(&[256], Some(&[local]));
            for g in 0..256 / local {
                // The tree's order of additions.
                let mut s: Vec<f64> = a[g * local..(g + 1) * local].to_vec();
                let mut w = local / 2;
                while w > 0 {
                    for l in 0..w {
                        s[l] += s[l + w];
                    }
                    w /= 2;
                }
                for l in 0..local {
                    let i = g * local + l;
                    assert!(same(o[2 * i], s[0]), "{opt:?} local {local}: sum of group {g} at {i}");
                    assert!(
                        same(o[2 * i + 1], a[i] * 3.0),
                        "{opt:?} local {local}: kept value at {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn work_group_collectives_on_double() {
    let mut a = values(240, 5);
    a[7] = f64::INFINITY;
    a[100] = -0.0;
    for opt in Opt::BOTH {
        for local in [8usize, 16, 40] {
            let n = a.len();
            let mut o = vec![0f64; 8 * n];
            Kernel::new("fp64_memory", opt, "collectives")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .run(&[n], Some(&[local]));
            for g in 0..n / local {
                let grp = &a[g * local..(g + 1) * local];
                let sum: f64 = grp.iter().sum();
                let min = grp.iter().copied().fold(f64::INFINITY, f64::min);
                let max = grp.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                for l in 0..local {
                    let i = g * local + l;
                    let r = |k: usize| o[k * n + i];
                    // Sums in any order: within a few ulps of the largest
                    // partial magnitude (exact where an infinity decides).
                    let near = |got: f64, want: f64, scale: f64| {
                        same(got, want) || (got - want).abs() <= scale * 64.0 * f64::EPSILON
                    };
                    let scale: f64 = grp.iter().map(|v| v.abs()).sum();
                    assert!(
                        near(r(0), sum, scale),
                        "{opt:?} reduce_add group {g}: {} want {sum}",
                        r(0)
                    );
                    assert!(
                        same(r(1), min) || (r(1) == 0.0 && min == 0.0),
                        "{opt:?} reduce_min group {g}"
                    );
                    assert_eq!(r(2), max, "{opt:?} reduce_max group {g}");
                    let inc: f64 = grp[..=l].iter().sum();
                    let exc: f64 = grp[..l].iter().sum();
                    let part: f64 = grp[..=l].iter().map(|v| v.abs()).sum();
                    assert!(
                        near(r(3), inc, part),
                        "{opt:?} scan_inclusive_add at {i}: {} want {inc}",
                        r(3)
                    );
                    assert!(
                        near(r(4), exc, part),
                        "{opt:?} scan_exclusive_add at {i}: {} want {exc}",
                        r(4)
                    );
                    let imin = grp[..=l].iter().copied().fold(f64::INFINITY, f64::min);
                    assert!(
                        same(r(5), imin) || (r(5) == 0.0 && imin == 0.0),
                        "{opt:?} scan_inclusive_min at {i}"
                    );
                    let emax = grp[..l].iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    assert!(
                        same(r(6), emax) || (r(6) == 0.0 && emax == 0.0),
                        "{opt:?} scan_exclusive_max at {i}"
                    );
                    assert!(same(r(7), grp[3]), "{opt:?} broadcast at {i}");
                }
            }
        }
    }
}

#[test]
fn async_copies_of_doubles() {
    let a = values(128, 7);
    for opt in Opt::BOTH {
        for local in [4usize, 32] {
            let mut o = vec![0f64; 2 * 128];
            Kernel::new("fp64_memory", opt, "copies")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .arg(Arg::Local(local * 8))
                .arg(Arg::Local(local * 16))
                .run(&[128], Some(&[local]));
            for g in 0..128 / local {
                for l in 0..local {
                    let i = g * local + l;
                    assert!(
                        same(o[2 * i], a[g * local + local - 1 - l]),
                        "{opt:?} local {local}: o[{i}].x"
                    );
                    assert!(same(o[2 * i + 1], a[i] * 2.0), "{opt:?} local {local}: o[{i}].y");
                }
            }
        }
    }
}

#[test]
fn doubles_beside_four_lane_work_and_varying_branches() {
    const N: usize = 1013;
    let mut a = values(N, 9);
    a[5] = 0.0;
    a[6] = -0.0;
    a[7] = f64::NAN;
    let b: Vec<f32> = (0..N).map(|i| i as f32 * 0.75 - 100.0).collect();
    for opt in Opt::BOTH {
        for local in [None, Some(16usize), Some(13), Some(6), Some(3)] {
            let l = local.map(|l| [l]);
            let l = l.as_ref().map(|l| &l[..]);
            for iters in [0, 5] {
                let (mut o, mut of) = (vec![0f64; N], vec![0f32; N]);
                Kernel::new("fp64_memory", opt, "simd_mix")
                    .arg(Arg::input(&a))
                    .arg(Arg::input(&b))
                    .arg(Arg::output(&mut o))
                    .arg(Arg::output(&mut of))
                    .arg(Arg::value(iters))
                    .run(&[N], l);
                for i in 0..N {
                    let y = b[i] * 2.0 + 1.0;
                    let mut acc = 0.0f64;
                    for k in 0..iters {
                        acc = acc * 0.5 + a[i] * f64::from(k);
                    }
                    // acc * 0.5 + x * k may be contracted: accept either.
                    let mut fused = 0.0f64;
                    for k in 0..iters {
                        fused = a[i].mul_add(f64::from(k), acc_half(fused));
                    }
                    let want = acc + f64::from(y);
                    let want_f = fused + f64::from(y);
                    assert!(
                        same(o[i], want) || same(o[i], want_f),
                        "{opt:?} local {local:?} iters {iters}: o[{i}] = {} want {want}",
                        o[i]
                    );
                    let wf = y + a[i] as f32;
                    assert!(
                        of[i].to_bits() == wf.to_bits() || (of[i].is_nan() && wf.is_nan()),
                        "{opt:?} local {local:?}: of[{i}] = {} want {wf}",
                        of[i]
                    );
                }
            }
            let mut o = vec![0f64; N];
            Kernel::new("fp64_memory", opt, "simd_branch")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .run(&[N], l);
            for i in 0..N {
                let x = a[i];
                let r = if x > 0.0 { x.sqrt() } else { -x * 2.0 };
                assert!(
                    same(o[i], r + i as f64),
                    "{opt:?} local {local:?}: branch o[{i}] = {}",
                    o[i]
                );
            }
        }
    }
}

fn acc_half(x: f64) -> f64 {
    x * 0.5
}

#[test]
fn double_work_inside_a_four_lane_body() {
    // This kernel gets a 4-lane body at -O0 and -O2, the float work in
    // f32x4 and the double work lane by lane (tests/exec_fp64_simd.rs
    // checks that); simd_mix and simd_branch above are kept scalar by the
    // worth-it rule.
    const G: usize = 1014;
    let n = 1000u32;
    let a: Vec<f32> = (0..G).map(|i| i as f32 * 0.01 - 3.0).collect();
    let d = values(G, 11);
    for opt in Opt::BOTH {
        for local in [None, Some(16usize), Some(13), Some(3)] {
            let l = local.map(|l| [l]);
            let (mut o, mut od) = (vec![-1f32; G], vec![-1f64; G]);
            Kernel::new("fp64_memory", opt, "simd_mostly_float")
                .arg(Arg::input(&a))
                .arg(Arg::input(&d))
                .arg(Arg::output(&mut o))
                .arg(Arg::output(&mut od))
                .arg(Arg::value(n))
                .run(&[G], l.as_ref().map(|l| &l[..]));
            for i in 0..G {
                if i >= n as usize {
                    assert_eq!(
                        (o[i], od[i]),
                        (-1.0, -1.0),
                        "{opt:?} {local:?}: item {i} past the guard"
                    );
                    continue;
                }
                let x = a[i];
                let y = x * x + 3.0 * x - 1.0;
                let xd = f64::from(x);
                let want = d[i] * 2.0 + xd * xd;
                let fused = xd.mul_add(xd, d[i] * 2.0);
                assert!(
                    same(od[i], want) || same(od[i], fused),
                    "{opt:?} {local:?}: od[{i}] = {} want {want}",
                    od[i]
                );
                let z = y * x - y / (x * x + 1.0);
                let w = z * z - y * 0.5 + x * 0.25;
                let v = w * y - z * x + w * 0.125;
                let wf = v * v + w - z + y * x;
                // Float contraction is allowed: within a few ulps of v*v.
                let tol = (v * v).abs().max(wf.abs()) * 1e-5;
                assert!(
                    (o[i] - wf).abs() <= tol,
                    "{opt:?} {local:?}: o[{i}] = {} want {wf}",
                    o[i]
                );
            }
        }
    }
}

#[test]
fn sub_group_collectives_on_double() {
    let mut a = values(96, 13);
    a[10] = f64::NEG_INFINITY;
    for opt in Opt::BOTH {
        for local in [4usize, 32] {
            let n = a.len();
            let mut o = vec![0f64; 3 * n];
            Kernel::new("fp64_memory", opt, "collectives_sub")
                .arg(Arg::input(&a))
                .arg(Arg::output(&mut o))
                .run(&[n], Some(&[local]));
            // Sub-groups of consecutive work-items (the local sizes are
            // multiples of the sub-group size or smaller than it).
            let sub = local.min(clift_conformance::sub_group_size());
            assert!(local.is_multiple_of(sub));
            for g in 0..n / sub {
                let grp = &a[g * sub..(g + 1) * sub];
                let max = grp.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                for l in 0..sub {
                    let i = g * sub + l;
                    assert!(same(o[i], max), "{opt:?} sub_group_reduce_max at {i}");
                    let min = grp[..=l].iter().copied().fold(f64::INFINITY, f64::min);
                    assert!(same(o[n + i], min), "{opt:?} sub_group_scan_inclusive_min at {i}");
                    assert!(same(o[2 * n + i], grp[1]), "{opt:?} sub_group_broadcast at {i}");
                }
            }
        }
    }
}

#[test]
fn struct_with_a_double_array_by_value() {
    // struct { int n; double v[3]; }: n at 0, v at 8; 32 bytes.
    let mut s = vec![0u8; 32];
    s[0..4].copy_from_slice(&(-42i32).to_le_bytes());
    for (k, v) in [1.5f64, -0.0, 1e-310].iter().enumerate() {
        s[8 + 8 * k..16 + 8 * k].copy_from_slice(&v.to_le_bytes());
    }
    for opt in Opt::BOTH {
        let mut o = vec![0f64; 4 * 6];
        Kernel::new("fp64_memory", opt, "array_arg")
            .arg(Arg::bytes(&s))
            .arg(Arg::output(&mut o))
            .run(&[6], None);
        for i in 0..6 {
            let mut v = [1.5f64, -0.0, 1e-310];
            v[i % 3] *= 2.0;
            let want = [-42.0, v[0], v[1], v[2]];
            for k in 0..4 {
                assert!(
                    same(o[4 * i + k], want[k]),
                    "{opt:?} item {i} field {k}: {}",
                    o[4 * i + k]
                );
            }
        }
    }
}
