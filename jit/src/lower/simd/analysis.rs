//! What the 4-lane lowering needs to know before it starts: whether a
//! kernel may be vectorized at all ([`eligible`]), which values of a body
//! may differ between lanes ([`may_vary`]), and before which blocks a side
//! effect may already have happened ([`dirty_blocks`]), since a chunk can
//! only give up and rerun its work-items one by one while nothing it did
//! is visible.

use std::collections::{HashMap, HashSet};

use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration, Op, OpenclStd100Op as Cl};

use crate::spirv::{Function, Id, IdKind, Module};
use crate::validate::calls;

/// The most blocks a function may have for the quadratic loop test of
/// [`in_cycle`]: larger kernels run scalar.
const MAX_BLOCKS: usize = 512;

/// Whether kernel function `root` (by index) and everything it calls may
/// be vectorized: no written by-value structs, no work-group collectives,
/// no functions only declared, and small enough CFGs.
pub fn eligible(m: &Module, root: u32, yields: &crate::lower::progress::Yields) -> Result<(), String> {
    // A struct passed by value that the kernel writes to is copied into
    // each work-item's private memory.
    let Some(kernel) = m.functions.get(root as usize) else {
        return Err("not a function".into());
    };
    let written_byval = kernel.params.iter().any(|&p| {
        matches!(
            m.type_of(p).and_then(|t| m.pointer(t)),
            Some((spirv::StorageClass::Function, _))
        ) && !crate::lower::memory::only_read_through(m, kernel, p)
    });
    if written_byval {
        return Err("the kernel writes to a struct passed by value (private memory)".into());
    }
    let graph = calls::call_graph(m);
    for f in calls::reachable(&graph, root) {
        let func = m.functions.get(f as usize).ok_or("not a function")?;
        if func.blocks.is_empty() {
            return Err(format!("{} is only declared", m.show(func.id)));
        }
        // A chunk would yield where its lanes may not agree to.
        if !yields.headers(f).is_empty() {
            return Err(format!(
                "{} has a loop reading memory through an atomic (a yield point)",
                m.show(func.id)
            ));
        }
        if func.blocks.len() > MAX_BLOCKS {
            return Err(format!("{} has more than {MAX_BLOCKS} blocks", m.show(func.id)));
        }
        for b in &func.blocks {
            for i in b.body() {
                let op = m.insts[i as usize].op;
                if crate::validate::memory::is_group_collective(op) {
                    return Err(format!("{} uses work-group collectives", m.show(func.id)));
                }
                // The non-uniform ballot values and sub-group masks are
                // computed from one work-item's sub-group local id.
                if crate::validate::memory::is_non_uniform(op)
                    || (op == Op::Load
                        && m.insts[i as usize]
                            .id(0)
                            .and_then(|p| builtin_of(m, p))
                            .is_some_and(sub_group_mask))
                {
                    return Err(format!("{} uses sub-group ballots or masks", m.show(func.id)));
                }
                // Each pipe operation has an effect outside private memory
                // (a reservation), which a chunk abandoned on a varying
                // branch would repeat.
                if matches!(op, crate::spirv::opsets::pipes!()) {
                    return Err(format!("{} uses pipes", m.show(func.id)));
                }
                // So does each device-side enqueue (a child kernel, a
                // marker, an event's reference count).
                if crate::block_invoke::is_device_enqueue(op) {
                    return Err(format!("{} uses device-side enqueue", m.show(func.id)));
                }
            }
        }
    }
    Ok(())
}

/// The built-in variables whose value differs between neighbouring
/// work-items along x.
pub fn varying_builtin(b: BuiltIn) -> bool {
    affine_builtin(b) || per_lane_builtin(b)
}

/// The varying built-in variables whose first component grows by one from
/// each work-item to the next along x.
pub fn affine_builtin(b: BuiltIn) -> bool {
    matches!(
        b,
        BuiltIn::GlobalInvocationId
            | BuiltIn::LocalInvocationId
            | BuiltIn::GlobalLinearId
            | BuiltIn::LocalInvocationIndex
    )
}

/// The varying built-in variables computed lane by lane: the sub-group's
/// id, size and local id, since a chunk may straddle two sub-groups (a row
/// of a size that is not a multiple of 4).
pub fn per_lane_builtin(b: BuiltIn) -> bool {
    matches!(
        b,
        BuiltIn::SubgroupLocalInvocationId | BuiltIn::SubgroupId | BuiltIn::SubgroupSize
    )
}

/// The sub-group mask built-in variables (`uint4`, one per work-item).
pub fn sub_group_mask(b: BuiltIn) -> bool {
    matches!(
        b,
        BuiltIn::SubgroupEqMask
            | BuiltIn::SubgroupGeMask
            | BuiltIn::SubgroupGtMask
            | BuiltIn::SubgroupLeMask
            | BuiltIn::SubgroupLtMask
    )
}

