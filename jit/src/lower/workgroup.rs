//! The two shapes of generated functions:
//! - the **work-group function** of a kernel ([`kernel`]):
//!   `extern "C" fn(ctx: *const WorkGroupCtx)` running every work-item of
//!   the group in loops over z, y, x of `ctx.local_size`, the kernel's body
//!   inside the x loop;
//! - a **helper** ([`helper`]) for any other SPIR-V function a kernel calls:
//!   `fn(item: *const WorkItem, params...) -> results`, vectors passed as one
//!   parameter per component.
//!
//! The work-group function's blocks:
//! ```text
//! entry(ctx):      load the context's fields and the arguments (the same
//!                  for every work-item); jump z_head(0)
//! z_head(z):       brif z < lsz2, y_init, loops_done
//! y_init:          jump y_head(0)
//! y_head(y):       brif y < lsz1, x_init, z_next
//! z_next:          jump z_head(z + 1)
//! x_init:          jump x_head(0)
//! x_head(x):       brif x < lsz0, item, y_next
//! y_next:          jump y_head(y + 1)
//! item:            local id (x, y, z) into the WorkItem on the stack, if
//!                  the kernel calls helpers; jump <kernel entry block>
//!                  ... OpReturn: jump x_next
//! x_next:          jump x_head(x + 1)
//! loops_done:      jump exit
//! exit:            return
//! ```
//! `x`, `y` and `z` are block parameters of the loop heads, which dominate
//! the body, so the body uses them directly as the local id.
//!
//! A kernel with barriers ([`super::barrier`]) wraps the loops in phases:
//! `entry` jumps to `phase(first = 1, sub = 0)`, which clears the "waiting"
//! flags and starts the loops; `item` finds the work-item's frame and
//! dispatches on its state (0 in the first phase); `loops_done` starts
//! `phase(0, 1)` while any work-item waits at a sub-group barrier or
//! collective (a *sub-group phase*: only those resume, and it leaves the
//! work-group flag as it was), else `phase(0, 0)` while any waits at a
//! work-group one. Work-items of one sub-group wait at the same point, so
//! a sub-group phase lets each waiting sub-group through its point while
//! the work-items at a work-group barrier stay there until every one of
//! the group has arrived.

