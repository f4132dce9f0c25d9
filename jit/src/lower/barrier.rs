//! Barriers: how the work-items of a group get past OpControlBarrier when
//! one thread runs them all, one after another.
//!
//! **Strategy: resumable work-items.** A kernel whose body has barriers is
//! still lowered once, inside the work-group loops (see
//! [`super::workgroup`]), but the loops run in *phases*. Each work-item has
//! a *frame* in the private arena
//! ([`crate::launch_abi::WorkGroupCtx::private_arena`]) holding its resume
//! state, its Function variables and the values it must keep across
//! barriers. In a phase, every work-item runs from where it stopped (a
//! switch on its state: 0 = the kernel's start, k = just after barrier k)
//! until it reaches a barrier, where it stores the values live there into
//! its frame, records k and yields to the next work-item; or until it
//! returns (state "done"). When a phase ends with any work-item waiting at a
//! barrier, the next phase starts. Since OpenCL requires every work-item of
//! a group to reach the same barriers in the same order, a phase ends
//! exactly when the whole group has arrived at a barrier: everything before
//! it, for every work-item, happened before anything after it.
//!
//! Values live across a barrier are Cranelift `Variable`s: defined where
//! SPIR-V defines them and again where a work-item resumes (loaded from its
//! frame), so the frontend's SSA construction joins them, also around loops
//! containing barriers.
//!
//! Why this and not loop fission at barriers (PoCL's approach) or one
//! stack per work-item (fibers): the body is lowered once, with no
//! region-formation or tail-duplication pass over the CFG, barriers may sit
//! in any loop or branch that is uniform over the work-group, and a frame
//! holds only what is live at a barrier, not a stack. Kernels without
//! barriers are lowered exactly as before: no frames, no phases, no
//! switch, so they pay nothing.
//!
//! Barriers inside called functions (llvm-spirv makes every kernel a
//! wrapper calling the real function) are handled by inlining every
//! function that contains a barrier, directly or through calls
//! ([`barrier_functions`]): in such a function, a call to another one is a
//! *suspension point* like a barrier, so the caller keeps its values live
//! across the call in its frame slots, and the callee's barriers store and
//! reload them too (`Lowering::outer`).
//!
//! The frame is laid out while lowering: each inlined body takes slots for
//! its Function variables and for the values it keeps across suspension
//! points ([`FnPlan`], from a liveness analysis over the function's SPIR-V
//! CFG); the frame size is patched into the work-group function at the end.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use cranelift_codegen::ir::{
    condcodes::IntCC, types as cl, Block, InstBuilder, MemFlagsData, Type as Clif, Value, ValueDef,
};
use cranelift_frontend::{Switch, Variable};
use spirv::Op;

use super::frame::{HELD_SLOT, SLOT};
use super::{types, Exit, FrameEntry, Lowering, R};
use crate::spirv::{Function, Id, IdKind, Layout, Module};
use crate::validate::calls;

/// The resume state of a work-item that has returned.
pub const DONE: u32 = u32::MAX;

/// The most (reachable blocks x values) a function with suspension points
/// may have: its liveness analysis takes memory and time in proportion.
const MAX_LIVENESS: u64 = 1 << 23;

/// The largest frame clift accepts per work-item.
const MAX_FRAME: u64 = 1 << 24;

/// Whether `op` suspends the work-item: a barrier, or a collective of its
/// work-group or sub-group (`collective.rs`, `pipes.rs`), or a non-uniform
/// sub-group instruction combining its active work-items
/// (`non_uniform.rs`).
pub fn is_group_wait(op: Op) -> bool {
    matches!(op, Op::ControlBarrier) || is_collective(op)
}

/// Whether `op` is a work-group collective that computes a value from
/// every work-item's operand after they have all arrived.
fn is_collective(op: Op) -> bool {
    crate::validate::memory::is_group_collective(op)
}

/// The functions (by index) that contain a barrier, a work-group
/// collective or a loop where work-items yield ([`super::progress::Yields`]), or call
/// a function that does.
pub fn barrier_functions(m: &Module, yields: &super::progress::Yields) -> HashSet<u32> {
    let graph = calls::call_graph(m);
    let set: HashSet<u32> = m
        .functions
        .iter()
        .enumerate()
        .filter(|&(fi, f)| {
            f.blocks
                .iter()
                .any(|b| b.body().any(|i| is_group_wait(m.insts[i as usize].op)))
                || !yields.headers(fi as u32).is_empty()
        })
        .map(|(i, _)| i as u32)
        .collect();
    calls::with_callers(&graph, set)
}

