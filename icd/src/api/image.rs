//! Images (API spec 5.3): creation (clCreateImage, its properties form,
//! and the OpenCL 1.1 clCreateImage2D and clCreateImage3D), the supported
//! formats, image queries, and the image commands: read, write, copy
//! (image to image, image to buffer, buffer to image), fill and map.

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::memory::image::{self, Entry, Format, ImageDescArg, SourceArg};
use clift_runtime::memory::image_transfer::{self, ImageRectArgs};
use clift_runtime::memory::{check_mem_flags, MemObject, BUFFER_FLAGS};
use clift_runtime::queue::Queue;
use opencl_sys::*;

use crate::api::transfer::{host_ptr, submit, triple};
use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle, info};

/// The image format at `p`, `None` for NULL.
fn format_arg(p: *const cl_image_format) -> Option<Format> {
    args::slice(p, 1).map(|f| Format {
        order: f[0].image_channel_order,
        data_type: f[0].image_channel_data_type,
    })
}

/// The image descriptor at `p`, `None` for NULL; its mem_object looked up.
fn desc_arg(p: *const cl_image_desc) -> Option<ImageDescArg> {
    let d = args::slice(p, 1)?[0];
    let mem_object = if d.buffer.is_null() {
        SourceArg::None
    } else {
        match handle::get::<MemObject>(d.buffer) {
            Ok(m) => SourceArg::Object(m),
            Err(_) => SourceArg::Invalid,
        }
    };
    Some(ImageDescArg {
        image_type: d.image_type,
        width: d.image_width,
        height: d.image_height,
        depth: d.image_depth,
        array_size: d.image_array_size,
        row_pitch: d.image_row_pitch,
        slice_pitch: d.image_slice_pitch,
        num_mip_levels: d.num_mip_levels,
        num_samples: d.num_samples,
        mem_object,
    })
}

/// Every image-creating call, once its arguments are converted.
fn create_image(
    context: cl_context,
    properties: Option<Vec<u64>>,
    flags: cl_mem_flags,
    format: Option<Format>,
    desc: Option<ImageDescArg>,
    host_ptr: *mut c_void,
    entry: Entry,
) -> ClResult<*mut c_void> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = handle::get::<Context>(context)?;
    // SAFETY: the API contract for host_ptr: when not NULL it points to the
    // image data, at least as many bytes as the "Required host_ptr buffer
    // sizes for images" table asks for the descriptor's pitches and
    // dimensions, and with CL_MEM_USE_HOST_PTR the application keeps it
    // valid as the image's storage until the image's destructor callbacks
    // have run.
    let mem = unsafe {
        MemObject::create_image(
            &ctx,
            properties.as_deref(),
            flags,
            format,
            desc.as_ref(),
            host_ptr,
            entry,
        )
    }?;
    Ok(handle::register(mem))
}

/// The image of an image call: CL_INVALID_MEM_OBJECT if `h` is not a valid
/// memory object (the runtime answers the same for one that is not an
/// image).
fn mem(h: cl_mem) -> ClResult<std::sync::Arc<MemObject>> {
    handle::get::<MemObject>(h)
}

