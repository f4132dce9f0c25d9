//! queue

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateCommandQueue(context: cl_context, device: cl_device_id, properties: cl_command_queue_properties; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainCommandQueue(command_queue: cl_command_queue) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseCommandQueue(command_queue: cl_command_queue) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetCommandQueueInfo(command_queue: cl_command_queue, param_name: cl_command_queue_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetCommandQueueProperty(command_queue: cl_command_queue, properties: cl_command_queue_properties, enable: cl_bool, old_properties: *mut cl_command_queue_properties) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateCommandQueueWithProperties(context: cl_context, device: cl_device_id, properties: *const cl_queue_properties; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetDefaultDeviceCommandQueue(context: cl_context, device: cl_device_id, command_queue: cl_command_queue) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clFlush(command_queue: cl_command_queue) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clFinish(command_queue: cl_command_queue) {
        fail(CL_INVALID_OPERATION)
    }
}
