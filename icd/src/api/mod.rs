//! The C entry points, one module per OpenCL object type. Each converts and
//! checks its arguments (the spec sentence beside each check) and calls the runtime.

pub mod context;
pub mod device;
pub mod event;
pub mod image;
pub mod kernel;
pub mod memory;
pub mod platform;
pub mod program;
pub mod queue;
pub mod sampler;
pub mod sharing;
pub mod svm;
pub mod transfer;

pub(crate) use context::*;
pub(crate) use device::*;
pub(crate) use event::*;
pub(crate) use image::*;
pub(crate) use kernel::*;
pub(crate) use memory::*;
pub(crate) use platform::*;
pub(crate) use program::*;
pub(crate) use queue::*;
pub(crate) use sampler::*;
pub(crate) use sharing::*;
pub(crate) use svm::*;
pub(crate) use transfer::*;
