//! Masked execution in 4-lane bodies (jit/src/lower/simd/predicate.rs,
//! masked.rs): the kernels of `kernels/cl/simd_masked.cl` at -O0 and -O2,
//! with local sizes that leave remainders, against exact host references.
//! Every launch also runs in the twin program without 4-lane bodies and
//! must agree with it bit for bit (`clift_conformance::exec`). Two tests
//! put the buffers' ends against a page the process may not touch, so a
//! lane past the end that read or wrote anything would crash the test.
//! clbench's reduce and hist_local, which run masked too, are tested in
//! exec_local_barrier.rs and exec_atomics.rs.

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt};
use clift_conformance::fenced::Fenced;
use clift_conformance::*;
use std::ptr;

/// Local sizes: none given, multiples of 4 (the chunk phases of kernels
/// with barriers) and sizes leaving 1 to 3 work-items of a row.
const LOCALS: [Option<usize>; 5] = [None, Some(16), Some(13), Some(6), Some(3)];

/// Launches kernel `name` of simd_masked (arguments: in, out, trace, k)
/// over `input`, `per_item` trace slots per work-item first set to
/// `i32::MIN`: `out` and `trace` as the kernel left them.
fn run_traced(
    name: &str,
    opt: Opt,
    local: Option<usize>,
    input: &[i32],
    per_item: usize,
    k: i32,
) -> (Vec<i32>, Vec<i32>) {
    let n = input.len();
    let mut out = vec![0i32; n];
    let mut trace = vec![i32::MIN; per_item * n];
    let l = local.map(|l| [l]);
    Kernel::new("simd_masked", opt, name)
        .arg(Arg::input(input))
        .arg(Arg::output(&mut out))
        .arg(Arg::output(&mut trace))
        .arg(Arg::value(k))
        .run(&[n], l.as_ref().map(|l| &l[..]));
    (out, trace)
}

/// Inputs in -500..500 with every residue mod 2 and 3 in every chunk.
fn inputs(n: usize) -> Vec<i32> {
    (0..n as i32).map(|i| (i * 7919 + 13) % 1001 - 500).collect()
}

#[test]
fn grid_stride_loops_read_no_further_than_their_lanes() {
    let n = 1003usize;
    let input = inputs(n);
    for opt in Opt::BOTH {
        for (global, local) in [(64, None), (60, Some(12)), (52, Some(13)), (8, Some(8)), (1100, None)] {
            let mut out = vec![i32::MIN; global];
            let l = local.map(|l| [l]);
            Kernel::new("simd_masked", opt, "grid_sum")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(n as u32))
                .run(&[global], l.as_ref().map(|l| &l[..]));
            for (g, &got) in out.iter().enumerate() {
                let want: i32 = (g..n).step_by(global).map(|i| input[i]).sum();
                assert_eq!(got, want, "{opt:?} global {global} local {local:?}: out[{g}]");
            }
        }
    }
}

#[test]
fn stores_in_a_branch_inside_a_loop_whose_exit_differs() {
    let n = 203usize;
    let input: Vec<u32> = (0..n as u32).map(|i| (i * 37) % 97 + (i % 3)).collect();
    for cap in [0u32, 1, 9, 40] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let mut steps = vec![u32::MAX; n];
                let mut trace = vec![7u32; n * cap as usize];
                let l = local.map(|l| [l]);
                Kernel::new("simd_masked", opt, "collatz")
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut steps))
                    .arg(Arg::output(&mut trace))
                    .arg(Arg::value(cap))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                for i in 0..n {
                    let (mut x, mut s) = (input[i], 0u32);
                    let mut t = vec![7u32; cap as usize];
                    while x > 1 && s < cap {
                        if x & 1 != 0 {
                            x = 3 * x + 1;
                            t[s as usize] = x;
                        } else {
                            x >>= 1;
                        }
                        s += 1;
                    }
                    assert_eq!(steps[i], s, "{opt:?} {local:?} cap {cap}: steps[{i}]");
                    let got = &trace[i * cap as usize..(i + 1) * cap as usize];
                    assert_eq!(got, &t[..], "{opt:?} {local:?} cap {cap}: trace of {i}");
                }
            }
        }
    }
}

