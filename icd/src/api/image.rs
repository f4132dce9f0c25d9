//! image

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateImage2D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_row_pitch: usize, host_ptr: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateImage3D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_depth: usize, image_row_pitch: usize, image_slice_pitch: usize, host_ptr: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateImage(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateImageWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetSupportedImageFormats(context: cl_context, flags: cl_mem_flags, image_type: cl_mem_object_type, num_entries: cl_uint, image_formats: *mut cl_image_format, num_image_formats: *mut cl_uint) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetImageInfo(image: cl_mem, param_name: cl_image_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueReadImage(command_queue: cl_command_queue, image: cl_mem, blocking_read: cl_bool, origin: *const usize, region: *const usize, row_pitch: usize, slice_pitch: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueWriteImage(command_queue: cl_command_queue, image: cl_mem, blocking_write: cl_bool, origin: *const usize, region: *const usize, input_row_pitch: usize, input_slice_pitch: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueCopyImage(command_queue: cl_command_queue, src_image: cl_mem, dst_image: cl_mem, src_origin: *const usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueCopyImageToBuffer(command_queue: cl_command_queue, src_image: cl_mem, dst_buffer: cl_mem, src_origin: *const usize, region: *const usize, dst_offset: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueCopyBufferToImage(command_queue: cl_command_queue, src_buffer: cl_mem, dst_image: cl_mem, src_offset: usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clEnqueueMapImage(command_queue: cl_command_queue, image: cl_mem, blocking_map: cl_bool, map_flags: cl_map_flags, origin: *const usize, region: *const usize, image_row_pitch: *mut usize, image_slice_pitch: *mut usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clEnqueueFillImage(command_queue: cl_command_queue, image: cl_mem, fill_color: *const c_void, origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        fail(CL_INVALID_OPERATION)
    }
}
