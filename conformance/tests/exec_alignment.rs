//! Alignment of variables (OpenCL C "Alignment of Types"; the SPIR-V
//! environment's "the compiler is responsible for aligning objects allocated
//! by OpVariable"): the address of every variable, as the kernel sees it, is
//! a multiple of its type's alignment (vectors: their size, 3-component ones
//! that of 4; structs: their largest member, recursively; arrays: their
//! element) and of its `aligned` attribute, in every address space: private
//! stack slots, the per-lane copies of 4-lane bodies (tests/
//! exec_simd_coverage.rs checks those kernels get one), the frames of
//! kernels with barriers, __local variables and arguments, program-scope
//! __global and __constant variables. Each variable's values are read back
//! too. Kernels: `kernels/cl/alignment.cl` at -O0 and -O2, each also with
//! `-cl-clift-max-lanes=1` (the scalar body alone).

use clift_conformance::exec::{corpus_spirv, Arg, Kernel, Opt};

/// Every scalar type of alignment.cl's EACH_TYPE with its size, then half.
const TYPES: [(&str, u32); 11] = clift_conformance::SCALAR_TYPES;
const WIDTHS: [u32; 6] = [1, 2, 3, 4, 8, 16];
const END: u32 = 0x600d;

/// What one field of a record must be.
#[derive(Debug, Clone, Copy)]
enum Check {
    /// An address that is a multiple of this.
    Aligned(u32),
    /// Field `.0` of the record plus `.1` (an address `.1` bytes further).
    After(usize, u32),
    /// This value.
    Eq(u32),
}

/// One record's checks, each named.
struct Record(Vec<(String, Check)>);

impl Record {
    fn push(&mut self, name: String, c: Check) -> usize {
        self.0.push((name, c));
        self.0.len() - 1
    }

    /// Checks `rec` (one work-item's record: the low 32 bits of addresses
    /// and values, the end marker after them) and names every field that
    /// is wrong.
    fn verify(&self, rec: &[u32], what: &str) {
        let mut bad = Vec::new();
        for (k, (name, c)) in self.0.iter().enumerate() {
            let v = rec[k];
            let ok = match *c {
                Check::Aligned(a) => v.is_multiple_of(a),
                Check::After(j, d) => v == rec[j].wrapping_add(d),
                Check::Eq(x) => v == x,
            };
            if !ok {
                bad.push(format!("{name}: {v:#x} ({v}), want {c:?}"));
            }
        }
        assert_eq!(rec[self.0.len()], END, "{what}: the record ends early or late");
        assert!(bad.is_empty(), "{what}:\n  {}", bad.join("\n  "));
    }
}

/// The record of the vector kernels over `types`: for each type and width,
/// the addresses of elements 0 and 1 and element (id % 3) read back, which
/// holds `key * 3 + id % 3`.
fn vector_record(types: &[(&str, u32)], key: u32, id: u32) -> Record {
    let mut r = Record(Vec::new());
    for &(t, size) in types {
        for n in WIDTHS {
            let align = size * if n == 3 { 4 } else { n };
            let name = if n == 1 { t.to_string() } else { format!("{t}{n}") };
            let a0 = r.push(format!("&{name}[0]"), Check::Aligned(align));
            r.push(format!("&{name}[1]"), Check::After(a0, align));
            r.push(format!("{name}[id % 3]"), Check::Eq(key * 3 + id % 3));
        }
    }
    r
}

