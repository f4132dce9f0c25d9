//! Composites as values: OpCompositeExtract, OpCompositeInsert and
//! OpCompositeConstruct over vectors, structs and arrays (flattened into
//! their scalar components, [`super::types`]), with index paths; constant
//! structs and arrays (OpConstantComposite, OpSpecConstantComposite) and
//! constant pointer expressions (OpSpecConstantOp access chains and casts
//! over module-scope variables, [`crate::globals::pointer_parts`]). An
//! index past the last component of a loaded built-in vector reads the
//! work-item function's default ([`builtins::past_last_dimension`]).

use cranelift_codegen::ir::{types as cl, InstBuilder, Value};
use spirv::Op;

use super::{builtins, types, Lowering, R};
use crate::globals::{pointer_parts, Root};
use crate::spirv::Id;
use crate::validate::Checked;

impl Lowering<'_, '_, '_> {
    pub(super) fn composite(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let (ty, id) = inst.result();
        let a = |k: usize| inst.operand(k);
        let v = match inst.op {
            Op::CompositeExtract => {
                let src_id = a(0);
                let src = self.get(src_id)?;
                let src_ty = self.type_of(src_id);
                let past_last = m.loaded_builtin(src_id).and_then(builtins::past_last_dimension);
                match (past_last, inst.lit(1)) {
                    // A work-item function's dimension index past the last.
                    (Some(v), Some(d)) if inst.operands.len() == 2 && d as usize >= src.len() => {
                        let t = types::scalar(m, ty)?;
                        vec![self.b.ins().iconst(t, v as i64)]
                    }
                    _ => {
                        let (start, len) = self.path(src_ty, inst, 1)?;
                        src.get(start..start + len).ok_or("index out of range")?.to_vec()
                    }
                }
            }
            Op::CompositeInsert => {
                let obj = self.get(a(0))?;
                let comp_id = a(1);
                let mut src = self.get(comp_id)?;
                let comp_ty = self.type_of(comp_id);
                let (start, len) = self.path(comp_ty, inst, 2)?;
                if obj.len() != len {
                    return Err("the object does not match the indexed part".into());
                }
                src.get_mut(start..start + len)
                    .ok_or("index out of range")?
                    .copy_from_slice(&obj);
                src
            }
            Op::CompositeConstruct => {
                let n = types::count(m, ty)?;
                let mut v = Vec::with_capacity(n);
                for k in 0..inst.operands.len() {
                    v.extend(self.get(a(k))?);
                }
                if v.len() != n {
                    return Err("the constituents do not make up the result type".into());
                }
                v
            }
            _ => return Err(format!("{} is not a composite instruction", inst.opname())),
        };
        self.values.insert(id, v);
        Ok(())
    }

    /// The components (first, count) of a value of type `ty` that the
    /// literal indices of `inst` from operand `from` select.
    fn path(&self, ty: Id, inst: Checked, from: usize) -> R<(usize, usize)> {
        let m = self.m;
        let (mut start, mut len, mut cur) = (0usize, types::count(m, ty)?, ty);
        for k in from..inst.operands.len() {
            let idx = inst.literal(k);
            let (s, l, t) = types::part(m, cur, idx)?;
            start += s;
            len = l;
            cur = t;
        }
        Ok((start, len))
    }

    /// The components of a struct or array constant made of `parts`.
    pub(super) fn const_composite(&mut self, id: Id, parts: &[Id]) -> R<Vec<Value>> {
        let ty = self.type_of(id);
        let n = types::count(self.m, ty)?;
        let mut v = Vec::with_capacity(n);
        for &p in parts {
            v.extend(self.get(p)?);
        }
        if v.len() != n {
            return Err(format!(
                "the constituents of {} do not make up its type",
                self.m.show(id)
            ));
        }
        Ok(v)
    }

    /// The address a constant pointer expression (OpSpecConstantOp) names.
    pub(super) fn const_expr(&mut self, id: Id) -> R<Vec<Value>> {
        let (root, offset) = pointer_parts(self.m, id)?;
        let ty = self.type_of(id);
        let t = types::scalar(self.m, ty)?;
        let v = match root {
            Root::Absolute => self.b.ins().iconst(cl::I64, offset as i64),
            Root::Variable(g) => {
                let base = self.get1(g)?;
                if offset == 0 {
                    base
                } else {
                    self.b.ins().iadd_imm_s(base, offset as i64)
                }
            }
        };
        // An integer result (OpConvertPtrToU) may be narrower than a pointer.
        Ok(vec![if t.bits() < 64 { self.b.ins().ireduce(t, v) } else { v }])
    }
}
