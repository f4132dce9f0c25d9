//! Keeping computations next to the loads they consume. Cranelift's
//! optimizer takes every pure instruction (arithmetic) out of the block
//! and puts it back just before its first use by an instruction with a
//! side effect, while loads keep their order. A chain such as clang's
//! unrolled `acc += a[k] * b[k]` (16 loads, then 16 multiply-adds only
//! the final store of `acc` uses) thus comes out as all loads first and
//! all arithmetic after, with every loaded value live at once: spilled,
//! and too many instructions per work-item for the core to overlap two
//! work-items' chains.
//!
//! A *pin* is a store of a value to a scratch stack slot right after the
//! instruction that computes it: the value must then be computed there.
//! A value is pinned where it consumes a load of its own block and
//! another load comes before its first use in the block; so loads and
//! the arithmetic on them stay interleaved as the SPIR-V has them. Pins
//! change no result: nothing reads the slot.

use std::collections::HashSet;

use cranelift_codegen::ir::{InstBuilder, StackSlot, StackSlotData, StackSlotKind};
use rspirv::dr::Operand;
use spirv::Op;

use super::{simd::Shape, Lowering, R};
use crate::spirv::{Function, Module};

/// How many instructions after an arithmetic one are searched for its
/// first use or the next load.
const LOOKAHEAD: usize = 32;

/// The 16-byte places of the scratch slot pins store to: enough for the
/// two parts of an 8-lane body to keep theirs apart while an instruction
/// pins up to 32 values per part (a `float8` held as scalars per lane).
const PIN_PLACES: u32 = 64;

/// Whether instruction `op` only computes its result from its operands.
fn arithmetic(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        FAdd | FSub
            | FMul
            | FDiv
            | FRem
            | FMod
            | FNegate
            | IAdd
            | ISub
            | IMul
            | SDiv
            | UDiv
            | SRem
            | SMod
            | UMod
            | BitwiseAnd
            | BitwiseOr
            | BitwiseXor
            | ShiftLeftLogical
            | ShiftRightLogical
            | ShiftRightArithmetic
            | Dot
            | VectorTimesScalar
            | ExtInst
            | ConvertFToS
            | ConvertFToU
            | ConvertSToF
            | ConvertUToF
            | FConvert
            | UConvert
            | SConvert
            | Select
    )
}

/// The instructions of `func` whose results are pinned (see the module
/// documentation).
pub fn pins(m: &Module, func: &Function) -> HashSet<u32> {
    let mut out = HashSet::new();
    for blk in &func.blocks {
        let body: Vec<u32> = blk.body().collect();
        let loads: HashSet<u32> = body
            .iter()
            .filter(|&&i| m.insts[i as usize].op == Op::Load)
            .filter_map(|&i| m.insts[i as usize].result_id)
            .collect();
        for (n, &i) in body.iter().enumerate() {
            let inst = &m.insts[i as usize];
            let Some(id) = inst.result_id else { continue };
            if !arithmetic(inst.op) || (inst.op == Op::ExtInst && super::simd::analysis::ext_through_pointer(m, i)) {
                continue;
            }
            let uses = |j: &u32| {
                m.insts[*j as usize]
                    .operands
                    .iter()
                    .any(|o| matches!(o, Operand::IdRef(x) if *x == id))
            };
            let reads_load = inst
                .operands
                .iter()
                .any(|o| matches!(o, Operand::IdRef(x) if loads.contains(x)));
            if !reads_load {
                continue;
            }
            // Looked for among the next few instructions only (a block
            // of any size costs linear time).
            let next = body[n + 1..]
                .iter()
                .take(LOOKAHEAD)
                .find(|j| uses(j) || m.insts[**j as usize].op == Op::Load);
            if next.is_some_and(|j| !uses(j)) {
                out.insert(i);
            }
        }
    }
    out
}

impl Lowering<'_, '_, '_> {
    /// Pins the result of instruction `i` (see the module documentation),
    /// in `slot`, made on first use.
    pub(super) fn pin(&mut self, i: u32, slot: &mut Option<StackSlot>) -> R {
        let Some(id) = self.m.insts[i as usize].result_id else {
            return Ok(());
        };
        // A pin is no part of the result: a value without shapes (none
        // here) is simply not pinned.
        let vals: Vec<_> = if self.simd.is_some() {
            self.shapes(id)
                .unwrap_or_default()
                .into_iter()
                .flat_map(|s| match s {
                    Shape::U(v) | Shape::V(v) | Shape::Mask(v) => vec![v],
                    Shape::Lanes(l) => l.to_vec(),
                    Shape::Pair(p) => p.to_vec(),
                    Shape::Affine { base, .. } => vec![base],
                })
                .collect()
        } else {
            self.values.get(&id).cloned().unwrap_or_default()
        };
        // Each value its own 16 bytes (each part's of an 8-lane body,
        // each lane's of scalars per lane): Cranelift drops a store that
        // another one to the same place follows with no load between, so
        // the two parts' pins of one instruction in one place would leave
        // part 0's arithmetic unpinned.
        let first = self.part() * vals.len();
        for (k, v) in vals.into_iter().enumerate() {
            let s = *slot.get_or_insert_with(|| {
                self.b
                    .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16 * PIN_PLACES, 4))
            });
            let at = 16 * ((first + k) as u32 % PIN_PLACES);
            self.b
                .ins()
                .stack_store(cranelift_codegen::ir::types::I64, v, s, at as i32);
        }
        Ok(())
    }
}
