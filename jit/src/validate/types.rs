//! Operand types consistent with each opcode: result types are types,
//! arithmetic operands match the result type, loads and stores go through
//! pointers to the right type, branch conditions are bools, calls pass
//! arguments of the callee's parameter types, and so on.

use rspirv::dr::Operand;
use spirv::{Op, StorageClass};

use super::env::is_value;
use super::Diags;
use crate::spirv::{opsets, ConstValue, Id, IdKind, Inst, Module, Type, NONE};

/// Types referenced by type declarations, constants' types, module
/// variables' initializers and function signatures.
pub fn check_declarations(m: &Module, d: &mut Diags) {
    type_declarations(m, d);
    constants(m, d);
    if d.full() {
        return;
    }
    global_initializers(m, d);
    function_signatures(m, d);
}

/// Array elements, struct members and function parameters are sized types;
/// pointees and return types are types; array lengths integer constants.
fn type_declarations(m: &Module, d: &mut Diags) {
    let is_type = |id: Id| m.kind(id) == IdKind::Type || m.kind(id) == IdKind::ForwardPointer;
    let sized = |id: Id| !matches!(m.ty(id), Some(Type::Void | Type::Function { .. }) | None);
    for t in &m.types {
        let i = t.inst;
        match &t.ty {
            Type::Vector { .. } => {} // env checks the component
            Type::Array { element, length } => {
                if !sized(*element) {
                    d.at(
                        m,
                        i,
                        format!("array element type {} must be a sized type", m.show_type(*element)),
                    );
                }
                if m.constant(*length).is_none_or(|c| m.int_width(c.ty).is_none()) {
                    d.at(m, i, format!("array length %{length} must be an integer constant"));
                }
            }
            Type::Struct { members } => {
                for &x in members {
                    if !is_type(x) || (m.kind(x) == IdKind::Type && !sized(x)) {
                        d.at(
                            m,
                            i,
                            format!("struct member type {} must be a sized type", m.show_type(x)),
                        );
                    }
                }
            }
            Type::Pointer { pointee, .. } if !is_type(*pointee) => {
                d.at(m, i, format!("pointee %{pointee} is not a type"));
            }
            Type::Function { ret, params } => {
                if !is_type(*ret) {
                    d.at(m, i, format!("return type %{ret} is not a type"));
                }
                for &p in params {
                    if !is_type(p) || !sized(p) {
                        d.at(m, i, format!("parameter type {} must be a sized type", m.show_type(p)));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Each constant's result type fits its opcode.
fn constants(m: &Module, d: &mut Diags) {
    for c in &m.constants {
        let inst = &m.insts[c.inst as usize];
        if m.kind(c.ty) != IdKind::Type {
            d.at(m, c.inst, format!("result type %{} is not a type", c.ty));
            continue;
        }
        let rule = match inst.op {
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                (!matches!(m.ty(c.ty), Some(Type::Bool)))
                    .then(|| format!("the result type {} must be bool", m.show_type(c.ty)))
            }
            Op::Constant | Op::SpecConstant => (!matches!(m.ty(c.ty), Some(Type::Int { .. } | Type::Float { .. })))
                .then(|| {
                    format!(
                        "the result type {} must be an integer or float scalar",
                        m.show_type(c.ty)
                    )
                }),
            Op::ConstantComposite | Op::SpecConstantComposite => composite_constituents(m, c.ty, inst, 0),
            Op::ConstantNull => (!matches!(
                m.ty(c.ty),
                Some(
                    Type::Bool
                        | Type::Int { .. }
                        | Type::Float { .. }
                        | Type::Vector { .. }
                        | Type::Array { .. }
                        | Type::Struct { .. }
                        | Type::Pointer { .. }
                        | Type::Event
                        | Type::DeviceEvent
                        | Type::ReserveId
                        | Type::Queue
                )
            ))
            .then(|| format!("OpConstantNull cannot have type {}", m.show_type(c.ty))),
            Op::SpecConstantOp => spec_constant_op(m, inst).err(),
            Op::ConstantSampler => (!matches!(m.ty(c.ty), Some(Type::Sampler)))
                .then(|| format!("the result type {} must be a sampler", m.show_type(c.ty))),
            _ => None,
        };
        if let Some(r) = rule {
            d.at(m, c.inst, r);
        }
        if d.full() {
            return;
        }
    }
}

/// A module variable's initializer is a constant or module variable of its
/// pointee type.
fn global_initializers(m: &Module, d: &mut Diags) {
    for g in &m.globals {
        if let (Some(init), Some((_, pointee))) = (g.init, m.pointer(g.ty)) {
            let ok = match m.kind(init) {
                IdKind::Constant | IdKind::Global | IdKind::Undef => {
                    m.type_of(init).is_some_and(|t| m.same_type(t, pointee))
                }
                _ => false,
            };
            if !ok {
                d.at(
                    m,
                    g.inst,
                    format!(
                        "the initializer %{init} must be a constant or module variable of the pointee type {}",
                        m.show_type(pointee)
                    ),
                );
            }
        }
    }
}

/// A function's result and parameter types are those of its function type.
fn function_signatures(m: &Module, d: &mut Diags) {
    for f in &m.functions {
        let Some(Type::Function { ret, params }) = m.ty(f.fn_type) else {
            d.at(
                m,
                f.inst,
                format!("the function type {} is not an OpTypeFunction", m.show_type(f.fn_type)),
            );
            continue;
        };
        if !m.same_type(*ret, f.ret) {
            d.at(
                m,
                f.inst,
                format!(
                    "the result type {} differs from the function type's return type {}",
                    m.show_type(f.ret),
                    m.show_type(*ret)
                ),
            );
        }
        if params.len() != f.params.len() {
            d.at(
                m,
                f.inst,
                format!(
                    "the function type has {} parameters, the function {}",
                    params.len(),
                    f.params.len()
                ),
            );
            continue;
        }
        for (&p, &want) in f.params.iter().zip(params) {
            if let Some(t) = m.type_of(p) {
                if !m.same_type(t, want) {
                    d.at(
                        m,
                        m.info(p).map_or(NONE, |x| x.def),
                        format!(
                            "the parameter has type {}, but the function type says {}",
                            m.show_type(t),
                            m.show_type(want)
                        ),
                    );
                }
            }
        }
    }
}

/// Checks a composite's constituents (operands from `from`) against its type.
fn composite_constituents(m: &Module, ty: Id, inst: &Inst, from: usize) -> Option<String> {
    let parts: Vec<Id> = inst
        .operands
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .filter_map(id_of)
        .collect();
    let types: Vec<Option<Id>> = parts.iter().map(|&p| m.type_of(p)).collect();
    if let Some(k) = types.iter().position(Option::is_none) {
        return Some(format!("constituent %{} is not a value", parts[k]));
    }
    let types: Vec<Id> = types.into_iter().flatten().collect();
    match m.ty(ty) {
        Some(Type::Vector { component, count }) => {
            let mut n = 0u64;
            for &t in &types {
                match m.scalar_of(t) {
                    Some((s, c)) if m.same_type(s, *component) => n += u64::from(c),
                    _ => {
                        return Some(format!(
                            "constituent type {} is neither the component type {} nor a vector of it",
                            m.show_type(t),
                            m.show_type(*component)
                        ))
                    }
                }
            }
            (n != u64::from(*count)).then(|| format!("the constituents have {n} components, the vector type {count}"))
        }
        Some(Type::Struct { members }) => {
            if members.len() != types.len() {
                return Some(format!(
                    "{} constituents for a struct of {} members",
                    types.len(),
                    members.len()
                ));
            }
            members
                .iter()
                .zip(&types)
                .find(|(a, b)| !m.same_type(**a, **b))
                .map(|(a, b)| {
                    format!(
                        "constituent of type {} for a member of type {}",
                        m.show_type(*b),
                        m.show_type(*a)
                    )
                })
        }
        Some(Type::Array { element, length }) => {
            if let Some(t) = types.iter().find(|&&t| !m.same_type(t, *element)) {
                return Some(format!(
                    "constituent of type {} for an array of {}",
                    m.show_type(*t),
                    m.show_type(*element)
                ));
            }
            match m.constant(*length).map(|c| &c.value) {
                Some(ConstValue::Scalar(n)) if *n != types.len() as u64 => {
                    Some(format!("{} constituents for an array of {n}", types.len()))
                }
                _ => None,
            }
        }
        _ => Some(format!(
            "the result type {} is not a vector, struct or array",
            m.show_type(ty)
        )),
    }
}

fn id_of(o: &Operand) -> Option<Id> {
    match o {
        Operand::IdRef(x) => Some(*x),
        _ => None,
    }
}

/// Checks OpSpecConstantOp: its operands are constants (or, for the
/// pointer operations, module variables) and typed as its operation needs.
pub fn spec_constant_op(m: &Module, inst: &Inst) -> Result<(), String> {
    let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
        return Err("OpSpecConstantOp without an operation".into());
    };
    let args = &inst.operands[1..];
    for o in args {
        if let Operand::IdRef(v) = o {
            let ok = match m.kind(*v) {
                IdKind::Constant | IdKind::Undef => true,
                IdKind::Global => matches!(
                    op,
                    Op::AccessChain
                        | Op::InBoundsAccessChain
                        | Op::PtrAccessChain
                        | Op::InBoundsPtrAccessChain
                        | Op::PtrCastToGeneric
                        | Op::GenericCastToPtr
                        | Op::ConvertPtrToU
                        | Op::Bitcast
                ),
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "OpSpecConstantOp {}: operand %{v} is not a constant",
                    crate::spirv::opname(*op)
                ));
            }
        }
    }
    check_op(m, *op, inst.result_type, args, None)
        .map_err(|e| format!("OpSpecConstantOp {}: {e}", crate::spirv::opname(*op)))
}

/// The per-instruction rules of every function body.
pub fn check_bodies(m: &Module, d: &mut Diags) {
    for f in &m.functions {
        for b in &f.blocks {
            for i in b.start + 1..=b.end.min(m.insts.len().saturating_sub(1) as u32) {
                let inst = &m.insts[i as usize];
                if let Some(rt) = inst.result_type {
                    if m.kind(rt) != IdKind::Type {
                        d.at(m, i, format!("result type %{rt} is not a type"));
                        continue;
                    }
                    if matches!(m.ty(rt), Some(Type::Void)) && !matches!(inst.op, Op::FunctionCall | Op::ExtInst) {
                        d.at(m, i, format!("{} cannot have a void result", inst.opname()));
                        continue;
                    }
                }
                if let Some(rule) = value_operands(m, inst) {
                    d.at(m, i, rule);
                    continue;
                }
                if let Err(rule) = check_op(m, inst.op, inst.result_type, &inst.operands, Some(f.ret)) {
                    d.at(m, i, rule);
                }
                if inst.op == Op::Variable {
                    if let Some(Operand::StorageClass(s)) = inst.operands.first() {
                        if *s != StorageClass::Function {
                            d.at(
                                m,
                                i,
                                format!("an OpVariable in a function must have the Function storage class, not {s:?}"),
                            );
                        }
                    }
                }
                if d.full() {
                    return;
                }
            }
        }
    }
}

/// Operand positions that are not values: labels, functions, the
/// extended instruction set.
fn non_value(op: Op, k: usize) -> bool {
    match op {
        Op::ExtInst | Op::FunctionCall => k == 0,
        Op::Branch | Op::LoopMerge | Op::SelectionMerge => true,
        Op::BranchConditional | Op::Switch => k >= 1,
        Op::Phi => k % 2 == 1,
        Op::EnqueueKernel => k == 6,
        Op::GetKernelNDrangeSubGroupCount
        | Op::GetKernelNDrangeMaxSubGroupSize
        | Op::GetKernelLocalSizeForSubgroupCount => k == 1,
        Op::GetKernelWorkGroupSize | Op::GetKernelPreferredWorkGroupSizeMultiple | Op::GetKernelMaxNumSubgroups => {
            k == 0
        }
        _ => false,
    }
}

/// Every operand in a value position names a value; the others name what
/// they should (labels are checked with the control flow).
fn value_operands(m: &Module, inst: &Inst) -> Option<String> {
    for (k, id) in inst.id_operands() {
        if non_value(inst.op, k) {
            let want = match (inst.op, k) {
                (Op::ExtInst, 0) => IdKind::ExtInstImport,
                (Op::FunctionCall, 0)
                | (Op::EnqueueKernel, _)
                | (Op::GetKernelNDrangeSubGroupCount, _)
                | (Op::GetKernelNDrangeMaxSubGroupSize, _)
                | (Op::GetKernelLocalSizeForSubgroupCount, _)
                | (Op::GetKernelWorkGroupSize, _)
                | (Op::GetKernelPreferredWorkGroupSizeMultiple, _)
                | (Op::GetKernelMaxNumSubgroups, _) => IdKind::Function,
                _ => IdKind::Label,
            };
            if m.kind(id) != want {
                let what = match want {
                    IdKind::ExtInstImport => "an OpExtInstImport",
                    IdKind::Function => "a function",
                    _ => "a label",
                };
                return Some(format!("operand %{id} must be {what}"));
            }
        } else if !is_value(m, id) {
            return Some(format!(
                "operand %{id} is not a value (it is {})",
                kind_name(m.kind(id))
            ));
        }
    }
    None
}

fn kind_name(k: IdKind) -> &'static str {
    match k {
        IdKind::Undefined => "undefined",
        IdKind::Type | IdKind::ForwardPointer => "a type",
        IdKind::Function => "a function",
        IdKind::Label => "a label",
        IdKind::ExtInstImport => "an extended instruction set",
        IdKind::String => "a string",
        IdKind::DecorationGroup => "a decoration group",
        _ => "a value",
    }
}

/// The typing rule of `op` with result type `rt` and operands `args`.
/// `ret` is the enclosing function's return type (None for spec constants).
pub fn check_op(m: &Module, op: Op, rt: Option<Id>, args: &[Operand], ret: Option<Id>) -> Result<(), String> {
    let c = Ctx { m, args };
    let rt_or = || rt.ok_or_else(|| "missing result type".to_string());
    use Op::*;
    match op {
        opsets::int_arith!() | opsets::bitwise!() => {
            let rt = rt_or()?;
            c.int(rt, "the result type")?;
            c.same(0, rt)?;
            c.same(1, rt)
        }
        opsets::shifts!() => {
            let rt = rt_or()?;
            c.int(rt, "the result type")?;
            c.same(0, rt)?;
            let s = c.ty(1)?;
            c.int(s, "the shift")?;
            c.same_count(s, rt)
        }
        SNegate | Not => {
            let rt = rt_or()?;
            c.int(rt, "the result type")?;
            c.same(0, rt)
        }
        opsets::float_arith!() => {
            let rt = rt_or()?;
            c.float(rt, "the result type")?;
            c.same(0, rt)?;
            c.same(1, rt)
        }
        FNegate => {
            let rt = rt_or()?;
            c.float(rt, "the result type")?;
            c.same(0, rt)
        }
        VectorTimesScalar => {
            let rt = rt_or()?;
            c.float(rt, "the result type")?;
            let (comp, _) = m.scalar_of(rt).ok_or("the result type is not a vector")?;
            c.same(0, rt)?;
            c.same(1, comp)
        }
        Dot => {
            let rt = rt_or()?;
            c.float(rt, "the result type")?;
            let v = c.ty(0)?;
            match m.scalar_of(v) {
                Some((s, n)) if n > 1 && m.same_type(s, rt) => {}
                _ => return Err(format!("operand 0 must be a vector of {}", m.show_type(rt))),
            }
            c.same(1, v)
        }
        IAddCarry | ISubBorrow | UMulExtended | SMulExtended => {
            let a = c.ty(0)?;
            c.int(a, "operand 0")?;
            c.same(1, a)?;
            match rt.and_then(|t| m.ty(t)) {
                Some(Type::Struct { members }) if members.len() == 2 && members.iter().all(|&x| m.same_type(x, a)) => {
                    Ok(())
                }
                _ => Err("the result type must be a struct of two members of the operands' type".into()),
            }
        }
        opsets::int_compare!() => {
            let rt = rt_or()?;
            c.boolean(rt, "the result type")?;
            let a = c.ty(0)?;
            c.int(a, "operand 0")?;
            c.same_count(a, rt)?;
            c.same(1, a)
        }
        opsets::float_compare!() | LessOrGreater | Ordered | Unordered => {
            let rt = rt_or()?;
            c.boolean(rt, "the result type")?;
            let a = c.ty(0)?;
            c.float(a, "operand 0")?;
            c.same_count(a, rt)?;
            c.same(1, a)
        }
        opsets::logical!() => {
            let rt = rt_or()?;
            c.boolean(rt, "the result type")?;
            c.same(0, rt)?;
            c.same(1, rt)
        }
        LogicalNot => {
            let rt = rt_or()?;
            c.boolean(rt, "the result type")?;
            c.same(0, rt)
        }
        IsNan | IsInf | IsFinite | IsNormal | SignBitSet => {
            let rt = rt_or()?;
            c.boolean(rt, "the result type")?;
            let a = c.ty(0)?;
            c.float(a, "operand 0")?;
            c.same_count(a, rt)
        }
        Any | All => {
            let rt = rt_or()?;
            if !matches!(m.ty(rt), Some(Type::Bool)) {
                return Err("the result type must be bool".into());
            }
            let a = c.ty(0)?;
            match m.ty(a) {
                Some(Type::Vector { component, .. }) if matches!(m.ty(*component), Some(Type::Bool)) => Ok(()),
                _ => Err(format!("operand 0 must be a vector of bool, not {}", m.show_type(a))),
            }
        }
        Select => {
            let rt = rt_or()?;
            let cond = c.ty(0)?;
            c.boolean(cond, "the condition")?;
            let n = m.scalar_of(cond).map_or(1, |x| x.1);
            if n > 1 && m.scalar_of(rt).map(|x| x.1) != Some(n) {
                return Err("a vector condition must have as many components as the result".into());
            }
            c.same(1, rt)?;
            c.same(2, rt)
        }
        ConvertFToU | ConvertFToS => {
            let rt = rt_or()?;
            c.int(rt, "the result type")?;
            let a = c.ty(0)?;
            c.float(a, "operand 0")?;
            c.same_count(a, rt)
        }
        ConvertSToF | ConvertUToF => {
            let rt = rt_or()?;
            c.float(rt, "the result type")?;
            let a = c.ty(0)?;
            c.int(a, "operand 0")?;
            c.same_count(a, rt)
        }
        UConvert | SConvert | SatConvertSToU | SatConvertUToS => {
            let rt = rt_or()?;
            c.int(rt, "the result type")?;
            let a = c.ty(0)?;
            c.int(a, "operand 0")?;
            c.same_count(a, rt)
        }
        FConvert => {
            let rt = rt_or()?;
            c.float(rt, "the result type")?;
            let a = c.ty(0)?;
            c.float(a, "operand 0")?;
            c.same_count(a, rt)
        }
        ConvertPtrToU => {
            let rt = rt_or()?;
            if !matches!(m.ty(rt), Some(Type::Int { .. })) {
                return Err("the result type must be an integer scalar".into());
            }
            c.ptr(0).map(|_| ())
        }
        // llvm-spirv 15 writes OpenCL C's CLK_NULL_RESERVE_ID (a size_t of
        // all ones as a reserve_id_t) as an OpConvertUToPtr to a reserve
        // id, then an OpGenericCastToPtr from that reserve id type to
        // another one: both are taken as moves of the 64-bit word. It
        // writes CLK_NULL_EVENT (the same as a clk_event_t) as an
        // OpConvertUToPtr to a device event, also a move.
        ConvertUToPtr if rt.is_some_and(|t| matches!(m.ty(t), Some(Type::ReserveId | Type::DeviceEvent))) => {
            let a = c.ty(0)?;
            match m.ty(a) {
                Some(Type::Int { width: 64, .. }) => Ok(()),
                _ => Err(format!("operand 0 must be a 64-bit integer, not {}", m.show_type(a))),
            }
        }
        GenericCastToPtr
            if rt.is_some_and(|t| matches!(m.ty(t), Some(Type::ReserveId)))
                && c.ty(0).is_ok_and(|a| matches!(m.ty(a), Some(Type::ReserveId))) =>
        {
            Ok(())
        }
        ConvertUToPtr => {
            let rt = rt_or()?;
            m.pointer(rt).ok_or("the result type must be a pointer")?;
            let a = c.ty(0)?;
            match m.ty(a) {
                Some(Type::Int { .. }) => Ok(()),
                _ => Err(format!("operand 0 must be an integer scalar, not {}", m.show_type(a))),
            }
        }
        PtrCastToGeneric | GenericCastToPtr | GenericCastToPtrExplicit => c.generic_cast(op, rt),
        Bitcast => c.bitcast(rt),
        Load => {
            let rt = rt_or()?;
            let (_, p) = c.ptr(0)?;
            if m.same_type(p, rt) {
                Ok(())
            } else {
                Err(format!(
                    "the result type {} differs from the pointee type {}",
                    m.show_type(rt),
                    m.show_type(p)
                ))
            }
        }
        Store => {
            let (s, p) = c.ptr(0)?;
            if s == StorageClass::UniformConstant {
                return Err("cannot store through a UniformConstant (__constant) pointer".into());
            }
            c.same(1, p)
        }
        CopyMemory => {
            let (_, a) = c.ptr(0)?;
            let (_, b) = c.ptr(1)?;
            c.same_pointee(a, b)
        }
        CopyMemorySized => {
            c.ptr(0)?;
            c.ptr(1)?;
            let n = c.ty(2)?;
            c.int_scalar(n, "the size")
        }
        AccessChain | InBoundsAccessChain | PtrAccessChain | InBoundsPtrAccessChain => c.access_chain(op, rt),
        Variable => {
            let rt = rt_or()?;
            let (s, p) = m.pointer(rt).ok_or("the result type must be a pointer")?;
            if let Some(Operand::StorageClass(x)) = args.first() {
                if *x != s {
                    return Err(format!("the storage class {x:?} differs from the pointer type's {s:?}"));
                }
            }
            if args.len() > 1 {
                c.same(1, p)?;
            }
            Ok(())
        }
        CompositeExtract => c.composite_extract(rt),
        CompositeInsert => {
            let rt = rt_or()?;
            c.same(1, rt)?;
            let t = walk_literals(m, rt, args.get(2..).unwrap_or(&[]))?;
            c.same(0, t)
        }
        CompositeConstruct => {
            let rt = rt_or()?;
            let inst = Inst {
                offset: 0,
                op,
                result_type: Some(rt),
                result_id: None,
                operands: args.to_vec(),
            };
            match composite_constituents(m, rt, &inst, 0) {
                Some(e) => Err(e),
                None => Ok(()),
            }
        }
        VectorShuffle => c.vector_shuffle(rt),
        VectorExtractDynamic => {
            let rt = rt_or()?;
            let v = c.ty(0)?;
            match m.ty(v) {
                Some(Type::Vector { component, .. }) if m.same_type(*component, rt) => {}
                _ => return Err(format!("operand 0 must be a vector of {}", m.show_type(rt))),
            }
            let i = c.ty(1)?;
            c.int_scalar(i, "the index")
        }
        VectorInsertDynamic => {
            let rt = rt_or()?;
            let comp = match m.ty(rt) {
                Some(Type::Vector { component, .. }) => *component,
                _ => return Err("the result type must be a vector".into()),
            };
            c.same(0, rt)?;
            c.same(1, comp)?;
            let i = c.ty(2)?;
            c.int_scalar(i, "the index")
        }
        CopyObject => c.same(0, rt_or()?),
        Phi => {
            let rt = rt_or()?;
            let mut k = 0;
            while k < args.len() {
                c.same(k, rt)?;
                k += 2;
            }
            if !args.len().is_multiple_of(2) {
                return Err("OpPhi operands must come in (value, parent) pairs".into());
            }
            Ok(())
        }
        BranchConditional => {
            let t = c.ty(0)?;
            if matches!(m.ty(t), Some(Type::Bool)) {
                Ok(())
            } else {
                Err(format!(
                    "the branch condition must be a bool scalar, not {}",
                    m.show_type(t)
                ))
            }
        }
        Switch => {
            let t = c.ty(0)?;
            c.int_scalar(t, "the selector")
        }
        Return => match ret {
            Some(r) if !matches!(m.ty(r), Some(Type::Void)) => Err(format!(
                "OpReturn in a function that returns {}: use OpReturnValue",
                m.show_type(r)
            )),
            _ => Ok(()),
        },
        ReturnValue => match ret {
            Some(r) if matches!(m.ty(r), Some(Type::Void)) => {
                Err("OpReturnValue in a function that returns void".into())
            }
            Some(r) => c.same(0, r),
            None => Ok(()),
        },
        FunctionCall => c.function_call(rt),
        SizeOf => {
            let rt = rt_or()?;
            c.int_scalar(rt, "the result type")?;
            c.ptr(0).map(|_| ())
        }
        LifetimeStart | LifetimeStop => c.ptr(0).map(|_| ()),
        GenericPtrMemSemantics => {
            let (s, _) = c.ptr(0)?;
            if s != StorageClass::Generic {
                return Err("operand 0 must be a Generic pointer".into());
            }
            Ok(())
        }
        opsets::pipes!() | opsets::group_pipes!() => super::pipes::check(m, op, rt, args),
        SampledImage
        | ImageSampleExplicitLod
        | ImageRead
        | ImageWrite
        | ImageQuerySizeLod
        | ImageQuerySize
        | ImageQueryFormat
        | ImageQueryOrder => super::images::check(&c, op, rt),
        opsets::group_collectives!() | opsets::non_uniform_collectives!() | opsets::ballot_values!() => {
            super::groups::check(&c, op, rt)
        }
        op if op == BuildNDRange || crate::block_invoke::is_device_enqueue(op) => {
            super::enqueue::check(m, op, rt, args)
        }
        _ => Ok(()),
    }
}

/// The bit size of an integer or float scalar or vector.
fn bits(m: &Module, t: Id) -> Option<u64> {
    let (s, n) = m.scalar_of(t)?;
    let w = match m.ty(s)? {
        Type::Int { width, .. } | Type::Float { width } => *width,
        _ => return None,
    };
    Some(u64::from(w) * u64::from(n))
}

/// The type reached from composite type `t` by literal indexes.
fn walk_literals(m: &Module, mut t: Id, idx: &[Operand]) -> Result<Id, String> {
    if idx.is_empty() {
        return Err("at least one index is needed".into());
    }
    for o in idx {
        let Operand::LiteralBit32(v) = o else {
            return Err("indexes must be literals".into());
        };
        let v = *v as usize;
        t = match m.ty(t) {
            Some(Type::Struct { members }) => *members
                .get(v)
                .ok_or_else(|| format!("index {v} is out of range for a struct of {} members", members.len()))?,
            Some(Type::Vector { component, count }) => {
                if v >= *count as usize {
                    return Err(format!("index {v} is out of range for a vector of {count}"));
                }
                *component
            }
            Some(Type::Array { element, length }) => {
                if let Some(ConstValue::Scalar(n)) = m.constant(*length).map(|c| &c.value) {
                    if v as u64 >= *n {
                        return Err(format!("index {v} is out of range for an array of {n}"));
                    }
                }
                *element
            }
            _ => {
                return Err(format!(
                    "index {v} indexes into {}, which is not a composite",
                    m.show_type(t)
                ))
            }
        };
    }
    Ok(t)
}

pub(super) struct Ctx<'a> {
    pub(super) m: &'a Module,
    pub(super) args: &'a [Operand],
}

