//! The OpenCL.std math functions that return a second value through a
//! pointer: `sincos` (the sine, and the cosine stored), `fract` (the
//! fraction, and the floor stored) and `modf` (the fraction, and the
//! integral part stored), of floats and doubles, and `frexp` of floats
//! (the mantissa, and the `int` exponent stored). Both values are computed
//! as vectors, as the host functions compute them (sincos is their `sin`
//! and `cos`), and the second is stored through the pointer as OpStore
//! stores a value of its type (one vector store into a private variable
//! whose copies lie side by side). Other functions with a pointer operand
//! run lane by lane.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types as cl, InstBuilder, MemFlagsData, Value};
use spirv::OpenclStd100Op as Cl;

use super::Shape;
use crate::lower::{types, Lowering, R};

impl Lowering<'_, '_, '_> {
    /// Instruction `i` if it is one of this module's functions with a
    /// varying pointer, all of its components of a type with a vector
    /// form (false: nothing was emitted that matters, and it runs lane by
    /// lane). The second values are stored as the pointer's type.
    pub(super) fn simd_pointer_result(&mut self, i: u32) -> R<bool> {
        let m = self.m;
        let inst = self.at(i);
        let op = inst.lit(1).and_then(Cl::from_u32);
        let (Some(op @ (Cl::sincos | Cl::fract | Cl::modf | Cl::frexp)), Some(x), Some(ptr)) =
            (op, inst.id(2), inst.id(3))
        else {
            return Ok(false);
        };
        if self.touches_half(i) || !self.is_varying(ptr) || self.scalar_lanes() {
            return Ok(false);
        }
        let (ty, id) = inst.result();
        let out = types::components(m, ty)?;
        let xs = self.shapes(x)?;
        // The type stored: the result's, but frexp's `int` exponents.
        let Some((_, stored)) = m.pointer(self.type_of(ptr)) else {
            return Ok(false);
        };
        if xs.len() != out.len() || (op == Cl::frexp && out.iter().any(|&t| t != cl::F32)) {
            return Ok(false);
        }
        let (mut first, mut second) = (Vec::with_capacity(out.len()), Vec::with_capacity(out.len()));
        for (&s, &t) in xs.iter().zip(&out) {
            if self.lane_type(s) != t {
                return Ok(false);
            }
            let pair = match op {
                Cl::sincos => match (self.ext(Cl::sin, &[s], t), self.ext(Cl::cos, &[s], t)) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => None,
                },
                Cl::frexp => {
                    let x = self.as_vec(s, cl::F32X4);
                    let (m, e) = self.frexp_vec(x);
                    Some((Shape::V(m), Shape::V(e)))
                }
                _ => self.fraction4(op == Cl::fract, s, t),
            };
            let Some((a, b)) = pair else {
                return Ok(false);
            };
            first.push(a);
            second.push(b);
        }
        self.store_shapes(ptr, stored, &second)?;
        self.count(true);
        self.set_shapes(id, first)?;
        Ok(true)
    }

    /// `frexp` of `f32x4` `x`: the mantissa (magnitude in [0.5, 1), x's
    /// sign) and the `i32x4` exponent with `x = m * 2^e`, both exact and
    /// unique (so the host function's); a denormal scaled by 2^25 first
    /// (exact), a zero, infinity or NaN its bits as they are and 0.
    fn frexp_vec(&mut self, x: Value) -> (Value, Value) {
        let flags = MemFlagsData::new();
        let splat = |l: &mut Self, c: u32| l.vconst(cl::I32X4, &[u64::from(c); super::LANES]);
        let bits = self.b.ins().bitcast(cl::I32X4, flags, x);
        let abs_mask = splat(self, 0x7fff_ffff);
        let mag = self.b.ins().band(bits, abs_mask);
        let min_normal = splat(self, 0x0080_0000);
        let denormal = self.b.ins().icmp(IntCC::SignedLessThan, mag, min_normal);
        let scale = self.b.ins().f32const(33_554_432.0); // 2^25
        let scale = self.b.ins().splat(cl::F32X4, scale);
        let scaled = self.b.ins().fmul(x, scale);
        let scaled = self.b.ins().bitcast(cl::I32X4, flags, scaled);
        let y = self.b.ins().bitselect(denormal, scaled, bits);
        let biased = self.b.ins().ushr_imm_u(y, 23);
        let low = splat(self, 0xff);
        let biased = self.b.ins().band(biased, low);
        let bias = splat(self, 126);
        let e = self.b.ins().isub(biased, bias);
        let shift = splat(self, 25);
        let zero = splat(self, 0);
        let shift = self.b.ins().bitselect(denormal, shift, zero);
        let e = self.b.ins().isub(e, shift);
        let keep = splat(self, 0x807f_ffff);
        let m = self.b.ins().band(y, keep);
        let half = splat(self, 0x3f00_0000);
        let m = self.b.ins().bor(m, half);
        // Zeros, infinities and NaNs: x and 0.
        let is_zero = self.b.ins().icmp(IntCC::Equal, mag, zero);
        let inf = splat(self, 0x7f80_0000);
        let not_finite = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, mag, inf);
        let special = self.b.ins().bor(is_zero, not_finite);
        let m = self.b.ins().bitselect(special, bits, m);
        let e = self.b.ins().bitselect(special, zero, e);
        (self.b.ins().bitcast(cl::F32X4, flags, m), e)
    }

    /// `fract` (`floor`: true) or `modf` of one component `s` of type `t`
    /// (float or double): the fraction and the floor or integral part.
    fn fraction4(&mut self, floor: bool, s: Shape, t: cl::Type) -> Option<(Shape, Shape)> {
        if t == cl::F32 {
            let x = self.as_vec(s, cl::F32X4);
            let (a, b) = self.fraction_vec(floor, x);
            return Some((Shape::V(a), Shape::V(b)));
        }
        if t != cl::F64 {
            return None;
        }
        let pt = self.pair_of(t)?;
        let p = self.as_pair(s, pt);
        let [(a0, b0), (a1, b1)] = p.map(|h| self.fraction_vec(floor, h));
        Some((Shape::Pair([a0, a1]), Shape::Pair([b0, b1])))
    }

    /// [`Self::fraction4`] of vector `x` (`f32x4` or `f64x2`), with the
    /// special cases of the host functions (builtins' `fract` and `modf`):
    /// fract of a NaN is the NaN twice (its bits as they are), of an
    /// infinity a zero of its sign and the infinity, of a zero the zero
    /// twice, else `x - floor(x)` but at most the largest value below 1;
    /// modf's integral part is `trunc(x)` (a NaN as it is, as the host's
    /// `trunc` returns it), its fraction `x - trunc(x)` (0 for an
    /// infinity) with x's sign.
    fn fraction_vec(&mut self, floor: bool, x: Value) -> (Value, Value) {
        let vt = self.ty(x);
        let (it, sign, below_one) = if vt == cl::F32X4 {
            (cl::I32X4, 1u64 << 31, 0x3f7f_ffffu64)
        } else {
            (cl::I64X2, 1u64 << 63, 0x3fef_ffff_ffff_ffffu64)
        };
        let lanes = vt.lane_count() as usize;
        let flags = MemFlagsData::new();
        let bits = |l: &mut Self, v: Value| l.b.ins().bitcast(it, flags, v);
        let float = |l: &mut Self, v: Value| l.b.ins().bitcast(vt, flags, v);
        let pick = |l: &mut Self, m: Value, a: Value, b: Value| {
            let m = l.b.ins().bitcast(vt, flags, m);
            l.b.ins().bitselect(m, a, b)
        };
        let xb = bits(self, x);
        let sign_mask = self.vconst(it, &vec![sign; lanes]);
        let x_sign = self.b.ins().band(xb, sign_mask);
        let signed_zero = float(self, x_sign);
        let magnitude = self.b.ins().band_not(xb, sign_mask);
        let inf_bits = if vt == cl::F32X4 {
            f32::INFINITY.to_bits().into()
        } else {
            f64::INFINITY.to_bits()
        };
        let inf = self.vconst(it, &vec![inf_bits; lanes]);
        let infinite = self.b.ins().icmp(IntCC::Equal, magnitude, inf);
        let nan = self.b.ins().fcmp(FloatCC::Unordered, x, x);
        if floor {
            let fl = self.b.ins().floor(x);
            let d = self.b.ins().fsub(x, fl);
            let below = self.vconst(it, &vec![below_one; lanes]);
            let below = float(self, below);
            let lt = self.b.ins().fcmp(FloatCC::LessThan, d, below);
            let r = pick(self, lt, d, below);
            let zero = self.vconst(vt, &vec![0; lanes]);
            let is_zero = self.b.ins().fcmp(FloatCC::Equal, x, zero);
            let r = pick(self, is_zero, x, r);
            let r = pick(self, infinite, signed_zero, r);
            let r = pick(self, nan, x, r);
            let fl = pick(self, nan, x, fl);
            (r, fl)
        } else {
            let t = self.b.ins().trunc(x);
            let t = pick(self, nan, x, t);
            let d = self.b.ins().fsub(x, t);
            let d = pick(self, infinite, signed_zero, d);
            // copysign(d, x).
            let db = bits(self, d);
            let dm = self.b.ins().band_not(db, sign_mask);
            let r = self.b.ins().bor(dm, x_sign);
            (float(self, r), t)
        }
    }
}
