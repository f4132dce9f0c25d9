//! Loop invariants read from memory in loops that hold more vectors than
//! the register file.
//!
//! Cranelift's optimiser hoists every pure computation out of loops,
//! vector constants and splats included, and its register allocator never
//! recomputes them: a value defined before a loop and used in it stays in
//! a register through the whole loop, or is spilled. On x86-64 Cranelift
//! has 16 XMM registers. An 8-lane body's masked loop (two 4-lane parts,
//! each with its loop-carried vectors, masks and exit values, plus the
//! constants and per-lane invariants of both) needs more, and the
//! allocator then moves loop-carried values through the stack at the back
//! edge, which puts a store and a load on the loop's dependency chain
//! (clbench's mandelbrot, ARCHITECTURE.md "8-lane bodies").
//!
//! [`read_invariants_from_memory`] runs on the optimised IR, just before
//! instruction selection. In every innermost loop whose XMM values (the
//! header's vector and float parameters and the vector and float values
//! defined outside the loop and used in it) number more than
//! [`CROWDED`], while its parameters alone do not, each such invariant is
//! stored once, where it is defined, into its own 16 bytes of one stack
//! slot of the function, and every instruction of the loop that uses it
//! (of those that compile for any operand) loads it from there just
//! before. The x86-64 back end folds such a load into its user as a memory
//! operand where the instruction has one, so the invariant takes no
//! register in the loop and the loop-carried values keep theirs. The
//! values are the same bits, only moved.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::cursor::{Cursor, FuncCursor};
use cranelift_codegen::dominator_tree::DominatorTree;
use cranelift_codegen::flowgraph::ControlFlowGraph;
use cranelift_codegen::ir::{
    self, InstBuilder, MemFlagsData, Opcode, StackSlotData, StackSlotKind, Type, Value, ValueDef,
};
use cranelift_codegen::loop_analysis::{Loop, LoopAnalysis};

/// XMM values a loop may hold before its invariants go to memory: the 16
/// registers less a few for the temporaries of one iteration.
pub(crate) const CROWDED: usize = 12;

/// Does a value of type `ty` live in an XMM register?
fn in_xmm(ty: Type) -> bool {
    ty.is_float() || (ty.is_vector() && ty.bits() == 128)
}

