//! kernel

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateKernel(program: cl_program, kernel_name: *const c_char; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clCreateKernelsInProgram(program: cl_program, num_kernels: cl_uint, kernels: *mut cl_kernel, num_kernels_ret: *mut cl_uint) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainKernel(kernel: cl_kernel) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseKernel(kernel: cl_kernel) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetKernelArg(kernel: cl_kernel, arg_index: cl_uint, arg_size: usize, arg_value: *const c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetKernelInfo(kernel: cl_kernel, param_name: cl_kernel_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetKernelWorkGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_work_group_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetKernelArgInfo(kernel: cl_kernel, arg_index: cl_uint, param_name: cl_kernel_arg_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetKernelArgSVMPointer(kernel: cl_kernel, arg_index: cl_uint, arg_value: *const c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetKernelExecInfo(kernel: cl_kernel, param_name: cl_kernel_exec_info, param_value_size: usize, param_value: *const c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetKernelSubGroupInfoKHR(in_kernel: cl_kernel, in_device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCloneKernel(source_kernel: cl_kernel; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetKernelSubGroupInfo(kernel: cl_kernel, device: cl_device_id, param_name: cl_kernel_sub_group_info, input_value_size: usize, input_value: *const c_void, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueNDRangeKernel(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, local_work_size: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueTask(command_queue: cl_command_queue, kernel: cl_kernel, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetKernelSuggestedLocalWorkSizeKHR(command_queue: cl_command_queue, kernel: cl_kernel, work_dim: cl_uint, global_work_offset: *const usize, global_work_size: *const usize, suggested_local_work_size: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}
