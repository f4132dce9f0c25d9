//! The parsed module: every instruction with its word offset, and tables
//! keyed by id (types, constants, globals, functions and their blocks, names,
//! decorations) that the validator and the lowering consume.
//!
//! Instructions live in one arena ([`Module::insts`]) in module order; every
//! other table refers to them by index (`u32`). Ids index [`Module::ids`]
//! directly (the parser caps the id bound), and an [`IdInfo`] says what kind
//! of thing the id is and where its arena entry is.

use rspirv::dr::Operand;
use spirv::{
    AccessQualifier, AddressingModel, Capability, Decoration, ExecutionMode, ExecutionModel, MemoryModel, Op,
    StorageClass,
};

use crate::error::Diagnostic;

/// A SPIR-V result id.
pub type Id = u32;

/// "No index": the sentinel of every optional `u32` index in these tables.
pub const NONE: u32 = u32::MAX;

/// One instruction, as decoded with the SPIR-V grammar.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// Offset in words from the start of the module.
    pub offset: u32,
    /// The opcode.
    pub op: Op,
    /// The result type id, if the opcode has one.
    pub result_type: Option<Id>,
    /// The result id, if the opcode has one.
    pub result_id: Option<Id>,
    /// The other operands, decoded by kind. `OpSpecConstantOp` holds
    /// `LiteralSpecConstantOpInteger(op)` then the operation's operands;
    /// `OpenCL.std` `OpExtInst` operands that are literals in the extended
    /// grammar (vloadn's `n`) are `LiteralBit32`.
    pub operands: Vec<Operand>,
}

impl Inst {
    /// Operand `i` as an id (IdRef, IdScope or IdMemorySemantics).
    pub fn id(&self, i: usize) -> Option<Id> {
        match self.operands.get(i)? {
            Operand::IdRef(x) | Operand::IdScope(x) | Operand::IdMemorySemantics(x) => Some(*x),
            _ => None,
        }
    }

    /// Operand `i` as a 32-bit literal.
    pub fn lit(&self, i: usize) -> Option<u32> {
        match self.operands.get(i)? {
            Operand::LiteralBit32(x) | Operand::LiteralExtInstInteger(x) => Some(*x),
            _ => None,
        }
    }

    /// Operand `i` as a literal string.
    pub fn string(&self, i: usize) -> Option<&str> {
        match self.operands.get(i)? {
            Operand::LiteralString(s) => Some(s),
            _ => None,
        }
    }

    /// Every id operand with its operand index (not the result type).
    pub fn id_operands(&self) -> impl Iterator<Item = (usize, Id)> + '_ {
        self.operands.iter().enumerate().filter_map(|(i, o)| match o {
            Operand::IdRef(x) | Operand::IdScope(x) | Operand::IdMemorySemantics(x) => Some((i, *x)),
            _ => None,
        })
    }

    /// Whether the memory operands from operand `from` on say Volatile
    /// (OpLoad: 1, OpStore: 2, OpCopyMemory: 2, OpCopyMemorySized: 3).
    pub fn is_volatile(&self, from: usize) -> bool {
        self.operands
            .iter()
            .skip(from)
            .any(|o| matches!(o, Operand::MemoryAccess(a) if a.contains(spirv::MemoryAccess::VOLATILE)))
    }

    /// The opcode's name, e.g. "OpIAdd".
    pub fn opname(&self) -> String {
        opname(self.op)
    }
}

/// An opcode's name, e.g. "OpIAdd".
pub fn opname(op: Op) -> String {
    format!("Op{op:?}")
}

/// What an id names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IdKind {
    /// Not defined (yet).
    #[default]
    Undefined,
    /// A type; `index` is into [`Module::types`].
    Type,
    /// Declared by OpTypeForwardPointer and not (yet) defined.
    ForwardPointer,
    /// A constant or specialization constant; `index` is into [`Module::constants`].
    Constant,
    /// A module-scope OpVariable; `index` is into [`Module::globals`].
    Global,
    /// OpUndef (module scope or in a block).
    Undef,
    /// An OpFunction; `index` is into [`Module::functions`].
    Function,
    /// An OpFunctionParameter; `index` is the parameter number.
    Param,
    /// An OpLabel; `block` is the block index in `func`.
    Label,
    /// Any other result of an instruction in a block.
    Value,
    /// OpExtInstImport; `index` is into [`Module::ext_imports`].
    ExtInstImport,
    /// OpString.
    String,
    /// OpDecorationGroup.
    DecorationGroup,
}

