//! Scopes, memory semantics and atomics (OpenCL SPIR-V Environment,
//! "Validation Rules"): scope and semantics operands are 32-bit integer
//! constants with values OpenCL allows; atomics take 32-bit integers,
//! 64-bit ones with Int64Atomics, and 32- and 64-bit floats for load, store
//! and exchange, through pointers to Function, Workgroup,
//! CrossWorkgroup or Generic storage.

use rspirv::dr::Operand;
use spirv::{Op, StorageClass};

use super::Diags;
use crate::spirv::{opsets, ConstValue, Id, Inst, Module, Type};

const SCOPES: [&str; 5] = ["CrossDevice", "Device", "Workgroup", "Subgroup", "Invocation"];

fn scope_name(v: u64) -> String {
    SCOPES
        .get(v as usize)
        .map_or_else(|| format!("value {v}"), |s| (*s).to_string())
}

/// Whether `op` is an atomic instruction.
pub fn is_atomic(op: Op) -> bool {
    matches!(op, opsets::atomics!())
}

/// Instructions whose (first) scope operand is an execution scope.
fn has_execution_scope(op: Op) -> bool {
    matches!(
        op,
        Op::ControlBarrier
            | opsets::group_collectives!()
            | opsets::group_pipes!()
            | opsets::non_uniform_collectives!()
            | opsets::ballot_values!()
    )
}

/// Whether `op` is a GroupNonUniform instruction (SPIR-V 1.3).
pub fn is_non_uniform(op: Op) -> bool {
    matches!(op, opsets::non_uniform_collectives!() | opsets::ballot_values!())
}

/// Whether `op` is a group instruction every work-item of its scope takes
/// part in, computing from all their operands: the collectives of OpenCL
/// C's work_group_* and sub_group_* functions, async copies, and the group
/// pipe reservations and commits, and the non-uniform sub-group
/// instructions that combine the operands of the sub-group's active
/// work-items.
pub fn is_group_collective(op: Op) -> bool {
    matches!(
        op,
        opsets::group_collectives!() | opsets::group_pipes!() | opsets::non_uniform_collectives!()
    )
}

/// Whether instruction `inst` (a barrier or a group instruction) waits
/// for its sub-group only: its execution scope is Subgroup (3).
pub fn sub_group_scoped(m: &Module, inst: &Inst) -> bool {
    has_execution_scope(inst.op)
        && inst
            .operands
            .iter()
            .find_map(|o| match o {
                Operand::IdScope(id) => Some(*id),
                _ => None,
            })
            .and_then(|id| const32(m, id))
            == Some(3)
}

/// The value of a 32-bit integer constant.
fn const32(m: &Module, id: Id) -> Option<u64> {
    let c = m.constant(id)?;
    if !matches!(m.ty(c.ty), Some(Type::Int { width: 32, .. })) {
        return None;
    }
    match c.value {
        ConstValue::Scalar(v) => Some(v),
        ConstValue::Null => Some(0),
        _ => None,
    }
}

/// Checks every scope, semantics and atomic instruction in function bodies.
pub fn check(m: &Module, d: &mut Diags) {
    for f in &m.functions {
        for b in &f.blocks {
            for i in b.start + 1..=b.end {
                let inst = &m.insts[i as usize];
                if let Err(rule) = instruction(m, inst) {
                    d.at(m, i, rule);
                }
                if d.full() {
                    return;
                }
            }
        }
    }
}

fn instruction(m: &Module, inst: &Inst) -> Result<(), String> {
    let op = inst.op;
    let mut first_scope = true;
    for o in &inst.operands {
        match o {
            Operand::IdScope(id) => {
                let exec = first_scope && has_execution_scope(op);
                first_scope = false;
                scope(m, op, *id, exec)?;
            }
            Operand::IdMemorySemantics(id) => semantics(m, op, *id)?,
            _ => {}
        }
    }
    if is_atomic(op) {
        atomic(m, inst)?;
    }
    Ok(())
}

