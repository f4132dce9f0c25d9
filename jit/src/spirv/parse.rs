//! Words -> [`Module`]: decodes every instruction with the `rspirv` grammar
//! (keeping its word offset), then builds the id-keyed tables in one forward
//! pass, checking what the representation itself depends on: the module's
//! logical layout, function and block structure, ids defined once and below
//! the bound, and module-level operands defined before use.

use std::collections::HashMap;

use rspirv::binary::{parse_bytes, Consumer, ParseAction as Action, ParseState as State};
use rspirv::dr::{self, ModuleHeader, Operand};
use rspirv::grammar::{OperandKind, OperandQuantifier, INSTRUCTION_TABLE};
use spirv::{Decoration, Op};

use super::module::*;
use super::ops::{self, Place, Section, Support};
use crate::error::Diagnostic;

/// The most decorations a module may end up with once decoration groups
/// are applied (each group application copies the group's decorations).
const MAX_DECORATIONS: usize = 1 << 20;

/// The largest id bound clift takes for a module of `words` words: generous
/// for any real generator (an id's definition takes at least 2 words), and
/// it bounds the id table of a hostile module.
fn max_bound(words: usize) -> u64 {
    (words as u64) * 2 + 65536
}

fn header_diag(rule: impl Into<String>) -> Diagnostic {
    Diagnostic {
        word_offset: 0,
        opcode: None,
        result_id: None,
        name: None,
        rule: rule.into(),
    }
}

/// Which word of an instruction with opcode `code` holds its result id (1,
/// or 2 after a result type), by the grammar; `None` for an instruction
/// without a result or an opcode the grammar does not know.
pub(crate) fn result_word(code: u32) -> Option<usize> {
    match INSTRUCTION_TABLE.lookup_opcode(code)?.operands.first().map(|o| o.kind) {
        Some(OperandKind::IdResultType) => Some(2),
        Some(OperandKind::IdResult) => Some(1),
        _ => None,
    }
}

/// A diagnostic for the raw instruction at `at` (before it is decoded).
fn raw_diag(words: &[u32], at: usize, rule: impl Into<String>) -> Diagnostic {
    let w = words.get(at).copied().unwrap_or(0);
    let (count, code) = ((w >> 16) as usize, w & 0xffff);
    let opcode = INSTRUCTION_TABLE.lookup_opcode(code).map(|g| opname(g.opcode));
    let result_id = result_word(code)
        .filter(|&pos| pos < count)
        .and_then(|pos| words.get(at + pos).copied());
    Diagnostic {
        word_offset: at,
        opcode,
        result_id,
        name: None,
        rule: rule.into(),
    }
}

/// Decodes the words and builds the module, recording every problem.
fn built(words: &[u32]) -> Result<Builder, Vec<Diagnostic>> {
    if words.len() < 5 {
        return Err(vec![header_diag("the module is shorter than the 5-word SPIR-V header")]);
    }
    if words[0] != spirv::MAGIC_NUMBER {
        return Err(vec![header_diag("not a SPIR-V module: wrong magic number")]);
    }
    let version = words[1];
    let (major, minor) = (((version >> 16) & 0xff) as u8, ((version >> 8) & 0xff) as u8);
    if version & 0xff00_00ff != 0 || major != 1 || u32::from(minor) > crate::NEWEST_MINOR {
        return Err(vec![header_diag(format!(
            "SPIR-V version {major}.{minor} (word 0x{version:08x}): clift takes 1.0 to 1.{}",
            crate::NEWEST_MINOR
        ))]);
    }
    let bound = words[3];
    if u64::from(bound) > max_bound(words.len()) {
        return Err(vec![header_diag(format!(
            "the id bound {bound} is too large for a module of {} words (clift takes at most {})",
            words.len(),
            max_bound(words.len())
        ))]);
    }
    if words[4] != 0 {
        return Err(vec![header_diag(format!(
            "the header's reserved word (word 4) is {}, not 0",
            words[4]
        ))]);
    }

    // Check the instruction stream and screen what the grammar decoder
    // cannot take: OpSpecConstantOp goes through it as
    // OpSpecConstantComposite (same layout: type, id, then words) and is
    // decoded here with the grammar of its operation.
    let mut bytes = Vec::with_capacity(words.len() * 4);
    let mut at = 5;
    for w in &words[..5] {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return Err(vec![raw_diag(
                words,
                at,
                if count == 0 {
                    "instruction with a word count of 0".to_string()
                } else {
                    format!("instruction of {count} words runs past the end of the module")
                },
            )]);
        }
        let mut first = words[at];
        if first & 0xffff == Op::SpecConstantOp as u32 {
            if count < 4 {
                return Err(vec![raw_diag(words, at, "OpSpecConstantOp without an operation")]);
            }
            let inner = words[at + 3];
            match INSTRUCTION_TABLE.lookup_opcode(inner) {
                Some(g) if ops::spec_op_allowed(g.opcode) => {}
                Some(g) => {
                    return Err(vec![raw_diag(
                        words,
                        at,
                        format!(
                            "{} is not an operation OpSpecConstantOp may perform in OpenCL",
                            opname(g.opcode)
                        ),
                    )])
                }
                None => {
                    return Err(vec![raw_diag(
                        words,
                        at,
                        format!("OpSpecConstantOp with unknown opcode {inner}"),
                    )])
                }
            }
            first = (first & 0xffff_0000) | Op::SpecConstantComposite as u32;
        }
        bytes.extend_from_slice(&first.to_le_bytes());
        for w in &words[at + 1..at + count] {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        at += count;
    }

    let mut c = Collector {
        words,
        at: 5,
        insts: Vec::with_capacity(words.len() / 4),
        error: None,
    };
    if let Err(state) = parse_bytes(&bytes, &mut c) {
        let at = c.at;
        let rule = match (c.error.take(), state) {
            (Some(e), _) => e,
            (None, State::OpcodeUnknown(_, _, op)) => format!("unknown opcode {op}"),
            (None, State::OperandExpected(..)) => {
                "the instruction has fewer operands than its grammar requires".to_string()
            }
            (None, State::OperandExceeded(..)) => {
                "the instruction has more operands than its grammar allows".to_string()
            }
            (None, State::TypeUnsupported(..)) => "a literal of a type whose width clift does not know".to_string(),
            (None, State::OperandError(e)) => format!("an operand does not decode: {}", byte_to_word(&e.to_string())),
            (None, other) => format!("the instruction does not decode: {}", byte_to_word(&other.to_string())),
        };
        return Err(vec![raw_diag(words, at, rule)]);
    }

    let mut b = Builder::new(words, bound, c.insts);
    b.run();
    Ok(b)
}