/// The BuiltIn decoration of module variable `ptr`, if it has one.
pub fn builtin_of(m: &Module, ptr: Id) -> Option<BuiltIn> {
    if m.kind(ptr) != IdKind::Global {
        return None;
    }
    let d = m.decoration(ptr, Decoration::BuiltIn)?;
    match m.deco_params(d).first() {
        Some(Operand::BuiltIn(b)) => Some(*b),
        _ => None,
    }
}

/// Whether instruction `i` must run once per lane even when its operands
/// are the same in every lane: atomics (each lane's operation counts) and
/// printf.
pub fn per_lane_always(m: &Module, i: u32) -> bool {
    let inst = &m.insts[i as usize];
    crate::validate::memory::is_atomic(inst.op) || (inst.op == Op::ExtInst && inst.lit(1) == Some(Cl::printf as u32))
}

/// The values of `func` that may differ between lanes, given which of its
/// parameters do: a superset (a value the lowering finds uniform anyway is
/// simply the same in every lane).
/// `also` are values known to vary besides (the phis after masked loops,
/// whose lanes arrive from different iterations).
pub fn may_vary(m: &Module, func: &Function, varying_params: &[bool], also: &[Id]) -> HashSet<Id> {
    let mut set: HashSet<Id> = func
        .params
        .iter()
        .zip(varying_params)
        .filter(|(_, &v)| v)
        .map(|(&p, _)| p)
        .chain(also.iter().copied())
        .collect();
    // A private variable whose address is only loaded from and stored to
    // (directly) and that only ever receives values the same in every
    // lane stays one variable shared by the lanes (an -O0 loop counter);
    // any other has a copy per lane. Control flow is uniform within a
    // chunk (see `super`), so which stores happen is the same in every
    // lane too.
    let escaping = escaping_variables(m, func);
    let mut changed = true;
    while changed {
        changed = false;
        for &bi in &func.cfg.rpo {
            let blk = &func.blocks[bi as usize];
            for i in blk.body() {
                let inst = &m.insts[i as usize];
                if inst.op == Op::Store {
                    if let (Some(p), Some(v)) = (inst.id(0), inst.id(1)) {
                        let var = m.def(p).is_some_and(|d| d.op == Op::Variable);
                        if var && set.contains(&v) && set.insert(p) {
                            changed = true;
                        }
                    }
                    continue;
                }
                let Some(r) = inst.result_id else { continue };
                if set.contains(&r) {
                    continue;
                }
                let ids = || {
                    inst.operands.iter().filter_map(|o| match o {
                        Operand::IdRef(x) => Some(*x),
                        _ => None,
                    })
                };
                let varies = match inst.op {
                    Op::Load => {
                        let ptr = inst.id(0);
                        ptr.is_some_and(|p| set.contains(&p) || builtin_of(m, p).is_some_and(varying_builtin))
                    }
                    // Results of calls depend on what the callee computes:
                    // taken as varying.
                    Op::FunctionCall => true,
                    Op::Variable => escaping.contains(&r) || inst.id(1).is_some_and(|x| set.contains(&x)),
                    _ if per_lane_always(m, i) => true,
                    _ => ids().any(|x| set.contains(&x)),
                };
                if varies {
                    set.insert(r);
                    changed = true;
                }
            }
        }
    }
    set
}

/// The private variables of `func` whose address is used other than as
/// the pointer of an OpLoad or OpStore (or by lifetime markers).
fn escaping_variables(m: &Module, func: &Function) -> HashSet<Id> {
    let mut vars: HashSet<Id> = HashSet::new();
    let mut escaping = HashSet::new();
    for blk in &func.blocks {
        for i in blk.body() {
            let inst = &m.insts[i as usize];
            if inst.op == Op::Variable {
                if let Some(r) = inst.result_id {
                    vars.insert(r);
                }
            }
        }
    }
    for blk in &func.blocks {
        for i in blk.body() {
            let inst = &m.insts[i as usize];
            for (k, o) in inst.operands.iter().enumerate() {
                let Operand::IdRef(x) = o else { continue };
                if !vars.contains(x) {
                    continue;
                }
                let direct = match inst.op {
                    Op::Load | Op::LifetimeStart | Op::LifetimeStop => k == 0,
                    Op::Store => k == 0,
                    _ => false,
                };
                if !direct {
                    escaping.insert(*x);
                }
            }
        }
    }
    escaping
}

/// Whether instruction `i` is an extended instruction with a pointer
/// operand: one that reads or writes memory (`vloadn`, `vstoren`, the
/// `vload_half` and `vstore_half` families, `prefetch`, and the math
/// functions with a pointer result: `fract`, `frexp`, `modf`, `remquo`,
/// `sincos`, `lgamma_r`).
pub fn ext_through_pointer(m: &Module, i: u32) -> bool {
    let inst = &m.insts[i as usize];
    inst.op == Op::ExtInst
        && inst.operands.iter().skip(2).any(|o| match o {
            Operand::IdRef(x) => m.type_of(*x).and_then(|t| m.pointer(t)).is_some(),
            _ => false,
        })
}

