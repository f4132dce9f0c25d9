//! The front end on real and hand-written modules: clbench's clang output
//! builds with the right interfaces, each broken module of the invalid
//! corpus (conformance/corpus/invalid) fails with the rule it breaks, and
//! mutated modules never panic. Data files are checked in (tests/data/gen.py,
//! tests/data/clang/make.sh and conformance/corpus/invalid/make.py
//! regenerate them), so no tool runs here; the clbench modules are read from
//! the project's shared/ folder beside the checkout.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clift_jit::kernels::{
    ACCESS_NONE, ACCESS_READ_ONLY, ACCESS_READ_WRITE, ACCESS_WRITE_ONLY, ADDRESS_CONSTANT, ADDRESS_GLOBAL,
    ADDRESS_LOCAL, ADDRESS_PRIVATE,
};
use clift_jit::kernels::{TYPE_CONST, TYPE_PIPE, TYPE_RESTRICT, TYPE_VOLATILE};
use clift_jit::spirv::ConstValue;
use clift_jit::{
    build, dangling_reference, front_end, spec_constants, words, ArgKind, BuildOptions, BuiltModule, KernelInfo,
};

/// `tests/data/<rel>`; for `clbench/...` the workload in
/// `shared/clbench/spv/...`; for `invalid/...` the one corpus of invalid
/// modules, `conformance/corpus/invalid/...` (which the end-to-end tests
/// read too).
fn data(rel: &str) -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Some(rest) = rel.strip_prefix("clbench/") {
        return here.join("../../shared/clbench/spv").join(rest);
    }
    if rel == "invalid" || rel.starts_with("invalid/") {
        return here.join("../conformance/corpus").join(rel);
    }
    here.join("tests/data").join(rel)
}

fn read(rel: &str) -> Vec<u8> {
    std::fs::read(data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn spv_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "spv"))
        .collect();
    v.sort();
    v
}

fn built(rel: &str) -> BuiltModule {
    match build(&read(rel), &BuildOptions::default()) {
        Ok(b) => b,
        Err(e) => panic!("{rel} does not build:\n{}", e.log()),
    }
}

fn kernel<'a>(b: &'a BuiltModule, name: &str) -> &'a KernelInfo {
    b.kernels
        .iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("no kernel {name}"))
}

#[test]
fn every_clbench_module_builds() {
    for level in ["O0", "O2"] {
        let files = spv_files(&format!("clbench/{level}"));
        assert_eq!(files.len(), 11, "{level}");
        for f in files {
            let bytes = std::fs::read(&f).unwrap();
            if let Err(e) = build(&bytes, &BuildOptions::default()) {
                panic!("{} does not build:\n{}", f.display(), e.log());
            }
        }
    }
}

#[test]
fn clbench_interfaces() {
    for level in ["O0", "O2"] {
        let b = built(&format!("clbench/{level}/vadd.spv"));
        assert_eq!(b.kernels.len(), 1);
        let k = kernel(&b, "vadd");
        assert_eq!(k.args.len(), 4);
        for a in &k.args[..3] {
            assert_eq!(
                (a.kind, a.size, a.address_qualifier),
                (ArgKind::GlobalBuffer, 8, ADDRESS_GLOBAL)
            );
            assert_eq!(a.access_qualifier, ACCESS_NONE);
        }
        assert_eq!(
            (k.args[3].kind, k.args[3].size, k.args[3].address_qualifier),
            (ArgKind::Value, 4, ADDRESS_PRIVATE)
        );
        assert_eq!(k.attributes, "");
        assert_eq!(k.reqd_work_group_size, None);

        let b = built(&format!("clbench/{level}/sgemm_tiled.spv"));
        let k = kernel(&b, "sgemm_tiled");
        assert_eq!(k.reqd_work_group_size, Some([16, 16, 1]));
        // SPIR-V as it came from llvm-spirv: the mode, but no OpenCL C
        // attribute list (clift's front end records that).
        assert_eq!(k.attributes, "");
        assert_eq!(k.local_mem_size, 2 * 16 * 16 * 4, "two 16x16 float tiles");
        assert_eq!(k.args.len(), 6);

        let b = built(&format!("clbench/{level}/reduce.spv"));
        let k = kernel(&b, "reduce");
        let kinds: Vec<ArgKind> = k.args.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [
                ArgKind::GlobalBuffer,
                ArgKind::GlobalBuffer,
                ArgKind::Local,
                ArgKind::Value
            ]
        );
        assert_eq!(k.args[2].address_qualifier, ADDRESS_LOCAL);

        let b = built(&format!("clbench/{level}/histogram.spv"));
        let names: Vec<&str> = b.kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["hist_global", "hist_local"]);

        let b = built(&format!("clbench/{level}/saxpy.spv"));
        let k = kernel(&b, "saxpy");
        let kinds: Vec<ArgKind> = k.args.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [
                ArgKind::Value,
                ArgKind::GlobalBuffer,
                ArgKind::GlobalBuffer,
                ArgKind::Value
            ]
        );

        let b = built(&format!("clbench/{level}/empty.spv"));
        assert_eq!(kernel(&b, "empty").args.len(), 1);
        assert_eq!(b.global_variable_total_size, 0);
    }
    // At -O0 the kernel's locals live in Function variables, which the
    // build turns into values (`promote`) unless told to keep them.
    let keep = BuildOptions {
        keep_variables: true,
        ..BuildOptions::default()
    };
    let kept = build(&read("clbench/O0/vadd.spv"), &keep).unwrap();
    assert!(kernel(&kept, "vadd").private_mem_size > 0);
    assert_eq!(kernel(&built("clbench/O0/vadd.spv"), "vadd").private_mem_size, 0);
}

