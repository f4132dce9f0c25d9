//! Private variables become SSA values.
//!
//! clang at -O0 keeps every local variable of OpenCL C in memory: each
//! kernel argument is stored into an OpVariable of Function storage at
//! entry, `size_t i = get_global_id(0)` is a store, a loop counter or an
//! accumulator is loaded and stored at every step. Lowered as written, a
//! 4-lane body keeps one copy of such a variable per lane and reads it
//! back lane by lane, so an address computed from `i` is no longer known
//! to be consecutive across the lanes, and `a[i]` becomes four scalar
//! loads where the -O2 module has one vector load.
//!
//! [`variables`] runs on the validated module, before code generation,
//! and does what LLVM's mem2reg does for such variables: a Function
//! variable whose every use is a plain OpLoad or OpStore of the whole
//! variable, all moving one type (directly, or through OpBitcasts to other
//! Function pointers: clang reads and writes a `float3` variable as a
//! `float4`), is removed. Each load's uses use the value the variable
//! holds there instead: the value of the store before it in the block,
//! else an OpPhi placed where definitions meet (the iterated dominance
//! frontier of the blocks that store, and the exits of loops that store,
//! where the variable is live), else the value coming from the immediate
//! dominator; OpUndef where nothing was stored yet. The variable, its
//! bitcasts, stores and loads become OpNop, and the phis and undefs are
//! inserted after their block's OpLabel. Nothing else changes: the module
//! still satisfies everything validation checked (definitions dominate
//! uses, one phi operand per predecessor).
//!
//! Left alone: volatile accesses or a Volatile (or any other decoration
//! but Alignment) on the variable, a decorated load, a variable whose
//! address escapes (access chains, calls, copies, lifetime markers), one
//! used in an unreachable block, accesses moving different types, and
//! functions whose variables times blocks exceed 2^24.

use std::collections::HashMap;

use rspirv::dr::Operand;
use spirv::{Decoration, Op, StorageClass};

use crate::lower::simd::analysis::loop_tail;
use crate::spirv::{Function, Id, IdInfo, IdKind, Inst, Module, NONE};
use crate::validate::cfg;

/// Promoted variables times blocks, per function, at most.
const MAX_WORK: usize = 1 << 24;

/// A variable being promoted.
struct Var {
    /// The type of every value stored and loaded.
    ty: Id,
    /// Per block: some store writes it there (the entry block too when the
    /// variable has an initializer).
    stores_in: Vec<bool>,
    /// Per block: a load there may read the value from before the block.
    exposed_in: Vec<bool>,
}

/// What happens to one instruction of the function.
#[derive(Clone, Copy)]
enum Access {
    /// The variable `usize` of the promoted set, with its initializer.
    Define(usize, Option<Id>),
    /// An OpBitcast of it to another Function pointer.
    View,
    Load(usize),
    Store(usize, Id),
}

/// `id`, or the value it stands for when it is the result of a removed
/// load (`forward`: each load's value, which may itself be such a load).
fn resolve(forward: &HashMap<Id, Id>, mut id: Id) -> Id {
    while let Some(&next) = forward.get(&id) {
        id = next;
    }
    id
}

/// Whether `id` carries a decoration other than Alignment.
fn decorated(m: &Module, id: Id) -> bool {
    m.decorations(id).iter().any(|d| d.kind != Decoration::Alignment)
}