/// The resume state bit of a yield point ([`super::progress::Yields`]).
pub const YIELD_STATE: u32 = 1 << 30;

/// What a suspension point waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Point {
    /// Every work-item of the work-group (a work-group barrier or
    /// collective): it resumes in a work-group phase.
    Group,
    /// Every work-item of its sub-group: it resumes in a sub-group phase,
    /// once no work-item of its sub-group is at a yield point.
    SubGroup,
    /// Nothing: the work-item lets the others run (a yield point); it
    /// resumes in the next sub-group phase.
    Yield,
    /// Nothing: a non-uniform sub-group instruction
    /// (`lower/non_uniform.rs`), whose active work-items are those of the
    /// sub-group suspended at it when the next phase starts; it resumes in
    /// that (sub-group) phase.
    NonUniform,
}

/// The resume state of the `k`-th suspension point (from 1), waiting for
/// `point`.
fn state_of(k: usize, point: Point) -> i64 {
    let k = k as i64;
    if point == Point::Yield {
        k | i64::from(YIELD_STATE)
    } else {
        k
    }
}

/// What one body (a kernel's, or an inlined call's) keeps in its
/// work-item's frame across barriers.
#[derive(Default)]
pub struct BodyFrame {
    /// The variables of the values this body keeps across barriers.
    pub vars: HashMap<Id, Vec<Variable>>,
    /// This body's barriers and what is live after them, in a kernel with
    /// barriers whose body (or callee) has one.
    pub plan: Option<Rc<FnPlan>>,
    /// The frame offset of each value of `vars`.
    pub spill: HashMap<Id, i32>,
    /// The frame offset of each Function variable the frame holds.
    pub variables: HashMap<Id, i32>,
    /// In a 4-lane body, the Function variables the frame holds one copy
    /// of per lane, side by side: the first copy's frame offset and the
    /// distance between copies (the variable's pointer is affine).
    pub lane_variables: HashMap<Id, (i32, u64)>,
    /// The values of the bodies this one is inlined into that are live
    /// after the calls: stored and reloaded at this body's barriers too.
    pub outer: Vec<(Variable, Clif, i32)>,
    /// The value each variable of `vars` (and of held 4-lane values) was
    /// defined with where its SPIR-V value was computed: what a resume
    /// point may compute again (`lower/remat.rs`).
    pub origin: HashMap<usize, Value>,
}

/// What one function with suspension points keeps in the frame.
#[derive(Debug, Default)]
pub struct FnPlan {
    /// The values live just after each suspension point (OpControlBarrier,
    /// a collective, or a call to a function with either), by instruction
    /// index. A collective's own operands count as live after it: it
    /// computes its result once the work-item resumes.
    pub live: HashMap<u32, Vec<Id>>,
    /// Every value live after some suspension point, sorted.
    pub kept: Vec<Id>,
    /// The function's Function variables and their layouts.
    pub vars: Vec<(Id, Layout)>,
    /// The OpLabel indexes of the loop headers where a work-item yields
    /// ([`super::progress::Yields`]): `live` holds, under that index, the values
    /// live before the header's first instruction that is not a phi.
    pub yields: HashSet<u32>,
}

