//! Conversions between `half` (IEEE binary16, stored as the low 16 bits of
//! a `u32`) and `float`/`double`, behind `vload_half`, `vload_halfn`,
//! `vloada_halfn` and the `vstore_half` family with its four rounding
//! modes. JIT code loads and stores the 16-bit values itself and calls
//! these for the conversion (Cranelift has no portable f16 conversion).
//!
//! A `float` converts to `double` exactly, so the `f32` conversions go
//! through the `f64` one and round once.

/// The rounding modes of `vstore_half_r` (SPIR-V FPRoundingMode values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Round to nearest, ties to even (RTE = 0), also `vstore_half`'s mode.
    Rte,
    /// Round toward zero (RTZ = 1).
    Rtz,
    /// Round toward +inf (RTP = 2).
    Rtp,
    /// Round toward -inf (RTN = 3).
    Rtn,
}

impl Rounding {
    /// The mode of a SPIR-V FPRoundingMode operand.
    pub fn from_spirv(mode: u32) -> Option<Rounding> {
        match mode {
            0 => Some(Rounding::Rte),
            1 => Some(Rounding::Rtz),
            2 => Some(Rounding::Rtp),
            3 => Some(Rounding::Rtn),
            _ => None,
        }
    }
}

/// `double` to `half` bits, rounded in `mode`; NaNs stay (quiet) NaNs.
pub fn f64_to_half(x: f64, mode: Rounding) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        // Quiet NaN keeping the top payload bits.
        return sign | 0x7e00 | ((x.to_bits() >> 42) as u16 & 0x01ff);
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // At or above 2^16 every value overflows; 65504 <= a < 2^16 overflows
    // or not depending on the mode, below.
    let bits = if a >= 65536.0 {
        0x7c00
    } else {
        magnitude_bits(a, sign != 0, mode)
    };
    if bits >= 0x7c00 {
        // Overflow: infinity, or the largest finite half when rounding
        // toward zero or away from the infinity of that sign.
        let to_inf = match mode {
            Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => sign == 0,
            Rounding::Rtn => sign != 0,
        };
        return sign | if to_inf { 0x7c00 } else { 0x7bff };
    }
    sign | bits as u16
}

/// The encoding of the finite `a` (0 <= a < 2^16) rounded in `mode` (for a
/// value of sign `negative`); 0x7c00 or above means overflow.
fn magnitude_bits(a: f64, negative: bool, mode: Rounding) -> u64 {
    // The quantum (ulp) of a half near `a`: 2^(e - 10) for normals
    // (e >= -14), 2^-24 for denormals.
    let e = if a == 0.0 {
        -15
    } else {
        ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023
    };
    let qexp = e.max(-14) - 10;
    let q = f64::from_bits(((1023 + qexp) as u64) << 52);
    let n = a / q; // exact: a power-of-two scaling
    let t = n.trunc();
    let frac = n - t;
    let mut t = t as u64;
    let up = match mode {
        Rounding::Rte => frac > 0.5 || (frac == 0.5 && t & 1 == 1),
        Rounding::Rtz => false,
        Rounding::Rtp => frac > 0.0 && !negative,
        Rounding::Rtn => frac > 0.0 && negative,
    };
    if up {
        t += 1;
    }
    // Normals: t in [1024, 2048] is the significand with its implicit bit,
    // so adding the biased exponent field minus the implicit bit gives the
    // encoding (t = 2048 carries into the exponent). Denormals: t itself.
    if e >= -14 {
        (((e + 15) as u64) << 10) + t - 1024
    } else {
        t
    }
}

/// `half` bits to `float`, exactly: a NaN keeps its payload and its
/// signaling bit (the half's significand becomes the top 10 bits of the
/// float's), as the JIT's inline widening does.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = ((h & 0x8000) as u32) << 16;
    let exp = ((h >> 10) & 0x1f) as u32;
    let mant = (h & 0x03ff) as u32;
    match exp {
        0 => {
            let v = mant as f32 * f32::from_bits(0x3380_0000); // 2^-24
            if sign != 0 {
                -v
            } else {
                v
            }
        }
        31 => f32::from_bits(sign | 0x7f80_0000 | (mant << 13)),
        _ => f32::from_bits(sign | ((exp + 112) << 23) | (mant << 13)),
    }
}

