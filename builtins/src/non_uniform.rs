//! The non-uniform sub-group operations (the GroupNonUniform instructions
//! of the cl_khr_subgroup_* extensions), computed for the *active*
//! work-items of a sub-group: those suspended at the same non-uniform
//! point when a phase of the work-group loop starts.
//!
//! The generated code suspends a work-item at such a point the way it
//! does at a barrier (jit `lower/barrier.rs`), after storing in its frame,
//! at the point's offset `at`:
//!
//! | offset               | bytes        | what                                        |
//! |----------------------|--------------|---------------------------------------------|
//! | `at`                 | 8            | the marker: the phase it arrived in         |
//! | `at + 8`             | 8            | the source id, mask or delta (zero-extended)|
//! | `at + 16`            | 8 x `comps`  | its operand, one slot per component         |
//! | `at + 16 + 8 x comps`| 8 x results  | its result, one slot per component          |
//!
//! In the next phase each active work-item calls [`clift_non_uniform`] as
//! it resumes. Work-items resume in local linear id order, so the first
//! caller is the lowest active work-item: it finds its marker older than
//! the phase, gathers the active work-items (itself and every later
//! work-item of its sub-group still suspended at the same point, whose
//! resume state is this point's), computes every one's result into its
//! result slots and stamps their markers with the phase. Later callers
//! find their marker stamped and read their result. A work-item that comes
//! back to the same point in the same phase (a loop) stamps its marker
//! with that phase's number at arrival and is combined in the next phase,
//! with the others that arrive there by then.

use crate::half::{f64_to_half, half_to_f32, Rounding};

/// Bytes per slot of the frame.
const SLOT: usize = 8;

/// The most work-items of a sub-group (the ballot's 128 bits).
const MAX_SUB_GROUP: u64 = 128;

/// What a non-uniform point computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Operation {
    /// True for the lowest active work-item.
    Elect,
    /// Whether every active work-item's predicate is true.
    All,
    /// Whether some active work-item's predicate is true.
    Any,
    /// Whether the active work-items' values are all equal.
    AllEqual,
    /// The value of the work-item whose sub-group local id is the source
    /// id (a broadcast or a shuffle).
    Shuffle,
    /// The value of the work-item whose local id is this one's xor the mask.
    ShuffleXor,
    /// The value of the work-item whose local id is this one's minus delta.
    ShuffleUp,
    /// The value of the work-item whose local id is this one's plus delta.
    ShuffleDown,
    /// The value of the lowest active work-item.
    BroadcastFirst,
    /// The uint4 mask of the active work-items whose predicate is true.
    Ballot,
    IAdd,
    FAdd,
    IMul,
    FMul,
    SMin,
    UMin,
    FMin,
    SMax,
    UMax,
    FMax,
    /// Bitwise (and logical, on 0/1 booleans) and.
    And,
    Or,
    Xor,
}

const OPERATIONS: [Operation; 23] = [
    Operation::Elect,
    Operation::All,
    Operation::Any,
    Operation::AllEqual,
    Operation::Shuffle,
    Operation::ShuffleXor,
    Operation::ShuffleUp,
    Operation::ShuffleDown,
    Operation::BroadcastFirst,
    Operation::Ballot,
    Operation::IAdd,
    Operation::FAdd,
    Operation::IMul,
    Operation::FMul,
    Operation::SMin,
    Operation::UMin,
    Operation::FMin,
    Operation::SMax,
    Operation::UMax,
    Operation::FMax,
    Operation::And,
    Operation::Or,
    Operation::Xor,
];

/// The type of the operand's components, as the frame holds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Kind {
    /// A boolean: one byte, 0 or 1.
    Bool,
    I8,
    I16,
    I32,
    I64,
    /// A half, held as an f32 (every sum and product rounded to half).
    Half,
    F32,
    F64,
}

const KINDS: [Kind; 8] = [
    Kind::Bool,
    Kind::I8,
    Kind::I16,
    Kind::I32,
    Kind::I64,
    Kind::Half,
    Kind::F32,
    Kind::F64,
];

impl Kind {
    /// Bytes of a value in its slot.
    fn bytes(self) -> usize {
        match self {
            Kind::Bool | Kind::I8 => 1,
            Kind::I16 => 2,
            Kind::I32 | Kind::Half | Kind::F32 => 4,
            Kind::I64 | Kind::F64 => 8,
        }
    }

    /// The value bits.
    fn mask(self) -> u64 {
        match self {
            Kind::Bool => 1,
            k => u64::MAX >> (64 - 8 * k.bytes()),
        }
    }
}

