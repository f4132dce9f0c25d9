//! The non-uniform sub-group instructions of SPIR-V 1.3
//! (cl_khr_subgroup_non_uniform_vote, _ballot, _non_uniform_arithmetic,
//! _shuffle, _shuffle_relative, _clustered_reduce).
//!
//! The *active* work-items of a non-uniform instruction are those of the
//! sub-group that reach it together: on clift, the work-items of the
//! sub-group suspended at that instruction when a phase of the work-group
//! loop starts ([`super::barrier`]). Each instruction that combines their
//! operands (votes, broadcasts, ballots, shuffles, reductions and scans) is
//! a suspension point that waits for nobody ([`Point::NonUniform`]): a
//! work-item stores its operand in its frame and lets the others run; in
//! the next phase it resumes, and the lowest active work-item computes
//! every active one's result (`clift_builtins::non_uniform`, which also
//! describes the frame slots). So in `if (cond) x = sub_group_non_uniform_
//! reduce_add(v);` the sum is over the work-items whose `cond` held, and
//! in a loop each pass combines the work-items still in it.
//!
//! The instructions that compute on a ballot value alone (inverse ballot,
//! bit extract, bit count, find LSB/MSB) and the sub-group mask built-ins
//! are computed in place from the work-item's sub-group local id and its
//! sub-group's size.

use clift_builtins::non_uniform::{Desc, Kind, Operation, Scan};
use cranelift_codegen::ir::{condcodes::IntCC, types as cl, InstBuilder, MemFlagsData, Value};
use spirv::{GroupOperation, Op};

use super::barrier::Point;
use super::frame::SLOT;
use super::{types, Lowering, R};
use crate::spirv::Type;

/// The sub-group size fits the ballot's first 32-bit word: the masks and
/// ballot values below compute on that word (the other three are zero).
const _: () = assert!(crate::sub_group::SIZE <= 32);

