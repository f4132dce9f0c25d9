//! Clamped indices. `clamp(x + dx, 0, w - 1)` (or `min`, `max`) of an
//! affine sequence with bounds the same in every lane is that sequence
//! wherever no lane reaches a bound, which is nearly everywhere in a
//! stencil. Its lanes are computed as they are (a vector), and the chunk
//! keeps an [`Unclamped`] note beside that vector: the affine sequence
//! the lanes equal, and a test of whether they may not (a lane clamped,
//! or wrapped around since). Arithmetic that keeps sequences affine
//! (adding a uniform value or another sequence, multiplying by a
//! constant, widening, truncating) notes its result from its operand's
//! note; an access chain with such an index notes its pointer; and a
//! load or store through a noted pointer is one vector access when the
//! test is false, the lanes one by one otherwise. The lanes themselves
//! never change: a note only says which faster form gives the same
//! values.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types as cl, InstBuilder, Type as Clif, Value};
use spirv::{Op, OpenclStd100Op as Cl};

use super::{Shape, LANES};
use crate::lower::{Lowering, R};

/// What a chunk knows of a varying integer or pointer computed from a
/// clamped affine sequence: lane k is `base + k * stride` (modulo the
/// width of `base`) unless `may_differ` (an `i8`) is nonzero.
#[derive(Debug, Clone, Copy)]
pub struct Unclamped {
    pub base: Value,
    pub stride: i64,
    pub may_differ: Value,
}

/// The values holding a shape's lanes, by which its note is found
/// (None for shapes that have none: uniform, affine and masks).
fn key(s: Shape) -> Option<Vec<Value>> {
    match s {
        Shape::V(v) => Some(vec![v]),
        Shape::Pair(p) => Some(p.to_vec()),
        Shape::Lanes(l) => Some(l.to_vec()),
        Shape::U(_) | Shape::Mask(_) | Shape::Affine { .. } => None,
    }
}

