//! The 4-lane forms of the float built-ins made of bit operations and
//! selects: `logb` and `ilogb` (the exponent read from each lane's bits,
//! of a denormal from its leading zeros), `nextafter` (the bits stepped
//! by one), `powr` and `rootn` (`pown4`'s call, then their special cases
//! selected bitwise), with
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
        let xv = self.as_vec(x, cl::F32X4);
        let bits = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), xv);
        let magnitude = self.splat32(0x7fff_ffff);
        let mag = self.b.ins().band(bits, magnitude);
        // A normal number's biased exponent less 127; a denormal's
        // leading one at -118 - clz(magnitude) (2^-149 has 31 leading
        // zeros).
        let biased = self.b.ins().ushr_imm_u(mag, 23);
        let bias = self.splat32(127);
        let normal = self.b.ins().isub(biased, bias);
        let zeros = self.clz4(mag);
        let base = self.splat32((-118i32) as u32);
        let denormal = self.b.ins().isub(base, zeros);
        let zero = self.zero(cl::I32X4);
        let is_denormal = self.b.ins().icmp(IntCC::Equal, biased, zero);
        let e = self.b.ins().bitselect(is_denormal, denormal, normal);
        let infinity = self.splat32(0x7f80_0000);
        let is_zero = self.b.ins().icmp(IntCC::Equal, mag, zero);
        let is_inf = self.b.ins().icmp(IntCC::Equal, mag, infinity);
        let is_nan = self.b.ins().icmp(IntCC::SignedGreaterThan, mag, infinity);
        if op == Cl::ilogb {
            let nan = self.splat32(clift_builtins::math_f32::FP_ILOGBNAN as u32);
            let inf = self.splat32(i32::MAX as u32);
            let zero_value = self.splat32(clift_builtins::math_f32::FP_ILOGB0 as u32);
            let r = self.b.ins().bitselect(is_zero, zero_value, e);
            let r = self.b.ins().bitselect(is_inf, inf, r);
            return Some(Shape::V(self.b.ins().bitselect(is_nan, nan, r)));
        }
        let f = self.b.ins().fcvt_from_sint(cl::F32X4, e);
        let f = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), f);
        let minus_infinity = self.splat32(0xff80_0000);
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
        let (one, minus_one) = (self.splat32(1), self.splat32(u32::MAX));
        let step = self.b.ins().bitselect(toward, minus_one, one);
        let r = self.b.ins().iadd(xi, step);
        // From ±0: the smallest denormal with y's sign.
        let sign = self.splat32(0x8000_0000);
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

    /// `powr` of float lanes, as the host function computes it: `libm`'s
    /// double `pow` of the widened operands rounded once (one call of
    /// `libm_lanes`' four-lane `pow`, as `pown4`), then its special cases:
    /// a NaN quieted (x's first), NaN for x < 0, for 0^0, inf^0 and
    /// 1^±inf, +inf for 0^(y < 0) and inf^(y > 0), +0 for 0^(y > 0) and
    /// inf^(y < 0), 1 for 1^y. None for other instructions and types.
    pub(super) fn powr4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let &[x, y] = args else { return None };
        if op != Cl::powr || t != cl::F32 || self.lane_type(x) != t || self.lane_type(y) != t {
            return None;
        }
        let addr = clift_builtins::libm_lanes::four_lanes_binary("pow")?;
        let flags = MemFlagsData::new();
        let (xv, yv) = (self.as_vec(x, cl::F32X4), self.as_vec(y, cl::F32X4));
        let (xs, ys) = (self.promote_pair(xv), self.promote_pair(yv));
        let [lo, hi] = self.call_four_lanes(addr, &[xs[0], xs[1], ys[0], ys[1]]);
        let [lo, hi] = [lo, hi].map(|d| self.b.ins().fvdemote(d));
        let main = self.join_lows(lo, hi);
        let r = self.b.ins().bitcast(cl::I32X4, flags, main);
        let (nan, inf, zero, one) = (
            self.splat32(f32::NAN.to_bits()),
            self.splat32(f32::INFINITY.to_bits()),
            self.splat32(0),
            self.splat32(1f32.to_bits()),
        );
        let fzero = self.zero(cl::F32X4);
        let fone = self.fconst_like(cl::F32X4, 1.0);
        let finf = self.fconst_like(cl::F32X4, f64::INFINITY);
        let y_zero = self.b.ins().fcmp(FloatCC::Equal, yv, fzero);
        let y_negative = self.b.ins().fcmp(FloatCC::LessThan, yv, fzero);
        let y_abs = self.b.ins().fabs(yv);
        let y_inf = self.b.ins().fcmp(FloatCC::Equal, y_abs, finf);
        // x == 1: NaN for y = ±inf, else 1.
        let v = self.pick32(y_inf, nan, one);
        let at = self.b.ins().fcmp(FloatCC::Equal, xv, fone);
        let r = self.pick32(at, v, r);
        // x == +inf: NaN for y = 0, +0 for y < 0, else +inf.
        let v = self.pick32(y_negative, zero, inf);
        let v = self.pick32(y_zero, nan, v);
        let at = self.b.ins().fcmp(FloatCC::Equal, xv, finf);
        let r = self.pick32(at, v, r);
        // x == ±0: NaN for y = 0, +inf for y < 0, else +0.
        let v = self.pick32(y_negative, inf, zero);
        let v = self.pick32(y_zero, nan, v);
        let at = self.b.ins().fcmp(FloatCC::Equal, xv, fzero);
        let r = self.pick32(at, v, r);
        let at = self.b.ins().fcmp(FloatCC::LessThan, xv, fzero);
        let mut r = self.pick32(at, nan, r);
        // NaNs quieted (as `x + x` does), x's first.
        for v in [yv, xv] {
            let q = self.b.ins().fadd(v, v);
            let q = self.b.ins().bitcast(cl::I32X4, flags, q);
            let is_nan = self.b.ins().fcmp(FloatCC::Unordered, v, v);
            r = self.pick32(is_nan, q, r);
        }
        Some(Shape::V(self.b.ins().bitcast(cl::F32X4, flags, r)))
    }

    /// `rootn` of float lanes by `int` lanes, as the host function
    /// computes it: `libm`'s double `pow` of |x| widened and 1 / n in
    /// double rounded once (one call of `libm_lanes`' four-lane `pow`),
    /// |x| for n = 1, 1 / |x| in float for n = -1, +inf or +0 for an
    /// infinite x, the sign of x put back; then x's NaN quieted, NaN for
    /// n = 0 and for a negative x and even n, and of ±0, ±inf for n < 0
    /// and ±0 otherwise (the sign x's for odd n, else +). None for other
    /// instructions and types.
    pub(super) fn rootn4(&mut self, op: Cl, args: &[Shape], t: Clif) -> Option<Shape> {
        let &[x, n] = args else { return None };
        if op != Cl::rootn || t != cl::F32 || self.lane_type(x) != t || self.lane_type(n) != cl::I32 {
            return None;
        }
        let addr = clift_builtins::libm_lanes::four_lanes_binary("pow")?;
        let flags = MemFlagsData::new();
        let xv = self.as_vec(x, cl::F32X4);
        let nv = self.as_vec(n, cl::I32X4);
        let ax = self.b.ins().fabs(xv);
        let axs = self.promote_pair(ax);
        // 1 / n in double: n's lanes 0-1 and 2-3 converted exactly.
        let high = self.high_down(nv);
        let one = self.b.ins().f64const(1.0);
        let one = self.b.ins().splat(cl::F64X2, one);
        let inv = [nv, high].map(|v| {
            let w = self.b.ins().swiden_low(v);
            let d = self.b.ins().fcvt_from_sint(cl::F64X2, w);
            self.b.ins().fdiv(one, d)
        });
        let [lo, hi] = self.call_four_lanes(addr, &[axs[0], axs[1], inv[0], inv[1]]);
        let [lo, hi] = [lo, hi].map(|d| self.b.ins().fvdemote(d));
        let root = self.join_lows(lo, hi);
        let izero = self.zero(cl::I32X4);
        let is_n = |l: &mut Self, k: u32| {
            let c = l.splat32(k);
            l.b.ins().icmp(IntCC::Equal, nv, c)
        };
        let v = self.b.ins().bitcast(cl::I32X4, flags, root);
        let ax_bits = self.b.ins().bitcast(cl::I32X4, flags, ax);
        let at = is_n(self, 1);
        let v = self.b.ins().bitselect(at, ax_bits, v);
        let fone = self.fconst_like(cl::F32X4, 1.0);
        let recip = self.b.ins().fdiv(fone, ax);
        let recip = self.b.ins().bitcast(cl::I32X4, flags, recip);
        let at = is_n(self, u32::MAX);
        let v = self.b.ins().bitselect(at, recip, v);
        let n_positive = self.b.ins().icmp(IntCC::SignedGreaterThan, nv, izero);
        let (inf, fzero_bits) = (self.splat32(f32::INFINITY.to_bits()), self.splat32(0));
        let of_inf = self.b.ins().bitselect(n_positive, inf, fzero_bits);
        let finf = self.fconst_like(cl::F32X4, f64::INFINITY);
        let at = self.b.ins().fcmp(FloatCC::Equal, ax, finf);
        let v = self.pick32(at, of_inf, v);
        // The sign of x put back (x < 0 here only for odd n).
        let bits = self.b.ins().bitcast(cl::I32X4, flags, xv);
        let sign = self.splat32(0x8000_0000);
        let x_sign = self.b.ins().band(bits, sign);
        let fzero = self.zero(cl::F32X4);
        let negative = self.b.ins().fcmp(FloatCC::LessThan, xv, fzero);
        let flipped = self.b.ins().bxor(v, sign);
        let r = self.pick32(negative, flipped, v);
        // Of ±0: ±inf for n < 0, else ±0, signed as x for odd n.
        let odd_bit = self.splat32(1);
        let odd = self.b.ins().band(nv, odd_bit);
        let odd = self.b.ins().icmp(IntCC::NotEqual, odd, izero);
        let zero_sign = self.b.ins().band(x_sign, odd);
        let n_negative = self.b.ins().icmp(IntCC::SignedLessThan, nv, izero);
        let of_zero = self.b.ins().bitselect(n_negative, inf, fzero_bits);
        let of_zero = self.b.ins().bor(of_zero, zero_sign);
        let at = self.b.ins().fcmp(FloatCC::Equal, xv, fzero);
        let r = self.pick32(at, of_zero, r);
        // NaN for a negative x and even n, and for n = 0.
        let nan = self.splat32(f32::NAN.to_bits());
        let negative = self.b.ins().bitcast(cl::I32X4, flags, negative);
        let even_negative = self.b.ins().band_not(negative, odd);
        let r = self.b.ins().bitselect(even_negative, nan, r);
        let at = is_n(self, 0);
        let r = self.b.ins().bitselect(at, nan, r);
        let q = self.b.ins().fadd(xv, xv);
        let q = self.b.ins().bitcast(cl::I32X4, flags, q);
        let is_nan = self.b.ins().fcmp(FloatCC::Unordered, xv, xv);
        let r = self.pick32(is_nan, q, r);
        Some(Shape::V(self.b.ins().bitcast(cl::F32X4, flags, r)))
    }
}
