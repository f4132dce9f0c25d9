//! Values computed again where a work-item resumes instead of kept in its
//! frame. A value kept across a barrier that is a short integer
//! computation from the work-group function's entry block (arguments,
//! context fields) and the work-item's local ids only (a local-memory
//! address such as `&tile[lid.y][k]`, an index `row * n + col`) is not
//! stored at the suspension point and loaded at the resume point: the
//! resume point computes it again, from the same inputs, so it is the
//! same value. This saves a store and a load per value, per work-item
//! (chunk) and phase, and leaves Cranelift free to compute the value next
//! to its use instead of holding it in a register or a spill slot.

use std::collections::HashMap;

use cranelift_codegen::ir::{Inst, InstBuilderBase, Opcode, Value, ValueDef};

use super::Lowering;

/// At most this many instructions are computed again for one value
/// (those it shares with other values are computed once: a tile address
/// `base + (lid.y * 16 + k) * 4` takes 9, mostly shared).
const MAX_INSTS: usize = 12;

/// Whether instructions of `op` may be computed again: integer
/// arithmetic that cannot trap and reads no memory.
fn recomputable(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Iconst
            | Iadd
            | Isub
            | Imul
            | Ishl
            | Ushr
            | Sshr
            | Band
            | Bor
            | Bxor
            | Uextend
            | Sextend
            | Ireduce
            | Splat
            | Vconst
    )
}

impl Lowering<'_, '_, '_> {
    /// Whether `v` is available wherever the work-item resumes: a value
    /// of the function's entry block, or one of the work-item's local ids
    /// or its frame's address (defined where the work-item (chunk) starts,
    /// which every resume point is dominated by).
    fn everywhere(&self, v: Value) -> bool {
        if self.wi.local_id.contains(&v) {
            return true;
        }
        // The work-item's frame address, and the frame size it is computed
        // from: defined where the work-item starts too. The size's `iconst`
        // is set only once the whole body is lowered, so it must not be
        // copied before.
        if let Some(fr) = self.frame_entry() {
            if v == fr.base || v == self.b.func.dfg.first_result(fr.size) {
                return true;
            }
        }
        let entry = self.b.func.layout.entry_block();
        let block = match self.b.func.dfg.value_def(v) {
            ValueDef::Result(inst, _) => self.b.func.layout.inst_block(inst),
            ValueDef::Param(b, _) => Some(b),
            _ => None,
        };
        block.is_some() && block == entry
    }

    /// The instructions that compute `v` from values available
    /// everywhere, operands first (None if it is not such a value or
    /// takes more than [`MAX_INSTS`]); empty if `v` is available itself.
    pub(super) fn recompute_plan(&self, v: Value) -> Option<Vec<Inst>> {
        let mut plan = Vec::new();
        self.plan_into(v, &mut plan, 0).then_some(plan)
    }

    /// Adds to `plan` what computes `v`, `depth` operands down from the
    /// kept value (bounded, so a hostile chain cannot recurse deeply).
    fn plan_into(&self, v: Value, plan: &mut Vec<Inst>, depth: usize) -> bool {
        if self.everywhere(v) {
            return true;
        }
        if depth >= MAX_INSTS {
            return false;
        }
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
            return false;
        };
        if plan.contains(&inst) {
            return true;
        }
        if !recomputable(dfg.insts[inst].opcode()) || dfg.inst_results(inst).len() != 1 {
            return false;
        }
        for &a in dfg.inst_args(inst) {
            if !self.plan_into(a, plan, depth + 1) {
                return false;
            }
        }
        plan.push(inst);
        plan.len() <= MAX_INSTS
    }

    /// Computes `v` again at the current position by `plan`
    /// ([`Self::recompute_plan`]); `done` maps values computed again at
    /// this position to their new values (shared between values).
    pub(super) fn recompute(&mut self, v: Value, plan: &[Inst], done: &mut HashMap<Value, Value>) -> Value {
        for &inst in plan {
            let old = self.b.func.dfg.first_result(inst);
            if done.contains_key(&old) {
                continue;
            }
            let mut data = self.b.func.dfg.insts[inst];
            let args: Vec<Value> = self.b.func.dfg.inst_args(inst).to_vec();
            let ctrl = self.b.func.dfg.ctrl_typevar(inst);
            for (slot, a) in data
                .arguments_mut(&mut self.b.func.dfg.value_lists)
                .iter_mut()
                .zip(args)
            {
                *slot = done.get(&a).copied().unwrap_or(a);
            }
            let (new, dfg) = self.b.ins().build(data, ctrl);
            let nv = dfg.first_result(new);
            done.insert(old, nv);
        }
        done.get(&v).copied().unwrap_or(v)
    }
}
