//! The SPIR-V linker (`clift_jit::link`) over object modules that
//! clang-15 and llvm-spirv-15 made from the OpenCL C files in
//! `data/link/` (`regen.sh` remakes them): executables and libraries are
//! linked, checked structurally (and by `spirv-val` when it is installed),
//! built by the front end, compiled, and their kernel run against a host
//! computation; the link log's text is checked for each kind of error.

use std::collections::HashSet;

use clift_jit::launch_abi::{arg_offsets, WorkGroupCtx};
use clift_jit::link::{link, linkage_symbols, LinkOptions};
use clift_jit::{build, check_il, compile, front_end, BuildOptions, CodegenConfig, FrontEnd};
use rspirv::dr::{Module, Operand};
use spirv::{Decoration, LinkageType, Op};

fn data(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/link/{name}.spv", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const EXE: LinkOptions = LinkOptions { create_library: false };
const LIB: LinkOptions = LinkOptions { create_library: true };

fn link_ok(modules: &[&[u8]], options: &LinkOptions) -> Vec<u8> {
    let out = link(modules, options).unwrap_or_else(|log| panic!("link failed:\n{log}"));
    structure(&out);
    spirv_val(&out);
    out
}

fn link_err(modules: &[&[u8]], options: &LinkOptions) -> String {
    match link(modules, options) {
        Ok(_) => panic!("the link should have failed"),
        Err(log) => log,
    }
}

fn load(bytes: &[u8]) -> Module {
    rspirv::dr::load_bytes(bytes).expect("the linked module decodes")
}

/// The linkage decorations of a module: (name, import?), built-ins excepted.
fn linkage(m: &Module) -> Vec<(String, bool)> {
    let builtins: HashSet<u32> = m
        .annotations
        .iter()
        .filter_map(|i| match i.operands.as_slice() {
            [Operand::IdRef(t), Operand::Decoration(Decoration::BuiltIn), ..] => Some(*t),
            _ => None,
        })
        .collect();
    m.annotations
        .iter()
        .filter_map(|i| match i.operands.as_slice() {
            [Operand::IdRef(t), Operand::Decoration(Decoration::LinkageAttributes), Operand::LiteralString(n), Operand::LinkageType(ty)]
                if !builtins.contains(t) =>
            {
                Some((n.clone(), *ty == LinkageType::Import))
            }
            _ => None,
        })
        .collect()
}

/// The linker's own structural check of a result: the logical layout
/// (section order), ids defined once and below the bound, no two equal
/// non-aggregate types, one OpExtInstImport per set, declarations before
/// definitions, every id operand defined, types and globals defined before
/// use.
fn structure(bytes: &[u8]) {
    assert!(check_il(bytes).is_ok(), "the result passes check_il");
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(words[0], 0x0723_0203, "little-endian magic");
    let bound = words[3];
    // Section ranks in instruction-stream order.
    let rank = |op: Op| -> u32 {
        match op {
            Op::Capability => 0,
            Op::Extension => 1,
            Op::ExtInstImport => 2,
            Op::MemoryModel => 3,
            Op::EntryPoint => 4,
            Op::ExecutionMode | Op::ExecutionModeId => 5,
            Op::String | Op::SourceExtension | Op::Source | Op::SourceContinued => 6,
            Op::Name | Op::MemberName => 7,
            Op::ModuleProcessed => 8,
            Op::Decorate | Op::MemberDecorate | Op::DecorationGroup | Op::GroupDecorate | Op::GroupMemberDecorate => 9,
            Op::Line | Op::NoLine => 10,
            _ => 11,
        }
    };
    let mut at = 5;
    let mut last = 0;
    let mut in_function = false;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let op = Op::from_u32(words[at] & 0xffff).expect("known opcode");
        if op == Op::Function {
            in_function = true;
        }
        if !in_function && op != Op::Line && op != Op::NoLine {
            let r = rank(op);
            assert!(r >= last, "{op:?} at word {at} is out of the logical layout's order");
            last = r;
        }
        if op == Op::FunctionEnd {
            in_function = false;
        }
        at += count;
    }
    let m = load(bytes);
    let mut defined: HashSet<u32> = HashSet::new();
    let mut all = Vec::new();
    all.extend(m.ext_inst_imports.iter());
    all.extend(m.debug_string_source.iter());
    all.extend(m.types_global_values.iter());
    for f in &m.functions {
        all.extend(f.def.iter());
        all.extend(f.parameters.iter());
        for b in &f.blocks {
            all.extend(b.label.iter());
            all.extend(b.instructions.iter());
        }
    }
    for i in &all {
        if let Some(r) = i.result_id {
            assert!(r < bound, "%{r} is not below the bound {bound}");
            assert!(defined.insert(r), "%{r} is defined twice");
        }
    }
    let mut sets = HashSet::new();
    for i in &m.ext_inst_imports {
        assert!(
            sets.insert(format!("{:?}", i.operands)),
            "two OpExtInstImport of one set"
        );
    }
    // Types and globals before use (forward pointers aside).
    let mut seen: HashSet<u32> = HashSet::new();
    let forward: HashSet<u32> = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeForwardPointer)
        .filter_map(|i| i.operands.first().and_then(|o| o.id_ref_any()))
        .collect();
    let mut non_aggregate = HashSet::new();
    for i in &m.types_global_values {
        for x in i
            .result_type
            .iter()
            .copied()
            .chain(i.operands.iter().filter_map(|o| o.id_ref_any()))
        {
            if i.class.opcode != Op::TypeForwardPointer {
                assert!(
                    seen.contains(&x) || forward.contains(&x),
                    "{:?} uses %{x} before its definition",
                    i.class.opcode
                );
            }
        }
        if let Some(r) = i.result_id {
            seen.insert(r);
        }
        if i.class.opcode.is_type() && !matches!(i.class.opcode, Op::TypeStruct | Op::TypeOpaque) {
            assert!(
                non_aggregate.insert(format!("{:?} {:?}", i.class.opcode, i.operands)),
                "two equal types {:?} {:?}",
                i.class.opcode,
                i.operands
            );
        }
    }
    // Every id operand defined somewhere.
    for i in &all {
        for x in i
            .result_type
            .iter()
            .copied()
            .chain(i.operands.iter().filter_map(|o| o.id_ref_any()))
        {
            assert!(
                defined.contains(&x),
                "{:?} uses %{x}, which is not defined",
                i.class.opcode
            );
        }
    }
    // Declarations before definitions.
    let first_def = m
        .functions
        .iter()
        .position(|f| !f.blocks.is_empty())
        .unwrap_or(m.functions.len());
    assert!(
        m.functions[first_def..].iter().all(|f| !f.blocks.is_empty()),
        "a declaration follows a definition"
    );
}

