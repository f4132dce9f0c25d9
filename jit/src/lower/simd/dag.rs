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
//! no barrier, collective or return; calls are inlined under the block's
//! mask. A loop inside it, with one exit block, no branch whose lanes may
//! differ and no loop nested in it, runs as one step: its blocks together
//! from its header, under the header's mask, its own branches as usual;
//! leaving it, its lanes take the exit edge. When no lane entered it, it
//! leaves at its first exit test (its uniform values may then be
//! anything: a load made for no lane gives zero).
//!
//! Every block runs, so an access the same in every lane (a store to
//! memory other than a private variable, a load through such a pointer)
//! is made only when some lane reached the block
//! (`Lowering::guarded_any`), and an inlined call runs only then
//! (`inline_call`).

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
    /// The outermost loops among `blocks`, each all lanes leave together:
    /// they run as one step of the graph, under their header's mask.
    pub loops: Vec<InnerLoop>,
}

/// A loop inside a DAG region whose exits are the same in every lane.
#[derive(Debug, Clone)]
pub struct InnerLoop {
    /// Its header, the one block entered from outside it.
    pub header: u32,
    /// Per block of the function: whether it is in the loop.
    pub body: Vec<bool>,
    /// The one block its exits go to.
    pub exit: u32,
}

impl InnerLoop {
    /// The edges into its header from outside it.
    pub fn entries(&self, func: &Function) -> usize {
        func.cfg.preds[self.header as usize]
            .iter()
            .filter(|&&p| !self.body[p as usize])
            .count()
    }
}