/// Rewrites `func` (optimised IR) as the module documentation says;
/// returns how many invariants went to memory.
pub(crate) fn read_invariants_from_memory(func: &mut ir::Function) -> usize {
    let cfg = ControlFlowGraph::with_function(func);
    let domtree = DominatorTree::with_function(func, &cfg);
    let mut loops = LoopAnalysis::new();
    loops.compute(func, &cfg, &domtree);
    let parents: HashSet<Loop> = loops.loops().filter_map(|lp| loops.loop_parent(lp)).collect();
    let innermost: Vec<Loop> = loops.loops().filter(|lp| !parents.contains(lp)).collect();
    // One slot holds every invariant that goes to memory, 16 bytes each.
    let mut slot: Option<ir::StackSlot> = None;
    let mut offsets: HashMap<Value, i32> = HashMap::new();
    for lp in innermost {
        let header = loops.loop_header(lp);
        let blocks: Vec<ir::Block> = func.layout.blocks().filter(|&b| loops.is_in_loop(b, lp)).collect();
        let carried = func
            .dfg
            .block_params(header)
            .iter()
            .filter(|&&v| in_xmm(func.dfg.value_type(v)))
            .count();
        // The invariants in the order the loop first uses them.
        let mut invariants: Vec<Value> = Vec::new();
        for &b in &blocks {
            for inst in func.layout.block_insts(b) {
                if !takes_any_operand(func.dfg.insts[inst].opcode()) {
                    continue;
                }
                for v in func.dfg.inst_values(inst) {
                    if !in_xmm(func.dfg.value_type(v)) || invariants.contains(&v) {
                        continue;
                    }
                    // (A value a terminator defines would have no place
                    // for its store after it: none of this IR's do.)
                    let def_block = match func.dfg.value_def(v) {
                        ValueDef::Result(i, _) if func.dfg.insts[i].opcode().is_terminator() => None,
                        ValueDef::Result(i, _) => func.layout.inst_block(i),
                        ValueDef::Param(b, _) => Some(b),
                        _ => None,
                    };
                    if def_block.is_some_and(|d| !loops.is_in_loop(d, lp)) {
                        invariants.push(v);
                    }
                }
            }
        }
        // Only where the loop-carried values fit once the invariants are
        // gone: where they do not, the loop spills them anyway, and loads
        // of the invariants come on top (a float16 accumulator in an
        // 8-lane body: 32 vectors; its multiply-add chain took twice as
        // long with the invariants read from memory).
        if carried > CROWDED || carried + invariants.len() <= CROWDED {
            continue;
        }
        let slot = *slot
            .get_or_insert_with(|| func.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 0, 4)));
        // The slot's address, computed where the loop starts each
        // iteration: the loads below add their offsets to it.
        let mut pos = FuncCursor::new(func);
        pos.goto_first_insertion_point(header);
        let base = pos.ins().stack_addr(ir::types::I64, slot, 0);
        for v in invariants {
            let offset = match offsets.get(&v) {
                Some(&o) => o,
                None => {
                    let o = func.sized_stack_slots[slot].size as i32;
                    func.sized_stack_slots[slot].size += 16;
                    store_where_defined(func, v, slot, o);
                    offsets.insert(v, o);
                    o
                }
            };
            let ty = func.dfg.value_type(v);
            for &b in &blocks {
                let insts: Vec<ir::Inst> = func.layout.block_insts(b).collect();
                for inst in insts {
                    if !takes_any_operand(func.dfg.insts[inst].opcode()) || !func.dfg.inst_values(inst).any(|u| u == v)
                    {
                        continue;
                    }
                    let mut pos = FuncCursor::new(func).at_inst(inst);
                    let loaded = pos.ins().load(ty, MemFlagsData::trusted(), base, offset);
                    func.dfg.map_inst_values(inst, |u| if u == v { loaded } else { u });
                }
            }
        }
    }
    offsets.len()
}

/// Does an instruction `op` compile for any operand, a load's result
/// included? Only such users read an invariant from memory: the x86-64
/// back end selects some instructions only for operands of a given form
/// (`snarrow` of an `i64x2` only as part of a float conversion, with a
/// constant zero), which a load in between would hide.
fn takes_any_operand(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Fadd | Fsub
            | Fmul
            | Fdiv
            | Fma
            | Fmin
            | Fmax
            | Fneg
            | Fabs
            | Sqrt
            | Fcmp
            | Icmp
            | Iadd
            | Isub
            | Imul
            | Band
            | Bor
            | Bxor
            | Bnot
            | Bitselect
            | Blendv
            | Select
            | Jump
            | Brif
    )
}

