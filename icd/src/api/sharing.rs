//! The graphics-API sharing slots of the dispatch table (GL, EGL, D3D10,
//! D3D11, DX9). clift advertises none of these extensions and returns each
//! call's code for a context or object that was not created by that API.

#![allow(unused_variables)] // the refused calls check only what they must

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::error::fail;
use clift_runtime::memory::MemObject;
use clift_runtime::queue::Queue;
use opencl_sys::cl_d3d10::*;
use opencl_sys::cl_d3d11::*;
use opencl_sys::cl_dx9_media_sharing::*;
use opencl_sys::cl_egl::*;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::handle;

cl_entry_ptr! {
    fn clCreateFromGLBuffer(context: cl_context, flags: cl_mem_flags, bufobj: cl_GLuint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromGLTexture2D(context: cl_context, flags: cl_mem_flags, target: cl_GLenum, miplevel: cl_GLint, texture: cl_GLuint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromGLTexture3D(context: cl_context, flags: cl_mem_flags, target: cl_GLenum, miplevel: cl_GLint, texture: cl_GLuint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromGLRenderbuffer(context: cl_context, flags: cl_mem_flags, renderbuffer: cl_GLuint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clGetGLObjectInfo(memobj: cl_mem, gl_object_type: *mut cl_gl_object_type, gl_object_name: *mut cl_GLuint) {
        handle::get::<MemObject>(memobj)?;
        // CL_INVALID_GL_OBJECT if there is no GL object associated with memobj.
        fail(CL_INVALID_GL_OBJECT)
    }
}

cl_entry! {
    fn clGetGLTextureInfo(memobj: cl_mem, param_name: cl_gl_texture_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        handle::get::<MemObject>(memobj)?;
        // CL_INVALID_GL_OBJECT if there is no GL object associated with memobj.
        fail(CL_INVALID_GL_OBJECT)
    }
}

cl_entry! {
    fn clEnqueueAcquireGLObjects(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueReleaseGLObjects(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clGetGLContextInfoKHR(properties: *const cl_context_properties, param_name: cl_gl_context_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // cl_khr_gl_sharing is not supported: no properties can name a GL
        // context that clift shares.
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetDeviceIDsFromD3D10KHR(platform: cl_platform_id, d3d_device_source: cl_d3d10_device_source_khr, d3d_object: *mut c_void, d3d_device_set: cl_d3d10_device_set_khr, num_entries: cl_uint, devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        handle::platform(platform, false)?;
        // The sharing extension is not supported, so no device can be found
        // for a graphics-API object.
        fail(CL_DEVICE_NOT_FOUND)
    }
}

cl_entry_ptr! {
    fn clCreateFromD3D10BufferKHR(context: cl_context, flags: cl_mem_flags, resource: ID3D10Buffer_ptr; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromD3D10Texture2DKHR(context: cl_context, flags: cl_mem_flags, resource: ID3D10Texture2D_ptr, subresource: cl_uint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromD3D10Texture3DKHR(context: cl_context, flags: cl_mem_flags, resource: ID3D10Texture3D_ptr, subresource: cl_uint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueAcquireD3D10ObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueReleaseD3D10ObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateEventFromGLsyncKHR(context: cl_context, sync: cl_GLsync; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromGLTexture(context: cl_context, flags: cl_mem_flags, target: cl_GLenum, miplevel: cl_GLint, texture: cl_GLuint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clGetDeviceIDsFromD3D11KHR(platform: cl_platform_id, d3d_device_source: cl_d3d11_device_source_khr, d3d_object: *mut c_void, d3d_device_set: cl_d3d11_device_set_khr, num_entries: cl_uint, devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        handle::platform(platform, false)?;
        // The sharing extension is not supported, so no device can be found
        // for a graphics-API object.
        fail(CL_DEVICE_NOT_FOUND)
    }
}

cl_entry_ptr! {
    fn clCreateFromD3D11BufferKHR(context: cl_context, flags: cl_mem_flags, resource: ID3D11Buffer_ptr; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromD3D11Texture2DKHR(context: cl_context, flags: cl_mem_flags, resource: ID3D11Texture2D_ptr, subresource: cl_uint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromD3D11Texture3DKHR(context: cl_context, flags: cl_mem_flags, resource: ID3D11Texture3D_ptr, subresource: cl_uint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromDX9MediaSurfaceKHR(context: cl_context, flags: cl_mem_flags, adapter_type: cl_dx9_media_adapter_type_khr, surface_info: *mut c_void, plane: cl_uint; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueAcquireD3D11ObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueReleaseD3D11ObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clGetDeviceIDsFromDX9MediaAdapterKHR(platform: cl_platform_id, num_media_adapters: cl_uint, media_adapter_type: *mut cl_dx9_media_adapter_type_khr, media_adapters: *mut c_void, media_adapter_set: cl_dx9_media_adapter_set_khr, num_entries: cl_uint, devices: *mut cl_device_id, num_devices: *mut cl_uint) {
        handle::platform(platform, false)?;
        // The sharing extension is not supported, so no device can be found
        // for a graphics-API object.
        fail(CL_DEVICE_NOT_FOUND)
    }
}

cl_entry! {
    fn clEnqueueAcquireDX9MediaSurfacesKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueReleaseDX9MediaSurfacesKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateFromEGLImageKHR(context: cl_context, egldisplay: CLeglDisplayKHR, eglimage: CLeglImageKHR, flags: cl_mem_flags, properties: *const cl_egl_image_properties_khr; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueAcquireEGLObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry! {
    fn clEnqueueReleaseEGLObjectsKHR(command_queue: cl_command_queue, num_objects: cl_uint, mem_objects: *const cl_mem, num_events_in_wait_list: cl_uint, event_wait_list: *const cl_event, event: *mut cl_event) {
        handle::get::<Queue>(command_queue)?;
        // CL_INVALID_CONTEXT if the context of command_queue was not created
        // from a graphics-API context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}

cl_entry_ptr! {
    fn clCreateEventFromEGLSyncKHR(context: cl_context, sync: CLeglSyncKHR, display: CLeglDisplayKHR; errcode_ret) {
        handle::get::<Context>(context)?;
        // CL_INVALID_CONTEXT if context was not created from a graphics-API
        // context: clift supports no sharing extension.
        fail(CL_INVALID_CONTEXT)
    }
}
