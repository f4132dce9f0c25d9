//! Shared virtual memory: clSVMAlloc/clSVMFree and the SVM commands.

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::error::fail;
use clift_runtime::memory::storage::HostPtr;
use clift_runtime::memory::svm;
use clift_runtime::queue::Queue;
use opencl_sys::*;

use super::transfer::submit;
use crate::entry::{cl_entry, guard_ptr, guard_void};
use crate::{args, handle};

/// Wraps an SVM or host pointer given to an SVM command.
fn svm_arg(ptr: *const c_void) -> HostPtr {
    // SAFETY: the API contract for the pointers of SVM commands: each points
    // to a host or SVM allocation covering the bytes the call describes
    // (size, or pattern_size for a fill pattern), which the application keeps
    // allocated until the command completes ("It is the responsibility of
    // the application to make sure that enqueued commands that use
    // svm_pointer have finished before freeing svm_pointer"); a fill pattern
    // is read during the call.
    unsafe { HostPtr::new(ptr) }
}

#[allow(non_snake_case)]
pub(crate) extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    // clSVMAlloc returns a valid non-NULL shared virtual memory address if the
    // SVM buffer is successfully allocated. Otherwise, like malloc, it
    // returns a NULL pointer value (no error code is reported).
    guard_ptr(std::ptr::null_mut(), || {
        // clSVMAlloc will fail if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        Ok(svm::alloc(&ctx, flags, size, alignment)? as *mut c_void)
    })
}

#[allow(non_snake_case)]
pub(crate) extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    guard_void(|| {
        // If a NULL pointer is passed in svm_pointer, no action occurs. An
        // invalid context, or a pointer not from clSVMAlloc of this context,
        // is ignored too: clSVMFree reports nothing.
        if let Ok(ctx) = handle::get::<Context>(context) {
            svm::free(&ctx, svm_pointer as usize);
        }
    })
}

cl_entry! {
    fn clEnqueueSVMFree(command_queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *mut c_void, pfn_free_func: Option< unsafe extern "C" fn( queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *mut c_void, user_data: *mut c_void, ), >, user_data: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is
        // non-NULL, or if svm_pointers is NULL and num_svm_pointers is not 0.
        if (num_svm_pointers == 0) != svm_pointers.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // The memory associated with svm_pointers can be reused or freed
        // after the function returns: the pointers are copied now.
        let pointers: Vec<usize> = args::slice(svm_pointers as *const *mut c_void, num_svm_pointers as usize)
            .unwrap_or(&[])
            .iter()
            .map(|&p| p as usize)
            .collect();
        let callback = pfn_free_func.map(|f| {
            let user = args::UserData(user_data);
            let qh = command_queue as usize;
            Box::new(move |ptrs: &mut [usize]| {
                let user = user;
                // SAFETY: the application's pfn_free_func, called once with
                // the queue the command was enqueued in (which the command
                // keeps alive), the count and list of pointers to free
                // (clift's own copy, valid during the call) and its user_data,
                // from any thread, as the spec allows.
                unsafe { f(qh as cl_command_queue, ptrs.len() as cl_uint, ptrs.as_mut_ptr() as *mut *mut c_void, user.0) }
            }) as svm::FreeFn
        });
        let cmd = svm::enqueue_free(&q, pointers, callback);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueSVMMemcpy(command_queue: cl_command_queue, blocking_copy: cl_bool, dst_ptr: *mut c_void, src_ptr: *const c_void, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        let blocking = args::bool_arg(blocking_copy)?;
        let cmd = svm::memcpy(&q, svm_arg(dst_ptr), svm_arg(src_ptr), size);
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueSVMMemFill(command_queue: cl_command_queue, svm_ptr: *mut c_void, pattern: *const c_void, pattern_size: usize, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        let cmd = svm::mem_fill(&q, svm_arg(svm_ptr), svm_arg(pattern), pattern_size, size);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueSVMMap(command_queue: cl_command_queue, blocking_map: cl_bool, flags: cl_map_flags, svm_ptr: *mut c_void, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        let blocking = args::bool_arg(blocking_map)?;
        let cmd = svm::map(&q, flags, svm_arg(svm_ptr), size);
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueSVMUnmap(command_queue: cl_command_queue, svm_ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        let cmd = svm::unmap(&q, svm_arg(svm_ptr));
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueSVMMigrateMem(command_queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *const c_void, sizes: *const usize, flags: cl_mem_migration_flags, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        let n = num_svm_pointers as usize;
        // CL_INVALID_VALUE if num_svm_pointers is zero; if svm_pointers is NULL.
        let Some(ptrs) = args::slice(svm_pointers as *const *const c_void, n) else {
            return fail(CL_INVALID_VALUE);
        };
        let ptrs: Vec<usize> = ptrs.iter().map(|&p| p as usize).collect();
        // sizes may be NULL indicating that every allocation containing any
        // svm_pointer[i] is to be migrated.
        let sizes = args::slice(sizes, n);
        let cmd = svm::migrate(&q, &ptrs, sizes, flags);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }
}
