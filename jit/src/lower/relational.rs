//! Relational and logical instructions on floats and bool vectors: OpAny,
//! OpAll, OpIsNan, OpIsInf, OpIsFinite, OpIsNormal, OpSignBitSet,
//! OpOrdered, OpUnordered, OpLessOrGreater. Results are bools (`i8` 0/1).

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, InstBuilder, MemFlagsData, Value,
};
use spirv::Op;

use super::{types, Lowering, R};

impl Lowering<'_, '_, '_> {
    /// Lowers relational instruction `i`.
    pub(super) fn relational(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let (ty, id) = inst.result();
        let out = types::components(m, ty)?;
        let x = self.get(inst.operand(0))?;
        let v = match inst.op {
            Op::Any | Op::All => {
                let (&first, rest) = x.split_first().ok_or("OpAny/OpAll of an empty vector")?;
                let mut acc = first;
                for &c in rest {
                    acc = if inst.op == Op::Any {
                        self.b.ins().bor(acc, c)
                    } else {
                        self.b.ins().band(acc, c)
                    };
                }
                vec![acc]
            }
            Op::Ordered | Op::Unordered | Op::LessOrGreater => {
                let y = self.get(inst.operand(1))?;
                if x.len() != y.len() {
                    return Err("the operands have different component counts".into());
                }
                let cc = match inst.op {
                    Op::Ordered => FloatCC::Ordered,
                    Op::Unordered => FloatCC::Unordered,
                    _ => FloatCC::OrderedNotEqual,
                };
                x.iter().zip(&y).map(|(&a, &b)| self.b.ins().fcmp(cc, a, b)).collect()
            }
            op => {
                // A half's smallest normal is 2^-14 (its f32 is normal below).
                let half = m.type_of(inst.operand(0)).is_some_and(|t| super::half::is_half(m, t));
                let mut v = Vec::with_capacity(x.len());
                for &c in &x {
                    v.push(self.classify(op, c, half)?);
                }
                v
            }
        };
        if v.len() != out.len() {
            return Err("the result has the wrong component count".into());
        }
        self.values.insert(id, v);
        Ok(())
    }

    /// OpIsNan, OpIsInf, OpIsFinite, OpIsNormal or OpSignBitSet of one float
    /// (`half`: an f32 holding a half).
    fn classify(&mut self, op: Op, x: Value, half: bool) -> R<Value> {
        let t = self.b.func.dfg.value_type(x);
        let (inf, min_normal, it) = match t {
            cl::F32 if half => (
                u64::from(f32::INFINITY.to_bits()),
                u64::from(2f32.powi(-14).to_bits()),
                cl::I32,
            ),
            cl::F32 => (
                u64::from(f32::INFINITY.to_bits()),
                u64::from(f32::MIN_POSITIVE.to_bits()),
                cl::I32,
            ),
            cl::F64 => (f64::INFINITY.to_bits(), f64::MIN_POSITIVE.to_bits(), cl::I64),
            _ => return Err(format!("{op:?} of a non-float")),
        };
        Ok(match op {
            Op::IsNan => self.b.ins().fcmp(FloatCC::Unordered, x, x),
            Op::IsInf | Op::IsFinite | Op::IsNormal => {
                let a = self.b.ins().fabs(x);
                let inf = self.bits(t, inf);
                match op {
                    Op::IsInf => self.b.ins().fcmp(FloatCC::Equal, a, inf),
                    Op::IsFinite => self.b.ins().fcmp(FloatCC::LessThan, a, inf),
                    _ => {
                        let mn = self.bits(t, min_normal);
                        let ge = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, a, mn);
                        let lt = self.b.ins().fcmp(FloatCC::LessThan, a, inf);
                        self.b.ins().band(ge, lt)
                    }
                }
            }
            Op::SignBitSet => {
                let bits = self.b.ins().bitcast(it, MemFlagsData::new(), x);
                self.b.ins().icmp_imm_s(IntCC::SignedLessThan, bits, 0)
            }
            _ => return Err(format!("{op:?} is not a relational instruction")),
        })
    }
}
