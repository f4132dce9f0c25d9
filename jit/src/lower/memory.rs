//! Memory: Function variables (stack slots, or the work-item's frame in a
//! kernel with barriers), OpLoad / OpStore of scalars, vectors, structs and
//! arrays (each component at its OpenCL C offset, [`types::flatten`]),
//! access chains (byte offsets from the OpenCL C layout; constant indices
//! fold into one immediate), OpCopyMemory / OpCopyMemorySized, and the
//! generic address space (OpGenericCastToPtrExplicit,
//! OpGenericPtrMemSemantics). Loads of built-in variables go to
//! [`super::builtins`].
//!
//! **Volatile** accesses (a Volatile memory operand, or a pointer with the
//! Volatile decoration) are bracketed by `sequence_point`s, which
//! Cranelift's alias analysis treats as memory fences: a volatile load is
//! never forwarded from or merged with another access, and a volatile store
//! is never removed as dead or redundant.
//!
//! **Private addresses.** OpGenericCastToPtrExplicit to Function storage
//! must tell private addresses from others. Private memory is the current
//! thread's stack from the stack pointer up to the work-group function's
//! frame pointer ([`super::WorkItemValues::frame_top`]; helper functions
//! read it from the `WorkItem`): the stack slots of the work-group function
//! and of the helpers it calls, and nothing of the runtime's frames above
//! it or of other mappings; or the private arena of kernels with barriers.

use std::collections::HashMap;

use cranelift_codegen::ir::{
    condcodes::IntCC, types as cl, AbiParam, ExtFuncData, ExternalName, FuncRef, InstBuilder, LibCall, MemFlagsData,
    Signature, StackSlotData, StackSlotKind, Value,
};
use spirv::{Decoration, Op, StorageClass};

use super::{types, Lowering, R};
use crate::globals::const_index;
use crate::launch_abi::ctx_offset;
use crate::layout;
use crate::spirv::{ConstValue, Function, Id, IdKind, Module, Type};

/// The largest Function variable (as the frames of kernels with barriers).
const MAX_PRIVATE_VARIABLE: u64 = 16 << 20;

/// Copies of at most this many bytes are inlined as loads and stores;
/// longer ones call `memmove`.
const INLINE_COPY: u64 = 128;

/// Memory semantics bits of OpGenericPtrMemSemantics.
const WORKGROUP_MEMORY: i64 = 0x100;
const CROSS_WORKGROUP_MEMORY: i64 = 0x200;

