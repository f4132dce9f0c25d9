//! Specialization constants: listing them, applying the values the
//! application set, and folding OpSpecConstantOp (and vector composites)
//! into plain constant values, in module order (operands come first).
//! Pointer expressions (access chains and casts over module variables) stay
//! [`ConstValue::Expr`] for the lowering to evaluate.

use std::collections::BTreeMap;

use rspirv::dr::Operand;
use spirv::Op;

use crate::interface::SpecConstant;
use crate::spirv::{ConstValue, Id, IdKind, Module, Type};
use crate::validate::Diags;

/// The module's SpecId-decorated scalar specialization constants, in
/// SpecId order (each SpecId once).
pub fn list(m: &Module) -> Vec<SpecConstant> {
    let mut out: Vec<SpecConstant> = m
        .constants
        .iter()
        .filter(|c| {
            matches!(
                m.insts[c.inst as usize].op,
                Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse
            )
        })
        .filter_map(|c| {
            let size = match m.ty(c.ty)? {
                Type::Bool => 1,
                Type::Int { width, .. } | Type::Float { width } => (*width as usize).div_ceil(8),
                _ => return None,
            };
            Some(SpecConstant {
                spec_id: c.spec_id?,
                size,
            })
        })
        .collect();
    out.sort_by_key(|s| s.spec_id);
    out.dedup_by_key(|s| s.spec_id);
    out
}

/// Applies `values` (by SpecId, in the application's bytes) and folds every
/// constant that can be folded.
pub fn specialize(m: &mut Module, values: &BTreeMap<u32, Vec<u8>>, d: &mut Diags) {
    for c in 0..m.constants.len() {
        let (Some(spec), ty, inst) = (m.constants[c].spec_id, m.constants[c].ty, m.constants[c].inst) else {
            continue;
        };
        let Some(bytes) = values.get(&spec) else { continue };
        let op = m.insts[inst as usize].op;
        if !matches!(op, Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse) {
            continue;
        }
        let value = match m.ty(ty) {
            Some(Type::Bool) if bytes.len() == 1 => Some(ConstValue::Bool(bytes[0] != 0)),
            Some(Type::Int { width, .. } | Type::Float { width }) if bytes.len() == (*width as usize).div_ceil(8) => {
                let mut buf = [0u8; 8];
                let n = bytes.len().min(8);
                if cfg!(target_endian = "little") {
                    buf[..n].copy_from_slice(&bytes[..n]);
                    Some(ConstValue::Scalar(u64::from_le_bytes(buf)))
                } else {
                    buf[8 - n..].copy_from_slice(&bytes[..n]);
                    Some(ConstValue::Scalar(u64::from_be_bytes(buf)))
                }
            }
            _ => None,
        };
        match value {
            Some(v) => m.constants[c].value = v,
            None => d.at(
                m,
                inst,
                format!(
                    "specialization constant SpecId {spec} was given {} bytes, which do not fit its type",
                    bytes.len()
                ),
            ),
        }
    }
    for c in 0..m.constants.len() {
        let inst = m.constants[c].inst;
        let op = m.insts[inst as usize].op;
        let result = match op {
            Op::ConstantComposite | Op::SpecConstantComposite => Ok(vector_composite(m, c)),
            Op::SpecConstantOp => fold(m, c),
            _ => Ok(None),
        };
        match result {
            Ok(Some(v)) => m.constants[c].value = v,
            Ok(None) => {}
            Err(rule) => d.at(m, inst, rule),
        }
        if d.full() {
            return;
        }
    }
}

/// A vector composite whose components are known becomes a `Vector`.
fn vector_composite(m: &Module, c: usize) -> Option<ConstValue> {
    let k = &m.constants[c];
    let Some(Type::Vector { .. }) = m.ty(k.ty) else {
        return None;
    };
    let ConstValue::Composite(parts) = &k.value else {
        return None;
    };
    let mut out = Vec::new();
    for &p in parts {
        out.extend(lanes(m, p)?);
    }
    Some(ConstValue::Vector(out))
}

