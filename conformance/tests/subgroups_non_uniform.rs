//! The non-uniform sub-group extensions, from OpenCL C (compiled by clift,
//! and compiled offline to SPIR-V 1.3 then given as IL):
//! cl_khr_subgroup_non_uniform_vote, cl_khr_subgroup_ballot,
//! cl_khr_subgroup_non_uniform_arithmetic, cl_khr_subgroup_shuffle,
//! cl_khr_subgroup_shuffle_relative and cl_khr_subgroup_clustered_reduce:
//! every built-in of the six at every type it takes, called by part of a
//! sub-group, checked against a host reference written from the OpenCL C
//! specification.
//!
//! A sub-group is 8 consecutive local linear ids of a work-group, the last
//! one of a work-group holding the rest ([`sub_groups_of`]). Each kernel
//! runs over two dimensions: dimension 0 is one of [`RANGES`] (uniform and
//! non-uniform work-groups, partial sub-groups, several sub-groups per
//! work-group), dimension 1 has one row per entry of [`MASKS`] and local
//! size 1, so every row is its own set of work-groups and sub-groups. In row
//! `r` the work-items whose sub-group local id is a bit of `MASKS[r]` enter
//! a branch that holds the built-ins: they are the *active* work-items of
//! those calls, and the host computes every result over the active
//! work-items of the sub-group alone (in increasing local id order). The
//! other work-items must leave their outputs alone: every output buffer is
//! filled with [`SENTINEL`] bytes first and checked afterwards. The masks
//! take all of a sub-group, none of it, one work-item, alternate ones,
//! halves, and bits a partial sub-group does not have.
//!
//! A result the spec leaves undefined (an inactive or out-of-range source of
//! a shuffle or a broadcast, a cluster larger than the dispatch's largest
//! sub-group, `find_lsb`/`find_msb` of no bits) is never written: the
//! kernels only ask for defined results, so the execution modes that
//! [`exec`] compares bit for bit agree, and the host can check every byte.
//! Floating-point inputs of the arithmetic are small powers of two, so every
//! sum, product, minimum and maximum is exact in any order (the spec leaves
//! the order of floating-point operations open).
//!
//! Each test builds one program per way into clift (and its scalar twin,
//! see [`exec`]), holding one kernel per type, and launches siblings of it
//! rather than building a program per launch.

use clift_conformance::exec::{Arg, Kernel};
use clift_conformance::half::{from_half, to_half, Rounding};
use clift_conformance::rng::Rng;
use clift_conformance::*;

/// The extensions under test.
const EXTENSIONS: [&str; 6] = [
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
];

/// (global size, local size) of dimension 0: uniform, a last work-group of
/// 5 work-items, work-groups of one work-item, work-groups with a smaller
/// last sub-group, and a last work-group of fewer sub-groups.
const RANGES: [(usize, usize); 5] = [(64, 16), (37, 8), (5, 1), (90, 30), (50, 22)];

/// The active masks, one per row of a launch: bit `l` set means that the
/// work-item of sub-group local id `l` calls the built-ins. All, none, one
/// (the lowest, the highest, one in the middle, one a partial sub-group of 5
/// lacks), alternate work-items, halves, the top three (all of them missing
/// from a sub-group of 5), and two irregular sets.
const MASKS: [u32; 13] = [
    0xFF, 0x00, 0x01, 0x80, 0x08, 0x20, 0x55, 0xAA, 0x0F, 0xF0, 0xE0, 0x96, 0x7E,
];

/// The byte every output buffer holds before a launch.
const SENTINEL: u8 = 0xA5;

/// How a program reaches clift.
#[derive(Clone, Copy, Debug)]
enum From {
    /// clCreateProgramWithSource, clift compiling it.
    Source,
    /// Compiled offline to SPIR-V 1.3 with clang and llvm-spirv,
    /// clCreateProgramWithIL.
    SpirV,
}

/// Both ways in.
const FROMS: [From; 2] = [From::Source, From::SpirV];

/// What every program starts with: the extensions its types need, and two
/// helpers. `item()` is the work-item's index in the buffers (rows of
/// `get_global_size(0)` work-items); `active(masks)` is whether the
/// work-item's sub-group local id is a bit of its row's mask.
const PRELUDE: &str = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable\n\
    size_t item(void) { return get_global_id(1) * get_global_size(0) + get_global_id(0); }\n\
    int active(global const uint *masks) { return (masks[get_global_id(1)] >> get_sub_group_local_id()) & 1; }\n";

/// `src` built for clift from `from`, as its kernel `first`. Tests launch
/// siblings of it ([`Kernel::sibling`]), so a program is built once per way
/// in (and once more as the scalar twin).
fn program(src: &str, first: &str, from: From) -> Kernel<'static> {
    let built = match from {
        From::Source => Kernel::with_source(src, first, "-cl-std=CL2.0"),
        From::SpirV => Kernel::with_il(&offline::spirv_1_3_of(src, &["-cl-std=CL2.0"]), first, ""),
    };
    built.unwrap_or_else(|log| panic!("the program of {first} from {from:?} does not build:\n{log}"))
}

/// Runs kernel `name` of `prog` over `global` work-items in each of the
/// rows of [`MASKS`], with local size (`local`, 1), its arguments being the
/// masks and then `args`.
fn launch<'a>(prog: &Kernel, name: &str, (global, local): (usize, usize), args: Vec<Arg<'a>>) {
    let mut k = prog.sibling(name).arg(Arg::input(&MASKS[..]));
    for a in args {
        k = k.arg(a);
    }
    k.run(&[global, MASKS.len()], Some(&[local, 1]));
}

/// One sub-group of a launch.
#[derive(Clone, Copy, Debug)]
struct SubGroup {
    /// Its row (the index of its mask in [`MASKS`]).
    row: usize,
    /// Its position in the launch's list of sub-groups, to vary inputs.
    ordinal: usize,
    /// The buffer index of its work-item of local id 0.
    first: usize,
    /// Its size.
    size: usize,
    /// The largest sub-group size of the dispatch (`get_max_sub_group_size`).
    max: usize,
    /// Its row's mask.
    mask: u32,
}

impl SubGroup {
    /// The local ids of its active work-items, in increasing order.
    fn active(&self) -> Vec<usize> {
        (0..self.size).filter(|&l| (self.mask >> l) & 1 == 1).collect()
    }

    /// The buffer index of its work-item of local id `l`.
    fn item(&self, l: usize) -> usize {
        self.first + l
    }

    /// Names the work-item of local id `l` in a failure message.
    fn whom(&self, case: &str, l: usize) -> String {
        format!(
            "{case}: row mask {:#04x}, sub-group of {} at buffer index {}, local id {l}, active local ids {:?}",
            self.mask,
            self.size,
            self.first,
            self.active()
        )
    }
}

/// The sub-groups of a launch of `global` work-items per row with local
/// size `local` (see [`launch`]), row by row.
fn sub_groups((global, local): (usize, usize)) -> Vec<SubGroup> {
    let max = sub_group_size().min(local);
    let mut all = Vec::new();
    for (row, &mask) in MASKS.iter().enumerate() {
        for w in (0..global).step_by(local) {
            for (f, size) in sub_groups_of(local.min(global - w)) {
                all.push(SubGroup {
                    row,
                    ordinal: all.len(),
                    first: row * global + w + f,
                    size,
                    max,
                    mask,
                });
            }
        }
    }
    all
}

/// How the host reads an OpenCL C scalar type's bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Signed,
    Unsigned,
    Float,
}

/// An OpenCL C scalar type: its name, its size in bytes and its kind. Its
/// values travel as their bits in the low bytes of a u64.
#[derive(Clone, Copy, Debug)]
struct Scalar {
    name: &'static str,
    size: usize,
    kind: Kind,
}

/// `int`, the type of predicates and of vote and logical results.
const INT: Scalar = Scalar {
    name: "int",
    size: 4,
    kind: Kind::Signed,
};

/// `uint`, the type of ballots and ballot results.
const UINT: Scalar = Scalar {
    name: "uint",
    size: 4,
    kind: Kind::Unsigned,
};

