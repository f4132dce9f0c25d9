//! The SPIR-V linker behind clLinkProgram: combines object programs
//! (modules with the Linkage capability, whose functions and program-scope
//! variables defined elsewhere are declarations decorated
//! `LinkageAttributes "name" Import`), libraries and IL programs into one
//! module.
//!
//! Each module is decoded with `rspirv::dr` (after [`crate::words`] checks
//! its instruction stream), decoration groups are expanded into plain
//! decorations, and every id is renumbered into one id space. Then:
//! - capabilities and extensions are merged, OpExtInstImport kept once per
//!   set name, and the addressing and memory models must agree;
//! - types, constants and OpUndef are deduplicated structurally, in module
//!   order: two are one when their opcode, operands (after renumbering),
//!   decorations and, for OpTypeStruct and OpTypeOpaque, OpName agree.
//!   In keys, a pointer named by OpTypeForwardPointer stands as its storage
//!   class and the name of the struct it points to, so recursive types
//!   (`struct node { struct node *next; }`) merge too; each merge made
//!   through such a stand-in is checked once every type is merged (the two
//!   pointers must have become one), else the link fails;
//! - built-in variables (decorated BuiltIn; llvm-spirv also decorates them
//!   Import) are merged by built-in and type and are never linkage symbols;
//! - every Import (a function without blocks, or a variable without
//!   initializer) is replaced by the Export definition of the same name: uses
//!   are rewritten to the definition, and the declaration, its parameters and
//!   their names and decorations are dropped. The function type (or the
//!   variable's pointer type) must be the same type after deduplication;
//! - declarations left (only in a library) come before every definition, and
//!   types, constants and variables are put in an order where each is
//!   defined before use (an imported variable resolves to a definition that
//!   may come from a later module);
//! - ids are renumbered densely in output order.
//!
//! Export decorations stay in the result, for libraries and executables
//! alike: llvm-spirv exports every kernel of a whole program too, and clift's
//! front end ignores them, so an executable stays a module like any other
//! IL program. In an executable no Import may remain (built-in variables
//! excepted).
//!
//! Errors are collected, one line per problem naming the symbol and the
//! module index (0-based, in the order given). Work is linear in the input
//! size apart from hashing; bad input is an error, never a panic.

use std::collections::{HashMap, HashSet};

use rspirv::binary::Assemble;
use rspirv::dr::{Function, Instruction, Module, ModuleHeader, Operand};
use spirv::{Decoration, LinkageType, Op, Word};

/// Options of one link.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LinkOptions {
    /// Make a library (`-create-library`): unresolved imports and every
    /// export stay. Otherwise an executable: every import must resolve.
    pub create_library: bool,
}

/// The linkage symbols of one module.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Symbols {
    /// Names decorated `LinkageAttributes ... Export` (functions with a body
    /// and program-scope variables; llvm-spirv exports every kernel too).
    pub exports: Vec<String>,
    /// Names decorated `LinkageAttributes ... Import` (declarations to be
    /// resolved by a link), built-in variables excepted.
    pub imports: Vec<String>,
    /// Whether the module declares the Linkage capability and has at least
    /// one Import or Export decoration (built-in variables excepted).
    pub linkage: bool,
}

/// Whether an id operand: `IdRef`, `IdScope` or `IdMemorySemantics`.
fn id_of(op: &Operand) -> Option<Word> {
    match *op {
        Operand::IdRef(x) | Operand::IdScope(x) | Operand::IdMemorySemantics(x) => Some(x),
        _ => None,
    }
}

/// Every id an instruction names (result type, result, operands), mutably.
fn for_each_id(inst: &mut Instruction, mut f: impl FnMut(&mut Word)) {
    if let Some(t) = inst.result_type.as_mut() {
        f(t);
    }
    if let Some(r) = inst.result_id.as_mut() {
        f(r);
    }
    for op in &mut inst.operands {
        match op {
            Operand::IdRef(x) | Operand::IdScope(x) | Operand::IdMemorySemantics(x) => f(x),
            _ => {}
        }
    }
}

/// Every instruction of a module, in section order, mutably.
fn for_each_inst(m: &mut Module, mut f: impl FnMut(&mut Instruction)) {
    let sections = [
        &mut m.capabilities,
        &mut m.extensions,
        &mut m.ext_inst_imports,
        &mut m.entry_points,
        &mut m.execution_modes,
        &mut m.debug_string_source,
        &mut m.debug_names,
        &mut m.debug_module_processed,
        &mut m.annotations,
        &mut m.types_global_values,
    ];
    for s in sections {
        s.iter_mut().for_each(&mut f);
    }
    if let Some(mm) = m.memory_model.as_mut() {
        f(mm);
    }
    for func in &mut m.functions {
        for_each_function_inst(func, &mut f);
    }
}

fn for_each_function_inst(func: &mut Function, mut f: impl FnMut(&mut Instruction)) {
    if let Some(d) = func.def.as_mut() {
        f(d);
    }
    func.parameters.iter_mut().for_each(&mut f);
    for b in &mut func.blocks {
        if let Some(l) = b.label.as_mut() {
            f(l);
        }
        b.instructions.iter_mut().for_each(&mut f);
    }
    if let Some(e) = func.end.as_mut() {
        f(e);
    }
}

