//! The image types of OpenCL as the image tests name them (their memory
//! object types, OpenCL C types and coordinates), and samplers.

use opencl_sys::*;

/// An image type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    D1,
    Buf,
    D1Arr,
    D2,
    D2Arr,
    D3,
}

/// Every image type.
pub const TYPES: [Ty; 6] = [Ty::D1, Ty::Buf, Ty::D1Arr, Ty::D2, Ty::D2Arr, Ty::D3];

impl Ty {
    /// The `cl_mem_object_type`.
    pub fn mem_type(self) -> cl_mem_object_type {
        match self {
            Ty::D1 => CL_MEM_OBJECT_IMAGE1D,
            Ty::Buf => CL_MEM_OBJECT_IMAGE1D_BUFFER,
            Ty::D1Arr => CL_MEM_OBJECT_IMAGE1D_ARRAY,
            Ty::D2 => CL_MEM_OBJECT_IMAGE2D,
            Ty::D2Arr => CL_MEM_OBJECT_IMAGE2D_ARRAY,
            Ty::D3 => CL_MEM_OBJECT_IMAGE3D,
        }
    }

    /// The OpenCL C type (the depth types replace image2d_t and
    /// image2d_array_t for CL_DEPTH images).
    pub fn cl(self, depth: bool) -> &'static str {
        match (self, depth) {
            (Ty::D1, _) => "image1d_t",
            (Ty::Buf, _) => "image1d_buffer_t",
            (Ty::D1Arr, _) => "image1d_array_t",
            (Ty::D2, false) => "image2d_t",
            (Ty::D2, true) => "image2d_depth_t",
            (Ty::D2Arr, false) => "image2d_array_t",
            (Ty::D2Arr, true) => "image2d_array_depth_t",
            (Ty::D3, _) => "image3d_t",
        }
    }

    /// The coordinates a kernel passes: x, then y or a 1D array's layer,
    /// then z or a 2D array's layer.
    pub fn axes(self) -> usize {
        match self {
            Ty::D1 | Ty::Buf => 1,
            Ty::D1Arr | Ty::D2 => 2,
            Ty::D2Arr | Ty::D3 => 3,
        }
    }

    /// The coordinates a sampler addresses and filters (the others are
    /// unused or an array layer).
    pub fn spatial(self) -> usize {
        match self {
            Ty::D1 | Ty::Buf | Ty::D1Arr => 1,
            Ty::D2 | Ty::D2Arr => 2,
            Ty::D3 => 3,
        }
    }

    /// The coordinate that is an array layer.
    pub fn layer_axis(self) -> Option<usize> {
        match self {
            Ty::D1Arr => Some(1),
            Ty::D2Arr => Some(2),
            _ => None,
        }
    }
}

/// A sampler of `ctx` made by clCreateSamplerWithProperties.
pub fn sampler(ctx: cl_context, normalized: cl_bool, mode: cl_addressing_mode, filter: cl_filter_mode) -> cl_sampler {
    let props: [cl_sampler_properties; 7] = [
        CL_SAMPLER_NORMALIZED_COORDS as cl_sampler_properties,
        normalized as cl_sampler_properties,
        CL_SAMPLER_ADDRESSING_MODE as cl_sampler_properties,
        mode as cl_sampler_properties,
        CL_SAMPLER_FILTER_MODE as cl_sampler_properties,
        filter as cl_sampler_properties,
        0,
    ];
    let mut err = 0;
    // SAFETY: a valid context and a zero-terminated property list.
    let s = unsafe { clCreateSamplerWithProperties(ctx, props.as_ptr(), &mut err) };
    crate::check(err);
    s
}
