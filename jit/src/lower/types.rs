//! SPIR-V types as Cranelift types. A SPIR-V value is a list of Cranelift
//! values, one per scalar component: scalars are one value, vectors one per
//! component (vectors are scalarized; Cranelift's SIMD types would tie the
//! lowering to vector widths the ISA has), and structs and arrays the
//! concatenation of their members' or elements' lists, recursively, in
//! order (so a `struct { int a; float4 b; }` is 5 values). Bools are `i8`
//! (0 or 1, what `icmp` and `fcmp` produce); pointers are `i64` addresses
//! (Physical64).
//!
//! [`flatten`] also gives each component's byte offset in memory with the
//! OpenCL C layout ([`crate::layout`]: 3-component vectors take the room of
//! 4, struct members at their Offset decoration or the next aligned offset),
//! which whole-aggregate loads, stores and by-value arguments use.
//!
//! Aggregates larger than [`MAX_COMPONENTS`] components or nested deeper
//! than [`MAX_DEPTH`] are refused by name: they would make the generated
//! code huge (and a hostile module could ask for 2^32 elements).

use cranelift_codegen::ir::{types, Type as Clif};
use rspirv::dr::Operand;
use spirv::Decoration;

use crate::spirv::{Id, Module, Type, NONE};

/// The most scalar components one SPIR-V value may have.
pub const MAX_COMPONENTS: usize = 1024;

/// The deepest nesting of structs and arrays a value type may have.
pub const MAX_DEPTH: u32 = 32;

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
        // A half is an f32 holding a binary16 value (`super::half`).
        Some(Type::Float { width: 16 | 32 }) => Ok(types::F32),
        Some(Type::Float { width: 64 }) => Ok(types::F64),
        // Events (OpGroupAsyncCopy's) carry nothing: copies complete when
        // the group arrives at them. A queue_t is an opaque word: the
        // address of the runtime's device queue object, never dereferenced
        // by generated code (launch_abi's module docs). A pipe is the
        // address of its store and a reserve_id_t a 64-bit word, both
        // handled by the built-ins' `pipe` module (`super::pipes`). A
        // clk_event_t is a word the runtime's device-side enqueue hands out
        // (`super::enqueue`).
        // An image is the address of its descriptor, a sampler its
        // `sampler_t` bits (`super::image`).
        Some(
            Type::Pointer { .. }
            | Type::Event
            | Type::Queue
            | Type::Pipe { .. }
            | Type::ReserveId
            | Type::DeviceEvent
            | Type::Image(_)
            | Type::Sampler,
        ) => Ok(types::I64),
        _ => Err(format!(
            "values of type {} are not supported by code generation yet",
            m.show_type(ty)
        )),
    }
}

/// The type of scalar type `ty` in memory: [`scalar`]'s, except `F16` for a
/// half (16 bits in memory, an `f32` in registers), which every user of
/// [`flatten`] loads and stores through `super::half`.
pub fn mem_scalar(m: &Module, ty: Id) -> Result<Clif, String> {
    match m.ty(ty) {
        Some(Type::Float { width: 16 }) => Ok(types::F16),
        _ => scalar(m, ty),
    }
}

/// The register type of memory type `t` (see [`mem_scalar`]).
pub fn reg(t: Clif) -> Clif {
    if t == types::F16 {
        types::F32
    } else {
        t
    }
}

/// The Cranelift types of the components of a value of type `ty` (empty for
/// void).
pub fn components(m: &Module, ty: Id) -> Result<Vec<Clif>, String> {
    match m.ty(ty) {
        Some(Type::Void) => Ok(Vec::new()),
        Some(Type::Vector { component, count }) => Ok(vec![scalar(m, *component)?; *count as usize]),
        Some(Type::Array { .. } | Type::Struct { .. }) => {
            Ok(flatten(m, ty)?.into_iter().map(|(t, _)| reg(t)).collect())
        }
        // A sampled image: the image and the sampler.
        Some(Type::SampledImage { .. }) => Ok(vec![types::I64, types::I64]),
        _ => Ok(vec![scalar(m, ty)?]),
    }
}

/// The number of components of a value of type `ty`.
pub fn count(m: &Module, ty: Id) -> Result<usize, String> {
    match m.ty(ty) {
        Some(Type::Void) => Ok(0),
        Some(Type::Vector { count, .. }) => Ok(*count as usize),
        Some(Type::Array { .. } | Type::Struct { .. }) => Ok(flatten(m, ty)?.len()),
        Some(Type::SampledImage { .. }) => Ok(2),
        _ => Ok(1),
    }
}

/// The components of a value of type `ty` with their byte offsets from the
/// start of the value in memory (OpenCL C layout) and their memory types
/// ([`mem_scalar`]: `F16` for a half).
pub fn flatten(m: &Module, ty: Id) -> Result<Vec<(Clif, u64)>, String> {
    let mut out = Vec::new();
    flatten_into(m, ty, 0, 0, &mut out, &mut 0)?;
    Ok(out)
}

fn too_large(m: &Module, ty: Id) -> String {
    format!(
        "values of type {} have more than {MAX_COMPONENTS} components, which code generation does not support",
        m.show_type(ty)
    )
}

/// The most types [`flatten`] visits for one value type: components are
/// at most [`MAX_COMPONENTS`], but structs of empty structs have none, and
/// nesting them could make the walk visit billions of empty leaves.
const MAX_VISITS: u32 = 1 << 16;