/// Whether instruction `i` may make something visible outside the
/// work-item: stores, copies, atomics, extended instructions writing
/// through a pointer (and printf), calls to functions that do.
pub fn side_effect(m: &Module, i: u32, fn_effects: &[bool]) -> bool {
    let inst = &m.insts[i as usize];
    match inst.op {
        Op::Store | Op::CopyMemory | Op::CopyMemorySized | Op::ControlBarrier | Op::MemoryBarrier | Op::ImageWrite => {
            true
        }
        op if crate::validate::memory::is_atomic(op) => true,
        Op::ExtInst => per_lane_always(m, i) || ext_through_pointer(m, i),
        Op::FunctionCall => inst
            .id(0)
            .and_then(|c| m.info(c))
            .is_none_or(|f| fn_effects.get(f.index as usize).copied().unwrap_or(true)),
        _ => false,
    }
}

/// Whether instruction `i` may make something visible that a chunk
/// abandoned afterwards could not take back: [`side_effect`], except
/// stores and copies into private (Function) memory, which the scalar body
/// that reruns the chunk's work-items does not share.
pub fn visible_effect(m: &Module, i: u32, fn_effects: &[bool]) -> bool {
    let inst = &m.insts[i as usize];
    let private = |p: Option<Id>| {
        matches!(
            p.and_then(|p| m.type_of(p)).and_then(|t| m.pointer(t)),
            Some((spirv::StorageClass::Function, _))
        )
    };
    match inst.op {
        Op::Store | Op::CopyMemory | Op::CopyMemorySized if private(inst.id(0)) => false,
        _ => side_effect(m, i, fn_effects),
    }
}

/// Per function of `m` (by index): whether calling it may have a side
/// effect ([`side_effect`]).
pub fn function_effects(m: &Module) -> Vec<bool> {
    let mut fx = vec![false; m.functions.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (f, func) in m.functions.iter().enumerate() {
            if fx[f] {
                continue;
            }
            let has = func.blocks.is_empty() || func.blocks.iter().any(|b| b.body().any(|i| side_effect(m, i, &fx)));
            if has {
                fx[f] = true;
                changed = true;
            }
        }
    }
    fx
}

/// Per block of `func`: whether a side effect may have happened on some
/// path from the function's entry to the block's start.
pub fn dirty_blocks(m: &Module, func: &Function, fn_effects: &[bool]) -> Vec<bool> {
    let n = func.blocks.len();
    let has: Vec<bool> = func
        .blocks
        .iter()
        .map(|b| b.body().any(|i| visible_effect(m, i, fn_effects)))
        .collect();
    let mut dirty_in = vec![false; n];
    let mut changed = true;
    while changed {
        changed = false;
        for &bi in &func.cfg.rpo {
            let bi = bi as usize;
            if dirty_in[bi] {
                continue;
            }
            let d = func.cfg.preds[bi]
                .iter()
                .any(|&p| dirty_in[p as usize] || has[p as usize]);
            if d {
                dirty_in[bi] = true;
                changed = true;
            }
        }
    }
    dirty_in
}

/// Per block of `func`: whether it lies on a cycle of the CFG (a loop).
pub fn in_cycle(func: &Function) -> Vec<bool> {
    let n = func.blocks.len();
    (0..n)
        .map(|start| {
            // Can `start` reach itself?
            let mut seen = vec![false; n];
            let mut stack: Vec<usize> = func.cfg.succs[start].iter().map(|&s| s as usize).collect();
            while let Some(b) = stack.pop() {
                if b == start {
                    return true;
                }
                if b >= n || seen[b] {
                    continue;
                }
                seen[b] = true;
                stack.extend(func.cfg.succs[b].iter().map(|&s| s as usize));
            }
            false
        })
        .collect()
}

/// A loop that a 4-lane body runs under a mask: the lanes leave it one by
/// one (a varying exit) while the others go on; each lane's values for the
/// exit block's phis are kept from the iteration it left in.
#[derive(Debug, Clone)]
pub struct MaskedLoop {
    /// The loop's blocks (by index).
    pub body: Vec<bool>,
    /// Its header (the target of its back edges).
    pub header: u32,
    /// The one block its exits go to.
    pub exit: u32,
    /// Blocks just after it on the way to `exit` (see [`masked_loops`]).
    pub tails: Vec<u32>,
    /// Blocks before it whose varying branch goes to `header` (or to
    /// `preheader`) or `exit`.
    pub guards: Vec<u32>,
    /// The block between a guard and `header`, if the guard goes there
    /// (code LLVM hoisted out of the loop): it runs for the lanes that
    /// enter the loop.
    pub preheader: Option<u32>,
}

/// Why block `b` of `func` cannot run under a mask (in a masked loop or
/// in an arm of a [`Region`]), if it cannot: barriers and collectives
/// (every lane must reach them), also in the functions it calls, returns
/// and switches. A call is inlined with the caller's mask as its body's
/// guard (`Lowering::guard`).
fn masked_refusal(m: &Module, func: &Function, b: usize) -> Option<String> {
    masked_refusal_in(m, func, b, false)
}

