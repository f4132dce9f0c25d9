//! Texel conversions (SPIR-V environment, "Conversion Rules"): a texel's
//! bytes to four words of its format's own kind and back, and words of
//! one kind to another.
//!
//! Reads: UNORM `c / 255.0f` (`/ 65535.0f`, `/ 1023.0f`, `/ 31.0f`,
//! `/ 63.0f`, `/ 3.0f`), SNORM `max(-1.0f, c / 127.0f)` (`/ 32767.0f`),
//! each one correctly rounded float division; HALF widened exactly; FLOAT
//! bit for bit (NaN payloads and denormals kept); signed integers sign-
//! and unsigned ones zero-extended; sRGB's R, G and B through the spec's
//! `c_linear` (after the UNORM conversion, before any filtering).
//!
//! Writes: UNORM `round_to_nearest_even(max(0, min(M, M * x)))` with the
//! product in float (`convert_uchar_sat_rte(x * 255.0f)`), SNORM the same
//! between `-M - 1` and `M`; a NaN, whose conversion the spec leaves
//! implementation-defined, becomes 0 (as OpenCL C's saturating conversions
//! turn NaN into 0); HALF rounded to nearest even (NaN stays NaN, overflow
//! gives infinity); FLOAT bit for bit; integers saturated (`clamp(x, -128,
//! 127)` etc.); sRGB's R, G and B through `c_sRGB` then to 8 bits rounded
//! to nearest even, alpha as plain UNORM.

use super::format::{Channel, Layout};
use super::kind;
use crate::half::{f64_to_half, half_to_f32, Rounding};
use std::sync::OnceLock;

// Fixed-size accessors: the masks keep every index inside the 16 bytes.
fn get8(b: &[u8; 16], i: usize) -> u8 {
    b[i & 15]
}

fn get16(b: &[u8; 16], i: usize) -> u16 {
    let i = (i & 7) * 2;
    u16::from_ne_bytes([b[i], b[i + 1]])
}