impl Lowering<'_, '_, '_> {
    pub(super) fn memory(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        match inst.op {
            Op::Variable => {
                let ty = inst.result_type();
                let id = inst.result_id();
                let (storage, pointee) = m.pointer(ty).ok_or("not a pointer")?;
                if storage != StorageClass::Function {
                    return Err(format!("{storage:?} variables in functions are not supported"));
                }
                // A kernel with barriers placed its variables in the
                // work-item's frame already.
                let addr = match self.values.get(&id).and_then(|v| v.first().copied()) {
                    Some(a) => a,
                    None => {
                        let l = m
                            .layout(pointee)
                            .ok_or_else(|| format!("type {} has no size", m.show_type(pointee)))?;
                        if l.size > MAX_PRIVATE_VARIABLE {
                            return Err(format!(
                                "a private variable of {} bytes exceeds the 16 MiB clift allows",
                                l.size
                            ));
                        }
                        let addr = self.private_slot(l.size, layout::variable_align(m, id, l))?;
                        self.values.insert(id, vec![addr]);
                        addr
                    }
                };
                if let Some(init) = inst.id(1) {
                    self.store_value(addr, init, false)?;
                }
                Ok(())
            }
            Op::Load => {
                let ty = inst.result_type();
                let id = inst.result_id();
                let ptr = inst.operand(0);
                let vals = if let Some(b) = self.m.builtin_var(ptr) {
                    self.builtin(b, ty)?
                } else {
                    let addr = self.get1(ptr)?;
                    self.load_value(addr, ty, inst.is_volatile(1) || self.decorated_volatile(ptr))?
                };
                self.values.insert(id, vals);
                Ok(())
            }
            Op::Store => {
                let ptr = inst.operand(0);
                let val = inst.operand(1);
                let addr = self.get1(ptr)?;
                self.store_value(addr, val, inst.is_volatile(2) || self.decorated_volatile(ptr))
            }
            Op::CopyMemory | Op::CopyMemorySized => {
                let dst_id = inst.operand(0);
                let src_id = inst.operand(1);
                let dst = self.get1(dst_id)?;
                let src = self.get1(src_id)?;
                let volatile = inst.is_volatile(if inst.op == Op::CopyMemory { 2 } else { 3 })
                    || self.decorated_volatile(dst_id)
                    || self.decorated_volatile(src_id);
                if inst.op == Op::CopyMemory {
                    let ty = self.type_of(src_id);
                    let (_, pointee) = m.pointer(ty).ok_or("the source is not a pointer")?;
                    let size = types::size_of(m, pointee)?;
                    self.copy_const(dst, src, size, volatile)
                } else {
                    let size_id = inst.operand(2);
                    match m.constant(size_id).and(m.const_scalar(size_id)) {
                        Some(n) => self.copy_const(dst, src, n, volatile),
                        None => {
                            let n = self.get1(size_id)?;
                            let n = self.zext_i64(n);
                            self.copy_dynamic(dst, src, n, volatile);
                            Ok(())
                        }
                    }
                }
            }
            Op::GenericCastToPtrExplicit => self.cast_explicit(i),
            Op::GenericPtrMemSemantics => {
                let id = inst.result_id();
                let p = self.get1(inst.operand(0))?;
                let local = self.in_local_arena(p);
                let w = self.b.ins().iconst(cl::I32, WORKGROUP_MEMORY);
                let c = self.b.ins().iconst(cl::I32, CROSS_WORKGROUP_MEMORY);
                let v = self.b.ins().select(local, w, c);
                self.values.insert(id, vec![v]);
                Ok(())
            }
            _ => self.access_chain(i),
        }
    }

    /// Loads a value of type `ty` from `addr`, component by component.
    pub(super) fn load_value(&mut self, addr: Value, ty: Id, volatile: bool) -> R<Vec<Value>> {
        let comps = types::flatten(self.m, ty)?;
        let mut v = Vec::with_capacity(comps.len());
        if volatile {
            self.b.ins().sequence_point();
        }
        for (t, off) in comps {
            let off = i32::try_from(off).map_err(|_| "the value is too large")?;
            v.push(if t == cl::F16 {
                super::half::load(self.b, MemFlagsData::new(), addr, off)
            } else {
                self.b.ins().load(t, MemFlagsData::new(), addr, off)
            });
        }
        if volatile {
            self.b.ins().sequence_point();
        }
        Ok(v)
    }

    /// Stores value id `val` at `addr`, component by component.
    pub(super) fn store_value(&mut self, addr: Value, val: Id, volatile: bool) -> R {
        let ty = self.type_of(val);
        // A null aggregate (any size, e.g. `int a[4096] = {0}`) is a zero fill.
        if matches!(self.m.constant(val).map(|c| &c.value), Some(ConstValue::Null))
            && matches!(self.m.ty(ty), Some(Type::Array { .. } | Type::Struct { .. }))
        {
            let size = types::size_of(self.m, ty)?;
            return self.zero_fill(addr, size, volatile);
        }
        let comps = types::flatten(self.m, ty)?;
        let vals = self.get(val)?;
        if vals.len() != comps.len() {
            return Err(format!("{} does not match its type", self.m.show(val)));
        }
        if volatile {
            self.b.ins().sequence_point();
        }
        for ((t, off), v) in comps.into_iter().zip(vals) {
            let off = i32::try_from(off).map_err(|_| "the value is too large")?;
            if t == cl::F16 {
                super::half::store(self.b, MemFlagsData::new(), v, addr, off);
            } else {
                self.b.ins().store(MemFlagsData::new(), v, addr, off);
            }
        }
        if volatile {
            self.b.ins().sequence_point();
        }
        Ok(())
    }

    /// Copies `size` bytes (a constant) from `src` to `dst`.
    pub(super) fn copy_const(&mut self, dst: Value, src: Value, size: u64, volatile: bool) -> R {
        if size > INLINE_COPY {
            let n = self.b.ins().iconst(cl::I64, size as i64);
            self.copy_dynamic(dst, src, n, volatile);
            return Ok(());
        }
        if volatile {
            self.b.ins().sequence_point();
        }
        // All loads first, then all stores: correct for overlapping ranges.
        let mut parts = Vec::new();
        let mut at = 0u64;
        while at < size {
            let t = match size - at {
                n if n >= 8 => cl::I64,
                n if n >= 4 => cl::I32,
                n if n >= 2 => cl::I16,
                _ => cl::I8,
            };
            let v = self.b.ins().load(t, MemFlagsData::new(), src, at as i32);
            parts.push((v, at));
            at += u64::from(t.bytes());
        }
        for (v, at) in parts {
            self.b.ins().store(MemFlagsData::new(), v, dst, at as i32);
        }
        if volatile {
            self.b.ins().sequence_point();
        }
        Ok(())
    }

    /// Sets `size` bytes at `addr` to zero.
    fn zero_fill(&mut self, addr: Value, size: u64, volatile: bool) -> R {
        if volatile {
            self.b.ins().sequence_point();
        }
        if size <= INLINE_COPY {
            let zero = self.b.ins().iconst(cl::I64, 0);
            let mut at = 0u64;
            while at < size {
                let t = match size - at {
                    n if n >= 8 => cl::I64,
                    n if n >= 4 => cl::I32,
                    n if n >= 2 => cl::I16,
                    _ => cl::I8,
                };
                let z = if t == cl::I64 {
                    zero
                } else {
                    self.b.ins().ireduce(t, zero)
                };
                self.b.ins().store(MemFlagsData::new(), z, addr, at as i32);
                at += u64::from(t.bytes());
            }
        } else {
            let memset = self.import_libcall(LibCall::Memset, &[cl::I64, cl::I32, cl::I64]);
            let zero = self.b.ins().iconst(cl::I32, 0);
            let n = self.b.ins().iconst(cl::I64, size as i64);
            self.b.ins().call(memset, &[addr, zero, n]);
        }
        if volatile {
            self.b.ins().sequence_point();
        }
        Ok(())
    }

    /// Copies `n` bytes (an `i64` value) from `src` to `dst` with `memmove`.
    fn copy_dynamic(&mut self, dst: Value, src: Value, n: Value, volatile: bool) {
        let memmove = self.import_libcall(LibCall::Memmove, &[cl::I64; 3]);
        if volatile {
            self.b.ins().sequence_point();
        }
        self.b.ins().call(memmove, &[dst, src, n]);
        if volatile {
            self.b.ins().sequence_point();
        }
    }

    /// Imports C library function `call` (`memset`, `memmove`) taking
    /// `params` and returning a pointer.
    fn import_libcall(&mut self, call: LibCall, params: &[cl::Type]) -> FuncRef {
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params = params.iter().map(|&t| AbiParam::new(t)).collect();
        sig.returns.push(AbiParam::new(cl::I64));
        let signature = self.b.import_signature(sig);
        self.b.import_function(ExtFuncData {
            name: ExternalName::LibCall(call),
            signature,
            colocated: false,
            patchable: false,
        })
    }

    /// OpGenericCastToPtrExplicit: the address when it lies in the asked
    /// storage class, else NULL.
    fn cast_explicit(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let id = inst.result_id();
        let p = self.get1(inst.operand(0))?;
        let storage = inst.storage_class(1);
        let local = self.in_local_arena(p);
        let inside = match storage {
            StorageClass::Workgroup => local,
            StorageClass::Function => self.is_private(p),
            StorageClass::CrossWorkgroup => {
                let private = self.is_private(p);
                let either = self.b.ins().bor(local, private);
                self.b.ins().icmp_imm_s(IntCC::Equal, either, 0)
            }
            s => return Err(format!("OpGenericCastToPtrExplicit to {s:?} storage is not supported")),
        };
        let zero = self.b.ins().iconst(cl::I64, 0);
        let v = self.b.ins().select(inside, p, zero);
        self.values.insert(id, vec![v]);
        Ok(())
    }

    /// Whether `addr` is in `[base, base + size)` of the two context fields.
    fn in_ctx_range(&mut self, addr: Value, base_off: i32, size_off: i32) -> Value {
        let base = self.ctx_word(base_off);
        let size = self.ctx_word(size_off);
        let rel = self.b.ins().isub(addr, base);
        self.b.ins().icmp(IntCC::UnsignedLessThan, rel, size)
    }

    /// Whether `addr` is in the work-group's local arena (an `i8` bool).
    fn in_local_arena(&mut self, addr: Value) -> Value {
        self.in_ctx_range(addr, ctx_offset::LOCAL_ARENA, ctx_offset::LOCAL_ARENA_SIZE)
    }

    /// Whether `addr` is private: on this work-item's stack or in the
    /// private arena (an `i8` bool; see the module docs).
    fn is_private(&mut self, addr: Value) -> Value {
        let arena = self.in_ctx_range(addr, ctx_offset::PRIVATE_ARENA, ctx_offset::PRIVATE_ARENA_SIZE);
        let sp = self.b.ins().get_stack_pointer(cl::I64);
        let span = self.b.ins().isub(self.wi.frame_top, sp);
        let rel = self.b.ins().isub(addr, sp);
        let stack = self.b.ins().icmp(IntCC::UnsignedLessThan, rel, span);
        self.b.ins().bor(arena, stack)
    }

    /// The address of a new stack slot of `size` bytes aligned to `align`
    /// (a power of two, at most [`layout::MAX_VARIABLE_ALIGN`]), taken from
    /// the work-item's stack. Cranelift aligns a slot within the slot area,
    /// which starts 16-byte aligned (the stack alignment of the x86-64 and
    /// AArch64 ABIs; outgoing arguments are rounded to 16), so a slot
    /// aligned to more is over-allocated by the difference and its address
    /// rounded up.
    pub(super) fn private_slot(&mut self, size: u64, align: u64) -> R<Value> {
        const SLOT_AREA_ALIGN: u64 = 16;
        let align = align.clamp(1, layout::MAX_VARIABLE_ALIGN);
        let slack = align.saturating_sub(SLOT_AREA_ALIGN);
        let total = size.max(1) + slack;
        let bytes = u32::try_from(total)
            .ok()
            .filter(|&n| u64::from(n) <= MAX_PRIVATE_VARIABLE + layout::MAX_VARIABLE_ALIGN)
            .ok_or_else(|| format!("a private variable of {size} bytes exceeds the 16 MiB clift allows"))?;
        self.take_stack(total)?;
        let shift = align.min(SLOT_AREA_ALIGN).trailing_zeros() as u8;
        let slot = self
            .b
            .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, bytes, shift));
        let addr = self.b.ins().stack_addr(cl::I64, slot, 0);
        if slack == 0 {
            return Ok(addr);
        }
        let up = self.b.ins().iadd_imm_s(addr, (align - 1) as i64);
        Ok(self.b.ins().band_imm_s(up, -(align as i64)))
    }

    /// Whether pointer `ptr` has the Volatile decoration (every access
    /// through it is volatile).
    fn decorated_volatile(&self, ptr: Id) -> bool {
        self.m.decoration(ptr, Decoration::Volatile).is_some()
    }

    /// OpAccessChain, OpInBoundsAccessChain, OpPtrAccessChain and
    /// OpInBoundsPtrAccessChain: the base address plus the byte offsets of
    /// the (signed) indices; struct members at their offsets.
    fn access_chain(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let id = inst.result_id();
        let base_id = inst.operand(0);
        let base_ty = self.type_of(base_id);
        let (_, mut cur) = m.pointer(base_ty).ok_or("base is not a pointer")?;
        let mut addr = self.get1(base_id)?;
        let ptr_chain = matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        let mut fixed = 0u64;
        for k in 1..inst.operands.len() {
            let idx_id = inst.operand(k);
            let constant = m.kind(idx_id) == IdKind::Constant;
            let stride_ty = match chain_step(m, &mut cur, idx_id, ptr_chain && k == 1)? {
                ChainStep::Member(off) => {
                    fixed = fixed.wrapping_add(off);
                    continue;
                }
                ChainStep::Element(ty) => ty,
            };
            let stride = types::size_of(m, stride_ty)?;
            if constant {
                let c = const_index(m, idx_id)?;
                fixed = fixed.wrapping_add((c as u64).wrapping_mul(stride));
            } else {
                let idx = self.get1(idx_id)?;
                let idx = self.sext_i64(idx);
                let off = self.b.ins().imul_imm_s(idx, stride as i64);
                addr = self.b.ins().iadd(addr, off);
            }
        }
        if fixed != 0 {
            addr = self.b.ins().iadd_imm_s(addr, fixed as i64);
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

    /// Zero-extends an integer value to `i64`.
    pub(super) fn zext_i64(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        if t == cl::I64 {
            v
        } else {
            self.b.ins().uextend(cl::I64, v)
        }
    }
}

/// What one index of an access chain does.
pub(super) enum ChainStep {
    /// Selects a struct member at this byte offset.
    Member(u64),
    /// Steps over elements of this type, as many as the index says.
    Element(Id),
}

/// Index `idx_id` of an access chain at type `*cur` (advanced to the
/// indexed part): `whole` for the element operand of a Ptr chain, which
/// steps over whole pointees.
pub(super) fn chain_step(m: &Module, cur: &mut Id, idx_id: Id, whole: bool) -> R<ChainStep> {
    if whole {
        return Ok(ChainStep::Element(*cur));
    }
    match m.ty(*cur) {
        Some(Type::Struct { .. }) => {
            let (next, off) = crate::globals::step(m, *cur, const_index(m, idx_id)?)?;
            *cur = next;
            Ok(ChainStep::Member(off))
        }
        Some(Type::Array { element, .. }) => {
            *cur = *element;
            Ok(ChainStep::Element(*element))
        }
        Some(Type::Vector { component, .. }) => {
            *cur = *component;
            Ok(ChainStep::Element(*component))
        }
        _ => Err(format!("cannot index into {}", m.show_type(*cur))),
    }
}

/// Whether the kernel only reads through its by-value struct parameter `p`
/// (a Function pointer): every use of `p`, and of pointers derived from it
/// by access chains and casts, is a load or the source of a copy. Such a
/// parameter may point straight into the (read-only) argument block.
/// Pointers passed to a function count as read if the callee only reads
/// through that parameter (llvm-spirv's entry points call the kernel's
/// body with the same parameters); calls nested deeper than 8 count as
/// writes.
pub fn only_read_through(m: &Module, func: &Function, p: Id) -> bool {
    read_only(m, func, p, 0, &mut HashMap::new())
}

/// [`only_read_through`] for parameter `p` of `func` reached through `depth`
/// calls; `memo` holds the answers for (parameter, depth) found so far, so
/// that a callee called many times along many paths is looked at once.
fn read_only(m: &Module, func: &Function, p: Id, depth: u32, memo: &mut HashMap<(Id, u32), bool>) -> bool {
    if let Some(&known) = memo.get(&(p, depth)) {
        return known;
    }
    let answer = read_only_uncached(m, func, p, depth, memo);
    memo.insert((p, depth), answer);
    answer
}

fn read_only_uncached(m: &Module, func: &Function, p: Id, depth: u32, memo: &mut HashMap<(Id, u32), bool>) -> bool {
    let mut derived = std::collections::HashSet::from([p]);
    // Derivations may appear before their bases in module order (phis):
    // iterate to a fixed point, a few rounds at most.
    for _ in 0..8 {
        let mut changed = false;
        for blk in &func.blocks {
            for i in blk.body() {
                let inst = &m.insts[i as usize];
                let uses: Vec<usize> = inst
                    .id_operands()
                    .filter(|(_, id)| derived.contains(id))
                    .map(|(k, _)| k)
                    .collect();
                if uses.is_empty() {
                    continue;
                }
                match inst.op {
                    Op::Load => {}
                    Op::CopyMemory | Op::CopyMemorySized if !uses.contains(&0) => {}
                    Op::FunctionCall if depth < 8 && !uses.contains(&0) => {
                        let Some(callee) = inst.id(0).and_then(|c| m.function(c)) else {
                            return false;
                        };
                        for k in uses {
                            match callee.params.get(k - 1) {
                                Some(&q) if read_only(m, callee, q, depth + 1, memo) => {}
                                _ => return false,
                            }
                        }
                    }
                    Op::AccessChain
                    | Op::InBoundsAccessChain
                    | Op::PtrAccessChain
                    | Op::InBoundsPtrAccessChain
                    | Op::Bitcast
                    | Op::PtrCastToGeneric
                    | Op::GenericCastToPtr
                    | Op::CopyObject
                    | Op::Select
                    | Op::Phi => {
                        if let Some(r) = inst.result_id {
                            changed |= derived.insert(r);
                        }
                    }
                    _ => return false,
                }
            }
        }
        if !changed {
            return true;
        }
    }
    false
}
