//! cl_khr_subgroups from OpenCL C (compiled by clift, and compiled offline
//! then given as SPIR-V): every sub-group built-in of the extension at every
//! type it takes, over uniform and non-uniform work-groups, checked against
//! the host. A sub-group is 8 consecutive local linear ids of a work-group,
//! the last one of a work-group holding the rest ([`sub_groups_of`]), so the
//! ranges cover several sub-groups per work-group and partial ones.
//! Sub-group pipe reservations are tested with the other pipes
//! (`pipes.rs`); the non-uniform extensions in `subgroups_non_uniform.rs`.

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
const IDS: &str = "kernel void ids(global const int *in, global uint *out, local int *all) {\n\
    size_t g = get_global_id(0); uint l = get_sub_group_local_id(); int x = in[g];\n\
    local int *tmp = all + get_sub_group_id() * get_max_sub_group_size();\n\
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
            // Each source is compiled offline once per test process.
            static MODULES: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<String, Vec<u8>>>> =
                std::sync::OnceLock::new();
            let il = MODULES
                .get_or_init(Default::default)
                .lock()
                .unwrap()
                .entry(src.to_string())
                .or_insert_with(|| clift_conformance::offline::spirv_of(src, &["-cl-std=CL2.0", "-O2"]))
                .clone();
            Kernel::with_il(&il, name, "")
        }
    };
    built.unwrap_or_else(|log| panic!("{name} from {from:?} does not build:\n{log}"))
}

/// (global size, local size): uniform, a last work-group of 5 work-items,
/// work-groups of one work-item, work-groups with a smaller last
/// sub-group, and a last work-group of fewer sub-groups.
const RANGES: [(usize, usize); 5] = [(64, 16), (37, 8), (5, 1), (90, 30), (50, 22)];

