//! SPIR-V types as Cranelift types. A SPIR-V value is a list of Cranelift
//! values, one per scalar component: scalars are one value, vectors one per
//! component (vectors are scalarized; Cranelift's SIMD types would tie the
//! lowering to vector widths the ISA has). Bools are `i8` (0 or 1, what
//! `icmp` and `fcmp` produce); pointers are `i64` addresses (Physical64).

use cranelift_codegen::ir::{types, Type as Clif};

use crate::spirv::{Id, Module, Type};

/// The Cranelift type of scalar type `ty`.
pub fn scalar(m: &Module, ty: Id) -> Result<Clif, String> {
    match m.ty(ty) {
        Some(Type::Bool) => Ok(types::I8),
        Some(Type::Int { width, .. }) => match width {
            8 => Ok(types::I8),
            16 => Ok(types::I16),
            32 => Ok(types::I32),
            64 => Ok(types::I64),
            w => Err(format!("{w}-bit integers are not supported")),
        },
        Some(Type::Float { width: 32 }) => Ok(types::F32),
        Some(Type::Float { width: 64 }) => Ok(types::F64),
        Some(Type::Pointer { .. }) => Ok(types::I64),
        _ => Err(format!(
            "values of type {} are not supported by code generation yet",
            m.show_type(ty)
        )),
    }
}

/// The Cranelift types of the components of a value of type `ty` (empty for
/// void).
pub fn components(m: &Module, ty: Id) -> Result<Vec<Clif>, String> {
    match m.ty(ty) {
        Some(Type::Void) => Ok(Vec::new()),
        Some(Type::Vector { component, count }) => Ok(vec![scalar(m, *component)?; *count as usize]),
        _ => Ok(vec![scalar(m, ty)?]),
    }
}

/// The size in bytes of one component of a value of type `ty` in memory
/// (a vector's component size: components are laid out contiguously).
pub fn component_size(m: &Module, ty: Id) -> Result<u64, String> {
    let c = match m.ty(ty) {
        Some(Type::Vector { component, .. }) => *component,
        _ => ty,
    };
    m.layout(c)
        .map(|l| l.size)
        .ok_or_else(|| format!("type {} has no size", m.show_type(c)))
}