/// Whether block `t` is an exit tail of the loop whose blocks are `body`:
/// a block just outside it, entered only from one block of it, without
/// phis, that goes straight on (a `break` with some work of its own),
/// which a masked loop runs under its mask as part of the loop.
pub(crate) fn loop_tail(m: &Module, func: &Function, body: &[bool], t: usize) -> bool {
    !body[t]
        && func.cfg.preds[t].len() == 1
        && body[func.cfg.preds[t][0] as usize]
        && m.insts[func.blocks[t].end as usize].op == Op::Branch
        && func.blocks[t].body().all(|i| m.insts[i as usize].op != Op::Phi)
        // A block a mask may not cover (a barrier after the loop) is the
        // exit itself, not a tail.
        && masked_refusal(m, func, t).is_none()
}

/// [`masked_refusal`], a switch allowed when `switch_ok` (a block of a
/// DAG region, `dag`, whose terminators are all lowered under masks).
pub(super) fn masked_refusal_in(m: &Module, func: &Function, b: usize, switch_ok: bool) -> Option<String> {
    for i in func.blocks[b].body() {
        let inst = &m.insts[i as usize];
        match inst.op {
            Op::Switch if switch_ok => {}
            Op::FunctionCall => {
                if let Some(why) = inst.id(0).and_then(|f| callee_refusal(m, f, &mut Vec::new())) {
                    return Some(format!("it calls {}, which {why}", m.show(inst.id(0).unwrap_or(0))));
                }
            }
            Op::ControlBarrier | Op::Switch | Op::Return | Op::ReturnValue | Op::Unreachable | Op::Kill => {
                return Some(format!("it contains {}", inst.opname()))
            }
            op if crate::validate::memory::is_group_collective(op) => {
                return Some(format!("it contains {}", inst.opname()))
            }
            _ => {}
        }
    }
    None
}

/// Why function `f` cannot be called under a mask, if it cannot: it, or
/// a function it calls, holds a barrier or a collective, which every
/// work-item of the group must reach. (`seen`: the functions on the way,
/// against cycles, which the validator rejects anyway.)
fn callee_refusal(m: &Module, f: Id, seen: &mut Vec<Id>) -> Option<String> {
    if seen.contains(&f) {
        return None;
    }
    seen.push(f);
    let func = m.info(f).and_then(|x| m.functions.get(x.index as usize))?;
    for i in func.inst..=func.end {
        let inst = &m.insts[i as usize];
        match inst.op {
            Op::ControlBarrier => return Some(format!("contains {}", inst.opname())),
            op if crate::validate::memory::is_group_collective(op) => {
                return Some(format!("contains {}", inst.opname()))
            }
            Op::FunctionCall => {
                if let Some(why) = inst.id(0).and_then(|g| callee_refusal(m, g, seen)) {
                    return Some(why);
                }
            }
            _ => {}
        }
    }
    None
}

/// A branch whose condition may vary, run under masks when its lanes
/// disagree: the blocks of each arm run for the lanes that took it (their
/// memory accesses and side effects skipped for the others), one arm after
/// the other, and the phis of `merge`, where both arms meet, pick each
/// lane's value from the arm it took.
#[derive(Debug, Clone)]
pub struct Region {
    /// The block ending in the branch.
    pub head: u32,
    /// Where both arms end.
    pub merge: u32,
    /// Per side (the condition true, then false): the blocks of its arm,
    /// empty when that side goes straight to `merge`.
    pub arms: [Vec<bool>; 2],
}

impl Region {
    /// The side (0 or 1) of the arm block `b` is in.
    pub fn arm_of(&self, b: u32) -> Option<usize> {
        (0..2).find(|&k| self.arms[k].get(b as usize).copied().unwrap_or(false))
    }

    /// The number of blocks in both arms.
    pub fn size(&self) -> usize {
        self.arms.iter().map(|a| a.iter().filter(|&&x| x).count()).sum()
    }
}

