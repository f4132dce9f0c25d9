//! Pipe instructions: calls of the built-ins' `pipe` module
//! (`clift_builtins::pipe`, whose documentation gives the store's layout
//! and the protocol), with the instruction's constant packet size. A pipe
//! value is the address of its store and a `reserve_id_t` a 64-bit word
//! (`types::scalar`); OpIsValidReserveId is computed inline.
//!
//! The work-group and sub-group forms (OpGroupReserveReadPipePackets,
//! OpGroupReserveWritePipePackets, OpGroupCommitReadPipe,
//! OpGroupCommitWritePipe, for a work-group or a sub-group as their scope
//! says) are suspension points like the other collectives
//! (`collective.rs`): once the whole group has arrived, its first
//! work-item, which resumes first, makes the one reservation (and leaves
//! its id in a slot of its frame, which every work-item reads) or the one
//! commit, so a group commit comes after every work-item's reserved reads
//! or writes.

use cranelift_codegen::ir::{condcodes::IntCC, types as cl, InstBuilder, MemFlagsData, Value};
use spirv::Op;

use super::frame::SLOT;
use super::{Lowering, R};
use crate::spirv::{ConstValue, Id};
use clift_builtins::pipe as rt;

/// Whether `op` reads from a pipe (its operations pass `write` = 0).
fn reads(op: Op) -> bool {
    matches!(
        op,
        Op::ReadPipe
            | Op::ReservedReadPipe
            | Op::ReserveReadPipePackets
            | Op::CommitReadPipe
            | Op::GroupReserveReadPipePackets
            | Op::GroupCommitReadPipe
    )
}

