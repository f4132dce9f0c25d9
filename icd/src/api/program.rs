//! program

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateProgramWithSource(context: cl_context, count: cl_uint, strings: *mut *const c_char, lengths: *const usize; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateProgramWithBinary(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, lengths: *const usize, binaries: *mut *const ::core::ffi::c_uchar, binary_status: *mut cl_int; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainProgram(program: cl_program) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseProgram(program: cl_program) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clBuildProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clUnloadCompiler() {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetProgramInfo(program: cl_program, param_name: cl_program_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetProgramBuildInfo(program: cl_program, device: cl_device_id, param_name: cl_program_build_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateProgramWithBuiltInKernels(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, kernel_names: *const c_char; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clCompileProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_headers: cl_uint, input_headers: *const cl_program, header_include_names: *mut *const c_char, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clLinkProgram(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_programs: cl_uint, input_programs: *const cl_program, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clUnloadPlatformCompiler(platform: cl_platform_id) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateProgramWithIL(context: cl_context, il: *const c_void, length: usize; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetProgramReleaseCallback(program: cl_program, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetProgramSpecializationConstant(program: cl_program, spec_id: cl_uint, spec_size: usize, spec_value: *const c_void) {
        fail(CL_INVALID_OPERATION)
    }
}
