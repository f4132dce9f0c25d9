//! Run-time helpers that JIT code calls through their addresses: so far the
//! float remainder of OpFRem and the copy of OpGroupAsyncCopy. The
//! `OpenCL.std` library comes with the built-ins issue.
pub mod frem;
pub mod group_copy;
