//! Sets of opcodes that several passes name, each written once as a
//! pattern macro: `matches!(op, int_compare!())`, or a `match` arm
//! `atomic_rmw!() => ...`. The validator, the list of opcodes clift takes
//! ([`super::ops::support`]) and the lowering use the same sets, so an
//! opcode added to one is added to all.

/// Integer comparisons with a boolean result.
macro_rules! int_compare {
    () => {
        ::spirv::Op::IEqual
            | ::spirv::Op::INotEqual
            | ::spirv::Op::UGreaterThan
            | ::spirv::Op::SGreaterThan
            | ::spirv::Op::UGreaterThanEqual
            | ::spirv::Op::SGreaterThanEqual
            | ::spirv::Op::ULessThan
            | ::spirv::Op::SLessThan
            | ::spirv::Op::ULessThanEqual
            | ::spirv::Op::SLessThanEqual
    };
}

/// Ordered and unordered floating-point comparisons.
macro_rules! float_compare {
    () => {
        ::spirv::Op::FOrdEqual
            | ::spirv::Op::FUnordEqual
            | ::spirv::Op::FOrdNotEqual
            | ::spirv::Op::FUnordNotEqual
            | ::spirv::Op::FOrdLessThan
            | ::spirv::Op::FUnordLessThan
            | ::spirv::Op::FOrdGreaterThan
            | ::spirv::Op::FUnordGreaterThan
            | ::spirv::Op::FOrdLessThanEqual
            | ::spirv::Op::FUnordLessThanEqual
            | ::spirv::Op::FOrdGreaterThanEqual
            | ::spirv::Op::FUnordGreaterThanEqual
    };
}

/// Integer arithmetic on two operands of the result's type.
macro_rules! int_arith {
    () => {
        ::spirv::Op::IAdd
            | ::spirv::Op::ISub
            | ::spirv::Op::IMul
            | ::spirv::Op::UDiv
            | ::spirv::Op::SDiv
            | ::spirv::Op::UMod
            | ::spirv::Op::SRem
            | ::spirv::Op::SMod
    };
}

/// Floating-point arithmetic on two operands of the result's type.
macro_rules! float_arith {
    () => {
        ::spirv::Op::FAdd
            | ::spirv::Op::FSub
            | ::spirv::Op::FMul
            | ::spirv::Op::FDiv
            | ::spirv::Op::FRem
            | ::spirv::Op::FMod
    };
}

/// Logical operations on two booleans.
macro_rules! logical {
    () => {
        ::spirv::Op::LogicalOr | ::spirv::Op::LogicalAnd | ::spirv::Op::LogicalEqual | ::spirv::Op::LogicalNotEqual
    };
}

/// Bitwise operations on two operands of the result's type.
macro_rules! bitwise {
    () => {
        ::spirv::Op::BitwiseOr | ::spirv::Op::BitwiseXor | ::spirv::Op::BitwiseAnd
    };
}

/// Shifts.
macro_rules! shifts {
    () => {
        ::spirv::Op::ShiftRightLogical | ::spirv::Op::ShiftRightArithmetic | ::spirv::Op::ShiftLeftLogical
    };
}

/// Read-modify-write atomics that combine the memory's value with one
/// operand.
macro_rules! atomic_rmw {
    () => {
        ::spirv::Op::AtomicIAdd
            | ::spirv::Op::AtomicISub
            | ::spirv::Op::AtomicSMin
            | ::spirv::Op::AtomicUMin
            | ::spirv::Op::AtomicSMax
            | ::spirv::Op::AtomicUMax
            | ::spirv::Op::AtomicAnd
            | ::spirv::Op::AtomicOr
            | ::spirv::Op::AtomicXor
    };
}

/// Every atomic instruction of the OpenCL environment.
macro_rules! atomics {
    () => {
        ::spirv::Op::AtomicLoad
            | ::spirv::Op::AtomicStore
            | ::spirv::Op::AtomicExchange
            | ::spirv::Op::AtomicCompareExchange
            | ::spirv::Op::AtomicCompareExchangeWeak
            | ::spirv::Op::AtomicIIncrement
            | ::spirv::Op::AtomicIDecrement
            | $crate::spirv::opsets::atomic_rmw!()
            | ::spirv::Op::AtomicFlagTestAndSet
            | ::spirv::Op::AtomicFlagClear
    };
}

/// Group instructions every work-item of the scope takes part in: the
/// collectives of OpenCL C's work_group_* and sub_group_* functions and
/// async copies.
macro_rules! group_collectives {
    () => {
        ::spirv::Op::GroupAsyncCopy
            | ::spirv::Op::GroupWaitEvents
            | ::spirv::Op::GroupAll
            | ::spirv::Op::GroupAny
            | ::spirv::Op::GroupBroadcast
            | ::spirv::Op::GroupIAdd
            | ::spirv::Op::GroupFAdd
            | ::spirv::Op::GroupFMin
            | ::spirv::Op::GroupUMin
            | ::spirv::Op::GroupSMin
            | ::spirv::Op::GroupFMax
            | ::spirv::Op::GroupUMax
            | ::spirv::Op::GroupSMax
    };
}