#[test]
fn blocks_out_of_dominance_order_build() {
    // spirv-val rejects these ("ID has not been defined"): a loop's exit is
    // laid out before the body that dominates it.
    built("clbench/O2/hash.spv");
    built("clbench/O2/nbody.spv");
    let f = front_end(&read("valid/base.spv"), &BuildOptions::default()).unwrap();
    let k = f.module().functions.iter().find(|x| x.blocks.len() == 5).unwrap();
    // entry, pre, after, exit, body: RPO visits body before after and exit.
    let pos = |b: u32| k.cfg.rpo.iter().position(|&x| x == b).unwrap();
    assert_eq!(k.cfg.rpo[0], 0);
    assert!(pos(4) < pos(2) && pos(2) < pos(3));
    assert_eq!(k.cfg.idom[2], 4, "the body dominates the block laid out before it");
    assert!(k.cfg.reachable.iter().all(|&r| r));
}

#[test]
fn what_clang_emits_and_spirv_val_refuses_builds() {
    // OpPhi naming a parent once per edge (same value), and a __local
    // variable initialized with a composite of OpUndef.
    let b = built("valid/switch_phi.spv");
    assert_eq!(kernel(&b, "switch_phi").local_mem_size, 8);
    // Different values for the same parent are still an error.
    let e = build(&read("invalid/phi_parent_twice.spv"), &BuildOptions::default()).unwrap_err();
    assert!(e.log().contains("more than once with different values"), "{}", e.log());
}

#[test]
fn kernel_arg_info_from_clang() {
    for level in ["O0", "O2"] {
        let b = built(&format!("clang/arg_info_{level}.spv"));
        let k = kernel(&b, "k1");
        assert_eq!(k.reqd_work_group_size, Some([8, 4, 1]));
        assert_eq!(k.vec_type_hint.as_deref(), Some("float4"));
        assert_eq!(k.attributes, "");
        let names: Vec<&str> = k.args.iter().map(|a| a.name.as_deref().unwrap()).collect();
        assert_eq!(names, ["a", "l", "c", "v", "f3", "s", "n", "g4"]);
        let types: Vec<&str> = k.args.iter().map(|a| a.type_name.as_deref().unwrap()).collect();
        assert_eq!(
            types,
            ["float*", "int*", "float*", "int*", "float3", "S", "int", "float4*"]
        );
        let kinds: Vec<ArgKind> = k.args.iter().map(|a| a.kind).collect();
        use ArgKind::*;
        assert_eq!(
            kinds,
            [
                GlobalBuffer,
                Local,
                ConstantBuffer,
                GlobalBuffer,
                Value,
                Value,
                Value,
                GlobalBuffer
            ]
        );
        let sizes: Vec<usize> = k.args.iter().map(|a| a.size).collect();
        assert_eq!(
            sizes,
            [8, 8, 8, 8, 16, 12, 4, 8],
            "float3 takes 16 bytes; struct S {{float; int; char}} 12"
        );
        let quals: Vec<u64> = k.args.iter().map(|a| a.type_qualifier).collect();
        assert_eq!(
            quals,
            [TYPE_RESTRICT | TYPE_CONST, 0, TYPE_CONST, TYPE_VOLATILE, 0, 0, 0, 0]
        );
        let addr: Vec<u32> = k.args.iter().map(|a| a.address_qualifier).collect();
        assert_eq!(
            addr,
            [
                ADDRESS_GLOBAL,
                ADDRESS_LOCAL,
                ADDRESS_CONSTANT,
                ADDRESS_GLOBAL,
                ADDRESS_PRIVATE,
                ADDRESS_PRIVATE,
                ADDRESS_PRIVATE,
                ADDRESS_GLOBAL
            ]
        );

        let k = kernel(&b, "k2");
        assert_eq!(k.work_group_size_hint, Some([2, 3, 4]));
        assert_eq!(k.attributes, "");
        let sizes: Vec<usize> = k.args.iter().map(|a| a.size).collect();
        assert_eq!(sizes, [8, 5, 8, 1, 64], "packed struct 5 bytes, char 1, ulong8 64");
        assert_eq!(k.args[2].type_name.as_deref(), Some("node*"));
    }
    // Without the OpStrings, qualifiers come from decorations and storage classes.
    let b = built("valid/base.spv");
    let k = kernel(&b, "k");
    assert_eq!(k.args[0].name.as_deref(), Some("out"));
    assert_eq!(k.args[0].type_name, None);
    // Its one Function variable is only stored and loaded: a value once
    // promoted, four bytes of private memory when kept.
    assert_eq!(k.private_mem_size, 0);
    let keep = BuildOptions {
        keep_variables: true,
        ..BuildOptions::default()
    };
    let kept = build(&read("valid/base.spv"), &keep).unwrap();
    assert_eq!(kernel(&kept, "k").private_mem_size, 4);
}

