//! The 4-lane forms of `logb` and `ilogb` of floats: the exponent read
//! from each lane's bits (of a denormal, from its leading zeros), with the
//! special cases the host functions (`builtins/src/math_shared.rs`) give:
//! `logb` of NaN is x itself, of ±inf +inf, of ±0 -inf; `ilogb` of NaN is
//! `FP_ILOGBNAN`, of ±inf `INT_MAX`, of ±0 `FP_ILOGB0`. The same bits as
//! the host functions in every lane.

use cranelift_codegen::ir::{condcodes::IntCC, types as cl, InstBuilder, MemFlagsData, Type as Clif};
use spirv::OpenclStd100Op as Cl;

use super::Shape;
use crate::lower::Lowering;

impl Lowering<'_, '_, '_> {
    /// `logb` (a float result) or `ilogb` (an int result, `t`) of float
    /// lanes `x`; None for other instructions and types.
    pub(super) fn exponent4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let &[x] = args else { return None };
        let want = match op {
            Cl::logb => cl::F32,
            Cl::ilogb => cl::I32,
            _ => return None,
        };
        if t != want || self.lane_type(x) != cl::F32 {
            return None;
        }
        let splat = |l: &mut Self, v: u32| l.vconst(cl::I32X4, &[u64::from(v); super::LANES]);
        let xv = self.as_vec(x, cl::F32X4);
        let bits = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), xv);
        let magnitude = splat(self, 0x7fff_ffff);
        let mag = self.b.ins().band(bits, magnitude);
        // A normal number's biased exponent less 127; a denormal's
        // leading one at -118 - clz(magnitude) (2^-149 has 31 leading
        // zeros).
        let biased = self.b.ins().ushr_imm_u(mag, 23);
        let bias = splat(self, 127);
        let normal = self.b.ins().isub(biased, bias);
        let zeros = self.clz4(mag);
        let base = splat(self, (-118i32) as u32);
        let denormal = self.b.ins().isub(base, zeros);
        let zero = self.zero(cl::I32X4);
        let is_denormal = self.b.ins().icmp(IntCC::Equal, biased, zero);
        let e = self.b.ins().bitselect(is_denormal, denormal, normal);
        let infinity = splat(self, 0x7f80_0000);
        let is_zero = self.b.ins().icmp(IntCC::Equal, mag, zero);
        let is_inf = self.b.ins().icmp(IntCC::Equal, mag, infinity);
        let is_nan = self.b.ins().icmp(IntCC::SignedGreaterThan, mag, infinity);
        if op == Cl::ilogb {
            let nan = splat(self, clift_builtins::math_f32::FP_ILOGBNAN as u32);
            let inf = splat(self, i32::MAX as u32);
            let zero_value = splat(self, clift_builtins::math_f32::FP_ILOGB0 as u32);
            let r = self.b.ins().bitselect(is_zero, zero_value, e);
            let r = self.b.ins().bitselect(is_inf, inf, r);
            return Some(Shape::V(self.b.ins().bitselect(is_nan, nan, r)));
        }
        let f = self.b.ins().fcvt_from_sint(cl::F32X4, e);
        let f = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), f);
        let minus_infinity = splat(self, 0xff80_0000);
        let r = self.b.ins().bitselect(is_zero, minus_infinity, f);
        let r = self.b.ins().bitselect(is_inf, infinity, r);
        let r = self.b.ins().bitselect(is_nan, bits, r);
        Some(Shape::V(self.b.ins().bitcast(cl::F32X4, MemFlagsData::new(), r)))
    }
}
