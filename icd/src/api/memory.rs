//! memory

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateBuffer(context: cl_context, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateBufferWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateSubBuffer(buffer: cl_mem, flags: cl_mem_flags, buffer_create_type: cl_buffer_create_type, buffer_create_info: *const c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainMemObject(memobj: cl_mem) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseMemObject(memobj: cl_mem) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetMemObjectInfo(memobj: cl_mem, param_name: cl_mem_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetMemObjectDestructorCallback(memobj: cl_mem, pfn_notify: Option<unsafe extern "C" fn(memobj: cl_mem, user_data: *mut c_void)>, user_data: *mut c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreatePipe(context: cl_context, flags: cl_mem_flags, pipe_packet_size: cl_uint, pipe_max_packets: cl_uint, properties: *const cl_pipe_properties; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetPipeInfo(pipe: cl_mem, param_name: cl_pipe_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}