/// How the results combine the active work-items' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Scan {
    /// Every work-item gets the combination of all (of its cluster).
    Reduce,
    /// Each gets the combination of its own and the lower ones.
    Inclusive,
    /// Each gets the combination of the lower ones (the identity first).
    Exclusive,
}

/// One non-uniform point, encoded in a word the generated code passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Desc {
    pub op: Operation,
    pub kind: Kind,
    pub scan: Scan,
    /// Components of the operand (a broadcast or shuffle of a vector).
    pub comps: u8,
    /// A clustered reduction's cluster size, as its base-2 logarithm.
    pub cluster_log2: Option<u8>,
}

impl Desc {
    /// The word passed to [`clift_non_uniform`].
    pub fn encode(self) -> u64 {
        let cluster = match self.cluster_log2 {
            Some(c) => 0x100 | u64::from(c),
            None => 0,
        };
        self.op as u64
            | (self.kind as u64) << 8
            | (self.scan as u64) << 16
            | u64::from(self.comps) << 24
            | cluster << 32
    }

    /// The inverse of [`Self::encode`].
    pub fn decode(w: u64) -> Option<Desc> {
        let op = *OPERATIONS.get((w & 0xff) as usize)?;
        let kind = *KINDS.get((w >> 8 & 0xff) as usize)?;
        let scan = [Scan::Reduce, Scan::Inclusive, Scan::Exclusive]
            .get((w >> 16 & 0xff) as usize)
            .copied()?;
        let comps = (w >> 24 & 0xff) as u8;
        let cluster = w >> 32 & 0x1ff;
        let cluster_log2 = (cluster & 0x100 != 0).then_some((cluster & 0xff) as u8);
        Some(Desc {
            op,
            kind,
            scan,
            comps,
            cluster_log2,
        })
    }

    /// Slots of the result of each work-item.
    pub fn result_slots(self) -> usize {
        match self.op {
            Operation::Ballot => 4,
            Operation::Shuffle
            | Operation::ShuffleXor
            | Operation::ShuffleUp
            | Operation::ShuffleDown
            | Operation::BroadcastFirst => usize::from(self.comps),
            _ => 1,
        }
    }

    /// Bytes the point takes in the frame at its offset.
    pub fn frame_bytes(self) -> usize {
        16 + SLOT * (usize::from(self.comps) + self.result_slots())
    }
}

