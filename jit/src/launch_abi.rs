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