/// What the module says about one id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdInfo {
    /// What the id names.
    pub kind: IdKind,
    /// Index of the defining instruction in [`Module::insts`], or [`NONE`].
    pub def: u32,
    /// Index of its OpName, or [`NONE`].
    pub name: u32,
    /// Index into the arena of its kind, or [`NONE`].
    pub index: u32,
    /// The function it is defined in (params, labels, values), or [`NONE`].
    pub func: u32,
    /// The block it is defined in (labels, values), or [`NONE`].
    pub block: u32,
}

impl Default for IdInfo {
    fn default() -> Self {
        IdInfo {
            kind: IdKind::Undefined,
            def: NONE,
            name: NONE,
            index: NONE,
            func: NONE,
            block: NONE,
        }
    }
}

/// A type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    Void,
    Bool,
    /// OpTypeInt (OpenCL requires signedness 0).
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        component: Id,
        count: u32,
    },
    /// `length` is the id of a constant.
    Array {
        element: Id,
        length: Id,
    },
    Struct {
        members: Vec<Id>,
    },
    Opaque {
        name: String,
    },
    Pointer {
        storage: StorageClass,
        pointee: Id,
    },
    Function {
        ret: Id,
        params: Vec<Id>,
    },
    Event,
    DeviceEvent,
    ReserveId,
    Queue,
    Pipe {
        access: AccessQualifier,
    },
    PipeStorage,
    Sampler,
    Image(ImageType),
    /// A sampled image of the image type `image`.
    SampledImage {
        image: Id,
    },
    NamedBarrier,
    /// Any other type opcode (rejected by the validator).
    Other(Op),
}

/// An OpTypeImage's operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageType {
    /// The sampled type's id (void in OpenCL).
    pub sampled_type: Id,
    pub dim: spirv::Dim,
    /// 0 not a depth image, 1 a depth image, 2 unknown.
    pub depth: u32,
    pub arrayed: bool,
    pub multisampled: bool,
    /// 0 known at run time, 1 sampled, 2 read/write without sampler.
    pub sampled: u32,
    pub format: spirv::ImageFormat,
    /// The access qualifier (OpenCL requires one).
    pub access: Option<AccessQualifier>,
}

/// One type declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDecl {
    pub id: Id,
    pub inst: u32,
    pub ty: Type,
    /// The first declaration of a structurally identical type (structs are
    /// nominal: their own id). Two type ids denote the same type iff their
    /// `canon` ids are equal.
    pub canon: Id,
    /// OpenCL C size and alignment, filled in by the build once
    /// specialization constants are folded (array lengths may be spec
    /// constants); `None` for types without a size (void, opaque, function...).
    pub layout: Option<Layout>,
}

/// Size and alignment in bytes with the OpenCL C layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
}

/// A constant's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstValue {
    /// OpConstantTrue/False, OpSpecConstantTrue/False, or folded.
    Bool(bool),
    /// An integer or float scalar's bits, zero-extended to 64 bits.
    Scalar(u64),
    /// A vector's components' bits (bools as 0/1); the build turns vector
    /// composites into this once their components are known.
    Vector(Vec<u64>),
    /// A struct or array composite of constant ids.
    Composite(Vec<Id>),
    /// OpConstantNull.
    Null,
    /// Not folded (yet): an OpSpecConstantOp (after the build, only pointer
    /// expressions: access chains, pointer casts and conversions over module
    /// variables and constants, for the lowering to evaluate), an
    /// OpConstantSampler or an OpConstantPipeStorage. Read the instruction.
    Expr,
}

/// One constant or specialization constant.
#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    pub id: Id,
    pub ty: Id,
    pub inst: u32,
    pub value: ConstValue,
    /// The SpecId decoration of a scalar specialization constant.
    pub spec_id: Option<u32>,
}

/// A module-scope OpVariable.
#[derive(Debug, Clone, PartialEq)]
pub struct Global {
    pub id: Id,
    /// The pointer type (the result type).
    pub ty: Id,
    pub storage: StorageClass,
    pub init: Option<Id>,
    pub inst: u32,
}

/// An OpExtInstImport.
#[derive(Debug, Clone, PartialEq)]
pub struct ExtImport {
    pub id: Id,
    pub name: String,
    pub inst: u32,
}

