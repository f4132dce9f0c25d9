//! Masked (predicated) execution in a 4-lane body: which lanes of a chunk
//! are *active* where the lowering stands (the *guard*), instructions that
//! touch memory run for those lanes only, and varying branches whose lanes
//! disagree run both arms one after the other under masks
//! ([`analysis::Region`]).
//!
//! A block has a guard when it lies in an arm of a region (the lanes that
//! took that arm), in a masked loop (the lanes still in it, `masked.rs`)
//! or in one of its exit tails (the lanes leaving through it), or in a
//! body inlined where the caller had a guard (within it). Elsewhere
//! every lane of the chunk is active. Under a guard, the lanes outside it
//! still compute values (harmless: division and the other instructions
//! that could trap are made safe for any operand by the scalar lowering),
//! but a load through a varying pointer, a store, an atomic, printf, an
//! image write or a built-in reading or writing through a pointer runs
//! only for the active lanes: when all four are, it takes its ordinary
//! 4-lane form (one vector access for a contiguous pointer); otherwise it
//! runs lane by lane, each lane's access behind a test of its mask bit,
//! an inactive lane's result being zero. So no inactive lane touches
//! memory: a lane past the end of a buffer does not fault and one that
//! did not take a branch writes nothing.
//!
//! A region (a varying branch whose two sides meet again at one block,
//! the merge) runs for a chunk whose lanes disagree as: the first arm for
//! the lanes that took it, skipped when there are none; a join block
//! holding the first arm's values for the merge's phis; the second arm for
//! the other lanes, skipped likewise; then the merge, whose phis take per
//! lane the value of the arm the lane took (a select on the first arm's
//! mask). Its arms hold no loops, barriers, calls or returns
//! (`analysis::regions`). A chunk whose lanes agree runs one arm, with a
//! full guard.

use cranelift_codegen::ir::{types as cl, Block, BlockArg, InstBuilder, Value};
use cranelift_frontend::Variable;
use spirv::Op;

use super::analysis::{self, Region};
use super::{bool_components, Kind, LANES};
use crate::lower::{types, Lowering, R};
use crate::spirv::Id;

/// Per phi of a block, its components' kinds and values (block
/// parameters).
pub type PhiParams = Vec<Vec<(Kind, Vec<Value>)>>;

/// The lowering state of one region.
#[derive(Debug, Clone)]
pub struct RegionState {
    pub r: Region,
    /// Per side: the lanes that took it (`i32x4` masks).
    pub masks: [Variable; 2],
    /// The side whose arm runs first (one with blocks).
    pub first: usize,
    /// The join block after the first arm, with the first arm's values
    /// for the merge's phis (per phi, its kinds and parameters); made when
    /// the branch is lowered.
    pub join: Option<(Block, PhiParams)>,
}