/// Parses a module's words (host order, as [`crate::words`] returns them).
/// Any problem becomes a diagnostic; nothing panics.
pub fn parse(words: &[u32]) -> Result<Module, Vec<Diagnostic>> {
    built(words)?.finish()
}

/// The first reference of a decodable module to an id it never defines,
/// or defines only later where the reference must come after the
/// definition (module-level instructions, decorations): what a translator
/// that lost track of its ids writes. `None` for a module whose
/// references are sound, or that does not decode.
pub fn dangling_reference(words: &[u32]) -> Option<Diagnostic> {
    built(words).ok()?.dangling
}

/// Rewrites rspirv's "at index N" (a byte offset) as a word offset.
fn byte_to_word(msg: &str) -> String {
    if let Some(p) = msg.find(" at index ") {
        let rest = &msg[p + 10..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(n) = digits.parse::<usize>() {
            return format!("{} at word {}{}", &msg[..p], n / 4, &rest[digits.len()..]);
        }
    }
    msg.to_string()
}

/// Receives rspirv's decoded instructions and attaches word offsets by
/// walking the (already checked) word stream in step.
struct Collector<'w> {
    words: &'w [u32],
    at: usize,
    insts: Vec<Inst>,
    error: Option<String>,
}

impl Consumer for Collector<'_> {
    fn initialize(&mut self) -> Action {
        Action::Continue
    }
    fn finalize(&mut self) -> Action {
        Action::Continue
    }
    fn consume_header(&mut self, _: ModuleHeader) -> Action {
        Action::Continue
    }
    fn consume_instruction(&mut self, inst: dr::Instruction) -> Action {
        let at = self.at;
        let Some(&first) = self.words.get(at) else {
            self.error = Some("the decoder and the word stream disagree".into());
            return Action::Stop;
        };
        let count = (first >> 16) as usize;
        let mut i = Inst {
            offset: at as u32,
            op: inst.class.opcode,
            result_type: inst.result_type,
            result_id: inst.result_id,
            operands: inst.operands,
        };
        if first & 0xffff == Op::SpecConstantOp as u32 {
            match spec_constant_op(self.words.get(at + 3..at + count).unwrap_or(&[])) {
                Ok(operands) => {
                    i.op = Op::SpecConstantOp;
                    i.operands = operands;
                }
                Err(e) => {
                    self.error = Some(e);
                    return Action::Stop;
                }
            }
        }
        self.insts.push(i);
        self.at += count.max(1);
        Action::Continue
    }
}

