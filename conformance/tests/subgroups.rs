//! cl_khr_subgroups from OpenCL C (compiled by clift, and compiled offline
//! then given as SPIR-V): every sub-group built-in of the extension at every
//! type it takes, over uniform and non-uniform work-groups, checked against
//! the host. A work-group is one sub-group on clift
//! (CL_DEVICE_MAX_NUM_SUB_GROUPS is 1), so a sub-group's size is its
//! work-group's, the last work-group of a non-uniform range included.
//! Sub-group pipe reservations are tested with the other pipes
//! (`pipes.rs`).

use clift_conformance::exec::{Arg, Kernel, Pod};
use clift_conformance::*;

/// The collectives of one type: `out[9 * g ..]` gets, for work-item `g`,
/// reduce add/min/max, inclusive scan add/min/max, exclusive scan
/// add/min/max, then `out[9 * n + g]` the broadcast of the sub-group's last
/// work-item's value.
fn collectives(t: &str, ext: &str) -> String {
    format!(
        "{ext}\n\
         kernel void k_{t}(global const {t} *in, global {t} *out, uint n) {{\n\
         size_t g = get_global_id(0); {t} x = in[g]; global {t} *o = out + 9 * g;\n\
         o[0] = sub_group_reduce_add(x); o[1] = sub_group_reduce_min(x); o[2] = sub_group_reduce_max(x);\n\
         o[3] = sub_group_scan_inclusive_add(x); o[4] = sub_group_scan_inclusive_min(x);\n\
         o[5] = sub_group_scan_inclusive_max(x); o[6] = sub_group_scan_exclusive_add(x);\n\
         o[7] = sub_group_scan_exclusive_min(x); o[8] = sub_group_scan_exclusive_max(x);\n\
         out[9 * n + g] = sub_group_broadcast(x, get_sub_group_size() - 1); }}\n"
    )
}

/// The ids, sizes, votes and barriers: per work-item `out[9 * g ..]`:
/// sub-group size, max size, number, enqueued number, id, local id,
/// `sub_group_all(x > 0)`, `sub_group_any(x == 7)`, then the value its
/// left neighbour in the sub-group wrote to local memory before a
/// `sub_group_barrier` (each form of it).
const IDS: &str = "kernel void ids(global const int *in, global uint *out, local int *tmp) {\n\
    size_t g = get_global_id(0); uint l = get_sub_group_local_id(); int x = in[g];\n\
    global uint *o = out + 9 * g;\n\
    o[0] = get_sub_group_size(); o[1] = get_max_sub_group_size(); o[2] = get_num_sub_groups();\n\
    o[3] = get_enqueued_num_sub_groups(); o[4] = get_sub_group_id(); o[5] = l;\n\
    o[6] = sub_group_all(x > 0); o[7] = sub_group_any(x == 7);\n\
    tmp[l] = x; sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
    int left = tmp[l == 0 ? get_sub_group_size() - 1 : l - 1];\n\
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n\
    tmp[l] = left * 2; sub_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n\
    o[8] = (uint)tmp[l]; }\n";

/// How a program reaches clift.
#[derive(Clone, Copy, Debug)]
enum From {
    /// clCreateProgramWithSource, clift compiling it.
    Source,
    /// Compiled offline with clang and llvm-spirv, clCreateProgramWithIL.
    SpirV,
}

fn kernel<'a>(src: &str, name: &str, from: From) -> Kernel<'a> {
    let built = match from {
        From::Source => Kernel::with_source(src, name, "-cl-std=CL2.0"),
        From::SpirV => {
            let il = clift_conformance::offline::spirv_of(src, &["-cl-std=CL2.0", "-O2"]);
            Kernel::with_il(&il, name, "")
        }
    };
    built.unwrap_or_else(|log| panic!("{name} from {from:?} does not build:\n{log}"))
}

/// (global size, local size): uniform, a last work-group of 5 work-items,
/// and work-groups of one work-item.
const RANGES: [(usize, usize); 3] = [(64, 16), (37, 8), (5, 1)];

/// The sub-groups of a range: (first work-item, size).
fn groups(global: usize, local: usize) -> Vec<(usize, usize)> {
    (0..global).step_by(local).map(|s| (s, local.min(global - s))).collect()
}

/// Checks the collectives of one type against the host, whose `add`,
/// `min` and `max` are `add`, `lo`, `hi` (identities `zero`, `top`,
/// `bottom`), for every range and both ways into clift.
#[allow(clippy::too_many_arguments)]
fn check_type<T: Pod + Default + PartialEq + std::fmt::Debug + Copy>(
    t: &str,
    ext: &str,
    input: impl Fn(usize) -> T,
    add: impl Fn(T, T) -> T,
    lo: impl Fn(T, T) -> T,
    hi: impl Fn(T, T) -> T,
    (zero, top, bottom): (T, T, T),
) {
    let src = collectives(t, ext);
    for from in [From::Source, From::SpirV] {
        for (global, local) in RANGES {
            let inp: Vec<T> = (0..global).map(&input).collect();
            let mut out = vec![T::default(); 10 * global];
            kernel(&src, &format!("k_{t}"), from)
                .arg(Arg::input(&inp))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(global as u32))
                .run(&[global], Some(&[local]));
            for (first, size) in groups(global, local) {
                let xs = &inp[first..first + size];
                let fold = |f: &dyn Fn(T, T) -> T, id: T, v: &[T]| v.iter().fold(id, |a, &b| f(a, b));
                for (i, g) in (first..first + size).enumerate() {
                    let want = [
                        fold(&add, zero, xs),
                        fold(&lo, top, xs),
                        fold(&hi, bottom, xs),
                        fold(&add, zero, &xs[..=i]),
                        fold(&lo, top, &xs[..=i]),
                        fold(&hi, bottom, &xs[..=i]),
                        fold(&add, zero, &xs[..i]),
                        fold(&lo, top, &xs[..i]),
                        fold(&hi, bottom, &xs[..i]),
                    ];
                    assert_eq!(
                        out[9 * g..9 * g + 9],
                        want,
                        "{t} from {from:?}, global {global} local {local}, work-item {g}: reduce add/min/max, \
                         inclusive scans, exclusive scans"
                    );
                    assert_eq!(out[9 * global + g], xs[size - 1], "{t} broadcast, work-item {g}");
                }
            }
        }
    }
}

