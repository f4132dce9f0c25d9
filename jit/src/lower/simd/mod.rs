//! Vectorization across work-items: a kernel without work-group
//! collectives also gets a **4-lane body** that runs four neighbouring
//! work-items along x at once (a *chunk*), beside the scalar body that runs
//! the rest of each row and any chunk the 4-lane body gives up on
//! ([`super::workgroup`]). A kernel with barriers gets it as a second copy
//! of its phase loops, taken when the group's x size is a multiple of 4,
//! whose frames belong to chunks ([`super::barrier`]); its chunks cannot be
//! abandoned. A kernel without barriers may get an 8-lane body before its
//! 4-lane one: the same lowering applied to two 4-lane parts of a chunk of
//! eight ([`Part`]).
//!
//! The 4-lane body is the same SPIR-V lowered with every value given a
//! [`Shape`]: the same in every lane (a plain scalar, kept in
//! `Lowering::values`, so all of the scalar lowering applies to it), a
//! 4-lane SIMD vector (32-bit values, booleans as lane masks, and 8- and
//! 16-bit integers in the low lanes of an `i8x16` or `i16x8`), a pair
//! of 2-lane vectors (doubles and 64-bit integers), an affine sequence
//! `base + lane * stride` (integers and pointers computed from the
//! work-item id: loads and stores through such a pointer with a stride of
//! the accessed size are single vector accesses, two for 64-bit values),
//! or four scalars. Which values may vary is known beforehand ([`analysis`]), so
//! that phis get parameters of the right kind.
//!
//! Instructions without a 4-lane form here run once per lane through the
//! scalar lowering, their varying operands replaced by each lane's value
//! (`per_lane`), so everything the scalar body supports works, only slower.
//! The 4-lane forms of `ops` (with `integer`: division, conversions of
//! 64-bit integers, left shifts by a count per lane, popcount, clz, mul_hi;
//! `divisor`: division by constants; `float_bits`: the float built-ins made
//! of bit operations and selects; `remainders`: fmod and remainder of
//! floats; `clamp`: notes that let accesses through
//! clamped indices be vectors) only compute result values (but for
//! `pointer_results`: sincos, fract and modf, whose second value is stored
//! as OpStore stores): an instruction
//! with no result value (a void result type) or one reading or writing
//! memory through a pointer operand (the `vstore` and `vload` families,
//! `sincos`, ...) never takes them, and a form gives every component of
//! the result or none. So every instruction is lowered in full (as vectors
//! or lane by lane) or the kernel keeps the scalar body alone; none is
//! partly or silently dropped.
//!
//! Control flow stays scalar: a branch whose condition differs between
//! lanes takes its side when all lanes agree; otherwise the chunk is
//! *abandoned* and its four work-items run through the scalar body. That is
//! only allowed while the chunk has made nothing visible (no store, atomic
//! or call that might store has run: [`analysis::dirty_blocks`]) and
//! outside loops. Elsewhere the branch runs its arms under masks when it
//! is a region ([`analysis::regions`], `predicate`), and a loop whose exits
//! differ between lanes runs while any lane is in it (`masked`); a kernel
//! needing more is not vectorized. The same escape covers the rare 32-bit
//! index whose lanes wrap around when widened.

pub mod analysis;
mod clamp;
pub mod dag;
mod divisor;
mod float_bits;
mod image;
mod integer;
mod interleave;
mod masked;
mod memory;
mod ops;
mod pointer_results;
mod predicate;
mod remainders;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use cranelift_codegen::ir::{types as cl, Block, BlockArg, ConstantData, InstBuilder, Type as Clif, Value};
use cranelift_frontend::Variable;
use rspirv::dr::Operand;
use spirv::Op;

use super::{types, Exit, Lowering, R};
use crate::spirv::{Id, Type};

/// Work-items a chunk runs at once.
pub const LANES: usize = 4;

/// How a value (one scalar component) is held across the lanes of a chunk.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// The same value in every lane.
    U(Value),
    /// A 32-bit value as an `i32x4` or `f32x4`; an 8- or 16-bit integer
    /// in lanes 0-3 of an `i8x16` or `i16x8` (the other lanes unused:
    /// nothing reads them).
    V(Value),
    /// A boolean as an `i32x4` lane mask (all ones for true).
    Mask(Value),
    /// One scalar per lane.
    Lanes([Value; LANES]),
    /// A double or 64-bit integer as two `f64x2` or `i64x2` vectors:
    /// lanes 0-1, then lanes 2-3.
    Pair([Value; 2]),
    /// Lane k holds `base + k * stride` (an integer or pointer; the
    /// stride is taken modulo the width of `base`), unless `wrap` says
    /// otherwise.
    Affine {
        base: Value,
        stride: i64,
        wrap: Option<Wrap>,
    },
}

/// How an affine sequence computed from a narrower integer that was
/// widened differs from `base + k * stride` when the narrow lanes wrap
/// around their width (rare: a 32-bit index near 2^32): lane k is really
/// `base + k * (stride - nstride * scale) + scale * (ext(narrow + k * nstride) - ext(narrow))`.
/// Vector accesses through such a pointer check for the wrap and gather
/// when it happens.
#[derive(Debug, Clone, Copy)]
pub struct Wrap {
    /// Lane 0 of the narrow sequence.
    pub narrow: Value,
    /// Its stride.
    pub nstride: i64,
    /// Whether it was sign-extended.
    pub signed: bool,
    /// What one step of the widened value is multiplied by since.
    pub scale: i64,
}

/// How a varying value of a scalar type is held where its shape must be
/// known in advance (phis, inlined returns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Mask,
    Vec(Clif),
    Lanes(Clif),
    /// Two 2-lane vectors of this type ([`Shape::Pair`]).
    Pair(Clif),
}

impl Kind {
    /// The kind for component type `t` (`boolean` for OpTypeBool).
    pub fn of(t: Clif, boolean: bool) -> Kind {
        if boolean {
            Kind::Mask
        } else if t == cl::I32 {
            Kind::Vec(cl::I32X4)
        } else if t == cl::F32 {
            Kind::Vec(cl::F32X4)
        } else if t == cl::I8 {
            Kind::Vec(cl::I8X16)
        } else if t == cl::I16 {
            Kind::Vec(cl::I16X8)
        } else if t == cl::F64 {
            Kind::Pair(cl::F64X2)
        } else if t == cl::I64 {
            Kind::Pair(cl::I64X2)
        } else {
            Kind::Lanes(t)
        }
    }

    /// The Cranelift types of the values holding one component.
    fn clif_types(self) -> Vec<Clif> {
        match self {
            Kind::Mask => vec![cl::I32X4],
            Kind::Vec(t) => vec![t],
            Kind::Lanes(t) => vec![t; LANES],
            Kind::Pair(t) => vec![t; 2],
        }
    }
}

/// What the bodies of one 4-lane kernel body share.
#[derive(Debug, Clone)]
pub struct Chunk {
    /// Where a chunk goes to run its work-items through the scalar body
    /// (None in a kernel with barriers, whose chunks cannot be abandoned).
    pub bail: Option<Block>,
    /// Per function: whether calling it may have a side effect.
    pub fn_effects: Rc<Vec<bool>>,
    /// Values known to be below the device's largest work-group size
    /// (4096), lanes included (a chunk's local id along x, truncated or
    /// not): widened from 16 bits or more, their lanes never wrap.
    pub small: std::collections::HashSet<Value>,
    /// 64-bit ids whose chunk lanes never wrap around (global and local
    /// ids as loaded: the runtime refuses an NDRange whose offset plus
    /// size overflows `size_t`).
    pub ids: std::collections::HashSet<Value>,
    /// Masks with scalar tests of whether all or any of their lanes are
    /// set (`i8` values), computed where the mask was (the guard
    /// `id < n`: a comparison of lane 3 and of lane 0), with the guard's
    /// bound `n`.
    pub mask_tests: HashMap<Value, MaskTest>,
    /// Varying values computed from clamped affine sequences (`clamp`),
    /// by the values holding their lanes: the sequence they equal unless
    /// a test says otherwise.
    pub unclamped: HashMap<Vec<Value>, clamp::Unclamped>,
    /// Whether every value that is not a boolean is held as one scalar
    /// per lane (the body's second try, see [`Chunk::prefers_scalar_lanes`]):
    /// no vector forms but for booleans and affine sequences.
    pub scalar_lanes: bool,
    /// Instructions in loops that took vector lanes apart into scalars
    /// or put scalars together into vectors (a 32-bit value widened to 64
    /// bits, say), loop-weighted.
    pub crossings: u32,
    /// Instructions lowered to 4-lane forms so far.
    pub vector_ops: u32,
    /// Instructions lowered lane by lane so far.
    pub lane_ops: u32,
    /// How many 4-lane parts a chunk of this body has: 1, or 2 for an
    /// 8-lane body (see [`Part`]).
    pub parts: usize,
}