/// Decodes OpSpecConstantOp's words after the result id: the operation's
/// opcode, then its operands by its grammar (all ids or literal integers).
fn spec_constant_op(words: &[u32]) -> Result<Vec<Operand>, String> {
    let Some((&code, rest)) = words.split_first() else {
        return Err("OpSpecConstantOp without an operation".into());
    };
    let g = INSTRUCTION_TABLE
        .lookup_opcode(code)
        .ok_or_else(|| format!("OpSpecConstantOp with unknown opcode {code}"))?;
    let kinds: Vec<_> = g
        .operands
        .iter()
        .filter(|o| !matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult))
        .collect();
    let mut out = Vec::with_capacity(words.len());
    out.push(Operand::LiteralSpecConstantOpInteger(g.opcode));
    let mut k = 0;
    for &w in rest {
        let Some(lo) = kinds.get(k) else {
            return Err(format!(
                "OpSpecConstantOp {} has more operands than the operation takes",
                opname(g.opcode)
            ));
        };
        out.push(match lo.kind {
            OperandKind::LiteralInteger => Operand::LiteralBit32(w),
            _ => Operand::IdRef(w),
        });
        if lo.quantifier != OperandQuantifier::ZeroOrMore {
            k += 1;
        }
    }
    if kinds
        .get(k..)
        .unwrap_or(&[])
        .iter()
        .any(|o| o.quantifier == OperandQuantifier::One)
    {
        return Err(format!(
            "OpSpecConstantOp {} has fewer operands than the operation takes",
            opname(g.opcode)
        ));
    }
    Ok(out)
}

/// The function being read.
struct Open {
    /// Index in `Module::functions`.
    func: u32,
    /// Parameters may still follow.
    params_open: bool,
    /// The block being read (index in the function's blocks).
    block: Option<u32>,
}

struct Builder {
    m: Module,
    diags: Vec<Diagnostic>,
    section: Section,
    open: Option<Open>,
    /// (group, target, member, inst) of OpGroupDecorate / OpGroupMemberDecorate.
    group_apps: Vec<(Id, Id, u32, u32)>,
    type_keys: HashMap<Vec<u32>, Id>,
    /// The first reference to an undefined (or not yet defined) id.
    dangling: Option<Diagnostic>,
}

impl Builder {
    fn new(words: &[u32], bound: u32, insts: Vec<Inst>) -> Self {
        let version = words[1];
        let m = Module {
            version: (((version >> 16) & 0xff) as u8, ((version >> 8) & 0xff) as u8),
            generator: words[2],
            bound,
            insts,
            ids: vec![IdInfo::default(); bound as usize],
            ..Module::default()
        };
        Builder {
            m,
            diags: Vec::new(),
            section: Section::Capability,
            open: None,
            group_apps: Vec::new(),
            type_keys: HashMap::new(),
            dangling: None,
        }
    }

    fn err(&mut self, i: u32, rule: impl Into<String>) {
        let d = self.m.diag(i, rule);
        self.diags.push(d);
    }

    /// An error that is a reference to an undefined or later id.
    fn err_dangling(&mut self, i: u32, rule: String) {
        self.err(i, rule);
        if self.dangling.is_none() {
            self.dangling = self.diags.last().cloned();
        }
    }

    fn run(&mut self) {
        for i in 0..self.m.insts.len() as u32 {
            self.inst(i);
        }
        if let Some(open) = self.open.take() {
            let f = &self.m.functions[open.func as usize];
            let (id, at) = (f.id, f.inst);
            self.err(at, format!("function %{id} has no OpFunctionEnd"));
        }
        self.resolve_groups();
        self.m.decorations.sort_by_key(|d| d.target);
        for c in 0..self.m.constants.len() {
            let id = self.m.constants[c].id;
            let spec = self
                .m
                .decoration(id, Decoration::SpecId)
                .and_then(|d| match self.m.deco_params(d).first() {
                    Some(Operand::LiteralBit32(v)) => Some(*v),
                    _ => None,
                });
            self.m.constants[c].spec_id = spec;
        }
        self.check_defined();
    }

    fn finish(self) -> Result<Module, Vec<Diagnostic>> {
        if self.diags.is_empty() {
            Ok(self.m)
        } else {
            let mut d = self.diags;
            for x in &mut d {
                if x.name.is_none() {
                    x.name = x.result_id.and_then(|r| self.m.name(r)).map(str::to_owned);
                }
            }
            d.sort_by_key(|x| x.word_offset);
            d.truncate(crate::validate::MAX_DIAGNOSTICS);
            Err(d)
        }
    }