/// The varying branches of `func` that can run under masks: both sides
/// meet again at one block (the first block reachable from both), each
/// arm is entered only from the branch and leaves only to that block, no
/// arm holds a block `masked_refusal` refuses or a loop that is not
/// wholly in it or whose exit may differ between lanes, and a branch
/// inside a loop has its arms and merge inside it too.
pub fn regions(m: &Module, func: &Function, may_vary: &HashSet<Id>) -> Vec<Region> {
    let n = func.blocks.len();
    let loops = crate::validate::cfg::natural_loops(func);
    let mut order = vec![usize::MAX; n];
    for (k, &b) in func.cfg.rpo.iter().enumerate() {
        order[b as usize] = k;
    }
    // The blocks reachable from `s` without passing `stop` or `head` or
    // taking a back edge (around a loop the branch is in).
    let reach = |s: u32, head: u32, stop: Option<u32>| {
        let mut seen = vec![false; n];
        let mut stack = vec![s];
        while let Some(b) = stack.pop() {
            if b == head || Some(b) == stop || seen[b as usize] {
                continue;
            }
            seen[b as usize] = true;
            stack.extend(
                func.cfg.succs[b as usize]
                    .iter()
                    .copied()
                    .filter(|&x| !crate::validate::cfg::dominates(func, x, b)),
            );
        }
        seen
    };
    // Whether a loop's exit may differ between lanes: a branch or switch
    // on a value that may vary leaves it.
    let varying_exit = |body: &[bool]| {
        (0..n).any(|b| {
            let end = &m.insts[func.blocks[b].end as usize];
            body[b]
                && matches!(end.op, Op::BranchConditional | Op::Switch)
                && end.id(0).is_some_and(|c| may_vary.contains(&c))
                && func.cfg.succs[b].iter().any(|&s| !body[s as usize])
        })
    };
    let mut out = Vec::new();
    for (h, blk) in func.blocks.iter().enumerate() {
        let end = &m.insts[blk.end as usize];
        if end.op != Op::BranchConditional || !end.id(0).is_some_and(|c| may_vary.contains(&c)) {
            continue;
        }
        let succs = [end.id(1), end.id(2)].map(|l| l.and_then(|l| m.info(l)).map(|x| x.block));
        let [Some(s0), Some(s1)] = succs else { continue };
        if s0 == s1 {
            continue;
        }
        let h = h as u32;
        let (r0, r1) = (reach(s0, h, None), reach(s1, h, None));
        let Some(merge) = (0..n)
            .filter(|&b| r0[b] && r1[b])
            .min_by_key(|&b| order[b])
            .map(|b| b as u32)
        else {
            continue;
        };
        let arms = [s0, s1].map(|s| {
            if s == merge {
                vec![false; n]
            } else {
                reach(s, h, Some(merge))
            }
        });
        let ok = (0..n).all(|b| {
            let k = match (arms[0][b], arms[1][b]) {
                (false, false) => return true,
                (true, true) => return false,
                (true, false) => 0,
                (false, true) => 1,
            };
            func.cfg.preds[b].iter().all(|&p| p == h || arms[k][p as usize])
                && func.cfg.succs[b].iter().all(|&s| s == merge || arms[k][s as usize])
                && masked_refusal(m, func, b).is_none()
        }) && loops.iter().all(|(lh, body)| {
            // A loop in an arm lies wholly in it and all lanes leave it
            // together (the arm's mask holds throughout); none the region
            // enters or leaves.
            if let Some(k) = (0..2).find(|&k| arms[k][*lh as usize]) {
                return (0..n).all(|b| !body[b] || arms[k][b]) && !varying_exit(body);
            }
            let touches = (0..n).any(|b| body[b] && (arms[0][b] || arms[1][b]));
            let inside = body[h as usize] && body[merge as usize];
            (!touches || inside) && body[h as usize] == body[merge as usize]
        });
        if ok {
            out.push(Region { head: h, merge, arms });
        }
    }
    out
}

