//! Storage of program-scope variables: module-scope OpVariables in
//! CrossWorkgroup (OpenCL 2.0 program-scope `__global` variables) and
//! UniformConstant (`__constant` tables) storage.
//!
//! A compiled program owns one block of memory ([`ProgramData`], 128-byte
//! aligned) holding all of them, each at its alignment
//! ([`crate::layout::variable_align`]). The block is
//! filled from the variables' initializers (zero without one) when the
//! program is compiled, and generated code embeds the variables' addresses
//! as constants, so `__global` variables keep their values across launches
//! and kernels of the program, and are freed with it.
//!
//! Initializers are constants: scalars, vectors, structs and arrays of
//! them, OpConstantNull, OpUndef (zero), and pointers (the address of
//! another program-scope variable, or an OpSpecConstantOp access chain or
//! cast over one, which [`pointer_parts`] evaluates; the lowering uses the
//! same function for such constants in code).

use std::collections::HashMap;

use spirv::{Decoration, Op, StorageClass};

use crate::lower::types;
use crate::spirv::{ConstValue, Id, IdKind, Module, Type};

/// The largest total size of a program's program-scope variables.
const MAX_TOTAL: u64 = 1 << 30;

/// The deepest nesting of constant composites an initializer may have.
const MAX_DEPTH: u32 = 64;

/// The longest chain of OpSpecConstantOp pointer expressions evaluated.
const MAX_CHAIN: usize = 256;

/// The program-scope variables' storage of one compiled program.
pub struct ProgramData {
    /// The block (null when `layout.size()` is 0).
    ptr: *mut u8,
    layout: std::alloc::Layout,
    addresses: HashMap<Id, u64>,
    /// Variables left without an address, with the reason.
    refused: HashMap<Id, String>,
}

// SAFETY: `ProgramData` owns its block exclusively; after construction it
// only hands out the block's addresses (plain integers), and the memory is
// accessed by generated code under the OpenCL memory model, not by Rust.
unsafe impl Send for ProgramData {}
// SAFETY: as above: `&ProgramData` only reads the address table.
unsafe impl Sync for ProgramData {}

impl std::fmt::Debug for ProgramData {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramData")
            .field("size", &self.layout.size())
            .field("variables", &self.addresses.len())
            .finish()
    }
}

impl Drop for ProgramData {
    fn drop(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: `ptr` was allocated in `new` with exactly `layout` and
            // is freed only here.
            unsafe { std::alloc::dealloc(self.ptr, self.layout) };
        }
    }
}

/// Whether module-scope variables of `storage` live in [`ProgramData`].
pub fn is_program_scope(storage: StorageClass) -> bool {
    matches!(storage, StorageClass::CrossWorkgroup | StorageClass::UniformConstant)
}

impl ProgramData {
    /// Allocates and initializes the program-scope variables of `m`. Fails
    /// naming the variable whose type has no size, or if the total exceeds
    /// 1 GiB; a variable whose initializer cannot be evaluated is left out
    /// ([`ProgramData::refused`]).
    pub fn new(m: &Module) -> Result<ProgramData, (Id, String)> {
        let mut places = Vec::new();
        let mut at = 0u64;
        for g in &m.globals {
            // Built-in variables (UniformConstant ones from old translators
            // included) have no storage: their loads read the work-item.
            if !is_program_scope(g.storage) || m.decoration(g.id, Decoration::BuiltIn).is_some() {
                continue;
            }
            let (_, pointee) = m
                .pointer(g.ty)
                .ok_or_else(|| (g.id, "a variable's type must be a pointer".to_string()))?;
            let l = m
                .layout(pointee)
                .ok_or_else(|| (g.id, format!("type {} has no size", m.show_type(pointee))))?;
            let align = crate::layout::variable_align(m, g.id, l);
            at = at.div_ceil(align) * align;
            places.push((g.id, pointee, at, l.size, g.init));
            at = at
                .checked_add(l.size)
                .filter(|&e| e <= MAX_TOTAL)
                .ok_or_else(|| (g.id, "the program-scope variables exceed 1 GiB".to_string()))?;
        }
        let total = at as usize;
        let layout =
            std::alloc::Layout::from_size_align(total, crate::layout::MAX_VARIABLE_ALIGN as usize).map_err(|e| {
                (
                    places.first().map_or(0, |p| p.0),
                    format!("program-scope variables: {e}"),
                )
            })?;
        let ptr = if total == 0 {
            std::ptr::null_mut()
        } else {
            // SAFETY: `layout` has a nonzero size.
            let p = unsafe { std::alloc::alloc_zeroed(layout) };
            if p.is_null() {
                return Err((
                    places[0].0,
                    format!("cannot allocate {total} bytes of program-scope variables"),
                ));
            }
            p
        };
        let mut data = ProgramData {
            ptr,
            layout,
            addresses: HashMap::with_capacity(places.len()),
            refused: HashMap::new(),
        };
        let base = ptr as u64;
        for &(id, _, off, _, _) in &places {
            data.addresses.insert(id, base + off);
        }
        if total > 0 {
            // SAFETY: `ptr` is a fresh, zeroed allocation of `total` bytes
            // that nothing else references yet.
            let bytes = unsafe { std::slice::from_raw_parts_mut(ptr, total) };
            for &(id, pointee, off, size, init) in &places {
                let Some(init) = init else { continue };
                let out = &mut bytes[off as usize..(off + size) as usize];
                // A variable whose initializer cannot be evaluated gets no
                // address: only the kernels that use it fail to compile.
                if let Err(rule) = write_const(m, init, pointee, out, 0, &data.addresses, 0) {
                    data.refused.insert(id, rule);
                }
            }
        }
        for id in data.refused.keys() {
            data.addresses.remove(id);
        }
        Ok(data)
    }

