//! Code generation: a validated module ([`FrontEnd`]) to machine code in a
//! Cranelift [`JITModule`].
//!
//! [`compile`] declares one work-group function per kernel
//! ([`crate::lower::workgroup::kernel`]) and one helper function per other
//! SPIR-V function a kernel may call ([`crate::lower::workgroup::helper`]),
//! lowers every body ([`crate::lower`]), compiles the kernels and the
//! helpers that calls left after inlining still reach (`called_functions`;
//! each after `loop_bodies_first`), and finalizes the module. If any
//! kernel uses something the lowering does not support yet, the build fails
//! with a [`Diagnostic`] per problem, naming the instruction. What the
//! embedder decides (whether kernels may get 4-lane bodies, where debug
//! dumps go) arrives as a [`CodegenConfig`]: the jit reads no environment.
//! With a dump folder, every function's text forms go there
//! ([`crate::debug_dump`]).
//!
//! The runtime calls [`compile_kernels`] after a successful front end: it
//! compiles the kernels the lowering supports and reports the others.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::dominator_tree::DominatorTree;
use cranelift_codegen::flowgraph::ControlFlowGraph;
use cranelift_codegen::ir::{self, condcodes::IntCC, FuncRef, InstBuilder, InstructionData};
use cranelift_codegen::loop_analysis::LoopAnalysis;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module as _};
use spirv::ExecutionModel;

use crate::error::{BuildError, Diagnostic};
use crate::globals::ProgramData;
use crate::launch_abi::{KernelCode, WorkGroupFn};
use crate::lower::statics::Statics;
use crate::lower::{workgroup, Env};
use crate::spirv::Id;
use crate::validate::calls;
use crate::FrontEnd;

/// The most Cranelift instructions all the functions of one compiled module
/// may take together (each function: [`crate::lower::MAX_FUNCTION_INSTS`]).
const MAX_MODULE_INSTS: usize = 1 << 21;

/// What the embedder decides about code generation (the runtime's
/// configuration, `runtime/src/config.rs`, fills it in from its
/// environment variables).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodegenConfig {
    /// Whether kernels may get 4-lane bodies ([`crate::lower::simd`]); a
    /// build whose `-cl-clift-max-lanes` is below 4 gets none either way.
    pub simd: bool,
    /// The folder debug dumps go to ([`crate::debug_dump`]), if any.
    pub dump_dir: Option<PathBuf>,
    /// Whether the build leaves 8-lane bodies for later: it compiles
    /// kernels with 4-lane bodies, names those that would get an 8-lane
    /// one ([`CompiledProgram::wide_later`]), and [`compile_wide`] compiles
    /// them again with it, off the build's path. Ignored (8-lane bodies at
    /// the build) when the build asks for them (`-cl-clift-min-lanes=8`,
    /// `-cl-clift-wide-at-build`) or with `dump_dir`, whose dumps show the
    /// code that runs.
    pub wide_later: bool,
}

impl Default for CodegenConfig {
    /// 4-lane and 8-lane bodies where they can be made, at the build; no
    /// dumps.
    fn default() -> Self {
        CodegenConfig {
            simd: true,
            dump_dir: None,
            wide_later: false,
        }
    }
}

/// A module's kernels in machine code.
pub struct CompiledProgram {
    /// Owns the code; `None` only while dropping.
    module: Option<JITModule>,
    kernels: HashMap<String, KernelCode>,
    /// The program-scope variables the code addresses, shared with the
    /// program compiled from the same build by [`compile_wide`]; freed
    /// after the code (fields drop after `drop`).
    data: Arc<ProgramData>,
    /// What the build log should say about how the kernels were compiled
    /// (empty, or lines ending in a newline).
    notes: String,
    /// The kernels whose 8-lane bodies were left for [`compile_wide`].
    wide_later: Vec<String>,
}

impl CompiledProgram {
    /// The work-group function of kernel `name` and its memory needs. The
    /// function pointer is valid while `self` lives: do not call it after
    /// dropping the program.
    pub fn kernel(&self, name: &str) -> Option<KernelCode> {
        self.kernels.get(name).copied()
    }

    /// The names of the compiled kernels.
    pub fn kernel_names(&self) -> impl Iterator<Item = &str> {
        self.kernels.keys().map(String::as_str)
    }

    /// Lines for the build log: why the kernels run without 4-lane bodies
    /// when the module with them failed to compile (a code generator
    /// limit), else nothing.
    pub fn notes(&self) -> &str {
        &self.notes
    }

    /// The kernels that would have got an 8-lane body at the build had it
    /// not left them for later ([`CodegenConfig::wide_later`]): those
    /// [`compile_wide`] compiles.
    pub fn wide_later(&self) -> &[String] {
        &self.wide_later
    }
}

