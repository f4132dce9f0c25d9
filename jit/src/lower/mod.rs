//! SPIR-V function bodies to Cranelift IR.
//!
//! - **Values.** SPIR-V is already SSA: every result id maps to Cranelift
//!   values, a list per id since vectors, structs and arrays are flattened
//!   into scalars ([`types`]). Constants are materialized where they are
//!   used (Cranelift's GVN merges duplicates); OpUndef is zero.
//! - **Blocks.** One Cranelift block per reachable OpLabel, created up front
//!   with one block parameter per component of each OpPhi, so a branch passes
//!   the phi operands for its own block as block arguments. Blocks are
//!   lowered in reverse postorder, so a definition is always lowered before
//!   its uses (the front end guarantees dominance). Cranelift `Variable`s
//!   appear only for values kept across barriers ([`barrier`]).
//! - **Function variables** are stack slots; loads and stores go through
//!   their addresses like any other pointer (Physical64: every pointer is an
//!   `i64`).
//! - **Work-items.** A kernel entry point is lowered *inside* the work-group
//!   loops of [`workgroup`]: built-in variables are computed, when loaded,
//!   from the [`crate::launch_abi::WorkGroupCtx`] (whose fields are loaded
//!   once, at the function's entry) and the loop indices, and OpReturn
//!   continues with the next work-item.
//! - **Calls** are inlined (`inline.rs`); past the inlining budget, a call
//!   goes to a separately compiled helper taking a hidden
//!   [`crate::launch_abi::WorkItem`] address first, from which it computes
//!   built-ins.
//! - **Barriers.** A kernel with OpControlBarrier runs its work-items in
//!   resumable phases with per-work-item frames ([`barrier`]); the rest of
//!   the lowering is the same.
//! - **Module-scope variables** sit where [`statics::Statics`] puts them.
//! - **Errors.** Whatever is not supported yet becomes a [`Diagnostic`] at
//!   the instruction (word offset, opcode); nothing panics.

mod arith;
mod atomics;
pub mod barrier;
pub(crate) mod builtins;
mod collective;
mod composite;
mod convert;
mod enqueue;
mod ext_inst;
pub mod frame;
pub(crate) mod half;
mod image;
mod inline;
pub(crate) mod memory;
mod non_uniform;
mod pipes;
pub mod progress;
mod relational;
mod remat;
mod schedule;
pub mod simd;
pub mod statics;
pub mod types;
mod vector;
pub mod workgroup;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use cranelift_codegen::ir::{
    immediates::{Ieee32, Ieee64},
    types as cl, Block, BlockArg, ExtFuncData, ExternalName, FuncRef, Inst, InstBuilder, MemFlagsData, Signature,
    StackSlot, Type as Clif, UserExternalName, Value,
};
use cranelift_frontend::{FunctionBuilder, Switch};
use spirv::Op;

use self::statics::Statics;

use crate::error::Diagnostic;
use crate::spirv::{ConstValue, Function, Id, IdKind, Module};
use crate::validate::{Checked, Validated};

/// The most Cranelift instructions one function (with what is inlined into
/// it) may take: aggregates are scalarized, so a small module could
/// otherwise ask for millions (a 1,024-element constant stored many times).
pub const MAX_FUNCTION_INSTS: usize = 1 << 19;

/// Whether instruction `op` emits no code where it stands: phis (block
/// parameters, made up front), merge and debug annotations, lifetime
/// markers and OpUndef (materialized where used).
pub(crate) fn lowers_to_nothing(op: Op) -> bool {
    matches!(
        op,
        Op::Phi
            | Op::SelectionMerge
            | Op::LoopMerge
            | Op::Nop
            | Op::Line
            | Op::NoLine
            | Op::LifetimeStart
            | Op::LifetimeStop
            | Op::Undef
    )
}

/// What OpReturn does in the function being lowered.
#[derive(Debug, Clone, Copy)]
pub enum Exit {
    /// A kernel body inside the work-group loops: jump to this block, which
    /// goes on with the next work-item.
    NextWorkItem(Block),
    /// A helper function: return.
    Return,
    /// A body inlined into its caller: jump to this block, whose parameters
    /// take the returned value's components.
    Inline(Block),
}

/// The work-item a body runs as: values available everywhere in the body.
#[derive(Debug, Clone, Copy)]
pub struct WorkItemValues {
    /// The `*const WorkGroupCtx`.
    pub ctx: Value,
    /// get_local_id(0..3), as `i64`.
    pub local_id: [Value; 3],
    /// The `*const WorkItem` passed to helper functions: a slot of the
    /// work-group function's stack frame (also how private addresses are
    /// told apart, see `memory`).
    pub item: Value,
    /// Every 8-byte word of the `WorkGroupCtx`, loaded once at the function's
    /// entry (what the optimiser does not use, it removes).
    pub ctx_words: [Value; CTX_WORDS],
    /// The work-group function's frame pointer (`i64`): the top of the
    /// stack memory private to the work-item.
    pub frame_top: Value,
}

/// The number of 8-byte words of a `WorkGroupCtx`.
pub const CTX_WORDS: usize = std::mem::size_of::<crate::launch_abi::WorkGroupCtx>() / 8;

/// Loads every word of the context at `ctx` (flags: [`ctx_flags`]: the
/// optimiser removes the loads nothing uses).
pub fn preload_ctx(b: &mut FunctionBuilder, ctx: Value) -> [Value; CTX_WORDS] {
    std::array::from_fn(|k| b.ins().load(cl::I64, ctx_flags(), ctx, 8 * k as i32))
}