#[test]
fn branches_after_stores_and_nested_in_loops() {
    let n = 301usize;
    let input = inputs(n);
    let k = 9u32;
    for opt in Opt::BOTH {
        for local in LOCALS {
            let l = local.map(|l| [l]);
            let mut out = vec![1000i32; n];
            let mut side = vec![-5i32; 2 * n];
            Kernel::new("simd_masked", opt, "branch_after_store")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut side))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let x = input[i];
                let (y, o, s1) = if x % 3 == 0 {
                    (x * 5, 1000, x * 5)
                } else {
                    (x - 7, -1, -5)
                };
                assert_eq!(out[i], o + y, "{opt:?} {local:?}: out[{i}]");
                assert_eq!(
                    (side[2 * i], side[2 * i + 1]),
                    (x + 1, s1),
                    "{opt:?} {local:?}: side of {i}"
                );
            }

            let mut out = vec![3i32; n * k as usize];
            let mut acc_out = vec![0i32; n];
            Kernel::new("simd_masked", opt, "nested_in_loop")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut acc_out))
                .arg(Arg::value(k))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            for i in 0..n {
                let x = input[i];
                let mut acc = 0i32;
                let mut row = vec![3i32; k as usize];
                for j in 0..k as i32 {
                    if x > j {
                        if (x ^ j) & 1 != 0 {
                            acc += x;
                            row[j as usize] = acc;
                        } else {
                            acc -= j;
                        }
                    } else {
                        acc ^= j;
                        row[j as usize] = -acc;
                    }
                }
                assert_eq!(acc_out[i], acc, "{opt:?} {local:?}: acc of {i}");
                assert_eq!(
                    &out[i * k as usize..(i + 1) * k as usize],
                    &row[..],
                    "{opt:?} {local:?}: row {i}"
                );
            }
        }
    }
}

#[test]
fn values_of_both_arms_kept_across_a_barrier() {
    let input = inputs(480);
    for opt in Opt::BOTH {
        for lsz in [4usize, 8, 12, 16, 48, 5, 6] {
            let global = input.len() / lsz * lsz;
            let mut out = vec![0i32; global];
            Kernel::new("simd_masked", opt, "arms_across_barrier")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(lsz * 4))
                .run(&[global], Some(&[lsz]));
            for g in 0..global {
                let x = input[g];
                let y = if x & 1 != 0 { x * 3 } else { x / 2 };
                let base = g / lsz * lsz;
                let nb = input[base + (g - base + 1) % lsz];
                let t = if nb & 1 != 0 { nb } else { -nb };
                assert_eq!(out[g], y + t, "{opt:?} local {lsz}: out[{g}]");
            }
        }
    }
}

