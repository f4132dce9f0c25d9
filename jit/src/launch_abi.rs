//! The contract between the runtime and generated code: how a work-group is
//! launched.
//!
//! Each kernel compiles to one *work-group function* ([`WorkGroupFn`]): the
//! runtime fills a [`WorkGroupCtx`] for a work-group and calls the function
//! with its address; the function runs every work-item of that group (loops
//! over z, y, x of [`WorkGroupCtx::local_size`]) and returns.
//!
//! # The argument block
//!
//! [`WorkGroupCtx::args`] points to the kernel's arguments, packed in order,
//! each at the next offset aligned to its size ([`arg_align`]: the size
//! rounded up to a power of two; [`arg_offsets`] computes the layout). The
//! block itself must be aligned to the largest of these alignments:
//! - `__global` / `__constant` buffers: the 8-byte address of the buffer's
//!   storage (0 for NULL);
//! - values (scalars, vectors, structs passed by value): their bytes with the
//!   OpenCL C layout, as the application passed them to clSetKernelArg;
//! - `__local` pointers: the 8-byte address of the argument's slice of the
//!   local-memory arena ([`WorkGroupCtx::local_arena`]);
//! - `queue_t` (a device queue): an opaque 8-byte word, the address of the
//!   runtime's device queue object, which the launch keeps alive while the
//!   kernel runs. Generated code never dereferences it: it is only passed
//!   on (to the device-side enqueue entry points, once they exist) and
//!   compared; [`WorkGroupCtx::default_queue`] is the same kind of word;
//! - pipes: the 8-byte address of the pipe's store, laid out as
//!   [`crate::pipe`] says; generated code only passes it to the pipe
//!   built-ins.
//!
//! The block is read-only for generated code. The runtime fills it once per
//! command and gives each range of work-groups it runs on one thread a
//! copy with that thread's `__local` addresses.
//!
//! Helper functions (SPIR-V functions other than kernel entry points) take a
//! hidden first parameter: the address of a [`WorkItem`], from which they
//! compute built-in variables.

use crate::interface::KernelInfo;

/// The printf buffer of a launch ([`WorkGroupCtx::printf`]) and the write
/// the runtime prints it with.
pub use clift_builtins::printf::{write_stdout, PrintfSink};

/// One work-group's launch parameters. All sizes and ids are in work-items
/// (or work-groups) per dimension; unused dimensions hold size 1, id 0.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct WorkGroupCtx {
    /// get_work_dim(): 1, 2 or 3.
    pub work_dim: u32,
    /// get_global_offset().
    pub global_offset: [u64; 3],
    /// get_global_size().
    pub global_size: [u64; 3],
    /// get_local_size(): the actual size of this group, smaller than
    /// `enqueued_local_size` for the last group of a non-uniform NDRange.
    pub local_size: [u64; 3],
    /// get_enqueued_local_size().
    pub enqueued_local_size: [u64; 3],
    /// get_num_groups().
    pub num_groups: [u64; 3],
    /// get_group_id() of this group.
    pub group_id: [u64; 3],
    /// The argument block (see the module docs).
    pub args: *const u8,
    /// The local-memory arena of the thread running this group: the
    /// kernel's `__local` variables at its start
    /// ([`KernelCode::local_static`] bytes), then the `__local` arguments.
    pub local_arena: *mut u8,
    /// The arena's size in bytes.
    pub local_arena_size: u64,
    /// The private-memory arena of the thread running this group: one frame
    /// of [`KernelCode::private_frame`] bytes per work-item (in local linear
    /// id order), for kernels whose private state must outlive a barrier;
    /// null when the frame size is 0.
    pub private_arena: *mut u8,
    /// The private arena's size in bytes.
    pub private_arena_size: u64,
    /// The launch's printf buffer, which every printf call of the kernel
    /// appends its output to (the runtime prints it when the command
    /// completes); null makes each call print at once.
    pub printf: *const clift_builtins::printf::PrintfSink,
    /// get_default_queue(): the default on-device queue of the command's
    /// device and context when it was enqueued, as the opaque word every
    /// `queue_t` is (see the module docs); 0 (`CLK_NULL_QUEUE`) when there
    /// is none.
    pub default_queue: u64,
    /// The device-side enqueue entry points of the launch (see
    /// [`DeviceEnqueue`]), for kernels that enqueue (`enqueue_kernel`,
    /// `enqueue_marker`, device events, the block kernel queries); null
    /// for the others, whose code never reads it.
    pub device_enqueue: *const DeviceEnqueue,
}

