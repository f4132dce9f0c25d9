//! The SPIR-V front end: a module's words are decoded once, with the
//! `rspirv` grammar tables, into a [`Module`] that the validator and the
//! lowering consume. Every instruction keeps its word offset (for
//! diagnostics); types, constants, module variables, functions and blocks
//! are in arenas reached from a table indexed by id.

pub mod edit;
mod module;
pub mod ops;
pub(crate) mod opsets;
mod parse;

pub use module::*;
pub use parse::{dangling_reference, parse};
