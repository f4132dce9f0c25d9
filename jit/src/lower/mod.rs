//! SPIR-V function bodies to Cranelift IR.
//!
//! The design, which later slices (barriers, vectors, built-in functions)
//! build on:
//! - **Values.** SPIR-V is already SSA: every result id maps to Cranelift
//!   values, a list per id since vectors are scalarized ([`types`]).
//!   Constants are materialized where they are used (Cranelift's GVN merges
//!   duplicates); OpUndef is zero.
//! - **Blocks.** One Cranelift block per reachable OpLabel, created up front
//!   with one block parameter per component of each OpPhi, so a branch passes
//!   the phi operands for its own block as block arguments. Blocks are
//!   lowered in reverse postorder, so a definition is always lowered before
//!   its uses (the front end guarantees dominance). No Cranelift `Variable`s
//!   are needed.
//! - **Function variables** are stack slots; loads and stores go through
//!   their addresses like any other pointer (Physical64: every pointer is an
//!   `i64`).
//! - **Work-items.** A kernel entry point is lowered *inside* the work-group
//!   loops of [`workgroup`]: built-in variables are computed, when loaded,
//!   from the [`crate::launch_abi::WorkGroupCtx`] and the loop indices, and
//!   OpReturn continues with the next work-item. Other functions are
//!   separate Cranelift functions taking a hidden
//!   [`crate::launch_abi::WorkItem`] address first, from which they compute
//!   built-ins.
//! - **Errors.** Whatever is not supported yet becomes a [`Diagnostic`] at
//!   the instruction (word offset, opcode); nothing panics.

mod arith;
mod builtins;
mod memory;
pub mod types;
pub mod workgroup;

use std::collections::HashMap;

use cranelift_codegen::ir::{
    immediates::{Ieee32, Ieee64},
    types as cl, Block, BlockArg, FuncRef, InstBuilder, Type as Clif, Value,
};
use cranelift_frontend::FunctionBuilder;
use spirv::Op;

use crate::error::Diagnostic;
use crate::spirv::{ConstValue, Function, Id, IdKind, Module};

/// What OpReturn does in the function being lowered.
#[derive(Debug, Clone, Copy)]
pub enum Exit {
    /// A kernel body inside the work-group loops: jump to this block, which
    /// goes on with the next work-item.
    NextWorkItem(Block),
    /// A helper function: return.
    Return,
}

/// The work-item a body runs as: values available everywhere in the body.
#[derive(Debug, Clone, Copy)]
pub struct WorkItemValues {
    /// The `*const WorkGroupCtx`.
    pub ctx: Value,
    /// get_local_id(0..3), as `i64`.
    pub local_id: [Value; 3],
    /// The `*const WorkItem` passed to helper functions.
    pub item: Value,
}

/// Lowers the body of `func` into `b`, whose current block must be
/// unterminated: it jumps from there to the body's entry block. `params`
/// holds the values of the function's parameters; `callees` the functions it
/// may call.
pub fn lower_body(
    m: &Module,
    func: &Function,
    b: &mut FunctionBuilder,
    callees: &HashMap<Id, FuncRef>,
    wi: WorkItemValues,
    exit: Exit,
    params: Vec<Vec<Value>>,
) -> Result<(), Diagnostic> {
    let mut l = Lowering {
        m,
        func,
        b,
        callees,
        wi,
        exit,
        blocks: vec![None; func.blocks.len()],
        values: HashMap::new(),
        label: 0,
    };
    // Barriers need the work-item loops split at each barrier (a later
    // slice); say so before anything else the body may lack.
    for blk in &func.blocks {
        if let Some(i) = blk.body().find(|&i| m.insts[i as usize].op == Op::ControlBarrier) {
            return Err(m.diag(i, "barriers are not supported by code generation yet"));
        }
    }
    for (&p, v) in func.params.iter().zip(params) {
        l.values.insert(p, v);
    }
    l.create_blocks()?;
    let entry = l
        .blocks
        .first()
        .copied()
        .flatten()
        .ok_or_else(|| m.diag(func.inst, "no entry block"))?;
    l.b.ins().jump(entry, &[]);
    for &bi in &func.cfg.rpo {
        let blk = &func.blocks[bi as usize];
        let cl_block = l.blocks[bi as usize].ok_or_else(|| m.diag(blk.start, "unreachable block in rpo"))?;
        l.b.switch_to_block(cl_block);
        l.label = blk.label;
        for i in blk.body() {
            l.inst(i).map_err(|rule| m.diag(i, rule))?;
        }
    }
    Ok(())
}