fn flatten_into(
    m: &Module,
    ty: Id,
    base: u64,
    depth: u32,
    out: &mut Vec<(Clif, u64)>,
    visits: &mut u32,
) -> Result<(), String> {
    *visits += 1;
    if *visits > MAX_VISITS {
        return Err(format!(
            "values of type {} nest too many structs and arrays for code generation",
            m.show_type(ty)
        ));
    }
    if depth > MAX_DEPTH {
        return Err(format!(
            "values of type {} nest structs and arrays deeper than {MAX_DEPTH} levels, which code generation does not support",
            m.show_type(ty)
        ));
    }
    match m.ty(ty) {
        Some(Type::Vector { component, count }) => {
            let t = mem_scalar(m, *component)?;
            let csz = size_of(m, *component)?;
            if out.len() + *count as usize > MAX_COMPONENTS {
                return Err(too_large(m, ty));
            }
            for k in 0..u64::from(*count) {
                out.push((t, base + k * csz));
            }
        }
        Some(Type::Array { element, length }) => {
            let n = array_length(m, ty, *length)?;
            let stride = size_of(m, *element)?;
            let start = out.len();
            flatten_into(m, *element, base, depth + 1, out, visits)?;
            let per = out.len() - start;
            if per == 0 {
                return Ok(());
            }
            let total = (n as usize).checked_mul(per).and_then(|t| t.checked_add(start));
            if total.is_none_or(|t| t > MAX_COMPONENTS) {
                return Err(too_large(m, ty));
            }
            for k in 1..n {
                for j in 0..per {
                    let (t, off) = out[start + j];
                    out.push((t, off + k * stride));
                }
            }
        }
        Some(Type::Struct { members }) => {
            let offsets = member_offsets(m, ty)?;
            for (&mt, off) in members.iter().zip(offsets) {
                flatten_into(m, mt, base + off, depth + 1, out, visits)?;
            }
        }
        Some(Type::Void) => {}
        _ => {
            if out.len() >= MAX_COMPONENTS {
                return Err(too_large(m, ty));
            }
            out.push((mem_scalar(m, ty)?, base));
        }
    }
    Ok(())
}

/// The number of elements of array type `ty` whose length is constant `length`.
pub fn array_length(m: &Module, ty: Id, length: Id) -> Result<u64, String> {
    m.const_scalar(length)
        .ok_or_else(|| format!("the length of array type {} is not a constant", m.show_type(ty)))
}

/// The size in bytes of type `ty` (its layout; for an array element, the
/// element stride: every OpenCL C size is a multiple of its alignment).
pub fn size_of(m: &Module, ty: Id) -> Result<u64, String> {
    m.layout(ty)
        .map(|l| l.size)
        .ok_or_else(|| format!("type {} has no size", m.show_type(ty)))
}

/// The byte offset of each member of struct type `ty`: its Offset
/// decoration, else the end of the previous member rounded up to the
/// member's alignment (not rounded with CPacked), as [`crate::layout`]
/// computes the struct's size.
pub fn member_offsets(m: &Module, ty: Id) -> Result<Vec<u64>, String> {
    let Some(Type::Struct { members }) = m.ty(ty) else {
        return Err(format!("{} is not a struct", m.show_type(ty)));
    };
    let packed = m.decoration(ty, Decoration::CPacked).is_some();
    let decos = m.decorations(ty);
    let mut end = 0u64;
    let mut out = Vec::with_capacity(members.len());
    for (k, &x) in members.iter().enumerate() {
        let ml = match m.ty(x) {
            Some(Type::Pointer { .. }) => crate::spirv::Layout { size: 8, align: 8 },
            _ => m
                .layout(x)
                .ok_or_else(|| format!("member {k} of {} has no size", m.show_type(ty)))?,
        };
        let offset = decos
            .iter()
            .find(|d| d.member == k as u32 && d.kind == Decoration::Offset && d.member != NONE);
        let at = match offset.map(|d| m.deco_params(d).first()) {
            Some(Some(Operand::LiteralBit32(o))) => u64::from(*o),
            _ if packed || ml.align <= 1 => end,
            _ => end
                .checked_add(ml.align - 1)
                .map(|y| y / ml.align * ml.align)
                .ok_or("the struct is too large")?,
        };
        out.push(at);
        end = at.checked_add(ml.size).ok_or("the struct is too large")?;
    }
    Ok(out)
}

/// Where the part of a value of composite type `ty` selected by `index`
/// is in its component list: (first component, component count, the
/// part's type).
pub fn part(m: &Module, ty: Id, index: u32) -> Result<(usize, usize, Id), String> {
    let out_of_range = || format!("index {index} is out of range for type {}", m.show_type(ty));
    match m.ty(ty) {
        Some(Type::Vector { component, count }) => {
            if index >= *count {
                return Err(out_of_range());
            }
            Ok((index as usize, 1, *component))
        }
        Some(Type::Array { element, length }) => {
            if u64::from(index) >= array_length(m, ty, *length)? {
                return Err(out_of_range());
            }
            let per = count(m, *element)?;
            Ok((index as usize * per, per, *element))
        }
        Some(Type::Struct { members }) => {
            let mt = *members.get(index as usize).ok_or_else(out_of_range)?;
            let mut start = 0;
            for &x in &members[..index as usize] {
                start += count(m, x)?;
            }
            Ok((start, count(m, mt)?, mt))
        }
        _ => Err(format!("cannot index into {}", m.show_type(ty))),
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