/// A basic block: the instructions `start + 1 ..= end` of [`Module::insts`].
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub label: Id,
    /// Index of the OpLabel.
    pub start: u32,
    /// Index of the terminator.
    pub end: u32,
}

impl Block {
    /// Indexes in [`Module::insts`] of the block's instructions after its
    /// OpLabel, the terminator last.
    pub fn body(&self) -> std::ops::RangeInclusive<u32> {
        self.start + 1..=self.end
    }
}

/// A function's control-flow graph, filled in by the validator. Block
/// numbers index [`Function::blocks`] (0 is the entry block).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cfg {
    pub succs: Vec<Vec<u32>>,
    /// Each predecessor once, in block order.
    pub preds: Vec<Vec<u32>>,
    /// Reachable blocks in reverse postorder (starts with block 0): the order
    /// a lowering should visit blocks in, since the module's block order
    /// need not follow dominance.
    pub rpo: Vec<u32>,
    /// Immediate dominators ([`NONE`] for the entry and unreachable blocks).
    pub idom: Vec<u32>,
    pub reachable: Vec<bool>,
}

/// An OpFunction.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    pub id: Id,
    /// Index of the OpFunction.
    pub inst: u32,
    /// Index of the OpFunctionEnd.
    pub end: u32,
    pub ret: Id,
    pub fn_type: Id,
    pub params: Vec<Id>,
    /// Empty for a declaration (an import).
    pub blocks: Vec<Block>,
    pub cfg: Cfg,
}

/// An OpEntryPoint.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryPoint {
    pub inst: u32,
    pub model: ExecutionModel,
    pub function: Id,
    pub name: String,
    pub interface: Vec<Id>,
}

/// An OpExecutionMode / OpExecutionModeId.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecMode {
    pub inst: u32,
    pub target: Id,
    pub mode: ExecutionMode,
    /// The literal (or, for the *Id modes, id) arguments.
    pub args: Vec<u32>,
}

/// One decoration applied to an id (directly or through a group).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deco {
    pub target: Id,
    /// The member of a struct type ([`NONE`] for the id itself).
    pub member: u32,
    pub kind: Decoration,
    /// The OpDecorate / OpMemberDecorate carrying the parameters.
    pub inst: u32,
    /// Operand index of the first parameter in that instruction.
    pub params: u8,
}

/// A parsed module.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Module {
    /// SPIR-V version (major, minor).
    pub version: (u8, u8),
    pub generator: u32,
    pub bound: u32,
    /// Every instruction, in module order.
    pub insts: Vec<Inst>,
    /// Indexed by id (`ids.len() == bound`).
    pub ids: Vec<IdInfo>,
    /// Declared capabilities with their instruction.
    pub capabilities: Vec<(Capability, u32)>,
    /// OpExtension instructions.
    pub extensions: Vec<u32>,
    pub ext_imports: Vec<ExtImport>,
    /// The OpMemoryModel instruction and its operands.
    pub memory_model: Option<(u32, AddressingModel, MemoryModel)>,
    pub entry_points: Vec<EntryPoint>,
    pub exec_modes: Vec<ExecMode>,
    /// Sorted by target id (stable: module order within a target).
    pub decorations: Vec<Deco>,
    pub types: Vec<TypeDecl>,
    pub constants: Vec<Constant>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
}

impl Module {
    /// What the module says about `id` (None if it is not below the bound).
    pub fn info(&self, id: Id) -> Option<&IdInfo> {
        self.ids.get(id as usize)
    }

    /// What kind of thing `id` is.
    pub fn kind(&self, id: Id) -> IdKind {
        self.info(id).map_or(IdKind::Undefined, |i| i.kind)
    }

    /// The instruction defining `id`.
    pub fn def(&self, id: Id) -> Option<&Inst> {
        let i = self.info(id)?.def;
        self.insts.get(i as usize)
    }

    /// The BuiltIn decoration of module-scope variable `ptr`, if it has one.
    pub fn builtin_var(&self, ptr: Id) -> Option<spirv::BuiltIn> {
        if self.kind(ptr) != IdKind::Global {
            return None;
        }
        match self.deco_params(self.decoration(ptr, Decoration::BuiltIn)?).first() {
            Some(Operand::BuiltIn(b)) => Some(*b),
            _ => None,
        }
    }