fn scope(m: &Module, op: Op, id: Id, exec: bool) -> Result<(), String> {
    let role = if exec { "execution" } else { "memory" };
    let v = const32(m, id).ok_or_else(|| format!("the {role} scope %{id} must be a 32-bit integer constant"))?;
    if exec {
        if matches!(op, Op::GroupAsyncCopy | Op::GroupWaitEvents) {
            if v != 2 {
                return Err(format!(
                    "the execution scope must be Workgroup for {} (it is {})",
                    crate::spirv::opname(op),
                    scope_name(v)
                ));
            }
        } else if is_non_uniform(op) {
            // The OpenCL SPIR-V environment, for each cl_khr_subgroup_*
            // extension: "Scope for Execution may be: Subgroup".
            if v != 3 {
                return Err(format!(
                    "the execution scope must be Subgroup for {} in OpenCL (it is {})",
                    crate::spirv::opname(op),
                    scope_name(v)
                ));
            }
        } else if v != 2 && v != 3 {
            return Err(format!(
                "the execution scope must be Workgroup or Subgroup in OpenCL (it is {})",
                scope_name(v)
            ));
        }
    } else if is_atomic(op) {
        if v > 3 {
            return Err(format!(
                "the memory scope of an atomic must be CrossDevice, Device, Workgroup or Subgroup in OpenCL (it is {})",
                scope_name(v)
            ));
        }
    } else if v > 4 {
        return Err(format!(
            "the memory scope must be CrossDevice, Device, Workgroup, Subgroup or Invocation in OpenCL (it is {})",
            scope_name(v)
        ));
    }
    Ok(())
}

/// Memory-order bits, and the storage-class bits OpenCL uses (subgroup,
/// workgroup, cross-workgroup and image memory).
const ORDER: u64 = 0x2 | 0x4 | 0x8 | 0x10;
const ALLOWED: u64 = ORDER | 0x80 | 0x100 | 0x200 | 0x800;

fn semantics(m: &Module, op: Op, id: Id) -> Result<(), String> {
    let v = const32(m, id).ok_or_else(|| format!("the memory semantics %{id} must be a 32-bit integer constant"))?;
    if v & !ALLOWED != 0 {
        return Err(format!(
            "memory semantics 0x{v:x} sets bits 0x{:x} that OpenCL does not allow (Acquire, Release, AcquireRelease, SequentiallyConsistent, SubgroupMemory, WorkgroupMemory, CrossWorkgroupMemory and ImageMemory are)",
            v & !ALLOWED
        ));
    }
    if (v & ORDER).count_ones() > 1 {
        return Err(format!("memory semantics 0x{v:x} sets more than one memory order"));
    }
    match op {
        Op::AtomicLoad if v & (0x4 | 0x8) != 0 => Err(format!(
            "OpAtomicLoad cannot have Release or AcquireRelease semantics (0x{v:x})"
        )),
        Op::AtomicStore if v & (0x2 | 0x8) != 0 => Err(format!(
            "OpAtomicStore cannot have Acquire or AcquireRelease semantics (0x{v:x})"
        )),
        _ => Ok(()),
    }
}

/// Whether atomic instruction `op` may take a floating-point value (SPIR-V:
/// "a scalar of integer type or floating-point type" for these three; an
/// integer for every other atomic).
fn takes_floats(op: Op) -> bool {
    matches!(op, Op::AtomicLoad | Op::AtomicStore | Op::AtomicExchange)
}

