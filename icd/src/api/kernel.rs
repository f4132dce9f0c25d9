//! Kernel objects and kernel enqueues (API spec 5.9, 5.10). They arrive
//! with the programs and kernels issues; until then no kernel handle is valid.

#![allow(unused_variables)] // the refused calls check only what they must

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use clift_runtime::queue::Queue;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::handle;

cl_entry_ptr! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char; errcode_ret) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clCreateKernelsInProgram(program: cl_program, num_kernels: cl_uint, kernels: *mut cl_kernel, num_kernels_ret: *mut cl_uint) {
        // No program object exists before the programs issue lands, so
        // every program handle is invalid.
        fail(CL_INVALID_PROGRAM)
    }
}

cl_entry! {
    fn clRetainKernel(kernel: cl_kernel) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clReleaseKernel(kernel: cl_kernel) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clSetKernelArg(kernel: cl_kernel, arg_index: cl_uint, arg_size: usize, arg_value: *const c_void) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clGetKernelWorkGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_work_group_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clGetKernelArgInfo(kernel: cl_kernel, arg_index: cl_uint, param_name: cl_kernel_arg_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clSetKernelArgSVMPointer(kernel: cl_kernel, arg_index: cl_uint, arg_value: *const c_void) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clSetKernelExecInfo(kernel: cl_kernel, param_name: cl_kernel_exec_info, param_value_size: usize, param_value: *const c_void) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clGetKernelSubGroupInfoKHR(in_kernel: cl_kernel, in_device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry_ptr! {
    fn clCloneKernel(source_kernel: cl_kernel; errcode_ret) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clGetKernelSubGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clEnqueueNDRangeKernel(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, local_work_size: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clEnqueueTask(command_queue: cl_command_queue, kernel: cl_kernel, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}

cl_entry! {
    fn clGetKernelSuggestedLocalWorkSizeKHR(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, suggested_local_work_size: *mut usize) {
        handle::get::<Queue>(command_queue)?;
        // No kernel object exists before the programs issue lands, so
        // every kernel handle is invalid.
        fail(CL_INVALID_KERNEL)
    }
}