/// The frame plan of `func` (one of `barrier_fns`), whose yield points are
/// `yield_blocks`.
pub fn plan(m: &Module, func: &Function, barrier_fns: &HashSet<u32>, yield_blocks: &[u32]) -> Result<FnPlan, String> {
    let suspends = |i: u32| {
        let inst = &m.insts[i as usize];
        match inst.op {
            op if is_group_wait(op) => true,
            Op::FunctionCall => inst
                .id(0)
                .and_then(|c| m.info(c))
                .is_some_and(|c| c.kind == IdKind::Function && barrier_fns.contains(&c.index)),
            _ => false,
        }
    };
    let mut points = HashSet::new();
    let mut vars = Vec::new();
    for (bi, blk) in func.blocks.iter().enumerate() {
        if !func.cfg.reachable.get(bi).copied().unwrap_or(false) {
            continue;
        }
        for i in blk.body() {
            let inst = &m.insts[i as usize];
            if suspends(i) {
                points.insert(i);
            }
            if inst.op == Op::Variable {
                let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
                    continue;
                };
                let (_, pointee) = m.pointer(ty).ok_or("a variable's type must be a pointer")?;
                let l = m
                    .layout(pointee)
                    .ok_or_else(|| format!("type {} has no size", m.show_type(pointee)))?;
                vars.push((id, l));
            }
        }
    }
    // The liveness analysis keeps sets of values per block: refuse what
    // would make them huge (a hostile module could ask for gigabytes).
    let blocks = func.cfg.reachable.iter().filter(|&&r| r).count() as u64;
    let values = func.params.len() as u64
        + func
            .blocks
            .iter()
            .flat_map(|b| b.body())
            .filter(|&i| m.insts[i as usize].result_id.is_some())
            .count() as u64;
    if blocks.saturating_mul(values) > MAX_LIVENESS {
        return Err(format!(
            "a function with barriers of {blocks} blocks and {values} values is too large for code generation"
        ));
    }
    let live = liveness(m, func, &points, yield_blocks);
    let yields = yield_blocks.iter().map(|&b| func.blocks[b as usize].start).collect();
    let mut kept: Vec<Id> = live
        .values()
        .flatten()
        .copied()
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    kept.sort_unstable();
    Ok(FnPlan {
        live,
        kept,
        vars,
        yields,
    })
}

/// The values (results of the function's own instructions other than
/// OpVariable, whose addresses the frame fixes, and its parameters) live
/// just after each of `points`, and before the first instruction that is
/// not a phi of each block of `yield_blocks` (under its OpLabel's index),
/// each list sorted.
fn liveness(m: &Module, func: &Function, points: &HashSet<u32>, yield_blocks: &[u32]) -> HashMap<u32, Vec<Id>> {
    let n = func.blocks.len();
    let tracked = |id: Id| {
        m.info(id).is_some_and(|info| match info.kind {
            IdKind::Param => true,
            IdKind::Value => m.insts.get(info.def as usize).is_some_and(|d| d.op != Op::Variable),
            _ => false,
        })
    };
    // Per block: upward-exposed uses, definitions, and the phi operands it
    // passes to its successors.
    let mut gen: Vec<HashSet<Id>> = vec![HashSet::new(); n];
    let mut kill: Vec<HashSet<Id>> = vec![HashSet::new(); n];
    let mut phi_out: Vec<HashSet<Id>> = vec![HashSet::new(); n];
    for (bi, blk) in func.blocks.iter().enumerate() {
        for i in blk.body() {
            let inst = &m.insts[i as usize];
            if inst.op == Op::Phi {
                for k in (0..inst.operands.len() / 2).map(|k| 2 * k) {
                    let (Some(v), Some(from)) = (inst.id(k), inst.id(k + 1)) else {
                        continue;
                    };
                    if let Some(p) = m.info(from).filter(|f| f.kind == IdKind::Label) {
                        if tracked(v) {
                            if let Some(set) = phi_out.get_mut(p.block as usize) {
                                set.insert(v);
                            }
                        }
                    }
                }
            } else {
                for (_, u) in inst.id_operands() {
                    if tracked(u) && !kill[bi].contains(&u) {
                        gen[bi].insert(u);
                    }
                }
            }
            if let Some(r) = inst.result_id {
                kill[bi].insert(r);
            }
        }
    }
    // Backward fixpoint (the sets only grow, so sizes tell change).
    let mut live_in: Vec<HashSet<Id>> = vec![HashSet::new(); n];
    let mut live_out: Vec<HashSet<Id>> = vec![HashSet::new(); n];
    let mut changed = true;
    while changed {
        changed = false;
        for &b in func.cfg.rpo.iter().rev() {
            let b = b as usize;
            let mut out = phi_out[b].clone();
            for &s in func.cfg.succs.get(b).map(Vec::as_slice).unwrap_or(&[]) {
                out.extend(live_in[s as usize].iter().copied());
            }
            let mut inn: HashSet<Id> = out.iter().copied().filter(|v| !kill[b].contains(v)).collect();
            inn.extend(gen[b].iter().copied());
            if inn.len() != live_in[b].len() || out.len() != live_out[b].len() {
                changed = true;
            }
            live_in[b] = inn;
            live_out[b] = out;
        }
    }
    // Walk each block with a suspension point backwards from its live-out.
    let mut result = HashMap::new();
    for (bi, blk) in func.blocks.iter().enumerate() {
        let yields = yield_blocks.contains(&(bi as u32));
        if !yields && !blk.body().any(|i| points.contains(&i)) {
            continue;
        }
        let first_body = blk.body().find(|&i| m.insts[i as usize].op != Op::Phi);
        let mut live = live_out[bi].clone();
        for i in blk.body().rev() {
            let inst = &m.insts[i as usize];
            if let Some(r) = inst.result_id {
                live.remove(&r);
            }
            let collective = is_collective(inst.op);
            if points.contains(&i) && !collective {
                result.insert(i, sorted(&live));
            }
            if inst.op != Op::Phi {
                for (_, u) in inst.id_operands() {
                    if tracked(u) {
                        live.insert(u);
                    }
                }
            }
            if points.contains(&i) && collective {
                result.insert(i, sorted(&live));
            }
            if yields && Some(i) == first_body {
                result.insert(blk.start, sorted(&live));
            }
        }
    }
    result
}