/// `spirv-val --target-env opencl2.2` on a result, when installed.
fn spirv_val(bytes: &[u8]) {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir();
    let path = dir.join(format!(
        "clift-link-{}-{}.spv",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, bytes).expect("temporary file");
    let out = std::process::Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&path)
        .output();
    let _ = std::fs::remove_file(&path);
    let o = out.unwrap_or_else(|e| panic!("cannot run spirv-val (install spirv-tools: see .ci/run): {e}"));
    assert!(
        o.status.success(),
        "spirv-val rejects the linked module:\n{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Compiles `bytes` and runs kernel `name` over `n` work-items in groups of
/// `local`, its arguments being the buffer addresses `args`.
fn run(bytes: &[u8], name: &str, n: u64, local: u64, args: &[u64]) {
    let front: FrontEnd = front_end(bytes, &BuildOptions::default()).unwrap_or_else(|e| panic!("{}", e.log()));
    let prog = compile(&front, &CodegenConfig::default()).unwrap_or_else(|e| panic!("{}", e.log()));
    let info = front.built().kernels.iter().find(|k| k.name == name).expect("kernel");
    let (offsets, size) = arg_offsets(info);
    let mut block = vec![0u128; size.div_ceil(16)];
    {
        let len = std::mem::size_of_val(block.as_slice());
        // SAFETY: u128 has no padding and every byte pattern is a valid u8;
        // the slice covers exactly the block's memory and borrows it.
        let bytes = unsafe { std::slice::from_raw_parts_mut(block.as_mut_ptr().cast::<u8>(), len) };
        for (&at, a) in offsets.iter().zip(args) {
            bytes[at..at + 8].copy_from_slice(&a.to_ne_bytes());
        }
    }
    let f = prog.kernel(name).expect("compiled kernel").func;
    let groups = n.div_ceil(local);
    for g in 0..groups {
        let ctx = WorkGroupCtx {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [n, 1, 1],
            local_size: [local.min(n - g * local), 1, 1],
            enqueued_local_size: [local, 1, 1],
            num_groups: [groups, 1, 1],
            group_id: [g, 0, 0],
            args: block.as_ptr().cast(),
            local_arena: std::ptr::null_mut(),
            local_arena_size: 0,
            private_arena: std::ptr::null_mut(),
            private_arena_size: 0,
            printf: std::ptr::null(),
            default_queue: 0,
            device_enqueue: std::ptr::null(),
        };
        // SAFETY: `f` is the kernel's work-group function; its argument
        // block holds the callers' buffer addresses, which outlive the call
        // and have an element for every global id.
        unsafe { f(&ctx) };
    }
}

/// Runs kernel `k` (out[i] = scale(in[i]) + offset_twice(i) +
/// pair_sum(&{i, in[i]}) + counter) over 64 work-items in groups of 16,
/// against the host computation.
fn run_k(bytes: &[u8]) {
    let n = 64usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 3.0).collect();
    let mut output = vec![0f32; n];
    run(
        bytes,
        "k",
        n as u64,
        16,
        &[output.as_mut_ptr() as u64, input.as_ptr() as u64],
    );
    let offset = |i: i32| i * 3 + 100;
    for (i, (&o, &x)) in output.iter().zip(&input).enumerate() {
        let ii = i as i32;
        let want = x * 2.0 + (offset(offset(ii)) + 100) as f32 + (ii as f32 + x * 0.5) + 7.0;
        assert_eq!(o, want, "out[{i}]");
    }
}

#[test]
fn object_modules_report_their_symbols() {
    let k = linkage_symbols(&data("kernel")).unwrap();
    let mut imports = k.imports.clone();
    imports.sort();
    assert_eq!(imports, ["counter", "offset_twice", "pair_sum", "scale"]);
    assert_eq!(k.exports, ["k"]);
    assert!(k.linkage);
    let b = linkage_symbols(&data("lib_b")).unwrap();
    assert!(b.imports.is_empty());
    let mut exports = b.exports.clone();
    exports.sort();
    assert_eq!(exports, ["counter", "pair_sum", "scale"]);
    assert!(linkage_symbols(b"garbage!").is_err());
}

#[test]
fn object_module_passes_check_il_and_build_names_unresolved_symbols() {
    let k = data("kernel");
    assert!(check_il(&k).is_ok());
    let err = build(&k, &BuildOptions::default()).expect_err("imports are unresolved");
    let log = err.log();
    for name in ["scale", "offset_twice", "pair_sum", "counter"] {
        assert!(
            log.lines()
                .any(|l| l.contains(&format!("unresolved symbol \"{name}\"")) && l.contains("clLinkProgram")),
            "no line names {name}:\n{log}"
        );
    }
}

#[test]
fn kernel_with_functions_and_a_variable_from_three_modules_links_builds_and_runs() {
    let (k, b, c, c2) = (data("kernel"), data("lib_b"), data("lib_c"), data("lib_c2"));
    let exe = link_ok(&[&k, &b, &c2, &c], &EXE);
    let m = load(&exe);
    // Every Import resolved and dropped; the exports stay.
    assert!(linkage(&m).iter().all(|(_, import)| !import), "{:?}", linkage(&m));
    assert!(
        m.functions.iter().all(|f| !f.blocks.is_empty()),
        "no declaration remains"
    );
    // Shared types and constants appear once: one 32-bit int, one float,
    // one struct.pair, one OpConstant 100 of int32.
    let count = |f: &dyn Fn(&rspirv::dr::Instruction) -> bool| m.types_global_values.iter().filter(|i| f(i)).count();
    assert_eq!(
        count(&|i| i.class.opcode == Op::TypeInt && i.operands[0] == Operand::LiteralBit32(32)),
        1
    );
    assert_eq!(count(&|i| i.class.opcode == Op::TypeFloat), 1);
    assert_eq!(count(&|i| i.class.opcode == Op::TypeStruct), 1);
    assert_eq!(
        count(&|i| i.class.opcode == Op::Constant && i.operands[0] == Operand::LiteralBit32(100)),
        1
    );
    assert_eq!(m.ext_inst_imports.len(), 1);
    // The one counter variable is the export, with its initializer.
    let vars: Vec<_> = m
        .types_global_values
        .iter()
        .filter(|i| {
            i.class.opcode == Op::Variable
                && i.operands[0] == Operand::StorageClass(spirv::StorageClass::CrossWorkgroup)
        })
        .collect();
    assert_eq!(vars.len(), 1);
    assert_eq!(vars[0].operands.len(), 2, "counter keeps its initializer");
    let built = build(&exe, &BuildOptions::default()).unwrap_or_else(|e| panic!("{}", e.log()));
    assert_eq!(built.kernels.len(), 1);
    run_k(&exe);
    // Module order does not matter.
    let exe2 = link_ok(&[&c, &c2, &b, &k], &EXE);
    run_k(&exe2);
}

#[test]
fn a_library_of_a_library_links_into_an_executable() {
    let (k, b, c, c2) = (data("kernel"), data("lib_b"), data("lib_c"), data("lib_c2"));
    // lib_c2 alone imports offset: a library keeps the import.
    let l1 = link_ok(&[&c2], &LIB);
    let s1 = linkage_symbols(&l1).unwrap();
    assert_eq!(s1.imports, ["offset"]);
    assert_eq!(s1.exports, ["offset_twice"]);
    // With lib_b: still unresolved, now with more exports.
    let l2 = link_ok(&[&b, &l1], &LIB);
    let s2 = linkage_symbols(&l2).unwrap();
    assert_eq!(s2.imports, ["offset"]);
    assert_eq!(s2.exports.len(), 4);
    // And lib_c resolves it.
    let l3 = link_ok(&[&l2, &c], &LIB);
    let s3 = linkage_symbols(&l3).unwrap();
    assert!(s3.imports.is_empty(), "{:?}", s3.imports);
    let exe = link_ok(&[&k, &l3], &EXE);
    run_k(&exe);
    // An executable from the library with an import left fails.
    let log = link_err(&[&k, &l2], &EXE);
    assert_eq!(
        log,
        "unresolved symbol \"offset\": imported by module 1 and exported by no module"
    );
}

#[test]
fn unresolved_symbols_are_named_with_their_module() {
    let (k, b) = (data("kernel"), data("lib_b"));
    let log = link_err(&[&b, &k], &EXE);
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        lines,
        ["unresolved symbol \"offset_twice\": imported by module 1 and exported by no module"]
    );
    // A library may keep it.
    let lib = link_ok(&[&b, &k], &LIB);
    let s = linkage_symbols(&lib).unwrap();
    assert_eq!(s.imports, ["offset_twice"]);
    // The library's declarations come first and pass the front end up to the
    // unresolved symbol.
    let err = build(&lib, &BuildOptions::default()).expect_err("unresolved");
    assert!(
        err.log().contains("unresolved symbol \"offset_twice\""),
        "{}",
        err.log()
    );
}

