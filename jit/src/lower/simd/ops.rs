//! The 4-lane forms of value instructions: integer arithmetic that keeps
//! affine sequences affine, and 32-bit arithmetic, comparisons, selects,
//! conversions and the simple OpenCL.std instructions as SIMD operations
//! with the same semantics as the scalar lowering (8- and 16-bit integers
//! in the low lanes of `i8x16` and `i16x8` vectors, where wrapping around
//! their width is the lanes' own; the 64-bit values as pairs). Whatever has no form
//! here returns `false` and runs lane by lane (`Lowering::per_lane`).

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, ConstantData, Endianness, InstBuilder, InstructionData, MemFlagsData, Opcode, StackSlotData,
    StackSlotKind, Type as Clif, Value,
};
use spirv::{Decoration, Op, OpenclStd100Op as Cl};

use super::{bool_components, Shape, Wrap};
use crate::lower::{types, Lowering, R};

/// The Cranelift comparison of a SPIR-V integer comparison.
fn int_cc(op: Op) -> Option<IntCC> {
    Some(match op {
        Op::IEqual => IntCC::Equal,
        Op::INotEqual => IntCC::NotEqual,
        Op::UGreaterThan => IntCC::UnsignedGreaterThan,
        Op::UGreaterThanEqual => IntCC::UnsignedGreaterThanOrEqual,
        Op::ULessThan => IntCC::UnsignedLessThan,
        Op::ULessThanEqual => IntCC::UnsignedLessThanOrEqual,
        Op::SGreaterThan => IntCC::SignedGreaterThan,
        Op::SGreaterThanEqual => IntCC::SignedGreaterThanOrEqual,
        Op::SLessThan => IntCC::SignedLessThan,
        Op::SLessThanEqual => IntCC::SignedLessThanOrEqual,
        _ => return None,
    })
}

/// The Cranelift comparison of a SPIR-V float comparison.
fn float_cc(op: Op) -> Option<FloatCC> {
    Some(match op {
        Op::FOrdEqual => FloatCC::Equal,
        Op::FOrdNotEqual => FloatCC::OrderedNotEqual,
        Op::FOrdLessThan => FloatCC::LessThan,
        Op::FOrdLessThanEqual => FloatCC::LessThanOrEqual,
        Op::FOrdGreaterThan => FloatCC::GreaterThan,
        Op::FOrdGreaterThanEqual => FloatCC::GreaterThanOrEqual,
        Op::FUnordEqual => FloatCC::UnorderedOrEqual,
        Op::FUnordNotEqual => FloatCC::NotEqual,
        Op::FUnordLessThan => FloatCC::UnorderedOrLessThan,
        Op::FUnordLessThanEqual => FloatCC::UnorderedOrLessThanOrEqual,
        Op::FUnordGreaterThan => FloatCC::UnorderedOrGreaterThan,
        Op::FUnordGreaterThanEqual => FloatCC::UnorderedOrGreaterThanOrEqual,
        Op::Ordered => FloatCC::Ordered,
        Op::Unordered => FloatCC::Unordered,
        Op::LessOrGreater => FloatCC::OrderedNotEqual,
        _ => return None,
    })
}

/// How many operands OpenCL.std instruction `op` has when [`Lowering`]'s
/// `min_max` makes its vector form for lanes of type `t`: the float and
/// integer minimums, maximums and clamps, and `abs` of a 64-bit integer
/// (a 32-bit one has its own form).
fn min_max_arity(op: Cl, t: Clif) -> Option<usize> {
    let float = matches!(t, cl::F32 | cl::F64);
    let int = matches!(t, cl::I8 | cl::I16 | cl::I32 | cl::I64);
    match op {
        Cl::fmax | Cl::fmax_common | Cl::fmin | Cl::fmin_common if float => Some(2),
        Cl::fclamp if float => Some(3),
        Cl::s_max | Cl::u_max | Cl::s_min | Cl::u_min if int => Some(2),
        Cl::s_clamp | Cl::u_clamp if int => Some(3),
        Cl::s_abs | Cl::u_abs if t == cl::I64 => Some(1),
        _ => None,
    }
}

/// The 4-lane vector type of scalar type `t` ([`Shape::V`]): 32-bit
/// values fill it, 8- and 16-bit integers its lanes 0-3.
pub(super) fn vec_of(t: Clif) -> Option<Clif> {
    match t {
        cl::I32 => Some(cl::I32X4),
        cl::F32 => Some(cl::F32X4),
        cl::I16 => Some(cl::I16X8),
        cl::I8 => Some(cl::I8X16),
        _ => None,
    }
}

/// Whether `t` is an 8- or 16-bit integer.
fn narrow(t: Clif) -> bool {
    matches!(t, cl::I8 | cl::I16)
}

