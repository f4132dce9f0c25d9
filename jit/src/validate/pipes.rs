//! Operand types of the pipe instructions (SPIR-V 1.0, 3.32.23 "Pipe
//! Instructions"), as the lowering (`lower/pipes.rs`) relies on them: the
//! pipe an OpTypePipe of the access the instruction needs (ReadOnly for
//! reads, WriteOnly for writes, either for the packet counts), reservation
//! ids of OpTypeReserveId, indices and packet counts 32-bit integers, data
//! pointers to Generic storage, and the packet size and alignment 32-bit
//! integer constants with 1 <= alignment <= size and the alignment
//! dividing the size. (OpTypePipe carries no element type, so the
//! pointer's pointee is not compared with it; clang passes an `i8*`.)

use rspirv::dr::Operand;
use spirv::{AccessQualifier, Op, StorageClass};

use crate::spirv::{ConstValue, Id, Module, Type};

/// What each operand of a pipe instruction is.
#[derive(Clone, Copy)]
enum Kind {
    /// An execution scope (checked with the other scopes, `memory.rs`).
    Scope,
    Pipe,
    Pointer,
    ReserveId,
    /// A 32-bit integer: an index or a packet count.
    Int,
    /// The packet size, then the packet alignment.
    Size,
    Align,
}

/// The access a pipe operand needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    Any,
}

/// The result a pipe instruction has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Res {
    None,
    Int32,
    ReserveId,
    Bool,
}

/// The operands, access and result of pipe instruction `op`.
fn shape(op: Op) -> Option<(&'static [Kind], Access, Res)> {
    use Kind::*;
    Some(match op {
        Op::ReadPipe => (&[Pipe, Pointer, Size, Align], Access::Read, Res::Int32),
        Op::WritePipe => (&[Pipe, Pointer, Size, Align], Access::Write, Res::Int32),
        Op::ReservedReadPipe => (&[Pipe, ReserveId, Int, Pointer, Size, Align], Access::Read, Res::Int32),
        Op::ReservedWritePipe => (&[Pipe, ReserveId, Int, Pointer, Size, Align], Access::Write, Res::Int32),
        Op::ReserveReadPipePackets => (&[Pipe, Int, Size, Align], Access::Read, Res::ReserveId),
        Op::ReserveWritePipePackets => (&[Pipe, Int, Size, Align], Access::Write, Res::ReserveId),
        Op::CommitReadPipe => (&[Pipe, ReserveId, Size, Align], Access::Read, Res::None),
        Op::CommitWritePipe => (&[Pipe, ReserveId, Size, Align], Access::Write, Res::None),
        Op::IsValidReserveId => (&[ReserveId], Access::Any, Res::Bool),
        Op::GetNumPipePackets | Op::GetMaxPipePackets => (&[Pipe, Size, Align], Access::Any, Res::Int32),
        Op::GroupReserveReadPipePackets => (&[Scope, Pipe, Int, Size, Align], Access::Read, Res::ReserveId),
        Op::GroupReserveWritePipePackets => (&[Scope, Pipe, Int, Size, Align], Access::Write, Res::ReserveId),
        Op::GroupCommitReadPipe => (&[Scope, Pipe, ReserveId, Size, Align], Access::Read, Res::None),
        Op::GroupCommitWritePipe => (&[Scope, Pipe, ReserveId, Size, Align], Access::Write, Res::None),
        _ => return None,
    })
}

fn is_int32(m: &Module, t: Id) -> bool {
    matches!(m.ty(t), Some(Type::Int { width: 32, .. }))
}

/// The value of 32-bit integer constant `id`.
fn const32(m: &Module, id: Id) -> Option<u64> {
    let c = m.constant(id)?;
    if !is_int32(m, c.ty) {
        return None;
    }
    match c.value {
        ConstValue::Scalar(v) => Some(v),
        ConstValue::Null => Some(0),
        _ => None,
    }
}

/// Checks pipe instruction `op` with result type `rt` and operands `args`.
pub fn check(m: &Module, op: Op, rt: Option<Id>, args: &[Operand]) -> Result<(), String> {
    let Some((kinds, access, result)) = shape(op) else {
        return Ok(());
    };
    let rt_ty = rt.and_then(|t| m.ty(t));
    let ok = match result {
        Res::None => rt.is_none(),
        Res::Int32 => rt.is_some_and(|t| is_int32(m, t)),
        Res::ReserveId => matches!(rt_ty, Some(Type::ReserveId)),
        Res::Bool => matches!(rt_ty, Some(Type::Bool)),
    };
    if !ok {
        return Err(match result {
            Res::None => "has no result".into(),
            Res::Int32 => "the result type must be a 32-bit integer scalar".into(),
            Res::ReserveId => "the result type must be OpTypeReserveId".into(),
            Res::Bool => "the result type must be bool".into(),
        });
    }
    if args.len() != kinds.len() {
        return Err(format!("takes {} operands, not {}", kinds.len(), args.len()));
    }
    let mut size = None;
    for (k, (kind, o)) in kinds.iter().zip(args).enumerate() {
        if matches!(kind, Kind::Scope) {
            continue;
        }
        let Operand::IdRef(id) = o else {
            return Err(format!("operand {k} must be an id"));
        };
        let t = m
            .type_of(*id)
            .ok_or_else(|| format!("operand {k} (%{id}) is not a value"))?;
        let show = || m.show_type(t);
        match kind {
            Kind::Scope => {}
            Kind::Pipe => match m.ty(t) {
                Some(Type::Pipe { access: a }) => {
                    let want = match access {
                        Access::Read => Some(AccessQualifier::ReadOnly),
                        Access::Write => Some(AccessQualifier::WriteOnly),
                        Access::Any => None,
                    };
                    if want.is_some_and(|w| w != *a) {
                        return Err(format!(
                            "the pipe (operand {k}) must be {:?}, not {a:?}",
                            want.unwrap_or(*a)
                        ));
                    }
                }
                _ => return Err(format!("operand {k} must be a pipe, not {}", show())),
            },
            Kind::Pointer => match m.pointer(t) {
                Some((StorageClass::Generic, _)) => {}
                _ => return Err(format!("operand {k} must be a Generic pointer, not {}", show())),
            },
            Kind::ReserveId => {
                if !matches!(m.ty(t), Some(Type::ReserveId)) {
                    return Err(format!("operand {k} must be a reserve id, not {}", show()));
                }
            }
            Kind::Int => {
                if !is_int32(m, t) {
                    return Err(format!("operand {k} must be a 32-bit integer scalar, not {}", show()));
                }
            }
            Kind::Size | Kind::Align => {
                let what = if matches!(kind, Kind::Size) {
                    "the packet size"
                } else {
                    "the packet alignment"
                };
                let v =
                    const32(m, *id).ok_or_else(|| format!("{what} (operand {k}) must be a 32-bit integer constant"))?;
                match (kind, size) {
                    (Kind::Size, _) if v == 0 => return Err("the packet size must be at least 1".into()),
                    (Kind::Size, _) => size = Some(v),
                    (_, Some(s)) if v == 0 || v > s || s % v != 0 => {
                        return Err(format!(
                            "the packet alignment {v} must be from 1 to the packet size {s} and divide it"
                        ))
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}
