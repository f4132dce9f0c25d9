//! Which opcodes clift takes, and where each belongs in a module's logical
//! layout. The operand layouts themselves come from the `rspirv` grammar.

use spirv::Op;

use super::opsets;

/// Whether clift takes an opcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Valid in an OpenCL module for the capabilities clift advertises.
    Yes,
    /// Valid from this SPIR-V version on.
    Since(u8, u8),
    /// An image instruction OpenCL kernels do not use (gathers,
    /// implicit-LOD and projective samples, texel pointers, mipmap and
    /// multisample queries, sparse residency).
    Image,
    /// Not valid for an OpenCL 2.2 device without further capabilities
    /// (shader, ray-tracing, non-uniform groups, later SPIR-V versions...).
    No,
}

/// Whether clift takes `op`. The set is the core instructions of SPIR-V
/// 1.0-1.3 that the OpenCL environment allows with the capabilities clift
/// advertises (Addresses, Float16Buffer, Float16, Float64, Int8, Int16, Int64, Kernel, Linkage,
/// Vector16, GenericPointer, Groups, DeviceEnqueue, Pipes, SubgroupDispatch,
/// PipeStorage, and the GroupNonUniform ones of the cl_khr_subgroup_*
/// extensions but quad operations); the lowering handles exactly this set.
pub fn support(op: Op) -> Support {
    use Op::*;
    match op {
        Nop
        | Undef
        | SourceContinued
        | Source
        | SourceExtension
        | Name
        | MemberName
        | String
        | Line
        | NoLine
        | Extension
        | ExtInstImport
        | ExtInst
        | MemoryModel
        | EntryPoint
        | ExecutionMode
        | Capability
        | TypeVoid
        | TypeBool
        | TypeInt
        | TypeFloat
        | TypeVector
        | TypeArray
        | TypeStruct
        | TypeOpaque
        | TypePointer
        | TypeFunction
        | TypeEvent
        | TypeDeviceEvent
        | TypeReserveId
        | TypeQueue
        | TypePipe
        | TypeForwardPointer
        | ConstantTrue
        | ConstantFalse
        | Constant
        | ConstantComposite
        | ConstantNull
        | SpecConstantTrue
        | SpecConstantFalse
        | SpecConstant
        | SpecConstantComposite
        | SpecConstantOp
        | Function
        | FunctionParameter
        | FunctionEnd
        | FunctionCall
        | Variable
        | Load
        | Store
        | CopyMemory
        | CopyMemorySized
        | AccessChain
        | InBoundsAccessChain
        | PtrAccessChain
        | GenericPtrMemSemantics
        | InBoundsPtrAccessChain
        | Decorate
        | MemberDecorate
        | DecorationGroup
        | GroupDecorate
        | GroupMemberDecorate
        | VectorExtractDynamic
        | VectorInsertDynamic
        | VectorShuffle
        | CompositeConstruct
        | CompositeExtract
        | CompositeInsert
        | CopyObject
        | ConvertFToU
        | ConvertFToS
        | ConvertSToF
        | ConvertUToF
        | UConvert
        | SConvert
        | FConvert
        | ConvertPtrToU
        | SatConvertSToU
        | SatConvertUToS
        | ConvertUToPtr
        | PtrCastToGeneric
        | GenericCastToPtr
        | GenericCastToPtrExplicit
        | Bitcast
        | SNegate
        | FNegate
        | VectorTimesScalar
        | Dot
        | IAddCarry
        | ISubBorrow
        | UMulExtended
        | SMulExtended
        | Any
        | All
        | IsNan
        | IsInf
        | IsFinite
        | IsNormal
        | SignBitSet
        | LessOrGreater
        | Ordered
        | Unordered
        | LogicalNot
        | Select
        | Not
        | BitCount
        | ControlBarrier
        | MemoryBarrier
        | Phi
        | LoopMerge
        | SelectionMerge
        | Label
        | Branch
        | BranchConditional
        | Switch
        | Return
        | ReturnValue
        | Unreachable
        | LifetimeStart
        | LifetimeStop
        | ReadPipe
        | WritePipe
        | ReservedReadPipe
        | ReservedWritePipe
        | ReserveReadPipePackets
        | ReserveWritePipePackets
        | CommitReadPipe
        | CommitWritePipe
        | IsValidReserveId
        | GetNumPipePackets
        | GetMaxPipePackets
        | EnqueueMarker
        | EnqueueKernel
        | GetKernelNDrangeSubGroupCount
        | GetKernelNDrangeMaxSubGroupSize
        | GetKernelWorkGroupSize
        | GetKernelPreferredWorkGroupSizeMultiple
        | RetainEvent
        | ReleaseEvent
        | CreateUserEvent
        | IsValidEvent
        | SetUserEventStatus
        | CaptureEventProfilingInfo
        | GetDefaultQueue
        | BuildNDRange
        | opsets::int_compare!()
        | opsets::float_compare!()
        | opsets::int_arith!()
        | opsets::bitwise!()
        | opsets::shifts!()
        | opsets::atomics!()
        | opsets::group_collectives!()
        | opsets::group_pipes!()
        | opsets::float_arith!()
        | opsets::logical!() => Support::Yes,
        SizeOf
        | ModuleProcessed
        | TypePipeStorage
        | ConstantPipeStorage
        | CreatePipeFromPipeStorage
        | GetKernelLocalSizeForSubgroupCount
        | GetKernelMaxNumSubgroups => Support::Since(1, 1),
        ExecutionModeId | DecorateId => Support::Since(1, 2),
        opsets::non_uniform_collectives!() | opsets::ballot_values!() => Support::Since(1, 3),
        // Images as OpenCL C uses them (read_image*, write_image*, the
        // get_image_* queries, samplers).
        TypeImage | TypeSampler | TypeSampledImage | ConstantSampler | opsets::images!() => Support::Yes,
        _ => {
            if format!("{op:?}").starts_with("Image") {
                Support::Image
            } else {
                Support::No
            }
        }
    }
}

