//! clift's compiler: SPIR-V bytes -> parsed module -> validated module ->
//! Cranelift IR -> machine code.
//!
//! The runtime uses: [`check_il`] for clCreateProgramWithIL,
//! [`spec_constants`] for clSetProgramSpecializationConstant, [`front_end`]
//! and [`compile_kernels`] for clBuildProgram ([`front_end`] returns the
//! kernels' interfaces or a build log of [`Diagnostic`]s and keeps the
//! validated [`spirv::Module`] for code generation; [`build`] is the front
//! end alone), [`link::link`] for clLinkProgram, [`launch_abi`] to run
//! kernels, and [`spirv::edit`] for the modules its OpenCL C front end
//! makes. What the runtime decides for code generation arrives as a
//! [`CodegenConfig`]: nothing here reads the environment.
//!
//! Data flows one way:
//! - [`spirv`]: the words are decoded once with the `rspirv` grammar into a
//!   [`spirv::Module`] (instructions with word offsets; types, constants,
//!   globals, functions and blocks in arenas keyed by id; names,
//!   decorations, execution modes, entry points), checking the logical
//!   layout, function and block structure, and that ids are defined once,
//!   below the bound, and module-level operands before use.
//! - [`validate`]: the OpenCL SPIR-V environment ([`validate::env`],
//!   [`validate::memory`]) and the rules the lowering relies on
//!   ([`validate::types`], [`validate::cfg`], [`validate::calls`]).
//! - [`spec`]: specialization constants applied and folded; [`layout`]:
//!   OpenCL C sizes of every type.
//! - [`promote`]: Function variables that are only loaded and stored
//!   (clang -O0 keeps every local variable in memory) become SSA values.
//! - [`kernels`]: what the API reports about kernels ([`KernelInfo`]).
//! - [`link`](mod@link) (clLinkProgram): combines object modules, libraries and
//!   IL programs into one module (imports resolved to exports, types and
//!   constants merged), which then goes through [`build`] like any IL.
//! - [`codegen`] (called by the runtime after [`front_end`]): [`compile`]
//!   lowers every kernel ([`lower`]) to one Cranelift work-group function with the
//!   [`launch_abi`] signature, in a JIT module owned by [`CompiledProgram`];
//!   [`compile_wide`] compiles the 8-lane bodies a build left for
//!   later ([`CodegenConfig::wide_later`]), into a second module sharing the
//!   first one's program-scope variables. Each function is optimised by
//!   Cranelift, then `invariant_loads` reads the invariants of loops
//!   crowded with vector values from memory, then it is compiled.
//!
//! What a module that [`front_end`] accepts guarantees the lowering:
//! - every id is below the bound and defined exactly once; every id operand
//!   names a defined id of the kind its position needs (value, label,
//!   function, extended instruction set);
//! - every function with a body has terminated blocks, branch targets that
//!   are labels of the same function (never the entry block), a
//!   [`spirv::Cfg`] (successors, predecessors, reverse postorder, immediate
//!   dominators), OpPhi with exactly one pair per predecessor, and every
//!   definition dominating its uses in reachable blocks (OpPhi operands at
//!   the end of their parent); Function variables are in the entry block;
//! - the operand types of each opcode are consistent ([`validate::types`]),
//!   atomics take 32-bit integers, 64-bit ones with Int64Atomics (or 32-
//!   and 64-bit floats for load/store/exchange) and
//!   every scope and memory-semantics operand is a 32-bit integer constant
//!   with a value OpenCL allows;
//! - no recursion, no calls to functions without a body;
//! - only opcodes in [`spirv::ops::support`]; no images; doubles with
//!   Float64, halves with Float16 (or Float16Buffer, as llvm-spirv
//!   declares half arithmetic); integer widths 8/16/32/64, vectors of
//!   2/3/4/8/16;
//! - every constant is folded ([`spirv::ConstValue`]) except pointer
//!   expressions over module variables, and every sized type has a
//!   [`spirv::Layout`].

