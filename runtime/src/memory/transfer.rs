//! Commands that move data between memory objects and the host: read,
//! write, copy and fill (plain and rectangular), map, unmap, migrate, and
//! native kernels.
//!
//! Each function checks its arguments (the spec sentence above each check)
//! and returns a [`Command`]; the API layer then converts the event wait
//! list and calls [`Command::submit`]. Splitting the two keeps the spec's
//! order of errors: argument errors come before wait-list errors.

use std::ffi::c_void;
use std::sync::Arc;

use super::storage::{self, Bytes, HostPtr, Rect, Storage};
use super::{MemObject, MEM_BASE_ADDR_ALIGN};
use crate::error::{fail, ClError, ClResult};
use crate::event::{Event, Work};
use crate::queue::Queue;
use opencl_sys::*;

pub(crate) type Hook<T> = Box<dyn FnOnce() -> T + Send>;

/// A checked command, ready to be enqueued once the wait list is known.
pub struct Command {
    queue: Arc<Queue>,
    command_type: cl_command_type,
    work: Work,
    /// Runs just before the command is enqueued (after the wait list is
    /// checked); its error fails the call.
    commit: Option<Hook<ClResult<()>>>,
    /// Undoes `commit` when a blocking call fails after enqueueing.
    rollback: Option<Hook<()>>,
}

impl Command {
    /// A command of `command_type` on `queue` that runs `work`.
    pub fn new(queue: &Arc<Queue>, command_type: cl_command_type, work: Work) -> Command {
        Command {
            queue: queue.clone(),
            command_type,
            work,
            commit: None,
            rollback: None,
        }
    }

    pub(crate) fn on_commit(mut self, f: Hook<ClResult<()>>, undo: Hook<()>) -> Command {
        self.commit = Some(f);
        self.rollback = Some(undo);
        self
    }

