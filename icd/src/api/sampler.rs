//! Samplers (API spec 5.7): creation from arguments or a property list,
//! retain and release, queries.

use std::ffi::c_void;

use clift_runtime::context::Context;
use clift_runtime::sampler::Sampler;
use opencl_sys::*;

use crate::entry::{cl_entry, cl_entry_ptr};
use crate::{args, handle, info};

cl_entry_ptr! {
    fn clCreateSampler(context: cl_context, normalized_coords: cl_bool, addressing_mode: cl_addressing_mode, filter_mode: cl_filter_mode; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        let sampler = Sampler::create(&ctx, normalized_coords, addressing_mode, filter_mode)?;
        Ok(handle::register(sampler))
    }

    fn clCreateSamplerWithProperties(context: cl_context, sampler_properties: *const cl_sampler_properties; errcode_ret) {
        // CL_INVALID_CONTEXT if context is not a valid context.
        let ctx = handle::get::<Context>(context)?;
        // A list without its terminator within a sane length has a
        // property that is not valid: CL_INVALID_VALUE.
        let props = if sampler_properties.is_null() {
            None
        } else {
            Some(args::property_pairs(sampler_properties, CL_INVALID_VALUE)?)
        };
        let sampler = Sampler::create_with_properties(&ctx, props.as_deref())?;
        Ok(handle::register(sampler))
    }
}

cl_entry! {
    fn clRetainSampler(sampler: cl_sampler) {
        // CL_INVALID_SAMPLER if sampler is not a valid sampler object.
        handle::retain::<Sampler>(sampler)
    }

    fn clReleaseSampler(sampler: cl_sampler) {
        // CL_INVALID_SAMPLER if sampler is not a valid sampler object. The
        // sampler is deleted once the count is zero and nothing holds it.
        handle::release::<Sampler>(sampler)
    }

    fn clGetSamplerInfo(sampler: cl_sampler, param_name: cl_sampler_info, param_value_size: usize, param_value: *mut c_void, param_value_size_ret: *mut usize) {
        // CL_INVALID_SAMPLER if sampler is a not a valid sampler object.
        let s = handle::get::<Sampler>(sampler)?;
        info::write(s.info(param_name), param_value_size, param_value, param_value_size_ret)
    }
}
