//! libclift.so: clift's OpenCL entry points behind the cl_khr_icd loader.
//!
//! Nothing is public but the four symbols the loader looks up by name:
//! `clIcdGetPlatformIDsKHR`, `clGetPlatformInfo`,
//! `clGetExtensionFunctionAddress` and
//! `clGetExtensionFunctionAddressForPlatform`. Every other entry point is
//! reached through the dispatch table (`dispatch.rs`), whose address is the
//! first word behind every handle (a cell of its own, `handle.rs`). Each
//! entry point converts its handles and arguments (`handle.rs`, `args.rs`),
//! calls the runtime, and maps the result to a `cl_int` (`entry.rs`).

mod api;
mod args;
mod dispatch;
mod entry;
mod handle;
mod info;