impl Lowering<'_, '_, '_> {
    /// The note of shape `s`, if it has one (looked up only where the
    /// body has notes: most have none).
    pub(super) fn unclamped(&self, s: Shape) -> Option<Unclamped> {
        let kernel = self.kernel.borrow();
        let notes = &kernel.simd.as_ref()?.unclamped;
        if notes.is_empty() {
            return None;
        }
        notes.get(&key(s)?).copied()
    }

    /// Notes that shape `s`'s lanes are `base + k * stride` unless
    /// `may_differ` (an `i8`) is nonzero.
    pub(super) fn set_unclamped(&mut self, s: Shape, base: Value, stride: i64, may_differ: Value) {
        let g = Unclamped {
            base,
            stride,
            may_differ,
        };
        if let (Some(k), Some(c)) = (key(s), self.kernel.borrow_mut().simd.as_mut()) {
            c.unclamped.insert(k, g);
        }
    }

    /// An affine sequence `s` without a wrap, or the noted sequence of
    /// `s`, with the test that it differs from `s`'s lanes (None for
    /// none).
    fn affine_or_noted(&self, s: Shape) -> Option<(Value, i64, Option<Value>)> {
        match s {
            Shape::Affine {
                base,
                stride,
                wrap: None,
            } => Some((base, stride, None)),
            _ => self.unclamped(s).map(|g| (g.base, g.stride, Some(g.may_differ))),
        }
    }

    /// Either test, or both.
    fn either(&mut self, a: Option<Value>, b: Option<Value>) -> Option<Value> {
        match (a, b) {
            (Some(a), Some(b)) => Some(self.b.ins().bor(a, b)),
            (a, b) => a.or(b),
        }
    }

    /// After OpenCL.std instruction `op` on `ops` gave `result`: a note
    /// for it when `op` clamps an affine sequence to uniform bounds
    /// (`s_clamp`, `u_clamp`, and `min` and `max` of either signedness).
    pub(super) fn note_clamp(&mut self, op: Cl, ops: &[Shape], result: Shape) {
        let signed = matches!(op, Cl::s_clamp | Cl::s_min | Cl::s_max);
        // The sequence and its lower and upper bounds (None: the type's).
        let (x, lo, hi) = match (op, ops) {
            (Cl::s_clamp | Cl::u_clamp, &[x, Shape::U(lo), Shape::U(hi)]) => (x, Some(lo), Some(hi)),
            (Cl::s_min | Cl::u_min, &[x, Shape::U(hi)] | &[Shape::U(hi), x]) => (x, None, Some(hi)),
            (Cl::s_max | Cl::u_max, &[x, Shape::U(lo)] | &[Shape::U(lo), x]) => (x, Some(lo), None),
            _ => return,
        };
        let Shape::Affine { base, stride, wrap } = x else {
            return;
        };
        let t = self.ty(base);
        if !t.is_int() || key(result).is_none() {
            return;
        }
        // The span of the four lanes, which must not reach half the type's
        // range (so that it is their distance whatever their signs).
        let span = stride.unsigned_abs().saturating_mul((LANES - 1) as u64);
        if span >= 1u64 << (t.bits() - 1) {
            return;
        }
        let span = span as i64;
        // A sequence widened from a narrower one (`(long)x + d` of an
        // `int x`) is its affine form where that one does not wrap.
        let wrapped = match wrap {
            Some(w) => match self.wraps(w.narrow, w.nstride, w.signed) {
                Some(wrapped) => Some(wrapped),
                None => return,
            },
            None => None,
        };
        let (below, above) = if signed {
            (IntCC::SignedLessThan, IntCC::SignedGreaterThan)
        } else {
            (IntCC::UnsignedLessThan, IntCC::UnsignedGreaterThan)
        };
        // An absent bound is the type's own.
        let top = 1u64 << (t.bits() - 1);
        let (min, max) = if signed { (top, top - 1) } else { (0, u64::MAX) };
        let lo = lo.unwrap_or_else(|| self.bits(t, min));
        let hi = hi.unwrap_or_else(|| self.bits(t, max));
        // Lanes run from `base` to `base + 3 * stride`: all within the
        // bounds when the first is within them and the room between it and
        // the bound it moves toward is at least the span (the difference of
        // two values in order is exact as an unsigned number).
        let out_low = self.b.ins().icmp(below, base, lo);
        let out_high = self.b.ins().icmp(above, base, hi);
        let room = if stride >= 0 {
            self.b.ins().isub(hi, base)
        } else {
            self.b.ins().isub(base, lo)
        };
        let short = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, room, span);
        let out = self.b.ins().bor(out_low, out_high);
        let may_differ = self.b.ins().bor(out, short);
        let may_differ = match wrapped {
            Some(w) => self.b.ins().bor(may_differ, w),
            None => may_differ,
        };
        self.set_unclamped(result, base, stride, may_differ);
    }

    /// The OpenCL.std min or max that OpSelect `i` computes, when its
    /// condition compares its two values (`a > b ? a : b` is `max(a, b)`,
    /// `a < b ? a : b` `min(a, b)`, and either the other way round; a tie
    /// gives either operand, the same value): for [`Self::note_clamp`].
    pub(super) fn select_as_min_max(&self, i: u32) -> Option<Cl> {
        let m = self.m;
        let inst = self.at(i);
        let (c, x, y) = (inst.id(0)?, inst.id(1)?, inst.id(2)?);
        let cmp = m.def(c)?;
        let (a, b) = (cmp.id(0)?, cmp.id(1)?);
        // Whether the condition holds when the first value is the greater,
        // and the signedness.
        let (first_greater, signed) = match cmp.op {
            Op::SGreaterThan | Op::SGreaterThanEqual => (true, true),
            Op::UGreaterThan | Op::UGreaterThanEqual => (true, false),
            Op::SLessThan | Op::SLessThanEqual => (false, true),
            Op::ULessThan | Op::ULessThanEqual => (false, false),
            _ => return None,
        };
        // The select takes the comparison's first operand where it holds.
        let max = match (x == a && y == b, x == b && y == a) {
            (true, _) => first_greater,
            (_, true) => !first_greater,
            _ => return None,
        };
        Some(match (max, signed) {
            (true, true) => Cl::s_max,
            (true, false) => Cl::u_max,
            (false, true) => Cl::s_min,
            (false, false) => Cl::u_min,
        })
    }

    /// After OpSelect `i` of `x` and `y` gave `result`, both uniform or
    /// affine sequences of one stride without a wrap: a note that its
    /// lanes are the sequence lane 0 takes, when its condition compares
    /// an affine sequence with a uniform value by order (`i + 1 < n ? i +
    /// 1 : i`; clang writes `x > d ? x - 1 : x` as `x + (d < x ? -1 : 0)`),
    /// and the lanes may differ only where lane 0's and lane 3's
    /// conditions differ (the comparison is monotone along the lanes where
    /// the sequence does not wrap around, which the test includes).
    pub(super) fn note_uniform_choice(&mut self, i: u32, x: Shape, y: Shape, result: Shape) -> R {
        let m = self.m;
        let inst = self.at(i);
        let line = |s: Shape| match s {
            Shape::U(v) => Some((v, 0)),
            Shape::Affine {
                base,
                stride,
                wrap: None,
            } => Some((base, stride)),
            _ => None,
        };
        let (Some((xu, xs)), Some((yu, ys)), Some(c)) = (line(x), line(y), inst.id(0)) else {
            return Ok(());
        };
        if xs != ys {
            return Ok(());
        }
        let Some(cmp) = m.def(c) else {
            return Ok(());
        };
        let (cc, signed) = match cmp.op {
            Op::SGreaterThan => (IntCC::SignedGreaterThan, true),
            Op::SGreaterThanEqual => (IntCC::SignedGreaterThanOrEqual, true),
            Op::SLessThan => (IntCC::SignedLessThan, true),
            Op::SLessThanEqual => (IntCC::SignedLessThanOrEqual, true),
            Op::UGreaterThan => (IntCC::UnsignedGreaterThan, false),
            Op::UGreaterThanEqual => (IntCC::UnsignedGreaterThanOrEqual, false),
            Op::ULessThan => (IntCC::UnsignedLessThan, false),
            Op::ULessThanEqual => (IntCC::UnsignedLessThanOrEqual, false),
            _ => return Ok(()),
        };
        let (Some(a), Some(b)) = (cmp.id(0), cmp.id(1)) else {
            return Ok(());
        };
        let (sa, sb) = (self.shapes(a)?, self.shapes(b)?);
        let (&[sa], &[sb]) = (sa.as_slice(), sb.as_slice()) else {
            return Ok(());
        };
        // The sequence, the uniform value, and whether the sequence is
        // the comparison's first operand.
        let (Shape::Affine { base, stride, wrap }, Shape::U(u), first) = (match (sa, sb) {
            (Shape::Affine { .. }, Shape::U(_)) => (sa, sb, true),
            (Shape::U(_), Shape::Affine { .. }) => (sb, sa, false),
            _ => return Ok(()),
        }) else {
            return Ok(());
        };
        let t = self.ty(base);
        if !t.is_int() || self.ty(u) != t || !self.ty(xu).is_int() || key(result).is_none() {
            return Ok(());
        }
        let span = stride.unsigned_abs().saturating_mul((LANES - 1) as u64);
        if span >= 1u64 << (t.bits() - 1) {
            return Ok(());
        }
        let wrapped = match wrap {
            Some(w) => match self.wraps(w.narrow, w.nstride, w.signed) {
                Some(wrapped) => Some(wrapped),
                None => return Ok(()),
            },
            None => None,
        };
        let last = self.b.ins().iadd_imm_s(base, stride * (LANES - 1) as i64);
        // The lanes wrap around between lane 0 and lane 3 exactly where
        // lane 3 lies on the wrong side of lane 0 (the span is below half
        // the range), in the comparison's order.
        let behind = match (stride >= 0, signed) {
            (true, true) => IntCC::SignedLessThan,
            (true, false) => IntCC::UnsignedLessThan,
            (false, true) => IntCC::SignedGreaterThan,
            (false, false) => IntCC::UnsignedGreaterThan,
        };
        let around = self.b.ins().icmp(behind, last, base);
        let [c0, c3] = [base, last].map(|v| {
            let (p, q) = if first { (v, u) } else { (u, v) };
            self.b.ins().icmp(cc, p, q)
        });
        let differ = self.b.ins().bxor(c0, c3);
        let may_differ = self.b.ins().bor(differ, around);
        let may_differ = match wrapped {
            Some(w) => self.b.ins().bor(may_differ, w),
            None => may_differ,
        };
        let chosen = self.b.ins().select(c0, xu, yu);
        self.set_unclamped(result, chosen, xs, may_differ);
        Ok(())
    }

    /// After OpUMod, OpSRem or OpSMod of affine sequence `x` (no wrap,
    /// a positive stride below an eighth of its type's range) by a
    /// uniform `y` gave `result` (`(x + 1) % w`, a ring buffer's index):
    /// a note that its lanes are `x0 % y + k * stride` where no lane
    /// reaches the next multiple of `y` (every lane non-negative for the
    /// signed forms, `y` positive).
    pub(super) fn note_remainder(&mut self, op: Op, x: Shape, y: Shape, result: Shape) {
        let (
            Op::UMod | Op::SRem | Op::SMod,
            Shape::Affine {
                base,
                stride,
                wrap: None,
            },
            Shape::U(d),
        ) = (op, x, y)
        else {
            return;
        };
        let t = self.ty(base);
        if !t.is_int() || self.ty(d) != t || stride <= 0 || stride as u64 >= 1u64 << (t.bits() - 3) {
            return;
        }
        let signed = op != Op::UMod;
        let span = 3 * stride;
        let zero = self.b.ins().iconst(t, 0);
        let one = self.b.ins().iconst(t, 1);
        // A divisor of 0 (or any non-positive one, signed) is replaced by
        // 1 (no trap), whose room below is never enough: always differs.
        let bad_divisor = if signed {
            self.b.ins().icmp(IntCC::SignedLessThanOrEqual, d, zero)
        } else {
            self.b.ins().icmp(IntCC::Equal, d, zero)
        };
        let safe = self.b.ins().select(bad_divisor, one, d);
        let r0 = if signed {
            self.b.ins().srem(base, safe)
        } else {
            self.b.ins().urem(base, safe)
        };
        // The lanes of x must not wrap (nor be negative, signed), and the
        // remainders must stay below the divisor: r0 + span < d (r0 < d,
        // so d - r0 is exact).
        let top = if signed {
            (1u64 << (t.bits() - 1)) - 1
        } else {
            u64::MAX >> (64 - t.bits())
        };
        let limit = self.bits(t, top - span as u64);
        let wraps = self.b.ins().icmp(IntCC::UnsignedGreaterThan, base, limit);
        let room = self.b.ins().isub(safe, r0);
        let short = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThanOrEqual, room, span);
        let may_differ = self.b.ins().bor(wraps, short);
        self.set_unclamped(result, r0, stride, may_differ);
    }

    /// After two-operand instruction `op` on `x` and `y` gave `result`:
    /// its note, when an operand has one and the other is uniform or
    /// affine, and `op` keeps sequences affine (an add, a subtraction, a
    /// multiplication or left shift by a constant).
    pub(super) fn follow_unclamped2(&mut self, op: Op, x: Shape, y: Shape, result: Shape) {
        if self.unclamped(x).is_none() && self.unclamped(y).is_none() {
            return;
        }
        let affine = |l: &Self, s: Shape| match s {
            Shape::U(v) if l.ty(v).is_int() => Some((v, 0, None)),
            _ => l.affine_or_noted(s),
        };
        let (Some((xb, xs, xd)), Some((yb, ys, yd))) = (affine(self, x), affine(self, y)) else {
            return;
        };
        if self.ty(xb) != self.ty(yb) {
            return;
        }
        let (base, stride, may_differ) = match op {
            Op::IAdd => (self.b.ins().iadd(xb, yb), xs.wrapping_add(ys), self.either(xd, yd)),
            Op::ISub => (self.b.ins().isub(xb, yb), xs.wrapping_sub(ys), self.either(xd, yd)),
            Op::IMul | Op::ShiftLeftLogical if ys == 0 => {
                let Some(c) = self.iconst_of(yb) else {
                    return;
                };
                let f = if op == Op::IMul {
                    c
                } else {
                    1i64.wrapping_shl(c.rem_euclid(i64::from(self.ty(xb).bits())) as u32)
                };
                (self.b.ins().imul_imm_s(xb, f), xs.wrapping_mul(f), xd)
            }
            Op::IMul if xs == 0 => {
                let Some(c) = self.iconst_of(xb) else {
                    return;
                };
                (self.b.ins().imul_imm_s(yb, c), ys.wrapping_mul(c), yd)
            }
            _ => return,
        };
        if let Some(may_differ) = may_differ {
            self.set_unclamped(result, base, stride, may_differ);
        }
    }

    /// After one-operand instruction `op` on `x` gave `result` of type
    /// `t`: its note, when `x` has one and `op` is a negation or an
    /// integer conversion (a widening adds the test that the narrow lanes
    /// wrap around, a truncation keeps the lanes exact modulo its width).
    pub(super) fn follow_unclamped1(&mut self, op: Op, x: Shape, t: Clif, result: Shape) {
        let Some(g) = self.unclamped(x) else {
            return;
        };
        let xt = self.ty(g.base);
        let g = match op {
            Op::SNegate => Unclamped {
                base: self.b.ins().ineg(g.base),
                stride: g.stride.wrapping_neg(),
                ..g
            },
            Op::UConvert | Op::SConvert if t.is_int() && t.bits() < xt.bits() => Unclamped {
                base: self.b.ins().ireduce(t, g.base),
                ..g
            },
            Op::UConvert | Op::SConvert if t.is_int() && t.bits() > xt.bits() => {
                let signed = op == Op::SConvert;
                let Some(wraps) = self.wraps(g.base, g.stride, signed) else {
                    return;
                };
                let base = if signed {
                    self.b.ins().sextend(t, g.base)
                } else {
                    self.b.ins().uextend(t, g.base)
                };
                Unclamped {
                    base,
                    stride: g.stride,
                    may_differ: self.b.ins().bor(g.may_differ, wraps),
                }
            }
            Op::UConvert | Op::SConvert | Op::Bitcast if t == xt => g,
            _ => return,
        };
        self.set_unclamped(result, g.base, g.stride, g.may_differ);
    }

    /// Pointer `p` as an affine sequence without a wrap, and the test (an
    /// `i8`) that its lanes differ from it: a noted pointer's sequence
    /// and test. None for any other pointer.
    pub(super) fn unclamped_pointer(&self, p: Shape) -> Option<(Shape, Value)> {
        let g = self.unclamped(p)?;
        (self.ty(g.base) == cl::I64).then_some((
            Shape::Affine {
                base: g.base,
                stride: g.stride,
                wrap: None,
            },
            g.may_differ,
        ))
    }
}
