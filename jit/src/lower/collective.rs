//! Work-group collectives: OpGroupAll, OpGroupAny, OpGroupBroadcast, the
//! reductions and scans (OpGroupIAdd, OpGroupFAdd, OpGroup[FUS]Min,
//! OpGroup[FUS]Max with Reduce, InclusiveScan or ExclusiveScan),
//! OpGroupAsyncCopy and OpGroupWaitEvents, with Workgroup scope over the
//! whole work-group and with Subgroup scope over the work-item's sub-group
//! (the work-items of consecutive local linear ids [`crate::sub_group`]
//! describes).
//!
//! Each collective is a suspension point of the kernel's frame machinery
//! ([`super::barrier`]): a work-item stores its operand in a slot of its
//! frame and waits for its group (or sub-group); once all have arrived
//! they resume in local linear id order, so the group's first work-item
//! resumes first and combines every work-item's slot (writing each one's
//! scan result back into its slot, and the reduction into a second slot of
//! its own frame) before any other reads its result. For a broadcast, the
//! first work-item copies the source work-item's slot into that second
//! slot, which every work-item reads (the source may resume before a
//! reader and overwrite its own slot when a loop brings it back to the
//! same broadcast); an async copy is performed by work-item 0 once every
//! work-item has arrived (so the source holds what they all wrote before
//! the call).

use cranelift_codegen::ir::{
    condcodes::IntCC, immediates::Ieee32, immediates::Ieee64, types as cl, BlockArg, InstBuilder, MemFlagsData,
    Type as Clif, Value,
};
use spirv::{GroupOperation, Op};

use super::frame::SLOT;
use super::{types, Lowering, R};
use crate::launch_abi::ctx_offset;

