//! Vector instructions beyond the component-wise ones: OpVectorExtractDynamic
//! and OpVectorInsertDynamic (a select chain over the components; an index
//! out of range reads component 0, or a work-item function's default on a
//! loaded built-in vector, and inserts nowhere, never a crash),
//! OpVectorTimesScalar and OpDot.

use cranelift_codegen::ir::{condcodes::IntCC, InstBuilder};
use spirv::Op;

use super::{builtins, Lowering, R};

impl Lowering<'_, '_, '_> {
    /// Lowers vector instruction `i`.
    pub(super) fn vector(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let id = inst.result_id();
        let a = |k: usize| inst.operand(k);
        let x = self.get(a(0))?;
        let v = match inst.op {
            Op::VectorExtractDynamic => {
                let idx = self.get1(a(1))?;
                let (&first, _) = x.split_first().ok_or("an empty vector")?;
                // A work-item function's dimension index past the last
                // reads its default; any other vector, component 0.
                let (mut r, from) = match m.loaded_builtin(a(0)).and_then(builtins::past_last_dimension) {
                    Some(v) => {
                        let t = self.b.func.dfg.value_type(first);
                        (self.b.ins().iconst(t, v as i64), 0)
                    }
                    None => (first, 1),
                };
                for (k, &c) in x.iter().enumerate().skip(from) {
                    let hit = self.b.ins().icmp_imm_s(IntCC::Equal, idx, k as i64);
                    r = self.b.ins().select(hit, c, r);
                }
                vec![r]
            }
            Op::VectorInsertDynamic => {
                let obj = self.get1(a(1))?;
                let idx = self.get1(a(2))?;
                let mut v = Vec::with_capacity(x.len());
                for (k, &c) in x.iter().enumerate() {
                    let hit = self.b.ins().icmp_imm_s(IntCC::Equal, idx, k as i64);
                    v.push(self.b.ins().select(hit, obj, c));
                }
                v
            }
            Op::VectorTimesScalar => {
                let s = self.get1(a(1))?;
                x.iter().map(|&c| self.b.ins().fmul(c, s)).collect()
            }
            Op::Dot => {
                let y = self.get(a(1))?;
                if x.len() != y.len() || x.is_empty() {
                    return Err("OpDot of vectors of different sizes".into());
                }
                let mut acc = self.b.ins().fmul(x[0], y[0]);
                for k in 1..x.len() {
                    let p = self.b.ins().fmul(x[k], y[k]);
                    acc = self.b.ins().fadd(acc, p);
                }
                vec![acc]
            }
            op => return Err(format!("{op:?} is not a vector instruction")),
        };
        self.values.insert(id, v);
        Ok(())
    }
}
