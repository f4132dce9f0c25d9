//! Conversions: OpConvertFToU/FToS/SToF/UToF, OpUConvert, OpSConvert,
//! OpFConvert, OpSatConvertSToU/UToS, OpConvertPtrToU/UToPtr and OpBitcast,
//! component by component, honouring the SaturatedConversion and
//! FPRoundingMode decorations of the result (OpenCL C 6.2.3).
//!
//! - Float to integer always saturates (NaN gives 0): with the decoration
//!   that is what OpenCL asks, without it the result of an out-of-range
//!   conversion is undefined and saturating is one value that never traps.
//!   The rounding mode (default toward zero) is applied first with
//!   floor / ceil / nearest.
//! - Integer to float and f64 to f32 convert to nearest-even, then compare
//!   the result exactly with the source and step it one ulp toward the
//!   direction the rounding mode asks when it landed on the wrong side.
//! - OpBitcast between types of different component counts repacks the
//!   bytes (little-endian): `as_int2(long)` splits, `as_uint(uchar4)` joins.

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, InstBuilder, MemFlagsData, Type as Clif, Value,
};
use rspirv::dr::Operand;
use spirv::{Decoration, FPRoundingMode, Op};

use super::{types, Lowering, R};
use crate::spirv::{Id, Module};

/// A rounding mode of a conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Round {
    /// To nearest, ties to even.
    Rte,
    /// Toward zero.
    Rtz,
    /// Toward +infinity.
    Rtp,
    /// Toward -infinity.
    Rtn,
}

/// The FPRoundingMode decoration of `id`, if any.
pub(super) fn rounding(m: &Module, id: Id) -> Option<Round> {
    let d = m.decoration(id, Decoration::FPRoundingMode)?;
    match m.deco_params(d).first() {
        Some(Operand::FPRoundingMode(FPRoundingMode::RTE)) => Some(Round::Rte),
        Some(Operand::FPRoundingMode(FPRoundingMode::RTZ)) => Some(Round::Rtz),
        Some(Operand::FPRoundingMode(FPRoundingMode::RTP)) => Some(Round::Rtp),
        Some(Operand::FPRoundingMode(FPRoundingMode::RTN)) => Some(Round::Rtn),
        _ => None,
    }
}

/// The integer type of the same width as `t`.
fn int_of(t: Clif) -> Clif {
    match t.bits() {
        8 => cl::I8,
        16 => cl::I16,
        32 => cl::I32,
        _ => cl::I64,
    }
}

