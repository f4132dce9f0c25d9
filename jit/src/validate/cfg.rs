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

/// The CFG of function `fi`, after checking its branch targets, its OpPhi
/// instructions and that every definition dominates its uses.
fn function(m: &Module, fi: u32, d: &mut Diags) -> Cfg {
    let f: &Function = &m.functions[fi as usize];
    if f.blocks.is_empty() || f.blocks.iter().any(|b| b.end == NONE) {
        return Cfg::default();
    }
    let (succs, preds) = edges(m, fi, d);
    let (rpo, reachable) = reverse_postorder(&succs);
    let idom = immediate_dominators(&rpo, &preds);
    let tree = DomTree::new(&rpo, &idom, &reachable);
    let mut uses = Uses {
        m,
        fi,
        preds: &preds,
        tree: &tree,
        pred_mark: vec![NONE; succs.len()],
        listed: vec![NONE; succs.len()],
        values: vec![NONE; succs.len()],
    };
    for b in 0..f.blocks.len() as u32 {
        uses.block(b, d);
        if d.full() {
            break;
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

/// Successors (each once) and predecessors of every block; a branch to
/// what is not a label of this function, or to its entry block, is
/// reported and left out.
fn edges(m: &Module, fi: u32, d: &mut Diags) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let f = &m.functions[fi as usize];
    let n = f.blocks.len();
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
    (succs, preds)
}

/// The blocks reachable from the entry in reverse postorder (an iterative
/// depth-first search), and which blocks are reachable.
fn reverse_postorder(succs: &[Vec<u32>]) -> (Vec<u32>, Vec<bool>) {
    let n = succs.len();
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
    post.reverse();
    (post, reachable)
}

/// Immediate dominators (NONE for the entry and unreachable blocks), by
/// Cooper, Harvey and Kennedy's iteration over reverse postorder `rpo`.
fn immediate_dominators(rpo: &[u32], preds: &[Vec<u32>]) -> Vec<u32> {
    let n = preds.len();
    let mut order = vec![NONE; n];
    for (k, &b) in rpo.iter().enumerate() {
        order[b as usize] = k as u32;
    }
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
    idom
}

/// The dominator tree as intervals: `a` dominates `b` iff
/// `pre[a] <= pre[b]` and `post[b] <= post[a]` (both reachable).
struct DomTree<'a> {
    pre: Vec<u32>,
    post: Vec<u32>,
    reachable: &'a [bool],
}

/// Each block's children in the dominator tree whose immediate
/// dominators are `idom`, in the order of `rpo` (reachable blocks, the
/// entry first).
pub fn dominator_children(rpo: &[u32], idom: &[u32]) -> Vec<Vec<u32>> {
    let mut children: Vec<Vec<u32>> = vec![Vec::new(); idom.len()];
    for &b in rpo.iter().skip(1) {
        if let Some(c) = children.get_mut(idom[b as usize] as usize) {
            c.push(b);
        }
    }
    children
}

impl<'a> DomTree<'a> {
    fn new(rpo: &[u32], idom: &[u32], reachable: &'a [bool]) -> DomTree<'a> {
        let n = idom.len();
        let children = dominator_children(rpo, idom);
        let (mut pre, mut post) = (vec![0u32; n], vec![0u32; n]);
        let mut clock = 0u32;
        let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
        pre[0] = clock;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[b as usize].get(*next) {
                *next += 1;
                clock += 1;
                pre[c as usize] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                post[b as usize] = clock;
                stack.pop();
            }
        }
        DomTree { pre, post, reachable }
    }

    /// Whether block `a` dominates block `b`.
    fn dominates(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        self.reachable[a] && self.reachable[b] && self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

/// The checks of OpPhi and of every use, block by block; the marks are
/// scratch space indexed by block, reset by stamping them with the
/// current block or instruction.
struct Uses<'a> {
    m: &'a Module,
    fi: u32,
    preds: &'a [Vec<u32>],
    tree: &'a DomTree<'a>,
    /// `b` for each predecessor of the block `b` being checked.
    pred_mark: Vec<u32>,
    /// The OpPhi that has listed each parent block, and with which value.
    listed: Vec<u32>,
    values: Vec<u32>,
}

impl Uses<'_> {
    fn block(&mut self, b: u32, d: &mut Diags) {
        let m = self.m;
        let blk = &m.functions[self.fi as usize].blocks[b as usize];
        for &p in &self.preds[b as usize] {
            self.pred_mark[p as usize] = b;
        }
        let mut phis_done = false;
        for i in blk.start + 1..=blk.end {
            match m.insts[i as usize].op {
                Op::Line | Op::NoLine => continue,
                Op::Phi => {
                    if phis_done {
                        d.at(m, i, "OpPhi must come before the other instructions of its block");
                    }
                    self.phi(b, i, d);
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
            self.operands(b, i, d);
            if d.full() {
                break;
            }
        }
    }

    /// Each operand of instruction `i` in block `b`: defined in this
    /// function, and by an instruction that dominates `i`.
    fn operands(&self, b: u32, i: u32, d: &mut Diags) {
        let (m, fi) = (self.m, self.fi);
        let f = &m.functions[fi as usize];
        for (_, v) in m.insts[i as usize].id_operands() {
            let Some(x) = m.info(v) else { continue };
            match x.kind {
                IdKind::Value | IdKind::Undef | IdKind::Param | IdKind::Label if x.func != NONE => {}
                _ => continue,
            }
            if x.func != fi {
                d.at(m, i, format!("{} is defined in another function", m.show(v)));
                continue;
            }
            if !matches!(x.kind, IdKind::Value | IdKind::Undef) || !self.tree.reachable[b as usize] {
                continue;
            }
            let db = x.block;
            let ok = if db == b {
                x.def < i
            } else {
                db != NONE && self.tree.dominates(db, b)
            };
            if !ok {
                let rule = if db == b {
                    format!("{} is used before its definition in the same block", m.show(v))
                } else {
                    format!(
                        "{} is used in block {}, but its definition in block {} does not dominate that block",
                        m.show(v),
                        m.show(f.blocks[b as usize].label),
                        label(m, f, db)
                    )
                };
                d.at(m, i, rule);
            }
        }
    }

    /// One OpPhi `i` of block `b`: one pair per predecessor, parents are
    /// predecessors, and each value dominates the end of its parent.
    fn phi(&mut self, b: u32, i: u32, d: &mut Diags) {
        let (m, fi) = (self.m, self.fi);
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
            if self.pred_mark[p as usize] != b {
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
            if self.listed[p as usize] == i {
                // One pair per edge, as LLVM writes it when an OpSwitch sends
                // several cases to this block: fine if the values agree.
                if self.values[p as usize] != v {
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
            self.listed[p as usize] = i;
            self.values[p as usize] = v;
            let Some(x) = m.info(v) else { continue };
            if x.func != NONE && x.func != fi {
                d.at(m, i, format!("{} is defined in another function", m.show(v)));
                continue;
            }
            if matches!(x.kind, IdKind::Value | IdKind::Undef) && x.func == fi && self.tree.reachable[p as usize] {
                let db = x.block;
                if db == NONE || !(db == p || self.tree.dominates(db, p)) {
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
        for &p in &self.preds[b as usize] {
            if self.listed[p as usize] != i {
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
}

fn label(m: &Module, f: &Function, b: u32) -> String {
    f.blocks.get(b as usize).map_or_else(|| "?".into(), |x| m.show(x.label))
}

/// Whether block `a` dominates block `b`.
pub fn dominates(func: &Function, a: u32, b: u32) -> bool {
    let mut x = b;
    for _ in 0..func.blocks.len() + 1 {
        if x == a {
            return true;
        }
        match func.cfg.idom.get(x as usize) {
            Some(&d) if d != x && (d as usize) < func.blocks.len() => x = d,
            _ => return false,
        }
    }
    false
}

/// The natural loops of `func`: per header, the blocks of all its back
/// edges' loops.
pub fn natural_loops(func: &Function) -> Vec<(u32, Vec<bool>)> {
    let n = func.blocks.len();
    let mut loops: Vec<(u32, Vec<bool>)> = Vec::new();
    for u in 0..n as u32 {
        if !func.cfg.reachable.get(u as usize).copied().unwrap_or(false) {
            continue;
        }
        for &h in &func.cfg.succs[u as usize] {
            if !dominates(func, h, u) {
                continue;
            }
            let idx = match loops.iter().position(|(x, _)| *x == h) {
                Some(i) => i,
                None => {
                    loops.push((h, vec![false; n]));
                    loops.len() - 1
                }
            };
            let body = &mut loops[idx].1;
            body[h as usize] = true;
            let mut stack = vec![u];
            while let Some(b) = stack.pop() {
                if body[b as usize] {
                    continue;
                }
                body[b as usize] = true;
                stack.extend(func.cfg.preds[b as usize].iter().copied());
            }
        }
    }
    loops
}