#[test]
fn clang_features_build() {
    for level in ["O0", "O2"] {
        let b = built(&format!("clang/features_{level}.spv"));
        let k = kernel(&b, "feats");
        assert_eq!(k.local_mem_size, 32 * 4, "__local int lbuf[32]");
        assert_eq!(b.global_variable_total_size, 4 + 16 * 4, "gcount and garr");
        let sizes: Vec<usize> = k.args.iter().map(|a| a.size).collect();
        assert_eq!(
            sizes,
            [8, 8, 8, 8, 32, 16, 8, 4],
            "T {{float4; int[3]; char}} is 32 bytes, uint3 16"
        );
        let b = built(&format!("clang/pipes_{level}.spv"));
        let k = kernel(&b, "producer");
        assert_eq!(k.args[0].kind, ArgKind::Pipe);
        assert_eq!(k.args[0].type_qualifier, TYPE_PIPE);
        assert_eq!(
            k.args[0].access_qualifier, ACCESS_WRITE_ONLY,
            "pipes report their access qualifier"
        );
        assert_eq!(k.args[1].access_qualifier, ACCESS_NONE);
        let k = kernel(&b, "consumer");
        assert_eq!(k.args[0].access_qualifier, ACCESS_READ_ONLY);
    }
}

#[test]
fn clang_builtins_and_program_scope_variables() {
    for level in ["O0", "O2"] {
        let bytes = read(&format!("clang/builtins_{level}.spv"));
        let f = front_end(&bytes, &BuildOptions::default()).unwrap_or_else(|e| panic!("{}", e.log()));
        // garray[4], gp, cp (a global holding a __constant pointer), gptr_table[2].
        assert_eq!(f.built().global_variable_total_size, 16 + 8 + 8 + 16);
        for name in ["k_more", "k_calls_kernel"] {
            let k = kernel(f.built(), name);
            assert_eq!(k.local_mem_size, 64 * 4, "{name}: __local int tile[64] of a callee");
            assert_eq!(k.args[5].kind, ArgKind::Local);
            assert_eq!(k.args[4].size, 8, "long");
        }
        // `__global int *gp = &garray[2]` stays a pointer expression.
        let m = f.module();
        let gp = m.global(named(m, "gp")).unwrap();
        let init = m.constant(gp.init.unwrap()).unwrap();
        assert_eq!(init.value, ConstValue::Expr);
        assert!(f
            .module()
            .functions
            .iter()
            .all(|x| x.blocks.is_empty() || !x.cfg.rpo.is_empty()));
    }
}

fn named(m: &clift_jit::spirv::Module, name: &str) -> u32 {
    (0..m.bound)
        .find(|&id| m.name(id) == Some(name))
        .unwrap_or_else(|| panic!("no %{name}"))
}

