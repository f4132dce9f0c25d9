//! Program objects (API spec 5.8). They arrive with the programs issue;
//! until then every call validates what it can and returns the spec's code
//! for the missing capability.

#![allow(unused_variables)] // the refused calls check only what they must

use std::ffi::{c_char, c_void};

use clift_runtime::context::Context;
use clift_runtime::device::Device;
use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle};

cl_entry_ptr! {
    fn clCreateProgramWithSource(context: cl_context, count: cl_uint, strings: *mut *const c_char, lengths: *const usize; errcode_ret) {
        let _ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL.
        if count == 0 || strings.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // clift has no OpenCL C compiler yet (CL_DEVICE_COMPILER_AVAILABLE is
        // CL_FALSE): program objects arrive with the programs issue.
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateProgramWithBinary(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, lengths: *const usize, binaries: *mut *const ::core::ffi::c_uchar, binary_status: *mut cl_int; errcode_ret) {
        let ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
        if device_list.is_null() || num_devices == 0 {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_DEVICE if any device in device_list is not in the list of
        // devices associated with context.
        let devs = handle::get_list::<Device>(device_list, num_devices as usize, CL_INVALID_DEVICE)?;
        if devs.iter().any(|d| !ctx.has_device(d)) {
            return fail(CL_INVALID_DEVICE);
        }
        // CL_INVALID_VALUE if lengths or binaries is NULL.
        if lengths.is_null() || binaries.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_BINARY if an invalid program binary was encountered for
        // any device: clift defines no binary format yet, so none is valid.
        if let Some(status) = args::slice_mut(binary_status, num_devices as usize) {
            status.fill(CL_INVALID_BINARY);
        }
        fail(CL_INVALID_BINARY)
    }
}

cl_entry! {
    fn clRetainProgram(program: cl_program) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clReleaseProgram(program: cl_program) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clBuildProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clUnloadCompiler() {
        // A hint that the compiler may be unloaded; there is nothing to unload.
        Ok(())
    }
}

cl_entry! {
    fn clGetProgramInfo(program: cl_program, param_name: cl_program_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clGetProgramBuildInfo(program: cl_program, device: cl_device_id, param_name: cl_program_build_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry_ptr! {
    fn clCreateProgramWithBuiltInKernels(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, kernel_names: *const c_char; errcode_ret) {
        let _ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if device_list is NULL or num_devices is zero, or
        // kernel_names is NULL or contains a kernel name that is not supported
        // by any of the devices in device_list: clift has no built-in kernels
        // (CL_DEVICE_BUILT_IN_KERNELS is empty).
        fail(CL_INVALID_VALUE)
    }
}

cl_entry! {
    fn clCompileProgram(program: cl_program, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_headers: cl_uint, input_headers: *const cl_program, header_include_names: *mut *const c_char, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry_ptr! {
    fn clLinkProgram(context: cl_context, num_devices: cl_uint, device_list: *const cl_device_id, options: *const c_char, num_input_programs: cl_uint, input_programs: *const cl_program, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void; errcode_ret) {
        let _ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if num_input_programs is zero and input_programs
        // is NULL or if num_input_programs is zero and input_programs is not
        // NULL or if num_input_programs is not zero and input_programs is NULL.
        if num_input_programs == 0 || input_programs.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_PROGRAM if programs specified in input_programs are not
        // valid program objects: no program object exists before the programs issue.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clUnloadPlatformCompiler(platform: cl_platform_id) {
        handle::platform(platform, false)?;
        // A hint; clift keeps no compiler resources to release.
        Ok(())
    }
}

cl_entry_ptr! {
    fn clCreateProgramWithIL(context: cl_context, il: *const c_void, length: usize; errcode_ret) {
        let _ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if il is NULL or if length is zero.
        if il.is_null() || length == 0 {
            return fail(CL_INVALID_VALUE);
        }
        // Program objects arrive with the programs issue; until then clift
        // refuses IL as an unsupported operation.
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetProgramReleaseCallback(program: cl_program, pfn_notify: Option<unsafe extern "C" fn(program: cl_program, user_data: *mut c_void)>, user_data: *mut c_void) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clSetProgramSpecializationConstant(program: cl_program, spec_id: cl_uint, spec_size: usize, spec_value: *const c_void) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}