    /// Every id operand (and result type) names an id the module defines.
    fn check_defined(&mut self) {
        let mut bad = Vec::new();
        for (i, inst) in self.m.insts.iter().enumerate() {
            let uses = inst.result_type.into_iter().chain(inst.id_operands().map(|(_, id)| id));
            for id in uses {
                if self.m.info(id).is_none_or(|x| x.def == NONE) {
                    bad.push((i as u32, id));
                    break;
                }
            }
            if bad.len() >= crate::validate::MAX_DIAGNOSTICS {
                break;
            }
        }
        for (i, id) in bad {
            let rule = if id >= self.m.bound {
                format!("%{id} is not below the module's id bound {}", self.m.bound)
            } else if self.m.kind(id) == IdKind::ForwardPointer {
                format!("%{id} is declared by OpTypeForwardPointer but never defined by OpTypePointer")
            } else {
                format!("%{id} is used but never defined")
            };
            self.err_dangling(i, rule);
        }
    }

    fn resolve_groups(&mut self) {
        if self.group_apps.is_empty() {
            return;
        }
        let mut by_group: HashMap<Id, Vec<Deco>> = HashMap::new();
        for d in &self.m.decorations {
            if self.m.kind(d.target) == IdKind::DecorationGroup {
                by_group.entry(d.target).or_default().push(*d);
            }
        }
        let apps = std::mem::take(&mut self.group_apps);
        for (group, target, member, inst) in apps {
            if self.m.kind(group) != IdKind::DecorationGroup {
                self.err(inst, format!("%{group} is not an OpDecorationGroup"));
                continue;
            }
            if let Some(list) = by_group.get(&group) {
                if self.m.decorations.len() + list.len() > MAX_DECORATIONS {
                    self.err(
                        inst,
                        format!("decoration groups apply more than {MAX_DECORATIONS} decorations"),
                    );
                    return;
                }
                for d in list {
                    self.m.decorations.push(Deco { target, member, ..*d });
                }
            }
        }
        self.m.decorations.retain(|d| {
            self.m
                .ids
                .get(d.target as usize)
                .is_some_and(|x| x.kind != IdKind::DecorationGroup)
        });
    }

    fn inst(&mut self, i: u32) {
        let (op, result_id) = {
            let inst = &self.m.insts[i as usize];
            (inst.op, inst.result_id)
        };
        match ops::support(op) {
            Support::Yes => {}
            Support::Since(maj, min) => {
                if self.m.version < (maj, min) {
                    let (a, b) = self.m.version;
                    self.err(i, format!("{} needs SPIR-V {maj}.{min}; the module is SPIR-V {a}.{b}", opname(op)));
                }
            }
            Support::Image => self.err(
                i,
                format!(
                    "{} is not supported: OpenCL kernels read, write, sample (with an explicit level of detail 0) and query images only",
                    opname(op)
                ),
            ),
            Support::No => self.err(i, format!("{} is not supported by clift", opname(op))),
        }

        // Placement in the logical layout.
        let place = ops::place(op);
        let in_function = self.open.is_some();
        match place {
            Place::Anywhere => {}
            Place::Module(sec) => {
                if in_function {
                    self.err(i, format!("{} is not allowed inside a function", opname(op)));
                    return;
                }
                self.order(i, sec);
            }
            Place::GlobalOrBody => {
                if !in_function {
                    self.order(i, Section::Global);
                }
            }
            Place::Body => {
                if !in_function {
                    self.err(i, format!("{} is only allowed inside a function body", opname(op)));
                    self.define(i, result_id, IdKind::Value);
                    return;
                }
            }
            Place::Structure => {}
        }
        if in_function && !matches!(place, Place::Module(_)) {
            self.body_inst(i);
            return;
        }
        // Module level.
        if op == Op::Function {
            self.order(i, Section::Function);
            self.begin_function(i);
            return;
        }
        if matches!(op, Op::FunctionParameter | Op::FunctionEnd | Op::Label) {
            self.err(i, format!("{} outside a function", opname(op)));
            self.define(i, result_id, IdKind::Value);
            return;
        }
        if matches!(place, Place::Module(Section::Global) | Place::GlobalOrBody) {
            self.check_defined_before(i);
        }
        self.module_inst(i);
    }

    /// Module-level instructions come in section order.
    fn order(&mut self, i: u32, sec: Section) {
        if sec < self.section {
            let op = self.m.insts[i as usize].op;
            let rule = format!(
                "{} is out of the module's layout order: {} must come before {}",
                opname(op),
                sec.describe(),
                self.section.describe()
            );
            self.err(i, rule);
        } else {
            self.section = sec;
        }
    }

    /// Operands of types, constants and module variables name ids defined
    /// earlier (a pointer type may be declared ahead by OpTypeForwardPointer).
    fn check_defined_before(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let mut bad = None;
        for id in inst.result_type.into_iter().chain(inst.id_operands().map(|(_, id)| id)) {
            match self.m.info(id) {
                Some(x) if x.def != NONE || x.kind == IdKind::ForwardPointer => {}
                _ => {
                    bad = Some(id);
                    break;
                }
            }
        }
        if inst.op == Op::TypeForwardPointer {
            bad = None;
        }
        if let Some(id) = bad {
            let rule = if id >= self.m.bound {
                format!("%{id} is not below the module's id bound {}", self.m.bound)
            } else {
                format!("%{id} is used before it is defined (module-level instructions may only refer to earlier ids)")
            };
            self.err_dangling(i, rule);
        }
    }

