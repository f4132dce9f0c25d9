//! IEEE half precision (binary16) on the host, for the tests: conversions
//! to and from half in each OpenCL rounding mode (exact arithmetic in f64,
//! the exponent read from the bits, so no logarithm can misjudge it), and
//! [`Half`], a half value as a [`Float`] of the shared math checks
//! (`crate::math`), so the half math tests are the float and double ones.

use crate::math::{self, Float};
use std::fmt::{self, Debug, LowerExp};
use std::ops::{Add, Mul, Sub};

/// An OpenCL rounding mode (`_rte`, `_rtz`, `_rtp`, `_rtn`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rounding {
    /// To nearest, ties to even.
    Rte,
    /// Toward zero.
    Rtz,
    /// Toward positive infinity.
    Rtp,
    /// Toward negative infinity.
    Rtn,
}

/// Every rounding mode.
pub const ROUNDINGS: [Rounding; 4] = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];

/// The unbiased exponent of a normal positive f64.
fn exp_of(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// `x` (given exactly as f64) to half bits, rounded by `mode`; a NaN
/// becomes a quiet NaN with the sign of `x`.
pub fn to_half(x: f64, mode: Rounding) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    if a == 0.0 {
        return sign;
    }
    let ulp = 2f64.powi(exp_of(a).max(-14) - 10);
    let q = a / ulp;
    // Rounding the magnitude up or down, by the mode and the sign.
    let neg = sign != 0;
    let r = match mode {
        Rounding::Rtz => q.floor(),
        Rounding::Rtp if neg => q.floor(),
        Rounding::Rtp => q.ceil(),
        Rounding::Rtn if neg => q.ceil(),
        Rounding::Rtn => q.floor(),
        Rounding::Rte => q.round_ties_even(),
    };
    let v = r * ulp;
    if v > 65504.0 {
        let to_inf = match mode {
            Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => !neg,
            Rounding::Rtn => neg,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    if v < 2f64.powi(-14) {
        return sign | (v / 2f64.powi(-24)) as u16;
    }
    let e = exp_of(v);
    let m = (v / 2f64.powi(e - 10)) as u16 - 1024;
    sign | (((e + 15) as u16) << 10) | m
}

/// Half bits to f64 (exact; every half is a float and a double).
pub fn from_half(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1f);
    let m = f64::from(h & 0x3ff);
    let v = match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    };
    s * v
}

/// Whether two halves are the same bits, or both NaN.
pub fn same_half(a: u16, b: u16) -> bool {
    let nan = |h: u16| h & 0x7c00 == 0x7c00 && h & 0x3ff != 0;
    a == b || (nan(a) && nan(b))
}

/// `x` rounded to the nearest half, as an f64.
pub fn rte(x: f64) -> f64 {
    from_half(to_half(x, Rounding::Rte))
}

/// The half encodings of `xs`, rounded to nearest.
pub fn halves(xs: &[f64]) -> Vec<u16> {
    xs.iter().map(|&x| to_half(x, Rounding::Rte)).collect()
}

/// The deterministic inputs of the shared math checks ([`math::inputs`]),
/// as half encodings: special values (±0, ±1, ±inf, NaN, the largest and
/// smallest normal, denormals, halves, integers), then random halves (half
/// of them in [-10, 10], the rest any finite encoding).
pub fn inputs(len: usize, seed: u64) -> Vec<u16> {
    math::inputs::<Half>(len, seed).into_iter().map(|h| h.0).collect()
}

/// A half value: its encoding. Arithmetic is IEEE half arithmetic (the
/// exact result rounded once to nearest: exact in f64, whose 53 bits make
/// the second rounding harmless); comparisons are by value, as on floats.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub struct Half(pub u16);

// SAFETY: a transparent u16: no padding, and every bit pattern is a half.
unsafe impl crate::exec::Pod for Half {}

impl Half {
    /// The value, exactly.
    pub fn value(self) -> f64 {
        from_half(self.0)
    }
}

impl PartialEq for Half {
    fn eq(&self, other: &Half) -> bool {
        self.value() == other.value()
    }
}

impl PartialOrd for Half {
    fn partial_cmp(&self, other: &Half) -> Option<std::cmp::Ordering> {
        self.value().partial_cmp(&other.value())
    }
}

impl Debug for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:e} ({:#06x})", self.value(), self.0)
    }
}

impl LowerExp for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        LowerExp::fmt(&self.value(), f)
    }
}

impl Add for Half {
    type Output = Half;
    fn add(self, o: Half) -> Half {
        Half::from_f64(self.value() + o.value())
    }
}

impl Sub for Half {
    type Output = Half;
    fn sub(self, o: Half) -> Half {
        Half::from_f64(self.value() - o.value())
    }
}