/// Every scalar type ([`SCALAR_TYPES`]).
fn scalars() -> Vec<Scalar> {
    SCALAR_TYPES
        .iter()
        .map(|&(name, size)| Scalar {
            name,
            size: size as usize,
            kind: match name {
                "half" | "float" | "double" => Kind::Float,
                _ if name.starts_with('u') => Kind::Unsigned,
                _ => Kind::Signed,
            },
        })
        .collect()
}

/// The binary operations of the reductions and scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Add,
    Mul,
    Min,
    Max,
    And,
    Or,
    Xor,
}

impl Op {
    /// Every operation: the arithmetic ones first, then the bitwise ones.
    const ALL: [Op; 7] = [Op::Add, Op::Mul, Op::Min, Op::Max, Op::And, Op::Or, Op::Xor];

    /// The operations `t` takes: `and`, `or` and `xor` are for integers only.
    fn of(t: Scalar) -> &'static [Op] {
        if t.kind == Kind::Float {
            &Op::ALL[..4]
        } else {
            &Op::ALL
        }
    }

    /// The operation's name in the built-ins' names.
    fn name(self) -> &'static str {
        match self {
            Op::Add => "add",
            Op::Mul => "mul",
            Op::Min => "min",
            Op::Max => "max",
            Op::And => "and",
            Op::Or => "or",
            Op::Xor => "xor",
        }
    }
}

impl Scalar {
    /// All the bits of the type.
    fn ones(self) -> u64 {
        u64::MAX >> (64 - 8 * self.size)
    }

    /// The bits as a signed integer of the type's width.
    fn signed(self, v: u64) -> i64 {
        let shift = 64 - 8 * self.size;
        ((v << shift) as i64) >> shift
    }

    /// A floating-point value of the type, exactly.
    fn to_f64(self, v: u64) -> f64 {
        match self.size {
            2 => from_half(v as u16),
            4 => f64::from(f32::from_bits(v as u32)),
            _ => f64::from_bits(v),
        }
    }

    /// `x` as a value of the floating-point type (rounded to nearest).
    fn of_f64(self, x: f64) -> u64 {
        match self.size {
            2 => u64::from(to_half(x, Rounding::Rte)),
            4 => u64::from((x as f32).to_bits()),
            _ => x.to_bits(),
        }
    }

    /// `a op b` as OpenCL C computes it on the type: integers wrap.
    fn apply(self, op: Op, a: u64, b: u64) -> u64 {
        if self.kind == Kind::Float {
            let (x, y) = (self.to_f64(a), self.to_f64(b));
            return self.of_f64(match op {
                Op::Add => x + y,
                Op::Mul => x * y,
                Op::Min => x.min(y),
                Op::Max => x.max(y),
                Op::And | Op::Or | Op::Xor => unreachable!("no {op:?} on {}", self.name),
            });
        }
        let less = |a: u64, b: u64| match self.kind {
            Kind::Signed => self.signed(a) < self.signed(b),
            _ => a < b,
        };
        let r = match op {
            Op::Add => a.wrapping_add(b),
            Op::Mul => a.wrapping_mul(b),
            Op::Min => {
                if less(b, a) {
                    b
                } else {
                    a
                }
            }
            Op::Max => {
                if less(a, b) {
                    b
                } else {
                    a
                }
            }
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
        };
        r & self.ones()
    }

    /// The identity of `op` on the type, which an exclusive scan gives its
    /// first active work-item: 0 for add, 1 for mul, the largest value (or
    /// +INF) for min, the smallest (or -INF) for max, all bits for and, 0
    /// for or and xor.
    fn identity(self, op: Op) -> u64 {
        let top = 1u64 << (8 * self.size - 1);
        match (op, self.kind) {
            (Op::Add | Op::Or | Op::Xor, _) => 0,
            (Op::Mul, Kind::Float) => self.of_f64(1.0),
            (Op::Mul, _) => 1,
            (Op::Min, Kind::Float) => self.of_f64(f64::INFINITY),
            (Op::Min, Kind::Signed) => top - 1,
            (Op::Min, Kind::Unsigned) => self.ones(),
            (Op::Max, Kind::Float) => self.of_f64(f64::NEG_INFINITY),
            (Op::Max, Kind::Signed) => top,
            (Op::Max, Kind::Unsigned) => 0,
            (Op::And, _) => self.ones(),
        }
    }

    /// `op` over `values` left to right: `((v0 op v1) op v2) ...`, the
    /// identity if there are none.
    fn fold(self, op: Op, values: &[u64]) -> u64 {
        values.iter().fold(self.identity(op), |a, &b| self.apply(op, a, b))
    }

    /// Element `i` of a buffer of the type (the host's byte order is the
    /// device's, little-endian).
    fn read(self, buf: &[u8], i: usize) -> u64 {
        let mut b = [0u8; 8];
        b[..self.size].copy_from_slice(&buf[i * self.size..(i + 1) * self.size]);
        u64::from_le_bytes(b)
    }

    /// Sets element `i` of a buffer of the type.
    fn write(self, buf: &mut [u8], i: usize, v: u64) {
        buf[i * self.size..(i + 1) * self.size].copy_from_slice(&v.to_le_bytes()[..self.size]);
    }

    /// A buffer of `n` elements of the type, every byte [`SENTINEL`].
    fn sentinels(self, n: usize) -> Vec<u8> {
        vec![SENTINEL; n * self.size]
    }

    /// A value for a failure message: its bits, and for floating-point
    /// types its value.
    fn show(self, v: u64) -> String {
        match self.kind {
            Kind::Float => format!("{v:#x} ({})", self.to_f64(v)),
            _ => format!("{v:#x}"),
        }
    }
}

/// What an output element must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// The sentinel the buffer was filled with: nothing wrote it.
    Untouched,
    /// These bits.
    Bits(u64),
    /// A truth value: zero for false, any other value for true.
    Truth(bool),
    /// Anything: the spec does not say.
    Unchecked,
}

/// Checks the `want.len()` elements of type `t` of `out` from element `at`;
/// panics listing every wrong one (named by `label` from its index) and the
/// work-item (`whom`).
fn check(t: Scalar, out: &[u8], at: usize, want: &[Want], label: &dyn Fn(usize) -> String, whom: &dyn Fn() -> String) {
    let sentinel = t.read(&[SENTINEL; 8], 0);
    let wrong: Vec<String> = want
        .iter()
        .enumerate()
        .filter_map(|(j, w)| {
            let got = t.read(out, at + j);
            let (ok, wanted) = match *w {
                Want::Untouched => (got == sentinel, "untouched".to_string()),
                Want::Bits(b) => (got == b, t.show(b)),
                Want::Truth(b) => ((got != 0) == b, b.to_string()),
                Want::Unchecked => (true, String::new()),
            };
            (!ok).then(|| format!("\n  {}: got {}, want {wanted}", label(j), t.show(got)))
        })
        .collect();
    assert!(wrong.is_empty(), "{} ({}):{}", whom(), t.name, wrong.concat());
}

/// `n` values of type `t` for the arithmetic: for floating-point types
/// ±0.5, ±1 and ±2, whose sums, products, minima and maxima over at most 8
/// values are exact in half, float and double in any order; for integer
/// types bits of every density (some odd, some dense for `and`, some sparse
/// for `or`), so that wrapping, signedness and every bit count.
fn arithmetic_inputs(t: Scalar, n: usize, seed: u64) -> Vec<u8> {
    const EXACT: [f64; 6] = [-2.0, -1.0, -0.5, 0.5, 1.0, 2.0];
    let mut rng = Rng(seed);
    let mut buf = vec![0u8; n * t.size];
    for i in 0..n {
        let r = rng.next64();
        let v = match t.kind {
            Kind::Float => t.of_f64(EXACT[(r >> 40) as usize % EXACT.len()]),
            _ => match i % 4 {
                0 => r | 1,
                1 => r | rng.next64(),
                2 => r & rng.next64(),
                _ => r,
            },
        };
        t.write(&mut buf, i, v & t.ones());
    }
    buf
}

/// `n` values of any bits (NaN payloads and denormals in the floating-point
/// types included), for the built-ins that only move values.
fn any_bits(n: usize, size: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    (0..n * size).map(|_| (rng.next() >> 7) as u8).collect()
}

