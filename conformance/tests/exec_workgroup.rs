//! OpenCL C 2.0 work-group collective functions (work_group_all, any,
//! broadcast, reduce, scan_inclusive and scan_exclusive of add, min and max
//! on int, uint, long and float: the core OpGroup* instructions with
//! Workgroup scope), their sub-group forms (Subgroup scope, over clift's
//! sub-groups of consecutive work-items), and async_work_group_copy /
//! async_work_group_strided_copy with wait_group_events (OpGroupAsyncCopy,
//! OpGroupWaitEvents). Uniform and non-uniform work-groups, -O0 and -O2.
//! Kernels: `kernels/cl/workgroup.cl`.

use clift_conformance::exec::{Arg, Kernel, Opt, Pod};
use clift_conformance::rng::Rng;

/// (first item, size) of each group of a 1D range.
fn groups(global: usize, local: usize) -> Vec<(usize, usize)> {
    (0..global.div_ceil(local))
        .map(|g| (g * local, local.min(global - g * local)))
        .collect()
}

/// The (global, local) ranges every test runs: uniform and non-uniform
/// (the last two have a last sub-group smaller than the others).
const RANGES: [(usize, usize); 4] = [(64 * 10, 64), (1000, 64), (7 * 24, 24), (1000, 63)];

/// Runs `name(in, out)` with `per` outputs per work-item and compares them
/// with `f(group inputs, local id)`.
fn check<T: Pod + PartialEq + std::fmt::Debug>(
    name: &str,
    per: usize,
    input: impl Fn(usize) -> Vec<T>,
    f: impl Fn(&[T], usize) -> Vec<T>,
    eq: impl Fn(&T, &T) -> bool,
) {
    check_over(name, per, input, f, eq, groups);
}

/// [`check`] with the groups `f` sees (first item, size) made by
/// `split(global, local)`.
fn check_over<T: Pod + PartialEq + std::fmt::Debug>(
    name: &str,
    per: usize,
    input: impl Fn(usize) -> Vec<T>,
    f: impl Fn(&[T], usize) -> Vec<T>,
    eq: impl Fn(&T, &T) -> bool,
    split: impl Fn(usize, usize) -> Vec<(usize, usize)>,
) {
    for (global, local) in RANGES {
        let x = input(global);
        let mut want = Vec::new();
        for (b, m) in split(global, local) {
            for l in 0..m {
                let w = f(&x[b..b + m], l);
                assert_eq!(w.len(), per);
                want.extend(w);
            }
        }
        for opt in Opt::BOTH {
            let mut out = vec![x[0]; global * per];
            Kernel::new("workgroup", opt, name)
                .arg(Arg::input(&x))
                .arg(Arg::output(&mut out))
                .run(&[global], Some(&[local]));
            for i in 0..global {
                let (g, w) = (&out[i * per..(i + 1) * per], &want[i * per..(i + 1) * per]);
                assert!(
                    g.iter().zip(w).all(|(a, b)| eq(a, b)),
                    "{opt:?} {name}: work-item {i} (global {global}, local {local}): got {g:?}, want {w:?}"
                );
            }
        }
    }
}

fn ints(n: usize, seed: u64) -> Vec<i32> {
    let mut r = Rng(seed);
    // Group 0 all positive (work_group_all true); later groups mixed.
    (0..n)
        .map(|i| if i < 64 { r.int(1, 100) } else { r.int(-1000, 1000) })
        .collect()
}

fn scan<T: Copy>(x: &[T], l: usize, init: T, op: impl Fn(T, T) -> T, inclusive: bool) -> T {
    let end = if inclusive { l + 1 } else { l };
    x[..end].iter().fold(init, |a, &b| op(a, b))
}

#[test]
fn int_collectives() {
    check(
        "collectives_int",
        12,
        |n| ints(n, 1),
        |x, l| {
            let all = x.iter().all(|&v| v > 0) as i32;
            let any = x.iter().any(|&v| v > 100) as i32;
            let add = |a: i32, b: i32| a.wrapping_add(b);
            vec![
                all,
                any,
                x[3],
                scan(x, x.len() - 1, 0, add, true),
                scan(x, x.len() - 1, i32::MAX, i32::min, true),
                scan(x, x.len() - 1, i32::MIN, i32::max, true),
                scan(x, l, 0, add, true),
                scan(x, l, i32::MAX, i32::min, true),
                scan(x, l, i32::MIN, i32::max, true),
                scan(x, l, 0, add, false),
                scan(x, l, i32::MAX, i32::min, false),
                scan(x, l, i32::MIN, i32::max, false),
            ]
        },
        // work_group_all/any return "non-zero" for true.
        |a, b| (a == b) || (*b == 1 && *a != 0),
    );
}