pub mod block_invoke;
pub mod codegen;
pub mod debug_dump;
pub mod error;
pub mod globals;
pub mod interface;
pub(crate) mod invariant_loads;
pub mod kernels;
pub mod launch_abi;
pub mod layout;
pub mod link;
pub mod lower;
pub mod promote;
pub mod spec;
pub mod spirv;
pub mod sub_group;
pub mod validate;

pub use clift_builtins::fp_env::OpenClFpEnv;
/// The layout of a pipe's store, which the runtime allocates and kernels use.
pub use clift_builtins::pipe;
pub use codegen::{compile, compile_kernels, compile_wide, CodegenConfig, CompiledProgram};
pub use error::{BuildError, Diagnostic, IlError};
pub use interface::{ArgInfo, ArgKind, BuildOptions, BuiltModule, IlInfo, KernelInfo, SpecConstant};

/// SPIR-V's magic number.
const MAGIC: u32 = 0x0723_0203;

/// The newest SPIR-V minor version (of major version 1) clift takes: 1.3,
/// for the GroupNonUniform instructions of the cl_khr_subgroup_* extensions.
pub(crate) const NEWEST_MINOR: u32 = 3;

/// The module's words in host order, or why the bytes are not a SPIR-V module
/// clift takes: the magic in either byte order, a length that is a multiple of
/// 4 and holds the 5-word header, a version from 1.0 to 1.3, and an
/// instruction stream whose word counts are nonzero and end exactly at the
/// end of the module.
pub fn words(bytes: &[u8]) -> Result<Vec<u32>, IlError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(IlError(format!("length {} is not a multiple of 4", bytes.len())));
    }
    if bytes.len() < 20 {
        return Err(IlError("shorter than the 5-word SPIR-V header".into()));
    }
    let first = [bytes[0], bytes[1], bytes[2], bytes[3]];
    let swap = if u32::from_le_bytes(first) == MAGIC {
        false
    } else if u32::from_be_bytes(first) == MAGIC {
        true
    } else {
        return Err(IlError("not a SPIR-V module: wrong magic number".into()));
    };
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| {
            let w = [c[0], c[1], c[2], c[3]];
            if swap {
                u32::from_be_bytes(w)
            } else {
                u32::from_le_bytes(w)
            }
        })
        .collect();
    let version = words[1];
    let (major, minor) = ((version >> 16) & 0xff, (version >> 8) & 0xff);
    if version & 0xff00_00ff != 0 || major != 1 || minor > NEWEST_MINOR {
        return Err(IlError(format!(
            "SPIR-V version {major}.{minor} (word 0x{version:08x}): clift takes 1.0 to 1.{NEWEST_MINOR}"
        )));
    }
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 {
            return Err(IlError(format!("word {at}: instruction with a word count of 0")));
        }
        if at + count > words.len() {
            return Err(IlError(format!(
                "word {at}: instruction of {count} words runs past the end of the module ({} words)",
                words.len()
            )));
        }
        at += count;
    }
    Ok(words)
}

/// clCreateProgramWithIL's check: is this a SPIR-V module clift takes?
pub fn check_il(bytes: &[u8]) -> Result<IlInfo, IlError> {
    let w = words(bytes)?;
    Ok(IlInfo {
        version: (((w[1] >> 16) & 0xff) as u8, ((w[1] >> 8) & 0xff) as u8),
    })
}

/// The first reference of the module to an id it never defines (or, where
/// definitions must come first, defines only later), as the build log
/// would report it: a sign that the module's writer lost track of its ids,
/// not that it uses something clift does not support. `None` when every
/// reference is sound or the module does not decode.
pub fn dangling_reference(bytes: &[u8]) -> Option<String> {
    spirv::dangling_reference(&words(bytes).ok()?).map(|d| d.to_string())
}

/// The parsed module, or its first parsing diagnostic.
fn parsed(bytes: &[u8]) -> Result<spirv::Module, IlError> {
    spirv::parse(&words(bytes)?).map_err(|d| IlError(d.first().map_or_else(String::new, ToString::to_string)))
}