/// The record of STRUCT_RECORD in alignment.cl, whose values were stored
/// from `key`.
fn struct_record(key: u32) -> Record {
    let mut r = Record(Vec::new());
    let value = |r: &mut Record, name: &str, times: u32| r.push(name.to_string(), Check::Eq(key * times));
    // F8 { char c; float8 v; }: 64 bytes, align 32, v at 32.
    let f8 = r.push("&f8".into(), Check::Aligned(32));
    r.push("&f8.v".into(), Check::After(f8, 32));
    value(&mut r, "f8.v.s7", 1);
    // D16 { char c; double16 v; }: 256 bytes, align 128, v at 128.
    let d16 = r.push("&d16".into(), Check::Aligned(128));
    r.push("&d16.v".into(), Check::After(d16, 128));
    value(&mut r, "d16.v.sf", 1);
    // F3 { char c; float3 v; short s; }: 48 bytes, align 16, v at 16, s at 32.
    let f3 = r.push("&f3[0]".into(), Check::Aligned(16));
    r.push("&f3[1]".into(), Check::After(f3, 48));
    r.push("&f3[1].v".into(), Check::After(f3, 48 + 16));
    r.push("&f3[2].s".into(), Check::After(f3, 96 + 32));
    value(&mut r, "f3[2].v.z + f3[1].s", 2);
    // Packed { char c; float4 v; }: 17 bytes, align 1, v at 1.
    r.push("&pk[1].v - &pk[0]".into(), Check::Eq(18));
    value(&mut r, "pk[1].v.w", 1);
    // Nest { char c; F8 a[2]; long3 l; }: 192 bytes, align 32, a at 32, l at 160.
    let n = r.push("&n[0]".into(), Check::Aligned(32));
    r.push("&n[1]".into(), Check::After(n, 192));
    r.push("&n[1].a[1]".into(), Check::After(n, 192 + 32 + 64));
    r.push("&n[1].a[1].v".into(), Check::After(n, 192 + 32 + 64 + 32));
    r.push("&n[1].l".into(), Check::After(n, 192 + 160));
    value(&mut r, "n[1].a[1].v.s5 + n[1].l.z", 2);
    // MemberAligned { char c; int x aligned(64); }: 128 bytes, align 64.
    let ma = r.push("&ma".into(), Check::Aligned(64));
    r.push("&ma.x".into(), Check::After(ma, 64));
    value(&mut r, "ma.x", 1);
    // Aligned { char c; } aligned(32): 32 bytes.
    let al = r.push("&al[1]".into(), Check::Aligned(32));
    r.push("&al[2]".into(), Check::After(al, 32));
    value(&mut r, "al[2].c", 1);
    // Mixed { char c; half3 h; ulong16 u; }: 256 bytes, align 128, h at 8, u at 128.
    let mx = r.push("&mx".into(), Check::Aligned(128));
    r.push("&mx.h".into(), Check::After(mx, 8));
    r.push("&mx.u".into(), Check::After(mx, 128));
    value(&mut r, "mx.u.sf + mx.h.z", 2);
    // char ca aligned(64), int ia aligned(32).
    r.push("&ca".into(), Check::Aligned(64));
    value(&mut r, "ca", 1);
    r.push("&ia".into(), Check::Aligned(32));
    value(&mut r, "ia", 1);
    r
}

/// Ranges with a 4-lane chunk and a scalar rest per group, and whole chunks.
const RANGES: [(usize, usize); 2] = [(12, 6), (16, 8)];

