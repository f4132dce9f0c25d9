//! The shells that turn Rust entry-point bodies into C-ABI functions.
//!
//! Every entry point body is a closure returning `ClResult<_>`. The shell
//! catches any panic (so none unwinds across the C ABI), maps the result to a
//! `cl_int`, and for object-creating calls writes `errcode_ret`.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use clift_runtime::{ClError, ClResult};
use opencl_sys::{cl_int, CL_OUT_OF_HOST_MEMORY, CL_SUCCESS};

/// The code an entry point returns when its body panicked: a bug in clift,
/// reported as the closest spec code rather than an abort of the host.
pub const PANIC_CODE: cl_int = CL_OUT_OF_HOST_MEMORY;

/// Runs an entry point that returns `cl_int`.
pub fn guard(f: impl FnOnce() -> ClResult<()>) -> cl_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(ClError(code))) => code,
        Err(_) => PANIC_CODE,
    }
}

/// Runs an entry point that returns a pointer and reports its status through
/// `errcode_ret` (which may be NULL).
pub fn guard_ptr(errcode_ret: *mut cl_int, f: impl FnOnce() -> ClResult<*mut c_void>) -> *mut c_void {
    let (ptr, code) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(p)) => (p, CL_SUCCESS),
        Ok(Err(ClError(code))) => (std::ptr::null_mut(), code),
        Err(_) => (std::ptr::null_mut(), PANIC_CODE),
    };
    crate::args::write_out(errcode_ret, code);
    ptr
}

/// Runs an entry point with no result at all (clSVMFree).
pub fn guard_void(f: impl FnOnce()) {
    let _ = catch_unwind(AssertUnwindSafe(f));
}

/// Defines C-ABI entry points that return `cl_int`. The body evaluates to
/// `ClResult<()>`.
macro_rules! cl_entry {
    ($(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block)*) => {
        $(
            #[allow(non_snake_case)]
            pub(crate) extern "C" fn $name($($arg: $ty),*) -> opencl_sys::cl_int {
                $crate::entry::guard(move || -> clift_runtime::ClResult<()> { $body })
            }
        )*
    };
}

/// Defines C-ABI entry points that return a handle or pointer and take
/// `errcode_ret` as their last parameter. The body evaluates to
/// `ClResult<*mut c_void>`.
macro_rules! cl_entry_ptr {
    ($(fn $name:ident($($arg:ident: $ty:ty),* ; $err:ident) $body:block)*) => {
        $(
            #[allow(non_snake_case)]
            pub(crate) extern "C" fn $name($($arg: $ty,)* $err: *mut opencl_sys::cl_int) -> *mut std::ffi::c_void {
                $crate::entry::guard_ptr($err, move || -> clift_runtime::ClResult<*mut std::ffi::c_void> { $body })
            }
        )*
    };
}

pub(crate) use cl_entry;
pub(crate) use cl_entry_ptr;
