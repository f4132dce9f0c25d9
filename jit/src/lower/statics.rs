//! Where module-scope variables live, decided once per module before any
//! body is lowered, so that kernels and the helpers they share agree:
//! - **Workgroup** (`__local` variables declared in kernels): at fixed
//!   offsets from the start of the work-group's local arena
//!   ([`crate::launch_abi::WorkGroupCtx::local_arena`]), one layout for the
//!   whole module; a kernel's [`crate::launch_abi::KernelCode::local_static`]
//!   is the layout's size when the kernel can reach any of them.
//! - **CrossWorkgroup / UniformConstant** (program-scope variables): at
//!   fixed addresses in storage the compiled program owns
//!   ([`Statics::global_addresses`]).

use std::collections::HashMap;

use cranelift_codegen::ir::{types as cl, InstBuilder, Value};
use spirv::StorageClass;

use super::{Lowering, R};
use crate::launch_abi::ctx_offset;
use crate::spirv::{Id, Module};

/// The placement of a module's module-scope variables.
#[derive(Debug, Default, Clone)]
pub struct Statics {
    /// Offset of each Workgroup variable in the local arena.
    pub local_offsets: HashMap<Id, u64>,
    /// Bytes of the local arena the Workgroup variables take.
    pub local_size: u64,
    /// Address of each program-scope (CrossWorkgroup or UniformConstant)
    /// variable's storage.
    pub global_addresses: HashMap<Id, u64>,
}

/// The largest local arena the variables of one module may take: far above
/// any CL_DEVICE_LOCAL_MEM_SIZE, so a module over it is refused rather than
/// allocated.
const MAX_LOCAL: u64 = 1 << 32;

impl Statics {
    /// Lays out the Workgroup variables of `m`, each at its alignment
    /// ([`crate::layout::variable_align`]; the arena starts 128-byte
    /// aligned). Fails (naming the variable) if a
    /// variable has no size or the total is absurd.
    pub fn layout_locals(m: &Module) -> Result<Statics, (Id, String)> {
        let mut s = Statics::default();
        let mut at = 0u64;
        for g in &m.globals {
            if g.storage != StorageClass::Workgroup {
                continue;
            }
            let Some((_, pointee)) = m.pointer(g.ty) else {
                return Err((g.id, "a variable's type must be a pointer".into()));
            };
            let l = m
                .layout(pointee)
                .ok_or_else(|| (g.id, format!("type {} has no size", m.show_type(pointee))))?;
            let align = crate::layout::variable_align(m, g.id, l);
            at = at.div_ceil(align) * align;
            s.local_offsets.insert(g.id, at);
            at = at
                .checked_add(l.size)
                .filter(|&e| e <= MAX_LOCAL)
                .ok_or_else(|| (g.id, "the module's __local variables exceed 4 GiB".to_string()))?;
        }
        s.local_size = at;
        Ok(s)
    }
}

impl Lowering<'_, '_, '_> {
    /// The address of module-scope variable `id` (not a built-in variable:
    /// those are only loaded, see `memory`).
    pub(super) fn global_address(&mut self, id: Id) -> R<Value> {
        let g = self.m.global(id).ok_or("not a module-scope variable")?;
        match g.storage {
            StorageClass::Workgroup => {
                let off = *self
                    .env
                    .statics
                    .local_offsets
                    .get(&id)
                    .ok_or_else(|| format!("__local variable {} has no place", self.m.show(id)))?;
                let arena = self.ctx_word(ctx_offset::LOCAL_ARENA);
                Ok(self.b.ins().iadd_imm_s(arena, off as i64))
            }
            _ => match self.env.statics.global_addresses.get(&id) {
                Some(&a) => Ok(self.b.ins().iconst(cl::I64, a as i64)),
                None => Err(format!(
                    "{:?} variable {} is not supported by code generation yet",
                    g.storage,
                    self.m.show(id)
                )),
            },
        }
    }
}