    /// The built-in variable value `id` is an OpLoad of, if it is one.
    pub fn loaded_builtin(&self, id: Id) -> Option<spirv::BuiltIn> {
        let def = self.def(id)?;
        if def.op != Op::Load || def.result_id != Some(id) {
            return None;
        }
        self.builtin_var(def.id(0)?)
    }

    /// The OpName of `id`.
    pub fn name(&self, id: Id) -> Option<&str> {
        let n = self.info(id)?.name;
        self.insts.get(n as usize)?.string(1)
    }

    /// The type declaration of type id `id`.
    pub fn type_decl(&self, id: Id) -> Option<&TypeDecl> {
        let info = self.info(id)?;
        if info.kind != IdKind::Type {
            return None;
        }
        self.types.get(info.index as usize)
    }

    /// The type named by type id `id`.
    pub fn ty(&self, id: Id) -> Option<&Type> {
        self.type_decl(id).map(|t| &t.ty)
    }

    /// The canonical id of type `id` (see [`TypeDecl::canon`]); `id` itself
    /// if it is not a type.
    pub fn canon(&self, id: Id) -> Id {
        self.type_decl(id).map_or(id, |t| t.canon)
    }

    /// Whether type ids `a` and `b` denote the same type.
    pub fn same_type(&self, a: Id, b: Id) -> bool {
        a == b || self.canon(a) == self.canon(b)
    }

    /// The result type of value id `id` (constants, variables, parameters,
    /// instruction results).
    pub fn type_of(&self, id: Id) -> Option<Id> {
        let info = self.info(id)?;
        match info.kind {
            IdKind::Constant | IdKind::Global | IdKind::Undef | IdKind::Param | IdKind::Value => {
                self.def(id)?.result_type
            }
            _ => None,
        }
    }

    /// The OpenCL C layout of type `id`.
    pub fn layout(&self, id: Id) -> Option<Layout> {
        self.type_decl(id)?.layout
    }

    /// The constant `id`.
    pub fn constant(&self, id: Id) -> Option<&Constant> {
        let info = self.info(id)?;
        if info.kind != IdKind::Constant {
            return None;
        }
        self.constants.get(info.index as usize)
    }

    /// The value of an integer scalar constant.
    pub fn const_scalar(&self, id: Id) -> Option<u64> {
        match self.constant(id)?.value {
            ConstValue::Scalar(v) => Some(v),
            ConstValue::Null => Some(0),
            _ => None,
        }
    }

    /// The function `id`.
    pub fn function(&self, id: Id) -> Option<&Function> {
        let info = self.info(id)?;
        if info.kind != IdKind::Function {
            return None;
        }
        self.functions.get(info.index as usize)
    }

    /// The module-scope variable `id`.
    pub fn global(&self, id: Id) -> Option<&Global> {
        let info = self.info(id)?;
        if info.kind != IdKind::Global {
            return None;
        }
        self.globals.get(info.index as usize)
    }

    /// Every decoration of `id` (and of its members).
    pub fn decorations(&self, id: Id) -> &[Deco] {
        let lo = self.decorations.partition_point(|d| d.target < id);
        let hi = lo + self.decorations[lo..].partition_point(|d| d.target == id);
        &self.decorations[lo..hi]
    }

    /// The first decoration `kind` on `id` itself (not a member).
    pub fn decoration(&self, id: Id, kind: Decoration) -> Option<&Deco> {
        self.decorations(id).iter().find(|d| d.kind == kind && d.member == NONE)
    }

    /// A decoration's parameters.
    pub fn deco_params(&self, d: &Deco) -> &[Operand] {
        self.insts
            .get(d.inst as usize)
            .and_then(|i| i.operands.get(d.params as usize..))
            .unwrap_or(&[])
    }

    /// Whether the module declares extension `name` (OpExtension).
    pub fn declares_extension(&self, name: &str) -> bool {
        self.extensions
            .iter()
            .any(|&i| self.insts.get(i as usize).and_then(|x| x.string(0)) == Some(name))
    }

    /// Whether the module declares `cap`.
    pub fn has_capability(&self, cap: Capability) -> bool {
        self.capabilities.iter().any(|(c, _)| *c == cap)
    }

