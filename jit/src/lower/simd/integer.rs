//! The 4-lane forms of integer instructions that take more than one SIMD
//! operation: shifts left by a count per lane, `popcount`, `clz` and
//! `mul_hi` of `int` lanes, and 32-bit division and remainder. Each gives
//! every lane the scalar lowering's bits (lower/arith.rs and
//! lower/ext_inst.rs), the cases OpenCL leaves undefined (a zero divisor,
//! `INT_MIN / -1`) included.

use cranelift_codegen::ir::{
    condcodes::IntCC, types as cl, BlockArg, ConstantData, Endianness, InstBuilder, MemFlagsData, Type as Clif, Value,
};
use spirv::Op;

use super::Shape;
use crate::lower::Lowering;

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
    /// (one `pmuludq`/`pmuldq` each), their high halves gathered.
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
        let magic = self.b.ins().f64const(f64::from_bits(0x4338_0000_0000_0000));
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
                    // The sign of the divisor: a nonzero remainder of the
                    // other sign moves by y.
                    let nz = self.b.ins().icmp(IntCC::NotEqual, r, zero);
                    let ry = self.b.ins().bxor(r, y);
                    let differ = self.b.ins().icmp(IntCC::SignedLessThan, ry, zero);
                    let fix = self.b.ins().band(nz, differ);
                    let moved = self.b.ins().iadd(r, y);
                    self.b.ins().bitselect(fix, moved, r)
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
    /// integers convert exactly by adding their bits to 1.5 * 2^52's, and
    /// back the same way; the remainder `x - q * y` is exact in `double`
    /// too, its terms below 2^51); otherwise, a branch to the scalar
    /// lowering's division of each lane (lower/arith.rs), which is what
    /// both paths compute. Array indices (`get_global_id(0) / width`)
    /// take the first path.
    fn divide_pairs(&mut self, op: Op, x: Shape, y: Shape, signed: bool) -> Option<Shape> {
        let pt = self.pair_of(cl::I64)?;
        let (xp, yp) = (self.as_pair(x, pt), self.as_pair(y, pt));
        // Any lane out of range: its bits from 52 up (signed, after adding
        // 2^51) or from 51 up (unsigned) are not all zero.
        let (bias, keep) = if signed { (1u64 << 51, 52) } else { (0, 51) };
        let bias = self.vconst(cl::I64X2, &[bias; 2]);
        let mut high = None;
        for v in xp.into_iter().chain(yp) {
            let b = self.b.ins().iadd(v, bias);
            let h = self.b.ins().ushr_imm_u(b, keep);
            high = Some(match high {
                Some(acc) => self.b.ins().bor(acc, h),
                None => h,
            });
        }
        let out_of_range = self.b.ins().vany_true(high?);
        let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        let results = [0, 1].map(|_| self.b.append_block_param(join, cl::I64X2));
        self.b.ins().brif(out_of_range, slow, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let magic_bits = self.vconst(cl::I64X2, &[0x4338_0000_0000_0000; 2]);
        let magic = self.b.ins().f64const(f64::from_bits(0x4338_0000_0000_0000));
        let magic = self.b.ins().splat(cl::F64X2, magic);
        let flags = MemFlagsData::new();
        let zero = self.zero(cl::I64X2);
        let one = self.vconst(cl::I64X2, &[1; 2]);
        let fast_results = [0, 1].map(|h| {
            let (xv, yv) = (xp[h], yp[h]);
            let is_zero = self.b.ins().icmp(IntCC::Equal, yv, zero);
            let d = self.b.ins().bitselect(is_zero, one, yv);
            let [xf, df] = [xv, d].map(|v| {
                let bits = self.b.ins().iadd(v, magic_bits);
                let f = self.b.ins().bitcast(cl::F64X2, flags, bits);
                self.b.ins().fsub(f, magic)
            });
            let q = self.b.ins().fdiv(xf, df);
            let q = self.b.ins().trunc(q);
            let r = if matches!(op, Op::SDiv | Op::UDiv) {
                q
            } else {
                let p = self.b.ins().fmul(q, df);
                self.b.ins().fsub(xf, p)
            };
            let r = self.b.ins().fadd(r, magic);
            let r = self.b.ins().bitcast(cl::I64X2, flags, r);
            let r = self.b.ins().isub(r, magic_bits);
            if op != Op::SMod {
                return r;
            }
            // The sign of the divisor: a nonzero remainder of the other
            // sign moves by y.
            let nz = self.b.ins().icmp(IntCC::NotEqual, r, zero);
            let ry = self.b.ins().bxor(r, yv);
            let differ = self.b.ins().icmp(IntCC::SignedLessThan, ry, zero);
            let fix = self.b.ins().band(nz, differ);
            let moved = self.b.ins().iadd(r, yv);
            self.b.ins().bitselect(fix, moved, r)
        });
        let args = fast_results.map(BlockArg::Value);
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(slow);
        let (xl, yl) = (self.lanes(Shape::Pair(xp)), self.lanes(Shape::Pair(yp)));
        let mut lanes = [xl[0]; super::LANES];
        for k in 0..super::LANES {
            lanes[k] = self.binary(op, xl[k], yl[k])?;
        }
        let slow_results = self.build_pair(cl::I64X2, lanes).map(BlockArg::Value);
        self.b.ins().jump(join, &slow_results);
        self.b.switch_to_block(join);
        Some(Shape::Pair(results))
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
