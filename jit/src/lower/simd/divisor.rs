//! Division of 8-, 16- and 32-bit lanes by a constant, as a multiply by
//! the divisor's reciprocal (Granlund and Montgomery's method, in the
//! form libdivide describes): the high half of the product with a magic
//! number, shifted, with an add step where the magic number needs 33
//! bits. Exact for every dividend, so every lane gets what the scalar
//! lowering's division (which Cranelift turns into the same kind of
//! multiply) gives, the divisors OpenCL leaves undefined included: 0
//! divides by 1, -1 negates (wrapping).

use cranelift_codegen::ir::{types as cl, InstBuilder, Type as Clif, Value};
use spirv::Op;

use super::Shape;
use crate::lower::Lowering;

/// How a 32-bit dividend is divided by one constant divisor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Plan {
    /// By 0 (which the scalar lowering takes as 1) or 1: the dividend.
    Identity,
    /// Unsigned, by 2^shift.
    UShift { shift: u32 },
    /// Unsigned: `mulhi(x, magic) >> shift`, or with `add`,
    /// `(((x - q) >> 1) + q) >> shift` where q is that high half.
    UMagic { magic: u32, shift: u32, add: bool },
    /// Signed, by ±2^shift (`negative`: then negated): the dividend plus
    /// 2^shift - 1 if negative, shifted arithmetically.
    SShift { shift: u32, negative: bool },
    /// Signed: `mulhi(x, magic)`, plus or minus x (`add`, the sign of the
    /// divisor), shifted arithmetically, plus 1 if negative.
    SMagic {
        magic: i32,
        shift: u32,
        add: bool,
        negative: bool,
    },
}

/// The plan for unsigned 32-bit division by `d`.
pub(super) fn unsigned(d: u32) -> Plan {
    if d <= 1 {
        return Plan::Identity;
    }
    let log = 31 - d.leading_zeros();
    if d.is_power_of_two() {
        return Plan::UShift { shift: log };
    }
    // floor(2^(32 + log) / d): below 2^32, since d > 2^log.
    let wide = (1u64 << (32 + log)) / u64::from(d);
    let rem = ((1u64 << (32 + log)) % u64::from(d)) as u32;
    let (m, add) = if d - rem < (1 << log) {
        (wide as u32, false)
    } else {
        // One bit more: 2^(33 + log) / d, its top bit implied by the add
        // step.
        let twice = rem.wrapping_add(rem);
        let up = twice >= d || twice < rem;
        ((wide as u32).wrapping_mul(2).wrapping_add(u32::from(up)), true)
    };
    Plan::UMagic {
        magic: m.wrapping_add(1),
        shift: log,
        add,
    }
}

/// The plan for signed 32-bit division by `d`.
pub(super) fn signed(d: i32) -> Plan {
    if d == 0 || d == 1 {
        return Plan::Identity;
    }
    let abs = d.unsigned_abs();
    let log = 31 - abs.leading_zeros();
    let negative = d < 0;
    if abs.is_power_of_two() {
        return Plan::SShift { shift: log, negative };
    }
    // floor(2^(31 + log) / |d|): below 2^31.
    let wide = (1u64 << (31 + log)) / u64::from(abs);
    let rem = ((1u64 << (31 + log)) % u64::from(abs)) as u32;
    let (m, shift, add) = if abs - rem < (1 << log) {
        (wide as u32, log - 1, false)
    } else {
        let twice = rem.wrapping_add(rem);
        let up = twice >= abs || twice < rem;
        ((wide as u32).wrapping_mul(2).wrapping_add(u32::from(up)), log, true)
    };
    let m = m.wrapping_add(1) as i32;
    Plan::SMagic {
        magic: if negative { m.wrapping_neg() } else { m },
        shift,
        add,
        negative,
    }
}

