//! Block-invoke kernels: the kernels device-side enqueue launches.
//!
//! OpEnqueueKernel and the block kernel queries (OpGetKernelWorkGroupSize,
//! OpGetKernelPreferredWorkGroupSizeMultiple, OpGetKernelNDrangeSubGroupCount,
//! OpGetKernelNDrangeMaxSubGroupSize) name an *invoke* function: its first
//! parameter is a Generic pointer to the block literal, the others
//! Workgroup pointers, one per `__local` argument of the block. clift runs
//! an invoke function as a kernel, so each must be the function of a kernel
//! entry point, or be called by one whose function does nothing but call it
//! with its own parameters: llvm-spirv 15 names the invoke function
//! `__<fn>_block_invoke[_N]_kernel` and adds an entry point of that name
//! whose function is such a wrapper. Those entry points are *block
//! kernels*: their first parameter may be a Generic pointer (the validator
//! accepts it there), the runtime hides them from the application (they are
//! launched only by `enqueue_kernel`), and [`block_kernels`] tells the
//! lowering which kernel an enqueue launches.

use std::collections::HashMap;

use spirv::Op;

use crate::spirv::{Id, Inst, Module};

/// The invoke function an instruction names, if it is one of the
/// instructions that name one (OpEnqueueKernel: operand 6; the queries:
/// operand 0, or 1 after an ND-range).
pub fn invoke_operand(inst: &Inst) -> Option<Id> {
    match inst.op {
        Op::EnqueueKernel => inst.id(6),
        Op::GetKernelWorkGroupSize | Op::GetKernelPreferredWorkGroupSizeMultiple => inst.id(0),
        Op::GetKernelNDrangeSubGroupCount | Op::GetKernelNDrangeMaxSubGroupSize => inst.id(1),
        _ => None,
    }
}

/// Whether `op` is a device-side enqueue instruction whose lowering calls
/// the launch's [`crate::launch_abi::DeviceEnqueue`].
pub fn is_device_enqueue(op: Op) -> bool {
    matches!(
        op,
        Op::EnqueueKernel
            | Op::EnqueueMarker
            | Op::CreateUserEvent
            | Op::SetUserEventStatus
            | Op::RetainEvent
            | Op::ReleaseEvent
            | Op::IsValidEvent
            | Op::CaptureEventProfilingInfo
            | Op::GetKernelWorkGroupSize
            | Op::GetKernelPreferredWorkGroupSizeMultiple
            | Op::GetKernelNDrangeSubGroupCount
            | Op::GetKernelNDrangeMaxSubGroupSize
    )
}

/// The entry point (its index in [`Module::entry_points`]) whose function
/// is `f`, or whose function only calls `f` with its own parameters and
/// returns.
fn entry_point_running(m: &Module, f: Id) -> Option<usize> {
    if let Some(k) = m.entry_points.iter().position(|ep| ep.function == f) {
        return Some(k);
    }
    m.entry_points.iter().position(|ep| {
        let Some(w) = m.function(ep.function) else {
            return false;
        };
        let [block] = w.blocks.as_slice() else {
            return false;
        };
        let body: Vec<&Inst> = block.body().map(|i| &m.insts[i as usize]).collect();
        match body.as_slice() {
            [call, ret] => {
                call.op == Op::FunctionCall
                    && ret.op == Op::Return
                    && call.id(0) == Some(f)
                    && (1..call.operands.len())
                        .map(|k| call.id(k))
                        .eq(w.params.iter().map(|&p| Some(p)))
            }
            _ => false,
        }
    })
}

/// Every invoke function the module's instructions name, mapped to the
/// index of the kernel entry point that runs it (see the module
/// documentation); an invoke function no entry point runs is left out
/// (the lowering of an enqueue naming it says so).
pub fn block_kernels(m: &Module) -> HashMap<Id, usize> {
    let mut out = HashMap::new();
    for inst in &m.insts {
        if let Some(f) = invoke_operand(inst) {
            if out.contains_key(&f) {
                continue;
            }
            if let Some(k) = entry_point_running(m, f) {
                out.insert(f, k);
            }
        }
    }
    out
}