    /// Registers `id` as defined by instruction `i`.
    fn define(&mut self, i: u32, id: Option<Id>, kind: IdKind) -> bool {
        let Some(id) = id else { return false };
        if id == 0 || id >= self.m.bound {
            self.err(
                i,
                format!("result id %{id} is not in 1..{} (the module's id bound)", self.m.bound),
            );
            return false;
        }
        let prev = self.m.ids[id as usize];
        let op = self.m.insts[i as usize].op;
        let forward_ok = prev.kind == IdKind::ForwardPointer && op == Op::TypePointer;
        if prev.def != NONE || (prev.kind != IdKind::Undefined && !forward_ok) {
            let first = self.m.insts.get(prev.def as usize).map_or(0, |x| x.offset);
            self.err(i, format!("%{id} is defined more than once (first at word {first})"));
            return false;
        }
        let (func, block) = match &self.open {
            Some(o) => (o.func, o.block.unwrap_or(NONE)),
            None => (NONE, NONE),
        };
        let x = &mut self.m.ids[id as usize];
        x.kind = kind;
        x.def = i;
        x.func = func;
        x.block = block;
        true
    }

    fn begin_function(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let (id, ret, fn_type) = (
            inst.result_id.unwrap_or(0),
            inst.result_type.unwrap_or(0),
            inst.id(1).unwrap_or(0),
        );
        let index = self.m.functions.len() as u32;
        if self.define(i, Some(id), IdKind::Function) {
            self.m.ids[id as usize].index = index;
        }
        self.m.functions.push(Function {
            id,
            inst: i,
            end: NONE,
            ret,
            fn_type,
            params: Vec::new(),
            blocks: Vec::new(),
            cfg: Cfg::default(),
        });
        self.open = Some(Open {
            func: index,
            params_open: true,
            block: None,
        });
    }

    /// An instruction inside OpFunction ... OpFunctionEnd.
    fn body_inst(&mut self, i: u32) {
        let (op, result_id) = {
            let inst = &self.m.insts[i as usize];
            (inst.op, inst.result_id)
        };
        let Some(open) = self.open.as_mut() else { return };
        let func = open.func;
        match op {
            Op::Function => {
                let id = self.m.functions[func as usize].id;
                self.err(i, format!("OpFunction inside function %{id} (missing OpFunctionEnd)"));
            }
            Op::FunctionParameter => {
                if !open.params_open {
                    self.err(
                        i,
                        "OpFunctionParameter must directly follow OpFunction or another parameter",
                    );
                }
                let n = self.m.functions[func as usize].params.len() as u32;
                if self.define(i, result_id, IdKind::Param) {
                    let id = result_id.unwrap_or(0);
                    self.m.ids[id as usize].index = n;
                    self.m.functions[func as usize].params.push(id);
                }
            }
            Op::FunctionEnd => {
                if let Some(b) = open.block {
                    let label = self.m.functions[func as usize].blocks[b as usize].label;
                    self.err(i, format!("block %{label} is not terminated: OpFunctionEnd follows"));
                }
                self.m.functions[func as usize].end = i;
                self.open = None;
            }
            Op::Label => {
                open.params_open = false;
                if let Some(b) = open.block {
                    let label = self.m.functions[func as usize].blocks[b as usize].label;
                    let new = result_id.unwrap_or(0);
                    self.err(i, format!("block %{label} is not terminated: OpLabel %{new} follows"));
                }
                let f = &mut self.m.functions[func as usize];
                let b = f.blocks.len() as u32;
                f.blocks.push(Block {
                    label: result_id.unwrap_or(0),
                    start: i,
                    end: NONE,
                });
                if let Some(o) = self.open.as_mut() {
                    o.block = Some(b);
                }
                self.define(i, result_id, IdKind::Label);
            }
            _ => {
                open.params_open = false;
                let Some(b) = open.block else {
                    if !matches!(op, Op::Line | Op::NoLine | Op::Nop) {
                        self.err(
                            i,
                            format!("{} is outside a block (every block starts with OpLabel)", opname(op)),
                        );
                        self.define(i, result_id, IdKind::Value);
                    }
                    return;
                };
                if ops::is_terminator(op) {
                    self.m.functions[func as usize].blocks[b as usize].end = i;
                    if let Some(o) = self.open.as_mut() {
                        o.block = None;
                    }
                }
                if op == Op::ExtInst {
                    self.ext_inst(i);
                }
                let kind = if op == Op::Undef { IdKind::Undef } else { IdKind::Value };
                self.define(i, result_id, kind);
            }
        }
    }

