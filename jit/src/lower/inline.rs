//! Inlining OpFunctionCall.
//!
//! llvm-spirv turns every kernel into a wrapper that calls the real kernel
//! function, and clang at -O0 keeps every call, so calls are the rule. A
//! call is lowered by lowering the callee's body right here, with its own
//! id table, its parameters bound to the arguments and its returns jumping
//! to a block whose parameters are the result: no WorkItem on the stack,
//! no call overhead, and the callee's code optimised with the caller's.
//!
//! Functions with barriers are always inlined into kernels (see
//! [`super::barrier`]). Others are inlined while the kernel stays within
//! [`BUDGET`] SPIR-V instructions and calls nest at most [`MAX_DEPTH`]
//! deep; beyond that, a call goes to the callee's separately compiled
//! helper function.

use cranelift_codegen::ir::{BlockArg, InstBuilder, Value};

use super::{types, BodyState, Exit, Lowering, R};
use crate::spirv::IdKind;

/// SPIR-V instructions inlined into one body at most (barrier functions
/// excepted).
pub const BUDGET: u64 = 20_000;

/// Inlined calls nest at most this deep.
pub const MAX_DEPTH: u32 = 48;

/// SPIR-V instructions inlined into one kernel at most, barrier functions
/// included: a chain of functions with barriers each calling the next twice
/// would otherwise be copied exponentially often.
pub const HARD_BUDGET: u64 = 5 * BUDGET;

/// SPIR-V instructions inlined into all the bodies of a module at most
/// (barrier functions excepted): beyond it, calls go to helper functions.
/// Every helper function inlines its own callees, so without it a chain of
/// functions each calling the previous twice would cost the number of
/// functions times [`BUDGET`].
pub const MODULE_BUDGET: u64 = 2 * BUDGET;

/// SPIR-V instructions inlined into all the bodies of a module at most,
/// barrier functions included.
pub const MODULE_HARD_BUDGET: u64 = 5 * BUDGET;