    /// Enqueues the command after the events of `wait`. If `blocking`, waits
    /// for it: `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` if it failed.
    pub fn submit(self, wait: &[Arc<Event>], blocking: bool) -> ClResult<Arc<Event>> {
        // CL_INVALID_CONTEXT if the context associated with command_queue and
        // events in event_wait_list are not the same.
        self.queue.check_wait_list(wait)?;
        if let Some(commit) = self.commit {
            commit()?;
        }
        let ev = match self.queue.enqueue(self.command_type, wait, self.work) {
            Ok(ev) => ev,
            Err(e) => {
                if let Some(undo) = self.rollback {
                    undo();
                }
                return Err(e);
            }
        };
        // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the operation is
        // blocking and the execution status of any of the events in
        // event_wait_list is a negative integer value.
        if blocking && ev.wait() < 0 {
            if let Some(undo) = self.rollback {
                undo();
            }
            return fail(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        Ok(ev)
    }
}

/// Checks that `mem` is a buffer of the queue's context.
pub(super) fn check_buffer(queue: &Queue, mem: &MemObject) -> ClResult<()> {
    // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
    if !mem.is_buffer() {
        return fail(CL_INVALID_MEM_OBJECT);
    }
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // buffer are not the same.
    if !Arc::ptr_eq(queue.context(), mem.context()) {
        return fail(CL_INVALID_CONTEXT);
    }
    Ok(())
}

/// CL_MISALIGNED_SUB_BUFFER_OFFSET if buffer is a sub-buffer object and the
/// offset specified when the sub-buffer object was created is not aligned to
/// the CL_DEVICE_MEM_BASE_ADDR_ALIGN value for the device associated with
/// command_queue.
pub(super) fn check_aligned(mem: &MemObject) -> ClResult<()> {
    if !mem.origin().is_multiple_of(MEM_BASE_ADDR_ALIGN) {
        return fail(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    }
    Ok(())
}

/// Reads a fill pattern now (the application may reuse its memory once the
/// call returns), after checking its size.
pub(crate) fn read_pattern(pattern: HostPtr, pattern_size: usize) -> ClResult<Vec<u8>> {
    // CL_INVALID_VALUE if pattern is NULL; if pattern_size is zero; if
    // pattern_size is not a power of two; if pattern_size is greater than
    // 128.
    if pattern.is_null() || !pattern_size.is_power_of_two() || pattern_size > 128 {
        return fail(CL_INVALID_VALUE);
    }
    let src = pattern.bytes(pattern_size).ok_or(ClError(CL_INVALID_VALUE))?;
    let mut pat = vec![0u8; pattern_size];
    storage::read(&src, 0, &mut pat)?;
    Ok(pat)
}

/// Which way a host transfer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// From the buffer or image to host memory.
    Read,
    /// From host memory to the buffer or image.
    Write,
}

impl Direction {
    /// CL_INVALID_OPERATION if a read is called on a buffer created with
    /// CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS, or a write on one
    /// created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
    pub(super) fn check_host_access(self, mem: &MemObject) -> ClResult<()> {
        let allowed = match self {
            Direction::Read => mem.host_readable(),
            Direction::Write => mem.host_writable(),
        };
        if allowed {
            Ok(())
        } else {
            fail(CL_INVALID_OPERATION)
        }
    }
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer.
fn host_transfer(
    dir: Direction,
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    offset: usize,
    size: usize,
    ptr: HostPtr,
) -> ClResult<Command> {
    check_buffer(queue, mem)?;
    // CL_INVALID_VALUE if the region being read or written specified by
    // offset and size is out of bounds; if ptr is NULL.
    storage::check_range(offset, size, mem.size())?;
    let host = ptr.bytes(size).ok_or(ClError(CL_INVALID_VALUE))?;
    check_aligned(mem)?;
    dir.check_host_access(mem)?;
    let mem = mem.clone();
    let pool_device = queue.device().clone();
    let (command_type, work): (cl_command_type, Work) = match dir {
        Direction::Read => (
            CL_COMMAND_READ_BUFFER,
            Box::new(move || storage::copy(&host, 0, &mem.bytes()?, offset, size, Some(pool_device.pool()))),
        ),
        Direction::Write => (
            CL_COMMAND_WRITE_BUFFER,
            Box::new(move || storage::copy(&mem.bytes()?, offset, &host, 0, size, Some(pool_device.pool()))),
        ),
    };
    Ok(Command::new(queue, command_type, work))
}

/// clEnqueueReadBuffer.
pub fn read_buffer(
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    offset: usize,
    size: usize,
    ptr: HostPtr,
) -> ClResult<Command> {
    host_transfer(Direction::Read, queue, mem, offset, size, ptr)
}

/// clEnqueueWriteBuffer.
pub fn write_buffer(
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    offset: usize,
    size: usize,
    ptr: HostPtr,
) -> ClResult<Command> {
    host_transfer(Direction::Write, queue, mem, offset, size, ptr)
}

/// Whether two buffers are "the same buffer or sub-buffer object" or
/// "different sub-buffers of the same associated buffer object", the cases
/// in which the spec asks for CL_MEM_COPY_OVERLAP.
fn overlap_checked(a: &Arc<MemObject>, b: &Arc<MemObject>) -> bool {
    if Arc::ptr_eq(a, b) {
        return true;
    }
    match (a.parent(), b.parent()) {
        (Some(pa), Some(pb)) => Arc::ptr_eq(pa, pb),
        _ => false,
    }
}

/// clEnqueueCopyBuffer.
pub fn copy_buffer(
    queue: &Arc<Queue>,
    src: &Arc<MemObject>,
    dst: &Arc<MemObject>,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
) -> ClResult<Command> {
    check_buffer(queue, src)?;
    check_buffer(queue, dst)?;
    check_aligned(src)?;
    check_aligned(dst)?;
    // CL_INVALID_VALUE if the region specified by src_offset and size is out
    // of bounds of src_buffer; if the region specified by dst_offset and size
    // is out of bounds of dst_buffer.
    storage::check_range(src_offset, size, src.size())?;
    storage::check_range(dst_offset, size, dst.size())?;
    // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
    // sub-buffer object and the source and destination regions overlap; if
    // src_buffer and dst_buffer are different sub-buffers of the same
    // associated buffer object and they overlap.
    if overlap_checked(src, dst) {
        let s = src.storage().1 + src_offset;
        let d = dst.storage().1 + dst_offset;
        if storage::ranges_overlap(s, size, d, size) {
            return fail(CL_MEM_COPY_OVERLAP);
        }
    }
    let (src, dst) = (src.clone(), dst.clone());
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_COPY_BUFFER,
        Box::new(move || {
            storage::copy(
                &dst.bytes()?,
                dst_offset,
                &src.bytes()?,
                src_offset,
                size,
                Some(device.pool()),
            )
        }),
    ))
}

/// clEnqueueFillBuffer.
pub fn fill_buffer(
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    pattern: HostPtr,
    pattern_size: usize,
    offset: usize,
    size: usize,
) -> ClResult<Command> {
    check_buffer(queue, mem)?;
    // CL_INVALID_VALUE if the region being filled specified by offset and
    // size is out of bounds.
    storage::check_range(offset, size, mem.size())?;
    let pat = read_pattern(pattern, pattern_size)?;
    // CL_INVALID_VALUE if offset is not a multiple of pattern_size; if size
    // is not a multiple of pattern_size.
    if !offset.is_multiple_of(pattern_size) || !size.is_multiple_of(pattern_size) {
        return fail(CL_INVALID_VALUE);
    }
    check_aligned(mem)?;
    let mem = mem.clone();
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_FILL_BUFFER,
        Box::new(move || storage::fill(&mem.bytes()?, offset, size, &pat, Some(device.pool()))),
    ))
}