/// Predicates of the votes, ballots and logical operations, by sub-group
/// (by its ordinal): all true, all false, or mixed. The true ones are 1,
/// -1, 2, 0x100, INT_MIN and 7: non-zero but mostly not 1 or not positive,
/// so an implementation that tests one bit or the sign fails.
fn predicates(sgs: &[SubGroup], items: usize, seed: u64) -> Vec<i32> {
    const TRUE: [i32; 6] = [1, -1, 2, 0x100, i32::MIN, 7];
    let mut rng = Rng(seed);
    let mut p = vec![0i32; items];
    for sg in sgs {
        for l in 0..sg.size {
            let r = rng.next() as usize;
            let truth = match sg.ordinal % 3 {
                0 => true,
                1 => false,
                _ => r.is_multiple_of(2),
            };
            p[sg.item(l)] = if truth { TRUE[(r / 2) % TRUE.len()] } else { 0 };
        }
    }
    p
}

/// The description of one launch in failure messages.
fn case(what: &str, from: From, (global, local): (usize, usize)) -> String {
    format!("{what} from {from:?}, global {global} local {local}")
}

/// The device offers the six extensions: they are in CL_DEVICE_EXTENSIONS
/// and in CL_DEVICE_EXTENSIONS_WITH_VERSION at 1.0.0 (their revision in the
/// registry), SPIR-V 1.3 (the first version with the GroupNonUniform
/// capabilities they map to) is among the device's ILs, and OpenCL C that
/// clift compiles sees each extension's macro.
#[test]
fn the_device_lists_the_non_uniform_extensions() {
    let d = device();
    /// `cl_name_version` entries as (name, version).
    fn name_versions(d: cl_device_id, param: cl_device_info) -> Vec<(String, cl_version)> {
        // SAFETY: forwards the buffer protocol of `info_bytes`.
        let bytes = info_bytes(|s, v, r| unsafe { clGetDeviceInfo(d, param, s, v, r) })
            .unwrap_or_else(|e| panic!("clGetDeviceInfo({param:#x}) failed with {}", error_name(e)));
        let entry = size_of::<cl_name_version>();
        assert_eq!(bytes.len() % entry, 0, "a whole number of cl_name_version");
        bytes
            .chunks_exact(entry)
            .map(|c| {
                let version = u32::from_ne_bytes([c[0], c[1], c[2], c[3]]);
                let name: Vec<u8> = c[4..].iter().copied().take_while(|&b| b != 0).collect();
                (String::from_utf8_lossy(&name).into_owned(), version)
            })
            .collect()
    }
    let version = |major: u32, minor: u32| (major << 22) | (minor << 12);
    let listed = device_string(d, CL_DEVICE_EXTENSIONS);
    let versioned = name_versions(d, CL_DEVICE_EXTENSIONS_WITH_VERSION);
    for e in EXTENSIONS {
        assert!(
            listed.split_whitespace().any(|x| x == e),
            "{e} is not in CL_DEVICE_EXTENSIONS: {listed}"
        );
        assert!(
            versioned.contains(&(e.to_string(), version(1, 0))),
            "{e} 1.0.0 is not in CL_DEVICE_EXTENSIONS_WITH_VERSION: {versioned:?}"
        );
    }
    let il = device_string(d, CL_DEVICE_IL_VERSION);
    assert!(
        il.split_whitespace().any(|v| v == "SPIR-V_1.3"),
        "CL_DEVICE_IL_VERSION lacks SPIR-V_1.3: {il}"
    );
    let ils = name_versions(d, CL_DEVICE_ILS_WITH_VERSION);
    assert!(
        ils.contains(&("SPIR-V".to_string(), version(1, 3))),
        "CL_DEVICE_ILS_WITH_VERSION lacks SPIR-V 1.3: {ils:?}"
    );
    let mut src: String = EXTENSIONS
        .iter()
        .map(|e| format!("#ifndef {e}\n#error {e} is not defined\n#endif\n"))
        .collect();
    src += "kernel void k(global int *out) { *out = 1; }\n";
    if let Err(log) = Kernel::with_source(&src, "k", "-cl-std=CL2.0") {
        panic!("OpenCL C does not see the extensions:\n{log}");
    }
}

/// cl_khr_subgroup_non_uniform_vote: per active work-item `out[3 * g ..]`
/// gets `sub_group_elect()`, `sub_group_non_uniform_all(p)` and
/// `sub_group_non_uniform_any(p)`.
const VOTES: &str = "kernel void votes(global const uint *masks, global const int *pred, global int *out) {\n\
    size_t g = item(); int p = pred[g]; global int *o = out + 3 * g;\n\
    if (active(masks)) { o[0] = sub_group_elect(); o[1] = sub_group_non_uniform_all(p); \
    o[2] = sub_group_non_uniform_any(p); }\n}\n";

/// `sub_group_elect` is true for the lowest active work-item only;
/// `sub_group_non_uniform_all` and `_any` look at the active work-items'
/// predicates only (the inactive ones' predicates differ from theirs in
/// most sub-groups of the mixed kind).
#[test]
fn elect_all_and_any_over_the_active_work_items() {
    let src = format!("{PRELUDE}{VOTES}");
    for from in FROMS {
        let prog = program(&src, "votes", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            let pred = predicates(&sgs, items, 11);
            let mut out = INT.sentinels(3 * items);
            launch(&prog, "votes", range, vec![Arg::input(&pred), Arg::output(&mut out)]);
            let case = case("votes", from, range);
            for sg in &sgs {
                let active = sg.active();
                let preds: Vec<bool> = active.iter().map(|&a| pred[sg.item(a)] != 0).collect();
                for l in 0..sg.size {
                    let want = if active.contains(&l) {
                        [
                            Want::Truth(l == active[0]),
                            Want::Truth(preds.iter().all(|&p| p)),
                            Want::Truth(preds.iter().any(|&p| p)),
                        ]
                    } else {
                        [Want::Untouched; 3]
                    };
                    let label = |j: usize| ["elect", "all", "any"][j].to_string();
                    check(INT, &out, 3 * sg.item(l), &want, &label, &|| sg.whom(&case, l));
                }
            }
        }
    }
}

/// `sub_group_non_uniform_all_equal` of every scalar type: per active
/// work-item `out[g]`.
fn all_equal_kernel(t: Scalar) -> String {
    format!(
        "kernel void all_equal_{t}(global const uint *masks, global const {t} *in, global int *out) {{\n\
         size_t g = item(); if (active(masks)) out[g] = sub_group_non_uniform_all_equal(in[g]); }}\n",
        t = t.name
    )
}

/// Inputs of `sub_group_non_uniform_all_equal`, by sub-group (by its
/// ordinal): one value in every work-item; one work-item with another
/// value; for integers, one work-item whose value differs in the top bit
/// only, and for floating-point types +0.0 and -0.0 in turn (equal: the test
/// is an ordered floating-point comparison, not a bitwise one); for
/// integers, a value per work-item, and for floating-point types the same
/// NaN everywhere (never equal).
fn all_equal_inputs(t: Scalar, sgs: &[SubGroup], items: usize) -> Vec<u8> {
    let mut buf = t.sentinels(items);
    let mut rng = Rng(23);
    for sg in sgs {
        let base = match t.kind {
            Kind::Float => t.of_f64(1.5 + sg.ordinal as f64),
            _ => rng.next64() & t.ones(),
        };
        let odd = (sg.row + sg.ordinal) % sg.size;
        for l in 0..sg.size {
            let v = match (sg.ordinal % 4, t.kind) {
                (0, _) => base,
                (1, Kind::Float) if l == odd => t.of_f64(t.to_f64(base) + 1.0),
                (1, _) if l == odd => base ^ (1 << (sg.ordinal % (8 * t.size))),
                (1, _) => base,
                (2, Kind::Float) => t.of_f64(if l % 2 == 0 { 0.0 } else { -0.0 }),
                (2, _) if l == odd => base ^ (1 << (8 * t.size - 1)),
                (2, _) => base,
                (_, Kind::Float) => t.of_f64(f64::NAN),
                (_, _) => base ^ l as u64,
            };
            t.write(&mut buf, sg.item(l), v);
        }
    }
    buf
}