/// Runs kernel `name` of simd_masked at `opt`, arguments `in`, `out`
/// (both CL_MEM_USE_HOST_PTR on fenced memory) and `n`, over `global`
/// work-items in groups of `local`.
fn run_fenced(opt: Opt, name: &str, input: &mut Fenced<i32>, out: &mut Fenced<i32>, global: usize, local: usize) {
    let ctx = context();
    let q = queue(ctx, 0);
    let il = corpus_spirv("simd_masked", opt);
    let mut err = 0;
    // SAFETY: valid context, IL bytes and error out-pointer.
    let p = unsafe { clCreateProgramWithIL(ctx, il.as_ptr().cast(), il.len(), &mut err) };
    check(err);
    check(build(p, ""));
    let cname = std::ffi::CString::new(name).unwrap();
    // SAFETY: a built program and a NUL-terminated name.
    let k = unsafe { clCreateKernel(p, cname.as_ptr(), &mut err) };
    check(err);
    let flags = CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR;
    // SAFETY: the host memory stays mapped until after the buffers are
    // released (the Fenced values outlive this function's use of them).
    let bin = unsafe { clCreateBuffer(ctx, flags, input.bytes(), input.data().cast(), &mut err) };
    check(err);
    // SAFETY: as above.
    let bout = unsafe { clCreateBuffer(ctx, flags, out.bytes(), out.data().cast(), &mut err) };
    check(err);
    let n = input.count as u32;
    // SAFETY: valid kernel and argument sizes and values.
    unsafe {
        check(clSetKernelArg(
            k,
            0,
            std::mem::size_of::<cl_mem>(),
            (&bin as *const cl_mem).cast(),
        ));
        check(clSetKernelArg(
            k,
            1,
            std::mem::size_of::<cl_mem>(),
            (&bout as *const cl_mem).cast(),
        ));
        check(clSetKernelArg(k, 2, 4, (&n as *const u32).cast()));
        check(clEnqueueNDRangeKernel(
            q,
            k,
            1,
            ptr::null(),
            &global,
            &local,
            0,
            ptr::null(),
            ptr::null_mut(),
        ));
        check(clFinish(q));
        check(clReleaseMemObject(bin));
        check(clReleaseMemObject(bout));
        check(clReleaseKernel(k));
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

#[test]
fn masked_accesses_stop_at_the_end_of_a_buffer() {
    setup();
    for opt in Opt::BOTH {
        // A grid-stride loop: lanes past the end leave without reading.
        for (n, global, local) in [(1021usize, 64usize, 16usize), (1023, 1024, 16), (5, 8, 4)] {
            let mut input = Fenced::new(n);
            let vals = inputs(n);
            input.slice().copy_from_slice(&vals);
            let mut out = Fenced::new(global);
            out.slice().fill(i32::MIN);
            run_fenced(opt, "grid_sum", &mut input, &mut out, global, local);
            for g in 0..global {
                let want: i32 = (g..n).step_by(global).map(|i| vals[i]).sum();
                assert_eq!(out.slice()[g], want, "{opt:?} grid_sum n {n}: out[{g}]");
            }
        }
        // A guard in a kernel with barriers: lanes past the end neither
        // read nor write.
        for (n, local) in [(1021usize, 16usize), (1022, 8), (1023, 4), (61, 64)] {
            let global = n.div_ceil(local) * local;
            let mut input = Fenced::new(n);
            let vals = inputs(n);
            input.slice().copy_from_slice(&vals);
            let mut out = Fenced::new(n);
            out.slice().fill(i32::MIN);
            run_fenced(opt, "guarded_tail", &mut input, &mut out, global, local);
            for (g, (&got, &v)) in out.slice().iter().zip(&vals).enumerate() {
                assert_eq!(got, v * 2 + 1, "{opt:?} guarded_tail n {n}: out[{g}]");
            }
        }
    }
}

/// Functions called in arms of varying branches and in a loop whose exit
/// differs (kernels/cl/simd_masked.cl `calls_under_masks`), one with such
/// a loop of its own: their bodies run under the caller's mask, so their
/// stores and atomics happen only for the lanes that called them. Slots
/// of work-items that did not call keep their initial value; the count
/// sums every call's argument.
#[test]
fn calls_in_arms_and_masked_loops_run_for_their_lanes_only() {
    let n = 203usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 53 - 9).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![0i32; n];
            let mut slots = vec![i32::MIN; 8 * n];
            let mut count = [5i32];
            let l = local.map(|l| [l]);
            Kernel::new("simd_masked", opt, "calls_under_masks")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut slots))
                .arg(Arg::output(&mut count))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            let mut want_slots = vec![i32::MIN; 8 * n];
            let mut want_count = 5i32;
            for i in 0..n {
                let x = input[i];
                let mut r = x;
                if x & 1 != 0 {
                    want_slots[8 * i] = x * 3;
                    want_count += x;
                    r = x + 1;
                }
                if x & 2 != 0 {
                    let (mut y, mut k) = (x, 0);
                    loop {
                        want_slots[8 * i + 2 + k] = y;
                        y -= 4;
                        k += 1;
                        want_slots[8 * i + 7] = k as i32;
                        if !(y > 3 && k < 5) {
                            break;
                        }
                    }
                }
                let mut note = |slot: usize, x: i32| {
                    want_slots[slot] = x * 3;
                    want_count += x;
                    x + 1
                };
                let mut k = 0;
                loop {
                    r = note(8 * i + 1, r - 7);
                    k += 1;
                    if !(r > 0 && k < 6) {
                        break;
                    }
                }
                assert_eq!(out[i], r * 16 + k, "{opt:?} {local:?}: out[{i}]");
            }
            assert_eq!(slots, want_slots, "{opt:?} {local:?}: slots");
            assert_eq!(count[0], want_count, "{opt:?} {local:?}: count");
        }
    }
}