impl Lowering<'_, '_, '_> {
    /// The value of 32-bit integer constant `id` (a packet size).
    fn pipe_const(&self, id: Option<Id>) -> R<u32> {
        let id = id.ok_or("missing packet size")?;
        match self.m.constant(id).map(|c| &c.value) {
            Some(ConstValue::Scalar(v)) => u32::try_from(*v).map_err(|_| "the packet size is too large".into()),
            _ => Err(format!("{} is not an integer constant", self.m.show(id))),
        }
    }

    /// Lowers pipe instruction `i` (not a group form).
    pub(super) fn pipe(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let op = inst.op;
        let write = self.b.ins().iconst(cl::I32, i64::from(!reads(op)));
        let result = match op {
            Op::ReadPipe | Op::WritePipe => {
                let pipe = self.get1(inst.id(0).ok_or("missing pipe")?)?;
                let data = self.get1(inst.id(1).ok_or("missing pointer")?)?;
                let size = self.pipe_const(inst.id(2))?;
                let size = self.b.ins().iconst(cl::I32, i64::from(size));
                let f = rt::clift_pipe_packet as unsafe extern "C" fn(_, _, _, _) -> _ as usize;
                Some(
                    self.call_host(
                        f,
                        &[cl::I64, cl::I64, cl::I32, cl::I32],
                        &[cl::I32],
                        &[pipe, data, size, write],
                    )[0],
                )
            }
            Op::ReserveReadPipePackets | Op::ReserveWritePipePackets => {
                let pipe = self.get1(inst.id(0).ok_or("missing pipe")?)?;
                let n = self.get1(inst.id(1).ok_or("missing packet count")?)?;
                let size = self.pipe_const(inst.id(2))?;
                Some(self.reserve(pipe, n, size, write))
            }
            Op::ReservedReadPipe | Op::ReservedWritePipe => {
                let pipe = self.get1(inst.id(0).ok_or("missing pipe")?)?;
                let id = self.get1(inst.id(1).ok_or("missing reserve id")?)?;
                let index = self.get1(inst.id(2).ok_or("missing index")?)?;
                let data = self.get1(inst.id(3).ok_or("missing pointer")?)?;
                let size = self.pipe_const(inst.id(4))?;
                let size = self.b.ins().iconst(cl::I32, i64::from(size));
                let f = rt::clift_pipe_reserved_packet as unsafe extern "C" fn(_, _, _, _, _, _) -> _ as usize;
                let params = [cl::I64, cl::I64, cl::I32, cl::I64, cl::I32, cl::I32];
                Some(self.call_host(f, &params, &[cl::I32], &[pipe, id, index, data, size, write])[0])
            }
            Op::CommitReadPipe | Op::CommitWritePipe => {
                let pipe = self.get1(inst.id(0).ok_or("missing pipe")?)?;
                let id = self.get1(inst.id(1).ok_or("missing reserve id")?)?;
                let size = self.pipe_const(inst.id(2))?;
                self.commit(pipe, id, size, write);
                None
            }
            Op::IsValidReserveId => {
                // clift_builtins::pipe::is_valid: a count of 1 to
                // MAX_RESERVATION in the top 24 bits.
                let id = self.get1(inst.id(0).ok_or("missing reserve id")?)?;
                let count = self.b.ins().ushr_imm_u(id, 40);
                let less = self.b.ins().iadd_imm_s(count, -1);
                Some(
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::UnsignedLessThan, less, i64::from(rt::MAX_RESERVATION)),
                )
            }
            Op::GetNumPipePackets | Op::GetMaxPipePackets => {
                let pipe = self.get1(inst.id(0).ok_or("missing pipe")?)?;
                let max = self.b.ins().iconst(cl::I32, i64::from(op == Op::GetMaxPipePackets));
                let f = rt::clift_pipe_packets as unsafe extern "C" fn(_, _) -> _ as usize;
                Some(self.call_host(f, &[cl::I64, cl::I32], &[cl::I32], &[pipe, max])[0])
            }
            _ => return Err(format!("{} is not a pipe instruction", inst.opname())),
        };
        if let (Some(v), Some(id)) = (result, inst.result_id) {
            self.values.insert(id, vec![v]);
        }
        Ok(())
    }

    /// A call of `clift_pipe_reserve`: the reservation id.
    fn reserve(&mut self, pipe: Value, n: Value, size: u32, write: Value) -> Value {
        let size = self.b.ins().iconst(cl::I32, i64::from(size));
        let f = rt::clift_pipe_reserve as unsafe extern "C" fn(_, _, _, _) -> _ as usize;
        self.call_host(
            f,
            &[cl::I64, cl::I32, cl::I32, cl::I32],
            &[cl::I64],
            &[pipe, n, size, write],
        )[0]
    }

    /// A call of `clift_pipe_commit`.
    fn commit(&mut self, pipe: Value, id: Value, size: u32, write: Value) {
        let size = self.b.ins().iconst(cl::I32, i64::from(size));
        let f = rt::clift_pipe_commit as unsafe extern "C" fn(_, _, _, _) as usize;
        self.call_host(f, &[cl::I64, cl::I64, cl::I32, cl::I32], &[], &[pipe, id, size, write]);
    }

    /// Lowers group pipe instruction `i` (its operand 0 is the scope).
    pub(super) fn group_pipe(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let op = inst.op;
        let reserve = matches!(op, Op::GroupReserveReadPipePackets | Op::GroupReserveWritePipePackets);
        let slot = if reserve {
            let mut k = self.kernel.borrow_mut();
            let fs = k
                .frame
                .as_mut()
                .ok_or("a group pipe operation outside a kernel's frame")?;
            Some(fs.alloc(SLOT as u64, SLOT as u64)?)
        } else {
            None
        };
        let fr = self.suspend(i)?;
        let pipe = self.get1(inst.id(1).ok_or("missing pipe")?)?;
        // Operand 2: the packet count of a reservation, the id of a commit.
        let x = self.get1(inst.id(2).ok_or("missing operand")?)?;
        let size = self.pipe_const(inst.id(3))?;
        let write = self.b.ins().iconst(cl::I32, i64::from(!reads(op)));
        let sub = crate::validate::memory::sub_group_scoped(m, inst);
        let super::collective::Span { first, lin, .. } = self.span(sub);
        // The first work-item's frame holds the reservation.
        let first_frame = self.frame_of(fr, first);
        let join = self.only_first_item(lin, first);
        let flags = MemFlagsData::trusted();
        if let Some(slot) = slot {
            let id = self.reserve(pipe, x, size, write);
            self.b.ins().store(flags, id, first_frame, slot);
        } else {
            self.commit(pipe, x, size, write);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        if let (Some(slot), Some(id)) = (slot, inst.result_id) {
            let v = self.b.ins().load(cl::I64, flags, first_frame, slot);
            self.values.insert(id, vec![v]);
        }
        Ok(())
    }
}