/// The largest unsigned value of `bits` bits.
fn umax(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl Lowering<'_, '_, '_> {
    /// Lowers conversion instruction `i`.
    pub(super) fn convert(&mut self, i: u32) -> R {
        let m = self.m;
        let inst = self.at(i);
        let (ty, id) = inst.result();
        let out = types::components(m, ty)?;
        let src = inst.operand(0);
        let x = self.get(src)?;
        let half_in = m.type_of(src).is_some_and(|t| super::half::is_half(m, t));
        let half_out = super::half::is_half(m, ty);
        let v = if inst.op == Op::Bitcast && (half_in || half_out) {
            // Through the 16-bit encodings: halves become i16 first, and
            // i16 results become halves.
            let x: Vec<Value> = if half_in {
                x.iter().map(|&v| super::half::to_bits(self.b, v)).collect()
            } else {
                x
            };
            let want: Vec<Clif> = if half_out {
                vec![cl::I16; out.len()]
            } else {
                out.clone()
            };
            let r = self.repack(&x, &want)?;
            if half_out {
                r.into_iter().map(|v| super::half::from_bits(self.b, v)).collect()
            } else {
                r
            }
        } else if inst.op == Op::Bitcast {
            self.repack(&x, &out)?
        } else if half_out && matches!(inst.op, Op::FConvert | Op::ConvertSToF | Op::ConvertUToF) {
            if x.len() != out.len() {
                return Err("the operand and the result have different component counts".into());
            }
            let mode = match rounding(m, id).unwrap_or(Round::Rte) {
                Round::Rte => 0,
                Round::Rtz => 1,
                Round::Rtp => 2,
                Round::Rtn => 3,
            };
            let mut v = Vec::with_capacity(out.len());
            for &xk in &x {
                let xt = self.b.func.dfg.value_type(xk);
                v.push(if xt == cl::F64 {
                    // Once, straight from the double.
                    self.f64_to_half(xk, mode)?
                } else {
                    // An integer below 2^24 converts to f32 exactly; one at
                    // or above it overflows half in every mode as its f32
                    // does. A float or half is already an f32.
                    let f = self.convert1(inst.op, xk, cl::F32, false, None)?;
                    self.round_half_mode(f, mode)?
                });
            }
            v
        } else {
            if x.len() != out.len() {
                return Err("the operand and the result have different component counts".into());
            }
            let sat = m.decoration(id, Decoration::SaturatedConversion).is_some();
            let round = rounding(m, id);
            let mut v = Vec::with_capacity(out.len());
            for (&xk, &t) in x.iter().zip(&out) {
                v.push(self.convert1(inst.op, xk, t, sat, round)?);
            }
            v
        };
        self.values.insert(id, v);
        Ok(())
    }

    /// One component of a conversion to Cranelift type `t`.
    pub(in crate::lower) fn convert1(
        &mut self,
        op: Op,
        x: Value,
        t: Clif,
        sat: bool,
        round: Option<Round>,
    ) -> R<Value> {
        let xt = self.b.func.dfg.value_type(x);
        let not_int = |t: Clif| !t.is_int();
        Ok(match op {
            Op::UConvert | Op::ConvertPtrToU | Op::ConvertUToPtr => {
                if not_int(xt) || not_int(t) {
                    return Err("an integer conversion of a non-integer".into());
                }
                if sat && t.bits() < xt.bits() {
                    let c = self.bits(xt, umax(t.bits()));
                    let y = self.b.ins().umin(x, c);
                    self.resize(y, t, false)
                } else {
                    self.resize(x, t, false)
                }
            }
            Op::SConvert => {
                if not_int(xt) || not_int(t) {
                    return Err("an integer conversion of a non-integer".into());
                }
                if sat && t.bits() < xt.bits() {
                    let hi = self.bits(xt, umax(t.bits()) >> 1);
                    let lo = self.bits(xt, !(umax(t.bits()) >> 1));
                    let y = self.b.ins().smin(x, hi);
                    let y = self.b.ins().smax(y, lo);
                    self.resize(y, t, true)
                } else {
                    self.resize(x, t, true)
                }
            }
            Op::SatConvertSToU | Op::SatConvertUToS => {
                if not_int(xt) || not_int(t) {
                    return Err("an integer conversion of a non-integer".into());
                }
                let w = if xt.bits() >= t.bits() { xt } else { t };
                let signed = op == Op::SatConvertSToU;
                let mut y = self.resize(x, w, signed);
                if signed {
                    let zero = self.zero(w);
                    y = self.b.ins().smax(y, zero);
                    if t.bits() < w.bits() {
                        let c = self.bits(w, umax(t.bits()));
                        y = self.b.ins().umin(y, c);
                    }
                } else {
                    let c = self.bits(w, umax(t.bits()) >> 1);
                    y = self.b.ins().umin(y, c);
                }
                self.resize(y, t, false)
            }
            Op::ConvertFToS | Op::ConvertFToU => {
                if !xt.is_float() || not_int(t) {
                    return Err("a float-to-integer conversion of the wrong types".into());
                }
                self.float_to_int(op == Op::ConvertFToS, x, t, round)
            }
            Op::ConvertSToF | Op::ConvertUToF => {
                if not_int(xt) || !t.is_float() {
                    return Err("an integer-to-float conversion of the wrong types".into());
                }
                self.int_to_float(op == Op::ConvertSToF, x, t, round)
            }
            Op::FConvert => self.float_convert(x, t, round)?,
            _ => return Err(format!("{op:?} is not a conversion")),
        })
    }

    /// A float to a signed (`signed`) or unsigned integer of type `t`,
    /// saturating, rounded as `round` says (toward zero by default).
    fn float_to_int(&mut self, signed: bool, x: Value, t: Clif, round: Option<Round>) -> Value {
        let x = match round.unwrap_or(Round::Rtz) {
            Round::Rtz => x,
            Round::Rte => self.b.ins().nearest(x),
            Round::Rtp => self.b.ins().ceil(x),
            Round::Rtn => self.b.ins().floor(x),
        };
        let wide = if t.bits() < 32 { cl::I32 } else { t };
        if signed {
            let mut y = self.b.ins().fcvt_to_sint_sat(wide, x);
            if wide != t {
                let hi = self.bits(wide, umax(t.bits()) >> 1);
                let lo = self.bits(wide, !(umax(t.bits()) >> 1));
                y = self.b.ins().smin(y, hi);
                y = self.b.ins().smax(y, lo);
            }
            self.resize(y, t, true)
        } else {
            let mut y = self.b.ins().fcvt_to_uint_sat(wide, x);
            if wide != t {
                let c = self.bits(wide, umax(t.bits()));
                y = self.b.ins().umin(y, c);
            }
            self.resize(y, t, false)
        }
    }

    /// A signed (`signed`) or unsigned integer to a float of type `t`,
    /// rounded as `round` says (to nearest even by default).
    fn int_to_float(&mut self, signed: bool, x: Value, t: Clif, round: Option<Round>) -> Value {
        let xt = self.b.func.dfg.value_type(x);
        let x = if xt.bits() < 32 {
            self.resize(x, cl::I32, signed)
        } else {
            x
        };
        let xt = self.b.func.dfg.value_type(x);
        let r = if signed {
            self.b.ins().fcvt_from_sint(t, x)
        } else {
            self.b.ins().fcvt_from_uint(t, x)
        };
        let round = round.unwrap_or(Round::Rte);
        // Exact unless the integer has more bits than the mantissa.
        let exact = xt.bits() < 32 || (xt.bits() == 32 && t == cl::F64);
        if round == Round::Rte || exact {
            r
        } else {
            let (gt, lt) = if xt == cl::I32 {
                // f32 from a 32-bit integer: compare in f64, exactly.
                let rd = self.b.ins().fpromote(cl::F64, r);
                let xd = if signed {
                    self.b.ins().fcvt_from_sint(cl::F64, x)
                } else {
                    self.b.ins().fcvt_from_uint(cl::F64, x)
                };
                (
                    self.b.ins().fcmp(FloatCC::GreaterThan, rd, xd),
                    self.b.ins().fcmp(FloatCC::LessThan, rd, xd),
                )
            } else {
                // From 64 bits: r is an integer; it is beyond the
                // source's range only when it rounded up to 2^63
                // (2^64), otherwise it converts back exactly.
                let limit = if signed { 2f64.powi(63) } else { 2f64.powi(64) };
                let lim = if t == cl::F32 {
                    self.bits(t, u64::from((limit as f32).to_bits()))
                } else {
                    self.bits(t, limit.to_bits())
                };
                let big = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, r, lim);
                let (ri, cgt, clt) = if signed {
                    (
                        self.b.ins().fcvt_to_sint_sat(cl::I64, r),
                        IntCC::SignedGreaterThan,
                        IntCC::SignedLessThan,
                    )
                } else {
                    (
                        self.b.ins().fcvt_to_uint_sat(cl::I64, r),
                        IntCC::UnsignedGreaterThan,
                        IntCC::UnsignedLessThan,
                    )
                };
                let g = self.b.ins().icmp(cgt, ri, x);
                let gt = self.b.ins().bor(big, g);
                let lt = self.b.ins().icmp(clt, ri, x);
                (gt, lt)
            };
            self.round_adjust(r, gt, lt, round)
        }
    }

    /// A float to a float of type `t`, rounded as `round` says (to nearest
    /// even by default).
    fn float_convert(&mut self, x: Value, t: Clif, round: Option<Round>) -> R<Value> {
        let xt = self.b.func.dfg.value_type(x);
        Ok(match (xt, t) {
            (a, b) if a == b => x,
            (cl::F32, cl::F64) => self.b.ins().fpromote(t, x),
            (cl::F64, cl::F32) => {
                let r = self.b.ins().fdemote(t, x);
                let round = round.unwrap_or(Round::Rte);
                if round == Round::Rte {
                    r
                } else {
                    let rd = self.b.ins().fpromote(cl::F64, r);
                    let gt = self.b.ins().fcmp(FloatCC::GreaterThan, rd, x);
                    let lt = self.b.ins().fcmp(FloatCC::LessThan, rd, x);
                    self.round_adjust(r, gt, lt, round)
                }
            }
            _ => {
                return Err(format!(
                    "OpFConvert from {xt} to {t} is not supported by code generation yet"
                ))
            }
        })
    }

    /// `r`, the nearest-even rounding of a value that `r` exceeds if `gt`
    /// and falls short of if `lt`, rounded instead as `round` asks: one ulp
    /// toward the right side when it is on the wrong one.
    fn round_adjust(&mut self, r: Value, gt: Value, lt: Value, round: Round) -> Value {
        let ft = self.b.func.dfg.value_type(r);
        let it = int_of(ft);
        let bits = self.b.ins().bitcast(it, MemFlagsData::new(), r);
        let neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, bits, 0);
        let one = self.bits(it, 1);
        let m1 = self.bits(it, u64::MAX);
        // Toward +inf: a positive value's bits grow, a negative one's shrink.
        let du = self.b.ins().select(neg, m1, one);
        let dd = self.b.ins().select(neg, one, m1);
        let up = self.b.ins().iadd(bits, du);
        let up = self.b.ins().bitcast(ft, MemFlagsData::new(), up);
        let down = self.b.ins().iadd(bits, dd);
        let down = self.b.ins().bitcast(ft, MemFlagsData::new(), down);
        match round {
            Round::Rte => r,
            Round::Rtp => self.b.ins().select(lt, up, r),
            Round::Rtn => self.b.ins().select(gt, down, r),
            Round::Rtz => {
                let zero = self.zero(ft);
                let pos = self.b.ins().fcmp(FloatCC::GreaterThan, r, zero);
                let negf = self.b.ins().fcmp(FloatCC::LessThan, r, zero);
                let d = self.b.ins().band(gt, pos);
                let u = self.b.ins().band(lt, negf);
                let s = self.b.ins().select(u, up, r);
                self.b.ins().select(d, down, s)
            }
        }
    }

    /// OpBitcast: the bytes of components `x` read as components of types
    /// `out` (same total size; little-endian order).
    fn repack(&mut self, x: &[Value], out: &[Clif]) -> R<Vec<Value>> {
        let xt: Vec<Clif> = x.iter().map(|&v| self.b.func.dfg.value_type(v)).collect();
        let (Some(&st), Some(&dt)) = (xt.first(), out.first()) else {
            return Err("OpBitcast of an empty value".into());
        };
        let total_in: u32 = xt.iter().map(|t| t.bits()).sum();
        let total_out: u32 = out.iter().map(|t| t.bits()).sum();
        if total_in != total_out || xt.iter().any(|&t| t != st) || out.iter().any(|&t| t != dt) {
            return Err("OpBitcast between types of different sizes".into());
        }
        let cast = |l: &mut Self, v: Value, to: Clif| -> Value {
            if l.b.func.dfg.value_type(v) == to {
                v
            } else {
                l.b.ins().bitcast(to, MemFlagsData::new(), v)
            }
        };
        if x.len() == out.len() {
            return Ok(x.iter().zip(out).map(|(&v, &t)| cast(self, v, t)).collect());
        }
        let (si, di) = (int_of(st), int_of(dt));
        let ints: Vec<Value> = x.iter().map(|&v| cast(self, v, si)).collect();
        let mut pieces = Vec::with_capacity(out.len());
        if si.bits() > di.bits() {
            // Split each source component, low bits first.
            for &v in &ints {
                for j in 0..si.bits() / di.bits() {
                    let s = self.b.ins().ushr_imm_u(v, i64::from(j * di.bits()));
                    pieces.push(self.b.ins().ireduce(di, s));
                }
            }
        } else {
            // Join runs of source components, the first in the low bits.
            let n = (di.bits() / si.bits()) as usize;
            for run in ints.chunks(n) {
                let mut acc = self.zero(di);
                for (j, &v) in run.iter().enumerate() {
                    let e = self.b.ins().uextend(di, v);
                    let s = self.b.ins().ishl_imm_u(e, (j as u32 * si.bits()) as i64);
                    acc = self.b.ins().bor(acc, s);
                }
                pieces.push(acc);
            }
        }
        Ok(pieces.into_iter().map(|v| cast(self, v, dt)).collect())
    }
}