/// The rule of an atomic's pointer, value and result types.
fn atomic(m: &Module, inst: &Inst) -> Result<(), String> {
    let op = inst.op;
    let p = inst.id(0).ok_or("an atomic needs a pointer operand")?;
    let pt = m.type_of(p).ok_or_else(|| format!("%{p} is not a value"))?;
    let (s, pointee) = m
        .pointer(pt)
        .ok_or_else(|| format!("the atomic's operand %{p} is not a pointer"))?;
    if !matches!(
        s,
        StorageClass::Function | StorageClass::Workgroup | StorageClass::CrossWorkgroup | StorageClass::Generic
    ) {
        return Err(format!(
            "the atomic's pointer must point to Function, Workgroup, CrossWorkgroup or Generic storage (it points to {s:?})"
        ));
    }
    let name = inst.opname();
    let shown = m.show_type(pointee);
    match m.ty(pointee) {
        Some(Type::Int { width: 32, .. }) => {}
        // The OpenCL SPIR-V environment: with cl_khr_int64_base_atomics or
        // cl_khr_int64_extended_atomics declared (OpExtension, in the 2.2
        // text) or the Int64Atomics capability (the later text).
        Some(Type::Int { width: 64, .. }) => {
            let declared = m.has_capability(spirv::Capability::Int64Atomics)
                || m.declares_extension("cl_khr_int64_base_atomics")
                || m.declares_extension("cl_khr_int64_extended_atomics");
            if !declared {
                return Err(
                    "atomics on 64-bit integers need the Int64Atomics capability (cl_khr_int64_base_atomics)".into(),
                );
            }
        }
        Some(Type::Int { width, .. }) => {
            return Err(format!(
                "{name} cannot operate on {shown}: atomics take 32-bit integers, and 64-bit ones with Int64Atomics (this one is {width}-bit)"
            ))
        }
        // SPIR-V lets OpAtomicLoad, OpAtomicStore and OpAtomicExchange
        // take floats; OpenCL C has them on atomic_float, and on
        // atomic_double where the device supports doubles and 64-bit
        // atomics (cl_khr_fp64 and cl_khr_int64_base_atomics, which clift
        // reports; clang's translator declares neither Int64Atomics nor the
        // extension for them, and the double type already needs Float64).
        Some(Type::Float { width: 32 | 64 }) if takes_floats(op) => {}
        Some(Type::Float { width }) if takes_floats(op) => {
            return Err(format!(
                "{name} cannot operate on {shown} ({width}-bit float): atomics on floats take 32- and 64-bit ones"
            ))
        }
        Some(Type::Float { width }) => {
            return Err(format!(
                "{name} cannot operate on {shown} ({width}-bit float): only OpAtomicLoad, OpAtomicStore and OpAtomicExchange take floats (OpenCL C compares atomic_float and atomic_double bitwise, through integers of their width)"
            ))
        }
        _ => {
            return Err(format!(
                "{name} cannot operate on {shown} (atomics take 32-bit integers, 64-bit ones with Int64Atomics, and 32- and 64-bit floats for load, store and exchange)"
            ))
        }
    }
    let same = |id: Option<Id>, what: &str| -> Result<(), String> {
        let id = id.ok_or_else(|| format!("the atomic's {what} is missing"))?;
        let t = m.type_of(id).ok_or_else(|| format!("%{id} is not a value"))?;
        if m.same_type(t, pointee) {
            Ok(())
        } else {
            Err(format!(
                "the atomic's {what} %{id} has type {}, but the pointer points to {}",
                m.show_type(t),
                m.show_type(pointee)
            ))
        }
    };
    match op {
        Op::AtomicFlagTestAndSet => {
            if !inst.result_type.is_some_and(|t| matches!(m.ty(t), Some(Type::Bool))) {
                return Err("OpAtomicFlagTestAndSet must return bool".into());
            }
        }
        Op::AtomicFlagClear => {}
        Op::AtomicStore => same(inst.id(3), "value")?,
        _ => {
            let rt = inst.result_type.ok_or("missing result type")?;
            if !m.same_type(rt, pointee) {
                return Err(format!(
                    "the atomic's result type {} differs from the pointee type {}",
                    m.show_type(rt),
                    m.show_type(pointee)
                ));
            }
            match op {
                Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                    same(inst.id(4), "value")?;
                    same(inst.id(5), "comparator")?;
                }
                Op::AtomicLoad | Op::AtomicIIncrement | Op::AtomicIDecrement => {}
                _ => same(inst.id(3), "value")?,
            }
        }
    }
    Ok(())
}
