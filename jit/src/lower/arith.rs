//! Value instructions: integer and float arithmetic, comparisons, logic,
//! select and vector shuffles; this file dispatches the OpenCL.std
//! extended instructions to [`super::ext_inst`], conversions to
//! [`super::convert`], the relational instructions to [`super::relational`]
//! and the vector ones to [`super::vector`]. All work component by
//! component on scalarized values ([`super::types`]).
//!
//! - Shifts: Cranelift takes the count modulo the width of the shifted
//!   type (8 and 16 bits included), which is OpenCL C's rule.
//! - OpSMod and OpFMod are the remainder moved by the divisor when its sign
//!   differs from the divisor's; OpFRem (C's `fmod`) calls
//!   `clift_builtins::frem`, Cranelift having no float remainder.
//! - OpIAddCarry, OpISubBorrow, OpUMulExtended and OpSMulExtended produce a
//!   two-member struct: the components of member 0, then those of member 1
//!   (the flattening of [`super::types`]).
//!
//! Where Cranelift would trap and OpenCL only says "undefined" (integer
//! division by zero, `INT_MIN / -1`, float-to-int conversions out of range),
//! the lowering picks a value instead: the divisor becomes 1, and
//! conversions saturate.

use cranelift_codegen::ir::{condcodes::FloatCC, condcodes::IntCC, types as cl, InstBuilder, MemFlagsData, Value};
use spirv::Op;

use super::{types, Lowering, R};
use crate::spirv::opsets;