/// The loops of `func` with an exit whose condition may vary between
/// lanes, that a 4-lane body can run under a mask: a single exit block, no
/// barriers, calls, returns or switches inside, no other branch that may
/// vary unless it heads one of `regions` (inside the loop), and no value
/// of the loop used after it except through the exit block's phis. The
/// lanes that left go on computing; their memory accesses and other side
/// effects are skipped (`simd::predicate`). A loop with a varying exit
/// that cannot be masked is an error.
pub fn masked_loops(
    m: &Module,
    func: &Function,
    may_vary: &HashSet<Id>,
    regions: &[Region],
    dags: &[super::dag::Dag],
) -> Result<Vec<MaskedLoop>, String> {
    let in_dag = |b: usize| dags.iter().any(|d| d.head == b as u32 || d.inside[b]);
    let varying_branch = |b: usize| {
        let end = &m.insts[func.blocks[b].end as usize];
        end.op == Op::BranchConditional && end.id(0).is_some_and(|c| may_vary.contains(&c))
    };
    let mut out: Vec<MaskedLoop> = Vec::new();
    let loops = crate::validate::cfg::natural_loops(func);
    let varying_exit = |body: &[bool]| {
        (0..body.len()).any(|b| body[b] && varying_branch(b) && func.cfg.succs[b].iter().any(|&s| !body[s as usize]))
    };
    for (h, body) in &loops {
        if !varying_exit(body) {
            continue;
        }
        let why = |r: &str| format!("a loop whose exit differs between work-items is not vectorized: {r}");
        // Masked loops do not nest.
        if loops
            .iter()
            .any(|(h2, b2)| h2 != h && b2[*h as usize] && varying_exit(b2))
        {
            return Err(why("it is nested in another such loop"));
        }
        // Exit tails: blocks just outside the loop, entered only from one
        // block of it, that go straight on to the exit block (a `break`
        // with some work of its own). They run under the mask too.
        let n = body.len();
        let tails: Vec<u32> = (0..n as u32)
            .filter(|&t| loop_tail(m, func, body, t as usize))
            .collect();
        let mut region = body.clone();
        for &t in &tails {
            region[t as usize] = true;
        }
        let mut exit = None;
        for b in 0..n {
            if !region[b] {
                continue;
            }
            for &s in &func.cfg.succs[b] {
                if !region[s as usize] {
                    if exit.is_some_and(|x| x != s) {
                        return Err(why("it has more than one exit block"));
                    }
                    exit = Some(s);
                }
            }
            if let Some(r) = masked_refusal_in(m, func, b, in_dag(b)) {
                return Err(why(&r));
            }
            if varying_branch(b)
                && func.cfg.succs[b].iter().all(|&s| body[s as usize])
                && !regions.iter().any(|r| r.head == b as u32)
                && !in_dag(b)
            {
                return Err(why("a branch inside it differs between work-items"));
            }
        }
        let exit = exit.ok_or_else(|| why("it has no exit"))?;
        // A tail must lead to the exit block (not back into the loop).
        if tails.iter().any(|&t| func.cfg.succs[t as usize] != [exit]) {
            return Err(why("a block after it does not lead to its exit"));
        }
        // Values of the loop used after it (other than by the exit block's
        // phis on the loop's edges) would see the last iteration's lanes.
        let fi = m.info(func.id).map(|f| f.index);
        for (b, blk) in func.blocks.iter().enumerate() {
            if region[b] {
                continue;
            }
            for i in blk.body() {
                let inst = &m.insts[i as usize];
                let phi_from_loop = |k: usize| {
                    inst.op == Op::Phi
                        && b as u32 == exit
                        && k.is_multiple_of(2)
                        && inst
                            .id(k + 1)
                            .and_then(|l| m.info(l))
                            .is_some_and(|l| region.get(l.block as usize).copied().unwrap_or(false))
                };
                for (k, o) in inst.operands.iter().enumerate() {
                    let Operand::IdRef(x) = o else { continue };
                    let defined_in_loop = m.info(*x).is_some_and(|d| {
                        d.kind == IdKind::Value
                            && Some(d.func) == fi
                            && region.get(d.block as usize).copied().unwrap_or(false)
                    });
                    if defined_in_loop && !phi_from_loop(k) {
                        return Err(why("a value it computes is used after it"));
                    }
                }
            }
        }
        // Entry guards: blocks before the loop whose varying branch goes
        // to its header or straight to its exit (the test before a rotated
        // loop's first iteration), run as the loop's first exit test.
        let guard_to = |g: u32, to: u32| {
            !region[g as usize] && varying_branch(g as usize) && {
                let mut s = func.cfg.succs[g as usize].clone();
                s.sort_unstable();
                let mut want = vec![to, exit];
                want.sort_unstable();
                s == want
            }
        };
        let mut guards: Vec<u32> = func.cfg.preds[*h as usize]
            .iter()
            .copied()
            .filter(|&g| guard_to(g, *h))
            .collect();
        // Or a guard whose branch goes to the loop's only way in from
        // outside: a block entered from the guard alone, going straight to
        // the header, with no phis and nothing a masked block may not hold.
        let entries: Vec<u32> = func.cfg.preds[*h as usize]
            .iter()
            .copied()
            .filter(|&p| !body[p as usize])
            .collect();
        let mut preheader = None;
        if let [p] = entries[..] {
            let pu = p as usize;
            if let [g] = func.cfg.preds[pu][..] {
                if guards.is_empty()
                    && func.cfg.succs[pu] == [*h]
                    && !region[pu]
                    && func.blocks[pu].body().all(|i| m.insts[i as usize].op != Op::Phi)
                    && masked_refusal(m, func, pu).is_none()
                    && guard_to(g, p)
                {
                    guards.push(g);
                    preheader = Some(p);
                }
            }
        }
        out.push(MaskedLoop {
            body: body.clone(),
            header: *h,
            exit,
            tails,
            guards,
            preheader,
        });
    }
    Ok(out)
}

/// The loop headers of `func` (blocks some of whose predecessors they
/// dominate), each with those predecessors (the back edges' sources).
fn loop_headers(func: &Function) -> Vec<(u32, Vec<u32>)> {
    use crate::validate::cfg::dominates;
    (0..func.blocks.len() as u32)
        .filter_map(|h| {
            let back: Vec<u32> = func.cfg.preds[h as usize]
                .iter()
                .copied()
                .filter(|&p| dominates(func, h, p))
                .collect();
            (!back.is_empty()).then_some((h, back))
        })
        .collect()
}

/// The phis that begin block `b` of `func`, each with its result and
/// result type.
fn phis<'a>(m: &'a Module, func: &'a Function, b: u32) -> impl Iterator<Item = (&'a crate::spirv::Inst, Id, Id)> + 'a {
    func.blocks[b as usize]
        .body()
        .map(|i| &m.insts[i as usize])
        .take_while(|inst| inst.op == Op::Phi)
        .filter_map(|inst| Some((inst, inst.result_id?, inst.result_type?)))
}

