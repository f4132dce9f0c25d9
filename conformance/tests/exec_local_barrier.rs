//! __local memory and barriers: __local arrays declared in the
//! kernel (module-scope Workgroup variables) and passed as arguments;
//! barrier(CLK_LOCAL_MEM_FENCE), barrier(CLK_GLOBAL_MEM_FENCE), both, and
//! work_group_barrier; barriers in loops (a tree reduction, a prefix scan,
//! an iterated stencil), in branches uniform over the work-group and in a
//! called function; private values and arrays live across barriers; 2D and
//! 3D work-groups; a tiled matrix multiply; many work-groups in flight with
//! one result per group. Kernels: `kernels/cl/local_barrier.cl` at -O0 and
//! -O2, every output element compared with a host reference.

use clift_conformance::exec::{Arg, Kernel, Opt};
use clift_conformance::rng::Rng;

/// The groups of a 1D range: (first item, size) of each, the last one
/// possibly smaller.
fn groups(global: usize, local: usize) -> Vec<(usize, usize)> {
    (0..global.div_ceil(local))
        .map(|g| (g * local, local.min(global - g * local)))
        .collect()
}

/// For every group of a 1D range, `f(inputs of the group)` gives the
/// group's outputs, concatenated.
fn per_group(input: &[i32], local: usize, mut f: impl FnMut(&[i32]) -> Vec<i32>) -> Vec<i32> {
    groups(input.len(), local)
        .iter()
        .flat_map(|&(b, n)| f(&input[b..b + n]))
        .collect()
}

#[test]
fn a_local_array_declared_in_the_kernel() {
    let n = 64 * 40;
    let input = Rng(1).ints(n, -1_000_000, 1_000_000);
    let want = per_group(&input, 64, |x| x.iter().rev().copied().collect());
    for opt in Opt::BOTH {
        // reqd_work_group_size(64, 1, 1): with a NULL local size clift must
        // choose 64 too.
        for local in [Some([64usize]), None] {
            let mut out = vec![0i32; n];
            let k = Kernel::new("local_barrier", opt, "reverse_declared");
            let reqd: [usize; 3] = k.work_group_info(clift_conformance::CL_KERNEL_COMPILE_WORK_GROUP_SIZE);
            assert_eq!(reqd, [64, 1, 1], "{opt:?}");
            k.arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .run(&[n], local.as_ref().map(|l| &l[..]));
            assert_eq!(out, want, "{opt:?}: local {local:?}");
        }
    }
}

#[test]
fn a_local_array_argument_with_non_uniform_groups() {
    for (n, local) in [(1000usize, 64usize), (777, 100), (50, 50), (300, 1)] {
        let input = Rng(2).ints(n, -1000, 1000);
        let want = per_group(&input, local, |x| x.iter().rev().copied().collect());
        for opt in Opt::BOTH {
            let mut out = vec![0i32; n];
            Kernel::new("local_barrier", opt, "reverse_arg")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .run(&[n], Some(&[local]));
            assert_eq!(out, want, "{opt:?}: global {n} local {local}");
        }
    }
}

fn rotate(x: &[i32], by: usize) -> impl Fn(usize) -> i32 + '_ {
    move |l| x[(l + by) % x.len()]
}

