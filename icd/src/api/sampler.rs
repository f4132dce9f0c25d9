//! Samplers (API spec 5.7). CL_DEVICE_IMAGE_SUPPORT is CL_FALSE, so no
//! sampler can be created.

#![allow(unused_variables)] // the refused calls check only what they must

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::handle;

cl_entry_ptr! {
    fn clCreateSampler(context: cl_context, normalized_coords: cl_bool, addressing_mode: cl_addressing_mode, filter_mode: cl_filter_mode; errcode_ret) {
        let _ctx = handle::get::<Context>(context)?;
        // CL_INVALID_OPERATION if images are not supported by any device
        // associated with context (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE).
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainSampler(sampler: cl_sampler) {
        // No sampler can exist: CL_DEVICE_IMAGE_SUPPORT is CL_FALSE.
        fail(CL_INVALID_SAMPLER)
    }
}

cl_entry! {
    fn clReleaseSampler(sampler: cl_sampler) {
        // No sampler can exist: CL_DEVICE_IMAGE_SUPPORT is CL_FALSE.
        fail(CL_INVALID_SAMPLER)
    }
}

cl_entry! {
    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // No sampler can exist: CL_DEVICE_IMAGE_SUPPORT is CL_FALSE.
        fail(CL_INVALID_SAMPLER)
    }
}

cl_entry_ptr! {
    fn clCreateSamplerWithProperties(context: cl_context, sampler_properties: *const cl_sampler_properties; errcode_ret) {
        let _ctx = handle::get::<Context>(context)?;
        // CL_INVALID_OPERATION if images are not supported by any device
        // associated with context (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE).
        fail(CL_INVALID_OPERATION)
    }
}
