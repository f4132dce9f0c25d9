//! Values answered by `clGet*Info` queries, already in their C byte layout.
//!
//! Every runtime object answers its info queries with an [`InfoValue`]; the API
//! layer copies the bytes out with the two-call size protocol. Keeping the
//! encoding here means each query's C type is decided next to its value.

use opencl_sys::{cl_bool, CL_FALSE, CL_TRUE};

/// The bytes of one info answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InfoValue(pub Vec<u8>);

impl InfoValue {
    /// A `cl_bool`.
    pub fn bool(v: bool) -> Self {
        let b: cl_bool = if v { CL_TRUE } else { CL_FALSE };
        Self::u32(b)
    }
    /// A `cl_uint` (or any 32-bit enum or bitfield narrower than 64 bits).
    pub fn u32(v: u32) -> Self {
        InfoValue(v.to_ne_bytes().to_vec())
    }
    /// A `cl_int`.
    pub fn i32(v: i32) -> Self {
        InfoValue(v.to_ne_bytes().to_vec())
    }
    /// A `cl_ulong` or a 64-bit bitfield.
    pub fn u64(v: u64) -> Self {
        InfoValue(v.to_ne_bytes().to_vec())
    }
    /// A `size_t`.
    pub fn usize(v: usize) -> Self {
        InfoValue(v.to_ne_bytes().to_vec())
    }
    /// A handle or other pointer-sized value (0 for NULL).
    pub fn handle(v: usize) -> Self {
        Self::usize(v)
    }
    /// An array of `size_t`.
    pub fn usizes(v: &[usize]) -> Self {
        InfoValue(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    /// An array of handles.
    pub fn handles(v: &[usize]) -> Self {
        Self::usizes(v)
    }
    /// An array of 64-bit values (property lists of `cl_*_properties`).
    pub fn u64s(v: &[u64]) -> Self {
        InfoValue(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    /// An array of pointer-sized signed values (`cl_context_properties`,
    /// `cl_device_partition_property`).
    pub fn isizes(v: &[isize]) -> Self {
        InfoValue(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    /// An array of `cl_uint`.
    pub fn u32s(v: &[u32]) -> Self {
        InfoValue(v.iter().flat_map(|x| x.to_ne_bytes()).collect())
    }
    /// A NUL-terminated string.
    pub fn string(s: &str) -> Self {
        let mut v = Vec::with_capacity(s.len() + 1);
        v.extend_from_slice(s.as_bytes());
        v.push(0);
        InfoValue(v)
    }
    /// Raw bytes, as they are.
    pub fn bytes(b: Vec<u8>) -> Self {
        InfoValue(b)
    }
    /// An array of `cl_name_version` (a `cl_version` and a 64-byte name).
    pub fn name_versions(items: &[(u32, &str)]) -> Self {
        let mut v = Vec::with_capacity(items.len() * 68);
        for (ver, name) in items {
            v.extend_from_slice(&ver.to_ne_bytes());
            let mut n = [0u8; 64];
            let b = name.as_bytes();
            let len = b.len().min(63);
            n[..len].copy_from_slice(&b[..len]);
            v.extend_from_slice(&n);
        }
        InfoValue(v)
    }
}

/// `CL_MAKE_VERSION(major, minor, patch)`.
pub const fn make_version(major: u32, minor: u32, patch: u32) -> u32 {
    (major << 22) | (minor << 12) | patch
}