/// How a kernel with barriers enters its body (see [`barrier`]).
#[derive(Debug, Clone, Copy)]
pub struct FrameEntry {
    /// The address of this work-item's frame.
    pub base: Value,
    /// The work-item's resume state (`i32`): 0 to start.
    pub state: Value,
    /// A one-byte stack slot set to 1 when a work-item stops at a barrier
    /// (or collective) of its work-group.
    pub pending: StackSlot,
    /// A one-byte stack slot set to 1 when a work-item stops at a barrier
    /// (or collective) of its sub-group.
    pub pending_sub: StackSlot,
    /// Whether this phase is a sub-group phase (`i8`, 0 or 1): only the
    /// work-items waiting at a sub-group point resume.
    pub sub_phase: Value,
    /// A 4-byte stack slot counting down the passes through yield points
    /// to the next yield (`progress::YIELD_EVERY`).
    pub spins: StackSlot,
    /// An 8-byte stack slot numbering the phases from 1.
    pub phase_count: StackSlot,
    /// The `iconst` of the frame size, which `lower_body` sets once every
    /// inlined body has taken its share.
    pub size: Inst,
    /// The block the work-item block jumps to, which `lower_body` fills
    /// with the dispatch on `state`.
    pub dispatch: Block,
    /// Where the next work-item starts (a barrier yields there).
    pub next: Block,
}

/// Flags for loads from the launch context: it is valid, aligned and
/// unchanged while the work-group function runs, so the loads may move
/// (out of the work-item loops, once `codegen`'s `loop_bodies_first` lets
/// Cranelift see them) or go if unused.
pub fn ctx_flags() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly().with_can_move()
}

/// Bytes of stack a generated function's private variables may take.
pub const MAX_STACK: u64 = 1 << 20;

/// The vector registers the values carried around a loop may take in an
/// 8-lane body (both parts) before the kernel gets a 4-lane body instead,
/// if they fit in a 4-lane one (`simd::analysis::loop_registers`):
/// x86-64's 16 less two for the constants and temporaries. Measured with
/// vector types of 4, 8 and 16 components in a loop of multiply-adds
/// (criterion `peak_vector`, README).
pub const WIDE_LOOP_REGISTERS: usize = 14;

/// What every body of a module is lowered with.
#[derive(Debug, Clone, Copy)]
pub struct Env<'a> {
    /// The module.
    pub m: &'a Module,
    /// The validator's evidence for `m`: how the lowering reads its
    /// instructions (`Lowering::at`, [`Validated::inst`]).
    pub validated: &'a Validated,
    /// The Cranelift function of each SPIR-V function the body may call
    /// without inlining it.
    pub callees: &'a HashMap<Id, FuncRef>,
    /// Every helper function of the module, by SPIR-V id: its
    /// `cranelift_module::FuncId` (as `u32`) and signature, for the calls
    /// `callees` lacks (those in inlined bodies, left uninlined once the
    /// budget is spent), which are imported at the call.
    pub helpers: &'a HashMap<Id, (u32, Signature)>,
    /// Where module-scope variables live.
    pub statics: &'a Statics,
    /// The functions (by index) that contain a barrier or call one that
    /// does: always inlined into kernels.
    pub barrier_fns: &'a HashSet<u32>,
    /// Where work-items yield to the rest of their group (`progress`).
    pub yields: &'a progress::Yields,
    /// SPIR-V instructions inlined into all the bodies of the module so
    /// far (see `inline::MODULE_BUDGET`).
    pub inlined: &'a std::cell::Cell<u64>,
    /// Whether 4-lane bodies hold every value that is not a boolean as
    /// scalars per lane ([`simd::Chunk::scalar_lanes`]).
    pub scalar_lanes: bool,
    /// Set by a 4-lane body that should be lowered again with
    /// `scalar_lanes` ([`simd::Chunk::prefers_scalar_lanes`]).
    pub wants_scalar_lanes: &'a std::cell::Cell<bool>,
    /// Whether a 4-lane body is kept even when it would do more lane by
    /// lane than as vectors (`-cl-clift-min-lanes`).
    pub keep_lanes: bool,
    /// Whether a kernel without barriers gets an 8-lane body (two 4-lane
    /// parts per chunk, [`simd::Part`]) before its 4-lane one.
    pub wide: bool,
    /// Whether an 8-lane body is kept even where clift estimates the
    /// 4-lane one faster (`-cl-clift-min-lanes=8`).
    pub keep_wide: bool,
    /// Set when a body has what makes clift estimate its 4-lane form
    /// faster than its 8-lane one, whether or not it is being lowered
    /// with 8 lanes (a build that leaves 8-lane bodies for later lists the
    /// kernels that would get one).
    pub narrow_by_estimate: &'a std::cell::Cell<bool>,
}

/// Lowers the body of `func` into `b`, whose current block must be
/// unterminated: it jumps from there to the body's entry block (or, for a
/// kernel with barriers, to `frame.dispatch`). `params` holds the values of
/// the function's parameters. Calls are inlined (`inline.rs`) within a
/// budget, and always when the callee has a barrier.
pub fn lower_body(
    env: Env,
    func: &Function,
    b: &mut FunctionBuilder,
    wi: WorkItemValues,
    exit: Exit,
    params: Vec<Vec<Value>>,
    frame: Option<FrameEntry>,
    chunk: Option<simd::Chunk>,
) -> Result<Lowered, Diagnostic> {
    let m = env.m;
    let simd = chunk.is_some().then(Box::default);
    let parts = chunk.as_ref().map_or(1, |c| c.parts);
    let kernel = Rc::new(RefCell::new(KernelState {
        frame: frame.map(barrier::FrameState::new),
        inlined: 0,
        stack_bytes: 0,
        calls_helpers: false,
        simd: chunk,
    }));
    let mut l = Lowering {
        m,
        b,
        env,
        wi,
        body: BodyState::new(func, exit, 0),
        values: HashMap::new(),
        kernel: kernel.clone(),
        frame: barrier::BodyFrame::default(),
        simd,
    };
    l.begin_parts(parts).map_err(|r| m.diag(func.inst, r))?;
    let entry = l.lower_function(params, frame.map(|f| f.dispatch))?;
    let frame_size = match frame {
        Some(fr) => l.finish_frame(fr, entry).map_err(|r| m.diag(func.inst, r))?,
        None => 0,
    };
    let calls_helpers = kernel.borrow().calls_helpers;
    if kernel.borrow().simd.as_ref().is_some_and(|c| c.prefers_scalar_lanes()) {
        env.wants_scalar_lanes.set(true);
        return Err(m.diag(
            func.inst,
            "the 4-lane body's loops move values between vectors and scalars per lane: lowered again with scalars per lane",
        ));
    }
    if let Some(c) = kernel
        .borrow()
        .simd
        .as_ref()
        .filter(|c| !c.worth_it() && !env.keep_lanes)
    {
        return Err(m.diag(
            func.inst,
            format!(
                "the 4-lane body would run {} instructions lane by lane and only {} as vectors: kept scalar",
                c.lane_ops, c.vector_ops
            ),
        ));
    }
    Ok(Lowered {
        frame_size,
        calls_helpers,
    })
}