/// Branches whose paths cross before they meet, and switches whose
/// selector differs between lanes (kernels/cl/simd_masked.cl
/// `crossing_paths`, jit/src/lower/simd/dag.rs), after a store and in a
/// loop: every lane's values and stores as the host computes them.
#[test]
fn crossing_paths_and_varying_switches() {
    let n = 301usize;
    // Small values, so that every case is taken in every lane position.
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919 + 13) % 97 - 48).collect();
    for opt in Opt::BOTH {
        for local in LOCALS {
            let mut out = vec![i32::MIN; 3 * n];
            let mut side = vec![i32::MIN; 2 * n];
            let l = local.map(|l| [l]);
            Kernel::new("simd_masked", opt, "crossing_paths")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::output(&mut side))
                .run(&[n], l.as_ref().map(|l| &l[..]));
            let mut want_side = vec![i32::MIN; 2 * n];
            for i in 0..n {
                let x = input[i];
                let mut r = 0;
                if (x & 3) == 1 || (x > 40 && (x & 4) != 0) {
                    r = x * 3;
                    want_side[2 * i] = r;
                } else if x < -20 && (x & 8) != 0 {
                    r = -x;
                }
                let s = match x {
                    0 | 1 => {
                        let s = if x == 0 { 5 } else { 0 } + x;
                        want_side[2 * i + 1] = s;
                        s
                    }
                    3 | 6 => -1,
                    4 => 0,
                    _ => 100 + x,
                };
                let c = (x >> 2) as i8;
                let mut t = 0i32;
                for k in 0..3i8 {
                    match c.wrapping_add(k) {
                        7 => t += 7,
                        0 | 1 => {
                            t += i32::from(k) + 1;
                            if x & 1 != 0 || k == 2 {
                                t *= 3;
                            }
                        }
                        _ => t -= 1,
                    }
                }
                let got = &out[3 * i..3 * i + 3];
                assert_eq!(got, &[r, s, t], "{opt:?} {local:?}: x = {x}, out[{i}]");
            }
            assert_eq!(side, want_side, "{opt:?} {local:?}: side");
        }
    }
}

/// A loop whose exit differs, behind the test LLVM puts before a rotated
/// loop with a preheader between them (kernels/cl/simd_masked.cl
/// `guarded_rotated_loop`): lanes that skip the loop store no trace.
#[test]
fn rotated_loop_behind_a_guard_and_a_preheader() {
    let n = 203usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 61 - 20).collect();
    for k in [1i32, 6, -3] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let (out, trace) = run_traced("guarded_rotated_loop", opt, local, &input, 8, k);
                let mut want_trace = vec![i32::MIN; 8 * n];
                for i in 0..n {
                    let (mut x, mut c) = (input[i], 0);
                    want_trace[8 * i + 7] = x;
                    while x > 0 && c < 6 {
                        want_trace[8 * i + c as usize] = x.wrapping_mul(k);
                        x -= 7 + (k & 3);
                        c += 1;
                    }
                    assert_eq!(out[i], x * 16 + c, "{opt:?} {local:?} k {k}: out[{i}]");
                }
                assert_eq!(trace, want_trace, "{opt:?} {local:?} k {k}: trace");
            }
        }
    }
}

/// A private array in a kernel with barriers, written under masks on
/// both sides of a barrier (kernels/cl/simd_masked.cl
/// `private_across_barriers`): each lane keeps its own copy.
#[test]
fn private_arrays_under_masks_across_barriers() {
    let n = 96usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 7919 + 13) % 1001 - 500).collect();
    for opt in Opt::BOTH {
        for local in [16usize, 8, 4, 6, 3] {
            let mut out = vec![0i32; n];
            Kernel::new("simd_masked", opt, "private_across_barriers")
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .run(&[n], Some(&[local]));
            for gr in 0..n / local {
                let base = gr * local;
                let mut accs = vec![[1i32, 2, 3, 4]; local];
                let mut t = vec![0i32; local];
                for l in 0..local {
                    let x = input[base + l];
                    if x & 1 != 0 {
                        accs[l][(x & 3) as usize] = x;
                    }
                    t[l] = accs[l][((x >> 1) & 3) as usize];
                }
                for l in 0..local {
                    let y = t[(l + 1) % local];
                    if y > 0 {
                        accs[l][(y & 3) as usize] += y;
                    }
                    let a = accs[l];
                    let want = a[0] + 2 * a[1] + 3 * a[2] + 5 * a[3];
                    assert_eq!(out[base + l], want, "{opt:?} local {local}: out[{}]", base + l);
                }
            }
        }
    }
}