/// Resolves one side of a rectangle: default pitches, the pitch rules, and
/// the offset of its origin.
fn rect_side(origin: [usize; 3], region: [usize; 3], row_pitch: usize, slice_pitch: usize) -> ClResult<Rect> {
    let bad = ClError(CL_INVALID_VALUE);
    // If row_pitch is 0, row_pitch is computed as region[0]. CL_INVALID_VALUE
    // if row_pitch is not equal to zero and is less than region[0].
    let row = match row_pitch {
        0 => region[0],
        r if r < region[0] => return Err(bad),
        r => r,
    };
    // If slice_pitch is 0, slice_pitch is computed as region[1] × row_pitch.
    // CL_INVALID_VALUE if slice_pitch is not equal to zero and is less than
    // region[1] times row_pitch, or is not a multiple of row_pitch.
    let min_slice = region[1].checked_mul(row).ok_or(bad)?;
    let slice = match slice_pitch {
        0 => min_slice,
        s if s < min_slice || !s.is_multiple_of(row) => return Err(bad),
        s => s,
    };
    // The offset in bytes is computed as origin[2] × slice_pitch +
    // origin[1] × row_pitch + origin[0].
    let offset = origin[2]
        .checked_mul(slice)
        .and_then(|z| z.checked_add(origin[1].checked_mul(row)?))
        .and_then(|o| o.checked_add(origin[0]))
        .ok_or(bad)?;
    Ok(Rect {
        offset,
        row_pitch: row,
        slice_pitch: slice,
    })
}

/// The three values of an origin or region argument; CL_INVALID_VALUE if
/// the application passed NULL.
fn triple(v: Option<[usize; 3]>) -> ClResult<[usize; 3]> {
    v.ok_or(ClError(CL_INVALID_VALUE))
}

/// One past the last byte `rect` touches for `region`, checked against
/// `size`: CL_INVALID_VALUE if out of bounds.
fn rect_end(rect: &Rect, region: [usize; 3], size: usize) -> ClResult<usize> {
    match rect.end(region) {
        Some(end) if end <= size => Ok(end),
        _ => fail(CL_INVALID_VALUE),
    }
}

/// The host side of a read or write rectangle.
fn host_rect(rect: &Rect, region: [usize; 3], ptr: HostPtr) -> ClResult<Bytes> {
    let end = rect.end(region).ok_or(ClError(CL_INVALID_VALUE))?;
    ptr.bytes(end).ok_or(ClError(CL_INVALID_VALUE))
}

/// The arguments of clEnqueueReadBufferRect and clEnqueueWriteBufferRect
/// besides the queue, buffer and pointer.
#[derive(Debug, Clone, Copy)]
pub struct RectArgs {
    pub buffer_origin: Option<[usize; 3]>,
    pub host_origin: Option<[usize; 3]>,
    pub region: Option<[usize; 3]>,
    pub buffer_row_pitch: usize,
    pub buffer_slice_pitch: usize,
    pub host_row_pitch: usize,
    pub host_slice_pitch: usize,
}