impl Lowering<'_, '_, '_> {
    /// The 2-lane vector type of 64-bit scalar type `t`, when this body
    /// holds it as a [`Shape::Pair`] (not when it holds values per lane).
    pub(super) fn pair_of(&self, t: Clif) -> Option<Clif> {
        match super::Kind::of(t, false) {
            super::Kind::Pair(pt) if !self.scalar_lanes() => Some(pt),
            _ => None,
        }
    }

    /// The scalar type of one lane of a shape (`i8` for a mask).
    pub(super) fn lane_type(&self, s: Shape) -> Clif {
        match s {
            Shape::U(v) => self.ty(v),
            Shape::V(v) => self.ty(v).lane_type(),
            Shape::Mask(_) => cl::I8,
            Shape::Lanes(l) => self.ty(l[0]),
            Shape::Pair(p) => self.ty(p[0]).lane_type(),
            Shape::Affine { base, .. } => self.ty(base),
        }
    }

    /// How many low bits of integer `v` are known to be zero, from the
    /// instruction defining it (constants, multiplications and left
    /// shifts by constants, masks, sums).
    fn low_zeros(&self, v: Value) -> u32 {
        let dfg = &self.b.func.dfg;
        let bits = dfg.value_type(v).bits();
        let Some(inst) = dfg.value_def(dfg.resolve_aliases(v)).inst() else {
            return 0;
        };
        let tz = |c: i64| (c.trailing_zeros()).min(bits);
        let z = match dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => tz(imm.bits()),
            InstructionData::Binary { opcode, args: [a, b] } => match opcode {
                Opcode::Imul => self.low_zeros(a).saturating_add(self.low_zeros(b)),
                Opcode::Ishl => self.iconst_of(b).map_or(0, |k| {
                    self.low_zeros(a)
                        .saturating_add(k.rem_euclid(i64::from(bits.max(1))) as u32)
                }),
                Opcode::Iadd => self.low_zeros(a).min(self.low_zeros(b)),
                Opcode::Band => self.low_zeros(a).max(self.low_zeros(b)),
                _ => 0,
            },
            _ => 0,
        };
        z.min(bits)
    }

    /// Whether `v` is a constant with every bit of type `t` set.
    fn all_ones(&self, v: Value, t: Clif) -> bool {
        let mask = if t.bits() >= 64 { -1 } else { (1i64 << t.bits()) - 1 };
        self.iconst_of(v).is_some_and(|c| c & mask == mask)
    }

    /// The value of `v` if an `iconst` defines it.
    pub(super) fn iconst_of(&self, v: Value) -> Option<i64> {
        let inst = self.b.func.dfg.value_def(v).inst()?;
        match self.b.func.dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// The 4-lane form of value instruction `i`, if it has one here
    /// (`false`: it has none, and nothing was recorded).
    ///
    /// The forms here only compute a result value, so an instruction that
    /// has none (a void result: the `vstore` family) or reads or writes
    /// memory through a pointer operand never gets one: it runs through the
    /// scalar lowering, lane by lane. A form that would record fewer or
    /// more components than the result has is an error, never a silently
    /// partial result.
    pub(super) fn simd_op(&mut self, i: u32) -> R<bool> {
        let m = self.m;
        let inst = self.at(i);
        let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
            return Ok(false);
        };
        let out = types::components(m, ty)?;
        if out.is_empty() || super::analysis::ext_through_pointer(m, i) {
            return Ok(false);
        }
        // Holding values per lane: no vector forms for 8- to 32-bit
        // results but booleans (checked before any is made: some call
        // helpers).
        if self.scalar_lanes() {
            let bools = bool_components(m, ty)?;
            if out.iter().zip(bools).any(|(&t, b)| !b && vec_of(t).is_some()) {
                return Ok(false);
            }
        }
        // Half values: the vector forms of the four arithmetic operations
        // (rounded to half after, as `lower::half::round_rte` rounds each
        // lane), and of the instructions that only compare or move them;
        // the others run lane by lane.
        let half = self.touches_half(i);
        if half && matches!(inst.op, Op::FConvert | Op::ConvertSToF | Op::ConvertUToF) {
            return self.half_convert(i, &out);
        }
        let rounded = matches!(inst.op, Op::FAdd | Op::FSub | Op::FMul | Op::FDiv);
        if half
            && !rounded
            && !matches!(
                inst.op,
                Op::FNegate
                    | Op::Select
                    | Op::FOrdEqual
                    | Op::FUnordEqual
                    | Op::FOrdNotEqual
                    | Op::FUnordNotEqual
                    | Op::FOrdLessThan
                    | Op::FUnordLessThan
                    | Op::FOrdGreaterThan
                    | Op::FUnordGreaterThan
                    | Op::FOrdLessThanEqual
                    | Op::FUnordLessThanEqual
                    | Op::FOrdGreaterThanEqual
                    | Op::FUnordGreaterThanEqual
            )
        {
            return Ok(false);
        }
        let Some(mut shapes) = self.simd_shapes(i, &out)? else {
            return Ok(false);
        };
        if half && rounded {
            for s in &mut shapes {
                let Shape::V(v) = *s else {
                    return Err(format!("the 4-lane form of {} on half made no vector", inst.opname()));
                };
                *s = Shape::V(crate::lower::half::round_rte4(self.b, v));
            }
        }
        if shapes.len() != out.len() {
            return Err(format!(
                "the 4-lane form of {} made {} components for a result of {}",
                inst.opname(),
                shapes.len(),
                out.len()
            ));
        }
        self.set_shapes(id, shapes)?;
        Ok(true)
    }

    /// A conversion to or from half (`lower::convert`'s rules): from a
    /// float, a half or a 32-bit integer to half rounded to nearest (the
    /// `f32` conversion, then each lane rounded to half), and from half to
    /// float (the value as it is). Others, and other rounding modes, run
    /// lane by lane (false).
    fn half_convert(&mut self, i: u32, out: &[Clif]) -> R<bool> {
        use crate::lower::half;
        let m = self.m;
        let inst = self.at(i);
        let (ty, id) = inst.result();
        let src = inst.operand(0);
        let shapes = self.shapes(src)?;
        if shapes.len() != out.len() {
            return Ok(false);
        }
        let half_out = half::is_half(m, ty);
        if !half_out {
            // Half to float: the f32 is the half's exact value.
            let widen = inst.op == Op::FConvert && out.iter().all(|&t| t == cl::F32);
            if widen {
                self.set_shapes(id, shapes)?;
            }
            return Ok(widen);
        }
        if !matches!(
            crate::lower::convert::rounding(m, id),
            None | Some(crate::lower::convert::Round::Rte)
        ) {
            return Ok(false);
        }
        let types: Vec<Clif> = shapes.iter().map(|&s| self.lane_type(s)).collect();
        let from = match inst.op {
            Op::FConvert => cl::F32,
            _ => cl::I32,
        };
        if types.iter().any(|&t| t != from) {
            return Ok(false);
        }
        let mut made = Vec::with_capacity(shapes.len());
        for s in shapes {
            let f = match inst.op {
                Op::FConvert => self.as_vec(s, cl::F32X4),
                Op::ConvertSToF => {
                    let v = self.as_vec(s, cl::I32X4);
                    self.b.ins().fcvt_from_sint(cl::F32X4, v)
                }
                _ => {
                    let v = self.as_vec(s, cl::I32X4);
                    self.b.ins().fcvt_from_uint(cl::F32X4, v)
                }
            };
            made.push(Shape::V(half::round_rte4(self.b, f)));
        }
        self.set_shapes(id, made)?;
        Ok(true)
    }

    /// The shapes of the result components `out` of instruction `i` in a
    /// 4-lane form, or None if it has none here.
    fn simd_shapes(&mut self, i: u32, out: &[Clif]) -> R<Option<Vec<Shape>>> {
        let m = self.m;
        let inst = self.at(i);
        let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
            return Ok(None);
        };
        let bools = bool_components(m, ty)?;
        let a = |k: usize| inst.operand(k);
        let mut shapes = Vec::with_capacity(out.len());
        match inst.op {
            Op::Select => {
                let c = self.shapes(a(0))?;
                let x = self.shapes(a(1))?;
                let y = self.shapes(a(2))?;
                for k in 0..out.len() {
                    let ck = if c.len() == 1 {
                        c[0]
                    } else {
                        *c.get(k).ok_or("size mismatch")?
                    };
                    let (Some(&xk), Some(&yk)) = (x.get(k), y.get(k)) else {
                        return Err("size mismatch".into());
                    };
                    match self.select(ck, xk, yk, out[k], bools[k]) {
                        Some(s) => {
                            // `i < 0 ? 0 : i`, `i > m ? m : i`: min or max
                            // as a select of a comparison's own operands.
                            if let (1, Some(op)) = (out.len(), self.select_as_min_max(i)) {
                                self.note_clamp(op, &[xk, yk], s);
                            } else if out.len() == 1 {
                                self.note_uniform_choice(i, xk, yk, s)?;
                            }
                            shapes.push(s)
                        }
                        None => return Ok(None),
                    }
                }
            }
            Op::Dot => {
                let x = self.shapes(a(0))?;
                let y = self.shapes(a(1))?;
                if x.len() != y.len() || x.is_empty() || out.first() != Some(&cl::F32) {
                    return Ok(None);
                }
                let mut acc = None;
                for (&xk, &yk) in x.iter().zip(&y) {
                    let xv = self.as_vec(xk, cl::F32X4);
                    let yv = self.as_vec(yk, cl::F32X4);
                    let p = self.b.ins().fmul(xv, yv);
                    acc = Some(match acc {
                        None => p,
                        Some(s) => self.b.ins().fadd(s, p),
                    });
                }
                shapes.push(Shape::V(acc.ok_or("empty")?));
            }
            Op::VectorTimesScalar => {
                let x = self.shapes(a(0))?;
                let s = *self.shapes(a(1))?.first().ok_or("missing scalar")?;
                if out.iter().all(|&t| t == cl::F64) && self.pair_of(cl::F64).is_some() {
                    let sp = self.as_pair(s, cl::F64X2);
                    for xk in x {
                        let xp = self.as_pair(xk, cl::F64X2);
                        shapes.push(Shape::Pair([0, 1].map(|h| self.b.ins().fmul(xp[h], sp[h]))));
                    }
                    return Ok(Some(shapes));
                }
                if out.iter().any(|&t| t != cl::F32) {
                    return Ok(None);
                }
                let sv = self.as_vec(s, cl::F32X4);
                for xk in x {
                    let xv = self.as_vec(xk, cl::F32X4);
                    shapes.push(Shape::V(self.b.ins().fmul(xv, sv)));
                }
            }
            Op::ExtInst => {
                let Some(op) = inst.lit(1).and_then(Cl::from_u32) else {
                    return Ok(None);
                };
                // A literal operand (vloadn's component count) has no
                // shape: no 4-lane form.
                let mut args = Vec::new();
                for k in 2..inst.operands.len() {
                    let Some(x) = inst.id(k) else {
                        return Ok(None);
                    };
                    args.push(self.shapes(x)?);
                }
                if let Some(g) = self.geometric4(op, &args, out) {
                    return Ok(Some(g));
                }
                for (k, &t) in out.iter().enumerate() {
                    let ops: Vec<Shape> = args.iter().filter_map(|s| s.get(k).copied()).collect();
                    if ops.len() != args.len() {
                        return Ok(None);
                    }
                    // The first form that takes the instruction.
                    let s = self
                        .lanewise4(op, &ops, t, out.len() == 1)
                        .or_else(|| self.rounding4(op, &ops, t))
                        .or_else(|| self.pown4(op, &ops, t))
                        .or_else(|| self.sinpi4(op, &ops, t))
                        .or_else(|| self.tanpi4(op, &ops, t))
                        .or_else(|| self.exponent4(op, &ops, t))
                        .or_else(|| self.nextafter4(op, &ops, t))
                        .or_else(|| self.powr4(op, &ops, t))
                        .or_else(|| self.rootn4(op, &ops, t))
                        .or_else(|| self.remainder_ext4(op, &ops, t))
                        .or_else(|| self.ext(op, &ops, t));
                    match s {
                        Some(s) => {
                            self.note_clamp(op, &ops, s);
                            shapes.push(s)
                        }
                        None => return Ok(None),
                    }
                }
            }
            Op::Bitcast if types::components(m, self.type_of(a(0)))?.len() != out.len() => {
                let x = self.shapes(a(0))?;
                return Ok(self.repack4(&x, out));
            }
            // Two value operands (not OpGenericCastToPtrExplicit's storage
            // class).
            op if inst.operands.len() == 2 && inst.id(1).is_some() && !matches!(op, Op::VectorShuffle) => {
                if let Some(s) = self.sign_extended_low_bits(i, out)? {
                    return Ok(Some(vec![s]));
                }
                let x = self.shapes(a(0))?;
                let y = self.shapes(a(1))?;
                for (k, &t) in out.iter().enumerate() {
                    let (Some(&xk), Some(&yk)) = (x.get(k), y.get(k)) else {
                        return Ok(None);
                    };
                    match self.binary4(op, xk, yk, t) {
                        Some(s) => {
                            self.follow_unclamped2(op, xk, yk, s);
                            self.note_remainder(op, xk, yk, s);
                            shapes.push(s)
                        }
                        None => return Ok(None),
                    }
                }
            }
            op if inst.operands.len() == 1 => {
                let sat = m.decoration(id, Decoration::SaturatedConversion).is_some();
                let mut x = self.shapes(a(0))?;
                if m.decoration(id, Decoration::FPRoundingMode).is_some() {
                    // A float-to-integer conversion with a rounding mode
                    // (convert_int_rte, ...): the float rounded to an
                    // integral value first (nearest, ceil or floor), then
                    // converted as toward zero, as the scalar lowering's
                    // `float_to_int`; other conversions with a rounding
                    // mode run lane by lane.
                    use crate::lower::convert::{rounding, Round};
                    if !matches!(op, Op::ConvertFToS | Op::ConvertFToU) {
                        return Ok(None);
                    }
                    let Some(mode) = rounding(m, id) else {
                        return Ok(None);
                    };
                    for s in x.iter_mut() {
                        let round = |l: &mut Self, v: Value| match mode {
                            Round::Rtz => v,
                            Round::Rte => l.b.ins().nearest(v),
                            Round::Rtp => l.b.ins().ceil(v),
                            Round::Rtn => l.b.ins().floor(v),
                        };
                        *s = match self.lane_type(*s) {
                            cl::F32 => {
                                let v = self.as_vec(*s, cl::F32X4);
                                Shape::V(round(self, v))
                            }
                            cl::F64 => {
                                let Some(pt) = self.pair_of(cl::F64) else {
                                    return Ok(None);
                                };
                                let p = self.as_pair(*s, pt);
                                Shape::Pair(p.map(|h| round(self, h)))
                            }
                            _ => return Ok(None),
                        };
                    }
                }
                for (k, &t) in out.iter().enumerate() {
                    let Some(&xk) = x.get(k) else {
                        return Ok(None);
                    };
                    match self.unary4(op, xk, t, sat)? {
                        Some(s) => {
                            if !sat {
                                self.follow_unclamped1(op, xk, t, s);
                            }
                            shapes.push(s)
                        }
                        None => return Ok(None),
                    }
                }
            }
            _ => return Ok(None),
        }
        Ok(Some(shapes))
    }

    /// OpSelect of one component.
    fn select(&mut self, c: Shape, x: Shape, y: Shape, t: Clif, boolean: bool) -> Option<Shape> {
        if let (false, Some(pt)) = (boolean, self.pair_of(t)) {
            if self.lane_type(x) != t || self.lane_type(y) != t {
                return None;
            }
            let (xp, yp) = (self.as_pair(x, pt), self.as_pair(y, pt));
            return Some(Shape::Pair(match c {
                Shape::U(c) => [0, 1].map(|h| self.b.ins().select(c, xp[h], yp[h])),
                _ => {
                    let mask = self.as_mask(c);
                    [0, 1].map(|h| self.select_lanes(mask, xp[h], yp[h], super::Kind::Pair(pt), h))
                }
            }));
        }
        let vt = if boolean { cl::I32X4 } else { vec_of(t)? };
        if !boolean && (self.lane_type(x) != t || self.lane_type(y) != t) {
            return None;
        }
        let wrap = |v| if boolean { Shape::Mask(v) } else { Shape::V(v) };
        let (xv, yv) = if boolean {
            (self.as_mask(x), self.as_mask(y))
        } else {
            (self.as_vec(x, vt), self.as_vec(y, vt))
        };
        Some(wrap(match c {
            Shape::U(c) => self.b.ins().select(c, xv, yv),
            _ => {
                let mask = self.as_mask(c);
                let mask = self.mask_as(mask, vt);
                self.b.ins().bitselect(mask, xv, yv)
            }
        }))
    }

    /// OpBitcast between types of different component counts (`as_uint`
    /// of a `uchar4`, `as_float2` of a `ulong`): components of 8, 16 or
    /// 32 bits, or one or two 64-bit ones, on both sides, through the block
    /// of the four lanes' values side by side (`interleave`), so every
    /// bit is kept.
    fn repack4(&mut self, x: &[Shape], out: &[Clif]) -> Option<Vec<Shape>> {
        let (xt, t) = (self.lane_type(*x.first()?), *out.first()?);
        if self.scalar_lanes()
            || x.iter().any(|&s| self.lane_type(s) != xt)
            || out.iter().any(|&o| o != t)
            || x.len() as u32 * xt.bytes() != out.len() as u32 * t.bytes()
        {
            return None;
        }
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let block = if xt.bits() == 64 {
            let pt = self.pair_of(xt)?;
            if x.len() > 2 {
                return None;
            }
            let halves: Vec<Value> = x.iter().flat_map(|&s| self.as_pair(s, pt)).collect();
            self.pack(&halves, 8)?
        } else {
            let vt = vec_of(xt)?;
            let comps: Vec<Value> = x.iter().map(|&s| self.as_vec(s, vt)).collect();
            self.pack(&comps, u64::from(xt.bytes()))?
        };
        if t.bits() == 64 {
            let pt = self.pair_of(t)?;
            let halves = self.unpack(&block, t, out.len())?;
            return Some(
                halves
                    .chunks(2)
                    .map(|h| Shape::Pair([h[0], h[1]].map(|v| self.b.ins().bitcast(pt, le, v))))
                    .collect(),
            );
        }
        let vt = vec_of(t)?;
        let comps = self.unpack(&block, t, out.len())?;
        Some(
            comps
                .into_iter()
                .map(|v| Shape::V(self.b.ins().bitcast(vt, le, v)))
                .collect(),
        )
    }

    /// A two-operand instruction on one component.
    fn binary4(&mut self, op: Op, x: Shape, y: Shape, t: Clif) -> Option<Shape> {
        let xt = self.lane_type(x);
        if op == Op::FRem {
            return self.remainder4(false, x, y);
        }
        if let Some(s) = self.affine4(op, x, y, xt) {
            return Some(s);
        }
        if (int_cc(op).is_some() || float_cc(op).is_some()) && self.lane_type(y) != xt {
            return None;
        }
        if let Some(cc) = int_cc(op) {
            if xt == cl::I64 {
                return Some(self.compare64(cc, x, y));
            }
            let vt = vec_of(xt)?;
            let (xv, yv) = (self.as_vec(x, vt), self.as_vec(y, vt));
            let r = self.b.ins().icmp(cc, xv, yv);
            // A narrow mask's lanes 0-3, each sign-extended to 32 bits.
            return Some(Shape::Mask(self.widen4(r, true)));
        }
        if let Some(cc) = float_cc(op) {
            if let Some(pt) = self.pair_of(xt) {
                let (xp, yp) = (self.as_pair(x, pt), self.as_pair(y, pt));
                let [lo, hi] = [0, 1].map(|h| self.fcmp_vec(cc, xp[h], yp[h]));
                return Some(Shape::Mask(self.pack_masks(lo, hi)));
            }
            if xt != cl::F32 {
                return None;
            }
            let (xv, yv) = (self.as_vec(x, cl::F32X4), self.as_vec(y, cl::F32X4));
            let r = self.fcmp_vec(cc, xv, yv);
            return Some(Shape::Mask(self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), r)));
        }
        match op {
            Op::LogicalAnd | Op::LogicalOr | Op::LogicalEqual | Op::LogicalNotEqual => {
                let (xm, ym) = (self.as_mask(x), self.as_mask(y));
                let ins = self.b.ins();
                return Some(Shape::Mask(match op {
                    Op::LogicalAnd => ins.band(xm, ym),
                    Op::LogicalOr => ins.bor(xm, ym),
                    Op::LogicalNotEqual => ins.bxor(xm, ym),
                    _ => {
                        let d = ins.bxor(xm, ym);
                        self.b.ins().bnot(d)
                    }
                }));
            }
            Op::ShiftLeftLogical | Op::ShiftRightLogical | Op::ShiftRightArithmetic => {
                // A count per lane.
                let Shape::U(n) = y else {
                    return match op {
                        Op::ShiftLeftLogical => self.shift_left_by_lanes(x, y, xt),
                        _ => None,
                    };
                };
                // A uniform count: Cranelift takes it modulo the lane width,
                // as OpenCL C does.
                if let (cl::I64, Some(pt)) = (xt, self.pair_of(xt)) {
                    let xp = self.as_pair(x, pt);
                    return Some(Shape::Pair(xp.map(|h| {
                        let ins = self.b.ins();
                        match op {
                            Op::ShiftLeftLogical => ins.ishl(h, n),
                            Op::ShiftRightLogical => ins.ushr(h, n),
                            _ => ins.sshr(h, n),
                        }
                    })));
                }
                if !matches!(xt, cl::I8 | cl::I16 | cl::I32) {
                    return None;
                }
                let xv = self.as_vec(x, vec_of(xt)?);
                let ins = self.b.ins();
                return Some(Shape::V(match op {
                    Op::ShiftLeftLogical => ins.ishl(xv, n),
                    Op::ShiftRightLogical => ins.ushr(xv, n),
                    _ => ins.sshr(xv, n),
                }));
            }
            Op::SDiv | Op::UDiv | Op::SRem | Op::SMod | Op::UMod => {
                if xt != t || self.lane_type(y) != t {
                    return None;
                }
                // A constant divisor: a multiply by its reciprocal
                // (cheaper than `divpd`).
                if let Shape::U(c) = y {
                    if let Some(d) = self.iconst_of(c) {
                        return if t == cl::I64 {
                            self.divide_longs_by_constant(op, x, d)
                        } else {
                            self.divide_by_constant4(op, x, d, t)
                        };
                    }
                }
                return self.divide4(op, x, y, t);
            }
            _ => {}
        }
        if let Some(pt) = self.pair_of(t) {
            let known = match t {
                cl::F64 => matches!(op, Op::FAdd | Op::FSub | Op::FMul | Op::FDiv),
                _ => matches!(
                    op,
                    Op::IAdd | Op::ISub | Op::IMul | Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor
                ),
            };
            if !known || xt != t || self.lane_type(y) != t {
                return None;
            }
            let (xp, yp) = (self.as_pair(x, pt), self.as_pair(y, pt));
            return Some(Shape::Pair([0, 1].map(|h| {
                let (a, b) = (xp[h], yp[h]);
                let ins = self.b.ins();
                match op {
                    Op::FAdd => ins.fadd(a, b),
                    Op::FSub => ins.fsub(a, b),
                    Op::FMul => ins.fmul(a, b),
                    Op::FDiv => ins.fdiv(a, b),
                    Op::IAdd => ins.iadd(a, b),
                    Op::ISub => ins.isub(a, b),
                    Op::IMul => ins.imul(a, b),
                    Op::BitwiseAnd => ins.band(a, b),
                    Op::BitwiseOr => ins.bor(a, b),
                    _ => ins.bxor(a, b),
                }
            })));
        }
        let known = matches!(
            (op, t),
            (Op::FAdd | Op::FSub | Op::FMul | Op::FDiv, cl::F32)
                | (
                    Op::IAdd | Op::ISub | Op::IMul | Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor,
                    cl::I8 | cl::I16 | cl::I32
                )
        );
        if !known || xt != t || self.lane_type(y) != t {
            return None;
        }
        let vt = vec_of(t)?;
        let (xv, yv) = (self.as_vec(x, vt), self.as_vec(y, vt));
        if narrow(t) {
            let ins = self.b.ins();
            return Some(Shape::V(match op {
                Op::IAdd => ins.iadd(xv, yv),
                Op::ISub => ins.isub(xv, yv),
                Op::BitwiseAnd => ins.band(xv, yv),
                Op::BitwiseOr => ins.bor(xv, yv),
                Op::BitwiseXor => ins.bxor(xv, yv),
                Op::IMul if t == cl::I16 => ins.imul(xv, yv),
                // x86 has no byte multiply: the bytes as 16-bit lanes,
                // multiplied, each product's low byte.
                Op::IMul => {
                    let (a, b) = (ins.uwiden_low(xv), self.b.ins().uwiden_low(yv));
                    let p = self.b.ins().imul(a, b);
                    self.narrow4(p, cl::I8X16)
                }
                _ => return None,
            }));
        }
        let ins = self.b.ins();
        Some(Shape::V(match (op, t) {
            (Op::FAdd, cl::F32) => ins.fadd(xv, yv),
            (Op::FSub, cl::F32) => ins.fsub(xv, yv),
            (Op::FMul, cl::F32) => ins.fmul(xv, yv),
            (Op::FDiv, cl::F32) => ins.fdiv(xv, yv),
            (Op::IAdd, cl::I32) => ins.iadd(xv, yv),
            (Op::ISub, cl::I32) => ins.isub(xv, yv),
            (Op::IMul, cl::I32) => ins.imul(xv, yv),
            (Op::BitwiseAnd, cl::I32) => ins.band(xv, yv),
            (Op::BitwiseOr, cl::I32) => ins.bor(xv, yv),
            (Op::BitwiseXor, cl::I32) => ins.bxor(xv, yv),
            _ => return None,
        }))
    }

    /// A two-operand instruction on an affine sequence (`x` or `y`, the
    /// other affine or uniform), if the result stays affine.
    fn affine4(&mut self, op: Op, x: Shape, y: Shape, xt: Clif) -> Option<Shape> {
        // Affine sequences stay affine under adds, subtractions, and
        // multiplications and left shifts by constants (at most one
        // operand may carry a wrap, which follows the arithmetic).
        let affine = |l: &Self, s: Shape| match s {
            Shape::Affine { base, stride, wrap } => Some((base, stride, wrap)),
            Shape::U(v) if l.ty(v).is_int() => Some((v, 0, None)),
            _ => None,
        };
        if matches!(x, Shape::Affine { .. }) || matches!(y, Shape::Affine { .. }) {
            if let (Some((xb, xs, xw)), Some((yb, ys, yw))) = (affine(self, x), affine(self, y)) {
                let scaled = |w: Option<Wrap>, f: i64| {
                    w.map(|w| Wrap {
                        scale: w.scale.wrapping_mul(f),
                        ..w
                    })
                };
                match op {
                    Op::IAdd | Op::ISub if xw.is_none() || yw.is_none() => {
                        let (base, stride, wrap) = if op == Op::IAdd {
                            (self.b.ins().iadd(xb, yb), xs.wrapping_add(ys), xw.or(yw))
                        } else {
                            (self.b.ins().isub(xb, yb), xs.wrapping_sub(ys), xw.or(scaled(yw, -1)))
                        };
                        return Some(Shape::Affine { base, stride, wrap });
                    }
                    Op::IMul | Op::ShiftLeftLogical if ys == 0 => {
                        if let Some(c) = self.iconst_of(yb) {
                            let bits = xt.bits() as i64;
                            let f = if op == Op::IMul {
                                c
                            } else {
                                1i64.wrapping_shl((c.rem_euclid(bits)) as u32)
                            };
                            let base = self.b.ins().imul_imm_s(xb, f);
                            return Some(Shape::Affine {
                                base,
                                stride: xs.wrapping_mul(f),
                                wrap: scaled(xw, f),
                            });
                        }
                    }
                    // x ^ -1 is ~x, -x - 1 (`n - 1 - i`, which clang
                    // writes `(i ^ -1) + n`).
                    Op::BitwiseXor if (ys == 0 && self.all_ones(yb, xt)) || (xs == 0 && self.all_ones(xb, xt)) => {
                        let (ab, as_, aw) = if ys == 0 && self.all_ones(yb, xt) {
                            (xb, xs, xw)
                        } else {
                            (yb, ys, yw)
                        };
                        let base = self.b.ins().bnot(ab);
                        return Some(Shape::Affine {
                            base,
                            stride: as_.wrapping_neg(),
                            wrap: scaled(aw, -1),
                        });
                    }
                    // x & (2^n - 1) is x truncated to n bits and
                    // zero-extended: affine, with a wrap.
                    Op::BitwiseAnd if ys == 0 && xw.is_none() => {
                        let narrow_ty = match self.iconst_of(yb) {
                            Some(0xff) => Some(cl::I8),
                            Some(0xffff) => Some(cl::I16),
                            Some(0xffff_ffff) => Some(cl::I32),
                            _ => None,
                        };
                        if let Some(nt) = narrow_ty.filter(|nt| nt.bits() < xt.bits()) {
                            let narrow = self.b.ins().ireduce(nt, xb);
                            if self.small(xb) {
                                self.mark_small(narrow);
                            }
                            let base = self.b.ins().band(xb, yb);
                            let wrap = self.wrap_of(narrow, xs, false);
                            if wrap.is_none() {
                                self.mark_small(base);
                            }
                            return Some(Shape::Affine { base, stride: xs, wrap });
                        }
                    }
                    // x | c with c below 2^n where every lane of x has its
                    // n low bits clear (`(i << 1) | 1`, clang's 2i + 1):
                    // x + c.
                    Op::BitwiseOr if (ys == 0 && xw.is_none()) || (xs == 0 && yw.is_none()) => {
                        let (ab, as_, c) = if ys == 0 { (xb, xs, yb) } else { (yb, ys, xb) };
                        let c = self.iconst_of(c).filter(|&c| c >= 0)?;
                        let clear = self.low_zeros(ab).min(as_.trailing_zeros());
                        if clear < 64 && (c >> clear) == 0 {
                            let base = self.b.ins().iadd_imm_s(ab, c);
                            return Some(Shape::Affine {
                                base,
                                stride: as_,
                                wrap: None,
                            });
                        }
                    }
                    Op::IMul if xs == 0 => {
                        if let Some(c) = self.iconst_of(xb) {
                            let base = self.b.ins().imul_imm_s(yb, c);
                            return Some(Shape::Affine {
                                base,
                                stride: ys.wrapping_mul(c),
                                wrap: scaled(yw, c),
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// A comparison of 64-bit shapes, as two `i64x2` comparisons whose
    /// lanes are packed into one `i32x4` mask.
    fn compare64(&mut self, cc: IntCC, x: Shape, y: Shape) -> Shape {
        // `id < n` (the usual guard), with lanes id + k that cannot wrap:
        // lane k is true when k < n - id, so the mask compares [0, 1, 2,
        // 3] with min(n - id, 4) (0 when id >= n).
        let guard = match (cc, x, y) {
            (
                IntCC::UnsignedLessThan,
                Shape::Affine {
                    base,
                    stride: 1,
                    wrap: None,
                },
                Shape::U(n),
            )
            | (
                IntCC::UnsignedGreaterThan,
                Shape::U(n),
                Shape::Affine {
                    base,
                    stride: 1,
                    wrap: None,
                },
            ) if self.is_id(base) => Some((base, n)),
            _ => None,
        };
        if let Some((base, n)) = guard {
            let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, base, n);
            let left = self.b.ins().isub(n, base);
            let four = self.b.ins().iconst(cl::I64, super::LANES as i64);
            let capped = self.b.ins().umin(left, four);
            let zero = self.b.ins().iconst(cl::I64, 0);
            let d = self.b.ins().select(inside, capped, zero);
            let d = self.b.ins().ireduce(cl::I32, d);
            let dv = self.b.ins().splat(cl::I32X4, d);
            let lanes = self.vconst(cl::I32X4, &[0, 1, 2, 3]);
            let mask = self.b.ins().icmp(IntCC::UnsignedLessThan, lanes, dv);
            // All lanes: id + 3 < n (no lane wraps); any: id < n.
            let last = self.b.ins().iadd_imm_s(base, super::LANES as i64 - 1);
            let all = self.b.ins().icmp(IntCC::UnsignedLessThan, last, n);
            if let Some(c) = self.kernel.borrow_mut().simd.as_mut() {
                let test = super::MaskTest {
                    all,
                    any: inside,
                    guard_bound: Some(n),
                };
                c.mask_tests.insert(mask, test);
            }
            return Shape::Mask(mask);
        }
        let [xl, xh] = self.as_pair(x, cl::I64X2);
        let [yl, yh] = self.as_pair(y, cl::I64X2);
        let lo = self.b.ins().icmp(cc, xl, yl);
        let hi = self.b.ins().icmp(cc, xh, yh);
        Shape::Mask(self.pack_masks(lo, hi))
    }

    /// The `i32x4` of the low 32 bits of each lane of two `i64x2` (or
    /// 2-lane masks, all ones or zero): lanes 0-1 from `lo`, 2-3 from
    /// `hi`.
    pub(super) fn pack_masks(&mut self, lo: Value, hi: Value) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let lo = self.b.ins().bitcast(cl::I8X16, le, lo);
        let hi = self.b.ins().bitcast(cl::I8X16, le, hi);
        // The low four bytes of each 64-bit lane, lo's then hi's.
        let sel: Vec<u8> = [0u8, 8, 16, 24].iter().flat_map(|&b| b..b + 4).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(sel));
        let packed = self.b.ins().shuffle(lo, hi, imm);
        self.b.ins().bitcast(cl::I32X4, le, packed)
    }

    /// A vector float comparison (lanes all ones where it holds).
    fn fcmp_vec(&mut self, cc: FloatCC, x: Value, y: Value) -> Value {
        // x86-64 has no one-instruction vector form of "ordered and not
        // equal" or "unordered or equal" (Cranelift refuses them when it
        // compiles the function): each is two comparisons.
        match cc {
            FloatCC::OrderedNotEqual => {
                let o = self.b.ins().fcmp(FloatCC::Ordered, x, y);
                let ne = self.b.ins().fcmp(FloatCC::NotEqual, x, y);
                self.b.ins().band(o, ne)
            }
            FloatCC::UnorderedOrEqual => {
                let u = self.b.ins().fcmp(FloatCC::Unordered, x, y);
                let eq = self.b.ins().fcmp(FloatCC::Equal, x, y);
                self.b.ins().bor(u, eq)
            }
            cc => self.b.ins().fcmp(cc, x, y),
        }
    }

    /// OpIsNan, OpIsInf, OpIsFinite or OpIsNormal of each lane of float
    /// vector `v` (`f32x4` or `f64x2`), as the scalar lowering's
    /// `classify`: lanes all ones where it holds.
    fn classify_vec(&mut self, op: Op, v: Value) -> Value {
        let vt = self.ty(v);
        let n = vt.lane_count() as usize;
        let (inf, min_normal) = if vt.lane_type() == cl::F32 {
            (
                u64::from(f32::INFINITY.to_bits()),
                u64::from(f32::MIN_POSITIVE.to_bits()),
            )
        } else {
            (f64::INFINITY.to_bits(), f64::MIN_POSITIVE.to_bits())
        };
        if op == Op::IsNan {
            return self.b.ins().fcmp(FloatCC::Unordered, v, v);
        }
        let a = self.b.ins().fabs(v);
        let inf = self.vconst(vt, &vec![inf; n]);
        match op {
            Op::IsInf => self.b.ins().fcmp(FloatCC::Equal, a, inf),
            Op::IsFinite => self.b.ins().fcmp(FloatCC::LessThan, a, inf),
            _ => {
                let mn = self.vconst(vt, &vec![min_normal; n]);
                let ge = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, a, mn);
                let lt = self.b.ins().fcmp(FloatCC::LessThan, a, inf);
                self.b.ins().band(ge, lt)
            }
        }
    }

    /// Lanes 2 and 3 of 4-lane vector `v` moved to lanes 0 and 1 (and 0
    /// and 1 to 2 and 3: the halves of any 16-byte vector swapped).
    pub(super) fn high_down(&mut self, v: Value) -> Value {
        self.permute_bytes(v, (8u8..16).chain(0..8).collect())
    }

    /// The bytes of 16-byte vector `v` picked by `pick` (byte k of the
    /// result is byte `pick[k]` of `v`): one shuffle, in `v`'s type.
    pub(super) fn permute_bytes(&mut self, v: Value, pick: Vec<u8>) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let vt = self.ty(v);
        let bytes = self.b.ins().bitcast(cl::I8X16, le, v);
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(pick));
        let r = self.b.ins().shuffle(bytes, bytes, imm);
        self.b.ins().bitcast(vt, le, r)
    }

    /// The 4-lane vector (of `lo`'s type) of lanes 0 and 1 of `lo` and
    /// lanes 0 and 1 of `hi`.
    pub(super) fn join_lows(&mut self, lo: Value, hi: Value) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let vt = self.ty(lo);
        let [lo, hi] = [lo, hi].map(|v| self.b.ins().bitcast(cl::I8X16, le, v));
        let join: Vec<u8> = (0u8..8).chain(16..24).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(join));
        let r = self.b.ins().shuffle(lo, hi, imm);
        self.b.ins().bitcast(vt, le, r)
    }

    /// Lanes 0-3 of an `i8x16` or `i16x8` (an `i32x4` as it is) as an
    /// `i32x4`, sign-extended (`signed`) or zero-extended.
    pub(super) fn widen4(&mut self, v: Value, signed: bool) -> Value {
        let mut v = v;
        while self.ty(v).lane_bits() < 32 {
            v = if signed {
                self.b.ins().swiden_low(v)
            } else {
                self.b.ins().uwiden_low(v)
            };
        }
        v
    }

    /// Lanes 0-3 of `v` (`i32x4` or `i16x8`), each truncated, as lanes
    /// 0-3 of a vector of type `vt` (`i16x8` or `i8x16`; the other lanes
    /// repeat them): one byte shuffle.
    pub(super) fn narrow4(&mut self, v: Value, vt: Clif) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let from = (self.ty(v).lane_bits() / 8) as u8;
        let to = (vt.lane_bits() / 8) as u8;
        let bytes = self.b.ins().bitcast(cl::I8X16, le, v);
        let pick: Vec<u8> = (0..16u8).map(|b| (b / to % 4) * from + b % to).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(pick));
        let r = self.b.ins().shuffle(bytes, bytes, imm);
        self.b.ins().bitcast(vt, le, r)
    }

    /// A one-operand instruction with an 8- or 16-bit integer operand or
    /// result (`xt`, `t`): the bit operations on the narrow lanes, the
    /// conversions through the 32-bit lanes (sign- or zero-extended as the
    /// operation says, truncated after) and their 32- and 64-bit forms.
    fn narrow_unary(&mut self, op: Op, x: Shape, xt: Clif, t: Clif, sat: bool) -> Option<Shape> {
        match op {
            // (clang writes `popcount` as OpBitCount.)
            Op::BitCount if xt == t => {
                let v = self.as_vec(x, vec_of(t)?);
                self.narrow_bits4(spirv::OpenclStd100Op::popcount, &[v], t)
                    .map(Shape::V)
            }
            Op::Not | Op::SNegate | Op::Bitcast if xt == t => {
                let v = self.as_vec(x, vec_of(t)?);
                Some(Shape::V(match op {
                    Op::Not => self.b.ins().bnot(v),
                    Op::SNegate => self.b.ins().ineg(v),
                    _ => v,
                }))
            }
            // Between 8 and 16 bits: one widening, or one shuffle after
            // the scalar lowering's clamp at 16 bits when saturating.
            Op::UConvert | Op::SConvert if narrow(xt) && narrow(t) && xt != t => {
                let signed = op == Op::SConvert;
                let v = self.as_vec(x, vec_of(xt)?);
                if t.bits() > xt.bits() {
                    return Some(Shape::V(if signed {
                        self.b.ins().swiden_low(v)
                    } else {
                        self.b.ins().uwiden_low(v)
                    }));
                }
                let v = if sat {
                    let lanes = |l: &mut Self, c: i64| l.vconst(cl::I16X8, &[c as u64; 8]);
                    if signed {
                        let (hi, lo) = (lanes(self, 127), lanes(self, -128));
                        let v = self.b.ins().smin(v, hi);
                        self.b.ins().smax(v, lo)
                    } else {
                        let hi = lanes(self, 255);
                        self.b.ins().umin(v, hi)
                    }
                } else {
                    v
                };
                Some(Shape::V(self.narrow4(v, cl::I8X16)))
            }
            Op::UConvert | Op::SConvert => {
                let signed = op == Op::SConvert;
                let w = match xt {
                    cl::I64 => {
                        let pt = self.pair_of(xt)?;
                        let [lo, hi] = self.as_pair(x, pt);
                        self.pack_masks(lo, hi)
                    }
                    cl::I32 => self.as_vec(x, cl::I32X4),
                    _ => {
                        let v = self.as_vec(x, vec_of(xt)?);
                        self.widen4(v, signed)
                    }
                };
                match t {
                    cl::I64 => self.unary4(op, Shape::V(w), t, false).ok()?,
                    cl::I32 => Some(Shape::V(w)),
                    _ => {
                        // Saturating (from 32 bits or fewer, `unary4`): the
                        // scalar lowering's clamp on the extended lanes.
                        let w = if sat && t.bits() < xt.bits() {
                            self.clamp_to(w, t, signed)
                        } else {
                            w
                        };
                        Some(Shape::V(self.narrow4(w, vec_of(t)?)))
                    }
                }
            }
            // Every 8- or 16-bit integer, extended, is also a signed 32-bit
            // one: its signed conversion is exact, as the scalar lowering's.
            Op::ConvertSToF | Op::ConvertUToF if narrow(xt) => {
                let v = self.as_vec(x, vec_of(xt)?);
                let w = self.widen4(v, op == Op::ConvertSToF);
                self.unary4(Op::ConvertSToF, Shape::V(w), t, false).ok()?
            }
            // The scalar lowering's: the saturating conversion to 32 bits,
            // clamped to the narrow type's range. For an unsigned result
            // the signed conversion clamped at 0 gives the same lanes
            // (NaN and anything below 1 to 0, 2^31 and above past the
            // maximum either way) in a third of the instructions.
            Op::ConvertFToS | Op::ConvertFToU if narrow(t) => {
                let Some(Shape::V(w)) = self.unary4(Op::ConvertFToS, x, cl::I32, false).ok()? else {
                    return None;
                };
                let w = if op == Op::ConvertFToU {
                    let zero = self.vconst(cl::I32X4, &[0; super::LANES]);
                    let w = self.b.ins().smax(w, zero);
                    self.clamp_to(w, t, false)
                } else {
                    self.clamp_to(w, t, true)
                };
                Some(Shape::V(self.narrow4(w, vec_of(t)?)))
            }
            _ => None,
        }
    }

    /// OpSatConvertSToU or OpSatConvertUToS between integers of 32 bits or
    /// fewer: the operand extended to 32 bits (as its signedness says),
    /// clamped as the scalar lowering clamps at the wider of the two widths
    /// (the same bounds hold at 32: the extended lanes keep their values),
    /// truncated.
    fn sat_convert4(&mut self, op: Op, x: Shape, xt: Clif, t: Clif) -> Option<Shape> {
        if xt.bits() > 32 || t.bits() > 32 || !xt.is_int() || !t.is_int() {
            return None;
        }
        let signed = op == Op::SatConvertSToU;
        let v = self.as_vec(x, vec_of(xt)?);
        let mut w = self.widen4(v, signed);
        if signed {
            let zero = self.vconst(cl::I32X4, &[0; super::LANES]);
            w = self.b.ins().smax(w, zero);
            if t.bits() < 32 {
                w = self.clamp_to(w, t, false);
            }
        } else {
            let hi = self.vconst(cl::I32X4, &[(1u64 << (t.bits() - 1)) - 1; super::LANES]);
            w = self.b.ins().umin(w, hi);
        }
        Some(Shape::V(if t == cl::I32 { w } else { self.narrow4(w, vec_of(t)?) }))
    }

    /// `i32x4` lanes `w` clamped to the range of narrow integer type `t`,
    /// signed (`signed`: both ends) or unsigned (its maximum, `w` read as
    /// unsigned).
    fn clamp_to(&mut self, w: Value, t: Clif, signed: bool) -> Value {
        let bits = t.bits();
        if signed {
            let hi = self.vconst(cl::I32X4, &[(1u64 << (bits - 1)) - 1; super::LANES]);
            let lo = self.vconst(cl::I32X4, &[(-(1i64 << (bits - 1))) as u64; super::LANES]);
            let w = self.b.ins().smin(w, hi);
            self.b.ins().smax(w, lo)
        } else {
            let hi = self.vconst(cl::I32X4, &[(1u64 << bits) - 1; super::LANES]);
            self.b.ins().umin(w, hi)
        }
    }

    /// `(x << c) >> c` (the second shift arithmetic) of a 64-bit affine
    /// sequence `x`, c being 32, 48 or 56: how clang writes `(long)(int)x`
    /// (`int i = get_global_id(0)` used as an index). It is x's low
    /// 64 - c bits sign-extended, which OpUConvert to that width and
    /// OpSConvert back keep affine (with the narrow sequence's wrap, which
    /// a memory access tests); so it is lowered as those two. None for
    /// other instructions (the shifts then run as they are).
    fn sign_extended_low_bits(&mut self, i: u32, out: &[Clif]) -> R<Option<Shape>> {
        let m = self.m;
        let inst = self.at(i);
        if inst.op != Op::ShiftRightArithmetic || out != [cl::I64] {
            return Ok(None);
        }
        let (Some(x), Some(n)) = (inst.id(0), inst.id(1)) else {
            return Ok(None);
        };
        let Some(def) = m.def(x).filter(|d| d.op == Op::ShiftLeftLogical) else {
            return Ok(None);
        };
        let (Some(inner), Some(n2)) = (def.id(0), def.id(1)) else {
            return Ok(None);
        };
        let count = |l: &mut Self, id| -> R<Option<i64>> {
            Ok(match l.shapes(id)?[..] {
                [Shape::U(v)] => l.iconst_of(v),
                _ => None,
            })
        };
        let (Some(c), Some(c2)) = (count(self, n)?, count(self, n2)?) else {
            return Ok(None);
        };
        let narrow = match (c == c2).then_some(64 - c) {
            Some(32) => cl::I32,
            Some(16) => cl::I16,
            Some(8) => cl::I8,
            _ => return Ok(None),
        };
        let xs = match self.shapes(inner)?[..] {
            [s @ Shape::Affine { .. }] if self.lane_type(s) == cl::I64 => s,
            _ => return Ok(None),
        };
        let Some(low @ Shape::Affine { .. }) = self.unary4(Op::UConvert, xs, narrow, false)? else {
            return Ok(None);
        };
        Ok(self
            .unary4(Op::SConvert, low, cl::I64, false)?
            .filter(|s| matches!(s, Shape::Affine { .. })))
    }

    /// A one-operand instruction (negations, conversions, casts) on one
    /// component producing type `t`; `sat` for a conversion decorated
    /// SaturatedConversion (only those with a form that saturates: every
    /// float-to-integer one, as the scalar lowering's always do, and the
    /// narrowing of integers of 32 bits or fewer to 8 or 16).
    fn unary4(&mut self, op: Op, x: Shape, t: Clif, sat: bool) -> R<Option<Shape>> {
        let xt = self.lane_type(x);
        let narrowing = matches!(op, Op::UConvert | Op::SConvert) && t.bits() < xt.bits();
        if sat && !(matches!(op, Op::ConvertFToS | Op::ConvertFToU) || (narrowing && narrow(t) && xt.bits() <= 32)) {
            return Ok(None);
        }
        if let (Shape::Affine { base, stride, wrap }, false) = (x, sat) {
            match op {
                Op::SNegate => {
                    let base = self.b.ins().ineg(base);
                    return Ok(Some(Shape::Affine {
                        base,
                        stride: stride.wrapping_neg(),
                        wrap: wrap.map(|w| Wrap {
                            scale: w.scale.wrapping_neg(),
                            ..w
                        }),
                    }));
                }
                // Truncating keeps the lanes exact modulo the new width,
                // wrapped or not (if no wider than the narrow sequence).
                Op::UConvert | Op::SConvert
                    if t.bits() < xt.bits() && wrap.is_none_or(|w| t.bits() <= self.ty(w.narrow).bits()) =>
                {
                    let small = self.small(base);
                    let base = self.b.ins().ireduce(t, base);
                    if small {
                        self.mark_small(base);
                    }
                    return Ok(Some(Shape::Affine {
                        base,
                        stride,
                        wrap: None,
                    }));
                }
                // Widening: the lanes may wrap in the narrow type.
                Op::UConvert | Op::SConvert if t.bits() > xt.bits() && wrap.is_none() => {
                    let signed = op == Op::SConvert;
                    let wide = if signed {
                        self.b.ins().sextend(t, base)
                    } else {
                        self.b.ins().uextend(t, base)
                    };
                    let wrap = self.wrap_of(base, stride, signed);
                    if wrap.is_none() {
                        self.mark_small(wide);
                    }
                    return Ok(Some(Shape::Affine {
                        base: wide,
                        stride,
                        wrap,
                    }));
                }
                Op::UConvert
                | Op::SConvert
                | Op::ConvertUToPtr
                | Op::ConvertPtrToU
                | Op::Bitcast
                | Op::PtrCastToGeneric
                | Op::GenericCastToPtr
                    if t == xt =>
                {
                    return Ok(Some(x));
                }
                _ => {}
            }
        }
        if matches!(
            op,
            Op::ConvertUToPtr | Op::ConvertPtrToU | Op::PtrCastToGeneric | Op::GenericCastToPtr | Op::CopyObject
        ) && t == xt
        {
            return Ok(Some(x));
        }
        if matches!(op, Op::SatConvertSToU | Op::SatConvertUToS) {
            return Ok(self.sat_convert4(op, x, xt, t));
        }
        // (Booleans are `i8` too: only integer operations go there.)
        let integer = matches!(
            op,
            Op::Not
                | Op::BitCount
                | Op::SNegate
                | Op::Bitcast
                | Op::UConvert
                | Op::SConvert
                | Op::ConvertSToF
                | Op::ConvertUToF
                | Op::ConvertFToS
                | Op::ConvertFToU
        );
        // (A narrow value read lane by lane as an index,
        // `analysis::index_loads`, is converted lane by lane too.)
        if integer && (narrow(xt) || narrow(t)) {
            if let (Shape::Lanes(_), true) = (x, narrow(xt)) {
                return Ok(None);
            }
            return Ok(self.narrow_unary(op, x, xt, t, sat));
        }
        // Holding values per lane: no pair for a 64-bit result (a 32-bit
        // one gets no vector form at all, `simd_op`).
        if matches!(super::Kind::of(t, false), super::Kind::Pair(_)) && self.pair_of(t).is_none() {
            return Ok(None);
        }
        if let Some(s) = self.convert_long4(op, x, xt, t)? {
            return Ok(Some(s));
        }
        Ok(Some(match (op, xt, t) {
            (Op::LogicalNot, _, _) => {
                let m = self.as_mask(x);
                Shape::Mask(self.b.ins().bnot(m))
            }
            (Op::SNegate, cl::I32, cl::I32) => {
                let v = self.as_vec(x, cl::I32X4);
                Shape::V(self.b.ins().ineg(v))
            }
            (Op::BitCount, cl::I32, cl::I32) => {
                let v = self.as_vec(x, cl::I32X4);
                Shape::V(self.popcount4(v))
            }
            (Op::Not, cl::I32, cl::I32) => {
                let v = self.as_vec(x, cl::I32X4);
                Shape::V(self.b.ins().bnot(v))
            }
            (Op::FNegate, cl::F32, cl::F32) => {
                let v = self.as_vec(x, cl::F32X4);
                Shape::V(self.negate_float(v))
            }
            (Op::IsNan | Op::IsInf | Op::IsFinite | Op::IsNormal, cl::F32, _) => {
                let v = self.as_vec(x, cl::F32X4);
                let r = self.classify_vec(op, v);
                Shape::Mask(self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), r))
            }
            // The sign bit as a lane mask (its bit copied into every bit).
            (Op::SignBitSet, cl::F32, _) => {
                let v = self.as_vec(x, cl::F32X4);
                let bits = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), v);
                Shape::Mask(self.b.ins().sshr_imm_u(bits, 31))
            }
            (Op::SignBitSet, cl::F64, _) => {
                let p = self.as_pair(x, cl::F64X2);
                let zero = self.vconst(cl::I64X2, &[0, 0]);
                let [lo, hi] = p.map(|h| {
                    let bits = self.b.ins().bitcast(cl::I64X2, MemFlagsData::new(), h);
                    self.b.ins().icmp(IntCC::SignedLessThan, bits, zero)
                });
                Shape::Mask(self.pack_masks(lo, hi))
            }
            (Op::IsNan | Op::IsInf | Op::IsFinite | Op::IsNormal, cl::F64, _) => {
                let p = self.as_pair(x, cl::F64X2);
                let [lo, hi] = p.map(|h| self.classify_vec(op, h));
                Shape::Mask(self.pack_masks(lo, hi))
            }
            (Op::SNegate | Op::Not, cl::I64, cl::I64) if self.pair_of(t).is_some() => {
                let p = self.as_pair(x, cl::I64X2);
                Shape::Pair(p.map(|h| {
                    if op == Op::Not {
                        self.b.ins().bnot(h)
                    } else {
                        self.b.ins().ineg(h)
                    }
                }))
            }
            // Each lane sign- or zero-extended.
            (Op::SConvert | Op::UConvert, cl::I32, cl::I64) if self.pair_of(t).is_some() => {
                let v = self.as_vec(x, cl::I32X4);
                let ins = self.b.ins();
                Shape::Pair(if op == Op::SConvert {
                    [ins.swiden_low(v), self.b.ins().swiden_high(v)]
                } else {
                    [ins.uwiden_low(v), self.b.ins().uwiden_high(v)]
                })
            }
            // Each lane's low 32 bits.
            (Op::SConvert | Op::UConvert, cl::I64, cl::I32) if self.pair_of(xt).is_some() => {
                let [lo, hi] = self.as_pair(x, cl::I64X2);
                Shape::V(self.pack_masks(lo, hi))
            }
            (Op::Bitcast, cl::I64, cl::F64) | (Op::Bitcast, cl::F64, cl::I64)
                if self.pair_of(xt).is_some() && self.pair_of(t).is_some() =>
            {
                let (from, to) = if t == cl::F64 {
                    (cl::I64X2, cl::F64X2)
                } else {
                    (cl::F64X2, cl::I64X2)
                };
                let p = self.as_pair(x, from);
                Shape::Pair(p.map(|h| self.b.ins().bitcast(to, MemFlagsData::new(), h)))
            }
            (Op::FNegate, cl::F64, cl::F64) => {
                let p = self.as_pair(x, cl::F64X2);
                Shape::Pair(p.map(|h| self.negate_float(h)))
            }
            // Exact, as the scalar `fpromote`.
            (Op::FConvert, cl::F32, cl::F64) => {
                let v = self.as_vec(x, cl::F32X4);
                Shape::Pair(self.promote_pair(v))
            }
            // Rounded to nearest even, as the scalar `fdemote`.
            (Op::FConvert, cl::F64, cl::F32) => {
                let p = self.as_pair(x, cl::F64X2);
                let [lo, hi] = p.map(|h| self.b.ins().fvdemote(h));
                Shape::V(self.join_lows(lo, hi))
            }
            // Rounded to nearest even, as the scalar `fcvt_from_sint` (which
            // Cranelift uses on each lane).
            (Op::ConvertSToF, cl::I64, cl::F64) if self.pair_of(xt).is_some() && self.pair_of(t).is_some() => {
                let p = self.as_pair(x, cl::I64X2);
                Shape::Pair(p.map(|h| self.b.ins().fcvt_from_sint(cl::F64X2, h)))
            }
            // Correctly rounded (to nearest even) both ways, so the same
            // bits: Cranelift's sequence on `u64x2` (the halves as two
            // exact doubles, one rounding when added) and its scalar one.
            (Op::ConvertUToF, cl::I64, cl::F64) if self.pair_of(xt).is_some() && self.pair_of(t).is_some() => {
                let p = self.as_pair(x, cl::I64X2);
                Shape::Pair(p.map(|h| self.b.ins().fcvt_from_uint(cl::F64X2, h)))
            }
            // Exact: every 32-bit integer is a double.
            (Op::ConvertSToF | Op::ConvertUToF, cl::I32, cl::F64) => {
                let mut v = self.as_vec(x, cl::I32X4);
                if op == Op::ConvertUToF {
                    // u - 2^31 as a signed integer, converted, plus 2^31.
                    let bias = self.vconst(cl::I32X4, &[0x8000_0000; super::LANES]);
                    v = self.b.ins().bxor(v, bias);
                }
                let high = self.high_down(v);
                // (`cvtdq2pd`: Cranelift matches the widening conversion.)
                let mut p = [v, high].map(|h| {
                    let w = self.b.ins().swiden_low(h);
                    self.b.ins().fcvt_from_sint(cl::F64X2, w)
                });
                if op == Op::ConvertUToF {
                    let two31 = self.b.ins().f64const(2_147_483_648.0);
                    let two31 = self.b.ins().splat(cl::F64X2, two31);
                    p = p.map(|h| self.b.ins().fadd(h, two31));
                }
                Shape::Pair(p)
            }
            (Op::ConvertSToF, cl::I32, cl::F32) => {
                let v = self.as_vec(x, cl::I32X4);
                Shape::V(self.b.ins().fcvt_from_sint(cl::F32X4, v))
            }
            // Toward zero, saturating, NaN to 0: the scalar lowering's
            // `fcvt_to_sint_sat` / `fcvt_to_uint_sat` on each lane.
            (Op::ConvertFToS, cl::F32, cl::I32) => {
                let v = self.as_vec(x, cl::F32X4);
                Shape::V(self.b.ins().fcvt_to_sint_sat(cl::I32X4, v))
            }
            // Each half's two lanes as the scalar `fcvt_to_sint_sat` to 32
            // bits (Cranelift's pattern for `cvttpd2dq` after clamping,
            // NaN to 0), the halves' low lanes joined.
            (Op::ConvertFToS, cl::F64, cl::I32) if self.pair_of(xt).is_some() => {
                let p = self.as_pair(x, cl::F64X2);
                let zero = self.vconst(cl::I64X2, &[0, 0]);
                let [lo, hi] = p.map(|h| {
                    let w = self.b.ins().fcvt_to_sint_sat(cl::I64X2, h);
                    self.b.ins().snarrow(w, zero)
                });
                Shape::V(self.join_lows(lo, hi))
            }
            (Op::ConvertFToU, cl::F32, cl::I32) => {
                let v = self.as_vec(x, cl::F32X4);
                Shape::V(self.b.ins().fcvt_to_uint_sat(cl::I32X4, v))
            }
            (Op::ConvertUToF, cl::I32, cl::F32) => {
                let v = self.as_vec(x, cl::I32X4);
                Shape::V(self.b.ins().fcvt_from_uint(cl::F32X4, v))
            }
            (Op::Bitcast, cl::I32, cl::F32) | (Op::Bitcast, cl::F32, cl::I32) => {
                let (from, to) = if t == cl::F32 {
                    (cl::I32X4, cl::F32X4)
                } else {
                    (cl::F32X4, cl::I32X4)
                };
                let v = self.as_vec(x, from);
                Shape::V(self.b.ins().bitcast(to, MemFlagsData::new(), v))
            }
            (Op::Bitcast, a, b) if a == b && vec_of(a).is_some() => {
                let v = self.as_vec(x, vec_of(a).unwrap_or(cl::I32X4));
                Shape::V(v)
            }
            _ => return Ok(None),
        }))
    }

    /// `1 / sqrt(x)` of the lanes of `f32x4` `x` computed in double and
    /// rounded once to float (two `f64x2` halves).
    fn rsqrt_in_double(&mut self, x: Value) -> Value {
        let one = self.b.ins().f64const(1.0);
        let one = self.b.ins().splat(cl::F64X2, one);
        let [lo, hi] = self.promote_pair(x);
        let [lo, hi] = [lo, hi].map(|d| {
            let r = self.b.ins().sqrt(d);
            let r = self.b.ins().fdiv(one, r);
            self.b.ins().fvdemote(r)
        });
        self.join_lows(lo, hi)
    }

    /// `hypot` of the lanes of `f32x4` `x` and `y` as `clift_hypot_f32`
    /// computes it: +inf where either is infinite (NaN or not), else
    /// sqrt(x^2 + y^2) in double (the squares exact, their sum rounded
    /// once), rounded once to float. A NaN operand passes on its bits
    /// (quieted), x's where both are, as the scalar function's rule: the
    /// sum's first operand is x's square, which Cranelift keeps first (it
    /// commutes a sum only to fold a load, and these are computed).
    fn hypot_in_double(&mut self, x: Value, y: Value) -> Value {
        let (xp, yp) = (self.promote_pair(x), self.promote_pair(y));
        let [lo, hi] = [0, 1].map(|h| {
            let (a, b) = (xp[h], yp[h]);
            let a2 = self.b.ins().fmul(a, a);
            let b2 = self.b.ins().fmul(b, b);
            let sum = self.b.ins().fadd(a2, b2);
            let r = self.b.ins().sqrt(sum);
            self.b.ins().fvdemote(r)
        });
        let r = self.join_lows(lo, hi);
        let inf = self.b.ins().f32const(f32::INFINITY);
        let inf = self.b.ins().splat(cl::F32X4, inf);
        let [x_inf, y_inf] = [x, y].map(|v| {
            let a = self.b.ins().fabs(v);
            self.b.ins().fcmp(FloatCC::Equal, a, inf)
        });
        let either = self.b.ins().bor(x_inf, y_inf);
        let either = self.b.ins().bitcast(cl::F32X4, MemFlagsData::new(), either);
        self.b.ins().bitselect(either, inf, r)
    }

    /// The lanes of `f32x4` `x` as doubles (exactly), lanes 0-1 and 2-3.
    pub(super) fn promote_pair(&mut self, x: Value) -> [Value; 2] {
        let high = self.high_down(x);
        [x, high].map(|v| self.b.ins().fvpromote_low(v))
    }

    /// In an 8-lane body: a math function with an 8-lane form (`exp`,
    /// `log`, `erf`, `sin`, `cos`, `tan`, `exp2`, `exp10`, `log2`,
    /// `log10`, `pow`, and the `half_` and `native_` forms the OpenCL.std
    /// table implements with them; `acos`, `asin`, `atan`, `expm1`,
    /// `tanh`, `sinh`, `cosh`, `log1p`, `asinh`, `acosh`, `atanh`,
    /// `atan2`, `erfc`, `cbrt` and the pi forms) of `float` lanes, or one of
    /// `libm_lanes`' one-argument functions of `double` lanes, for both
    /// 4-lane parts at once, one call of the 8-lane form per component
    /// (`math_f32::eight_lanes` and `eight_lanes_binary`,
    /// `libm_lanes::eight_lanes`: each argument as part 0's vector, or
    /// two halves, and part 1's in `xmm` registers, the results through a
    /// 32- or 64-byte stack slot), bitwise what each part's own 4-lane
    /// call gives; `sincos` as [`Self::sincos_both_parts`]. True when done
    /// (each part has its result); false leaves the instruction to each
    /// part's lowering, nothing emitted.
    pub(in crate::lower) fn both_parts_at_once(&mut self, i: u32) -> R<bool> {
        if self.parts() != 2 || self.scalar_lanes() {
            return Ok(false);
        }
        let m = self.m;
        let inst = self.at(i);
        let (Some(ty), Some(id)) = (inst.result_type, inst.result_id) else {
            return Ok(false);
        };
        if inst.op != Op::ExtInst || self.touches_half(i) {
            return Ok(false);
        }
        let Some(op) = inst.lit(1).and_then(Cl::from_u32) else {
            return Ok(false);
        };
        if op == Cl::sincos {
            return self.sincos_both_parts(i);
        }
        if self.needs_guard(i) {
            return Ok(false);
        }
        let name = format!("{op:?}");
        let out = types::components(m, ty)?;
        // `double` components: the one-argument functions of
        // `libm_lanes` (each part as its two f64x2 halves).
        let double = out.iter().all(|&t| t == cl::F64);
        // One argument (exp ... tan) or two (pow, atan2, atan2pi).
        let (addr, operands) = match (inst.operands.len(), double) {
            (3, false) => (clift_builtins::math_f32::eight_lanes(&name), vec![inst.id(2)]),
            (3, true) => (clift_builtins::libm_lanes::eight_lanes(&name), vec![inst.id(2)]),
            (4, false) => (
                clift_builtins::math_f32::eight_lanes_binary(&name),
                vec![inst.id(2), inst.id(3)],
            ),
            _ => return Ok(false),
        };
        let (Some(addr), Some(operands)) = (addr, operands.into_iter().collect::<Option<Vec<crate::spirv::Id>>>())
        else {
            return Ok(false);
        };
        let lane = if double { cl::F64 } else { cl::F32 };
        if out.iter().any(|&t| t != lane) || self.varying_operands(i).is_empty() {
            return Ok(false);
        }
        let Some(shapes) = self.parts_operands(&operands, out.len(), lane)? else {
            return Ok(false);
        };
        let mut results = self.call_eight_lanes(addr, &shapes, out.len(), double).into_iter();
        self.each_part(|l| {
            l.set_shapes(id, results.next().ok_or("a result for each part")?)?;
            l.count(true);
            Ok(())
        })?;
        Ok(true)
    }

    /// `sincos` of instruction `i` in an 8-lane body through a pointer that
    /// differs between lanes, outside masked code: the 8-lane `sin` and
    /// `cos` (two calls for both parts where each part's own would make
    /// four), each part's cosines stored through its pointers as
    /// [`Self::simd_pointer_result`] stores them. False: nothing emitted.
    fn sincos_both_parts(&mut self, i: u32) -> R<bool> {
        let m = self.m;
        let inst = self.at(i);
        let (ty, id) = inst.result();
        let (Some(x), Some(ptr)) = (inst.id(2), inst.id(3)) else {
            return Ok(false);
        };
        let out = types::components(m, ty)?;
        let double = out.iter().all(|&t| t == cl::F64);
        let lane = if double { cl::F64 } else { cl::F32 };
        let Some((_, stored)) = m.pointer(self.type_of(ptr)) else {
            return Ok(false);
        };
        let masked = self.each_part(|l| Ok(l.guard()?.is_some()))?;
        if out.iter().any(|&t| t != lane) || !self.is_varying(ptr) || masked.contains(&true) {
            return Ok(false);
        }
        let eight = |name| {
            if double {
                clift_builtins::libm_lanes::eight_lanes(name)
            } else {
                clift_builtins::math_f32::eight_lanes(name)
            }
        };
        let (Some(sin), Some(cos)) = (eight("sin"), eight("cos")) else {
            return Ok(false);
        };
        let Some(shapes) = self.parts_operands(&[x], out.len(), lane)? else {
            return Ok(false);
        };
        let mut sines = self.call_eight_lanes(sin, &shapes, out.len(), double).into_iter();
        let mut cosines = self.call_eight_lanes(cos, &shapes, out.len(), double).into_iter();
        self.each_part(|l| {
            l.store_shapes(ptr, stored, &cosines.next().ok_or("cosines for each part")?)?;
            l.set_shapes(id, sines.next().ok_or("sines for each part")?)?;
            l.count(true);
            Ok(())
        })?;
        Ok(true)
    }

    /// Each part's shapes of each of `operands`: None unless each has
    /// `count` components of lane type `lane`.
    fn parts_operands(
        &mut self,
        operands: &[crate::spirv::Id],
        count: usize,
        lane: Clif,
    ) -> R<Option<Vec<Vec<Vec<Shape>>>>> {
        let shapes = self.each_part(|l| operands.iter().map(|&x| l.shapes(x)).collect::<R<Vec<_>>>())?;
        let fits = shapes
            .iter()
            .flatten()
            .all(|s| s.len() == count && s.iter().all(|&c| self.lane_type(c) == lane));
        Ok(fits.then_some(shapes))
    }

    /// One call of the 8-lane form at `addr` per component (of `count`)
    /// on `shapes` (per part, per argument, per component: floats, or
    /// doubles), the results through a 32- or 64-byte stack slot: each
    /// part's results.
    fn call_eight_lanes(
        &mut self,
        addr: usize,
        shapes: &[Vec<Vec<Shape>>],
        count: usize,
        double: bool,
    ) -> Vec<Vec<Shape>> {
        // Eight lanes: 32 bytes of floats, 64 of doubles.
        let size = if double { 64 } else { 32 };
        let slot = self
            .b
            .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 4));
        let arity = shapes.first().map_or(0, Vec::len);
        let mut results: Vec<Vec<Shape>> = vec![Vec::new(); shapes.len()];
        for k in 0..count {
            // Per argument, part 0's vector (or two halves) then part 1's;
            // then the slot.
            let mut args = Vec::new();
            for a in 0..arity {
                for part in shapes {
                    if double {
                        args.extend(self.as_pair(part[a][k], cl::F64X2));
                    } else {
                        args.push(self.as_vec(part[a][k], cl::F32X4));
                    }
                }
            }
            args.push(self.b.ins().stack_addr(cl::I64, slot, 0));
            let vt = if double { cl::F64X2 } else { cl::F32X4 };
            let mut params = vec![vt; args.len() - 1];
            params.push(cl::I64);
            self.call_host(addr, &params, &[], &args);
            for (part, r) in results.iter_mut().enumerate() {
                let at = (size / 2 * part as u32) as i32;
                r.push(if double {
                    Shape::Pair([at, at + 16].map(|o| self.b.ins().stack_load(cl::I64, vt, slot, o)))
                } else {
                    Shape::V(self.b.ins().stack_load(cl::I64, vt, slot, at))
                });
            }
        }
        results
    }

    /// OpenCL.std min/max/clamp instruction `op` (or `abs` of a 64-bit
    /// integer) on vectors `v` of one type, with the scalar lowering's
    /// instructions (`fmaxmin` itself for floats): None if `v` does not
    /// have [`min_max_arity`] of them.
    fn min_max(&mut self, op: Cl, v: &[Value]) -> Option<Value> {
        Some(match (op, v) {
            (Cl::fmax | Cl::fmax_common, &[x, y]) => self.fmaxmin(x, y, true),
            (Cl::fmin | Cl::fmin_common, &[x, y]) => self.fmaxmin(x, y, false),
            (Cl::fclamp, &[x, lo, hi]) => {
                let l = self.fmaxmin(x, lo, true);
                self.fmaxmin(l, hi, false)
            }
            (Cl::s_max, &[x, y]) => self.b.ins().smax(x, y),
            (Cl::u_max, &[x, y]) => self.b.ins().umax(x, y),
            (Cl::s_min, &[x, y]) => self.b.ins().smin(x, y),
            (Cl::u_min, &[x, y]) => self.b.ins().umin(x, y),
            (Cl::s_clamp, &[x, lo, hi]) => {
                let l = self.b.ins().smax(x, lo);
                self.b.ins().smin(l, hi)
            }
            (Cl::u_clamp, &[x, lo, hi]) => {
                let l = self.b.ins().umax(x, lo);
                self.b.ins().umin(l, hi)
            }
            (Cl::s_abs, &[x]) => {
                let vt = self.ty(x);
                let neg = self.b.ins().ineg(x);
                let zero = self.vconst(vt, &vec![0; vt.lane_count() as usize]);
                let lt = self.b.ins().icmp(IntCC::SignedLessThan, x, zero);
                self.b.ins().bitselect(lt, neg, x)
            }
            (Cl::u_abs, &[x]) => x,
            _ => return None,
        })
    }

    /// The OpenCL.std instructions with a form on pairs of 2-lane vectors
    /// of type `pt`, on one component of type `t` (double), as the scalar
    /// lowering computes them: each an instruction of IEEE 754's, exact
    /// or correctly rounded in both, or (exp, log, log2, log10, sin, cos,
    /// tan, erf, erfc, atan, asin, acos, expm1, tanh, sinh, cosh, log1p, asinh,
    /// acosh, atanh, pow, atan2, hypot) a
    /// call of the
    /// four-lane form of
    /// the scalar lowering's function.
    fn ext_pair(&mut self, op: Cl, args: &[Shape], t: Clif, pt: Clif) -> Option<Shape> {
        if min_max_arity(op, t) == Some(args.len()) && args.iter().all(|&s| self.lane_type(s) == t) {
            let p: Vec<[Value; 2]> = args.iter().map(|&s| self.as_pair(s, pt)).collect();
            let halves = [0, 1].map(|h| {
                let v: Vec<Value> = p.iter().map(|q| q[h]).collect();
                self.min_max(op, &v)
            });
            let [Some(lo), Some(hi)] = halves else { return None };
            return Some(Shape::Pair([lo, hi]));
        }
        if let (Cl::rotate, &[x, Shape::U(n)], cl::I64) = (op, args, t) {
            if self.lane_type(x) != t {
                return None;
            }
            let xp = self.as_pair(x, pt);
            return Some(Shape::Pair(xp.map(|h| self.rotate_by_uniform(h, n))));
        }
        if t != cl::F64 {
            return None;
        }
        if let Some(s) = self.pi_forms_pair(op, args, pt) {
            return Some(s);
        }
        // exp, log, log2, log10, sin, cos, tan, erf, erfc, atan, asin, acos,
        // expm1, tanh, sinh, cosh, log1p, asinh, acosh, atanh, pow, atan2, hypot:
        // one call of the four-lane form (bitwise `libm`'s function on each
        // lane, as the scalar lowering calls it), each argument's halves in
        // `xmm` registers, the four results through a stack slot.
        let name = format!("{op:?}");
        let addr = match args.len() {
            1 => clift_builtins::libm_lanes::four_lanes(&name),
            2 => clift_builtins::libm_lanes::four_lanes_binary(&name),
            _ => None,
        };
        if let Some(addr) = addr {
            if args.iter().any(|&x| self.lane_type(x) != t) {
                return None;
            }
            let halves: Vec<Value> = args.iter().flat_map(|&x| self.as_pair(x, pt)).collect();
            return Some(Shape::Pair(self.call_four_lanes(addr, &halves)));
        }
        let arity = match op {
            Cl::mad | Cl::fma => 3,
            Cl::fabs | Cl::sqrt | Cl::floor | Cl::ceil | Cl::trunc | Cl::rint => 1,
            _ => return None,
        };
        if args.len() != arity || args.iter().any(|&s| self.lane_type(s) != t) {
            return None;
        }
        let p: Vec<[Value; 2]> = args.iter().map(|&s| self.as_pair(s, pt)).collect();
        Some(Shape::Pair([0, 1].map(|h| {
            let ins = self.b.ins();
            match op {
                Cl::mad | Cl::fma => ins.fma(p[0][h], p[1][h], p[2][h]),
                Cl::fabs => ins.fabs(p[0][h]),
                Cl::sqrt => ins.sqrt(p[0][h]),
                Cl::floor => ins.floor(p[0][h]),
                Cl::ceil => ins.ceil(p[0][h]),
                Cl::trunc => ins.trunc(p[0][h]),
                _ => ins.nearest(p[0][h]),
            }
        })))
    }

    /// acospi, asinpi, atanpi and atan2pi of doubles (pairs of type `pt`)
    /// as `math_f64`'s functions compute them: one call of `libm_lanes`'
    /// four-lane acos, asin, atan or atan2 (bitwise `libm`'s), times 1/pi
    /// in two parts with one fused multiply-add (`div_pi`: a zero as it
    /// is), and the
    /// functions' exact special values selected where they apply (acospi:
    /// 1 at -1; asinpi: ±0 at ±0, ±0.5 at ±1; atanpi: ±0 at ±0, ±0.5 at
    /// ±inf; atan2pi: OpenCL's edge cases in the functions' order, a NaN
    /// operand's sum first). None for other instructions.
    fn pi_forms_pair(&mut self, op: Cl, args: &[Shape], pt: Clif) -> Option<Shape> {
        let name = match op {
            Cl::acospi => "acos",
            Cl::asinpi => "asin",
            Cl::atanpi => "atan",
            Cl::atan2pi => "atan2",
            _ => return None,
        };
        let addr = match args.len() {
            1 => clift_builtins::libm_lanes::four_lanes(name)?,
            _ => clift_builtins::libm_lanes::four_lanes_binary(name)?,
        };
        if args.iter().any(|&s| self.lane_type(s) != cl::F64) {
            return None;
        }
        let pairs: Vec<[Value; 2]> = args.iter().map(|&s| self.as_pair(s, pt)).collect();
        let halves: Vec<Value> = pairs.iter().flatten().copied().collect();
        let r = self.call_four_lanes(addr, &halves);
        let c = |l: &mut Self, v: f64| l.fconst_like(pt, v);
        let eq = |l: &mut Self, a: Value, b: Value| l.b.ins().fcmp(FloatCC::Equal, a, b);
        Some(Shape::Pair([0, 1].map(|h| {
            let (hi, lo) = (
                c(self, clift_builtins::math_f64::INV_PI_HI),
                c(self, clift_builtins::math_f64::INV_PI_LO),
            );
            let small = self.b.ins().fmul(r[h], lo);
            let q = self.b.ins().fma(r[h], hi, small);
            let x = pairs[0][h];
            let (zero, half, one, inf) = (c(self, 0.0), c(self, 0.5), c(self, 1.0), c(self, f64::INFINITY));
            // A zero keeps its sign (`div_pi`).
            let r_zero = eq(self, r[h], zero);
            let q = self.select_either(r_zero, r[h], q);
            match op {
                Cl::acospi => {
                    let m1 = c(self, -1.0);
                    let at = eq(self, x, m1);
                    self.select_either(at, one, q)
                }
                Cl::asinpi | Cl::atanpi => {
                    let a = self.b.ins().fabs(x);
                    let edge = if op == Cl::asinpi { one } else { inf };
                    let at_edge = eq(self, a, edge);
                    let signed_half = self.copysign_any(half, x);
                    let q = self.select_either(at_edge, signed_half, q);
                    let at_zero = eq(self, x, zero);
                    self.select_either(at_zero, x, q)
                }
                _ => {
                    // atan2pi(y, x): the checks in the scalar function's
                    // order, so the last select is the first check.
                    let (y, x) = (pairs[0][h], pairs[1][h]);
                    let ninf = c(self, f64::NEG_INFINITY);
                    let signed = |l: &mut Self, v: f64| {
                        let k = l.fconst_like(pt, v);
                        l.copysign_any(k, y)
                    };
                    // x infinite: ±0 for +inf, ±1 for -inf.
                    let ax = self.b.ins().fabs(x);
                    let x_inf = eq(self, ax, inf);
                    let x_pos = self.b.ins().fcmp(FloatCC::GreaterThan, x, zero);
                    let (s0, s1) = (signed(self, 0.0), signed(self, 1.0));
                    let v = self.select_either(x_pos, s0, s1);
                    let q = self.select_either(x_inf, v, q);
                    // x zero: ±0.5.
                    let x_zero = eq(self, x, zero);
                    let s_half = signed(self, 0.5);
                    let q = self.select_either(x_zero, s_half, q);
                    // y infinite: ±0.25 (x = +inf), ±0.75 (x = -inf), ±0.5.
                    let ay = self.b.ins().fabs(y);
                    let y_inf = eq(self, ay, inf);
                    let (q1, q3) = (signed(self, 0.25), signed(self, 0.75));
                    let x_pinf = eq(self, x, inf);
                    let x_ninf = eq(self, x, ninf);
                    let v = self.select_either(x_ninf, q3, s_half);
                    let v = self.select_either(x_pinf, q1, v);
                    let q = self.select_either(y_inf, v, q);
                    // y zero: ±1 on the pi side (x < 0, or x = -0), else ±0.
                    let y_zero = eq(self, y, zero);
                    let x_neg = self.b.ins().fcmp(FloatCC::LessThan, x, zero);
                    let x_bits = self.b.ins().bitcast(cl::I64X2, MemFlagsData::new(), x);
                    let neg_zero = self.vconst(cl::I64X2, &[0x8000_0000_0000_0000; 2]);
                    let x_nzero = self.b.ins().icmp(IntCC::Equal, x_bits, neg_zero);
                    let pi_side = self.b.ins().bor(x_neg, x_nzero);
                    let v = self.select_either(pi_side, s1, s0);
                    let q = self.select_either(y_zero, v, q);
                    // A NaN operand: x + y.
                    let nan = self.b.ins().fcmp(FloatCC::Unordered, x, y);
                    let sum = self.b.ins().fadd(x, y);
                    self.select_either(nan, sum, q)
                }
            }
        })))
    }

    /// The inline recipes the scalar lowering writes once for scalars and
    /// vectors (`Lowering::lanewise` in lower/ext_inst.rs: `copysign`, the
    /// square roots, `maxmag`/`minmag`, the `half_` and `native_`
    /// divisions and reciprocals, `mix`, `step`, `smoothstep`, `sign`,
    /// `degrees`/`radians` of doubles, `select`) on one component of type
    /// `t`, as 4-lane vectors (`f32x4`, integers of 8 to 32 bits) or pairs
    /// of 2-lane ones (doubles, 64-bit integers): the same operations as
    /// the scalar body's on each lane. `degrees`/`radians` of floats are
    /// the scalar recipe's product in double on each half, rounded once.
    /// `scalar`: the instruction's result is a scalar (`select`'s
    /// condition is then nonzero, not negative).
    fn lanewise4(&mut self, op: Cl, args: &[Shape], t: Clif, scalar: bool) -> Option<Shape> {
        let recipe = crate::lower::ext_inst::lanewise_op(op) || matches!(op, Cl::degrees | Cl::radians);
        // (Instructions on halves never get here: they run lane by lane.)
        if !recipe {
            return None;
        }
        // Each operand's lane type: `t`, but select's condition, an
        // integer as wide.
        let ok = args.iter().enumerate().all(|(i, &s)| {
            let lt = self.lane_type(s);
            if op == Cl::select && i == 2 {
                lt.is_int() && lt.bits() == t.bits()
            } else {
                lt == t
            }
        });
        if !ok {
            return None;
        }
        if matches!(op, Cl::degrees | Cl::radians) && t == cl::F32 {
            let [x] = args else { return None };
            let c = if op == Cl::degrees {
                180.0 / std::f64::consts::PI
            } else {
                std::f64::consts::PI / 180.0
            };
            let c = self.b.ins().f64const(c);
            let c = self.b.ins().splat(cl::F64X2, c);
            let v = self.as_vec(*x, cl::F32X4);
            let [lo, hi] = self.promote_pair(v).map(|d| {
                let p = self.b.ins().fmul(d, c);
                self.b.ins().fvdemote(p)
            });
            return Some(Shape::V(self.join_lows(lo, hi)));
        }
        if self.pair_of(t).is_some() {
            let pairs: Vec<[Value; 2]> = args
                .iter()
                .map(|&s| {
                    let st = self.lane_type(s);
                    let spt = self.pair_of(st)?;
                    Some(self.as_pair(s, spt))
                })
                .collect::<Option<_>>()?;
            let mut halves = [None, None];
            for (h, half) in halves.iter_mut().enumerate() {
                let a: Vec<Value> = pairs.iter().map(|p| p[h]).collect();
                *half = Some(self.lanewise(op, &a, scalar)?);
            }
            let [Some(lo), Some(hi)] = halves else { return None };
            return Some(Shape::Pair([lo, hi]));
        }
        let v: Vec<Value> = args
            .iter()
            .map(|&s| {
                let vt = vec_of(self.lane_type(s))?;
                Some(self.as_vec(s, vt))
            })
            .collect::<Option<_>>()?;
        self.lanewise(op, &v, scalar).map(Shape::V)
    }

    /// The geometric functions of float vectors whose scalar recipes
    /// (lower/ext_inst.rs) combine components: `cross` (of floats or
    /// doubles: products and differences), `length` and `distance`
    /// (`fast_` forms too: the squares summed in double in component
    /// order, the square root, rounded once), `normalize` (infinite
    /// components to ±1 and the others to ±0 where any is infinite, each
    /// component in double over the length, rounded once, zero vectors
    /// unchanged), each lane as the scalar recipe computes it, the
    /// double steps on the two `f64x2` halves of each `f32x4`. None for
    /// other instructions and for the length, distance and normalize of
    /// doubles (their scaling: lane by lane).
    fn geometric4(&mut self, op: Cl, args: &[Vec<Shape>], out: &[Clif]) -> Option<Vec<Shape>> {
        let first = args.first()?;
        let t = self.lane_type(*first.first()?);
        let all_t = args.iter().flatten().all(|&s| self.lane_type(s) == t);
        if !all_t {
            return None;
        }
        match (op, args) {
            (Cl::cross, [a, b]) if (3..=4).contains(&a.len()) && a.len() == b.len() && out.len() == a.len() => {
                if t == cl::F64 {
                    let pt = self.pair_of(t)?;
                    let (a, b): (Vec<[Value; 2]>, Vec<[Value; 2]>) = (
                        a.iter().map(|&s| self.as_pair(s, pt)).collect(),
                        b.iter().map(|&s| self.as_pair(s, pt)).collect(),
                    );
                    let mut r: Vec<Shape> = [(1, 2), (2, 0), (0, 1)]
                        .iter()
                        .map(|&(i, j)| {
                            Shape::Pair([0, 1].map(|h| {
                                let p = self.b.ins().fmul(a[i][h], b[j][h]);
                                let q = self.b.ins().fmul(a[j][h], b[i][h]);
                                self.b.ins().fsub(p, q)
                            }))
                        })
                        .collect();
                    if a.len() == 4 {
                        let z = self.zero(pt);
                        r.push(Shape::Pair([z, z]));
                    }
                    return Some(r);
                }
                if t != cl::F32 {
                    return None;
                }
                let a: Vec<Value> = a.iter().map(|&s| self.as_vec(s, cl::F32X4)).collect();
                let b: Vec<Value> = b.iter().map(|&s| self.as_vec(s, cl::F32X4)).collect();
                let mut r: Vec<Shape> = [(1, 2), (2, 0), (0, 1)]
                    .iter()
                    .map(|&(i, j)| {
                        let p = self.b.ins().fmul(a[i], b[j]);
                        let q = self.b.ins().fmul(a[j], b[i]);
                        Shape::V(self.b.ins().fsub(p, q))
                    })
                    .collect();
                if a.len() == 4 {
                    r.push(Shape::V(self.zero(cl::F32X4)));
                }
                Some(r)
            }
            (Cl::length | Cl::fast_length, [x]) if t == cl::F32 && out.len() == 1 => {
                let x: Vec<Value> = x.iter().map(|&s| self.as_vec(s, cl::F32X4)).collect();
                let halves: Vec<[Value; 2]> = x.iter().map(|&v| self.promote_pair(v)).collect();
                let [lo, hi] = [0, 1].map(|h| {
                    let d: Vec<Value> = halves.iter().map(|p| p[h]).collect();
                    let l = self.sum_sq_sqrt(&d);
                    self.b.ins().fvdemote(l)
                });
                Some(vec![Shape::V(self.join_lows(lo, hi))])
            }
            (Cl::distance | Cl::fast_distance, [a, b]) if t == cl::F32 && a.len() == b.len() && out.len() == 1 => {
                let a: Vec<[Value; 2]> = a
                    .iter()
                    .map(|&s| {
                        let v = self.as_vec(s, cl::F32X4);
                        self.promote_pair(v)
                    })
                    .collect();
                let b: Vec<[Value; 2]> = b
                    .iter()
                    .map(|&s| {
                        let v = self.as_vec(s, cl::F32X4);
                        self.promote_pair(v)
                    })
                    .collect();
                let [lo, hi] = [0, 1].map(|h| {
                    let d: Vec<Value> = a.iter().zip(&b).map(|(x, y)| self.b.ins().fsub(x[h], y[h])).collect();
                    let l = self.sum_sq_sqrt(&d);
                    self.b.ins().fvdemote(l)
                });
                Some(vec![Shape::V(self.join_lows(lo, hi))])
            }
            (Cl::normalize | Cl::fast_normalize, [x]) if t == cl::F32 && out.len() == x.len() => {
                let x: Vec<Value> = x.iter().map(|&s| self.as_vec(s, cl::F32X4)).collect();
                let (replaced, all_zero) = self.normalize_inputs(&x)?;
                let all_zero = self.b.ins().bitcast(cl::F32X4, MemFlagsData::new(), all_zero);
                let d: Vec<[Value; 2]> = replaced.iter().map(|&v| self.promote_pair(v)).collect();
                let ls = [0, 1].map(|h| {
                    let dh: Vec<Value> = d.iter().map(|p| p[h]).collect();
                    self.sum_sq_sqrt(&dh)
                });
                Some(
                    x.iter()
                        .zip(&d)
                        .map(|(&v, w)| {
                            let [lo, hi] = [0, 1].map(|h| {
                                let q = self.b.ins().fdiv(w[h], ls[h]);
                                self.b.ins().fvdemote(q)
                            });
                            let q = self.join_lows(lo, hi);
                            Shape::V(self.b.ins().bitselect(all_zero, v, q))
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// `sinpi` and `cospi` of floats on one component, as the scalar
    /// functions (`math_shared::sinpi`, `cospi` with `math_f32`'s kernels)
    /// compute them, in double on the two `f64x2` halves (every step of
    /// the reduction is exact in float, so in double too): r = |x| mod 2
    /// (|x| - 2 floor(|x|/2), exact), reflected to [0, 1/2] (sinpi:
    /// through r - 1, flipping the sign, and 1 - r; cospi: through 2 - r
    /// and 1 - r, flipping the sign), then sin(pi r) or cos(pi (1/2 - r))
    /// (sinpi; cospi the other way round) by r <= 1/4, both by one call
    /// each of `libm_lanes`' four-lane forms (bitwise `libm`'s), the
    /// sign flipped in double (exact, and rounding is symmetric), rounded
    /// once; sinpi of an integer is ±0 by x's sign, cospi of an integer
    /// plus 1/2 is +0; a NaN x is itself, an infinite one the NaN.
    fn sinpi4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let (Cl::sinpi | Cl::cospi, &[x]) = (op, args) else {
            return None;
        };
        if t != cl::F32 || self.lane_type(x) != t {
            return None;
        }
        let sin = clift_builtins::libm_lanes::four_lanes("sin")?;
        let cos = clift_builtins::libm_lanes::four_lanes("cos")?;
        let xv = self.as_vec(x, cl::F32X4);
        let xd = self.promote_pair(xv);
        let (half, one, two, quarter, pi) = (
            self.splat64(0.5),
            self.splat64(1.0),
            self.splat64(2.0),
            self.splat64(0.25),
            self.splat64(std::f64::consts::PI),
        );
        let sinpi = op == Cl::sinpi;
        // Per half: the reduced r, whether the sign flips, the arguments
        // of sin and of cos, whether r <= 1/4.
        let mut reduced = Vec::new();
        for &d in &xd {
            let mut r = self.abs_mod_two(d);
            let flip = if sinpi {
                let ge1 = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, r, one);
                let r1 = self.b.ins().fsub(r, one);
                r = self.pick64(ge1, r1, r);
                let gt = self.b.ins().fcmp(FloatCC::GreaterThan, r, half);
                let r2 = self.b.ins().fsub(one, r);
                r = self.pick64(gt, r2, r);
                // x's sign, flipped where r was at least 1.
                let negative = self.sign_mask64(d);
                self.b.ins().bxor(negative, ge1)
            } else {
                let gt1 = self.b.ins().fcmp(FloatCC::GreaterThan, r, one);
                let r1 = self.b.ins().fsub(two, r);
                r = self.pick64(gt1, r1, r);
                let gt = self.b.ins().fcmp(FloatCC::GreaterThan, r, half);
                let r2 = self.b.ins().fsub(one, r);
                r = self.pick64(gt, r2, r);
                gt
            };
            let near = self.b.ins().fmul(pi, r);
            let rest = self.b.ins().fsub(half, r);
            let far = self.b.ins().fmul(pi, rest);
            let small = self.b.ins().fcmp(FloatCC::LessThanOrEqual, r, quarter);
            reduced.push((r, flip, near, far, small));
        }
        // sinpi: sin(pi r) for small r, cos(pi (1/2 - r)) for the others;
        // cospi the other way round.
        let (sin_args, cos_args): (Vec<Value>, Vec<Value>) = if sinpi {
            reduced.iter().map(|q| (q.2, q.3)).unzip()
        } else {
            reduced.iter().map(|q| (q.3, q.2)).unzip()
        };
        let sines = self.call_four_lanes(sin, &sin_args);
        let cosines = self.call_four_lanes(cos, &cos_args);
        let demoted = [0, 1].map(|h| {
            let (r, flip, _, _, small) = reduced[h];
            let (first, second) = if sinpi {
                (sines[h], cosines[h])
            } else {
                (cosines[h], sines[h])
            };
            let v = self.pick64(small, first, second);
            let flipped = self.negate64(v);
            let v = self.pick64(flip, flipped, v);
            // sinpi: ±0 by x's sign where r = 0; cospi: +0 where r = 1/2.
            let zero = self.splat64(0.0);
            let v = if sinpi {
                let at = self.b.ins().fcmp(FloatCC::Equal, r, zero);
                let signed_zero = self.copysign_any(zero, xd[h]);
                self.pick64(at, signed_zero, v)
            } else {
                let at = self.b.ins().fcmp(FloatCC::Equal, r, half);
                self.pick64(at, zero, v)
            };
            self.b.ins().fvdemote(v)
        });
        let v = self.join_lows(demoted[0], demoted[1]);
        Some(Shape::V(self.nan_of_nonfinite(xv, v)))
    }

    /// `v` but, where `x` is not finite, `math_shared::nan_of(x)`: a NaN x
    /// itself (its bits), the NaN for infinities (the pi forms' rule).
    fn nan_of_nonfinite(&mut self, x: Value, v: Value) -> Value {
        let flags = MemFlagsData::new();
        let inf = self.b.ins().f32const(f32::INFINITY);
        let inf = self.b.ins().splat(cl::F32X4, inf);
        let ax = self.b.ins().fabs(x);
        let is_inf = self.b.ins().fcmp(FloatCC::Equal, ax, inf);
        let is_inf = self.b.ins().bitcast(cl::F32X4, flags, is_inf);
        let nan = self.b.ins().f32const(f32::NAN);
        let nan = self.b.ins().splat(cl::F32X4, nan);
        let v = self.b.ins().bitselect(is_inf, nan, v);
        let is_nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
        let is_nan = self.b.ins().bitcast(cl::F32X4, flags, is_nan);
        self.b.ins().bitselect(is_nan, x, v)
    }

    /// `tanpi` of floats on one component, as the scalar function
    /// (`math_shared::tanpi` with `math_f32`'s kernel) computes it, in
    /// double on the two `f64x2` halves: r = |x| mod 2 (exact), less 1
    /// where it is at least 1 (odd); the kernel's four pieces by r (tan of
    /// pi r; 1 over, -1 over the tan of pi (1/2 - r) and of pi (r - 1/2);
    /// minus the tan of pi (1 - r)), their arguments chosen per lane for
    /// one call of `libm_lanes`' four-lane `tan`; ±0 where r = 0 and ±inf
    /// where r = 1/2 (the sign by odd); the sign flipped for negative x;
    /// rounded once; NaNs and infinities as [`Self::nan_of_nonfinite`].
    fn tanpi4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let (Cl::tanpi, &[x]) = (op, args) else { return None };
        if t != cl::F32 || self.lane_type(x) != t {
            return None;
        }
        let tan = clift_builtins::libm_lanes::four_lanes("tan")?;
        let xv = self.as_vec(x, cl::F32X4);
        let xd = self.promote_pair(xv);
        let (half, one, quarter, three_quarters, pi) = (
            self.splat64(0.5),
            self.splat64(1.0),
            self.splat64(0.25),
            self.splat64(0.75),
            self.splat64(std::f64::consts::PI),
        );
        let mut parts = Vec::new();
        let mut args = Vec::new();
        for &d in &xd {
            let r = self.abs_mod_two(d);
            let odd = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, r, one);
            let r1 = self.b.ins().fsub(r, one);
            let r = self.pick64(odd, r1, r);
            let first = self.b.ins().fcmp(FloatCC::LessThanOrEqual, r, quarter);
            let second = self.b.ins().fcmp(FloatCC::LessThan, r, half);
            let third = self.b.ins().fcmp(FloatCC::LessThanOrEqual, r, three_quarters);
            let a1 = self.b.ins().fmul(pi, r);
            let d2 = self.b.ins().fsub(half, r);
            let a2 = self.b.ins().fmul(pi, d2);
            let d3 = self.b.ins().fsub(r, half);
            let a3 = self.b.ins().fmul(pi, d3);
            let d4 = self.b.ins().fsub(one, r);
            let a4 = self.b.ins().fmul(pi, d4);
            let a = self.pick64(third, a3, a4);
            let a = self.pick64(second, a2, a);
            args.push(self.pick64(first, a1, a));
            parts.push((d, r, odd, first, second, third));
        }
        let tans = self.call_four_lanes(tan, &args);
        let demoted = [0, 1].map(|h| {
            let (d, r, odd, first, second, third) = parts[h];
            let tv = tans[h];
            let recip = self.b.ins().fdiv(one, tv);
            let minus_one = self.splat64(-1.0);
            let neg_recip = self.b.ins().fdiv(minus_one, tv);
            let neg = self.negate64(tv);
            let v = self.pick64(third, neg_recip, neg);
            let v = self.pick64(second, recip, v);
            let v = self.pick64(first, tv, v);
            // r = 0: a zero, r = 1/2: an infinity, negative for odd.
            let zero = self.splat64(0.0);
            let inf = self.splat64(f64::INFINITY);
            let at_zero = self.b.ins().fcmp(FloatCC::Equal, r, zero);
            let at_half = self.b.ins().fcmp(FloatCC::Equal, r, half);
            let v = self.pick64(at_zero, zero, v);
            let v = self.pick64(at_half, inf, v);
            let special = self.b.ins().bor(at_zero, at_half);
            let odd_special = self.b.ins().band(special, odd);
            let flipped = self.negate64(v);
            let v = self.pick64(odd_special, flipped, v);
            // Negative x: the sign flipped.
            let negative = self.sign_mask64(d);
            let flipped = self.negate64(v);
            let v = self.pick64(negative, flipped, v);
            self.b.ins().fvdemote(v)
        });
        let v = self.join_lows(demoted[0], demoted[1]);
        Some(Shape::V(self.nan_of_nonfinite(xv, v)))
    }

    /// Every lane of an `f64x2` `c`.
    fn splat64(&mut self, c: f64) -> Value {
        let c = self.b.ins().f64const(c);
        self.b.ins().splat(cl::F64X2, c)
    }

    /// The lanes of `f64x2` `a` where lane mask `m` (of 64-bit lanes, any
    /// type) is set, of `b` elsewhere.
    fn pick64(&mut self, m: Value, a: Value, b: Value) -> Value {
        let m = self.b.ins().bitcast(cl::F64X2, MemFlagsData::new(), m);
        self.b.ins().bitselect(m, a, b)
    }

    /// `f64x2` `v` with each lane's sign bit flipped: a bit operation, as
    /// the scalar functions' `-v`.
    fn negate64(&mut self, v: Value) -> Value {
        let flags = MemFlagsData::new();
        let sign = self.b.ins().iconst(cl::I64, i64::MIN);
        let sign = self.b.ins().splat(cl::I64X2, sign);
        let vi = self.b.ins().bitcast(cl::I64X2, flags, v);
        let f = self.b.ins().bxor(vi, sign);
        self.b.ins().bitcast(cl::F64X2, flags, f)
    }

    /// The lanes of `f64x2` `v` whose sign bit is set (-0 and negative
    /// NaNs among them), as an `i64x2` mask.
    fn sign_mask64(&mut self, v: Value) -> Value {
        let vi = self.b.ins().bitcast(cl::I64X2, MemFlagsData::new(), v);
        let zero = self.zero(cl::I64X2);
        self.b.ins().icmp(IntCC::SignedLessThan, vi, zero)
    }

    /// |d| mod 2 of the lanes of `f64x2` `d` holding floats: |d| - 2
    /// floor(|d| / 2), every step exact (as the scalar `x.abs() % 2`).
    fn abs_mod_two(&mut self, d: Value) -> Value {
        let (half, two) = (self.splat64(0.5), self.splat64(2.0));
        let ax = self.b.ins().fabs(d);
        let h = self.b.ins().fmul(ax, half);
        let fl = self.b.ins().floor(h);
        let twice = self.b.ins().fmul(fl, two);
        self.b.ins().fsub(ax, twice)
    }

    /// One call of the four-lane `double` form at `addr` (`libm_lanes`'
    /// entry points: each argument's two `f64x2` halves in `xmm`
    /// registers, then the address of four doubles' room), the results as
    /// two `f64x2` halves read back from the stack slot given to it.
    pub(super) fn call_four_lanes(&mut self, addr: usize, halves: &[Value]) -> [Value; 2] {
        let slot = self
            .b
            .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 32, 4));
        let mut operands = halves.to_vec();
        operands.push(self.b.ins().stack_addr(cl::I64, slot, 0));
        let mut params = vec![cl::F64X2; halves.len()];
        params.push(cl::I64);
        self.call_host(addr, &params, &[], &operands);
        [0, 16].map(|o| self.b.ins().stack_load(cl::I64, cl::F64X2, slot, o))
    }

    /// `pown(x, n)` of floats and doubles on one component of type `t`, as
    /// the scalar lowering's host functions compute it (`libm`'s double
    /// `pow` of x, widened, and n, converted exactly; rounded once to
    /// float): one call of `libm_lanes`' four-lane `pow` (bitwise `libm`'s
    /// on each lane) with the four lanes' x and n as doubles, two halves
    /// each. None where there is no such form.
    fn pown4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let (Cl::pown, &[x, n]) = (op, args) else { return None };
        if !matches!(t, cl::F32 | cl::F64) || self.lane_type(x) != t || self.lane_type(n) != cl::I32 {
            return None;
        }
        let addr = clift_builtins::libm_lanes::four_lanes_binary("pow")?;
        let xs = if t == cl::F32 {
            let v = self.as_vec(x, cl::F32X4);
            self.promote_pair(v)
        } else {
            let pt = self.pair_of(t)?;
            self.as_pair(x, pt)
        };
        // n's lanes 0-1 and 2-3 as doubles (`cvtdq2pd`, exact).
        let nv = self.as_vec(n, cl::I32X4);
        let high = self.high_down(nv);
        let ns = [nv, high].map(|v| {
            let w = self.b.ins().swiden_low(v);
            self.b.ins().fcvt_from_sint(cl::F64X2, w)
        });
        let [lo, hi] = self.call_four_lanes(addr, &[xs[0], xs[1], ns[0], ns[1]]);
        if t == cl::F64 {
            return Some(Shape::Pair([lo, hi]));
        }
        let [lo, hi] = [lo, hi].map(|d| self.b.ins().fvdemote(d));
        Some(Shape::V(self.join_lows(lo, hi)))
    }

    /// `round`, `fdim` and `ldexp` of floats and doubles on one component
    /// of type `t` (`f32x4` vectors, pairs of `f64x2`), as vector code
    /// giving each lane the scalar lowering's host function's bits:
    ///
    /// - `round(x)` (`libm`'s, exact: halves away from zero): t = trunc(x),
    ///   t + copysign(1, x) where |x - t| >= 0.5 (the difference exact),
    ///   x quieted where x is NaN (`libm` adds to it before truncating);
    /// - `fdim(x, y)` (`math_shared::fdim`): x - y where x > y, else +0;
    ///   y + y where y is NaN, x + x where x is (each NaN quieted);
    /// - `ldexp(x, n)` of floats (`clift_ldexp_f32`): n clamped to
    ///   [-300, 300], x in double times 2^n made from its exponent bits,
    ///   rounded once.
    fn rounding4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        if !matches!(op, Cl::round | Cl::fdim | Cl::ldexp) || !matches!(t, cl::F32 | cl::F64) {
            return None;
        }
        let ok = args.iter().enumerate().all(|(i, &s)| {
            let lt = self.lane_type(s);
            if op == Cl::ldexp && i == 1 {
                lt == cl::I32
            } else {
                lt == t
            }
        });
        if !ok {
            return None;
        }
        if op == Cl::ldexp {
            // Doubles' ldexp is `libm`'s scalbn (its own steps for large
            // n): lane by lane.
            let (cl::F32, &[x, n]) = (t, args) else { return None };
            let x = self.as_vec(x, cl::F32X4);
            let n = self.as_vec(n, cl::I32X4);
            let (lo, hi) = (self.b.ins().iconst(cl::I32, -300), self.b.ins().iconst(cl::I32, 300));
            let (lo, hi) = (self.b.ins().splat(cl::I32X4, lo), self.b.ins().splat(cl::I32X4, hi));
            let n = self.b.ins().smax(n, lo);
            let n = self.b.ins().smin(n, hi);
            let bias = self.b.ins().iconst(cl::I32, 1023);
            let bias = self.b.ins().splat(cl::I32X4, bias);
            let e = self.b.ins().iadd(n, bias);
            let wide = [self.b.ins().swiden_low(e), self.b.ins().swiden_high(e)];
            let xs = self.promote_pair(x);
            let [lo, hi] = [0, 1].map(|h| {
                let bits = self.b.ins().ishl_imm_u(wide[h], 52);
                let scale = self.b.ins().bitcast(cl::F64X2, MemFlagsData::new(), bits);
                let p = self.b.ins().fmul(xs[h], scale);
                self.b.ins().fvdemote(p)
            });
            return Some(Shape::V(self.join_lows(lo, hi)));
        }
        let compute = |l: &mut Self, v: &[Value]| -> Value {
            let x = v[0];
            let vt = l.ty(x);
            let flags = MemFlagsData::new();
            let splat = |l: &mut Self, c: f64| {
                let c = if vt.lane_type() == cl::F64 {
                    l.b.ins().f64const(c)
                } else {
                    l.b.ins().f32const(c as f32)
                };
                l.b.ins().splat(vt, c)
            };
            let pick = |l: &mut Self, m: Value, a: Value, b: Value| {
                let m = l.b.ins().bitcast(vt, flags, m);
                l.b.ins().bitselect(m, a, b)
            };
            let nan = |l: &mut Self, v: Value| l.b.ins().fcmp(FloatCC::Unordered, v, v);
            if v.len() == 1 {
                let t = l.b.ins().trunc(x);
                let d = l.b.ins().fsub(x, t);
                let d = l.b.ins().fabs(d);
                let half = splat(l, 0.5);
                let away = l.b.ins().fcmp(FloatCC::GreaterThanOrEqual, d, half);
                let one = splat(l, 1.0);
                let unit = l.copysign_any(one, x);
                let up = l.b.ins().fadd(t, unit);
                let r = pick(l, away, up, t);
                let n = nan(l, x);
                let quiet = l.b.ins().fadd(x, x);
                pick(l, n, quiet, r)
            } else {
                let y = v[1];
                let gt = l.b.ins().fcmp(FloatCC::GreaterThan, x, y);
                let diff = l.b.ins().fsub(x, y);
                let zero = splat(l, 0.0);
                let r = pick(l, gt, diff, zero);
                let (yq, xq) = (l.b.ins().fadd(y, y), l.b.ins().fadd(x, x));
                let ny = nan(l, y);
                let r = pick(l, ny, yq, r);
                let nx = nan(l, x);
                pick(l, nx, xq, r)
            }
        };
        if t == cl::F64 {
            let pt = self.pair_of(t)?;
            let pairs: Vec<[Value; 2]> = args.iter().map(|&s| self.as_pair(s, pt)).collect();
            let halves = [0, 1].map(|h| {
                let v: Vec<Value> = pairs.iter().map(|p| p[h]).collect();
                compute(self, &v)
            });
            return Some(Shape::Pair(halves));
        }
        let v: Vec<Value> = args.iter().map(|&s| self.as_vec(s, cl::F32X4)).collect();
        Some(Shape::V(compute(self, &v)))
    }

    /// `upsample(hi, lo)` of 8-, 16- or 32-bit lanes into lanes of twice
    /// the width `t`: hi widened (sign-extended for `s_upsample`) and
    /// moved up, lo zero-extended below it, as the scalar lowering.
    fn upsample4(&mut self, signed: bool, hi: Shape, lo: Shape, t: Clif) -> Option<Shape> {
        let nt = self.lane_type(hi);
        if self.lane_type(lo) != nt || nt.bits() * 2 != t.bits() || self.scalar_lanes() {
            return None;
        }
        let nvt = vec_of(nt)?;
        let (h, l) = (self.as_vec(hi, nvt), self.as_vec(lo, nvt));
        let widen = |s: &mut Self, v: Value, signed: bool, high: bool| match (signed, high) {
            (true, false) => s.b.ins().swiden_low(v),
            (true, true) => s.b.ins().swiden_high(v),
            (false, false) => s.b.ins().uwiden_low(v),
            (false, true) => s.b.ins().uwiden_high(v),
        };
        let join = |s: &mut Self, high: bool| {
            let wh = widen(s, h, signed, high);
            let wh = s.b.ins().ishl_imm_u(wh, i64::from(nt.bits()));
            let wl = widen(s, l, false, high);
            s.b.ins().bor(wh, wl)
        };
        if t == cl::I64 {
            self.pair_of(t)?;
            return Some(Shape::Pair([join(self, false), join(self, true)]));
        }
        // 8- and 16-bit lanes 0-3 widen into lanes 0-3.
        Some(Shape::V(join(self, false)))
    }

    /// The OpenCL.std instructions with a 4-lane form, on one component
    /// of type `t` (as the scalar lowering computes them).
    pub(super) fn ext(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        if let (Cl::s_upsample | Cl::u_upsample, &[hi, lo]) = (op, args) {
            return self.upsample4(op == Cl::s_upsample, hi, lo, t);
        }
        if let Some(pt) = self.pair_of(t) {
            return self.ext_pair(op, args, t, pt);
        }
        let vt = vec_of(t)?;
        if narrow(t) {
            if args.iter().any(|&s| self.lane_type(s) != t) {
                return None;
            }
            let v: Vec<Value> = args.iter().map(|&s| self.as_vec(s, vt)).collect();
            // As the scalar lowering: the negation wraps (`abs(-128)` is
            // 0x80).
            return match (op, v.as_slice()) {
                (Cl::s_abs, &[x]) => Some(Shape::V(self.b.ins().iabs(x))),
                (Cl::u_abs, &[x]) => Some(Shape::V(x)),
                _ if min_max_arity(op, t) == Some(v.len()) => self.min_max(op, &v).map(Shape::V),
                _ => self.narrow_bits4(op, &v, t).map(Shape::V),
            };
        }
        let float = t == cl::F32;
        // pow, atan2, atan2pi: both arguments in vector registers, the
        // result in one. (hypot is computed inline below.)
        if let (true, [x, y]) = (float, args) {
            let name = format!("{op:?}");
            if let Some(addr) = clift_builtins::math_f32::four_lanes_in_register_binary(&name) {
                if self.lane_type(*x) != t || self.lane_type(*y) != t {
                    return None;
                }
                let a = self.as_vec(*x, cl::F32X4);
                let b = self.as_vec(*y, cl::F32X4);
                let r = self.call_host(addr, &[cl::F32X4, cl::F32X4], &[cl::F32X4], &[a, b]);
                return Some(Shape::V(r[0]));
            }
        }
        // Host functions with a 4-lane entry point: one call per chunk.
        if let (true, [x]) = (float, args) {
            let name = format!("{op:?}");
            if let Some(addr) = clift_builtins::math_f32::four_lanes_in_register(&name) {
                // The four lanes go in and come back in a vector register
                // (x86-64 System V), no stack slot.
                if self.lane_type(*x) != t {
                    return None;
                }
                let v = self.as_vec(*x, cl::F32X4);
                let r = self.call_host(addr, &[cl::F32X4], &[cl::F32X4], &[v]);
                return Some(Shape::V(r[0]));
            }
            if let Some(addr) = clift_builtins::math_f32::four_lanes(&name) {
                if self.lane_type(*x) != t {
                    return None;
                }
                let v = self.as_vec(*x, cl::F32X4);
                let slot = self
                    .b
                    .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 4));
                self.b.ins().stack_store(cl::I64, v, slot, 0);
                let p = self.b.ins().stack_addr(cl::I64, slot, 0);
                self.call_host(addr, &[cl::I64], &[], &[p]);
                return Some(Shape::V(self.b.ins().stack_load(cl::I64, cl::F32X4, slot, 0)));
            }
        }
        if t == cl::I32 && args.iter().all(|&s| self.lane_type(s) == t) {
            match (op, args) {
                // A count the same in every lane: two shifts (Cranelift
                // takes both counts modulo 32, as `rotl` does).
                (Cl::rotate, &[x, Shape::U(n)]) => {
                    let v = self.as_vec(x, vt);
                    return Some(Shape::V(self.rotate_by_uniform(v, n)));
                }
                (Cl::popcount, &[x]) => {
                    let v = self.as_vec(x, vt);
                    return Some(Shape::V(self.popcount4(v)));
                }
                (Cl::clz, &[x]) => {
                    let v = self.as_vec(x, vt);
                    return Some(Shape::V(self.clz4(v)));
                }
                // The bits below the lowest set one, counted (all 32 of
                // a zero lane: ctz(0) is 32).
                (Cl::ctz, &[x]) => {
                    let v = self.as_vec(x, vt);
                    let one = self.vconst(vt, &[1; super::LANES]);
                    let below = self.b.ins().isub(v, one);
                    let below = self.b.ins().band_not(below, v);
                    return Some(Shape::V(self.popcount4(below)));
                }
                (Cl::u_mul_hi | Cl::s_mul_hi, &[x, y]) => {
                    let (x, y) = (self.as_vec(x, vt), self.as_vec(y, vt));
                    return Some(Shape::V(self.mul_hi4(x, y, op == Cl::s_mul_hi)));
                }
                (Cl::u_mad_sat | Cl::s_mad_sat, &[x, y, z]) => {
                    let (x, y, z) = (self.as_vec(x, vt), self.as_vec(y, vt), self.as_vec(z, vt));
                    return Some(Shape::V(self.mad_sat4(x, y, z, op == Cl::s_mad_sat)));
                }
                // As the scalar lowering: mul_hi, then a wrapping add.
                (Cl::u_mad_hi | Cl::s_mad_hi, &[x, y, z]) => {
                    let (x, y, z) = (self.as_vec(x, vt), self.as_vec(y, vt), self.as_vec(z, vt));
                    let h = self.mul_hi4(x, y, op == Cl::s_mad_hi);
                    return Some(Shape::V(self.b.ins().iadd(h, z)));
                }
                _ => {}
            }
        }
        if min_max_arity(op, t) == Some(args.len()) && args.iter().all(|&s| self.lane_type(s) == t) {
            let v: Vec<Value> = args.iter().map(|&s| self.as_vec(s, vt)).collect();
            return self.min_max(op, &v).map(Shape::V);
        }
        let known = if float {
            matches!(
                op,
                Cl::mad
                    | Cl::fma
                    | Cl::fabs
                    | Cl::sqrt
                    | Cl::floor
                    | Cl::ceil
                    | Cl::trunc
                    | Cl::rint
                    | Cl::rsqrt
                    | Cl::half_rsqrt
                    | Cl::native_rsqrt
                    | Cl::hypot
            )
        } else {
            matches!(
                op,
                Cl::s_abs | Cl::u_abs | Cl::s_mul24 | Cl::u_mul24 | Cl::s_mad24 | Cl::u_mad24
            )
        };
        if !known || args.iter().any(|&s| self.lane_type(s) != t) {
            return None;
        }
        let v: Vec<Value> = args.iter().map(|&s| self.as_vec(s, vt)).collect();
        let ins = self.b.ins();
        Some(Shape::V(match (op, v.as_slice()) {
            (Cl::mad | Cl::fma, &[x, y, z]) if float => ins.fma(x, y, z),
            (Cl::fabs, &[x]) if float => ins.fabs(x),
            (Cl::sqrt, &[x]) if float => ins.sqrt(x),
            (Cl::floor, &[x]) if float => ins.floor(x),
            (Cl::ceil, &[x]) if float => ins.ceil(x),
            (Cl::trunc, &[x]) if float => ins.trunc(x),
            (Cl::rint, &[x]) if float => ins.nearest(x),
            // As the scalar lowering's `clift_rsqrt_f32`: 1 / sqrt(x) in
            // double, rounded once, so that a work-item's result does not
            // depend on whether it ran in a chunk.
            // (half_rsqrt and native_rsqrt: the same host function.)
            (Cl::rsqrt | Cl::half_rsqrt | Cl::native_rsqrt, &[x]) if float => self.rsqrt_in_double(x),
            // As the scalar lowering's `clift_hypot_f32`.
            (Cl::hypot, &[x, y]) if float => self.hypot_in_double(x, y),
            (Cl::s_abs, &[x]) if !float => ins.iabs(x),
            (Cl::u_abs, &[x]) if !float => x,
            // As the scalar lowering: a plain (wrapping) multiply, the
            // operands being 24-bit by contract.
            (Cl::s_mul24 | Cl::u_mul24, &[x, y]) if !float => ins.imul(x, y),
            (Cl::s_mad24 | Cl::u_mad24, &[x, y, z]) if !float => {
                let p = ins.imul(x, y);
                self.b.ins().iadd(p, z)
            }
            _ => return None,
        }))
    }
}
