//! Varying branches and switches whose paths cross before they meet
//! again (an `a || b` condition at -O0, whose second test and the arm of
//! `a` both lead to the `then` block; a `switch` whose selector differs
//! between lanes), run under masks in a 4-lane body: a *DAG region*.
//!
//! A two-armed region (`predicate`) needs each block to belong to one arm.
//! Here the blocks between the head (the varying branch or switch) and its
//! immediate post-dominator (the merge) may be entered from several of
//! them; they form an acyclic graph entered only from the head and left
//! only to the merge. Its blocks run one after the other in reverse
//! postorder (a topological order, in which each block comes after the
//! blocks that dominate it), every one of them each time, each under its
//! own mask: the lanes that arrived on any of its incoming edges. An
//! edge's mask is its source's mask, with the branch condition (or the
//! switch case) of its lanes. A phi of a block (or of the merge) takes,
//! lane by lane, the value of the edge its lane arrived on: each edge
//! selects its value into the phi's variable under the edge's mask, and
//! the variables are the block's arguments when it runs. The merge runs
//! with the guard the head had. A branch inside the graph needs no region
//! of its own: every terminator of the graph is lowered this way.
//!
//! What the graph may hold is what an arm of a region may (`analysis`):
//! no barrier, collective, return or loop; calls are inlined under the
//! block's mask.

use std::collections::HashSet;

use cranelift_codegen::ir::{types as cl, BlockArg, InstBuilder, Value};
use cranelift_frontend::Variable;
use rspirv::dr::Operand;
use spirv::Op;

use super::analysis::{masked_refusal_in, Region};
use super::{Kind, Shape, LANES};
use crate::lower::{Lowering, R};
use crate::spirv::{Function, Id, Module, NONE};

/// A varying branch or switch whose paths cross before they meet again.
#[derive(Debug, Clone)]
pub struct Dag {
    /// The block ending in the branch or switch.
    pub head: u32,
    /// Its immediate post-dominator, where every path from it meets.
    pub merge: u32,
    /// The blocks between them, in reverse postorder.
    pub blocks: Vec<u32>,
    /// Per block of the function: whether it is one of `blocks`.
    pub inside: Vec<bool>,
}

