//! sampler

#![allow(unused_variables)]

use std::ffi::{c_char, c_void};

use clift_runtime::error::fail;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};

cl_entry_ptr! {
    fn clCreateSampler(context: cl_context, normalized_coords: cl_bool, addressing_mode: cl_addressing_mode, filter_mode: cl_filter_mode; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clRetainSampler(sampler: cl_sampler) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clReleaseSampler(sampler: cl_sampler) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry! {
    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        fail(CL_INVALID_OPERATION)
    }
}

cl_entry_ptr! {
    fn clCreateSamplerWithProperties(context: cl_context, sampler_properties: *const cl_sampler_properties; errcode_ret) {
        fail(CL_INVALID_OPERATION)
    }
}
