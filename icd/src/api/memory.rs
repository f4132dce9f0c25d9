//! Memory objects: buffers, sub-buffers, pipes, their queries, and
//! destructor callbacks.

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::error::{fail, ClResult};
use clift_runtime::memory::MemObject;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle, info};

/// clCreateBuffer and clCreateBufferWithProperties.
fn create_buffer(
    context: cl_context,
    properties: Option<Vec<u64>>,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<*mut c_void> {
    // CL_INVALID_CONTEXT if context is not a valid context.
    let ctx = handle::get::<Context>(context)?;
    // SAFETY: the API contract for host_ptr: when not NULL it points to at
    // least `size` readable bytes ("The size of the buffer that host_ptr
    // points to must be greater than or equal to size bytes"), and with
    // CL_MEM_USE_HOST_PTR the application keeps it valid as the buffer's
    // storage until the buffer's destructor callbacks have run.
    let mem = unsafe { MemObject::create_buffer(&ctx, properties.as_deref(), flags, size, host_ptr) }?;
    Ok(handle::register(mem))
}

cl_entry_ptr! {
    fn clCreateBuffer(context: cl_context, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void; errcode_ret) {
        create_buffer(context, None, flags, size, host_ptr)
    }

    fn clCreateBufferWithProperties(context: cl_context, properties: *const cl_mem_properties, flags: cl_mem_flags, size: usize, host_ptr: *mut c_void; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context (checked
        // before the property list is read).
        handle::get::<Context>(context)?;
        let props = if properties.is_null() {
            None
        } else {
            Some(args::property_pairs(properties, CL_INVALID_PROPERTY)?)
        };
        create_buffer(context, props, flags, size, host_ptr)
    }

    fn clCreateSubBuffer(buffer: cl_mem, flags: cl_mem_flags, buffer_create_type: cl_buffer_create_type, buffer_create_info: *const c_void; errcode_ret) {
        // CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object.
        let parent = handle::get::<MemObject>(buffer)?;
        if !parent.is_buffer() || parent.parent().is_some() {
            // or if buffer is a sub-buffer object.
            return fail(CL_INVALID_MEM_OBJECT);
        }
        // CL_INVALID_VALUE if the value specified in buffer_create_type is
        // not valid.
        if buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION {
            return fail(CL_INVALID_VALUE);
        }
        // CL_INVALID_VALUE if buffer_create_info is NULL.
        let Some(&[region]) = args::slice(buffer_create_info as *const cl_buffer_region, 1) else {
            return fail(CL_INVALID_VALUE);
        };
        let sub = parent.create_sub_buffer(flags, region.origin, region.size)?;
        Ok(handle::register(sub))
    }

    fn clCreatePipe(context: cl_context, flags: cl_mem_flags, pipe_packet_size: cl_uint, pipe_max_packets: cl_uint, properties: *const cl_pipe_properties; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        // CL_INVALID_VALUE if properties is not NULL.
        if !properties.is_null() {
            return fail(CL_INVALID_VALUE);
        }
        // If the value specified for flags is 0, the default is used which is
        // CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS (the flags are recorded
        // as given, for CL_MEM_FLAGS).
        let pipe = MemObject::create_pipe(&ctx, flags, pipe_packet_size, pipe_max_packets)?;
        Ok(handle::register(pipe))
    }
}

cl_entry! {
    fn clRetainMemObject(memobj: cl_mem) {
        // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
        handle::retain::<MemObject>(memobj)
    }

    fn clReleaseMemObject(memobj: cl_mem) {
        // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object. After
        // the memobj reference count becomes zero and commands queued for
        // execution on a command-queue(s) that use memobj have finished, the
        // memory object is deleted (commands hold it until then).
        handle::release::<MemObject>(memobj)
    }

    fn clGetMemObjectInfo(memobj: cl_mem, param_name: cl_mem_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_MEM_OBJECT if memobj is a not a valid memory object.
        let mem = handle::get::<MemObject>(memobj)?;
        info::write(mem.info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clGetPipeInfo(pipe: cl_mem, param_name: cl_pipe_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object.
        let mem = handle::get::<MemObject>(pipe)?;
        info::write(mem.pipe_info(param_name), param_value_size, param_value, param_value_size_ret)
    }

    fn clSetMemObjectDestructorCallback(memobj: cl_mem, pfn_notify: Option<unsafe extern "C" fn(memobj: cl_mem, user_data: *mut c_void)>, user_data: *mut c_void) {
        // CL_INVALID_MEM_OBJECT if memobj is not a valid memory object.
        let mem = handle::get::<MemObject>(memobj)?;
        mem.add_destructor(args::handle_callback(pfn_notify, memobj, user_data)?);
        Ok(())
    }
}