/// The varying phis of `func` that are loop counters moving by the same
/// amount in every lane: a phi of an integer or pointer in a loop header
/// entered by one edge, whose every value from a back edge is the phi
/// plus or minus a value the same in every lane (`i += gsz`, `p += n`).
/// Such a phi stays affine (`base + lane * stride`) when the value it
/// enters with is: the lowering decides at the entering edge
/// (`Lowering::target`).
pub fn counters(m: &Module, func: &Function, may_vary: &HashSet<Id>) -> HashSet<Id> {
    let mut out = HashSet::new();
    for (h, back) in loop_headers(func) {
        if func.cfg.preds[h as usize].len() - back.len() != 1 {
            continue;
        }
        for (inst, r, ty) in phis(m, func, h) {
            let scalar = matches!(
                m.ty(ty),
                Some(crate::spirv::Type::Int { .. } | crate::spirv::Type::Pointer { .. })
            );
            if !scalar || !may_vary.contains(&r) {
                continue;
            }
            let steps = (0..inst.operands.len() / 2).all(|k| {
                let (Some(v), Some(l)) = (inst.id(2 * k), inst.id(2 * k + 1)) else {
                    return false;
                };
                let Some(from) = m.info(l).map(|x| x.block) else {
                    return false;
                };
                if !back.contains(&from) {
                    return true;
                }
                uniform_step(m, v, r, may_vary)
            });
            if steps {
                out.insert(r);
            }
        }
    }
    out
}

/// The most 128-bit registers the varying values carried around one loop
/// take in a 4-lane body: per loop header (a block some of whose
/// predecessors it dominates), its phis that may vary and are not
/// `counters`, each 8- to 32-bit or boolean component one register, a
/// 64-bit one two (a pair). An 8-lane body holds two parts' worth.
pub fn loop_registers(m: &Module, func: &Function, may_vary: &HashSet<Id>, counters: &HashSet<Id>) -> usize {
    let mut most = 0;
    for (h, _) in loop_headers(func) {
        let mut regs = 0;
        for (_, r, ty) in phis(m, func, h) {
            if !may_vary.contains(&r) || counters.contains(&r) {
                continue;
            }
            let comps = crate::lower::types::components(m, ty).unwrap_or_default();
            let bools = super::bool_components(m, ty).unwrap_or_default();
            regs += comps
                .iter()
                .zip(bools.iter().chain(std::iter::repeat(&false)))
                .map(|(t, &boolean)| match t.bits() {
                    // A boolean is a lane mask; an 8- or 16-bit integer
                    // the low lanes of one vector.
                    _ if boolean => 1,
                    8 | 16 | 32 => 1,
                    64 => 2,
                    _ => 0,
                })
                .sum::<usize>();
        }
        most = most.max(regs);
    }
    most
}

/// The loads of 8- and 16-bit integers in `func` whose values serve only
/// as indices: each use an integer conversion whose every use is an index
/// of an access chain (`bins[data[i]]`: a histogram's). A 4-lane body
/// reads them lane by lane, each lane's value ready for its address,
/// rather than as one vector taken apart again (measured: clbench's
/// hist_global about 6% slower that way).
pub fn index_loads(m: &Module, func: &Function) -> HashSet<Id> {
    let mut uses: HashMap<Id, Vec<(u32, usize)>> = HashMap::new();
    let mut loads = Vec::new();
    for blk in &func.blocks {
        for i in blk.body() {
            let inst = &m.insts[i as usize];
            for (k, o) in inst.operands.iter().enumerate() {
                if let Operand::IdRef(x) = o {
                    uses.entry(*x).or_default().push((i, k));
                }
            }
            if let (Op::Load, Some(r), Some(t)) = (inst.op, inst.result_id, inst.result_type) {
                if matches!(m.ty(t), Some(crate::spirv::Type::Int { width: 8 | 16, .. })) {
                    loads.push(r);
                }
            }
        }
    }
    let used_only = |x: Id, ok: &dyn Fn(&crate::spirv::Inst, usize) -> bool| {
        uses.get(&x)
            .is_some_and(|us| !us.is_empty() && us.iter().all(|&(i, k)| ok(&m.insts[i as usize], k)))
    };
    let index = |x: Id| {
        used_only(x, &|inst, k| {
            k >= 1
                && matches!(
                    inst.op,
                    Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain
                )
        })
    };
    loads
        .into_iter()
        .filter(|&r| {
            used_only(r, &|inst, _| {
                matches!(inst.op, Op::UConvert | Op::SConvert) && inst.result_id.is_some_and(index)
            })
        })
        .collect()
}