/// The Function variables of `f` that can be promoted, by id, with the
/// type of every value stored and loaded; and the OpBitcasts of them to
/// other Function pointers (clang -O0 reads and writes a `float3`
/// variable as a `float4`), by id, with their variable. A variable is
/// promoted only if every access, direct or through a bitcast, moves the
/// same type at its start: then a load reads exactly what the last store
/// wrote.
fn candidates(m: &Module, f: &Function) -> (HashMap<Id, Id>, HashMap<Id, Id>) {
    // Per variable: its pointee type and the type its accesses move (the
    // pointee's if it has an initializer; None before the first access).
    let mut vars: HashMap<Id, (Id, Option<Id>)> = HashMap::new();
    let mut aliases: HashMap<Id, Id> = HashMap::new();
    let mut escaped: Vec<Id> = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        let reachable = f.cfg.reachable.get(b).copied().unwrap_or(false);
        for i in block.body() {
            let inst = &m.insts[i as usize];
            if inst.op == Op::Variable {
                if let (Some(id), Some((StorageClass::Function, pointee))) =
                    (inst.result_id, inst.result_type.and_then(|t| m.pointer(t)))
                {
                    let init = inst.id(1);
                    let init_ok = init.is_none_or(|v| m.type_of(v) == Some(pointee));
                    if reachable && init_ok && !decorated(m, id) {
                        vars.insert(id, (pointee, init.map(|_| pointee)));
                    } else {
                        escaped.push(id);
                    }
                }
                continue;
            }
            if inst.op == Op::Bitcast && reachable {
                let view = inst.result_type.and_then(|t| m.pointer(t));
                if let (Some(r), Some(src), Some((StorageClass::Function, _))) = (inst.result_id, inst.id(0), view) {
                    if vars.contains_key(&src) && !decorated(m, r) {
                        aliases.insert(r, src);
                        continue;
                    }
                }
            }
            for (k, id) in inst.id_operands() {
                let Some(var) = vars
                    .contains_key(&id)
                    .then_some(id)
                    .or_else(|| aliases.get(&id).copied())
                else {
                    continue;
                };
                let moved = match (inst.op, k) {
                    (Op::Load, 0) if reachable && !inst.is_volatile(1) => {
                        inst.result_id.filter(|&r| !decorated(m, r)).and(inst.result_type)
                    }
                    (Op::Store, 0) if reachable && !inst.is_volatile(2) => inst.id(1).and_then(|v| m.type_of(v)),
                    _ => None,
                };
                let entry = vars.get_mut(&var).map(|v| &mut v.1);
                match (moved, entry) {
                    (Some(t), Some(slot @ None)) => *slot = Some(t),
                    (Some(t), Some(Some(u))) if *u == t => {}
                    _ => escaped.push(var),
                }
            }
        }
    }
    for id in escaped {
        vars.remove(&id);
    }
    aliases.retain(|_, v| vars.contains_key(v));
    let types = vars
        .into_iter()
        .map(|(id, (pointee, moved))| (id, moved.unwrap_or(pointee)))
        .collect();
    (types, aliases)
}

/// The dominance frontier of every block of `f`.
fn frontiers(f: &Function) -> Vec<Vec<u32>> {
    let n = f.blocks.len();
    let mut df: Vec<Vec<u32>> = vec![Vec::new(); n];
    for b in 0..n {
        if !f.cfg.reachable[b] || f.cfg.preds[b].len() < 2 {
            continue;
        }
        let idom = f.cfg.idom[b];
        for &p in &f.cfg.preds[b] {
            let mut x = p;
            while x != idom && (x as usize) < n && f.cfg.reachable[x as usize] {
                if df[x as usize].last() != Some(&(b as u32)) {
                    df[x as usize].push(b as u32);
                }
                if x == f.cfg.idom[x as usize] {
                    break;
                }
                x = f.cfg.idom[x as usize];
            }
        }
    }
    df
}

/// What [`construct`] makes of one function: the instructions to insert
/// after block labels (block, instruction), the instructions that become
/// OpNop, and the loads' replacements.
type Construction = (Vec<(u32, Inst)>, Vec<u32>, HashMap<Id, Id>);