/// `CLK_SUCCESS`, and the errors `enqueue_kernel` and `enqueue_marker`
/// return (OpenCL C 6.13.17.3).
pub mod clk {
    pub const SUCCESS: i32 = 0;
    pub const ENQUEUE_FAILURE: i32 = -101;
    pub const INVALID_QUEUE: i32 = -102;
    pub const INVALID_NDRANGE: i32 = -160;
    pub const INVALID_EVENT_WAIT_LIST: i32 = -57;
    pub const DEVICE_QUEUE_FULL: i32 = -161;
    pub const INVALID_ARG_SIZE: i32 = -51;
    pub const EVENT_ALLOCATION_FAILURE: i32 = -100;
    pub const OUT_OF_RESOURCES: i32 = -5;
    /// `CLK_NULL_EVENT`: every bit set (`__SIZE_MAX__` as a `clk_event_t`).
    pub const NULL_EVENT: u64 = u64::MAX;
}

/// An `ndrange_t` in memory (OpBuildNDRange's struct, as clang lays it
/// out): the dimension count, then the offsets, global sizes and local
/// sizes (0 when not given), three `size_t` each.
pub mod ndrange_layout {
    pub const WORK_DIM: usize = 0;
    pub const OFFSET: usize = 8;
    pub const GLOBAL: usize = 32;
    pub const LOCAL: usize = 56;
    pub const SIZE: usize = 80;
}

/// What generated code passes to [`DeviceEnqueue::enqueue_kernel`]: one
/// OpEnqueueKernel's operands, in memory.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct EnqueueRequest {
    /// The `queue_t` word.
    pub queue: u64,
    /// The ND-range, laid out as [`ndrange_layout`] says.
    pub ndrange: *const u8,
    /// `num_events` event words (the wait list), or null.
    pub wait: *const u64,
    /// Where the child's event word goes, or null.
    pub ret_event: *mut u64,
    /// The block literal: `literal_size` bytes aligned to `literal_align`,
    /// copied by the enqueue (the parent's copy dies with it).
    pub literal: *const u8,
    /// The sizes of the block's `__local` arguments, `num_locals` of them.
    pub local_sizes: *const u64,
    /// `CLK_ENQUEUE_FLAGS_*`.
    pub flags: u32,
    /// The block kernel: the index of its entry point in the module.
    pub kernel: u32,
    pub num_events: u32,
    pub literal_size: u32,
    pub literal_align: u32,
    pub num_locals: u32,
}

/// The operations on device events ([`DeviceEnqueue::event`]).
pub mod event_op {
    /// create_user_event(): a new event word ([`super::clk::NULL_EVENT`]
    /// when the pool is exhausted).
    pub const CREATE_USER: u32 = 0;
    /// set_user_event_status(event, value).
    pub const SET_STATUS: u32 = 1;
    /// retain_event(event).
    pub const RETAIN: u32 = 2;
    /// release_event(event).
    pub const RELEASE: u32 = 3;
    /// is_valid_event(event): 1 or 0.
    pub const IS_VALID: u32 = 4;
    /// capture_event_profiling_info(event, CLK_PROFILING_COMMAND_EXEC_TIME,
    /// value): `value` is the address of two `ulong`s, written when the
    /// event's command completes.
    pub const CAPTURE_PROFILING: u32 = 5;
}

/// What [`DeviceEnqueue::kernel_query`] answers about a block kernel.
pub mod kernel_query {
    /// get_kernel_work_group_size.
    pub const WORK_GROUP_SIZE: u32 = 0;
    /// get_kernel_preferred_work_group_size_multiple.
    pub const PREFERRED_MULTIPLE: u32 = 1;
    /// get_kernel_sub_group_count_for_ndrange.
    pub const SUB_GROUP_COUNT: u32 = 2;
    /// get_kernel_max_sub_group_size_for_ndrange.
    pub const MAX_SUB_GROUP_SIZE: u32 = 3;
}

/// The runtime's device-side enqueue for one launch and its descendants:
/// generated code passes `state` back with each call. Every entry point
/// must be callable from any work-item of any thread at once, and must
/// neither unwind nor block on another work-item.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DeviceEnqueue {
    /// The runtime's state, opaque to generated code.
    pub state: *const std::ffi::c_void,
    /// enqueue_kernel: `CLK_SUCCESS` or one of [`clk`]'s errors.
    pub enqueue_kernel: unsafe extern "C" fn(state: *const std::ffi::c_void, request: *const EnqueueRequest) -> i32,
    /// enqueue_marker(queue, num_events, wait, ret).
    pub enqueue_marker: unsafe extern "C" fn(
        state: *const std::ffi::c_void,
        queue: u64,
        num_events: u32,
        wait: *const u64,
        ret: *mut u64,
    ) -> i32,
    /// An [`event_op`] on `event` with `value`.
    pub event: unsafe extern "C" fn(state: *const std::ffi::c_void, op: u32, event: u64, value: u64) -> u64,
    /// A [`kernel_query`] about block kernel `kernel` (an entry point
    /// index) for `ndrange` (null for the queries without one).
    pub kernel_query:
        unsafe extern "C" fn(state: *const std::ffi::c_void, query: u32, kernel: u32, ndrange: *const u8) -> u32,
}