    /// A diagnostic at instruction `inst` (its offset, opcode, result id and
    /// the result's OpName).
    pub fn diag(&self, inst: u32, rule: impl Into<String>) -> Diagnostic {
        match self.insts.get(inst as usize) {
            Some(i) => Diagnostic {
                word_offset: i.offset as usize,
                opcode: Some(i.opname()),
                result_id: i.result_id,
                name: i.result_id.and_then(|r| self.name(r)).map(str::to_owned),
                rule: rule.into(),
            },
            None => Diagnostic {
                word_offset: 0,
                opcode: None,
                result_id: None,
                name: None,
                rule: rule.into(),
            },
        }
    }

    /// A diagnostic at the instruction defining `id` (the header if none).
    pub fn diag_id(&self, id: Id, rule: impl Into<String>) -> Diagnostic {
        let inst = self.info(id).map_or(NONE, |i| i.def);
        self.diag(inst, rule)
    }

    /// `%id "name"` or `%id`, for rule texts.
    pub fn show(&self, id: Id) -> String {
        match self.name(id) {
            Some(n) => format!("%{id} \"{n}\""),
            None => format!("%{id}"),
        }
    }

    /// A short description of type `id` for rule texts, e.g. `%5 (32-bit int)`.
    pub fn show_type(&self, id: Id) -> String {
        let d = match self.ty(id) {
            None => return format!("%{id} (not a type)"),
            Some(t) => self.describe(t, 0),
        };
        format!("%{id} ({d})")
    }

    fn describe(&self, t: &Type, depth: u32) -> String {
        if depth > 3 {
            return "...".into();
        }
        let inner = |id: Id| {
            self.ty(id)
                .map_or_else(|| format!("%{id}"), |c| self.describe(c, depth + 1))
        };
        match t {
            Type::Void => "void".into(),
            Type::Bool => "bool".into(),
            Type::Int { width, .. } => format!("{width}-bit int"),
            Type::Float { width } => format!("{width}-bit float"),
            Type::Vector { component, count } => format!("vector of {count} {}", inner(*component)),
            Type::Array { .. } => "array".into(),
            Type::Struct { .. } => "struct".into(),
            Type::Opaque { name } => format!("opaque {name}"),
            Type::Pointer { storage, pointee } => format!("{storage:?} pointer to {}", inner(*pointee)),
            Type::Function { .. } => "function type".into(),
            Type::Event => "event".into(),
            Type::DeviceEvent => "device event".into(),
            Type::ReserveId => "reserve id".into(),
            Type::Queue => "queue".into(),
            Type::Pipe { .. } => "pipe".into(),
            Type::PipeStorage => "pipe storage".into(),
            Type::Sampler => "sampler".into(),
            Type::Image(t) => format!(
                "image ({:?}{}{}{})",
                t.dim,
                if t.arrayed { " array" } else { "" },
                if t.depth == 1 { " depth" } else { "" },
                t.access.map_or(String::new(), |a| format!(", {a:?}"))
            ),
            Type::SampledImage { .. } => "sampled image".into(),
            Type::NamedBarrier => "named barrier".into(),
            Type::Other(op) => opname(*op),
        }
    }

    /// The scalar type of `ty` (itself, or a vector's component) and the
    /// component count (1 for scalars).
    pub fn scalar_of(&self, ty: Id) -> Option<(Id, u32)> {
        match self.ty(ty)? {
            Type::Vector { component, count } => Some((*component, *count)),
            Type::Bool | Type::Int { .. } | Type::Float { .. } => Some((ty, 1)),
            _ => None,
        }
    }

    /// The bit width of integer scalar or vector type `ty`.
    pub fn int_width(&self, ty: Id) -> Option<u32> {
        match self.ty(self.scalar_of(ty)?.0)? {
            Type::Int { width, .. } => Some(*width),
            _ => None,
        }
    }

    /// The bit width of float scalar or vector type `ty`.
    pub fn float_width(&self, ty: Id) -> Option<u32> {
        match self.ty(self.scalar_of(ty)?.0)? {
            Type::Float { width } => Some(*width),
            _ => None,
        }
    }

    /// Whether `ty` is bool or a vector of bool.
    pub fn is_bool(&self, ty: Id) -> bool {
        self.scalar_of(ty)
            .and_then(|(s, _)| self.ty(s))
            .is_some_and(|t| *t == Type::Bool)
    }

    /// A pointer type's storage class and pointee.
    pub fn pointer(&self, ty: Id) -> Option<(StorageClass, Id)> {
        match self.ty(ty)? {
            Type::Pointer { storage, pointee } => Some((*storage, *pointee)),
            _ => None,
        }
    }
}