#[test]
fn a_global_memory_fence() {
    let (n, local) = (1000usize, 40usize);
    let input = Rng(3).ints(n, -1000, 1000);
    let want = per_group(&input, local, |x| (0..x.len()).map(|l| 2 * rotate(x, 1)(l)).collect());
    for opt in Opt::BOTH {
        let mut scratch = vec![0i32; n];
        let mut out = vec![0i32; n];
        Kernel::new("local_barrier", opt, "rotate_global")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut scratch))
            .arg(Arg::output(&mut out))
            .run(&[n], Some(&[local]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn both_fences_and_work_group_barrier() {
    let (n, local) = (960usize, 48usize);
    let input = Rng(4).ints(n, -1000, 1000);
    let want = per_group(&input, local, |x| {
        let m = x.len();
        let a = |l: usize| (x[(l + 1) % m] + 1) * 1000 + (x[(l + 2) % m] - 1);
        (0..m).map(|l| a((l + m - 1) % m)).collect()
    });
    for opt in Opt::BOTH {
        let mut scratch = vec![0i32; n];
        let mut out = vec![0i32; n];
        Kernel::new("local_barrier", opt, "rotate_both")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut scratch))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4))
            .run(&[n], Some(&[local]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn tree_reduction_with_a_barrier_in_a_loop() {
    // 256 groups of 64 (many in flight on every core), a grid-stride
    // prologue over 100,000 elements, one sum per group.
    // Also groups whose x size is a multiple of 4 (the 4-lane phases, with
    // branches whose lanes differ between the barriers) down to one chunk.
    let shapes = [
        (256 * 64usize, 64usize),
        (8 * 256, 256),
        (4 * 2, 2),
        (5 * 16, 16),
        (2 * 8, 8),
        (7 * 4, 4),
    ];
    for (global, local) in shapes {
        let n = 100_000usize;
        let input = Rng(5).ints(n, -1000, 1000);
        let acc = |gid: usize| -> i32 { (gid..n).step_by(global).map(|i| input[i]).sum() };
        let want: Vec<i32> = (0..global / local)
            .map(|g| (g * local..(g + 1) * local).map(acc).sum())
            .collect();
        for opt in Opt::BOTH {
            let mut partial = vec![0i32; global / local];
            Kernel::new("local_barrier", opt, "reduce")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut partial))
                .arg(Arg::Local(local * 4))
                .arg(Arg::value(n as u32))
                .run(&[global], Some(&[local]));
            assert_eq!(partial, want, "{opt:?}: global {global} local {local}");
        }
    }
}

#[test]
fn prefix_scan_with_two_barriers_per_step() {
    for (n, local) in [(128 * 32usize, 128usize), (1000, 100), (999, 64)] {
        let input = Rng(6).ints(n, -100, 100);
        let want = per_group(&input, local, |x| {
            x.iter()
                .scan(0, |s, v| {
                    *s += v;
                    Some(*s)
                })
                .collect()
        });
        for opt in Opt::BOTH {
            let mut out = vec![0i32; n];
            Kernel::new("local_barrier", opt, "scan")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .run(&[n], Some(&[local]));
            assert_eq!(out, want, "{opt:?}: global {n} local {local}");
        }
    }
}

#[test]
fn barriers_in_work_group_uniform_branches() {
    let (n, local) = (32 * 20usize, 32usize);
    let input = Rng(7).ints(n, -1000, 1000);
    for mode in [0, 1] {
        let mut want = Vec::new();
        for (g, &(b, m)) in groups(n, local).iter().enumerate() {
            let x = &input[b..b + m];
            let mut v: Vec<i32> = if g & 1 == 1 {
                (0..m).map(|l| 2 * x[(l + 1) % m]).collect()
            } else {
                let x1 = |l: usize| 3 * x[(l + m - 1) % m];
                (0..m).map(|l| x1(m - 1 - l) + 1).collect()
            };
            if mode > 0 {
                let v0 = v[0];
                v.iter_mut().for_each(|e| *e += v0);
            }
            want.extend(v);
        }
        for opt in Opt::BOTH {
            let mut out = vec![0i32; n];
            Kernel::new("local_barrier", opt, "uniform_branches")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .arg(Arg::value(mode))
                .run(&[n], Some(&[local]));
            assert_eq!(out, want, "{opt:?}: mode {mode}");
        }
    }
}