#[test]
fn spec_constants_are_listed_applied_and_folded() {
    let bytes = read("valid/spec.spv");
    let list = spec_constants(&bytes).unwrap();
    let pairs: Vec<(u32, usize)> = list.iter().map(|s| (s.spec_id, s.size)).collect();
    assert_eq!(pairs, [(1, 4), (2, 1), (3, 4), (4, 2)]);

    let f = front_end(&bytes, &BuildOptions::default()).unwrap();
    let m = f.module();
    let value = |n: &str| m.constant(named(m, n)).unwrap().value.clone();
    assert_eq!(value("len"), ConstValue::Scalar(8));
    assert_eq!(value("lt"), ConstValue::Bool(true));
    assert_eq!(value("sel"), ConstValue::Scalar(1));
    assert_eq!(value("neg"), ConstValue::Scalar(u64::from(5u32.wrapping_neg())));
    assert_eq!(value("fm"), ConstValue::Scalar(u64::from(3.0f32.to_bits())));
    assert_eq!(value("wide"), ConstValue::Scalar(7));
    assert_eq!(value("vec"), ConstValue::Vector(vec![5, 8]));
    assert_eq!(value("shuf"), ConstValue::Vector(vec![8, 5, 8, 5]));
    assert_eq!(value("ext"), ConstValue::Scalar(8));
    assert_eq!(value("sdiv"), ConstValue::Scalar(u64::from((-3i32) as u32)));
    assert_eq!(kernel(f.built(), "spec").local_mem_size, 8 * 4);

    let mut options = BuildOptions::default();
    options.spec_constants.insert(1, 13u32.to_ne_bytes().to_vec());
    options.spec_constants.insert(2, vec![0]);
    options.spec_constants.insert(3, 0.25f32.to_ne_bytes().to_vec());
    options.spec_constants.insert(4, 0xffffu16.to_ne_bytes().to_vec());
    let f = front_end(&bytes, &options).unwrap();
    let m = f.module();
    let value = |n: &str| m.constant(named(m, n)).unwrap().value.clone();
    assert_eq!(value("len"), ConstValue::Scalar(16));
    assert_eq!(value("lt"), ConstValue::Bool(false));
    assert_eq!(value("sel"), ConstValue::Scalar(2));
    assert_eq!(value("fm"), ConstValue::Scalar(u64::from(0.5f32.to_bits())));
    assert_eq!(value("wide"), ConstValue::Scalar(0xffff));
    assert_eq!(kernel(f.built(), "spec").local_mem_size, 16 * 4);

    // A value of the wrong size is reported, not trusted.
    let mut options = BuildOptions::default();
    options.spec_constants.insert(1, vec![1, 2]);
    let e = build(&bytes, &options).unwrap_err();
    assert!(e.log().contains("SpecId 1 was given 2 bytes"), "{}", e.log());
    // Modules without specialization constants list none.
    assert!(spec_constants(&read("clbench/O2/vadd.spv")).unwrap().is_empty());
}

#[test]
fn each_broken_module_names_its_rule() {
    let files = spv_files("invalid");
    assert!(files.len() >= 70, "{} invalid modules", files.len());
    for f in files {
        let asm = std::fs::read_to_string(f.with_extension("spvasm")).unwrap();
        let expect = asm
            .lines()
            .find_map(|l| l.strip_prefix("; expect: "))
            .unwrap_or_else(|| panic!("{}: no `; expect:` line", f.display()));
        let bytes = std::fs::read(&f).unwrap();
        let err = match build(&bytes, &BuildOptions::default()) {
            Ok(_) => panic!("{} builds, but should fail with \"{expect}\"", f.display()),
            Err(e) => e,
        };
        let log = err.log();
        assert!(
            log.contains(expect),
            "{}: expected \"{expect}\" in:\n{log}",
            f.display()
        );
        let d = err.diagnostics.iter().find(|d| d.rule.contains(expect)).unwrap();
        assert!(
            d.word_offset >= 5 && d.opcode.is_some(),
            "{}: {d:?} names no instruction",
            f.display()
        );
        assert_eq!(log.lines().count(), err.diagnostics.len());
    }
}

#[test]
fn dangling_references_are_told_apart_from_other_faults() {
    // The OpenCL C front end treats a module llvm-spirv wrote with a
    // dangling reference as a failed translation (and works around it);
    // a module with any other fault, an unsupported feature say, goes on to
    // the build, which reports it.
    let mut dangling = Vec::new();
    for f in spv_files("invalid") {
        let asm = std::fs::read_to_string(f.with_extension("spvasm")).unwrap();
        let expect = asm.lines().find_map(|l| l.strip_prefix("; expect: ")).unwrap();
        let found = dangling_reference(&std::fs::read(&f).unwrap());
        let name = f.file_stem().unwrap().to_string_lossy().into_owned();
        match found {
            Some(d) => {
                assert!(
                    d.contains(expect),
                    "{name}: {d:?} is not the rule it breaks, {expect:?}"
                );
                dangling.push(name);
            }
            None => assert!(
                !expect.contains("never defined"),
                "{name} refers to an id it never defines"
            ),
        }
    }
    dangling.sort();
    assert_eq!(
        dangling,
        [
            "constant_before_its_operand",
            "decoration_target_undefined",
            "id_out_of_bound",
            "id_undefined",
            "undefined_id"
        ]
    );
}

#[test]
fn diagnostics_name_offset_opcode_id_and_name() {
    let e = build(&read("invalid/call_argument_type.spv"), &BuildOptions::default()).unwrap_err();
    let d = &e.diagnostics[0];
    assert_eq!(d.opcode.as_deref(), Some("OpFunctionCall"));
    assert_eq!(d.name.as_deref(), Some("next"));
    let line = d.to_string();
    assert!(
        line.starts_with(&format!(
            "word {}: OpFunctionCall %{} \"next\": argument 1",
            d.word_offset,
            d.result_id.unwrap()
        )),
        "{line}"
    );
    // The offset is that of the instruction in the module.
    let w = words(&read("invalid/call_argument_type.spv")).unwrap();
    assert_eq!(w[d.word_offset] & 0xffff, 57, "OpFunctionCall");
}