impl std::fmt::Debug for CompiledProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledProgram")
            .field("kernels", &self.kernels.keys().collect::<Vec<_>>())
            .finish()
    }
}

// SAFETY: shared references to a `CompiledProgram` only read `kernels`
// (plain function pointers and names); the `JITModule`, which is `Send` but
// not `Sync`, is touched only through `&mut self` (in `drop`). The code it
// owns is immutable once finalized, so work-group functions may run on any
// number of threads at once.
unsafe impl Sync for CompiledProgram {}

impl Drop for CompiledProgram {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the only pointers into the module's memory are the
            // work-group functions handed out by `kernel`, which callers
            // must not use after the program is dropped (documented there).
            unsafe { m.free_memory() };
        }
    }
}

fn header_diag(rule: String) -> BuildError {
    BuildError {
        diagnostics: vec![Diagnostic {
            word_offset: 0,
            opcode: None,
            result_id: None,
            name: None,
            rule,
        }],
    }
}

/// The host CPU's code generator, optimising at `opt_level`.
pub(crate) fn host_isa(opt_level: &str) -> Result<cranelift_codegen::isa::OwnedTargetIsa, BuildError> {
    let mut flags = settings::builder();
    let set = |f: &mut settings::Builder, k: &str, v: &str| {
        f.set(k, v)
            .map_err(|e| header_diag(format!("code generator setting {k}: {e}")))
    };
    set(&mut flags, "opt_level", opt_level)?;
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    // Function variables are stack slots of up to 16 MiB: a frame larger
    // than a page must touch every page on its way down, so that it meets
    // the thread's guard page instead of stepping over it into other memory.
    set(&mut flags, "enable_probestack", "true")?;
    // Generated code reads its frame pointer to tell private addresses
    // (lower/memory.rs).
    set(&mut flags, "preserve_frame_pointers", "true")?;
    set(&mut flags, "probestack_strategy", "inline")?;
    // A helper function (a call the inliner leaves: lower/inline.rs)
    // returns each component of its result type: more than the return
    // registers hold for a double4 or a char4, which Cranelift's calling
    // convention then returns through memory the caller provides.
    // Without it such a module's kernels could not run ("Too many return
    // values to fit in registers"): a call chain deeper than the
    // inliner's limit at -O0, or the 4-lane bodies of a module beyond its
    // budget, which then ran scalar.
    set(&mut flags, "enable_multi_ret_implicit_sret", "true")?;
    // The IR verifier costs about a tenth of a build; debug builds (and so
    // the test suite) keep it to catch lowering bugs early.
    set(
        &mut flags,
        "enable_verifier",
        if cfg!(debug_assertions) { "true" } else { "false" },
    )?;
    cranelift_native::builder()
        .map_err(|e| header_diag(format!("code generation for this CPU is not supported: {e}")))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| header_diag(format!("code generator: {e}")))
}

/// A JIT module for the host CPU, whose own compilation does not optimise:
/// [`define_needed`] optimises each function with [`Building::optimizer`]
/// first, then rewrites it ([`crate::invariant_loads`]), and the module's
/// second optimisation would undo that.
fn new_module() -> Result<JITModule, BuildError> {
    Ok(JITModule::new(JITBuilder::with_isa(
        host_isa("none")?,
        default_libcall_names(),
    )))
}

/// Compiles every kernel of `front` to a work-group function.
pub fn compile(front: &FrontEnd, config: &CodegenConfig) -> Result<CompiledProgram, BuildError> {
    let wide = wide_bodies(front, config);
    compile_selected(
        front,
        &|_| true,
        vectorize(front, config),
        config.dump_dir.as_deref(),
        wide,
        None,
    )
}

/// Whether `front`'s kernels may get 4-lane bodies: unless the build asked
/// for fewer lanes (`-cl-clift-max-lanes`) or `config` turns them off.
fn vectorize(front: &FrontEnd, config: &CodegenConfig) -> bool {
    front.max_lanes.is_none_or(|n| n >= 4) && config.simd
}

/// When kernels get their 8-lane bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wide {
    /// In this compilation.
    Now,
    /// In a later one ([`compile_wide`]): this compilation makes 4-lane
    /// bodies and lists the kernels that would have had an 8-lane one.
    Later,
}

/// When `front`'s kernels get 8-lane bodies under `config`
/// ([`CodegenConfig::wide_later`]).
fn wide_bodies(front: &FrontEnd, config: &CodegenConfig) -> Wide {
    let asked = front.min_lanes.is_some_and(|n| n >= 8) || front.wide_at_build;
    if config.wide_later && config.dump_dir.is_none() && !asked {
        Wide::Later
    } else {
        Wide::Now
    }
}