/// `sub_group_non_uniform_all_equal` of every scalar type, over the active
/// work-items only: integers compare bitwise, floating-point values with
/// an ordered comparison (+0.0 equals -0.0, a NaN equals nothing; a lone
/// active NaN is not checked, the spec not saying whether it equals
/// itself).
#[test]
fn all_equal_of_every_type_over_the_active_work_items() {
    let types = scalars();
    let src: String = PRELUDE.to_string() + &types.iter().map(|&t| all_equal_kernel(t)).collect::<String>();
    for from in FROMS {
        let prog = program(&src, "all_equal_char", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            for &t in &types {
                let inp = all_equal_inputs(t, &sgs, items);
                let mut out = INT.sentinels(items);
                let name = format!("all_equal_{}", t.name);
                launch(&prog, &name, range, vec![Arg::input(&inp), Arg::output(&mut out)]);
                let case = case(&name, from, range);
                let equal = |a: u64, b: u64| match t.kind {
                    Kind::Float => t.to_f64(a) == t.to_f64(b),
                    _ => a == b,
                };
                for sg in &sgs {
                    let active = sg.active();
                    let values: Vec<u64> = active.iter().map(|&a| t.read(&inp, sg.item(a))).collect();
                    let lone_nan = values.len() == 1 && t.kind == Kind::Float && t.to_f64(values[0]).is_nan();
                    let all_equal = values.iter().all(|&v| equal(v, values[0]));
                    for l in 0..sg.size {
                        let want = if !active.contains(&l) {
                            Want::Untouched
                        } else if lone_nan {
                            Want::Unchecked
                        } else {
                            Want::Truth(all_equal)
                        };
                        check(INT, &out, sg.item(l), &[want], &|_| "all_equal".to_string(), &|| {
                            sg.whom(&case, l)
                        });
                    }
                }
            }
        }
    }
}

/// cl_khr_subgroup_ballot, but for the broadcasts: per active work-item
/// `out[32 * g ..]` (uints) gets `sub_group_ballot(pred)` (4), then, of the
/// sub-group's bit field `v`: `inverse_ballot`, `bit_extract` at a local id
/// that varies by work-item, `bit_count`, `inclusive_scan`,
/// `exclusive_scan`, `find_lsb`, `find_msb`; then the eq, ge, gt, le and lt
/// masks (4 each), then the number of active work-items as
/// `bit_count(ballot(1))`.
const BALLOTS: &str = "kernel void ballots(global const uint *masks, global const int *pred, \
    global const uint4 *field, global uint *out) {\n\
    size_t g = item(); uint l = get_sub_group_local_id(); global uint *o = out + 32 * g;\n\
    if (active(masks)) {\n\
        uint4 v = field[g]; uint i = (3 * l + (uint)get_global_id(1)) % get_sub_group_size();\n\
        vstore4(sub_group_ballot(pred[g]), 0, o);\n\
        o[4] = sub_group_inverse_ballot(v); o[5] = sub_group_ballot_bit_extract(v, i);\n\
        o[6] = sub_group_ballot_bit_count(v); o[7] = sub_group_ballot_inclusive_scan(v);\n\
        o[8] = sub_group_ballot_exclusive_scan(v); o[9] = sub_group_ballot_find_lsb(v);\n\
        o[10] = sub_group_ballot_find_msb(v);\n\
        vstore4(get_sub_group_eq_mask(), 0, o + 11); vstore4(get_sub_group_ge_mask(), 0, o + 15);\n\
        vstore4(get_sub_group_gt_mask(), 0, o + 19); vstore4(get_sub_group_le_mask(), 0, o + 23);\n\
        vstore4(get_sub_group_lt_mask(), 0, o + 27);\n\
        o[31] = sub_group_ballot_bit_count(sub_group_ballot(1));\n\
    }\n}\n";

/// The names of the [`BALLOTS`] outputs.
fn ballot_label(j: usize) -> String {
    const ONE: [&str; 7] = [
        "inverse_ballot(v)",
        "ballot_bit_extract(v, i)",
        "ballot_bit_count(v)",
        "ballot_inclusive_scan(v)",
        "ballot_exclusive_scan(v)",
        "ballot_find_lsb(v)",
        "ballot_find_msb(v)",
    ];
    const MASK: [&str; 5] = ["eq", "ge", "gt", "le", "lt"];
    match j {
        0..=3 => format!("sub_group_ballot(pred).s{j}"),
        4..=10 => ONE[j - 4].to_string(),
        11..=30 => format!("get_sub_group_{}_mask().s{}", MASK[(j - 11) / 4], (j - 11) % 4),
        _ => "ballot_bit_count(ballot(1))".to_string(),
    }
}