#[test]
fn duplicate_symbols_are_refused() {
    let (k, b, c, c2, dup) = (
        data("kernel"),
        data("lib_b"),
        data("lib_c"),
        data("lib_c2"),
        data("dup_scale"),
    );
    let log = link_err(&[&k, &b, &c, &c2, &dup], &EXE);
    assert_eq!(log, "duplicate symbol \"scale\": exported by module 1 and by module 4");
    // Also in a library.
    let log = link_err(&[&dup, &b], &LIB);
    assert_eq!(log, "duplicate symbol \"scale\": exported by module 0 and by module 1");
}

#[test]
fn linking_a_module_twice_duplicates_every_export() {
    let b = data("lib_b");
    let log = link_err(&[&b, &b], &LIB);
    let mut lines: Vec<&str> = log.lines().collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "duplicate symbol \"counter\": exported by module 0 and by module 1",
            "duplicate symbol \"pair_sum\": exported by module 0 and by module 1",
            "duplicate symbol \"scale\": exported by module 0 and by module 1",
        ]
    );
    // Kernels are exported too: two copies of the kernel's module clash.
    let (k, c, c2) = (data("kernel"), data("lib_c"), data("lib_c2"));
    let log = link_err(&[&k, &k, &b, &c, &c2], &EXE);
    assert_eq!(log, "duplicate symbol \"k\": exported by module 0 and by module 1");
}

