//! The one writer behind every `clGet*Info` call: the two-call size protocol.

use std::ffi::c_void;

use clift_runtime::error::{fail, ClResult};
use clift_runtime::info::InfoValue;
use opencl_sys::CL_INVALID_VALUE;

/// Copies `value` out as the spec's info protocol says: `param_value` may be
/// NULL (only the size is asked); if not, `param_value_size` must be at least
/// the value's size, else `CL_INVALID_VALUE`. `param_value_size_ret`, if not
/// NULL, receives the value's size.
pub fn write(
    value: ClResult<InfoValue>,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> ClResult<()> {
    let InfoValue(bytes) = value?;
    if !param_value.is_null() {
        if param_value_size < bytes.len() {
            return fail(CL_INVALID_VALUE);
        }
        crate::args::copy_out(param_value as *mut u8, &bytes);
    }
    crate::args::write_out(param_value_size_ret, bytes.len());
    Ok(())
}
