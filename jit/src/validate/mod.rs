//! The validator: runs on a parsed [`Module`] before any code is generated.
//!
//! - [`env`](mod@env): the OpenCL SPIR-V environment (capabilities, extensions,
//!   extended instruction sets, addressing and memory model, entry points,
//!   execution modes, kernel parameters, types, storage classes, built-ins,
//!   decorations, images).
//! - [`types`]: operand types consistent with each opcode.
//! - [`cfg`](mod@cfg): block structure, branch targets, dominators, OpPhi, and
//!   definitions dominating their uses (fills in [`crate::spirv::Cfg`]).
//! - [`memory`]: scopes, memory semantics and atomics.
//! - [`pipes`]: the pipe instructions' operands.
//! - [`groups`]: the group instructions' operands (collectives, and the
//!   non-uniform sub-group instructions).
//! - [`images`]: the image instructions' operands.
//! - [`calls`]: the static call graph (no recursion, no calls into bodiless
//!   imports).
//! - [`evidence`]: what passing every rule yields ([`Validated`]) and the
//!   instruction view ([`Checked`]) through which the lowering reads what
//!   the rules proved without checking it again.
//!
//! Every algorithm here is iterative and (near) linear in the module's size:
//! hostile input can be deep or large.

pub mod calls;
pub mod cfg;
pub mod enqueue;
pub mod env;
pub mod evidence;
pub mod groups;
pub mod images;
pub mod memory;
pub mod pipes;
pub mod types;

use crate::error::Diagnostic;
use crate::spirv::Module;

pub use evidence::{Checked, Validated};

/// The most diagnostics one build reports.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Collects diagnostics, up to [`MAX_DIAGNOSTICS`].
#[derive(Debug, Default)]
pub struct Diags {
    pub list: Vec<Diagnostic>,
}

impl Diags {
    /// Records a diagnostic at instruction `inst`.
    pub fn at(&mut self, m: &Module, inst: u32, rule: impl Into<String>) {
        if self.list.len() < MAX_DIAGNOSTICS {
            self.list.push(m.diag(inst, rule));
        }
    }

    /// Records a diagnostic at the module header.
    pub fn header(&mut self, rule: impl Into<String>) {
        if self.list.len() < MAX_DIAGNOSTICS {
            self.list.push(Diagnostic {
                word_offset: 0,
                opcode: None,
                result_id: None,
                name: None,
                rule: rule.into(),
            });
        }
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether the list is full (later passes may stop early).
    pub fn full(&self) -> bool {
        self.list.len() >= MAX_DIAGNOSTICS
    }

    /// The diagnostics in module order.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.list.sort_by_key(|d| d.word_offset);
        self.list
    }
}

/// The module-level rules that do not depend on specialization: the
/// environment and the declarations' types.
pub fn check_module(m: &Module, d: &mut Diags) {
    env::check(m, d);
    types::check_declarations(m, d);
}

/// The rules on function bodies, once constants are specialized and types
/// laid out. Fills in each function's [`crate::spirv::Cfg`]. The evidence
/// of validation when nothing, from here or earlier (`d`), was found.
pub fn check_functions(m: &mut Module, d: &mut Diags) -> Option<Validated> {
    cfg::check(m, d);
    if d.full() {
        return None;
    }
    types::check_bodies(m, d);
    memory::check(m, d);
    env::check_values(m, d);
    calls::check(m, d);
    d.is_empty().then_some(Validated(()))
}