#[test]
fn type_mismatches_are_refused() {
    let (c2, bad) = (data("lib_c2"), data("mismatch"));
    let log = link_err(&[&c2, &bad], &LIB);
    assert_eq!(
        log,
        "type mismatch for symbol \"offset\": module 0 imports it as int32 (int32) but module 1 exports int64 (int64)"
    );
}

#[test]
fn addressing_models_must_agree() {
    let b = data("lib_b");
    // lib_c with Physical32 instead of Physical64.
    let mut m = rspirv::dr::load_bytes(data("lib_c")).unwrap();
    m.memory_model.as_mut().unwrap().operands[0] = Operand::AddressingModel(spirv::AddressingModel::Physical32);
    let c32: Vec<u8> = {
        use rspirv::binary::Assemble;
        m.assemble().iter().flat_map(|w| w.to_le_bytes()).collect()
    };
    let log = link_err(&[&b, &c32], &LIB);
    assert_eq!(
        log,
        "module 1: addressing and memory model Physical32 OpenCL differ from module 0's Physical64 OpenCL"
    );
}

#[test]
fn big_endian_input_links() {
    let (k, b, c, c2) = (data("kernel"), data("lib_b"), data("lib_c"), data("lib_c2"));
    let swapped: Vec<u8> = c.chunks_exact(4).flat_map(|w| [w[3], w[2], w[1], w[0]]).collect();
    let exe = link_ok(&[&k, &b, &c2, &swapped], &EXE);
    run_k(&exe);
}