impl Dag {
    /// The inner loop block `b` is in, if any.
    pub fn loop_of(&self, b: u32) -> Option<&InnerLoop> {
        self.loops.iter().find(|l| l.body[b as usize])
    }
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
/// block (whose only predecessors they are, with the head), hold nothing
/// an arm of a region may not hold and no loop but [`InnerLoop`]s (one
/// exit block, no branch that may vary, no loop nested), and lie in the
/// same loops as the head. Where a varying branch or switch heads
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
        }) && func.cfg.preds[merge as usize].iter().all(|&p| member(p));
        if !ok {
            return None;
        }
        // Loops inside: whole, outermost ones each all lanes leave together
        // (no branch in it may vary, no switch leaves it) to one block.
        // None entered or left on the way from the head to the merge.
        let mut inner: Vec<InnerLoop> = Vec::new();
        for (lh, body) in &loops {
            let (bh, bm) = (body[hu], body[merge as usize]);
            if !inside[*lh as usize] {
                if *lh == merge || bh != bm || (0..n).any(|b| inside[b] && body[b] != bh) {
                    return None;
                }
                continue;
            }
            if (0..n).any(|b| body[b] && !inside[b]) {
                return None;
            }
            // No loop nested in it (nor it in another: the lowering leaves
            // an inner loop at its first exit test when no lane entered it,
            // which a nested loop would not).
            if loops
                .iter()
                .any(|(l2, b2)| l2 != lh && (body[*l2 as usize] || b2[*lh as usize]))
            {
                return None;
            }
            let mut exit = None;
            for b in (0..n).filter(|&b| body[b]) {
                let end = &m.insts[func.blocks[b].end as usize];
                if matches!(end.op, Op::BranchConditional | Op::Switch)
                    && end.id(0).is_some_and(|c| may_vary.contains(&c))
                {
                    return None;
                }
                for &s in &func.cfg.succs[b] {
                    if body[s as usize] {
                        continue;
                    }
                    if end.op == Op::Switch || exit.is_some_and(|x| x != s) {
                        return None;
                    }
                    exit = Some(s);
                }
            }
            inner.push(InnerLoop {
                header: *lh,
                body: body.clone(),
                exit: exit?,
            });
        }
        // Reverse postorder, each inner loop's blocks together from its
        // header on (the lowering steps over them at once). Blocks the
        // order put between a header and the rest of its loop (its exit)
        // cannot reach the loop, so they may come after it.
        let mut blocks: Vec<u32> = Vec::new();
        for &b in func.cfg.rpo.iter().filter(|&&b| inside[b as usize]) {
            match inner.iter().find(|l| l.body[b as usize]) {
                Some(l) if l.header == b => blocks.extend(func.cfg.rpo.iter().filter(|&&x| l.body[x as usize])),
                Some(_) => {}
                None => blocks.push(b),
            }
        }
        Some(Dag {
            head: h,
            merge,
            blocks,
            inside,
            loops: inner,
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

/// The variable of one value of a phi of a DAG region's block: the kind
/// of its component and the value's index in it, or for a phi the same
/// in every lane (of an inner loop's header entered by one edge), its
/// type.
#[derive(Debug, Clone, Copy)]
pub struct PhiVar {
    pub var: Variable,
    pub kind: Option<(Kind, usize)>,
    pub ty: cranelift_codegen::ir::Type,
}

/// The variables of one phi of a block of a DAG region: whether it
/// varies (then each part of an 8-lane body has its own), and one per
/// value, in the order of the block's parameters.
#[derive(Debug, Clone)]
pub struct PhiVars {
    pub varying: bool,
    pub vars: Vec<PhiVar>,
}

/// The lowering state of one DAG region (each part of an 8-lane body has
/// its own: its masks and variables).
#[derive(Debug, Clone)]
pub struct DagState {
    pub d: Dag,
    /// Whether its head was lowered as such (else the chunk's lanes
    /// agreed or it was abandoned there, and its blocks are lowered as
    /// usual).
    pub lowered: bool,
    /// Per block of `d.blocks`: the lanes that reached it (`i32x4`).
    pub masks: Vec<Variable>,
    /// Per block of `d.blocks`, then the merge: per phi, the variables
    /// its lanes' values gather in, with the kind of the component and
    /// the value's index within it.
    pub params: Vec<Vec<PhiVars>>,
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

    /// Per phi of block `b`, one variable per value, in the order of its
    /// Cranelift block's parameters (`varying_phi`, or for a phi the same
    /// in every lane, one per component).
    fn phi_vars(&mut self, b: u32) -> R<Vec<PhiVars>> {
        let mut out = Vec::new();
        for i in self.body.func.blocks[b as usize].body() {
            let phi = self.at(i);
            if phi.op != Op::Phi {
                break;
            }
            let (id, ty) = (phi.result_id(), phi.result_type());
            let mut vars = Vec::new();
            let varying = self.simd.as_ref().is_some_and(|s| s.may_vary.contains(&id));
            if !varying {
                for t in crate::lower::types::components(self.m, ty)? {
                    vars.push(PhiVar {
                        var: self.b.declare_var(t),
                        kind: None,
                        ty: t,
                    });
                }
            } else {
                for k in self.kinds(ty)? {
                    for (j, t) in k.clif_types().into_iter().enumerate() {
                        vars.push(PhiVar {
                            var: self.b.declare_var(t),
                            kind: Some((k, j)),
                            ty: t,
                        });
                    }
                }
            }
            out.push(PhiVars { varying, vars });
        }
        Ok(out)
    }

    /// The variables of the parameters of block `k` of DAG region `di`
    /// (the merge past the last), in their order, each with its part: per
    /// phi, each part's when it varies (the order of `target`'s
    /// arguments), part 0's when it does not.
    fn dag_param_vars(&mut self, di: usize, k: usize) -> R<Vec<(usize, PhiVar)>> {
        let per_part = self.each_part(|l| Ok(l.sb()?.dags[di].params[k].clone()))?;
        let first = per_part.first().ok_or("no part")?;
        let mut out = Vec::new();
        for (j, phi) in first.iter().enumerate() {
            if !phi.varying {
                out.extend(phi.vars.iter().map(|&v| (0, v)));
                continue;
            }
            for (p, part) in per_part.iter().enumerate() {
                let vars = &part.get(j).ok_or("a part without its phi")?.vars;
                out.extend(vars.iter().map(|&v| (p, v)));
            }
        }
        Ok(out)
    }

    /// The DAG region whose block the current block is, lowered as such:
    /// its index and the block's position in it.
    pub(crate) fn dag_block(&self) -> Option<(usize, usize)> {
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
    /// In an 8-lane body, per part.
    pub(super) fn dag_head(&mut self, di: usize, i: u32) -> R {
        let g = self.each_part(|l| {
            let g = match l.guard()? {
                Some(g) => g,
                None => l.vconst(cl::I32X4, &[u64::MAX; LANES]),
            };
            l.sb()?.dags[di].lowered = true;
            let st = l.sb()?.dags[di].clone();
            let zero = l.vconst(cl::I32X4, &[0; LANES]);
            for &v in &st.masks {
                l.b.def_var(v, zero);
            }
            for p in st.params.iter().flatten().flat_map(|p| &p.vars) {
                let z = l.zero(p.ty);
                l.b.def_var(p.var, z);
            }
            Ok(g)
        })?;
        self.dag_edges(di, &g, i)?;
        self.dag_next(di, 0)
    }

    /// The mask of block `k` of DAG region `di`: its own, or in an inner
    /// loop, its header's (all lanes that entered run every iteration).
    pub(super) fn dag_mask(&mut self, di: usize, k: usize) -> R<Value> {
        let st = &self.sb()?.dags[di];
        let b = st.d.blocks[k];
        let k = match st.d.loop_of(b) {
            Some(l) => {
                st.d.blocks
                    .iter()
                    .position(|&x| x == l.header)
                    .ok_or("a loop without its header")?
            }
            None => k,
        };
        let var = st.masks[k];
        Ok(self.b.use_var(var))
    }

    /// Terminator `i` of block `k` of DAG region `di`: its edges under
    /// the block's mask, then the next block. In an inner loop, its
    /// edges inside the loop are ordinary branches (the same in every
    /// lane); leaving it, the loop's lanes take the exit edge and the
    /// block after the loop runs.
    pub(super) fn dag_terminator(&mut self, di: usize, k: usize, i: u32) -> R {
        let g = self.each_part(|l| l.dag_mask(di, k))?;
        let d = self.sb()?.dags[di].d.clone();
        let Some(l) = d.loop_of(d.blocks[k]) else {
            self.dag_edges(di, &g, i)?;
            return self.dag_next(di, k + 1);
        };
        let after = k + d.blocks[k..].iter().take_while(|&&b| l.body[b as usize]).count();
        let inst = self.at(i);
        let inside = |lw: &Self, label: Id| lw.m.info(label).is_some_and(|x| l.body[x.block as usize]);
        match inst.op {
            Op::Branch if !inside(self, inst.operand(0)) => {
                self.dag_edge(di, inst.operand(0), &g)?;
                self.dag_next(di, after)
            }
            Op::BranchConditional => {
                let (t, f) = (inst.operand(1), inst.operand(2));
                match (inside(self, t), inside(self, f)) {
                    (true, true) => self.scalar_inst(i),
                    (false, false) => {
                        self.dag_edge(di, t, &g)?;
                        self.dag_next(di, after)
                    }
                    (t_in, _) => {
                        // Staying only while some lane is in the loop: with
                        // none (every block of the region runs), it leaves
                        // at its first exit test, however its uniform
                        // values (loads made for no lane are zero) go.
                        let c = self.get1(inst.operand(0))?;
                        let (stay, leave) = if t_in { (t, f) } else { (f, t) };
                        let stay_c = if t_in {
                            c
                        } else {
                            self.b
                                .ins()
                                .icmp_imm_u(cranelift_codegen::ir::condcodes::IntCC::Equal, c, 0)
                        };
                        let any = self.any_lane(&g);
                        let go_on = self.b.ins().band(stay_c, any);
                        let (sb, sargs) = self.target(stay)?;
                        let out = self.b.create_block();
                        self.b.ins().brif(go_on, sb, &sargs, out, &[]);
                        self.b.switch_to_block(out);
                        self.dag_edge(di, leave, &g)?;
                        self.dag_next(di, after)
                    }
                }
            }
            _ => self.scalar_inst(i),
        }
    }

    /// On to block `k` of DAG region `di` (the merge past the last), its
    /// phis taking their variables.
    fn dag_next(&mut self, di: usize, k: usize) -> R {
        let st = self.sb()?.dags[di].clone();
        let b = st.d.blocks.get(k).copied().unwrap_or(st.d.merge);
        let cb = self.body.blocks[b as usize].ok_or("a block of a DAG region is unreachable")?;
        let args: Vec<BlockArg> = self
            .dag_param_vars(di, k)?
            .into_iter()
            .map(|(_, p)| BlockArg::Value(self.b.use_var(p.var)))
            .collect();
        // Should the merge head a masked loop, its lanes start there.
        self.enter_masked_loop(b)?;
        self.b.ins().jump(cb, &args);
        Ok(())
    }

    /// The edges of terminator `i` (a branch, conditional branch or
    /// switch) of a block whose lanes are `g` (per part).
    fn dag_edges(&mut self, di: usize, g: &[Value], i: u32) -> R {
        let inst = self.at(i);
        match inst.op {
            Op::Branch => self.dag_edge(di, inst.operand(0), g),
            Op::BranchConditional => {
                let mut gs = g.iter();
                let edges = self.each_part(|l| {
                    let g = *gs.next().ok_or("a part without its mask")?;
                    let shape = *l
                        .shapes_or_uniform(inst.operand(0))?
                        .first()
                        .ok_or("an empty condition")?;
                    let c = l.as_mask(shape);
                    Ok((l.b.ins().band(g, c), l.b.ins().band_not(g, c)))
                })?;
                let (t, f): (Vec<Value>, Vec<Value>) = edges.into_iter().unzip();
                self.dag_edge(di, inst.operand(1), &t)?;
                self.dag_edge(di, inst.operand(2), &f)
            }
            Op::Switch => {
                let sel = inst.operand(0);
                let shapes =
                    self.each_part(|l| Ok(*l.shapes_or_uniform(sel)?.first().ok_or("an empty selector")?))?;
                let width = self
                    .m
                    .type_of(sel)
                    .and_then(|t| self.m.int_width(t))
                    .ok_or("a selector of no integer type")?;
                let bits = if width >= 64 { u64::MAX } else { (1u64 << width) - 1 };
                let mut seen = HashSet::new();
                let mut any: Vec<Value> = shapes.iter().map(|_| self.vconst(cl::I32X4, &[0; LANES])).collect();
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
                    let mut e = Vec::with_capacity(shapes.len());
                    for (p, &shape) in shapes.iter().enumerate() {
                        let eq = self.lanes_equal(shape, lit);
                        any[p] = self.b.ins().bor(any[p], eq);
                        e.push(self.b.ins().band(g[p], eq));
                    }
                    self.dag_edge(di, label, &e)?;
                }
                let d: Vec<Value> = g.iter().zip(&any).map(|(&g, &a)| self.b.ins().band_not(g, a)).collect();
                self.dag_edge(di, inst.operand(1), &d)
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

    /// The edge to block `label` taken by lanes `e` (per part): they join
    /// the block's mask (not the merge's: every lane reaches it), and its
    /// phis take this edge's values in those lanes.
    fn dag_edge(&mut self, di: usize, label: Id, e: &[Value]) -> R {
        let st = self.sb()?.dags[di].clone();
        let b = self.m.info(label).ok_or("bad label")?.block;
        let k = match st.d.blocks.iter().position(|&x| x == b) {
            Some(k) => {
                let mut es = e.iter();
                self.each_part(|l| {
                    let e = *es.next().ok_or("a part without its mask")?;
                    let var = l.sb()?.dags[di].masks[k];
                    let old = l.b.use_var(var);
                    let new = l.b.ins().bor(old, e);
                    l.b.def_var(var, new);
                    Ok(())
                })?;
                k
            }
            None if b == st.d.merge => st.d.blocks.len(),
            None => return Err("an edge leaves a DAG region other than to its merge".into()),
        };
        let (_, args) = self.target(label)?;
        let slots = self.dag_param_vars(di, k)?;
        if args.len() != slots.len() {
            return Err("a phi's arguments do not match its block's parameters".into());
        }
        for (a, (part, p)) in args.iter().zip(slots) {
            let BlockArg::Value(a) = *a else {
                return Err("a phi's argument is no value".into());
            };
            let new = match p.kind {
                Some((kind, j)) => {
                    let old = self.b.use_var(p.var);
                    let mask = *e.get(part).ok_or("a part without its mask")?;
                    self.select_lanes(mask, a, old, kind, j)
                }
                // The one edge into an inner loop: its value as it is.
                None => a,
            };
            self.b.def_var(p.var, new);
        }
        Ok(())
    }
}
