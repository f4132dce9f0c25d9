//! Control flow: branch targets are labels of the same function (never the
//! entry block), OpPhi has exactly one (value, parent) pair per predecessor,
//! and every definition dominates its uses. Dominators come from the CFG
//! (Cooper, Harvey and Kennedy's iterative algorithm over reverse
//! postorder), never from the block layout: clang-15 + llvm-spirv-15 at -O2
//! lay a loop's exit block out before the loop body that dominates it.

use spirv::Op;

use super::Diags;
use crate::spirv::{Cfg, Function, Id, IdKind, Module, NONE};

/// Builds each function's [`Cfg`] and checks the control-flow rules.
pub fn check(m: &mut Module, d: &mut Diags) {
    for fi in 0..m.functions.len() {
        let cfg = function(m, fi as u32, d);
        m.functions[fi].cfg = cfg;
        if d.full() {
            return;
        }
    }
}

/// The block of this function that `label` starts.
fn block_of(m: &Module, fi: u32, label: Id) -> Option<u32> {
    let x = m.info(label)?;
    (x.kind == IdKind::Label && x.func == fi).then_some(x.block)
}

/// The successors named by a terminator (in operand order, repeats kept).
pub fn targets(m: &Module, term: u32) -> Vec<Id> {
    let inst = &m.insts[term as usize];
    match inst.op {
        Op::Branch => inst.id(0).into_iter().collect(),
        Op::BranchConditional => [inst.id(1), inst.id(2)].into_iter().flatten().collect(),
        Op::Switch => inst.id_operands().skip(1).map(|(_, id)| id).collect(),
        _ => Vec::new(),
    }
}

fn function(m: &Module, fi: u32, d: &mut Diags) -> Cfg {
    let f: &Function = &m.functions[fi as usize];
    let n = f.blocks.len();
    if n == 0 || f.blocks.iter().any(|b| b.end == NONE) {
        return Cfg::default();
    }
    // Successors, each once.
    let mut succs: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut mark = vec![NONE; n];
    for (b, blk) in f.blocks.iter().enumerate() {
        for t in targets(m, blk.end) {
            match block_of(m, fi, t) {
                None => d.at(
                    m,
                    blk.end,
                    format!("branch target {} is not a label of this function", m.show(t)),
                ),
                Some(0) => d.at(
                    m,
                    blk.end,
                    format!("the entry block {} of a function cannot be a branch target", m.show(t)),
                ),
                Some(s) => {
                    if mark[s as usize] != b as u32 {
                        mark[s as usize] = b as u32;
                        succs[b].push(s);
                    }
                }
            }
        }
    }
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s as usize].push(b as u32);
        }
    }
    // Reverse postorder by an iterative depth-first search from the entry.
    let mut reachable = vec![false; n];
    let mut post = Vec::with_capacity(n);
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    reachable[0] = true;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&s) = succs[b as usize].get(*next) {
            *next += 1;
            if !reachable[s as usize] {
                reachable[s as usize] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
            stack.pop();
        }
    }
    let rpo: Vec<u32> = post.iter().rev().copied().collect();
    let mut order = vec![NONE; n];
    for (k, &b) in rpo.iter().enumerate() {
        order[b as usize] = k as u32;
    }
    // Immediate dominators.
    let mut idom = vec![NONE; n];
    idom[0] = 0;
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &rpo[1..] {
            let mut new = NONE;
            for &p in &preds[b as usize] {
                if idom[p as usize] == NONE {
                    continue;
                }
                new = if new == NONE {
                    p
                } else {
                    let (mut x, mut y) = (p, new);
                    while x != y {
                        while order[x as usize] > order[y as usize] {
                            x = idom[x as usize];
                        }
                        while order[y as usize] > order[x as usize] {
                            y = idom[y as usize];
                        }
                    }
                    x
                };
            }
            if idom[b as usize] != new {
                idom[b as usize] = new;
                changed = true;
            }
        }
    }
    idom[0] = NONE;
    // Dominator-tree intervals: a dominates b iff pre[a] <= pre[b] and
    // post[b] <= post[a].
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &b in &rpo[1..] {
        if idom[b as usize] != NONE {
            children[idom[b as usize] as usize].push(b);
        }
    }
    let (mut pre_n, mut post_n) = (vec![0u32; n], vec![0u32; n]);
    let mut clock = 0u32;
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    pre_n[0] = clock;
    while let Some(&mut (b, ref mut next)) = stack.last_mut() {
        if let Some(&c) = children[b as usize].get(*next) {
            *next += 1;
            clock += 1;
            pre_n[c as usize] = clock;
            stack.push((c, 0));
        } else {
            clock += 1;
            post_n[b as usize] = clock;
            stack.pop();
        }
    }
    let dominates = |a: u32, b: u32| {
        reachable[a as usize]
            && reachable[b as usize]
            && pre_n[a as usize] <= pre_n[b as usize]
            && post_n[b as usize] <= post_n[a as usize]
    };

    // OpPhi and the uses of each instruction.
    let mut listed = vec![NONE; n];
    let mut pred_mark = vec![NONE; n];
    let mut values = vec![NONE; n];
    for (b, blk) in f.blocks.iter().enumerate() {
        let b = b as u32;
        for &p in &preds[b as usize] {
            pred_mark[p as usize] = b;
        }
        let mut phis_done = false;
        for i in blk.start + 1..=blk.end {
            let inst = &m.insts[i as usize];
            match inst.op {
                Op::Line | Op::NoLine => continue,
                Op::Phi => {
                    if phis_done {
                        d.at(m, i, "OpPhi must come before the other instructions of its block");
                    }
                    phi(
                        m,
                        fi,
                        b,
                        i,
                        &preds,
                        &pred_mark,
                        &mut listed,
                        &mut values,
                        &reachable,
                        &dominates,
                        d,
                    );
                    continue;
                }
                // SPIR-V asks for Function variables at the start of the
                // first block, but llvm-spirv 15 puts the temporary of a
                // memcpy between address spaces (global to local) where
                // the copy is. A variable is lowered where it stands (a
                // stack slot; its initializer stored each time it runs),
                // so one in a later block is accepted.
                _ => {}
            }
            phis_done = true;
            for (_, v) in inst.id_operands() {
                let Some(x) = m.info(v) else { continue };
                match x.kind {
                    IdKind::Value | IdKind::Undef | IdKind::Param | IdKind::Label if x.func != NONE => {}
                    _ => continue,
                }
                if x.func != fi {
                    d.at(m, i, format!("{} is defined in another function", m.show(v)));
                    continue;
                }
                if !matches!(x.kind, IdKind::Value | IdKind::Undef) || !reachable[b as usize] {
                    continue;
                }
                let db = x.block;
                let ok = if db == b {
                    x.def < i
                } else {
                    db != NONE && dominates(db, b)
                };
                if !ok {
                    let rule = if db == b {
                        format!("{} is used before its definition in the same block", m.show(v))
                    } else {
                        format!(
                            "{} is used in block {}, but its definition in block {} does not dominate that block",
                            m.show(v),
                            m.show(blk.label),
                            label(m, f, db)
                        )
                    };
                    d.at(m, i, rule);
                }
            }
            if d.full() {
                break;
            }
        }
    }
    Cfg {
        succs,
        preds,
        rpo,
        idom,
        reachable,
    }
}