impl Lowering<'_, '_, '_> {
    /// Lowers OpFunctionCall `i` by inlining the callee, if it should be:
    /// returns whether it did.
    pub(super) fn inline_call(&mut self, i: u32) -> R<bool> {
        let m = self.m;
        let inst = self.at(i);
        let callee = inst.operand(0);
        let info = m
            .info(callee)
            .filter(|f| f.kind == IdKind::Function)
            .ok_or("not a function")?;
        let fi = info.index;
        let func = m.functions.get(fi as usize).ok_or("not a function")?;
        if func.blocks.is_empty() {
            return Ok(false);
        }
        let has_frame = self.kernel.borrow().frame.is_some();
        let must = has_frame && self.env.barrier_fns.contains(&fi);
        let size = u64::from(func.end.saturating_sub(func.inst));
        {
            let mut k = self.kernel.borrow_mut();
            let total = self.env.inlined.get().saturating_add(size);
            let fits =
                self.body.depth < MAX_DEPTH && k.inlined.saturating_add(size) <= BUDGET && total <= MODULE_BUDGET;
            if !must && !fits {
                if self.simd.is_some() {
                    return Err("a call past the inlining budget is not vectorized".into());
                }
                return Ok(false);
            }
            if must && self.body.depth >= MAX_DEPTH {
                return Err(format!("calls to functions with barriers nest deeper than {MAX_DEPTH}"));
            }
            if must && k.inlined.saturating_add(size) > HARD_BUDGET {
                return Err(format!(
                    "inlining the functions with barriers into the kernel takes more than {HARD_BUDGET} SPIR-V instructions"
                ));
            }
            if must && total > MODULE_HARD_BUDGET {
                return Err(format!(
                    "inlining the functions with barriers into the module's kernels takes more than {MODULE_HARD_BUDGET} SPIR-V instructions"
                ));
            }
            k.inlined = k.inlined.saturating_add(size);
            self.env.inlined.set(total);
        }
        let mut args = Vec::with_capacity(func.params.len());
        // A 4-lane body passes varying arguments as shapes.
        // Under a mask (in an arm of a region, in a masked loop), the
        // callee's body runs for the active lanes only.
        // Each part's own (`simd::Part`).
        let outer_guards = if self.simd.is_some() {
            self.each_part(|l| l.guard())?
        } else {
            Vec::new()
        };
        let mut child_simd = self.simd.as_deref().map(|s| {
            Box::new(super::simd::Body {
                entry_dirty: s.dirty,
                ..Default::default()
            })
        });
        // In an 8-lane body, the callee is one too: each part passes its
        // own shapes (`simd::Part`).
        let mut part_args = vec![std::collections::HashMap::new(); self.parts()];
        for k in 1..inst.operands.len() {
            let a = inst.operand(k);
            if child_simd.is_some() && self.is_varying(a) {
                let p = *func.params.get(k - 1).ok_or("too many arguments")?;
                for (pa, shapes) in part_args.iter_mut().zip(self.each_part(|l| l.shapes(a))?) {
                    pa.insert(p, shapes);
                }
                args.push(Vec::new());
            } else {
                args.push(self.get(a)?);
            }
        }
        if let Some(cs) = child_simd.as_deref_mut() {
            self.parts_for_callee(cs, part_args, outer_guards.clone())?;
        }
        let ret = self.b.create_block();
        // Per part, the kinds and parameters of the result's components
        // (none for a void callee).
        let mut ret_kinds = vec![Vec::new(); self.parts()];
        if child_simd.is_some() && m.ty(func.ret) != Some(&crate::spirv::Type::Void) {
            ret_kinds = self.each_part(|l| l.varying_params(ret, func.ret))?;
        } else {
            for t in types::components(m, func.ret)? {
                self.b.append_block_param(ret, t);
            }
        }
        // In a block of a DAG region, which runs even when no lane reached
        // it: the callee runs only when some lane did (so its loops, whose
        // uniform loads would be made for none, run as they would for the
        // lanes), else its result is zero.
        let guards: Vec<Value> = outer_guards.iter().flatten().copied().collect();
        if let (false, true) = (guards.is_empty(), self.simd.is_some() && self.dag_block().is_some()) {
            let zeros: Vec<BlockArg> = self
                .b
                .block_params(ret)
                .to_vec()
                .into_iter()
                .map(|p| {
                    let t = self.b.func.dfg.value_type(p);
                    BlockArg::Value(self.zero(t))
                })
                .collect();
            let run = self.b.create_block();
            let any = self.any_lane(&guards);
            self.b.ins().brif(any, run, &[], ret, &zeros);
            self.b.switch_to_block(run);
        }
        // A call with barriers inside suspends this body too: its values
        // live after the call go with the callee's at each barrier.
        let outer = if must { self.kept_at(i)? } else { Vec::new() };
        let mut child = Lowering {
            m,
            b: &mut *self.b,
            env: self.env,
            wi: self.wi,
            body: BodyState::new(func, Exit::Inline(ret), self.body.depth + 1),
            values: Default::default(),
            kernel: self.kernel.clone(),
            frame: super::barrier::BodyFrame {
                outer,
                ..Default::default()
            },
            simd: child_simd,
        };
        child
            .lower_function(args, None)
            .map_err(|d| format!("in the inlined call of {}: {d}", m.show(callee)))?;
        self.b.switch_to_block(ret);
        if self.simd.is_some() {
            if let Some(r) = inst.result_id {
                let mut part = ret_kinds.iter();
                self.each_part(|l| {
                    let kinds = part.next().ok_or("a part without its result")?;
                    let mut shapes = Vec::with_capacity(kinds.len());
                    for (k, vals) in kinds {
                        shapes.push(Self::from_kind(*k, vals)?);
                    }
                    l.sb()?.varying.insert(r, shapes);
                    Ok(())
                })?;
            }
            return Ok(true);
        }
        let results = self.b.block_params(ret).to_vec();
        if let Some(r) = inst.result_id {
            self.values.insert(r, results);
        }
        Ok(true)
    }
}
