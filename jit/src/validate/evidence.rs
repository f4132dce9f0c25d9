//! The validator's evidence ([`Validated`]) and the instruction view it
//! hands out ([`Checked`]): what code generation reads of an instruction
//! whose shape validation proved, without checking it again.
//!
//! What backs the accessors:
//! - **Operands as the grammar requires.** The parser decodes every
//!   instruction with the SPIR-V grammar (`rspirv`): an instruction lacking
//!   an operand its grammar requires (quantifier one), or carrying one of
//!   another kind, is refused ("fewer operands than its grammar requires"),
//!   and the result type and result id are present exactly for the opcodes
//!   whose grammar gives them. `OpExtInst` of `OpenCL.std` is checked the
//!   same way against the extended grammar (its operand count, its literal
//!   operands turned into literals), and `OpenCL.std` is the only set whose
//!   instructions may appear in a function body.
//! - **Ids defined and typed.** Every id operand is defined (once) and
//!   every value has a result type (`cfg` and `types`).
//!
//! An accessor's invariant can only break if a [`Checked`] is made for a
//! module other than the one validated, or if the validator has a hole;
//! then it does not panic (nothing may, across the C ABI): it returns
//! [`NO_ID`] (or [`NO_LITERAL`]), which no value or type has, so the
//! lowering's existing "has no value here" / "not a type" errors report
//! the instruction as a diagnostic.

use rspirv::dr::Operand;
use spirv::{GroupOperation, Op, StorageClass};

use crate::spirv::{Id, Inst, Module};

/// The id an accessor returns should its invariant ever break: SPIR-V ids
/// start at 1, so no value, type or label has it.
pub const NO_ID: Id = 0;

/// The literal an accessor returns should its invariant ever break: out of
/// range as a component index, instruction number or selector.
pub const NO_LITERAL: u32 = u32::MAX;

/// The evidence that a module passed every rule: only
/// [`super::check_functions`] makes one, and only for a module without
/// problems, so code generation, which takes a [`crate::FrontEnd`] holding
/// it, never sees a module the validator did not accept. What the rules
/// proved (every instruction with the operands its grammar requires, every
/// id defined once with a type, operands of the types their opcodes take,
/// each function's control-flow graph with its dominators in
/// [`crate::spirv::Function::cfg`], definitions dominating their uses,
/// entry points with valid interfaces, a call graph without recursion) is
/// what the lowering relies on; it reads instructions through
/// [`Validated::inst`].
#[derive(Debug, Clone)]
pub struct Validated(pub(super) ());

/// The instruction an index past the module's end reads as: no operands.
static NOTHING: Inst = Inst {
    offset: 0,
    op: Op::Nop,
    result_type: None,
    result_id: None,
    operands: Vec::new(),
};

impl Validated {
    /// The result type of value `id` (a constant, variable, parameter,
    /// OpUndef or instruction result) of `m`, the module this evidence is
    /// for: the validator proved every id an instruction uses as a value
    /// defined, with a type. Should that not hold, [`NO_ID`] (reported by
    /// the lowering as "not a type"), never a panic.
    pub fn type_of(&self, m: &Module, id: Id) -> Id {
        m.type_of(id).unwrap_or(NO_ID)
    }

    /// Instruction `i` of `m`, the module this evidence is for, seen
    /// through the accessors validation backs. An index past the end reads
    /// as an OpNop (whose accessors return [`NO_ID`]): no panic.
    pub fn inst<'a>(&self, m: &'a Module, i: u32) -> Checked<'a> {
        Checked(m.insts.get(i as usize).unwrap_or(&NOTHING))
    }
}

/// An instruction of a validated module; only [`Validated::inst`] makes
/// one. It dereferences to the [`Inst`] for everything else (the opcode,
/// optional and variadic operands).
#[derive(Debug, Clone, Copy)]
pub struct Checked<'a>(&'a Inst);

impl<'a> std::ops::Deref for Checked<'a> {
    type Target = Inst;
    fn deref(&self) -> &Inst {
        self.0
    }
}

impl<'a> Checked<'a> {
    /// The instruction itself.
    pub fn inst(self) -> &'a Inst {
        self.0
    }

    /// The result type and result id, for an opcode whose grammar gives it
    /// both (the parser decoded them). Should that not hold, [`NO_ID`] for
    /// what is missing (reported by the lowering as "not a type" or "has no
    /// value here"), never a panic.
    pub fn result(self) -> (Id, Id) {
        (self.0.result_type.unwrap_or(NO_ID), self.result_id())
    }

    /// The result type, for an opcode whose grammar gives one; [`NO_ID`]
    /// otherwise (see [`Checked::result`]).
    pub fn result_type(self) -> Id {
        self.0.result_type.unwrap_or(NO_ID)
    }

    /// The result id, for an opcode whose grammar gives one; [`NO_ID`]
    /// otherwise (see [`Checked::result`]).
    pub fn result_id(self) -> Id {
        self.0.result_id.unwrap_or(NO_ID)
    }

    /// Id operand `k` (after the result type and id), for an operand the
    /// opcode's grammar requires: an `IdRef`, `IdScope` or
    /// `IdMemorySemantics` at a position the parser checked is present; for
    /// a variadic id operand list, any `k` below `operands.len()`. Should
    /// that not hold, [`NO_ID`] (reported as "has no value here"), never a
    /// panic. Optional operands are read with [`Inst::id`].
    pub fn operand(self, k: usize) -> Id {
        self.0.id(k).unwrap_or(NO_ID)
    }

    /// Literal operand `k`, for a 32-bit literal the opcode's grammar (or
    /// the `OpenCL.std` grammar, for `OpExtInst`) requires. Should that not
    /// hold, [`NO_LITERAL`] (out of range wherever a literal indexes
    /// something, so reported there), never a panic.
    pub fn literal(self, k: usize) -> u32 {
        self.0.lit(k).unwrap_or(NO_LITERAL)
    }

    /// Storage-class operand `k`, where the grammar requires one
    /// (OpGenericCastToPtrExplicit's target class). Should that not hold,
    /// `Generic`, which no instruction reading it takes as an operand (so
    /// reported there), never a panic.
    pub fn storage_class(self, k: usize) -> StorageClass {
        match self.0.operands.get(k) {
            Some(Operand::StorageClass(s)) => *s,
            _ => StorageClass::Generic,
        }
    }

    /// Group-operation operand `k`, where the grammar requires one (the
    /// arithmetic group collectives). Should that not hold,
    /// `PartitionedReduceNV`, which OpenCL does not have (so reported as
    /// such), never a panic.
    pub fn group_operation(self, k: usize) -> GroupOperation {
        match self.0.operands.get(k) {
            Some(Operand::GroupOperation(g)) => *g,
            _ => GroupOperation::PartitionedReduceNV,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_invariants_read_as_sentinels() {
        let v = Validated(());
        let m = Module::default();
        let c = v.inst(&m, 7);
        assert_eq!(c.op, Op::Nop);
        assert_eq!(c.result(), (NO_ID, NO_ID));
        assert_eq!(c.operand(3), NO_ID);
        assert_eq!(c.literal(0), NO_LITERAL);
        assert_eq!(c.storage_class(1), StorageClass::Generic);
        assert_eq!(c.group_operation(1), GroupOperation::PartitionedReduceNV);
        assert_eq!(v.type_of(&m, 5), NO_ID);
        assert_eq!(m.kind(NO_ID), crate::spirv::IdKind::Undefined);
        assert!(m.ty(NO_ID).is_none());
    }
}