impl Ctx<'_> {
    /// OpAccessChain and its pointer and in-bounds forms: the indices walk the
    /// base's pointee to the result's pointee, in the same storage class.
    fn access_chain(&self, op: Op, rt: Option<Id>) -> Result<(), String> {
        let m = self.m;
        let c = self;
        let args = self.args;
        use Op::*;
        let rt = rt.ok_or("missing result type")?;
        let (rs, rp) = m.pointer(rt).ok_or("the result type must be a pointer")?;
        let (s, mut cur) = c.ptr(0)?;
        if s != rs {
            return Err(format!(
                "the result's storage class {rs:?} differs from the base's {s:?}"
            ));
        }
        let mut k = 1;
        if matches!(op, PtrAccessChain | InBoundsPtrAccessChain) {
            let e = c.ty(1)?;
            c.int_scalar(e, "the element index")?;
            k = 2;
        }
        while k < args.len() {
            let idx = c.id(k)?;
            let it = c.ty(k)?;
            c.int_scalar(it, "an index")?;
            cur = match m.ty(cur) {
                Some(Type::Struct { members }) => {
                    let v = super::env::const_int(m, idx)
                        .ok_or_else(|| format!("index %{idx} into a struct must be an integer constant"))?;
                    *members
                        .get(v as usize)
                        .ok_or_else(|| format!("index {v} is out of range for a struct of {} members", members.len()))?
                }
                Some(Type::Array { element, .. }) => *element,
                Some(Type::Vector { component, .. }) => *component,
                _ => {
                    return Err(format!(
                        "index {} indexes into {}, which is not a composite",
                        k,
                        m.show_type(cur)
                    ))
                }
            };
            k += 1;
        }
        c.same_pointee(rp, cur)
    }

    /// OpFunctionCall: the callee's result and parameter types.
    fn function_call(&self, rt: Option<Id>) -> Result<(), String> {
        let m = self.m;
        let c = self;
        let args = self.args;
        let rt = rt.ok_or("missing result type")?;
        let callee = c.id(0)?;
        let f = m
            .function(callee)
            .ok_or_else(|| format!("%{callee} is not a function"))?;
        if !m.same_type(f.ret, rt) {
            return Err(format!(
                "the result type {} differs from the callee's return type {}",
                m.show_type(rt),
                m.show_type(f.ret)
            ));
        }
        let n = args.len() - 1;
        if n != f.params.len() {
            return Err(format!("{n} arguments for a function of {} parameters", f.params.len()));
        }
        for (k, &p) in f.params.iter().enumerate() {
            let Some(pt) = m.type_of(p) else { continue };
            let at = c.ty(k + 1)?;
            if !m.same_type(at, pt) {
                return Err(format!(
                    "argument {k} (%{}) has type {}, but the callee's parameter has type {}",
                    c.id(k + 1)?,
                    m.show_type(at),
                    m.show_type(pt)
                ));
            }
        }
        Ok(())
    }

    /// OpVectorShuffle: two vectors of one component type, components in range.
    fn vector_shuffle(&self, rt: Option<Id>) -> Result<(), String> {
        let m = self.m;
        let c = self;
        let args = self.args;
        let rt = rt.ok_or("missing result type")?;
        let (rc, rn) = match m.ty(rt) {
            Some(Type::Vector { component, count }) => (*component, *count),
            _ => return Err("the result type must be a vector".into()),
        };
        let mut total = 0u64;
        for k in 0..2 {
            let t = c.ty(k)?;
            match m.ty(t) {
                Some(Type::Vector { component, count }) if m.same_type(*component, rc) => total += u64::from(*count),
                _ => return Err(format!("operand {k} must be a vector of {}", m.show_type(rc))),
            }
        }
        let lits: Vec<u32> = args[2..]
            .iter()
            .filter_map(|o| match o {
                Operand::LiteralBit32(v) => Some(*v),
                _ => None,
            })
            .collect();
        if lits.len() as u32 != rn {
            return Err(format!("{} components selected for a vector of {rn}", lits.len()));
        }
        match lits.iter().find(|&&l| l != u32::MAX && u64::from(l) >= total) {
            Some(l) => Err(format!("component {l} is out of range (the operands have {total})")),
            None => Ok(()),
        }
    }

    /// OpCompositeExtract: the indices walk the composite to the result type.
    fn composite_extract(&self, rt: Option<Id>) -> Result<(), String> {
        let m = self.m;
        let c = self;
        let args = self.args;
        let rt = rt.ok_or("missing result type")?;
        let t = c.ty(0)?;
        // clang leaves a work-item function's constant dimension index
        // past the last as an index into the loaded built-in vector; it
        // reads the function's default (lower/builtins.rs).
        if let (Some(Operand::IdRef(v)), [Operand::LiteralBit32(d)]) = (args.first(), &args[1..]) {
            let per_dim = m
                .loaded_builtin(*v)
                .and_then(crate::lower::builtins::past_last_dimension);
            if let (Some(_), Some(Type::Vector { component, count })) = (per_dim, m.ty(t)) {
                if *d >= *count && m.same_type(rt, *component) {
                    return Ok(());
                }
            }
        }
        let t = walk_literals(m, t, &args[1..])?;
        if m.same_type(t, rt) {
            Ok(())
        } else {
            Err(format!(
                "the result type {} differs from the extracted type {}",
                m.show_type(rt),
                m.show_type(t)
            ))
        }
    }

    /// OpBitcast: pointers keep their storage class; values keep their bits.
    fn bitcast(&self, rt: Option<Id>) -> Result<(), String> {
        let m = self.m;
        let c = self;
        let rt = rt.ok_or("missing result type")?;
        let a = c.ty(0)?;
        match (m.pointer(rt), m.pointer(a)) {
            (Some((rs, _)), Some((s, _))) => {
                if rs != s {
                    Err(format!(
                        "a pointer bitcast cannot change the storage class ({s:?} to {rs:?})"
                    ))
                } else {
                    Ok(())
                }
            }
            (None, None) => {
                let (rb, ab) = (bits(m, rt), bits(m, a));
                match (rb, ab) {
                    (Some(x), Some(y)) if x == y => Ok(()),
                    (Some(x), Some(y)) => Err(format!("the operand has {y} bits and the result {x}")),
                    _ => Err("OpBitcast takes integer and float scalars and vectors, or pointers".into()),
                }
            }
            _ => Err("OpBitcast between a pointer and a non-pointer is not allowed in SPIR-V 1.0-1.2".into()),
        }
    }

    /// OpPtrCastToGeneric, and OpGenericCastToPtr(Explicit): between
    /// Generic and a named storage class (Workgroup, CrossWorkgroup or
    /// Function), the pointee kept.
    fn generic_cast(&self, op: Op, rt: Option<Id>) -> Result<(), String> {
        let rt = rt.ok_or("missing result type")?;
        let (rs, rp) = self.m.pointer(rt).ok_or("the result type must be a pointer")?;
        let (s, p) = self.ptr(0)?;
        let named = |c: StorageClass| {
            matches!(
                c,
                StorageClass::Workgroup | StorageClass::CrossWorkgroup | StorageClass::Function
            )
        };
        if op == Op::PtrCastToGeneric {
            if rs != StorageClass::Generic {
                return Err("the result type must be a Generic pointer".into());
            }
            if !named(s) {
                return Err(format!(
                    "operand 0 must point to Workgroup, CrossWorkgroup or Function storage, not {s:?}"
                ));
            }
        } else {
            if s != StorageClass::Generic {
                return Err("operand 0 must be a Generic pointer".into());
            }
            if !named(rs) {
                return Err(format!(
                    "the result must point to Workgroup, CrossWorkgroup or Function storage, not {rs:?}"
                ));
            }
            if op == Op::GenericCastToPtrExplicit {
                if let Some(Operand::StorageClass(x)) = self.args.get(1) {
                    if *x != rs {
                        return Err(format!("the storage operand {x:?} differs from the result's {rs:?}"));
                    }
                }
            }
        }
        self.same_pointee(rp, p)
    }

    pub(super) fn id(&self, k: usize) -> Result<Id, String> {
        match self.args.get(k) {
            Some(Operand::IdRef(x)) => Ok(*x),
            _ => Err(format!("operand {k} is missing or not an id")),
        }
    }

    /// The type of operand `k`.
    pub(super) fn ty(&self, k: usize) -> Result<Id, String> {
        let v = self.id(k)?;
        self.m.type_of(v).ok_or_else(|| format!("operand %{v} is not a value"))
    }

    pub(super) fn same(&self, k: usize, want: Id) -> Result<(), String> {
        let t = self.ty(k)?;
        if self.m.same_type(t, want) {
            Ok(())
        } else {
            Err(format!(
                "operand {k} (%{}) has type {}, expected {}",
                self.id(k)?,
                self.m.show_type(t),
                self.m.show_type(want)
            ))
        }
    }

    fn int(&self, t: Id, what: &str) -> Result<(), String> {
        if self.m.int_width(t).is_some() {
            Ok(())
        } else {
            Err(format!(
                "{what} {} must be an integer scalar or vector",
                self.m.show_type(t)
            ))
        }
    }

    pub(super) fn int_scalar(&self, t: Id, what: &str) -> Result<(), String> {
        if matches!(self.m.ty(t), Some(Type::Int { .. })) {
            Ok(())
        } else {
            Err(format!("{what} {} must be an integer scalar", self.m.show_type(t)))
        }
    }

    fn float(&self, t: Id, what: &str) -> Result<(), String> {
        if self.m.float_width(t).is_some() {
            Ok(())
        } else {
            Err(format!(
                "{what} {} must be a float scalar or vector",
                self.m.show_type(t)
            ))
        }
    }

    fn boolean(&self, t: Id, what: &str) -> Result<(), String> {
        if self.m.is_bool(t) {
            Ok(())
        } else {
            Err(format!(
                "{what} {} must be a bool scalar or vector",
                self.m.show_type(t)
            ))
        }
    }

    fn same_count(&self, a: Id, b: Id) -> Result<(), String> {
        let (x, y) = (self.m.scalar_of(a).map(|s| s.1), self.m.scalar_of(b).map(|s| s.1));
        if x == y {
            Ok(())
        } else {
            Err(format!(
                "{} and {} have different component counts",
                self.m.show_type(a),
                self.m.show_type(b)
            ))
        }
    }

    /// Operand `k` is a pointer: its storage class and pointee.
    fn ptr(&self, k: usize) -> Result<(StorageClass, Id), String> {
        let t = self.ty(k)?;
        self.m
            .pointer(t)
            .ok_or_else(|| format!("operand {k} must be a pointer, not {}", self.m.show_type(t)))
    }

    fn same_pointee(&self, a: Id, b: Id) -> Result<(), String> {
        if self.m.same_type(a, b) {
            Ok(())
        } else {
            Err(format!(
                "pointee types differ: {} and {}",
                self.m.show_type(a),
                self.m.show_type(b)
            ))
        }
    }
}