/// The bits below `n` of a 128-bit field.
fn below(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The four uints of a 128-bit field, component 0 holding bits 0 to 31.
fn words(v: u128) -> [Want; 4] {
    [0, 1, 2, 3].map(|k| Want::Bits(((v >> (32 * k)) as u32).into()))
}

/// The bit field `v` that a sub-group's work-items pass to the bit-field
/// functions: one of a few patterns, by the sub-group's ordinal. Most set
/// bits among 8 to 127, past the largest sub-group size of every dispatch,
/// which `bit_count`, `find_lsb` and `find_msb` must ignore. The bits from
/// the sub-group's size up to the dispatch's largest sub-group size (the
/// local ids a partial sub-group lacks) are clear, as the spec and the
/// Khronos CTS disagree there: the spec has those three functions consider
/// "only ... the bits in _value_ that represent predicate values
/// corresponding to sub-group local IDs less than the maximum sub-group
/// size within the dispatch (as returned by `get_max_sub_group_size`)", the
/// CTS only the bits below the sub-group's own size. At least one bit below
/// the size is set (`find_lsb` and `find_msb` of none are undefined).
fn ballot_field(sg: &SubGroup) -> u128 {
    const PATTERNS: [[u32; 4]; 6] = [
        [0xFFFF_FFFF; 4],
        [0x5555_5555, 0, 0xFFFF_FFFF, 1],
        [0x0000_0080, 0xFFFF_FFFF, 0, 0],
        [0x0000_0001, 0, 0, 0x8000_0000],
        [0xFFFF_FF3C, 0xF0F0_F0F0, 0x0F0F_0F0F, 0],
        [0x0000_00A6, 0, 0xFFFF_FFFF, 0xFFFF_FFFF],
    ];
    let p = PATTERNS[sg.ordinal % PATTERNS.len()];
    let mut v = p.iter().rev().fold(0u128, |acc, &w| (acc << 32) | u128::from(w));
    v &= !(below(sg.max) & !below(sg.size));
    if v & below(sg.size) == 0 {
        v |= 1 << (sg.ordinal % sg.size);
    }
    v
}

/// cl_khr_subgroup_ballot's ballots, bit-field functions and masks, called
/// by the active work-items: `sub_group_ballot` has the bits of the active
/// work-items whose predicate is non-zero; `inverse_ballot` and
/// `bit_extract` read one bit; `bit_count`, `find_lsb` and `find_msb` look
/// at the bits of the sub-group's local ids; the scans count the bits up to
/// (and, inclusive, at) the work-item's local id. The ge and gt masks stop
/// at the dispatch's largest sub-group size, which in a partial sub-group
/// is past its own size: "the bit is set in the bitmask if the bit index is
/// greater than or equal to the sub-group local ID and less than the
/// maximum sub-group size" (the Khronos CTS's expected masks agree).
#[test]
fn ballots_bit_fields_and_masks_in_divergent_code() {
    let src = format!("{PRELUDE}{BALLOTS}");
    for from in FROMS {
        let prog = program(&src, "ballots", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            let pred = predicates(&sgs, items, 29);
            let mut field = vec![0u32; 4 * items];
            for sg in &sgs {
                let v = ballot_field(sg);
                for l in 0..sg.size {
                    for k in 0..4 {
                        field[4 * sg.item(l) + k] = (v >> (32 * k)) as u32;
                    }
                }
            }
            let mut out = UINT.sentinels(32 * items);
            launch(
                &prog,
                "ballots",
                range,
                vec![Arg::input(&pred), Arg::input(&field), Arg::output(&mut out)],
            );
            let case = case("ballots", from, range);
            for sg in &sgs {
                let active = sg.active();
                let v = ballot_field(sg);
                let ballot = active
                    .iter()
                    .filter(|&&a| pred[sg.item(a)] != 0)
                    .fold(0u128, |b, &a| b | (1 << a));
                let mine = v & below(sg.size);
                for l in 0..sg.size {
                    let mut want = vec![Want::Untouched; 32];
                    if active.contains(&l) {
                        let i = (3 * l + sg.row) % sg.size;
                        want.clear();
                        want.extend(words(ballot));
                        want.extend([
                            Want::Truth((v >> l) & 1 == 1),
                            Want::Truth((v >> i) & 1 == 1),
                            Want::Bits(mine.count_ones().into()),
                            Want::Bits((v & below(l + 1)).count_ones().into()),
                            Want::Bits((v & below(l)).count_ones().into()),
                            Want::Bits(mine.trailing_zeros().into()),
                            Want::Bits((127 - mine.leading_zeros()).into()),
                        ]);
                        want.extend(words(1 << l));
                        want.extend(words(below(sg.max) & !below(l)));
                        want.extend(words(below(sg.max) & !below(l + 1)));
                        want.extend(words(below(l + 1)));
                        want.extend(words(below(l)));
                        want.push(Want::Bits(active.len() as u64));
                    }
                    check(UINT, &out, 32 * sg.item(l), &want, &ballot_label, &|| sg.whom(&case, l));
                }
            }
        }
    }
}

/// Where a `sub_group_non_uniform_broadcast` takes its value from.
#[derive(Clone, Copy, Debug)]
enum Source {
    /// This local id, a constant (as SPIR-V before 1.5 requires of
    /// OpGroupNonUniformBroadcast's Id); the call is only made when that
    /// work-item is active (a condition the same for the whole sub-group).
    Fixed(usize),
    /// The local id in the work-item's element of `src`: not a constant
    /// (OpenCL C allows it, and the Khronos CTS's broadcast kernels do it),
    /// the same for the whole sub-group, always an active work-item's.
    Given,
}

impl Source {
    /// The source's local id in sub-group `sg` with active local ids
    /// `active`, if the kernel calls the broadcast there.
    fn local_id(self, sg: &SubGroup, active: &[usize]) -> Option<usize> {
        match self {
            Source::Fixed(s) => active.contains(&s).then_some(s),
            Source::Given => (!active.is_empty()).then(|| active[sg.ordinal % active.len()]),
        }
    }
}

/// The sources of the scalar broadcasts.
const SCALAR_SOURCES: [Source; 4] = [Source::Fixed(0), Source::Fixed(3), Source::Fixed(7), Source::Given];
/// The sources of the vector broadcasts.
const VECTOR_SOURCES: [Source; 2] = [Source::Fixed(6), Source::Given];
/// The vector sizes, whose elements lie in a row after the scalar: 33 in
/// all.
const WIDTHS: [usize; 5] = [2, 3, 4, 8, 16];
/// A work-item's elements in the input of the broadcasts: a scalar, then
/// the vectors.
const BROADCAST_IN: usize = 34;
/// A work-item's elements in the output of the broadcasts: the broadcast
/// first, the scalars from each of [`SCALAR_SOURCES`], the vectors from
/// each of [`VECTOR_SOURCES`].
const BROADCAST_OUT: usize = 1 + SCALAR_SOURCES.len() + 33 * VECTOR_SOURCES.len();

/// The vector width and component of element `e` (0 to 32) of a
/// work-item's vectors in the broadcasts' buffers.
fn vector_element(mut e: usize) -> (usize, usize) {
    for w in WIDTHS {
        if e < w {
            return (w, e);
        }
        e -= w;
    }
    unreachable!("the vectors have 33 elements")
}

/// `sub_group_broadcast_first` and `sub_group_non_uniform_broadcast` of
/// type `t` and its vectors: each work-item has [`BROADCAST_IN`] elements
/// in `in` and [`BROADCAST_OUT`] in `out`, and its source of
/// [`Source::Given`] in `src`.
fn broadcast_kernel(t: Scalar) -> String {
    let cond_id = |s: Source| match s {
        Source::Fixed(s) => (format!("if (((m >> {s}) & 1) && {s} < n) "), s.to_string()),
        Source::Given => (String::new(), "d".to_string()),
    };
    let mut body = String::from("o[0] = sub_group_broadcast_first(x[0]);\n");
    for (k, &s) in SCALAR_SOURCES.iter().enumerate() {
        let (cond, id) = cond_id(s);
        body += &format!("{cond}o[{}] = sub_group_non_uniform_broadcast(x[0], {id});\n", 1 + k);
    }
    for (k, &s) in VECTOR_SOURCES.iter().enumerate() {
        let (cond, id) = cond_id(s);
        let mut at = 0;
        for w in WIDTHS {
            body += &format!(
                "{cond}vstore{w}(sub_group_non_uniform_broadcast(vload{w}(0, x + {}), {id}), 0, o + {});\n",
                1 + at,
                1 + SCALAR_SOURCES.len() + 33 * k + at
            );
            at += w;
        }
    }
    format!(
        "kernel void broadcast_{t}(global const uint *masks, global const {t} *in, global const uint *src, \
         global {t} *out) {{\n\
         size_t g = item(); uint m = masks[get_global_id(1)], n = get_sub_group_size(), d = src[g];\n\
         global const {t} *x = in + {BROADCAST_IN} * g; global {t} *o = out + {BROADCAST_OUT} * g;\n\
         if (active(masks)) {{\n{body}}}\n}}\n",
        t = t.name
    )
}

/// cl_khr_subgroup_ballot's broadcasts, of every scalar type and (the non-
/// uniform one) every vector type: `sub_group_broadcast_first` gives the
/// lowest active work-item's value, `sub_group_non_uniform_broadcast` the
/// value of the active work-item named, by a constant or by a value the
/// same in the sub-group; every bit arrives (the inputs are any bits, NaN
/// payloads included).
#[test]
fn broadcasts_of_every_type_from_active_work_items() {
    let types = scalars();
    let src: String = PRELUDE.to_string() + &types.iter().map(|&t| broadcast_kernel(t)).collect::<String>();
    let fixed = 1 + SCALAR_SOURCES.len();
    let label = |j: usize| match j {
        0 => "sub_group_broadcast_first(x)".to_string(),
        _ if j < fixed => format!("sub_group_non_uniform_broadcast(x, {:?})", SCALAR_SOURCES[j - 1]),
        _ => {
            let (k, e) = ((j - fixed) / 33, (j - fixed) % 33);
            let (w, e) = vector_element(e);
            format!("sub_group_non_uniform_broadcast(x{w}, {:?}).s{e:x}", VECTOR_SOURCES[k])
        }
    };
    for from in FROMS {
        let prog = program(&src, "broadcast_char", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            let mut given = vec![0u32; items];
            for sg in &sgs {
                if let Some(s) = Source::Given.local_id(sg, &sg.active()) {
                    given[sg.item(0)..sg.item(sg.size)].fill(s as u32);
                }
            }
            for (k, &t) in types.iter().enumerate() {
                let inp = any_bits(BROADCAST_IN * items, t.size, 41 + k as u64);
                let mut out = t.sentinels(BROADCAST_OUT * items);
                let name = format!("broadcast_{}", t.name);
                launch(
                    &prog,
                    &name,
                    range,
                    vec![Arg::input(&inp), Arg::input(&given), Arg::output(&mut out)],
                );
                let case = case(&name, from, range);
                for sg in &sgs {
                    let active = sg.active();
                    let element = |l: usize, e: usize| Want::Bits(t.read(&inp, BROADCAST_IN * sg.item(l) + e));
                    for l in 0..sg.size {
                        let mut want = vec![Want::Untouched; BROADCAST_OUT];
                        if active.contains(&l) {
                            want[0] = element(active[0], 0);
                            for (k, s) in SCALAR_SOURCES.iter().enumerate() {
                                if let Some(s) = s.local_id(sg, &active) {
                                    want[1 + k] = element(s, 0);
                                }
                            }
                            for (k, s) in VECTOR_SOURCES.iter().enumerate() {
                                if let Some(s) = s.local_id(sg, &active) {
                                    for e in 0..33 {
                                        want[fixed + 33 * k + e] = element(s, 1 + e);
                                    }
                                }
                            }
                        }
                        check(t, &out, BROADCAST_OUT * sg.item(l), &want, &label, &|| {
                            sg.whom(&case, l)
                        });
                    }
                }
            }
        }
    }
}

/// The reductions and scans, in the order of their outputs for each
/// operation.
const FORMS: [&str; 3] = ["reduce", "scan_inclusive", "scan_exclusive"];

/// cl_khr_subgroup_non_uniform_arithmetic on type `t`: per active
/// work-item `out[3 * ops * g ..]` gets, for each operation of `t`
/// ([`Op::of`]), the reduction, the inclusive scan and the exclusive scan.
fn arithmetic_kernel(t: Scalar) -> String {
    let ops = Op::of(t);
    let mut body = String::new();
    for (k, op) in ops.iter().enumerate() {
        for (j, form) in FORMS.iter().enumerate() {
            body += &format!("o[{}] = sub_group_non_uniform_{form}_{}(x); ", 3 * k + j, op.name());
        }
        body += "\n";
    }
    format!(
        "kernel void arithmetic_{t}(global const uint *masks, global const {t} *in, global {t} *out) {{\n\
         size_t g = item(); {t} x = in[g]; global {t} *o = out + {n} * g;\n\
         if (active(masks)) {{\n{body}}}\n}}\n",
        t = t.name,
        n = 3 * ops.len()
    )
}

/// cl_khr_subgroup_non_uniform_arithmetic: `sub_group_non_uniform_reduce_*`,
/// `_scan_inclusive_*` and `_scan_exclusive_*` of add, mul, min and max on
/// every scalar type and of and, or and xor on the integer types, over the
/// active work-items only, in local id order; an exclusive scan gives the
/// first active work-item the operation's identity.
#[test]
fn reductions_and_scans_of_every_type_over_the_active_work_items() {
    let types = scalars();
    let src: String = PRELUDE.to_string() + &types.iter().map(|&t| arithmetic_kernel(t)).collect::<String>();
    for from in FROMS {
        let prog = program(&src, "arithmetic_char", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            for (k, &t) in types.iter().enumerate() {
                let ops = Op::of(t);
                let n = 3 * ops.len();
                let inp = arithmetic_inputs(t, items, 53 + k as u64);
                let mut out = t.sentinels(n * items);
                let name = format!("arithmetic_{}", t.name);
                launch(&prog, &name, range, vec![Arg::input(&inp), Arg::output(&mut out)]);
                let case = case(&name, from, range);
                let label = |j: usize| format!("sub_group_non_uniform_{}_{}", FORMS[j % 3], ops[j / 3].name());
                for sg in &sgs {
                    let active = sg.active();
                    let xs: Vec<u64> = active.iter().map(|&a| t.read(&inp, sg.item(a))).collect();
                    for l in 0..sg.size {
                        let want: Vec<Want> = match active.iter().position(|&a| a == l) {
                            None => vec![Want::Untouched; n],
                            Some(p) => ops
                                .iter()
                                .flat_map(|&op| {
                                    [t.fold(op, &xs), t.fold(op, &xs[..=p]), t.fold(op, &xs[..p])].map(Want::Bits)
                                })
                                .collect(),
                        };
                        check(t, &out, n * sg.item(l), &want, &label, &|| sg.whom(&case, l));
                    }
                }
            }
        }
    }
}

/// The logical operations, in the order of their outputs.
const LOGICAL: [&str; 3] = ["and", "or", "xor"];

/// `name` ("and", "or" or "xor") over `ps`; its identity (true for and,
/// false for or and xor) if there are none.
fn logical(name: &str, ps: &[bool]) -> bool {
    match name {
        "and" => ps.iter().all(|&p| p),
        "or" => ps.iter().any(|&p| p),
        _ => ps.iter().filter(|&&p| p).count() % 2 == 1,
    }
}

/// The logical reductions and scans: per active work-item `out[9 * g ..]`
/// gets, for logical and, or and xor, the reduction, the inclusive scan and
/// the exclusive scan of its predicate.
fn logical_kernel() -> String {
    let mut body = String::new();
    for (k, op) in LOGICAL.iter().enumerate() {
        for (j, form) in FORMS.iter().enumerate() {
            body += &format!("o[{}] = sub_group_non_uniform_{form}_logical_{op}(p); ", 3 * k + j);
        }
    }
    format!(
        "kernel void logical(global const uint *masks, global const int *pred, global int *out) {{\n\
         size_t g = item(); int p = pred[g]; global int *o = out + 9 * g;\n\
         if (active(masks)) {{ {body}}}\n}}\n"
    )
}

/// cl_khr_subgroup_non_uniform_arithmetic's logical operations: the
/// reductions, inclusive scans and exclusive scans of logical and, or and
/// xor over the active work-items' predicates, any non-zero value being
/// true; the exclusive scans' identities are true for and, false for or and
/// xor.
#[test]
fn logical_reductions_and_scans_over_the_active_work_items() {
    let src = format!("{PRELUDE}{}", logical_kernel());
    for from in FROMS {
        let prog = program(&src, "logical", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            let pred = predicates(&sgs, items, 67);
            let mut out = INT.sentinels(9 * items);
            launch(&prog, "logical", range, vec![Arg::input(&pred), Arg::output(&mut out)]);
            let case = case("logical", from, range);
            let label = |j: usize| format!("sub_group_non_uniform_{}_logical_{}", FORMS[j % 3], LOGICAL[j / 3]);
            for sg in &sgs {
                let active = sg.active();
                let ps: Vec<bool> = active.iter().map(|&a| pred[sg.item(a)] != 0).collect();
                for l in 0..sg.size {
                    let want: Vec<Want> = match active.iter().position(|&a| a == l) {
                        None => vec![Want::Untouched; 9],
                        Some(p) => LOGICAL
                            .iter()
                            .flat_map(|op| [logical(op, &ps), logical(op, &ps[..=p]), logical(op, &ps[..p])])
                            .map(Want::Truth)
                            .collect(),
                    };
                    check(INT, &out, 9 * sg.item(l), &want, &label, &|| sg.whom(&case, l));
                }
            }
        }
    }
}

/// A loop whose trip count is the sub-group local id, so at iteration `i`
/// the active work-items are those (of the row's mask) with a local id
/// above `i`. Per active work-item `out[22 * g ..]`: for each iteration `i`
/// (at most 7), `sub_group_non_uniform_reduce_add(x + i)`,
/// `sub_group_elect()` and the first component of `sub_group_ballot(1)`;
/// then, at 21, the sum of the reductions.
const SHRINKING: &str = "kernel void shrinking(global const uint *masks, global const int *in, global int *out) {\n\
    size_t g = item(); uint l = get_sub_group_local_id(); int x = in[g]; global int *o = out + 22 * g;\n\
    if (active(masks)) {\n\
        int acc = 0;\n\
        for (uint i = 0; i < l; i++) {\n\
            int r = sub_group_non_uniform_reduce_add(x + (int)i);\n\
            acc += r;\n\
            o[3 * i] = r; o[3 * i + 1] = sub_group_elect(); o[3 * i + 2] = (int)sub_group_ballot(1).x;\n\
        }\n\
        o[21] = acc;\n\
    }\n}\n";

/// The active set shrinks each loop iteration: at iteration `i` only the
/// work-items with a local id above `i` call the built-ins, and the
/// reduction, the election and the ballot of each iteration see exactly
/// those.
#[test]
fn the_active_work_items_shrink_each_loop_iteration() {
    let src = format!("{PRELUDE}{SHRINKING}");
    for from in FROMS {
        let prog = program(&src, "shrinking", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            let inp: Vec<i32> = {
                let mut rng = Rng(79);
                (0..items).map(|_| (rng.next() % 2001) as i32 - 1000).collect()
            };
            let mut out = INT.sentinels(22 * items);
            launch(&prog, "shrinking", range, vec![Arg::input(&inp), Arg::output(&mut out)]);
            let case = case("shrinking", from, range);
            let label = |j: usize| match j {
                21 => "sum of the reductions".to_string(),
                _ => format!(
                    "iteration {}: {}",
                    j / 3,
                    ["reduce_add(x + i)", "elect()", "ballot(1).x"][j % 3]
                ),
            };
            for sg in &sgs {
                let active = sg.active();
                for l in 0..sg.size {
                    let mut want = vec![Want::Untouched; 22];
                    if active.contains(&l) {
                        let mut acc = 0i32;
                        for i in 0..l {
                            let now: Vec<usize> = active.iter().copied().filter(|&a| a > i).collect();
                            let r = now
                                .iter()
                                .fold(0i32, |s, &a| s.wrapping_add(inp[sg.item(a)].wrapping_add(i as i32)));
                            acc = acc.wrapping_add(r);
                            want[3 * i] = Want::Bits(INT.ones() & r as u64);
                            want[3 * i + 1] = Want::Truth(l == now[0]);
                            want[3 * i + 2] = Want::Bits(now.iter().fold(0, |b, &a| b | (1 << a)));
                        }
                        want[21] = Want::Bits(INT.ones() & acc as u64);
                    }
                    check(INT, &out, 22 * sg.item(l), &want, &label, &|| sg.whom(&case, l));
                }
            }
        }
    }
}

/// cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative on type
/// `t`: per active work-item `out[4 * g ..]` gets `sub_group_shuffle(x,
/// s[0])`, `sub_group_shuffle_xor(x, s[1])`, `sub_group_shuffle_up(x, s[2])`
/// and `sub_group_shuffle_down(x, s[3])`, with `s` its four uints of `idx`.
fn shuffle_kernel(t: Scalar) -> String {
    format!(
        "kernel void shuffle_{t}(global const uint *masks, global const {t} *in, global const uint *idx, \
         global {t} *out) {{\n\
         size_t g = item(); {t} x = in[g]; global const uint *s = idx + 4 * g; global {t} *o = out + 4 * g;\n\
         if (active(masks)) {{ o[0] = sub_group_shuffle(x, s[0]); o[1] = sub_group_shuffle_xor(x, s[1]);\n\
         o[2] = sub_group_shuffle_up(x, s[2]); o[3] = sub_group_shuffle_down(x, s[3]); }}\n}}\n",
        t = t.name
    )
}

/// The source local ids of the shuffles of the active work-item at
/// position `p` of `active` (in a sub-group of row `row`): always active
/// ones, below for shuffle up and above for shuffle down where there are
/// such (else itself, a delta of 0). With every work-item active, the xor's
/// mask is the same for the whole sub-group in row 0 (4 in a sub-group of
/// 8), as in butterfly reductions.
fn shuffle_sources(active: &[usize], p: usize, row: usize) -> [usize; 4] {
    let n = active.len();
    let step = 1 + row % 3;
    [
        active[(3 * p + 1 + row) % n],
        active[(p + n / 2 + row) % n],
        active[p.saturating_sub(step)],
        active[(p + step).min(n - 1)],
    ]
}

/// cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative of every
/// scalar type: each active work-item takes the value of another active
/// work-item named by an index, by the xor of its own local id with a
/// mask, or by a distance below or above it; indices, masks and distances
/// vary between work-items (the spec allows it); every bit arrives.
#[test]
fn shuffles_of_every_type_between_active_work_items() {
    let types = scalars();
    let src: String = PRELUDE.to_string() + &types.iter().map(|&t| shuffle_kernel(t)).collect::<String>();
    for from in FROMS {
        let prog = program(&src, "shuffle_char", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            let mut idx = vec![0u32; 4 * items];
            for sg in &sgs {
                let active = sg.active();
                for (p, &l) in active.iter().enumerate() {
                    let [index, xor, up, down] = shuffle_sources(&active, p, sg.row);
                    let g = sg.item(l);
                    idx[4 * g..4 * g + 4].copy_from_slice(&[index, l ^ xor, l - up, down - l].map(|v| v as u32));
                }
            }
            for (k, &t) in types.iter().enumerate() {
                let inp = any_bits(items, t.size, 83 + k as u64);
                let mut out = t.sentinels(4 * items);
                let name = format!("shuffle_{}", t.name);
                launch(
                    &prog,
                    &name,
                    range,
                    vec![Arg::input(&inp), Arg::input(&idx), Arg::output(&mut out)],
                );
                let case = case(&name, from, range);
                let label = |j: usize| {
                    [
                        "sub_group_shuffle",
                        "sub_group_shuffle_xor",
                        "sub_group_shuffle_up",
                        "sub_group_shuffle_down",
                    ][j]
                        .to_string()
                };
                for sg in &sgs {
                    let active = sg.active();
                    for l in 0..sg.size {
                        let want = match active.iter().position(|&a| a == l) {
                            None => [Want::Untouched; 4],
                            Some(p) => {
                                shuffle_sources(&active, p, sg.row).map(|s| Want::Bits(t.read(&inp, sg.item(s))))
                            }
                        };
                        let whom = || {
                            let g = sg.item(l);
                            format!("{} (indices {:?})", sg.whom(&case, l), &idx[4 * g..4 * g + 4])
                        };
                        check(t, &out, 4 * sg.item(l), &want, &label, &whom);
                    }
                }
            }
        }
    }
}

/// The cluster sizes: every power of two up to the sub-group size.
const CLUSTERS: [usize; 4] = [1, 2, 4, 8];

/// cl_khr_subgroup_clustered_reduce on type `t`: per active work-item
/// `out[4 * ops * g ..]` gets, for each operation of `t` ([`Op::of`]),
/// `sub_group_clustered_reduce_<op>(x, c)` for each of [`CLUSTERS`]; a
/// cluster size larger than the dispatch's largest sub-group (undefined) is
/// not asked for.
fn clustered_kernel(t: Scalar) -> String {
    let ops = Op::of(t);
    let mut body = String::new();
    for (k, op) in ops.iter().enumerate() {
        for (j, c) in CLUSTERS.iter().enumerate() {
            body += &format!(
                "if (most >= {c}) o[{}] = sub_group_clustered_reduce_{}(x, {c}); ",
                4 * k + j,
                op.name()
            );
        }
        body += "\n";
    }
    format!(
        "kernel void clustered_{t}(global const uint *masks, global const {t} *in, global {t} *out) {{\n\
         size_t g = item(); {t} x = in[g]; global {t} *o = out + {n} * g; uint most = get_max_sub_group_size();\n\
         if (active(masks)) {{\n{body}}}\n}}\n",
        t = t.name,
        n = 4 * ops.len()
    )
}

/// The clustered logical reductions: per active work-item `out[12 * g ..]`
/// gets, for logical and, or and xor, the reduction of its predicate over
/// each of [`CLUSTERS`] (those the dispatch allows).
fn clustered_logical_kernel() -> String {
    let mut body = String::new();
    for (k, op) in LOGICAL.iter().enumerate() {
        for (j, c) in CLUSTERS.iter().enumerate() {
            body += &format!(
                "if (most >= {c}) o[{}] = sub_group_clustered_reduce_logical_{op}(p, {c}); ",
                4 * k + j
            );
        }
    }
    format!(
        "kernel void clustered_logical(global const uint *masks, global const int *pred, global int *out) {{\n\
         size_t g = item(); int p = pred[g]; global int *o = out + 12 * g; uint most = get_max_sub_group_size();\n\
         if (active(masks)) {{ {body}}}\n}}\n"
    )
}

/// The active local ids of the cluster of size `c` that holds local id
/// `l`.
fn cluster_of(active: &[usize], l: usize, c: usize) -> Vec<usize> {
    active.iter().copied().filter(|&a| a / c == l / c).collect()
}

/// cl_khr_subgroup_clustered_reduce: `sub_group_clustered_reduce_*` of add,
/// mul, min and max on every scalar type, of and, or and xor on the integer
/// types, and of logical and, or and xor on predicates, for clusters of 1,
/// 2, 4 and 8: each work-item gets the reduction over the active work-items
/// of its cluster (clusters of consecutive local ids, the last one of a
/// partial sub-group cut short).
#[test]
fn clustered_reductions_of_every_type_over_the_active_work_items() {
    let types = scalars();
    let mut src: String = PRELUDE.to_string() + &clustered_logical_kernel();
    for &t in &types {
        src += &clustered_kernel(t);
    }
    for from in FROMS {
        let prog = program(&src, "clustered_logical", from);
        for range in RANGES {
            let sgs = sub_groups(range);
            let items = range.0 * MASKS.len();
            for (k, &t) in types.iter().enumerate() {
                let ops = Op::of(t);
                let n = 4 * ops.len();
                let inp = arithmetic_inputs(t, items, 97 + k as u64);
                let mut out = t.sentinels(n * items);
                let name = format!("clustered_{}", t.name);
                launch(&prog, &name, range, vec![Arg::input(&inp), Arg::output(&mut out)]);
                let case = case(&name, from, range);
                let label = |j: usize| {
                    format!(
                        "sub_group_clustered_reduce_{}(x, {})",
                        ops[j / 4].name(),
                        CLUSTERS[j % 4]
                    )
                };
                for sg in &sgs {
                    let active = sg.active();
                    for l in 0..sg.size {
                        let want: Vec<Want> = if active.contains(&l) {
                            ops.iter()
                                .flat_map(|&op| {
                                    CLUSTERS.map(|c| {
                                        if c > sg.max {
                                            return Want::Untouched;
                                        }
                                        let xs: Vec<u64> = cluster_of(&active, l, c)
                                            .iter()
                                            .map(|&a| t.read(&inp, sg.item(a)))
                                            .collect();
                                        Want::Bits(t.fold(op, &xs))
                                    })
                                })
                                .collect()
                        } else {
                            vec![Want::Untouched; n]
                        };
                        check(t, &out, n * sg.item(l), &want, &label, &|| sg.whom(&case, l));
                    }
                }
            }
            let pred = predicates(&sgs, items, 101);
            let mut out = INT.sentinels(12 * items);
            launch(
                &prog,
                "clustered_logical",
                range,
                vec![Arg::input(&pred), Arg::output(&mut out)],
            );
            let case = case("clustered_logical", from, range);
            let label = |j: usize| {
                format!(
                    "sub_group_clustered_reduce_logical_{}(p, {})",
                    LOGICAL[j / 4],
                    CLUSTERS[j % 4]
                )
            };
            for sg in &sgs {
                let active = sg.active();
                for l in 0..sg.size {
                    let want: Vec<Want> = if active.contains(&l) {
                        LOGICAL
                            .iter()
                            .flat_map(|op| {
                                CLUSTERS.map(|c| {
                                    if c > sg.max {
                                        return Want::Untouched;
                                    }
                                    let ps: Vec<bool> = cluster_of(&active, l, c)
                                        .iter()
                                        .map(|&a| pred[sg.item(a)] != 0)
                                        .collect();
                                    Want::Truth(logical(op, &ps))
                                })
                            })
                            .collect()
                    } else {
                        vec![Want::Untouched; 12]
                    };
                    check(INT, &out, 12 * sg.item(l), &want, &label, &|| sg.whom(&case, l));
                }
            }
        }
    }
}

/// The same non-uniform call in both arms of a branch (as the Khronos
/// conformance suite writes `sub_group_broadcast_first`), and a clustered
/// reduction whose constant cluster size a `switch` picks. Clang -O2 merges
/// each into one call after the branch (SimplifyCFG hoists and sinks code
/// common to the arms of a branch; convergent calls too), which would make
/// every work-item of the sub-group active in one call and, for the
/// clustered reduction, leave a cluster size that is not a constant; clift
/// optimises such programs without that merging (its build log says so).
const BOTH_ARMS: &str = "kernel void arms(global const int *in, global int *out, uint cluster) {\n\
    size_t g = get_global_id(0); int x = in[g]; int r;\n\
    if (get_sub_group_local_id() < 3) { r = sub_group_broadcast_first(x); } else { r = sub_group_broadcast_first(x); }\n\
    out[2 * g] = r;\n\
    switch (cluster) {\n\
    case 1: r = sub_group_clustered_reduce_add(x, 1); break;\n\
    case 2: r = sub_group_clustered_reduce_add(x, 2); break;\n\
    case 4: r = sub_group_clustered_reduce_add(x, 4); break;\n\
    default: r = sub_group_clustered_reduce_add(x, 8); break;\n\
    }\n\
    out[2 * g + 1] = r; }\n";

#[test]
fn calls_in_the_arms_of_a_branch_stay_apart_from_source() {
    let (global, local) = (40, 20);
    let inp: Vec<i32> = (0..global as i32).map(|i| i * 3 + 1).collect();
    for opt in ["", "-O1", "-O3"] {
        let prog = Kernel::with_source(BOTH_ARMS, "arms", &format!("-cl-std=CL2.0 {opt}"))
            .unwrap_or_else(|log| panic!("arms ({opt}) does not build:\n{log}"));
        assert!(
            prog.build_log()
                .contains("without hoisting or sinking code common to the arms of a branch"),
            "the build log says how the program was optimised ({opt}):\n{}",
            prog.build_log()
        );
        for cluster in [1usize, 2, 4, 8] {
            let mut out = vec![0i32; 2 * global];
            prog.sibling("arms")
                .arg(Arg::input(&inp))
                .arg(Arg::output(&mut out))
                .arg(Arg::value(cluster as u32))
                .run(&[global], Some(&[local]));
            for w in (0..global).step_by(local) {
                for (first, size) in sub_groups_of(local) {
                    let first = w + first;
                    for l in 0..size {
                        let g = first + l;
                        // The lowest work-item of its arm: local ids 0-2, or 3 on.
                        let lowest = if l < 3 { first } else { first + 3 };
                        assert_eq!(out[2 * g], inp[lowest], "broadcast_first of work-item {g} ({opt})");
                        let c = l / cluster * cluster;
                        let sum: i32 = inp[first + c..first + (c + cluster).min(size)].iter().sum();
                        assert_eq!(
                            out[2 * g + 1],
                            sum,
                            "clustered sum of work-item {g}, cluster size {cluster} ({opt})"
                        );
                    }
                }
            }
        }
    }
}

/// Non-uniform operations while another sub-group spins: sub-group 0's
/// work-items wait (on an atomic flag, so they yield to the others) until
/// the last sub-group has set it; every other sub-group computes
/// non-uniform reductions, ballots and elections on its odd work-items in
/// the meantime, which must neither wait for the spinning sub-group nor
/// count it.
const BESIDE_A_SPIN: &str = "kernel void beside(global int *out, local atomic_int *flag) {\n\
    size_t g = get_global_id(0); uint l = get_sub_group_local_id(), sg = get_sub_group_id();\n\
    if (get_local_id(0) == 0) atomic_init(flag, 0);\n\
    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
    int r = -1;\n\
    if (sg == 0) {\n\
        while (atomic_load(flag) == 0) ;\n\
    } else if (l & 1) {\n\
        r = sub_group_non_uniform_reduce_add((int)l) * 1000 + (int)sub_group_ballot(1).x * 10 + sub_group_elect();\n\
        if (sg == get_num_sub_groups() - 1) atomic_store(flag, 1);\n\
    }\n\
    out[g] = r;\n\
}\n";

#[test]
fn non_uniform_operations_run_while_another_sub_group_spins() {
    let s = sub_group_size();
    let (global, local) = (96usize, 48usize);
    for from in FROMS {
        let prog = program(BESIDE_A_SPIN, "beside", from);
        let mut out = vec![0i32; global];
        let guard = watchdog(format!("non-uniform operations beside a spin from {from:?}"));
        prog.sibling("beside")
            .arg(Arg::output(&mut out))
            .arg(Arg::Local(4))
            .run(&[global], Some(&[local]));
        drop(guard);
        for (g, &got) in out.iter().enumerate() {
            let (sg, l) = ((g % local) / s, (g % local) % s);
            let size = s.min(local - sg * s);
            let odd: Vec<usize> = (0..size).filter(|k| k % 2 == 1).collect();
            let want = if sg == 0 || l % 2 == 0 {
                -1
            } else {
                let sum: usize = odd.iter().sum();
                let ballot: u32 = odd.iter().map(|&k| 1u32 << k).sum();
                (sum * 1000) as i32 + ballot as i32 * 10 + i32::from(l == odd[0])
            };
            assert_eq!(got, want, "from {from:?}, work-item {g} (sub-group {sg}, local id {l})");
        }
    }
}