/// Whether value `v` is phi `r` plus or minus a value the same in every
/// lane (an integer add or subtract, or a pointer stepped by an index):
/// one step of a counter.
fn uniform_step(m: &Module, v: Id, r: Id, may_vary: &HashSet<Id>) -> bool {
    let uniform = |x: Option<Id>| x.is_some_and(|x| !may_vary.contains(&x));
    m.def(v).is_some_and(|d| match d.op {
        Op::IAdd => (d.id(0) == Some(r) && uniform(d.id(1))) || (d.id(1) == Some(r) && uniform(d.id(0))),
        Op::ISub => d.id(0) == Some(r) && uniform(d.id(1)),
        Op::PtrAccessChain | Op::InBoundsPtrAccessChain => {
            d.operands.len() == 2 && d.id(0) == Some(r) && uniform(d.id(1))
        }
        _ => false,
    })
}

/// The private variables of `func` written in blocks that run under a
/// mask (arms of `regions`, bodies and exit tails of masked `loops`,
/// blocks of DAG regions): the lanes write them in different iterations
/// or not at all, so each needs its copy per lane even when every value
/// written is the same in all. Except a variable the lanes could share
/// otherwise whose every access lies under one mask that holds for all of
/// them (one arm of a region, with no deeper mask, or one loop inside a
/// DAG region), in a region that is in no loop (an -O0 loop counter
/// there): the lanes outside that mask never see it, and the region runs
/// once per chunk (in a loop, lanes taking the arm in a later iteration
/// would read what others wrote in an earlier one).
pub fn masked_stores(
    m: &Module,
    func: &Function,
    regions: &[Region],
    loops: &[MaskedLoop],
    dags: &[super::dag::Dag],
) -> Vec<Id> {
    /// The one mask over a block, when it is one of these.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Scope {
        /// Arm (side) of region.
        Arm(usize, usize),
        /// The inner loop (by header) of DAG region, with the block that
        /// leads into it alone.
        DagLoop(usize, u32),
    }
    let cycles = crate::validate::cfg::natural_loops(func);
    let in_cycle = |b: u32| cycles.iter().any(|(_, body)| body[b as usize]);
    // Whether block `b` runs under a mask, and the one mask over it if it
    // is one a variable may be shared under.
    let scope = |b: usize| -> (bool, Option<Scope>) {
        let masked_loop = loops.iter().any(|l| {
            l.body.get(b).copied().unwrap_or(false) || l.tails.contains(&(b as u32)) || l.preheader == Some(b as u32)
        });
        if masked_loop {
            return (true, None);
        }
        if let Some((di, d)) = dags.iter().enumerate().find(|(_, d)| d.inside[b]) {
            // In an inner loop, or the block before it that only goes
            // there and is its one way in (so under the same mask).
            let l = d.loop_of(b as u32).or_else(|| {
                d.loops.iter().find(|l| {
                    func.cfg.succs[b] == [l.header]
                        && func.cfg.preds[l.header as usize]
                            .iter()
                            .all(|&p| p == b as u32 || l.body[p as usize])
                })
            });
            let s = l.filter(|_| !in_cycle(d.head)).map(|l| Scope::DagLoop(di, l.header));
            return (true, s);
        }
        let arm = regions
            .iter()
            .enumerate()
            .filter_map(|(ri, r)| {
                r.arm_of(b as u32)
                    .map(|k| (ri, k, r.arms[k].iter().filter(|&&x| x).count()))
            })
            .min_by_key(|&(_, _, size)| size);
        match arm {
            Some((ri, k, _)) => (true, (!in_cycle(regions[ri].head)).then_some(Scope::Arm(ri, k))),
            None => (false, None),
        }
    };
    let scopes: Vec<(bool, Option<Scope>)> = (0..func.blocks.len()).map(scope).collect();
    // Per variable stored under a mask: the one scope all its masked
    // stores are in (None once they differ or one is in none).
    let mut stored: Vec<(Id, Option<Scope>)> = Vec::new();
    let mut index: HashMap<Id, usize> = HashMap::new();
    for (b, blk) in func.blocks.iter().enumerate() {
        let (masked, here) = scopes[b];
        if !masked {
            continue;
        }
        for i in blk.body() {
            let inst = &m.insts[i as usize];
            if !matches!(inst.op, Op::Store | Op::CopyMemory | Op::CopyMemorySized) {
                continue;
            }
            let Some(p) = inst.id(0).filter(|&p| m.def(p).is_some_and(|d| d.op == Op::Variable)) else {
                continue;
            };
            match index.get(&p) {
                Some(&k) => {
                    if stored[k].1 != here {
                        stored[k].1 = None;
                    }
                }
                None => {
                    index.insert(p, stored.len());
                    stored.push((p, here));
                }
            }
        }
    }
    // Kept shared: every access (every use as an operand) in that scope.
    // One pass over the function: a use elsewhere drops the scope.
    for (b, blk) in func.blocks.iter().enumerate() {
        for i in blk.body() {
            for (_, x) in m.insts[i as usize].id_operands() {
                if let Some(&k) = index.get(&x) {
                    if stored[k].1 != scopes[b].1 {
                        stored[k].1 = None;
                    }
                }
            }
        }
    }
    stored
        .into_iter()
        .filter(|&(_, sc)| sc.is_none())
        .map(|(v, _)| v)
        .collect()
}
