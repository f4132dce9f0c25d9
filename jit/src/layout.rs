//! OpenCL C layout of every sized type (OpenCL SPIR-V Environment,
//! "Alignment of Types"): scalars and pointers are aligned to their size,
//! vectors to their size with 3-component vectors taking the room of 4,
//! arrays are their element repeated, structs place members at their Offset
//! decoration or the next aligned offset (packed with CPacked) and round up
//! to their alignment. Runs once specialization constants are folded, since
//! array lengths may be specialization constants. [`variable_align`] is the
//! alignment every variable is placed at, in every address space.

use rspirv::dr::Operand;
use spirv::Decoration;

use crate::spirv::{ConstValue, Id, Layout, Module, Type, NONE};
use crate::validate::Diags;

fn align_up(x: u64, a: u64) -> Option<u64> {
    if a <= 1 {
        return Some(x);
    }
    x.checked_add(a - 1).map(|y| y / a * a)
}

/// Fills in [`crate::spirv::TypeDecl::layout`] for every type, in
/// declaration order (a type's parts are declared before it).
pub fn compute(m: &mut Module, d: &mut Diags) {
    for t in 0..m.types.len() {
        let layout = match type_layout(m, t) {
            Ok(l) => l,
            Err(rule) => {
                d.at(m, m.types[t].inst, rule);
                None
            }
        };
        m.types[t].layout = layout;
    }
}

/// The layout of an already declared part; pointers (which may be declared
/// after the struct holding them, through OpTypeForwardPointer) are 8 bytes.
fn part(m: &Module, id: u32) -> Option<Layout> {
    match m.ty(id) {
        Some(Type::Pointer { .. }) => Some(Layout { size: 8, align: 8 }),
        _ => m.layout(id),
    }
}

fn type_layout(m: &Module, t: usize) -> Result<Option<Layout>, String> {
    let decl = &m.types[t];
    let l = |size: u64, align: u64| Ok(Some(Layout { size, align }));
    match &decl.ty {
        Type::Bool => l(1, 1),
        Type::Int { width, .. } | Type::Float { width } => {
            let s = u64::from(*width).div_ceil(8).max(1);
            l(s, s)
        }
        Type::Pointer { .. }
        | Type::Event
        | Type::DeviceEvent
        | Type::ReserveId
        | Type::Queue
        | Type::Pipe { .. }
        | Type::PipeStorage
        | Type::Sampler
        | Type::Image(_)
        | Type::SampledImage { .. }
        | Type::NamedBarrier => l(8, 8),
        Type::Vector { component, count } => {
            let Some(c) = part(m, *component) else { return Ok(None) };
            let n = if *count == 3 { 4 } else { u64::from(*count) };
            let s = c.size.checked_mul(n).ok_or("the vector is too large")?;
            l(s, s)
        }
        Type::Array { element, length } => {
            let Some(e) = part(m, *element) else { return Ok(None) };
            let n = match m.constant(*length).map(|c| &c.value) {
                Some(ConstValue::Scalar(n)) => *n,
                Some(ConstValue::Expr) => {
                    return Err(format!(
                        "the array length %{length} is a specialization-constant expression clift cannot fold"
                    ))
                }
                _ => return Err(format!("the array length %{length} must be an integer constant")),
            };
            if n == 0 {
                return Err("an array must have at least one element (its length is 0)".into());
            }
            let stride = align_up(e.size, e.align).ok_or("the array is too large")?;
            let s = stride
                .checked_mul(n)
                .ok_or_else(|| format!("the array of {n} elements is too large"))?;
            l(s, e.align)
        }
        Type::Struct { members } => {
            let packed = m.decoration(decl.id, Decoration::CPacked).is_some();
            let decos = m.decorations(decl.id);
            let (mut end, mut align) = (0u64, 1u64);
            for (k, &x) in members.iter().enumerate() {
                let Some(ml) = part(m, x) else { return Ok(None) };
                let offset = decos
                    .iter()
                    .find(|d| d.member == k as u32 && d.kind == Decoration::Offset && d.member != NONE);
                let at = match offset.map(|d| m.deco_params(d).first()) {
                    Some(Some(Operand::LiteralBit32(o))) => u64::from(*o),
                    _ if packed => end,
                    _ => align_up(end, ml.align).ok_or("the struct is too large")?,
                };
                end = at.checked_add(ml.size).ok_or("the struct is too large")?;
                if !packed {
                    align = align.max(ml.align);
                }
            }
            let size = align_up(end, align).ok_or("the struct is too large")?;
            l(size, align)
        }
        Type::Void | Type::Opaque { .. } | Type::Function { .. } | Type::Other(_) => Ok(None),
    }
}

/// The largest alignment clift gives a variable: 128 bytes, the alignment
/// of the largest OpenCL C types (`double16`, `long16`) and
/// CL_DEVICE_MEM_BASE_ADDR_ALIGN. An `aligned` attribute asking for more
/// gets 128, which OpenCL C allows ("Specifying Attributes of Types": a
/// compiler may align variables only up to a maximum, documented by the
/// platform).
pub const MAX_VARIABLE_ALIGN: u64 = 128;

/// The alignment variable `var` (an OpVariable, or a kernel's `__local`
/// parameter) must have: the alignment of the type `l` it holds, raised to
/// its Alignment or AlignmentId decoration (only the power of two dividing
/// the decoration's value counts), at most [`MAX_VARIABLE_ALIGN`].
pub fn variable_align(m: &Module, var: Id, l: Layout) -> u64 {
    let decorated = m
        .decorations(var)
        .iter()
        .filter(|d| d.member == NONE && matches!(d.kind, Decoration::Alignment | Decoration::AlignmentId))
        .filter_map(|d| match m.deco_params(d).first() {
            Some(Operand::LiteralBit32(a)) => Some(u64::from(*a)),
            Some(Operand::IdRef(c)) => m.const_scalar(*c),
            _ => None,
        })
        .filter(|&a| a > 0)
        .map(|a| 1u64 << a.trailing_zeros())
        .max()
        .unwrap_or(1);
    l.align.max(decorated).clamp(1, MAX_VARIABLE_ALIGN)
}

/// The bytes a variable of type layout `l` and alignment `align` takes
/// when copies of it sit side by side (one per lane of a 4-lane body):
/// its size rounded up to its alignment, at least 1.
pub fn variable_stride(l: Layout, align: u64) -> Option<u64> {
    align_up(l.size.max(1), align)
}