impl Lowering<'_, '_, '_> {
    /// Lowers non-uniform instruction `i`.
    pub(super) fn non_uniform(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let op = inst.op;
        if matches!(op, crate::spirv::opsets::ballot_values!()) {
            return self.ballot_value(i);
        }
        let m = self.m;
        let id = inst.result_id();
        let ty = inst.result_type();
        // (operation, value operand, source id / mask / delta operand)
        let (operation, value_at, index_at) = match op {
            Op::GroupNonUniformElect => (Operation::Elect, None, None),
            Op::GroupNonUniformAll => (Operation::All, Some(1), None),
            Op::GroupNonUniformAny => (Operation::Any, Some(1), None),
            Op::GroupNonUniformAllEqual => (Operation::AllEqual, Some(1), None),
            Op::GroupNonUniformBroadcast | Op::GroupNonUniformShuffle => (Operation::Shuffle, Some(1), Some(2)),
            Op::GroupNonUniformShuffleXor => (Operation::ShuffleXor, Some(1), Some(2)),
            Op::GroupNonUniformShuffleUp => (Operation::ShuffleUp, Some(1), Some(2)),
            Op::GroupNonUniformShuffleDown => (Operation::ShuffleDown, Some(1), Some(2)),
            Op::GroupNonUniformBroadcastFirst => (Operation::BroadcastFirst, Some(1), None),
            Op::GroupNonUniformBallot => (Operation::Ballot, Some(1), None),
            _ => (arithmetic(op)?, Some(2), None),
        };
        let (scan, cluster_log2) = if matches!(op, crate::spirv::opsets::non_uniform_arithmetic!()) {
            match inst.group_operation(1) {
                GroupOperation::Reduce => (Scan::Reduce, None),
                GroupOperation::InclusiveScan => (Scan::Inclusive, None),
                GroupOperation::ExclusiveScan => (Scan::Exclusive, None),
                GroupOperation::ClusteredReduce => {
                    let size = crate::validate::env::const_int(m, inst.operand(3))
                        .filter(|s| s.is_power_of_two())
                        .ok_or("the cluster size is not a power of 2")?;
                    (Scan::Reduce, Some(size.trailing_zeros() as u8))
                }
                g => return Err(format!("group operation {g:?} is not an OpenCL one")),
            }
        } else {
            (Scan::Reduce, None)
        };
        let (xs, kind) = match value_at {
            Some(k) => {
                let v = inst.operand(k);
                let vt = self.type_of(v);
                (self.get(v)?, kind_of(m, vt)?)
            }
            None => (Vec::new(), Kind::Bool),
        };
        let comps = u8::try_from(xs.len()).map_err(|_| "a value of too many components")?;
        let desc = Desc {
            op: operation,
            kind,
            scan,
            comps,
            cluster_log2,
        };
        let at = {
            let mut k = self.kernel.borrow_mut();
            let fs = k
                .frame
                .as_mut()
                .ok_or("a non-uniform instruction outside a kernel's frame")?;
            fs.alloc(desc.frame_bytes() as u64, SLOT as u64)?
        };
        // Arrival: the marker, the source id, the operand.
        let flags = MemFlagsData::trusted();
        let fr = self
            .frame_entry()
            .ok_or("a non-uniform instruction outside a kernel's frame")?;
        let phase = self.b.ins().stack_load(cl::I64, cl::I64, fr.phase_count, 0);
        self.b.ins().store(flags, phase, fr.base, at);
        if let Some(k) = index_at {
            let x = self.get1(inst.operand(k))?;
            let x = self.zext_i64(x);
            self.b.ins().store(flags, x, fr.base, at + 8);
        }
        for (c, &x) in xs.iter().enumerate() {
            self.b.ins().store(flags, x, fr.base, at + 16 + SLOT * c as i32);
        }
        let (fr, state) = self.suspend_at(i, Point::NonUniform)?;

        // Resumed: the lowest active work-item computes every result.
        let super::collective::Span { first, count, lin } = self.span(true);
        let private = self.ctx_word(crate::launch_abi::ctx_offset::PRIVATE_ARENA);
        let size = self.b.func.dfg.first_result(fr.size);
        let state = self.b.ins().iconst(cl::I64, state);
        let phase = self.b.ins().stack_load(cl::I64, cl::I64, fr.phase_count, 0);
        let at_v = self.b.ins().iconst(cl::I64, i64::from(at));
        let desc_v = self.b.ins().iconst(cl::I64, desc.encode() as i64);
        let helper =
            clift_builtins::non_uniform::clift_non_uniform as unsafe extern "C" fn(_, _, _, _, _, _, _, _, _) as usize;
        self.call_host(
            helper,
            &[cl::I64; 9],
            &[],
            &[private, size, first, count, lin, state, phase, at_v, desc_v],
        );
        let result_types = match operation {
            Operation::Ballot => vec![cl::I32; 4],
            _ => types::components(m, ty)?,
        };
        let results_at = at + 16 + SLOT * i32::from(comps);
        let v = result_types
            .iter()
            .enumerate()
            .map(|(c, &t)| self.b.ins().load(t, flags, fr.base, results_at + SLOT * c as i32))
            .collect();
        self.values.insert(id, v);
        Ok(())
    }

    /// Inverse ballot, bit extract, bit count and find LSB/MSB: computed
    /// from the ballot's first word and the sub-group local id, over the
    /// bits of local ids below the maximum sub-group size (the extension:
    /// "only considering the bits in value ... corresponding to sub-group
    /// local IDs less than the maximum sub-group size within the
    /// dispatch").
    fn ballot_value(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let op = inst.op;
        let id = inst.result_id();
        let ty = inst.result_type();
        let value_at = if op == Op::GroupNonUniformBallotBitCount { 2 } else { 1 };
        let v = self.get(inst.operand(value_at))?;
        let word = *v.first().ok_or("an empty ballot")?;
        let (lid, size) = self.lid_and_max_size();
        let below_max = self.below(size);
        let one = self.b.ins().iconst(cl::I32, 1);
        let r = match op {
            Op::GroupNonUniformInverseBallot => {
                let s = self.b.ins().ushr(word, lid);
                self.b.ins().band(s, one)
            }
            Op::GroupNonUniformBallotBitExtract => {
                // Bit `index` of the 128: the word index / 32, none past 127.
                let index = self.get1(inst.operand(2))?;
                let index = self.zext_i64(index);
                let w = self.b.ins().ushr_imm_u(index, 5);
                let mut picked = self.b.ins().iconst(cl::I32, 0);
                for (k, &x) in v.iter().enumerate() {
                    let is_k = self.b.ins().icmp_imm_s(IntCC::Equal, w, k as i64);
                    picked = self.b.ins().select(is_k, x, picked);
                }
                let bit = self.b.ins().ireduce(cl::I32, index);
                let s = self.b.ins().ushr(picked, bit);
                self.b.ins().band(s, one)
            }
            Op::GroupNonUniformBallotBitCount => {
                let mask = match inst.group_operation(1) {
                    GroupOperation::Reduce => below_max,
                    GroupOperation::InclusiveScan => {
                        let upto = self.below_plus_one(lid);
                        self.b.ins().band(upto, below_max)
                    }
                    GroupOperation::ExclusiveScan => self.below(lid),
                    g => return Err(format!("group operation {g:?} is not one a bit count takes")),
                };
                let x = self.b.ins().band(word, mask);
                self.b.ins().popcnt(x)
            }
            Op::GroupNonUniformBallotFindLSB => {
                let x = self.b.ins().band(word, below_max);
                self.b.ins().ctz(x)
            }
            Op::GroupNonUniformBallotFindMSB => {
                let x = self.b.ins().band(word, below_max);
                let z = self.b.ins().clz(x);
                let top = self.b.ins().iconst(cl::I32, 31);
                self.b.ins().isub(top, z)
            }
            _ => return Err(format!("{op:?} is not a ballot value instruction")),
        };
        let t = types::scalar(self.m, ty)?;
        let r = self.fit(r, t);
        self.values.insert(id, vec![r]);
        Ok(())
    }

    /// The sub-group mask built-ins (SubgroupEqMask ... SubgroupLtMask):
    /// the bits of local ids relative to this work-item's, those at or
    /// above it only below the maximum sub-group size (the extension: "...
    /// greater than or equal to the sub-group local ID and less than the
    /// maximum sub-group size").
    pub(super) fn sub_group_mask(&mut self, b: spirv::BuiltIn) -> R<Vec<Value>> {
        let (lid, size) = self.lid_and_max_size();
        let below_max = self.below(size);
        let below = self.below(lid);
        let upto = self.below_plus_one(lid);
        let x = match b {
            spirv::BuiltIn::SubgroupEqMask => {
                let one = self.b.ins().iconst(cl::I32, 1);
                self.b.ins().ishl(one, lid)
            }
            spirv::BuiltIn::SubgroupGeMask => self.b.ins().band_not(below_max, below),
            spirv::BuiltIn::SubgroupGtMask => self.b.ins().band_not(below_max, upto),
            spirv::BuiltIn::SubgroupLeMask => upto,
            spirv::BuiltIn::SubgroupLtMask => below,
            _ => return Err(format!("{b:?} is not a sub-group mask")),
        };
        let zero = self.b.ins().iconst(cl::I32, 0);
        Ok(vec![x, zero, zero, zero])
    }

    /// The work-item's sub-group local id and the dispatch's maximum
    /// sub-group size, as `i32`.
    fn lid_and_max_size(&mut self) -> (Value, Value) {
        let super::collective::Span { first, lin, .. } = self.span(true);
        let lid = self.b.ins().isub(lin, first);
        let max = self.max_sub_group_size();
        (self.b.ins().ireduce(cl::I32, lid), self.b.ins().ireduce(cl::I32, max))
    }

    /// The bits below bit `n` (`n` at most 31, an `i32`).
    fn below(&mut self, n: Value) -> Value {
        let one = self.b.ins().iconst(cl::I32, 1);
        let bit = self.b.ins().ishl(one, n);
        self.b.ins().iadd_imm_s(bit, -1)
    }

    /// The bits up to bit `n` included (`n` at most 30, an `i32`).
    fn below_plus_one(&mut self, n: Value) -> Value {
        let two = self.b.ins().iconst(cl::I32, 2);
        let bit = self.b.ins().ishl(two, n);
        self.b.ins().iadd_imm_s(bit, -1)
    }

    /// `v` (an integer) as type `t`: truncated or zero-extended.
    fn fit(&mut self, v: Value, t: cl::Type) -> Value {
        let vt = self.b.func.dfg.value_type(v);
        match vt.bits().cmp(&t.bits()) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Greater => self.b.ins().ireduce(t, v),
            std::cmp::Ordering::Less => self.b.ins().uextend(t, v),
        }
    }
}