    /// The address of each program-scope variable (but those in
    /// [`ProgramData::refused`]).
    pub fn addresses(&self) -> &HashMap<Id, u64> {
        &self.addresses
    }

    /// The variables whose initializer could not be evaluated, each with the
    /// reason; they have no address.
    pub fn refused(&self) -> &HashMap<Id, String> {
        &self.refused
    }
}

/// Writes the bytes of constant (or variable address) `c` of type `ty` at
/// `out[at..]` with the OpenCL C layout.
fn write_const(
    m: &Module,
    c: Id,
    ty: Id,
    out: &mut [u8],
    at: u64,
    addrs: &HashMap<Id, u64>,
    depth: u32,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("the initializer nests deeper than {MAX_DEPTH} levels"));
    }
    let put = |out: &mut [u8], at: u64, size: u64, bits: u64| -> Result<(), String> {
        let n = size.min(8) as usize;
        let end = at.checked_add(n as u64).ok_or("initializer out of range")?;
        let dst = out
            .get_mut(at as usize..end as usize)
            .ok_or("the initializer does not fit its variable")?;
        dst.copy_from_slice(&bits.to_le_bytes()[..n]);
        Ok(())
    };
    match m.kind(c) {
        IdKind::Undef => return Ok(()),
        IdKind::Global => {
            let a = addrs
                .get(&c)
                .ok_or_else(|| format!("the address of {} is not known when the program is built", m.show(c)))?;
            return put(out, at, 8, *a);
        }
        IdKind::Constant => {}
        _ => return Err(format!("{} is not a constant", m.show(c))),
    }
    let k = m.constant(c).ok_or("not a constant")?;
    match &k.value {
        ConstValue::Null => Ok(()),
        ConstValue::Bool(b) => put(out, at, 1, u64::from(*b)),
        ConstValue::Scalar(bits) => put(out, at, types::size_of(m, ty)?, *bits),
        ConstValue::Vector(v) => {
            let csz = types::component_size(m, ty)?;
            for (j, &bits) in v.iter().enumerate() {
                put(out, at + j as u64 * csz, csz, bits)?;
            }
            Ok(())
        }
        ConstValue::Composite(parts) => {
            let offsets: Vec<(u64, Id)> = match m.ty(ty) {
                Some(Type::Struct { members }) => {
                    let offs = types::member_offsets(m, ty)?;
                    offs.into_iter().zip(members.iter().copied()).collect()
                }
                Some(Type::Array { element, .. }) => {
                    let stride = types::size_of(m, *element)?;
                    (0..parts.len() as u64).map(|j| (j * stride, *element)).collect()
                }
                Some(Type::Vector { component, .. }) => {
                    let stride = types::size_of(m, *component)?;
                    (0..parts.len() as u64).map(|j| (j * stride, *component)).collect()
                }
                _ => return Err(format!("a composite constant of type {}", m.show_type(ty))),
            };
            if offsets.len() != parts.len() {
                return Err(format!("constant {} has the wrong number of constituents", m.show(c)));
            }
            for (&p, (off, pty)) in parts.iter().zip(offsets) {
                let a = at.checked_add(off).ok_or("initializer out of range")?;
                write_const(m, p, pty, out, a, addrs, depth + 1)?;
            }
            Ok(())
        }
        ConstValue::Expr => {
            let (root, offset) = pointer_parts(m, c)?;
            let base = match root {
                Root::Absolute => 0,
                Root::Variable(g) => *addrs
                    .get(&g)
                    .ok_or_else(|| format!("the address of {} is not known when the program is built", m.show(g)))?,
            };
            put(out, at, types::size_of(m, ty)?, base.wrapping_add(offset))
        }
    }
}