/// The lanes of a scalar or vector constant (or OpUndef, as zeros).
fn lanes(m: &Module, id: Id) -> Option<Vec<u64>> {
    let count = || m.type_of(id).and_then(|t| m.scalar_of(t)).map_or(1, |s| s.1 as usize);
    if m.kind(id) == IdKind::Undef {
        return Some(vec![0; count()]);
    }
    match &m.constant(id)?.value {
        ConstValue::Bool(b) => Some(vec![u64::from(*b)]),
        ConstValue::Scalar(v) => Some(vec![*v]),
        ConstValue::Vector(v) => Some(v.clone()),
        ConstValue::Null => Some(vec![0; count()]),
        _ => None,
    }
}

/// The scalar kind of a type: width and whether it is a float (bool: 1).
fn scalar(m: &Module, ty: Id) -> Option<(u32, bool, usize)> {
    let (s, n) = m.scalar_of(ty)?;
    match m.ty(s)? {
        Type::Bool => Some((1, false, n as usize)),
        Type::Int { width, .. } => Some((*width, false, n as usize)),
        Type::Float { width } => Some((*width, true, n as usize)),
        _ => None,
    }
}

fn mask(w: u32) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn sext(v: u64, w: u32) -> i64 {
    if w == 0 || w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

/// A float of width `w` (16 or 32) as f32 (exact).
fn to_f32(v: u64, w: u32) -> f32 {
    if w == 16 {
        clift_builtins::half::half_to_f32(v as u16)
    } else {
        f32::from_bits(v as u32)
    }
}

/// `x` rounded to a float of width `w` (16 or 32; to nearest even), as
/// bits.
fn from_f32(x: f32, w: u32) -> u64 {
    if w == 16 {
        u64::from(clift_builtins::half::f64_to_half(
            f64::from(x),
            clift_builtins::half::Rounding::Rte,
        ))
    } else {
        u64::from(x.to_bits())
    }
}

/// A float of width `w` (16, 32 or 64) as f64 (exact).
fn to_f64(v: u64, w: u32) -> f64 {
    if w == 64 {
        f64::from_bits(v)
    } else {
        f64::from(to_f32(v, w))
    }
}

/// `x` rounded to a float of width `w` (to nearest even), as bits.
fn from_f64(x: f64, w: u32) -> u64 {
    match w {
        64 => x.to_bits(),
        32 => u64::from((x as f32).to_bits()),
        // Once, straight from the double.
        _ => u64::from(clift_builtins::half::f64_to_half(
            x,
            clift_builtins::half::Rounding::Rte,
        )),
    }
}

/// Folds constant `c` (an OpSpecConstantOp): `Ok(None)` leaves it an
/// expression for the lowering.
fn fold(m: &Module, c: usize) -> Result<Option<ConstValue>, String> {
    let k = &m.constants[c];
    let inst = &m.insts[k.inst as usize];
    crate::validate::types::spec_constant_op(m, inst)?;
    let Some(Operand::LiteralSpecConstantOpInteger(op)) = inst.operands.first() else {
        return Ok(None);
    };
    let op = *op;
    let args = &inst.operands[1..];
    let rt = k.ty;
    use Op::*;
    if matches!(
        op,
        ConvertPtrToU
            | ConvertUToPtr
            | GenericCastToPtr
            | PtrCastToGeneric
            | AccessChain
            | InBoundsAccessChain
            | PtrAccessChain
            | InBoundsPtrAccessChain
    ) || (op == Bitcast && m.pointer(rt).is_some())
    {
        return Ok(None);
    }
    match op {
        CompositeExtract => composite_extract(m, rt, args),
        CompositeInsert => composite_insert(m, rt, args),
        VectorShuffle => Ok(vector_shuffle(m, rt, args)),
        _ => Ok(lane_wise(m, rt, op, args)),
    }
}

/// Operand `n` of an OpSpecConstantOp's operation, if an id.
fn arg_id(args: &[Operand], n: usize) -> Option<Id> {
    match args.get(n) {
        Some(Operand::IdRef(x)) => Some(*x),
        _ => None,
    }
}

/// The literal operands of an OpSpecConstantOp's operation.
fn literals(args: &[Operand]) -> Vec<u32> {
    args.iter()
        .filter_map(|o| match o {
            Operand::LiteralBit32(x) => Some(*x),
            _ => None,
        })
        .collect()
}

/// Lanes `v` as a constant of scalar or vector type `rt`.
fn shaped(m: &Module, rt: Id, v: Vec<u64>) -> Option<ConstValue> {
    let (_, _, n) = scalar(m, rt)?;
    let is_bool = m.is_bool(rt);
    Some(match (n, is_bool) {
        (1, true) => ConstValue::Bool(*v.first()? != 0),
        (1, false) => ConstValue::Scalar(*v.first()?),
        _ => ConstValue::Vector(v),
    })
}

/// OpCompositeExtract of a constant composite or vector.
fn composite_extract(m: &Module, rt: Id, args: &[Operand]) -> Result<Option<ConstValue>, String> {
    let Some(mut cur) = arg_id(args, 0) else {
        return Ok(None);
    };
    let idx = literals(&args[1..]);
    for (n, &ix) in idx.iter().enumerate() {
        let Some(k) = m.constant(cur) else { return Ok(None) };
        match &k.value {
            ConstValue::Composite(parts) => match parts.get(ix as usize) {
                Some(&p) => cur = p,
                None => {
                    return Err(format!(
                        "OpSpecConstantOp OpCompositeExtract: index {ix} is out of range"
                    ))
                }
            },
            ConstValue::Vector(v) if n + 1 == idx.len() => {
                return Ok(v.get(ix as usize).and_then(|&x| shaped(m, rt, vec![x])));
            }
            ConstValue::Null => return Ok(Some(ConstValue::Null)),
            _ => return Ok(None),
        }
    }
    Ok(m.constant(cur).map(|k| k.value.clone()))
}

/// OpCompositeInsert into a constant vector, or one level deep into a
/// constant struct or array.
fn composite_insert(m: &Module, rt: Id, args: &[Operand]) -> Result<Option<ConstValue>, String> {
    let (Some(obj), Some(base)) = (arg_id(args, 0), arg_id(args, 1)) else {
        return Ok(None);
    };
    let idx = literals(&args[2..]);
    if m.ty(rt).is_some_and(|t| matches!(t, Type::Vector { .. })) {
        let (Some(mut v), Some(x)) = (lanes(m, base), lanes(m, obj)) else {
            return Ok(None);
        };
        let (Some(&ix), Some(&x0)) = (idx.first(), x.first()) else {
            return Ok(None);
        };
        if let Some(slot) = v.get_mut(ix as usize) {
            *slot = x0;
        }
        return Ok(shaped(m, rt, v));
    }
    if idx.len() != 1 {
        return Err(
            "OpSpecConstantOp OpCompositeInsert into a nested struct or array is not supported by clift".into(),
        );
    }
    let mut parts = match m.constant(base).map(|k| &k.value) {
        Some(ConstValue::Composite(p)) => p.clone(),
        _ => return Ok(None),
    };
    if let Some(slot) = parts.get_mut(idx[0] as usize) {
        *slot = obj;
    }
    Ok(Some(ConstValue::Composite(parts)))
}

/// OpVectorShuffle of two constant vectors.
fn vector_shuffle(m: &Module, rt: Id, args: &[Operand]) -> Option<ConstValue> {
    let a = lanes(m, arg_id(args, 0)?)?;
    let b = lanes(m, arg_id(args, 1)?)?;
    let all: Vec<u64> = a.into_iter().chain(b).collect();
    let v = args[2..]
        .iter()
        .map(|o| match o {
            Operand::LiteralBit32(l) => all.get(*l as usize).copied().unwrap_or(0),
            _ => 0,
        })
        .collect();
    shaped(m, rt, v)
}

/// A lane-wise operation on scalar or vector constants (a scalar operand
/// stands for every lane); `None` when an operand is not a known constant
/// or the operation is not folded.
fn lane_wise(m: &Module, rt: Id, op: Op, args: &[Operand]) -> Option<ConstValue> {
    let mut vals = Vec::new();
    let mut tys = Vec::new();
    for n in 0..args.len() {
        let x = arg_id(args, n)?;
        vals.push(lanes(m, x)?);
        tys.push(m.type_of(x).and_then(|t| scalar(m, t))?);
    }
    let (rw, _, rn) = scalar(m, rt)?;
    let (aw, _, _) = *tys.first()?;
    // A bitcast may change the lane count (`<4 x i16>` to `double`).
    if op == Op::Bitcast {
        return bitcast(&vals[0], aw, rw, rn).and_then(|v| shaped(m, rt, v));
    }
    if vals.iter().any(|v| v.len() != rn && v.len() != 1) {
        return None;
    }
    let lane = |n: usize, i: usize| match vals.get(n) {
        Some(v) if v.len() == 1 => v[0],
        Some(v) => v.get(i).copied().unwrap_or(0),
        None => 0,
    };
    let mut res = Vec::with_capacity(rn);
    for i in 0..rn {
        let x = [lane(0, i), lane(1, i), lane(2, i)];
        res.push(integer_lane(op, x, aw, rw).or_else(|| float_lane(op, x[0], x[1], aw, rw))?);
    }
    shaped(m, rt, res)
}

/// One lane of an integer, logical, comparison, select or integer
/// conversion operation: operands `x` of width `aw`, a result of width
/// `rw`.
fn integer_lane(op: Op, x: [u64; 3], aw: u32, rw: u32) -> Option<u64> {
    use Op::*;
    let [a, b, _] = x;
    let m_r = mask(rw);
    let (sa, sb) = (sext(a, aw), sext(b, aw));
    Some(match op {
        IAdd => a.wrapping_add(b) & m_r,
        ISub => a.wrapping_sub(b) & m_r,
        IMul => a.wrapping_mul(b) & m_r,
        UDiv => a.checked_div(b).unwrap_or(0) & m_r,
        SDiv => (if sb == 0 { 0 } else { sa.wrapping_div(sb) }) as u64 & m_r,
        UMod => a.checked_rem(b).unwrap_or(0) & m_r,
        SRem => (if sb == 0 { 0 } else { sa.wrapping_rem(sb) }) as u64 & m_r,
        SMod => {
            let r = if sb == 0 { 0 } else { sa.wrapping_rem(sb) };
            (if r != 0 && ((r < 0) != (sb < 0)) {
                r.wrapping_add(sb)
            } else {
                r
            }) as u64
                & m_r
        }
        ShiftLeftLogical => (if b >= u64::from(rw) { 0 } else { a << b }) & m_r,
        ShiftRightLogical => (if b >= u64::from(rw) { 0 } else { a >> b }) & m_r,
        ShiftRightArithmetic => {
            let s = b.min(u64::from(rw).saturating_sub(1));
            (sa >> s) as u64 & m_r
        }
        BitwiseOr => a | b,
        BitwiseXor => a ^ b,
        BitwiseAnd => a & b,
        Not => !a & m_r,
        SNegate => a.wrapping_neg() & m_r,
        LogicalOr => u64::from(a != 0 || b != 0),
        LogicalAnd => u64::from(a != 0 && b != 0),
        LogicalNot => u64::from(a == 0),
        LogicalEqual => u64::from((a != 0) == (b != 0)),
        LogicalNotEqual => u64::from((a != 0) != (b != 0)),
        IEqual => u64::from(a == b),
        INotEqual => u64::from(a != b),
        ULessThan => u64::from(a < b),
        UGreaterThan => u64::from(a > b),
        ULessThanEqual => u64::from(a <= b),
        UGreaterThanEqual => u64::from(a >= b),
        SLessThan => u64::from(sa < sb),
        SGreaterThan => u64::from(sa > sb),
        SLessThanEqual => u64::from(sa <= sb),
        SGreaterThanEqual => u64::from(sa >= sb),
        Select => {
            if a != 0 {
                x[1]
            } else {
                x[2]
            }
        }
        UConvert => a & m_r,
        SConvert => sa as u64 & m_r,
        _ => return None,
    })
}

/// One lane of a floating-point operation or conversion: operands of
/// width `aw`, a result of width `rw`.
fn float_lane(op: Op, a: u64, b: u64, aw: u32, rw: u32) -> Option<u64> {
    use Op::*;
    let m_r = mask(rw);
    let sa = sext(a, aw);
    Some(match op {
        // Negation flips the sign bit alone (NaN payloads kept), as the
        // lowering's fneg does.
        FNegate => (a ^ 1u64.checked_shl(aw.wrapping_sub(1)).unwrap_or(0)) & m_r,
        // Doubles (an operand or the result 64 bits wide) compute in f64:
        // one rounding to the result's width.
        FConvert | ConvertFToS | ConvertFToU | FAdd | FSub | FMul | FDiv | FRem | FMod if aw == 64 || rw == 64 => {
            let (x, y) = (to_f64(a, aw), to_f64(b, aw));
            match op {
                FConvert => from_f64(x, rw),
                ConvertFToS => (x as i64) as u64 & m_r,
                ConvertFToU => (x as u64) & m_r,
                FAdd => from_f64(x + y, rw),
                FSub => from_f64(x - y, rw),
                FMul => from_f64(x * y, rw),
                FDiv => from_f64(x / y, rw),
                FRem => from_f64(x % y, rw),
                _ => {
                    let r = x % y;
                    from_f64(if r != 0.0 && ((r < 0.0) != (y < 0.0)) { r + y } else { r }, rw)
                }
            }
        }
        ConvertSToF if rw == 64 => (sa as f64).to_bits(),
        ConvertUToF if rw == 64 => (a as f64).to_bits(),
        FConvert => from_f32(to_f32(a, aw), rw),
        ConvertFToS => (to_f32(a, aw) as i64) as u64 & m_r,
        ConvertFToU => (to_f32(a, aw) as u64) & m_r,
        ConvertSToF => from_f32(sa as f32, rw),
        ConvertUToF => from_f32(a as f32, rw),
        FAdd => from_f32(to_f32(a, aw) + to_f32(b, aw), rw),
        FSub => from_f32(to_f32(a, aw) - to_f32(b, aw), rw),
        FMul => from_f32(to_f32(a, aw) * to_f32(b, aw), rw),
        FDiv => from_f32(to_f32(a, aw) / to_f32(b, aw), rw),
        FRem => from_f32(to_f32(a, aw) % to_f32(b, aw), rw),
        FMod => {
            let (x, y) = (to_f32(a, aw), to_f32(b, aw));
            let r = x % y;
            from_f32(if r != 0.0 && ((r < 0.0) != (y < 0.0)) { r + y } else { r }, rw)
        }
        _ => return None,
    })
}

/// Reinterprets lanes of width `aw` as `rn` lanes of width `rw`.
fn bitcast(v: &[u64], aw: u32, rw: u32, rn: usize) -> Option<Vec<u64>> {
    if aw == 0 || rw == 0 || aw > 64 || rw > 64 || !aw.is_multiple_of(8) || !rw.is_multiple_of(8) {
        return None;
    }
    let mut bytes = Vec::new();
    for &x in v {
        bytes.extend_from_slice(&x.to_le_bytes()[..(aw / 8) as usize]);
    }
    let step = (rw / 8) as usize;
    if bytes.len() != step * rn {
        return None;
    }
    Some(
        bytes
            .chunks(step)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(b)
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_trip() {
        for h in [0u16, 0x3c00, 0xbc00, 0x7bff, 0x0001, 0x03ff, 0x7c00, 0xfc00, 0x3555] {
            assert_eq!(from_f32(to_f32(u64::from(h), 16), 16), u64::from(h), "{h:#x}");
        }
        assert_eq!(from_f32(1.0, 16), 0x3c00);
        assert_eq!(from_f32(65536.0, 16), 0x7c00);
        assert!(to_f32(0x7e00, 16).is_nan());
    }

    #[test]
    fn sign_extension_and_masks() {
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(mask(64), u64::MAX);
        assert_eq!(mask(16), 0xffff);
        assert_eq!(bitcast(&[1, 2], 32, 64, 1), Some(vec![0x2_0000_0001]));
    }
}