/// A loop whose trip count is the same in every lane, in an arm of a
/// branch whose lanes differ (kernels/cl/simd_masked.cl `loop_in_arm`):
/// it runs, stores included, for the arm's lanes only.
#[test]
fn uniform_loop_in_an_arm() {
    let n = 203usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 37) % 101 - 50).collect();
    for k in [0i32, 1, 3, 7] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let (out, trace) = run_traced("loop_in_arm", opt, local, &input, 4, k);
                let mut want_trace = vec![i32::MIN; 4 * n];
                for i in 0..n {
                    let x = input[i];
                    want_trace[4 * i + 3] = x;
                    let mut r = x;
                    if x & 1 != 0 {
                        for j in 0..k {
                            r = r.wrapping_mul(3).wrapping_add(j);
                            want_trace[4 * i + (j & 1) as usize] = r;
                        }
                    } else {
                        r = r.wrapping_neg();
                    }
                    assert_eq!(out[i], r, "{opt:?} {local:?} k {k}: out[{i}]");
                }
                assert_eq!(trace, want_trace, "{opt:?} {local:?} k {k}: trace");
            }
        }
    }
}

/// A store, a load and a call (of a loop bounded by a load) the same in
/// every lane inside a DAG region (kernels/cl/simd_masked.cl
/// `uniform_access_in_crossing_paths`): every block of the region runs,
/// so they must be made only when some lane reached them. With no lane
/// there, the flag keeps 0 (and the loads of an index past the buffer are
/// not made).
#[test]
fn uniform_accesses_in_a_dag_region_only_for_reached_blocks() {
    let n = 64usize;
    let far: Vec<i32> = (0..8).map(|i| 100 + i).collect();
    for (case, input) in [
        ("no lane", (0..n as i32).map(|i| (i * 4) % 1000).collect::<Vec<_>>()),
        (
            "some lanes",
            (0..n as i32).map(|i| if i % 9 == 3 { 5 } else { 2 * i }).collect(),
        ),
    ] {
        let k = if case == "no lane" { 1 << 26 } else { 5 };
        for opt in Opt::BOTH {
            for local in LOCALS {
                let mut out = vec![7i32; n];
                let mut flag = [0i32];
                let l = local.map(|l| [l]);
                Kernel::new("simd_masked", opt, "uniform_access_in_crossing_paths")
                    .arg(Arg::input(&input))
                    .arg(Arg::output(&mut out))
                    .arg(Arg::output(&mut flag))
                    .arg(Arg::input(&far))
                    .arg(Arg::value(k))
                    .run(&[n], l.as_ref().map(|l| &l[..]));
                let mut want_flag = 0;
                for i in 0..n {
                    let x = input[i];
                    let hit = (x & 3) == 1 || (x > 1000 && (x & 4) != 0);
                    if hit {
                        want_flag = 1;
                    }
                    let want = if hit {
                        let f = far[k as usize];
                        f.wrapping_add((0..f).fold(0i32, |s, j| s.wrapping_mul(3).wrapping_add(j)))
                    } else {
                        -1
                    };
                    assert_eq!(out[i], want, "{case} {opt:?} {local:?}: out[{i}]");
                }
                assert_eq!(flag[0], want_flag, "{case} {opt:?} {local:?}: flag");
            }
        }
    }
}

/// A switch whose selector differs between lanes with loops in its cases
/// (kernels/cl/simd_masked.cl `switch_with_loops`, a DAG region holding
/// loops that all lanes leave together): each loop runs, stores included,
/// for the lanes of its case.
#[test]
fn varying_switch_with_loops_in_its_cases() {
    let n = 203usize;
    let input: Vec<i32> = (0..n as i32).map(|i| (i * 7) % 9 - 1).collect();
    for k in [0i32, 1, 4] {
        for opt in Opt::BOTH {
            for local in LOCALS {
                let (out, trace) = run_traced("switch_with_loops", opt, local, &input, 8, k);
                let mut want_trace = vec![i32::MIN; 8 * n];
                for i in 0..n {
                    let x = input[i];
                    want_trace[8 * i + 7] = x;
                    let mut r = 0i32;
                    match x {
                        1 => {
                            for j in 0..k {
                                r += j * x + 1;
                                want_trace[8 * i + (j & 3) as usize] = r;
                            }
                        }
                        2 | 5 => {
                            for j in (1..=k).rev() {
                                r = r * 2 + j;
                            }
                            want_trace[8 * i + 4] = r;
                        }
                        _ => r = -x,
                    }
                    assert_eq!(out[i], r, "{opt:?} {local:?} k {k}: x = {x}, out[{i}]");
                }
                assert_eq!(trace, want_trace, "{opt:?} {local:?} k {k}: trace");
            }
        }
    }
}
