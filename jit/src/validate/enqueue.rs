//! Operand types of the device-side enqueue instructions (SPIR-V 1.0,
//! 3.32.22 "Device-Side Enqueue Instructions"), as the lowering
//! (`lower/enqueue.rs`) relies on them. ND-ranges are the `ndrange_t`
//! struct (a 32-bit dimension count, then three arrays of three 64-bit
//! sizes) or, as llvm-spirv 15 passes them, a pointer to one; local sizes
//! are integer scalars or, as llvm-spirv 15 passes them, pointers to one.
//! The invoke function has a void result, a pointer to 8-bit integers
//! first, then Workgroup pointers, one per local size.

use rspirv::dr::Operand;
use spirv::{Op, StorageClass};

use crate::spirv::{Id, Module, Type};

/// What each operand of a device-side enqueue instruction is.
#[derive(Clone, Copy)]
enum Kind {
    Queue,
    /// An integer scalar.
    Int,
    /// A 32-bit integer scalar.
    Int32,
    /// An `ndrange_t` value or a pointer to one.
    NdRange,
    /// A pointer to device events.
    Events,
    Event,
    /// The invoke function.
    Invoke,
    /// A pointer to 8-bit integers (the block literal).
    Bytes,
    /// A CrossWorkgroup pointer (capture_event_profiling_info's value).
    Global,
    /// The sizes, local sizes or offset of OpBuildNDRange: a 64-bit integer
    /// or an array of 2 or 3 of them.
    Sizes,
}

/// The result an instruction has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Res {
    None,
    Int32,
    Event,
    Bool,
    NdRange,
}

/// The fixed operands and result of `op` (OpEnqueueKernel's local sizes
/// follow its fixed operands).
fn shape(op: Op) -> Option<(&'static [Kind], Res)> {
    use Kind::*;
    Some(match op {
        Op::EnqueueKernel => (
            &[Queue, Int, NdRange, Int32, Events, Events, Invoke, Bytes, Int32, Int32],
            Res::Int32,
        ),
        Op::EnqueueMarker => (&[Queue, Int32, Events, Events], Res::Int32),
        Op::BuildNDRange => (&[Sizes, Sizes, Sizes], Res::NdRange),
        Op::CreateUserEvent => (&[], Res::Event),
        Op::SetUserEventStatus => (&[Event, Int32], Res::None),
        Op::RetainEvent | Op::ReleaseEvent => (&[Event], Res::None),
        Op::IsValidEvent => (&[Event], Res::Bool),
        Op::CaptureEventProfilingInfo => (&[Event, Int32, Global], Res::None),
        Op::GetKernelWorkGroupSize | Op::GetKernelPreferredWorkGroupSizeMultiple => {
            (&[Invoke, Bytes, Int32, Int32], Res::Int32)
        }
        Op::GetKernelNDrangeSubGroupCount | Op::GetKernelNDrangeMaxSubGroupSize => {
            (&[NdRange, Invoke, Bytes, Int32, Int32], Res::Int32)
        }
        _ => return None,
    })
}

/// The length of array type `t`, if it is a constant.
fn array_len(m: &Module, t: Id) -> Option<u64> {
    let Some(Type::Array { length, .. }) = m.ty(t) else {
        return None;
    };
    match m.constant(*length).map(|c| &c.value) {
        Some(crate::spirv::ConstValue::Scalar(v)) => Some(*v),
        _ => None,
    }
}

fn int(m: &Module, t: Id, width: Option<u32>) -> bool {
    matches!(m.ty(t), Some(Type::Int { width: w, .. }) if width.is_none_or(|x| x == *w))
}

/// Whether `t` is the `ndrange_t` struct.
fn is_ndrange(m: &Module, t: Id) -> bool {
    let Some(Type::Struct { members }) = m.ty(t) else {
        return false;
    };
    let sizes = |a: &Id| match m.ty(*a) {
        Some(Type::Array { element, .. }) => int(m, *element, Some(64)) && array_len(m, *a) == Some(3),
        _ => false,
    };
    matches!(members.as_slice(), [d, a, b, c] if int(m, *d, Some(32)) && sizes(a) && sizes(b) && sizes(c))
}

/// The number of sizes a Sizes operand of type `t` holds, if it is one.
fn sizes_count(m: &Module, t: Id) -> Option<u64> {
    if int(m, t, Some(64)) {
        return Some(1);
    }
    match m.ty(t) {
        Some(Type::Array { element, .. }) if int(m, *element, Some(64)) => {
            array_len(m, t).filter(|n| (2..=3).contains(n))
        }
        _ => None,
    }
}

