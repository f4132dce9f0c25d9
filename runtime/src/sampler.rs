//! Samplers (API spec 5.7): how a kernel's image reads address and filter,
//! created from arguments or a property list, and their queries.
//!
//! A sampler is three values; kernels get it in OpenCL C's `sampler_t`
//! encoding ([`Sampler::bits`], the `clift_builtins::image::sampler`
//! bits), the same word a sampler declared in the program holds.

use std::sync::Arc;

use clift_builtins::image::sampler as bits;

use crate::context::Context;
use crate::device;
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::object::{handle_of, ApiHeader};
use opencl_sys::*;

/// A sampler object.
pub struct Sampler {
    header: ApiHeader,
    context: Arc<Context>,
    normalized_coords: bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    /// CL_SAMPLER_PROPERTIES: the list given to
    /// clCreateSamplerWithProperties (with its terminator), `None` when
    /// there was none or the sampler came from clCreateSampler.
    properties: Option<Vec<u64>>,
}
crate::api_object!(Sampler);

impl std::fmt::Debug for Sampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sampler")
            .field("normalized_coords", &self.normalized_coords)
            .field("addressing_mode", &self.addressing_mode)
            .field("filter_mode", &self.filter_mode)
            .finish()
    }
}

/// A `cl_bool` property or argument: only CL_TRUE and CL_FALSE are values.
fn bool_value(v: u64) -> Option<bool> {
    match v {
        v if v == u64::from(CL_TRUE) => Some(true),
        v if v == u64::from(CL_FALSE) => Some(false),
        _ => None,
    }
}

/// Whether `mode` is one of the five addressing modes.
fn valid_addressing(mode: u64) -> bool {
    [
        CL_ADDRESS_NONE,
        CL_ADDRESS_CLAMP_TO_EDGE,
        CL_ADDRESS_CLAMP,
        CL_ADDRESS_REPEAT,
        CL_ADDRESS_MIRRORED_REPEAT,
    ]
    .iter()
    .any(|&m| u64::from(m) == mode)
}

/// Whether `mode` is one of the two filter modes.
fn valid_filter(mode: u64) -> bool {
    mode == u64::from(CL_FILTER_NEAREST) || mode == u64::from(CL_FILTER_LINEAR)
}

/// Stores a property's value (`None`: not a valid one) unless the property
/// was given before; whether it was stored.
fn set_once<T>(slot: &mut Option<T>, value: Option<T>) -> bool {
    match (&slot, value) {
        (None, Some(v)) => {
            *slot = Some(v);
            true
        }
        _ => false,
    }
}

/// CL_INVALID_OPERATION if images are not supported by any device
/// associated with context (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE).
fn check_image_support(context: &Context) -> ClResult<()> {
    if !device::IMAGE_SUPPORT || context.devices().is_empty() {
        return fail(CL_INVALID_OPERATION);
    }
    Ok(())
}

impl Sampler {
    fn new(
        context: &Arc<Context>,
        normalized_coords: bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
        properties: Option<Vec<u64>>,
    ) -> Arc<Sampler> {
        Arc::new(Sampler {
            header: ApiHeader::new(),
            context: context.clone(),
            normalized_coords,
            addressing_mode,
            filter_mode,
            properties,
        })
    }

    /// clCreateSampler.
    pub fn create(
        context: &Arc<Context>,
        normalized_coords: cl_bool,
        addressing_mode: cl_addressing_mode,
        filter_mode: cl_filter_mode,
    ) -> ClResult<Arc<Sampler>> {
        // CL_INVALID_VALUE if addressing_mode, filter_mode,
        // normalized_coords or a combination of these arguments are not
        // valid. (Every combination of valid values is: REPEAT and
        // MIRRORED_REPEAT with unnormalized coordinates give undefined
        // coordinates, as in OpenCL C, not an error.)
        let Some(normalized) = bool_value(u64::from(normalized_coords)) else {
            return fail(CL_INVALID_VALUE);
        };
        if !valid_addressing(u64::from(addressing_mode)) || !valid_filter(u64::from(filter_mode)) {
            return fail(CL_INVALID_VALUE);
        }
        check_image_support(context)?;
        Ok(Sampler::new(context, normalized, addressing_mode, filter_mode, None))
    }