impl Chunk {
    /// A fresh state for one 4-lane body.
    pub fn new(bail: Option<Block>, fn_effects: Rc<Vec<bool>>, scalar_lanes: bool) -> Chunk {
        Chunk {
            bail,
            fn_effects,
            small: Default::default(),
            ids: Default::default(),
            mask_tests: Default::default(),
            unclamped: Default::default(),
            scalar_lanes,
            crossings: 0,
            vector_ops: 0,
            lane_ops: 0,
            parts: 1,
        }
    }

    /// The same state for a body whose chunks have `parts` 4-lane parts.
    pub fn with_parts(self, parts: usize) -> Chunk {
        Chunk { parts, ..self }
    }

    /// The work-items of one chunk.
    pub fn width(&self) -> usize {
        LANES * self.parts
    }

    /// Whether the body is worth running: a 4-lane body that does most of
    /// its work lane by lane (64-bit integer hashing, say) is slower than
    /// the scalar one.
    pub fn worth_it(&self) -> bool {
        self.lane_ops <= self.vector_ops
    }

    /// Whether the body should be lowered again with every value as
    /// scalars per lane: its loops move values between vectors and
    /// scalars per lane (clbench's hash: a 32-bit hash in vectors feeding
    /// a 64-bit one whose `mul_hi` and rotate run per lane, every round).
    /// Taking lanes apart and putting them together is slow, and the 32-bit vector forms of such
    /// integer mixing (multiplies, `popcount`, `clz`, `mul_hi`) have long
    /// latencies, which a loop-carried chain pays every iteration; as
    /// scalars the four lanes are four independent chains, which the core
    /// runs side by side.
    pub fn prefers_scalar_lanes(&self) -> bool {
        !self.scalar_lanes && self.crossings > 0
    }
}

/// Every local id is below this (the device's largest work-group size).
pub const SMALL_LIMIT: u64 = 4096;

/// How much more an instruction inside a loop counts than one outside
/// when [`Chunk::worth_it`] weighs a 4-lane body.
pub const LOOP_WEIGHT: u32 = 8;

/// The 4-lane state of one body (the kernel's, or one inlined into it).
#[derive(Debug, Default)]
pub struct Body {
    /// The shapes of the varying values, component by component.
    pub varying: HashMap<Id, Vec<Shape>>,
    /// The values the analysis says may vary.
    pub may_vary: HashSet<Id>,
    /// Per block: whether a side effect may have happened before it.
    pub dirty_in: Vec<bool>,
    /// Per block: whether it is in a loop.
    pub in_cycle: Vec<bool>,
    /// The values some instruction of the body uses other than to form
    /// a pointer (filled on first use: `Lowering::only_addresses`).
    pub used_otherwise: Option<HashSet<Id>>,
    /// Whether a side effect may have happened before this body started.
    pub entry_dirty: bool,
    /// The lanes active where this body (inlined) was called, when not
    /// all of the chunk's are: the call is in an arm of a region or in a
    /// masked loop of the caller. Every guard of the body lies within it.
    pub outer_guard: Option<Value>,
    /// Whether a side effect may have happened before the instruction
    /// being lowered.
    pub dirty: bool,
    /// The variables of the varying values kept across barriers (in a
    /// kernel with barriers; see [`super::barrier`]).
    pub kept: HashMap<Id, Vec<Held>>,
    /// This body's masked loops.
    pub masked: Vec<masked::MaskState>,
    /// This body's regions (varying branches that may run under masks).
    pub regions: Vec<predicate::RegionState>,
    /// This body's DAG regions (varying branches and switches whose
    /// paths cross before they meet).
    pub dags: Vec<dag::DagState>,
    /// Loop counters that may stay affine ([`analysis::counters`]).
    pub counters: HashSet<Id>,
    /// Narrow loads read lane by lane ([`analysis::index_loads`]).
    pub index_loads: HashSet<Id>,
    /// Blocks with such a counter among their phis, whose parameters are
    /// made at the first branch to them (from outside the loop), once the
    /// shape of the value the counter starts with is known.
    pub lazy: HashSet<u32>,
    /// The counters made affine, with their strides.
    pub affine_phis: HashMap<Id, i64>,
    /// In a kernel body whose chunks have several 4-lane parts (an 8-lane
    /// body): the state of each part while another is being lowered
    /// (the current part's entry is empty). Empty otherwise.
    pub parked: Vec<Part>,
    /// The part being lowered.
    pub part: usize,
}

/// Scalar tests of a mask's lanes ([`Chunk::mask_tests`]).
#[derive(Debug, Clone, Copy)]
pub struct MaskTest {
    /// Whether every lane is set (an `i8`).
    pub all: Value,
    /// Whether any lane is set (an `i8`).
    pub any: Value,
    /// The mask is the guard `id < n` (`id` a global or local id along x,
    /// whose lanes never wrap) with this `n`.
    pub guard_bound: Option<Value>,
}

/// When the masks of a branch's condition are the guard `id < n` in every
/// part, with one `n`: the first and the last part's tests. The parts hold
/// consecutive ids in order (lanes that never wrap), so every lane is set
/// when the last part's are, and some lane is when the first part's first
/// lane is.
fn guard_parts(tests: &[Option<MaskTest>]) -> Option<(MaskTest, MaskTest)> {
    let (first, last) = ((*tests.first()?)?, (*tests.last()?)?);
    let n = first.guard_bound?;
    tests
        .iter()
        .all(|t| t.is_some_and(|t| t.guard_bound == Some(n)))
        .then_some((first, last))
}

/// What differs between the 4-lane parts of an 8-lane chunk, which runs
/// work-items x0 .. x0 + 3 as part 0 and x0 + 4 .. x0 + 7 as part 1.
///
/// An 8-lane body is the 4-lane lowering applied once per part: every
/// instruction that computes a varying value or acts per work-item is
/// lowered for part 0, then again for part 1 with the part's own shapes
/// and local id along x, so the two parts' values are independent chains
/// the core runs side by side (a loop-carried `fma` chain, say, runs at
/// twice the rate). Uniform values are computed once and shared. Control
/// flow is shared: a branch whose condition varies takes a side when
/// every lane of both parts agrees, else the chunk is abandoned to the
/// scalar body (before anything visible happened) or runs the branch's
/// arms under each part's masks. A phi has its parameters once per part.
/// In a kernel with barriers the chunk suspends and resumes as one, each
/// part's kept values in slots of its own (`kept`).
#[derive(Debug, Default)]
pub struct Part {
    /// The shapes of the part's varying values ([`Body::varying`]).
    pub varying: HashMap<Id, Vec<Shape>>,
    /// The part's first local id along x.
    pub local_x: Option<Value>,
    /// The part's state of the body's masked loops ([`Body::masked`]:
    /// its own active lanes and exit values).
    pub masked: Vec<masked::MaskState>,
    /// The part's state of the body's regions ([`Body::regions`]: the
    /// lanes that took each side, the values of the first arm).
    pub regions: Vec<predicate::RegionState>,
    /// The part's lanes active where an inlined body was called
    /// ([`Body::outer_guard`]).
    pub outer_guard: Option<Value>,
    /// The part's state of the body's DAG regions ([`Body::dags`]).
    pub dags: Vec<dag::DagState>,
    /// The variables of the part's varying values kept across barriers
    /// ([`Body::kept`]).
    pub kept: HashMap<Id, Vec<Held>>,
}

/// A varying value kept across barriers: the shape of each component,
/// its values held in Cranelift variables (reloaded where a chunk
/// resumes).
#[derive(Debug, Clone, Copy)]
pub enum Held {
    U(Variable, Clif),
    V(Variable, Clif),
    Mask(Variable),
    Lanes([Variable; LANES], Clif),
    Pair([Variable; 2], Clif),
    Affine(Variable, i64, Clif),
    /// An affine sequence with a [`Wrap`]: the base's variable and type,
    /// the narrow lane 0's, and the rest of the wrap.
    Wrapped(Variable, i64, Clif, Variable, Clif, Wrap),
}