#[test]
fn private_values_and_arrays_live_across_barriers() {
    let (n, local) = (1000usize, 50usize);
    let input = Rng(8).ints(n, -100_000, 100_000);
    let want = per_group(&input, local, |x| {
        let m = x.len();
        let p = |l: usize| x[l] * 3 + 1;
        let arr = |l: usize, i: i32| x[l] + i * i;
        let nb = |l: usize| p((l + 1) % m);
        let t2 = |l: usize| arr(l, nb(l) & 7);
        (0..m)
            .map(|l| nb(l) + p(l) + x[l] + arr(l, x[l] & 7) + t2((l + 3) % m))
            .collect()
    });
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("local_barrier", opt, "live_across")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4))
            .run(&[n], Some(&[local]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn an_iterated_stencil_with_barriers_in_a_loop() {
    let (n, local) = (16 * 33usize, 33usize);
    let input = Rng(9).ints(n, -10_000, 10_000);
    for iters in [0, 1, 7, 40] {
        let mut want = Vec::new();
        for &(b, m) in &groups(n, local) {
            let mut v: Vec<i32> = input[b..b + m].to_vec();
            let mut changes = vec![0; m];
            for it in 0..iters {
                let t = v.clone();
                for l in 0..m {
                    let left = if l > 0 { t[l - 1] } else { t[m - 1] };
                    let right = if l + 1 < m { t[l + 1] } else { t[0] };
                    let nv = (left + 2 * t[l] + right) / 4 + it;
                    changes[l] += (nv != t[l]) as i32;
                    v[l] = nv;
                }
            }
            for l in 0..m {
                want.extend([v[l], changes[l]]);
            }
        }
        for opt in Opt::BOTH {
            let mut out = vec![0i32; n * 2];
            Kernel::new("local_barrier", opt, "smooth")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .arg(Arg::value(iters))
                .run(&[n], Some(&[local]));
            assert_eq!(out, want, "{opt:?}: {iters} iterations");
        }
    }
}

#[test]
fn a_barrier_inside_a_called_function() {
    let (n, local) = (640usize, 64usize);
    let input = Rng(10).ints(n, -1000, 1000);
    let want = per_group(&input, local, |x| {
        let m = x.len();
        let v1 = |l: usize| x[(l + 5) % m] + 1;
        (0..m).map(|l| 2 * v1((l + 5) % m)).collect()
    });
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        Kernel::new("local_barrier", opt, "barrier_in_function")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(local * 4))
            .run(&[n], Some(&[local]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn a_2d_work_group_transposes_tiles() {
    let (w, h) = (48usize, 32usize);
    let input: Vec<f32> = (0..w * h).map(|i| i as f32 * 0.5 - 100.0).collect();
    let mut want = vec![0f32; w * h];
    for r in 0..w {
        for c in 0..h {
            want[r * h + c] = input[c * w + r];
        }
    }
    for opt in Opt::BOTH {
        let mut out = vec![-1f32; w * h];
        Kernel::new("local_barrier", opt, "transpose")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::value(w as u32))
            .arg(Arg::value(h as u32))
            .run(&[w, h], Some(&[8, 8]));
        assert_eq!(out, want, "{opt:?}");
    }
}

#[test]
fn a_3d_work_group_mirrors_through_local_memory() {
    for (global, local) in [
        ([8usize, 6, 8], [4usize, 3, 2]),
        ([4, 4, 4], [4, 4, 4]),
        ([10, 3, 6], [5, 1, 3]),
    ] {
        let total: usize = global.iter().product();
        let input = Rng(11).ints(total, -10_000, 10_000);
        let mut want = vec![0i32; total];
        let lin = |x: usize, y: usize, z: usize| x + global[0] * (y + global[1] * z);
        for z in 0..global[2] {
            for y in 0..global[1] {
                for x in 0..global[0] {
                    let (lx, ly, lz) = (x % local[0], y % local[1], z % local[2]);
                    let (bx, by, bz) = (x - lx, y - ly, z - lz);
                    let (mx, my, mz) = (local[0] - 1 - lx, local[1] - 1 - ly, local[2] - 1 - lz);
                    let local_linear = lx + local[0] * (ly + local[1] * lz);
                    want[lin(x, y, z)] = input[lin(bx + mx, by + my, bz + mz)] * 10 + local_linear as i32;
                }
            }
        }
        let lsize: usize = local.iter().product();
        for opt in Opt::BOTH {
            let mut out = vec![0i32; total];
            Kernel::new("local_barrier", opt, "mirror3d")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(lsize * 4))
                .run(&global, Some(&local));
            assert_eq!(out, want, "{opt:?}: global {global:?} local {local:?}");
        }
    }
}

#[test]
fn tiled_sgemm() {
    let (m, n, k) = (40usize, 32usize, 48usize);
    let a: Vec<f32> = (0..m * k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..k * n).map(|i| ((i * 5) % 11) as f32 * 0.25).collect();
    let mut want = vec![0f32; m * n];
    for r in 0..m {
        for c in 0..n {
            want[r * n + c] = (0..k).map(|x| a[r * k + x] * b[x * n + c]).sum();
        }
    }
    for opt in Opt::BOTH {
        let mut c = vec![0f32; m * n];
        Kernel::new("local_barrier", opt, "sgemm_tiled")
            .arg(Arg::input(&a))
            .arg(Arg::input(&b))
            .arg(Arg::output(&mut c))
            .arg(Arg::value(m as u32))
            .arg(Arg::value(n as u32))
            .arg(Arg::value(k as u32))
            .run(&[n, m], Some(&[8, 8]));
        // Small integers and quarters: exact in any summation order.
        assert_eq!(c, want, "{opt:?}");
    }
}

#[test]
fn the_largest_work_groups_keep_private_arrays_across_barriers() {
    for opt in Opt::BOTH {
        let k = Kernel::new("local_barrier", opt, "big_group");
        // The kernel's own limit (private memory may lower the device's).
        let max: usize = k.work_group_info(clift_conformance::CL_KERNEL_WORK_GROUP_SIZE);
        drop(k);
        assert!(max >= 1, "{opt:?}: CL_KERNEL_WORK_GROUP_SIZE {max}");
        for local in [max, 1024.min(max), 96.min(max)] {
            let n = local * 3;
            let input = Rng(12).ints(n, -100_000, 100_000);
            let want = per_group(&input, local, |x| {
                let m = x.len();
                let s = |l: usize| -> i32 { (0..32).map(|i| x[l] + ((i + x[(l + i as usize) % m]) & 31)).sum() };
                (0..m).map(|l| s(m - 1 - l) + x[l] + (l & 31) as i32).collect()
            });
            let mut out = vec![0i32; n];
            Kernel::new("local_barrier", opt, "big_group")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .run(&[n], Some(&[local]));
            assert_eq!(out, want, "{opt:?}: local {local}");
        }
    }
}

#[test]
fn barriers_in_nested_loops_a_uniform_if_and_a_uniform_switch() {
    let (n, local) = (24 * 20usize, 24usize);
    let input = Rng(13).ints(n, 0, 1000);
    for (outer, inner) in [(0, 0), (1, 0), (5, 2), (7, 1)] {
        let sel: Vec<i32> = (0..outer.max(1)).map(|i| i % 3).collect();
        let want = per_group(&input, local, |x| {
            let m = x.len();
            let mut v: Vec<i32> = x.to_vec();
            for i in 0..outer {
                for j in 0..inner + i {
                    let t = v.clone();
                    for l in 0..m {
                        v[l] += t[(l + j as usize + 1) % m] % 7;
                    }
                }
                if i & 1 == 1 {
                    let t: Vec<i32> = v.iter().map(|e| e * 2).collect();
                    for l in 0..m {
                        v[l] -= t[(l + 1) % m] / 3;
                    }
                }
                match i % 3 {
                    0 => {
                        let t0 = v[0];
                        v.iter_mut().for_each(|e| *e ^= t0);
                    }
                    1 => v.iter_mut().for_each(|e| *e += 1),
                    _ => v.iter_mut().enumerate().for_each(|(l, e)| *e += l as i32),
                }
            }
            v
        });
        for opt in Opt::BOTH {
            let mut out = vec![0i32; n];
            Kernel::new("local_barrier", opt, "nested_barrier_loops")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .arg(Arg::value(outer))
                .arg(Arg::value(inner))
                .arg(Arg::input(&sel))
                .run(&[n], Some(&[local]));
            assert_eq!(out, want, "{opt:?}: outer {outer} inner {inner}");
        }
    }
}

#[test]
fn a_loop_left_by_a_uniform_break_after_barriers() {
    let (n, local) = (40 * 16usize, 16usize);
    let mut input = Rng(14).ints(n, 0, 1 << 20);
    // Groups that need no iteration, and groups that need many.
    for v in input[..local].iter_mut() {
        *v %= 10;
    }
    let mut want_iters = Vec::new();
    let want = per_group(&input, local, |x| {
        let mut v = x.to_vec();
        let mut it = 0;
        while v.iter().copied().max().unwrap() >= 10 {
            v = v.iter().enumerate().map(|(l, e)| e / 2 + (l & 1) as i32).collect();
            it += 1;
        }
        want_iters.push(it);
        v
    });
    for opt in Opt::BOTH {
        let mut out = vec![0i32; n];
        let mut iters = vec![-1i32; n / local];
        Kernel::new("local_barrier", opt, "converge")
            .arg(Arg::input(&input))
            .arg(Arg::output(&mut out))
            .arg(Arg::output(&mut iters))
            .arg(Arg::Local(local * 4))
            .run(&[n], Some(&[local]));
        assert_eq!(iters, want_iters, "{opt:?}: iterations per group");
        assert_eq!(out, want, "{opt:?}");
    }
}

/// Eight reductions with different group and __local sizes enqueued on an
/// out-of-order queue and finished together, so several NDRanges with
/// barriers and local memory run at once on the device's threads.
#[test]
fn many_ndranges_with_local_memory_in_flight_at_once() {
    use clift_conformance::exec::corpus_spirv;
    use clift_conformance::*;
    use std::ptr;
    let launches: Vec<(usize, usize, usize)> = (0..8)
        .map(|i| {
            let local = [16usize, 64, 128, 256][i % 4];
            (local * (8 + i), local, 20_000 + i * 3_000) // (global, local, n)
        })
        .collect();
    for opt in Opt::BOTH {
        let ctx = context();
        let q = queue(ctx, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        let p = il_program(ctx, &corpus_spirv("local_barrier", opt));
        check(build(p, ""));
        let k = kernel(p, "reduce");
        let mut bufs = Vec::new();
        for (i, &(global, local, n)) in launches.iter().enumerate() {
            let input = Rng(100 + i as u64).ints(n, -1000, 1000);
            let min = buffer(ctx, CL_MEM_READ_WRITE, n * 4);
            write_bytes(q, min, 0, exec::as_bytes(&input));
            let part = buffer(ctx, CL_MEM_READ_WRITE, global / local * 4);
            check(set_arg(k, 0, &min));
            check(set_arg(k, 1, &part));
            // SAFETY: a __local argument: a size and a NULL value.
            check(unsafe { clSetKernelArg(k, 2, local * 4, ptr::null()) });
            check(set_arg(k, 3, &(n as u32)));
            // SAFETY: valid handles; one dimension.
            check(unsafe {
                clEnqueueNDRangeKernel(q, k, 1, ptr::null(), &global, &local, 0, ptr::null(), ptr::null_mut())
            });
            bufs.push((input, min, part));
        }
        // SAFETY: a valid queue.
        check(unsafe { clFinish(q) });
        for (i, ((input, min, part), &(global, local, n))) in bufs.into_iter().zip(&launches).enumerate() {
            let acc = |gid: usize| -> i32 { (gid..n).step_by(global).map(|x| input[x]).sum() };
            let want: Vec<i32> = (0..global / local)
                .map(|g| (g * local..(g + 1) * local).map(acc).sum())
                .collect();
            let got: Vec<i32> = read_bytes(q, part, 0, global / local * 4)
                .chunks_exact(4)
                .map(|c| i32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            assert_eq!(got, want, "{opt:?}: launch {i} (global {global}, local {local})");
            release_mem(min);
            release_mem(part);
        }
        // SAFETY: handles this test owns, released once.
        unsafe {
            check(clReleaseKernel(k));
            check(clReleaseProgram(p));
            check(clReleaseCommandQueue(q));
            check(clReleaseContext(ctx));
        }
    }
}

/// Four application threads, each with its own queue, running barrier
/// kernels at the same time.
#[test]
fn barrier_kernels_from_several_threads_at_once() {
    let handles: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                for round in 0..3 {
                    let (n, local) = (64 * (20 + t), 64);
                    let input = Rng(200 + t as u64 * 10 + round).ints(n, -100, 100);
                    let want = per_group(&input, local, |x| {
                        x.iter()
                            .scan(0, |s, v| {
                                *s += v;
                                Some(*s)
                            })
                            .collect()
                    });
                    let opt = if (t + round as usize).is_multiple_of(2) {
                        Opt::O0
                    } else {
                        Opt::O2
                    };
                    let mut out = vec![0i32; n];
                    Kernel::new("local_barrier", opt, "scan")
                        .arg(Arg::input(&input))
                        .arg(Arg::output(&mut out))
                        .arg(Arg::Local(local * 4))
                        .run(&[n], Some(&[local]));
                    assert_eq!(out, want, "thread {t} round {round} ({opt:?})");
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a thread's scan failed");
    }
}