/// A decoded module: its words checked by [`crate::words`], then
/// `rspirv::dr`'s loader; every id below the bound and defined once, every
/// id operand defined somewhere in the module (except the forward pointer
/// an OpTypeForwardPointer names, which must be defined too).
fn load(index: usize, bytes: &[u8]) -> Result<(Module, u32), String> {
    let w = crate::words(bytes).map_err(|e| format!("module {index}: {}", e.0))?;
    let version = w[1];
    let m = rspirv::dr::load_words(&w).map_err(|e| format!("module {index}: cannot be decoded: {e}"))?;
    let mut m = m;
    let bound = m.header.as_ref().map_or(0, |h| h.bound);
    let mut defined: HashSet<Word> = HashSet::new();
    let mut problem: Option<String> = None;
    for_each_inst(&mut m, |i| {
        if let Some(r) = i.result_id {
            if problem.is_none() && (r == 0 || r >= bound) {
                problem = Some(format!("module {index}: id %{r} is not below the bound {bound}"));
            }
            if !defined.insert(r) && problem.is_none() {
                problem = Some(format!("module {index}: id %{r} is defined more than once"));
            }
        }
    });
    for_each_inst(&mut m, |i| {
        let mut check = |x: Word| {
            if problem.is_none() && !defined.contains(&x) {
                problem = Some(format!(
                    "module {index}: {:?} uses %{x}, which no instruction defines",
                    i.class.opcode
                ));
            }
        };
        if let Some(t) = i.result_type {
            check(t);
        }
        for op in &i.operands {
            if let Some(x) = id_of(op) {
                check(x);
            }
        }
    });
    if let Some(p) = problem {
        return Err(p);
    }
    if m.memory_model.is_none() {
        return Err(format!("module {index}: has no OpMemoryModel"));
    }
    expand_groups(&mut m).map_err(|e| format!("module {index}: {e}"))?;
    Ok((m, version))
}

/// Replaces OpDecorationGroup / OpGroupDecorate / OpGroupMemberDecorate by
/// the plain OpDecorate / OpMemberDecorate they stand for.
fn expand_groups(m: &mut Module) -> Result<(), String> {
    let groups: HashSet<Word> = m
        .annotations
        .iter()
        .filter(|i| i.class.opcode == Op::DecorationGroup)
        .filter_map(|i| i.result_id)
        .collect();
    if groups.is_empty() {
        return Ok(());
    }
    // Each expanded decoration stands for at least one word of input.
    let limit = MAX_EXPANDED.max(m.annotations.len());
    let mut of_group: HashMap<Word, Vec<Instruction>> = HashMap::new();
    for i in &m.annotations {
        if matches!(i.class.opcode, Op::Decorate | Op::DecorateId) {
            if let Some(t) = i.operands.first().and_then(id_of) {
                if groups.contains(&t) {
                    of_group.entry(t).or_default().push(i.clone());
                }
            }
        }
    }
    let mut out = Vec::with_capacity(m.annotations.len());
    for i in std::mem::take(&mut m.annotations) {
        match i.class.opcode {
            Op::DecorationGroup => {}
            Op::Decorate | Op::DecorateId
                if i.operands.first().and_then(id_of).is_some_and(|t| groups.contains(&t)) => {}
            Op::GroupDecorate => {
                let Some(g) = i.operands.first().and_then(id_of) else {
                    continue;
                };
                let decos = of_group.get(&g).map_or(&[][..], Vec::as_slice);
                for target in i.operands[1..].iter().filter_map(id_of) {
                    if out.len() + decos.len() > limit {
                        return Err(too_many());
                    }
                    for d in decos {
                        let mut d = d.clone();
                        d.operands[0] = Operand::IdRef(target);
                        out.push(d);
                    }
                }
            }
            Op::GroupMemberDecorate => {
                let Some(g) = i.operands.first().and_then(id_of) else {
                    continue;
                };
                let decos = of_group.get(&g).map_or(&[][..], Vec::as_slice);
                for pair in i.operands[1..].chunks_exact(2) {
                    let (Some(target), Operand::LiteralBit32(member)) = (id_of(&pair[0]), &pair[1]) else {
                        continue;
                    };
                    if out.len() + decos.len() > limit {
                        return Err(too_many());
                    }
                    for d in decos.iter().filter(|d| d.class.opcode == Op::Decorate) {
                        let mut operands = vec![Operand::IdRef(target), Operand::LiteralBit32(*member)];
                        operands.extend(d.operands[1..].iter().cloned());
                        out.push(Instruction::new(Op::MemberDecorate, None, None, operands));
                    }
                }
            }
            _ => out.push(i),
        }
    }
    m.annotations = out;
    Ok(())
}

/// The most decorations that expanding decoration groups may make.
const MAX_EXPANDED: usize = 1 << 20;

fn too_many() -> String {
    format!("decoration groups expand to more than {MAX_EXPANDED} decorations")
}