/// The sub-groups of a range: (first work-item, size, its work-group's
/// size).
fn groups(global: usize, local: usize) -> Vec<(usize, usize, usize)> {
    (0..global)
        .step_by(local)
        .flat_map(|w| {
            let items = local.min(global - w);
            clift_conformance::sub_groups_of(items)
                .into_iter()
                .map(move |(f, n)| (w + f, n, items))
        })
        .collect()
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
            for (first, size, _) in groups(global, local) {
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

/// cl_khr_subgroup_extended_types: the collectives on 8- and 16-bit
/// integers (sums wrap at their width, like OpenCL C's arithmetic on them).
#[test]
fn extended_types_collectives_on_small_integers() {
    const EXT: &str = "#pragma OPENCL EXTENSION cl_khr_subgroup_extended_types : enable";
    check_type::<i8>(
        "char",
        EXT,
        |i| small(i) as i8,
        |a, b| a.wrapping_add(b),
        i8::min,
        i8::max,
        (0, i8::MAX, i8::MIN),
    );
    check_type::<u8>(
        "uchar",
        EXT,
        |i| (small(i) + 50) as u8 * 2,
        |a, b| a.wrapping_add(b),
        u8::min,
        u8::max,
        (0, u8::MAX, 0),
    );
    check_type::<i16>(
        "short",
        EXT,
        |i| small(i) as i16 * 600,
        |a, b| a.wrapping_add(b),
        i16::min,
        i16::max,
        (0, i16::MAX, i16::MIN),
    );
    check_type::<u16>(
        "ushort",
        EXT,
        |i| (small(i) + 50) as u16 * 600,
        |a, b| a.wrapping_add(b),
        u16::min,
        u16::max,
        (0, u16::MAX, 0),
    );
}

/// cl_khr_subgroup_extended_types: `sub_group_broadcast` of every vector
/// type (2, 3, 4, 8 and 16 components of every scalar type), each work-item
/// taking the vector of its sub-group's work-item `(size - 1) / 2`; the
/// bytes are moved, not computed, so every bit must arrive (NaN payloads in
/// the floating-point lanes included).
#[test]
fn extended_types_broadcast_vectors() {
    let types = clift_conformance::SCALAR_TYPES;
    let mut src = String::from(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
         #pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         #pragma OPENCL EXTENSION cl_khr_subgroup_extended_types : enable\n",
    );
    // One kernel, two buffers per type: each work-item's 33 elements of a
    // type are a vector of 2, 3, 4, 8 and 16 components in a row.
    let params: Vec<String> = types
        .iter()
        .map(|(t, _)| format!("global const {t} *in_{t}, global {t} *out_{t}"))
        .collect();
    src += &format!(
        "kernel void b({}) {{\n size_t g = get_global_id(0); uint s = (get_sub_group_size() - 1) / 2;\n",
        params.join(", ")
    );
    for (t, _) in types {
        let mut at = 0;
        for n in [2, 3, 4, 8, 16] {
            src += &format!(
                "vstore{n}(sub_group_broadcast(vload{n}(0, in_{t} + 33 * g + {at}), s), 0, out_{t} + 33 * g + {at});\n"
            );
            at += n;
        }
    }
    src += "}\n";
    for from in [From::Source, From::SpirV] {
        for (global, local) in RANGES {
            let inputs: Vec<Vec<u8>> = types
                .iter()
                .enumerate()
                .map(|(k, (_, size))| {
                    (0..global * 33 * *size as usize)
                        .map(|i| (i * 131 + 7 + k) as u8)
                        .collect()
                })
                .collect();
            let mut outputs: Vec<Vec<u8>> = inputs.iter().map(|v| vec![0u8; v.len()]).collect();
            let mut k = kernel(&src, "b", from);
            for (inp, out) in inputs.iter().zip(outputs.iter_mut()) {
                k = k.arg(Arg::input(inp)).arg(Arg::output(out));
            }
            k.run(&[global], Some(&[local]));
            for (((t, size), inp), out) in types.iter().zip(&inputs).zip(&outputs) {
                let item = 33 * *size as usize;
                for (first, sg, _) in groups(global, local) {
                    let src_item = first + (sg - 1) / 2;
                    let want = &inp[src_item * item..(src_item + 1) * item];
                    for g in first..first + sg {
                        assert_eq!(
                            &out[g * item..(g + 1) * item],
                            want,
                            "{t} vectors from {from:?}, global {global} local {local}, work-item {g}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn ids_votes_and_barriers() {
    for from in [From::Source, From::SpirV] {
        for (global, local) in RANGES {
            // Some sub-groups hold a 7, some a value <= 0.
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
            let s = clift_conformance::sub_group_size();
            for (first, size, items) in groups(global, local) {
                let xs = &inp[first..first + size];
                for (l, g) in (first..first + size).enumerate() {
                    let left = xs[if l == 0 { size - 1 } else { l - 1 }];
                    let want = [
                        size as u32,
                        s.min(local) as u32,
                        items.div_ceil(s) as u32,
                        local.div_ceil(s) as u32,
                        ((g % local) / s) as u32,
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

/// Independent forward progress: sub-group k's first work-item spins
/// until sub-group k + 1 has set its flag, so the first sub-group (which
/// runs first) can only finish after every later one has run; the spins
/// read with acquire loads, a compare-and-swap and a fetch-add.
const SPIN: &str = "kernel void spin(global int *out, local atomic_int *flags, int how) {\n\
    uint sg = get_sub_group_id(), n = get_num_sub_groups(), lid = get_local_id(0);\n\
    if (lid < n) atomic_init(&flags[lid], 0);\n\
    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
    if (get_sub_group_local_id() == 0) {\n\
        if (sg + 1 < n) {\n\
            local atomic_int *f = &flags[sg + 1];\n\
            if (how == 0) { while (atomic_load_explicit(f, memory_order_acquire, memory_scope_work_group) == 0) ; }\n\
            else if (how == 1) { int e = (int)sg + 2; while (!atomic_compare_exchange_strong(f, &e, e)) e = (int)sg + 2; }\n\
            else { while (atomic_fetch_add(f, 0) == 0) ; }\n\
        }\n\
        atomic_store_explicit(&flags[sg], (int)sg + 1, memory_order_release, memory_scope_work_group);\n\
    }\n\
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
    out[get_global_id(0)] = atomic_load(&flags[sg]) + sub_group_reduce_add(1) * 1000;\n\
}\n";

#[test]
fn a_spinning_sub_group_lets_the_later_ones_run() {
    let s = clift_conformance::sub_group_size();
    for from in [From::Source, From::SpirV] {
        for how in 0..3 {
            for (global, local) in [(64usize, 64usize), (200, 40), (96, 27)] {
                let mut out = vec![0i32; global];
                let guard = clift_conformance::watchdog(format!("spin {how} from {from:?} over {global}/{local}"));
                kernel(SPIN, "spin", from)
                    .arg(Arg::output(&mut out))
                    .arg(Arg::Local(4 * local.div_ceil(s)))
                    .arg(Arg::value(how))
                    .run(&[global], Some(&[local]));
                drop(guard);
                let want: Vec<i32> = groups(global, local)
                    .into_iter()
                    .flat_map(|(first, size, _)| {
                        let sg = (first % local) / s;
                        std::iter::repeat_n((sg + 1) as i32 + 1000 * size as i32, size)
                    })
                    .collect();
                assert_eq!(out, want, "from {from:?}, spin {how}, global {global} local {local}");
            }
        }
    }
}

/// Sub-groups on different paths: the even sub-groups take a branch with
/// two sub-group collectives and a sub-group barrier, the odd ones go
/// straight to the work-group barrier, where the even ones join them;
/// then every sub-group reduces again.
const PATHS: &str = "kernel void paths(global const int *in, global int *out, local int *tmp) {\n\
    size_t g = get_global_id(0), lid = get_local_id(0); int x = in[g]; int a = 0, b = 0;\n\
    if (get_sub_group_id() % 2 == 0) {\n\
        a = sub_group_scan_inclusive_add(x);\n\
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
        b = sub_group_broadcast(a, 0);\n\
    }\n\
    tmp[lid] = a;\n\
    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
    int c = tmp[get_local_size(0) - 1 - lid];\n\
    out[3 * g] = a + b; out[3 * g + 1] = c; out[3 * g + 2] = sub_group_reduce_max(x + c);\n\
}\n";

#[test]
fn sub_groups_on_different_paths_meet_at_a_work_group_barrier() {
    let s = clift_conformance::sub_group_size();
    for from in [From::Source, From::SpirV] {
        for (global, local) in [(64usize, 32usize), (100, 20), (45, 45)] {
            let inp: Vec<i32> = (0..global).map(|i| small(i) as i32).collect();
            let mut out = vec![0i32; 3 * global];
            kernel(PATHS, "paths", from)
                .arg(Arg::input(&inp))
                .arg(Arg::output(&mut out))
                .arg(Arg::Local(4 * local))
                .run(&[global], Some(&[local]));
            // a per work-item, then c and the final reduction.
            let mut a = vec![0i32; global];
            for (first, size, _) in groups(global, local) {
                if ((first % local) / s).is_multiple_of(2) {
                    let mut acc = 0;
                    for g in first..first + size {
                        acc += inp[g];
                        a[g] = acc;
                    }
                }
            }
            for w in (0..global).step_by(local) {
                let items = local.min(global - w);
                for l in 0..items {
                    let g = w + l;
                    let c = a[w + items - 1 - l];
                    let sg_first = w + (l / s) * s;
                    let b = if (l / s).is_multiple_of(2) { a[sg_first] } else { 0 };
                    assert_eq!(
                        out[3 * g],
                        a[g] + b,
                        "from {from:?} {global}/{local} work-item {g}: a + b"
                    );
                    assert_eq!(out[3 * g + 1], c, "from {from:?} {global}/{local} work-item {g}: c");
                }
            }
            for (first, size, items) in groups(global, local) {
                let w = first - first % local;
                let max = (first..first + size)
                    .map(|g| inp[g] + a[w + items - 1 - (g - w)])
                    .max()
                    .unwrap();
                for g in first..first + size {
                    assert_eq!(
                        out[3 * g + 2],
                        max,
                        "from {from:?} {global}/{local} work-item {g}: reduce max"
                    );
                }
            }
        }
    }
}
