//! Built-in variables (OpenCL SPIR-V environment, "Built-in Variables"),
//! computed when loaded from the work-group's
//! [`WorkGroupCtx`](crate::launch_abi::WorkGroupCtx) and the work-item's
//! local id:
//! - GlobalInvocationId = group_id * enqueued_local_size + local_id +
//!   global_offset (the context's fields are loaded once per group, and
//!   the optimiser hoists what does not depend on the local id)
//! - GlobalLinearId = ((gid2 - off2) * gsz1 + (gid1 - off1)) * gsz0 + (gid0 - off0)
//! - LocalInvocationIndex = (lid2 * lsz1 + lid1) * lsz0 + lid0
//! - the sizes, offsets and ids are fields of the context;
//! - a dimension index past the last (an out-of-range constant index
//!   clang leaves in an OpCompositeExtract of the loaded vector, or a run-time
//!   one in an OpVectorExtractDynamic) reads the OpenCL C default,
//!   [`past_last_dimension`]: 1 for sizes and counts, 0 for ids and offsets;
//! - sub-groups ([`crate::sub_group`]: runs of `SIZE` consecutive local
//!   linear ids): SubgroupId = LocalInvocationIndex / SIZE,
//!   SubgroupLocalInvocationId = LocalInvocationIndex % SIZE, SubgroupSize
//!   = min(SIZE, n - SubgroupId * SIZE) for a group of n work-items,
//!   SubgroupMaxSize = min(SIZE, enqueued group's n), NumSubgroups and
//!   NumEnqueuedSubgroups = ceil(n / SIZE) of the group and of the
//!   enqueued group; the masks SubgroupEqMask ... SubgroupLtMask
//!   (`uint4`) have the bits of the sub-group's local ids equal to, at or
//!   above, above, at or below, below the work-item's.

use cranelift_codegen::ir::{types as cl, InstBuilder, Value};
use spirv::BuiltIn;

use super::{types, Lowering, R};
use crate::launch_abi::ctx_offset;
use crate::spirv::Id;
use crate::sub_group::SIZE as SUB_GROUP;

const _: () = assert!(SUB_GROUP.is_power_of_two());

/// What the work-item function reading built-in `b` returns for a
/// dimension index past the last (OpenCL C "Work-Item Functions": "For
/// other values of dimindx", 1 for get_global_size, get_local_size,
/// get_enqueued_local_size and get_num_groups; 0 for get_global_id,
/// get_local_id, get_group_id and get_global_offset); None for built-ins
/// that are not per dimension.
pub(crate) fn past_last_dimension(b: BuiltIn) -> Option<u64> {
    match b {
        BuiltIn::GlobalSize | BuiltIn::WorkgroupSize | BuiltIn::EnqueuedWorkgroupSize | BuiltIn::NumWorkgroups => {
            Some(1)
        }
        BuiltIn::GlobalInvocationId | BuiltIn::LocalInvocationId | BuiltIn::WorkgroupId | BuiltIn::GlobalOffset => {
            Some(0)
        }
        _ => None,
    }
}