/// Compiles the kernels of `front` that code generation supports: the
/// program holding them, and each other kernel's name with the diagnostics
/// saying why it cannot be compiled. Never panics: a panic in the code
/// generator becomes a diagnostic.
pub fn compile_kernels(
    front: &FrontEnd,
    config: &CodegenConfig,
) -> (Option<CompiledProgram>, Vec<(String, BuildError)>) {
    on_codegen_thread(|| compile_kernels_here(front, config))
        .unwrap_or_else(|| (None, failed_all(front, "internal error: the code generator panicked")))
}

/// Compiles the 8-lane bodies that `narrow`'s build left for later
/// ([`CodegenConfig::wide_later`]): the kernels that
/// [`CompiledProgram::wide_later`] names, from the same `front`, into a
/// program that shares `narrow`'s program-scope variables, so that each
/// launch may run either program's code. `None` when there are none, or
/// when their module fails to compile or the code generator panics: the
/// kernels then keep `narrow`'s code, which computes the same results.
pub fn compile_wide(front: &FrontEnd, narrow: &CompiledProgram) -> Option<CompiledProgram> {
    if narrow.wide_later.is_empty() {
        return None;
    }
    let names: HashSet<&str> = narrow.wide_later.iter().map(String::as_str).collect();
    let keep = |k: &str| names.contains(k);
    let data = narrow.data.clone();
    on_codegen_thread(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile_selected(front, &keep, true, None, Wide::Now, Some(data.clone())).ok()
        }))
        .ok()
        .flatten()
    })
    .flatten()
}

/// Runs `f` on a thread whose stack is known to be large enough for
/// lowering, which recurses once per level of inlined calls (at most
/// `lower::inline::MAX_DEPTH`), whatever thread the application builds on.
/// The stack is reserved, not committed, so its size costs nothing unused.
/// `None` if `f` panicked there; `f` runs on the calling thread if no
/// thread can be started.
fn on_codegen_thread<T: Send>(f: impl Fn() -> T + Sync) -> Option<T> {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("clift-codegen".into())
            .stack_size(CODEGEN_STACK)
            .spawn_scoped(s, &f)
        {
            Ok(h) => h.join().ok(),
            // No thread could be started: run here.
            Err(_) => Some(f()),
        }
    })
}

/// The stack of the code generation thread.
const CODEGEN_STACK: usize = 64 << 20;

/// Every kernel of `front`, failed with `rule`.
fn failed_all(front: &FrontEnd, rule: &str) -> Vec<(String, BuildError)> {
    let e = header_diag(rule.into());
    front
        .built
        .kernels
        .iter()
        .map(|k| (k.name.clone(), e.clone()))
        .collect()
}

/// [`compile_kernels`] on the calling thread.
fn compile_kernels_here(
    front: &FrontEnd,
    config: &CodegenConfig,
) -> (Option<CompiledProgram>, Vec<(String, BuildError)>) {
    let dump_dir = config.dump_dir.as_deref();
    let wide = wide_bodies(front, config);
    let guarded_simd = |keep: &dyn Fn(&str) -> bool, vectorize: bool| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile_selected(front, keep, vectorize, dump_dir, wide, None)
        }))
        .unwrap_or_else(|_| Err(header_diag("internal error: the code generator panicked".into())))
    };
    let guarded = |keep: &dyn Fn(&str) -> bool| guarded_simd(keep, false);
    // The common case: everything compiles in one module, with 4-lane
    // bodies (unless the build or `config` says otherwise); failing that,
    // without them.
    let mut without_lanes = None;
    if vectorize(front, config) {
        match guarded_simd(&|_| true, true) {
            Ok(p) => return (Some(p), Vec::new()),
            // Every kernel compiles again without 4-lane bodies; the dump
            // says why, and the build log too if that succeeds.
            Err(e) => {
                let why = e.log();
                if let Some(root) = dump_dir {
                    crate::debug_dump::Dumper::new(root, &front.module).module_scalar_reason(&why);
                }
                without_lanes = Some(why);
            }
        }
    }
    let first = match guarded(&|_| true) {
        Ok(mut p) => {
            if let Some(why) = without_lanes {
                p.notes = without_lanes_note(&why);
            }
            return (Some(p), Vec::new());
        }
        Err(e) => e,
    };
    let names: Vec<&str> = front.built.kernels.iter().map(|k| k.name.as_str()).collect();
    if names.len() <= 1 {
        return (None, names.iter().map(|n| (n.to_string(), first.clone())).collect());
    }
    // Find the kernels that fail on their own, by halving the set that
    // fails (a module with many kernels and one bad one costs a few dozen
    // compilations, not one per kernel), then compile the others together.
    let mut failed = Vec::new();
    let mut failing = vec![(names.clone(), first)];
    while let Some((set, e)) = failing.pop() {
        if set.len() == 1 {
            failed.push((set[0].to_string(), e));
            continue;
        }
        let (a, b) = set.split_at(set.len() / 2);
        for half in [a, b] {
            let chosen: HashSet<&str> = half.iter().copied().collect();
            if let Err(e) = guarded(&|k| chosen.contains(k)) {
                failing.push((half.to_vec(), e));
            }
        }
    }
    failed.sort_by_key(|(n, _)| names.iter().position(|x| x == n));
    if failed.len() == names.len() {
        return (None, failed);
    }
    let bad: Vec<String> = failed.iter().map(|(n, _)| n.clone()).collect();
    let good = |k: &str| !bad.iter().any(|b| b == k);
    // The others keep their 4-lane bodies (the search compiled without
    // them, which is what tells a kernel that cannot run at all).
    let mut without_lanes = None;
    if vectorize(front, config) {
        match guarded_simd(&good, true) {
            Ok(p) => return (Some(p), failed),
            Err(e) => without_lanes = Some(e.log()),
        }
    }
    match guarded(&good) {
        Ok(mut p) => {
            if let Some(why) = without_lanes {
                p.notes = without_lanes_note(&why);
            }
            (Some(p), failed)
        }
        Err(e) => {
            let rest = names.iter().filter(|n| !bad.iter().any(|b| b == *n));
            failed.extend(rest.map(|n| (n.to_string(), e.clone())));
            (None, failed)
        }
    }
}