/// Where an instruction belongs in the module's logical layout (SPIR-V 2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    Capability,
    Extension,
    ExtInstImport,
    MemoryModel,
    EntryPoint,
    ExecutionMode,
    Debug,
    Annotation,
    /// Types, constants, module-scope variables, OpUndef.
    Global,
    /// OpFunction and everything in function bodies.
    Function,
}

impl Section {
    /// The section's name for rule texts.
    pub fn describe(self) -> &'static str {
        match self {
            Section::Capability => "capabilities (OpCapability)",
            Section::Extension => "extensions (OpExtension)",
            Section::ExtInstImport => "extended instruction set imports (OpExtInstImport)",
            Section::MemoryModel => "the memory model (OpMemoryModel)",
            Section::EntryPoint => "entry points (OpEntryPoint)",
            Section::ExecutionMode => "execution modes (OpExecutionMode)",
            Section::Debug => "debug instructions (OpString, OpSource, OpName...)",
            Section::Annotation => "annotations (OpDecorate...)",
            Section::Global => "types, constants and module-scope variables",
            Section::Function => "function definitions",
        }
    }
}

/// What kind of place an opcode may appear in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// At module level, in this section.
    Module(Section),
    /// Only inside a function's blocks.
    Body,
    /// In the global section or inside a block (OpVariable, OpUndef).
    GlobalOrBody,
    /// Anywhere (OpNop, OpLine, OpNoLine).
    Anywhere,
    /// OpFunction, OpFunctionParameter, OpFunctionEnd, OpLabel: the function
    /// structure itself.
    Structure,
}

/// Where `op` may appear.
pub fn place(op: Op) -> Place {
    use Op::*;
    match op {
        Nop | Line | NoLine => Place::Anywhere,
        Capability => Place::Module(Section::Capability),
        Extension => Place::Module(Section::Extension),
        ExtInstImport => Place::Module(Section::ExtInstImport),
        MemoryModel => Place::Module(Section::MemoryModel),
        EntryPoint => Place::Module(Section::EntryPoint),
        ExecutionMode | ExecutionModeId => Place::Module(Section::ExecutionMode),
        String | SourceExtension | Source | SourceContinued | Name | MemberName | ModuleProcessed => {
            Place::Module(Section::Debug)
        }
        opsets::annotations!() => Place::Module(Section::Annotation),
        Variable | Undef => Place::GlobalOrBody,
        Function | FunctionParameter | FunctionEnd | Label => Place::Structure,
        _ if is_type(op) || is_constant(op) => Place::Module(Section::Global),
        _ => Place::Body,
    }
}

/// Type-declaring opcodes.
pub fn is_type(op: Op) -> bool {
    let n = op as u32;
    (19..=39).contains(&n) || matches!(op, Op::TypePipeStorage | Op::TypeNamedBarrier)
}

/// Constant-declaring opcodes.
pub fn is_constant(op: Op) -> bool {
    let n = op as u32;
    (41..=52).contains(&n) || op == Op::ConstantPipeStorage
}

/// Block terminators.
pub fn is_terminator(op: Op) -> bool {
    matches!(
        op,
        Op::Branch | Op::BranchConditional | Op::Switch | Op::Return | Op::ReturnValue | Op::Unreachable | Op::Kill
    )
}

/// The operations OpSpecConstantOp may perform in a module with the Kernel
/// capability (SPIR-V 1.0, OpSpecConstantOp).
pub fn spec_op_allowed(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        SConvert
            | FConvert
            | SNegate
            | Not
            | VectorShuffle
            | CompositeExtract
            | CompositeInsert
            | LogicalNot
            | Select
            | ConvertFToS
            | ConvertSToF
            | ConvertFToU
            | ConvertUToF
            | UConvert
            | ConvertPtrToU
            | ConvertUToPtr
            | GenericCastToPtr
            | PtrCastToGeneric
            | Bitcast
            | FNegate
            | AccessChain
            | InBoundsAccessChain
            | PtrAccessChain
            | InBoundsPtrAccessChain
            | opsets::int_compare!()
            | opsets::int_arith!()
            | opsets::bitwise!()
            | opsets::shifts!()
            | opsets::float_arith!()
            | opsets::logical!()
    )
}