/// `vload_half`: the `half` in the low 16 bits of `h` as a `float`.
pub extern "C" fn clift_half_to_f32(h: u32) -> f32 {
    half_to_f32(h as u16)
}

macro_rules! stores {
    ($($name32:ident, $name64:ident, $mode:ident;)*) => {$(
        /// `vstore_half` of a `float` in this rounding mode: the `half`
        /// bits in the low 16 bits of the result.
        pub extern "C" fn $name32(x: f32) -> u32 {
            f64_to_half(x as f64, Rounding::$mode) as u32
        }
        /// `vstore_half` of a `double` in this rounding mode (rounded
        /// once, straight from the double).
        pub extern "C" fn $name64(x: f64) -> u32 {
            f64_to_half(x, Rounding::$mode) as u32
        }
    )*};
}

stores! {
    clift_f32_to_half_rte, clift_f64_to_half_rte, Rte;
    clift_f32_to_half_rtz, clift_f64_to_half_rtz, Rtz;
    clift_f32_to_half_rtp, clift_f64_to_half_rtp, Rtp;
    clift_f32_to_half_rtn, clift_f64_to_half_rtn, Rtn;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_half() {
        for h in 0..=u16::MAX {
            let x = half_to_f32(h);
            if x.is_nan() {
                // Widened exactly: sign, all ones, the significand on top.
                let want = (u32::from(h & 0x8000) << 16) | 0x7f80_0000 | (u32::from(h & 0x3ff) << 13);
                assert_eq!(x.to_bits(), want, "{h:#x}");
                // Converting back is arithmetic: a quiet NaN.
                let back = f64_to_half(x as f64, Rounding::Rte);
                assert_eq!(back, h | 0x0200, "{h:#x}");
                continue;
            }
            for mode in [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn] {
                assert_eq!(f64_to_half(x as f64, mode), h, "{h:#x} {mode:?}");
            }
        }
    }

    #[test]
    fn rounding_modes() {
        // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
        let mid = 1.0 + 2f64.powi(-11);
        assert_eq!(f64_to_half(mid, Rounding::Rte), 0x3c00);
        assert_eq!(f64_to_half(mid, Rounding::Rtz), 0x3c00);
        assert_eq!(f64_to_half(mid, Rounding::Rtp), 0x3c01);
        assert_eq!(f64_to_half(-mid, Rounding::Rtn), 0xbc01);
        assert_eq!(f64_to_half(-mid, Rounding::Rtp), 0xbc00);
        assert_eq!(f64_to_half(65520.0, Rounding::Rte), 0x7c00);
        assert_eq!(f64_to_half(65519.0, Rounding::Rte), 0x7bff);
        assert_eq!(f64_to_half(1e9, Rounding::Rtz), 0x7bff);
        assert_eq!(f64_to_half(-1e9, Rounding::Rtp), 0xfbff);
        assert_eq!(f64_to_half(-1e9, Rounding::Rtn), 0xfc00);
        // Denormals: 2^-25 is halfway between 0 and 2^-24.
        assert_eq!(f64_to_half(2f64.powi(-25), Rounding::Rte), 0);
        assert_eq!(f64_to_half(2f64.powi(-25), Rounding::Rtp), 1);
        assert_eq!(f64_to_half(3.0 * 2f64.powi(-25), Rounding::Rte), 2);
        assert_eq!(f64_to_half(-1e-30, Rounding::Rtn), 0x8001);
        assert_eq!(f64_to_half(-0.0, Rounding::Rte), 0x8000);
        assert_eq!(clift_f32_to_half_rte(f32::NAN) & 0x7e00, 0x7e00);
    }
}