/// Checks a read or write rectangle: the buffer side, the host side.
fn check_rect(mem: &MemObject, a: &RectArgs) -> ClResult<(Rect, Rect, [usize; 3])> {
    // CL_INVALID_VALUE if buffer_origin, host_origin, or region is NULL.
    let (bo, ho, region) = (triple(a.buffer_origin)?, triple(a.host_origin)?, triple(a.region)?);
    // CL_INVALID_VALUE if any region array element is zero.
    if region.contains(&0) {
        return fail(CL_INVALID_VALUE);
    }
    let b = rect_side(bo, region, a.buffer_row_pitch, a.buffer_slice_pitch)?;
    let h = rect_side(ho, region, a.host_row_pitch, a.host_slice_pitch)?;
    // CL_INVALID_VALUE if the region being read or written specified by
    // buffer_origin, region, buffer_row_pitch, and buffer_slice_pitch is out
    // of bounds.
    rect_end(&b, region, mem.size())?;
    Ok((b, h, region))
}

/// clEnqueueReadBufferRect and clEnqueueWriteBufferRect.
fn host_transfer_rect(
    dir: Direction,
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    args: &RectArgs,
    ptr: HostPtr,
) -> ClResult<Command> {
    check_buffer(queue, mem)?;
    let (b, h, region) = check_rect(mem, args)?;
    // CL_INVALID_VALUE if ptr is NULL.
    let host = host_rect(&h, region, ptr)?;
    check_aligned(mem)?;
    dir.check_host_access(mem)?;
    let mem = mem.clone();
    let pool_device = queue.device().clone();
    let (command_type, work): (cl_command_type, Work) = match dir {
        Direction::Read => (
            CL_COMMAND_READ_BUFFER_RECT,
            Box::new(move || storage::copy_rect(&host, h, &mem.bytes()?, b, region, Some(pool_device.pool()))),
        ),
        Direction::Write => (
            CL_COMMAND_WRITE_BUFFER_RECT,
            Box::new(move || storage::copy_rect(&mem.bytes()?, b, &host, h, region, Some(pool_device.pool()))),
        ),
    };
    Ok(Command::new(queue, command_type, work))
}

/// clEnqueueReadBufferRect.
pub fn read_buffer_rect(queue: &Arc<Queue>, mem: &Arc<MemObject>, args: &RectArgs, ptr: HostPtr) -> ClResult<Command> {
    host_transfer_rect(Direction::Read, queue, mem, args, ptr)
}

/// clEnqueueWriteBufferRect.
pub fn write_buffer_rect(queue: &Arc<Queue>, mem: &Arc<MemObject>, args: &RectArgs, ptr: HostPtr) -> ClResult<Command> {
    host_transfer_rect(Direction::Write, queue, mem, args, ptr)
}

/// The appendix's check_copy_overlap: whether two rectangles with the same
/// pitches in one buffer overlap.
pub fn check_copy_overlap(
    src_origin: [usize; 3],
    dst_origin: [usize; 3],
    region: [usize; 3],
    row_pitch: usize,
    slice_pitch: usize,
) -> bool {
    let slice_size = (region[1] - 1) * row_pitch + region[0];
    let block_size = (region[2] - 1) * slice_pitch + slice_size;
    let src_start = src_origin[2] * slice_pitch + src_origin[1] * row_pitch + src_origin[0];
    let src_end = src_start + block_size;
    let dst_start = dst_origin[2] * slice_pitch + dst_origin[1] * row_pitch + dst_origin[0];
    let dst_end = dst_start + block_size;
    // No overlap if dst ends before src starts or if src ends before dst
    // starts.
    if dst_end <= src_start || src_end <= dst_start {
        return false;
    }
    // No overlap if region[0] for dst or src fits in the gap between
    // region[0] and row_pitch.
    let src_dx = src_origin[0] % row_pitch;
    let dst_dx = dst_origin[0] % row_pitch;
    if (dst_dx >= src_dx + region[0] && dst_dx + region[0] <= src_dx + row_pitch)
        || (src_dx >= dst_dx + region[0] && src_dx + region[0] <= dst_dx + row_pitch)
    {
        return false;
    }
    // No overlap if region[1] for dst or src fits in the gap between
    // region[1] and slice_pitch.
    let src_dy = (src_origin[1] * row_pitch + src_origin[0]) % slice_pitch;
    let dst_dy = (dst_origin[1] * row_pitch + dst_origin[0]) % slice_pitch;
    if (dst_dy >= src_dy + slice_size && dst_dy + slice_size <= src_dy + slice_pitch)
        || (src_dy >= dst_dy + slice_size && src_dy + slice_size <= dst_dy + slice_pitch)
    {
        return false;
    }
    // Otherwise src and dst overlap.
    true
}

