//! context

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateContext(properties: *const cl_context_properties, num_devices: cl_uint, devices: *const cl_device_id, pfn_notify: Option< unsafe extern "C" fn( errinfo: *const c_char, private_info: *const c_void, cb: usize, user_data: *mut c_void, ), >, user_data: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateContextFromType(properties: *const cl_context_properties, device_type: cl_device_type, pfn_notify: Option< unsafe extern "C" fn( errinfo: *const c_char, private_info: *const c_void, cb: usize, user_data: *mut c_void, ), >, user_data: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainContext(context: cl_context) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseContext(context: cl_context) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetContextInfo(context: cl_context, param_name: cl_context_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetContextDestructorCallback(context: cl_context, pfn_notify: Option<unsafe extern "C" fn(context: cl_context, user_data: *mut c_void)>, user_data: *mut c_void) {
        fail(CL_INVALID_OPERATION)
    }
}