/// Stores `v` at `offset` in `slot` right after `v` is defined.
fn store_where_defined(func: &mut ir::Function, v: Value, slot: ir::StackSlot, offset: i32) {
    let mut pos = FuncCursor::new(func);
    match pos.func.dfg.value_def(v) {
        ValueDef::Result(inst, _) => {
            pos.goto_after_inst(inst);
        }
        ValueDef::Param(block, _) => {
            pos.goto_first_insertion_point(block);
        }
        _ => unreachable!("an invariant is an instruction's result or a block's parameter"),
    }
    let addr = pos.ins().stack_addr(ir::types::I64, slot, offset);
    pos.ins().store(MemFlagsData::trusted(), v, addr, 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_codegen::ir::{types, AbiParam, Function, Signature, UserFuncName};
    use cranelift_codegen::isa::CallConv;
    use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

    /// A function with `n` f32x4 invariants (splats of its float
    /// parameter) defined before a loop that carries `carried` vectors,
    /// adds every invariant to the first in each iteration and multiplies
    /// the others by it.
    fn looping(carried: usize, n: usize) -> Function {
        let mut sig = Signature::new(CallConv::SystemV);
        sig.params.push(AbiParam::new(types::F32));
        sig.params.push(AbiParam::new(types::I32));
        sig.returns.push(AbiParam::new(types::F32X4));
        let mut func = Function::with_name_signature(UserFuncName::default(), sig);
        let mut fbc = FunctionBuilderContext::new();
        let mut b = FunctionBuilder::new(&mut func, &mut fbc);
        let (entry, header, exit) = (b.create_block(), b.create_block(), b.create_block());
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let (x, count) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        let mut invariants = Vec::new();
        let mut f = x;
        for _ in 0..n {
            f = b.ins().fadd(f, x);
            invariants.push(b.ins().splat(types::F32X4, f));
        }
        let zero = b.ins().splat(types::F32X4, x);
        let i0 = b.ins().iconst(types::I32, 0);
        let mut start: Vec<ir::BlockArg> = vec![zero.into(); carried];
        start.push(i0.into());
        b.ins().jump(header, &start);
        for _ in 0..carried {
            b.append_block_param(header, types::F32X4);
        }
        b.append_block_param(header, types::I32);
        b.switch_to_block(header);
        let params = b.block_params(header).to_vec();
        let mut acc = params[0];
        for &v in &invariants {
            acc = b.ins().fadd(acc, v);
        }
        let mut next: Vec<ir::BlockArg> = vec![acc.into()];
        for &p in &params[1..carried] {
            next.push(b.ins().fmul(p, acc).into());
        }
        let i = b.ins().iadd_imm_s(params[carried], 1);
        next.push(i.into());
        let more = b.ins().icmp(ir::condcodes::IntCC::UnsignedLessThan, i, count);
        b.ins().brif(more, header, &next, exit, &[]);
        b.switch_to_block(exit);
        b.ins().return_(&[acc]);
        b.seal_all_blocks();
        b.finalize(crate::codegen::host_isa("speed").unwrap().frontend_config());
        func
    }

    fn loads_in(func: &Function, block: ir::Block) -> usize {
        func.layout
            .block_insts(block)
            .filter(|&i| func.dfg.insts[i].opcode() == ir::Opcode::Load)
            .count()
    }

    #[test]
    fn crowded_loops_read_their_invariants_from_memory() {
        let mut func = looping(2, 12);
        let header = func.layout.blocks().nth(1).unwrap();
        assert_eq!(read_invariants_from_memory(&mut func), 12);
        // One load per use in the loop, one store per invariant outside.
        assert_eq!(loads_in(&func, header), 12);
        let stores = func
            .layout
            .blocks()
            .flat_map(|b| func.layout.block_insts(b))
            .filter(|&i| func.dfg.insts[i].opcode() == ir::Opcode::Store)
            .count();
        assert_eq!(stores, 12);
        // Every invariant is now used outside the loop only, by its store.
        for inst in func.layout.block_insts(header) {
            for v in func.dfg.inst_values(inst) {
                if let ValueDef::Result(d, _) = func.dfg.value_def(v) {
                    let in_header = func.layout.inst_block(d) == Some(header);
                    assert!(
                        in_header || !in_xmm(func.dfg.value_type(v)),
                        "{v} still read from a register"
                    );
                }
            }
        }
        cranelift_codegen::verifier::verify_function(
            &func,
            &cranelift_codegen::settings::Flags::new(cranelift_codegen::settings::builder()),
        )
        .unwrap();
    }

    /// `read_invariants_from_memory` leaves `looping(carried, n)` as it is.
    fn left_alone(carried: usize, n: usize) {
        let mut func = looping(carried, n);
        let before = func.display().to_string();
        assert_eq!(read_invariants_from_memory(&mut func), 0);
        assert_eq!(func.display().to_string(), before);
    }

    #[test]
    fn loops_with_room_keep_their_invariants_in_registers() {
        // Two carried vectors and ten invariants: 12, not more than CROWDED.
        left_alone(2, 10);
    }

    #[test]
    fn loops_whose_carried_values_spill_anyway_keep_their_invariants() {
        // 13 carried vectors: more than CROWDED without any invariant.
        left_alone(13, 4);
        // 12 carried and one invariant: that one goes to memory.
        let mut func = looping(12, 1);
        assert_eq!(read_invariants_from_memory(&mut func), 1);
    }
}
