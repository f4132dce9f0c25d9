//! clift's compiler: SPIR-V bytes -> parsed module -> validated module ->
//! Cranelift IR -> machine code, and the work-group launcher ABI.
//!
//! Empty until the programs issue lands; see ARCHITECTURE.md for the plan.