/// SSA construction for the promoted variables of function `fi`
/// ([`Construction`]). `next_id` hands out fresh ids.
fn construct(m: &Module, fi: usize, next_id: &mut u32) -> Option<Construction> {
    let f = &m.functions[fi];
    let (cands, aliases) = candidates(m, f);
    if cands.is_empty() {
        return None;
    }
    let n = f.blocks.len();
    // The work and memory below grow with variables times blocks: a
    // function beyond this keeps its variables (hostile or generated
    // modules; clang's kernels are far below it).
    if cands.len().saturating_mul(n) > MAX_WORK {
        return None;
    }
    let mut order: Vec<Id> = cands.keys().copied().collect();
    order.sort_unstable();
    let mut index: HashMap<Id, usize> = order.iter().enumerate().map(|(k, &id)| (id, k)).collect();
    for (&alias, var) in &aliases {
        let v = index[var];
        index.insert(alias, v);
    }
    let mut vars: Vec<Var> = order
        .iter()
        .map(|id| Var {
            ty: cands[id],
            stores_in: vec![false; n],
            exposed_in: vec![false; n],
        })
        .collect();
    // Each instruction's access, and where each variable is stored and
    // read before a store in its block.
    let mut access: HashMap<u32, Access> = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for i in block.body() {
            let inst = &m.insts[i as usize];
            let a = match inst.op {
                Op::Bitcast => inst.result_id.filter(|r| aliases.contains_key(r)).map(|_| Access::View),
                Op::Variable => inst
                    .result_id
                    .and_then(|id| index.get(&id))
                    .map(|&v| Access::Define(v, inst.id(1))),
                Op::Load => inst.id(0).and_then(|p| index.get(&p)).map(|&v| Access::Load(v)),
                Op::Store => inst
                    .id(0)
                    .and_then(|p| index.get(&p))
                    .and_then(|&v| Some(Access::Store(v, inst.id(1)?))),
                _ => None,
            };
            match a {
                Some(Access::Define(v, Some(_))) | Some(Access::Store(v, _)) => vars[v].stores_in[b] = true,
                Some(Access::Load(v)) if !vars[v].stores_in[b] => vars[v].exposed_in[b] = true,
                _ => {}
            }
            if let Some(a) = a {
                access.insert(i, a);
            }
        }
    }
    // Phis: at the iterated dominance frontier of the storing blocks,
    // where the variable is live on entry; and at the exits of a loop
    // that stores it, so that the loop's values leave it through phis on
    // its exit edges (what a 4-lane body needs of a loop whose lanes
    // leave at different iterations: `simd::analysis`).
    let mut targets = frontiers(f);
    for (_, body) in cfg::natural_loops(f) {
        // The loop and its tails (a `break` with work of its own), as the
        // 4-lane bodies see them.
        let region: Vec<bool> = (0..n).map(|b| body[b] || loop_tail(m, f, &body, b)).collect();
        let mut exits: Vec<u32> = Vec::new();
        for b in (0..n).filter(|&b| region[b]) {
            for &s in &f.cfg.succs[b] {
                if !region[s as usize] && !exits.contains(&s) {
                    exits.push(s);
                }
            }
        }
        for b in (0..n).filter(|&b| region[b]) {
            for &e in &exits {
                if !targets[b].contains(&e) {
                    targets[b].push(e);
                }
            }
        }
    }
    let mut phis: Vec<Vec<(usize, Id)>> = vec![Vec::new(); n];
    for (v, var) in vars.iter().enumerate() {
        let mut live = var.exposed_in.clone();
        let mut work: Vec<u32> = (0..n as u32).filter(|&b| live[b as usize]).collect();
        while let Some(b) = work.pop() {
            for &p in &f.cfg.preds[b as usize] {
                let p = p as usize;
                if !live[p] && !var.stores_in[p] && f.cfg.reachable[p] {
                    live[p] = true;
                    work.push(p as u32);
                }
            }
        }
        let mut has_phi = vec![false; n];
        let mut work: Vec<u32> = (0..n as u32).filter(|&b| var.stores_in[b as usize]).collect();
        while let Some(b) = work.pop() {
            for &d in &targets[b as usize] {
                let d = d as usize;
                if !has_phi[d] && live[d] {
                    has_phi[d] = true;
                    phis[d].push((v, *next_id));
                    *next_id += 1;
                    work.push(d as u32);
                }
            }
        }
    }
    // Renaming, over the dominator tree in preorder.
    let children = cfg::dominator_children(&f.cfg.rpo, &f.cfg.idom);
    // One OpUndef per type, for reads before any store.
    let mut undefs: HashMap<Id, Id> = HashMap::new();
    let mut undef = |ty: Id, next_id: &mut u32| {
        *undefs.entry(ty).or_insert_with(|| {
            *next_id += 1;
            *next_id - 1
        })
    };
    let mut current: Vec<Vec<Id>> = vec![Vec::new(); vars.len()];
    let mut forward: HashMap<Id, Id> = HashMap::new();
    // Per phi (block, slot): its operand for each predecessor (in the
    // order of cfg.preds).
    let mut phi_args: Vec<Vec<Vec<Option<Id>>>> = phis
        .iter()
        .enumerate()
        .map(|(b, list)| vec![vec![None; f.cfg.preds[b].len()]; list.len()])
        .collect();
    // (block, entering): entering pushes, leaving pops what it pushed.
    let mut stack: Vec<(u32, bool)> = vec![(0, true)];
    let mut pushed: Vec<Vec<usize>> = vec![Vec::new(); n];
    while let Some((b, entering)) = stack.pop() {
        let bi = b as usize;
        if !entering {
            for &v in &pushed[bi] {
                current[v].pop();
            }
            continue;
        }
        stack.push((b, false));
        for &(v, id) in &phis[bi] {
            current[v].push(id);
            pushed[bi].push(v);
        }
        for i in f.blocks[bi].body() {
            match access.get(&i) {
                Some(&Access::Define(v, Some(init))) | Some(&Access::Store(v, init)) => {
                    current[v].push(resolve(&forward, init));
                    pushed[bi].push(v);
                }
                Some(&Access::Load(v)) => {
                    let value = match current[v].last() {
                        Some(&x) => x,
                        None => undef(vars[v].ty, next_id),
                    };
                    if let Some(r) = m.insts[i as usize].result_id {
                        forward.insert(r, value);
                    }
                }
                _ => {}
            }
        }
        for &s in &f.cfg.succs[bi] {
            let si = s as usize;
            let Some(slot) = f.cfg.preds[si].iter().position(|&p| p == b) else {
                continue;
            };
            for (k, &(v, _)) in phis[si].iter().enumerate() {
                let value = match current[v].last() {
                    Some(&x) => x,
                    None => undef(vars[v].ty, next_id),
                };
                phi_args[si][k][slot] = Some(value);
            }
        }
        for &c in children[bi].iter().rev() {
            stack.push((c, true));
        }
    }
    // The new instructions, at the offset of their block's label (for
    // diagnostics): the phis, then the undefs.
    let mut insts: Vec<(u32, Inst)> = Vec::new();
    for (b, list) in phis.iter().enumerate() {
        for (k, &(v, id)) in list.iter().enumerate() {
            let mut operands = Vec::new();
            for (slot, &p) in f.cfg.preds[b].iter().enumerate() {
                // A predecessor the walk never reached (unreachable) gives
                // an undefined value.
                let value = match phi_args[b][k][slot] {
                    Some(x) => x,
                    None => undef(vars[v].ty, next_id),
                };
                operands.push(Operand::IdRef(value));
                operands.push(Operand::IdRef(f.blocks[p as usize].label));
            }
            insts.push((
                b as u32,
                Inst {
                    offset: m.insts[f.blocks[b].start as usize].offset,
                    op: Op::Phi,
                    result_type: Some(vars[v].ty),
                    result_id: Some(id),
                    operands,
                },
            ));
        }
    }
    for (ty, id) in undefs {
        insts.push((
            0,
            Inst {
                offset: m.insts[f.blocks[0].start as usize].offset,
                op: Op::Undef,
                result_type: Some(ty),
                result_id: Some(id),
                operands: Vec::new(),
            },
        ));
    }
    let mut dead: Vec<u32> = access.keys().copied().collect();
    dead.sort_unstable();
    Some((insts, dead, forward))
}

