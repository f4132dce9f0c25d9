//! The built-in variables: every work-item function of OpenCL C 2.0
//! (6.13.1) and the sub-group ones (cl_khr_subgroups), written by each
//! work-item to a buffer and checked on the host, in 1, 2 and 3 dimensions,
//! with and without global offsets, with uniform and non-uniform
//! work-groups, with a NULL local size, and through clEnqueueTask; and
//! dimension indices past the last (constant, uniform and differing between
//! work-items), which read 1 from sizes and counts and 0 from ids and
//! offsets. Kernels: `kernels/cl/workitem.cl` and `workitem_dims.cl` at -O0
//! and -O2.
//!
//! clift splits a work-group into sub-groups of consecutive local linear
//! ids (`clift_conformance::sub_groups_of`): sub-group id = local linear id
//! / size, local id = local linear id % size, the last sub-group holding
//! the rest.

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt};
use clift_conformance::*;

/// uints per work-item record (see workitem.cl).
const REC: usize = 48;
const UNSET: u32 = 0xdead_beef;

/// The range of one launch, padded to three dimensions.
#[derive(Debug, Clone, Copy)]
struct Range {
    dims: usize,
    offset: [usize; 3],
    global: [usize; 3],
    /// None: NULL local size (clift chooses).
    local: Option<[usize; 3]>,
}

impl Range {
    fn new(offset: &[usize], global: &[usize], local: Option<&[usize]>) -> Range {
        let pad = |v: &[usize], fill: usize| {
            let mut a = [fill; 3];
            a[..v.len()].copy_from_slice(v);
            a
        };
        Range {
            dims: global.len(),
            offset: pad(offset, 0),
            global: pad(global, 1),
            local: local.map(|l| pad(l, 1)),
        }
    }

    fn items(&self) -> usize {
        self.global.iter().product()
    }
}

/// Runs `name` over `r` and returns the records.
fn run(opt: Opt, name: &str, r: &Range, dyn_dim: Option<u32>) -> Vec<u32> {
    let mut out = vec![UNSET; r.items() * REC];
    let mut k = Kernel::new("workitem", opt, name).arg(Arg::output(&mut out));
    if let Some(d) = dyn_dim {
        k = k.arg(Arg::value(d));
    }
    let offset = &r.offset[..r.dims];
    let local = r.local.as_ref().map(|l| &l[..r.dims]);
    let offset = if offset.iter().all(|&o| o == 0) {
        None
    } else {
        Some(offset)
    };
    k.run_with_offset(offset, &r.global[..r.dims], local);
    out
}

/// Which kernel wrote the records, so which fields to check.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Fields {
    /// `ids`: fields 0..27 and, for the runtime index, 33..41.
    Ids,
    /// `ids_const`: fields 0..27.
    Const,
    /// `ids_subgroup`: fields 27..33.
    SubGroup,
}

impl Fields {
    fn checked(self, i: usize) -> bool {
        i == 41
            || match self {
                Fields::Ids => i < 27 || (33..41).contains(&i),
                Fields::Const => i < 27,
                Fields::SubGroup => (27..33).contains(&i),
            }
    }
}

/// The eight work-item functions of dimension index `d` (global id, local
/// id, group id, global size, local size, enqueued local size, number of
/// groups, global offset) for work-item `item` (its position in the range,
/// offset removed) of a launch over `r` with enqueued local size `enq`; for
/// `d` past the last dimension, OpenCL C's defaults (0 for ids and
/// offsets, 1 for sizes and counts).
fn dim_fields(r: &Range, enq: [usize; 3], item: [usize; 3], d: u32) -> [u64; 8] {
    let d = d as usize;
    if d >= 3 {
        return [0, 0, 0, 1, 1, 1, 1, 0];
    }
    let (g, off) = (r.global, r.offset);
    let grp = item[d] / enq[d];
    [
        (item[d] + off[d]) as u64,
        (item[d] % enq[d]) as u64,
        grp as u64,
        g[d] as u64,
        enq[d].min(g[d] - grp * enq[d]) as u64,
        enq[d] as u64,
        g[d].div_ceil(enq[d]) as u64,
        off[d] as u64,
    ]
}