/// The build log's line when the kernels were compiled without 4-lane
/// bodies because the module with them failed to compile (`why`, the log
/// of that failure).
fn without_lanes_note(why: &str) -> String {
    format!("clift: the kernels run without 4-lane bodies, which failed to compile: {why}")
}

/// A JIT module being built: its memory is freed when it is dropped (an
/// error or a panic part-way), unless [`Building::finish`] hands it over.
struct Building {
    module: std::mem::ManuallyDrop<JITModule>,
    /// The same code generator as the module's, optimising for speed.
    optimizer: cranelift_codegen::isa::OwnedTargetIsa,
    finished: bool,
}

impl Building {
    fn new() -> Result<Building, BuildError> {
        Ok(Building {
            module: std::mem::ManuallyDrop::new(new_module()?),
            optimizer: host_isa("speed")?,
            finished: false,
        })
    }

    /// The module, whose code pointers are from now on the caller's.
    fn finish(mut self) -> JITModule {
        self.finished = true;
        // SAFETY: `module` is taken once: `finished` tells `drop` it is gone.
        unsafe { std::mem::ManuallyDrop::take(&mut self.module) }
    }
}

impl std::ops::Deref for Building {
    type Target = JITModule;
    fn deref(&self) -> &JITModule {
        &self.module
    }
}

impl std::ops::DerefMut for Building {
    fn deref_mut(&mut self) -> &mut JITModule {
        &mut self.module
    }
}

impl Drop for Building {
    fn drop(&mut self) {
        if !self.finished {
            // SAFETY: the module has not been finished, so nothing was handed
            // out of its memory; it is taken once, here.
            unsafe { std::mem::ManuallyDrop::take(&mut self.module).free_memory() };
        }
    }
}

/// The functions one compilation covers: the kernels `keep` accepts
/// (the index of their [`crate::kernels::KernelInfo`], name, function
/// index), the functions they call that are compiled on their own, and the
/// functions with barriers (always inlined into their kernels).
struct Selection<'a> {
    graph: Vec<Vec<(u32, u32)>>,
    kernels: Vec<(usize, &'a str, u32)>,
    helpers: BTreeSet<u32>,
    barrier_fns: HashSet<u32>,
    yields: crate::lower::progress::Yields,
}

