//! Platform queries and the loader's entry points.

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, guard_ptr};
use crate::{args, dispatch, handle, info};

/// Writes the platform list for clGetPlatformIDs and clIcdGetPlatformIDsKHR.
fn platform_ids(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> clift_runtime::ClResult<()> {
    // CL_INVALID_VALUE if num_entries is equal to zero and platforms is not
    // NULL or if both num_platforms and platforms are NULL.
    if (num_entries == 0 && !platforms.is_null()) || (platforms.is_null() && num_platforms.is_null()) {
        return fail(CL_INVALID_VALUE);
    }
    let p = handle::init();
    if let Some(out) = args::slice_mut(platforms, num_entries as usize) {
        out[0] = p.handle() as cl_platform_id;
    }
    args::write_out(num_platforms, 1);
    Ok(())
}

cl_entry! {
    fn clGetPlatformIDs(num_entries: cl_uint, platforms: *mut cl_platform_id, num_platforms: *mut cl_uint) {
        platform_ids(num_entries, platforms, num_platforms)
    }

    fn clIcdGetPlatformIDsKHR(num_entries: cl_uint, platforms: *mut cl_platform_id, num_platforms: *mut cl_uint) {
        platform_ids(num_entries, platforms, num_platforms)
    }

    fn clGetPlatformInfo(platform: cl_platform_id, param_name: cl_platform_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_PLATFORM if platform is not a valid platform.
        let p = handle::platform(platform, true)?;
        info::write(p.info(param_name), param_value_size, param_value, param_value_size_ret)
    }
}

#[allow(non_snake_case)]
pub(crate) extern "C" fn clGetExtensionFunctionAddress(func_name: *const c_char) -> *mut c_void {
    guard_ptr(std::ptr::null_mut(), || Ok(dispatch::extension_function(func_name)))
}

#[allow(non_snake_case)]
pub(crate) extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform: cl_platform_id,
    func_name: *const c_char,
) -> *mut c_void {
    guard_ptr(std::ptr::null_mut(), || {
        handle::platform(platform, false)?;
        Ok(dispatch::extension_function(func_name))
    })
}

/// The symbols the loader looks up by name. Each forwards to the internal
/// entry point; the dispatch table and clift itself use the internal ones, so
/// the loader's own exports of the same names can never be called in their
/// place through symbol interposition.
mod exports {
    use super::*;

    /// cl_khr_icd: the loader enumerates clift's platforms with this.
    #[export_name = "clIcdGetPlatformIDsKHR"]
    extern "C" fn icd_get_platform_ids(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int {
        clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms)
    }

    /// The ocl-icd loader looks clGetPlatformInfo up by name to read
    /// CL_PLATFORM_ICD_SUFFIX_KHR before it accepts a vendor library.
    #[export_name = "clGetPlatformInfo"]
    extern "C" fn get_platform_info(
        platform: cl_platform_id,
        param_name: cl_platform_info,
        param_value_size: usize,
        param_value: *mut c_void,
        param_value_size_ret: *mut usize,
    ) -> cl_int {
        clGetPlatformInfo(
            platform,
            param_name,
            param_value_size,
            param_value,
            param_value_size_ret,
        )
    }

    /// The address of an extension function, by name (NULL if unknown).
    #[export_name = "clGetExtensionFunctionAddress"]
    extern "C" fn get_extension_function_address(func_name: *const c_char) -> *mut c_void {
        clGetExtensionFunctionAddress(func_name)
    }

    /// The address of an extension function of `platform` (NULL if unknown
    /// or if `platform` is not clift's).
    #[export_name = "clGetExtensionFunctionAddressForPlatform"]
    extern "C" fn get_extension_function_address_for_platform(
        platform: cl_platform_id,
        func_name: *const c_char,
    ) -> *mut c_void {
        clGetExtensionFunctionAddressForPlatform(platform, func_name)
    }
}