/// Why the invoke function `f` cannot be what it must, with `locals` local
/// sizes (None: as many as it takes).
fn invoke(m: &Module, f: Id, locals: Option<usize>) -> Result<(), String> {
    let func = m
        .function(f)
        .ok_or_else(|| format!("the invoke operand {} is not a function", m.show(f)))?;
    if !matches!(m.ty(func.ret), Some(Type::Void)) {
        return Err("the invoke function must return void".into());
    }
    let param = |p: &Id| m.type_of(*p).and_then(|t| m.pointer(t));
    match func.params.first().and_then(param) {
        Some((_, pointee)) if int(m, pointee, Some(8)) => {}
        _ => return Err("the invoke function's first parameter must be a pointer to 8-bit integers".into()),
    }
    if func.params[1..]
        .iter()
        .any(|p| !matches!(param(p), Some((StorageClass::Workgroup, _))))
    {
        return Err("the invoke function's parameters after the first must be Workgroup pointers".into());
    }
    if let Some(n) = locals.filter(|&n| n != func.params.len() - 1) {
        return Err(format!(
            "{n} local sizes for an invoke function with {} Workgroup pointer parameters",
            func.params.len() - 1
        ));
    }
    Ok(())
}

/// Checks device-side enqueue instruction `op` with result type `rt` and
/// operands `args`.
pub fn check(m: &Module, op: Op, rt: Option<Id>, args: &[Operand]) -> Result<(), String> {
    let Some((kinds, result)) = shape(op) else {
        return Ok(());
    };
    let rt_ty = rt.and_then(|t| m.ty(t));
    let ok = match result {
        Res::None => rt.is_none(),
        Res::Int32 => rt.is_some_and(|t| int(m, t, Some(32))),
        Res::Event => matches!(rt_ty, Some(Type::DeviceEvent)),
        Res::Bool => matches!(rt_ty, Some(Type::Bool)),
        Res::NdRange => rt.is_some_and(|t| is_ndrange(m, t)),
    };
    if !ok {
        return Err(match result {
            Res::None => "has no result".into(),
            Res::Int32 => "the result type must be a 32-bit integer scalar".into(),
            Res::Event => "the result type must be OpTypeDeviceEvent".into(),
            Res::Bool => "the result type must be bool".into(),
            Res::NdRange => "the result type must be the ndrange_t struct (a 32-bit integer, then three arrays of three 64-bit integers)".into(),
        });
    }
    let extra = op == Op::EnqueueKernel;
    if args.len() < kinds.len() || (!extra && args.len() != kinds.len()) {
        return Err(format!("takes {} operands, not {}", kinds.len(), args.len()));
    }
    let mut sizes = None;
    for (k, o) in args.iter().enumerate() {
        let Operand::IdRef(id) = o else {
            return Err(format!("operand {k} must be an id"));
        };
        let kind = kinds.get(k).copied();
        if let Some(Kind::Invoke) = kind {
            let locals = extra.then(|| args.len() - kinds.len());
            invoke(m, *id, locals)?;
            continue;
        }
        let t = m
            .type_of(*id)
            .ok_or_else(|| format!("operand {k} (%{id}) is not a value"))?;
        let show = || m.show_type(t);
        let pointee = m.pointer(t);
        let fine = match kind {
            Some(Kind::Queue) => matches!(m.ty(t), Some(Type::Queue)),
            Some(Kind::Int) => int(m, t, None),
            Some(Kind::Int32) => int(m, t, Some(32)),
            Some(Kind::NdRange) => is_ndrange(m, t) || pointee.is_some_and(|(_, p)| is_ndrange(m, p)),
            Some(Kind::Events) => pointee.is_some_and(|(_, p)| matches!(m.ty(p), Some(Type::DeviceEvent))),
            Some(Kind::Event) => matches!(m.ty(t), Some(Type::DeviceEvent)),
            Some(Kind::Bytes) => pointee.is_some_and(|(_, p)| int(m, p, Some(8))),
            Some(Kind::Global) => matches!(pointee, Some((StorageClass::CrossWorkgroup, _))),
            Some(Kind::Sizes) => match (sizes_count(m, t), sizes) {
                (Some(n), None) => {
                    sizes = Some(n);
                    true
                }
                (Some(n), Some(s)) => n == s,
                (None, _) => false,
            },
            Some(Kind::Invoke) => true,
            // A local size: an integer, or a pointer to one.
            None => int(m, t, None) || pointee.is_some_and(|(_, p)| int(m, p, None)),
        };
        if !fine {
            let want = match kind {
                Some(Kind::Queue) => "a queue",
                Some(Kind::Int) => "an integer scalar",
                Some(Kind::Int32) => "a 32-bit integer scalar",
                Some(Kind::NdRange) => "an ndrange_t struct or a pointer to one",
                Some(Kind::Events) => "a pointer to device events",
                Some(Kind::Event) => "a device event",
                Some(Kind::Bytes) => "a pointer to 8-bit integers",
                Some(Kind::Global) => "a CrossWorkgroup pointer",
                Some(Kind::Sizes) => {
                    "a 64-bit integer or an array of 2 or 3 of them, the same for the sizes and the offset"
                }
                Some(Kind::Invoke) => "a function",
                None => "a local size: an integer scalar or a pointer to one",
            };
            return Err(format!("operand {k} must be {want}, not {}", show()));
        }
    }
    Ok(())
}
