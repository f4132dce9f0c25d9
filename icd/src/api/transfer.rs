//! Buffer transfers: read, write, copy and fill (plain and rectangular),
//! map and unmap, migration, and native kernels.

use std::ffi::c_void;

use clift_runtime::error::{fail, ClResult};
use clift_runtime::memory::storage::HostPtr;
use clift_runtime::memory::transfer::{self, Command, CopyRectArgs, RectArgs};
use clift_runtime::memory::MemObject;
use clift_runtime::queue::Queue;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle};

/// Enqueues a checked command after the events of the wait list, waits for
/// it if `blocking`, and hands its event to the application.
pub(crate) fn submit(
    cmd: ClResult<Command>,
    blocking: bool,
    num_events_in_wait_list: cl_uint,
    event_wait_list: *const cl_event,
    event: *mut cl_event,
) -> ClResult<()> {
    let cmd = cmd?;
    // CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
    // num_events_in_wait_list > 0, or event_wait_list is not NULL and
    // num_events_in_wait_list is 0, or if event objects in event_wait_list
    // are not valid events.
    let wait = args::wait_list(num_events_in_wait_list, event_wait_list)?;
    let ev = cmd.submit(&wait, blocking)?;
    args::event_out(event, ev);
    Ok(())
}

/// An origin or region argument: three `size_t`s, or `None` for NULL.
pub(crate) fn triple(p: *const usize) -> Option<[usize; 3]> {
    args::slice(p, 3).map(|s| [s[0], s[1], s[2]])
}

/// Wraps the application's data pointer of a transfer.
pub(crate) fn host_ptr(ptr: *const c_void) -> HostPtr {
    // SAFETY: the API contract for the `ptr` of a read or write (of a buffer
    // or an image): it points to host memory covering the bytes the call
    // describes (size, or the rectangle or image region with its pitches),
    // which the application leaves alone until
    // the command completes ("cannot be used until the read command has
    // completed"; "cannot be reused by the application after the call
    // returns" for a non-blocking write); for a fill pattern, it holds
    // pattern_size bytes during the call.
    unsafe { HostPtr::new(ptr) }
}