/// A LinkageAttributes decoration: (target, name, import?).
fn linkage_of(i: &Instruction) -> Option<(Word, String, bool)> {
    if i.class.opcode != Op::Decorate {
        return None;
    }
    match i.operands.as_slice() {
        [Operand::IdRef(t), Operand::Decoration(Decoration::LinkageAttributes), Operand::LiteralString(name), Operand::LinkageType(ty)] => {
            match ty {
                LinkageType::Import => Some((*t, name.clone(), true)),
                LinkageType::Export => Some((*t, name.clone(), false)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The targets decorated BuiltIn.
fn builtins(m: &Module) -> HashMap<Word, Operand> {
    m.annotations
        .iter()
        .filter(|i| i.class.opcode == Op::Decorate)
        .filter_map(|i| match i.operands.as_slice() {
            [Operand::IdRef(t), Operand::Decoration(Decoration::BuiltIn), b, ..] => Some((*t, b.clone())),
            _ => None,
        })
        .collect()
}

/// The linkage symbols of `module` (bytes as given to
/// clCreateProgramWithIL, either endianness), or why it cannot be decoded.
pub fn linkage_symbols(module: &[u8]) -> Result<Symbols, String> {
    let (m, _) = load(0, module)?;
    let builtin = builtins(&m);
    let mut s = Symbols::default();
    for (target, name, import) in m.annotations.iter().filter_map(linkage_of) {
        if builtin.contains_key(&target) {
            continue;
        }
        let list = if import { &mut s.imports } else { &mut s.exports };
        if !list.contains(&name) {
            list.push(name);
        }
    }
    let has_cap = m.capabilities.iter().any(|i| {
        matches!(
            i.operands.first(),
            Some(Operand::Capability(spirv::Capability::Linkage))
        )
    });
    s.linkage = has_cap && !(s.imports.is_empty() && s.exports.is_empty());
    Ok(s)
}

/// Which module an id came from, to name it in the log.
struct Origin(HashMap<Word, usize>);

/// Links SPIR-V modules (each a whole module, bytes as given to
/// clCreateProgramWithIL, either endianness). Ok: the linked module's bytes
/// (little-endian words). For an executable (`!create_library`) no Import
/// may remain unresolved, and the result is then an IL program like any
/// other for [`crate::check_il`] and [`crate::build`]. Err: the link log,
/// one line per problem, naming the symbol and the module index.
pub fn link(modules: &[&[u8]], options: &LinkOptions) -> Result<Vec<u8>, String> {
    if modules.is_empty() {
        return Err("no modules to link".into());
    }
    let mut log: Vec<String> = Vec::new();
    let mut loaded = Vec::with_capacity(modules.len());
    let mut version = 0;
    let mut generator = None;
    for (k, b) in modules.iter().enumerate() {
        match load(k, b) {
            Ok((m, v)) => {
                version = version.max(v);
                generator = generator.or(m.header.as_ref().map(|h| h.generator));
                loaded.push(m);
            }
            Err(e) => log.push(e),
        }
    }
    if !log.is_empty() {
        return Err(log.join("\n"));
    }
    // One id space: ids numbered in module order.
    let mut next: Word = 1;
    let mut origin = Origin(HashMap::new());
    for (k, m) in loaded.iter_mut().enumerate() {
        let mut map: HashMap<Word, Word> = HashMap::new();
        let mut overflow = false;
        for_each_inst(m, |i| {
            for_each_id(i, |x| {
                *x = *map.entry(*x).or_insert_with(|| {
                    let id = next;
                    next = next.checked_add(1).unwrap_or_else(|| {
                        overflow = true;
                        id
                    });
                    id
                });
            });
        });
        if overflow {
            return Err("the modules have more ids than one SPIR-V module can hold".into());
        }
        for &id in map.values() {
            origin.0.insert(id, k);
        }
    }
    let out = merge(loaded, &origin, options, &mut log);
    if !log.is_empty() {
        return Err(log.join("\n"));
    }
    let Some(mut out) = out else {
        return Err("link failed".into());
    };
    let bound = compact(&mut out);
    out.header = Some(ModuleHeader {
        magic_number: crate::MAGIC,
        version,
        generator: generator.unwrap_or(0),
        bound,
        reserved_word: 0,
    });
    Ok(out.assemble().iter().flat_map(|w| w.to_le_bytes()).collect())
}

/// Renumbers ids densely in order of appearance; returns the bound.
fn compact(m: &mut Module) -> Word {
    let mut map: HashMap<Word, Word> = HashMap::new();
    let mut next = 1;
    for_each_inst(m, |i| {
        for_each_id(i, |x| {
            *x = *map.entry(*x).or_insert_with(|| {
                next += 1;
                next - 1
            });
        });
    });
    next
}

/// The key under which two types or constants are the same: the
/// instruction without its result id, the decorations on it (target
/// removed, sorted) and, for structs and opaque types, the name.
type Key = (Instruction, Vec<Instruction>, Option<String>);

/// Follows the replacement map (chains are short; bounded anyway).
fn resolve(rep: &HashMap<Word, Word>, mut x: Word) -> Word {
    for _ in 0..8 {
        match rep.get(&x) {
            Some(&y) if y != x => x = y,
            _ => break,
        }
    }
    x
}

fn remap(rep: &HashMap<Word, Word>, i: &mut Instruction) {
    let mut r = i.result_id.take();
    for_each_id(i, |x| *x = resolve(rep, *x));
    if let Some(r) = r.as_mut() {
        *r = resolve(rep, *r);
    }
    i.result_id = r;
}

/// A symbol's definition or declaration.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SymKind {
    Function,
    Variable,
    Other,
}

/// Merges modules that already share one id space, phase by phase (each
/// phase a method of [`Merge`]); a phase whose problems make the later ones
/// meaningless ends the merge with its log lines.
fn merge(mut modules: Vec<Module>, origin: &Origin, options: &LinkOptions, log: &mut Vec<String>) -> Option<Module> {
    let mut m = Merge::new(origin, log);
    m.module_sections(&mut modules);
    let index = Index::new(&modules);
    let globals = m.deduplicate_globals(&mut modules, &index);
    m.check_forward_tokens(&index);
    if !m.log.is_empty() {
        return None;
    }
    m.function_types(&modules);
    let (exports, reported_dup) = m.exports(&index);
    m.resolve_imports(&index, &exports, &globals, options);
    if !m.log.is_empty() {
        return None;
    }
    m.entry_points(&mut modules, &reported_dup);
    if !m.log.is_empty() {
        return None;
    }
    m.debug_and_annotations(&mut modules);
    m.out.types_global_values = order_globals(m.kept_globals(globals));
    m.functions(&mut modules);
    Some(m.out)
}

/// What the modules say about their ids, gathered once: decorations and
/// names by target, built-ins, linkage decorations, and what stands for a
/// forward pointer in deduplication keys.
struct Index {
    decos: HashMap<Word, Vec<Instruction>>,
    struct_names: HashMap<Word, String>,
    builtin: HashMap<Word, Operand>,
    linkage: Vec<(Word, String, bool)>,
    /// A forward-declared pointer's stand-in: its storage class and the name
    /// of the struct it points to (a recursive type is named in practice; a
    /// pointer to an unnamed one keeps its id, so what uses it is never
    /// merged). Merges made through such a token are checked once every
    /// type is known ([`Merge::check_forward_tokens`]).
    token: HashMap<Word, Operand>,
}

impl Index {
    fn new(modules: &[Module]) -> Index {
        let mut decos: HashMap<Word, Vec<Instruction>> = HashMap::new();
        let mut struct_names: HashMap<Word, String> = HashMap::new();
        let mut builtin: HashMap<Word, Operand> = HashMap::new();
        let mut linkage: Vec<(Word, String, bool)> = Vec::new();
        // Forward-declared pointers: storage class, and the pointee named by
        // their OpTypePointer.
        let mut forward: HashMap<Word, (Operand, Word)> = HashMap::new();
        for m in modules {
            for i in &m.annotations {
                if let Some(t) = i.operands.first().and_then(id_of) {
                    let mut d = i.clone();
                    d.operands.remove(0);
                    decos.entry(t).or_default().push(d);
                }
                if let Some(l) = linkage_of(i) {
                    linkage.push(l);
                }
            }
            builtin.extend(builtins(m));
            for i in &m.debug_names {
                if let (Op::Name, [Operand::IdRef(t), Operand::LiteralString(n)]) =
                    (i.class.opcode, i.operands.as_slice())
                {
                    struct_names.entry(*t).or_insert_with(|| n.clone());
                }
            }
            for i in &m.types_global_values {
                if let (Op::TypeForwardPointer, [Operand::IdRef(p), class]) = (i.class.opcode, i.operands.as_slice()) {
                    forward.insert(*p, (class.clone(), 0));
                }
            }
            for i in &m.types_global_values {
                if let (Op::TypePointer, Some(p), [_, Operand::IdRef(pointee)]) =
                    (i.class.opcode, i.result_id, i.operands.as_slice())
                {
                    if let Some(f) = forward.get_mut(&p) {
                        f.1 = *pointee;
                    }
                }
            }
        }
        let token = forward
            .iter()
            .filter_map(|(&p, (class, pointee))| {
                let name = struct_names.get(pointee)?;
                Some((p, Operand::LiteralString(format!("forward pointer {class} to {name}"))))
            })
            .collect();
        Index {
            decos,
            struct_names,
            builtin,
            linkage,
            token,
        }
    }

    /// The deduplication key of global `i` (already remapped), whose result
    /// is `id`, and the forward pointers the key went through.
    fn key(&self, id: Word, i: &Instruction, rep: &HashMap<Word, Word>) -> (Key, Vec<Word>) {
        let mut d: Vec<Instruction> = self.decos.get(&id).cloned().unwrap_or_default();
        for x in &mut d {
            remap(rep, x);
        }
        // Linkage names are not part of a built-in's identity.
        d.retain(|x| {
            !matches!(
                x.operands.first(),
                Some(Operand::Decoration(Decoration::LinkageAttributes))
            )
        });
        d.sort_by_cached_key(|x| format!("{x:?}"));
        d.dedup();
        let name = if matches!(i.class.opcode, Op::TypeStruct | Op::TypeOpaque) {
            self.struct_names.get(&id).cloned()
        } else {
            None
        };
        let mut bare = i.clone();
        bare.result_id = None;
        let mut through = Vec::new();
        for o in &mut bare.operands {
            if let Some(t) = id_of(o).and_then(|x| self.token.get(&x)) {
                through.push(id_of(o).unwrap_or(0));
                *o = t.clone();
            }
        }
        ((bare, d, name), through)
    }
}

/// The state of one merge, built up phase by phase.
struct Merge<'a> {
    origin: &'a Origin,
    log: &'a mut Vec<String>,
    out: Module,
    /// Replacements: an id merged into (or resolved to) another.
    rep: HashMap<Word, Word>,
    /// Instructions already emitted where a copy must not repeat.
    seen_insts: HashSet<Instruction>,
    /// Ids whose definitions are dropped (merged types, resolved imports and
    /// their parameters).
    gone: HashSet<Word>,
    kinds: HashMap<Word, SymKind>,
    /// Variables: pointer type, and whether they have an initializer.
    var_types: HashMap<Word, (Word, bool)>,
    /// Functions: return type, function type, and whether they have a body.
    fn_types: HashMap<Word, (Word, Word, bool)>,
    params: HashMap<Word, Vec<Word>>,
    /// Merges made through forward-pointer tokens: (type, its pointer, the
    /// pointer of the type it was merged into).
    token_checks: Vec<(Word, Word, Word)>,
}

impl<'a> Merge<'a> {
    fn new(origin: &'a Origin, log: &'a mut Vec<String>) -> Merge<'a> {
        Merge {
            origin,
            log,
            out: Module::new(),
            rep: HashMap::new(),
            seen_insts: HashSet::new(),
            gone: HashSet::new(),
            kinds: HashMap::new(),
            var_types: HashMap::new(),
            fn_types: HashMap::new(),
            params: HashMap::new(),
            token_checks: Vec::new(),
        }
    }

    fn module_of(&self, id: Word) -> usize {
        self.origin.0.get(&id).copied().unwrap_or(0)
    }

    /// Capabilities, extensions, extended instruction sets (one per set
    /// name) and the memory model, which must agree.
    fn module_sections(&mut self, modules: &mut [Module]) {
        let mut sets: HashMap<String, Word> = HashMap::new();
        let mut model: Option<(Instruction, usize)> = None;
        for (k, m) in modules.iter_mut().enumerate() {
            for i in m.capabilities.drain(..).chain(m.extensions.drain(..)) {
                if self.seen_insts.insert(i.clone()) {
                    if i.class.opcode == Op::Capability {
                        self.out.capabilities.push(i);
                    } else {
                        self.out.extensions.push(i);
                    }
                }
            }
            for i in m.ext_inst_imports.drain(..) {
                let (Some(id), Some(Operand::LiteralString(name))) = (i.result_id, i.operands.first()) else {
                    continue;
                };
                match sets.get(name) {
                    Some(&first) => {
                        self.rep.insert(id, first);
                    }
                    None => {
                        sets.insert(name.clone(), id);
                        self.out.ext_inst_imports.push(i);
                    }
                }
            }
            if let Some(mm) = m.memory_model.take() {
                match &model {
                    None => model = Some((mm, k)),
                    Some((first, fk)) if first.operands != mm.operands => self.log.push(format!(
                        "module {k}: addressing and memory model {} differ from module {fk}'s {}",
                        show_operands(&mm.operands),
                        show_operands(&first.operands)
                    )),
                    Some(_) => {}
                }
            }
        }
        self.out.memory_model = model.map(|(mm, _)| mm);
    }

    /// Types, constants, OpUndef and built-in variables deduplicated by
    /// [`Index::key`]; returns every global instruction left, remapped.
    fn deduplicate_globals(&mut self, modules: &mut [Module], index: &Index) -> Vec<Instruction> {
        let mut canon: HashMap<Key, (Word, Vec<Word>)> = HashMap::new();
        let mut globals: Vec<Instruction> = Vec::new();
        for m in modules {
            for mut i in m.types_global_values.drain(..) {
                let op = i.class.opcode;
                let Some(id) = i.result_id else {
                    remap(&self.rep, &mut i);
                    globals.push(i);
                    continue;
                };
                let mergeable = (op.is_type() || op.is_constant() || op == Op::Undef) && op != Op::Variable;
                let builtin_var = op == Op::Variable && index.builtin.contains_key(&id);
                remap(&self.rep, &mut i);
                if op == Op::Variable {
                    self.kinds.insert(id, SymKind::Variable);
                    self.var_types
                        .insert(id, (i.result_type.unwrap_or(0), i.operands.len() > 1));
                } else {
                    self.kinds.insert(id, SymKind::Other);
                }
                if mergeable || builtin_var {
                    let (key, through) = index.key(id, &i, &self.rep);
                    if let Some((first, first_through)) = canon.get(&key) {
                        for (&a, &b) in through.iter().zip(first_through) {
                            self.token_checks.push((id, a, b));
                        }
                        self.rep.insert(id, *first);
                        self.gone.insert(id);
                        continue;
                    }
                    canon.insert(key, (id, through));
                }
                globals.push(i);
            }
        }
        globals
    }

    /// Each merge made through a forward-pointer token must have merged the
    /// two pointers too.
    fn check_forward_tokens(&mut self, index: &Index) {
        for &(ty, a, b) in &self.token_checks {
            if resolve(&self.rep, a) != resolve(&self.rep, b) {
                let name = index
                    .struct_names
                    .get(&ty)
                    .map_or_else(|| format!("%{ty}"), |n| format!("\"{n}\""));
                self.log.push(format!(
                    "module {}: type {name} differs from the type of the same name and members in module {}",
                    self.module_of(ty),
                    self.module_of(resolve(&self.rep, ty))
                ));
            }
        }
    }

    /// Functions: their kind, types and parameters, declarations and
    /// definitions alike.
    fn function_types(&mut self, modules: &[Module]) {
        for m in modules {
            for f in &m.functions {
                let Some(def) = &f.def else { continue };
                let Some(id) = def.result_id else { continue };
                self.kinds.insert(id, SymKind::Function);
                let ty = def.operands.get(1).and_then(id_of).unwrap_or(0);
                self.fn_types.insert(
                    id,
                    (
                        resolve(&self.rep, def.result_type.unwrap_or(0)),
                        resolve(&self.rep, ty),
                        !f.blocks.is_empty(),
                    ),
                );
                self.params
                    .insert(id, f.parameters.iter().filter_map(|p| p.result_id).collect());
            }
        }
    }

    /// The exported definitions by name, and the names exported twice
    /// (already reported).
    fn exports<'i>(&mut self, index: &'i Index) -> (HashMap<&'i str, Word>, HashSet<&'i str>) {
        let mut exports: HashMap<&str, Word> = HashMap::new();
        let mut reported_dup: HashSet<&str> = HashSet::new();
        for (t, name, import) in &index.linkage {
            if *import || index.builtin.contains_key(t) {
                continue;
            }
            let kind = self.kinds.get(t).copied().unwrap_or(SymKind::Other);
            let ok = match kind {
                SymKind::Function => self.fn_types.get(t).is_some_and(|x| x.2),
                SymKind::Variable => true,
                SymKind::Other => false,
            };
            if !ok {
                self.log.push(format!(
                    "module {}: \"{name}\" is exported but is not a function with a body or a program-scope variable",
                    self.module_of(*t)
                ));
                continue;
            }
            match exports.get(name.as_str()) {
                Some(&first) if first != *t => {
                    self.log.push(format!(
                        "duplicate symbol \"{name}\": exported by module {} and by module {}",
                        self.module_of(first),
                        self.module_of(*t)
                    ));
                    reported_dup.insert(name.as_str());
                }
                _ => {
                    exports.insert(name.as_str(), *t);
                }
            }
        }
        (exports, reported_dup)
    }

    /// Every import replaced by the export of its name (for a library
    /// without one, by the first import of that name), after checking that
    /// both are the same kind of symbol with the same type.
    fn resolve_imports(
        &mut self,
        index: &Index,
        exports: &HashMap<&str, Word>,
        globals: &[Instruction],
        options: &LinkOptions,
    ) {
        let types = TypeTable::new(globals, &self.rep, &index.struct_names);
        let mut resolved: Vec<(Word, Word)> = Vec::new();
        let mut first_import: HashMap<&str, Word> = HashMap::new();
        for (t, name, import) in &index.linkage {
            if !*import || index.builtin.contains_key(t) {
                continue;
            }
            let k = self.module_of(*t);
            let kind = self.kinds.get(t).copied().unwrap_or(SymKind::Other);
            let def = exports.get(name.as_str()).copied();
            match kind {
                SymKind::Function if self.fn_types.get(t).is_some_and(|x| !x.2) => {}
                SymKind::Variable if self.var_types.get(t).is_some_and(|x| !x.1) => {}
                _ => {
                    self.log.push(format!(
                        "module {k}: \"{name}\" is imported but is not a function declaration (without blocks) or a variable without initializer"
                    ));
                    continue;
                }
            }
            // Without an export, a library keeps the first import of each
            // name and merges the others into it.
            let (def, verb) = match def {
                Some(def) => (def, "exports"),
                None if !options.create_library => {
                    self.log.push(format!(
                        "unresolved symbol \"{name}\": imported by module {k} and exported by no module"
                    ));
                    continue;
                }
                None => match first_import.get(name.as_str()) {
                    Some(&first) => (first, "imports"),
                    None => {
                        first_import.insert(name.as_str(), *t);
                        continue;
                    }
                },
            };
            if let Some(line) = self.mismatch(name, *t, def, verb, &types) {
                self.log.push(line);
                continue;
            }
            resolved.push((*t, def));
            self.gone.insert(*t);
            if let Some(ps) = self.params.get(t) {
                self.gone.extend(ps.iter().copied());
            }
        }
        self.rep.extend(resolved);
    }

    /// Why import `t` of `name` cannot resolve to `def`, if it cannot: a
    /// different kind of symbol, or a different type.
    fn mismatch(&self, name: &str, t: Word, def: Word, verb: &str, types: &TypeTable) -> Option<String> {
        let k = self.module_of(t);
        let kind = self.kinds.get(&t).copied().unwrap_or(SymKind::Other);
        let def_kind = self.kinds.get(&def).copied().unwrap_or(SymKind::Other);
        if def_kind != kind {
            let what = |x| {
                if x == SymKind::Function {
                    "a function"
                } else {
                    "a variable"
                }
            };
            return Some(format!(
                "symbol \"{name}\": module {k} imports {} but module {} {verb} {}",
                what(kind),
                self.module_of(def),
                what(def_kind)
            ));
        }
        let type_of = |x: Word| match kind {
            SymKind::Function => self.fn_types.get(&x).map_or(0, |f| f.1),
            _ => self.var_types.get(&x).map_or(0, |v| v.0),
        };
        let (want, have) = (resolve(&self.rep, type_of(t)), resolve(&self.rep, type_of(def)));
        (want != have).then(|| {
            format!(
                "type mismatch for symbol \"{name}\": module {k} imports it as {} but module {} {verb} {}",
                types.show(want),
                self.module_of(def),
                types.show(have)
            )
        })
    }

    /// Entry points (one per kernel name) and execution modes.
    fn entry_points(&mut self, modules: &mut [Module], reported_dup: &HashSet<&str>) {
        let mut kernel_names: HashMap<String, usize> = HashMap::new();
        for (k, m) in modules.iter_mut().enumerate() {
            for mut i in m.entry_points.drain(..) {
                remap(&self.rep, &mut i);
                if let Some(Operand::LiteralString(n)) = i.operands.get(2) {
                    if let Some(&first) = kernel_names.get(n) {
                        if !reported_dup.contains(n.as_str()) {
                            self.log.push(format!(
                                "duplicate kernel \"{n}\": an entry point of module {first} and of module {k}"
                            ));
                        }
                        continue;
                    }
                    kernel_names.insert(n.clone(), k);
                }
                self.out.entry_points.push(i);
            }
            for mut i in m.execution_modes.drain(..) {
                remap(&self.rep, &mut i);
                if self.seen_insts.insert(i.clone()) {
                    self.out.execution_modes.push(i);
                }
            }
        }
    }

    /// Debug instructions and annotations on ids that are still there, each
    /// once (one OpName per id).
    fn debug_and_annotations(&mut self, modules: &mut [Module]) {
        let gone = &self.gone;
        let target_gone = |i: &Instruction| i.operands.first().and_then(id_of).is_some_and(|t| gone.contains(&t));
        let (rep, seen, out) = (&self.rep, &mut self.seen_insts, &mut self.out);
        let mut named: HashSet<Word> = HashSet::new();
        for m in modules {
            for mut i in m.debug_string_source.drain(..) {
                remap(rep, &mut i);
                if i.class.opcode == Op::String || seen.insert(i.clone()) {
                    out.debug_string_source.push(i);
                }
            }
            for mut i in m.debug_names.drain(..) {
                if target_gone(&i) {
                    continue;
                }
                remap(rep, &mut i);
                let t = i.operands.first().and_then(id_of).unwrap_or(0);
                if i.class.opcode == Op::Name {
                    if named.insert(t) {
                        out.debug_names.push(i);
                    }
                } else if seen.insert(i.clone()) {
                    out.debug_names.push(i);
                }
            }
            for mut i in m.debug_module_processed.drain(..) {
                remap(rep, &mut i);
                if seen.insert(i.clone()) {
                    out.debug_module_processed.push(i);
                }
            }
            for mut i in m.annotations.drain(..) {
                if target_gone(&i) {
                    continue;
                }
                remap(rep, &mut i);
                if seen.insert(i.clone()) {
                    out.annotations.push(i);
                }
            }
        }
    }

    /// Types, constants and variables without the resolved imports (and
    /// their forward declarations), remapped.
    fn kept_globals(&self, globals: Vec<Instruction>) -> Vec<Instruction> {
        let mut kept: Vec<Instruction> = Vec::with_capacity(globals.len());
        for mut i in globals {
            let forward_gone = i.class.opcode == Op::TypeForwardPointer
                && i.operands
                    .first()
                    .and_then(id_of)
                    .is_some_and(|p| self.gone.contains(&p));
            if forward_gone || i.result_id.is_some_and(|r| self.gone.contains(&r)) {
                continue;
            }
            remap(&self.rep, &mut i);
            kept.push(i);
        }
        kept
    }

    /// Functions: declarations first, then definitions, in module order.
    fn functions(&mut self, modules: &mut [Module]) {
        let mut decls = Vec::new();
        let mut defs = Vec::new();
        for m in modules {
            for mut f in m.functions.drain(..) {
                let id = f.def.as_ref().and_then(|d| d.result_id).unwrap_or(0);
                if self.gone.contains(&id) {
                    continue;
                }
                for_each_function_inst(&mut f, |i| remap(&self.rep, i));
                if f.blocks.is_empty() {
                    decls.push(f);
                } else {
                    defs.push(f);
                }
            }
        }
        self.out.functions = decls;
        self.out.functions.extend(defs);
    }
}

/// Orders types, constants and variables so that each is defined before the
/// instructions that use it, keeping the given order where it already is
/// (an iterative depth-first walk). Forward pointers count as defined by
/// their OpTypeForwardPointer.
fn order_globals(list: Vec<Instruction>) -> Vec<Instruction> {
    let mut at: HashMap<Word, usize> = HashMap::new();
    for (k, i) in list.iter().enumerate() {
        if let Some(r) = i.result_id {
            at.entry(r).or_insert(k);
        }
    }
    let mut forward_decl: HashMap<Word, usize> = HashMap::new();
    for (k, i) in list.iter().enumerate() {
        if i.class.opcode == Op::TypeForwardPointer {
            if let Some(p) = i.operands.first().and_then(id_of) {
                forward_decl.entry(p).or_insert(k);
            }
        }
    }
    let deps = |k: usize| -> Vec<usize> {
        let i = &list[k];
        let mut v = Vec::new();
        let ids = i.result_type.into_iter().chain(i.operands.iter().filter_map(id_of));
        for x in ids {
            if i.class.opcode == Op::TypeForwardPointer {
                break;
            }
            let d = forward_decl.get(&x).or_else(|| at.get(&x));
            if let Some(&d) = d {
                if d != k {
                    v.push(d);
                }
            }
        }
        v
    };
    // 0 new, 1 on the stack, 2 emitted.
    let mut state = vec![0u8; list.len()];
    let mut order = Vec::with_capacity(list.len());
    for root in 0..list.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(root, deps(root), 0)];
        state[root] = 1;
        while let Some((k, ds, next)) = stack.last_mut() {
            if let Some(&d) = ds.get(*next) {
                *next += 1;
                if state[d] == 0 {
                    state[d] = 1;
                    let dd = deps(d);
                    stack.push((d, dd, 0));
                }
            } else {
                state[*k] = 2;
                order.push(*k);
                stack.pop();
            }
        }
    }
    let mut slots: Vec<Option<Instruction>> = list.into_iter().map(Some).collect();
    order.into_iter().filter_map(|k| slots[k].take()).collect()
}