/// What lowering a body found out.
#[derive(Debug, Clone, Copy)]
pub struct Lowered {
    /// Bytes of frame per work-item (0 unless a kernel with barriers).
    pub frame_size: u64,
    /// Whether the body calls a helper function (a call not inlined).
    pub calls_helpers: bool,
}

/// What the body of a kernel and the bodies inlined into it share.
pub(crate) struct KernelState {
    /// The frame of a kernel with barriers.
    pub frame: Option<barrier::FrameState>,
    /// SPIR-V instructions inlined so far.
    pub inlined: u64,
    /// Bytes of stack slots the body's private variables take so far.
    pub stack_bytes: u64,
    /// Whether a call was not inlined.
    pub calls_helpers: bool,
    /// For the 4-lane body of a kernel: what its bodies share.
    pub simd: Option<simd::Chunk>,
}

/// Which body is being lowered and where the lowering stands in it: the
/// function, what its OpReturn does, its blocks, the block being lowered,
/// and its depth in inlined calls.
pub(crate) struct BodyState<'a> {
    pub func: &'a Function,
    pub exit: Exit,
    /// The Cranelift block of each SPIR-V block (None if unreachable).
    pub blocks: Vec<Option<Block>>,
    /// The label of the block being lowered.
    pub label: Id,
    /// How deep in inlined calls this body is (0 for the function itself).
    pub depth: u32,
}

impl<'a> BodyState<'a> {
    /// The state of `func` before its first block, lowered `depth` calls
    /// deep, whose OpReturn does `exit`.
    pub fn new(func: &'a Function, exit: Exit, depth: u32) -> Self {
        BodyState {
            func,
            exit,
            blocks: vec![None; func.blocks.len()],
            label: 0,
            depth,
        }
    }
}

/// The state of one body's lowering, by concern: what every body of the
/// kernel reads (`m`, `env`, `wi`) and the builder; which body this is
/// (`body`); the scalar values of its ids (`values`); what it shares with
/// the kernel it is inlined into (`kernel`); its barrier frame (`frame`);
/// its 4-lane state (`simd`).
pub(crate) struct Lowering<'a, 'b, 'f> {
    pub m: &'a Module,
    pub b: &'b mut FunctionBuilder<'f>,
    pub env: Env<'a>,
    pub wi: WorkItemValues,
    /// Which body this is and where the lowering stands in it.
    pub body: BodyState<'a>,
    /// The Cranelift values of each SPIR-V result id.
    pub values: HashMap<Id, Vec<Value>>,
    /// State shared with the kernel this body is (inlined into).
    pub kernel: Rc<RefCell<KernelState>>,
    /// What this body keeps in the work-item's frame across barriers.
    pub frame: barrier::BodyFrame,
    /// The 4-lane state of a body lowered for chunks of work-items
    /// ([`simd`]); None for the scalar body.
    pub simd: Option<Box<simd::Body>>,
}

type R<T = ()> = Result<T, String>;

impl<'a> Lowering<'a, '_, '_> {
    /// Instruction `i` of the module, with the operands and result its
    /// grammar requires read without checking again what validation proved
    /// ([`Checked`]).
    pub(crate) fn at(&self, i: u32) -> Checked<'a> {
        self.env.validated.inst(self.m, i)
    }

    /// The result type of value `id`, which validation proved it has
    /// ([`Validated::type_of`]).
    pub(crate) fn type_of(&self, id: Id) -> Id {
        self.env.validated.type_of(self.m, id)
    }
}