impl Held {
    /// The variables, each with its type and its byte offset in the
    /// component's slot of [`super::frame::HELD_SLOT`] bytes.
    pub fn vars(&self) -> Vec<(Variable, Clif, i32)> {
        match *self {
            Held::U(v, t) | Held::V(v, t) | Held::Affine(v, _, t) => vec![(v, t, 0)],
            Held::Mask(v) => vec![(v, cl::I32X4, 0)],
            Held::Lanes(l, t) => l.iter().enumerate().map(|(k, &v)| (v, t, 8 * k as i32)).collect(),
            Held::Pair(p, t) => vec![(p[0], t, 0), (p[1], t, 16)],
            Held::Wrapped(b, _, bt, n, nt, _) => vec![(b, bt, 0), (n, nt, 8)],
        }
    }
}

/// Whether each component of a value of type `ty` is a boolean.
pub fn bool_components(m: &crate::spirv::Module, ty: Id) -> R<Vec<bool>> {
    let n = types::count(m, ty)?;
    let boolean = match m.ty(ty) {
        Some(Type::Bool) => true,
        Some(Type::Vector { component, .. }) => matches!(m.ty(*component), Some(Type::Bool)),
        _ => false,
    };
    Ok(vec![boolean; n])
}

impl Lowering<'_, '_, '_> {
    /// Whether this 4-lane body holds every value that is not a boolean
    /// as one scalar per lane ([`Chunk::scalar_lanes`]).
    pub(super) fn scalar_lanes(&self) -> bool {
        self.kernel.borrow().simd.as_ref().is_some_and(|c| c.scalar_lanes)
    }

    /// The kind for component type `t` (`boolean` for OpTypeBool) in this
    /// body.
    pub(super) fn kind_of(&self, t: Clif, boolean: bool) -> Kind {
        if !boolean && self.scalar_lanes() {
            return Kind::Lanes(t);
        }
        Kind::of(t, boolean)
    }

    /// The kinds of the components of a value of type `ty`.
    pub(super) fn kinds(&self, ty: Id) -> R<Vec<Kind>> {
        let comps = types::components(self.m, ty)?;
        let bools = bool_components(self.m, ty)?;
        Ok(comps.into_iter().zip(bools).map(|(t, b)| self.kind_of(t, b)).collect())
    }

    /// How many 4-lane parts the chunks of the body being lowered have:
    /// 2 in an 8-lane kernel body ([`Part`]), else 1 (inlined bodies are
    /// lowered once per part, each as a 4-lane body).
    pub(super) fn parts(&self) -> usize {
        self.simd.as_ref().map_or(1, |s| s.parked.len().max(1))
    }

    /// Makes part `p` of an 8-lane body the one being lowered: its shapes
    /// and its local id along x.
    fn switch_part(&mut self, p: usize) -> R {
        let x = self.wi.local_id[0];
        let s = self.sb()?;
        if p == s.part {
            return Ok(());
        }
        let cur = s.part;
        let next = std::mem::take(s.parked.get_mut(p).ok_or("no such part")?);
        let varying = std::mem::replace(&mut s.varying, next.varying);
        let masked = std::mem::replace(&mut s.masked, next.masked);
        let regions = std::mem::replace(&mut s.regions, next.regions);
        let outer_guard = std::mem::replace(&mut s.outer_guard, next.outer_guard);
        let dags = std::mem::replace(&mut s.dags, next.dags);
        let kept = std::mem::replace(&mut s.kept, next.kept);
        s.parked[cur] = Part {
            varying,
            local_x: Some(x),
            masked,
            regions,
            outer_guard,
            dags,
            kept,
        };
        s.part = p;
        self.wi.local_id[0] = next.local_x.ok_or("a part without its local id")?;
        Ok(())
    }

    /// The part being lowered (0 outside 8-lane bodies).
    pub(super) fn part(&self) -> usize {
        self.simd.as_ref().map_or(0, |s| s.part)
    }

    /// The variables each part holds varying value `id` in across
    /// barriers, in part order (None if the current part does not hold it
    /// so; an error if another part does not).
    pub(super) fn kept_parts(&self, id: Id) -> R<Option<Vec<&[Held]>>> {
        let Some(s) = self.simd.as_deref() else {
            return Ok(None);
        };
        if !s.kept.contains_key(&id) {
            return Ok(None);
        }
        let n = s.parked.len().max(1);
        (0..n)
            .map(|p| {
                let kept = if p == s.part { &s.kept } else { &s.parked[p].kept };
                kept.get(&id)
                    .map(Vec::as_slice)
                    .ok_or_else(|| "a kept value held by one part only".to_string())
            })
            .collect::<R<Vec<_>>>()
            .map(Some)
    }

    /// Runs `f` once per part of the chunk, each time with that part
    /// current: the results, in part order.
    pub(super) fn each_part<T>(&mut self, mut f: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let n = self.parts();
        if n == 1 {
            return Ok(vec![f(self)?]);
        }
        // The part current on entry is current again after (so that
        // calls nest).
        let start = self.sb()?.part;
        let mut out = Vec::with_capacity(n);
        for p in 0..n {
            self.switch_part(p)?;
            out.push(f(self)?);
        }
        self.switch_part(start)?;
        Ok(out)
    }

    /// Gives the body of a callee inlined here (`callee`) this body's
    /// parts, with `args` holding each part's shapes of the varying
    /// parameters.
    /// `guards` holding each part's lanes active at the call.
    pub(super) fn parts_for_callee(
        &mut self,
        callee: &mut Body,
        args: Vec<HashMap<Id, Vec<Shape>>>,
        guards: Vec<Option<Value>>,
    ) -> R {
        let n = self.parts();
        if args.len() != n || guards.len() != n {
            return Err("arguments for another number of parts".into());
        }
        let mut args = args.into_iter();
        let mut guards = guards.into_iter();
        callee.varying = args.next().unwrap_or_default();
        callee.outer_guard = guards.next().flatten();
        if n < 2 {
            return Ok(());
        }
        let s = self.simd.as_deref().ok_or("not a 4-lane body")?;
        // The callee's part 0 is this body's: calls are lowered once, at
        // part 0 (`per_part`).
        if s.part != 0 {
            return Err("a call lowered outside part 0".into());
        }
        let mut parked = vec![Part::default()];
        for ((p, varying), outer_guard) in (1..n).zip(args).zip(guards) {
            let local_x = if p == s.part {
                Some(self.wi.local_id[0])
            } else {
                s.parked.get(p).and_then(|q| q.local_x)
            };
            parked.push(Part {
                varying,
                local_x,
                outer_guard,
                ..Part::default()
            });
        }
        callee.parked = parked;
        callee.part = 0;
        Ok(())
    }

    /// Whether any lane of `masks` (one per part) is set, as an `i8`.
    pub(super) fn any_lane(&mut self, masks: &[Value]) -> Value {
        let mut any = None;
        for &m in masks {
            let a = self.b.ins().vany_true(m);
            any = Some(any.map_or(a, |x| self.b.ins().bor(x, a)));
        }
        any.unwrap_or_else(|| self.b.ins().iconst(cl::I8, 0))
    }

    /// Sets up the parts of a kernel body whose chunks have `parts` of
    /// them, part 0 current: part `p` starts at local id `x0 + 4 p`.
    pub(super) fn begin_parts(&mut self, parts: usize) -> R {
        if parts < 2 {
            return Ok(());
        }
        let x0 = self.wi.local_id[0];
        let parked = (0..parts)
            .map(|p| Part {
                local_x: Some(self.b.ins().iadd_imm_s(x0, (p * LANES) as i64)),
                ..Part::default()
            })
            .collect();
        let s = self.sb()?;
        s.parked = parked;
        s.part = 0;
        Ok(())
    }

    /// Whether instruction `i` of an 8-lane body is lowered once per part:
    /// it computes a value that may vary or acts once per work-item (a
    /// call, an atomic, printf). Terminators and phis are lowered once,
    /// with each part's operands.
    pub(super) fn per_part(&self, i: u32) -> bool {
        if self.parts() < 2 {
            return false;
        }
        let inst = &self.m.insts[i as usize];
        match inst.op {
            Op::Phi
            | Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Unreachable
            | Op::Kill => false,
            op if super::lowers_to_nothing(op) => false,
            // Inlined with every part (`Lowering::inline_call`).
            Op::FunctionCall => false,
            _ => {
                inst.result_id
                    .is_some_and(|r| self.simd.as_ref().is_some_and(|s| s.may_vary.contains(&r)))
                    || !self.varying_operands(i).is_empty()
                    || analysis::per_lane_always(self.m, i)
            }
        }
    }

    /// This body's 4-lane state.
    pub(super) fn sb(&mut self) -> R<&mut Body> {
        self.simd.as_deref_mut().ok_or_else(|| "not a 4-lane body".to_string())
    }

    /// Whether value `id` is held per lane.
    pub(super) fn is_varying(&self, id: Id) -> bool {
        self.simd
            .as_ref()
            .is_some_and(|s| s.varying.contains_key(&id) || s.kept.contains_key(&id))
            || self.frame.lane_variables.contains_key(&id)
    }

    /// The shapes of the components of value `id`.
    pub(super) fn shapes(&mut self, id: Id) -> R<Vec<Shape>> {
        if let Some((base, stride)) = self.frame_lane_var(id) {
            return Ok(vec![Shape::Affine {
                base,
                stride: stride as i64,
                wrap: None,
            }]);
        }
        if let Some(held) = self.simd.as_ref().and_then(|s| s.kept.get(&id)).cloned() {
            return Ok(held
                .into_iter()
                .map(|h| match h {
                    Held::U(v, _) => Shape::U(self.b.use_var(v)),
                    Held::V(v, _) => Shape::V(self.b.use_var(v)),
                    Held::Mask(v) => Shape::Mask(self.b.use_var(v)),
                    Held::Lanes(l, _) => Shape::Lanes(l.map(|v| self.b.use_var(v))),
                    Held::Pair(p, _) => Shape::Pair(p.map(|v| self.b.use_var(v))),
                    Held::Affine(v, stride, _) => Shape::Affine {
                        base: self.b.use_var(v),
                        stride,
                        wrap: None,
                    },
                    Held::Wrapped(b, stride, _, n, _, w) => Shape::Affine {
                        base: self.b.use_var(b),
                        stride,
                        wrap: Some(Wrap {
                            narrow: self.b.use_var(n),
                            ..w
                        }),
                    },
                })
                .collect());
        }
        if let Some(s) = self.simd.as_ref().and_then(|s| s.varying.get(&id)) {
            return Ok(s.clone());
        }
        Ok(self.get(id)?.into_iter().map(Shape::U).collect())
    }

    /// Records the shapes of value `id`: in `values` if every component is
    /// uniform.
    pub(super) fn set_shapes(&mut self, id: Id, shapes: Vec<Shape>) -> R {
        if shapes.iter().all(|s| matches!(s, Shape::U(_))) {
            let v = shapes
                .into_iter()
                .map(|s| match s {
                    Shape::U(v) => v,
                    _ => unreachable!("checked above"),
                })
                .collect();
            self.values.insert(id, v);
        } else {
            self.sb()?.varying.insert(id, shapes);
        }
        Ok(())
    }

    /// The Cranelift type of a value.
    pub(super) fn ty(&self, v: Value) -> Clif {
        self.b.func.dfg.value_type(v)
    }

    /// Lane `k` of a shape, as the scalar lowering holds it (booleans as
    /// `i8` 0 or 1).
    pub(super) fn lane(&mut self, s: Shape, k: usize) -> Value {
        match s {
            Shape::U(v) => v,
            Shape::V(v) => match self.built_lane(v, k) {
                Some(x) => x,
                None => self.b.ins().extractlane(v, k as u8),
            },
            Shape::Mask(v) => {
                let x = self.b.ins().extractlane(v, k as u8);
                self.b
                    .ins()
                    .icmp_imm_s(cranelift_codegen::ir::condcodes::IntCC::NotEqual, x, 0)
            }
            Shape::Lanes(l) => l[k],
            Shape::Pair(p) => {
                let (v, j) = (p[k / 2], k % 2);
                if let Some(x) = self.built_lane(v, j) {
                    return x;
                }
                match self.widened_lane(v, j) {
                    Some(x) => x,
                    None => self.b.ins().extractlane(v, j as u8),
                }
            }
            Shape::Affine { base, stride, wrap } => {
                if k == 0 {
                    return base;
                }
                let Some(w) = wrap else {
                    let off = self.lane_offset(self.ty(base), stride, k);
                    return self.b.ins().iadd_imm_s(base, off);
                };
                let (nt, wt) = (self.ty(w.narrow), self.ty(base));
                let noff = self.lane_offset(nt, w.nstride, k);
                let nk = self.b.ins().iadd_imm_s(w.narrow, noff);
                let ext = |l: &mut Self, v: Value| {
                    if w.signed {
                        l.b.ins().sextend(wt, v)
                    } else {
                        l.b.ins().uextend(wt, v)
                    }
                };
                let ek = ext(self, nk);
                let e0 = ext(self, w.narrow);
                let d = self.b.ins().isub(ek, e0);
                let d = self.b.ins().imul_imm_s(d, w.scale);
                let lin = stride.wrapping_sub(w.nstride.wrapping_mul(w.scale));
                let off = self.lane_offset(wt, lin, k);
                let l = self.b.ins().iadd_imm_s(base, off);
                self.b.ins().iadd(l, d)
            }
        }
    }

    /// Lane `k` of vector `v` without an `extractlane`, if `v` was built
    /// from scalars here (`scalar_to_vector`, `insertlane`s, `splat`): the
    /// scalar put in that lane.
    fn built_lane(&self, v: Value, k: usize) -> Option<Value> {
        use cranelift_codegen::ir::{InstructionData, Opcode};
        let dfg = &self.b.func.dfg;
        let mut v = dfg.resolve_aliases(v);
        for _ in 0..LANES + 1 {
            let inst = dfg.value_def(v).inst()?;
            match dfg.insts[inst] {
                InstructionData::TernaryImm8 {
                    opcode: Opcode::Insertlane,
                    args: [vec, x],
                    imm,
                } => {
                    if usize::from(imm) == k {
                        return Some(x);
                    }
                    v = dfg.resolve_aliases(vec);
                }
                InstructionData::Unary {
                    opcode: Opcode::ScalarToVector,
                    arg,
                } if k == 0 => return Some(arg),
                InstructionData::Unary {
                    opcode: Opcode::Splat,
                    arg,
                } => return Some(arg),
                _ => return None,
            }
        }
        None
    }

    /// Lane `k` of vector `v` when `v` was widened from a narrower vector
    /// (`uwiden_low`, `swiden_high` ...: a 64-bit index computed from an
    /// 8-, 16- or 32-bit one): that vector's lane, taken out and extended
    /// as the widenings extend it, so a lane read for a per-lane access
    /// costs one extraction and the widenings may go unused.
    fn widened_lane(&mut self, v: Value, k: usize) -> Option<Value> {
        use cranelift_codegen::ir::{InstructionData, Opcode};
        let dfg = &self.b.func.dfg;
        let (mut cur, mut lane) = (dfg.resolve_aliases(v), k);
        // Each step's signedness and the lane type it extends to,
        // outermost first.
        let mut steps: Vec<(bool, Clif)> = Vec::new();
        while let Some(inst) = dfg.value_def(cur).inst() {
            let InstructionData::Unary { opcode, arg } = dfg.insts[inst] else {
                break;
            };
            let (signed, high) = match opcode {
                Opcode::UwidenLow => (false, false),
                Opcode::UwidenHigh => (false, true),
                Opcode::SwidenLow => (true, false),
                Opcode::SwidenHigh => (true, true),
                _ => break,
            };
            if high {
                lane += dfg.value_type(arg).lane_count() as usize / 2;
            }
            steps.push((signed, dfg.value_type(cur).lane_type()));
            cur = dfg.resolve_aliases(arg);
        }
        if steps.is_empty() {
            return None;
        }
        let mut x = self.b.ins().extractlane(cur, lane as u8);
        for (signed, t) in steps.into_iter().rev() {
            x = if signed {
                self.b.ins().sextend(t, x)
            } else {
                self.b.ins().uextend(t, x)
            };
        }
        Some(x)
    }

    /// `k * stride` at the width of `t`, sign-extended.
    fn lane_offset(&self, t: Clif, stride: i64, k: usize) -> i64 {
        let off = stride.wrapping_mul(k as i64);
        match t.bits() {
            8 => off as i8 as i64,
            16 => off as i16 as i64,
            32 => off as i32 as i64,
            _ => off,
        }
    }

    /// Every lane of a shape.
    pub(super) fn lanes(&mut self, s: Shape) -> [Value; LANES] {
        if let Shape::Lanes(l) = s {
            return l;
        }
        std::array::from_fn(|k| self.lane(s, k))
    }

    /// A vector of type `vt` from its lanes.
    pub(super) fn build(&mut self, vt: Clif, lanes: [Value; LANES]) -> Value {
        let mut v = if vt.lane_bits() < 32 {
            // (x86-64 moves 32 or 64 bits into a vector register: an 8-
            // or 16-bit lane 0 goes in extended.)
            let x = self.b.ins().uextend(cl::I32, lanes[0]);
            let w = self.b.ins().scalar_to_vector(cl::I32X4, x);
            let le =
                cranelift_codegen::ir::MemFlagsData::new().with_endianness(cranelift_codegen::ir::Endianness::Little);
            self.b.ins().bitcast(vt, le, w)
        } else {
            self.b.ins().scalar_to_vector(vt, lanes[0])
        };
        for (k, &l) in lanes.iter().enumerate().skip(1) {
            v = self.b.ins().insertlane(v, l, k as u8);
        }
        v
    }

    /// The constant vector of type `vt` with these lanes.
    pub(super) fn vconst(&mut self, vt: Clif, lanes: &[u64]) -> Value {
        let size = (vt.lane_bits() / 8) as usize;
        let mut bytes = Vec::with_capacity(16);
        for &l in lanes {
            bytes.extend_from_slice(&l.to_le_bytes()[..size]);
        }
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(vt, c)
    }

    /// Two 2-lane vectors of type `vt` from four lanes.
    pub(super) fn build_pair(&mut self, vt: Clif, lanes: [Value; LANES]) -> [Value; 2] {
        [0, 2].map(|k| {
            let v = self.b.ins().scalar_to_vector(vt, lanes[k]);
            self.b.ins().insertlane(v, lanes[k + 1], 1)
        })
    }

    /// A shape as two 2-lane vectors of type `vt` (`f64x2` or `i64x2`):
    /// lanes 0-1 and 2-3.
    pub(super) fn as_pair(&mut self, s: Shape, vt: Clif) -> [Value; 2] {
        match s {
            Shape::Pair(p) => p,
            Shape::U(v) => {
                let h = self.b.ins().splat(vt, v);
                [h, h]
            }
            Shape::Affine {
                base,
                stride,
                wrap: None,
            } if vt == cl::I64X2 && self.ty(base) == cl::I64 => {
                let b = self.b.ins().splat(vt, base);
                let lo = self.vconst(vt, &[0, stride as u64]);
                let hi = self.vconst(vt, &[stride.wrapping_mul(2) as u64, stride.wrapping_mul(3) as u64]);
                [self.b.ins().iadd(b, lo), self.b.ins().iadd(b, hi)]
            }
            _ => {
                let l = self.lanes(s);
                self.build_pair(vt, l)
            }
        }
    }

    /// A shape as a 4-lane vector of type `vt` (`i32x4` or `f32x4`).
    pub(super) fn as_vec(&mut self, s: Shape, vt: Clif) -> Value {
        match s {
            Shape::V(v) | Shape::Mask(v) => v,
            Shape::U(v) => self.b.ins().splat(vt, v),
            Shape::Affine {
                base,
                stride,
                wrap: None,
            } if self.ty(base) == cl::I32 && vt == cl::I32X4 => {
                let b = self.b.ins().splat(vt, base);
                let offs: Vec<u64> = (0..LANES).map(|k| stride.wrapping_mul(k as i64) as u64).collect();
                let o = self.vconst(vt, &offs);
                self.b.ins().iadd(b, o)
            }
            _ => {
                let l = self.lanes(s);
                self.build(vt, l)
            }
        }
    }

    /// A boolean shape as an `i32x4` lane mask.
    pub(super) fn as_mask(&mut self, s: Shape) -> Value {
        match s {
            Shape::Mask(v) => v,
            Shape::U(v) => {
                let m = self.b.ins().bmask(cl::I32, v);
                self.b.ins().splat(cl::I32X4, m)
            }
            _ => {
                let l = self.lanes(s);
                let m = l.map(|x| self.b.ins().bmask(cl::I32, x));
                self.build(cl::I32X4, m)
            }
        }
    }

    /// A shape in the form `kind` prescribes: the values holding it.
    pub(super) fn in_kind(&mut self, s: Shape, kind: Kind) -> Vec<Value> {
        match kind {
            Kind::Mask => vec![self.as_mask(s)],
            Kind::Vec(vt) => vec![self.as_vec(s, vt)],
            Kind::Lanes(_) => self.lanes(s).to_vec(),
            Kind::Pair(vt) => self.as_pair(s, vt).to_vec(),
        }
    }

    /// The shape of a component of kind `kind` held by `vals`.
    pub(super) fn from_kind(kind: Kind, vals: &[Value]) -> R<Shape> {
        Ok(match (kind, vals) {
            (Kind::Mask, [v]) => Shape::Mask(*v),
            (Kind::Vec(_), [v]) => Shape::V(*v),
            (Kind::Lanes(_), &[a, b, c, d]) => Shape::Lanes([a, b, c, d]),
            (Kind::Pair(_), &[a, b]) => Shape::Pair([a, b]),
            _ => return Err("a 4-lane value of the wrong size".into()),
        })
    }

    /// The shape of four lane values of a component of type `t`.
    pub(super) fn assemble(&mut self, lanes: [Value; LANES], t: Clif, boolean: bool) -> Shape {
        match self.kind_of(t, boolean) {
            Kind::Mask => {
                let m = lanes.map(|x| self.b.ins().bmask(cl::I32, x));
                Shape::Mask(self.build(cl::I32X4, m))
            }
            Kind::Vec(vt) => Shape::V(self.build(vt, lanes)),
            Kind::Lanes(_) => Shape::Lanes(lanes),
            Kind::Pair(vt) => Shape::Pair(self.build_pair(vt, lanes)),
        }
    }

    /// The varying ids among the operands of instruction `i`.
    fn varying_operands(&self, i: u32) -> Vec<Id> {
        let inst = self.at(i);
        let mut v: Vec<Id> = inst
            .operands
            .iter()
            .filter_map(|o| match o {
                Operand::IdRef(x) => Some(*x),
                _ => None,
            })
            .filter(|&x| self.is_varying(x))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Counts an instruction lowered to a 4-lane form (`vector`) or lane
    /// by lane ([`Chunk::worth_it`]).
    /// Instructions in loops count [`LOOP_WEIGHT`] times.
    pub(super) fn count(&self, vector: bool) {
        let w = if self.in_loop() { LOOP_WEIGHT } else { 1 };
        if let Some(c) = self.kernel.borrow_mut().simd.as_mut() {
            if vector {
                c.vector_ops += w;
            } else {
                c.lane_ops += w;
            }
        }
    }

    /// Whether the result of instruction `i` is used only to form
    /// pointers (an index widened for an access chain: the access is per
    /// lane either way, so taking the index apart costs nothing extra).
    /// (The body's values used otherwise are found once, on first use.)
    fn only_addresses(&mut self, i: u32) -> R<bool> {
        let Some(id) = self.m.insts[i as usize].result_id else {
            return Ok(false);
        };
        let (m, f) = (self.m, self.body.func);
        let sb = self.sb()?;
        let other = sb.used_otherwise.get_or_insert_with(|| {
            let mut other = HashSet::new();
            for u in (f.inst..=f.end).map(|j| &m.insts[j as usize]) {
                let address = matches!(
                    u.op,
                    Op::AccessChain
                        | Op::InBoundsAccessChain
                        | Op::PtrAccessChain
                        | Op::InBoundsPtrAccessChain
                        | Op::ConvertUToPtr
                );
                if !address {
                    other.extend(u.operands.iter().filter_map(|o| match o {
                        Operand::IdRef(x) => Some(*x),
                        _ => None,
                    }));
                }
            }
            other
        });
        Ok(!other.contains(&id))
    }

    /// Whether the block being lowered is in a loop.
    fn in_loop(&self) -> bool {
        self.m
            .info(self.body.label)
            .and_then(|l| self.simd.as_ref()?.in_cycle.get(l.block as usize).copied())
            .unwrap_or(false)
    }

    /// Lowers instruction `i` of a 4-lane body.
    pub(super) fn simd_inst(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let effect = {
            let fx = self.kernel.borrow().simd.as_ref().map(|c| c.fn_effects.clone());
            fx.is_some_and(|fx| analysis::visible_effect(m, i, &fx))
        };
        let guard = if self.needs_guard(i) { self.guard()? } else { None };
        let r = match guard {
            Some(g) => self.guarded(i, g),
            None if self.uniform_access(i) && self.guard_may_be_empty() => match self.guard()? {
                Some(_) => self.guarded_any(i),
                None => self.simd_inst_inner(i, inst.op),
            },
            None => self.simd_inst_inner(i, inst.op),
        };
        if effect {
            self.sb()?.dirty = true;
        }
        r
    }

    fn simd_inst_inner(&mut self, i: u32, op: Op) -> R {
        let m = self.m;
        let inst = self.at(i);
        match op {
            op if super::lowers_to_nothing(op) => Ok(()),
            Op::Branch | Op::BranchConditional | Op::Switch if self.dag_block().is_some() => {
                let (di, k) = self.dag_block().ok_or("no DAG region")?;
                self.dag_terminator(di, k, i)
            }
            Op::Branch | Op::BranchConditional if self.masked_exit(i)? => Ok(()),
            Op::Branch | Op::Return | Op::Unreachable => self.scalar_inst(i),
            Op::BranchConditional => self.simd_branch(i),
            Op::Switch => {
                if let Some(di) = self.dag_wanted()? {
                    return self.dag_head(di, i);
                }
                if self.is_varying(inst.operand(0)) {
                    return Err("a switch whose selector differs between work-items is not vectorized".into());
                }
                self.scalar_inst(i)
            }
            Op::ReturnValue => {
                let Exit::Inline(ret) = self.body.exit else {
                    return self.scalar_inst(i);
                };
                let v = inst.operand(0);
                let ty = self.type_of(v);
                let ks = self.kinds(ty)?;
                let per_part = self.each_part(|l| {
                    let shapes = l.shapes(v)?;
                    let mut args = Vec::new();
                    for (s, &k) in shapes.into_iter().zip(&ks) {
                        args.extend(l.in_kind(s, k).into_iter().map(BlockArg::Value));
                    }
                    Ok(args)
                })?;
                let args: Vec<BlockArg> = per_part.into_iter().flatten().collect();
                self.b.ins().jump(ret, &args);
                Ok(())
            }
            Op::FunctionCall => {
                if !self.inline_call(i)? {
                    return Err("a call that is not inlined is not vectorized".into());
                }
                Ok(())
            }
            Op::ControlBarrier if self.frame_entry().is_some() => self.scalar_inst(i),
            // A variable the lanes share (see `analysis::may_vary`).
            Op::Variable if self.shared_variable(inst.result_id) => self.scalar_inst(i),
            Op::Variable
                if inst
                    .result_id
                    .is_some_and(|r| self.frame.lane_variables.contains_key(&r)) =>
            {
                self.frame_lane_variable(i)
            }
            Op::Variable if !inst.result_id.is_some_and(|r| self.frame.variables.contains_key(&r)) => {
                self.simd_variable(i)
            }
            Op::Variable | Op::ControlBarrier => Err(format!("{} is not vectorized", inst.opname())),
            crate::spirv::opsets::group_collectives!()
            | crate::spirv::opsets::group_pipes!()
            | crate::spirv::opsets::pipes!() => Err(format!("{} is not vectorized", inst.opname())),
            Op::Load | Op::Store if self.touches_half(i) => self.simd_half_access(i),
            Op::Load => self.simd_load(i),
            Op::Store => self.simd_store(i),
            Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain => {
                self.simd_access_chain(i)
            }
            Op::CompositeExtract
            | Op::CompositeInsert
            | Op::CompositeConstruct
            | Op::VectorShuffle
            | Op::CopyObject => {
                if self.varying_operands(i).is_empty() {
                    self.scalar_inst(i)
                } else {
                    self.moves(i)
                }
            }
            _ if analysis::per_lane_always(m, i) => self.per_lane(i),
            Op::ImageRead | Op::ImageSampleExplicitLod | Op::ImageWrite if !self.varying_operands(i).is_empty() => {
                if self.simd_image(i)? {
                    Ok(())
                } else {
                    self.per_lane(i)
                }
            }
            // Memory through a pointer operand (vstore*, vload*, the math
            // functions with a pointer result): the scalar lowering, which
            // does all the instruction does, once per lane (once in all
            // when every operand is the same in every lane: the same
            // access four times). `simd_op`'s forms only compute values.
            Op::ExtInst
                if analysis::ext_through_pointer(m, i)
                    && (self.simd_vector_access(i)?
                        || self.simd_half_load(i)?
                        || self.simd_half_store(i)?
                        || self.simd_pointer_result(i)?) =>
            {
                Ok(())
            }
            Op::ExtInst if analysis::ext_through_pointer(m, i) => {
                if self.varying_operands(i).is_empty() {
                    self.scalar_inst(i)
                } else {
                    self.per_lane(i)
                }
            }
            _ => {
                if self.varying_operands(i).is_empty() {
                    return self.scalar_inst(i);
                }
                if self.simd_op(i)? {
                    self.count(true);
                    return Ok(());
                }
                self.per_lane(i)
            }
        }
    }

    /// Whether instruction `i` makes or reads values holding half
    /// (cl_khr_fp16): `f32`s rounded to half after arithmetic, 16 bits in
    /// memory ([`crate::lower::half`]).
    pub(super) fn touches_half(&self, i: u32) -> bool {
        let m = self.m;
        let inst = &m.insts[i as usize];
        let half = |t: Id| crate::lower::half::holds_half(m, t);
        inst.result_type.is_some_and(half)
            || (0..inst.operands.len())
                .filter_map(|k| inst.id(k))
                .any(|id| m.type_of(id).is_some_and(half))
    }

    /// Whether private variable `id` is one the lanes share: no copy per
    /// lane ([`analysis::may_vary`]).
    fn shared_variable(&self, id: Option<Id>) -> bool {
        id.is_some_and(|r| self.simd.as_ref().is_some_and(|s| !s.may_vary.contains(&r)))
    }

    /// OpBranchConditional: on a varying condition, the side all lanes
    /// agree on, else the chunk is abandoned.
    fn simd_branch(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let c = inst.operand(0);
        if let Some(di) = self.dag_wanted()? {
            return self.dag_head(di, i);
        }
        if !self.is_varying(c) {
            return self.scalar_inst(i);
        }
        let (dirty, looping, masked) = self.branch_state()?;
        if masked {
            if let Some(ri) = self.region_here()? {
                return self.region_branch(ri, i);
            }
        }
        if dirty {
            return Err(format!(
                "a branch that differs between work-items after a store is not vectorized (block {}: its sides meet at no one block, or an arm holds a loop, barrier or return)",
                self.m.show(self.body.label)
            ));
        }
        if looping {
            return Err("a loop whose exit differs between work-items is not vectorized".into());
        }
        let masks = self.each_part(|l| {
            let shape = *l.shapes(c)?.first().ok_or("an empty condition")?;
            Ok(l.as_mask(shape))
        })?;
        let (tb, ta) = self.target(inst.operand(1))?;
        let (fb, fa) = self.target(inst.operand(2))?;
        let tests: Vec<Option<MaskTest>> = {
            let k = self.kernel.borrow();
            let known = k.simd.as_ref().map(|c| &c.mask_tests);
            masks.iter().map(|m| known.and_then(|t| t.get(m).copied())).collect()
        };
        // Whether every lane (of every part) is set, and whether any is.
        let all = self.lanes_test(&masks, &tests, true)?;
        let check = self.b.create_block();
        self.b.ins().brif(all, tb, &ta, check, &[]);
        self.b.switch_to_block(check);
        let any = self.lanes_test(&masks, &tests, false)?;
        let bail = self.bail_block()?;
        self.b.ins().brif(any, bail, &[], fb, &fa);
        Ok(())
    }

    /// Whether every lane (`all`) or any lane of `masks` (one per part)
    /// is set, as an `i8`: from the scalar tests made with a mask where
    /// there are (`tests`, [`Chunk::mask_tests`]), else from the vector.
    fn lanes_test(&mut self, masks: &[Value], tests: &[Option<MaskTest>], all: bool) -> R<Value> {
        if let Some((first, last)) = guard_parts(tests) {
            return Ok(if all { last.all } else { first.any });
        }
        let mut out = None;
        for (&m, t) in masks.iter().zip(tests) {
            let a = match (t, all) {
                (Some(t), true) => t.all,
                (Some(t), false) => t.any,
                (None, true) => self.b.ins().vall_true(m),
                (None, false) => self.b.ins().vany_true(m),
            };
            out = Some(match out {
                None => a,
                Some(x) if all => self.b.ins().band(x, a),
                Some(x) => self.b.ins().bor(x, a),
            });
        }
        out.ok_or_else(|| "an empty condition".to_string())
    }

    /// At the current block's terminator: whether something visible may
    /// have happened, whether the block is in a loop, and whether a branch
    /// whose lanes disagree must run under masks there, as the chunk could
    /// not be abandoned (after a store, in a loop, in a kernel with
    /// barriers, under a guard).
    fn branch_state(&mut self) -> R<(bool, bool, bool)> {
        let bi = self.current_block()? as usize;
        let (dirty, looping) = {
            let s = self.sb()?;
            (s.dirty, s.in_cycle.get(bi).copied().unwrap_or(true))
        };
        let bail = self.kernel.borrow().simd.as_ref().and_then(|c| c.bail);
        let masked = dirty || looping || bail.is_none() || self.guard()?.is_some();
        Ok((dirty, looping, masked))
    }

    /// The DAG region the current block heads, when it is to run under
    /// masks ([`Self::branch_state`]), as for regions.
    fn dag_wanted(&mut self) -> R<Option<usize>> {
        let Some(di) = self.dag_here()? else {
            return Ok(None);
        };
        let (_, _, masked) = self.branch_state()?;
        Ok(masked.then_some(di))
    }

    /// The block that abandons the chunk.
    pub(super) fn bail_block(&self) -> R<Block> {
        self.kernel.borrow().simd.as_ref().and_then(|c| c.bail).ok_or_else(|| {
            "a branch that differs between work-items in a kernel with barriers is not vectorized".to_string()
        })
    }

    /// Declares and defines the variables of varying value `id`, kept
    /// across barriers, from its shapes.
    pub(super) fn hold(&mut self, id: Id) -> R {
        let Some(shapes) = self.simd.as_ref().and_then(|s| s.varying.get(&id)).cloned() else {
            return Ok(());
        };
        let mut held = Vec::with_capacity(shapes.len());
        for s in shapes {
            let mut var = |v: Value| {
                let t = self.b.func.dfg.value_type(v);
                let var = self.b.declare_var(t);
                self.b.def_var(var, v);
                self.frame
                    .origin
                    .insert(cranelift_codegen::entity::EntityRef::index(var), v);
                (var, t)
            };
            held.push(match s {
                Shape::U(v) => {
                    let (x, t) = var(v);
                    Held::U(x, t)
                }
                Shape::V(v) => {
                    let (x, t) = var(v);
                    Held::V(x, t)
                }
                Shape::Mask(v) => Held::Mask(var(v).0),
                Shape::Lanes(l) => {
                    let vars = l.map(&mut var);
                    Held::Lanes(vars.map(|(x, _)| x), vars[0].1)
                }
                Shape::Pair(p) => {
                    let vars = p.map(&mut var);
                    Held::Pair(vars.map(|(x, _)| x), vars[0].1)
                }
                Shape::Affine {
                    base,
                    stride,
                    wrap: None,
                } => {
                    let (x, t) = var(base);
                    Held::Affine(x, stride, t)
                }
                Shape::Affine {
                    base,
                    stride,
                    wrap: Some(w),
                } => {
                    let (b, bt) = var(base);
                    let (n, nt) = var(w.narrow);
                    Held::Wrapped(b, stride, bt, n, nt, w)
                }
            });
        }
        self.sb()?.kept.insert(id, held);
        Ok(())
    }

    /// Whether `v` is known to be a small value ([`Chunk::small`]) whose
    /// type has at least 16 bits.
    pub(super) fn small(&self, v: Value) -> bool {
        self.ty(v).bits() >= 16 && self.kernel.borrow().simd.as_ref().is_some_and(|c| c.small.contains(&v))
    }

    /// Whether `v` is a 64-bit id whose lanes never wrap ([`Chunk::ids`]).
    pub(super) fn is_id(&self, v: Value) -> bool {
        self.kernel.borrow().simd.as_ref().is_some_and(|c| c.ids.contains(&v))
    }

    /// Records that `v` is a small value ([`Chunk::small`]).
    pub(super) fn mark_small(&mut self, v: Value) {
        if let Some(c) = self.kernel.borrow_mut().simd.as_mut() {
            c.small.insert(v);
        }
    }

    /// A [`Wrap`] for widening the narrow affine sequence `narrow` with
    /// stride `nstride`; None when its lanes cannot wrap.
    pub(super) fn wrap_of(&self, narrow: Value, nstride: i64, signed: bool) -> Option<Wrap> {
        (!(self.small(narrow) && nstride == 1)).then_some(Wrap {
            narrow,
            nstride,
            signed,
            scale: 1,
        })
    }

    /// Whether the lanes `narrow + k * nstride` (k < 4) of a narrow
    /// integer wrap around its width (as signed values if `signed`), as
    /// an `i8`: None when they always may.
    pub(super) fn wraps(&mut self, narrow: Value, nstride: i64, signed: bool) -> Option<Value> {
        let bits = self.ty(narrow).bits();
        let span = nstride.unsigned_abs().saturating_mul((LANES - 1) as u64);
        let range = 1u64 << bits;
        if span >= range / 2 {
            return None;
        }
        let (lo, hi) = if signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, (range - 1) as i64)
        };
        use cranelift_codegen::ir::condcodes::IntCC;
        let (cc, limit) = if nstride >= 0 {
            let cc = if signed {
                IntCC::SignedGreaterThan
            } else {
                IntCC::UnsignedGreaterThan
            };
            (cc, hi - span as i64)
        } else {
            let cc = if signed {
                IntCC::SignedLessThan
            } else {
                IntCC::UnsignedLessThan
            };
            (cc, lo + span as i64)
        };
        Some(self.b.ins().icmp_imm_s(cc, narrow, limit))
    }

    /// The parameters of the phis of block `bi` (Cranelift block `cb`),
    /// made at the first branch to it: a loop counter
    /// ([`analysis::counters`]) entering with an affine value without a
    /// wrap note stays affine with its stride (one parameter, the base);
    /// the other phis are made as [`super::Lowering`] makes them for every
    /// other block.
    pub(super) fn lazy_params(&mut self, bi: u32, cb: Block) -> R {
        if !self.simd.as_ref().is_some_and(|s| s.lazy.contains(&bi)) {
            return Ok(());
        }
        self.sb()?.lazy.remove(&bi);
        let blk = &self.body.func.blocks[bi as usize];
        for i in blk.body() {
            let inst = self.at(i);
            if inst.op != Op::Phi {
                break;
            }
            let (ty, id) = inst.result();
            let n = inst.operands.len() / 2;
            let v = (0..n)
                .find(|&k| inst.id(2 * k + 1) == Some(self.body.label))
                .and_then(|k| inst.id(2 * k))
                .ok_or("the phi has no value for this block")?;
            if self.simd.as_ref().is_some_and(|s| s.may_vary.contains(&id)) {
                self.each_part(|l| l.lazy_param(cb, id, ty, v))?;
            } else {
                let comps = types::components(self.m, ty)?;
                let vals = comps.iter().map(|&t| self.b.append_block_param(cb, t)).collect();
                self.values.insert(id, vals);
            }
        }
        Ok(())
    }

    /// The parameters of varying phi `id` of type `ty` of block `cb`,
    /// entered with value `v` ([`Self::lazy_params`]).
    fn lazy_param(&mut self, cb: Block, id: Id, ty: Id, v: Id) -> R {
        let counter = self.simd.as_ref().is_some_and(|s| s.counters.contains(&id));
        if counter {
            if let Some(Shape::Affine {
                base,
                stride,
                wrap: None,
            }) = self.shapes(v)?.first().copied()
            {
                let t = self.ty(base);
                let p = self.b.append_block_param(cb, t);
                let s = self.sb()?;
                s.affine_phis.insert(id, stride);
                s.varying.insert(
                    id,
                    vec![Shape::Affine {
                        base: p,
                        stride,
                        wrap: None,
                    }],
                );
                return Ok(());
            }
        }
        self.varying_phi(cb, id, ty)
    }

    /// The block argument for affine counter `phi` from value `v`: its
    /// base, when `v` has the counter's stride.
    pub(super) fn counter_arg(&mut self, phi: Id, v: Id) -> R<Option<BlockArg>> {
        let Some(&stride) = self.simd.as_ref().and_then(|s| s.affine_phis.get(&phi)) else {
            return Ok(None);
        };
        match self.shapes(v)?.first().copied() {
            Some(Shape::Affine {
                base,
                stride: s,
                wrap: None,
            }) if s == stride => Ok(Some(BlockArg::Value(base))),
            _ => Err(format!(
                "{} changes a loop counter's stride between work-items",
                self.m.show(v)
            )),
        }
    }

    /// The block arguments for phi `phi` (varying) from shape `s`.
    pub(super) fn phi_args(&mut self, phi: Id, v: Id) -> R<Vec<BlockArg>> {
        let ty = self.type_of(phi);
        let ks = self.kinds(ty)?;
        let shapes = self.shapes(v)?;
        if shapes.len() != ks.len() {
            return Err("a phi operand does not match its type".into());
        }
        let mut args = Vec::new();
        for (s, k) in shapes.into_iter().zip(ks) {
            args.extend(self.in_kind(s, k).into_iter().map(BlockArg::Value));
        }
        Ok(args)
    }

    /// Appends the parameters of varying phi `id` of type `ty` to block
    /// `cb` and records its shapes.
    pub(super) fn varying_phi(&mut self, cb: Block, id: Id, ty: Id) -> R {
        let ks = self.kinds(ty)?;
        let mut shapes = Vec::with_capacity(ks.len());
        for k in ks {
            let vals: Vec<Value> = k
                .clif_types()
                .into_iter()
                .map(|t| self.b.append_block_param(cb, t))
                .collect();
            shapes.push(Self::from_kind(k, &vals)?);
        }
        self.sb()?.varying.insert(id, shapes);
        Ok(())
    }

    /// [`Self::varying_params`] for the result `id` of an instruction
    /// lowered under a guard: a narrow load read lane by lane
    /// ([`analysis::index_loads`]) keeps its lanes.
    pub(super) fn result_params(&mut self, cb: Block, id: Id, ty: Id) -> R<Vec<(Kind, Vec<Value>)>> {
        if !self.simd.as_ref().is_some_and(|s| s.index_loads.contains(&id)) {
            return self.varying_params(cb, ty);
        }
        Ok(types::components(self.m, ty)?
            .into_iter()
            .map(|t| {
                let vals = (0..LANES).map(|_| self.b.append_block_param(cb, t)).collect();
                (Kind::Lanes(t), vals)
            })
            .collect())
    }

    /// Appends to block `cb` the parameters of a value of type `ty` held
    /// per lane (an inlined call's result), returning its shapes once
    /// `cb` is current.
    pub(super) fn varying_params(&mut self, cb: Block, ty: Id) -> R<Vec<(Kind, Vec<Value>)>> {
        let ks = self.kinds(ty)?;
        Ok(ks
            .into_iter()
            .map(|k| {
                let vals = k
                    .clif_types()
                    .into_iter()
                    .map(|t| self.b.append_block_param(cb, t))
                    .collect();
                (k, vals)
            })
            .collect())
    }

    /// The varying operands of instruction `i` with their shapes.
    pub(super) fn operand_shapes(&mut self, i: u32) -> R<Vec<(Id, Vec<Shape>)>> {
        let ops = self.varying_operands(i);
        let mut out = Vec::with_capacity(ops.len());
        for o in ops {
            out.push((o, self.shapes(o)?));
        }
        Ok(out)
    }

    /// Instruction `i` for lane `k` through the scalar lowering, its
    /// varying `operands` replaced by the lane's values: the result's
    /// values, if it has a result.
    pub(super) fn lane_inst(&mut self, i: u32, k: usize, operands: &[(Id, Vec<Shape>)]) -> R<Option<Vec<Value>>> {
        for (o, sh) in operands {
            let vals = sh.iter().map(|&s| self.lane(s, k)).collect();
            self.values.insert(*o, vals);
        }
        let r = self.scalar_inst(i);
        for (o, _) in operands {
            self.values.remove(o);
        }
        r?;
        match self.m.insts[i as usize].result_id {
            Some(id) => Ok(Some(self.values.remove(&id).ok_or("no result")?)),
            None => Ok(None),
        }
    }

    /// Instruction `i` once per lane through the scalar lowering, each
    /// varying operand replaced by the lane's value.
    pub(super) fn per_lane(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let operands = self.operand_shapes(i)?;
        // An operand held as one scalar per lane is read as it is; a
        // vector's lanes must be taken out.
        let mut scalars = operands
            .iter()
            .all(|(_, sh)| sh.iter().all(|s| !matches!(s, Shape::V(_) | Shape::Mask(_))));
        let took_vectors = operands
            .iter()
            .any(|(_, sh)| sh.iter().any(|s| matches!(s, Shape::V(_))));
        let took_lanes = operands
            .iter()
            .any(|(_, sh)| sh.iter().any(|s| matches!(s, Shape::Lanes(_))));
        // 64-bit integers in vectors taken apart for cheap scalar work
        // (`mul_hi`, a rotate by a count per lane, a division): the moves
        // cost more than the work (unless the vectors were just put
        // together from those scalars, which `lane` then reads). Not
        // an index into memory: the access is per lane either way.
        let address = matches!(
            inst.op,
            Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain
        );
        let took_int_pairs = !address
            && operands.iter().any(|(_, sh)| {
                sh.iter().any(|s| match *s {
                    Shape::Pair(p) => {
                        self.ty(p[0]) == cl::I64X2 && (0..LANES).any(|k| self.built_lane(p[k / 2], k % 2).is_none())
                    }
                    _ => false,
                })
            });
        let (mut made_vectors, mut made_lanes) = (false, false);
        let mut results: Vec<Vec<Value>> = Vec::with_capacity(LANES);
        for k in 0..LANES {
            if let Some(r) = self.lane_inst(i, k, &operands)? {
                results.push(r);
            }
        }
        let mut out = Vec::new();
        let result = match (inst.result_id, inst.result_type) {
            (Some(id), Some(ty)) if !matches!(m.ty(ty), Some(Type::Void)) => Some((id, ty)),
            _ => None,
        };
        if let Some((_, ty)) = result {
            let bools = bool_components(m, ty).unwrap_or_default();
            let n = results[0].len();
            for c in 0..n {
                let lanes: [Value; LANES] =
                    std::array::from_fn(|k| results[k].get(c).copied().unwrap_or(results[0][c]));
                let t = self.ty(lanes[0]);
                let s = self.assemble(lanes, t, bools.get(c).copied().unwrap_or(false));
                // A pair of 2-lane vectors gives its lanes about as cheaply.
                scalars &= matches!(s, Shape::Lanes(_) | Shape::Pair(_));
                made_vectors |= matches!(s, Shape::V(_));
                made_lanes |= matches!(s, Shape::Lanes(_));
                out.push(s);
            }
        }
        // Atomics and printf run once per work-item in either body, and so
        // does an instruction that reads and makes only scalars per lane
        // (64-bit integer arithmetic, say), where the 4-lane body loses
        // nothing (and its four independent lanes run in parallel on the
        // core): they do not weigh against the 4-lane body.
        if !analysis::per_lane_always(m, i) && !scalars {
            self.count(false);
        }
        if ((took_vectors && made_lanes) || (took_lanes && made_vectors) || took_int_pairs)
            && self.in_loop()
            && !self.only_addresses(i)?
        {
            if let Some(c) = self.kernel.borrow_mut().simd.as_mut() {
                c.crossings += 1;
            }
        }
        if let Some((id, _)) = result {
            self.sb()?.varying.insert(id, out);
        }
        Ok(())
    }

    /// Instructions that only move components (composites, shuffles,
    /// copies): the scalar lowering runs once on stand-ins for the varying
    /// components, whose shapes are then put back.
    fn moves(&mut self, i: u32) -> R {
        let inst = self.at(i);
        let ops = self.varying_operands(i);
        let mut stand_in: HashMap<Value, Shape> = HashMap::new();
        for &o in &ops {
            let sh = self.shapes(o)?;
            let mut vals = Vec::with_capacity(sh.len());
            for s in sh {
                let t = match s {
                    Shape::U(v) => {
                        vals.push(v);
                        continue;
                    }
                    Shape::Mask(_) => cl::I8,
                    Shape::V(v) => self.ty(v).lane_type(),
                    Shape::Lanes(l) => self.ty(l[0]),
                    Shape::Pair(p) => self.ty(p[0]).lane_type(),
                    Shape::Affine { base, .. } => self.ty(base),
                };
                // An integer of the lane type's width (a float's stand-in
                // is a bitcast of one).
                let it = cl::Type::int_with_byte_size(t.bytes() as u16)
                    .ok_or("a lane type without an integer of its size")?;
                let p = self.b.ins().iconst(if t.is_int() { t } else { it }, 0);
                let p = if t.is_int() {
                    p
                } else {
                    self.b.ins().bitcast(t, cranelift_codegen::ir::MemFlagsData::new(), p)
                };
                stand_in.insert(p, s);
                vals.push(p);
            }
            self.values.insert(o, vals);
        }
        let r = self.scalar_inst(i);
        for &o in &ops {
            self.values.remove(&o);
        }
        r?;
        let id = inst.result_id();
        let vals = self.values.remove(&id).ok_or("no result")?;
        let shapes = vals
            .into_iter()
            .map(|v| stand_in.get(&v).copied().unwrap_or(Shape::U(v)))
            .collect();
        self.set_shapes(id, shapes)
    }
}