/// Types by id, to describe them in the log.
struct TypeTable<'a> {
    defs: HashMap<Word, &'a Instruction>,
    rep: &'a HashMap<Word, Word>,
    names: &'a HashMap<Word, String>,
}

impl<'a> TypeTable<'a> {
    fn new(globals: &'a [Instruction], rep: &'a HashMap<Word, Word>, names: &'a HashMap<Word, String>) -> Self {
        let defs = globals
            .iter()
            .filter(|i| i.class.opcode.is_type())
            .filter_map(|i| i.result_id.map(|r| (r, i)))
            .collect();
        TypeTable { defs, rep, names }
    }

    /// A short description of type `id`, e.g. `float32 (ptr Function struct.pair)`.
    fn show(&self, id: Word) -> String {
        let mut s = String::new();
        self.write(id, 0, &mut s);
        s
    }

    fn write(&self, id: Word, depth: u32, s: &mut String) {
        let id = resolve(self.rep, id);
        let Some(i) = self.defs.get(&id) else {
            s.push_str(&format!("%{id}"));
            return;
        };
        if depth > 6 || s.len() > 400 {
            s.push_str("...");
            return;
        }
        let ids: Vec<Word> = i.operands.iter().filter_map(id_of).collect();
        let lit = |k: usize| match i.operands.get(k) {
            Some(Operand::LiteralBit32(x)) => *x,
            _ => 0,
        };
        match i.class.opcode {
            Op::TypeVoid => s.push_str("void"),
            Op::TypeBool => s.push_str("bool"),
            Op::TypeInt => s.push_str(&format!("int{}", lit(0))),
            Op::TypeFloat => s.push_str(&format!("float{}", lit(0))),
            Op::TypeVector => {
                s.push_str(&format!("vec{}<", lit(1)));
                self.write(ids.first().copied().unwrap_or(0), depth + 1, s);
                s.push('>');
            }
            Op::TypePointer => {
                let class = match i.operands.first() {
                    Some(Operand::StorageClass(c)) => format!("{c:?}"),
                    _ => "?".into(),
                };
                s.push_str(&format!("ptr {class} "));
                self.write(ids.first().copied().unwrap_or(0), depth + 1, s);
            }
            Op::TypeStruct | Op::TypeOpaque => match self.names.get(&id) {
                Some(n) => s.push_str(n),
                None => {
                    s.push_str("struct {");
                    for (k, &m) in ids.iter().enumerate() {
                        if k > 0 {
                            s.push_str(", ");
                        }
                        self.write(m, depth + 1, s);
                    }
                    s.push('}');
                }
            },
            Op::TypeArray => {
                s.push('[');
                self.write(ids.first().copied().unwrap_or(0), depth + 1, s);
                s.push_str("; ...]");
            }
            Op::TypeFunction => {
                self.write(ids.first().copied().unwrap_or(0), depth + 1, s);
                s.push_str(" (");
                for (k, &p) in ids.iter().skip(1).enumerate() {
                    if k > 0 {
                        s.push_str(", ");
                    }
                    self.write(p, depth + 1, s);
                }
                s.push(')');
            }
            other => s.push_str(&format!("{other:?}")),
        }
    }
}

