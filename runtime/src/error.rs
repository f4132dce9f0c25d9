//! The one error type of the runtime: an OpenCL error code.

use opencl_sys::cl_int;

/// An OpenCL error code (always negative). The API layer returns it unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClError(pub cl_int);

/// Result of every runtime operation that can fail with an OpenCL error code.
pub type ClResult<T> = Result<T, ClError>;

/// Shorthand for `Err(ClError(code))`.
pub fn fail<T>(code: cl_int) -> ClResult<T> {
    Err(ClError(code))
}

/// `Err(ClError(code))` unless `cond` holds.
pub fn check(cond: bool, code: cl_int) -> ClResult<()> {
    if cond {
        Ok(())
    } else {
        Err(ClError(code))
    }
}