impl Lowering<'_, '_, '_> {
    /// Records this body's regions.
    pub(crate) fn begin_regions(&mut self, regions: Vec<Region>) {
        let states = regions
            .into_iter()
            .map(|r| {
                let masks = [self.b.declare_var(cl::I32X4), self.b.declare_var(cl::I32X4)];
                let first = if r.arms[0].iter().any(|&x| x) { 0 } else { 1 };
                RegionState {
                    r,
                    masks,
                    first,
                    join: None,
                }
            })
            .collect();
        if let Some(s) = self.simd.as_deref_mut() {
            s.regions = states;
        }
    }

    /// The block index of the block being lowered.
    pub(super) fn current_block(&self) -> R<u32> {
        self.m
            .info(self.body.label)
            .map(|x| x.block)
            .ok_or_else(|| "bad label".to_string())
    }

    /// The innermost region running under masks (its branch lowered as
    /// such: lowering follows dominance, so before its arms) whose arm
    /// block `b` is in: the region's index and the side.
    fn arm_of(&self, b: u32) -> Option<(usize, usize)> {
        let s = self.simd.as_ref()?;
        s.regions
            .iter()
            .enumerate()
            .filter(|(_, r)| r.join.is_some())
            .filter_map(|(ri, r)| r.r.arm_of(b).map(|k| (ri, k, r.r.size())))
            .min_by_key(|&(_, _, size)| size)
            .map(|(ri, k, _)| (ri, k))
    }

    /// The lanes active in the current block (`i32x4`), or None when all
    /// of the chunk's are: those of the body's own regions and masked
    /// loops, within those active where an inlined body was called.
    pub(crate) fn guard(&mut self) -> R<Option<Value>> {
        let Some(outer) = self.simd.as_ref().map(|s| s.outer_guard) else {
            return Ok(None);
        };
        Ok(match (self.own_guard()?, outer) {
            (Some(g), Some(o)) => Some(self.b.ins().band(g, o)),
            (g, o) => g.or(o),
        })
    }

    /// The lanes active in the current block by this body's own regions
    /// and masked loops.
    fn own_guard(&mut self) -> R<Option<Value>> {
        // A block of a DAG region: the lanes that reached it (within the
        // guard its head had, which took in any region or loop around).
        if let Some((di, k)) = self.dag_block() {
            return self.dag_mask(di, k).map(Some);
        }
        let cur = self.current_block()?;
        if let Some((ri, k)) = self.arm_of(cur) {
            let var = self.sb()?.regions[ri].masks[k];
            return Ok(Some(self.b.use_var(var)));
        }
        let s = self.sb()?;
        for l in &s.masked {
            if let Some(t) = l.tails.iter().find(|t| t.0 == cur) {
                let var = t.1;
                return Ok(Some(self.b.use_var(var)));
            }
            if l.lp.body.get(cur as usize).copied().unwrap_or(false) || l.lp.preheader == Some(cur) {
                let var = l.active;
                return Ok(Some(self.b.use_var(var)));
            }
        }
        Ok(None)
    }

    /// Whether instruction `i` may only run for the active lanes: it
    /// reads memory through a varying pointer, or writes memory or has
    /// another effect with an operand that varies (or always, atomics and
    /// printf, which count once per lane).
    pub(super) fn needs_guard(&self, i: u32) -> bool {
        let m = self.m;
        let inst = self.at(i);
        let varying = !self.varying_operands(i).is_empty();
        match inst.op {
            Op::Load => {
                let p = inst.operand(0);
                self.is_varying(p) && analysis::builtin_of(m, p).is_none()
            }
            Op::Store | Op::CopyMemory | Op::CopyMemorySized | Op::ImageWrite => varying,
            _ if analysis::per_lane_always(m, i) => true,
            Op::ExtInst if analysis::ext_through_pointer(m, i) => varying,
            _ => false,
        }
    }

    /// Whether instruction `i` touches memory outside private variables
    /// through operands the same in every lane (a load, store, copy,
    /// image write or built-in through a pointer that
    /// [`Self::needs_guard`] leaves alone: once for the chunk does for
    /// every lane).
    pub(super) fn uniform_access(&self, i: u32) -> bool {
        let m = self.m;
        let inst = self.at(i);
        match inst.op {
            Op::Load => {
                let p = inst.operand(0);
                analysis::builtin_of(m, p).is_none()
                    && m.type_of(p)
                        .and_then(|t| m.pointer(t))
                        .is_none_or(|(sc, _)| sc != spirv::StorageClass::Function)
            }
            // Not into a private variable: shared by the lanes only where
            // no lane outside the mask reads it (`analysis::masked_stores`).
            Op::Store | Op::CopyMemory | Op::CopyMemorySized => m
                .type_of(inst.operand(0))
                .and_then(|t| m.pointer(t))
                .is_none_or(|(sc, _)| sc != spirv::StorageClass::Function),
            Op::ImageWrite => true,
            Op::ExtInst => analysis::ext_through_pointer(m, i),
            _ => false,
        }
    }

    /// Whether the lanes active where the lowering stands may be none
    /// while the code runs: in a block of a DAG region (every block runs).
    /// An arm of a region is skipped when no lane took it, a masked loop
    /// runs while some lane is in it, and a body inlined in a block of a
    /// DAG region runs only when some lane reached it (`inline_call`).
    pub(super) fn guard_may_be_empty(&self) -> bool {
        self.dag_block().is_some()
    }

    /// Instruction `i`, an access the same in every lane
    /// ([`Self::uniform_access`]), under a guard that may hold no lane:
    /// made once when some lane (of any part) is active, skipped (a
    /// result of zero) when none is.
    pub(super) fn guarded_any(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let result = match (inst.result_id, inst.result_type) {
            (Some(id), Some(ty)) if !types::components(m, ty)?.is_empty() => Some((id, ty)),
            _ => None,
        };
        let (on, join) = (self.b.create_block(), self.b.create_block());
        let comps = match result {
            Some((_, ty)) => types::components(m, ty)?,
            None => Vec::new(),
        };
        let params: Vec<Value> = comps.iter().map(|&t| self.b.append_block_param(join, t)).collect();
        let zeros: Vec<BlockArg> = comps.iter().map(|&t| BlockArg::Value(self.zero(t))).collect();
        // The access is made once for all the parts.
        let gs: Vec<Value> = self.each_part(|l| l.guard())?.into_iter().flatten().collect();
        let any = self.any_lane(&gs);
        self.b.ins().brif(any, on, &[], join, &zeros);
        self.b.switch_to_block(on);
        self.simd_inst_inner(i, inst.op)?;
        let mut args = Vec::new();
        if let Some((id, _)) = result {
            if self.is_varying(id) {
                return Err(format!("{} gave a varying result for uniform operands", inst.opname()));
            }
            args = self.get(id)?.into_iter().map(BlockArg::Value).collect();
            self.values.remove(&id);
        }
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(join);
        if let Some((id, _)) = result {
            self.values.insert(id, params);
        }
        Ok(())
    }

    /// Instruction `i` (see [`Self::needs_guard`]) under guard `g`: its
    /// ordinary 4-lane lowering when every lane is active, else lane by
    /// lane, each lane's part skipped when it is not.
    pub(super) fn guarded(&mut self, i: u32, g: Value) -> R {
        let m = self.m;
        let inst = self.at(i);
        let result = match (inst.result_id, inst.result_type) {
            (Some(id), Some(ty)) if !types::components(m, ty)?.is_empty() => Some((id, ty)),
            _ => None,
        };
        let (all_block, some_block, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let params = match result {
            Some((id, ty)) => self.result_params(join, id, ty)?,
            None => Vec::new(),
        };
        let all = self.b.ins().vall_true(g);
        self.b.ins().brif(all, all_block, &[], some_block, &[]);

        // Every lane active: the ordinary lowering.
        self.b.switch_to_block(all_block);
        self.simd_inst_inner(i, inst.op)?;
        let mut args = Vec::new();
        if let Some((id, _)) = result {
            let shapes = self.shapes(id)?;
            for (s, (k, _)) in shapes.into_iter().zip(&params) {
                args.extend(self.in_kind(s, *k).into_iter().map(BlockArg::Value));
            }
            self.forget(id)?;
        }
        self.b.ins().jump(join, &args);

        // Some lanes: each behind its mask bit.
        self.b.switch_to_block(some_block);
        let operands = self.operand_shapes(i)?;
        let comps = match result {
            Some((_, ty)) => types::components(m, ty)?,
            None => Vec::new(),
        };
        let mut lanes: Vec<Vec<Value>> = Vec::with_capacity(LANES);
        for k in 0..LANES {
            let vars: Vec<Variable> = comps.iter().map(|&t| self.b.declare_var(t)).collect();
            for (&var, &t) in vars.iter().zip(&comps) {
                let z = self.zero(t);
                self.b.def_var(var, z);
            }
            let (on, next) = (self.b.create_block(), self.b.create_block());
            let bit = self.b.ins().extractlane(g, k as u8);
            self.b.ins().brif(bit, on, &[], next, &[]);
            self.b.switch_to_block(on);
            let vals = self.lane_inst(i, k, &operands)?;
            if result.is_some() {
                for (&var, v) in vars.iter().zip(vals.unwrap_or_default()) {
                    self.b.def_var(var, v);
                }
            }
            self.b.ins().jump(next, &[]);
            self.b.switch_to_block(next);
            lanes.push(vars.iter().map(|&v| self.b.use_var(v)).collect());
        }
        let mut args = Vec::new();
        if let Some((_, ty)) = result {
            let bools = bool_components(m, ty)?;
            for (c, (k, _)) in params.iter().enumerate() {
                let l: [Value; LANES] = std::array::from_fn(|j| lanes[j][c]);
                if let Kind::Lanes(_) = k {
                    args.extend(l.map(BlockArg::Value));
                    continue;
                }
                let t = self.ty(l[0]);
                let s = self.assemble(l, t, bools.get(c).copied().unwrap_or(false));
                args.extend(self.in_kind(s, *k).into_iter().map(BlockArg::Value));
            }
        }
        self.b.ins().jump(join, &args);

        self.b.switch_to_block(join);
        if let Some((id, _)) = result {
            let mut out = Vec::with_capacity(params.len());
            for (k, vals) in params {
                out.push(Self::from_kind(k, &vals)?);
            }
            self.sb()?.varying.insert(id, out);
        }
        Ok(())
    }

    /// Drops what the lowering recorded for value `id`.
    fn forget(&mut self, id: Id) -> R {
        self.values.remove(&id);
        self.sb()?.varying.remove(&id);
        Ok(())
    }

    /// The index of the region headed by the current block, if any.
    pub(super) fn region_here(&self) -> R<Option<usize>> {
        let cur = self.current_block()?;
        Ok(self
            .simd
            .as_ref()
            .and_then(|s| s.regions.iter().position(|r| r.r.head == cur)))
    }

    /// The varying OpBranchConditional `i` heading region `ri`: the first
    /// arm for its lanes, then (from the join block) the second. In an
    /// 8-lane body each part has its own masks and its own parameters of
    /// the join block; an arm is skipped when no lane of any part took it.
    pub(super) fn region_branch(&mut self, ri: usize, i: u32) -> R {
        let inst = self.at(i);
        let st = self.sb()?.regions[ri].clone();
        let took = self.each_part(|l| {
            let st = l.sb()?.regions[ri].clone();
            let shape = *l.shapes(inst.operand(0))?.first().ok_or("an empty condition")?;
            let c = l.as_mask(shape);
            let g = match l.guard()? {
                Some(g) => g,
                None => l.vconst(cl::I32X4, &[u64::MAX; LANES]),
            };
            let took = [l.b.ins().band(g, c), l.b.ins().band_not(g, c)];
            l.b.def_var(st.masks[0], took[0]);
            l.b.def_var(st.masks[1], took[1]);
            Ok(took)
        })?;
        let labels = [inst.operand(1), inst.operand(2)];
        let (first, second) = (st.first, 1 - st.first);

        // The join block's parameters: the merge's phis from the first
        // arm, per phi each part's (the order of `target`'s arguments).
        let join = self.b.create_block();
        let mut per_part: Vec<PhiParams> = vec![Vec::new(); took.len()];
        let merge = &self.body.func.blocks[st.r.merge as usize];
        for p in merge.body() {
            let phi = self.at(p);
            if phi.op != Op::Phi {
                break;
            }
            let ty = phi.result_type();
            let made = self.each_part(|l| l.varying_params(join, ty))?;
            for (pp, m) in per_part.iter_mut().zip(made) {
                pp.push(m);
            }
        }
        let all_params = self.b.block_params(join).to_vec();
        let zeros: Vec<BlockArg> = all_params
            .iter()
            .map(|&v| {
                let t = self.ty(v);
                BlockArg::Value(self.zero(t))
            })
            .collect();
        let mut made = per_part.iter().cloned();
        self.each_part(|l| {
            let params = made.next().ok_or("a part without its parameters")?;
            l.sb()?.regions[ri].join = Some((join, params));
            Ok(())
        })?;

        let (fb, fa) = self.target(labels[first])?;
        let firsts: Vec<Value> = took.iter().map(|t| t[first]).collect();
        let any = self.any_lane(&firsts);
        self.b.ins().brif(any, fb, &fa, join, &zeros);

        // The join: on to the second arm, or to the merge.
        self.b.switch_to_block(join);
        if st.r.arms[second].iter().any(|&x| x) {
            let (sb, sa) = self.target(labels[second])?;
            let merge_args: Vec<BlockArg> = all_params.into_iter().map(BlockArg::Value).collect();
            let none = self.b.create_block();
            let seconds: Vec<Value> = took.iter().map(|t| t[second]).collect();
            let any = self.any_lane(&seconds);
            self.b.ins().brif(any, sb, &sa, none, &[]);
            self.b.switch_to_block(none);
            let (mb, margs) = self.onto_merge(ri, merge_args)?;
            self.b.ins().jump(mb, &margs);
        } else {
            // The second side goes straight to the merge: its phis take
            // this block's values there.
            let (_, margs) = self.target(labels[second])?;
            let args = self.pick(&firsts, &per_part, &margs)?;
            let (mb, margs) = self.onto_merge(ri, args)?;
            self.b.ins().jump(mb, &margs);
        }
        Ok(())
    }

    /// Where region `ri` goes on to its merge with `args`: the merge
    /// itself, unless the region lies in an arm of another that ends at
    /// the same block, whose arm this then leaves.
    fn onto_merge(&mut self, ri: usize, args: Vec<BlockArg>) -> R<(Block, Vec<BlockArg>)> {
        let st = self.sb()?.regions[ri].clone();
        let outer = self
            .arm_of(st.r.head)
            .filter(|&(ro, _)| self.simd.as_ref().is_some_and(|s| s.regions[ro].r.merge == st.r.merge));
        match outer {
            Some((ro, k)) => self.leave_arm(ro, k, args),
            None => {
                let mb = self.body.blocks[st.r.merge as usize].ok_or("the merge block is unreachable")?;
                // Should the merge head a masked loop, its lanes start
                // there (the caller jumps from here).
                self.enter_masked_loop(st.r.merge)?;
                Ok((mb, args))
            }
        }
    }

    /// A branch from arm `k` of region `ri` to its merge with `args`:
    /// from the first arm, to the join block; from the second, on to the
    /// merge with each lane's value picked.
    fn leave_arm(&mut self, ri: usize, k: usize, args: Vec<BlockArg>) -> R<(Block, Vec<BlockArg>)> {
        let st = self.sb()?.regions[ri].clone();
        let (join, _) = st.join.ok_or("an arm lowered before its branch")?;
        if k == st.first {
            return Ok((join, args));
        }
        let per_part = self.each_part(|l| {
            let st = l.sb()?.regions[ri].clone();
            let (_, params) = st.join.ok_or("an arm lowered before its branch")?;
            Ok((l.b.use_var(st.masks[st.first]), params))
        })?;
        let (masks, params): (Vec<Value>, Vec<PhiParams>) = per_part.into_iter().unzip();
        let picked = self.pick(&masks, &params, &args)?;
        self.onto_merge(ri, picked)
    }

    /// Per component of the merge's phis: `first` (the join's parameters,
    /// each part's) in the lanes of the part's mask in `masks`, the value
    /// in `other` elsewhere. `other` holds per phi each part's values.
    fn pick(&mut self, masks: &[Value], first: &[PhiParams], other: &[BlockArg]) -> R<Vec<BlockArg>> {
        let mut out = Vec::with_capacity(other.len());
        let mut it = other.iter();
        let phis = first.first().map_or(0, |p| p.len());
        for phi in 0..phis {
            for (&mask, part) in masks.iter().zip(first) {
                for (k, vals) in part.get(phi).ok_or("a part without its phi")? {
                    for (j, &a) in vals.iter().enumerate() {
                        let Some(BlockArg::Value(b)) = it.next() else {
                            return Err("a merge phi's arguments do not match".into());
                        };
                        out.push(BlockArg::Value(self.select_lanes(mask, a, *b, *k, j)));
                    }
                }
            }
        }
        if it.next().is_some() {
            return Err("a merge phi's arguments do not match".into());
        }
        Ok(out)
    }

    /// A branch from an arm to its region's merge (`target` with its
    /// arguments `args`): from the first arm, to the join block instead;
    /// from the second, to the merge with each lane's value picked.
    pub(crate) fn region_exit(&mut self, target: u32, args: Vec<BlockArg>) -> R<Option<(Block, Vec<BlockArg>)>> {
        if self.simd.is_none() {
            return Ok(None);
        }
        let cur = self.current_block()?;
        let Some((ri, k)) = self.arm_of(cur) else {
            return Ok(None);
        };
        if self.sb()?.regions[ri].r.merge != target {
            return Ok(None);
        }
        self.leave_arm(ri, k, args).map(Some)
    }
}