cl_entry! {
    fn clEnqueueReadBuffer(command_queue: cl_command_queue, buffer: cl_mem, blocking_read: cl_bool, offset: usize, size: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let mem = handle::get::<MemObject>(buffer)?;
        let blocking = args::bool_arg(blocking_read)?;
        let cmd = transfer::read_buffer(&q, &mem, offset, size, host_ptr(ptr));
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueWriteBuffer(command_queue: cl_command_queue, buffer: cl_mem, blocking_write: cl_bool, offset: usize, size: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let mem = handle::get::<MemObject>(buffer)?;
        let blocking = args::bool_arg(blocking_write)?;
        let cmd = transfer::write_buffer(&q, &mem, offset, size, host_ptr(ptr));
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueCopyBuffer(command_queue: cl_command_queue, src_buffer: cl_mem, dst_buffer: cl_mem, src_offset: usize, dst_offset: usize, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if src_buffer is not a valid buffer object; if
        // dst_buffer is not a valid buffer object.
        let src = handle::get::<MemObject>(src_buffer)?;
        let dst = handle::get::<MemObject>(dst_buffer)?;
        let cmd = transfer::copy_buffer(&q, &src, &dst, src_offset, dst_offset, size);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueReadBufferRect(command_queue: cl_command_queue, buffer: cl_mem, blocking_read: cl_bool, buffer_origin: *const usize, host_origin: *const usize, region: *const usize, buffer_row_pitch: usize, buffer_slice_pitch: usize, host_row_pitch: usize, host_slice_pitch: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let mem = handle::get::<MemObject>(buffer)?;
        let blocking = args::bool_arg(blocking_read)?;
        let rect = RectArgs {
            buffer_origin: triple(buffer_origin),
            host_origin: triple(host_origin),
            region: triple(region),
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
        };
        let cmd = transfer::read_buffer_rect(&q, &mem, &rect, host_ptr(ptr));
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueWriteBufferRect(command_queue: cl_command_queue, buffer: cl_mem, blocking_write: cl_bool, buffer_origin: *const usize, host_origin: *const usize, region: *const usize, buffer_row_pitch: usize, buffer_slice_pitch: usize, host_row_pitch: usize, host_slice_pitch: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let mem = handle::get::<MemObject>(buffer)?;
        let blocking = args::bool_arg(blocking_write)?;
        let rect = RectArgs {
            buffer_origin: triple(buffer_origin),
            host_origin: triple(host_origin),
            region: triple(region),
            buffer_row_pitch,
            buffer_slice_pitch,
            host_row_pitch,
            host_slice_pitch,
        };
        let cmd = transfer::write_buffer_rect(&q, &mem, &rect, host_ptr(ptr));
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueCopyBufferRect(command_queue: cl_command_queue, src_buffer: cl_mem, dst_buffer: cl_mem, src_origin: *const usize, dst_origin: *const usize, region: *const usize, src_row_pitch: usize, src_slice_pitch: usize, dst_row_pitch: usize, dst_slice_pitch: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if src_buffer is not a valid buffer object; if
        // dst_buffer is not a valid buffer object.
        let src = handle::get::<MemObject>(src_buffer)?;
        let dst = handle::get::<MemObject>(dst_buffer)?;
        let rect = CopyRectArgs {
            src_origin: triple(src_origin),
            dst_origin: triple(dst_origin),
            region: triple(region),
            src_row_pitch,
            src_slice_pitch,
            dst_row_pitch,
            dst_slice_pitch,
        };
        let cmd = transfer::copy_buffer_rect(&q, &src, &dst, &rect);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueFillBuffer(command_queue: cl_command_queue, buffer: cl_mem, pattern: *const c_void, pattern_size: usize, offset: usize, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let mem = handle::get::<MemObject>(buffer)?;
        let cmd = transfer::fill_buffer(&q, &mem, host_ptr(pattern), pattern_size, offset, size);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueUnmapMemObject(command_queue: cl_command_queue, memobj: cl_mem, mapped_ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
        let mem = handle::get::<MemObject>(memobj)?;
        let cmd = transfer::unmap(&q, &mem, mapped_ptr as usize);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueMigrateMemObjects(command_queue: cl_command_queue, num_mem_objects: cl_uint, mem_objects: *const cl_mem, flags: cl_mem_migration_flags, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL.
        if num_mem_objects == 0 || mem_objects.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is
        // not a valid memory object.
        let mems = handle::get_list::<MemObject>(mem_objects, num_mem_objects as usize, CL_INVALID_MEM_OBJECT)?;
        let cmd = transfer::migrate(&q, mems, flags);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueNativeKernel(command_queue: cl_command_queue, user_func: Option<unsafe extern "C" fn(arg1: *mut c_void)>, args: *mut c_void, cb_args: usize, num_mem_objects: cl_uint, mem_list: *const cl_mem, args_mem_loc: *mut *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_VALUE if user_func is NULL.
        let Some(func) = user_func else {
            return fail(CL_INVALID_VALUE);
        };
        // CL_INVALID_VALUE if args is a NULL value and cb_args > 0, or if
        // args is a NULL value and num_mem_objects > 0.
        if args.is_null() && (cb_args > 0 || num_mem_objects > 0) {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if args is not NULL and cb_args is 0.
        if !args.is_null() && cb_args == 0 {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if num_mem_objects > 0 and mem_list or
        // args_mem_loc are NULL; if num_mem_objects = 0 and mem_list or
        // args_mem_loc are not NULL.
        let n = num_mem_objects as usize;
        if n > 0 && (mem_list.is_null() || args_mem_loc.is_null()) {
            return fail(CL_INVALID_VALUE);
        }
        if n == 0 && (!mem_list.is_null() || !args_mem_loc.is_null()) {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_OPERATION if the device associated with command_queue
        // cannot execute the native kernel.
        if clift_runtime::device::EXECUTION_CAPABILITIES & CL_EXEC_NATIVE_KERNEL == 0 {
            return fail(CL_INVALID_OPERATION);
        }
        // The buffer object values specified in mem_list are memory object
        // handles or NULL. CL_INVALID_MEM_OBJECT if one or more memory
        // objects specified in mem_list are not valid or are not buffer
        // objects.
        let handles = args::slice(mem_list, n).unwrap_or(&[]);
        let locs = args::slice(args_mem_loc as *const *const c_void, n).unwrap_or(&[]);
        let mut pairs = Vec::with_capacity(n);
        for (&h, &loc) in handles.iter().zip(locs) {
            let mem = if h.is_null() { None } else { Some(handle::get::<MemObject>(h)?) };
            pairs.push((loc as usize, mem));
        }
        // SAFETY: the API contract: a non-NULL args points to cb_args bytes,
        // which clift copies before this call returns ("When
        // clEnqueueNativeKernel returns, the memory region pointed to by args
        // can be reused by the application").
        let block = unsafe { HostPtr::new(args) };
        let cmd = transfer::native_kernel(
            &q,
            block,
            cb_args,
            pairs,
            Box::new(move |copy| {
                // SAFETY: `func` is the application's host-callable user
                // function, which it made thread-safe as the spec requires;
                // it is called once, with the argument copy whose buffer
                // locations now hold global-memory pointers, as the spec
                // describes. The copy and the buffers live until it returns.
                unsafe { func(copy) }
            }),
        );
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }
}

cl_entry_ptr! {
    fn clEnqueueMapBuffer(command_queue: cl_command_queue, buffer: cl_mem, blocking_map: cl_bool, map_flags: cl_map_flags, offset: usize, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event; errcode_ret) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let mem = handle::get::<MemObject>(buffer)?;
        let blocking = args::bool_arg(blocking_map)?;
        let (cmd, ptr) = transfer::map_buffer(&q, &mem, map_flags, offset, size)?;
        submit(Ok(cmd), blocking, num_events_in_wait_list, event_wait_list, event)?;
        Ok(ptr)
    }
}
