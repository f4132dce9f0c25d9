//! Device-side enqueue (OpenCL C 6.13.17): OpBuildNDRange is computed
//! inline; every other instruction calls the launch's
//! [`DeviceEnqueue`](crate::launch_abi::DeviceEnqueue) entry points (the
//! runtime's, reached through [`WorkGroupCtx::device_enqueue`]) with its
//! operands in memory:
//! - OpEnqueueKernel fills an [`EnqueueRequest`] in a stack slot: the
//!   ND-range (a struct value is stored with its OpenCL C layout; llvm-spirv
//!   15 passes a pointer to a Function-storage copy, used as it is), the
//!   wait list and return event pointers, the block kernel (the index of
//!   the entry point that runs the invoke function, [`crate::block_invoke`]),
//!   the block literal, and the local sizes (values, or, as llvm-spirv 15
//!   writes them, pointers to them in private memory);
//! - OpEnqueueMarker, the device event instructions and the block kernel
//!   queries pass their operands as arguments.
//!
//! Device events (`clk_event_t`) are opaque 64-bit words the runtime hands
//! out (`CLK_NULL_EVENT` is every bit set). Kernels using any of this never
//! get a 4-lane body (`simd::analysis`): an enqueue is an effect outside the
//! work-item that an abandoned chunk would repeat.
//!
//! [`WorkGroupCtx::device_enqueue`]: crate::launch_abi::WorkGroupCtx::device_enqueue
//! [`EnqueueRequest`]: crate::launch_abi::EnqueueRequest

use std::mem::offset_of;

use cranelift_codegen::ir::{
    condcodes::IntCC, types as cl, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value,
};
use spirv::Op;

use super::{Lowering, R};
use crate::launch_abi::{clk, ctx_offset, event_op, kernel_query, ndrange_layout, DeviceEnqueue, EnqueueRequest};
use crate::spirv::{Id, Type};

/// enqueue_kernel through the launch's entry points (`CLK_ENQUEUE_FAILURE`
/// for a launch without them).
///
/// # Safety
/// `hooks` is null or the launch's [`DeviceEnqueue`], valid while the
/// kernel runs; `request` points to a complete request.
unsafe extern "C" fn enqueue_kernel(hooks: *const DeviceEnqueue, request: *const EnqueueRequest) -> i32 {
    // SAFETY: the caller's contract.
    match unsafe { hooks.as_ref() } {
        // SAFETY: the runtime's entry point, given its own state.
        Some(h) => unsafe { (h.enqueue_kernel)(h.state, request) },
        None => clk::ENQUEUE_FAILURE,
    }
}

/// enqueue_marker through the launch's entry points.
///
/// # Safety
/// As [`enqueue_kernel`]; `wait` and `ret` are what the kernel passed.
unsafe extern "C" fn enqueue_marker(
    hooks: *const DeviceEnqueue,
    queue: u64,
    num_events: u32,
    wait: *const u64,
    ret: *mut u64,
) -> i32 {
    // SAFETY: the caller's contract.
    match unsafe { hooks.as_ref() } {
        // SAFETY: the runtime's entry point, given its own state.
        Some(h) => unsafe { (h.enqueue_marker)(h.state, queue, num_events, wait, ret) },
        None => clk::ENQUEUE_FAILURE,
    }
}

/// A device event operation through the launch's entry points.
///
/// # Safety
/// As [`enqueue_kernel`].
unsafe extern "C" fn event(hooks: *const DeviceEnqueue, op: u32, event: u64, value: u64) -> u64 {
    // SAFETY: the caller's contract.
    match unsafe { hooks.as_ref() } {
        // SAFETY: the runtime's entry point, given its own state.
        Some(h) => unsafe { (h.event)(h.state, op, event, value) },
        None if op == event_op::CREATE_USER => clk::NULL_EVENT,
        None => 0,
    }
}