use cranelift_codegen::ir::{
    condcodes::IntCC, types as cl, AbiParam, Block, BlockArg, InstBuilder, MemFlagsData, Signature, StackSlotData,
    StackSlotKind, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilder;
use spirv::StorageClass;

use super::{ctx_flags, lower_body, preload_ctx, types, Env, Exit, FrameEntry, WorkItemValues};
use crate::error::Diagnostic;
use crate::launch_abi::{arg_offsets, ctx_offset, item_offset, WorkItem};
use crate::spirv::{Function, Module, Type};
use crate::KernelInfo;

/// The signature of a work-group function.
pub fn kernel_signature(cc: CallConv) -> Signature {
    let mut s = Signature::new(cc);
    s.params.push(AbiParam::new(cl::I64));
    s
}

/// The signature of helper function `func`.
pub fn helper_signature(m: &Module, func: &Function, cc: CallConv) -> Result<Signature, Diagnostic> {
    let mut s = Signature::new(cc);
    s.params.push(AbiParam::new(cl::I64));
    for &p in &func.params {
        let ty = m.type_of(p).ok_or_else(|| m.diag_id(p, "parameter without a type"))?;
        for t in types::components(m, ty).map_err(|r| m.diag_id(p, r))? {
            s.params.push(AbiParam::new(t));
        }
    }
    for t in types::components(m, func.ret).map_err(|r| m.diag(func.inst, r))? {
        s.returns.push(AbiParam::new(t));
    }
    Ok(s)
}

/// Builds the work-group function of kernel `func` (described by `info`)
/// into `b`, whose function has [`kernel_signature`]. Returns the bytes of
/// private arena it needs per work-item (0 without barriers).
///
/// With `simd`, the kernel also gets a 4-lane body ([`super::simd`]) for
/// chunks of four work-items along x: without barriers, beside the scalar
/// body, which runs the rest of each row and the chunks the 4-lane body
/// abandons (and with `env.wide`, an 8-lane body before it for chunks of
/// eight, [`super::simd::Part`]); with barriers, as a second set of loops
/// run when the group's x size is a multiple of 4, whose phases resume
/// chunks instead of work-items (each chunk has a frame), and with
/// `env.wide` a third, of chunks of eight, run when it is a multiple of 8.
pub fn kernel(
    env: Env,
    func: &Function,
    info: &KernelInfo,
    b: &mut FunctionBuilder,
    simd: bool,
) -> Result<u64, Diagnostic> {
    let m = env.m;
    let fi = m.info(func.id).map(|f| f.index);
    let has_barriers = fi.is_some_and(|fi| env.barrier_fns.contains(&fi));
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let ctx = b.block_params(entry)[0];

    // Everything the same for every work-item of the group, once.
    let ctx_words = preload_ctx(b, ctx);
    let word = |off: i32| ctx_words[(off / 8) as usize];
    let lsz: [Value; 3] = std::array::from_fn(|d| word(ctx_offset::LOCAL_SIZE + 8 * d as i32));
    let params = kernel_params(m, func, info, b, word(ctx_offset::ARGS))?;
    // Helpers find the work-item through a WorkItem on the stack: only
    // kernels that call any need one.
    let size = std::mem::size_of::<WorkItem>() as u32;
    let slot = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 3));
    let stack_ref = b.ins().stack_addr(cl::I64, slot, 0);
    let ctx_store = b.ins().stack_store(cl::I64, ctx, slot, item_offset::CTX);
    let frame_top = b.ins().get_frame_pointer(cl::I64);
    let top_store = b.ins().stack_store(cl::I64, frame_top, slot, item_offset::FRAME_TOP);
    let g = Group {
        env,
        func,
        ctx,
        ctx_words,
        lsz,
        params,
        slot,
        stack_ref,
        frame_top,
        has_barriers,
    };
    let (frame, calls_helpers) = if has_barriers && simd {
        // Chunk phases when the rows split into chunks (of eight when the
        // kernel has an 8-lane body and they split so, else of four), else
        // scalar ones.
        let lanes = super::simd::LANES;
        let widths: &[usize] = if env.wide { &[2 * lanes, lanes] } else { &[lanes] };
        let (mut frame, mut calls_helpers) = (0, false);
        for &w in widths {
            let (other, chunked) = (b.create_block(), b.create_block());
            let rem = b.ins().band_imm_s(lsz[0], w as i64 - 1);
            b.ins().brif(rem, other, &[], chunked, &[]);
            b.switch_to_block(chunked);
            let (f, h) = g.loops(b, Mode::ChunksOnly(w))?;
            // The arena holds a frame per work-item; chunks take a
            // quarter (an eighth) as many.
            frame = frame.max(f.div_ceil(w as u64));
            calls_helpers |= h;
            b.switch_to_block(other);
        }
        let (f1, h1) = g.loops(b, Mode::Scalar)?;
        (frame.max(f1), calls_helpers || h1)
    } else {
        g.loops(
            b,
            if simd && !has_barriers {
                Mode::Chunks
            } else {
                Mode::Scalar
            },
        )?
    };
    if !calls_helpers {
        // Every call was inlined: nobody reads the WorkItem.
        b.func.layout.remove_inst(ctx_store);
        b.func.layout.remove_inst(top_store);
    }
    Ok(frame)
}

/// How the x loop runs work-items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// One at a time.
    Scalar,
    /// In chunks of eight through the 8-lane body (when the kernel has
    /// one), then of four through the 4-lane body, the rest of each row
    /// (and abandoned chunks) one at a time.
    Chunks,
    /// Only in chunks of this many work-items, 4 or 8 (the x size is a
    /// multiple of it): a kernel with barriers, whose phases resume
    /// chunks.
    ChunksOnly(usize),
}

/// What every copy of a work-group function's loops shares.
struct Group<'a> {
    env: Env<'a>,
    func: &'a Function,
    ctx: Value,
    ctx_words: [Value; super::CTX_WORDS],
    lsz: [Value; 3],
    params: Vec<Vec<Value>>,
    slot: cranelift_codegen::ir::StackSlot,
    stack_ref: Value,
    frame_top: Value,
    has_barriers: bool,
}

