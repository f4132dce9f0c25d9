//! The ICD dispatch table and the extension-function lookup, generated from
//! one list.
//!
//! The list below names every slot of `cl_icd_dispatch` in the order of the
//! Khronos `cl_icd.h` (a unit test checks it against the installed header).
//! Each name is also the entry point in `api/` that fills the slot; the
//! struct's typed fields make the compiler check every signature against the
//! header's. Nothing else fills the table, so no slot can be NULL.

use std::ffi::{c_char, c_void};

use opencl_sys::cl_icd::cl_icd_dispatch;

use crate::api::*;

macro_rules! dispatch_table {
    ($($name:ident),* $(,)?) => {
        /// The table whose address is the first word behind every clift handle.
        pub static DISPATCH: cl_icd_dispatch = cl_icd_dispatch {
            $($name: Some($name as _),)*
            // OpenCL 3.1's slot, beyond the 2.2 table; filled all the same.
            clGetKernelSuggestedLocalWorkSize: Some(clGetKernelSuggestedLocalWorkSizeKHR as _),
        };

        /// The slot names in table order.
        #[cfg_attr(not(test), allow(dead_code))]
        pub const SLOT_NAMES: &[&str] = &[$(stringify!($name)),*];
    };
}

dispatch_table!(
    clGetPlatformIDs,
    clGetPlatformInfo,
    clGetDeviceIDs,
    clGetDeviceInfo,
    clCreateContext,
    clCreateContextFromType,
    clRetainContext,
    clReleaseContext,
    clGetContextInfo,
    clCreateCommandQueue,
    clRetainCommandQueue,
    clReleaseCommandQueue,
    clGetCommandQueueInfo,
    clSetCommandQueueProperty,
    clCreateBuffer,
    clCreateImage2D,
    clCreateImage3D,
    clRetainMemObject,
    clReleaseMemObject,
    clGetSupportedImageFormats,
    clGetMemObjectInfo,
    clGetImageInfo,
    clCreateSampler,
    clRetainSampler,
    clReleaseSampler,
    clGetSamplerInfo,
    clCreateProgramWithSource,
    clCreateProgramWithBinary,
    clRetainProgram,
    clReleaseProgram,
    clBuildProgram,
    clUnloadCompiler,
    clGetProgramInfo,
    clGetProgramBuildInfo,
    clCreateKernel,
    clCreateKernelsInProgram,
    clRetainKernel,
    clReleaseKernel,
    clSetKernelArg,
    clGetKernelInfo,
    clGetKernelWorkGroupInfo,
    clWaitForEvents,
    clGetEventInfo,
    clRetainEvent,
    clReleaseEvent,
    clGetEventProfilingInfo,
    clFlush,
    clFinish,
    clEnqueueReadBuffer,
    clEnqueueWriteBuffer,
    clEnqueueCopyBuffer,
    clEnqueueReadImage,
    clEnqueueWriteImage,
    clEnqueueCopyImage,
    clEnqueueCopyImageToBuffer,
    clEnqueueCopyBufferToImage,
    clEnqueueMapBuffer,
    clEnqueueMapImage,
    clEnqueueUnmapMemObject,
    clEnqueueNDRangeKernel,
    clEnqueueTask,
    clEnqueueNativeKernel,
    clEnqueueMarker,
    clEnqueueWaitForEvents,
    clEnqueueBarrier,
    clGetExtensionFunctionAddress,
    clCreateFromGLBuffer,
    clCreateFromGLTexture2D,
    clCreateFromGLTexture3D,
    clCreateFromGLRenderbuffer,
    clGetGLObjectInfo,
    clGetGLTextureInfo,
    clEnqueueAcquireGLObjects,
    clEnqueueReleaseGLObjects,
    clGetGLContextInfoKHR,
    clGetDeviceIDsFromD3D10KHR,
    clCreateFromD3D10BufferKHR,
    clCreateFromD3D10Texture2DKHR,
    clCreateFromD3D10Texture3DKHR,
    clEnqueueAcquireD3D10ObjectsKHR,
    clEnqueueReleaseD3D10ObjectsKHR,
    clSetEventCallback,
    clCreateSubBuffer,
    clSetMemObjectDestructorCallback,
    clCreateUserEvent,
    clSetUserEventStatus,
    clEnqueueReadBufferRect,
    clEnqueueWriteBufferRect,
    clEnqueueCopyBufferRect,
    clCreateSubDevicesEXT,
    clRetainDeviceEXT,
    clReleaseDeviceEXT,
    clCreateEventFromGLsyncKHR,
    clCreateSubDevices,
    clRetainDevice,
    clReleaseDevice,
    clCreateImage,
    clCreateProgramWithBuiltInKernels,
    clCompileProgram,
    clLinkProgram,
    clUnloadPlatformCompiler,
    clGetKernelArgInfo,
    clEnqueueFillBuffer,
    clEnqueueFillImage,
    clEnqueueMigrateMemObjects,
    clEnqueueMarkerWithWaitList,
    clEnqueueBarrierWithWaitList,
    clGetExtensionFunctionAddressForPlatform,
    clCreateFromGLTexture,
    clGetDeviceIDsFromD3D11KHR,
    clCreateFromD3D11BufferKHR,
    clCreateFromD3D11Texture2DKHR,
    clCreateFromD3D11Texture3DKHR,
    clCreateFromDX9MediaSurfaceKHR,
    clEnqueueAcquireD3D11ObjectsKHR,
    clEnqueueReleaseD3D11ObjectsKHR,
    clGetDeviceIDsFromDX9MediaAdapterKHR,
    clEnqueueAcquireDX9MediaSurfacesKHR,
    clEnqueueReleaseDX9MediaSurfacesKHR,
    clCreateFromEGLImageKHR,
    clEnqueueAcquireEGLObjectsKHR,
    clEnqueueReleaseEGLObjectsKHR,
    clCreateEventFromEGLSyncKHR,
    clCreateCommandQueueWithProperties,
    clCreatePipe,
    clGetPipeInfo,
    clSVMAlloc,
    clSVMFree,
    clEnqueueSVMFree,
    clEnqueueSVMMemcpy,
    clEnqueueSVMMemFill,
    clEnqueueSVMMap,
    clEnqueueSVMUnmap,
    clCreateSamplerWithProperties,
    clSetKernelArgSVMPointer,
    clSetKernelExecInfo,
    clGetKernelSubGroupInfoKHR,
    clCloneKernel,
    clCreateProgramWithIL,
    clEnqueueSVMMigrateMem,
    clGetDeviceAndHostTimer,
    clGetHostTimer,
    clGetKernelSubGroupInfo,
    clSetDefaultDeviceCommandQueue,
    clSetProgramReleaseCallback,
    clSetProgramSpecializationConstant,
    clCreateBufferWithProperties,
    clCreateImageWithProperties,
    clSetContextDestructorCallback,
);

