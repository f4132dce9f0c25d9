//! libclift.so: clift's OpenCL entry points behind the cl_khr_icd loader.
//!
//! Nothing is public but the three symbols the loader looks up:
//! `clIcdGetPlatformIDsKHR`, `clGetExtensionFunctionAddress` and
//! `clGetExtensionFunctionAddressForPlatform`. Every other entry point is
//! reached through the dispatch table ([`dispatch`]) whose address is the
//! first word of every clift object. Each entry point converts its handles and
//! arguments ([`handle`], [`args`]), calls the runtime, and maps the result to
//! a `cl_int` ([`entry`]).

mod api;
mod args;
mod dispatch;
mod entry;
mod handle;
mod info;