impl Group<'_> {
    /// Builds the z/y/x loops (in phases, for a kernel with barriers) from
    /// the current block, with the kernel's body inside, running work-items
    /// as `mode` says. Returns the frame bytes per work-item (per chunk in
    /// `ChunksOnly`) and whether the body calls helpers.
    fn loops(&self, b: &mut FunctionBuilder, mode: Mode) -> Result<(u64, bool), Diagnostic> {
        let (env, func) = (self.env, self.func);
        let word = |off: i32| self.ctx_words[(off / 8) as usize];
        // A kernel with barriers runs the loops in phases (see `barrier`).
        let phases = self.has_barriers.then(|| {
            let pending = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 1, 0));
            let pending_sub = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 1, 0));
            let spins = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 4, 2));
            let phase_count = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
            let private = word(ctx_offset::PRIVATE_ARENA);
            let phase = b.create_block();
            let first = b.append_block_param(phase, cl::I8);
            let sub = b.append_block_param(phase, cl::I8);
            Phases {
                pending,
                pending_sub,
                spins,
                phase_count,
                private,
                phase,
                first,
                sub,
            }
        });
        let nest = self.loop_nest(b, mode, phases);
        let [x, y, z] = nest.local_id;

        // One work-item (or chunk).
        b.switch_to_block(nest.item);
        let mut item_stores = Vec::new();
        if !matches!(mode, Mode::ChunksOnly(_)) {
            for (d, v) in [x, y, z].into_iter().enumerate() {
                item_stores.push(
                    b.ins()
                        .stack_store(cl::I64, v, self.slot, item_offset::LOCAL_ID + 8 * d as i32),
                );
            }
        }
        let wi = WorkItemValues {
            ctx: self.ctx,
            local_id: [x, y, z],
            item: self.stack_ref,
            ctx_words: self.ctx_words,
            frame_top: self.frame_top,
        };
        let frame = phases.map(|ph| self.frame_entry(b, ph, &nest, mode));
        let fn_effects = || std::rc::Rc::new(super::simd::analysis::function_effects(env.m));
        let chunk = match mode {
            Mode::ChunksOnly(w) => Some(
                super::simd::Chunk::new(None, fn_effects(), self.env.scalar_lanes).with_parts(w / super::simd::LANES),
            ),
            _ => None,
        };
        let params = self.params.clone();
        let lowered = lower_body(env, func, b, wi, Exit::NextWorkItem(nest.x_next), params, frame, chunk)?;
        for ch in nest.chunks {
            b.switch_to_block(ch.body);
            let wi = WorkItemValues {
                local_id: [ch.x, y, z],
                ..wi
            };
            let chunk = super::simd::Chunk::new(Some(ch.bail), fn_effects(), self.env.scalar_lanes)
                .with_parts(ch.width / super::simd::LANES);
            let params = self.params.clone();
            lower_body(env, func, b, wi, Exit::NextWorkItem(ch.next), params, None, Some(chunk))?;
        }
        if !lowered.calls_helpers {
            for st in item_stores {
                b.func.layout.remove_inst(st);
            }
        }
        Ok((lowered.frame_size, lowered.calls_helpers))
    }

    /// The loop nest without its body: z, y and x loops (and the chunk
    /// loop in `Chunks` mode) from the current block, the return after
    /// them, and for a kernel with barriers the phase loop around them.
    fn loop_nest(&self, b: &mut FunctionBuilder, mode: Mode, phases: Option<Phases>) -> Nest {
        let lsz = self.lsz;
        let (z_head, y_init, y_head, z_next, x_init, x_head, y_next, item, x_next, loops_done) = (
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
            b.create_block(),
        );
        let exit = b.create_block();
        if let Some(Phases {
            pending,
            pending_sub,
            spins,
            phase_count,
            phase,
            sub,
            ..
        }) = phases
        {
            let every = b.ins().iconst(cl::I32, super::progress::YIELD_EVERY);
            b.ins().stack_store(cl::I64, every, spins, 0);
            let zero = b.ins().iconst(cl::I64, 0);
            b.ins().stack_store(cl::I64, zero, phase_count, 0);
            let (one, zero8) = (b.ins().iconst(cl::I8, 1), b.ins().iconst(cl::I8, 0));
            b.ins().jump(phase, &[BlockArg::Value(one), BlockArg::Value(zero8)]);
            b.switch_to_block(phase);
            let count = b.ins().stack_load(cl::I64, cl::I64, phase_count, 0);
            let count = b.ins().iadd_imm_s(count, 1);
            b.ins().stack_store(cl::I64, count, phase_count, 0);
            let zero8 = b.ins().iconst(cl::I8, 0);
            b.ins().stack_store(cl::I64, zero8, pending_sub, 0);
            // A sub-group phase keeps the work-group flag: the work-items
            // that set it still wait.
            let was = b.ins().stack_load(cl::I64, cl::I8, pending, 0);
            let keep = b.ins().select(sub, was, zero8);
            b.ins().stack_store(cl::I64, keep, pending, 0);
        }
        let zero = b.ins().iconst(cl::I64, 0);
        b.ins().jump(z_head, &[BlockArg::Value(zero)]);

        // Loop heads: index < size continues inward, else outward.
        let z = b.append_block_param(z_head, cl::I64);
        let y = b.append_block_param(y_head, cl::I64);
        let x = b.append_block_param(x_head, cl::I64);
        // With chunks and a scalar remainder, the scalar x loop runs up to
        // `x_end`: the end of the row, or of an abandoned chunk.
        let (x_end, x_done) = if mode == Mode::Chunks {
            (b.append_block_param(x_head, cl::I64), b.create_block())
        } else {
            (lsz[0], y_next)
        };
        let heads = [
            (z_head, z, lsz[2], y_init, loops_done),
            (y_head, y, lsz[1], x_init, z_next),
            (x_head, x, x_end, item, x_done),
        ];
        for (head, idx, size, inner, outer) in heads {
            b.switch_to_block(head);
            let more = b.ins().icmp(IntCC::UnsignedLessThan, idx, size);
            b.ins().brif(more, inner, &[], outer, &[]);
        }
        b.switch_to_block(y_init);
        let zero = b.ins().iconst(cl::I64, 0);
        b.ins().jump(y_head, &[BlockArg::Value(zero)]);
        for (next, idx, head) in [(z_next, z, z_head), (y_next, y, y_head)] {
            b.switch_to_block(next);
            let n = b.ins().iadd_imm_s(idx, 1);
            b.ins().jump(head, &[BlockArg::Value(n)]);
        }
        b.switch_to_block(x_next);
        let step = match mode {
            Mode::ChunksOnly(w) => w as i64,
            _ => 1,
        };
        let n = b.ins().iadd_imm_s(x, step);
        let chunks = if mode == Mode::Chunks {
            b.ins().jump(x_head, &[BlockArg::Value(n), BlockArg::Value(x_end)]);
            let lanes = super::simd::LANES;
            let widths: &[usize] = if self.env.wide { &[2 * lanes, lanes] } else { &[lanes] };
            chunk_loops(b, widths, x_init, x_head, x_done, y_next, x_end, lsz[0])
        } else {
            b.ins().jump(x_head, &[BlockArg::Value(n)]);
            b.switch_to_block(x_init);
            let zero = b.ins().iconst(cl::I64, 0);
            b.ins().jump(x_head, &[BlockArg::Value(zero)]);
            Vec::new()
        };
        // After the loops: another phase while work-items wait at a barrier.
        b.switch_to_block(loops_done);
        match phases {
            Some(Phases {
                pending,
                pending_sub,
                phase,
                ..
            }) => {
                let (zero8, one8) = (b.ins().iconst(cl::I8, 0), b.ins().iconst(cl::I8, 1));
                let group = b.create_block();
                let sub_waiting = b.ins().stack_load(cl::I64, cl::I8, pending_sub, 0);
                let to_sub = [BlockArg::Value(zero8), BlockArg::Value(one8)];
                b.ins().brif(sub_waiting, phase, &to_sub, group, &[]);
                b.switch_to_block(group);
                let waiting = b.ins().stack_load(cl::I64, cl::I8, pending, 0);
                let to_group = [BlockArg::Value(zero8), BlockArg::Value(zero8)];
                b.ins().brif(waiting, phase, &to_group, exit, &[]);
            }
            None => {
                b.ins().jump(exit, &[]);
            }
        }
        b.switch_to_block(exit);
        b.ins().return_(&[]);

        Nest {
            local_id: [x, y, z],
            item,
            x_next,
            chunks,
        }
    }

    /// The frame of the work-item (chunk) at `nest`'s indices in a kernel
    /// with barriers.
    fn frame_entry(&self, b: &mut FunctionBuilder, ph: Phases, nest: &Nest, mode: Mode) -> FrameEntry {
        let lsz = self.lsz;
        let [x, y, z] = nest.local_id;
        let Phases {
            pending,
            pending_sub,
            spins,
            phase_count,
            private,
            first,
            sub,
            ..
        } = ph;
        // This work-item's (chunk's) frame: private + linear id *
        // frame size (set once the body is lowered).
        let zl = b.ins().imul(z, lsz[1]);
        let zy = b.ins().iadd(zl, y);
        let zyl = b.ins().imul(zy, lsz[0]);
        let mut lin = b.ins().iadd(zyl, x);
        if let Mode::ChunksOnly(w) = mode {
            lin = b.ins().ushr_imm_s(lin, i64::from(w.trailing_zeros()));
        }
        let size_v = b.ins().iconst(cl::I64, 0);
        let size = b.func.dfg.value_def(size_v).unwrap_inst();
        let off = b.ins().imul(lin, size_v);
        let base = b.ins().iadd(private, off);
        // Every work-item starts in the first phase, whatever its
        // frame holds from an earlier group.
        let stored = b.ins().load(cl::I32, MemFlagsData::trusted(), base, 0);
        let zero32 = b.ins().iconst(cl::I32, 0);
        let state = b.ins().select(first, zero32, stored);
        FrameEntry {
            base,
            state,
            pending,
            pending_sub,
            sub_phase: sub,
            spins,
            phase_count,
            size,
            dispatch: b.create_block(),
            next: nest.x_next,
        }
    }
}