/// What the runtime needs to launch one compiled kernel.
#[derive(Debug, Clone, Copy)]
pub struct KernelCode {
    /// The work-group function.
    pub func: WorkGroupFn,
    /// Bytes at the start of the local arena that the kernel's own
    /// `__local` variables use (each `__local` argument follows, from the
    /// next multiple of 128).
    pub local_static: u64,
    /// Bytes of private arena per work-item (0 for kernels without
    /// barriers, which keep private state on the stack).
    pub private_frame: u64,
}

/// What a helper function knows about the work-item calling it.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct WorkItem {
    /// The work-group being run.
    pub ctx: *const WorkGroupCtx,
    /// get_local_id().
    pub local_id: [u64; 3],
    /// The work-group function's frame pointer: its stack variables lie
    /// below it (private memory, see `lower/memory.rs`).
    pub frame_top: u64,
}

/// A work-group function: runs every work-item of the group `ctx` describes.
pub type WorkGroupFn = unsafe extern "C" fn(ctx: *const WorkGroupCtx);

/// Byte offsets of [`WorkGroupCtx`]'s fields, for generated code.
pub mod ctx_offset {
    use super::WorkGroupCtx;
    use std::mem::offset_of;

    pub const WORK_DIM: i32 = offset_of!(WorkGroupCtx, work_dim) as i32;
    pub const GLOBAL_OFFSET: i32 = offset_of!(WorkGroupCtx, global_offset) as i32;
    pub const GLOBAL_SIZE: i32 = offset_of!(WorkGroupCtx, global_size) as i32;
    pub const LOCAL_SIZE: i32 = offset_of!(WorkGroupCtx, local_size) as i32;
    pub const ENQUEUED_LOCAL_SIZE: i32 = offset_of!(WorkGroupCtx, enqueued_local_size) as i32;
    pub const NUM_GROUPS: i32 = offset_of!(WorkGroupCtx, num_groups) as i32;
    pub const GROUP_ID: i32 = offset_of!(WorkGroupCtx, group_id) as i32;
    pub const ARGS: i32 = offset_of!(WorkGroupCtx, args) as i32;
    pub const LOCAL_ARENA: i32 = offset_of!(WorkGroupCtx, local_arena) as i32;
    pub const LOCAL_ARENA_SIZE: i32 = offset_of!(WorkGroupCtx, local_arena_size) as i32;
    pub const PRIVATE_ARENA: i32 = offset_of!(WorkGroupCtx, private_arena) as i32;
    pub const PRIVATE_ARENA_SIZE: i32 = offset_of!(WorkGroupCtx, private_arena_size) as i32;
    pub const PRINTF: i32 = offset_of!(WorkGroupCtx, printf) as i32;
    pub const DEFAULT_QUEUE: i32 = offset_of!(WorkGroupCtx, default_queue) as i32;
    pub const DEVICE_ENQUEUE: i32 = offset_of!(WorkGroupCtx, device_enqueue) as i32;
}

/// Byte offsets of [`WorkItem`]'s fields, for generated code.
pub mod item_offset {
    use super::WorkItem;
    use std::mem::offset_of;

    pub const CTX: i32 = offset_of!(WorkItem, ctx) as i32;
    pub const LOCAL_ID: i32 = offset_of!(WorkItem, local_id) as i32;
    pub const FRAME_TOP: i32 = offset_of!(WorkItem, frame_top) as i32;
}

/// The alignment of an argument of `size` bytes in the argument block: its
/// size rounded up to a power of two (a 3-component vector's 12 or 24 bytes
/// become 16 or 32), at least 1 and at most 128 (the largest OpenCL C type,
/// long16 / double16).
pub fn arg_align(size: usize) -> usize {
    size.max(1).next_power_of_two().min(128)
}

/// The offset of each argument of `kernel` in the argument block, and the
/// block's total size.
pub fn arg_offsets(kernel: &KernelInfo) -> (Vec<usize>, usize) {
    let mut at = 0usize;
    let mut offsets = Vec::with_capacity(kernel.args.len());
    for a in &kernel.args {
        let align = arg_align(a.size);
        at = at.div_ceil(align) * align;
        offsets.push(at);
        at += a.size;
    }
    (offsets, at)
}