/// Checks every record of a launch over `r` (the fields `kind` writes).
/// With a NULL local size, `enq` is the size clift chose (from another
/// launch's records when `kind` does not write it).
fn check_records(recs: &[u32], r: &Range, kind: Fields, dyn_dim: Option<u32>, what: &str) -> [usize; 3] {
    let g = r.global;
    // With a NULL local size clift chooses; every work-item must agree on
    // the choice and it must be a valid one.
    let enq = match r.local {
        Some(l) => l,
        None if kind == Fields::SubGroup => panic!("{what}: sub-group records need an explicit local size"),
        None => {
            let e = [recs[5] as usize, recs[13] as usize, recs[21] as usize];
            let max_wg: usize = device_value(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE);
            assert!(
                (0..3).all(|d| e[d] >= 1 && e[d] <= g[d].max(1)) && e.iter().product::<usize>() <= max_wg,
                "{what}: chosen local size {e:?} for global {g:?}"
            );
            for d in r.dims..3 {
                assert_eq!(e[d], 1, "{what}: chosen local size {e:?} in unused dimension {d}");
            }
            e
        }
    };
    for z in 0..g[2] {
        for y in 0..g[1] {
            for x in 0..g[0] {
                let item = [x, y, z];
                let lin = x + y * g[0] + z * g[0] * g[1];
                let rec = &recs[lin * REC..(lin + 1) * REC];
                let grp: [usize; 3] = std::array::from_fn(|d| item[d] / enq[d]);
                let lid: [usize; 3] = std::array::from_fn(|d| item[d] % enq[d]);
                let lsize: [usize; 3] = std::array::from_fn(|d| enq[d].min(g[d] - grp[d] * enq[d]));
                let per_dim = |d: u32| dim_fields(r, enq, item, d);
                let mut want = [UNSET; REC];
                let dyn_dim = if kind == Fields::Ids { dyn_dim } else { None };
                for d in 0..3 {
                    for (f, v) in per_dim(d as u32).iter().enumerate() {
                        want[d * 8 + f] = *v as u32;
                    }
                }
                let local_linear = lid[0] + lid[1] * lsize[0] + lid[2] * lsize[0] * lsize[1];
                want[24] = r.dims as u32;
                want[25] = lin as u32;
                want[26] = local_linear as u32;
                let items: usize = lsize.iter().product();
                let s = sub_group_size();
                let (sg_first, sg_size) = sub_groups_of(items)[local_linear / s];
                want[27] = sg_size as u32; // sub-group size
                want[28] = enq.iter().product::<usize>().min(s) as u32; // max sub-group size
                want[29] = items.div_ceil(s) as u32; // sub-groups in this group
                want[30] = enq.iter().product::<usize>().div_ceil(s) as u32; // sub-groups in an enqueued-size group
                want[31] = (local_linear / s) as u32; // sub-group id
                want[32] = (local_linear - sg_first) as u32; // sub-group local id
                if let Some(dd) = dyn_dim {
                    for (f, v) in per_dim(dd).iter().enumerate() {
                        want[33 + f] = *v as u32;
                    }
                }
                want[41] = 0x600d;
                for (i, w) in want.iter_mut().enumerate() {
                    if !kind.checked(i) {
                        *w = UNSET;
                    }
                }
                if rec != &want[..] {
                    let names = [
                        "global_id",
                        "local_id",
                        "group_id",
                        "global_size",
                        "local_size",
                        "enqueued_local_size",
                        "num_groups",
                        "global_offset",
                    ];
                    let bad: Vec<String> = (0..REC)
                        .filter(|&i| rec[i] != want[i])
                        .map(|i| {
                            let name = match i {
                                0..=23 => format!("{}({})", names[i % 8], i / 8),
                                24 => "work_dim".into(),
                                25 => "global_linear_id".into(),
                                26 => "local_linear_id".into(),
                                27 => "sub_group_size".into(),
                                28 => "max_sub_group_size".into(),
                                29 => "num_sub_groups".into(),
                                30 => "enqueued_num_sub_groups".into(),
                                31 => "sub_group_id".into(),
                                32 => "sub_group_local_id".into(),
                                33..=40 => format!("{}(dyn={})", names[i - 33], dyn_dim.unwrap_or(99)),
                                41 => "end marker (record never written)".into(),
                                _ => format!("field {i}"),
                            };
                            format!("{name}: got {:#x} want {:#x}", rec[i], want[i])
                        })
                        .collect();
                    panic!(
                        "{what}: work-item {item:?} (range {r:?}, enqueued local {enq:?}):\n  {}",
                        bad.join("\n  ")
                    );
                }
            }
        }
    }
    enq
}

