//! Images. clift's devices do not support images (CL_DEVICE_IMAGE_SUPPORT is
//! CL_FALSE): image creation fails with CL_INVALID_OPERATION, no image
//! format is supported, and since no image object can exist, every image
//! query and image command fails on its image argument.

// The calls fail before most of their arguments matter.
#![allow(unused_variables)]

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::memory::{check_mem_flags, MemObject, BUFFER_FLAGS};
use clift_runtime::queue::Queue;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle};

/// The common answer of the image-creating calls once the context is
/// valid: CL_INVALID_OPERATION if there are no devices in context that
/// support images.
fn create_image(context: cl_context) -> ClResult<*mut c_void> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    handle::get::<Context>(context)?;
    // CL_INVALID_OPERATION if there are no devices in context that support
    // images (i.e. CL_DEVICE_IMAGE_SUPPORT is CL_FALSE).
    fail(CL_INVALID_OPERATION)
}

/// `image` of an image call: a valid memory object is still not an image, so
/// the answer is CL_INVALID_MEM_OBJECT ("if image is not a valid image
/// object") either way.
fn not_an_image(image: cl_mem) -> ClResult<()> {
    handle::get::<MemObject>(image)?;
    fail(CL_INVALID_MEM_OBJECT)
}

/// The queue and image of an image command: CL_INVALID_COMMAND_QUEUE first,
/// then CL_INVALID_MEM_OBJECT.
fn image_command(command_queue: cl_command_queue, image: cl_mem) -> ClResult<()> {
    // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
    handle::get::<Queue>(command_queue)?;
    // CL_INVALID_MEM_OBJECT if image is not a valid image object.
    not_an_image(image)
}

cl_entry_ptr! {
    fn clCreateImage2D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_row_pitch: usize, host_ptr: *mut c_void; errcode_ret) {
        create_image(context)
    }

    fn clCreateImage3D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_depth: usize, image_row_pitch: usize, image_slice_pitch: usize, host_ptr: *mut c_void; errcode_ret) {
        create_image(context)
    }

    fn clCreateImage(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void; errcode_ret) {
        create_image(context)
    }

    fn clCreateImageWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void; errcode_ret) {
        create_image(context)
    }

    fn clEnqueueMapImage(command_queue: cl_command_queue, image: cl_mem, blocking_map: cl_bool, map_flags: cl_map_flags, origin: *const usize, region: *const usize, image_row_pitch: *mut usize, image_slice_pitch: *mut usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event; errcode_ret) {
        image_command(command_queue, image).map(|()| std::ptr::null_mut())
    }
}

cl_entry! {
    fn clGetSupportedImageFormats(context: cl_context, flags: cl_mem_flags, image_type: cl_mem_object_type, num_entries: cl_uint, image_formats: *mut cl_image_format, num_image_formats: *mut cl_uint) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if flags is not valid.
        check_mem_flags(flags, BUFFER_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE)?;
        // CL_INVALID_VALUE if image_type is not valid (image_type must be
        // either CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
        // CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D,
        // CL_MEM_OBJECT_IMAGE1D_ARRAY, or CL_MEM_OBJECT_IMAGE2D_ARRAY).
        if !matches!(
            image_type,
            CL_MEM_OBJECT_IMAGE1D
                | CL_MEM_OBJECT_IMAGE1D_BUFFER
                | CL_MEM_OBJECT_IMAGE2D
                | CL_MEM_OBJECT_IMAGE3D
                | CL_MEM_OBJECT_IMAGE1D_ARRAY
                | CL_MEM_OBJECT_IMAGE2D_ARRAY
        ) {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if num_entries is zero and image_formats is not NULL.
        if num_entries == 0 && !image_formats.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // clGetSupportedImageFormats returns a union of image formats
        // supported by all devices in the context: none.
        args::write_out(num_image_formats, 0);
        Ok(())
    }

    fn clGetImageInfo(image: cl_mem, param_name: cl_image_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
        not_an_image(image)
    }

    fn clEnqueueReadImage(command_queue: cl_command_queue, image: cl_mem, blocking_read: cl_bool, origin: *const usize, region: *const usize, row_pitch: usize, slice_pitch: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        image_command(command_queue, image)
    }

    fn clEnqueueWriteImage(command_queue: cl_command_queue, image: cl_mem, blocking_write: cl_bool, origin: *const usize, region: *const usize, input_row_pitch: usize, input_slice_pitch: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        image_command(command_queue, image)
    }

    fn clEnqueueCopyImage(command_queue: cl_command_queue, src_image: cl_mem, dst_image: cl_mem, src_origin: *const usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        image_command(command_queue, src_image)
    }

    fn clEnqueueCopyImageToBuffer(command_queue: cl_command_queue, src_image: cl_mem, dst_buffer: cl_mem, src_origin: *const usize, region: *const usize, dst_offset: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        image_command(command_queue, src_image)
    }

    fn clEnqueueCopyBufferToImage(command_queue: cl_command_queue, src_buffer: cl_mem, dst_image: cl_mem, src_offset: usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        image_command(command_queue, dst_image)
    }

    fn clEnqueueFillImage(command_queue: cl_command_queue, image: cl_mem, fill_color: *const c_void, origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        image_command(command_queue, image)
    }
}