    /// clCreateSamplerWithProperties. `properties` is the list of (name,
    /// value) pairs without its terminator, `None` for NULL.
    pub fn create_with_properties(context: &Arc<Context>, properties: Option<&[u64]>) -> ClResult<Arc<Sampler>> {
        // "If a supported property and its value is not specified in
        // sampler_properties, its default value will be used": normalized
        // coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
        let mut normalized = None;
        let mut addressing = None;
        let mut filter = None;
        for pair in properties.unwrap_or(&[]).chunks(2) {
            let &[name, value] = pair else {
                return fail(CL_INVALID_VALUE);
            };
            // CL_INVALID_VALUE if the property name in sampler_properties is
            // not a supported property name, if the value specified for a
            // supported property name is not valid, or if the same property
            // name is specified more than once.
            let ok = match name {
                n if n == u64::from(CL_SAMPLER_NORMALIZED_COORDS) => set_once(&mut normalized, bool_value(value)),
                n if n == u64::from(CL_SAMPLER_ADDRESSING_MODE) => set_once(
                    &mut addressing,
                    valid_addressing(value).then_some(value as cl_addressing_mode),
                ),
                n if n == u64::from(CL_SAMPLER_FILTER_MODE) => {
                    set_once(&mut filter, valid_filter(value).then_some(value as cl_filter_mode))
                }
                _ => false,
            };
            if !ok {
                return fail(CL_INVALID_VALUE);
            }
        }
        check_image_support(context)?;
        // With a properties argument, CL_SAMPLER_PROPERTIES returns it as
        // given, terminator included.
        let list = properties.map(|p| p.iter().copied().chain([0]).collect());
        Ok(Sampler::new(
            context,
            normalized.unwrap_or(true),
            addressing.unwrap_or(CL_ADDRESS_CLAMP),
            filter.unwrap_or(CL_FILTER_NEAREST),
            list,
        ))
    }

    /// The sampler's context.
    pub fn context(&self) -> &Arc<Context> {
        &self.context
    }

    /// CL_SAMPLER_NORMALIZED_COORDS.
    pub fn normalized_coords(&self) -> bool {
        self.normalized_coords
    }

    /// CL_SAMPLER_ADDRESSING_MODE.
    pub fn addressing_mode(&self) -> cl_addressing_mode {
        self.addressing_mode
    }

    /// CL_SAMPLER_FILTER_MODE.
    pub fn filter_mode(&self) -> cl_filter_mode {
        self.filter_mode
    }

    /// The sampler as OpenCL C's `sampler_t` encodes it
    /// (`clift_builtins::image::sampler`): what a kernel's sampler argument
    /// holds.
    pub fn bits(&self) -> u32 {
        let coords = if self.normalized_coords {
            bits::NORMALIZED_COORDS_TRUE
        } else {
            0
        };
        let address = match self.addressing_mode {
            CL_ADDRESS_CLAMP_TO_EDGE => bits::ADDRESS_CLAMP_TO_EDGE,
            CL_ADDRESS_CLAMP => bits::ADDRESS_CLAMP,
            CL_ADDRESS_REPEAT => bits::ADDRESS_REPEAT,
            CL_ADDRESS_MIRRORED_REPEAT => bits::ADDRESS_MIRRORED_REPEAT,
            _ => bits::ADDRESS_NONE,
        };
        let filter = if self.filter_mode == CL_FILTER_LINEAR {
            bits::FILTER_LINEAR
        } else {
            bits::FILTER_NEAREST
        };
        coords | address | filter
    }

    /// clGetSamplerInfo.
    pub fn info(&self, param: cl_sampler_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_SAMPLER_REFERENCE_COUNT => InfoValue::u32(self.header.ref_count()),
            CL_SAMPLER_CONTEXT => InfoValue::handle(handle_of(&self.context)),
            CL_SAMPLER_NORMALIZED_COORDS => InfoValue::bool(self.normalized_coords),
            CL_SAMPLER_ADDRESSING_MODE => InfoValue::u32(self.addressing_mode),
            CL_SAMPLER_FILTER_MODE => InfoValue::u32(self.filter_mode),
            // "If sampler was created using clCreateSampler, or if the
            // properties argument specified in clCreateSamplerWithProperties
            // was NULL, the implementation must return param_value_size_ret
            // equal to 0."
            CL_SAMPLER_PROPERTIES => InfoValue::u64s(self.properties.as_deref().unwrap_or(&[])),
            // CL_INVALID_VALUE if param_name is not one of the supported values.
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_opencl_c_sampler_t() {
        // clang's CLK_* values: CLK_NORMALIZED_COORDS_TRUE 1,
        // CLK_ADDRESS_CLAMP_TO_EDGE 2, CLK_ADDRESS_CLAMP 4,
        // CLK_ADDRESS_REPEAT 6, CLK_ADDRESS_MIRRORED_REPEAT 8,
        // CLK_FILTER_NEAREST 0x10, CLK_FILTER_LINEAR 0x20.
        let s = |n, a, f| Sampler {
            header: ApiHeader::new(),
            context: Context::new(Vec::new(), Vec::new(), None),
            normalized_coords: n,
            addressing_mode: a,
            filter_mode: f,
            properties: None,
        };
        assert_eq!(s(true, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST).bits(), 0x15);
        assert_eq!(s(false, CL_ADDRESS_NONE, CL_FILTER_NEAREST).bits(), 0x10);
        assert_eq!(s(false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR).bits(), 0x22);
        assert_eq!(s(true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR).bits(), 0x27);
        assert_eq!(s(true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST).bits(), 0x19);
    }
}
