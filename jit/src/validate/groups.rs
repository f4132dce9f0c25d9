//! Operand types of the group instructions: the work-group and sub-group
//! collectives (OpGroupAll ... OpGroupSMax) and the non-uniform sub-group
//! instructions of SPIR-V 1.3 as the OpenCL SPIR-V environment allows them
//! for the cl_khr_subgroup_* extensions ("valid types for Value are ...").
//! The execution scope is checked with the other scopes ([`super::memory`]).

use rspirv::dr::Operand;
use spirv::{Capability, GroupOperation, Op};

use super::types::Ctx;
use crate::spirv::{opsets, Id, Type};

/// Checks group instruction `op` with result type `rt` and operands `args`
/// (the execution scope first).
pub(super) fn check(g: &Ctx, op: Op, rt: Option<Id>) -> Result<(), String> {
    use Op::*;
    if matches!(op, GroupAsyncCopy | GroupWaitEvents) {
        return Ok(());
    }
    let (m, args) = (g.m, g.args);
    let rt = rt.ok_or("missing result type")?;
    match op {
        GroupAll | GroupAny | GroupNonUniformAll | GroupNonUniformAny => {
            g.bool_scalar(rt, "the result type")?;
            g.bool_scalar(g.ty(1)?, "the predicate")
        }
        GroupNonUniformElect => g.bool_scalar(rt, "the result type"),
        GroupNonUniformAllEqual => {
            g.bool_scalar(rt, "the result type")?;
            g.number(g.ty(1)?, "the value")
        }
        GroupBroadcast | GroupNonUniformBroadcast => {
            g.number_or_vector(rt)?;
            g.same(1, rt)?;
            // OpGroupBroadcast's local id has 1 to 3 components.
            let id = g.ty(2)?;
            match m.ty(id) {
                Some(Type::Int { .. }) => Ok(()),
                Some(Type::Vector { component, count }) if op == GroupBroadcast && *count <= 3 => {
                    g.int_scalar(*component, "the local id")
                }
                _ => Err(format!("the id {} must be an integer scalar", m.show_type(id))),
            }
        }
        GroupNonUniformBroadcastFirst => {
            g.number(rt, "the result type")?;
            g.same(1, rt)
        }
        GroupNonUniformShuffle | GroupNonUniformShuffleXor | GroupNonUniformShuffleUp | GroupNonUniformShuffleDown => {
            g.number(rt, "the result type")?;
            g.same(1, rt)?;
            g.int_scalar(g.ty(2)?, "the id, mask or delta")
        }
        GroupNonUniformBallot => {
            g.ballot(rt, "the result type")?;
            g.bool_scalar(g.ty(1)?, "the predicate")
        }
        GroupNonUniformInverseBallot => {
            g.bool_scalar(rt, "the result type")?;
            g.ballot(g.ty(1)?, "the value")
        }
        GroupNonUniformBallotBitExtract => {
            g.bool_scalar(rt, "the result type")?;
            g.ballot(g.ty(1)?, "the value")?;
            g.int_scalar(g.ty(2)?, "the index")
        }
        GroupNonUniformBallotBitCount => {
            g.int_scalar(rt, "the result type")?;
            g.scan_or_reduce(1, false)?;
            g.ballot(g.ty(2)?, "the value")
        }
        GroupNonUniformBallotFindLSB | GroupNonUniformBallotFindMSB => {
            g.int_scalar(rt, "the result type")?;
            g.ballot(g.ty(1)?, "the value")
        }
        GroupIAdd | GroupUMin | GroupSMin | GroupUMax | GroupSMax => {
            g.int_scalar(rt, "the result type")?;
            g.scan_or_reduce(1, false)?;
            g.same(2, rt)
        }
        GroupFAdd | GroupFMin | GroupFMax => {
            g.float_scalar(rt, "the result type")?;
            g.scan_or_reduce(1, false)?;
            g.same(2, rt)
        }
        opsets::non_uniform_arithmetic!() => {
            match op {
                GroupNonUniformLogicalAnd | GroupNonUniformLogicalOr | GroupNonUniformLogicalXor => {
                    g.bool_scalar(rt, "the result type")?
                }
                GroupNonUniformFAdd | GroupNonUniformFMul | GroupNonUniformFMin | GroupNonUniformFMax => {
                    g.float_scalar(rt, "the result type")?
                }
                _ => g.int_scalar(rt, "the result type")?,
            }
            let clustered = g.scan_or_reduce(1, true)?;
            g.same(2, rt)?;
            match (clustered, args.get(3)) {
                (false, None) => Ok(()),
                (false, Some(_)) => Err("a cluster size is only allowed with the ClusteredReduce operation".into()),
                (true, None) => Err("the ClusteredReduce operation needs a cluster size".into()),
                (true, Some(_)) => g.cluster_size(3),
            }
        }
        _ => Ok(()),
    }
}

