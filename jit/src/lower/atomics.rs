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
//!
//! The exception: atomics on `__local` memory (a pointer in Workgroup
//! storage) are plain loads and stores. A work-group's local memory is
//! touched only by its work-items, and one thread runs all of them (the
//! work-group function, with barriers and yield points as suspension
//! points inside it), so no other thread can see a local operation half
//! done; a `lock`ed instruction would only cost time (hist_local counts
//! with them). Through a generic pointer, which may point anywhere, they
//! stay atomic.

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
        if m.pointer(ptr_ty)
            .is_some_and(|(sc, _)| sc == spirv::StorageClass::Workgroup)
        {
            return self.local_atomic(i, ptr, int_ty, value_ty);
        }
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

    /// Atomic `i` on local memory at `ptr` (see the module's doc): the
    /// same results as the atomic forms, with plain loads and stores of
    /// the memory's integer type `int_ty` (the value's type `value_ty`
    /// when it is a float).
    fn local_atomic(&mut self, i: u32, ptr: Value, int_ty: cl::Type, value_ty: cl::Type) -> R {
        let inst = self.at(i);
        let flags = MemFlagsData::new();
        let a = |k: usize| inst.operand(k);
        let bits = |l: &mut Self, v: Value| -> Value {
            if l.b.func.dfg.value_type(v) == int_ty {
                v
            } else {
                l.b.ins().bitcast(int_ty, MemFlagsData::new(), v)
            }
        };
        let old = self.b.ins().load(int_ty, flags, ptr, 0);
        // The value to store, if any, and the result.
        let (new, result) = match inst.op {
            Op::AtomicLoad => (None, old),
            Op::AtomicStore => {
                let v = self.get1(a(3))?;
                (Some(bits(self, v)), old)
            }
            Op::AtomicExchange => {
                let v = self.get1(a(3))?;
                (Some(bits(self, v)), old)
            }
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                let v = self.get1(a(4))?;
                let cmp = self.get1(a(5))?;
                let (v, cmp) = (bits(self, v), bits(self, cmp));
                let same = self.b.ins().icmp(IntCC::Equal, old, cmp);
                (Some(self.b.ins().select(same, v, old)), old)
            }
            Op::AtomicIIncrement => (Some(self.b.ins().iadd_imm_s(old, 1)), old),
            Op::AtomicIDecrement => (Some(self.b.ins().iadd_imm_s(old, -1)), old),
            opsets::atomic_rmw!() => {
                if value_ty != int_ty {
                    return Err(format!("{} on floats is not supported", inst.opname()));
                }
                let v = self.get1(a(3))?;
                let n = match inst.op {
                    Op::AtomicIAdd => self.b.ins().iadd(old, v),
                    Op::AtomicISub => self.b.ins().isub(old, v),
                    Op::AtomicSMin => self.b.ins().smin(old, v),
                    Op::AtomicUMin => self.b.ins().umin(old, v),
                    Op::AtomicSMax => self.b.ins().smax(old, v),
                    Op::AtomicUMax => self.b.ins().umax(old, v),
                    Op::AtomicAnd => self.b.ins().band(old, v),
                    Op::AtomicOr => self.b.ins().bor(old, v),
                    _ => self.b.ins().bxor(old, v),
                };
                (Some(n), old)
            }
            Op::AtomicFlagTestAndSet => {
                let one = self.b.ins().iconst(int_ty, 1);
                (Some(one), self.b.ins().icmp_imm_s(IntCC::NotEqual, old, 0))
            }
            Op::AtomicFlagClear => (Some(self.b.ins().iconst(int_ty, 0)), old),
            _ => return Err(format!("{} is not supported by code generation yet", inst.opname())),
        };
        if let Some(n) = new {
            self.b.ins().store(flags, n, ptr, 0);
        }
        let result = if inst.op == Op::AtomicFlagTestAndSet || value_ty == int_ty {
            result
        } else {
            self.b.ins().bitcast(value_ty, MemFlagsData::new(), result)
        };
        if let Some(id) = inst.result_id {
            if !matches!(inst.op, Op::AtomicStore | Op::AtomicFlagClear) {
                self.values.insert(id, vec![result]);
            }
        }
        Ok(())
    }
}