    /// OpenCL.std operands the extended grammar makes literals become
    /// `LiteralBit32`, and the operand count is checked against it.
    fn ext_inst(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let (Some(set), Some(number)) = (inst.id(0), inst.lit(1)) else {
            return;
        };
        let is_std = self.m.info(set).is_some_and(|x| x.kind == IdKind::ExtInstImport)
            && self.m.def(set).and_then(|d| d.string(0)) == Some("OpenCL.std");
        if !is_std {
            return;
        }
        let Some(g) = rspirv::grammar::OPENCL_STD_100_INSTRUCTION_TABLE.lookup_opcode(number) else {
            self.err(i, format!("OpenCL.std has no extended instruction {number}"));
            return;
        };
        let args = inst.operands.len() - 2;
        let required = g
            .operands
            .iter()
            .filter(|o| o.quantifier == OperandQuantifier::One)
            .count();
        let variadic = g.operands.iter().any(|o| o.quantifier != OperandQuantifier::One);
        if args < required || (!variadic && args > g.operands.len()) {
            let rule = format!(
                "OpenCL.std {} takes {} operands, this has {args}",
                g.opname,
                g.operands.len()
            );
            self.err(i, rule);
            return;
        }
        let literal_kinds: Vec<(usize, OperandKind)> = g
            .operands
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind != OperandKind::IdRef && o.quantifier == OperandQuantifier::One)
            .map(|(k, o)| (k + 2, o.kind))
            .collect();
        let mut bad = None;
        let inst = &mut self.m.insts[i as usize];
        for (k, kind) in literal_kinds {
            if let Some(Operand::IdRef(v)) = inst.operands.get(k) {
                let v = *v;
                inst.operands[k] = match kind {
                    OperandKind::FPRoundingMode => match spirv::FPRoundingMode::from_u32(v) {
                        Some(r) => Operand::FPRoundingMode(r),
                        None => {
                            bad = Some(format!("OpenCL.std {}: {v} is not a rounding mode", g.opname));
                            Operand::LiteralBit32(v)
                        }
                    },
                    _ => Operand::LiteralBit32(v),
                };
            }
        }
        if let Some(rule) = bad {
            self.err(i, rule);
        }
    }

    /// A module-level instruction outside functions.
    fn module_inst(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let op = inst.op;
        let result_id = inst.result_id;
        match op {
            super::opsets::module_header!() => self.header_inst(i),
            super::opsets::annotations!() => self.annotation(i),
            Op::String => {
                self.define(i, result_id, IdKind::String);
            }
            Op::Name => {
                if let Some(t) = inst.id(0) {
                    if let Some(x) = self.m.ids.get_mut(t as usize) {
                        if x.name == NONE {
                            x.name = i;
                        }
                    }
                }
            }
            Op::Variable => {
                let storage = match inst.operands.first() {
                    Some(Operand::StorageClass(s)) => *s,
                    _ => spirv::StorageClass::Function,
                };
                let g = Global {
                    id: result_id.unwrap_or(0),
                    ty: inst.result_type.unwrap_or(0),
                    storage,
                    init: inst.id(1),
                    inst: i,
                };
                let index = self.m.globals.len() as u32;
                if self.define(i, result_id, IdKind::Global) {
                    self.m.ids[g.id as usize].index = index;
                    self.m.globals.push(g);
                }
            }
            Op::Undef => {
                self.define(i, result_id, IdKind::Undef);
            }
            _ if ops::is_type(op) => self.type_decl(i),
            _ if ops::is_constant(op) => self.constant(i),
            _ => {
                // OpSource, OpSourceExtension, OpMemberName, OpModuleProcessed,
                // OpNop, OpLine...: nothing to record.
                if result_id.is_some() {
                    self.define(i, result_id, IdKind::Value);
                }
            }
        }
    }

    /// Capabilities, extensions, instruction set imports, the memory model, entry points and execution modes.
    fn header_inst(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let result_id = inst.result_id;
        match inst.op {
            Op::Capability => {
                if let Some(Operand::Capability(c)) = inst.operands.first() {
                    let c = *c;
                    self.m.capabilities.push((c, i));
                }
            }
            Op::Extension => self.m.extensions.push(i),
            Op::ExtInstImport => {
                let name = inst.string(0).unwrap_or("").to_string();
                let index = self.m.ext_imports.len() as u32;
                if self.define(i, result_id, IdKind::ExtInstImport) {
                    self.m.ids[result_id.unwrap_or(0) as usize].index = index;
                }
                self.m.ext_imports.push(ExtImport {
                    id: result_id.unwrap_or(0),
                    name,
                    inst: i,
                });
            }
            Op::MemoryModel => {
                if let (Some(Operand::AddressingModel(a)), Some(Operand::MemoryModel(mm))) =
                    (inst.operands.first(), inst.operands.get(1))
                {
                    let (a, mm) = (*a, *mm);
                    if self.m.memory_model.is_some() {
                        self.err(i, "the module has more than one OpMemoryModel");
                    } else {
                        self.m.memory_model = Some((i, a, mm));
                    }
                }
            }
            Op::EntryPoint => {
                if let (Some(Operand::ExecutionModel(model)), Some(function), Some(name)) =
                    (inst.operands.first(), inst.id(1), inst.string(2))
                {
                    let interface = inst.id_operands().filter(|(k, _)| *k >= 3).map(|(_, id)| id).collect();
                    let ep = EntryPoint {
                        inst: i,
                        model: *model,
                        function,
                        name: name.to_string(),
                        interface,
                    };
                    self.m.entry_points.push(ep);
                }
            }
            Op::ExecutionMode | Op::ExecutionModeId => {
                if let (Some(target), Some(Operand::ExecutionMode(mode))) = (inst.id(0), inst.operands.get(1)) {
                    let args = inst.operands[2..]
                        .iter()
                        .filter_map(|o| match o {
                            Operand::LiteralBit32(v) | Operand::IdRef(v) => Some(*v),
                            _ => None,
                        })
                        .collect();
                    let em = ExecMode {
                        inst: i,
                        target,
                        mode: *mode,
                        args,
                    };
                    self.m.exec_modes.push(em);
                }
            }
            _ => {}
        }
    }

    /// Decorations, direct or through decoration groups.
    fn annotation(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let result_id = inst.result_id;
        match inst.op {
            Op::Decorate | Op::DecorateId => {
                if let (Some(target), Some(Operand::Decoration(kind))) = (inst.id(0), inst.operands.get(1)) {
                    let d = Deco {
                        target,
                        member: NONE,
                        kind: *kind,
                        inst: i,
                        params: 2,
                    };
                    self.m.decorations.push(d);
                }
            }
            Op::MemberDecorate => {
                if let (Some(target), Some(member), Some(Operand::Decoration(kind))) =
                    (inst.id(0), inst.lit(1), inst.operands.get(2))
                {
                    let d = Deco {
                        target,
                        member,
                        kind: *kind,
                        inst: i,
                        params: 3,
                    };
                    self.m.decorations.push(d);
                }
            }
            Op::DecorationGroup => {
                self.define(i, result_id, IdKind::DecorationGroup);
            }
            Op::GroupDecorate => {
                let group = inst.id(0).unwrap_or(0);
                let apps: Vec<_> = inst.id_operands().skip(1).map(|(_, t)| (group, t, NONE, i)).collect();
                self.group_apps.extend(apps);
            }
            Op::GroupMemberDecorate => {
                let group = inst.id(0).unwrap_or(0);
                let mut apps = Vec::new();
                let mut k = 1;
                while let (Some(t), Some(member)) = (inst.id(k), inst.lit(k + 1)) {
                    apps.push((group, t, member, i));
                    k += 2;
                }
                self.group_apps.extend(apps);
            }
            _ => {}
        }
    }

    fn type_decl(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let op = inst.op;
        if op == Op::TypeForwardPointer {
            if let Some(p) = inst.id(0) {
                match self.m.ids.get_mut(p as usize) {
                    Some(x) if x.kind == IdKind::Undefined => x.kind = IdKind::ForwardPointer,
                    Some(_) => self.err(i, format!("OpTypeForwardPointer names %{p}, which is already declared")),
                    None => self.err(i, format!("%{p} is not below the module's id bound {}", self.m.bound)),
                }
            }
            return;
        }
        let ty = match op {
            Op::TypeVoid => Type::Void,
            Op::TypeBool => Type::Bool,
            Op::TypeInt => Type::Int {
                width: inst.lit(0).unwrap_or(0),
                signed: inst.lit(1).unwrap_or(0) != 0,
            },
            Op::TypeFloat => Type::Float {
                width: inst.lit(0).unwrap_or(0),
            },
            Op::TypeVector => Type::Vector {
                component: inst.id(0).unwrap_or(0),
                count: inst.lit(1).unwrap_or(0),
            },
            Op::TypeArray => Type::Array {
                element: inst.id(0).unwrap_or(0),
                length: inst.id(1).unwrap_or(0),
            },
            Op::TypeStruct => Type::Struct {
                members: inst.id_operands().map(|(_, id)| id).collect(),
            },
            Op::TypeOpaque => Type::Opaque {
                name: inst.string(0).unwrap_or("").to_string(),
            },
            Op::TypePointer => match (inst.operands.first(), inst.id(1)) {
                (Some(Operand::StorageClass(s)), Some(p)) => Type::Pointer {
                    storage: *s,
                    pointee: p,
                },
                _ => Type::Other(op),
            },
            Op::TypeFunction => {
                let mut ids = inst.id_operands().map(|(_, id)| id);
                let ret = ids.next().unwrap_or(0);
                Type::Function {
                    ret,
                    params: ids.collect(),
                }
            }
            Op::TypeEvent => Type::Event,
            Op::TypeDeviceEvent => Type::DeviceEvent,
            Op::TypeReserveId => Type::ReserveId,
            Op::TypeQueue => Type::Queue,
            Op::TypePipe => match inst.operands.first() {
                Some(Operand::AccessQualifier(a)) => Type::Pipe { access: *a },
                _ => Type::Other(op),
            },
            Op::TypePipeStorage => Type::PipeStorage,
            Op::TypeSampler => Type::Sampler,
            Op::TypeImage => match inst.operands.as_slice() {
                [Operand::IdRef(sampled_type), Operand::Dim(dim), Operand::LiteralBit32(depth), Operand::LiteralBit32(arrayed), Operand::LiteralBit32(ms), Operand::LiteralBit32(sampled), Operand::ImageFormat(format), rest @ ..] => {
                    Type::Image(ImageType {
                        sampled_type: *sampled_type,
                        dim: *dim,
                        depth: *depth,
                        arrayed: *arrayed != 0,
                        multisampled: *ms != 0,
                        sampled: *sampled,
                        format: *format,
                        access: match rest.first() {
                            Some(Operand::AccessQualifier(a)) => Some(*a),
                            _ => None,
                        },
                    })
                }
                _ => Type::Other(op),
            },
            Op::TypeSampledImage => match inst.id(0) {
                Some(image) => Type::SampledImage { image },
                None => Type::Other(op),
            },
            Op::TypeNamedBarrier => Type::NamedBarrier,
            _ => Type::Other(op),
        };
        let Some(id) = inst.result_id else { return };
        // Structurally identical non-struct types are the same type.
        let canon = if matches!(ty, Type::Struct { .. } | Type::Opaque { .. } | Type::Other(_)) {
            id
        } else {
            let mut key = Vec::with_capacity(inst.operands.len() + 1);
            key.push(op as u32);
            for o in &inst.operands {
                key.push(match o {
                    Operand::IdRef(x) => self.m.canon(*x),
                    Operand::LiteralBit32(x) => *x,
                    Operand::StorageClass(s) => *s as u32,
                    Operand::AccessQualifier(a) => *a as u32,
                    Operand::Dim(d) => *d as u32,
                    Operand::ImageFormat(f) => *f as u32,
                    _ => u32::MAX,
                });
            }
            *self.type_keys.entry(key).or_insert(id)
        };
        let index = self.m.types.len() as u32;
        if self.define(i, Some(id), IdKind::Type) {
            self.m.ids[id as usize].index = index;
            self.m.types.push(TypeDecl {
                id,
                inst: i,
                ty,
                canon,
                layout: None,
            });
        }
    }

    fn constant(&mut self, i: u32) {
        let inst = &self.m.insts[i as usize];
        let value = match inst.op {
            Op::ConstantTrue | Op::SpecConstantTrue => ConstValue::Bool(true),
            Op::ConstantFalse | Op::SpecConstantFalse => ConstValue::Bool(false),
            Op::Constant | Op::SpecConstant => {
                let width = inst.result_type.and_then(|t| match self.m.ty(t) {
                    Some(Type::Int { width, .. }) | Some(Type::Float { width }) => Some(*width),
                    _ => None,
                });
                let raw = match inst.operands.first() {
                    Some(Operand::LiteralBit32(v)) => u64::from(*v),
                    Some(Operand::LiteralBit64(v)) => *v,
                    _ => 0,
                };
                ConstValue::Scalar(match width {
                    Some(w) if w < 64 => raw & ((1u64 << w) - 1),
                    _ => raw,
                })
            }
            Op::ConstantComposite | Op::SpecConstantComposite => {
                ConstValue::Composite(inst.id_operands().map(|(_, id)| id).collect())
            }
            Op::ConstantNull => ConstValue::Null,
            _ => ConstValue::Expr,
        };
        let (id, ty) = (inst.result_id.unwrap_or(0), inst.result_type.unwrap_or(0));
        let index = self.m.constants.len() as u32;
        if self.define(i, inst.result_id, IdKind::Constant) {
            self.m.ids[id as usize].index = index;
            self.m.constants.push(Constant {
                id,
                ty,
                inst: i,
                value,
                spec_id: None,
            });
        }
    }
}