impl Lowering<'_, '_, '_> {
    /// Loads `field[d]` (a `[u64; 3]` of the context at byte offset `field`).
    fn ctx_dim(&mut self, field: i32, d: usize) -> Value {
        self.ctx_word(field + 8 * d as i32)
    }

    /// The product of `field[0..3]`.
    fn ctx_volume(&mut self, field: i32) -> Value {
        let a = self.ctx_dim(field, 0);
        let b = self.ctx_dim(field, 1);
        let c = self.ctx_dim(field, 2);
        let ab = self.b.ins().imul(a, b);
        self.b.ins().imul(ab, c)
    }

    /// (group_id * enqueued_local_size + local_id) of dimension `d`: the
    /// global id without the offset.
    fn global_unoffset(&mut self, d: usize) -> Value {
        let g = self.ctx_dim(ctx_offset::GROUP_ID, d);
        let e = self.ctx_dim(ctx_offset::ENQUEUED_LOCAL_SIZE, d);
        let ge = self.b.ins().imul(g, e);
        self.b.ins().iadd(ge, self.wi.local_id[d])
    }

    /// The value of built-in `b` loaded as type `ty`.
    pub(super) fn builtin(&mut self, b: BuiltIn, ty: Id) -> R<Vec<Value>> {
        let per_dim =
            |l: &mut Self, f: &dyn Fn(&mut Self, usize) -> Value| -> Vec<Value> { (0..3).map(|d| f(l, d)).collect() };
        let raw: Vec<Value> = match b {
            BuiltIn::LocalInvocationId => self.wi.local_id.to_vec(),
            BuiltIn::WorkgroupId => per_dim(self, &|l, d| l.ctx_dim(ctx_offset::GROUP_ID, d)),
            BuiltIn::GlobalSize => per_dim(self, &|l, d| l.ctx_dim(ctx_offset::GLOBAL_SIZE, d)),
            BuiltIn::WorkgroupSize => per_dim(self, &|l, d| l.ctx_dim(ctx_offset::LOCAL_SIZE, d)),
            BuiltIn::EnqueuedWorkgroupSize => per_dim(self, &|l, d| l.ctx_dim(ctx_offset::ENQUEUED_LOCAL_SIZE, d)),
            BuiltIn::NumWorkgroups => per_dim(self, &|l, d| l.ctx_dim(ctx_offset::NUM_GROUPS, d)),
            BuiltIn::GlobalOffset => per_dim(self, &|l, d| l.ctx_dim(ctx_offset::GLOBAL_OFFSET, d)),
            BuiltIn::GlobalInvocationId => per_dim(self, &|l, d| {
                let g = l.global_unoffset(d);
                let o = l.ctx_dim(ctx_offset::GLOBAL_OFFSET, d);
                l.b.ins().iadd(g, o)
            }),
            BuiltIn::WorkDim => {
                // work_dim is the low half of the context's first word.
                const _: () = assert!(ctx_offset::WORK_DIM == 0 && cfg!(target_endian = "little"));
                let w = self.ctx_word(0);
                vec![self.b.ins().ireduce(cl::I32, w)]
            }
            BuiltIn::SubgroupSize => {
                let span = self.span(true);
                vec![span.count]
            }
            BuiltIn::SubgroupMaxSize => vec![self.max_sub_group_size()],
            BuiltIn::NumSubgroups | BuiltIn::NumEnqueuedSubgroups => {
                let field = if b == BuiltIn::NumSubgroups {
                    ctx_offset::LOCAL_SIZE
                } else {
                    ctx_offset::ENQUEUED_LOCAL_SIZE
                };
                let n = self.ctx_volume(field);
                let n = self.b.ins().iadd_imm_s(n, SUB_GROUP as i64 - 1);
                vec![self.b.ins().ushr_imm_u(n, i64::from(SUB_GROUP.trailing_zeros()))]
            }
            BuiltIn::SubgroupId => {
                let lin = self.local_linear();
                vec![self.b.ins().ushr_imm_u(lin, i64::from(SUB_GROUP.trailing_zeros()))]
            }
            BuiltIn::SubgroupLocalInvocationId => {
                let lin = self.local_linear();
                vec![self.b.ins().band_imm_s(lin, SUB_GROUP as i64 - 1)]
            }
            BuiltIn::SubgroupEqMask
            | BuiltIn::SubgroupGeMask
            | BuiltIn::SubgroupGtMask
            | BuiltIn::SubgroupLeMask
            | BuiltIn::SubgroupLtMask => self.sub_group_mask(b)?,
            BuiltIn::LocalInvocationIndex => vec![self.local_linear()],
            BuiltIn::GlobalLinearId => {
                let g: Vec<Value> = (0..3).map(|d| self.global_unoffset(d)).collect();
                let s1 = self.ctx_dim(ctx_offset::GLOBAL_SIZE, 1);
                let s0 = self.ctx_dim(ctx_offset::GLOBAL_SIZE, 0);
                vec![self.linear(g[2], g[1], g[0], s1, s0)]
            }
            other => {
                return Err(format!(
                    "built-in variable {other:?} is not supported by code generation yet"
                ))
            }
        };
        // Fit the values to the loaded type (size_t is 64 bits under
        // Physical64; a scalar load of a vector built-in reads component 0).
        let comps = types::components(self.m, ty)?;
        if comps.len() > raw.len() {
            return Err(format!("built-in {b:?} loaded as {}", self.m.show_type(ty)));
        }
        Ok(comps
            .into_iter()
            .zip(raw)
            .map(|(t, v)| {
                let vt = self.b.func.dfg.value_type(v);
                if vt == t {
                    v
                } else if vt.bits() > t.bits() {
                    self.b.ins().ireduce(t, v)
                } else {
                    self.b.ins().uextend(t, v)
                }
            })
            .collect())
    }

    /// The largest sub-group of the dispatch, as `i64`: min(SIZE, the
    /// enqueued work-group's work-items).
    pub(super) fn max_sub_group_size(&mut self) -> Value {
        let n = self.ctx_volume(ctx_offset::ENQUEUED_LOCAL_SIZE);
        let size = self.b.ins().iconst(cl::I64, SUB_GROUP as i64);
        self.b.ins().umin(n, size)
    }

    /// (a * sb + b) * sc + c.
    fn linear(&mut self, a: Value, b: Value, c: Value, sb: Value, sc: Value) -> Value {
        let x = self.b.ins().imul(a, sb);
        let x = self.b.ins().iadd(x, b);
        let x = self.b.ins().imul(x, sc);
        self.b.ins().iadd(x, c)
    }
}
