//! The 4-lane forms of integer instructions that take more than one SIMD
//! operation: shifts left by a count per lane, `popcount`, `clz` and
//! `mul_hi` of `int` lanes, division and remainder, and the conversions
//! between 64-bit integers and floats that x86 has no vector instruction
//! for before AVX-512. Each gives every lane the scalar lowering's bits
//! (lower/arith.rs, lower/convert.rs and lower/ext_inst.rs), the cases
//! OpenCL leaves undefined (a zero divisor, `INT_MIN / -1`) included;
//! those of 64-bit lanes hold for values within 2^51 (division) or 2^31
//! (conversions) and branch to the scalar lowering of each lane for the
//! others.

use cranelift_codegen::ir::{
    condcodes::{FloatCC, IntCC},
    types as cl, BlockArg, ConstantData, Endianness, InstBuilder, MemFlagsData, Type as Clif, Value,
};
use spirv::Op;

use super::Shape;
use crate::lower::{Lowering, R};

/// The bits of 1.5 * 2^52: an integer of magnitude below 2^51 added to
/// them (as integers) is 1.5 * 2^52 plus it (as a double).
const MAGIC: u64 = 0x4338_0000_0000_0000;

impl Lowering<'_, '_, '_> {
    /// `x` shifted left by the count in the same lane of `n`, for `int`
    /// lanes (both operands), the count taken modulo 32 as the scalar
    /// lowering's shifts take it: x * 2^(n mod 32) ([`Self::powers_of_two`],
    /// one `pmulld`), five instructions where lane by lane takes sixteen
    /// (two extractions, the shift and an insertion per lane). Criterion
    /// `peak_int/shift_chain` (four chains of `a = (a << (a & b)) + c`):
    /// 8.7-9.0 -> 5.2 ms. Other shifts by a count per lane, of any width, run lane by
    /// lane: the forms tried were slower (each bit of the counts in turn,
    /// a `blendv` per bit: rotates 2x slower, right shifts 1.17x; rotates
    /// and right shifts as the halves of 64-bit products of x and powers
    /// of two, which Cranelift widens and multiplies with `vpmullq` where
    /// the CPU has AVX-512: equal for rotates and logical right shifts,
    /// 1.25x slower for arithmetic ones).
    pub(super) fn shift_left_by_lanes(&mut self, x: Shape, n: Shape, t: Clif) -> Option<Shape> {
        if t != cl::I32 || self.lane_type(n) != t {
            return None;
        }
        let (x, n) = (self.as_vec(x, cl::I32X4), self.as_vec(n, cl::I32X4));
        let mask = self.b.ins().iconst(cl::I32, 31);
        let mask = self.b.ins().splat(cl::I32X4, mask);
        let k = self.b.ins().band(n, mask);
        let power = self.powers_of_two(k);
        Some(Shape::V(self.b.ins().imul(x, power)))
    }

    /// The lanes of `v` (`i32x4` or `i64x2`) rotated left by the scalar
    /// count `n`, the same in every lane: two shifts (Cranelift takes both
    /// counts modulo the lane width, as the scalar lowering's `rotl` does).
    pub(super) fn rotate_by_uniform(&mut self, v: Value, n: Value) -> Value {
        let width = i64::from(self.ty(v).lane_bits());
        let left = self.b.ins().ishl(v, n);
        let k = self.b.ins().ineg(n);
        let k = self.b.ins().iadd_imm_s(k, width);
        let right = self.b.ins().ushr(v, k);
        self.b.ins().bor(left, right)
    }

    /// `mad_sat(x, y, z)` of `i32x4` lanes, as the scalar lowering
    /// computes it: the operands widened to 64 bits (sign- or
    /// zero-extended by `signed`), where `x * y + z` is exact, clamped to
    /// the 32-bit range, each half's low 32 bits gathered.
    pub(super) fn mad_sat4(&mut self, x: Value, y: Value, z: Value, signed: bool) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let half = |l: &mut Self, v: Value, high: bool| match (signed, high) {
            (true, false) => l.b.ins().swiden_low(v),
            (true, true) => l.b.ins().swiden_high(v),
            (false, false) => l.b.ins().uwiden_low(v),
            (false, true) => l.b.ins().uwiden_high(v),
        };
        let sums = [false, true].map(|high| {
            let (a, b, c) = (half(self, x, high), half(self, y, high), half(self, z, high));
            let p = self.b.ins().imul(a, b);
            let s = self.b.ins().iadd(p, c);
            let s = if signed {
                let max = self.vconst(cl::I64X2, &[i32::MAX as u64; 2]);
                let min = self.vconst(cl::I64X2, &[i32::MIN as i64 as u64; 2]);
                let s = self.b.ins().smin(s, max);
                self.b.ins().smax(s, min)
            } else {
                let max = self.vconst(cl::I64X2, &[u64::from(u32::MAX); 2]);
                self.b.ins().umin(s, max)
            };
            self.b.ins().bitcast(cl::I8X16, le, s)
        });
        // Bytes 0-3 of each 64-bit sum, the low half's then the high's.
        let sel: Vec<u8> = [0u8, 8, 16, 24].iter().flat_map(|&b| b..b + 4).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(sel));
        let packed = self.b.ins().shuffle(sums[0], sums[1], imm);
        self.b.ins().bitcast(cl::I32X4, le, packed)
    }

    /// 2^k for the lanes of `i32x4` `k` (0 to 31): the float 2^k made from
    /// its exponent bits (`(k + 127) << 23`, exact), converted by
    /// `cvttps2dq`, which gives 2^0 ... 2^30 and, for 2^31, x86's
    /// out-of-range value 0x80000000: 2^31's bits.
    pub(super) fn powers_of_two(&mut self, k: Value) -> Value {
        let exponent = self.b.ins().ishl_imm_u(k, 23);
        let one = self.b.ins().iconst(cl::I32, 0x3f80_0000);
        let one = self.b.ins().splat(cl::I32X4, one);
        let bits = self.b.ins().iadd(exponent, one);
        let power = self.b.ins().bitcast(cl::F32X4, MemFlagsData::new(), bits);
        self.b.ins().x86_cvtt2dq(cl::I32X4, power)
    }

    /// popcount, clz, ctz, mul_hi, mad_hi, mad_sat and rotate (by a count per lane) of 8-
    /// or 16-bit lanes `v` (lanes 0-3 of `i8x16` or `i16x8` vectors) of
    /// type `t`, through the lanes widened to 32 bits and truncated after,
    /// as the scalar lowering computes them on widened values: None for
    /// other instructions.
    pub(super) fn narrow_bits4(&mut self, op: spirv::OpenclStd100Op, v: &[Value], t: Clif) -> Option<Value> {
        use spirv::OpenclStd100Op as Cl;
        let vt = self.ty(*v.first()?);
        let bits = u64::from(t.bits());
        let splat = |l: &mut Self, c: u64| l.vconst(cl::I32X4, &[c; super::LANES]);
        let r = match (op, v) {
            (Cl::popcount, &[x]) => {
                let w = self.widen4(x, false);
                self.popcount4(w)
            }
            (Cl::clz, &[x]) => {
                let w = self.widen4(x, false);
                let c = self.clz4(w);
                let wide = splat(self, 32 - bits);
                self.b.ins().isub(c, wide)
            }
            // The bits below the lowest set one, a zero lane's `bits` (a
            // stop bit above the lane).
            (Cl::ctz, &[x]) => {
                let w = self.widen4(x, false);
                let stop = splat(self, 1 << bits);
                let w = self.b.ins().bor(w, stop);
                let one = splat(self, 1);
                let below = self.b.ins().isub(w, one);
                let below = self.b.ins().band_not(below, w);
                self.popcount4(below)
            }
            (Cl::s_mul_hi | Cl::u_mul_hi, &[x, y]) => {
                let signed = op == Cl::s_mul_hi;
                let (wx, wy) = (self.widen4(x, signed), self.widen4(y, signed));
                let p = self.b.ins().imul(wx, wy);
                if signed {
                    self.b.ins().sshr_imm_u(p, bits as i64)
                } else {
                    self.b.ins().ushr_imm_u(p, bits as i64)
                }
            }
            (Cl::s_mad_hi | Cl::u_mad_hi, &[x, y, z]) => {
                let signed = op == Cl::s_mad_hi;
                let (wx, wy) = (self.widen4(x, signed), self.widen4(y, signed));
                let p = self.b.ins().imul(wx, wy);
                let h = if signed {
                    self.b.ins().sshr_imm_u(p, bits as i64)
                } else {
                    self.b.ins().ushr_imm_u(p, bits as i64)
                };
                // The truncation after makes the 32-bit sum the narrow
                // lanes' wrapping one.
                let wz = self.widen4(z, false);
                self.b.ins().iadd(h, wz)
            }
            // Exact in 32 bits: |a * b + c| <= 2^30 + 2^15 (signed), a * b
            // + c < 2^32 (unsigned), then clamped to the type's range.
            (Cl::s_mad_sat | Cl::u_mad_sat, &[x, y, z]) => {
                let signed = op == Cl::s_mad_sat;
                let (wx, wy, wz) = (self.widen4(x, signed), self.widen4(y, signed), self.widen4(z, signed));
                let p = self.b.ins().imul(wx, wy);
                let s = self.b.ins().iadd(p, wz);
                if signed {
                    let max = splat(self, (1 << (bits - 1)) - 1);
                    let min = splat(self, (1u64 << (bits - 1)).wrapping_neg() & 0xffff_ffff);
                    let s = self.b.ins().smin(s, max);
                    self.b.ins().smax(s, min)
                } else {
                    let max = splat(self, (1 << bits) - 1);
                    self.b.ins().umin(s, max)
                }
            }
            // x * 2^(n mod bits) holds both parts of the rotation: its low
            // `bits` bits and the ones above, moved down.
            (Cl::rotate, &[x, n]) => {
                let w = self.widen4(x, false);
                let k = self.widen4(n, false);
                let mask = splat(self, bits - 1);
                let k = self.b.ins().band(k, mask);
                let power = self.powers_of_two(k);
                let p = self.b.ins().imul(w, power);
                let low = splat(self, (1 << bits) - 1);
                let low = self.b.ins().band(p, low);
                let high = self.b.ins().ushr_imm_u(p, bits as i64);
                self.b.ins().bor(low, high)
            }
            _ => return None,
        };
        Some(self.narrow4(r, vt))
    }

    /// The number of set bits of each lane of `i32x4` `v`: the bytes'
    /// counts, summed within each lane.
    pub(super) fn popcount4(&mut self, v: Value) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let bytes = self.b.ins().bitcast(cl::I8X16, le, v);
        let counts = self.b.ins().popcnt(bytes);
        let c = self.b.ins().bitcast(cl::I32X4, le, counts);
        // Each byte holds at most 8: the sums never carry out of a byte.
        let s8 = self.b.ins().ushr_imm_u(c, 8);
        let c = self.b.ins().iadd(c, s8);
        let s16 = self.b.ins().ushr_imm_u(c, 16);
        let c = self.b.ins().iadd(c, s16);
        let low = self.vconst(cl::I32X4, &[0x3f; super::LANES]);
        self.b.ins().band(c, low)
    }

    /// The leading zeros of each lane of `i32x4` `v` (32 for 0), from the
    /// exponent of a float. Keeping only the set bits whose next higher
    /// bit is clear leaves the top bit and makes the value less than 1.5
    /// times it, so the rounding conversion keeps its exponent: 127 + the
    /// top bit's position, and 31 - position = 158 - exponent. A lane
    /// with bit 31 set converts negative: its sign bit makes the
    /// difference negative, clamped to 0; a zero lane converts to 0.0,
    /// whose 158 is clamped to 32.
    pub(super) fn clz4(&mut self, v: Value) -> Value {
        let half = self.b.ins().ushr_imm_u(v, 1);
        let tops = self.b.ins().band_not(v, half);
        let f = self.b.ins().fcvt_from_sint(cl::F32X4, tops);
        let bits = self.b.ins().bitcast(cl::I32X4, MemFlagsData::new(), f);
        let e = self.b.ins().ushr_imm_u(bits, 23);
        let k158 = self.vconst(cl::I32X4, &[158; super::LANES]);
        let c = self.b.ins().isub(k158, e);
        let zero = self.vconst(cl::I32X4, &[0; super::LANES]);
        let c = self.b.ins().smax(c, zero);
        let k32 = self.vconst(cl::I32X4, &[32; super::LANES]);
        self.b.ins().umin(c, k32)
    }

    /// The high 32 bits of the 64-bit products of the lanes of `i32x4`
    /// `x` and `y`: lanes 0-1 and 2-3 widened and multiplied as `i64x2`
    /// (one `pmuludq`/`pmuldq` each, or `vpmullq`, which Cranelift picks
    /// where the CPU has AVX-512), their high halves gathered.
    pub(super) fn mul_hi4(&mut self, x: Value, y: Value, signed: bool) -> Value {
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let b = &mut self.b;
        let (xl, yl, xh, yh) = if signed {
            (
                b.ins().swiden_low(x),
                b.ins().swiden_low(y),
                b.ins().swiden_high(x),
                b.ins().swiden_high(y),
            )
        } else {
            (
                b.ins().uwiden_low(x),
                b.ins().uwiden_low(y),
                b.ins().uwiden_high(x),
                b.ins().uwiden_high(y),
            )
        };
        let lo = self.b.ins().imul(xl, yl);
        let hi = self.b.ins().imul(xh, yh);
        let lo = self.b.ins().bitcast(cl::I8X16, le, lo);
        let hi = self.b.ins().bitcast(cl::I8X16, le, hi);
        // Bytes 4-7 of each 64-bit product, lo's then hi's.
        let sel: Vec<u8> = [4u8, 12, 20, 28].iter().flat_map(|&b| b..b + 4).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(sel));
        let packed = self.b.ins().shuffle(lo, hi, imm);
        self.b.ins().bitcast(cl::I32X4, le, packed)
    }

    /// 32-bit division and remainder (`OpSDiv`, `OpUDiv`, `OpSRem`,
    /// `OpSMod`, `OpUMod`) of lanes of type `t` (`int`; `char` and `short`
    /// lanes widened to `int` as their signedness says, the results
    /// truncated back, which is the narrow arithmetic's wrapping) in
    /// `double`: both 32-bit operands convert exactly, and the quotient's
    /// rounding error (at most 2^-22 / |y|) is less than its distance to
    /// any integer it is not (at least 1 / |y|), so the truncated `f64`
    /// quotient is the exact truncated quotient; the remainder is
    /// `x - q * y`, wrapping. As the scalar lowering (lower/arith.rs): a
    /// zero divisor divides by 1 (`x / 0` is `x`, `x % 0` is 0), and `x /
    /// -1` is `-x` wrapping (`INT_MIN / -1` is `INT_MIN`: 2^31 in `double`,
    /// whose low 32 bits are `INT_MIN`'s) with remainder 0. Two `divpd`
    /// per four lanes where lane by lane takes four `div`s with their
    /// extractions and insertions. None for other types.
    pub(super) fn divide4(&mut self, op: Op, x: Shape, y: Shape, t: Clif) -> Option<Shape> {
        let signed = matches!(op, Op::SDiv | Op::SRem | Op::SMod);
        if t == cl::I64 {
            return self.divide_pairs(op, x, y, signed);
        }
        let vt = super::ops::vec_of(t)?;
        if !t.is_int() || t.bits() > 32 {
            return None;
        }
        let (x, y) = (self.as_vec(x, vt), self.as_vec(y, vt));
        let (x, y) = (self.widen4(x, signed), self.widen4(y, signed));
        let zero = self.zero(cl::I32X4);
        let one = self.vconst(cl::I32X4, &[1; super::LANES]);
        let is_zero = self.b.ins().icmp(IntCC::Equal, y, zero);
        let d = self.b.ins().bitselect(is_zero, one, y);
        let [xl, xh] = self.int_lanes_as_f64(x, signed);
        let [dl, dh] = self.int_lanes_as_f64(d, signed);
        // Integers of magnitude at most 2^32 plus 1.5 * 2^52: exact, with
        // the integer's low 32 bits (two's complement) in the sum's.
        let magic = self.b.ins().f64const(f64::from_bits(MAGIC));
        let magic = self.b.ins().splat(cl::F64X2, magic);
        let le = MemFlagsData::new().with_endianness(Endianness::Little);
        let [ql, qh] = [(xl, dl), (xh, dh)].map(|(a, b)| {
            let q = self.b.ins().fdiv(a, b);
            let q = self.b.ins().trunc(q);
            let q = self.b.ins().fadd(q, magic);
            self.b.ins().bitcast(cl::I8X16, le, q)
        });
        let low: Vec<u8> = [0u8, 8, 16, 24].iter().flat_map(|&b| b..b + 4).collect();
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(low));
        let q = self.b.ins().shuffle(ql, qh, imm);
        let q = self.b.ins().bitcast(cl::I32X4, le, q);
        let r = match op {
            Op::SDiv | Op::UDiv => q,
            _ => {
                let p = self.b.ins().imul(q, d);
                let r = self.b.ins().isub(x, p);
                if op == Op::SMod {
                    self.toward_divisor(r, y)
                } else {
                    r
                }
            }
        };
        Some(Shape::V(if vt == cl::I32X4 { r } else { self.narrow4(r, vt) }))
    }

    /// 64-bit division and remainder of lanes held as two `i64x2`: where
    /// every lane of both operands is within [-2^51, 2^51) (signed) or
    /// below 2^51 (unsigned), as [`Self::divide4`] does in `double` (the
    /// integers convert exactly, [`Self::exact_f64`], and back; the
    /// remainder `x - q * y` is exact in `double` too, its terms below
    /// 2^51); otherwise each lane through the scalar lowering's division
    /// (lower/arith.rs), which is what both paths compute
    /// ([`Self::fast_or_lanes`]). Array indices (`get_global_id(0) /
    /// width`) take the first path.
    fn divide_pairs(&mut self, op: Op, x: Shape, y: Shape, signed: bool) -> Option<Shape> {
        let pt = self.pair_of(cl::I64)?;
        let (xp, yp) = (self.as_pair(x, pt), self.as_pair(y, pt));
        let out_of_range = self.beyond(&[xp[0], xp[1], yp[0], yp[1]], signed, 51);
        let fast = |l: &mut Self| {
            let zero = l.zero(cl::I64X2);
            let one = l.vconst(cl::I64X2, &[1; 2]);
            [0, 1]
                .map(|h| {
                    let (xv, yv) = (xp[h], yp[h]);
                    let is_zero = l.b.ins().icmp(IntCC::Equal, yv, zero);
                    let d = l.b.ins().bitselect(is_zero, one, yv);
                    let (xf, df) = (l.exact_f64(xv), l.exact_f64(d));
                    let q = l.b.ins().fdiv(xf, df);
                    let q = l.b.ins().trunc(q);
                    let r = if matches!(op, Op::SDiv | Op::UDiv) {
                        q
                    } else {
                        let p = l.b.ins().fmul(q, df);
                        l.b.ins().fsub(xf, p)
                    };
                    let r = l.integral_to_i64(r);
                    if op == Op::SMod {
                        l.toward_divisor(r, yv)
                    } else {
                        r
                    }
                })
                .to_vec()
        };
        let slow = |l: &mut Self| -> R<Vec<Value>> {
            // (Each lane from the operands as they were: an id's lanes are
            // computed, not taken out of the vector built for the fast path.)
            let (xl, yl) = (l.lanes(x), l.lanes(y));
            let mut lanes = xl;
            for k in 0..super::LANES {
                lanes[k] = l
                    .binary(op, xl[k], yl[k])
                    .ok_or("a division the scalar lowering has no form for")?;
            }
            Ok(l.build_pair(cl::I64X2, lanes).to_vec())
        };
        let r = self.fast_or_lanes(out_of_range, &[cl::I64X2; 2], fast, slow).ok()?;
        Some(Shape::Pair([r[0], r[1]]))
    }

    /// Conversions between 64-bit integer lanes (held as two `i64x2`) and
    /// float or double lanes, where no vector instruction does them
    /// before AVX-512: `long` and `ulong` to `float`, and `float` and
    /// `double` to `long` and `ulong` (toward zero; a rounding mode has
    /// already rounded the operand, `simd_shapes`). Where every lane is
    /// within 2^31 (integers: signed [-2^31, 2^31), unsigned below 2^31;
    /// floats: |x| < 2^31, unsigned x > -1), through the 32-bit
    /// conversions (`cvtdq2ps` rounds an integer once, as the scalar
    /// conversion does; `cvttps2dq` and `cvttpd2dq` truncate, the result
    /// sign-extended); otherwise (large values, NaN, what saturates) each
    /// lane through the scalar lowering's conversion. None for other
    /// conversions.
    pub(super) fn convert_long4(&mut self, op: Op, x: Shape, xt: Clif, t: Clif) -> R<Option<Shape>> {
        let Some(pt) = self.pair_of(cl::I64) else {
            return Ok(None);
        };
        let scalar = |l: &mut Self, lanes: [Value; super::LANES], vt: Clif| -> R<[Value; super::LANES]> {
            let mut r = lanes;
            for k in 0..super::LANES {
                r[k] = l.convert1(op, lanes[k], vt.lane_type(), false, None)?;
            }
            Ok(r)
        };
        match (op, xt, t) {
            (Op::ConvertSToF | Op::ConvertUToF, cl::I64, cl::F32) => {
                let signed = op == Op::ConvertSToF;
                let xp = self.as_pair(x, pt);
                let out_of_range = self.beyond(&xp, signed, 31);
                let fast = |l: &mut Self| {
                    let v = l.pack_masks(xp[0], xp[1]);
                    vec![l.b.ins().fcvt_from_sint(cl::F32X4, v)]
                };
                let slow = |l: &mut Self| -> R<Vec<Value>> {
                    let lanes = l.lanes(x);
                    let r = scalar(l, lanes, cl::F32X4)?;
                    Ok(vec![l.build(cl::F32X4, r)])
                };
                let r = self.fast_or_lanes(out_of_range, &[cl::F32X4], fast, slow)?;
                Ok(Some(Shape::V(r[0])))
            }
            (Op::ConvertFToS | Op::ConvertFToU, cl::F32 | cl::F64, cl::I64) => {
                let vt = if xt == cl::F32 {
                    vec![self.as_vec(x, cl::F32X4)]
                } else {
                    self.as_pair(x, cl::F64X2).to_vec()
                };
                let vty = self.ty(vt[0]);
                let limit = self.fconst_like(vty, 2_147_483_648.0);
                let minus_one = self.fconst_like(vty, -1.0);
                let mut inside = None;
                for &h in &vt {
                    let m = if op == Op::ConvertFToS {
                        let a = self.b.ins().fabs(h);
                        self.b.ins().fcmp(FloatCC::LessThan, a, limit)
                    } else {
                        let below = self.b.ins().fcmp(FloatCC::LessThan, h, limit);
                        let above = self.b.ins().fcmp(FloatCC::GreaterThan, h, minus_one);
                        self.b.ins().band(below, above)
                    };
                    inside = Some(match inside {
                        Some(acc) => self.b.ins().band(acc, m),
                        None => m,
                    });
                }
                let Some(inside) = inside else {
                    return Ok(None);
                };
                let inside = self.b.ins().vall_true(inside);
                let out_of_range = self.b.ins().icmp_imm_s(IntCC::Equal, inside, 0);
                let fast = |l: &mut Self| {
                    let v = if let [v] = vt[..] {
                        l.b.ins().x86_cvtt2dq(cl::I32X4, v)
                    } else {
                        // (`cvttpd2dq`: Cranelift's pattern, each half's
                        // lanes in lanes 0-1.)
                        let zero = l.zero(cl::I64X2);
                        let [lo, hi] = [vt[0], vt[1]].map(|h| {
                            let w = l.b.ins().fcvt_to_sint_sat(cl::I64X2, h);
                            l.b.ins().snarrow(w, zero)
                        });
                        l.join_lows(lo, hi)
                    };
                    vec![l.b.ins().swiden_low(v), l.b.ins().swiden_high(v)]
                };
                let slow = |l: &mut Self| -> R<Vec<Value>> {
                    let lanes = l.lanes(x);
                    let r = scalar(l, lanes, cl::I64X2)?;
                    Ok(l.build_pair(cl::I64X2, r).to_vec())
                };
                let r = self.fast_or_lanes(out_of_range, &[cl::I64X2; 2], fast, slow)?;
                Ok(Some(Shape::Pair([r[0], r[1]])))
            }
            _ => Ok(None),
        }
    }

    /// Whether any lane of the `i64x2` vectors `v` is outside [-2^k, 2^k)
    /// (`signed`) or from 2^k up (unsigned), as an `i8` boolean: its bits
    /// from k + 1 up after adding 2^k, or from k up, are not all zero.
    pub(super) fn beyond(&mut self, v: &[Value], signed: bool, k: i64) -> Value {
        let bias = signed.then(|| self.vconst(cl::I64X2, &[1u64 << k; 2]));
        let keep = if signed { k + 1 } else { k };
        let mut high = None;
        for &h in v {
            let b = match bias {
                Some(bias) => self.b.ins().iadd(h, bias),
                None => h,
            };
            let top = self.b.ins().ushr_imm_u(b, keep);
            high = Some(match high {
                Some(acc) => self.b.ins().bor(acc, top),
                None => top,
            });
        }
        let high = high.unwrap_or_else(|| self.zero(cl::I64X2));
        self.b.ins().vany_true(high)
    }

    /// The lanes of `i64x2` `v`, each within [-2^51, 2^51), as exact
    /// doubles: added to the bits of 1.5 * 2^52 they are that double plus
    /// the integer (its exponent unchanged), which less 1.5 * 2^52 is the
    /// integer.
    fn exact_f64(&mut self, v: Value) -> Value {
        let (magic_bits, magic) = self.magic_pair();
        let bits = self.b.ins().iadd(v, magic_bits);
        let f = self.b.ins().bitcast(cl::F64X2, MemFlagsData::new(), bits);
        self.b.ins().fsub(f, magic)
    }

    /// The lanes of `f64x2` `v`, integers of magnitude at most 2^51, as
    /// `i64x2`: the reverse of [`Self::exact_f64`].
    fn integral_to_i64(&mut self, v: Value) -> Value {
        let (magic_bits, magic) = self.magic_pair();
        let r = self.b.ins().fadd(v, magic);
        let r = self.b.ins().bitcast(cl::I64X2, MemFlagsData::new(), r);
        self.b.ins().isub(r, magic_bits)
    }

    /// `v` in every lane of an `i32x4` (a float's bits: `f.to_bits()`).
    pub(super) fn splat32(&mut self, v: u32) -> Value {
        self.vconst(cl::I32X4, &[u64::from(v); super::LANES])
    }

    /// [`MAGIC`] in both lanes, as `i64x2` and as `f64x2`.
    fn magic_pair(&mut self) -> (Value, Value) {
        let bits = self.vconst(cl::I64X2, &[MAGIC; 2]);
        let magic = self.b.ins().f64const(f64::from_bits(MAGIC));
        (bits, self.b.ins().splat(cl::F64X2, magic))
    }

    /// OpSMod from the truncated remainder `r` of division by `y` (lanes
    /// of `i32x4` or `i64x2`): the sign of the divisor, so a nonzero
    /// remainder of the other sign moves by y, as the scalar lowering
    /// does.
    pub(super) fn toward_divisor(&mut self, r: Value, y: Value) -> Value {
        let zero = self.zero(self.ty(r));
        let nz = self.b.ins().icmp(IntCC::NotEqual, r, zero);
        let ry = self.b.ins().bxor(r, y);
        let differ = self.b.ins().icmp(IntCC::SignedLessThan, ry, zero);
        let fix = self.b.ins().band(nz, differ);
        let moved = self.b.ins().iadd(r, y);
        self.b.ins().bitselect(fix, moved, r)
    }

    /// Two paths for an instruction whose vector form holds only for some
    /// operands: where `slow_needed` (an `i8` boolean) is zero, the
    /// vectors `fast` makes; otherwise those `slow` makes (each lane
    /// through the scalar lowering), of types `types`. Both must give the
    /// scalar lowering's bits, so which path a chunk takes never shows.
    pub(super) fn fast_or_lanes(
        &mut self,
        slow_needed: Value,
        types: &[Clif],
        fast: impl FnOnce(&mut Self) -> Vec<Value>,
        slow: impl FnOnce(&mut Self) -> R<Vec<Value>>,
    ) -> R<Vec<Value>> {
        let (fast_block, slow_block, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let results: Vec<Value> = types.iter().map(|&t| self.b.append_block_param(join, t)).collect();
        self.b.ins().brif(slow_needed, slow_block, &[], fast_block, &[]);
        self.b.switch_to_block(fast_block);
        let args: Vec<BlockArg> = fast(self).into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(slow_block);
        let args: Vec<BlockArg> = slow(self)?.into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(join);
        Ok(results)
    }

    /// Lanes 0-1 and 2-3 of `i32x4` `v` as two `f64x2`, exactly: signed
    /// (`cvtdq2pd`) or unsigned (the lanes with their top bit flipped,
    /// converted as signed, plus 2^31).
    fn int_lanes_as_f64(&mut self, v: Value, signed: bool) -> [Value; 2] {
        let v = if signed {
            v
        } else {
            let top = self.vconst(cl::I32X4, &[0x8000_0000; super::LANES]);
            self.b.ins().bxor(v, top)
        };
        let high = self.high_down(v);
        // (Cranelift selects `cvtdq2pd` for the conversion of a widened
        // low half.)
        let halves = [v, high].map(|h| {
            let wide = self.b.ins().swiden_low(h);
            self.b.ins().fcvt_from_sint(cl::F64X2, wide)
        });
        if signed {
            return halves;
        }
        let offset = self.b.ins().f64const(2_147_483_648.0);
        let offset = self.b.ins().splat(cl::F64X2, offset);
        halves.map(|h| self.b.ins().fadd(h, offset))
    }
}