/// The state of one body's lowering.
pub(crate) struct Lowering<'a, 'b, 'f> {
    pub m: &'a Module,
    pub func: &'a Function,
    pub b: &'b mut FunctionBuilder<'f>,
    pub callees: &'a HashMap<Id, FuncRef>,
    pub wi: WorkItemValues,
    pub exit: Exit,
    /// The Cranelift block of each SPIR-V block (None if unreachable).
    pub blocks: Vec<Option<Block>>,
    /// The Cranelift values of each SPIR-V result id.
    pub values: HashMap<Id, Vec<Value>>,
    /// The label of the block being lowered.
    pub label: Id,
}

type R<T = ()> = Result<T, String>;

impl Lowering<'_, '_, '_> {
    /// One Cranelift block per reachable SPIR-V block, with a parameter per
    /// component of each OpPhi.
    fn create_blocks(&mut self) -> Result<(), Diagnostic> {
        let m = self.m;
        for (bi, blk) in self.func.blocks.iter().enumerate() {
            if !self.func.cfg.reachable.get(bi).copied().unwrap_or(false) {
                continue;
            }
            let cb = self.b.create_block();
            self.blocks[bi] = Some(cb);
            for i in blk.body() {
                let inst = &m.insts[i as usize];
                if inst.op != Op::Phi {
                    break;
                }
                let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
                    continue;
                };
                let comps = types::components(m, ty).map_err(|r| m.diag(i, r))?;
                let vals = comps.iter().map(|&t| self.b.append_block_param(cb, t)).collect();
                self.values.insert(id, vals);
            }
        }
        Ok(())
    }

    /// The Cranelift values of value id `id`.
    pub fn get(&mut self, id: Id) -> R<Vec<Value>> {
        if let Some(v) = self.values.get(&id) {
            return Ok(v.clone());
        }
        match self.m.kind(id) {
            IdKind::Constant => self.constant(id),
            IdKind::Undef => {
                let ty = self.m.type_of(id).ok_or("OpUndef without a type")?;
                let comps = types::components(self.m, ty)?;
                Ok(comps.into_iter().map(|t| self.zero(t)).collect())
            }
            IdKind::Global => Err(format!(
                "module-scope variable {} is not supported by code generation yet",
                self.m.show(id)
            )),
            _ => Err(format!("{} has no value here", self.m.show(id))),
        }
    }

    /// The single value of scalar id `id`.
    pub fn get1(&mut self, id: Id) -> R<Value> {
        let v = self.get(id)?;
        match v.as_slice() {
            [x] => Ok(*x),
            _ => Err(format!("{} is not a scalar", self.m.show(id))),
        }
    }

    /// Zero of Cranelift type `t`.
    pub fn zero(&mut self, t: Clif) -> Value {
        self.bits(t, 0)
    }

    /// A constant of Cranelift type `t` with bit pattern `bits`.
    pub fn bits(&mut self, t: Clif, bits: u64) -> Value {
        match t {
            cl::F32 => self.b.ins().f32const(Ieee32::with_bits(bits as u32)),
            cl::F64 => self.b.ins().f64const(Ieee64::with_bits(bits)),
            _ => {
                let w = t.bits();
                let masked = if w >= 64 { bits } else { bits & ((1u64 << w) - 1) };
                self.b.ins().iconst(t, masked as i64)
            }
        }
    }

    fn constant(&mut self, id: Id) -> R<Vec<Value>> {
        let c = self.m.constant(id).ok_or("not a constant")?;
        let comps = types::components(self.m, c.ty)?;
        match &c.value {
            ConstValue::Bool(v) => Ok(vec![self.b.ins().iconst(cl::I8, i64::from(*v))]),
            ConstValue::Scalar(bits) if comps.len() == 1 => Ok(vec![self.bits(comps[0], *bits)]),
            ConstValue::Vector(v) if v.len() == comps.len() => {
                Ok(comps.iter().zip(v).map(|(&t, &x)| self.bits(t, x)).collect())
            }
            ConstValue::Null => Ok(comps.into_iter().map(|t| self.zero(t)).collect()),
            _ => Err(format!(
                "constant {} is not supported by code generation yet",
                self.m.show(id)
            )),
        }
    }

    /// Lowers instruction `i` of the current block.
    fn inst(&mut self, i: u32) -> R {
        let inst = &self.m.insts[i as usize];
        match inst.op {
            Op::Phi
            | Op::SelectionMerge
            | Op::LoopMerge
            | Op::Nop
            | Op::Line
            | Op::NoLine
            | Op::LifetimeStart
            | Op::LifetimeStop
            | Op::Undef => Ok(()),
            Op::Branch => {
                let t = inst.id(0).ok_or("missing target")?;
                let (blk, args) = self.target(t)?;
                self.b.ins().jump(blk, &args);
                Ok(())
            }
            Op::BranchConditional => {
                let c = self.get1(inst.id(0).ok_or("missing condition")?)?;
                let (tb, ta) = self.target(inst.id(1).ok_or("missing target")?)?;
                let (fb, fa) = self.target(inst.id(2).ok_or("missing target")?)?;
                self.b.ins().brif(c, tb, &ta, fb, &fa);
                Ok(())
            }
            Op::Return => {
                match self.exit {
                    Exit::NextWorkItem(next) => self.b.ins().jump(next, &[]),
                    Exit::Return => self.b.ins().return_(&[]),
                };
                Ok(())
            }
            Op::ReturnValue => {
                let v = self.get(inst.id(0).ok_or("missing value")?)?;
                match self.exit {
                    Exit::Return => self.b.ins().return_(&v),
                    Exit::NextWorkItem(_) => return Err("a kernel cannot return a value".into()),
                };
                Ok(())
            }
            // Undefined behaviour if reached; rather than trap (and take the
            // process down), end the work-item, or return zeros.
            Op::Unreachable => {
                match self.exit {
                    Exit::NextWorkItem(next) => {
                        self.b.ins().jump(next, &[]);
                    }
                    Exit::Return => {
                        let comps = types::components(self.m, self.func.ret)?;
                        let zeros: Vec<Value> = comps.into_iter().map(|t| self.zero(t)).collect();
                        self.b.ins().return_(&zeros);
                    }
                }
                Ok(())
            }
            Op::FunctionCall => self.call(i),
            Op::Variable | Op::Load | Op::Store | Op::AccessChain | Op::InBoundsAccessChain => self.memory(i),
            Op::PtrAccessChain | Op::InBoundsPtrAccessChain => self.memory(i),
            Op::ControlBarrier => Err("barriers are not supported by code generation yet".into()),
            _ => self.arith(i),
        }
    }

    /// The Cranelift block of label `label` and the arguments for its phis
    /// coming from the current block.
    fn target(&mut self, label: Id) -> R<(Block, Vec<BlockArg>)> {
        let m = self.m;
        let info = m.info(label).ok_or("bad label")?;
        let bi = info.block as usize;
        let blk = self.func.blocks.get(bi).ok_or("bad label")?;
        let cb = self
            .blocks
            .get(bi)
            .copied()
            .flatten()
            .ok_or("branch to an unreachable block")?;
        let mut args = Vec::new();
        for i in blk.body() {
            let phi = &m.insts[i as usize];
            if phi.op != Op::Phi {
                break;
            }
            let n = phi.operands.len() / 2;
            let v = (0..n)
                .find(|&k| phi.id(2 * k + 1) == Some(self.label))
                .and_then(|k| phi.id(2 * k))
                .ok_or_else(|| format!("OpPhi %{} has no value for this block", phi.result_id.unwrap_or(0)))?;
            args.extend(self.get(v)?.into_iter().map(BlockArg::Value));
        }
        Ok((cb, args))
    }

    fn call(&mut self, i: u32) -> R {
        let inst = &self.m.insts[i as usize];
        let callee = inst.id(0).ok_or("missing callee")?;
        let fref = *self.callees.get(&callee).ok_or("callee not declared")?;
        let mut args = vec![self.wi.item];
        for k in 1..inst.operands.len() {
            let a = inst.id(k).ok_or("bad argument")?;
            args.extend(self.get(a)?);
        }
        let call = self.b.ins().call(fref, &args);
        let results = self.b.inst_results(call).to_vec();
        if let Some(r) = inst.result_id {
            self.values.insert(r, results);
        }
        Ok(())
    }
}
