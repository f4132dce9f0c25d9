//! Value instructions: integer and float arithmetic, comparisons, logic,
//! select, conversions, bitcasts, vector composites and the OpenCL.std
//! extended instructions clbench's simple kernels use. All work component by
//! component on scalarized values ([`super::types`]).
//!
//! Where Cranelift would trap and OpenCL only says "undefined" (integer
//! division by zero, `INT_MIN / -1`, float-to-int conversions out of range),
//! the lowering picks a value instead: the divisor becomes 1, and
//! conversions saturate.

use cranelift_codegen::ir::{condcodes::FloatCC, condcodes::IntCC, types as cl, InstBuilder, MemFlagsData, Value};
use spirv::{Op, OpenclStd100Op as Cl};

use super::{types, Lowering, R};

impl Lowering<'_, '_, '_> {
    pub(super) fn arith(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let unsupported = || format!("{} is not supported by code generation yet", inst.opname());
        let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
            return Err(unsupported());
        };
        let out = types::components(m, ty)?;
        let a = |k: usize| inst.id(k).ok_or_else(|| format!("missing operand {k}"));
        let v = match inst.op {
            Op::CompositeExtract => {
                let src = self.get(a(0)?)?;
                if inst.operands.len() != 2 {
                    return Err("OpCompositeExtract of nested composites is not supported yet".into());
                }
                let k = inst.lit(1).ok_or("missing index")? as usize;
                vec![*src.get(k).ok_or("index out of range")?]
            }
            Op::CompositeInsert => {
                let obj = self.get1(a(0)?)?;
                let mut src = self.get(a(1)?)?;
                if inst.operands.len() != 3 {
                    return Err("OpCompositeInsert into nested composites is not supported yet".into());
                }
                let k = inst.lit(2).ok_or("missing index")? as usize;
                *src.get_mut(k).ok_or("index out of range")? = obj;
                src
            }
            Op::CompositeConstruct => {
                let mut v = Vec::with_capacity(out.len());
                for k in 0..inst.operands.len() {
                    v.extend(self.get(a(k)?)?);
                }
                if v.len() != out.len() {
                    return Err("OpCompositeConstruct of a struct or array is not supported yet".into());
                }
                v
            }
            Op::VectorShuffle => {
                let mut both = self.get(a(0)?)?;
                both.extend(self.get(a(1)?)?);
                let mut v = Vec::with_capacity(out.len());
                for (k, &t) in out.iter().enumerate() {
                    let sel = inst.lit(2 + k).ok_or("missing component")? as usize;
                    v.push(match both.get(sel) {
                        Some(&x) => x,
                        None => self.zero(t),
                    });
                }
                v
            }
            Op::CopyObject => self.get(a(0)?)?,
            Op::Select => {
                let c = self.get(a(0)?)?;
                let x = self.get(a(1)?)?;
                let y = self.get(a(2)?)?;
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
                let x = self.get(a(0)?)?;
                if inst.operands.len() >= 2 {
                    let y = self.get(a(1)?)?;
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
    fn binary(&mut self, op: Op, x: Value, y: Value) -> Option<Value> {
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
            Op::SDiv | Op::SRem => {
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
                    self.b.ins().select(m1, z, r)
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
            Op::FNegate => self.b.ins().fneg(x),
            Op::LogicalNot => self.b.ins().icmp_imm_s(IntCC::Equal, x, 0),
            Op::IsNan => self.b.ins().fcmp(FloatCC::Unordered, x, x),
            Op::UConvert | Op::ConvertPtrToU | Op::ConvertUToPtr => self.resize(x, t, false),
            Op::SConvert => self.resize(x, t, true),
            Op::ConvertUToF => {
                let w = if xt.bits() < 32 {
                    self.resize(x, cl::I32, false)
                } else {
                    x
                };
                self.b.ins().fcvt_from_uint(t, w)
            }
            Op::ConvertSToF => {
                let w = if xt.bits() < 32 {
                    self.resize(x, cl::I32, true)
                } else {
                    x
                };
                self.b.ins().fcvt_from_sint(t, w)
            }
            Op::ConvertFToU | Op::ConvertFToS => {
                let wide = if t.bits() < 32 { cl::I32 } else { t };
                let signed = op == Op::ConvertFToS;
                let v = if signed {
                    self.b.ins().fcvt_to_sint_sat(wide, x)
                } else {
                    self.b.ins().fcvt_to_uint_sat(wide, x)
                };
                self.resize(v, t, signed)
            }
            Op::FConvert => match (xt, t) {
                (a, b) if a == b => x,
                (cl::F32, cl::F64) => self.b.ins().fpromote(t, x),
                (cl::F64, cl::F32) => self.b.ins().fdemote(t, x),
                _ => return None,
            },
            Op::Bitcast | Op::PtrCastToGeneric | Op::GenericCastToPtr => {
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
    fn resize(&mut self, x: Value, t: cl::Type, signed: bool) -> Value {
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

    /// OpExtInst of OpenCL.std (the only set the front end accepts).
    fn ext_inst(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
            return Err("OpExtInst without a result".into());
        };
        let n = inst.lit(1).ok_or("missing instruction number")?;
        let op = Cl::from_u32(n).ok_or_else(|| format!("unknown OpenCL.std instruction {n}"))?;
        if !matches!(
            op,
            Cl::mad
                | Cl::fma
                | Cl::fabs
                | Cl::sqrt
                | Cl::floor
                | Cl::ceil
                | Cl::trunc
                | Cl::rint
                | Cl::s_min
                | Cl::s_max
                | Cl::u_min
                | Cl::u_max
        ) {
            return Err(format!("OpenCL.std {op:?} is not supported by code generation yet"));
        }
        let out = types::components(m, ty)?;
        let mut args = Vec::new();
        for k in 2..inst.operands.len() {
            args.push(self.get(inst.id(k).ok_or("bad operand")?)?);
        }
        let arg = |j: usize, k: usize| -> R<Value> {
            args.get(j)
                .and_then(|a| a.get(k))
                .copied()
                .ok_or_else(|| format!("OpenCL.std {op:?}: missing operand {j}"))
        };
        let mut v = Vec::with_capacity(out.len());
        for k in 0..out.len() {
            let x = arg(0, k)?;
            let ins = self.b.ins();
            v.push(match op {
                Cl::mad | Cl::fma => ins.fma(x, arg(1, k)?, arg(2, k)?),
                Cl::fabs => ins.fabs(x),
                Cl::sqrt => ins.sqrt(x),
                Cl::floor => ins.floor(x),
                Cl::ceil => ins.ceil(x),
                Cl::trunc => ins.trunc(x),
                Cl::rint => ins.nearest(x),
                Cl::s_min => ins.smin(x, arg(1, k)?),
                Cl::s_max => ins.smax(x, arg(1, k)?),
                Cl::u_min => ins.umin(x, arg(1, k)?),
                Cl::u_max => ins.umax(x, arg(1, k)?),
                _ => return Err(format!("OpenCL.std {op:?} is not supported by code generation yet")),
            });
        }
        self.values.insert(id, v);
        Ok(())
    }
}

/// Whether `op` is one of the component-wise instructions of
/// `Lowering::binary` and `Lowering::unary`.
fn elementwise(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        IAdd | ISub
            | IMul
            | UDiv
            | UMod
            | SDiv
            | SRem
            | ShiftLeftLogical
            | ShiftRightLogical
            | ShiftRightArithmetic
            | BitwiseAnd
            | BitwiseOr
            | BitwiseXor
            | LogicalAnd
            | LogicalOr
            | LogicalEqual
            | LogicalNotEqual
            | FAdd
            | FSub
            | FMul
            | FDiv
            | IEqual
            | INotEqual
            | UGreaterThan
            | UGreaterThanEqual
            | ULessThan
            | ULessThanEqual
            | SGreaterThan
            | SGreaterThanEqual
            | SLessThan
            | SLessThanEqual
            | FOrdEqual
            | FOrdNotEqual
            | FOrdLessThan
            | FOrdLessThanEqual
            | FOrdGreaterThan
            | FOrdGreaterThanEqual
            | FUnordEqual
            | FUnordNotEqual
            | FUnordLessThan
            | FUnordLessThanEqual
            | FUnordGreaterThan
            | FUnordGreaterThanEqual
            | SNegate
            | Not
            | FNegate
            | LogicalNot
            | IsNan
            | UConvert
            | SConvert
            | ConvertPtrToU
            | ConvertUToPtr
            | ConvertUToF
            | ConvertSToF
            | ConvertFToU
            | ConvertFToS
            | FConvert
            | Bitcast
            | PtrCastToGeneric
            | GenericCastToPtr
    )
}
