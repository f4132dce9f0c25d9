//! What the 4-lane lowering needs to know before it starts: whether a
//! kernel may be vectorized at all ([`eligible`]), which values of a body
//! may differ between lanes ([`may_vary`]), and before which blocks a side
//! effect may already have happened ([`dirty_blocks`]), since a chunk can
//! only give up and rerun its work-items one by one while nothing it did
//! is visible.

use std::collections::HashSet;

use rspirv::dr::Operand;
use spirv::{BuiltIn, Decoration, Op, OpenclStd100Op as Cl};

use crate::spirv::{Function, Id, IdKind, Module};
use crate::validate::calls;

/// The most blocks a function may have for the quadratic loop test of
/// [`in_cycle`]: larger kernels run scalar.
const MAX_BLOCKS: usize = 512;

/// Whether kernel function `root` (by index) and everything it calls may
/// be vectorized: no Function variables or written by-value structs
/// (private memory would need a copy per lane), no work-group collectives,
/// no functions only declared, and small enough CFGs.
pub fn eligible(m: &Module, root: u32) -> Result<(), String> {
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
        if func.blocks.len() > MAX_BLOCKS {
            return Err(format!("{} has more than {MAX_BLOCKS} blocks", m.show(func.id)));
        }
        for b in &func.blocks {
            for i in b.body() {
                let op = m.insts[i as usize].op;
                if op == Op::Variable {
                    return Err(format!("{} has private variables (OpVariable)", m.show(func.id)));
                }
                if crate::validate::memory::is_group_collective(op) {
                    return Err(format!("{} uses work-group collectives", m.show(func.id)));
                }
            }
        }
    }
    Ok(())
}

/// The built-in variables whose value differs between neighbouring
/// work-items along x.
pub fn varying_builtin(b: BuiltIn) -> bool {
    matches!(
        b,
        BuiltIn::GlobalInvocationId
            | BuiltIn::LocalInvocationId
            | BuiltIn::GlobalLinearId
            | BuiltIn::LocalInvocationIndex
            | BuiltIn::SubgroupLocalInvocationId
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
pub fn may_vary(m: &Module, func: &Function, varying_params: &[bool]) -> HashSet<Id> {
    let mut set: HashSet<Id> = func
        .params
        .iter()
        .zip(varying_params)
        .filter(|(_, &v)| v)
        .map(|(&p, _)| p)
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &bi in &func.cfg.rpo {
            let blk = &func.blocks[bi as usize];
            for i in blk.body() {
                let inst = &m.insts[i as usize];
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

/// Whether instruction `i` may make something visible outside the
/// work-item: stores, copies, atomics, extended instructions writing
/// through a pointer (and printf), calls to functions that do.
pub fn side_effect(m: &Module, i: u32, fn_effects: &[bool]) -> bool {
    let inst = &m.insts[i as usize];
    match inst.op {
        Op::Store | Op::CopyMemory | Op::CopyMemorySized | Op::ControlBarrier | Op::MemoryBarrier => true,
        op if crate::validate::memory::is_atomic(op) => true,
        Op::ExtInst => {
            per_lane_always(m, i)
                || inst.operands.iter().skip(2).any(|o| match o {
                    Operand::IdRef(x) => m.type_of(*x).and_then(|t| m.pointer(t)).is_some(),
                    _ => false,
                })
        }
        Op::FunctionCall => inst
            .id(0)
            .and_then(|c| m.info(c))
            .is_none_or(|f| fn_effects.get(f.index as usize).copied().unwrap_or(true)),
        _ => false,
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
        .map(|b| b.body().any(|i| side_effect(m, i, fn_effects)))
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
