//! Forward progress of sub-groups: where a work-item lets the others of
//! its work-group run although no barrier asks it to.
//!
//! One thread runs a work-group's work-items one after another, each until
//! it reaches a suspension point ([`super::barrier`]). A work-item that
//! spins waiting for another sub-group (on an atomic flag, or a
//! compare-and-swap lock) would never reach one while the work-item it
//! waits for has not run yet. So every loop whose body reads memory through
//! an atomic instruction has a *yield point* at its header: once every
//! [`YIELD_EVERY`] passes through yield points (counted for the whole
//! group, so a loop that ends soon costs one decrement per pass), the
//! work-item suspends and the others run up to their own next suspension
//! point. That gives the independent forward progress of sub-groups that
//! `cl_khr_subgroups` requires (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS).

use std::collections::{HashMap, HashSet};

use spirv::Op;

use crate::spirv::{Function, Id, IdKind, Module};

/// How many passes through yield points a work-group's thread makes
/// between two yields.
pub const YIELD_EVERY: i64 = 1024;

/// The yield points of every function of a module, computed once per
/// build.
#[derive(Debug, Default)]
pub struct Yields(HashMap<u32, Vec<u32>>);

impl Yields {
    /// The yield points of `m`'s functions (see `yield_headers`); none when
    /// `on` is false (`-cl-no-subgroup-ifp`).
    pub fn of(m: &Module, on: bool) -> Yields {
        if !on {
            return Yields::default();
        }
        let graph = crate::validate::calls::call_graph(m);
        let observing = observing_functions(m, &graph);
        Yields(
            m.functions
                .iter()
                .enumerate()
                .map(|(f, func)| (f as u32, yield_headers(m, func, &observing)))
                .filter(|(_, h)| !h.is_empty())
                .collect(),
        )
    }

    /// The headers (block indexes) where function `f` (by index) yields.
    pub fn headers(&self, f: u32) -> &[u32] {
        self.0.get(&f).map_or(&[], Vec::as_slice)
    }
}

/// The functions (by index) that read memory through an atomic
/// instruction (one whose result is used) or call a function that does.
fn observing_functions(m: &Module, graph: &[Vec<(u32, u32)>]) -> HashSet<u32> {
    let set: HashSet<u32> = (0..m.functions.len() as u32)
        .filter(|&f| {
            let func = &m.functions[f as usize];
            let used = used_ids(m, func);
            func.blocks.iter().flat_map(|b| b.body()).any(|i| {
                let inst = &m.insts[i as usize];
                crate::validate::memory::is_atomic(inst.op) && inst.result_id.is_some_and(|r| used.contains(&r))
            })
        })
        .collect();
    crate::validate::calls::with_callers(graph, set)
}

/// The ids `func`'s instructions use.
fn used_ids(m: &Module, func: &Function) -> HashSet<Id> {
    func.blocks
        .iter()
        .flat_map(|b| b.body())
        .flat_map(|i| m.insts[i as usize].id_operands().map(|(_, id)| id))
        .collect()
}

/// The headers (block indexes) of `func`'s loops whose body reads memory
/// through an atomic instruction (or calls a function of `observing`,
/// which does): each is a *yield point*, where a work-item lets the other
/// work-items of its group run once every [`YIELD_EVERY`] passes. Such a
/// loop may wait for another sub-group (a spin on an atomic flag, a
/// compare-and-swap lock), and the other sub-groups must make progress
/// meanwhile: that is the independent forward progress of sub-groups
/// `cl_khr_subgroups` promises, although one thread runs the whole group.
fn yield_headers(m: &Module, func: &Function, observing: &HashSet<u32>) -> Vec<u32> {
    if func.blocks.is_empty() {
        return Vec::new();
    }
    let used = used_ids(m, func);
    let observes = |i: u32| {
        let inst = &m.insts[i as usize];
        if crate::validate::memory::is_atomic(inst.op) {
            return inst.result_id.is_some_and(|r| used.contains(&r));
        }
        inst.op == Op::FunctionCall
            && inst
                .id(0)
                .and_then(|c| m.info(c))
                .is_some_and(|c| c.kind == IdKind::Function && observing.contains(&c.index))
    };
    let mut headers: Vec<u32> = crate::validate::cfg::natural_loops(func)
        .into_iter()
        .filter(|(_, body)| {
            body.iter()
                .enumerate()
                .any(|(b, &inside)| inside && func.blocks[b].body().any(observes))
        })
        .map(|(h, _)| h)
        .collect();
    headers.sort_unstable();
    headers
}