/// The scalar and group-specific operand rules.
impl Ctx<'_> {
    fn bool_scalar(&self, t: Id, what: &str) -> Result<(), String> {
        match self.m.ty(t) {
            Some(Type::Bool) => Ok(()),
            _ => Err(format!("{what} {} must be bool", self.m.show_type(t))),
        }
    }

    fn float_scalar(&self, t: Id, what: &str) -> Result<(), String> {
        match self.m.ty(t) {
            Some(Type::Float { .. }) => Ok(()),
            _ => Err(format!(
                "{what} {} must be a floating-point scalar",
                self.m.show_type(t)
            )),
        }
    }

    /// An integer or floating-point scalar.
    fn number(&self, t: Id, what: &str) -> Result<(), String> {
        match self.m.ty(t) {
            Some(Type::Int { .. } | Type::Float { .. }) => Ok(()),
            _ => Err(format!(
                "{what} {} must be an integer or floating-point scalar",
                self.m.show_type(t)
            )),
        }
    }

    /// An integer or floating-point scalar, or a vector of them.
    fn number_or_vector(&self, t: Id) -> Result<(), String> {
        match self.m.ty(t) {
            Some(Type::Vector { component, .. }) => self.number(*component, "the result type's component"),
            _ => self.number(t, "the result type"),
        }
    }

    /// A ballot: a vector of four 32-bit integers (`uint4`).
    fn ballot(&self, t: Id, what: &str) -> Result<(), String> {
        match self.m.ty(t) {
            Some(Type::Vector { component, count: 4 }) if self.m.int_width(*component) == Some(32) => Ok(()),
            _ => Err(format!(
                "{what} {} must be a vector of four 32-bit integers (uint4)",
                self.m.show_type(t)
            )),
        }
    }

    /// Operand `k` is a group operation: Reduce, InclusiveScan or
    /// ExclusiveScan, or with `clustered` also ClusteredReduce (then
    /// `true`, and the module must declare GroupNonUniformClustered).
    fn scan_or_reduce(&self, k: usize, clustered: bool) -> Result<bool, String> {
        match self.args.get(k) {
            Some(Operand::GroupOperation(
                GroupOperation::Reduce | GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan,
            )) => Ok(false),
            Some(Operand::GroupOperation(GroupOperation::ClusteredReduce)) if clustered => {
                if self.m.has_capability(Capability::GroupNonUniformClustered) {
                    Ok(true)
                } else {
                    Err("the ClusteredReduce operation needs the GroupNonUniformClustered capability".into())
                }
            }
            Some(Operand::GroupOperation(o)) => Err(format!(
                "group operation {o:?} is not one OpenCL allows here (Reduce, InclusiveScan, ExclusiveScan{})",
                if clustered { ", ClusteredReduce" } else { "" }
            )),
            _ => Err(format!("operand {k} must be a group operation")),
        }
    }

    /// Operand `k` is a cluster size: an integer constant that is a power
    /// of 2.
    fn cluster_size(&self, k: usize) -> Result<(), String> {
        let id = self.id(k)?;
        let t = self.ty(k)?;
        self.int_scalar(t, "the cluster size")?;
        match super::env::const_int(self.m, id) {
            Some(v) if v.is_power_of_two() => Ok(()),
            Some(v) => Err(format!("the cluster size {v} must be a power of 2")),
            None => Err(format!("the cluster size %{id} must be an integer constant")),
        }
    }
}
