//! svm

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

#[allow(non_snake_case)]
pub(crate) extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    std::ptr::null_mut()
}

#[allow(non_snake_case)]
pub(crate) extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {}

cl_entry! {
    fn clEnqueueSVMFree(command_queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *mut c_void, pfn_free_func: Option< unsafe extern "C" fn( queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *mut c_void, user_data: *mut c_void, ), >, user_data: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueSVMMemcpy(command_queue: cl_command_queue, blocking_copy: cl_bool, dst_ptr: *mut c_void, src_ptr: *const c_void, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueSVMMemFill(command_queue: cl_command_queue, svm_ptr: *mut c_void, pattern: *const c_void, pattern_size: usize, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueSVMMap(command_queue: cl_command_queue, blocking_map: cl_bool, flags: cl_map_flags, svm_ptr: *mut c_void, size: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueSVMUnmap(command_queue: cl_command_queue, svm_ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueSVMMigrateMem(command_queue: cl_command_queue, num_svm_pointers: cl_uint, svm_pointers: *mut *const c_void, sizes: *const usize, flags: cl_mem_migration_flags, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}