/// The phase loop of a kernel with barriers: the flags a work-item sets
/// when it stops at a work-group or a sub-group point, the private arena
/// its frame is in, the loop's block, whether this is the first phase and
/// whether it is a sub-group phase.
#[derive(Clone, Copy)]
struct Phases {
    pending: cranelift_codegen::ir::StackSlot,
    pending_sub: cranelift_codegen::ir::StackSlot,
    spins: cranelift_codegen::ir::StackSlot,
    phase_count: cranelift_codegen::ir::StackSlot,
    private: Value,
    phase: Block,
    first: Value,
    sub: Value,
}

/// What the body of a loop nest needs: the local ids (x, y, z), the block
/// where one work-item (chunk) runs, where the next one starts, and the
/// chunk loop, if any.
struct Nest {
    local_id: [Value; 3],
    item: Block,
    x_next: Block,
    chunks: Vec<ChunkLoop>,
}

/// The blocks of the chunk loop.
struct ChunkLoop {
    /// The 4-lane body's first block (current when lowering starts).
    body: Block,
    /// The x of the chunk's first work-item.
    x: Value,
    /// Where a finished chunk goes: the next chunk.
    next: Block,
    /// Where an abandoned chunk goes: its work-items through the scalar body.
    bail: Block,
    /// The work-items of a chunk (4, or 8 for an 8-lane body).
    width: usize,
}