/// What a constant pointer expression is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// A module-scope variable's address.
    Variable(Id),
    /// Address 0 (a null pointer or an integer converted to a pointer).
    Absolute,
}

/// Evaluates constant pointer expression `c` (an OpSpecConstantOp access
/// chain, pointer cast or pointer/integer conversion, over a module-scope
/// variable, a null pointer or an integer constant) as its root plus a byte
/// offset (wrapping, as Physical64 arithmetic does).
pub fn pointer_parts(m: &Module, c: Id) -> Result<(Root, u64), String> {
    let mut offset = 0u64;
    let mut cur = c;
    for _ in 0..MAX_CHAIN {
        match m.kind(cur) {
            IdKind::Global => return Ok((Root::Variable(cur), offset)),
            IdKind::Constant => {}
            _ => return Err(format!("{} is not a constant pointer", m.show(cur))),
        }
        let k = m.constant(cur).ok_or("not a constant")?;
        match &k.value {
            ConstValue::Null => return Ok((Root::Absolute, offset)),
            ConstValue::Scalar(v) => return Ok((Root::Absolute, offset.wrapping_add(*v))),
            ConstValue::Expr => {}
            _ => return Err(format!("constant {} is not a pointer expression", m.show(cur))),
        }
        let inst = &m.insts[k.inst as usize];
        let op = match inst.operands.first() {
            Some(rspirv::dr::Operand::LiteralSpecConstantOpInteger(op)) => *op,
            _ => {
                return Err(format!(
                    "{} of {} is not supported by code generation",
                    inst.opname(),
                    m.show(cur)
                ))
            }
        };
        let base = inst.id(1).ok_or("missing operand")?;
        match op {
            Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain => {
                let base_ty = m.type_of(base).ok_or("base without a type")?;
                let mut idx = Vec::with_capacity(inst.operands.len().saturating_sub(2));
                for n in 2..inst.operands.len() {
                    let id = inst.id(n).ok_or("bad index")?;
                    idx.push(const_index(m, id)?);
                }
                let ptr_chain = matches!(op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
                offset = offset.wrapping_add(chain_offset(m, base_ty, &idx, ptr_chain)?);
            }
            Op::Bitcast | Op::PtrCastToGeneric | Op::GenericCastToPtr | Op::ConvertPtrToU | Op::ConvertUToPtr => {}
            op => {
                return Err(format!(
                    "OpSpecConstantOp Op{op:?} of {} is not supported by code generation",
                    m.show(cur)
                ))
            }
        }
        cur = base;
    }
    Err(format!(
        "the pointer expression {} is longer than {MAX_CHAIN} steps",
        m.show(c)
    ))
}

/// The value of integer constant `id`, sign-extended from its width.
pub fn const_index(m: &Module, id: Id) -> Result<i64, String> {
    let v = m
        .const_scalar(id)
        .ok_or_else(|| format!("index {} is not an integer constant", m.show(id)))?;
    let w = m.type_of(id).and_then(|t| m.int_width(t)).unwrap_or(64);
    Ok(if w >= 64 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    })
}

/// The byte offset an access chain with constant indices `idx` adds to a
/// base pointer of type `base_ty` (the first index steps over whole
/// pointees for a Ptr chain).
pub fn chain_offset(m: &Module, base_ty: Id, idx: &[i64], ptr_chain: bool) -> Result<u64, String> {
    let (_, mut cur) = m.pointer(base_ty).ok_or("the base is not a pointer")?;
    let mut off = 0u64;
    for (k, &i) in idx.iter().enumerate() {
        if ptr_chain && k == 0 {
            off = off.wrapping_add((i as u64).wrapping_mul(types::size_of(m, cur)?));
            continue;
        }
        let (next, step) = step(m, cur, i)?;
        off = off.wrapping_add(step);
        cur = next;
    }
    Ok(off)
}

/// One access-chain step into composite type `ty` with constant index `i`:
/// the selected part's type and its byte offset.
pub fn step(m: &Module, ty: Id, i: i64) -> Result<(Id, u64), String> {
    match m.ty(ty) {
        Some(Type::Array { element, .. }) => Ok((*element, (i as u64).wrapping_mul(types::size_of(m, *element)?))),
        Some(Type::Vector { component, .. }) => {
            Ok((*component, (i as u64).wrapping_mul(types::size_of(m, *component)?)))
        }
        Some(Type::Struct { members }) => {
            let k = usize::try_from(i)
                .ok()
                .filter(|&k| k < members.len())
                .ok_or_else(|| format!("member {i} of {} does not exist", m.show_type(ty)))?;
            Ok((members[k], types::member_offsets(m, ty)?[k]))
        }
        _ => Err(format!("cannot index into {}", m.show_type(ty))),
    }
}
