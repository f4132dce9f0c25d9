//! The 4-lane forms of the float built-ins that work on the bits: `logb`
//! and `ilogb` (the exponent read from each lane's bits, of a denormal
//! from its leading zeros) and `nextafter` (the bits stepped by one), with
//! the special cases the host functions (`builtins/src/math_shared.rs`)
//! give: `logb` of NaN is x itself, of ±inf +inf, of ±0 -inf; `ilogb` of
//! NaN is `FP_ILOGBNAN`, of ±inf `INT_MAX`, of ±0 `FP_ILOGB0`;
//! `nextafter` of a NaN is x's NaN quieted, else y's, of equal operands
//! y, from ±0 the smallest denormal with y's sign. The same bits as the
//! host functions in every lane.

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, InstBuilder, MemFlagsData, Type as Clif, Value,
};
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

    /// `nextafter` of float lanes; None for other instructions and types.
    pub(super) fn nextafter4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let &[x, y] = args else { return None };
        if op != Cl::nextafter || t != cl::F32 || self.lane_type(x) != t || self.lane_type(y) != t {
            return None;
        }
        let flags = MemFlagsData::new();
        let splat = |l: &mut Self, v: u32| l.vconst(cl::I32X4, &[u64::from(v); super::LANES]);
        let (xv, yv) = (self.as_vec(x, cl::F32X4), self.as_vec(y, cl::F32X4));
        let (xi, yi) = (
            self.b.ins().bitcast(cl::I32X4, flags, xv),
            self.b.ins().bitcast(cl::I32X4, flags, yv),
        );
        // Away from zero when y lies beyond x, else toward it: x's bits
        // plus or minus one.
        let zero = self.zero(cl::F32X4);
        let beyond = self.b.ins().fcmp(FloatCC::GreaterThan, yv, xv);
        let positive = self.b.ins().fcmp(FloatCC::GreaterThan, xv, zero);
        let toward = self.b.ins().bxor(beyond, positive);
        let toward = self.b.ins().bitcast(cl::I32X4, flags, toward);
        let (one, minus_one) = (splat(self, 1), splat(self, u32::MAX));
        let step = self.b.ins().bitselect(toward, minus_one, one);
        let r = self.b.ins().iadd(xi, step);
        // From ±0: the smallest denormal with y's sign.
        let sign = splat(self, 0x8000_0000);
        let y_sign = self.b.ins().band(yi, sign);
        let tiny = self.b.ins().bor(y_sign, one);
        let is_zero = self.b.ins().fcmp(FloatCC::Equal, xv, zero);
        let r = self.pick32(is_zero, tiny, r);
        let equal = self.b.ins().fcmp(FloatCC::Equal, xv, yv);
        let r = self.pick32(equal, yi, r);
        // NaNs quieted (as `x + x` does), x's first.
        let qy = self.b.ins().fadd(yv, yv);
        let qy = self.b.ins().bitcast(cl::I32X4, flags, qy);
        let y_nan = self.b.ins().fcmp(FloatCC::Unordered, yv, yv);
        let r = self.pick32(y_nan, qy, r);
        let qx = self.b.ins().fadd(xv, xv);
        let qx = self.b.ins().bitcast(cl::I32X4, flags, qx);
        let x_nan = self.b.ins().fcmp(FloatCC::Unordered, xv, xv);
        let r = self.pick32(x_nan, qx, r);
        Some(Shape::V(self.b.ins().bitcast(cl::F32X4, flags, r)))
    }

    /// The lanes of `i32x4` `a` where float-comparison mask `m` is set,
    /// of `b` elsewhere.
    fn pick32(&mut self, m: Value, a: Value, b: Value) -> Value {
        let m = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), m);
        self.b.ins().bitselect(m, a, b)
    }
}
