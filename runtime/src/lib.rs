//! clift's OpenCL objects in plain Rust.
//!
//! Each OpenCL object type has one module here that holds its state and
//! behaviour. Nothing here knows the C ABI: the `icd` crate converts handles
//! and arguments and calls in. Objects that the API hands out carry an
//! [`object::ApiHeader`]: the handle the API layer gave them (a cell of its
//! own, not the object's address) and the application's reference count.
//! Every `CLIFT_*` environment variable is read by [`config`].

pub mod compiler;
pub mod config;
pub mod context;
pub mod device;
pub mod device_enqueue;
pub mod device_queue;
pub mod error;
pub mod event;
pub mod info;
pub mod kernel;
pub mod memory;
pub mod ndrange;
pub mod object;
pub mod options;
pub mod platform;
pub mod program;
pub mod queue;
pub mod sampler;
pub mod timer;
pub mod topology;

pub use error::{ClError, ClResult};