#[test]
fn header_and_stream_errors() {
    let good = read("clbench/O2/vadd.spv");
    assert!(build(&good[..good.len() - 4], &BuildOptions::default()).is_err());
    assert!(build(&good[..19], &BuildOptions::default()).is_err());
    let mut w = words(&good).unwrap();
    w[3] = 1; // id bound 1: every id is out of range
    let e = build(&to_bytes(&w), &BuildOptions::default()).unwrap_err();
    assert!(e.log().contains("(the module's id bound)"), "{}", e.log());
    w[3] = u32::MAX;
    let e = build(&to_bytes(&w), &BuildOptions::default()).unwrap_err();
    assert!(e.log().contains("the id bound 4294967295 is too large"), "{}", e.log());
    // Big-endian modules are taken too.
    let be: Vec<u8> = words(&good).unwrap().iter().flat_map(|x| x.to_be_bytes()).collect();
    assert_eq!(
        build(&be, &BuildOptions::default()).unwrap(),
        built("clbench/O2/vadd.spv")
    );
}

fn to_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A small deterministic PRNG (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Instruction start offsets of a well-formed module.
fn starts(w: &[u32]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let mut at = 5;
    while at < w.len() {
        let n = ((w[at] >> 16) as usize).max(1);
        v.push((at, n));
        at += n;
    }
    v
}

fn mutate(rng: &mut Rng, w: &[u32]) -> Vec<u8> {
    let mut w = w.to_vec();
    let insts = starts(&w);
    match rng.below(9) {
        0 => {
            // Flip a bit anywhere past the magic number.
            let i = 1 + rng.below(w.len() - 1);
            w[i] ^= 1 << rng.below(32);
        }
        1 => {
            // Replace an operand word by a small or random value.
            let i = 5 + rng.below(w.len() - 5);
            w[i] = if rng.below(2) == 0 {
                rng.below(64) as u32
            } else {
                rng.next() as u32
            };
        }
        2 => {
            // Keep the word count, change the opcode.
            let (at, _) = insts[rng.below(insts.len())];
            w[at] = (w[at] & 0xffff_0000) | rng.below(400) as u32;
        }
        3 => {
            // Truncate (possibly mid-word).
            let mut b = to_bytes(&w);
            b.truncate(rng.below(b.len()));
            return b;
        }
        4 => {
            // Swap two instructions.
            let (a, b) = (insts[rng.below(insts.len())], insts[rng.below(insts.len())]);
            let (x, y) = if a.0 < b.0 { (a, b) } else { (b, a) };
            if x.0 + x.1 <= y.0 {
                let mut out = w[..x.0].to_vec();
                out.extend_from_slice(&w[y.0..y.0 + y.1]);
                out.extend_from_slice(&w[x.0 + x.1..y.0]);
                out.extend_from_slice(&w[x.0..x.0 + x.1]);
                out.extend_from_slice(&w[y.0 + y.1..]);
                w = out;
            }
        }
        5 => {
            // Delete an instruction.
            let (at, n) = insts[rng.below(insts.len())];
            w.drain(at..at + n);
        }
        6 => {
            // Duplicate an instruction somewhere else.
            let (at, n) = insts[rng.below(insts.len())];
            let copy = w[at..at + n].to_vec();
            let (to, _) = insts[rng.below(insts.len())];
            w.splice(to..to, copy);
        }
        7 => {
            // Change an instruction's word count.
            let (at, _) = insts[rng.below(insts.len())];
            w[at] = (w[at] & 0xffff) | ((rng.below(8) as u32) << 16);
        }
        _ => {
            // Renumber an id use to a nearby id.
            let i = 5 + rng.below(w.len() - 5);
            w[i] = w[i].wrapping_add(rng.below(5) as u32).wrapping_sub(2);
        }
    }
    to_bytes(&w)
}

#[test]
fn mutated_modules_never_panic() {
    let mut seeds: Vec<Vec<u32>> = spv_files("clbench/O2")
        .iter()
        .map(|f| words(&std::fs::read(f).unwrap()).unwrap())
        .collect();
    for rel in [
        "valid/base.spv",
        "valid/spec.spv",
        "clang/features_O2.spv",
        "clang/arg_info_O0.spv",
        "clang/images_O2.spv",
        "clang/pipes_O2.spv",
    ] {
        seeds.push(words(&read(rel)).unwrap());
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut outcomes = [0usize; 2];
    for n in 0..4000 {
        let seed = &seeds[n % seeds.len()];
        let mut bytes = mutate(&mut rng, seed);
        // Sometimes mutate again.
        if rng.below(3) == 0 {
            if let Ok(w) = words(&bytes) {
                bytes = mutate(&mut rng, &w);
            }
        }
        let mut options = BuildOptions::default();
        if let Ok(list) = spec_constants(&bytes) {
            for s in list {
                options.spec_constants.insert(s.spec_id, vec![0xa5; s.size]);
            }
        }
        let r = build(&bytes, &options);
        outcomes[usize::from(r.is_ok())] += 1;
        if let Err(e) = r {
            assert!(!e.diagnostics.is_empty());
        }
    }
    // Most mutations break something; some are harmless.
    assert!(outcomes[0] > 1000 && outcomes[1] > 10, "{outcomes:?}");
}

#[test]
fn deep_and_wide_control_flow_is_linear() {
    // A function of 20000 blocks in a chain, laid out in reverse, each block
    // using a value from the entry block: dominance queries must not walk
    // the dominator tree.
    let n = 20000u32;
    let mut asm = String::from(
        "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n\
         %void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%c1 = OpConstant %uint 1\n%fn = OpTypeFunction %void\n\
         %k = OpFunction %void None %fn\n%entry = OpLabel\n%v = OpIAdd %uint %c1 %c1\nOpBranch %b0\n",
    );
    for i in (0..n).rev() {
        let next = if i + 1 == n {
            "OpReturn".to_string()
        } else {
            format!("OpBranch %b{}", i + 1)
        };
        asm.push_str(&format!("%b{i} = OpLabel\n%x{i} = OpIAdd %uint %v %c1\n{next}\n"));
    }
    asm.push_str("OpFunctionEnd\n");
    let bytes = assemble(&asm);
    let t = std::time::Instant::now();
    let f = front_end(&bytes, &BuildOptions::default()).unwrap();
    assert_eq!(f.module().functions[0].blocks.len() as u32, n + 1);
    assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
}

/// A tiny assembler for the subset of SPIR-V the generated tests use:
/// `%name = OpX operands` with ids, decimal literals, strings and the few
/// enumerants below. Keeps the test free of external tools.
fn assemble(text: &str) -> Vec<u8> {
    let mut ids: BTreeMap<String, u32> = BTreeMap::new();
    let id = |name: &str, ids: &mut BTreeMap<String, u32>| -> u32 {
        let n = ids.len() as u32 + 1;
        *ids.entry(name.to_string()).or_insert(n)
    };
    let mut body: Vec<u32> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (result, rest) = match line.split_once(" = ") {
            Some((r, rest)) => (Some(r.trim_start_matches('%')), rest),
            None => (None, line),
        };
        let mut parts = rest.split_whitespace();
        let op = parts.next().unwrap();
        let (code, has_type) = match op {
            "OpCapability" => (17, false),
            "OpMemoryModel" => (14, false),
            "OpEntryPoint" => (15, false),
            "OpTypeVoid" => (19, false),
            "OpTypeInt" => (21, false),
            "OpTypeFunction" => (33, false),
            "OpConstant" => (43, true),
            "OpFunction" => (54, true),
            "OpFunctionEnd" => (56, false),
            "OpLabel" => (248, false),
            "OpBranch" => (249, false),
            "OpReturn" => (253, false),
            "OpIAdd" => (128, true),
            other => panic!("assemble: {other}"),
        };
        let mut ops: Vec<u32> = Vec::new();
        let mut rest: Vec<&str> = parts.collect();
        if has_type {
            ops.push(id(rest.remove(0).trim_start_matches('%'), &mut ids));
        }
        if let Some(r) = result {
            ops.push(id(r, &mut ids));
        }
        for p in rest {
            if let Some(name) = p.strip_prefix('%') {
                ops.push(id(name, &mut ids));
            } else if let Some(s) = p.strip_prefix('"') {
                let s = s.trim_end_matches('"');
                let mut b = s.as_bytes().to_vec();
                b.push(0);
                while b.len() % 4 != 0 {
                    b.push(0);
                }
                ops.extend(b.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
            } else {
                ops.push(match p {
                    "Addresses" => 4,
                    "Kernel" => 6,
                    "Physical64" => 2,
                    "OpenCL" => 2,
                    "None" => 0,
                    n => n.parse().unwrap(),
                });
            }
        }
        body.push(((ops.len() as u32 + 1) << 16) | code);
        body.extend(ops);
    }
    let mut w = vec![0x0723_0203, 0x0001_0000, 0, ids.len() as u32 + 1, 0];
    w.extend(body);
    to_bytes(&w)
}

/// `words` with the instruction at `at` (of `n` words) replaced by `inst`.
fn splice(w: &[u32], at: usize, n: usize, inst: &[u32]) -> Vec<u8> {
    let mut out = w[..at].to_vec();
    out.extend_from_slice(inst);
    out.extend_from_slice(&w[at + n..]);
    to_bytes(&out)
}

/// The first instruction with opcode `op`: its offset and word count.
fn first_of(w: &[u32], op: spirv::Op) -> (usize, usize) {
    starts(w)
        .into_iter()
        .find(|&(at, _)| w[at] & 0xffff == op as u32)
        .unwrap_or_else(|| panic!("no Op{op:?} in the module"))
}

/// Code generation reads the operands an opcode's grammar requires without
/// checking them again (`validate::evidence`): an instruction lacking one
/// is refused by the parser, for each kind of instruction the lowering
/// reads that way.
#[test]
fn instructions_without_their_grammar_operands_are_refused() {
    use spirv::Op;
    let good = words(&read("valid/base.spv")).unwrap();
    // The words the grammar requires (opcode word included); one fewer is
    // kept.
    let cases = [
        (Op::IAdd, 5),
        (Op::Load, 4),
        (Op::Store, 3),
        (Op::CompositeExtract, 4),
        (Op::BranchConditional, 4),
        (Op::FunctionCall, 4),
        (Op::AtomicIAdd, 7),
    ];
    for (op, required) in cases {
        let (at, n) = first_of(&good, op);
        let mut inst = vec![((required as u32 - 1) << 16) | op as u32];
        inst.extend_from_slice(&good[at + 1..at + required - 1]);
        let e = build(&splice(&good, at, n, &inst), &BuildOptions::default()).unwrap_err();
        assert!(
            e.log().contains("fewer operands than its grammar requires"),
            "Op{op:?}: {}",
            e.log()
        );
    }
}

/// The same for OpenCL.std instructions, by the extended grammar: the
/// lowering reads each operand the grammar gives the instruction.
#[test]
fn opencl_std_instructions_without_their_operands_are_refused() {
    use spirv::Op;
    let good = words(&read("valid/base.spv")).unwrap();
    let (imp, _) = first_of(&good, Op::ExtInstImport);
    let std_set = good[imp + 1];
    let (at, n) = first_of(&good, Op::IAdd);
    let uint = good[at + 1];
    let fresh = good[3];
    let mut w = good.clone();
    w[3] += 1;
    let s_abs = spirv::OpenclStd100Op::s_abs as u32;
    for args in [0, 1] {
        // s_abs(%a) (or without its operand) after the OpIAdd, on its
        // first operand.
        let mut ext = vec![((5 + args) << 16) | Op::ExtInst as u32, uint, fresh, std_set, s_abs];
        ext.extend(std::iter::repeat_n(good[at + 3], args as usize));
        let mut both = good[at..at + n].to_vec();
        both.extend_from_slice(&ext);
        let r = build(&splice(&w, at, n, &both), &BuildOptions::default());
        if args == 1 {
            if let Err(e) = r {
                panic!("s_abs with its operand: {}", e.log());
            }
        } else {
            let e = r.unwrap_err();
            assert!(
                e.log().contains("OpenCL.std s_abs takes 1 operands, this has 0"),
                "{}",
                e.log()
            );
        }
    }
}

#[test]
fn image_kernels_build_and_compile() {
    use clift_jit::{compile, front_end, CodegenConfig};
    for level in ["O0", "O2"] {
        let bytes = read(&format!("clang/images_{level}.spv"));
        let b = built(&format!("clang/images_{level}.spv"));
        let k = kernel(&b, "images");
        let kinds: Vec<ArgKind> = k.args.iter().map(|a| a.kind).collect();
        use ArgKind::*;
        assert_eq!(
            kinds,
            [
                Image,
                Image,
                Sampler,
                GlobalBuffer,
                Image,
                Image,
                Image,
                Image,
                Image,
                Image,
                Image
            ],
            "{level}"
        );
        let access: Vec<u32> = k.args.iter().map(|a| a.access_qualifier).collect();
        assert_eq!(
            access,
            [
                ACCESS_READ_ONLY,
                ACCESS_WRITE_ONLY,
                ACCESS_NONE,
                ACCESS_NONE,
                ACCESS_READ_WRITE,
                ACCESS_READ_ONLY,
                ACCESS_READ_ONLY,
                ACCESS_READ_ONLY,
                ACCESS_READ_ONLY,
                ACCESS_READ_ONLY,
                ACCESS_WRITE_ONLY
            ],
            "{level}"
        );
        let front = front_end(&bytes, &BuildOptions::default()).unwrap_or_else(|e| panic!("{}", e.log()));
        let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{level}: {e:?}"));
        assert!(prog.kernel("images").is_some(), "{level}: the image kernel compiles");
    }
}

/// Mutated image modules either fail to build with diagnostics or compile:
/// the image lowering and its operand checks never panic on what the
/// validator lets through.
#[test]
fn mutated_image_modules_compile_or_fail_cleanly() {
    use clift_jit::{compile, front_end, CodegenConfig};
    let seed = words(&read("clang/images_O2.spv")).unwrap();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut compiled = 0;
    for _ in 0..600 {
        let bytes = mutate(&mut rng, &seed);
        let Ok(front) = front_end(&bytes, &BuildOptions::default()) else {
            continue;
        };
        if compile(&front, &CodegenConfig::default()).is_ok() {
            compiled += 1;
        }
    }
    assert!(compiled > 10, "{compiled} mutated image modules compiled");
}

/// The Function variables of `m` (OpVariable in a function body).
fn function_variables(m: &clift_jit::spirv::Module) -> usize {
    m.functions
        .iter()
        .flat_map(|f| f.blocks.iter().flat_map(|b| b.body()))
        .filter(|&i| m.insts[i as usize].op == spirv::Op::Variable)
        .count()
}

#[test]
fn clang_o0_variables_become_values() {
    let keep = BuildOptions {
        keep_variables: true,
        ..BuildOptions::default()
    };
    let mut modules = spv_files("clbench/O0");
    modules.extend(
        spv_files("clang")
            .into_iter()
            .filter(|p| p.to_string_lossy().ends_with("_O0.spv")),
    );
    assert!(modules.len() >= 15, "{modules:?}");
    // Every -O0 module of the execution corpus and of the build corpus
    // too (those clift builds), with the weaker checks.
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance");
    let mut corpus: Vec<PathBuf> = Vec::new();
    for dir in ["kernels/spv/O0", "corpus/spv/O0"] {
        corpus.extend(
            std::fs::read_dir(here.join(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "spv")),
        );
    }
    assert!(corpus.len() >= 80, "{}", corpus.len());
    let clang = modules.len();
    let mut checked = 0;
    for (n, path) in modules.into_iter().chain(corpus).enumerate() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let Ok(kept) = front_end(&bytes, &keep) else {
            assert!(n >= clang, "{name} builds");
            continue;
        };
        let promoted = front_end(&bytes, &BuildOptions::default()).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let before = function_variables(kept.module());
        let after = function_variables(promoted.module());
        assert!(after <= before, "{name}: {before} variables, {after} left");
        if n < clang {
            assert!(before > 0, "{name}: clang -O0 keeps locals in variables");
            // clbench's kernels take no local's address: every variable
            // goes (nbody's float3 ones are read and written as float4
            // through a bitcast, reduce's and mandelbrot's leave loops
            // whose exits differ between work-items).
            if name.to_string().contains("clbench") {
                assert_eq!(after, 0, "{name}: {before} variables, {after} left");
            } else {
                assert!(after < before, "{name}: {before} variables, {after} left");
            }
        }
        // What is left is a module the validator accepts: definitions
        // dominate their uses, one phi operand per predecessor, types
        // agree.
        let mut again = promoted.module().clone();
        let mut d = clift_jit::validate::Diags::default();
        let ok = clift_jit::validate::check_functions(&mut again, &mut d);
        assert!(ok.is_some() && d.is_empty(), "{name}: {:?}", d.into_sorted());
        // The interfaces are the same, but for the private memory the
        // kernels use (CL_KERNEL_PRIVATE_MEM_SIZE), which shrinks.
        let (a, b) = (&kept.built().kernels, &promoted.built().kernels);
        assert_eq!(a.len(), b.len(), "{name}");
        for (a, b) in a.iter().zip(b) {
            assert!(b.private_mem_size <= a.private_mem_size, "{name}: {}", a.name);
            let same = clift_jit::KernelInfo {
                private_mem_size: a.private_mem_size,
                ..b.clone()
            };
            assert_eq!(a, &same, "{name}");
        }
        checked += 1;
    }
    assert!(checked >= 100, "{checked} modules checked");
}

/// Mutated clang -O0 modules (every local a Function variable) either fail
/// to build with diagnostics or compile: the promotion of variables to
/// values and the lowering of what it leaves never panic on what the
/// validator lets through, and what it leaves still validates.
#[test]
fn mutated_o0_modules_promote_and_compile_or_fail_cleanly() {
    use clift_jit::{compile, CodegenConfig};
    let seeds: Vec<Vec<u32>> = spv_files("clbench/O0")
        .iter()
        .map(|f| words(&std::fs::read(f).unwrap()).unwrap())
        .collect();
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let (mut promoted, mut compiled) = (0, 0);
    for n in 0..3000 {
        let bytes = mutate(&mut rng, &seeds[n % seeds.len()]);
        let Ok(front) = front_end(&bytes, &BuildOptions::default()) else {
            continue;
        };
        let mut again = front.module().clone();
        let mut d = clift_jit::validate::Diags::default();
        let ok = clift_jit::validate::check_functions(&mut again, &mut d);
        assert!(ok.is_some() && d.is_empty(), "mutation {n}: {:?}", d.into_sorted());
        if front.module().insts.iter().any(|i| i.op == spirv::Op::Phi) {
            promoted += 1;
        }
        if compile(&front, &CodegenConfig::default()).is_ok() {
            compiled += 1;
        }
    }
    assert!(
        promoted > 150 && compiled > 250,
        "{promoted} promoted, {compiled} compiled"
    );
}
