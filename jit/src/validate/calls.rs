//! The static call graph: no recursion (OpenCL SPIR-V Environment:
//! "Recursion is not supported. The static function call graph for an entry
//! point must not contain cycles."), and no calls to functions without a
//! body. A declaration decorated `LinkageAttributes Import` is an
//! unresolved symbol of an object program: [`imports`] reports it, since
//! only clLinkProgram (`crate::link`) can resolve it.

use rspirv::dr::Operand;
use spirv::{Decoration, LinkageType, Op};

use super::Diags;
use crate::spirv::{Module, NONE};

/// The name a function is imported under, if it is a declaration decorated
/// `LinkageAttributes "name" Import`.
fn import_name(m: &Module, f: &crate::spirv::Function) -> Option<String> {
    let dec = m.decoration(f.id, Decoration::LinkageAttributes)?;
    match m.deco_params(dec) {
        [Operand::LiteralString(n), Operand::LinkageType(LinkageType::Import), ..] if f.blocks.is_empty() => {
            Some(n.clone())
        }
        _ => None,
    }
}

/// Reports every imported function declaration: an unresolved symbol that
/// only linking (clLinkProgram) can define.
pub fn imports(m: &Module, d: &mut Diags) {
    for f in &m.functions {
        if let Some(name) = import_name(m, f) {
            d.at(
                m,
                f.inst,
                format!(
                    "unresolved symbol \"{name}\": the function is imported (LinkageAttributes Import) and no module defines it; link it with clLinkProgram"
                ),
            );
        }
    }
}

/// Each function's calls: (callee function index, OpFunctionCall index),
/// in instruction order.
pub fn call_graph(m: &Module) -> Vec<Vec<(u32, u32)>> {
    m.functions
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            for b in &f.blocks {
                for i in b.start + 1..=b.end {
                    let inst = &m.insts[i as usize];
                    if inst.op == Op::FunctionCall {
                        if let Some(x) = inst.id(0).and_then(|c| m.info(c)) {
                            if x.index != NONE && m.kind(inst.id(0).unwrap_or(0)) == crate::spirv::IdKind::Function {
                                out.push((x.index, i));
                            }
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// The functions reachable from function `root` through calls (itself
/// included), each once.
pub fn reachable(graph: &[Vec<(u32, u32)>], root: u32) -> Vec<u32> {
    let mut seen = vec![false; graph.len()];
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(f) = stack.pop() {
        if (f as usize) >= graph.len() || seen[f as usize] {
            continue;
        }
        seen[f as usize] = true;
        out.push(f);
        stack.extend(graph[f as usize].iter().map(|&(c, _)| c));
    }
    out
}

/// `set` (function indexes) with every function that calls one of it,
/// directly or through others, added.
pub fn with_callers(
    graph: &[Vec<(u32, u32)>],
    mut set: std::collections::HashSet<u32>,
) -> std::collections::HashSet<u32> {
    let mut changed = true;
    while changed {
        changed = false;
        for (f, calls) in graph.iter().enumerate() {
            if !set.contains(&(f as u32)) && calls.iter().any(|(c, _)| set.contains(c)) {
                set.insert(f as u32);
                changed = true;
            }
        }
    }
    set
}

/// Reports the first cycle found from each function, and calls to
/// functions without a body.
pub fn check(m: &Module, d: &mut Diags) {
    let graph = call_graph(m);
    for calls in &graph {
        for &(c, i) in calls {
            let callee = &m.functions[c as usize];
            if callee.blocks.is_empty() && import_name(m, callee).is_none() {
                d.at(
                    m,
                    i,
                    format!(
                        "{} has no body and is not an imported symbol (LinkageAttributes Import)",
                        m.show(callee.id)
                    ),
                );
            }
        }
    }
    // Iterative depth-first search with colours: 0 new, 1 on the stack, 2 done.
    let n = graph.len();
    let mut colour = vec![0u8; n];
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(u32, usize)> = vec![(root as u32, 0)];
        colour[root] = 1;
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            if let Some(&(c, at)) = graph[f as usize].get(*next) {
                *next += 1;
                match colour[c as usize] {
                    0 => {
                        colour[c as usize] = 1;
                        stack.push((c, 0));
                    }
                    1 if !d.full() => {
                        let from = stack.iter().position(|&(x, _)| x == c).unwrap_or(0);
                        let mut path: Vec<String> = stack[from..]
                            .iter()
                            .map(|&(x, _)| m.show(m.functions[x as usize].id))
                            .collect();
                        path.push(m.show(m.functions[c as usize].id));
                        d.at(
                            m,
                            at,
                            format!(
                                "recursion is not supported: the static call graph has the cycle {}",
                                path.join(" -> ")
                            ),
                        );
                    }
                    _ => {}
                }
            } else {
                colour[f as usize] = 2;
                stack.pop();
            }
        }
        if d.full() {
            return;
        }
    }
}