/// Promotes the Function variables of every function of the validated
/// module `m` (module doc). Returns how many variables it removed.
pub fn variables(m: &mut Module) -> usize {
    let mut removed = 0;
    let mut next_id = m.bound;
    // (function, block, instruction) to insert after the block's label.
    let mut inserted: Vec<(u32, u32, Inst)> = Vec::new();
    for fi in 0..m.functions.len() {
        let Some((insts, dead, forward)) = construct(m, fi, &mut next_id) else {
            continue;
        };
        removed += dead.iter().filter(|&&i| m.insts[i as usize].op == Op::Variable).count();
        for i in dead {
            let inst = &mut m.insts[i as usize];
            if let Some(id) = inst.result_id {
                m.ids[id as usize] = IdInfo::default();
            }
            inst.op = Op::Nop;
            inst.result_type = None;
            inst.result_id = None;
            inst.operands.clear();
        }
        let f = &m.functions[fi];
        let (from, to) = (f.inst as usize, f.end as usize);
        for inst in &mut m.insts[from..=to] {
            for o in &mut inst.operands {
                if let Operand::IdRef(x) = o {
                    *x = resolve(&forward, *x);
                }
            }
        }
        inserted.extend(insts.into_iter().map(|(b, inst)| (fi as u32, b, inst)));
    }
    m.bound = next_id;
    m.ids.resize(next_id as usize, IdInfo::default());
    insert(m, inserted);
    removed
}

