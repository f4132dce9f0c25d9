//! The build state of each device of a program.

use std::sync::Arc;

use opencl_sys::*;

use super::{Executable, ProgramBinary};

/// The build state of one device of a program.
#[derive(Debug)]
pub(super) struct DeviceState {
    /// CL_PROGRAM_BUILD_STATUS.
    pub(super) status: cl_build_status,
    /// CL_PROGRAM_BUILD_OPTIONS of the last build.
    pub(super) options: String,
    /// CL_PROGRAM_BUILD_LOG of the last build.
    pub(super) log: String,
    /// The binary loaded by clCreateProgramWithBinary (with its bytes).
    pub(super) loaded: Option<(Arc<ProgramBinary>, Arc<[u8]>)>,
    /// The last successful build, while it is the device's current one.
    pub(super) built: Option<Arc<Executable>>,
    /// The compiled object (clCompileProgram) or library (clLinkProgram
    /// -create-library) of the last successful compile or link, with its bytes.
    pub(super) object: Option<(Arc<ProgramBinary>, Vec<u8>)>,
}

impl DeviceState {
    /// Whether a program binary has been built for the device: a build,
    /// compile or link has run (or is running) for it. (A binary loaded by
    /// clCreateProgramWithBinary is not built until clBuildProgram.)
    pub(super) fn built_for(&self) -> bool {
        self.status != CL_BUILD_NONE
    }
}

impl Default for DeviceState {
    /// "CL_BUILD_NONE - The build status returned if no clBuildProgram,
    /// clCompileProgram or clLinkProgram has been performed".
    fn default() -> Self {
        DeviceState {
            status: CL_BUILD_NONE,
            options: String::new(),
            log: String::new(),
            loaded: None,
            built: None,
            object: None,
        }
    }
}

#[derive(Debug)]
pub(super) struct State {
    /// Parallel to `Program::devices`.
    pub(super) devices: Vec<DeviceState>,
    /// Kernel objects attached to the program.
    pub(super) kernels: usize,
}
