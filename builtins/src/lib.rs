//! The `OpenCL.std` extended instructions and other run-time helpers that JIT
//! code calls.
//!
//! Empty until the kernels issue lands; see ARCHITECTURE.md for the plan.
pub mod frem;
