//! Loops whose exits differ between lanes ([`analysis::masked_loops`]):
//! the chunk runs the loop while any lane is still in it. An `active` mask
//! says which lanes are; at each exit, the lanes leaving record their
//! values for the exit block's phis (one accumulator per phi component,
//! Cranelift variables, so SSA construction joins them around the loop)
//! and drop out of `active`; the chunk leaves once no lane is active,
//! passing the accumulators to the exit block. Lanes that left go on
//! computing with the others and their results are ignored; their memory
//! accesses and side effects are skipped (`predicate.rs`: `active` is the
//! loop's guard). A *guard* before the loop, a varying branch to its
//! header or straight to its exit (the test LLVM puts before a rotated
//! loop), is the loop's first exit test.

use cranelift_codegen::ir::{types as cl, BlockArg, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::Variable;
use spirv::Op;

use super::analysis::MaskedLoop;
use super::{Kind, Shape, LANES};
use crate::lower::{Lowering, R};
use crate::spirv::Id;

/// The accumulator of one phi of a masked loop's exit block: per
/// component, its kind and variables.
pub type Accumulator = Vec<(Kind, Vec<Variable>)>;

/// The lowering state of one masked loop.
#[derive(Debug, Clone)]
pub struct MaskState {
    pub lp: MaskedLoop,
    /// The lanes still in the loop (`i32x4` mask).
    pub active: Variable,
    /// Per phi of the exit block: its kinds and, per component, the
    /// variables of its accumulator.
    pub accs: Vec<(Id, Accumulator)>,
    /// Per exit tail (block index): the lanes that entered it in this
    /// iteration, and the block going on after it (made when the branch
    /// to the tail is lowered).
    pub tails: Vec<(u32, Variable, Option<cranelift_codegen::ir::Block>)>,
}

/// Where a branch from a masked loop's block goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edge {
    Stay,
    Exit,
    Tail(usize),
}