impl Mul for Half {
    type Output = Half;
    fn mul(self, o: Half) -> Half {
        Half::from_f64(self.value() * o.value())
    }
}

/// Half as the shared math checks see it. Its bounds are the half column
/// of the tables (the OpenCL SPIR-V environment's half ULP bounds); the f64
/// references are exact to far below a half ulp, so correctly rounded
/// functions must give the reference rounded to half, bit for bit.
impl Float for Half {
    const NAME: &'static str = "half";
    const FRACTION_BITS: i32 = 10;
    const MIN_DENORMAL_EXP: i32 = -24;
    const MAX: f64 = 65504.0;
    const MIN_POSITIVE: f64 = 6.103515625e-5;
    const SIGN_BIT: u64 = 0x8000;
    const QUIET_BIT: u64 = 0x0200;
    const ONE_MINUS_ULP: f64 = 1.0 - 1.0 / 2048.0;
    const REFERENCE_ULPS: f64 = 0.0;
    const EXACT_BITS: bool = true;
    const BOUND_COLUMN: usize = 1;
    const FUSED_OR_NOT: bool = false;
    const AS_FLOAT: bool = true;
    const LGAMMA_ABS: f64 = 2e-3;
    const SMOOTHSTEP_ABS: f64 = 2e-3;
    const HALF_AND_NATIVE: bool = false;
    const BIG_K: [i32; 2] = [30, -40];
    // 100, 3, the largest half below 1, 2^-11, 8192.
    const OWN_SPECIAL: [Half; 5] = [Half(0x5640), Half(0x4200), Half(0x3bff), Half(0x1000), Half(0x7000)];

    fn to_f64(self) -> f64 {
        self.value()
    }
    fn from_f64(d: f64) -> Half {
        Half(to_half(d, Rounding::Rte))
    }
    fn bits(self) -> u64 {
        u64::from(self.0)
    }
    fn from_bits64(b: u64) -> Half {
        Half(b as u16)
    }
    fn mul_add(self, a: Half, b: Half) -> Half {
        // The product is exact in f64; the sum is rounded once there, then
        // to half.
        Half::from_f64(self.value().mul_add(a.value(), b.value()))
    }
    fn uniform(s: u64) -> Half {
        Half::from_f64(((s >> 16) % 20001) as f64 / 1000.0 - 10.0)
    }
    fn finite(s: u64) -> Half {
        let h = (s >> 16) as u16;
        Half(if h & 0x7c00 == 0x7c00 { h & 0xbbff } else { h })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rounding() {
        for h in 0..=u16::MAX {
            let v = from_half(h);
            if v.is_nan() {
                assert_eq!(to_half(v, Rounding::Rte) & 0x7fff, 0x7e00, "{h:#x}");
                continue;
            }
            for m in ROUNDINGS {
                assert_eq!(to_half(v, m), h, "{h:#x} {m:?}");
            }
        }
        assert_eq!(to_half(1.0 + 2f64.powi(-11), Rounding::Rte), 0x3c00);
        assert_eq!(to_half(1.0 + 3.0 * 2f64.powi(-11), Rounding::Rte), 0x3c02);
        assert_eq!(to_half(1.0 + 2f64.powi(-11), Rounding::Rtp), 0x3c01);
        assert_eq!(to_half(-(1.0 + 2f64.powi(-11)), Rounding::Rtn), 0xbc01);
        assert_eq!(to_half(65520.0, Rounding::Rte), 0x7c00);
        assert_eq!(to_half(65519.0, Rounding::Rte), 0x7bff);
        assert_eq!(to_half(1e6, Rounding::Rtz), 0x7bff);
        assert_eq!(to_half(2f64.powi(-25), Rounding::Rte), 0);
        assert_eq!(to_half(3.0 * 2f64.powi(-25), Rounding::Rte), 2);
        assert_eq!(to_half(-2f64.powi(-26), Rounding::Rtn), 0x8001);
    }

    #[test]
    fn half_arithmetic_rounds_once() {
        let (one, tiny) = (Half(0x3c00), Half(0x1000));
        // 1 + 2^-11 is a tie: to even, 1.
        assert_eq!((one + Half::from_f64(2f64.powi(-11))).0, 0x3c00);
        assert_eq!((one - tiny).0, to_half(1.0 - 2f64.powi(-11), Rounding::Rte));
        assert_eq!((Half(0x7bff) * Half(0x4000)).0, 0x7c00);
        assert!(Half(0x7e00) != Half(0x7e00));
        assert!(Half(0x8000) == Half(0));
        assert!(Half(0xbc00) < Half(0x0001));
    }
}