/// The non-uniform sub-group instructions (SPIR-V 1.3, cl_khr_subgroup_*
/// extensions) that combine the operands of the sub-group's active
/// work-items: votes, broadcasts, ballots, shuffles, and the reductions and
/// scans (clustered or not).
macro_rules! non_uniform_collectives {
    () => {
        ::spirv::Op::GroupNonUniformElect
            | ::spirv::Op::GroupNonUniformAll
            | ::spirv::Op::GroupNonUniformAny
            | ::spirv::Op::GroupNonUniformAllEqual
            | ::spirv::Op::GroupNonUniformBroadcast
            | ::spirv::Op::GroupNonUniformBroadcastFirst
            | ::spirv::Op::GroupNonUniformBallot
            | ::spirv::Op::GroupNonUniformShuffle
            | ::spirv::Op::GroupNonUniformShuffleXor
            | ::spirv::Op::GroupNonUniformShuffleUp
            | ::spirv::Op::GroupNonUniformShuffleDown
            | $crate::spirv::opsets::non_uniform_arithmetic!()
    };
}

/// The non-uniform reductions and scans (GroupNonUniformArithmetic, and
/// GroupNonUniformClustered with a cluster size).
macro_rules! non_uniform_arithmetic {
    () => {
        ::spirv::Op::GroupNonUniformIAdd
            | ::spirv::Op::GroupNonUniformFAdd
            | ::spirv::Op::GroupNonUniformIMul
            | ::spirv::Op::GroupNonUniformFMul
            | ::spirv::Op::GroupNonUniformSMin
            | ::spirv::Op::GroupNonUniformUMin
            | ::spirv::Op::GroupNonUniformFMin
            | ::spirv::Op::GroupNonUniformSMax
            | ::spirv::Op::GroupNonUniformUMax
            | ::spirv::Op::GroupNonUniformFMax
            | ::spirv::Op::GroupNonUniformBitwiseAnd
            | ::spirv::Op::GroupNonUniformBitwiseOr
            | ::spirv::Op::GroupNonUniformBitwiseXor
            | ::spirv::Op::GroupNonUniformLogicalAnd
            | ::spirv::Op::GroupNonUniformLogicalOr
            | ::spirv::Op::GroupNonUniformLogicalXor
    };
}

/// The non-uniform ballot instructions that compute on a ballot value
/// alone, with the work-item's sub-group local id and its sub-group's size:
/// no other work-item takes part.
macro_rules! ballot_values {
    () => {
        ::spirv::Op::GroupNonUniformInverseBallot
            | ::spirv::Op::GroupNonUniformBallotBitExtract
            | ::spirv::Op::GroupNonUniformBallotBitCount
            | ::spirv::Op::GroupNonUniformBallotFindLSB
            | ::spirv::Op::GroupNonUniformBallotFindMSB
    };
}

/// The image instructions OpenCL C uses, with a lowering
/// (`lower/image.rs`): sampled images, reads, explicit-LOD samples, writes
/// and the size, order and format queries.
macro_rules! images {
    () => {
        ::spirv::Op::SampledImage
            | ::spirv::Op::ImageSampleExplicitLod
            | ::spirv::Op::ImageRead
            | ::spirv::Op::ImageWrite
            | ::spirv::Op::ImageQuerySizeLod
            | ::spirv::Op::ImageQuerySize
            | ::spirv::Op::ImageQueryOrder
            | ::spirv::Op::ImageQueryFormat
    };
}

/// The instructions of a module's first sections, before its debug
/// instructions: capabilities, extensions, instruction set imports, the
/// memory model, entry points and execution modes.
macro_rules! module_header {
    () => {
        ::spirv::Op::Capability
            | ::spirv::Op::Extension
            | ::spirv::Op::ExtInstImport
            | ::spirv::Op::MemoryModel
            | ::spirv::Op::EntryPoint
            | ::spirv::Op::ExecutionMode
            | ::spirv::Op::ExecutionModeId
    };
}

/// Annotations: decorations, direct or through decoration groups.
macro_rules! annotations {
    () => {
        ::spirv::Op::Decorate
            | ::spirv::Op::DecorateId
            | ::spirv::Op::MemberDecorate
            | ::spirv::Op::DecorationGroup
            | ::spirv::Op::GroupDecorate
            | ::spirv::Op::GroupMemberDecorate
    };
}

/// The pipe instructions other than the group forms.
macro_rules! pipes {
    () => {
        ::spirv::Op::ReadPipe
            | ::spirv::Op::WritePipe
            | ::spirv::Op::ReservedReadPipe
            | ::spirv::Op::ReservedWritePipe
            | ::spirv::Op::ReserveReadPipePackets
            | ::spirv::Op::ReserveWritePipePackets
            | ::spirv::Op::CommitReadPipe
            | ::spirv::Op::CommitWritePipe
            | ::spirv::Op::IsValidReserveId
            | ::spirv::Op::GetNumPipePackets
            | ::spirv::Op::GetMaxPipePackets
    };
}

/// Work-group and sub-group pipe reservations and commits.
macro_rules! group_pipes {
    () => {
        ::spirv::Op::GroupReserveReadPipePackets
            | ::spirv::Op::GroupReserveWritePipePackets
            | ::spirv::Op::GroupCommitReadPipe
            | ::spirv::Op::GroupCommitWritePipe
    };
}

pub(crate) use {
    annotations, atomic_rmw, atomics, ballot_values, bitwise, float_arith, float_compare, group_collectives,
    group_pipes, images, int_arith, int_compare, logical, module_header, non_uniform_arithmetic,
    non_uniform_collectives, pipes, shifts,
};