fn get32(b: &[u8; 16], i: usize) -> u32 {
    let i = (i & 3) * 4;
    u32::from_ne_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn put8(b: &mut [u8; 16], i: usize, v: u8) {
    b[i & 15] = v;
}

fn put16(b: &mut [u8; 16], i: usize, v: u16) {
    let i = (i & 7) * 2;
    let [x, y] = v.to_ne_bytes();
    b[i] = x;
    b[i + 1] = y;
}

fn put32(b: &mut [u8; 16], i: usize, v: u32) {
    let i = (i & 3) * 4;
    let [x, y, z, w] = v.to_ne_bytes();
    b[i] = x;
    b[i + 1] = y;
    b[i + 2] = z;
    b[i + 3] = w;
}

/// `normalized_float_value` of an unsigned field whose largest value is
/// `max`, as f32 bits.
fn unorm(c: u32, max: u32) -> u32 {
    (c as f32 / max as f32).to_bits()
}

/// `max(-1.0f, c / max)`, as f32 bits.
fn snorm(c: i32, max: i32) -> u32 {
    (c as f32 / max as f32).max(-1.0).to_bits()
}

/// float to an unsigned normalized field of largest value `max`.
pub(crate) fn to_unorm(x: f32, max: u32) -> u32 {
    if x.is_nan() {
        return 0;
    }
    let m = max as f32;
    (x * m).round_ties_even().max(0.0).min(m) as u32
}

/// float to a signed normalized field of largest value `max`.
pub(crate) fn to_snorm(x: f32, max: i32) -> i32 {
    if x.is_nan() {
        return 0;
    }
    let m = max as f32;
    (x * m).round_ties_even().max(-m - 1.0).min(m) as i32
}

/// The spec's `c_linear`: an 8-bit sRGB value to linear RGB.
pub(crate) fn srgb_to_linear(c: u8) -> f32 {
    // Step a: the UNORM conversion; step b in double, rounded once.
    let r = f64::from(c as f32 / 255.0);
    let y = if r <= 0.04045 {
        r / 12.92
    } else {
        libm::pow((r + 0.055) / 1.055, 2.4)
    };
    y as f32
}

/// [`srgb_to_linear`] from a table, as f32 bits.
fn srgb_lut(c: u8) -> u32 {
    static LUT: OnceLock<[u32; 256]> = OnceLock::new();
    let lut = LUT.get_or_init(|| {
        let mut t = [0; 256];
        for (c, e) in t.iter_mut().enumerate() {
            *e = srgb_to_linear(c as u8).to_bits();
        }
        t
    });
    lut[c as usize]
}

/// Linear RGB to an 8-bit sRGB value: the spec's `c_sRGB` then
/// `round_to_nearest_even(255 * r)`. The spec prints the middle case as
/// `1.055 * y^(1/2.4)`, which would give 1.055 for 1.0; the sRGB standard
/// it cites (and the CTS's reference) subtract 0.055, as here.
pub(crate) fn linear_to_srgb(y: f32) -> u8 {
    let y = f64::from(y);
    let r = if y.is_nan() || y < 0.0 {
        0.0
    } else if y < 0.0031308 {
        12.92 * y
    } else if y <= 1.0 {
        1.055 * libm::pow(y, 1.0 / 2.4) - 0.055
    } else {
        1.0
    };
    (r * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
}

/// A word of kind `k` as a float.
fn as_f32(k: u32, w: u32) -> f32 {
    match k {
        kind::INT => w as i32 as f32,
        kind::UINT => w as f32,
        _ => f32::from_bits(w),
    }
}

/// A word of kind `k` as a signed integer (floats rounded to nearest even
/// and saturated, NaN to 0).
fn as_i32(k: u32, w: u32) -> i32 {
    match k {
        kind::INT => w as i32,
        kind::UINT => w.min(i32::MAX as u32) as i32,
        _ => f32::from_bits(w).round_ties_even() as i32,
    }
}

/// A word of kind `k` as an unsigned integer (negative values to 0).
fn as_u32(k: u32, w: u32) -> u32 {
    match k {
        kind::INT => (w as i32).max(0) as u32,
        kind::UINT => w,
        _ => f32::from_bits(w).round_ties_even() as u32,
    }
}

/// A kind value the helpers know: anything else is taken as FLOAT.
pub(crate) fn known_kind(k: u32) -> u32 {
    if k == kind::INT || k == kind::UINT {
        k
    } else {
        kind::FLOAT
    }
}

/// A word of kind `from` as one of kind `to`: the same number, rounded to
/// nearest even and saturated when it must change (a read whose kind does
/// not match the format's, which the spec leaves undefined).
pub(crate) fn convert_kind(from: u32, to: u32, w: u32) -> u32 {
    match known_kind(to) {
        t if t == from => w,
        kind::INT => as_i32(from, w) as u32,
        kind::UINT => as_u32(from, w),
        _ => as_f32(from, w).to_bits(),
    }
}

/// The texel in `b` as four words of its format's kind, RGBA.
pub(crate) fn decode(l: &Layout, b: &[u8; 16]) -> [u32; 4] {
    let one = if l.channel.kind() == kind::FLOAT {
        1f32.to_bits()
    } else {
        1
    };
    match l.channel {
        Channel::Unorm565 => {
            let v = u32::from(get16(b, 0));
            return [unorm(v >> 11, 31), unorm((v >> 5) & 63, 63), unorm(v & 31, 31), one];
        }
        Channel::Unorm555 => {
            let v = u32::from(get16(b, 0));
            return [
                unorm((v >> 10) & 31, 31),
                unorm((v >> 5) & 31, 31),
                unorm(v & 31, 31),
                one,
            ];
        }
        Channel::Unorm101010 => {
            let v = get32(b, 0);
            return [
                unorm((v >> 20) & 1023, 1023),
                unorm((v >> 10) & 1023, 1023),
                unorm(v & 1023, 1023),
                one,
            ];
        }
        Channel::Unorm1010102 => {
            let v = get32(b, 0);
            return [
                unorm(v >> 22, 1023),
                unorm((v >> 12) & 1023, 1023),
                unorm((v >> 2) & 1023, 1023),
                unorm(v & 3, 3),
            ];
        }
        _ => {}
    }
    // Every channel of the 16 bytes is converted (those past the format's
    // are zeros, and unused): no loop, no branch per channel.
    let ch: [u32; 4] = match l.channel {
        Channel::Unorm8 if l.srgb => std::array::from_fn(|i| {
            if l.write[i] < 3 {
                srgb_lut(get8(b, i))
            } else {
                unorm(u32::from(get8(b, i)), 255)
            }
        }),
        Channel::Unorm8 => std::array::from_fn(|i| unorm(u32::from(get8(b, i)), 255)),
        Channel::Unorm16 => std::array::from_fn(|i| unorm(u32::from(get16(b, i)), 65535)),
        Channel::Snorm8 => std::array::from_fn(|i| snorm(i32::from(get8(b, i) as i8), 127)),
        Channel::Snorm16 => std::array::from_fn(|i| snorm(i32::from(get16(b, i) as i16), 32767)),
        Channel::Sint8 => std::array::from_fn(|i| i32::from(get8(b, i) as i8) as u32),
        Channel::Sint16 => std::array::from_fn(|i| i32::from(get16(b, i) as i16) as u32),
        Channel::Uint8 => std::array::from_fn(|i| u32::from(get8(b, i))),
        Channel::Uint16 => std::array::from_fn(|i| u32::from(get16(b, i))),
        Channel::Half => std::array::from_fn(|i| half_to_f32(get16(b, i)).to_bits()),
        Channel::Sint32 | Channel::Uint32 | Channel::Float => std::array::from_fn(|i| get32(b, i)),
        // Handled above.
        Channel::Unorm565 | Channel::Unorm555 | Channel::Unorm101010 | Channel::Unorm1010102 => [0; 4],
    };
    let pick = |c: usize, default: u32| match l.from[c] {
        i @ 0..=3 => ch[usize::from(i)],
        _ => default,
    };
    [pick(0, 0), pick(1, 0), pick(2, 0), pick(3, one)]
}

/// Four words of kind `k` (RGBA) as the texel's bytes in `b` (its first
/// `l.size`).
pub(crate) fn encode(l: &Layout, k: u32, v: &[u32; 4], b: &mut [u8; 16]) {
    let k = known_kind(k);
    let f = |c: usize| as_f32(k, v[c & 3]);
    match l.channel {
        Channel::Unorm565 => {
            let w = to_unorm(f(0), 31) << 11 | to_unorm(f(1), 63) << 5 | to_unorm(f(2), 31);
            return put16(b, 0, w as u16);
        }
        Channel::Unorm555 => {
            let w = to_unorm(f(0), 31) << 10 | to_unorm(f(1), 31) << 5 | to_unorm(f(2), 31);
            return put16(b, 0, w as u16);
        }
        Channel::Unorm101010 => {
            let w = to_unorm(f(0), 1023) << 20 | to_unorm(f(1), 1023) << 10 | to_unorm(f(2), 1023);
            return put32(b, 0, w);
        }
        Channel::Unorm1010102 => {
            let w =
                to_unorm(f(0), 1023) << 22 | to_unorm(f(1), 1023) << 12 | to_unorm(f(2), 1023) << 2 | to_unorm(f(3), 3);
            return put32(b, 0, w);
        }
        _ => {}
    }
    for i in 0..l.count.min(4) {
        let c = usize::from(l.write[i]) & 3;
        let w = v[c];
        match l.channel {
            Channel::Unorm8 if l.srgb && c < 3 => put8(b, i, linear_to_srgb(f(c))),
            Channel::Unorm8 => put8(b, i, to_unorm(f(c), 255) as u8),
            Channel::Unorm16 => put16(b, i, to_unorm(f(c), 65535) as u16),
            Channel::Snorm8 => put8(b, i, to_snorm(f(c), 127) as u8),
            Channel::Snorm16 => put16(b, i, to_snorm(f(c), 32767) as u16),
            Channel::Sint8 => put8(b, i, as_i32(k, w).clamp(-128, 127) as u8),
            Channel::Sint16 => put16(b, i, as_i32(k, w).clamp(-32768, 32767) as u16),
            Channel::Sint32 => put32(b, i, as_i32(k, w) as u32),
            Channel::Uint8 => put8(b, i, as_u32(k, w).min(255) as u8),
            Channel::Uint16 => put16(b, i, as_u32(k, w).min(65535) as u16),
            Channel::Uint32 => put32(b, i, as_u32(k, w)),
            Channel::Half => put16(b, i, f64_to_half(f64::from(f(c)), Rounding::Rte)),
            Channel::Float => put32(b, i, if k == kind::FLOAT { w } else { f(c).to_bits() }),
            Channel::Unorm565 | Channel::Unorm555 | Channel::Unorm101010 | Channel::Unorm1010102 => {}
        }
    }
}