/// The arguments of clEnqueueCopyBufferRect besides the queue and buffers.
#[derive(Debug, Clone, Copy)]
pub struct CopyRectArgs {
    pub src_origin: Option<[usize; 3]>,
    pub dst_origin: Option<[usize; 3]>,
    pub region: Option<[usize; 3]>,
    pub src_row_pitch: usize,
    pub src_slice_pitch: usize,
    pub dst_row_pitch: usize,
    pub dst_slice_pitch: usize,
}

/// clEnqueueCopyBufferRect.
pub fn copy_buffer_rect(
    queue: &Arc<Queue>,
    src: &Arc<MemObject>,
    dst: &Arc<MemObject>,
    a: &CopyRectArgs,
) -> ClResult<Command> {
    check_buffer(queue, src)?;
    check_buffer(queue, dst)?;
    check_aligned(src)?;
    check_aligned(dst)?;
    // CL_INVALID_VALUE if src_origin, dst_origin, or region is NULL.
    let (so, dor, region) = (triple(a.src_origin)?, triple(a.dst_origin)?, triple(a.region)?);
    // CL_INVALID_VALUE if any region array element is zero.
    if region.contains(&0) {
        return fail(CL_INVALID_VALUE);
    }
    let s = rect_side(so, region, a.src_row_pitch, a.src_slice_pitch)?;
    let d = rect_side(dor, region, a.dst_row_pitch, a.dst_slice_pitch)?;
    // CL_INVALID_VALUE if the region specified by src_origin, region,
    // src_row_pitch, and src_slice_pitch is out of bounds of src_buffer; if
    // the region specified by dst_origin, region, dst_row_pitch, and
    // dst_slice_pitch is out of bounds of dst_buffer.
    let s_end = rect_end(&s, region, src.size())?;
    let d_end = rect_end(&d, region, dst.size())?;
    let same = Arc::ptr_eq(src, dst);
    // CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer
    // object and src_row_pitch is not equal to dst_row_pitch; and
    // src_slice_pitch is not equal to dst_slice_pitch.
    if same && (s.row_pitch != d.row_pitch || s.slice_pitch != d.slice_pitch) {
        return fail(CL_INVALID_VALUE);
    }
    // CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or
    // sub-buffer object and the source and destination regions overlap; if
    // src_buffer and dst_buffer are different sub-buffers of the same
    // associated buffer object and they overlap. (Appendix D: Checking for
    // Memory Copy Overlap.)
    if overlap_checked(src, dst) {
        let (sb, db) = (src.storage().1, dst.storage().1);
        let overlap = if s.row_pitch == d.row_pitch && s.slice_pitch == d.slice_pitch {
            // Sub-buffers of one buffer: the same rule, with each origin
            // shifted by where the sub-buffer starts.
            check_copy_overlap(
                [so[0] + sb, so[1], so[2]],
                [dor[0] + db, dor[1], dor[2]],
                region,
                s.row_pitch,
                s.slice_pitch,
            )
        } else {
            storage::ranges_overlap(sb + s.offset, s_end - s.offset, db + d.offset, d_end - d.offset)
        };
        if overlap {
            return fail(CL_MEM_COPY_OVERLAP);
        }
    }
    let (src, dst) = (src.clone(), dst.clone());
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_COPY_BUFFER_RECT,
        Box::new(move || storage::copy_rect(&dst.bytes()?, d, &src.bytes()?, s, region, Some(device.pool()))),
    ))
}