/// The ids of `set`, sorted.
fn sorted(set: &HashSet<Id>) -> Vec<Id> {
    let mut v: Vec<Id> = set.iter().copied().collect();
    v.sort_unstable();
    v
}

/// The frame of a kernel with barriers, while it is being lowered.
pub(crate) struct FrameState {
    pub(super) entry: FrameEntry,
    /// Bytes taken so far (the state word first).
    size: u64,
    /// The largest alignment taken so far.
    align: u64,
    /// Where a work-item resumes in state k (at index k - 1; state
    /// `k | YIELD_STATE` for a yield point), and what the point waits for.
    resume: Vec<(Block, Point)>,
    /// The plans of the functions with suspension points.
    plans: HashMap<u32, Rc<FnPlan>>,
}

impl FrameState {
    pub fn new(entry: FrameEntry) -> FrameState {
        FrameState {
            entry,
            size: 8,
            align: 8,
            resume: Vec::new(),
            plans: HashMap::new(),
        }
    }

    /// `size` bytes of frame at `align`: their offset.
    pub(super) fn alloc(&mut self, size: u64, align: u64) -> R<i32> {
        let align = align.clamp(1, 128);
        let at = self.size.div_ceil(align) * align;
        let end = at
            .checked_add(size)
            .filter(|&e| e <= MAX_FRAME)
            .ok_or("the work-item's private memory exceeds 16 MiB")?;
        self.size = end;
        self.align = self.align.max(align);
        Ok(at as i32)
    }
}