/// Extension functions that clGetExtensionFunctionAddress(ForPlatform)
/// answers: one per function of an extension clift advertises.
fn extension_functions() -> [(&'static str, *mut c_void); 2] {
    [
        (
            "clIcdGetPlatformIDsKHR",
            crate::api::platform::clIcdGetPlatformIDsKHR as *mut c_void,
        ),
        // cl_khr_il_program: the same function as the core one.
        (
            "clCreateProgramWithILKHR",
            crate::api::program::clCreateProgramWithIL as *mut c_void,
        ),
    ]
}

/// The address of extension function `name`, or NULL.
pub fn extension_function(name: *const c_char) -> *mut c_void {
    let Some(name) = crate::args::c_str(name) else {
        return std::ptr::null_mut();
    };
    let Ok(name) = name.to_str() else {
        return std::ptr::null_mut();
    };
    extension_functions()
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(std::ptr::null_mut(), |(_, f)| *f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slot order must be the Khronos header's: the loader indexes the
    /// table by position.
    #[test]
    fn slot_order_matches_installed_header() {
        let path = "/usr/include/CL/cl_icd.h";
        let text = std::fs::read_to_string(path).expect("opencl-headers installs CL/cl_icd.h");
        let start = text.find("typedef struct _cl_icd_dispatch").expect("dispatch struct");
        let end = start + text[start..].find("} cl_icd_dispatch;").expect("struct end");
        let mut body = text[start..end].to_string();
        while let Some(a) = body.find("/*") {
            let b = a + body[a..].find("*/").expect("comment end") + 2;
            body.replace_range(a..b, " ");
        }
        let header: Vec<String> = body
            .split(';')
            .filter_map(|decl| {
                let words: Vec<&str> = decl.split_whitespace().collect();
                let ty = words.iter().position(|w| w.starts_with("cl_api_"))?;
                words.get(ty + 1).map(|s| s.to_string())
            })
            .collect();
        let ours: Vec<String> = SLOT_NAMES.iter().map(|s| s.to_string()).collect();
        assert_eq!(header, ours);
    }

    #[test]
    fn no_slot_is_null() {
        let words = std::mem::size_of::<cl_icd_dispatch>() / std::mem::size_of::<usize>();
        // SAFETY: cl_icd_dispatch is a repr(C) struct of pointer-sized fields.
        let slots: &[usize] = unsafe { std::slice::from_raw_parts(&DISPATCH as *const _ as *const usize, words) };
        assert!(slots.len() > SLOT_NAMES.len());
        assert!(slots.iter().all(|&p| p != 0));
    }
}