/// A block kernel query through the launch's entry points.
///
/// # Safety
/// As [`enqueue_kernel`]; `ndrange` is null or a complete `ndrange_t`.
unsafe extern "C" fn query(hooks: *const DeviceEnqueue, what: u32, kernel: u32, ndrange: *const u8) -> u32 {
    // SAFETY: the caller's contract.
    match unsafe { hooks.as_ref() } {
        // SAFETY: the runtime's entry point, given its own state.
        Some(h) => unsafe { (h.kernel_query)(h.state, what, kernel, ndrange) },
        None => 0,
    }
}

impl Lowering<'_, '_, '_> {
    /// A new stack slot of `size` bytes aligned to 8, and its address.
    fn enqueue_slot(&mut self, size: u32) -> R<Value> {
        self.take_stack(u64::from(size))?;
        let slot = self
            .b
            .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 3));
        Ok(self.b.ins().stack_addr(cl::I64, slot, 0))
    }

    /// The address of ND-range `id`: a pointer operand as it is, a struct
    /// value stored in a stack slot.
    fn ndrange_address(&mut self, id: Id) -> R<Value> {
        let ty = self.type_of(id);
        if matches!(self.m.ty(ty), Some(Type::Pointer { .. })) {
            return self.get1(id);
        }
        let addr = self.enqueue_slot(ndrange_layout::SIZE as u32)?;
        self.store_value(addr, id, false)?;
        Ok(addr)
    }

    /// The entry point index of the block kernel running invoke function
    /// `f`.
    fn block_kernel(&self, f: Option<Id>) -> R<i64> {
        let f = f.ok_or("missing invoke function")?;
        crate::block_invoke::block_kernels(self.m)
            .get(&f)
            .map(|&k| k as i64)
            .ok_or_else(|| {
                format!(
                    "the invoke function {} is not a kernel entry point's function (nor called by one that only \
                     forwards its parameters), so clift cannot launch it",
                    self.m.show(f)
                )
            })
    }

    /// `v` (an integer value) as an `i64`, zero-extended.
    fn enqueue_u64(&mut self, v: Value) -> Value {
        match self.b.func.dfg.value_type(v) {
            cl::I64 => v,
            _ => self.b.ins().uextend(cl::I64, v),
        }
    }

    /// `v` (an integer value) as an `i32`.
    fn enqueue_u32(&mut self, v: Value) -> Value {
        match self.b.func.dfg.value_type(v) {
            cl::I32 => v,
            cl::I64 => self.b.ins().ireduce(cl::I32, v),
            _ => self.b.ins().uextend(cl::I32, v),
        }
    }

    /// OpBuildNDRange: the `ndrange_t` struct's components (dimension
    /// count, offsets, global sizes, local sizes); a scalar operand makes a
    /// 1-dimensional range, an array of N sizes an N-dimensional one.
    fn build_ndrange(&mut self, i: u32) -> R<Vec<Value>> {
        let inst = &self.m.insts[i as usize];
        // GlobalWorkSize, LocalWorkSize, GlobalWorkOffset.
        let mut parts = Vec::with_capacity(3);
        for k in 0..3 {
            let id = inst.id(k).ok_or("missing OpBuildNDRange operand")?;
            parts.push(self.get(id)?);
        }
        let dims = parts[0].len();
        if !(1..=3).contains(&dims) || parts.iter().any(|p| p.len() != dims) {
            return Err("OpBuildNDRange's sizes and offset must be 1, 2 or 3 values each, as many of each".into());
        }
        let mut out = vec![self.b.ins().iconst(cl::I32, dims as i64)];
        // offsets (0 beyond), global sizes (1 beyond), local sizes (0 beyond).
        for (part, fill) in [(2usize, 0i64), (0, 1), (1, 0)] {
            for d in 0..3 {
                let v = match parts[part].get(d) {
                    Some(&v) => self.enqueue_u64(v),
                    None => self.b.ins().iconst(cl::I64, fill),
                };
                out.push(v);
            }
        }
        Ok(out)
    }

    /// Lowers device-side enqueue instruction `i`.
    pub(super) fn device_enqueue(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let id = |k: usize| {
            inst.id(k)
                .ok_or_else(|| format!("{} is missing operand {k}", inst.opname()))
        };
        let hooks = self.ctx_word(ctx_offset::DEVICE_ENQUEUE);
        let result: Option<Vec<Value>> = match inst.op {
            Op::BuildNDRange => Some(self.build_ndrange(i)?),
            Op::EnqueueKernel => {
                let queue = self.get1(id(0)?)?;
                let flags = self.get1(id(1)?)?;
                let ndrange = self.ndrange_address(id(2)?)?;
                let num_events = self.get1(id(3)?)?;
                let wait = self.get1(id(4)?)?;
                let ret = self.get1(id(5)?)?;
                let kernel = self.block_kernel(inst.id(6))?;
                let literal = self.get1(id(7)?)?;
                let size = self.get1(id(8)?)?;
                let align = self.get1(id(9)?)?;
                // The local sizes: values, or pointers to them.
                let n_locals = inst.operands.len().saturating_sub(10);
                let locals = self.enqueue_slot((8 * n_locals.max(1)) as u32)?;
                for k in 0..n_locals {
                    let l = id(10 + k)?;
                    let lt = self.type_of(l);
                    let v = match m.pointer(lt) {
                        Some((_, pointee)) => {
                            let p = self.get1(l)?;
                            let t = super::types::scalar(m, pointee)?;
                            self.b.ins().load(t, MemFlagsData::new(), p, 0)
                        }
                        None => self.get1(l)?,
                    };
                    let v = self.enqueue_u64(v);
                    self.b.ins().store(MemFlagsData::new(), v, locals, (8 * k) as i32);
                }
                let req = self.enqueue_slot(std::mem::size_of::<EnqueueRequest>() as u32)?;
                let put64 = |s: &mut Self, v: Value, off: usize| {
                    s.b.ins().store(MemFlagsData::new(), v, req, off as i32);
                };
                put64(self, queue, offset_of!(EnqueueRequest, queue));
                put64(self, ndrange, offset_of!(EnqueueRequest, ndrange));
                put64(self, wait, offset_of!(EnqueueRequest, wait));
                put64(self, ret, offset_of!(EnqueueRequest, ret_event));
                put64(self, literal, offset_of!(EnqueueRequest, literal));
                put64(self, locals, offset_of!(EnqueueRequest, local_sizes));
                let kernel = self.b.ins().iconst(cl::I32, kernel);
                let n_locals = self.b.ins().iconst(cl::I32, n_locals as i64);
                for (v, off) in [
                    (flags, offset_of!(EnqueueRequest, flags)),
                    (kernel, offset_of!(EnqueueRequest, kernel)),
                    (num_events, offset_of!(EnqueueRequest, num_events)),
                    (size, offset_of!(EnqueueRequest, literal_size)),
                    (align, offset_of!(EnqueueRequest, literal_align)),
                    (n_locals, offset_of!(EnqueueRequest, num_locals)),
                ] {
                    let v = self.enqueue_u32(v);
                    self.b.ins().store(MemFlagsData::new(), v, req, off as i32);
                }
                let f = enqueue_kernel as unsafe extern "C" fn(_, _) -> _ as usize;
                Some(self.call_host(f, &[cl::I64, cl::I64], &[cl::I32], &[hooks, req]))
            }
            Op::EnqueueMarker => {
                let queue = self.get1(id(0)?)?;
                let n = self.get1(id(1)?)?;
                let n = self.enqueue_u32(n);
                let wait = self.get1(id(2)?)?;
                let ret = self.get1(id(3)?)?;
                let f = enqueue_marker as unsafe extern "C" fn(_, _, _, _, _) -> _ as usize;
                let params = [cl::I64, cl::I64, cl::I32, cl::I64, cl::I64];
                Some(self.call_host(f, &params, &[cl::I32], &[hooks, queue, n, wait, ret]))
            }
            Op::CreateUserEvent
            | Op::SetUserEventStatus
            | Op::RetainEvent
            | Op::ReleaseEvent
            | Op::IsValidEvent
            | Op::CaptureEventProfilingInfo => {
                let zero = self.b.ins().iconst(cl::I64, 0);
                let (op, ev, value) = match inst.op {
                    Op::CreateUserEvent => (event_op::CREATE_USER, zero, zero),
                    Op::SetUserEventStatus => {
                        let status = self.get1(id(1)?)?;
                        let status = match self.b.func.dfg.value_type(status) {
                            cl::I64 => status,
                            _ => self.b.ins().sextend(cl::I64, status),
                        };
                        (event_op::SET_STATUS, self.get1(id(0)?)?, status)
                    }
                    Op::RetainEvent => (event_op::RETAIN, self.get1(id(0)?)?, zero),
                    Op::ReleaseEvent => (event_op::RELEASE, self.get1(id(0)?)?, zero),
                    Op::IsValidEvent => (event_op::IS_VALID, self.get1(id(0)?)?, zero),
                    _ => {
                        // Only CLK_PROFILING_COMMAND_EXEC_TIME (1) is
                        // defined; for any other value nothing is written.
                        let ev = self.get1(id(0)?)?;
                        let info = self.get1(id(1)?)?;
                        let addr = self.get1(id(2)?)?;
                        let exec_time = self.b.ins().icmp_imm_s(IntCC::Equal, info, 1);
                        let addr = self.b.ins().select(exec_time, addr, zero);
                        (event_op::CAPTURE_PROFILING, ev, addr)
                    }
                };
                let opv = self.b.ins().iconst(cl::I32, i64::from(op));
                let f = event as unsafe extern "C" fn(_, _, _, _) -> _ as usize;
                let params = [cl::I64, cl::I32, cl::I64, cl::I64];
                let r = self.call_host(f, &params, &[cl::I64], &[hooks, opv, ev, value])[0];
                match inst.op {
                    Op::CreateUserEvent => Some(vec![r]),
                    Op::IsValidEvent => Some(vec![self.b.ins().icmp_imm_s(IntCC::NotEqual, r, 0)]),
                    _ => None,
                }
            }
            Op::GetKernelWorkGroupSize
            | Op::GetKernelPreferredWorkGroupSizeMultiple
            | Op::GetKernelNDrangeSubGroupCount
            | Op::GetKernelNDrangeMaxSubGroupSize => {
                let (what, kernel, ndrange) = match inst.op {
                    Op::GetKernelWorkGroupSize => (kernel_query::WORK_GROUP_SIZE, self.block_kernel(inst.id(0))?, None),
                    Op::GetKernelPreferredWorkGroupSizeMultiple => {
                        (kernel_query::PREFERRED_MULTIPLE, self.block_kernel(inst.id(0))?, None)
                    }
                    Op::GetKernelNDrangeSubGroupCount => (
                        kernel_query::SUB_GROUP_COUNT,
                        self.block_kernel(inst.id(1))?,
                        Some(id(0)?),
                    ),
                    _ => (
                        kernel_query::MAX_SUB_GROUP_SIZE,
                        self.block_kernel(inst.id(1))?,
                        Some(id(0)?),
                    ),
                };
                let ndrange = match ndrange {
                    Some(nd) => self.ndrange_address(nd)?,
                    None => self.b.ins().iconst(cl::I64, 0),
                };
                let what = self.b.ins().iconst(cl::I32, i64::from(what));
                let kernel = self.b.ins().iconst(cl::I32, kernel);
                let f = query as unsafe extern "C" fn(_, _, _, _) -> _ as usize;
                let params = [cl::I64, cl::I32, cl::I32, cl::I64];
                Some(self.call_host(f, &params, &[cl::I32], &[hooks, what, kernel, ndrange]))
            }
            _ => return Err(format!("{} is not a device-side enqueue instruction", inst.opname())),
        };
        if let (Some(v), Some(r)) = (result, inst.result_id) {
            self.values.insert(r, v);
        }
        Ok(())
    }
}