impl Lowering<'_, '_, '_> {
    /// Declares the state of this body's masked loops.
    pub(crate) fn begin_masked_loops(&mut self, loops: Vec<MaskedLoop>) -> R {
        let mut states = Vec::with_capacity(loops.len());
        for lp in loops {
            let active = self.b.declare_var(cl::I32X4);
            let mut accs = Vec::new();
            let blk = &self.body.func.blocks[lp.exit as usize];
            for i in blk.body() {
                let inst = self.at(i);
                if inst.op != Op::Phi {
                    break;
                }
                let (Some(id), Some(ty)) = (inst.result_id, inst.result_type) else {
                    continue;
                };
                let comps = self
                    .kinds(ty)?
                    .into_iter()
                    .map(|k| {
                        let vars = k.clif_types().into_iter().map(|t| self.b.declare_var(t)).collect();
                        (k, vars)
                    })
                    .collect();
                accs.push((id, comps));
            }
            let tails = lp
                .tails
                .iter()
                .map(|&t| (t, self.b.declare_var(cl::I32X4), None))
                .collect();
            states.push(MaskState {
                lp,
                active,
                accs,
                tails,
            });
        }
        self.sb()?.masked = states;
        Ok(())
    }

    /// The index of the masked loop block `b` is in.
    fn masked_loop_of(&self, b: u32) -> Option<usize> {
        let s = self.simd.as_ref()?;
        s.masked
            .iter()
            .position(|l| l.lp.body.get(b as usize).copied().unwrap_or(false))
    }

    /// Before a branch to block `target`: entering a masked loop from
    /// outside makes every lane active (in a body inlined under a mask,
    /// every lane active at the call) and clears the accumulators.
    pub(crate) fn enter_masked_loop(&mut self, target: u32) -> R {
        let Some(li) = self
            .simd
            .as_ref()
            .and_then(|s| s.masked.iter().position(|l| l.lp.header == target))
        else {
            return Ok(());
        };
        let cur = self.current_block()?;
        let st = self.sb()?.masked[li].clone();
        // From the loop, or from its preheader (entered from the guard,
        // which set the lanes that go in).
        if self.masked_loop_of(cur) == Some(li) || st.lp.preheader == Some(cur) {
            return Ok(());
        }
        // Every lane, or in a body inlined under a mask, the lanes active
        // at the call; in each part of an 8-lane body.
        self.each_part(|l| {
            let st = l.sb()?.masked[li].clone();
            let entering = match l.sb()?.outer_guard {
                Some(g) => g,
                None => l.vconst(cl::I32X4, &[u64::MAX; LANES]),
            };
            l.b.def_var(st.active, entering);
            for &(_, leave, _) in &st.tails {
                let z = l.vconst(cl::I32X4, &[0; LANES]);
                l.b.def_var(leave, z);
            }
            for (_, comps) in &st.accs {
                for (k, vars) in comps {
                    for (&var, t) in vars.iter().zip(k.clif_types()) {
                        let z = l.zero(t);
                        l.b.def_var(var, z);
                    }
                }
            }
            Ok(())
        })?;
        Ok(())
    }

    /// Whether terminator `i` of the current block leaves a masked loop
    /// (or ends one of its exit tails): then lowers it as such and returns
    /// true.
    pub(crate) fn masked_exit(&mut self, i: u32) -> R<bool> {
        let cur = self.current_block()?;
        if let Some(li) = self
            .simd
            .as_ref()
            .and_then(|s| s.masked.iter().position(|l| l.lp.guards.contains(&cur)))
        {
            return self.masked_entry(li, i).map(|()| true);
        }
        if let Some((li, ti)) = self.simd.as_ref().and_then(|s| {
            s.masked
                .iter()
                .enumerate()
                .find_map(|(li, l)| l.tails.iter().position(|t| t.0 == cur).map(|ti| (li, ti)))
        }) {
            return self.tail_exit(li, ti).map(|()| true);
        }
        let Some(li) = self.masked_loop_of(cur) else {
            return Ok(false);
        };
        let m = self.m;
        let inst = self.at(i);
        let st = self.sb()?.masked[li].clone();
        let edge = |l: Id| -> R<Edge> {
            let b = m.info(l).map(|x| x.block).ok_or("bad label")?;
            Ok(if b == st.lp.exit {
                Edge::Exit
            } else if let Some(t) = st.tails.iter().position(|t| t.0 == b) {
                Edge::Tail(t)
            } else {
                Edge::Stay
            })
        };
        // The lanes that go where (per part, a mask; None for all of
        // them), and the in-loop successor.
        let (go, to, stay) = match inst.op {
            Op::Branch => {
                let t = inst.operand(0);
                match edge(t)? {
                    Edge::Stay => return Ok(false),
                    e => (None, e, None),
                }
            }
            Op::BranchConditional => {
                let c = inst.operand(0);
                let (t, f) = (inst.operand(1), inst.operand(2));
                match (edge(t)?, edge(f)?) {
                    (Edge::Stay, Edge::Stay) => return Ok(false),
                    (Edge::Exit, Edge::Exit) => (None, Edge::Exit, None),
                    (Edge::Stay, e) | (e, Edge::Stay) => {
                        let shapes = self.each_part(|l| Ok(*l.shapes(c)?.first().ok_or("an empty condition")?))?;
                        let toward = edge(t)? != Edge::Stay;
                        let uniform = match shapes.as_slice() {
                            [Shape::U(cv), rest @ ..] if rest.iter().all(|s| matches!(s, Shape::U(_))) => Some(*cv),
                            _ => None,
                        };
                        if let (Some(cv), Edge::Exit) = (uniform, e) {
                            // The same in every lane: all active lanes
                            // leave, or none does.
                            let stay = if toward { f } else { t };
                            let (sb, sargs) = self.target(stay)?;
                            let out = self.b.create_block();
                            if toward {
                                self.b.ins().brif(cv, out, &[], sb, &sargs);
                            } else {
                                self.b.ins().brif(cv, sb, &sargs, out, &[]);
                            }
                            self.b.switch_to_block(out);
                            let label = self.body.label;
                            self.each_part(|l| {
                                let st = l.sb()?.masked[li].clone();
                                let active = l.b.use_var(st.active);
                                l.accumulate(&st, active, label)
                            })?;
                            self.jump_to_exit(li)?;
                            return Ok(true);
                        }
                        let mut shapes = shapes.into_iter();
                        let go = self.each_part(|l| {
                            let mask = l.as_mask(shapes.next().ok_or("a part without its condition")?);
                            Ok(if toward { mask } else { l.b.ins().bnot(mask) })
                        })?;
                        (Some(go), e, Some(if toward { f } else { t }))
                    }
                    _ => return Err("a branch from a loop to two of its exits is not vectorized".into()),
                }
            }
            _ => return Ok(false),
        };
        // Per part: the lanes leaving, and those staying.
        let label = self.body.label;
        let mut go = go.map(|g| g.into_iter());
        let parts = self.each_part(|l| {
            let st = l.sb()?.masked[li].clone();
            let active = l.b.use_var(st.active);
            let leave = match go.as_mut() {
                Some(g) => {
                    let g = g.next().ok_or("a part without its mask")?;
                    l.b.ins().band(g, active)
                }
                None => active,
            };
            let rest = l.b.ins().band_not(active, leave);
            l.b.def_var(st.active, rest);
            match to {
                Edge::Exit => l.accumulate(&st, leave, label)?,
                // The tail runs for the leaving lanes.
                Edge::Tail(ti) => l.b.def_var(st.tails[ti].1, leave),
                Edge::Stay => return Err("not an exit".to_string()),
            }
            Ok((leave, rest))
        })?;
        let (leaving, rest): (Vec<Value>, Vec<Value>) = parts.into_iter().unzip();
        let out = self.b.create_block();
        match to {
            Edge::Exit => match stay {
                Some(s) => {
                    let (sb, sargs) = self.target(s)?;
                    let any = self.any_lane(&rest);
                    self.b.ins().brif(any, sb, &sargs, out, &[]);
                }
                None => {
                    self.b.ins().jump(out, &[]);
                }
            },
            Edge::Tail(ti) => {
                // The tail runs for the leaving lanes, then `resume` goes on.
                let tail = st.tails[ti].0;
                let resume = self.b.create_block();
                self.each_part(|l| {
                    l.sb()?.masked[li].tails[ti].2 = Some(resume);
                    Ok(())
                })?;
                let stay_target = match stay {
                    Some(s) => Some(self.target(s)?),
                    None => None,
                };
                let tb = self.body.blocks[tail as usize].ok_or("the tail is unreachable")?;
                let any_leave = self.any_lane(&leaving);
                self.b.ins().brif(any_leave, tb, &[], resume, &[]);
                self.b.switch_to_block(resume);
                match stay_target {
                    Some((sb, sargs)) => {
                        let any = self.any_lane(&rest);
                        self.b.ins().brif(any, sb, &sargs, out, &[]);
                    }
                    None => {
                        self.b.ins().jump(out, &[]);
                    }
                }
            }
            Edge::Stay => return Err("not an exit".into()),
        }
        self.b.switch_to_block(out);
        self.jump_to_exit(li)?;
        Ok(true)
    }

    /// The varying branch `i` of a guard of masked loop `li` (to its
    /// header or straight to its exit): the lanes going to the exit leave
    /// at once, the others enter the loop; all of them leaving skips it.
    fn masked_entry(&mut self, li: usize, i: u32) -> R {
        let inst = self.at(i);
        let st = self.sb()?.masked[li].clone();
        let t = inst.operand(1);
        let tb = self.m.info(t).map(|x| x.block).ok_or("bad label")?;
        let into = tb == st.lp.header || Some(tb) == st.lp.preheader;
        let header = if into { t } else { inst.operand(2) };
        // Per part, the lanes going in.
        let going_in = self.each_part(|l| {
            let shape = *l.shapes(inst.operand(0))?.first().ok_or("an empty condition")?;
            let c = l.as_mask(shape);
            Ok(if into { c } else { l.b.ins().bnot(c) })
        })?;
        // Entering resets the loop's state (every lane active) ...
        if st.lp.preheader.is_some() {
            self.enter_masked_loop(st.lp.header)?;
        }
        let (hb, hargs) = self.target(header)?;
        // ... of which only the lanes going in stay.
        let label = self.body.label;
        let mut going_in = going_in.into_iter();
        let stays = self.each_part(|l| {
            let hl = going_in.next().ok_or("a part without its mask")?;
            let st = l.sb()?.masked[li].clone();
            let active = l.b.use_var(st.active);
            let stay = l.b.ins().band(active, hl);
            let leave = l.b.ins().band_not(active, hl);
            l.b.def_var(st.active, stay);
            l.accumulate(&st, leave, label)?;
            Ok(stay)
        })?;
        let out = self.b.create_block();
        let any = self.any_lane(&stays);
        self.b.ins().brif(any, hb, &hargs, out, &[]);
        self.b.switch_to_block(out);
        self.jump_to_exit(li)
    }

    /// The end of exit tail `ti` of masked loop `li`: the lanes that came
    /// through it record their exit values, and the loop goes on.
    fn tail_exit(&mut self, li: usize, ti: usize) -> R {
        let label = self.body.label;
        let resume = self.each_part(|l| {
            let st = l.sb()?.masked[li].clone();
            let (_, var, resume) = st.tails[ti];
            let leave = l.b.use_var(var);
            l.accumulate(&st, leave, label)?;
            resume.ok_or_else(|| "an exit tail lowered before the branch to it".to_string())
        })?;
        let resume = *resume.first().ok_or("no part")?;
        self.b.ins().jump(resume, &[]);
        Ok(())
    }

    /// Records, in the lanes of `leave`, the values the exit block's phis
    /// take from block `from`.
    fn accumulate(&mut self, st: &MaskState, leave: Value, from: Id) -> R {
        let m = self.m;
        for (phi, comps) in &st.accs {
            let pi = m.info(*phi).map(|x| x.def).ok_or("bad phi")?;
            let p = &m.insts[pi as usize];
            let n = p.operands.len() / 2;
            let v = (0..n)
                .find(|&k| p.id(2 * k + 1) == Some(from))
                .and_then(|k| p.id(2 * k))
                .ok_or("the exit phi has no value for this block")?;
            let shapes = self.shapes(v)?;
            for (s, (k, vars)) in shapes.into_iter().zip(comps) {
                let new = self.in_kind(s, *k);
                for (j, (&var, nv)) in vars.iter().zip(new).enumerate() {
                    let old = self.b.use_var(var);
                    let merged = self.select_lanes(leave, nv, old, *k, j);
                    self.b.def_var(var, merged);
                }
            }
        }
        Ok(())
    }

    /// Jumps to the exit block of masked loop `li` with the accumulated
    /// values: per phi, each part's (the order of the block's parameters).
    fn jump_to_exit(&mut self, li: usize) -> R {
        let per_part = self.each_part(|l| {
            let st = l.sb()?.masked[li].clone();
            let mut phis = Vec::with_capacity(st.accs.len());
            for (_, comps) in &st.accs {
                let mut vals = Vec::new();
                for (_, vars) in comps {
                    for &var in vars {
                        vals.push(BlockArg::Value(l.b.use_var(var)));
                    }
                }
                phis.push(vals);
            }
            Ok(phis)
        })?;
        let exit = self.sb()?.masked[li].lp.exit;
        let n = per_part.first().map_or(0, |p| p.len());
        let mut args = Vec::new();
        for phi in 0..n {
            for part in &per_part {
                args.extend(part.get(phi).ok_or("a part without its exit values")?.iter().copied());
            }
        }
        let xb = self.body.blocks[exit as usize].ok_or("the exit block is unreachable")?;
        // The exit may be the header of the next masked loop (after this
        // loop's tail, at -O0): its lanes start there.
        self.enter_masked_loop(exit)?;
        self.b.ins().jump(xb, &args);
        Ok(())
    }

    /// Value `j` of a component of kind `k`: `new` in the lanes of `mask`,
    /// `old` in the others.
    pub(super) fn select_lanes(&mut self, mask: Value, new: Value, old: Value, k: Kind, j: usize) -> Value {
        match k {
            Kind::Mask => self.blend(mask, new, old),
            Kind::Vec(vt) => {
                let m = self.mask_as(mask, vt);
                self.blend(m, new, old)
            }
            Kind::Lanes(_) => {
                let l = self.b.ins().extractlane(mask, j as u8);
                self.b.ins().select(l, new, old)
            }
            Kind::Pair(vt) => {
                let mut m = self.half_mask(mask, j);
                if vt != cl::I64X2 {
                    m = self.b.ins().bitcast(vt, MemFlagsData::new(), m);
                }
                self.blend(m, new, old)
            }
        }
    }

    /// `new` in the lanes where `mask` (a lane mask: each lane all ones or
    /// all zeros, of the lane width of `new` and `old`) is set, `old` in
    /// the others. With SSE4.1 one `blendv` instruction, which reads only
    /// each mask lane's top bit: the same lanes for such a mask. Without
    /// it `bitselect`, three instructions (and, or, and-not).
    fn blend(&mut self, mask: Value, new: Value, old: Value) -> Value {
        let vt = self.b.func.dfg.value_type(new);
        let int = match vt.lane_bits() {
            8 | 16 => cl::I8X16,
            32 => cl::I32X4,
            _ => cl::I64X2,
        };
        if !has_sse41() || vt.bits() != 128 {
            return self.b.ins().bitselect(mask, new, old);
        }
        // (16-bit lanes as bytes: a bit cast that changes the lane count,
        // which Cranelift's verifier requires a byte order for.)
        let le = MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
        let as_int = |l: &mut Self, v: Value| {
            if l.b.func.dfg.value_type(v) == int {
                v
            } else {
                l.b.ins().bitcast(int, le, v)
            }
        };
        let (m, n, o) = (as_int(self, mask), as_int(self, new), as_int(self, old));
        let r = self.b.ins().blendv(m, n, o);
        if vt == int {
            r
        } else {
            self.b.ins().bitcast(vt, le, r)
        }
    }

    /// `i32x4` lane mask `mask` as a mask for the 4-lane vectors of type
    /// `vt`: the same bits for `f32x4`; lanes 0-3 of an `i16x8` or
    /// `i8x16` (each lane's low bytes, all ones or all zeros), for the
    /// 8- and 16-bit integers of [`super::Shape::V`].
    pub(super) fn mask_as(&mut self, mask: Value, vt: cl::Type) -> Value {
        match vt {
            cl::I32X4 => mask,
            cl::I16X8 | cl::I8X16 => self.narrowed_from(mask, vt).unwrap_or_else(|| self.narrow4(mask, vt)),
            _ => self.b.ins().bitcast(vt, MemFlagsData::new(), mask),
        }
    }

    /// The mask of type `vt` whose lanes 0-3 `mask` was sign-extended
    /// from (a comparison of 8- or 16-bit integers), if it was: its
    /// lanes 0-3 are `mask`'s lanes narrowed.
    fn narrowed_from(&self, mask: Value, vt: cl::Type) -> Option<Value> {
        use cranelift_codegen::ir::{InstructionData, Opcode};
        let dfg = &self.b.func.dfg;
        let mut v = dfg.resolve_aliases(mask);
        while dfg.value_type(v) != vt {
            let inst = dfg.value_def(v).inst()?;
            let InstructionData::Unary {
                opcode: Opcode::SwidenLow,
                arg,
            } = dfg.insts[inst]
            else {
                return None;
            };
            v = dfg.resolve_aliases(arg);
        }
        Some(v)
    }

    /// Lanes 0-1 (`half` 0) or 2-3 (`half` 1) of `i32x4` lane mask
    /// `mask` as an `i64x2` lane mask (each lane sign-extended: all ones
    /// stays all ones).
    pub(super) fn half_mask(&mut self, mask: Value, half: usize) -> Value {
        if half == 0 {
            self.b.ins().swiden_low(mask)
        } else {
            self.b.ins().swiden_high(mask)
        }
    }
}

/// Does the host CPU, which the JIT compiles for, have SSE4.1 (`blendv`)?
fn has_sse41() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("sse4.1")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