/// Inserts each (function, block, instruction) of `inserted` after the
/// block's label, moves every index after it, and records the new ids'
/// definitions.
fn insert(m: &mut Module, inserted: Vec<(u32, u32, Inst)>) {
    if inserted.is_empty() {
        return;
    }
    // By label index (module order): the instructions, with their function
    // and block.
    let mut at: std::collections::BTreeMap<u32, Vec<(u32, u32, Inst)>> = std::collections::BTreeMap::new();
    for (fi, b, inst) in inserted {
        let label = m.functions[fi as usize].blocks[b as usize].start;
        at.entry(label).or_default().push((fi, b, inst));
    }
    // New index of old index `i`: shifted by every insertion after a label
    // before it (`shift[k]` is what the first k labels insert).
    let labels: Vec<u32> = at.keys().copied().collect();
    let shift: Vec<u32> = std::iter::once(0)
        .chain(at.values().scan(0u32, |acc, list| {
            *acc += list.len() as u32;
            Some(*acc)
        }))
        .collect();
    let moved = |i: u32| -> u32 { i + shift[labels.partition_point(|&l| l < i)] };
    let old = std::mem::take(&mut m.insts);
    let mut insts = Vec::with_capacity(old.len() + shift.last().copied().unwrap_or(0) as usize);
    // (new index, function, block, id) of each inserted instruction.
    let mut new_ids: Vec<(u32, u32, u32, Id, Op)> = Vec::new();
    for (i, inst) in old.into_iter().enumerate() {
        insts.push(inst);
        if let Some(list) = at.remove(&(i as u32)) {
            for (fi, b, inst) in list {
                if let Some(id) = inst.result_id {
                    new_ids.push((insts.len() as u32, fi, b, id, inst.op));
                }
                insts.push(inst);
            }
        }
    }
    m.insts = insts;
    for info in &mut m.ids {
        if info.def != NONE {
            info.def = moved(info.def);
        }
    }
    for f in &mut m.functions {
        f.inst = moved(f.inst);
        f.end = moved(f.end);
        for b in &mut f.blocks {
            b.start = moved(b.start);
            b.end = moved(b.end);
        }
    }
    for (def, func, block, id, op) in new_ids {
        m.ids[id as usize] = IdInfo {
            kind: if op == Op::Undef { IdKind::Undef } else { IdKind::Value },
            def,
            name: NONE,
            index: NONE,
            func,
            block,
        };
    }
}