/// Computes the results of non-uniform point `desc` (stored at offset `at`
/// of each frame, resume state `state`) for the active work-items of the
/// caller's sub-group (local linear ids `first` to `first + count - 1`),
/// unless the caller's marker says they are computed already in `phase`;
/// the caller is work-item `lin`. The frames are `frame_size` bytes apart
/// from `frames`, the resume state in each frame's first 4 bytes.
///
/// # Safety
/// `frames` must hold the frames of work-items `first` to `first + count -
/// 1` (`frame_size` bytes each), each with the point's slots
/// ([`Desc::frame_bytes`]) at `at`, and `lin` must be one of them: the
/// generated code passes its work-group's private arena, frame size and
/// the point's own offset.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clift_non_uniform(
    frames: *mut u8,
    frame_size: u64,
    first: u64,
    count: u64,
    lin: u64,
    state: u64,
    phase: u64,
    at: u64,
    desc: u64,
) {
    let Some(d) = Desc::decode(desc) else {
        return;
    };
    let count = count.min(MAX_SUB_GROUP);
    if lin < first || lin >= first + count {
        return;
    }
    let frame = |k: u64| frames.wrapping_add((k * frame_size) as usize);
    let at = at as usize;
    // Every `k` passed below is from `first` to `first + count - 1` and
    // every `off` within the point's slots.
    let read = |k: u64, off: usize| {
        // SAFETY: the frame of work-item `k` holds the point's slots at
        // `at` (the caller's contract); read unaligned.
        unsafe { frame(k).add(at + off).cast::<u64>().read_unaligned() }
    };
    let write = |k: u64, off: usize, v: u64| {
        // SAFETY: as for `read`; no reference to the frames is alive.
        unsafe { frame(k).add(at + off).cast::<u64>().write_unaligned(v) }
    };
    if read(lin, 0) == phase {
        return;
    }
    // The active work-items: the caller, the lowest of them, and the later
    // ones of its sub-group suspended at this point (they have not resumed
    // in this phase yet).
    // SAFETY: as above, each frame's first 4 bytes are its resume state.
    let state_of = |k: u64| unsafe { frame(k).cast::<u32>().read_unaligned() };
    let mut members = [0u64; MAX_SUB_GROUP as usize];
    let mut n = 0;
    for k in std::iter::once(lin).chain((lin + 1..first + count).filter(|&k| u64::from(state_of(k)) == state)) {
        members[n] = k;
        n += 1;
    }
    let active = &members[..n];
    let comps = usize::from(d.comps);
    let operand = |k: u64, c: usize| read(k, 16 + SLOT * c) & d.kind.mask();
    let result_at = 16 + SLOT * comps;
    let put = |k: u64, c: usize, v: u64| write(k, result_at + SLOT * c, v);
    match d.op {
        Operation::Elect => {
            for &k in active {
                put(k, 0, u64::from(k == lin));
            }
        }
        Operation::All | Operation::Any => {
            let want = d.op == Operation::All;
            let v = active.iter().all(|&k| (operand(k, 0) != 0) == want) == want;
            for &k in active {
                put(k, 0, u64::from(v));
            }
        }
        Operation::AllEqual => {
            let x = operand(lin, 0);
            let v = active.iter().all(|&k| equal(d.kind, operand(k, 0), x));
            for &k in active {
                put(k, 0, u64::from(v));
            }
        }
        Operation::Ballot => {
            let mut bits = [0u32; 4];
            for &k in active.iter().filter(|&&k| operand(k, 0) != 0) {
                let b = k - first;
                bits[(b / 32) as usize] |= 1 << (b % 32);
            }
            for &k in active {
                for (c, &w) in bits.iter().enumerate() {
                    put(k, c, u64::from(w));
                }
            }
        }
        Operation::BroadcastFirst => {
            for &k in active {
                for c in 0..comps {
                    put(k, c, operand(lin, c));
                }
            }
        }
        Operation::Shuffle | Operation::ShuffleXor | Operation::ShuffleUp | Operation::ShuffleDown => {
            for &k in active {
                let (me, x) = (k - first, read(k, 8));
                let src = match d.op {
                    Operation::Shuffle => Some(x),
                    Operation::ShuffleXor => Some(me ^ x),
                    Operation::ShuffleUp => me.checked_sub(x),
                    _ => me.checked_add(x),
                };
                // A source outside the sub-group or not active is
                // undefined: zero.
                let src = src
                    .filter(|&s| s < count)
                    .map(|s| first + s)
                    .filter(|s| active.contains(s));
                for c in 0..comps {
                    put(k, c, src.map_or(0, |s| operand(s, c)));
                }
            }
        }
        _ => {
            let cluster = |k: u64| match d.cluster_log2 {
                Some(l) if l < 64 => (k - first) >> l,
                _ => 0,
            };
            let id = identity(d.op, d.kind);
            let mut rest = active;
            while let Some(&head) = rest.first() {
                let n = rest.iter().take_while(|&&k| cluster(k) == cluster(head)).count();
                let (group, later) = rest.split_at(n);
                let total = group.iter().fold(id, |a, &k| apply(d.op, d.kind, a, operand(k, 0)));
                let mut acc = id;
                for &k in group {
                    let next = apply(d.op, d.kind, acc, operand(k, 0));
                    let v = match d.scan {
                        Scan::Reduce => total,
                        Scan::Inclusive => next,
                        Scan::Exclusive => acc,
                    };
                    put(k, 0, v);
                    acc = next;
                }
                rest = later;
            }
        }
    }
    for &k in active {
        write(k, 0, phase);
    }
}

/// Whether two values of `kind` are equal (floating point by value).
fn equal(kind: Kind, a: u64, b: u64) -> bool {
    match kind {
        Kind::Half | Kind::F32 => f32::from_bits(a as u32) == f32::from_bits(b as u32),
        Kind::F64 => f64::from_bits(a) == f64::from_bits(b),
        _ => a == b,
    }
}

/// `a` sign-extended from the width of `kind`.
fn signed(kind: Kind, a: u64) -> i64 {
    let shift = 64 - 8 * kind.bytes() as u32;
    ((a << shift) as i64) >> shift
}