#[test]
fn uint_collectives() {
    check(
        "collectives_uint",
        6,
        |n| {
            let mut r = Rng(2);
            (0..n).map(|_| r.next() | ((r.next() & 1) << 31)).collect::<Vec<u32>>()
        },
        |x, l| {
            vec![
                scan(x, x.len() - 1, u32::MAX, u32::min, true),
                scan(x, x.len() - 1, 0, u32::max, true),
                scan(x, l, u32::MAX, u32::min, true),
                scan(x, l, 0, u32::max, true),
                scan(x, l, u32::MAX, u32::min, false),
                scan(x, l, 0, u32::max, false),
            ]
        },
        |a, b| a == b,
    );
}

#[test]
fn long_collectives() {
    check(
        "collectives_long",
        4,
        |n| {
            let mut r = Rng(3);
            (0..n)
                .map(|_| ((r.next() as i64) << 31) - (1i64 << 61) + r.next() as i64)
                .collect::<Vec<i64>>()
        },
        |x, l| {
            let add = |a: i64, b: i64| a.wrapping_add(b);
            vec![
                scan(x, x.len() - 1, 0, add, true),
                scan(x, l, 0, add, true),
                scan(x, l, i64::MIN, i64::max, false),
                x[1],
            ]
        },
        |a, b| a == b,
    );
}

#[test]
fn float_collectives() {
    check(
        "collectives_float",
        5,
        |n| {
            // Small integers: every sum is exact in any order.
            let mut r = Rng(4);
            (0..n).map(|_| r.int(-500, 500) as f32).collect::<Vec<f32>>()
        },
        |x, l| {
            vec![
                scan(x, x.len() - 1, 0.0, |a, b| a + b, true),
                scan(x, x.len() - 1, f32::INFINITY, f32::min, true),
                scan(x, x.len() - 1, f32::NEG_INFINITY, f32::max, true),
                scan(x, l, 0.0, |a, b| a + b, true),
                scan(x, l, f32::NEG_INFINITY, f32::max, false),
            ]
        },
        |a, b| a == b,
    );
}

#[test]
fn broadcast_from_a_2d_local_id() {
    let (global, local) = ([16usize, 12usize], [4usize, 4usize]);
    let n = global[0] * global[1];
    let input = ints(n, 5);
    let mut want = vec![0i32; n];
    for y in 0..global[1] {
        for x in 0..global[0] {
            let (bx, by) = (x / local[0] * local[0], y / local[1] * local[1]);
            want[x + y * global[0]] = input[(bx + 1) + (by + 2) * global[0]] + 16;
        }
    }
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("workgroup", opt, "broadcast_2d")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .run(&global, Some(&local));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn broadcasts_in_a_loop() {
    // Each iteration adds i (from work-item 0) and 5000 + i (from 5).
    let n = 6;
    let want: i32 = (0..n).map(|i| 5000 + 2 * i).sum();
    for opt in Opt::BOTH {
        let mut out = vec![0i32; 32];
        Kernel::new("workgroup", opt, "broadcast_loop")
            .arg(Arg::output(&mut out))
            .arg(Arg::value(n))
            .run(&[32], Some(&[8]));
        assert_eq!(out, vec![want; 32], "{opt:?}");
    }
}

/// The sub-groups of a 1D range: each work-group's, in order.
fn sub_groups(global: usize, local: usize) -> Vec<(usize, usize)> {
    groups(global, local)
        .into_iter()
        .flat_map(|(b, m)| {
            clift_conformance::sub_groups_of(m)
                .into_iter()
                .map(move |(f, n)| (b + f, n))
        })
        .collect()
}

#[test]
fn sub_group_collectives_over_each_sub_group() {
    check_over(
        "collectives_sub",
        6,
        |n| ints(n, 6),
        |x, l| {
            let add = |a: i32, b: i32| a.wrapping_add(b);
            vec![
                x.iter().all(|&v| v > 0) as i32,
                x.iter().any(|&v| v > 100) as i32,
                x[2],
                scan(x, x.len() - 1, 0, add, true),
                scan(x, l, i32::MIN, i32::max, true),
                scan(x, l, 0, add, false),
            ]
        },
        |a, b| (a == b) || (*b == 1 && *a != 0),
        sub_groups,
    );
}

#[test]
fn async_work_group_copies() {
    for (global, local) in RANGES {
        let input = ints(global, 7);
        let mut want = vec![-1i32; global];
        let mut want2 = vec![-1i32; global * 2];
        for (b, m) in groups(global, local) {
            for l in 0..m {
                want[b + l] = input[b + m - 1 - l] * 2;
                want2[(b + l) * 2] = input[b + l] + 1;
            }
        }
        for opt in Opt::BOTH {
            let mut out = vec![-1i32; global];
            let mut out2 = vec![-1i32; global * 2];
            Kernel::new("workgroup", opt, "async_copy")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut out2))
                .arg(Arg::Local(local * 4))
                .run(&[global], Some(&[local]));
            assert_eq!(
                out, want,
                "{opt:?}: global {global} local {local}: async_work_group_copy"
            );
            assert_eq!(
                out2, want2,
                "{opt:?}: global {global} local {local}: async_work_group_strided_copy"
            );
        }
    }
}