impl Lowering<'_, '_, '_> {
    /// Lowers this body: its parameters take `params`; the current block
    /// jumps to its entry block (or to `jump_to` instead, when given).
    /// Returns the entry block.
    pub(crate) fn lower_function(
        &mut self,
        params: Vec<Vec<Value>>,
        jump_to: Option<Block>,
    ) -> Result<Block, Diagnostic> {
        let (m, func) = (self.m, self.body.func);
        for (&p, v) in func.params.iter().zip(params) {
            if !self.is_varying(p) {
                self.values.insert(p, v);
            }
        }
        if self.simd.is_some() {
            let fx = self.kernel.borrow().simd.as_ref().map(|c| c.fn_effects.clone());
            let fx = fx.ok_or_else(|| m.diag(func.inst, "a 4-lane body without its kernel's state"))?;
            let flags: Vec<bool> = func.params.iter().map(|&p| self.is_varying(p)).collect();
            // The phis where masked regions and loops end vary; which
            // branches vary depends on which values do: until neither
            // grows.
            let phis_of = |b: u32| -> Vec<Id> {
                func.blocks[b as usize]
                    .body()
                    .map(|i| &m.insts[i as usize])
                    .take_while(|inst| inst.op == Op::Phi)
                    .filter_map(|inst| inst.result_id)
                    .collect()
            };
            let mut also: Vec<Id> = Vec::new();
            let (may_vary, regions, dags, loops) = loop {
                let may_vary = simd::analysis::may_vary(m, func, &flags, &also);
                let mut regions = simd::analysis::regions(m, func, &may_vary);
                let dags = simd::dag::dags(m, func, &may_vary, &regions);
                // A branch inside a DAG region is lowered with it.
                regions.retain(|r| !dags.iter().any(|d| d.inside[r.head as usize]));
                let loops = simd::analysis::masked_loops(m, func, &may_vary, &regions, &dags)
                    .map_err(|r| m.diag(func.inst, r))?;
                let mut more: Vec<Id> = regions
                    .iter()
                    .map(|r| r.merge)
                    .chain(loops.iter().map(|l| l.exit))
                    .chain(dags.iter().flat_map(|d| {
                        // Not an inner loop's header entered by one edge:
                        // its phis take that edge's values as they are
                        // (and vary only if those do).
                        d.blocks
                            .iter()
                            .copied()
                            .filter(|&b| !d.loops.iter().any(|l| l.header == b && l.entries(func) == 1))
                            .chain([d.merge])
                    }))
                    .flat_map(phis_of)
                    .chain(simd::analysis::masked_stores(m, func, &regions, &loops, &dags))
                    .filter(|p| !may_vary.contains(p))
                    .collect();
                more.sort_unstable();
                more.dedup();
                if more.is_empty() {
                    break (may_vary, regions, dags, loops);
                }
                also.append(&mut more);
            };
            let dirty_in = simd::analysis::dirty_blocks(m, func, &fx);
            let in_cycle = simd::analysis::in_cycle(func);
            let mut counters = simd::analysis::counters(m, func, &may_vary);
            // The phis of a DAG region's blocks (loop headers inside it
            // included) take their values from its variables: no counters.
            for d in &dags {
                for &b in &d.blocks {
                    for p in phis_of(b) {
                        counters.remove(&p);
                    }
                }
            }
            // Nor those of a masked loop's exit block (another loop's
            // header, after a tail): each lane's value comes from the
            // iteration it left in.
            for l in &loops {
                for p in phis_of(l.exit) {
                    counters.remove(&p);
                }
            }
            // Loops carrying many vector values (a float8, an int8 ...):
            // two parts' values do not fit in x86-64's 16 vector
            // registers where one part's do, and the spills cost more than
            // the second part's chains gain. (When one part's do not fit
            // either, both bodies spill, and measured, neither is
            // reliably faster: the 8-lane body stays.)
            let carried = simd::analysis::loop_registers(m, func, &may_vary, &counters);
            let crowded = carried * 2 > WIDE_LOOP_REGISTERS && carried <= WIDE_LOOP_REGISTERS;
            if let Some(s) = self.simd.as_deref_mut() {
                s.counters = counters;
                s.index_loads = simd::analysis::index_loads(m, func);
                s.may_vary = may_vary;
                s.dirty_in = dirty_in;
                s.in_cycle = in_cycle;
            }
            if crowded && !self.env.keep_wide {
                self.env.narrow_by_estimate.set(true);
                if self.parts() > 1 {
                    return Err(m.diag(
                        func.inst,
                        format!(
                            "the values a loop carries would take more than {WIDE_LOOP_REGISTERS} vector registers in an 8-lane body: estimated faster in a 4-lane body (-cl-clift-min-lanes=8 makes the 8-lane body anyway)"
                        ),
                    ));
                }
            }
            // Each part of an 8-lane body has its own active lanes.
            self.each_part(|l| l.begin_masked_loops(loops.clone()))
                .map_err(|r| m.diag(func.inst, r))?;
            // Each part its own masks.
            self.each_part(|l| {
                l.begin_regions(regions.clone());
                Ok(())
            })
            .map_err(|r| m.diag(func.inst, r))?;
            self.each_part(|l| l.begin_dags(dags.clone()))
                .map_err(|r| m.diag(func.inst, r))?;
        }
        self.create_blocks()?;
        let entry = self
            .body
            .blocks
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| m.diag(func.inst, "no entry block"))?;
        self.begin_frame().map_err(|r| m.diag(func.inst, r))?;
        self.define_param_vars().map_err(|r| m.diag(func.inst, r))?;
        self.b.ins().jump(jump_to.unwrap_or(entry), &[]);
        let pins = schedule::pins(m, func);
        let mut pin_slot = None;
        for &bi in &func.cfg.rpo {
            let blk = &func.blocks[bi as usize];
            let cl_block =
                self.body.blocks[bi as usize].ok_or_else(|| m.diag(blk.start, "unreachable block in rpo"))?;
            self.b.switch_to_block(cl_block);
            self.body.label = blk.label;
            if let Some(s) = self.simd.as_deref_mut() {
                s.dirty = s.entry_dirty || s.dirty_in.get(bi as usize).copied().unwrap_or(true);
            }
            if bi == 0 {
                // A kernel's struct arguments are copied out of the shared
                // argument block; a helper function's (inlined or not) out
                // of the caller's object, which the callee must not change.
                let kernel = matches!(self.body.exit, Exit::NextWorkItem(_));
                self.copy_byval_params(kernel).map_err(|r| m.diag(func.inst, r))?;
            }
            let yields = self.frame.plan.as_ref().is_some_and(|p| p.yields.contains(&blk.start));
            let first_body = blk.body().find(|&i| self.m.insts[i as usize].op != Op::Phi);
            for i in blk.body() {
                if yields && Some(i) == first_body {
                    self.yield_point(blk.start).map_err(|rule| m.diag(i, rule))?;
                }
                if self.per_part(i) {
                    // An 8-lane body: once per 4-lane part (`simd::Part`),
                    // or once for both (a call of an 8-lane math form).
                    let once = self.both_parts_at_once(i).map_err(|rule| m.diag(i, rule))?;
                    self.each_part(|l| {
                        if !once {
                            l.inst(i)?;
                        }
                        if pins.contains(&i) {
                            l.pin(i, &mut pin_slot)?;
                        }
                        Ok(())
                    })
                    .map_err(|rule| m.diag(i, rule))?;
                } else {
                    self.inst(i).map_err(|rule| m.diag(i, rule))?;
                    if pins.contains(&i) {
                        self.pin(i, &mut pin_slot).map_err(|rule| m.diag(i, rule))?;
                    }
                }
                self.define_vars(i).map_err(|rule| m.diag(i, rule))?;
                if self.b.func.dfg.num_insts() > MAX_FUNCTION_INSTS {
                    return Err(m.diag(
                        i,
                        format!("the function takes more than {MAX_FUNCTION_INSTS} Cranelift instructions, which code generation does not support"),
                    ));
                }
            }
        }
        Ok(entry)
    }

    /// Takes `size` bytes of the function's stack for a private variable:
    /// refused past [`MAX_STACK`], so that generated code never overflows
    /// the stack of the thread running it (pool threads have
    /// 16 MiB, application threads that run a command inline at least the
    /// usual 2 MiB).
    pub(super) fn take_stack(&mut self, size: u64) -> R {
        let mut k = self.kernel.borrow_mut();
        k.stack_bytes = k.stack_bytes.saturating_add(size);
        if k.stack_bytes > MAX_STACK {
            return Err(format!(
                "the work-item's private variables take more than the {} KiB of stack clift gives a work-item",
                MAX_STACK >> 10
            ));
        }
        Ok(())
    }

    /// At the start of a body: each struct passed by value that the body
    /// may write to is copied into the work-item's private memory, and the
    /// parameter becomes the copy's address. For a kernel (`kernel`) the
    /// source is the (shared, read-only) argument block and every private
    /// pointer parameter is such a struct; for a helper function the source
    /// is the caller's object (passed by address: without the copy the
    /// callee's writes would change it), and only the parameters decorated
    /// FuncParamAttr ByVal are copied (another private pointer is the
    /// caller's object itself).
    fn copy_byval_params(&mut self, kernel: bool) -> R {
        let (m, func) = (self.m, self.body.func);
        for &p in &func.params {
            let Some((spirv::StorageClass::Function, pointee)) = m.type_of(p).and_then(|t| m.pointer(t)) else {
                continue;
            };
            let byval = m.decorations(p).iter().any(|d| {
                d.kind == spirv::Decoration::FuncParamAttr
                    && matches!(
                        m.deco_params(d).first(),
                        Some(rspirv::dr::Operand::FunctionParameterAttribute(
                            spirv::FunctionParameterAttribute::ByVal
                        ))
                    )
            });
            if !kernel && !byval {
                continue;
            }
            if memory::only_read_through(m, func, p) {
                continue;
            }
            let l = m
                .layout(pointee)
                .ok_or_else(|| format!("type {} has no size", m.show_type(pointee)))?;
            if l.size > 1 << 24 {
                return Err("a struct passed by value larger than 16 MiB".into());
            }
            let align = crate::layout::variable_align(m, p, l);
            if self.simd.is_some() && !self.values.contains_key(&p) {
                // Each part's lanes their own copies (`simd::Part`).
                self.each_part(|s| s.copy_byval_lanes(p, l, align))?;
                continue;
            }
            let dst = self.byval_copy_slot(l.size, align)?;
            let src = self.get1(p)?;
            self.copy_const(dst, src, l.size, false)?;
            self.values.insert(p, vec![dst]);
            if let Some(vars) = self.frame.vars.get(&p).cloned() {
                for v in vars {
                    self.b.def_var(v, dst);
                    // What a resume point may compute again is the copy.
                    self.frame
                        .origin
                        .insert(cranelift_codegen::entity::EntityRef::index(v), dst);
                }
            }
        }
        Ok(())
    }

    /// Room for `size` bytes aligned to `align` holding a copy of a struct
    /// argument: in the work-item's (chunk's) frame in a kernel with
    /// barriers, else on the stack.
    fn byval_copy_slot(&mut self, size: u64, align: u64) -> R<Value> {
        let frame = self.kernel.borrow().frame.as_ref().map(|f| f.entry);
        match frame {
            Some(fr) => {
                let off = self
                    .kernel
                    .borrow_mut()
                    .frame
                    .as_mut()
                    .ok_or("no frame")?
                    .alloc(size, align)?;
                Ok(self.b.ins().iadd_imm_s(fr.base, i64::from(off)))
            }
            None => self.private_slot(size, align),
        }
    }

    /// In a 4-lane body, struct parameter `p` (of layout `l`, aligned to
    /// `align`) whose lanes point at different objects: each lane's object
    /// copied, the copies side by side as private variables are
    /// (`simd::memory`), so that `p` becomes an affine pointer.
    fn copy_byval_lanes(&mut self, p: Id, l: crate::spirv::Layout, align: u64) -> R {
        let size = l.size;
        let stride = crate::layout::variable_stride(l, align).ok_or("a struct argument too large for four lanes")?;
        let total = stride
            .checked_mul(simd::LANES as u64)
            .filter(|&t| t <= 1 << 24)
            .ok_or("a struct argument too large for four lanes")?;
        let dst = self.byval_copy_slot(total, align)?;
        let src = *self.shapes(p)?.first().ok_or("a pointer without a value")?;
        for k in 0..simd::LANES {
            let from = self.lane(src, k);
            let to = self.b.ins().iadd_imm_s(dst, (k as u64 * stride) as i64);
            self.copy_const(to, from, size, false)?;
        }
        let base = simd::Shape::Affine {
            base: dst,
            stride: stride as i64,
            wrap: None,
        };
        self.sb()?.varying.insert(p, vec![base]);
        // Kept across barriers: held again, as the copy (this part's: the
        // copy is made once per part).
        if let Some(s) = self.simd.as_deref_mut() {
            s.kept.remove(&p);
        }
        if self.frame.spill.contains_key(&p) {
            self.hold(p)?;
        }
        Ok(())
    }

    /// One Cranelift block per reachable SPIR-V block, with a parameter per
    /// component of each OpPhi.
    fn create_blocks(&mut self) -> Result<(), Diagnostic> {
        let m = self.m;
        for (bi, blk) in self.body.func.blocks.iter().enumerate() {
            if !self.body.func.cfg.reachable.get(bi).copied().unwrap_or(false) {
                continue;
            }
            let cb = self.b.create_block();
            self.body.blocks[bi] = Some(cb);
            if let Some(s) = self.simd.as_deref_mut() {
                let counter = blk
                    .body()
                    .take_while(|&i| m.insts[i as usize].op == Op::Phi)
                    .any(|i| m.insts[i as usize].result_id.is_some_and(|r| s.counters.contains(&r)));
                if counter {
                    s.lazy.insert(bi as u32);
                    continue;
                }
            }
            for i in blk.body() {
                let inst = self.at(i);
                if inst.op != Op::Phi {
                    break;
                }
                let (ty, id) = inst.result();
                if self.simd.as_ref().is_some_and(|s| s.may_vary.contains(&id)) {
                    self.each_part(|l| l.varying_phi(cb, id, ty))
                        .map_err(|r| m.diag(i, r))?;
                    continue;
                }
                let comps = types::components(m, ty).map_err(|r| m.diag(i, r))?;
                let vals = comps.iter().map(|&t| self.b.append_block_param(cb, t)).collect();
                self.values.insert(id, vals);
            }
        }
        Ok(())
    }

    /// The Cranelift values of value id `id`.
    pub fn get(&mut self, id: Id) -> R<Vec<Value>> {
        if let Some(vars) = self.frame.vars.get(&id) {
            let vars = vars.clone();
            return Ok(vars.into_iter().map(|v| self.b.use_var(v)).collect());
        }
        if let Some(v) = self.values.get(&id) {
            return Ok(v.clone());
        }
        if let Some(addr) = self.frame_var(id) {
            return Ok(vec![addr]);
        }
        match self.m.kind(id) {
            IdKind::Constant => self.constant(id),
            IdKind::Undef => {
                let ty = self.type_of(id);
                let comps = types::components(self.m, ty)?;
                Ok(comps.into_iter().map(|t| self.zero(t)).collect())
            }
            IdKind::Global => self.global_address(id).map(|a| vec![a]),
            _ => Err(format!("{} has no value here", self.m.show(id))),
        }
    }

    /// The single value of scalar id `id`.
    pub fn get1(&mut self, id: Id) -> R<Value> {
        let v = self.get(id)?;
        match v.as_slice() {
            [x] => Ok(*x),
            _ => Err(format!("{} is not a scalar", self.m.show(id))),
        }
    }

    /// Calls the host function at `addr` (an `extern "C"` function of this
    /// process taking `params` and returning `rets`) with `args`.
    pub(super) fn call_host(&mut self, addr: usize, params: &[Clif], rets: &[Clif], args: &[Value]) -> Vec<Value> {
        use cranelift_codegen::ir::{AbiParam, Signature};
        use cranelift_codegen::isa::CallConv;
        // `extern "C"` is the platform's C convention.
        let cc = if cfg!(windows) {
            CallConv::WindowsFastcall
        } else if cfg!(all(target_vendor = "apple", target_arch = "aarch64")) {
            CallConv::AppleAarch64
        } else {
            CallConv::SystemV
        };
        let mut sig = Signature::new(cc);
        sig.params = params.iter().map(|&t| AbiParam::new(t)).collect();
        sig.returns = rets.iter().map(|&t| AbiParam::new(t)).collect();
        let sig = self.b.import_signature(sig);
        let callee = self.b.ins().iconst(cl::I64, addr as i64);
        let call = self.b.ins().call_indirect(sig, callee, args);
        self.b.inst_results(call).to_vec()
    }

    /// The 8-byte field of the context at byte offset `off` (a multiple of
    /// 8), as preloaded at the function's entry.
    pub fn ctx_word(&self, off: i32) -> Value {
        self.wi.ctx_words[(off / 8) as usize]
    }

    /// Zero of Cranelift type `t` (a scalar, or a vector of zero lanes).
    pub fn zero(&mut self, t: Clif) -> Value {
        if t.is_vector() {
            let c = self.b.func.dfg.constants.insert(vec![0u8; t.bytes() as usize].into());
            return self.b.ins().vconst(t, c);
        }
        self.bits(t, 0)
    }

    /// `-x` of a float or float vector: its sign bits flipped by a `bxor`
    /// with -0.0, never an `fneg`. Cranelift folds an `fneg` into the
    /// `fma` or `fmul` it feeds (`vfnmadd`, `vfmsub`; `fmul(fneg a, fneg
    /// b)` to `fmul(a, b)`), which then returns a NaN operand with the sign
    /// it had before the negation, and only where the two instructions
    /// meet in one body (a uniform value negated before being splat into
    /// a vector does not fold): the scalar and vector bodies would differ
    /// in a NaN's sign. A bit operation is never folded, so every body
    /// computes the module's bits (IEEE 754's negate flips the sign of a
    /// NaN too).
    pub fn negate_float(&mut self, x: Value) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let sign = 1u64 << (t.lane_bits() - 1);
        let m = if t.is_vector() {
            let lane = (t.lane_bits() / 8) as usize;
            let bytes: Vec<u8> = (0..t.lane_count())
                .flat_map(|_| sign.to_le_bytes()[..lane].to_vec())
                .collect();
            let c = self.b.func.dfg.constants.insert(bytes.into());
            self.b.ins().vconst(t, c)
        } else {
            self.bits(t, sign)
        };
        self.b.ins().bxor(x, m)
    }

    /// A constant of Cranelift type `t` with bit pattern `bits`.
    pub fn bits(&mut self, t: Clif, bits: u64) -> Value {
        match t {
            cl::F32 => self.b.ins().f32const(Ieee32::with_bits(bits as u32)),
            cl::F64 => self.b.ins().f64const(Ieee64::with_bits(bits)),
            _ => {
                let w = t.bits();
                let masked = if w >= 64 { bits } else { bits & ((1u64 << w) - 1) };
                self.b.ins().iconst(t, masked as i64)
            }
        }
    }

    fn constant(&mut self, id: Id) -> R<Vec<Value>> {
        let c = self.m.constant(id).ok_or("not a constant")?;
        let comps = types::components(self.m, c.ty)?;
        match &c.value {
            ConstValue::Bool(v) => Ok(vec![self.b.ins().iconst(cl::I8, i64::from(*v))]),
            // A half constant holds its 16 bits; registers hold its f32.
            ConstValue::Scalar(bits) if comps.len() == 1 && half::is_half(self.m, c.ty) => {
                Ok(vec![self.bits(comps[0], half::widen_const(*bits))])
            }
            ConstValue::Vector(v) if v.len() == comps.len() && half::is_half(self.m, c.ty) => Ok(comps
                .iter()
                .zip(v)
                .map(|(&t, &x)| self.bits(t, half::widen_const(x)))
                .collect()),
            ConstValue::Scalar(bits) if comps.len() == 1 => Ok(vec![self.bits(comps[0], *bits)]),
            ConstValue::Vector(v) if v.len() == comps.len() => {
                Ok(comps.iter().zip(v).map(|(&t, &x)| self.bits(t, x)).collect())
            }
            ConstValue::Null => Ok(comps.into_iter().map(|t| self.zero(t)).collect()),
            ConstValue::Composite(parts) => self.const_composite(id, parts),
            ConstValue::Expr if self.m.insts[c.inst as usize].op == spirv::Op::ConstantSampler => {
                self.constant_sampler(id)
            }
            ConstValue::Expr => self.const_expr(id),
            _ => Err(format!(
                "constant {} is not supported by code generation yet",
                self.m.show(id)
            )),
        }
    }

    /// Lowers instruction `i` of the current block.
    fn inst(&mut self, i: u32) -> R {
        if self.simd.is_some() {
            return self.simd_inst(i);
        }
        self.scalar_inst(i)
    }

    /// Lowers instruction `i` of the current block for one work-item.
    pub(crate) fn scalar_inst(&mut self, i: u32) -> R {
        self.scalar_inst_unrounded(i)?;
        // Half results are computed in f32 and rounded here once (`half`).
        let inst = &self.m.insts[i as usize];
        if half::rounds(inst.op) {
            if let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) {
                if half::is_half(self.m, ty) {
                    if let Some(mut v) = self.values.remove(&id) {
                        self.round_half(&mut v);
                        self.values.insert(id, v);
                    }
                }
            }
        }
        Ok(())
    }

    fn scalar_inst_unrounded(&mut self, i: u32) -> R {
        let inst = self.at(i);
        match inst.op {
            op if lowers_to_nothing(op) => Ok(()),
            Op::Branch => {
                let (blk, args) = self.target(inst.operand(0))?;
                self.b.ins().jump(blk, &args);
                Ok(())
            }
            Op::BranchConditional => {
                let c = self.get1(inst.operand(0))?;
                let (tb, ta) = self.target(inst.operand(1))?;
                let (fb, fa) = self.target(inst.operand(2))?;
                self.b.ins().brif(c, tb, &ta, fb, &fa);
                Ok(())
            }
            Op::Return => {
                match self.body.exit {
                    Exit::NextWorkItem(next) => {
                        self.finish_work_item();
                        self.b.ins().jump(next, &[])
                    }
                    Exit::Return => self.b.ins().return_(&[]),
                    Exit::Inline(ret) => self.b.ins().jump(ret, &[]),
                };
                Ok(())
            }
            Op::ReturnValue => {
                let v = self.get(inst.operand(0))?;
                match self.body.exit {
                    Exit::Return => self.b.ins().return_(&v),
                    Exit::Inline(ret) => {
                        let args: Vec<BlockArg> = v.into_iter().map(BlockArg::Value).collect();
                        self.b.ins().jump(ret, &args)
                    }
                    Exit::NextWorkItem(_) => return Err("a kernel cannot return a value".into()),
                };
                Ok(())
            }
            // Undefined behaviour if reached; rather than trap (and take the
            // process down), end the work-item, or return zeros.
            Op::Unreachable => {
                match self.body.exit {
                    Exit::NextWorkItem(next) => {
                        self.finish_work_item();
                        self.b.ins().jump(next, &[]);
                    }
                    Exit::Return => {
                        let comps = types::components(self.m, self.body.func.ret)?;
                        let zeros: Vec<Value> = comps.into_iter().map(|t| self.zero(t)).collect();
                        self.b.ins().return_(&zeros);
                    }
                    Exit::Inline(ret) => {
                        let comps = types::components(self.m, self.body.func.ret)?;
                        let zeros: Vec<BlockArg> = comps.into_iter().map(|t| BlockArg::Value(self.zero(t))).collect();
                        self.b.ins().jump(ret, &zeros);
                    }
                }
                Ok(())
            }
            Op::FunctionCall => self.call(i),
            // get_default_queue(): the word the runtime put in the context
            // (launch_abi: a queue_t is opaque, 0 is CLK_NULL_QUEUE).
            Op::GetDefaultQueue => {
                let id = inst.result_id();
                let q = self.ctx_word(crate::launch_abi::ctx_offset::DEFAULT_QUEUE);
                self.values.insert(id, vec![q]);
                Ok(())
            }
            // A Function variable the frame holds: only its initializer.
            Op::Variable if inst.result_id.is_some_and(|r| self.frame.variables.contains_key(&r)) => {
                if let (Some(r), Some(init)) = (inst.result_id, inst.id(1)) {
                    let addr = self.get1(r)?;
                    self.store_value(addr, init, false)?;
                }
                Ok(())
            }
            Op::Variable | Op::Load | Op::Store | Op::AccessChain | Op::InBoundsAccessChain => self.memory(i),
            Op::PtrAccessChain | Op::InBoundsPtrAccessChain => self.memory(i),
            Op::CopyMemory | Op::CopyMemorySized => self.memory(i),
            Op::GenericCastToPtrExplicit | Op::GenericPtrMemSemantics => self.memory(i),
            op if op == Op::MemoryBarrier || crate::validate::memory::is_atomic(op) => self.atomic(i),
            Op::ControlBarrier => self.barrier(i),
            crate::spirv::opsets::group_collectives!() => self.collective(i),
            crate::spirv::opsets::images!() => self.image(i),
            crate::spirv::opsets::non_uniform_collectives!() | crate::spirv::opsets::ballot_values!() => {
                self.non_uniform(i)
            }
            crate::spirv::opsets::group_pipes!() => self.group_pipe(i),
            crate::spirv::opsets::pipes!() => self.pipe(i),
            op if op == Op::BuildNDRange || crate::block_invoke::is_device_enqueue(op) => self.device_enqueue(i),
            Op::Switch => self.switch(i),
            Op::CompositeExtract | Op::CompositeInsert | Op::CompositeConstruct => self.composite(i),
            _ => self.arith(i),
        }
    }

    /// The Cranelift block of label `label` and the arguments for its phis
    /// coming from the current block.
    fn target(&mut self, label: Id) -> R<(Block, Vec<BlockArg>)> {
        let m = self.m;
        let info = m.info(label).ok_or("bad label")?;
        let bi = info.block as usize;
        if self.simd.is_some() {
            self.enter_masked_loop(bi as u32)?;
        }
        let blk = self.body.func.blocks.get(bi).ok_or("bad label")?;
        let cb = self
            .body
            .blocks
            .get(bi)
            .copied()
            .flatten()
            .ok_or("branch to an unreachable block")?;
        if self.simd.is_some() {
            self.lazy_params(bi as u32, cb)?;
        }
        let mut args = Vec::new();
        for i in blk.body() {
            let phi = &m.insts[i as usize];
            if phi.op != Op::Phi {
                break;
            }
            let n = phi.operands.len() / 2;
            let v = (0..n)
                .find(|&k| phi.id(2 * k + 1) == Some(self.body.label))
                .and_then(|k| phi.id(2 * k))
                .ok_or_else(|| format!("OpPhi %{} has no value for this block", phi.result_id.unwrap_or(0)))?;
            match phi.result_id {
                // Once per part of an 8-lane body (`simd::Part`).
                Some(r) if self.simd.as_ref().is_some_and(|s| s.varying.contains_key(&r)) => {
                    let per_part = self.each_part(|l| match l.counter_arg(r, v)? {
                        Some(a) => Ok(vec![a]),
                        None => l.phi_args(r, v),
                    })?;
                    args.extend(per_part.into_iter().flatten());
                }
                _ if self.is_varying(v) => {
                    return Err(format!(
                        "{} differs between work-items but its phi does not",
                        self.m.show(v)
                    ))
                }
                _ => args.extend(self.get(v)?.into_iter().map(BlockArg::Value)),
            }
        }
        // From an arm of a region to its merge (`simd::predicate`).
        if let Some(redirected) = self.region_exit(bi as u32, args.clone())? {
            return Ok(redirected);
        }
        Ok((cb, args))
    }

    /// OpSwitch: each distinct target gets a block passing its phi
    /// arguments, and a Cranelift [`Switch`] picks among them (case
    /// literals are taken at the selector's width; a repeated literal keeps
    /// its first target).
    fn switch(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let sel = self.get1(inst.operand(0))?;
        let width = self.b.func.dfg.value_type(sel).bits();
        let mask = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
        // One edge block per distinct target, filled after the switch.
        let mut edges: HashMap<Id, Block> = HashMap::new();
        let mut fills: Vec<(Block, Block, Vec<BlockArg>)> = Vec::new();
        let mut edge = |l: &mut Self, label: Id| -> R<Block> {
            if let Some(&b) = edges.get(&label) {
                return Ok(b);
            }
            let (target, args) = l.target(label)?;
            let e = l.b.create_block();
            fills.push((e, target, args));
            edges.insert(label, e);
            Ok(e)
        };
        let default = edge(self, inst.operand(1))?;
        let mut sw = Switch::new();
        let mut seen = std::collections::HashSet::new();
        let mut k = 2;
        while k < inst.operands.len() {
            let lit = match inst.operands.get(k) {
                Some(rspirv::dr::Operand::LiteralBit32(v)) => u64::from(*v),
                Some(rspirv::dr::Operand::LiteralBit64(v)) => *v,
                _ => return Err(format!("case {} has no literal", (k - 2) / 2)),
            } & mask;
            // The grammar decodes a case as a (literal, label) pair.
            let blk = edge(self, inst.operand(k + 1))?;
            if seen.insert(lit) {
                sw.set_entry(u128::from(lit), blk);
            }
            k += 2;
        }
        sw.emit(self.b, sel, default);
        for (e, target, args) in fills {
            self.b.switch_to_block(e);
            self.b.ins().jump(target, &args);
        }
        Ok(())
    }

    fn call(&mut self, i: u32) -> R {
        if self.inline_call(i)? {
            return Ok(());
        }
        let inst = self.at(i);
        let callee = inst.operand(0);
        let fref = match self.env.callees.get(&callee) {
            Some(&r) => r,
            None => self.import_helper(callee)?,
        };
        self.kernel.borrow_mut().calls_helpers = true;
        let mut args = vec![self.wi.item];
        for k in 1..inst.operands.len() {
            args.extend(self.get(inst.operand(k))?);
        }
        let call = self.b.ins().call(fref, &args);
        let results = self.b.inst_results(call).to_vec();
        if let Some(r) = inst.result_id {
            self.values.insert(r, results);
        }
        Ok(())
    }

    /// Imports helper function `callee` into the function being built (as
    /// `cranelift_module::Module::declare_func_in_func` does for a function
    /// of local linkage).
    fn import_helper(&mut self, callee: Id) -> R<FuncRef> {
        let (index, sig) = self.env.helpers.get(&callee).ok_or("callee not declared")?;
        let signature = self.b.import_signature(sig.clone());
        let name = self
            .b
            .func
            .declare_imported_user_function(UserExternalName::new(0, *index));
        Ok(self.b.import_function(ExtFuncData {
            name: ExternalName::user(name),
            signature,
            colocated: true,
            patchable: false,
        }))
    }
}