impl Lowering<'_, '_, '_> {
    /// Division or remainder (`op`) of lanes of type `t` (8 to 32 bits;
    /// narrow lanes widened as their signedness says, the results
    /// truncated back) by the constant `d` (its bits as the instruction's
    /// type holds them), by [`Plan`]. None for other types.
    pub(super) fn divide_by_constant4(&mut self, op: Op, x: Shape, d: i64, t: Clif) -> Option<Shape> {
        let signed = matches!(op, Op::SDiv | Op::SRem | Op::SMod);
        let vt = super::ops::vec_of(t)?;
        if !t.is_int() || t.bits() > 32 {
            return None;
        }
        let bits = t.bits();
        // The divisor as a 32-bit lane holds it once widened.
        let d32 = if signed {
            ((d << (64 - bits)) >> (64 - bits)) as i32
        } else {
            ((d as u64) & (u64::MAX >> (64 - bits))) as u32 as i32
        };
        let plan = if signed {
            self::signed(d32)
        } else {
            unsigned(d32 as u32)
        };
        let xv = self.as_vec(x, vt);
        let xv = self.widen4(xv, signed);
        let q = match plan {
            Plan::Identity => xv,
            Plan::UShift { shift } => self.b.ins().ushr_imm_u(xv, i64::from(shift)),
            Plan::UMagic { magic, shift, add } => {
                let m = self.splat32(magic);
                let q = self.mul_hi4(xv, m, false);
                if add {
                    let t = self.b.ins().isub(xv, q);
                    let t = self.b.ins().ushr_imm_u(t, 1);
                    let t = self.b.ins().iadd(t, q);
                    self.b.ins().ushr_imm_u(t, i64::from(shift))
                } else {
                    self.b.ins().ushr_imm_u(q, i64::from(shift))
                }
            }
            Plan::SShift { shift, negative } => {
                let q = if shift == 0 {
                    xv
                } else {
                    let sign = self.b.ins().sshr_imm_u(xv, 31);
                    let bias = self.b.ins().ushr_imm_u(sign, i64::from(32 - shift));
                    let t = self.b.ins().iadd(xv, bias);
                    self.b.ins().sshr_imm_u(t, i64::from(shift))
                };
                if negative {
                    self.b.ins().ineg(q)
                } else {
                    q
                }
            }
            Plan::SMagic {
                magic,
                shift,
                add,
                negative,
            } => {
                let m = self.splat32(magic as u32);
                let mut q = self.mul_hi4(xv, m, true);
                if add {
                    q = if negative {
                        self.b.ins().isub(q, xv)
                    } else {
                        self.b.ins().iadd(q, xv)
                    };
                }
                let q = self.b.ins().sshr_imm_u(q, i64::from(shift));
                let carry = self.b.ins().ushr_imm_u(q, 31);
                self.b.ins().iadd(q, carry)
            }
        };
        let r = match op {
            Op::SDiv | Op::UDiv => q,
            _ => {
                let dv = self.splat32(d32 as u32);
                // By 0 the scalar lowering divides by 1: remainder 0.
                let dv = if d32 == 0 { self.splat32(1) } else { dv };
                let p = self.b.ins().imul(q, dv);
                let r = self.b.ins().isub(xv, p);
                if op == Op::SMod && d32 != 0 {
                    self.toward_divisor(r, dv)
                } else {
                    r
                }
            }
        };
        Some(Shape::V(if vt == cl::I32X4 { r } else { self.narrow4(r, vt) }))
    }

    /// Division or remainder (`op`) of 64-bit lanes (held as two `i64x2`)
    /// by the constant `d`, where `d` and every lane fit 32 bits (signed:
    /// within [-2^30, 2^30), so that no lane is `INT_MIN`, whose negation
    /// 32 bits cannot hold; unsigned: below 2^32): the 32-bit plan on the
    /// low halves, the results extended back; otherwise each lane through
    /// the scalar lowering (which multiplies by the reciprocal too). Array
    /// indices (`get_global_id(0) % 3`) take the first path. None where
    /// `d` does not fit.
    pub(super) fn divide_longs_by_constant(&mut self, op: Op, x: Shape, d: i64) -> Option<Shape> {
        let signed = matches!(op, Op::SDiv | Op::SRem | Op::SMod);
        let fits = if signed {
            i32::try_from(d).is_ok()
        } else {
            u32::try_from(d as u64).is_ok()
        };
        let pt = self.pair_of(cl::I64)?;
        if !fits {
            return None;
        }
        let xp = self.as_pair(x, pt);
        let out_of_range = if signed {
            self.beyond(&xp, true, 30)
        } else {
            self.beyond(&xp, false, 32)
        };
        let fast = |l: &mut Self| {
            let low = l.pack_masks(xp[0], xp[1]);
            let Some(Shape::V(r)) = l.divide_by_constant4(op, Shape::V(low), d, cl::I32) else {
                return Vec::new();
            };
            if signed {
                vec![l.b.ins().swiden_low(r), l.b.ins().swiden_high(r)]
            } else {
                vec![l.b.ins().uwiden_low(r), l.b.ins().uwiden_high(r)]
            }
        };
        let slow = |l: &mut Self| -> crate::lower::R<Vec<Value>> {
            let xl = l.lanes(x);
            let c = l.b.ins().iconst(cl::I64, d);
            let mut lanes = xl;
            for k in 0..super::LANES {
                lanes[k] = l
                    .binary(op, xl[k], c)
                    .ok_or("a division the scalar lowering has no form for")?;
            }
            Ok(l.build_pair(cl::I64X2, lanes).to_vec())
        };
        let r = self.fast_or_lanes(out_of_range, &[cl::I64X2; 2], fast, slow).ok()?;
        Some(Shape::Pair([r[0], r[1]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One lane of the plan, as the vector code computes it.
    fn apply(plan: Plan, x: u32) -> u32 {
        let mulhi_u = |a: u32, b: u32| ((u64::from(a) * u64::from(b)) >> 32) as u32;
        let mulhi_s = |a: u32, b: u32| ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32;
        match plan {
            Plan::Identity => x,
            Plan::UShift { shift } => x >> shift,
            Plan::UMagic { magic, shift, add } => {
                let q = mulhi_u(x, magic);
                if add {
                    ((x.wrapping_sub(q) >> 1).wrapping_add(q)) >> shift
                } else {
                    q >> shift
                }
            }
            Plan::SShift { shift, negative } => {
                let q = if shift == 0 {
                    x
                } else {
                    let bias = (((x as i32) >> 31) as u32) >> (32 - shift);
                    ((x.wrapping_add(bias) as i32) >> shift) as u32
                };
                if negative {
                    q.wrapping_neg()
                } else {
                    q
                }
            }
            Plan::SMagic {
                magic,
                shift,
                add,
                negative,
            } => {
                let mut q = mulhi_s(x, magic as u32);
                if add {
                    q = if negative { q.wrapping_sub(x) } else { q.wrapping_add(x) };
                }
                let q = ((q as i32) >> shift) as u32;
                q.wrapping_add(q >> 31)
            }
        }
    }

    fn dividends() -> Vec<u32> {
        let mut v: Vec<u32> = (0..2000).collect();
        for s in 0..32 {
            let p = 1u32 << s;
            v.extend([p, p - 1, p.wrapping_add(1), !p, !(p - 1), p.wrapping_mul(3)]);
        }
        v.extend((0..2000u32).map(|i| u32::MAX - i));
        v.extend((0..20000u32).map(|i| i.wrapping_mul(2_654_435_761) ^ (i << 11)));
        v
    }

    fn divisors() -> Vec<u32> {
        let mut v: Vec<u32> = (0..1100).collect();
        for s in 0..32 {
            let p = 1u32 << s;
            v.extend([
                p,
                p - 1,
                p.wrapping_add(1),
                !p,
                !(p - 1),
                p.wrapping_mul(3),
                p.wrapping_mul(5) | 1,
            ]);
        }
        v.extend((0..3000u32).map(|i| i.wrapping_mul(0x9e37_79b9) >> (i % 31)));
        v.extend([
            7,
            641,
            6_700_417,
            0x7fff_ffff,
            0x8000_0001,
            u32::MAX,
            u32::MAX - 1,
            3_000_000_019,
        ]);
        v
    }

    #[test]
    fn unsigned_division_by_every_kind_of_constant() {
        let xs = dividends();
        for d in divisors() {
            let plan = unsigned(d);
            for &x in &xs {
                let want = x.checked_div(d).unwrap_or(x);
                assert_eq!(apply(plan, x), want, "{x} / {d} ({plan:?})");
            }
        }
    }

    #[test]
    fn signed_division_by_every_kind_of_constant() {
        let xs = dividends();
        for d in divisors() {
            let d = d as i32;
            let plan = signed(d);
            for &x in &xs {
                let x = x as i32;
                let want = match d {
                    0 => x,
                    -1 => x.wrapping_neg(),
                    _ => x / d,
                };
                assert_eq!(apply(plan, x as u32) as i32, want, "{x} / {d} ({plan:?})");
            }
        }
    }
}
