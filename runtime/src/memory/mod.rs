//! Memory objects.

use crate::object::ApiHeader;

/// A memory object (buffer, sub-buffer or pipe).
#[repr(C)]
pub struct MemObject {
    header: ApiHeader,
}
crate::api_object!(MemObject);