/// clEnqueueMapBuffer: the command, and the pointer to the mapped region
/// (inside the buffer: the CPU device maps without copying).
pub fn map_buffer(
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    flags: cl_map_flags,
    offset: usize,
    size: usize,
) -> ClResult<(Command, *mut c_void)> {
    check_buffer(queue, mem)?;
    // CL_INVALID_VALUE if the region being mapped specified by offset and
    // size is out of bounds; if size is zero; if values specified in
    // map_flags are not valid.
    storage::check_range(offset, size, mem.size())?;
    if size == 0 {
        return fail(CL_INVALID_VALUE);
    }
    super::svm::check_map_flags(flags)?;
    check_aligned(mem)?;
    // CL_INVALID_OPERATION if buffer was created with CL_MEM_HOST_WRITE_ONLY
    // or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags; if buffer
    // was created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and
    // CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags.
    let write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    if (flags & CL_MAP_READ != 0 && !mem.host_readable()) || (write && !mem.host_writable()) {
        return fail(CL_INVALID_OPERATION);
    }
    let region = mem.bytes()?.slice(offset, size)?;
    let ptr = region.as_ptr();
    let addr = region.addr();
    let keep = mem.clone();
    let (m1, m2) = (mem.clone(), mem.clone());
    let cmd = Command::new(
        queue,
        CL_COMMAND_MAP_BUFFER,
        Box::new(move || {
            drop(keep);
            Ok(())
        }),
    )
    .on_commit(
        // CL_INVALID_OPERATION if mapping would lead to overlapping regions
        // being mapped for writing.
        Box::new(move || m1.add_mapping(addr, size, None, write)),
        Box::new(move || {
            let _ = m2.remove_mapping(addr);
        }),
    );
    Ok((cmd, ptr))
}

/// clEnqueueUnmapMemObject.
pub fn unmap(queue: &Arc<Queue>, mem: &Arc<MemObject>, mapped_ptr: usize) -> ClResult<Command> {
    // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object or is a
    // pipe object.
    if mem.is_pipe() {
        return fail(CL_INVALID_MEM_OBJECT);
    }
    // CL_INVALID_CONTEXT if context associated with command_queue and memobj
    // are not the same.
    if !Arc::ptr_eq(queue.context(), mem.context()) {
        return fail(CL_INVALID_CONTEXT);
    }
    // CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
    // clEnqueueMapBuffer or clEnqueueMapImage for memobj.
    if !mem.has_mapping(mapped_ptr) {
        return fail(CL_INVALID_VALUE);
    }
    let keep = mem.clone();
    let m1 = mem.clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_UNMAP_MEM_OBJECT,
        Box::new(move || {
            drop(keep);
            Ok(())
        }),
    )
    .on_commit(
        // clEnqueueUnmapMemObject decrements the mapped count of the memory
        // object (once per map; a second unmap of the same map is invalid).
        Box::new(move || m1.remove_mapping(mapped_ptr)),
        Box::new(|| {}),
    ))
}

/// clEnqueueMigrateMemObjects: clift's memory objects live in host memory,
/// which the device uses directly; the command orders the migration.
pub fn migrate(queue: &Arc<Queue>, mems: Vec<Arc<MemObject>>, flags: cl_mem_migration_flags) -> ClResult<Command> {
    // CL_INVALID_VALUE if num_mem_objects is zero.
    if mems.is_empty() {
        return fail(CL_INVALID_VALUE);
    }
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // memory objects in mem_objects are not the same.
    if mems.iter().any(|m| !Arc::ptr_eq(queue.context(), m.context())) {
        return fail(CL_INVALID_CONTEXT);
    }
    // CL_INVALID_VALUE if flags is not 0 or is not any of the values
    // described in the table above.
    if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
        return fail(CL_INVALID_VALUE);
    }
    Ok(Command::new(
        queue,
        CL_COMMAND_MIGRATE_MEM_OBJECTS,
        Box::new(move || {
            drop(mems);
            Ok(())
        }),
    ))
}

