//! The frame slots values are kept in while a work-item waits at a barrier
//! ([`super::barrier`]), for the scalar body and for the 4-lane body
//! ([`super::simd`]): defined here, apart from both, so that neither
//! lowering depends on the other for them.

/// Bytes a kept value takes per component in a scalar body (every scalar
/// fits).
pub const SLOT: i32 = 8;

/// Bytes a kept component takes in a 4-lane body (four 8-byte lanes at
/// most).
pub const HELD_SLOT: i32 = 32;