impl Lowering<'_, '_, '_> {
    pub(super) fn arith(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let unsupported = || format!("{} is not supported by code generation yet", inst.opname());
        let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
            return Err(unsupported());
        };
        match inst.op {
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => return self.extended(i),
            Op::ConvertFToU
            | Op::ConvertFToS
            | Op::ConvertSToF
            | Op::ConvertUToF
            | Op::UConvert
            | Op::SConvert
            | Op::FConvert
            | Op::SatConvertSToU
            | Op::SatConvertUToS
            | Op::ConvertPtrToU
            | Op::ConvertUToPtr
            | Op::Bitcast => return self.convert(i),
            Op::Any
            | Op::All
            | Op::IsNan
            | Op::IsInf
            | Op::IsFinite
            | Op::IsNormal
            | Op::SignBitSet
            | Op::Ordered
            | Op::Unordered
            | Op::LessOrGreater => return self.relational(i),
            Op::VectorExtractDynamic | Op::VectorInsertDynamic | Op::VectorTimesScalar | Op::Dot => {
                return self.vector(i)
            }
            _ => {}
        }
        let out = types::components(m, ty)?;
        let a = |k: usize| inst.operand(k);
        let v = match inst.op {
            Op::VectorShuffle => {
                let mut both = self.get(a(0))?;
                both.extend(self.get(a(1))?);
                let mut v = Vec::with_capacity(out.len());
                for (k, &t) in out.iter().enumerate() {
                    let sel = inst.literal(2 + k) as usize;
                    v.push(match both.get(sel) {
                        Some(&x) => x,
                        None => self.zero(t),
                    });
                }
                v
            }
            Op::CopyObject => self.get(a(0))?,
            Op::Select => {
                let c = self.get(a(0))?;
                let x = self.get(a(1))?;
                let y = self.get(a(2))?;
                let mut v = Vec::with_capacity(out.len());
                for k in 0..out.len() {
                    let ck = if c.len() == 1 { c.first() } else { c.get(k) };
                    let (Some(&ck), Some(&xk), Some(&yk)) = (ck, x.get(k), y.get(k)) else {
                        return Err("size mismatch".into());
                    };
                    v.push(self.b.ins().select(ck, xk, yk));
                }
                v
            }
            Op::ExtInst => return self.ext_inst(i),
            op if !elementwise(op) => return Err(unsupported()),
            _ => {
                let x = self.get(a(0))?;
                if inst.operands.len() >= 2 {
                    let y = self.get(a(1))?;
                    let mut v = Vec::with_capacity(out.len());
                    for k in 0..out.len() {
                        let (xk, yk) = (*x.get(k).ok_or("size mismatch")?, *y.get(k).ok_or("size mismatch")?);
                        v.push(self.binary(inst.op, xk, yk).ok_or_else(unsupported)?);
                    }
                    v
                } else {
                    let mut v = Vec::with_capacity(out.len());
                    for (k, &t) in out.iter().enumerate() {
                        let xk = *x.get(k).ok_or("size mismatch")?;
                        v.push(self.unary(inst.op, xk, t).ok_or_else(unsupported)?);
                    }
                    v
                }
            }
        };
        self.values.insert(id, v);
        Ok(())
    }

    /// A two-operand instruction on one component.
    pub(in crate::lower) fn binary(&mut self, op: Op, x: Value, y: Value) -> Option<Value> {
        let icmp = |l: &mut Self, cc: IntCC| l.b.ins().icmp(cc, x, y);
        let fcmp = |l: &mut Self, cc: FloatCC| l.b.ins().fcmp(cc, x, y);
        Some(match op {
            Op::IAdd => self.b.ins().iadd(x, y),
            Op::ISub => self.b.ins().isub(x, y),
            Op::IMul => self.b.ins().imul(x, y),
            Op::UDiv | Op::UMod => {
                let d = self.nonzero(y);
                if op == Op::UDiv {
                    self.b.ins().udiv(x, d)
                } else {
                    self.b.ins().urem(x, d)
                }
            }
            Op::SDiv | Op::SRem | Op::SMod => {
                // y == 0 and y == -1 divide by 1 instead; x / -1 is -x and
                // x % -1 is 0 (wrapping, as INT_MIN / -1 would).
                let t = self.b.func.dfg.value_type(y);
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
                let m1 = self.b.ins().icmp_imm_s(IntCC::Equal, y, -1);
                let bad = self.b.ins().bor(zero, m1);
                let one = self.b.ins().iconst(t, 1);
                let d = self.b.ins().select(bad, one, y);
                if op == Op::SDiv {
                    let q = self.b.ins().sdiv(x, d);
                    let neg = self.b.ins().ineg(x);
                    self.b.ins().select(m1, neg, q)
                } else {
                    let r = self.b.ins().srem(x, d);
                    let z = self.b.ins().iconst(t, 0);
                    let r = self.b.ins().select(m1, z, r);
                    if op == Op::SRem {
                        r
                    } else {
                        // OpSMod takes the sign of the divisor: a nonzero
                        // remainder of the other sign moves by y.
                        let nz = self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0);
                        let xor = self.b.ins().bxor(r, y);
                        let differ = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, xor, 0);
                        let fix = self.b.ins().band(nz, differ);
                        let ry = self.b.ins().iadd(r, y);
                        self.b.ins().select(fix, ry, r)
                    }
                }
            }
            Op::ShiftLeftLogical => self.b.ins().ishl(x, y),
            Op::ShiftRightLogical => self.b.ins().ushr(x, y),
            Op::ShiftRightArithmetic => self.b.ins().sshr(x, y),
            Op::BitwiseAnd | Op::LogicalAnd => self.b.ins().band(x, y),
            Op::BitwiseOr | Op::LogicalOr => self.b.ins().bor(x, y),
            Op::BitwiseXor => self.b.ins().bxor(x, y),
            Op::FAdd => self.b.ins().fadd(x, y),
            Op::FSub => self.b.ins().fsub(x, y),
            Op::FMul => self.b.ins().fmul(x, y),
            Op::FDiv => self.b.ins().fdiv(x, y),
            Op::FRem => self.frem(x, y)?,
            Op::FMod => {
                // The sign of the divisor: a nonzero remainder of the other
                // sign moves by y.
                let r = self.frem(x, y)?;
                let t = self.b.func.dfg.value_type(r);
                let it = if t == cl::F32 { cl::I32 } else { cl::I64 };
                let zero = self.zero(t);
                let nz = self.b.ins().fcmp(FloatCC::OrderedNotEqual, r, zero);
                let rb = self.b.ins().bitcast(it, MemFlagsData::new(), r);
                let yb = self.b.ins().bitcast(it, MemFlagsData::new(), y);
                let xor = self.b.ins().bxor(rb, yb);
                let differ = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, xor, 0);
                let fix = self.b.ins().band(nz, differ);
                let ry = self.b.ins().fadd(r, y);
                self.b.ins().select(fix, ry, r)
            }
            Op::IEqual | Op::LogicalEqual => icmp(self, IntCC::Equal),
            Op::INotEqual | Op::LogicalNotEqual => icmp(self, IntCC::NotEqual),
            Op::UGreaterThan => icmp(self, IntCC::UnsignedGreaterThan),
            Op::UGreaterThanEqual => icmp(self, IntCC::UnsignedGreaterThanOrEqual),
            Op::ULessThan => icmp(self, IntCC::UnsignedLessThan),
            Op::ULessThanEqual => icmp(self, IntCC::UnsignedLessThanOrEqual),
            Op::SGreaterThan => icmp(self, IntCC::SignedGreaterThan),
            Op::SGreaterThanEqual => icmp(self, IntCC::SignedGreaterThanOrEqual),
            Op::SLessThan => icmp(self, IntCC::SignedLessThan),
            Op::SLessThanEqual => icmp(self, IntCC::SignedLessThanOrEqual),
            Op::FOrdEqual => fcmp(self, FloatCC::Equal),
            Op::FOrdNotEqual => fcmp(self, FloatCC::OrderedNotEqual),
            Op::FOrdLessThan => fcmp(self, FloatCC::LessThan),
            Op::FOrdLessThanEqual => fcmp(self, FloatCC::LessThanOrEqual),
            Op::FOrdGreaterThan => fcmp(self, FloatCC::GreaterThan),
            Op::FOrdGreaterThanEqual => fcmp(self, FloatCC::GreaterThanOrEqual),
            Op::FUnordEqual => fcmp(self, FloatCC::UnorderedOrEqual),
            Op::FUnordNotEqual => fcmp(self, FloatCC::NotEqual),
            Op::FUnordLessThan => fcmp(self, FloatCC::UnorderedOrLessThan),
            Op::FUnordLessThanEqual => fcmp(self, FloatCC::UnorderedOrLessThanOrEqual),
            Op::FUnordGreaterThan => fcmp(self, FloatCC::UnorderedOrGreaterThan),
            Op::FUnordGreaterThanEqual => fcmp(self, FloatCC::UnorderedOrGreaterThanOrEqual),
            _ => return None,
        })
    }

    /// OpFRem of one component: C's `fmod`, through the helper of
    /// `clift_builtins::frem` (Cranelift has no remainder instruction).
    fn frem(&mut self, x: Value, y: Value) -> Option<Value> {
        let t = self.b.func.dfg.value_type(x);
        let addr = match t {
            cl::F32 => clift_builtins::frem::clift_frem_f32 as extern "C" fn(f32, f32) -> f32 as usize,
            cl::F64 => clift_builtins::frem::clift_frem_f64 as extern "C" fn(f64, f64) -> f64 as usize,
            _ => return None,
        };
        self.call_host(addr, &[t, t], &[t], &[x, y]).first().copied()
    }

    /// OpIAddCarry, OpISubBorrow, OpUMulExtended and OpSMulExtended: the
    /// result is a struct of two members of the operands' type, as the
    /// components of the first member then those of the second.
    fn extended(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let id = inst.result_id();
        let x = self.get(inst.operand(0))?;
        let y = self.get(inst.operand(1))?;
        if x.len() != y.len() {
            return Err("the operands have different component counts".into());
        }
        let mut lo = Vec::with_capacity(x.len());
        let mut hi = Vec::with_capacity(x.len());
        for (&a, &b) in x.iter().zip(&y) {
            let t = self.b.func.dfg.value_type(a);
            if !t.is_int() {
                return Err("an integer instruction on non-integers".into());
            }
            let (l, h) = match inst.op {
                Op::IAddCarry => {
                    let s = self.b.ins().iadd(a, b);
                    let c = self.b.ins().icmp(IntCC::UnsignedLessThan, s, a);
                    (s, self.resize(c, t, false))
                }
                Op::ISubBorrow => {
                    let d = self.b.ins().isub(a, b);
                    let c = self.b.ins().icmp(IntCC::UnsignedLessThan, a, b);
                    (d, self.resize(c, t, false))
                }
                op => {
                    let signed = op == Op::SMulExtended;
                    let l = self.b.ins().imul(a, b);
                    let h = if t == cl::I64 {
                        if signed {
                            self.b.ins().smulhi(a, b)
                        } else {
                            self.b.ins().umulhi(a, b)
                        }
                    } else {
                        // The full product fits in twice the width.
                        let w = t.double_width().ok_or("no double-width type")?;
                        let (ea, eb) = (self.resize(a, w, signed), self.resize(b, w, signed));
                        let p = self.b.ins().imul(ea, eb);
                        let p = self.b.ins().ushr_imm_u(p, i64::from(t.bits()));
                        self.b.ins().ireduce(t, p)
                    };
                    (l, h)
                }
            };
            lo.push(l);
            hi.push(h);
        }
        lo.extend(hi);
        self.values.insert(id, lo);
        Ok(())
    }

    /// `y`, or 1 where `y` is 0.
    fn nonzero(&mut self, y: Value) -> Value {
        let t = self.b.func.dfg.value_type(y);
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
        let one = self.b.ins().iconst(t, 1);
        self.b.ins().select(zero, one, y)
    }

    /// A one-operand instruction (negations, conversions, bitcasts) on one
    /// component, producing Cranelift type `t`.
    fn unary(&mut self, op: Op, x: Value, t: cl::Type) -> Option<Value> {
        let xt = self.b.func.dfg.value_type(x);
        Some(match op {
            Op::SNegate => self.b.ins().ineg(x),
            Op::Not => self.b.ins().bnot(x),
            Op::FNegate => self.negate_float(x),
            Op::LogicalNot => self.b.ins().icmp_imm_s(IntCC::Equal, x, 0),
            Op::BitCount => {
                let c = self.b.ins().popcnt(x);
                self.resize(c, t, false)
            }
            Op::PtrCastToGeneric | Op::GenericCastToPtr => {
                if xt == t {
                    x
                } else if xt.bits() == t.bits() {
                    self.b.ins().bitcast(t, MemFlagsData::new(), x)
                } else {
                    return None;
                }
            }
            _ => return None,
        })
    }

    /// Integer `x` zero- or sign-extended or truncated to type `t`.
    pub(super) fn resize(&mut self, x: Value, t: cl::Type, signed: bool) -> Value {
        let xt = self.b.func.dfg.value_type(x);
        if xt == t {
            x
        } else if xt.bits() > t.bits() {
            self.b.ins().ireduce(t, x)
        } else if signed {
            self.b.ins().sextend(t, x)
        } else {
            self.b.ins().uextend(t, x)
        }
    }

    /// OpExtInst of OpenCL.std: see [`super::ext_inst`].
    fn ext_inst(&mut self, i: u32) -> R {
        self.opencl_std(i)
    }
}

/// Whether `op` is one of the component-wise instructions of
/// `Lowering::binary` and `Lowering::unary`.
fn elementwise(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        SNegate
            | Not
            | FNegate
            | LogicalNot
            | BitCount
            | PtrCastToGeneric
            | GenericCastToPtr
            | opsets::float_arith!()
            | opsets::logical!()
            | opsets::int_compare!()
            | opsets::float_compare!()
            | opsets::int_arith!()
            | opsets::bitwise!()
            | opsets::shifts!()
    )
}