impl<'a> Selection<'a> {
    fn new(front: &'a FrontEnd, keep: &dyn Fn(&str) -> bool) -> Selection<'a> {
        let m = &front.module;
        let graph = calls::call_graph(m);
        let kernels: Vec<(usize, &str, u32)> = m
            .entry_points
            .iter()
            .filter(|ep| ep.model == ExecutionModel::Kernel && keep(&ep.name))
            .filter_map(|ep| {
                let f = m.info(ep.function)?.index;
                let info = front.built.kernels.iter().position(|k| k.name == ep.name)?;
                Some((info, ep.name.as_str(), f))
            })
            .collect();
        let yields = crate::lower::progress::Yields::of(m, front.sub_group_ifp());
        let barrier_fns = crate::lower::barrier::barrier_functions(m, &yields);
        let mut helpers = BTreeSet::new();
        for &(_, _, f) in &kernels {
            helpers.extend(calls::reachable(&graph, f).into_iter().filter(|&g| g != f));
        }
        // A kernel called by another kernel is a helper too.
        for &(_, _, f) in &kernels {
            if graph.iter().flatten().any(|&(c, _)| c == f) {
                helpers.insert(f);
            }
        }
        helpers.retain(|f| !barrier_fns.contains(f));
        Selection {
            graph,
            kernels,
            helpers,
            barrier_fns,
            yields,
        }
    }
}

/// The declared functions: helpers by function index, and kernels (info
/// index, name, function index, id, signature).
struct Declared<'a> {
    helpers: HashMap<u32, (FuncId, ir::Signature)>,
    kernels: Vec<(usize, &'a str, u32, FuncId, ir::Signature)>,
}

/// Declares every helper and work-group function of `sel` in `module`.
fn declare<'a>(
    module: &mut JITModule,
    m: &crate::spirv::Module,
    sel: &Selection<'a>,
) -> Result<Declared<'a>, Vec<Diagnostic>> {
    let cc = module.isa().default_call_conv();
    let mut diags = Vec::new();
    let mut helpers = HashMap::new();
    for &f in &sel.helpers {
        let func = &m.functions[f as usize];
        match workgroup::helper_signature(m, func, cc) {
            Ok(sig) => match module.declare_function(&format!("spirv.{}", func.id), Linkage::Local, &sig) {
                Ok(id) => {
                    helpers.insert(f, (id, sig));
                }
                Err(e) => diags.push(m.diag(func.inst, format!("code generator: {e}"))),
            },
            Err(d) => diags.push(d),
        }
    }
    let mut kernels = Vec::new();
    for &(info, name, f) in &sel.kernels {
        let sig = workgroup::kernel_signature(cc);
        match module.declare_function(&format!("workgroup.{name}"), Linkage::Local, &sig) {
            Ok(id) => kernels.push((info, name, f, id, sig)),
            Err(e) => diags.push(m.diag(m.functions[f as usize].inst, format!("code generator: {e}"))),
        }
    }
    if diags.is_empty() {
        Ok(Declared { helpers, kernels })
    } else {
        Err(diags)
    }
}

/// One lowered function: its id, instruction, dump name and IR.
type Lowered = (FuncId, u32, String, ir::Function);

/// Every lowered function, and each kernel's private frame size by
/// function index.
type LoweredModule = (Vec<Lowered>, HashMap<u32, u64>);

/// What lowering every function of one compilation shares.
struct Lowerer<'a> {
    front: &'a FrontEnd,
    sel: &'a Selection<'a>,
    declared: &'a Declared<'a>,
    helper_refs: HashMap<Id, (u32, ir::Signature)>,
    statics: &'a Statics,
    /// What all the bodies have inlined and taken (bounds the whole
    /// module's work).
    inlined: std::cell::Cell<u64>,
    vectorize: bool,
    /// When kernels get their 8-lane bodies.
    wide: Wide,
    /// With [`Wide::Later`], the kernels lowered so far that would have
    /// had an 8-lane body.
    wide_later: std::cell::RefCell<Vec<String>>,
    dump: Option<crate::debug_dump::Dumper>,
}

