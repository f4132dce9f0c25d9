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
//! entry(ctx):      load local_size; jump z_head(0)
//! z_head(z):       brif z < lsz2, y_init, exit
//! y_init:          jump y_head(0)
//! y_head(y):       brif y < lsz1, x_init, z_next
//! z_next:          jump z_head(z + 1)
//! x_init:          jump x_head(0)
//! x_head(x):       brif x < lsz0, item, y_next
//! y_next:          jump y_head(y + 1)
//! item:            WorkItem {ctx, (x, y, z)} on the stack; load arguments;
//!                  jump <kernel entry block> ... OpReturn: jump x_next
//! x_next:          jump x_head(x + 1)
//! exit:            return
//! ```
//! `x`, `y` and `z` are block parameters of the loop heads, which dominate
//! the body, so the body uses them directly as the local id.

use std::collections::HashMap;

use cranelift_codegen::ir::{
    condcodes::IntCC, types as cl, AbiParam, BlockArg, FuncRef, InstBuilder, MemFlagsData, Signature, StackSlotData,
    StackSlotKind,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilder;
use spirv::StorageClass;

use super::{lower_body, types, Exit, WorkItemValues};
use crate::error::Diagnostic;
use crate::launch_abi::{arg_offsets, ctx_offset, item_offset, WorkItem};
use crate::spirv::{Function, Id, Module, Type};
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
/// into `b`, whose function has [`kernel_signature`].
pub fn kernel(
    m: &Module,
    func: &Function,
    info: &KernelInfo,
    b: &mut FunctionBuilder,
    callees: &HashMap<Id, FuncRef>,
) -> Result<(), Diagnostic> {
    let trusted = {
        let mut f = MemFlagsData::trusted();
        f.set_readonly();
        f
    };
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let ctx = b.block_params(entry)[0];
    let lsz: Vec<_> = (0..3)
        .map(|d| b.ins().load(cl::I64, trusted, ctx, ctx_offset::LOCAL_SIZE + 8 * d))
        .collect();
    let args_base = b.ins().load(cl::I64, trusted, ctx, ctx_offset::ARGS);

    let (z_head, y_init, y_head, z_next, x_init, x_head, y_next, item, x_next, exit) = (
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
    let zero = b.ins().iconst(cl::I64, 0);
    b.ins().jump(z_head, &[BlockArg::Value(zero)]);

    // Loop heads: index < size continues inward, else outward.
    let z = b.append_block_param(z_head, cl::I64);
    let y = b.append_block_param(y_head, cl::I64);
    let x = b.append_block_param(x_head, cl::I64);
    let heads = [
        (z_head, z, lsz[2], y_init, exit),
        (y_head, y, lsz[1], x_init, z_next),
        (x_head, x, lsz[0], item, y_next),
    ];
    for (head, idx, size, inner, outer) in heads {
        b.switch_to_block(head);
        let more = b.ins().icmp(IntCC::UnsignedLessThan, idx, size);
        b.ins().brif(more, inner, &[], outer, &[]);
    }
    for (init, head) in [(y_init, y_head), (x_init, x_head)] {
        b.switch_to_block(init);
        let zero = b.ins().iconst(cl::I64, 0);
        b.ins().jump(head, &[BlockArg::Value(zero)]);
    }
    for (next, idx, head) in [(z_next, z, z_head), (y_next, y, y_head), (x_next, x, x_head)] {
        b.switch_to_block(next);
        let n = b.ins().iadd_imm_s(idx, 1);
        b.ins().jump(head, &[BlockArg::Value(n)]);
    }
    b.switch_to_block(exit);
    b.ins().return_(&[]);

    // One work-item.
    b.switch_to_block(item);
    let size = std::mem::size_of::<WorkItem>() as u32;
    let slot = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 3));
    b.ins().stack_store(cl::I64, ctx, slot, item_offset::CTX);
    for (d, v) in [x, y, z].into_iter().enumerate() {
        b.ins()
            .stack_store(cl::I64, v, slot, item_offset::LOCAL_ID + 8 * d as i32);
    }
    let item_addr = b.ins().stack_addr(cl::I64, slot, 0);

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
                _ => return Err(m.diag_id(p, "structs passed by value are not supported by code generation yet")),
            },
            _ => {
                let comps = types::components(m, ty).map_err(|r| m.diag_id(p, r))?;
                let csz = types::component_size(m, ty).map_err(|r| m.diag_id(p, r))? as i32;
                comps
                    .into_iter()
                    .enumerate()
                    .map(|(c, t)| b.ins().load(t, trusted, args_base, off + csz * c as i32))
                    .collect()
            }
        };
        params.push(vals);
    }
    let wi = WorkItemValues {
        ctx,
        local_id: [x, y, z],
        item: item_addr,
    };
    lower_body(m, func, b, callees, wi, Exit::NextWorkItem(x_next), params)
}

/// Builds helper function `func` into `b`, whose function has
/// [`helper_signature`].
pub fn helper(
    m: &Module,
    func: &Function,
    b: &mut FunctionBuilder,
    callees: &HashMap<Id, FuncRef>,
) -> Result<(), Diagnostic> {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    let all = b.block_params(entry).to_vec();
    let item = all[0];
    let mut f = MemFlagsData::trusted();
    f.set_readonly();
    let ctx = b.ins().load(cl::I64, f, item, item_offset::CTX);
    let local_id = [0, 1, 2].map(|d| b.ins().load(cl::I64, f, item, item_offset::LOCAL_ID + 8 * d));
    let mut rest = all[1..].iter().copied();
    let mut params = Vec::with_capacity(func.params.len());
    for &p in &func.params {
        let ty = m.type_of(p).ok_or_else(|| m.diag_id(p, "parameter without a type"))?;
        let n = types::components(m, ty).map_err(|r| m.diag_id(p, r))?.len();
        params.push(rest.by_ref().take(n).collect());
    }
    let wi = WorkItemValues { ctx, local_id, item };
    lower_body(m, func, b, callees, wi, Exit::Return, params)
}