/// A native kernel: the application's function, already wrapped by the API
/// layer, called with the address of the argument copy.
pub type NativeFn = Box<dyn FnOnce(*mut c_void) + Send>;

/// clEnqueueNativeKernel. `args` is the application's argument block of
/// `cb_args` bytes (already checked against NULL and zero sizes by the
/// caller); `mem_locs` pairs each location in that block (an address, as
/// the application gave it) with the buffer whose handle is stored there
/// (`None` for a NULL entry). The block is copied now, each location in the
/// copy is overwritten with its buffer's address, and `func` runs with the
/// copy as the command.
pub fn native_kernel(
    queue: &Arc<Queue>,
    args: HostPtr,
    cb_args: usize,
    mem_locs: Vec<(usize, Option<Arc<MemObject>>)>,
    func: NativeFn,
) -> ClResult<Command> {
    const PTR: usize = std::mem::size_of::<*mut c_void>();
    // CL_INVALID_MEM_OBJECT if one or more memory objects specified in
    // mem_list are not valid or are not buffer objects.
    if mem_locs.iter().any(|(_, m)| m.as_ref().is_some_and(|m| !m.is_buffer())) {
        return fail(CL_INVALID_MEM_OBJECT);
    }
    // The data pointed to by args and cb_args bytes in size will be copied
    // and a pointer to this copied region will be passed to user_func.
    let copy = match args.bytes(cb_args) {
        Some(src) if cb_args > 0 => {
            let s = Arc::new(Storage::alloc(cb_args, MEM_BASE_ADDR_ALIGN).map_err(|_| ClError(CL_OUT_OF_HOST_MEMORY))?);
            let dst = Bytes::of(&s, 0, cb_args)?;
            storage::copy(&dst, 0, &src, 0, cb_args, None)?;
            Some(dst)
        }
        _ => None,
    };
    let mut keep = Vec::with_capacity(mem_locs.len());
    for (loc, mem) in mem_locs {
        // args_mem_loc holds locations inside args; the same offsets in the
        // copy receive the buffers' addresses. A location outside the block
        // (or too close to its end for a pointer) is an invalid value.
        let off = loc.checked_sub(args.addr()).ok_or(ClError(CL_INVALID_VALUE))?;
        let dst = copy.as_ref().ok_or(ClError(CL_INVALID_VALUE))?;
        storage::check_range(off, PTR, cb_args)?;
        // Before the user function is executed, the memory object handles
        // are replaced by pointers to global memory.
        let addr = mem.as_ref().map_or(0, |m| m.host_address() as usize);
        storage::write(dst, off, &addr.to_ne_bytes())?;
        keep.extend(mem);
    }
    Ok(Command::new(
        queue,
        CL_COMMAND_NATIVE_KERNEL,
        Box::new(move || {
            let ptr = copy.as_ref().map_or(std::ptr::null_mut(), |c| c.as_ptr());
            func(ptr);
            drop(copy);
            drop(keep);
            Ok(())
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_overlap_rule() {
        // Side-by-side columns in the same rows do not overlap.
        assert!(!check_copy_overlap([0, 0, 0], [4, 0, 0], [4, 4, 1], 8, 32));
        // Shifted by one byte they do.
        assert!(check_copy_overlap([0, 0, 0], [3, 0, 0], [4, 4, 1], 8, 32));
        // Disjoint slices.
        assert!(!check_copy_overlap([0, 0, 0], [0, 0, 1], [8, 4, 1], 8, 32));
    }

    #[test]
    fn rect_pitch_rules() {
        assert!(rect_side([0; 3], [4, 2, 1], 3, 0).is_err());
        assert!(rect_side([0; 3], [4, 2, 1], 4, 7).is_err());
        assert!(rect_side([0; 3], [4, 2, 2], 5, 12).is_err());
        let r = rect_side([1, 2, 3], [4, 2, 2], 5, 15).expect("valid");
        assert_eq!(r.offset, 3 * 15 + 2 * 5 + 1);
        let r = rect_side([0; 3], [4, 2, 2], 0, 0).expect("defaults");
        assert_eq!((r.row_pitch, r.slice_pitch), (4, 8));
    }
}
