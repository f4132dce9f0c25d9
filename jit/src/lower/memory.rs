//! Memory: Function variables (stack slots), OpLoad / OpStore of scalars and
//! vectors (components at consecutive addresses), and access chains (byte
//! offsets from the OpenCL C layout). Loads of built-in variables go to
//! [`super::builtins`].

use cranelift_codegen::ir::{types as cl, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value};
use rspirv::dr::Operand;
use spirv::{Decoration, Op, StorageClass};

use super::{types, Lowering, R};
use crate::spirv::{Id, IdKind, Type};

impl Lowering<'_, '_, '_> {
    pub(super) fn memory(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        match inst.op {
            Op::Variable => {
                let ty = inst.result_type.ok_or("missing type")?;
                let id = inst.result_id.ok_or("missing result")?;
                let (storage, pointee) = m.pointer(ty).ok_or("not a pointer")?;
                if storage != StorageClass::Function {
                    return Err(format!("{storage:?} variables in functions are not supported"));
                }
                let l = m
                    .layout(pointee)
                    .ok_or_else(|| format!("type {} has no size", m.show_type(pointee)))?;
                let size = u32::try_from(l.size).map_err(|_| "the variable is too large")?;
                let align = l.align.max(1).trailing_zeros().min(12) as u8;
                let slot = self
                    .b
                    .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, align));
                let addr = self.b.ins().stack_addr(cl::I64, slot, 0);
                self.values.insert(id, vec![addr]);
                if let Some(init) = inst.id(1) {
                    self.store(addr, init)?;
                }
                Ok(())
            }
            Op::Load => {
                let ty = inst.result_type.ok_or("missing type")?;
                let id = inst.result_id.ok_or("missing result")?;
                let ptr = inst.id(0).ok_or("missing pointer")?;
                let vals = if let Some(b) = self.builtin_of(ptr) {
                    self.builtin(b, ty)?
                } else {
                    let addr = self.get1(ptr)?;
                    let comps = types::components(m, ty)?;
                    let csz = types::component_size(m, ty)?;
                    let mut v = Vec::with_capacity(comps.len());
                    for (k, t) in comps.into_iter().enumerate() {
                        v.push(self.b.ins().load(t, MemFlagsData::new(), addr, (k as u64 * csz) as i32));
                    }
                    v
                };
                self.values.insert(id, vals);
                Ok(())
            }
            Op::Store => {
                let ptr = inst.id(0).ok_or("missing pointer")?;
                let val = inst.id(1).ok_or("missing value")?;
                let addr = self.get1(ptr)?;
                self.store(addr, val)
            }
            _ => self.access_chain(i),
        }
    }

    /// Stores value id `val` at `addr`.
    fn store(&mut self, addr: Value, val: Id) -> R {
        let ty = self.m.type_of(val).ok_or("value without a type")?;
        let csz = types::component_size(self.m, ty)?;
        types::components(self.m, ty)?;
        for (k, v) in self.get(val)?.into_iter().enumerate() {
            self.b
                .ins()
                .store(MemFlagsData::new(), v, addr, (k as u64 * csz) as i32);
        }
        Ok(())
    }

    /// The BuiltIn decoration of module variable `ptr`, if it has one.
    fn builtin_of(&self, ptr: Id) -> Option<spirv::BuiltIn> {
        if self.m.kind(ptr) != IdKind::Global {
            return None;
        }
        let d = self.m.decoration(ptr, Decoration::BuiltIn)?;
        match self.m.deco_params(d).first() {
            Some(Operand::BuiltIn(b)) => Some(*b),
            _ => None,
        }
    }

    /// OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain and
    /// OpInBoundsPtrAccessChain: the base address plus the byte offsets of
    /// the (signed) indices.
    fn access_chain(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let id = inst.result_id.ok_or("missing result")?;
        let base_id = inst.id(0).ok_or("missing base")?;
        let base_ty = m.type_of(base_id).ok_or("base without a type")?;
        let (_, mut cur) = m.pointer(base_ty).ok_or("base is not a pointer")?;
        let mut addr = self.get1(base_id)?;
        let ptr_chain = matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        for k in 1..inst.operands.len() {
            let idx_id = inst.id(k).ok_or("bad index")?;
            // The element operand of a Ptr chain steps over whole pointees.
            let stride_ty = if ptr_chain && k == 1 {
                cur
            } else {
                let (next, stride_ty) = match m.ty(cur) {
                    Some(Type::Array { element, .. }) => (*element, *element),
                    Some(Type::Vector { component, .. }) => (*component, *component),
                    Some(Type::Struct { .. }) => {
                        return Err("access chains into structs are not supported by code generation yet".into())
                    }
                    _ => return Err(format!("cannot index into {}", m.show_type(cur))),
                };
                cur = next;
                stride_ty
            };
            let stride = m
                .layout(stride_ty)
                .ok_or_else(|| format!("type {} has no size", m.show_type(stride_ty)))?
                .size;
            let idx = self.get1(idx_id)?;
            let idx = self.sext_i64(idx);
            let off = self.b.ins().imul_imm_s(idx, stride as i64);
            addr = self.b.ins().iadd(addr, off);
        }
        self.values.insert(id, vec![addr]);
        Ok(())
    }

    /// Sign-extends an integer value to `i64`.
    pub(super) fn sext_i64(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        if t == cl::I64 {
            v
        } else {
            self.b.ins().sextend(cl::I64, v)
        }
    }
}
