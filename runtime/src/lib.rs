//! clift's OpenCL objects in plain Rust.
//!
//! Each OpenCL object type has one module here that holds its state and
//! behaviour. Nothing here knows the C ABI: the `icd` crate converts handles
//! and arguments and calls in. Objects that the API hands out start with an
//! [`object::ApiHeader`], so a handle is the address of the object itself.

pub mod compiler;
pub mod config;
pub mod context;
pub mod device;
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
pub mod timer;
pub mod topology;

pub use error::{ClError, ClResult};