impl Lowerer<'_> {
    /// Lowers every kernel, then every helper (kernels get the module's
    /// inlining budget first): the functions' IR, and each kernel's private
    /// frame size by function index.
    fn lower_all(&self, module: &mut JITModule) -> Result<LoweredModule, Vec<Diagnostic>> {
        let m = &self.front.module;
        let mut diags = Vec::new();
        let mut frames: HashMap<u32, u64> = HashMap::new();
        let mut total_insts = 0usize;
        let mut ctx = Context::new();
        let mut lowered_fns: Vec<Lowered> = Vec::new();
        let helpers = &self.declared.helpers;
        let jobs = self
            .declared
            .kernels
            .iter()
            .map(|(info, _, f, id, sig)| (Some(*info), *f, *id, sig.clone()))
            .chain(
                self.sel
                    .helpers
                    .iter()
                    .map(|&f| (None, f, helpers[&f].0, helpers[&f].1.clone())),
            );
        for (info, f, id, sig) in jobs {
            let func = &m.functions[f as usize];
            let dump_name = match info {
                Some(k) => self.front.built.kernels[k].name.clone(),
                None => format!("spirv.{}", func.id),
            };
            if let Some(d) = &self.dump {
                d.spirv(&dump_name, m, func);
            }
            ctx.clear();
            ctx.func.signature = sig;
            match self.lower(module, &mut ctx, info, f, &dump_name) {
                Ok(frame) => {
                    if info.is_some() {
                        frames.insert(f, frame);
                    }
                }
                Err(d) => {
                    diags.push(d);
                    continue;
                }
            }
            total_insts += ctx.func.dfg.num_insts();
            if total_insts > MAX_MODULE_INSTS {
                diags.push(m.diag(
                    func.inst,
                    format!("the kernels take more than {MAX_MODULE_INSTS} Cranelift instructions, which code generation does not support"),
                ));
                break;
            }
            if let Some(d) = &self.dump {
                d.clif(&dump_name, &ctx.func, false);
            }
            lowered_fns.push((
                id,
                func.inst,
                dump_name,
                std::mem::replace(&mut ctx.func, ir::Function::new()),
            ));
        }
        if diags.is_empty() {
            Ok((lowered_fns, frames))
        } else {
            Err(diags)
        }
    }

    /// Lowers function `f` (kernel `info`, or a helper) into `ctx.func`,
    /// whose signature is set: a kernel gets a 4-lane body when it may
    /// ([`crate::lower::simd`]); should that fail to lower or to verify, it
    /// is lowered again without one. Returns a kernel's frame size.
    fn lower(
        &self,
        module: &mut JITModule,
        ctx: &mut Context,
        info: Option<usize>,
        f: u32,
        dump_name: &str,
    ) -> Result<u64, Diagnostic> {
        let m = &self.front.module;
        let func = &m.functions[f as usize];
        let mut callees: HashMap<Id, FuncRef> = HashMap::new();
        for &(c, _) in &self.sel.graph[f as usize] {
            if let Some((cid, _)) = self.declared.helpers.get(&c) {
                let r = module.declare_func_in_func(*cid, &mut ctx.func);
                callees.insert(m.functions[c as usize].id, r);
            }
        }
        let wants_scalar_lanes = std::cell::Cell::new(false);
        let narrow_by_estimate = std::cell::Cell::new(false);
        // An 8-lane body unless the build asked for at most 4 lanes.
        let may_widen = self.front.max_lanes.is_none_or(|n| n >= 8);
        let mut env = Env {
            m,
            validated: self.front.validated(),
            callees: &callees,
            helpers: &self.helper_refs,
            statics: self.statics,
            barrier_fns: &self.sel.barrier_fns,
            yields: &self.sel.yields,
            inlined: &self.inlined,
            scalar_lanes: false,
            wants_scalar_lanes: &wants_scalar_lanes,
            keep_lanes: self.front.min_lanes.is_some_and(|n| n >= 4),
            wide: may_widen && self.wide == Wide::Now,
            keep_wide: self.front.min_lanes.is_some_and(|n| n >= 8),
            narrow_by_estimate: &narrow_by_estimate,
        };
        let mut simd = info.is_some() && self.vectorize;
        if simd {
            if let Err(why) = crate::lower::simd::analysis::eligible(m, f, &self.sel.yields) {
                self.scalar_reason(dump_name, &why);
                simd = false;
            }
        }
        if let (true, false, Some(d), Some(n)) = (simd, env.wide, &self.dump, self.front.max_lanes) {
            let why = format!("the build asked for at most {n} lanes (-cl-clift-max-lanes={n})");
            d.narrow_reason(dump_name, &why);
        }
        let template = ctx.func.clone();
        let inlined_before = self.inlined.get();
        let frontend_config = module.isa().frontend_config();
        loop {
            ctx.func = template.clone();
            // A fresh builder context per function: a failed lowering
            // leaves its builder unfinished.
            let mut fbc = FunctionBuilderContext::new();
            let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
            let lowered = match info {
                Some(k) => workgroup::kernel(env, func, &self.front.built.kernels[k], &mut b, simd),
                None => workgroup::helper(env, func, &mut b).map(|()| 0),
            };
            let retry = match &lowered {
                Ok(_) => {
                    b.seal_all_blocks();
                    b.finalize(frontend_config);
                    match simd.then(|| cranelift_codegen::verify_function(&ctx.func, module.isa())) {
                        Some(Err(e)) => Some(format!(
                            "the 4-lane body failed verification: {e}\n{}",
                            ctx.func.display()
                        )),
                        _ => None,
                    }
                }
                Err(e) if simd => Some(e.to_string()),
                Err(_) => None,
            };
            // A 4-lane body whose loops move values between vectors and
            // scalars per lane: lowered again holding every value per
            // lane (`simd::Chunk::prefers_scalar_lanes`).
            if retry.is_some() && wants_scalar_lanes.replace(false) && !env.scalar_lanes {
                if let (Some(d), Some(why)) = (&self.dump, &retry) {
                    d.lanes_reason(dump_name, why);
                    // Eight chains of scalars per lane take more registers
                    // than the core has: four are faster (clbench's hash).
                    if env.wide && !env.keep_wide {
                        d.narrow_reason(dump_name, "a body holding its values as scalars per lane is estimated faster with 4 lanes than with 8");
                    }
                }
                env.scalar_lanes = true;
                env.wide &= env.keep_wide;
                self.inlined.set(inlined_before);
                continue;
            }
            // An 8-lane body that could not be made: lowered again with
            // the 4-lane body alone (values in vectors first).
            if let (Some(why), true) = (&retry, env.wide) {
                if let Some(d) = &self.dump {
                    d.narrow_reason(dump_name, why);
                }
                env.wide = false;
                env.scalar_lanes = false;
                self.inlined.set(inlined_before);
                continue;
            }
            match retry {
                Some(why) => {
                    self.scalar_reason(dump_name, &why);
                    self.inlined.set(inlined_before);
                    simd = false;
                }
                None => {
                    // A 4-lane body that would have had an 8-lane one had
                    // the build not left it for later (the estimates that
                    // keep 4 lanes said nothing).
                    if simd && may_widen && self.wide == Wide::Later && !env.scalar_lanes && !narrow_by_estimate.get() {
                        self.wide_later.borrow_mut().push(dump_name.to_string());
                    }
                    return lowered;
                }
            }
        }
    }

    /// Notes in the dump, if any, why a kernel got no 4-lane body.
    fn scalar_reason(&self, dump_name: &str, why: &str) {
        if let Some(d) = &self.dump {
            d.scalar_reason(dump_name, why);
        }
    }
}