/// The specialization constants of a module that passed [`check_il`], in
/// SpecId order.
pub fn spec_constants(bytes: &[u8]) -> Result<Vec<SpecConstant>, IlError> {
    Ok(spec::list(&parsed(bytes)?))
}

/// clBuildProgram: parses and validates the module against the OpenCL SPIR-V
/// environment and the rules the lowering relies on, with `options` (spec
/// constant values are folded in), and reports its kernels.
pub fn build(bytes: &[u8], options: &BuildOptions) -> Result<BuiltModule, BuildError> {
    front_end(bytes, options).map(FrontEnd::into_built)
}

/// What the front end hands the lowering: the parsed module, specialized
/// (every constant folded except pointer expressions), laid out, validated,
/// with each function's control-flow graph; and the kernels' interfaces.
/// Only [`front_end`] makes one, and what it holds cannot change afterwards:
/// code generation sees only modules that passed validation.
#[derive(Debug, Clone)]
pub struct FrontEnd {
    module: spirv::Module,
    built: BuiltModule,
    /// [`BuildOptions::max_lanes`] of the build.
    max_lanes: Option<u32>,
    /// [`BuildOptions::min_lanes`] of the build.
    min_lanes: Option<u32>,
    /// [`BuildOptions::wide_at_build`] of the build.
    wide_at_build: bool,
    /// Whether sub-groups must progress independently (not
    /// [`BuildOptions::no_subgroup_ifp`]).
    sub_group_ifp: bool,
    /// The validator's evidence that `module` passed every rule.
    validated: validate::Validated,
}

impl FrontEnd {
    /// The validated module.
    pub fn module(&self) -> &spirv::Module {
        &self.module
    }

    /// The kernels' interfaces.
    pub fn built(&self) -> &BuiltModule {
        &self.built
    }

    /// The kernels' interfaces, without the module.
    pub fn into_built(self) -> BuiltModule {
        self.built
    }

    /// The validator's evidence for [`FrontEnd::module`], through which
    /// code generation reads its instructions.
    pub(crate) fn validated(&self) -> &validate::Validated {
        &self.validated
    }

    /// [`BuildOptions::max_lanes`] of the build.
    pub fn max_lanes(&self) -> Option<u32> {
        self.max_lanes
    }

    /// [`BuildOptions::min_lanes`] of the build.
    pub fn min_lanes(&self) -> Option<u32> {
        self.min_lanes
    }

    /// Whether sub-groups must progress independently (the build had no
    /// `-cl-no-subgroup-ifp`).
    pub fn sub_group_ifp(&self) -> bool {
        self.sub_group_ifp
    }
}

/// [`build`], keeping the validated module for code generation.
pub fn front_end(bytes: &[u8], options: &BuildOptions) -> Result<FrontEnd, BuildError> {
    let fail = |diagnostics: Vec<Diagnostic>| BuildError { diagnostics };
    let w = words(bytes).map_err(|e| {
        fail(vec![Diagnostic {
            word_offset: 0,
            opcode: None,
            result_id: None,
            name: None,
            rule: e.0,
        }])
    })?;
    let mut m = spirv::parse(&w).map_err(fail)?;
    // Spec constants fold in OpenCL's rounding and denormal modes.
    let _env = OpenClFpEnv::enter();
    let mut d = validate::Diags::default();
    validate::check_module(&m, &mut d);
    if !d.is_empty() {
        return Err(fail(d.into_sorted()));
    }
    spec::specialize(&mut m, &options.spec_constants, &mut d);
    if d.is_empty() {
        layout::compute(&mut m, &mut d);
    }
    if !d.is_empty() {
        return Err(fail(d.into_sorted()));
    }
    let Some(validated) = validate::check_functions(&mut m, &mut d) else {
        return Err(fail(d.into_sorted()));
    };
    if !options.keep_variables {
        promote::variables(&mut m);
    }
    let built = kernels::extract(&m);
    Ok(FrontEnd {
        module: m,
        built,
        max_lanes: options.max_lanes,
        min_lanes: options.min_lanes,
        wide_at_build: options.wide_at_build,
        sub_group_ifp: !options.no_subgroup_ifp,
        validated,
    })
}