/// `ids_const` at both optimisation levels.
fn case(offset: &[usize], global: &[usize], local: Option<&[usize]>) {
    let r = Range::new(offset, global, local);
    for opt in Opt::BOTH {
        let recs = run(opt, "ids_const", &r, None);
        check_records(&recs, &r, Fields::Const, None, &format!("{opt:?} ids_const"));
    }
}

#[test]
fn built_ins_read_in_called_functions() {
    // ids_in_function writes the same fields as ids_const, from functions
    // two calls deep.
    for (offset, global, local) in [
        (&[7usize][..], &[100usize][..], Some(&[16usize][..])),
        (&[2, 9], &[13, 7], Some(&[5, 2])),
        (&[1, 2, 3], &[6, 5, 3], Some(&[4, 2, 2])),
        (&[], &[5, 6, 7], None),
    ] {
        let r = Range::new(offset, global, local);
        for opt in Opt::BOTH {
            let recs = run(opt, "ids_in_function", &r, None);
            check_records(&recs, &r, Fields::Const, None, &format!("{opt:?} ids_in_function"));
        }
    }
}

/// `ids`: the dimension index in a loop (a runtime value at -O0:
/// OpVectorExtractDynamic on the built-in vectors) and from an argument
/// (`dyns`, in range or past the last dimension).
fn dynamic_case(offset: &[usize], global: &[usize], local: Option<&[usize]>, dyns: &[u32]) {
    let r = Range::new(offset, global, local);
    for opt in Opt::BOTH {
        for &dd in dyns {
            let recs = run(opt, "ids", &r, Some(dd));
            check_records(&recs, &r, Fields::Ids, Some(dd), &format!("{opt:?} ids(dyn={dd})"));
        }
    }
}

#[test]
fn runtime_dimension_indices() {
    dynamic_case(&[7], &[100], Some(&[16]), &[0, 2, 3, 0xffff_ffff]);
    dynamic_case(&[2, 9], &[13, 7], Some(&[5, 2]), &[1, 4]);
    dynamic_case(&[1, 2, 3], &[6, 5, 3], Some(&[4, 2, 2]), &[0, 1, 2, 3, 0x8000_0000]);
    dynamic_case(&[], &[5, 6, 7], None, &[2, 0x7fff_ffff]);
}

/// Fields per work-item of `ids_past_last`: four sets of the eight
/// functions (dimension 3, 0xffffffff, the argument, the loaded value),
/// work_dim, the end marker.
const PAST_LAST_REC: usize = 34;

/// `ids_past_last` over a range with an explicit local size, with `dyn_dim`
/// as the argument and `dims` as the values work-item k loads (k % 4), at
/// -O0 and -O2, with 4-lane bodies and with the scalar body alone.
fn past_last_case(offset: &[usize], global: &[usize], local: &[usize], dyn_dim: u32, dims: [u32; 4]) {
    let r = Range::new(offset, global, Some(local));
    let enq = r.local.expect("an explicit local size");
    for opt in Opt::BOTH {
        for options in ["", "-cl-clift-max-lanes=1"] {
            let what = format!("{opt:?} {options:?} ids_past_last(dyn={dyn_dim:#x}, dims={dims:x?}) over {r:?}");
            let mut out = vec![UNSET; r.items() * PAST_LAST_REC];
            let off = &r.offset[..r.dims];
            Kernel::with_il(&corpus_spirv("workitem_dims", opt), "ids_past_last", options)
                .unwrap_or_else(|log| panic!("{what}: {log}"))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(dyn_dim))
                .arg(Arg::input(&dims))
                .run_with_offset(Some(off), &r.global[..r.dims], Some(&enq[..r.dims]));
            let g = r.global;
            for lin in 0..r.items() {
                let item = [lin % g[0], lin / g[0] % g[1], lin / (g[0] * g[1])];
                let mut want = Vec::with_capacity(PAST_LAST_REC);
                for d in [3, 0xffff_ffff, dyn_dim, dims[lin % 4]] {
                    want.extend(dim_fields(&r, enq, item, d).iter().map(|&v| v as u32));
                }
                want.extend([r.dims as u32, 0x600d]);
                let rec = &out[lin * PAST_LAST_REC..(lin + 1) * PAST_LAST_REC];
                assert_eq!(rec, &want[..], "{what}: work-item {item:?}");
            }
        }
    }
}

