//! event

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry! {
    fn clWaitForEvents(num_events: cl_uint, event_list: *const cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetEventInfo(event: cl_event, param_name: cl_event_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainEvent(event: cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseEvent(event: cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetEventProfilingInfo(event: cl_event, param_name: cl_profiling_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetEventCallback(event: cl_event, command_exec_callback_type: cl_int, pfn_notify: Option< unsafe extern "C" fn( event: cl_event, event_command_status: cl_int, user_data: *mut c_void, ), >, user_data: *mut c_void) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateUserEvent(context: cl_context; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueMarker(command_queue: cl_command_queue, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueWaitForEvents(command_queue: cl_command_queue, num_events: cl_uint, event_list: *const cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueBarrier(command_queue: cl_command_queue) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueMarkerWithWaitList(command_queue: cl_command_queue, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueBarrierWithWaitList(command_queue: cl_command_queue, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}