/// Integers from -50 to 49 in a scrambled order.
fn small(i: usize) -> i64 {
    ((i * 37 + 11) % 100) as i64 - 50
}

#[test]
fn integer_collectives() {
    check_type::<i32>(
        "int",
        "",
        |i| small(i) as i32 * 1000,
        |a, b| a.wrapping_add(b),
        i32::min,
        i32::max,
        (0, i32::MAX, i32::MIN),
    );
    check_type::<u32>(
        "uint",
        "",
        |i| ((small(i) + 50) as u32).wrapping_mul(0x0300_0001),
        |a, b| a.wrapping_add(b),
        u32::min,
        u32::max,
        (0, u32::MAX, 0),
    );
    check_type::<i64>(
        "long",
        "",
        |i| small(i) << 40,
        |a, b| a.wrapping_add(b),
        i64::min,
        i64::max,
        (0, i64::MAX, i64::MIN),
    );
    check_type::<u64>(
        "ulong",
        "",
        |i| ((small(i) + 50) as u64).wrapping_mul(0x0300_0000_0000_0001),
        |a, b| a.wrapping_add(b),
        u64::min,
        u64::max,
        (0, u64::MAX, 0),
    );
}

#[test]
fn floating_point_collectives() {
    // Small integers and halves: every order of the additions gives the
    // same sum (the order is not specified for floating-point types).
    check_type::<f32>(
        "float",
        "",
        |i| small(i) as f32 * 0.5,
        |a, b| a + b,
        f32::min,
        f32::max,
        (0.0, f32::INFINITY, f32::NEG_INFINITY),
    );
    check_type::<f64>(
        "double",
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable",
        |i| small(i) as f64 * 0.25,
        |a, b| a + b,
        f64::min,
        f64::max,
        (0.0, f64::INFINITY, f64::NEG_INFINITY),
    );
}

#[test]
fn half_collectives() {
    use clift_conformance::half::{from_half, to_half, Rounding};
    let h = |x: f64| to_half(x, Rounding::Rte);
    let f = from_half;
    check_type::<u16>(
        "half",
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable",
        |i| h(small(i) as f64 * 0.5),
        |a, b| h(f(a) + f(b)),
        |a, b| h(f(a).min(f(b))),
        |a, b| h(f(a).max(f(b))),
        (h(0.0), h(f64::INFINITY), h(f64::NEG_INFINITY)),
    );
}

#[test]
fn ids_votes_and_barriers() {
    for from in [From::Source, From::SpirV] {
        for (global, local) in RANGES {
            // One sub-group of each range holds a 7, one a value <= 0.
            let inp: Vec<i32> = (0..global)
                .map(|i| {
                    if i == local + 1 {
                        7
                    } else if i == 2 {
                        -1
                    } else {
                        i as i32 + 1
                    }
                })
                .collect();
            let mut out = vec![0u32; 9 * global];
            kernel(IDS, "ids", from)
                .arg(Arg::input(&inp))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(local * 4))
                .run(&[global], Some(&[local]));
            for (first, size) in groups(global, local) {
                let xs = &inp[first..first + size];
                for (l, g) in (first..first + size).enumerate() {
                    let left = xs[if l == 0 { size - 1 } else { l - 1 }];
                    let want = [
                        size as u32,
                        local as u32,
                        1,
                        1,
                        0,
                        l as u32,
                        u32::from(xs.iter().all(|&x| x > 0)),
                        u32::from(xs.contains(&7)),
                        (left * 2) as u32,
                    ];
                    assert_eq!(
                        out[9 * g..9 * g + 9],
                        want,
                        "from {from:?}, global {global} local {local}, work-item {g}: size, max size, number, \
                         enqueued number, id, local id, all, any, barrier exchange"
                    );
                }
            }
        }
    }
}

#[test]
fn the_device_lists_the_extension_with_independent_forward_progress() {
    let d = device();
    assert!(device_string(d, CL_DEVICE_EXTENSIONS)
        .split_whitespace()
        .any(|e| e == "cl_khr_subgroups"));
    let mut progress: cl_bool = 0;
    // SAFETY: room for one cl_bool.
    check(unsafe {
        clGetDeviceInfo(
            d,
            CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS,
            size_of::<cl_bool>(),
            (&mut progress as *mut cl_bool).cast(),
            std::ptr::null_mut(),
        )
    });
    // Required of a device with cl_khr_subgroups.
    assert_eq!(progress, CL_TRUE);
}