/// The kernels of alignment.cl taking (out, rec), each with its record
/// (`record(group id, global id)`).
type Case = (&'static str, fn(u32, u32) -> Record);
const CASES: [Case; 20] = [
    ("private_char", |_, id| vector_record(&TYPES[0..1], id, id)),
    ("private_uchar", |_, id| vector_record(&TYPES[1..2], id, id)),
    ("private_short", |_, id| vector_record(&TYPES[2..3], id, id)),
    ("private_ushort", |_, id| vector_record(&TYPES[3..4], id, id)),
    ("private_int", |_, id| vector_record(&TYPES[4..5], id, id)),
    ("private_uint", |_, id| vector_record(&TYPES[5..6], id, id)),
    ("private_long", |_, id| vector_record(&TYPES[6..7], id, id)),
    ("private_ulong", |_, id| vector_record(&TYPES[7..8], id, id)),
    ("private_float", |_, id| vector_record(&TYPES[8..9], id, id)),
    ("private_double", |_, id| vector_record(&TYPES[9..10], id, id)),
    ("private_half", |_, id| vector_record(&TYPES[10..11], id, id)),
    ("frame_vectors", |_, id| vector_record(&TYPES, id, id)),
    ("local_vectors", |grp, id| vector_record(&TYPES, grp, id)),
    ("global_vectors", |_, id| vector_record(&TYPES, 0, id)),
    ("constant_vectors", |_, id| vector_record(&TYPES, 0, id)),
    ("private_structs", |_, id| struct_record(id)),
    ("frame_structs", |_, id| struct_record(id)),
    ("local_structs", |grp, _| struct_record(grp)),
    ("global_structs", |_, _| struct_record(7)),
    ("constant_structs", |_, _| struct_record(7)),
];

/// Runs every case and `local_arguments` from alignment.cl built at `opt`,
/// in every execution mode: the default (4-lane bodies where clift makes
/// them) and the scalar body alone.
fn every_variable(opt: Opt) {
    for options in ["", "-cl-clift-max-lanes=1"] {
        let program = Kernel::with_il(&corpus_spirv("alignment", opt), "local_arguments", options)
            .unwrap_or_else(|log| panic!("alignment at {opt:?} {options:?}: {log}"));
        let mode = format!("at {opt:?} {options:?}");
        for (name, record) in CASES {
            run(&program, name, record, &[], &mode);
        }
        // byval_structs(out, rec, Mixed s, F8 t): s.u = 5 (Mixed: u at
        // 128, 256 bytes), t.v = 3 (F8: v at 32, 64 bytes); each
        // work-item adds its id.
        let mut mixed = vec![0u8; 256];
        for k in 0..16 {
            mixed[128 + 8 * k..136 + 8 * k].copy_from_slice(&5u64.to_le_bytes());
        }
        let mut f8 = vec![0u8; 64];
        for k in 0..8 {
            f8[32 + 4 * k..36 + 4 * k].copy_from_slice(&3f32.to_le_bytes());
        }
        let byval = |_, id| {
            let mut r = Record(Vec::new());
            let s = r.push("&s".into(), Check::Aligned(128));
            r.push("&s.u".into(), Check::After(s, 128));
            r.push("s.u.sf".into(), Check::Eq(5 + id));
            let t = r.push("&t".into(), Check::Aligned(32));
            r.push("&t.v".into(), Check::After(t, 32));
            r.push("t.v.s7".into(), Check::Eq(3 + id));
            r
        };
        run(&program, "byval_structs", byval, &[&mixed, &f8], &mode);
        local_arguments(&program, &format!("local_arguments at {opt:?} {options:?}"));
    }
}

/// Runs kernel `name` (out, rec, then `values`) of `program` over
/// [`RANGES`] and checks each work-item's record
/// (`record(group id, global id)`).
fn run(program: &Kernel, name: &str, record: fn(u32, u32) -> Record, values: &[&[u8]], mode: &str) {
    let rec = record(0, 0).0.len() + 1;
    for (global, local) in RANGES {
        let what = format!("{name} {mode} over {global}/{local}");
        let mut out = vec![0u32; global * rec];
        let mut k = program
            .sibling(name)
            .modes_may_differ(
                "the kernels record their variables' addresses, which differ between bodies \
                 (every_variable runs each mode itself)",
            )
            .arg(Arg::output(&mut out))
            .arg(Arg::value(rec as u32));
        for v in values {
            k = k.arg(Arg::bytes(v));
        }
        k.run(&[global], Some(&[local]));
        for id in 0..global {
            let r = record((id / local) as u32, id as u32);
            r.verify(&out[id * rec..(id + 1) * rec], &format!("{what}, work-item {id}"));
        }
    }
}

/// `__local` arguments of every size class, given odd sizes: each at its
/// pointee's alignment, none overlapping another.
fn local_arguments(program: &Kernel, what: &str) {
    // (size in bytes given to clSetKernelArg, alignment of the pointee).
    let args: [(usize, u64); 8] = [
        (3, 1),
        (136, 128),
        (5, 4),
        (200, 128),
        (20, 16),
        (300, 128),
        (6, 2),
        (70, 64),
    ];
    let (global, local) = (8, 4);
    let mut out = vec![0u64; global * 9];
    let mut k = program
        .sibling("local_arguments")
        .modes_may_differ("the kernel records the addresses of its __local arguments, which differ between launches")
        .arg(Arg::output(&mut out));
    for (size, _) in args {
        k = k.arg(Arg::Local(size));
    }
    k.run(&[global], Some(&[local]));
    for id in 0..global {
        let rec = &out[id * 9..id * 9 + 9];
        assert_eq!(rec[8], u64::from(END), "{what}: work-item {id}");
        let mut spans: Vec<(u64, u64)> = Vec::new();
        for (k, &(size, align)) in args.iter().enumerate() {
            assert_eq!(
                rec[k] % align,
                0,
                "{what}: work-item {id}, argument {}: {:#x}",
                k + 1,
                rec[k]
            );
            spans.push((rec[k], rec[k] + size as u64));
        }
        spans.sort_unstable();
        assert!(
            spans.windows(2).all(|w| w[0].1 <= w[1].0),
            "{what}: work-item {id}: the arguments overlap: {spans:x?}"
        );
    }
}

#[test]
fn every_variable_is_aligned_at_o0() {
    every_variable(Opt::O0);
}

#[test]
fn every_variable_is_aligned_at_o2() {
    every_variable(Opt::O2);
}