/// `ids_past_last_simd` over a 1D range: each dimension index's eight
/// functions folded into one float (weights 1 to 128), in the 4-lane body
/// clift makes for it (tests/exec_simd_coverage.rs) and in the scalar body.
fn past_last_simd_case(offset: usize, global: usize, local: usize, dyn_dim: u32, dims: [u32; 4]) {
    let r = Range::new(&[offset], &[global], Some(&[local]));
    let enq = r.local.expect("an explicit local size");
    let input: Vec<f32> = (0..global).map(|i| (i % 7) as f32 * 0.25).collect();
    let fold = |item: [usize; 3], d: u32| -> f32 {
        let f = dim_fields(&r, enq, item, d);
        (0..8).map(|k| (f[k] << k) as f32).sum()
    };
    for opt in Opt::BOTH {
        for options in ["", "-cl-clift-max-lanes=1"] {
            let what = format!("{opt:?} {options:?} ids_past_last_simd(dyn={dyn_dim:#x}, dims={dims:x?}) over {r:?}");
            let mut out = vec![f32::NAN; global * 6];
            Kernel::with_il(&corpus_spirv("workitem_dims", opt), "ids_past_last_simd", options)
                .unwrap_or_else(|log| panic!("{what}: {log}"))
                .arg(Arg::input(&input))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(dyn_dim))
                .arg(Arg::input(&dims))
                .run_with_offset(Some(&[offset]), &[global], Some(&[local]));
            for i in 0..global {
                let item = [i, 0, 0];
                let want = [
                    fold(item, 3),
                    fold(item, 0xffff_ffff),
                    fold(item, dyn_dim),
                    fold(item, dims[i % 4]),
                    fold(item, 1),
                    1.0,
                ];
                let got: Vec<f32> = (0..6).map(|j| out[j * global + i]).collect();
                assert_eq!(got, want, "{what}: work-item {i}");
            }
        }
    }
}

#[test]
fn dimension_indices_past_the_last_in_four_lane_bodies() {
    past_last_simd_case(0, 64, 16, 3, [0, 3, 1, 0xffff_ffff]);
    past_last_simd_case(7, 40, 8, 0xffff_ffff, [2, 0x8000_0000, 4, 1]);
    // Groups of 6: a chunk of four and two work-items in the scalar body.
    past_last_simd_case(5, 30, 6, 0, [3, 0, 0xffff_ffff, 2]);
}

#[test]
fn dimension_indices_past_the_last() {
    // On a 1D range of 64 in groups of 16, get_local_size(3) is 1, not 16.
    past_last_case(&[], &[64], &[16], 3, [0, 3, 1, 0xffff_ffff]);
    past_last_case(&[7], &[40], &[8], 0xffff_ffff, [2, 0x8000_0000, 4, 1]);
    past_last_case(&[3, 5], &[16, 12], &[4, 3], 1, [0, 3, 1, 0xffff_ffff]);
    past_last_case(&[1, 2, 3], &[6, 5, 3], &[4, 2, 2], 2, [2, 0x8000_0000, 4, 1]);
}

/// The sub-group built-ins over the same kind of ranges (an explicit local
/// size, so the expected sub-group sizes are known).
fn sub_group_case(offset: &[usize], global: &[usize], local: &[usize]) {
    let r = Range::new(offset, global, Some(local));
    for opt in Opt::BOTH {
        let recs = run(opt, "ids_subgroup", &r, None);
        check_records(&recs, &r, Fields::SubGroup, None, &format!("{opt:?} ids_subgroup"));
    }
}