cl_entry_ptr! {
    fn clCreateImage(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void; errcode_ret) {
        create_image(context, None, flags, format_arg(image_format), desc_arg(image_desc), host_ptr, Entry::CreateImage)
    }

    fn clCreateImageWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, image_format: *const cl_image_format, image_desc: *const cl_image_desc, host_ptr: *mut c_void; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context (checked
        // before the property list is read).
        handle::get::<Context>(context)?;
        let props = if properties.is_null() {
            None
        } else {
            Some(args::property_pairs(properties, CL_INVALID_PROPERTY)?)
        };
        create_image(context, props, flags, format_arg(image_format), desc_arg(image_desc), host_ptr, Entry::CreateImage)
    }

    fn clCreateImage2D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_row_pitch: usize, host_ptr: *mut c_void; errcode_ret) {
        let desc = ImageDescArg {
            image_type: CL_MEM_OBJECT_IMAGE2D,
            width: image_width,
            height: image_height,
            row_pitch: image_row_pitch,
            ..Default::default()
        };
        create_image(context, None, flags, format_arg(image_format), Some(desc), host_ptr, Entry::Legacy)
    }

    fn clCreateImage3D(context: cl_context, flags: cl_mem_flags, image_format: *const cl_image_format, image_width: usize, image_height: usize, image_depth: usize, image_row_pitch: usize, image_slice_pitch: usize, host_ptr: *mut c_void; errcode_ret) {
        let desc = ImageDescArg {
            image_type: CL_MEM_OBJECT_IMAGE3D,
            width: image_width,
            height: image_height,
            depth: image_depth,
            row_pitch: image_row_pitch,
            slice_pitch: image_slice_pitch,
            ..Default::default()
        };
        create_image(context, None, flags, format_arg(image_format), Some(desc), host_ptr, Entry::Legacy)
    }

    fn clEnqueueMapImage(command_queue: cl_command_queue, image: cl_mem, blocking_map: cl_bool, map_flags: cl_map_flags, origin: *const usize, region: *const usize, image_row_pitch: *mut usize, image_slice_pitch: *mut usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event; errcode_ret) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if image is not a valid image object.
        let m = mem(image)?;
        let blocking = args::bool_arg(blocking_map)?;
        let (cmd, mapped) = image_transfer::map_image(
            &q,
            &m,
            map_flags,
            triple(origin),
            triple(region),
            !image_row_pitch.is_null(),
            !image_slice_pitch.is_null(),
        )?;
        submit(Ok(cmd), blocking, num_events_in_wait_list, event_wait_list, event)?;
        // "image_row_pitch returns the scan-line pitch in bytes for the
        // mapped region"; image_slice_pitch the slice or layer pitch ("For a
        // 1D and 2D image, zero is returned if this argument is not NULL").
        args::write_out(image_row_pitch, mapped.row_pitch);
        args::write_out(image_slice_pitch, mapped.slice_pitch);
        Ok(mapped.ptr)
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
        if !image::IMAGE_TYPES.contains(&image_type) {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if num_entries is zero and image_formats is not NULL.
        if num_entries == 0 && !image_formats.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // clGetSupportedImageFormats returns a union of image formats
        // supported by all devices in the context: clift's devices all
        // support the same.
        let list = image::supported_image_formats(flags, image_type);
        if let Some(out) = args::slice_mut(image_formats, (num_entries as usize).min(list.len())) {
            for (o, f) in out.iter_mut().zip(list) {
                *o = cl_image_format {
                    image_channel_order: f.order,
                    image_channel_data_type: f.data_type,
                };
            }
        }
        args::write_out(num_image_formats, list.len() as cl_uint);
        Ok(())
    }

    fn clGetImageInfo(image: cl_mem, param_name: cl_image_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
        let m = mem(image)?;
        info::write(m.image_info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clEnqueueReadImage(command_queue: cl_command_queue, image: cl_mem, blocking_read: cl_bool, origin: *const usize, region: *const usize, row_pitch: usize, slice_pitch: usize, ptr: *mut c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if image is not a valid image object.
        let m = mem(image)?;
        let blocking = args::bool_arg(blocking_read)?;
        let rect = ImageRectArgs {
            origin: triple(origin),
            region: triple(region),
            row_pitch,
            slice_pitch,
        };
        let cmd = image_transfer::read_image(&q, &m, &rect, host_ptr(ptr));
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueWriteImage(command_queue: cl_command_queue, image: cl_mem, blocking_write: cl_bool, origin: *const usize, region: *const usize, input_row_pitch: usize, input_slice_pitch: usize, ptr: *const c_void, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if image is not a valid image object.
        let m = mem(image)?;
        let blocking = args::bool_arg(blocking_write)?;
        let rect = ImageRectArgs {
            origin: triple(origin),
            region: triple(region),
            row_pitch: input_row_pitch,
            slice_pitch: input_slice_pitch,
        };
        let cmd = image_transfer::write_image(&q, &m, &rect, host_ptr(ptr));
        submit(cmd, blocking, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueCopyImage(command_queue: cl_command_queue, src_image: cl_mem, dst_image: cl_mem, src_origin: *const usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if src_image or dst_image is not a valid image object.
        let src = mem(src_image)?;
        let dst = mem(dst_image)?;
        let cmd = image_transfer::copy_image(&q, &src, &dst, triple(src_origin), triple(dst_origin), triple(region));
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueCopyImageToBuffer(command_queue: cl_command_queue, src_image: cl_mem, dst_buffer: cl_mem, src_origin: *const usize, region: *const usize, dst_offset: usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if src_image is not a valid image object; if
        // dst_buffer is not a valid buffer object.
        let src = mem(src_image)?;
        let dst = mem(dst_buffer)?;
        let cmd = image_transfer::copy_image_to_buffer(&q, &src, &dst, triple(src_origin), triple(region), dst_offset);
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueCopyBufferToImage(command_queue: cl_command_queue, src_buffer: cl_mem, dst_image: cl_mem, src_offset: usize, dst_origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if src_buffer is not a valid buffer object;
        // if dst_image is not a valid image object.
        let src = mem(src_buffer)?;
        let dst = mem(dst_image)?;
        let cmd = image_transfer::copy_buffer_to_image(&q, &src, &dst, src_offset, triple(dst_origin), triple(region));
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }

    fn clEnqueueFillImage(command_queue: cl_command_queue, image: cl_mem, fill_color: *const c_void, origin: *const usize, region: *const usize, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        // CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue.
        let q = handle::get::<Queue>(command_queue)?;
        // CL_INVALID_MEM_OBJECT if image is not a valid image object.
        let m = mem(image)?;
        // SAFETY: the API contract for fill_color: a non-NULL fill_color
        // points to the color (one float for CL_DEPTH images, else four
        // 32-bit components), read before this call returns.
        let color = unsafe { clift_runtime::memory::storage::HostPtr::new(fill_color) };
        let cmd = image_transfer::fill_image(&q, &m, color, triple(origin), triple(region));
        submit(cmd, false, num_events_in_wait_list, event_wait_list, event)
    }
}
