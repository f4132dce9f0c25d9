//! Atomics: every OpAtomic* instruction the validator lets through
//! ([`crate::validate::memory::is_atomic`]: 32-bit integers, 64-bit ones
//! with Int64Atomics, and 32- and 64-bit floats through their bits for
//! load, store and exchange), in any storage class, and OpMemoryBarrier.
//!
//! Every atomic is device-wide and sequentially consistent, whatever its
//! Scope and Memory Semantics operands say: that is at least as strong as
//! any scope and ordering asks (OpenCL 1.2 atomics on global memory arrive
//! from clang with Workgroup scope and must still be atomic across the
//! device, since work-groups run on all cores). Cranelift's atomic
//! instructions are sequentially consistent and act as fences for its
//! alias analysis. OpMemoryBarrier is a `fence` unless its semantics are a
//! constant without any ordering or storage-class bits.

use cranelift_codegen::ir::{condcodes::IntCC, types as cl, AtomicRmwOp, InstBuilder, MemFlagsData, Value};
use spirv::Op;

use super::{types, Lowering, R};
use crate::spirv::opsets;

/// Memory Semantics bits that ask for ordering: Acquire, Release,
/// AcquireRelease, SequentiallyConsistent, and the storage classes (the
/// memory whose accesses are ordered).
const ORDERING: u64 = 0x2 | 0x4 | 0x8 | 0x10 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800;

impl Lowering<'_, '_, '_> {
    pub(super) fn atomic(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let a = |k: usize| inst.operand(k);
        if inst.op == Op::MemoryBarrier {
            let sem = a(1);
            let needed = match m.constant(sem).and(m.const_scalar(sem)) {
                Some(bits) => bits & ORDERING != 0,
                None => true,
            };
            if needed {
                self.b.ins().fence();
            }
            return Ok(());
        }
        let ptr = self.get1(a(0))?;
        let ptr_ty = m.type_of(a(0)).ok_or("pointer without a type")?;
        let (_, pointee) = m.pointer(ptr_ty).ok_or("not a pointer")?;
        let flags = MemFlagsData::new();
        // The memory's integer type, and the value's type when it is a float.
        let value_ty = types::scalar(m, pointee)?;
        let int_ty = match value_ty {
            cl::F32 => cl::I32,
            cl::F64 => cl::I64,
            t => t,
        };
        let to_int = |l: &mut Self, v: Value| -> Value {
            if l.b.func.dfg.value_type(v) == int_ty {
                v
            } else {
                l.b.ins().bitcast(int_ty, MemFlagsData::new(), v)
            }
        };
        let from_int = |l: &mut Self, v: Value| -> Value {
            if value_ty == int_ty {
                v
            } else {
                l.b.ins().bitcast(value_ty, MemFlagsData::new(), v)
            }
        };
        let result = match inst.op {
            Op::AtomicLoad => {
                let v = self.b.ins().atomic_load(int_ty, flags, ptr);
                Some(from_int(self, v))
            }
            Op::AtomicStore => {
                let v = self.get1(a(3))?;
                let v = to_int(self, v);
                self.b.ins().atomic_store(flags, v, ptr);
                None
            }
            Op::AtomicExchange => {
                let v = self.get1(a(3))?;
                let v = to_int(self, v);
                let old = self.b.ins().atomic_rmw(int_ty, flags, AtomicRmwOp::Xchg, ptr, v);
                Some(from_int(self, old))
            }
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                let v = self.get1(a(4))?;
                let cmp = self.get1(a(5))?;
                let (v, cmp) = (to_int(self, v), to_int(self, cmp));
                let old = self.b.ins().atomic_cas(flags, ptr, cmp, v);
                Some(from_int(self, old))
            }
            Op::AtomicIIncrement | Op::AtomicIDecrement => {
                let one = self.b.ins().iconst(int_ty, 1);
                let op = if inst.op == Op::AtomicIIncrement {
                    AtomicRmwOp::Add
                } else {
                    AtomicRmwOp::Sub
                };
                Some(self.b.ins().atomic_rmw(int_ty, flags, op, ptr, one))
            }
            opsets::atomic_rmw!() => {
                if value_ty != int_ty {
                    return Err(format!("{} on floats is not supported", inst.opname()));
                }
                let op = match inst.op {
                    Op::AtomicIAdd => AtomicRmwOp::Add,
                    Op::AtomicISub => AtomicRmwOp::Sub,
                    Op::AtomicSMin => AtomicRmwOp::Smin,
                    Op::AtomicUMin => AtomicRmwOp::Umin,
                    Op::AtomicSMax => AtomicRmwOp::Smax,
                    Op::AtomicUMax => AtomicRmwOp::Umax,
                    Op::AtomicAnd => AtomicRmwOp::And,
                    Op::AtomicOr => AtomicRmwOp::Or,
                    _ => AtomicRmwOp::Xor,
                };
                let v = self.get1(a(3))?;
                Some(self.b.ins().atomic_rmw(int_ty, flags, op, ptr, v))
            }
            Op::AtomicFlagTestAndSet => {
                let one = self.b.ins().iconst(int_ty, 1);
                let old = self.b.ins().atomic_rmw(int_ty, flags, AtomicRmwOp::Xchg, ptr, one);
                Some(self.b.ins().icmp_imm_s(IntCC::NotEqual, old, 0))
            }
            Op::AtomicFlagClear => {
                let zero = self.b.ins().iconst(int_ty, 0);
                self.b.ins().atomic_store(flags, zero, ptr);
                None
            }
            _ => return Err(format!("{} is not supported by code generation yet", inst.opname())),
        };
        if let (Some(id), Some(v)) = (inst.result_id, result) {
            self.values.insert(id, vec![v]);
        }
        Ok(())
    }
}