/// Machine code for the kernels and the helpers some call still goes to
/// (calls the lowering inlined leave none): clang's kernel wrappers make
/// every -O2 kernel a helper too, and compiling it for nothing would double
/// the build time.
fn define_needed(
    module: &mut JITModule,
    optimizer: &dyn cranelift_codegen::isa::TargetIsa,
    m: &crate::spirv::Module,
    declared: &Declared,
    lowered_fns: Vec<Lowered>,
    dump: Option<&crate::debug_dump::Dumper>,
) -> Result<(), Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let mut ctx = Context::new();
    let needed = called_functions(&lowered_fns, declared.kernels.iter().map(|k| k.3));
    for (id, inst, dump_name, func) in lowered_fns {
        if !needed.contains(&id) {
            continue;
        }
        ctx.clear();
        ctx.set_disasm(dump.is_some());
        ctx.func = func;
        loop_bodies_first(&mut ctx.func);
        let defined = match ctx.optimize(optimizer, &mut Default::default()) {
            Ok(()) => {
                crate::invariant_loads::read_invariants_from_memory(&mut ctx.func);
                module.define_function(id, &mut ctx)
            }
            Err(e) => Err(cranelift_module::ModuleError::Compilation(e)),
        };
        if let Err(e) = defined {
            diags.push(m.diag(inst, format!("code generator: {e:?}")));
        } else if let Some(d) = dump {
            // `compile` rewrote `ctx.func` in place: it is the optimised IR.
            d.clif(&dump_name, &ctx.func, true);
            if let Some(code) = ctx.compiled_code() {
                d.machine(&dump_name, code);
            }
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// Compiles the kernels of `front` whose names `keep` accepts.
///
/// With `vectorize`, kernels that may get a 4-lane body ([`crate::lower::simd`]),
/// and an 8-lane one when `wide` says now; with `dump_dir`, debug dumps
/// there; with `data`, the program-scope variables of an earlier
/// compilation of the same module, else new ones.
fn compile_selected(
    front: &FrontEnd,
    keep: &dyn Fn(&str) -> bool,
    vectorize: bool,
    dump_dir: Option<&Path>,
    wide: Wide,
    data: Option<Arc<ProgramData>>,
) -> Result<CompiledProgram, BuildError> {
    // Cranelift folds float constants with host arithmetic: in OpenCL's
    // rounding and denormal modes, not the building thread's.
    let _env = crate::OpenClFpEnv::enter();
    let m = &front.module;
    let fail = |diagnostics: Vec<Diagnostic>| BuildError { diagnostics };
    let at = |(id, rule)| fail(vec![m.diag_id(id, rule)]);
    let mut module = Building::new()?;
    let sel = Selection::new(front, keep);
    let mut statics = Statics::layout_locals(m).map_err(at)?;
    // Program-scope variables: storage the program owns (crate::globals).
    let data = match data {
        Some(d) => d,
        None => Arc::new(ProgramData::new(m).map_err(at)?),
    };
    statics.global_addresses = data.addresses().clone();
    let declared = declare(&mut module, m, &sel).map_err(fail)?;
    let lowerer = Lowerer {
        front,
        sel: &sel,
        declared: &declared,
        helper_refs: declared
            .helpers
            .iter()
            .map(|(&f, (id, sig))| (m.functions[f as usize].id, (id.as_u32(), sig.clone())))
            .collect(),
        statics: &statics,
        inlined: std::cell::Cell::new(0),
        vectorize,
        wide,
        wide_later: std::cell::RefCell::new(Vec::new()),
        // Debug dumps: the module's text forms, per function (debug_dump.rs).
        dump: dump_dir.map(|root| crate::debug_dump::Dumper::new(root, m)),
    };
    let (lowered_fns, frames) = lowerer.lower_all(&mut module).map_err(fail)?;
    let optimizer = module.optimizer.clone();
    define_needed(
        &mut module,
        &*optimizer,
        m,
        &declared,
        lowered_fns,
        lowerer.dump.as_ref(),
    )
    .map_err(fail)?;
    module
        .finalize_definitions()
        .map_err(|e| header_diag(format!("code generator: {e}")))?;
    let module = module.finish();
    let mut table = HashMap::new();
    for &(info, name, f_index, id, _) in &declared.kernels {
        let code = module.get_finalized_function(id);
        // SAFETY: `id` was defined with `kernel_signature`, one pointer-sized
        // integer parameter and no results in the ISA's default (C) calling
        // convention, which is `extern "C" fn(*const WorkGroupCtx)`.
        let f = unsafe { std::mem::transmute::<*const u8, WorkGroupFn>(code) };
        table.insert(
            name.to_string(),
            KernelCode {
                func: f,
                local_static: if front.built.kernels[info].local_mem_size > 0 {
                    statics.local_size
                } else {
                    0
                },
                private_frame: frames.get(&f_index).copied().unwrap_or(0),
            },
        );
    }
    Ok(CompiledProgram {
        module: Some(module),
        kernels: table,
        data,
        notes: String::new(),
        wide_later: lowerer.wide_later.take(),
    })
}

/// Makes Cranelift's loop-invariant code motion see every loop.
///
/// Cranelift hoists a pure value (arithmetic, and loads marked
/// `readonly can_move` such as the work-group context's fields and the
/// kernel's arguments) out of a loop while it walks the dominator tree
/// with a stack of the loops it is in. It only pops that stack, when it
/// meets a block outside the innermost loop, and visits a block's
/// dominator-tree children in CFG reverse postorder, which lists the
/// *first* target of a `brif` after the second. So for `brif more, body,
/// exit` it visits `exit` first, leaves the loop for good, and hoists
/// nothing out of `body`: in a kernel, the group's base id, the argument
/// loads and the bounds were recomputed for every work-item.
///
/// This rewrites every `brif c, deeper, shallower` whose first target is
/// in more loops than its second into `brif (c == 0), shallower, deeper`
/// (the optimiser folds the comparison into the one computing `c`), so
/// loop bodies come before loop exits.
pub(crate) fn loop_bodies_first(func: &mut ir::Function) {
    let cfg = ControlFlowGraph::with_function(func);
    let domtree = DominatorTree::with_function(func, &cfg);
    let mut loops = LoopAnalysis::new();
    loops.compute(func, &cfg, &domtree);
    if loops.loops().next().is_none() {
        return;
    }
    let blocks: Vec<ir::Block> = func.layout.blocks().collect();
    for block in blocks {
        let Some(inst) = func.layout.last_inst(block) else {
            continue;
        };
        let InstructionData::Brif {
            opcode,
            arg,
            blocks: [then_call, else_call],
        } = func.dfg.insts[inst]
        else {
            continue;
        };
        let then_block = then_call.block(&func.dfg.value_lists);
        let else_block = else_call.block(&func.dfg.value_lists);
        if loops.loop_level(then_block).level() <= loops.loop_level(else_block).level() {
            continue;
        }
        let mut pos = FuncCursor::new(func).at_inst(inst);
        let not = pos.ins().icmp_imm_u(IntCC::Equal, arg, 0);
        func.dfg.insts[inst] = InstructionData::Brif {
            opcode,
            arg: not,
            blocks: [else_call, then_call],
        };
    }
}

/// The functions of `lowered` that `roots` reach through the call
/// instructions left in their IR.
fn called_functions(
    lowered: &[(FuncId, u32, String, ir::Function)],
    roots: impl Iterator<Item = FuncId>,
) -> BTreeSet<FuncId> {
    let bodies: HashMap<FuncId, &ir::Function> = lowered.iter().map(|(id, _, _, f)| (*id, f)).collect();
    let mut seen: BTreeSet<FuncId> = BTreeSet::new();
    let mut work: Vec<FuncId> = roots.collect();
    while let Some(id) = work.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(func) = bodies.get(&id) else {
            continue;
        };
        for block in func.layout.blocks() {
            for inst in func.layout.block_insts(block) {
                let InstructionData::Call { func_ref, .. } = func.dfg.insts[inst] else {
                    continue;
                };
                if let ir::ExternalName::User(name) = &func.dfg.ext_funcs[func_ref].name {
                    let callee = FuncId::from_u32(func.params.user_named_funcs()[*name].index);
                    if !seen.contains(&callee) {
                        work.push(callee);
                    }
                }
            }
        }
    }
    seen
}