/// The identity of `op` on values of `kind`.
fn identity(op: Operation, kind: Kind) -> u64 {
    let m = kind.mask();
    match (op, kind) {
        (Operation::IMul, _) => 1,
        (Operation::And | Operation::UMin, _) => m,
        (Operation::SMin, _) => m >> 1,
        (Operation::SMax, _) => (m >> 1) + 1,
        (Operation::FMul, Kind::F64) => 1f64.to_bits(),
        (Operation::FMul, _) => u64::from(1f32.to_bits()),
        (Operation::FMin, Kind::F64) => f64::INFINITY.to_bits(),
        (Operation::FMin, _) => u64::from(f32::INFINITY.to_bits()),
        (Operation::FMax, Kind::F64) => f64::NEG_INFINITY.to_bits(),
        (Operation::FMax, _) => u64::from(f32::NEG_INFINITY.to_bits()),
        _ => 0,
    }
}

/// `a op b` on values of `kind` (bits in the low bytes, the rest zero).
fn apply(op: Operation, kind: Kind, a: u64, b: u64) -> u64 {
    let m = kind.mask();
    let f = |x: u64| f32::from_bits(x as u32);
    let d = f64::from_bits;
    // A half sum or product rounds to half, as the half operation would.
    let f32_bits = |x: f32| {
        let x = if kind == Kind::Half {
            half_to_f32(f64_to_half(f64::from(x), Rounding::Rte))
        } else {
            x
        };
        u64::from(x.to_bits())
    };
    match (op, kind) {
        (Operation::IAdd, _) => a.wrapping_add(b) & m,
        (Operation::IMul, _) => a.wrapping_mul(b) & m,
        (Operation::SMin, _) => {
            if signed(kind, a) <= signed(kind, b) {
                a
            } else {
                b
            }
        }
        (Operation::SMax, _) => {
            if signed(kind, a) >= signed(kind, b) {
                a
            } else {
                b
            }
        }
        (Operation::UMin, _) => a.min(b),
        (Operation::UMax, _) => a.max(b),
        (Operation::And, _) => a & b,
        (Operation::Or, _) => a | b,
        (Operation::Xor, _) => a ^ b,
        (Operation::FAdd, Kind::F64) => (d(a) + d(b)).to_bits(),
        (Operation::FMul, Kind::F64) => (d(a) * d(b)).to_bits(),
        (Operation::FMin, Kind::F64) => d(a).min(d(b)).to_bits(),
        (Operation::FMax, Kind::F64) => d(a).max(d(b)).to_bits(),
        (Operation::FAdd, _) => f32_bits(f(a) + f(b)),
        (Operation::FMul, _) => f32_bits(f(a) * f(b)),
        (Operation::FMin, _) => u64::from(f(a).min(f(b)).to_bits()),
        (Operation::FMax, _) => u64::from(f(a).max(f(b)).to_bits()),
        _ => a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_round_trip() {
        for op in OPERATIONS {
            for kind in KINDS {
                for cluster_log2 in [None, Some(0), Some(3), Some(200)] {
                    let d = Desc {
                        op,
                        kind,
                        scan: Scan::Exclusive,
                        comps: 16,
                        cluster_log2,
                    };
                    assert_eq!(Desc::decode(d.encode()), Some(d));
                }
            }
        }
        assert_eq!(Desc::decode(0xff), None);
    }

    /// Frames of `n` work-items laid out as the generated code lays them:
    /// the state word, then the point at offset 8.
    struct Frames {
        bytes: Vec<u64>,
        size: usize,
    }

    const AT: usize = 8;

    impl Frames {
        fn new(n: usize, d: Desc) -> Frames {
            let size = AT + d.frame_bytes();
            Frames {
                bytes: vec![0; n * size / 8],
                size,
            }
        }
        fn word(&mut self, k: usize, off: usize) -> &mut u64 {
            &mut self.bytes[(k * self.size + off) / 8]
        }
        /// Work-item `k` arrives at the point (state 5) in phase 1.
        fn arrive(&mut self, k: usize, index: u64, operand: &[u64]) {
            *self.word(k, 0) = 5;
            *self.word(k, AT) = 1;
            *self.word(k, AT + 8) = index;
            for (c, &v) in operand.iter().enumerate() {
                *self.word(k, AT + 16 + 8 * c) = v;
            }
        }
        fn run(&mut self, d: Desc, first: u64, count: u64, lin: u64) {
            let size = self.size as u64;
            // SAFETY: the frames hold `count` work-items with the point's
            // slots at AT.
            unsafe {
                clift_non_uniform(
                    self.bytes.as_mut_ptr().cast(),
                    size,
                    first,
                    count,
                    lin,
                    5,
                    2,
                    AT as u64,
                    d.encode(),
                )
            }
        }
        fn result(&mut self, k: usize, comps: usize, c: usize) -> u64 {
            *self.word(k, AT + 16 + 8 * comps + 8 * c)
        }
    }

    fn desc(op: Operation, kind: Kind, scan: Scan) -> Desc {
        Desc {
            op,
            kind,
            scan,
            comps: 1,
            cluster_log2: None,
        }
    }

    #[test]
    fn only_work_items_at_the_point_are_active() {
        // Work-items 1, 2, 4 and 6 of 8 are at the point; 3 is elsewhere.
        let d = desc(Operation::IAdd, Kind::I32, Scan::Inclusive);
        let mut f = Frames::new(8, d);
        for (k, v) in [(1, 10), (2, 20), (4, 40), (6, 60)] {
            f.arrive(k, 0, &[v]);
        }
        *f.word(3, 0) = 7;
        *f.word(3, AT + 16) = 1000;
        for lin in [1, 2, 4, 6] {
            f.run(d, 0, 8, lin);
        }
        let got: Vec<u64> = [1, 2, 4, 6].iter().map(|&k| f.result(k, 1, 0)).collect();
        assert_eq!(got, [10, 30, 70, 130]);
        assert_eq!(f.result(3, 1, 0), 0, "a work-item elsewhere gets nothing");
        assert_eq!(*f.word(6, AT), 2, "markers are stamped with the phase");
    }

    #[test]
    fn signed_minimum_and_exclusive_identity_of_bytes() {
        let d = desc(Operation::SMin, Kind::I8, Scan::Exclusive);
        let mut f = Frames::new(4, d);
        for (k, v) in [(0u64, 5u64), (1, 0xfe), (2, 3), (3, 0x80)] {
            f.arrive(k as usize, 0, &[v]);
        }
        f.run(d, 0, 4, 0);
        let got: Vec<u64> = (0..4).map(|k| f.result(k, 1, 0)).collect();
        assert_eq!(got, [0x7f, 5, 0xfe, 0xfe]);
    }

    #[test]
    fn clusters_reduce_separately() {
        let d = Desc {
            cluster_log2: Some(1),
            ..desc(Operation::IMul, Kind::I64, Scan::Reduce)
        };
        let mut f = Frames::new(6, d);
        for k in [0, 1, 2, 4, 5] {
            f.arrive(k, 0, &[k as u64 + 2]);
        }
        f.run(d, 0, 6, 0);
        let got: Vec<u64> = [0, 1, 2, 4, 5].iter().map(|&k| f.result(k, 1, 0)).collect();
        assert_eq!(got, [6, 6, 4, 42, 42]);
    }

    #[test]
    fn ballots_shuffles_and_half_sums() {
        let d = desc(Operation::Ballot, Kind::Bool, Scan::Reduce);
        let mut f = Frames::new(8, d);
        for (k, p) in [(8usize, 1u64), (9, 0), (11, 1)] {
            f.arrive(k - 8, 0, &[p]);
        }
        // Second sub-group of a work-group: local ids 8 to 15, frames 0-7 here.
        let frames_from = |f: &mut Frames, lin| {
            let size = f.size as u64;
            // SAFETY: frames 0-7 stand for work-items 8-15, each with the
            // point's slots at AT.
            unsafe {
                clift_non_uniform(
                    f.bytes.as_mut_ptr().cast::<u8>().wrapping_sub(8 * f.size),
                    size,
                    8,
                    8,
                    lin,
                    5,
                    2,
                    AT as u64,
                    d.encode(),
                )
            }
        };
        frames_from(&mut f, 8);
        assert_eq!((0..4).map(|c| f.result(3, 1, c)).collect::<Vec<_>>(), [0b1001, 0, 0, 0]);

        let d = Desc {
            comps: 2,
            ..desc(Operation::ShuffleXor, Kind::I16, Scan::Reduce)
        };
        let mut f = Frames::new(4, d);
        for k in 0..4u64 {
            f.arrive(k as usize, 1, &[k * 100, k * 100 + 1]);
        }
        f.run(d, 0, 4, 0);
        assert_eq!([f.result(2, 2, 0), f.result(2, 2, 1)], [300, 301]);

        let d = desc(Operation::FAdd, Kind::Half, Scan::Reduce);
        let mut f = Frames::new(3, d);
        // 2048 + 1 + 1 in half: each sum rounds (2049 is not a half).
        for (k, v) in [(0, 2048.0f32), (1, 1.0), (2, 1.0)] {
            f.arrive(k, 0, &[u64::from(v.to_bits())]);
        }
        f.run(d, 0, 3, 0);
        assert_eq!(f32::from_bits(f.result(2, 1, 0) as u32), 2048.0);
    }
}