fn show_operands(ops: &[Operand]) -> String {
    ops.iter().map(|o| format!("{o}")).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB_C: &[u8] = include_bytes!("../tests/data/link/lib_c.spv");
    const LIB_C2: &[u8] = include_bytes!("../tests/data/link/lib_c2.spv");

    /// Every truncation and every word of a module replaced by a few
    /// values: an error or a module, never a panic.
    #[test]
    fn truncated_and_mutated_modules_never_panic() {
        let lib = LinkOptions { create_library: true };
        let exe = LinkOptions::default();
        for len in 0..LIB_C.len() {
            let cut = &LIB_C[..len];
            assert!(link(&[LIB_C2, cut], &lib).is_err() || len % 4 == 0);
            let _ = linkage_symbols(cut);
        }
        for w in 5..LIB_C.len() / 4 {
            for v in [0u32, 1, 0xffff_ffff, 0x0001_0000, 0x0004_0047, 7, 0x8000_0000] {
                let mut m = LIB_C.to_vec();
                m[w * 4..w * 4 + 4].copy_from_slice(&v.to_le_bytes());
                for o in [&lib, &exe] {
                    if let Ok(out) = link(&[LIB_C2, &m], o) {
                        assert!(crate::check_il(&out).is_ok());
                    }
                }
                let _ = linkage_symbols(&m);
            }
        }
        assert!(link(&[b"\x03\x02\x23\x07garbage garbage!"], &lib).is_err());
    }

    #[test]
    fn lib_c2_and_lib_c_resolve_offset() {
        let out = link(&[LIB_C2, LIB_C], &LinkOptions::default()).expect("links");
        let s = linkage_symbols(&out).expect("decodes");
        assert!(s.imports.is_empty());
        assert_eq!(s.exports, ["offset_twice", "offset"]);
    }
}