/// The operation of a non-uniform reduction or scan.
fn arithmetic(op: Op) -> R<Operation> {
    Ok(match op {
        Op::GroupNonUniformIAdd => Operation::IAdd,
        Op::GroupNonUniformFAdd => Operation::FAdd,
        Op::GroupNonUniformIMul => Operation::IMul,
        Op::GroupNonUniformFMul => Operation::FMul,
        Op::GroupNonUniformSMin => Operation::SMin,
        Op::GroupNonUniformUMin => Operation::UMin,
        Op::GroupNonUniformFMin => Operation::FMin,
        Op::GroupNonUniformSMax => Operation::SMax,
        Op::GroupNonUniformUMax => Operation::UMax,
        Op::GroupNonUniformFMax => Operation::FMax,
        Op::GroupNonUniformBitwiseAnd | Op::GroupNonUniformLogicalAnd => Operation::And,
        Op::GroupNonUniformBitwiseOr | Op::GroupNonUniformLogicalOr => Operation::Or,
        Op::GroupNonUniformBitwiseXor | Op::GroupNonUniformLogicalXor => Operation::Xor,
        _ => return Err(format!("{op:?} is not a non-uniform instruction clift knows")),
    })
}

/// How the frame holds the components of a value of type `t`.
fn kind_of(m: &crate::spirv::Module, t: crate::spirv::Id) -> R<Kind> {
    let scalar = m.scalar_of(t).map_or(t, |(c, _)| c);
    Ok(match m.ty(scalar) {
        Some(Type::Bool) => Kind::Bool,
        Some(Type::Int { width: 8, .. }) => Kind::I8,
        Some(Type::Int { width: 16, .. }) => Kind::I16,
        Some(Type::Int { width: 32, .. }) => Kind::I32,
        Some(Type::Int { width: 64, .. }) => Kind::I64,
        Some(Type::Float { width: 16 }) => Kind::Half,
        Some(Type::Float { width: 32 }) => Kind::F32,
        Some(Type::Float { width: 64 }) => Kind::F64,
        _ => return Err(format!("a non-uniform operation on {}", m.show_type(t))),
    })
}