/// Builds the chunk loops of a row around the scalar x loop, one per
/// chunk width in `widths` (widest first: 8, then 4, for a kernel with an
/// 8-lane body; 4 alone otherwise). With widths 8 and 4:
/// ```text
/// x_init:          jump head8(0)
/// head8(cx):       brif cx + 8 <= lsz0, <8-lane body>, head4(cx)
///                  ... OpReturn: jump next8
/// next8:           jump head8(cx + 8)
/// bail8:           jump x_head(cx, cx + 8)
/// head4(cx):       brif cx + 4 <= lsz0, <4-lane body>, x_head(cx, lsz0)
/// next4:           jump head4(cx + 4)
/// bail4:           jump x_head(cx, cx + 4)
/// x_done:          brif x_end >= lsz0, y_next, head8(x_end)
/// ```
fn chunk_loops(
    b: &mut FunctionBuilder,
    widths: &[usize],
    x_init: Block,
    x_head: Block,
    x_done: Block,
    y_next: Block,
    x_end: Value,
    lsz0: Value,
) -> Vec<ChunkLoop> {
    let heads: Vec<Block> = widths.iter().map(|_| b.create_block()).collect();
    let xs: Vec<Value> = heads.iter().map(|&h| b.append_block_param(h, cl::I64)).collect();
    b.switch_to_block(x_init);
    let zero = b.ins().iconst(cl::I64, 0);
    b.ins().jump(heads[0], &[BlockArg::Value(zero)]);
    let mut loops = Vec::with_capacity(widths.len());
    for (k, &w) in widths.iter().enumerate() {
        let (head, cx) = (heads[k], xs[k]);
        let body = b.create_block();
        let next = b.create_block();
        let bail = b.create_block();
        b.switch_to_block(head);
        let end = b.ins().iadd_imm_s(cx, w as i64);
        let fits = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, lsz0);
        match heads.get(k + 1) {
            Some(&narrower) => b.ins().brif(fits, body, &[], narrower, &[BlockArg::Value(cx)]),
            None => b
                .ins()
                .brif(fits, body, &[], x_head, &[BlockArg::Value(cx), BlockArg::Value(lsz0)]),
        };
        b.switch_to_block(next);
        b.ins().jump(head, &[BlockArg::Value(end)]);
        b.switch_to_block(bail);
        b.ins().jump(x_head, &[BlockArg::Value(cx), BlockArg::Value(end)]);
        loops.push(ChunkLoop {
            body,
            x: cx,
            next,
            bail,
            width: w,
        });
    }
    b.switch_to_block(x_done);
    let row_done = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, x_end, lsz0);
    b.ins().brif(row_done, y_next, &[], heads[0], &[BlockArg::Value(x_end)]);
    loops
}