/// The immediate post-dominator of each block (NONE for blocks from
/// which no return is reachable, and for the blocks that return), by the
/// iterative algorithm of Cooper, Harvey and Kennedy on the reversed
/// graph with one virtual exit after every block without successors.
fn post_dominators(func: &Function) -> Vec<u32> {
    let n = func.blocks.len();
    let exit = n;
    // Postorder of the reversed graph from the virtual exit.
    let mut post = Vec::with_capacity(n + 1);
    let mut seen = vec![false; n + 1];
    let roots: Vec<usize> = (0..n)
        .filter(|&b| func.cfg.reachable.get(b).copied().unwrap_or(false) && func.cfg.succs[b].is_empty())
        .collect();
    seen[exit] = true;
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    while let Some(&mut (b, ref mut k)) = stack.last_mut() {
        let next: Option<usize> = if b == exit {
            roots.get(*k).copied()
        } else {
            func.cfg.preds[b].get(*k).map(|&p| p as usize)
        };
        *k += 1;
        match next {
            Some(p) => {
                if !seen[p] {
                    seen[p] = true;
                    stack.push((p, 0));
                }
            }
            None => {
                post.push(b);
                stack.pop();
            }
        }
    }
    let mut order = vec![usize::MAX; n + 1];
    for (k, &b) in post.iter().enumerate() {
        order[b] = k;
    }
    let mut ipdom = vec![usize::MAX; n + 1];
    ipdom[exit] = exit;
    let intersect = |ipdom: &[usize], mut a: usize, mut b: usize| {
        while a != b {
            while order[a] < order[b] {
                a = ipdom[a];
            }
            while order[b] < order[a] {
                b = ipdom[b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev() {
            if b == exit {
                continue;
            }
            // The block's successors are its predecessors in the reversed
            // graph; a block without any follows the virtual exit.
            let succs: Vec<usize> = if func.cfg.succs[b].is_empty() {
                vec![exit]
            } else {
                func.cfg.succs[b].iter().map(|&s| s as usize).collect()
            };
            let mut new = usize::MAX;
            for s in succs {
                if ipdom[s] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    s
                } else {
                    intersect(&ipdom, s, new)
                };
            }
            if new != usize::MAX && ipdom[b] != new {
                ipdom[b] = new;
                changed = true;
            }
        }
    }
    (0..n)
        .map(|b| match ipdom[b] {
            d if d == usize::MAX || d == exit => NONE,
            d => d as u32,
        })
        .collect()
}

/// The DAG regions of `func`. A varying conditional branch that heads no
/// two-armed region (`regions`), and a varying switch, head one when the
/// blocks up to the head's immediate post-dominator are entered only from
/// the head or from one another, leave only to one another or to that
/// block (whose only predecessors they are, with the head), hold no loop,
/// no back edge and nothing an arm of a region may not hold, and lie in
/// the same loops as the head. Where a varying branch or switch heads
/// neither, the nearest block dominating it whose branch or switch heads
/// such a graph (the uniform first test of `a || b`, which jumps into the
/// graph of the varying second) heads one instead. A branch inside a DAG
/// region heads none of its own.
pub fn dags(m: &Module, func: &Function, may_vary: &HashSet<Id>, regions: &[Region]) -> Vec<Dag> {
    let n = func.blocks.len();
    let ipdom = post_dominators(func);
    let loops = crate::validate::cfg::natural_loops(func);
    let branches = |h: usize| {
        let end = &m.insts[func.blocks[h].end as usize];
        matches!(end.op, Op::BranchConditional | Op::Switch).then(|| end.id(0).is_some_and(|c| may_vary.contains(&c)))
    };
    let dag_at = |h: u32| -> Option<Dag> {
        let hu = h as usize;
        let merge = ipdom[hu];
        if merge == NONE {
            return None;
        }
        // The blocks reachable from the head before the merge.
        let mut inside = vec![false; n];
        let mut stack: Vec<u32> = func.cfg.succs[hu].clone();
        while let Some(b) = stack.pop() {
            if b == merge || inside[b as usize] {
                continue;
            }
            if b == h {
                return None;
            }
            inside[b as usize] = true;
            stack.extend(func.cfg.succs[b as usize].iter().copied());
        }
        let member = |b: u32| b == h || inside[b as usize];
        let ok = (0..n).filter(|&b| inside[b]).all(|b| {
            func.cfg.preds[b].iter().all(|&p| member(p))
                && func.cfg.succs[b].iter().all(|&s| s == merge || inside[s as usize])
                && masked_refusal_in(m, func, b, true).is_none()
        }) && func.cfg.preds[merge as usize].iter().all(|&p| member(p))
            && loops.iter().all(|(lh, body)| {
                // No loop inside, none entered or left on the way.
                let (bh, bm) = (body[hu], body[merge as usize]);
                !inside[*lh as usize] && *lh != merge && bh == bm && (0..n).all(|b| !inside[b] || body[b] == bh)
            });
        if !ok {
            return None;
        }
        let blocks = func.cfg.rpo.iter().copied().filter(|&b| inside[b as usize]).collect();
        Some(Dag {
            head: h,
            merge,
            blocks,
            inside,
        })
    };
    let covered = |out: &[Dag], b: usize| out.iter().any(|d| d.head == b as u32 || d.inside[b]);
    let mut out: Vec<Dag> = Vec::new();
    for &h in &func.cfg.rpo {
        let hu = h as usize;
        if branches(hu) != Some(true) || covered(&out, hu) || regions.iter().any(|r| r.head == h) {
            continue;
        }
        if let Some(d) = dag_at(h) {
            out.push(d);
            continue;
        }
        // The nearest dominating branch or switch that heads a graph
        // holding this one (a few levels up at most).
        let mut up = func.cfg.idom.get(hu).copied().unwrap_or(NONE);
        for _ in 0..8 {
            if up == NONE || up == h || up as usize >= n {
                break;
            }
            if covered(&out, up as usize) {
                break;
            }
            if branches(up as usize).is_some() {
                if let Some(d) = dag_at(up).filter(|d| d.inside[hu]) {
                    // Graphs found inside it are lowered with it.
                    out.retain(|o| !d.inside[o.head as usize]);
                    out.push(d);
                    break;
                }
            }
            let next = func.cfg.idom.get(up as usize).copied().unwrap_or(NONE);
            if next == up {
                break;
            }
            up = next;
        }
    }
    out
}

/// The lowering state of one DAG region.
#[derive(Debug, Clone)]
pub struct DagState {
    pub d: Dag,
    /// Whether its head was lowered as such (else the chunk's lanes
    /// agreed or it was abandoned there, and its blocks are lowered as
    /// usual).
    pub lowered: bool,
    /// Per block of `d.blocks`: the lanes that reached it (`i32x4`).
    pub masks: Vec<Variable>,
    /// Per block of `d.blocks`, then the merge: per parameter of its
    /// Cranelift block, the variable its lanes' values gather in, with
    /// the kind of the component and the value's index within it.
    pub params: Vec<Vec<(Variable, Kind, usize)>>,
}

impl Lowering<'_, '_, '_> {
    /// Records this body's DAG regions.
    pub(crate) fn begin_dags(&mut self, dags: Vec<Dag>) -> R {
        let mut states = Vec::with_capacity(dags.len());
        for d in dags {
            let masks = d.blocks.iter().map(|_| self.b.declare_var(cl::I32X4)).collect();
            let mut params = Vec::with_capacity(d.blocks.len() + 1);
            for &b in d.blocks.iter().chain([&d.merge]) {
                params.push(self.phi_vars(b)?);
            }
            states.push(DagState {
                d,
                lowered: false,
                masks,
                params,
            });
        }
        if let Some(s) = self.simd.as_deref_mut() {
            s.dags = states;
        }
        Ok(())
    }

    /// One variable per value of block `b`'s phis, in the order of its
    /// Cranelift block's parameters (all of them vary: `varying_phi`).
    fn phi_vars(&mut self, b: u32) -> R<Vec<(Variable, Kind, usize)>> {
        let mut out = Vec::new();
        for i in self.body.func.blocks[b as usize].body() {
            let phi = self.at(i);
            if phi.op != Op::Phi {
                break;
            }
            for k in self.kinds(phi.result_type())? {
                for (j, t) in k.clif_types().into_iter().enumerate() {
                    out.push((self.b.declare_var(t), k, j));
                }
            }
        }
        Ok(out)
    }

    /// The DAG region whose block the current block is, lowered as such:
    /// its index and the block's position in it.
    pub(super) fn dag_block(&self) -> Option<(usize, usize)> {
        let cur = self.m.info(self.body.label)?.block;
        let s = self.simd.as_ref()?;
        s.dags.iter().enumerate().find_map(|(di, st)| {
            if !st.lowered {
                return None;
            }
            st.d.blocks.iter().position(|&b| b == cur).map(|k| (di, k))
        })
    }

    /// The DAG region the current block heads, if any.
    pub(super) fn dag_here(&self) -> R<Option<usize>> {
        let cur = self.current_block()?;
        Ok(self
            .simd
            .as_ref()
            .and_then(|s| s.dags.iter().position(|st| st.d.head == cur)))
    }

    /// The varying branch or switch `i` heading DAG region `di`: every
    /// block's mask starts empty and every phi variable zero, the head's
    /// edges are taken under its guard, and the graph's first block runs.
    pub(super) fn dag_head(&mut self, di: usize, i: u32) -> R {
        let g = match self.guard()? {
            Some(g) => g,
            None => self.vconst(cl::I32X4, &[u64::MAX; LANES]),
        };
        self.sb()?.dags[di].lowered = true;
        let st = self.sb()?.dags[di].clone();
        let zero = self.vconst(cl::I32X4, &[0; LANES]);
        for &v in &st.masks {
            self.b.def_var(v, zero);
        }
        for params in &st.params {
            for &(v, k, j) in params {
                let t = k.clif_types()[j];
                let z = if t.is_vector() {
                    self.vconst(t, &[0; LANES])
                } else {
                    self.zero(t)
                };
                self.b.def_var(v, z);
            }
        }
        self.dag_edges(di, g, i)?;
        self.dag_next(di, 0)
    }

    /// Terminator `i` of block `k` of DAG region `di`: its edges under
    /// the block's mask, then the next block.
    pub(super) fn dag_terminator(&mut self, di: usize, k: usize, i: u32) -> R {
        let var = self.sb()?.dags[di].masks[k];
        let g = self.b.use_var(var);
        self.dag_edges(di, g, i)?;
        self.dag_next(di, k + 1)
    }

    /// On to block `k` of DAG region `di` (the merge past the last), its
    /// phis taking their variables.
    fn dag_next(&mut self, di: usize, k: usize) -> R {
        let st = self.sb()?.dags[di].clone();
        let b = st.d.blocks.get(k).copied().unwrap_or(st.d.merge);
        let cb = self.body.blocks[b as usize].ok_or("a block of a DAG region is unreachable")?;
        let args: Vec<BlockArg> = st.params[k]
            .iter()
            .map(|&(v, _, _)| BlockArg::Value(self.b.use_var(v)))
            .collect();
        self.b.ins().jump(cb, &args);
        Ok(())
    }

    /// The edges of terminator `i` (a branch, conditional branch or
    /// switch) of a block whose lanes are `g`.
    fn dag_edges(&mut self, di: usize, g: Value, i: u32) -> R {
        let inst = self.at(i);
        match inst.op {
            Op::Branch => self.dag_edge(di, inst.operand(0), g),
            Op::BranchConditional => {
                let shape = *self
                    .shapes_or_uniform(inst.operand(0))?
                    .first()
                    .ok_or("an empty condition")?;
                let c = self.as_mask(shape);
                let t = self.b.ins().band(g, c);
                let f = self.b.ins().band_not(g, c);
                self.dag_edge(di, inst.operand(1), t)?;
                self.dag_edge(di, inst.operand(2), f)
            }
            Op::Switch => {
                let sel = inst.operand(0);
                let shape = *self.shapes_or_uniform(sel)?.first().ok_or("an empty selector")?;
                let width = self
                    .m
                    .type_of(sel)
                    .and_then(|t| self.m.int_width(t))
                    .ok_or("a selector of no integer type")?;
                let bits = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
                let mut seen = HashSet::new();
                let mut any = self.vconst(cl::I32X4, &[0; LANES]);
                let mut k = 2;
                while k < inst.operands.len() {
                    let lit = match inst.operands.get(k) {
                        Some(Operand::LiteralBit32(v)) => u64::from(*v),
                        Some(Operand::LiteralBit64(v)) => *v,
                        _ => return Err(format!("case {} has no literal", (k - 2) / 2)),
                    } & bits;
                    let label = inst.operand(k + 1);
                    k += 2;
                    // As the scalar switch: the first case of a value wins.
                    if !seen.insert(lit) {
                        continue;
                    }
                    let eq = self.lanes_equal(shape, lit);
                    any = self.b.ins().bor(any, eq);
                    let e = self.b.ins().band(g, eq);
                    self.dag_edge(di, label, e)?;
                }
                let d = self.b.ins().band_not(g, any);
                self.dag_edge(di, inst.operand(1), d)
            }
            _ => Err(format!("{} ends a block of a DAG region", inst.opname())),
        }
    }

    /// The shapes of `id`, uniform values included (as `Shape::U`).
    fn shapes_or_uniform(&mut self, id: Id) -> R<Vec<Shape>> {
        if self.is_varying(id) {
            return self.shapes(id);
        }
        Ok(self.get(id)?.into_iter().map(Shape::U).collect())
    }

    /// The lanes (`i32x4` mask) whose integer `s` equals `lit` (already
    /// cut to the integer's width).
    fn lanes_equal(&mut self, s: Shape, lit: u64) -> Value {
        let l = self.lanes(s);
        let m = l.map(|x| {
            let t = self.ty(x);
            let c = self.b.ins().iconst(t, lit as i64);
            let e = self.b.ins().icmp(cranelift_codegen::ir::condcodes::IntCC::Equal, x, c);
            self.b.ins().bmask(cl::I32, e)
        });
        self.build(cl::I32X4, m)
    }

    /// The edge to block `label` taken by lanes `e`: they join the
    /// block's mask (not the merge's: every lane reaches it), and its
    /// phis take this edge's values in those lanes.
    fn dag_edge(&mut self, di: usize, label: Id, e: Value) -> R {
        let st = self.sb()?.dags[di].clone();
        let b = self.m.info(label).ok_or("bad label")?.block;
        let k = match st.d.blocks.iter().position(|&x| x == b) {
            Some(k) => {
                let old = self.b.use_var(st.masks[k]);
                let new = self.b.ins().bor(old, e);
                self.b.def_var(st.masks[k], new);
                k
            }
            None if b == st.d.merge => st.d.blocks.len(),
            None => return Err("an edge leaves a DAG region other than to its merge".into()),
        };
        let (_, args) = self.target(label)?;
        if args.len() != st.params[k].len() {
            return Err("a phi's arguments do not match its block's parameters".into());
        }
        for (a, &(v, kind, j)) in args.iter().zip(&st.params[k]) {
            let BlockArg::Value(a) = *a else {
                return Err("a phi's argument is no value".into());
            };
            let old = self.b.use_var(v);
            let new = self.select_lanes(e, a, old, kind, j);
            self.b.def_var(v, new);
        }
        Ok(())
    }
}