impl Lowering<'_, '_, '_> {
    /// Lowers collective instruction `i`.
    pub(super) fn collective(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let op = inst.op;
        if op == Op::GroupWaitEvents {
            // The copies were made when the group arrived at them.
            return self.barrier(i);
        }
        let ty = inst.result_type();
        let id = inst.result_id();
        if op == Op::GroupAsyncCopy {
            return self.async_copy(i, id);
        }
        // A broadcast moves any scalar or vector (cl_khr_subgroup_extended_types
        // broadcasts vectors), one slot per component; the other collectives
        // compute on scalars.
        let comps = if op == Op::GroupBroadcast {
            types::components(m, ty)?
        } else {
            vec![types::scalar(m, ty)?]
        };
        let t = comps[0];
        // (operation, value operand index)
        let (operation, value_at) = match op {
            Op::GroupAll | Op::GroupAny | Op::GroupBroadcast => (GroupOperation::Reduce, 1),
            _ => {
                let g = inst.group_operation(1);
                if !matches!(
                    g,
                    GroupOperation::Reduce | GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan
                ) {
                    return Err(format!("group operation {g:?} is not an OpenCL one"));
                }
                (g, 2)
            }
        };
        let xs = self.get(inst.operand(value_at))?;
        if xs.len() != comps.len() {
            return Err("the operand's type is not the result's".into());
        }
        let (slot, total) = {
            let mut k = self.kernel.borrow_mut();
            let fs = k.frame.as_mut().ok_or("a collective outside a kernel's frame")?;
            let bytes = comps.len() as u64 * SLOT as u64;
            (fs.alloc(bytes, SLOT as u64)?, fs.alloc(bytes, SLOT as u64)?)
        };
        let flags = MemFlagsData::trusted();
        let fr = self.frame_entry().ok_or("a collective outside a kernel's frame")?;
        for (c, &x) in xs.iter().enumerate() {
            self.b.ins().store(flags, x, fr.base, slot + SLOT * c as i32);
        }
        let fr = self.suspend(i)?;

        let sub = crate::validate::memory::sub_group_scoped(m, &m.insts[i as usize]);
        let Span { first, count, lin } = self.span(sub);
        // The first work-item's frame: where the result is left.
        let first_frame = self.frame_of(fr, first);
        let end = self.b.ins().iadd(first, count);
        let v = if op == Op::GroupBroadcast {
            // The source work-item's index in the group, from a local id
            // of 1 to 3 components (a sub-group's is one); out of range
            // (undefined) reads the last one.
            let lid = self.get(inst.operand(2))?;
            let l0 = self.ctx_word(ctx_offset::LOCAL_SIZE);
            let l1 = self.ctx_word(ctx_offset::LOCAL_SIZE + 8);
            let c: Vec<Value> = lid.iter().map(|&v| self.zext_i64(v)).collect();
            let zero = self.b.ins().iconst(cl::I64, 0);
            let (x, y, z) = (c[0], *c.get(1).unwrap_or(&zero), *c.get(2).unwrap_or(&zero));
            let zl = self.b.ins().imul(z, l1);
            let zy = self.b.ins().iadd(zl, y);
            let zyl = self.b.ins().imul(zy, l0);
            let src = self.b.ins().iadd(zyl, x);
            let last = self.b.ins().iadd_imm_s(count, -1);
            let src = self.b.ins().umin(src, last);
            let src = self.b.ins().iadd(first, src);
            // The first work-item, which resumes first, latches the
            // source's operand into its second slot: the source may resume
            // before other readers and, in a loop, overwrite its own slot
            // at the same broadcast.
            let latch = self.b.create_block();
            let join = self.b.create_block();
            let is_first = self.b.ins().icmp(IntCC::Equal, lin, first);
            self.b.ins().brif(is_first, latch, &[], join, &[]);
            self.b.switch_to_block(latch);
            let at = self.frame_of(fr, src);
            for (c, &tc) in comps.iter().enumerate() {
                let c = SLOT * c as i32;
                let xs = self.b.ins().load(tc, flags, at, slot + c);
                self.b.ins().store(flags, xs, first_frame, total + c);
            }
            self.b.ins().jump(join, &[]);
            self.b.switch_to_block(join);
            let v = comps
                .iter()
                .enumerate()
                .map(|(c, &tc)| self.b.ins().load(tc, flags, first_frame, total + SLOT * c as i32))
                .collect();
            self.values.insert(id, v);
            return Ok(());
        } else {
            // The first work-item combines every slot.
            let combine = self.b.create_block();
            let head = self.b.create_block();
            let body = self.b.create_block();
            let done = self.b.create_block();
            let join = self.b.create_block();
            let is_first = self.b.ins().icmp(IntCC::Equal, lin, first);
            self.b.ins().brif(is_first, combine, &[], join, &[]);

            self.b.switch_to_block(combine);
            let identity = self.identity(op, t)?;
            self.b
                .ins()
                .jump(head, &[BlockArg::Value(first), BlockArg::Value(identity)]);

            self.b.switch_to_block(head);
            let k = self.b.append_block_param(head, cl::I64);
            let acc = self.b.append_block_param(head, t);
            let more = self.b.ins().icmp(IntCC::UnsignedLessThan, k, end);
            self.b.ins().brif(more, body, &[], done, &[]);

            self.b.switch_to_block(body);
            let at = self.frame_of(fr, k);
            let xk = self.b.ins().load(t, flags, at, slot);
            let mut next = self.apply(op, acc, xk)?;
            if op == Op::GroupFAdd && super::half::is_half(m, ty) {
                // Each half addition rounds, as a half sum would.
                next = super::half::round_rte(self.b, next);
            }
            match operation {
                GroupOperation::InclusiveScan => {
                    self.b.ins().store(flags, next, at, slot);
                }
                GroupOperation::ExclusiveScan => {
                    self.b.ins().store(flags, acc, at, slot);
                }
                _ => {}
            }
            let k1 = self.b.ins().iadd_imm_s(k, 1);
            self.b.ins().jump(head, &[BlockArg::Value(k1), BlockArg::Value(next)]);

            self.b.switch_to_block(done);
            self.b.ins().store(flags, acc, first_frame, total);
            self.b.ins().jump(join, &[]);

            self.b.switch_to_block(join);
            match operation {
                GroupOperation::Reduce => self.b.ins().load(t, flags, first_frame, total),
                _ => self.b.ins().load(t, flags, fr.base, slot),
            }
        };
        self.values.insert(id, vec![v]);
        Ok(())
    }

    /// OpGroupAsyncCopy: once the group has arrived, work-item 0 copies;
    /// the result is the event operand (events carry nothing here).
    fn async_copy(&mut self, i: u32, id: crate::spirv::Id) -> R {
        let m = self.m;
        let inst = self.at(i);
        let dst_id = inst.operand(1);
        let (dst_class, elem) = m
            .type_of(dst_id)
            .and_then(|t| m.pointer(t))
            .ok_or("the destination is not a pointer")?;
        let size = m
            .layout(elem)
            .ok_or_else(|| format!("type {} has no size", m.show_type(elem)))?
            .size;
        self.suspend(i)?;
        let dst = self.get1(dst_id)?;
        let src = self.get1(inst.operand(2))?;
        let n = self.get1(inst.operand(3))?;
        let stride = self.get1(inst.operand(4))?;
        let event = self.get1(inst.operand(5))?;
        let (n, stride) = (self.zext_i64(n), self.zext_i64(stride));
        let one = self.b.ins().iconst(cl::I64, 1);
        // The stride applies to the global side: the source when copying
        // into local memory, else the destination.
        let (ds, ss) = if dst_class == spirv::StorageClass::Workgroup {
            (one, stride)
        } else {
            (stride, one)
        };
        let Span { first, lin, .. } = self.span(false);
        let join = self.only_first_item(lin, first);
        let size = self.b.ins().iconst(cl::I64, size as i64);
        let helper = clift_builtins::group_copy::clift_group_copy as unsafe extern "C" fn(_, _, _, _, _, _) as usize;
        self.call_host(helper, &[cl::I64; 6], &[], &[dst, src, n, size, ds, ss]);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.values.insert(id, vec![event]);
        Ok(())
    }

    /// Branches to a new block only the work-item of local linear id
    /// `lin` equal to `first` (the first of its group to resume from a
    /// suspension point) runs, and switches to it; returns the block where
    /// every work-item goes on, which that block must jump to.
    pub(super) fn only_first_item(&mut self, lin: Value, first: Value) -> cranelift_codegen::ir::Block {
        let first_block = self.b.create_block();
        let join = self.b.create_block();
        let is_first = self.b.ins().icmp(IntCC::Equal, lin, first);
        self.b.ins().brif(is_first, first_block, &[], join, &[]);
        self.b.switch_to_block(first_block);
        join
    }

    /// The work-items a collective combines: the sub-group of this
    /// work-item with `sub`, else its work-group.
    pub(super) fn span(&mut self, sub: bool) -> Span {
        let lin = self.local_linear();
        let n = self.group_items();
        if !sub {
            let first = self.b.ins().iconst(cl::I64, 0);
            return Span { first, count: n, lin };
        }
        let size = crate::sub_group::SIZE;
        const _: () = assert!(crate::sub_group::SIZE.is_power_of_two());
        let first = self.b.ins().band_imm_s(lin, !(size as i64 - 1));
        let rest = self.b.ins().isub(n, first);
        let size = self.b.ins().iconst(cl::I64, size as i64);
        let count = self.b.ins().umin(rest, size);
        Span { first, count, lin }
    }

    /// The local linear id of the work-item, as `i64`.
    pub(super) fn local_linear(&mut self) -> Value {
        let l0 = self.ctx_word(ctx_offset::LOCAL_SIZE);
        let l1 = self.ctx_word(ctx_offset::LOCAL_SIZE + 8);
        let [x, y, z] = self.wi.local_id;
        let zl = self.b.ins().imul(z, l1);
        let zy = self.b.ins().iadd(zl, y);
        let zyl = self.b.ins().imul(zy, l0);
        self.b.ins().iadd(zyl, x)
    }

    /// The number of work-items of this group, as `i64`.
    pub(super) fn group_items(&mut self) -> Value {
        let l0 = self.ctx_word(ctx_offset::LOCAL_SIZE);
        let l1 = self.ctx_word(ctx_offset::LOCAL_SIZE + 8);
        let l2 = self.ctx_word(ctx_offset::LOCAL_SIZE + 16);
        let a = self.b.ins().imul(l0, l1);
        self.b.ins().imul(a, l2)
    }

    /// The identity of collective `op` on values of type `t`.
    fn identity(&mut self, op: Op, t: Clif) -> R<Value> {
        let bits = t.bits();
        let ins = self.b.ins();
        Ok(match (op, t) {
            (Op::GroupAll, _) => ins.iconst(t, 1),
            (Op::GroupAny | Op::GroupIAdd | Op::GroupUMax, _) => ins.iconst(t, 0),
            (Op::GroupUMin, _) => ins.iconst(t, mask(bits) as i64),
            (Op::GroupSMin, _) => ins.iconst(t, ((1u64 << (bits - 1)) - 1) as i64),
            (Op::GroupSMax, _) => ins.iconst(t, (1u64 << (bits - 1)) as i64),
            (Op::GroupFAdd, cl::F32) => ins.f32const(Ieee32::with_bits(0)),
            (Op::GroupFAdd, cl::F64) => ins.f64const(Ieee64::with_bits(0)),
            (Op::GroupFMin, cl::F32) => ins.f32const(f32::INFINITY),
            (Op::GroupFMin, cl::F64) => ins.f64const(f64::INFINITY),
            (Op::GroupFMax, cl::F32) => ins.f32const(f32::NEG_INFINITY),
            (Op::GroupFMax, cl::F64) => ins.f64const(f64::NEG_INFINITY),
            _ => return Err(format!("{op:?} on {t} is not supported")),
        })
    }

    /// `a op b` for collective `op`.
    fn apply(&mut self, op: Op, a: Value, b: Value) -> R<Value> {
        let ins = self.b.ins();
        Ok(match op {
            Op::GroupAll => ins.band(a, b),
            Op::GroupAny => ins.bor(a, b),
            Op::GroupIAdd => ins.iadd(a, b),
            Op::GroupFAdd => ins.fadd(a, b),
            Op::GroupUMin => ins.umin(a, b),
            Op::GroupSMin => ins.smin(a, b),
            Op::GroupUMax => ins.umax(a, b),
            Op::GroupSMax => ins.smax(a, b),
            Op::GroupFMin => ins.fmin(a, b),
            Op::GroupFMax => ins.fmax(a, b),
            _ => return Err(format!("{op:?} is not a reduction")),
        })
    }
}

/// The work-items a collective combines (as `i64`): the local linear ids
/// `first` to `first + count - 1`, and this work-item's, `lin`.
pub(super) struct Span {
    pub first: Value,
    pub count: Value,
    pub lin: Value,
}

/// The low `bits` bits set.
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}