#[test]
fn malformed_modules_are_named_in_the_log() {
    let b = data("lib_b");
    let log = link_err(&[&b, b"not spir-v at all"], &LIB);
    assert!(log.starts_with("module 1: "), "{log}");
    let log = link_err(&[&b[..b.len() - 4]], &LIB);
    assert!(log.starts_with("module 0: "), "{log}");
    assert_eq!(link_err(&[], &LIB), "no modules to link");
}

/// Garbage and mutations never panic and finish quickly.
#[test]
fn link_never_panics_on_garbage() {
    let inputs = [data("kernel"), data("lib_b"), data("lib_c"), data("lib_c2")];
    let mut seed: u64 = clift_env::number("CLIFT_LINK_FUZZ_SEED", 0x2545_f491_4f6c_dd1d, 1..=u64::MAX);
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let start = std::time::Instant::now();
    // CLIFT_LINK_FUZZ_ROUNDS runs more rounds (and lifts the time limit),
    // CLIFT_LINK_FUZZ_SEED (nonzero) others.
    let rounds: usize = clift_env::number("CLIFT_LINK_FUZZ_ROUNDS", 3000, 1..=usize::MAX);
    for round in 0..rounds {
        let mut mods: Vec<Vec<u8>> = inputs.iter().take(1 + round % 4).cloned().collect();
        let which = (rnd() as usize) % mods.len();
        let m = &mut mods[which];
        match round % 5 {
            // An operand word (never an instruction's first word) set to a
            // small value, often an id: the module stays decodable.
            4 => {
                let words: Vec<u32> = m
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                let mut starts = Vec::new();
                let mut at = 5;
                while at < words.len() {
                    starts.push(at);
                    at += ((words[at] >> 16) as usize).max(1);
                }
                for _ in 0..1 + rnd() % 3 {
                    let start = starts[(rnd() as usize) % starts.len()];
                    let count = (words[start] >> 16) as usize;
                    if count > 1 {
                        let w = start + 1 + (rnd() as usize) % (count - 1);
                        let v = (rnd() % (u64::from(words[3]) + 2)) as u32;
                        if w < words.len() {
                            m[w * 4..w * 4 + 4].copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
            }
            // Flip a few words after the header.
            0 | 1 => {
                for _ in 0..1 + rnd() % 4 {
                    let w = 5 + (rnd() as usize) % (m.len() / 4 - 5);
                    let v = rnd() as u32;
                    let v = if round % 2 == 0 { v & 0xff } else { v };
                    m[w * 4..w * 4 + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
            // Truncate.
            2 => {
                let len = (rnd() as usize) % m.len();
                m.truncate(len);
            }
            // Random bytes behind a valid header.
            _ => {
                let len = 20 + 4 * ((rnd() as usize) % 64);
                m.truncate(20);
                while m.len() < len {
                    m.extend_from_slice(&(rnd() as u32).to_le_bytes());
                }
            }
        }
        let refs: Vec<&[u8]> = mods.iter().map(Vec::as_slice).collect();
        for options in [EXE, LIB] {
            if let Ok(out) = link(&refs, &options) {
                // Whatever comes out is a module check_il takes.
                assert!(check_il(&out).is_ok());
                let _ = build(&out, &BuildOptions::default());
            }
        }
        let _ = linkage_symbols(refs[0]);
    }
    assert!(
        rounds > 3000 || start.elapsed().as_secs() < 120,
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn recursive_types_merge_across_modules() {
    let (k, sum) = (data("list_kernel"), data("list_sum"));
    let exe = link_ok(&[&k, &sum], &EXE);
    let m = load(&exe);
    let structs = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeStruct)
        .count();
    let forward = m
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeForwardPointer)
        .count();
    assert_eq!((structs, forward), (1, 1));
    let mut out = vec![0i32; 8];
    run(&exe, "lists", 8, 4, &[out.as_mut_ptr() as u64]);
    assert_eq!(out, (0..8).map(|i| 110 + i).collect::<Vec<i32>>());
}

/// Two hand-made modules whose decorations are in decoration groups
/// (OpDecorationGroup, OpGroupDecorate, OpGroupMemberDecorate): the result
/// has plain decorations only.
#[test]
fn decoration_groups_are_expanded() {
    use rspirv::binary::Assemble;
    use rspirv::dr::Builder;
    use spirv::{AddressingModel, Capability, FunctionControl, MemoryModel, StorageClass};
    let module = |define: bool| -> Vec<u8> {
        let mut b = Builder::new();
        b.set_version(1, 0);
        for c in [
            Capability::Addresses,
            Capability::Kernel,
            Capability::Linkage,
            Capability::Int64,
        ] {
            b.capability(c);
        }
        b.memory_model(AddressingModel::Physical64, MemoryModel::OpenCL);
        let uint = b.type_int(32, 0);
        let void = b.type_void();
        let ptr = b.type_pointer(None, StorageClass::CrossWorkgroup, uint);
        let fty = b.type_function(void, vec![ptr]);
        let st = b.type_struct(vec![uint, uint]);
        b.name(st, "struct.two");
        let group = b.decoration_group();
        b.decorate(group, Decoration::Alignment, vec![Operand::LiteralBit32(4)]);
        let f = b.id();
        b.name(f, "store7");
        b.decorate(
            f,
            Decoration::LinkageAttributes,
            vec![
                Operand::LiteralString("store7".into()),
                Operand::LinkageType(if define {
                    LinkageType::Export
                } else {
                    LinkageType::Import
                }),
            ],
        );
        b.begin_function(void, Some(f), FunctionControl::NONE, fty).unwrap();
        let p = b.function_parameter(ptr).unwrap();
        b.group_decorate(group, vec![p]);
        let volatile = b.decoration_group();
        b.decorate(volatile, Decoration::Volatile, vec![]);
        b.group_member_decorate(volatile, vec![(st, 1)]);
        if define {
            b.begin_block(None).unwrap();
            let seven = b.constant_bit32(uint, 7);
            b.store(p, seven, None, vec![]).unwrap();
            b.ret().unwrap();
        }
        b.end_function().unwrap();
        if !define {
            let k = b.id();
            b.begin_function(void, Some(k), FunctionControl::NONE, fty).unwrap();
            let q = b.function_parameter(ptr).unwrap();
            b.group_decorate(group, vec![q]);
            b.begin_block(None).unwrap();
            b.function_call(void, None, f, vec![q]).unwrap();
            b.ret().unwrap();
            b.end_function().unwrap();
            b.entry_point(spirv::ExecutionModel::Kernel, k, "seven", vec![]);
        }
        b.module().assemble().iter().flat_map(|w| w.to_le_bytes()).collect()
    };
    let (user, def) = (module(false), module(true));
    let exe = link_ok(&[&user, &def], &EXE);
    let m = load(&exe);
    assert!(m
        .annotations
        .iter()
        .all(|i| matches!(i.class.opcode, Op::Decorate | Op::MemberDecorate)));
    let aligned = m
        .annotations
        .iter()
        .filter(|i| i.operands.get(1) == Some(&Operand::Decoration(Decoration::Alignment)))
        .count();
    // The two parameters left (the kernel's and store7's definition's).
    assert_eq!(aligned, 2);
    let member = m
        .annotations
        .iter()
        .filter(|i| i.class.opcode == Op::MemberDecorate)
        .count();
    assert_eq!(member, 1, "one struct.two, its member decoration once");
    assert_eq!(m.functions.len(), 2);
    let mut out = vec![0u32; 4];
    run(&exe, "seven", 1, 1, &[out.as_mut_ptr() as u64]);
    assert_eq!(out, [7, 0, 0, 0]);
}

#[test]
fn a_library_merges_unresolved_imports_of_one_name() {
    let (c, c2, user) = (data("lib_c"), data("lib_c2"), data("offset_user"));
    let lib = link_ok(&[&c2, &user], &LIB);
    let m = load(&lib);
    let decls = m.functions.iter().filter(|f| f.blocks.is_empty()).count();
    assert_eq!(decls, 1, "one declaration of offset");
    assert_eq!(linkage_symbols(&lib).unwrap().imports, ["offset"]);
    let exe = link_ok(&[&lib, &c], &EXE);
    let mut out = vec![0i32; 10];
    run(&exe, "add_offset", 10, 5, &[out.as_mut_ptr() as u64]);
    assert_eq!(out, (0..10).map(|i| i * 3 + 100).collect::<Vec<i32>>());
}

/// A module whose one decoration group is applied to many targets: the
/// expansion is bounded.
#[test]
fn decoration_group_expansion_is_bounded() {
    use rspirv::binary::Assemble;
    use rspirv::dr::Builder;
    use spirv::{AddressingModel, Capability, MemoryModel};
    let mut b = Builder::new();
    b.set_version(1, 0);
    b.capability(Capability::Kernel);
    b.capability(Capability::Addresses);
    b.memory_model(AddressingModel::Physical64, MemoryModel::OpenCL);
    let group = b.decoration_group();
    for k in 0..1100 {
        b.decorate(group, Decoration::Alignment, vec![Operand::LiteralBit32(4 + k)]);
    }
    let uint = b.type_int(32, 0);
    b.group_decorate(group, vec![uint; 1000]);
    let bytes: Vec<u8> = b.module().assemble().iter().flat_map(|w| w.to_le_bytes()).collect();
    let start = std::time::Instant::now();
    let log = link_err(&[&bytes], &LIB);
    assert_eq!(
        log,
        "module 0: decoration groups expand to more than 1048576 decorations"
    );
    assert!(start.elapsed().as_secs() < 10);
}