/// Loads the kernel's parameters from the argument block (see
/// [`crate::launch_abi`]).
fn kernel_params(
    m: &Module,
    func: &Function,
    info: &KernelInfo,
    b: &mut FunctionBuilder,
    args_base: Value,
) -> Result<Vec<Vec<Value>>, Diagnostic> {
    let trusted = ctx_flags();
    let (offsets, _) = arg_offsets(info);
    let mut params = Vec::with_capacity(func.params.len());
    for (k, &p) in func.params.iter().enumerate() {
        let off = *offsets
            .get(k)
            .ok_or_else(|| m.diag_id(p, "the kernel's interface has fewer arguments"))? as i32;
        let ty = m.type_of(p).ok_or_else(|| m.diag_id(p, "parameter without a type"))?;
        let vals = match m.ty(ty) {
            Some(Type::Pointer { storage, .. }) => match storage {
                StorageClass::CrossWorkgroup
                | StorageClass::UniformConstant
                | StorageClass::Workgroup
                | StorageClass::Generic => vec![b.ins().load(cl::I64, trusted, args_base, off)],
                // A struct passed by value (FuncParamAttr ByVal): its bytes
                // are in the block, at the OpenCL C layout. The block is
                // shared and read-only: a kernel that writes to the struct
                // gets a copy per work-item (`Lowering::copy_byval_params`).
                _ => vec![b.ins().iadd_imm_s(args_base, i64::from(off))],
            },
            _ => {
                let comps = types::flatten(m, ty).map_err(|r| m.diag_id(p, r))?;
                comps
                    .into_iter()
                    .map(|(t, c)| {
                        if t == cl::F16 {
                            super::half::load(b, trusted, args_base, off + c as i32)
                        } else {
                            b.ins().load(t, trusted, args_base, off + c as i32)
                        }
                    })
                    .collect()
            }
        };
        params.push(vals);
    }
    Ok(params)
}

/// Builds helper function `func` into `b`, whose function has
/// [`helper_signature`].
pub fn helper(env: Env, func: &Function, b: &mut FunctionBuilder) -> Result<(), Diagnostic> {
    let m = env.m;
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let all = b.block_params(entry).to_vec();
    let item = all[0];
    let f = ctx_flags();
    let ctx = b.ins().load(cl::I64, f, item, item_offset::CTX);
    let local_id = [0, 1, 2].map(|d| b.ins().load(cl::I64, f, item, item_offset::LOCAL_ID + 8 * d));
    let frame_top = b.ins().load(cl::I64, f, item, item_offset::FRAME_TOP);
    let ctx_words = preload_ctx(b, ctx);
    let mut rest = all[1..].iter().copied();
    let mut params = Vec::with_capacity(func.params.len());
    for &p in &func.params {
        let ty = m.type_of(p).ok_or_else(|| m.diag_id(p, "parameter without a type"))?;
        let n = types::components(m, ty).map_err(|r| m.diag_id(p, r))?.len();
        params.push(rest.by_ref().take(n).collect());
    }
    let wi = WorkItemValues {
        ctx,
        local_id,
        item,
        ctx_words,
        frame_top,
    };
    lower_body(env, func, b, wi, Exit::Return, params, None, None).map(|_| ())
}