impl Lowering<'_, '_, '_> {
    /// The frame's base address and pending-flag slot, in a kernel with
    /// barriers.
    pub(super) fn frame_entry(&self) -> Option<FrameEntry> {
        self.kernel.borrow().frame.as_ref().map(|f| f.entry)
    }

    /// At the start of a body in a kernel with barriers, if the body has
    /// suspension points: places its Function variables and its kept values
    /// in the frame.
    pub(super) fn begin_frame(&mut self) -> R {
        let fi = self
            .m
            .info(self.body.func.id)
            .map(|f| f.index)
            .ok_or("function without an index")?;
        if !self.env.barrier_fns.contains(&fi) {
            return Ok(());
        }
        let mut k = self.kernel.borrow_mut();
        let Some(fs) = k.frame.as_mut() else {
            return Ok(());
        };
        let plan = match fs.plans.get(&fi) {
            Some(p) => p.clone(),
            None => {
                let p = Rc::new(plan(
                    self.m,
                    self.body.func,
                    self.env.barrier_fns,
                    self.env.yields.headers(fi),
                )?);
                fs.plans.insert(fi, p.clone());
                p
            }
        };
        // A chunk of an 8-lane body holds each part's lanes (`simd::Part`).
        let parts = self.parts() as u64;
        for &(id, l) in &plan.vars {
            let align = crate::layout::variable_align(self.m, id, l);
            let per_lane = self.simd.as_ref().is_some_and(|s| s.may_vary.contains(&id));
            if per_lane {
                // A chunk's variable: a copy per lane (as `simd_variable`),
                // part after part.
                let stride =
                    crate::layout::variable_stride(l, align).ok_or("a private variable too large for four lanes")?;
                let total = stride
                    .checked_mul(super::simd::LANES as u64 * parts)
                    .filter(|&t| t <= 1 << 24)
                    .ok_or("a private variable too large for four lanes")?;
                let off = fs.alloc(total, align)?;
                self.frame.lane_variables.insert(id, (off, stride));
                continue;
            }
            let off = fs.alloc(l.size, align)?;
            self.frame.variables.insert(id, off);
        }
        let simd = self.simd.is_some();
        for &id in &plan.kept {
            let ty = self.type_of(id);
            let comps = types::components(self.m, ty)?;
            if simd {
                // A chunk's value: its variables are declared where it is
                // defined, once its shape is known (`hold`); a uniform one
                // gets scalar variables there too. Each part holds its
                // own, one after the other.
                let off = fs.alloc(comps.len() as u64 * HELD_SLOT as u64 * parts, 16)?;
                self.frame.spill.insert(id, off);
                continue;
            }
            let off = fs.alloc(comps.len() as u64 * SLOT as u64, SLOT as u64)?;
            let vars = comps.into_iter().map(|t| self.b.declare_var(t)).collect();
            self.frame.vars.insert(id, vars);
            self.frame.spill.insert(id, off);
        }
        drop(k);
        self.frame.plan = Some(plan);
        Ok(())
    }

    /// The address of the first lane's copy of Function variable `id` and
    /// the distance between copies, when a 4-lane body's frame holds a copy
    /// per lane (computed where it is needed: the frame's base is known
    /// everywhere, also where a chunk resumes). In an 8-lane body, those of
    /// the part being lowered (part 1's copies follow part 0's).
    pub(super) fn frame_lane_var(&mut self, id: Id) -> Option<(Value, u64)> {
        let (off, stride) = *self.frame.lane_variables.get(&id)?;
        let base = self.frame_entry()?.base;
        let part = (self.part() as u64 * super::simd::LANES as u64 * stride) as i64;
        Some((self.b.ins().iadd_imm_s(base, i64::from(off) + part), stride))
    }

    /// The address of Function variable `id` when the frame holds it.
    pub(super) fn frame_var(&mut self, id: Id) -> Option<Value> {
        let off = *self.frame.variables.get(&id)?;
        let base = self.frame_entry()?.base;
        Some(self.b.ins().iadd_imm_s(base, i64::from(off)))
    }

    /// After instruction `i`: defines the variables of its result if the
    /// value is kept across a suspension point (phis included: their values
    /// are the block's parameters).
    pub(super) fn define_vars(&mut self, i: u32) -> R {
        let Some(id) = self.m.insts[i as usize].result_id else {
            return Ok(());
        };
        self.define_kept(id)
    }

    /// Defines the variables of value `id` if it is kept across
    /// suspension points (in a 4-lane body, declares them first; in an
    /// 8-lane body, each part's of a varying value).
    pub(super) fn define_kept(&mut self, id: Id) -> R {
        if self.simd.is_some() && self.frame.spill.contains_key(&id) && !self.frame.vars.contains_key(&id) {
            if self.is_varying(id) {
                return self.each_part(|l| l.hold(id)).map(|_| ());
            }
            let Some(vals) = self.values.get(&id).cloned() else {
                return Ok(());
            };
            let vars = vals
                .iter()
                .map(|&v| {
                    let t = self.b.func.dfg.value_type(v);
                    self.b.declare_var(t)
                })
                .collect();
            self.frame.vars.insert(id, vars);
        }
        let (Some(vars), Some(vals)) = (self.frame.vars.get(&id), self.values.get(&id)) else {
            return Ok(());
        };
        for (&var, &val) in vars.iter().zip(vals) {
            self.b.def_var(var, val);
            self.frame
                .origin
                .insert(cranelift_codegen::entity::EntityRef::index(var), val);
        }
        Ok(())
    }

    /// Defines the variables of the parameters kept across suspension
    /// points (at the start of a body).
    pub(super) fn define_param_vars(&mut self) -> R {
        for &p in &self.body.func.params {
            self.define_kept(p)?;
        }
        Ok(())
    }

    /// The frame slots of the values kept across suspension point `i` of
    /// this body, followed by those of the bodies it is inlined into.
    pub(super) fn kept_at(&self, i: u32) -> R<Vec<(cranelift_frontend::Variable, cl::Type, i32)>> {
        let plan = self
            .frame
            .plan
            .as_ref()
            .ok_or("a suspension point outside a planned body")?;
        let mut out = Vec::new();
        for &id in plan.live.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
            let off = *self.frame.spill.get(&id).ok_or("a kept value without a slot")?;
            if let Some(parts) = self.kept_parts(id)? {
                // Part p's components after those of the parts before it.
                let mut slot = off;
                for held in parts {
                    for h in held {
                        for (var, t, at) in h.vars() {
                            out.push((var, t, slot + at));
                        }
                        slot += HELD_SLOT;
                    }
                }
                continue;
            }
            let stride = if self.simd.is_some() { HELD_SLOT } else { SLOT };
            let vars = self.frame.vars.get(&id).ok_or("a kept value without variables")?;
            let ty = self.type_of(id);
            for (c, (t, &v)) in types::components(self.m, ty)?.into_iter().zip(vars).enumerate() {
                out.push((v, t, off + stride * c as i32));
            }
        }
        out.extend(self.frame.outer.iter().copied());
        Ok(out)
    }

    /// OpControlBarrier at instruction `i` of a kernel (or a body inlined
    /// into one): the work-item stores the values live after the barrier
    /// and its resume state in its frame, marks the phase as having waiters
    /// and yields; the rest of the SPIR-V block is lowered into the block
    /// where it resumes, which reloads those values.
    pub(super) fn barrier(&mut self, i: u32) -> R {
        self.suspend(i).map(|_| ())
    }

    /// Suspension point `i` (a barrier or a collective): as
    /// [`Self::barrier`] describes. Returns the frame entry.
    pub(super) fn suspend(&mut self, i: u32) -> R<FrameEntry> {
        let point = if crate::validate::memory::sub_group_scoped(self.m, &self.m.insts[i as usize]) {
            Point::SubGroup
        } else {
            Point::Group
        };
        self.suspend_at(i, point).map(|(fr, _)| fr)
    }

    /// At the loop header of OpLabel `label`, a yield point of this body
    /// ([`super::progress::Yields`]): once every [`super::progress::YIELD_EVERY`] passes (counted for
    /// the whole group), the work-item suspends so the others run.
    pub(super) fn yield_point(&mut self, label: u32) -> R {
        let fr = self.frame_entry().ok_or("a yield point outside a kernel's frame")?;
        let left = self.b.ins().stack_load(cl::I64, cl::I32, fr.spins, 0);
        let left = self.b.ins().iadd_imm_s(left, -1);
        self.b.ins().stack_store(cl::I64, left, fr.spins, 0);
        let (stop, go_on) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(left, go_on, &[], stop, &[]);
        self.b.switch_to_block(stop);
        self.b.set_cold_block(stop);
        let every = self.b.ins().iconst(cl::I32, super::progress::YIELD_EVERY);
        self.b.ins().stack_store(cl::I64, every, fr.spins, 0);
        self.suspend_at(label, Point::Yield)?;
        self.b.ins().jump(go_on, &[]);
        self.b.switch_to_block(go_on);
        Ok(())
    }

    /// Suspension point `i` waiting for `point`: the frame entry and the
    /// point's resume state.
    pub(super) fn suspend_at(&mut self, i: u32, point: Point) -> R<(FrameEntry, i64)> {
        let Some(fr) = self.frame_entry() else {
            return Err("a barrier in a function that is not inlined into a kernel is not supported".into());
        };
        let next = fr.next;
        let kept = self.kept_at(i)?;
        // The frame is 8-byte aligned: vectors are stored unaligned.
        let flags = |t: cl::Type| {
            if t.is_vector() {
                MemFlagsData::new().with_notrap()
            } else {
                MemFlagsData::trusted()
            }
        };
        // A value of the work-group function's entry block (an argument
        // or context field loaded once per group) is the same wherever
        // the work-item resumes: defined there again, not saved.
        let entry = self.b.func.layout.entry_block();
        let mut saved = Vec::with_capacity(kept.len());
        let mut same = Vec::new();
        let mut again = Vec::new();
        for (var, t, off) in kept {
            let v = self.b.use_var(var);
            let dfg = &self.b.func.dfg;
            let block = match dfg.value_def(v) {
                ValueDef::Result(inst, _) => self.b.func.layout.inst_block(inst),
                ValueDef::Param(b, _) => Some(b),
                _ => None,
            };
            if block.is_some() && block == entry {
                same.push((var, v));
                continue;
            }
            // A short computation from such values and the local ids is
            // done again where the work-item resumes ([`super::remat`]),
            // from the value the variable was defined with (here it may
            // be a block parameter, or a value reloaded at a resume).
            let origin = self
                .frame
                .origin
                .get(&cranelift_codegen::entity::EntityRef::index(var))
                .copied()
                .unwrap_or(v);
            if let Some(plan) = self.recompute_plan(origin) {
                again.push((var, origin, plan));
                continue;
            }
            self.b.ins().store(flags(t), v, fr.base, off);
            saved.push((var, t, off));
        }
        let resume = self.b.create_block();
        let k = {
            let mut ks = self.kernel.borrow_mut();
            let fs = ks.frame.as_mut().ok_or("no frame")?;
            fs.resume.push((resume, point));
            state_of(fs.resume.len(), point)
        };
        let state = self.b.ins().iconst(cl::I32, k);
        self.b.ins().store(flags(cl::I32), state, fr.base, 0);
        let one = self.b.ins().iconst(cl::I8, 1);
        let pending = if point == Point::Group {
            fr.pending
        } else {
            fr.pending_sub
        };
        self.b.ins().stack_store(cl::I64, one, pending, 0);
        self.b.ins().jump(next, &[]);

        self.b.switch_to_block(resume);
        for (var, t, off) in saved {
            let v = self.b.ins().load(t, flags(t), fr.base, off);
            self.b.def_var(var, v);
        }
        for (var, v) in same {
            self.b.def_var(var, v);
        }
        let mut done = HashMap::new();
        for (var, v, plan) in again {
            let v = self.recompute(v, &plan, &mut done);
            self.b.def_var(var, v);
        }
        Ok((fr, k))
    }

    /// Before a kernel's work-item ends: records that it is done (in a
    /// kernel with barriers, so later phases skip it).
    pub(super) fn finish_work_item(&mut self) {
        if let Some(fr) = self.frame_entry() {
            let done = self.b.ins().iconst(cl::I32, i64::from(DONE as i32));
            self.b.ins().store(MemFlagsData::trusted(), done, fr.base, 0);
        }
    }

    /// The frame of the work-item of local linear id `item` (`i64`): the
    /// private arena holds one frame per work-item, in that order.
    pub(super) fn frame_of(&mut self, fr: FrameEntry, item: Value) -> Value {
        let private = self.ctx_word(crate::launch_abi::ctx_offset::PRIVATE_ARENA);
        let size = self.b.func.dfg.first_result(fr.size);
        let off = self.b.ins().imul(item, size);
        self.b.ins().iadd(private, off)
    }

    /// A new block that resumes a work-item at sub-group point `resume` if
    /// its sub-group may go on in this phase, and otherwise leaves it
    /// waiting (for the next sub-group phase) and goes on to `next`. With
    /// yield points, work-items of a sub-group may reach a sub-group point
    /// in different phases, so the decision is made once per phase by the
    /// sub-group's first work-item, which is dispatched before the others:
    /// the sub-group goes on if none of its work-items is at a yield point.
    /// It leaves `phase * 2 + go` in the `ready` slot of its frame, which
    /// the others read (a first work-item at a yield point leaves nothing
    /// there in this phase, so they wait too).
    fn sub_group_ready(&mut self, fr: FrameEntry, ready: i32, resume: Block, next: Block) -> Block {
        use cranelift_codegen::ir::BlockArg;
        let guard = self.b.create_block();
        let (decide, head, body, read, wait) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.switch_to_block(guard);
        let super::collective::Span { first, count, lin } = self.span(true);
        let end = self.b.ins().iadd(first, count);
        let first_frame = self.frame_of(fr, first);
        let phase = self.b.ins().stack_load(cl::I64, cl::I64, fr.phase_count, 0);
        let stamp = self.b.ins().ishl_imm_u(phase, 1);
        let go = self.b.ins().iadd_imm_s(stamp, 1);
        let is_first = self.b.ins().icmp(IntCC::Equal, lin, first);
        self.b.ins().brif(is_first, decide, &[], read, &[]);

        // The first work-item scans its sub-group's states.
        self.b.switch_to_block(decide);
        self.b.ins().jump(head, &[BlockArg::Value(first)]);
        self.b.switch_to_block(head);
        let k = self.b.append_block_param(head, cl::I64);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, k, end);
        let (scan, all_clear) = (body, self.b.create_block());
        self.b.ins().brif(more, scan, &[], all_clear, &[]);
        self.b.switch_to_block(body);
        let at = self.frame_of(fr, k);
        let state = self.b.ins().load(cl::I32, MemFlagsData::trusted(), at, 0);
        // A yield state has bit 30 set and bit 31 clear (DONE has both).
        let top = self.b.ins().band_imm_s(state, 0xC000_0000u32 as i32 as i64);
        let yields = self.b.ins().icmp_imm_s(IntCC::Equal, top, i64::from(YIELD_STATE));
        let k1 = self.b.ins().iadd_imm_s(k, 1);
        let refuse = self.b.create_block();
        self.b.ins().brif(yields, refuse, &[], head, &[BlockArg::Value(k1)]);
        self.b.switch_to_block(refuse);
        self.b.ins().store(MemFlagsData::trusted(), stamp, first_frame, ready);
        self.b.ins().jump(wait, &[]);
        self.b.switch_to_block(all_clear);
        self.b.ins().store(MemFlagsData::trusted(), go, first_frame, ready);
        self.b.ins().jump(resume, &[]);

        // The others follow its decision of this phase; if it has returned
        // (a kernel that leaves part of a sub-group out of a sub-group
        // operation, which OpenCL leaves undefined), they go on rather than
        // wait forever.
        self.b.switch_to_block(read);
        let decided = self.b.ins().load(cl::I64, MemFlagsData::trusted(), first_frame, ready);
        let goes = self.b.ins().icmp(IntCC::Equal, decided, go);
        let first_state = self.b.ins().load(cl::I32, MemFlagsData::trusted(), first_frame, 0);
        let first_done = self
            .b
            .ins()
            .icmp_imm_s(IntCC::Equal, first_state, i64::from(DONE as i32));
        let goes = self.b.ins().bor(goes, first_done);
        self.b.ins().brif(goes, resume, &[], wait, &[]);

        self.b.switch_to_block(wait);
        let one = self.b.ins().iconst(cl::I8, 1);
        self.b.ins().stack_store(cl::I64, one, fr.pending_sub, 0);
        self.b.ins().jump(next, &[]);
        guard
    }

    /// A new block that clears the `ready` slot of a starting work-item's
    /// frame (an earlier work-group's decision must not be read) and goes
    /// on to `entry`.
    fn clear_ready(&mut self, fr: FrameEntry, ready: i32, entry: Block) -> Block {
        let start = self.b.create_block();
        self.b.switch_to_block(start);
        let zero = self.b.ins().iconst(cl::I64, 0);
        self.b.ins().store(MemFlagsData::trusted(), zero, fr.base, ready);
        self.b.ins().jump(entry, &[]);
        start
    }

    /// After the kernel's body: fills the dispatch block (state 0 to the
    /// body's `entry`, k to where barrier k resumes, "done" to the next
    /// work-item) and sets the frame size. Returns the frame size.
    pub(super) fn finish_frame(&mut self, fr: FrameEntry, entry: Block) -> R<u64> {
        let Exit::NextWorkItem(next) = self.body.exit else {
            return Err("only kernels have frames".into());
        };
        // In a sub-group phase, work-items waiting for their whole
        // work-group stay where they are, and so do those waiting for their
        // sub-group while one of it is at a yield point.
        let (resume, size, ready) = {
            let mut k = self.kernel.borrow_mut();
            let fs = k.frame.as_mut().ok_or("no frame")?;
            let resume = fs.resume.clone();
            let yields = resume.iter().any(|&(_, p)| p == Point::Yield);
            let ready = if yields { Some(fs.alloc(8, 8)?) } else { None };
            (resume, fs.size.div_ceil(fs.align) * fs.align, ready)
        };
        let any_sub = resume.iter().any(|&(_, p)| p != Point::Group);
        let mut sw = Switch::new();
        match ready {
            Some(ready) => {
                let start = self.clear_ready(fr, ready, entry);
                sw.set_entry(0, start);
            }
            None => sw.set_entry(0, entry),
        }
        for (k, &(blk, point)) in resume.iter().enumerate() {
            let target = match point {
                Point::Group if any_sub => {
                    let guard = self.b.create_block();
                    self.b.switch_to_block(guard);
                    self.b.ins().brif(fr.sub_phase, next, &[], blk, &[]);
                    guard
                }
                Point::SubGroup => match ready {
                    Some(ready) => self.sub_group_ready(fr, ready, blk, next),
                    None => blk,
                },
                _ => blk,
            };
            sw.set_entry(u128::from(state_of(k + 1, point) as u32), target);
        }
        self.b.switch_to_block(fr.dispatch);
        sw.emit(self.b, fr.state, next);
        self.b.func.replace(fr.size).iconst(cl::I64, size as i64);
        Ok(size)
    }
}
