//! The platform: one per process, created on first use, never freed.

use std::sync::{Arc, OnceLock};

use crate::device::Device;
use crate::error::{fail, ClResult};
use crate::info::InfoValue;
use crate::object::ApiHeader;
use opencl_sys::*;

/// clift's version, as in `Cargo.toml`.
pub const CLIFT_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Extensions the platform supports (those of its devices).
pub const PLATFORM_EXTENSIONS: &[&str] = crate::device::DEVICE_EXTENSIONS;

/// The clift platform.
#[derive(Debug)]
pub struct Platform {
    header: ApiHeader,
    devices: Vec<Arc<Device>>,
}

static PLATFORM: OnceLock<Platform> = OnceLock::new();

impl Platform {
    /// The platform, created (with its root device) on first call.
    pub fn get() -> &'static Platform {
        PLATFORM.get_or_init(|| Platform {
            header: ApiHeader::new(),
            devices: vec![Device::new_root()],
        })
    }

    /// The handle of the platform.
    pub fn handle(&self) -> usize {
        self.header.handle()
    }

    /// The platform's header (its handle is set by the API layer).
    pub fn header(&self) -> &ApiHeader {
        &self.header
    }

    /// The root devices.
    pub fn devices(&self) -> &[Arc<Device>] {
        &self.devices
    }

    /// `clGetPlatformInfo`.
    pub fn info(&self, param: cl_platform_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_PLATFORM_PROFILE => InfoValue::string("FULL_PROFILE"),
            CL_PLATFORM_VERSION => InfoValue::string(&format!("OpenCL 2.2 clift {CLIFT_VERSION}")),
            CL_PLATFORM_NUMERIC_VERSION => InfoValue::u32(crate::info::make_version(2, 2, 0)),
            CL_PLATFORM_NAME => InfoValue::string("clift"),
            CL_PLATFORM_VENDOR => InfoValue::string("The clift developers"),
            CL_PLATFORM_EXTENSIONS => InfoValue::string(&PLATFORM_EXTENSIONS.join(" ")),
            CL_PLATFORM_EXTENSIONS_WITH_VERSION => InfoValue::name_versions(&crate::device::DEVICE_EXTENSION_VERSIONS),
            CL_PLATFORM_HOST_TIMER_RESOLUTION => InfoValue::u64(crate::timer::resolution_ns()),
            CL_PLATFORM_ICD_SUFFIX_KHR => InfoValue::string("clift"),
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}