fn label(m: &Module, f: &Function, b: u32) -> String {
    f.blocks.get(b as usize).map_or_else(|| "?".into(), |x| m.show(x.label))
}

/// One OpPhi of block `b`: one pair per predecessor, parents are
/// predecessors, and each value dominates the end of its parent.
#[allow(clippy::too_many_arguments)]
fn phi(
    m: &Module,
    fi: u32,
    b: u32,
    i: u32,
    preds: &[Vec<u32>],
    pred_mark: &[u32],
    listed: &mut [u32],
    values: &mut [u32],
    reachable: &[bool],
    dominates: &dyn Fn(u32, u32) -> bool,
    d: &mut Diags,
) {
    let f = &m.functions[fi as usize];
    let inst = &m.insts[i as usize];
    let here = f.blocks[b as usize].label;
    let mut k = 0;
    while k + 1 < inst.operands.len() {
        let (Some(v), Some(parent)) = (inst.id(k), inst.id(k + 1)) else {
            k += 2;
            continue;
        };
        k += 2;
        let Some(p) = block_of(m, fi, parent) else {
            d.at(
                m,
                i,
                format!("OpPhi parent {} is not a label of this function", m.show(parent)),
            );
            continue;
        };
        if pred_mark[p as usize] != b {
            d.at(
                m,
                i,
                format!(
                    "OpPhi parent {} is not a predecessor of block {}",
                    m.show(parent),
                    m.show(here)
                ),
            );
            continue;
        }
        if listed[p as usize] == i {
            // One pair per edge, as LLVM writes it when an OpSwitch sends
            // several cases to this block: fine if the values agree.
            if values[p as usize] != v {
                d.at(
                    m,
                    i,
                    format!(
                        "OpPhi lists parent {} more than once with different values",
                        m.show(parent)
                    ),
                );
            }
            continue;
        }
        listed[p as usize] = i;
        values[p as usize] = v;
        let Some(x) = m.info(v) else { continue };
        if x.func != NONE && x.func != fi {
            d.at(m, i, format!("{} is defined in another function", m.show(v)));
            continue;
        }
        if matches!(x.kind, IdKind::Value | IdKind::Undef) && x.func == fi && reachable[p as usize] {
            let db = x.block;
            if db == NONE || !(db == p || dominates(db, p)) {
                d.at(
                    m,
                    i,
                    format!(
                        "OpPhi value {} for parent {}: its definition in block {} does not dominate the end of that parent",
                        m.show(v),
                        m.show(parent),
                        label(m, f, db)
                    ),
                );
            }
        }
    }
    for &p in &preds[b as usize] {
        if listed[p as usize] != i {
            d.at(
                m,
                i,
                format!(
                    "OpPhi has no value for predecessor {} of block {}",
                    label(m, f, p),
                    m.show(here)
                ),
            );
        }
    }
}