#[test]
fn sub_group_built_ins_uniform() {
    sub_group_case(&[], &[64], &[16]);
    sub_group_case(&[], &[60], &[30]);
    sub_group_case(&[3, 5], &[16, 12], &[4, 3]);
    sub_group_case(&[0, 1], &[20, 9], &[5, 3]);
    sub_group_case(&[1, 2, 3], &[8, 4, 6], &[2, 2, 3]);
    // clEnqueueTask: one sub-group of one work-item.
    let r = Range::new(&[], &[1], Some(&[1]));
    for opt in Opt::BOTH {
        let mut out = vec![UNSET; REC];
        Kernel::new("workitem", opt, "ids_subgroup")
            .arg(Arg::output(&mut out))
            .run_task();
        check_records(
            &out,
            &r,
            Fields::SubGroup,
            None,
            &format!("{opt:?} ids_subgroup as a task"),
        );
    }
}

#[test]
fn sub_group_built_ins_non_uniform() {
    sub_group_case(&[7], &[1000], &[64]);
    sub_group_case(&[2, 9], &[13, 7], &[5, 2]);
    sub_group_case(&[1, 2, 3], &[6, 5, 3], &[4, 2, 2]);
}

#[test]
fn one_dimension_uniform() {
    case(&[], &[64], Some(&[16]));
}

#[test]
fn one_dimension_with_offset_and_non_uniform_groups() {
    // 1000 = 15 * 64 + 40: the last group has 40 work-items.
    case(&[7], &[1000], Some(&[64]));
}

#[test]
fn one_dimension_null_local_size() {
    case(&[], &[1000], None);
    case(&[123], &[777], None);
}

#[test]
fn two_dimensions_uniform_with_offset() {
    case(&[3, 5], &[16, 12], Some(&[4, 3]));
}

#[test]
fn two_dimensions_non_uniform() {
    case(&[], &[13, 7], Some(&[4, 3]));
    case(&[2, 9], &[13, 7], Some(&[5, 2]));
}

#[test]
fn two_dimensions_null_local_size() {
    case(&[1, 1], &[37, 11], None);
}

#[test]
fn three_dimensions_uniform_with_offset() {
    case(&[1, 2, 3], &[8, 4, 6], Some(&[2, 2, 3]));
}

#[test]
fn three_dimensions_non_uniform_with_offset() {
    case(&[1, 2, 3], &[6, 5, 3], Some(&[4, 2, 2]));
    case(&[0, 0, 4], &[7, 3, 5], Some(&[2, 3, 4]));
}

#[test]
fn three_dimensions_null_local_size() {
    case(&[], &[5, 6, 7], None);
    case(&[10, 20, 30], &[9, 4, 3], None);
}

#[test]
fn one_work_item_per_group() {
    case(&[4], &[5], Some(&[1]));
    case(&[], &[3, 2, 2], Some(&[1, 1, 1]));
}

#[test]
fn a_task_is_one_work_item_in_one_dimension() {
    let r = Range::new(&[], &[1], Some(&[1]));
    for opt in Opt::BOTH {
        for (name, kind, dd) in [("ids_const", Fields::Const, None), ("ids", Fields::Ids, Some(0u32))] {
            let mut out = vec![UNSET; REC];
            let mut k = Kernel::new("workitem", opt, name).arg(Arg::output(&mut out));
            if let Some(d) = dd {
                k = k.arg(Arg::value(d));
            }
            k.run_task();
            check_records(&out, &r, kind, dd, &format!("{opt:?} {name} as a task"));
        }
    }
}

#[test]
fn global_ids_past_32_bits() {
    // size_t results are 64-bit: an offset past 2^32 shows in
    // get_global_id but not in get_global_linear_id.
    let off = (1usize << 33) + 5;
    let n = 300;
    for opt in Opt::BOTH {
        let mut out = vec![u64::MAX; n * 4];
        Kernel::new("workitem", opt, "ids_wide")
            .arg(Arg::output(&mut out))
            .run_with_offset(Some(&[off]), &[n], Some(&[32]));
        for i in 0..n {
            let want = [(off + i) as u64, n as u64, off as u64, (i / 32) as u64];
            assert_eq!(&out[i * 4..i * 4 + 4], &want, "{opt:?}: work-item {i}");
        }
    }
}
