//! `fmod` (and OpFRem) and `remainder` of float lanes. Both are exact:
//! the result is `x - n * y` for the quotient `x / y` truncated (fmod)
//! or rounded to nearest even (remainder), and any correct computation of
//! it gives the same bits. In `double`, where every lane's quotient is
//! below 2^29 (fmod) or 2^28 (remainder) in magnitude, `x / y` rounds
//! by less than its distance to the next integer (or half-integer), so
//! `n` is right; `n * y` (29 + 24 bits) and the difference are exact,
//! and a zero takes x's sign. Lanes outside that range and the special
//! cases (a zero, infinite or NaN divisor, an infinite or NaN dividend)
//! branch to the host function of each lane, as the scalar body calls it.

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::{types as cl, InstBuilder, MemFlagsData};
use spirv::OpenclStd100Op as Cl;

use super::Shape;
use crate::lower::Lowering;

impl Lowering<'_, '_, '_> {
    /// OpenCL.std `fmod` or `remainder` of one component of type `t`, if
    /// [`Self::remainder4`] takes it.
    pub(super) fn remainder_ext4(&mut self, op: Cl, args: &[Shape], t: cl::Type) -> Option<Shape> {
        match (op, args) {
            (Cl::fmod, &[x, y]) if t == cl::F32 => self.remainder4(false, x, y),
            (Cl::remainder, &[x, y]) if t == cl::F32 => self.remainder4(true, x, y),
            _ => None,
        }
    }

    /// `fmod(x, y)` (`nearest` false) or `remainder(x, y)` of `float`
    /// lanes, or None for other types.
    pub(super) fn remainder4(&mut self, nearest: bool, x: Shape, y: Shape) -> Option<Shape> {
        if self.lane_type(x) != cl::F32 || self.lane_type(y) != cl::F32 {
            return None;
        }
        let op = if nearest { Cl::remainder } else { Cl::fmod };
        let host = clift_builtins::opencl_std::lookup(op as u32)?
            .host_fn(clift_builtins::opencl_std::Scalar::F32, "")?
            .func
            .addr();
        let (xv, yv) = (self.as_vec(x, cl::F32X4), self.as_vec(y, cl::F32X4));
        let (xd, yd) = (self.promote_pair(xv), self.promote_pair(yv));
        let limit = if nearest { 268_435_456.0 } else { 536_870_912.0 };
        let limit = self.b.ins().f64const(limit);
        let limit = self.b.ins().splat(cl::F64X2, limit);
        let inf = self.b.ins().f64const(f64::INFINITY);
        let inf = self.b.ins().splat(cl::F64X2, inf);
        // The quotients, and whether each lane is in range with a finite
        // divisor (false for a NaN).
        let mut quotients = [xd[0]; 2];
        let mut ok = [xd[0]; 2];
        for h in 0..2 {
            let q = self.b.ins().fdiv(xd[h], yd[h]);
            let aq = self.b.ins().fabs(q);
            let small = self.b.ins().fcmp(FloatCC::LessThan, aq, limit);
            let ay = self.b.ins().fabs(yd[h]);
            let finite = self.b.ins().fcmp(FloatCC::LessThan, ay, inf);
            ok[h] = self.b.ins().band(small, finite);
            quotients[h] = q;
        }
        let ok = self.pack_masks(ok[0], ok[1]);
        let all = self.b.ins().vall_true(ok);
        let slow_needed = self.b.ins().bxor_imm_u(all, 1);
        let fast = |l: &mut Self| {
            let [lo, hi] = [0, 1].map(|h| {
                let n = if nearest {
                    l.b.ins().nearest(quotients[h])
                } else {
                    l.b.ins().trunc(quotients[h])
                };
                let p = l.b.ins().fmul(n, yd[h]);
                let r = l.b.ins().fsub(xd[h], p);
                l.b.ins().fvdemote(r)
            });
            let r = l.join_lows(lo, hi);
            // A zero result with x's sign.
            let zero = l.vconst(cl::F32X4, &[0; super::LANES]);
            let is_zero = l.b.ins().fcmp(FloatCC::Equal, r, zero);
            let flags = MemFlagsData::new();
            let xb = l.b.ins().bitcast(cl::I32X4, flags, xv);
            let sign = l.vconst(cl::I32X4, &[0x8000_0000; super::LANES]);
            let signed_zero = l.b.ins().band(xb, sign);
            let signed_zero = l.b.ins().bitcast(cl::F32X4, flags, signed_zero);
            let is_zero = l.b.ins().bitcast(cl::F32X4, flags, is_zero);
            vec![l.b.ins().bitselect(is_zero, signed_zero, r)]
        };
        let slow = |l: &mut Self| {
            // (Each lane from the operands as they were.)
            let (xl, yl) = (l.lanes(x), l.lanes(y));
            let lanes = std::array::from_fn(|k| l.call_host(host, &[cl::F32; 2], &[cl::F32], &[xl[k], yl[k]])[0]);
            Ok(vec![l.build(cl::F32X4, lanes)])
        };
        let r = self.fast_or_lanes(slow_needed, &[cl::F32X4], fast, slow).ok()?;
        Some(Shape::V(r[0]))
    }
}
