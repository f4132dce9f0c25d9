//! Tests of the image helpers: exact conversions, the channel order table,
//! border colors, the addressing modes and filters on small images with
//! values worked out by hand, every valid format x addressing mode x filter
//! x coordinate normalization x image type against a reference written
//! from the spec's text (below, independent of the implementation's
//! structure), and hostile coordinates.

use super::*;
use crate::half::{f64_to_half, half_to_f32, Rounding};

const SAMPLERLESS: u32 = sampler::NONE;
const LINEAR: u32 = sampler::FILTER_LINEAR;
const NEAREST: u32 = sampler::FILTER_NEAREST;
const NORM: u32 = sampler::NORMALIZED_COORDS_TRUE;
const NONE: u32 = sampler::ADDRESS_NONE;
const EDGE: u32 = sampler::ADDRESS_CLAMP_TO_EDGE;
const CLAMP: u32 = sampler::ADDRESS_CLAMP;
const REPEAT: u32 = sampler::ADDRESS_REPEAT;
const MIRROR: u32 = sampler::ADDRESS_MIRRORED_REPEAT;
const MODES: [u32; 5] = [NONE, EDGE, CLAMP, REPEAT, MIRROR];

fn fmt(order: u32, data_type: u32) -> Format {
    Format { order, data_type }
}

/// Every valid format (the 2D list holds them all; checked below).
fn all_formats() -> &'static [Format] {
    supported_formats(image_type::IMAGE2D, 0)
}

/// xorshift64*: a fixed sequence of test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<T: Copy>(&mut self, list: &[T]) -> T {
        list[(self.next() >> 33) as usize % list.len()]
    }
}

// ---------------------------------------------------------------------------
// The reference: the spec's tables and formulas, written out again.

/// The components an order stores, in memory order (API spec, "Image
/// Format Descriptor"; Rx and RGx store like R and RG, as the CTS does).
fn ref_stored(order: u32) -> &'static str {
    match order {
        order::R | order::RX => "R",
        order::A => "A",
        order::RG | order::RGX => "RG",
        order::RA => "RA",
        order::RGB | order::SRGB => "RGB",
        order::RGBX | order::SRGBX => "RGBx",
        order::RGBA | order::SRGBA => "RGBA",
        order::BGRA | order::SBGRA => "BGRA",
        order::ARGB => "ARGB",
        order::ABGR => "ABGR",
        order::INTENSITY => "I",
        order::LUMINANCE => "L",
        order::DEPTH => "D",
        _ => unreachable!(),
    }
}

fn ref_is_srgb(order: u32) -> bool {
    matches!(order, order::SRGB | order::SRGBX | order::SRGBA | order::SBGRA)
}

/// Bytes per channel, or per texel for the packed types.
fn ref_channel_bytes(data_type: u32) -> usize {
    use data_type::*;
    match data_type {
        UNORM_INT8 | SNORM_INT8 | SIGNED_INT8 | UNSIGNED_INT8 => 1,
        UNORM_INT16 | SNORM_INT16 | SIGNED_INT16 | UNSIGNED_INT16 | HALF_FLOAT | UNORM_SHORT_565 | UNORM_SHORT_555 => 2,
        _ => 4,
    }
}

fn ref_packed(data_type: u32) -> bool {
    use data_type::*;
    matches!(
        data_type,
        UNORM_SHORT_565 | UNORM_SHORT_555 | UNORM_INT_101010 | UNORM_INT_101010_2
    )
}

fn ref_is_float_kind(data_type: u32) -> bool {
    use data_type::*;
    !matches!(
        data_type,
        SIGNED_INT8 | SIGNED_INT16 | SIGNED_INT32 | UNSIGNED_INT8 | UNSIGNED_INT16 | UNSIGNED_INT32
    )
}

/// The spec's c_linear, in double.
fn ref_c_linear(r: f64) -> f64 {
    if r <= 0.04045 {
        r / 12.92
    } else {
        ((r + 0.055) / 1.055).powf(2.4)
    }
}

/// The spec's c_sRGB (with the sRGB standard's - 0.055), in double.
fn ref_c_srgb(y: f64) -> f64 {
    if y.is_nan() || y < 0.0 {
        0.0
    } else if y < 0.0031308 {
        12.92 * y
    } else if y <= 1.0 {
        1.055 * y.powf(1.0 / 2.4) - 0.055
    } else {
        1.0
    }
}

/// One channel's value per the conversion rules, from its bytes.
fn ref_channel(data_type: u32, b: &[u8]) -> f64 {
    use data_type::*;
    let u16v = || u16::from_ne_bytes([b[0], b[1]]);
    let u32v = || u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
    match data_type {
        UNORM_INT8 => f64::from(b[0]) / 255.0,
        UNORM_INT16 => f64::from(u16v()) / 65535.0,
        SNORM_INT8 => (f64::from(b[0] as i8) / 127.0).max(-1.0),
        SNORM_INT16 => (f64::from(u16v() as i16) / 32767.0).max(-1.0),
        SIGNED_INT8 => f64::from(b[0] as i8),
        SIGNED_INT16 => f64::from(u16v() as i16),
        SIGNED_INT32 => f64::from(u32v() as i32),
        UNSIGNED_INT8 => f64::from(b[0]),
        UNSIGNED_INT16 => f64::from(u16v()),
        UNSIGNED_INT32 => f64::from(u32v()),
        HALF_FLOAT => f64::from(half_to_f32(u16v())),
        FLOAT => f64::from(f32::from_bits(u32v())),
        _ => unreachable!(),
    }
}

/// A texel's RGBA value per the spec's tables ("Mapping Image Data to
/// Vector Components": missing components 0, alpha 1).
fn ref_texel(f: Format, b: &[u8]) -> [f64; 4] {
    use data_type::*;
    let mut out = [0.0, 0.0, 0.0, 1.0];
    if ref_packed(f.data_type) {
        let field =
            |v: u32, shift: u32, bits: u32| f64::from((v >> shift) & ((1 << bits) - 1)) / f64::from((1 << bits) - 1);
        match f.data_type {
            UNORM_SHORT_565 => {
                let v = u32::from(u16::from_ne_bytes([b[0], b[1]]));
                out[..3].copy_from_slice(&[field(v, 11, 5), field(v, 5, 6), field(v, 0, 5)]);
            }
            UNORM_SHORT_555 => {
                let v = u32::from(u16::from_ne_bytes([b[0], b[1]]));
                out[..3].copy_from_slice(&[field(v, 10, 5), field(v, 5, 5), field(v, 0, 5)]);
            }
            UNORM_INT_101010 => {
                let v = u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
                out[..3].copy_from_slice(&[field(v, 20, 10), field(v, 10, 10), field(v, 0, 10)]);
            }
            _ => {
                let v = u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
                out = [field(v, 22, 10), field(v, 12, 10), field(v, 2, 10), field(v, 0, 2)];
            }
        }
        return out;
    }
    let size = ref_channel_bytes(f.data_type);
    for (i, letter) in ref_stored(f.order).chars().enumerate() {
        let mut v = ref_channel(f.data_type, &b[i * size..]);
        if ref_is_srgb(f.order) && letter != 'A' {
            v = ref_c_linear(v);
        }
        match letter {
            'R' | 'D' => out[0] = v,
            'G' => out[1] = v,
            'B' => out[2] = v,
            'A' => out[3] = v,
            'I' => out = [v; 4],
            'L' => out[..3].copy_from_slice(&[v; 3]),
            _ => {}
        }
    }
    out
}

/// OpenCL C, "Determining the Border Color or Value" (sRGB, which it does
/// not list, as RGB; DEPTH's value 0 in component 0).
fn ref_border(order: u32) -> [f64; 4] {
    use order::*;
    match order {
        A | INTENSITY | RX | RA | RGX | RGBX | SRGBX | ARGB | BGRA | ABGR | RGBA | SRGBA | SBGRA => [0.0; 4],
        R | RG | RGB | LUMINANCE | SRGB | DEPTH => [0.0, 0.0, 0.0, 1.0],
        _ => unreachable!(),
    }
}

/// An index the spec's formulas select along one axis.
#[derive(Clone, Copy, Debug)]
enum Idx {
    In(usize),
    Border,
    /// CLK_ADDRESS_NONE outside the image: undefined.
    Undefined,
}

/// The table "Addressing Modes to Generate Texel Location".
fn ref_address_mode(mode: u32, coord: i64, size: usize) -> Idx {
    let size = size as i64;
    let clamp = |a: i64, b: i64, c: i64| {
        if a < b {
            b
        } else if a > c {
            c
        } else {
            a
        }
    };
    let i = match mode {
        CLAMP => clamp(coord, -1, size),
        EDGE => clamp(coord, 0, size - 1),
        _ => coord,
    };
    if (0..size).contains(&i) {
        Idx::In(i as usize)
    } else if mode == NONE {
        Idx::Undefined
    } else {
        Idx::Border
    }
}

/// Nearest filtering along one axis: the spec's formulas for the clamp and
/// none modes (on u), repeat and mirrored repeat (on s).
fn ref_nearest(mode: u32, normalized: bool, coord: f32, size: usize) -> Idx {
    let w_t = size as f32;
    match mode {
        REPEAT => {
            let s = coord;
            let u = (s - s.floor()) * w_t;
            let mut i = u.floor() as i64;
            if i > size as i64 - 1 {
                i -= size as i64;
            }
            Idx::In(i as usize)
        }
        MIRROR => {
            let s = coord;
            let s2 = 2.0f32 * (0.5f32 * s).round_ties_even();
            let s2 = (s - s2).abs();
            let u = s2 * w_t;
            let i = (u.floor() as i64).min(size as i64 - 1);
            Idx::In(i as usize)
        }
        _ => {
            let u = if normalized { coord * w_t } else { coord };
            ref_address_mode(mode, u.floor() as i64, size)
        }
    }
}

/// Linear filtering along one axis: (i0, i1, frac).
fn ref_linear(mode: u32, normalized: bool, coord: f32, size: usize) -> (Idx, Idx, f32) {
    let w_t = size as f32;
    let frac = |x: f32| x - x.floor();
    match mode {
        REPEAT => {
            let s = coord;
            let u = (s - s.floor()) * w_t;
            let mut i0 = (u - 0.5).floor() as i64;
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += size as i64;
            }
            if i1 > size as i64 - 1 {
                i1 -= size as i64;
            }
            (Idx::In(i0 as usize), Idx::In(i1 as usize), frac(u - 0.5))
        }
        MIRROR => {
            let s = coord;
            let s2 = (s - 2.0f32 * (0.5f32 * s).round_ties_even()).abs();
            let u = s2 * w_t;
            let i0 = (u - 0.5f32).floor() as i64;
            let i1 = (i0 + 1).min(size as i64 - 1);
            (Idx::In(i0.max(0) as usize), Idx::In(i1 as usize), frac(u - 0.5))
        }
        _ => {
            let u = if normalized { coord * w_t } else { coord };
            let f = (u - 0.5).floor() as i64;
            (
                ref_address_mode(mode, f, size),
                ref_address_mode(mode, f + 1, size),
                frac(u - 0.5),
            )
        }
    }
}

/// A test image: its storage with canary bytes on both sides, and its
/// shape.
struct Img {
    format: Format,
    desc: ImageDesc,
    buf: Vec<u8>,
    /// Texels along x, y, z (an array's layers along y or z).
    n: [usize; 3],
    dims: usize,
    layer_axis: Option<usize>,
}

const PAD: usize = 64;
const CANARY: u8 = 0xa5;

impl Img {
    /// An image of `shape` (width, height, depth, layers; unused ones 1),
    /// its rows and slices padded so that the pitches matter.
    fn new(format: Format, ty: u32, shape: [usize; 4]) -> Img {
        use image_type::*;
        let [w, h, d, layers] = shape;
        let (dims, n, layer_axis) = match ty {
            IMAGE1D | IMAGE1D_BUFFER => (1, [w, 1, 1], None),
            IMAGE1D_ARRAY => (1, [w, layers, 1], Some(1)),
            IMAGE2D => (2, [w, h, 1], None),
            IMAGE2D_ARRAY => (2, [w, h, layers], Some(2)),
            _ => (3, [w, h, d], None),
        };
        let es = format.element_size().unwrap();
        let row = w * es + 3;
        let slice = row * n[1] + 5;
        let extent = (n[0] - 1) * es + (n[1] - 1) * row + (n[2] - 1) * slice + es;
        let desc = ImageDesc {
            data: std::ptr::null_mut(),
            width: w as u64,
            height: if dims >= 2 { h as u64 } else { 1 },
            depth: if dims == 3 { d as u64 } else { 1 },
            array_size: if layer_axis.is_some() { layers as u64 } else { 1 },
            row_pitch: row as u64,
            slice_pitch: slice as u64,
            element_size: es as u64,
            image_type: ty,
            format,
            fast: fast::NONE,
        };
        Img {
            format,
            desc,
            buf: vec![CANARY; PAD + extent + PAD],
            n,
            dims,
            layer_axis,
        }
    }

    fn desc(&mut self) -> ImageDesc {
        let mut d = self.desc;
        d.data = self.buf.as_mut_ptr().wrapping_add(PAD);
        d
    }

    fn offset(&self, pos: [usize; 3]) -> usize {
        PAD + pos[0] * self.desc.element_size as usize
            + pos[1] * self.desc.row_pitch as usize
            + pos[2] * self.desc.slice_pitch as usize
    }

    fn texel(&self, pos: [usize; 3]) -> &[u8] {
        let o = self.offset(pos);
        &self.buf[o..o + self.desc.element_size as usize]
    }

    fn set(&mut self, pos: [usize; 3], bytes: &[u8]) {
        let o = self.offset(pos);
        self.buf[o..o + bytes.len()].copy_from_slice(bytes);
    }

    fn positions(&self) -> Vec<[usize; 3]> {
        let mut v = Vec::new();
        for z in 0..self.n[2] {
            for y in 0..self.n[1] {
                for x in 0..self.n[0] {
                    v.push([x, y, z]);
                }
            }
        }
        v
    }

    /// Random texels; HALF and FLOAT channels finite (linear filtering of
    /// infinities and NaNs is undefined).
    fn fill_random(&mut self, rng: &mut Rng) {
        let f = self.format;
        let size = ref_channel_bytes(f.data_type);
        let channels = if ref_packed(f.data_type) {
            1
        } else {
            ref_stored(f.order).len()
        };
        for pos in self.positions() {
            let mut bytes = vec![0u8; self.desc.element_size as usize];
            for c in 0..channels {
                let r = rng.next();
                let ch = &mut bytes[c * size..(c + 1) * size];
                match f.data_type {
                    data_type::HALF_FLOAT => ch.copy_from_slice(&((r as u16) & 0xbfff).to_ne_bytes()),
                    data_type::FLOAT => {
                        let v = ((r % 16001) as f32 - 8000.0) / 1000.0;
                        ch.copy_from_slice(&v.to_ne_bytes());
                    }
                    _ => ch.copy_from_slice(&r.to_ne_bytes()[..size]),
                }
            }
            self.set(pos, &bytes);
        }
    }

    fn canaries_intact(&self) -> bool {
        let end = self.buf.len() - PAD;
        self.buf[..PAD].iter().chain(&self.buf[end..]).all(|&b| b == CANARY)
    }

    /// The reference result of a sampled read with float coordinates, in
    /// the format's kind as f64; `None` where the spec leaves it
    /// undefined.
    fn ref_sample(&self, smp: u32, c: [f32; 4]) -> Option<[f64; 4]> {
        let mode = smp & sampler::ADDRESS_MASK;
        let normalized = smp & NORM != 0;
        if matches!(mode, REPEAT | MIRROR) && !normalized {
            return None;
        }
        let linear = smp & LINEAR != 0;
        if linear && !ref_is_float_kind(self.format.data_type) {
            return None;
        }
        let mut base = [0usize; 3];
        if let Some(l) = self.layer_axis {
            // "layer = clamp(rint(w), 0, d_t - 1)"
            base[l] = (c[l].round_ties_even() as i64).clamp(0, self.n[l] as i64 - 1) as usize;
        }
        let border = ref_border(self.format.order);
        if !linear {
            let mut pos = base;
            for a in 0..self.dims {
                match ref_nearest(mode, normalized, c[a], self.n[a]) {
                    Idx::In(i) => pos[a] = i,
                    Idx::Border => return Some(border),
                    Idx::Undefined => return None,
                }
            }
            return Some(ref_texel(self.format, self.texel(pos)));
        }
        let axes: Vec<(Idx, Idx, f32)> = (0..self.dims)
            .map(|a| ref_linear(mode, normalized, c[a], self.n[a]))
            .collect();
        let mut sum = [0f64; 4];
        for corner in 0..1 << self.dims {
            let mut pos = base;
            let mut weight = 1f64;
            let mut value = None;
            for (a, &(i0, i1, frac)) in axes.iter().enumerate() {
                let (idx, w) = if corner >> a & 1 == 0 {
                    (i0, 1.0 - f64::from(frac))
                } else {
                    (i1, f64::from(frac))
                };
                weight *= w;
                match idx {
                    Idx::In(i) => pos[a] = i,
                    Idx::Border => value = Some(border),
                    Idx::Undefined => return None,
                }
            }
            let t = value.unwrap_or_else(|| ref_texel(self.format, self.texel(pos)));
            for k in 0..4 {
                sum[k] += weight * t[k];
            }
        }
        Some(sum)
    }

    /// The reference result of a read with integer coordinates.
    fn ref_read_int(&self, mode: u32, c: [i32; 4]) -> Option<[f64; 4]> {
        let mut pos = [0usize; 3];
        if let Some(l) = self.layer_axis {
            pos[l] = i64::from(c[l]).clamp(0, self.n[l] as i64 - 1) as usize;
        }
        for a in 0..self.dims {
            match ref_address_mode(mode, i64::from(c[a]), self.n[a]) {
                Idx::In(i) => pos[a] = i,
                Idx::Border => return Some(ref_border(self.format.order)),
                Idx::Undefined => return None,
            }
        }
        Some(ref_texel(self.format, self.texel(pos)))
    }
}

/// What `clift_image_read` reads from `img` (called through the C entry
/// point only in `entry_points`, so that a failed check inside, which
/// panics in the tests, fails one test instead of aborting them all).
fn read(img: &mut Img, smp: u32, float_coords: bool, k: u32, c: [u32; 4]) -> [u32; 4] {
    read_image(&img.desc(), smp, float_coords, k, c)
}

fn readf(img: &mut Img, smp: u32, c: [f32; 4]) -> [f32; 4] {
    read(img, smp, true, kind::FLOAT, c.map(f32::to_bits)).map(f32::from_bits)
}

fn readi(img: &mut Img, smp: u32, k: u32, c: [i32; 4]) -> [u32; 4] {
    read(img, smp, false, k, c.map(|v| v as u32))
}

/// What `clift_image_write` does to `img`.
fn write(img: &mut Img, k: u32, c: [i32; 4], v: [u32; 4]) {
    write_image(&img.desc(), k, c, v);
}

fn writef(img: &mut Img, c: [i32; 4], v: [f32; 4]) {
    write(img, kind::FLOAT, c, v.map(f32::to_bits));
}

/// The native kind's words as f64.
fn as_f64(k: u32, w: [u32; 4]) -> [f64; 4] {
    match k {
        kind::INT => w.map(|w| f64::from(w as i32)),
        kind::UINT => w.map(f64::from),
        _ => w.map(|w| f64::from(f32::from_bits(w))),
    }
}

/// One texel of `format` holding `bytes`, read without a sampler.
fn decode1(format: Format, bytes: &[u8], k: u32) -> [u32; 4] {
    decode_texel(format, bytes, k).unwrap()
}

fn decodef(format: Format, bytes: &[u8]) -> [f32; 4] {
    decode1(format, bytes, kind::FLOAT).map(f32::from_bits)
}

fn encodef(format: Format, v: [f32; 4]) -> Vec<u8> {
    encode_texel(format, kind::FLOAT, &v.map(f32::to_bits)).unwrap()
}

// ---------------------------------------------------------------------------
// Formats.

/// The API spec's table of which data types each order takes (OpenCL 2.x
/// wording), written out again.
fn ref_valid(order: u32, data_type: u32) -> bool {
    use data_type::*;
    let plain = [
        UNORM_INT8,
        UNORM_INT16,
        SNORM_INT8,
        SNORM_INT16,
        SIGNED_INT8,
        SIGNED_INT16,
        SIGNED_INT32,
        UNSIGNED_INT8,
        UNSIGNED_INT16,
        UNSIGNED_INT32,
        HALF_FLOAT,
        FLOAT,
    ];
    let allowed: &[u32] = match order {
        order::R | order::A | order::RG | order::RA | order::RX | order::RGX => &plain,
        order::RGBA => &[
            UNORM_INT8,
            UNORM_INT16,
            SNORM_INT8,
            SNORM_INT16,
            SIGNED_INT8,
            SIGNED_INT16,
            SIGNED_INT32,
            UNSIGNED_INT8,
            UNSIGNED_INT16,
            UNSIGNED_INT32,
            HALF_FLOAT,
            FLOAT,
            UNORM_INT_101010_2,
        ],
        order::RGB | order::RGBX => &[UNORM_SHORT_565, UNORM_SHORT_555, UNORM_INT_101010],
        order::BGRA | order::ARGB | order::ABGR => &[UNORM_INT8, SNORM_INT8, SIGNED_INT8, UNSIGNED_INT8],
        order::INTENSITY | order::LUMINANCE => &[UNORM_INT8, UNORM_INT16, SNORM_INT8, SNORM_INT16, HALF_FLOAT, FLOAT],
        order::DEPTH => &[UNORM_INT16, FLOAT],
        order::SRGB | order::SRGBX | order::SRGBA | order::SBGRA => &[UNORM_INT8],
        _ => &[],
    };
    allowed.contains(&data_type)
}

#[test]
fn element_sizes() {
    use data_type::*;
    use order::*;
    let expect = [
        (RGBA, UNORM_INT8, 4),
        (RGBA, FLOAT, 16),
        (RGBA, SIGNED_INT16, 8),
        (RGBA, UNORM_INT_101010_2, 4),
        (R, HALF_FLOAT, 2),
        (R, UNSIGNED_INT32, 4),
        (A, SNORM_INT8, 1),
        (RG, FLOAT, 8),
        (RA, UNORM_INT16, 4),
        (RGB, UNORM_SHORT_565, 2),
        (RGB, UNORM_SHORT_555, 2),
        (RGB, UNORM_INT_101010, 4),
        (RGBX, UNORM_SHORT_565, 2),
        (RGBX, UNORM_INT_101010, 4),
        (BGRA, UNORM_INT8, 4),
        (ARGB, SIGNED_INT8, 4),
        (ABGR, UNSIGNED_INT8, 4),
        (INTENSITY, FLOAT, 4),
        (LUMINANCE, HALF_FLOAT, 2),
        (RX, FLOAT, 4),
        (RGX, UNORM_INT16, 4),
        (DEPTH, UNORM_INT16, 2),
        (DEPTH, FLOAT, 4),
        (SRGB, UNORM_INT8, 3),
        (SRGBX, UNORM_INT8, 4),
        (SRGBA, UNORM_INT8, 4),
        (SBGRA, UNORM_INT8, 4),
    ];
    for (o, t, size) in expect {
        assert_eq!(fmt(o, t).element_size(), Some(size), "{o:#x} {t:#x}");
    }
    let invalid = [
        (RGB, UNORM_INT8),
        (RGB, FLOAT),
        (RGBX, UNORM_INT8),
        (BGRA, UNORM_INT16),
        (BGRA, FLOAT),
        (ARGB, HALF_FLOAT),
        (INTENSITY, SIGNED_INT8),
        (LUMINANCE, UNSIGNED_INT32),
        (DEPTH, UNORM_INT8),
        (DEPTH, HALF_FLOAT),
        (DEPTH, UNORM_INT24),
        (DEPTH_STENCIL, FLOAT),
        (DEPTH_STENCIL, UNORM_INT24),
        (SRGBA, UNORM_INT16),
        (SRGB, SNORM_INT8),
        (R, UNORM_SHORT_565),
        (RGBA, UNORM_SHORT_555),
        (RGB, UNORM_INT_101010_2),
        (R, 0),
        (0, UNORM_INT8),
        (u32::MAX, u32::MAX),
    ];
    for (o, t) in invalid {
        assert_eq!(fmt(o, t).element_size(), None, "{o:#x} {t:#x}");
        assert!(!fmt(o, t).is_valid());
        assert_eq!(fmt(o, t).channels(), None);
        assert_eq!(fmt(o, t).kind(), None);
    }
    // Every pair of the enums (and their neighbours) against the table.
    for o in 0x10af..=0x10c4 {
        for t in 0x10cf..=0x10e1 {
            let f = fmt(o, t);
            assert_eq!(f.is_valid(), ref_valid(o, t), "{o:#x} {t:#x}");
            if let Some(size) = f.element_size() {
                let expect = if ref_packed(t) {
                    ref_channel_bytes(t)
                } else {
                    ref_stored(o).len() * ref_channel_bytes(t)
                };
                assert_eq!(size, expect, "{o:#x} {t:#x}");
                let k = match t {
                    data_type::SIGNED_INT8 | data_type::SIGNED_INT16 | data_type::SIGNED_INT32 => kind::INT,
                    data_type::UNSIGNED_INT8 | data_type::UNSIGNED_INT16 | data_type::UNSIGNED_INT32 => kind::UINT,
                    _ => kind::FLOAT,
                };
                assert_eq!(f.kind(), Some(k), "{o:#x} {t:#x}");
            }
        }
    }
    assert_eq!(fmt(RX, FLOAT).channels(), Some(1));
    assert_eq!(fmt(RGX, FLOAT).channels(), Some(2));
    assert_eq!(fmt(SRGB, UNORM_INT8).channels(), Some(3));
    assert_eq!(fmt(RGBX, UNORM_SHORT_565).channels(), Some(4));
    assert_eq!(fmt(R, SIGNED_INT16).kind(), Some(kind::INT));
    assert_eq!(fmt(RGBA, UNSIGNED_INT8).kind(), Some(kind::UINT));
    assert_eq!(fmt(RGBA, SNORM_INT8).kind(), Some(kind::FLOAT));
    assert!(fmt(RGBA, SIGNED_INT32).is_integer() && fmt(R, UNSIGNED_INT8).is_integer());
    assert!(!fmt(RGBA, UNORM_INT8).is_integer() && !fmt(R, FLOAT).is_integer());
    assert!(fmt(SBGRA, UNORM_INT8).is_srgb() && !fmt(BGRA, UNORM_INT8).is_srgb());
    assert!(fmt(DEPTH, FLOAT).is_depth());
}

#[test]
fn supported_lists() {
    use data_type::*;
    use image_type::*;
    use order::*;
    const READ_WRITE: u64 = 1;
    const WRITE_ONLY: u64 = 2;
    const READ_ONLY: u64 = 4;
    const KERNEL_READ_AND_WRITE: u64 = 1 << 12;
    let plain = [
        UNORM_INT8,
        UNORM_INT16,
        SNORM_INT8,
        SNORM_INT16,
        SIGNED_INT8,
        SIGNED_INT16,
        SIGNED_INT32,
        UNSIGNED_INT8,
        UNSIGNED_INT16,
        UNSIGNED_INT32,
        HALF_FLOAT,
        FLOAT,
    ];
    let mut minimum: Vec<Format> = Vec::new();
    for o in [R, RG, RGBA] {
        minimum.extend(plain.iter().map(|&t| fmt(o, t)));
    }
    minimum.push(fmt(BGRA, UNORM_INT8));
    minimum.push(fmt(SRGBA, UNORM_INT8));
    let types = [IMAGE1D, IMAGE1D_BUFFER, IMAGE1D_ARRAY, IMAGE2D, IMAGE2D_ARRAY, IMAGE3D];
    for ty in types {
        let list = supported_formats(ty, READ_ONLY);
        for access in [
            READ_WRITE,
            WRITE_ONLY,
            KERNEL_READ_AND_WRITE,
            READ_ONLY | KERNEL_READ_AND_WRITE,
        ] {
            assert_eq!(supported_formats(ty, access), list);
        }
        for f in list {
            assert!(f.is_valid(), "{f:?}");
        }
        for (i, f) in list.iter().enumerate() {
            assert!(!list[i + 1..].contains(f), "{f:?} twice");
        }
        let depth = list.iter().any(|f| f.order == DEPTH);
        assert_eq!(depth, matches!(ty, IMAGE2D | IMAGE2D_ARRAY), "{ty:#x}");
        let srgb = list.iter().any(|f| f.is_srgb());
        assert_eq!(srgb, ty != IMAGE1D_BUFFER, "{ty:#x}");
        for f in &minimum {
            if ty != IMAGE1D_BUFFER || !f.is_srgb() {
                assert!(list.contains(f), "{ty:#x} lacks {f:?}");
            }
        }
        // The minimum list comes first.
        if ty != IMAGE1D_BUFFER {
            assert_eq!(&list[..minimum.len()], &minimum[..]);
        }
    }
    // The 2D list is every valid format but those of the orders with an
    // ignored channel (Rx, RGx, RGBx, sRGBx), whose layout the spec and the
    // conformance suite disagree on.
    let (mut valid, mut offered) = (0, 0);
    for o in 0x10b0..=0x10c3 {
        for t in 0x10d0..=0x10e0 {
            let ignored_channel = matches!(o, RX | RGX | RGBX | SRGBX) || t == data_type::UNORM_INT_101010_2;
            if fmt(o, t).is_valid() {
                valid += 1;
                offered += usize::from(!ignored_channel);
                assert_eq!(
                    supported_formats(IMAGE2D, READ_ONLY).contains(&fmt(o, t)),
                    !ignored_channel,
                    "{o:#x}/{t:#x}"
                );
            }
        }
    }
    assert_eq!(valid, 121);
    assert_eq!(supported_formats(IMAGE2D_ARRAY, READ_ONLY).len(), offered);
    assert!(supported_formats(IMAGE2D, READ_ONLY).contains(&fmt(DEPTH, UNORM_INT16)));
    assert!(supported_formats(IMAGE2D, READ_ONLY).contains(&fmt(DEPTH, FLOAT)));
    assert!(supported_formats(0x10f0, READ_ONLY).is_empty());
    assert!(supported_formats(0, READ_ONLY).is_empty());
}

#[test]
fn spirv_enums() {
    use data_type::*;
    use order::*;
    let orders = [
        (R, 0),
        (A, 1),
        (RG, 2),
        (RA, 3),
        (RGB, 4),
        (RGBA, 5),
        (BGRA, 6),
        (ARGB, 7),
        (INTENSITY, 8),
        (LUMINANCE, 9),
        (RX, 10),
        (RGX, 11),
        (RGBX, 12),
        (DEPTH, 13),
        (DEPTH_STENCIL, 14),
        (SRGB, 15),
        (SRGBX, 16),
        (SRGBA, 17),
        (SBGRA, 18),
        (ABGR, 19),
    ];
    for (o, n) in orders {
        assert_eq!(spirv_channel_order(o), Some(n));
    }
    let types = [
        (SNORM_INT8, 0),
        (SNORM_INT16, 1),
        (UNORM_INT8, 2),
        (UNORM_INT16, 3),
        (UNORM_SHORT_565, 4),
        (UNORM_SHORT_555, 5),
        (UNORM_INT_101010, 6),
        (SIGNED_INT8, 7),
        (SIGNED_INT16, 8),
        (SIGNED_INT32, 9),
        (UNSIGNED_INT8, 10),
        (UNSIGNED_INT16, 11),
        (UNSIGNED_INT32, 12),
        (HALF_FLOAT, 13),
        (FLOAT, 14),
        (UNORM_INT24, 15),
        (UNORM_INT_101010_2, 16),
    ];
    for (t, n) in types {
        assert_eq!(spirv_channel_data_type(t), Some(n));
    }
    for bad in [0, 0x10af, 0x10c4, u32::MAX] {
        assert_eq!(spirv_channel_order(bad), None);
    }
    for bad in [0, 0x10cf, 0x10e1, u32::MAX] {
        assert_eq!(spirv_channel_data_type(bad), None);
    }
}

// ---------------------------------------------------------------------------
// Conversions.

#[test]
fn unorm_conversions_exact() {
    use data_type::*;
    let f8 = fmt(order::R, UNORM_INT8);
    for c in 0..=255u8 {
        let v = decodef(f8, &[c])[0];
        assert_eq!(v, c as f32 / 255.0f32);
        assert_eq!(encodef(f8, [v, 0.0, 0.0, 0.0]), [c], "{c}");
    }
    assert_eq!(decodef(f8, &[0]), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(decodef(f8, &[255])[0], 1.0);
    let f16 = fmt(order::R, UNORM_INT16);
    for c in 0..=65535u16 {
        let v = decodef(f16, &c.to_ne_bytes())[0];
        assert_eq!(v, c as f32 / 65535.0f32);
        assert_eq!(encodef(f16, [v, 0.0, 0.0, 0.0]), c.to_ne_bytes(), "{c}");
    }
    // Round to nearest even of the float product x * 255.0f: 127.5 -> 128,
    // and every exact .5 product found near (k + 0.5) / 255 goes to the
    // even neighbour.
    assert_eq!(encodef(f8, [0.5, 0.0, 0.0, 0.0]), [128]);
    assert_eq!(encodef(f16, [0.5, 0.0, 0.0, 0.0]), 32768u16.to_ne_bytes());
    let mut ties = 0;
    for k in 0..255u32 {
        let mid = ((f64::from(k) + 0.5) / 255.0) as f32;
        for x in [
            f32::from_bits(mid.to_bits() - 1),
            mid,
            f32::from_bits(mid.to_bits() + 1),
        ] {
            let p = x * 255.0f32;
            if p == k as f32 + 0.5 {
                ties += 1;
                let even = if k % 2 == 0 { k } else { k + 1 };
                assert_eq!(encodef(f8, [x, 0.0, 0.0, 0.0]), [even as u8], "tie at {k}.5");
            }
        }
    }
    assert!(ties > 10, "{ties} ties");
    // A product just below or above .5 rounds to nearest.
    let below = f32::from_bits((0.5f32 / 255.0).to_bits() - 2);
    assert!(below * 255.0 < 0.5);
    assert_eq!(encodef(f8, [below, 0.0, 0.0, 0.0]), [0]);
    // Saturation, infinities and NaN (implementation-defined: 0).
    for (x, e) in [
        (-0.1, 0u8),
        (-1e30, 0),
        (1.5, 255),
        (1e30, 255),
        (f32::INFINITY, 255),
        (f32::NEG_INFINITY, 0),
        (f32::NAN, 0),
        (-f32::NAN, 0),
    ] {
        assert_eq!(encodef(f8, [x, 0.0, 0.0, 0.0]), [e], "{x}");
    }
    assert_eq!(encodef(f16, [2.0, 0.0, 0.0, 0.0]), 65535u16.to_ne_bytes());
}

#[test]
fn snorm_conversions_exact() {
    use data_type::*;
    let f8 = fmt(order::R, SNORM_INT8);
    for c in -128..=127i8 {
        let v = decodef(f8, &[c as u8])[0];
        assert_eq!(v, (c as f32 / 127.0f32).max(-1.0));
        if c > -128 {
            assert_eq!(encodef(f8, [v, 0.0, 0.0, 0.0]), [c as u8], "{c}");
        }
    }
    assert_eq!(decodef(f8, &[0x80])[0], -1.0);
    assert_eq!(decodef(f8, &[0x81])[0], -1.0);
    assert_eq!(decodef(f8, &[0])[0], 0.0);
    assert_eq!(decodef(f8, &[127])[0], 1.0);
    // f(x) = max(-128, min(127, 127 x)), rounded to nearest even.
    for (x, e) in [
        (-1.0f32, -127i8),
        (-2.0, -128),
        (-1.004, -128),
        (2.0, 127),
        (0.5, 64),
        (-0.5, -64),
        (f32::NAN, 0),
        (f32::NEG_INFINITY, -128),
    ] {
        assert_eq!(encodef(f8, [x, 0.0, 0.0, 0.0]), [e as u8], "{x}");
    }
    let f16 = fmt(order::R, SNORM_INT16);
    for c in i16::MIN..=i16::MAX {
        let v = decodef(f16, &c.to_ne_bytes())[0];
        assert_eq!(v, (c as f32 / 32767.0f32).max(-1.0));
        if c > i16::MIN {
            assert_eq!(encodef(f16, [v, 0.0, 0.0, 0.0]), c.to_ne_bytes(), "{c}");
        }
    }
    assert_eq!(decodef(f16, &i16::MIN.to_ne_bytes())[0], -1.0);
    assert_eq!(encodef(f16, [-3.0, 0.0, 0.0, 0.0]), i16::MIN.to_ne_bytes());
    assert_eq!(encodef(f16, [0.5, 0.0, 0.0, 0.0]), 16384i16.to_ne_bytes()); // 16383.5 -> even
}

#[test]
fn half_conversions() {
    let f = fmt(order::R, data_type::HALF_FLOAT);
    let h = |x: f32| encodef(f, [x, 0.0, 0.0, 0.0]);
    let bits = |b: u16| b.to_ne_bytes().to_vec();
    // Exactly between two halves: to the even one.
    assert_eq!(h(1.0 + 2f32.powi(-11)), bits(0x3c00));
    assert_eq!(h(1.0 + 3.0 * 2f32.powi(-11)), bits(0x3c02));
    // Just past the middle: up.
    assert_eq!(h(1.0 + 2f32.powi(-11) + 2f32.powi(-20)), bits(0x3c01));
    assert_eq!(h(65504.0), bits(0x7bff));
    assert_eq!(h(65519.0), bits(0x7bff));
    assert_eq!(h(65520.0), bits(0x7c00));
    assert_eq!(h(-1e10), bits(0xfc00));
    assert_eq!(h(2f32.powi(-24)), bits(0x0001));
    assert_eq!(h(2f32.powi(-25)), bits(0x0000)); // tie to even 0
    assert_eq!(h(3.0 * 2f32.powi(-25)), bits(0x0002));
    let nan = u16::from_ne_bytes(h(f32::NAN).try_into().unwrap());
    assert!(nan & 0x7c00 == 0x7c00 && nan & 0x3ff != 0);
    // Reads are exact, every half.
    for b in 0..=u16::MAX {
        let v = decodef(f, &b.to_ne_bytes())[0];
        let e = half_to_f32(b);
        assert!(v.to_bits() == e.to_bits() || (v.is_nan() && e.is_nan()), "{b:#x}");
        if !e.is_nan() {
            assert_eq!(h(v), bits(b));
        }
    }
}

#[test]
fn float_bits_kept() {
    let f = fmt(order::R, data_type::FLOAT);
    for b in [
        0x7fc0_1234u32,
        0x7f80_0001,
        0x0000_0001,
        0x8000_0000,
        0xff80_0000,
        0x3f80_0000,
    ] {
        assert_eq!(encode_texel(f, kind::FLOAT, &[b, 0, 0, 0]).unwrap(), b.to_ne_bytes());
        assert_eq!(decode1(f, &b.to_ne_bytes(), kind::FLOAT)[0], b);
    }
}

#[test]
fn srgb_conversions() {
    let f = fmt(order::SRGBA, data_type::UNORM_INT8);
    // Reads: the spec's accuracy, |x - 255 * c_sRGB(y)| <= 0.5, for every x.
    for x in 0..=255u8 {
        let y = decodef(f, &[x, x, x, x]);
        for (c, &v) in y[..3].iter().enumerate() {
            let back = 255.0 * ref_c_srgb(f64::from(v));
            assert!((f64::from(x) - back).abs() <= 0.5, "{x} -> {v} (c{c})");
            assert!((f64::from(v) - ref_c_linear(f64::from(x) / 255.0)).abs() < 1e-6);
        }
        // Alpha is linear.
        assert_eq!(y[3], x as f32 / 255.0);
    }
    assert_eq!(decodef(f, &[0, 255, 0, 255]), [0.0, 1.0, 0.0, 1.0]);
    // Writes: known values, and the spec's accuracy (0.6) on a sweep.
    let w = |y: f32| encodef(f, [y, y, y, 0.25])[0];
    assert_eq!(w(0.0), 0);
    assert_eq!(w(1.0), 255);
    assert_eq!(w(0.5), 188); // 255 * 0.735357 = 187.52
    assert_eq!(w(0.2), 124); // 255 * 0.484529 = 123.55
    assert_eq!(w(0.002), 7); // 12.92 * 0.002 * 255 = 6.59
    assert_eq!(w(0.0031308), 10); // 10.2
    assert_eq!(w(2.0), 255);
    assert_eq!(w(-0.5), 0);
    assert_eq!(w(f32::NAN), 0);
    assert_eq!(w(f32::INFINITY), 255);
    assert_eq!(encodef(f, [0.5, 0.5, 0.5, 0.25])[3], 64); // alpha linear: 63.75
    for i in 0..=2000 {
        let y = i as f32 / 1900.0;
        let x = f64::from(w(y));
        assert!((x - 255.0 * ref_c_srgb(f64::from(y))).abs() <= 0.5, "{y}");
    }
    // The orders' channels: sBGRA swaps, sRGBx ignores its fourth byte,
    // sRGB is three bytes.
    let bgra = fmt(order::SBGRA, data_type::UNORM_INT8);
    assert_eq!(encodef(bgra, [1.0, 0.5, 0.0, 0.5]), [0, 188, 255, 128]);
    let rgbx = fmt(order::SRGBX, data_type::UNORM_INT8);
    assert_eq!(decodef(rgbx, &[255, 0, 255, 17]), [1.0, 0.0, 1.0, 1.0]);
    let rgb = fmt(order::SRGB, data_type::UNORM_INT8);
    assert_eq!(encodef(rgb, [0.5, 1.0, 0.0, 0.0]), [188, 255, 0]);
    assert_eq!(decodef(rgb, &[255, 255, 0])[3], 1.0);
}

#[test]
fn integer_conversions() {
    use data_type::*;
    let i = |t: u32, v: [i32; 4]| encode_texel(fmt(order::RGBA, t), kind::INT, &v.map(|v| v as u32)).unwrap();
    let u = |t: u32, v: [u32; 4]| encode_texel(fmt(order::RGBA, t), kind::UINT, &v).unwrap();
    assert_eq!(i(SIGNED_INT8, [300, -300, 127, -128]), [127, 0x80, 127, 0x80]);
    assert_eq!(i(SIGNED_INT8, [i32::MAX, i32::MIN, 5, -5]), [127, 0x80, 5, 0xfb]);
    let s16: Vec<u8> = [32767i16, -32768, 1234, -1]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    assert_eq!(i(SIGNED_INT16, [40000, -40000, 1234, -1]), s16);
    let s32: Vec<u8> = [i32::MIN, i32::MAX, 0, -7]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    assert_eq!(i(SIGNED_INT32, [i32::MIN, i32::MAX, 0, -7]), s32);
    assert_eq!(u(UNSIGNED_INT8, [300, 255, 0, u32::MAX]), [255, 255, 0, 255]);
    let u16s: Vec<u8> = [65535u16, 65535, 7, 0].iter().flat_map(|v| v.to_ne_bytes()).collect();
    assert_eq!(u(UNSIGNED_INT16, [70000, u32::MAX, 7, 0]), u16s);
    let u32s: Vec<u8> = [u32::MAX, 0, 1, 0x8000_0000]
        .iter()
        .flat_map(|v| v.to_ne_bytes())
        .collect();
    assert_eq!(u(UNSIGNED_INT32, [u32::MAX, 0, 1, 0x8000_0000]), u32s);
    // Reads sign- or zero-extend.
    let r = |t: u32, b: &[u8], k: u32| decode1(fmt(order::R, t), b, k)[0];
    assert_eq!(r(SIGNED_INT8, &[0x80], kind::INT) as i32, -128);
    assert_eq!(r(SIGNED_INT8, &[0x7f], kind::INT) as i32, 127);
    assert_eq!(r(SIGNED_INT16, &(-2i16).to_ne_bytes(), kind::INT) as i32, -2);
    assert_eq!(r(UNSIGNED_INT8, &[0xff], kind::UINT), 255);
    assert_eq!(r(UNSIGNED_INT16, &[0xff, 0xff], kind::UINT), 65535);
    assert_eq!(r(UNSIGNED_INT32, &u32::MAX.to_ne_bytes(), kind::UINT), u32::MAX);
    // Missing components: 0, alpha 1 (as integers).
    assert_eq!(
        decode1(fmt(order::RG, SIGNED_INT8), &[1, 0xff], kind::INT),
        [1, -1i32 as u32, 0, 1]
    );
}

#[test]
fn packed_conversions() {
    use data_type::*;
    let f565 = fmt(order::RGB, UNORM_SHORT_565);
    let v: u16 = (16 << 11) | (32 << 5) | 1; // R 16, G 32, B 1
    assert_eq!(
        decodef(f565, &v.to_ne_bytes()),
        [16.0 / 31.0, 32.0 / 63.0, 1.0 / 31.0, 1.0]
    );
    assert_eq!(encodef(f565, [1.0, 0.0, 1.0, 0.0]), 0xf81fu16.to_ne_bytes());
    assert_eq!(
        encodef(f565, [16.0 / 31.0, 32.0 / 63.0, 1.0 / 31.0, 0.0]),
        v.to_ne_bytes()
    );
    let f555 = fmt(order::RGBX, UNORM_SHORT_555);
    assert_eq!(encodef(f555, [1.0, 1.0, 1.0, 1.0]), 0x7fffu16.to_ne_bytes()); // bit 15 stays 0
    assert_eq!(decodef(f555, &0xfc00u16.to_ne_bytes()), [1.0, 0.0, 0.0, 1.0]); // bit 15 ignored
    let f1010 = fmt(order::RGB, UNORM_INT_101010);
    assert_eq!(encodef(f1010, [1.0, 0.0, 1.0, 1.0]), 0x3ff0_03ffu32.to_ne_bytes());
    assert_eq!(decodef(f1010, &0xffff_ffffu32.to_ne_bytes()), [1.0; 4]);
    assert_eq!(decodef(f1010, &(512u32 << 10).to_ne_bytes())[1], 512.0 / 1023.0);
    let f2 = fmt(order::RGBA, UNORM_INT_101010_2);
    assert_eq!(
        encodef(f2, [1.0, 0.0, 0.0, 1.0 / 3.0]),
        (0x3ffu32 << 22 | 1).to_ne_bytes()
    );
    assert_eq!(
        decodef(f2, &(0x3ffu32 << 2 | 2).to_ne_bytes()),
        [0.0, 0.0, 1.0, 2.0 / 3.0]
    );
    // 31 * 0.5 = 15.5 -> 16 (even).
    assert_eq!(encodef(f565, [0.5, 0.0, 0.0, 0.0]), (16u16 << 11).to_ne_bytes());
}

#[test]
fn channel_order_table() {
    use data_type::UNORM_INT8 as U8;
    use order::*;
    // Stored bytes 51, 102, 153, 204 (0.2, 0.4, 0.6, 0.8).
    let b = [51u8, 102, 153, 204];
    let (p, q, r, s) = (0.2f32, 0.4f32, 0.6f32, 0.8f32);
    let cases: [(u32, [f32; 4]); 12] = [
        (R, [p, 0.0, 0.0, 1.0]),
        (RX, [p, 0.0, 0.0, 1.0]),
        (A, [0.0, 0.0, 0.0, p]),
        (RG, [p, q, 0.0, 1.0]),
        (RGX, [p, q, 0.0, 1.0]),
        (RA, [p, 0.0, 0.0, q]),
        (RGBA, [p, q, r, s]),
        (BGRA, [r, q, p, s]),
        (ARGB, [q, r, s, p]),
        (ABGR, [s, r, q, p]),
        (INTENSITY, [p, p, p, p]),
        (LUMINANCE, [p, p, p, 1.0]),
    ];
    for (o, e) in cases {
        let f = fmt(o, U8);
        let n = f.element_size().unwrap();
        assert_eq!(decodef(f, &b[..n]), e, "{o:#x}");
        // Writes put each component back where it came from.
        assert_eq!(encodef(f, e), &b[..n], "{o:#x}");
    }
    // Writes of the replicated orders store R; A stores alpha.
    assert_eq!(encodef(fmt(INTENSITY, U8), [p, 0.0, 0.0, 0.0]), [51]);
    assert_eq!(encodef(fmt(LUMINANCE, U8), [p, q, r, s]), [51]);
    assert_eq!(encodef(fmt(A, U8), [p, q, r, s]), [204]);
    // Depth: the depth in component 0.
    let d = fmt(DEPTH, data_type::UNORM_INT16);
    assert_eq!(decodef(d, &65535u16.to_ne_bytes())[0], 1.0);
    assert_eq!(encodef(d, [0.5, 0.0, 0.0, 0.0]), 32768u16.to_ne_bytes()); // 32767.5 -> even
    let df = fmt(DEPTH, data_type::FLOAT);
    assert_eq!(decodef(df, &0.375f32.to_ne_bytes())[0], 0.375);
}

#[test]
fn fill_colors() {
    use data_type::*;
    use order::*;
    let floats = |v: [f32; 4]| -> [u8; 16] {
        let mut c = [0u8; 16];
        for (i, x) in v.iter().enumerate() {
            c[i * 4..i * 4 + 4].copy_from_slice(&x.to_ne_bytes());
        }
        c
    };
    let ints = |v: [i32; 4]| floats(v.map(|x| f32::from_bits(x as u32)));
    assert_eq!(
        encode_fill(fmt(RGBA, UNORM_INT8), &floats([0.5, 1.0, 0.0, 2.0])),
        [128, 255, 0, 255]
    );
    assert_eq!(
        encode_fill(fmt(BGRA, UNORM_INT8), &floats([0.5, 1.0, 0.0, 2.0])),
        [0, 255, 128, 255]
    );
    assert_eq!(encode_fill(fmt(R, UNORM_INT8), &floats([0.2, 1.0, 1.0, 1.0])), [51]);
    assert_eq!(
        encode_fill(fmt(SRGBA, UNORM_INT8), &floats([0.5, 0.5, 0.5, 0.5])),
        [188, 188, 188, 128]
    );
    assert_eq!(
        encode_fill(fmt(RGBA, SIGNED_INT8), &ints([300, -300, 5, -5])),
        [127, 0x80, 5, 0xfb]
    );
    assert_eq!(
        encode_fill(fmt(R, UNSIGNED_INT16), &ints([70000, 0, 0, 0])),
        65535u16.to_ne_bytes()
    );
    assert_eq!(encode_fill(fmt(R, UNSIGNED_INT8), &ints([-1, 0, 0, 0])), [255]); // as uint: 0xffffffff
    assert_eq!(
        encode_fill(fmt(DEPTH, FLOAT), &floats([0.25, 9.0, 9.0, 9.0])),
        0.25f32.to_ne_bytes()
    );
    assert_eq!(
        encode_fill(fmt(DEPTH, UNORM_INT16), &floats([1.0, 0.0, 0.0, 0.0])),
        65535u16.to_ne_bytes()
    );
    assert_eq!(
        encode_fill(fmt(R, HALF_FLOAT), &floats([1.5, 0.0, 0.0, 0.0])),
        0x3e00u16.to_ne_bytes()
    );
    let fl = floats([1.0, -2.0, 3.5, f32::MAX]);
    assert_eq!(encode_fill(fmt(RGBA, FLOAT), &fl), fl);
    assert!(encode_fill(fmt(RGB, UNORM_INT8), &fl).is_empty());
}

#[test]
fn kind_mismatches_are_deterministic() {
    use data_type::*;
    let r = |t: u32, b: &[u8], k: u32| decode1(fmt(order::R, t), b, k)[0];
    assert_eq!(f32::from_bits(r(UNSIGNED_INT8, &[200], kind::FLOAT)), 200.0);
    assert_eq!(f32::from_bits(r(SIGNED_INT8, &[0xff], kind::FLOAT)), -1.0);
    assert_eq!(r(FLOAT, &(-3.5f32).to_ne_bytes(), kind::UINT), 0);
    assert_eq!(r(FLOAT, &2.5f32.to_ne_bytes(), kind::INT), 2);
    assert_eq!(r(FLOAT, &f32::NAN.to_ne_bytes(), kind::INT), 0);
    assert_eq!(r(FLOAT, &1e20f32.to_ne_bytes(), kind::INT), i32::MAX as u32);
    assert_eq!(r(UNSIGNED_INT32, &u32::MAX.to_ne_bytes(), kind::INT), i32::MAX as u32);
    assert_eq!(r(SIGNED_INT32, &(-5i32).to_ne_bytes(), kind::UINT), 0);
    assert_eq!(r(UNORM_INT8, &[255], kind::UINT), 1);
    // An unknown kind reads as FLOAT.
    assert_eq!(f32::from_bits(r(UNORM_INT8, &[255], 7)), 1.0);
    let w = |t: u32, k: u32, v: u32| encode_texel(fmt(order::R, t), k, &[v, 0, 0, 0]).unwrap();
    assert_eq!(w(SIGNED_INT8, kind::FLOAT, 3.7f32.to_bits()), [4]);
    assert_eq!(w(SIGNED_INT8, kind::FLOAT, (-1000.0f32).to_bits()), [0x80]);
    assert_eq!(w(UNSIGNED_INT8, kind::INT, -5i32 as u32), [0]);
    assert_eq!(w(SIGNED_INT16, kind::UINT, u32::MAX), 32767i16.to_ne_bytes());
    assert_eq!(w(FLOAT, kind::UINT, 7), 7.0f32.to_ne_bytes());
    assert_eq!(w(FLOAT, kind::INT, -7i32 as u32), (-7.0f32).to_ne_bytes());
    assert_eq!(w(UNORM_INT8, kind::UINT, 1), [255]);
}

// ---------------------------------------------------------------------------
// Addressing and filtering, worked out by hand.

/// A 1D FLOAT R image holding 10, 20, 30, 40.
fn ramp() -> Img {
    let mut img = Img::new(fmt(order::R, data_type::FLOAT), image_type::IMAGE1D, [4, 1, 1, 1]);
    for x in 0..4 {
        img.set([x, 0, 0], &(10.0 * (x + 1) as f32).to_ne_bytes());
    }
    img
}

#[test]
fn nearest_addressing_by_hand() {
    let mut img = ramp();
    let r = |img: &mut Img, smp: u32, u: f32| readf(img, smp | NEAREST, [u, 0.0, 0.0, 0.0]);
    let at = |v: f32| [v, 0.0, 0.0, 1.0];
    // CLAMP: the border, (0, 0, 0, 1) for R, outside [0, 4).
    assert_eq!(r(&mut img, CLAMP, -0.5), at(0.0));
    assert_eq!(r(&mut img, CLAMP, -0.0), at(10.0));
    assert_eq!(r(&mut img, CLAMP, 3.999), at(40.0));
    assert_eq!(r(&mut img, CLAMP, 4.0), at(0.0));
    assert_eq!(r(&mut img, CLAMP | NORM, 1.0), at(0.0));
    assert_eq!(r(&mut img, CLAMP | NORM, 0.99), at(40.0));
    assert_eq!(r(&mut img, CLAMP | NORM, -0.01), at(0.0));
    // CLAMP_TO_EDGE.
    assert_eq!(r(&mut img, EDGE, -5.0), at(10.0));
    assert_eq!(r(&mut img, EDGE, 100.0), at(40.0));
    assert_eq!(r(&mut img, EDGE | NORM, 0.5), at(30.0));
    assert_eq!(r(&mut img, EDGE | NORM, 0.26), at(20.0));
    // REPEAT: u = (s - floor(s)) * 4.
    // s = -1e-9: s - floor(s) rounds to 1.0, u = 4 > w_t - 1 wraps to 0.
    for (s, e) in [
        (0.0, 10.0),
        (1.25, 20.0),
        (-0.25, 40.0),
        (-1.0, 10.0),
        (2.0, 10.0),
        (-0.74, 20.0),
        (3.99, 40.0),
        (-1e-9, 10.0),
    ] {
        assert_eq!(r(&mut img, REPEAT | NORM, s), at(e), "repeat {s}");
    }
    // MIRRORED_REPEAT: u = |s - 2 rint(s / 2)| * 4, at most index 3.
    for (s, e) in [
        (1.25, 40.0),
        (-0.25, 20.0),
        (1.0, 40.0),
        (2.6, 30.0),
        (-1.1, 40.0),
        (0.1, 10.0),
        (1.9, 10.0),
    ] {
        assert_eq!(r(&mut img, MIRROR | NORM, s), at(e), "mirror {s}");
    }
    // Sampler-less integer reads, and the sampler-less NONE float read.
    for x in 0..4 {
        assert_eq!(
            readi(&mut img, SAMPLERLESS, kind::FLOAT, [x, 0, 0, 0])[0],
            (10.0 * (x + 1) as f32).to_bits()
        );
    }
    assert_eq!(r(&mut img, NONE, 2.7), at(30.0));
}

#[test]
fn linear_filtering_by_hand() {
    let mut img = ramp();
    let r = |img: &mut Img, smp: u32, u: f32| readf(img, smp | LINEAR, [u, 0.0, 0.0, 0.0])[0];
    // i0 = floor(u - 0.5), a = frac(u - 0.5).
    assert_eq!(r(&mut img, EDGE, 1.0), 15.0);
    assert_eq!(r(&mut img, EDGE, 1.25), 17.5);
    assert_eq!(r(&mut img, EDGE, 0.5), 10.0);
    assert_eq!(r(&mut img, EDGE, 0.25), 10.0); // both taps clamp to texel 0
    assert_eq!(r(&mut img, EDGE, 3.75), 40.0);
    assert_eq!(r(&mut img, NONE, 2.0), 25.0);
    // CLAMP mixes in the border: 0.75 * T0 + 0.25 * border.
    assert_eq!(r(&mut img, CLAMP, 0.25), 7.5);
    assert_eq!(r(&mut img, CLAMP, 3.75), 30.0);
    assert_eq!(r(&mut img, CLAMP, -0.5), 0.0);
    // Alpha: border alpha 1 and texel alpha 1.
    assert_eq!(readf(&mut img, CLAMP | LINEAR, [0.25, 0.0, 0.0, 0.0])[3], 1.0);
    // REPEAT wraps the left tap: s = 0 -> u = 0, taps 3 and 0.
    assert_eq!(r(&mut img, REPEAT | NORM, 0.0), 25.0);
    assert_eq!(r(&mut img, REPEAT | NORM, 1.0), 25.0);
    assert_eq!(r(&mut img, REPEAT | NORM, 0.25), 15.0);
    assert_eq!(r(&mut img, REPEAT | NORM, -1e-9), 25.0); // u = 4: taps 3 and 4 - 4
                                                         // MIRRORED_REPEAT clamps both taps to the image.
    assert_eq!(r(&mut img, MIRROR | NORM, 0.0), 10.0);
    assert_eq!(r(&mut img, MIRROR | NORM, 1.0), 40.0);
    assert_eq!(r(&mut img, MIRROR | NORM, -0.25), 15.0); // u = 1
    assert_eq!(r(&mut img, MIRROR | NORM, 1.25), 35.0); // u = 3

    // 2D: [[1, 2], [3, 4]] (rows y = 0, 1).
    let mut img = Img::new(fmt(order::R, data_type::FLOAT), image_type::IMAGE2D, [2, 2, 1, 1]);
    for (i, v) in [1.0f32, 2.0, 3.0, 4.0].iter().enumerate() {
        img.set([i % 2, i / 2, 0], &v.to_ne_bytes());
    }
    let r2 = |img: &mut Img, smp: u32, u: f32, v: f32| readf(img, smp | LINEAR, [u, v, 0.0, 0.0])[0];
    assert_eq!(r2(&mut img, EDGE, 1.0, 1.0), 2.5);
    // a = 0.25, b = 0.75: 0.75*0.25*1 + 0.25*0.25*2 + 0.75*0.75*3 + 0.25*0.75*4.
    assert_eq!(r2(&mut img, EDGE, 0.75, 1.25), 2.75);
    assert_eq!(r2(&mut img, EDGE | NORM, 0.5, 0.5), 2.5);
    assert_eq!(r2(&mut img, CLAMP, 0.5, 0.0), 0.5); // half of row 0's texel 1, half border
    assert_eq!(r2(&mut img, EDGE, 0.5, 0.5), 1.0);
    assert_eq!(r2(&mut img, NONE, 1.5, 0.5), 2.0);

    // 3D: 2x2x2 with z = 1 holding 10 more; the center is the mean.
    let mut img = Img::new(fmt(order::R, data_type::FLOAT), image_type::IMAGE3D, [2, 2, 2, 1]);
    for z in 0..2 {
        for y in 0..2 {
            for x in 0..2 {
                img.set([x, y, z], &((1 + x + 2 * y + 10 * z) as f32).to_ne_bytes());
            }
        }
    }
    let r3 = |img: &mut Img, c: [f32; 4]| readf(img, EDGE | LINEAR, c)[0];
    assert_eq!(r3(&mut img, [1.0, 1.0, 1.0, 0.0]), 7.5);
    assert_eq!(r3(&mut img, [1.0, 1.0, 0.5, 0.0]), 2.5);
    assert_eq!(r3(&mut img, [1.0, 1.0, 1.25, 0.0]), 2.5 + 7.5);
    assert_eq!(r3(&mut img, [0.5, 0.5, 1.5, 0.0]), 11.0);
}

#[test]
fn repeat_linear_wraps_right_tap() {
    let mut img = ramp();
    // s = -0.125: u = 0.875 * 4 = 3.5, i0 = 3, i1 = 4 -> 0, a = 0.
    assert_eq!(
        readf(&mut img, REPEAT | NORM | LINEAR, [-0.125, 0.0, 0.0, 0.0])[0],
        40.0
    );
    // s = 0.9375: u = 3.75, a = 0.25: 0.75 * 40 + 0.25 * 10.
    assert_eq!(
        readf(&mut img, REPEAT | NORM | LINEAR, [0.9375, 0.0, 0.0, 0.0])[0],
        32.5
    );
}

#[test]
fn array_layers() {
    use image_type::*;
    // A 2D array of 1x1 layers 100, 200, 300; a 1D array of the same.
    for (ty, axis) in [(IMAGE2D_ARRAY, 2), (IMAGE1D_ARRAY, 1)] {
        let mut img = Img::new(fmt(order::R, data_type::FLOAT), ty, [1, 1, 1, 3]);
        for l in 0..3 {
            let mut pos = [0; 3];
            pos[axis] = l;
            img.set(pos, &(100.0 * (l + 1) as f32).to_ne_bytes());
        }
        let layer = |img: &mut Img, smp: u32, w: f32| {
            let mut c = [0.5, 0.5, 0.5, 0.0];
            c[axis] = w;
            readf(img, smp, c)[0]
        };
        // clamp(rint(w), 0, 2), rint to nearest even.
        for (w, e) in [
            (0.0, 100.0),
            (0.49, 100.0),
            (0.5, 100.0),
            (0.51, 200.0),
            (1.0, 200.0),
            (1.5, 300.0),
            (2.5, 300.0),
            (-3.0, 100.0),
            (1e9, 300.0),
            (f32::NAN, 100.0),
            (f32::INFINITY, 300.0),
        ] {
            for smp in [
                EDGE | NEAREST,
                CLAMP | NEAREST,
                NONE | NEAREST,
                EDGE | LINEAR,
                CLAMP | NORM | LINEAR,
            ] {
                assert_eq!(layer(&mut img, smp, w), e, "{ty:#x} w = {w} sampler {smp:#x}");
            }
        }
        // Never filtered across layers, and never normalized.
        assert_eq!(layer(&mut img, REPEAT | NORM | LINEAR, 0.6), 200.0);
        // Integer layers: clamped.
        for (w, e) in [(0, 100.0), (2, 300.0), (3, 300.0), (-1, 100.0), (i32::MIN, 100.0)] {
            let mut c = [0, 0, 0, 0];
            c[axis] = w;
            assert_eq!(f32::from_bits(readi(&mut img, SAMPLERLESS, kind::FLOAT, c)[0]), e);
        }
        // Writes address the layer; outside the layers, nothing.
        let mut c = [0, 0, 0, 0];
        c[axis] = 1;
        writef(&mut img, c, [7.0, 0.0, 0.0, 0.0]);
        assert_eq!(layer(&mut img, EDGE | NEAREST, 1.0), 7.0);
        let before = img.buf.clone();
        for w in [-1, 3, i32::MAX] {
            c[axis] = w;
            writef(&mut img, c, [9.0; 4]);
        }
        assert_eq!(img.buf, before);
    }
}

#[test]
fn border_colors() {
    // CLAMP outside the image gives the order's border; CLAMP_TO_EDGE the
    // edge texel.
    for &f in all_formats() {
        let mut img = Img::new(f, image_type::IMAGE2D, [2, 2, 1, 1]);
        img.fill_random(&mut Rng(7));
        let k = f.kind().unwrap();
        let expect = ref_border(f.order);
        for c in [[-0.5f32, 0.5, 0.0, 0.0], [0.5, 2.5, 0.0, 0.0], [1e30, -1e30, 0.0, 0.0]] {
            for filter in [NEAREST, LINEAR] {
                let got = as_f64(k, read(&mut img, CLAMP | filter, true, k, c.map(f32::to_bits)));
                assert_eq!(got, expect, "{f:?} {c:?}");
            }
        }
        let got = as_f64(k, readi(&mut img, CLAMP | NEAREST, k, [0, -1, 0, 0]));
        assert_eq!(got, expect, "{f:?}");
        let edge = as_f64(k, readi(&mut img, EDGE | NEAREST, k, [5, -1, 0, 0]));
        assert_eq!(edge, as_f64(k, readi(&mut img, SAMPLERLESS, k, [1, 0, 0, 0])), "{f:?}");
    }
}

#[test]
fn srgb_is_linearized_before_filtering() {
    let f = fmt(order::SRGBA, data_type::UNORM_INT8);
    let mut img = Img::new(f, image_type::IMAGE1D, [2, 1, 1, 1]);
    img.set([0, 0, 0], &[0, 0, 0, 0]);
    img.set([1, 0, 0], &[255, 255, 255, 255]);
    let v = readf(&mut img, EDGE | LINEAR, [1.0, 0.0, 0.0, 0.0]);
    // The mean of the linear values 0 and 1, not the linearized mean of
    // the encoded ones (0.214).
    assert_eq!(v, [0.5, 0.5, 0.5, 0.5]);
}

#[test]
fn writes_convert_and_stay_inside() {
    use image_type::*;
    let f = fmt(order::RGBA, data_type::UNORM_INT8);
    for (ty, shape) in [
        (IMAGE1D, [3, 1, 1, 1]),
        (IMAGE1D_BUFFER, [3, 1, 1, 1]),
        (IMAGE1D_ARRAY, [3, 1, 1, 2]),
        (IMAGE2D, [3, 2, 1, 1]),
        (IMAGE2D_ARRAY, [3, 2, 1, 2]),
        (IMAGE3D, [3, 2, 2, 1]),
    ] {
        let mut img = Img::new(f, ty, shape);
        let positions = img.positions();
        for (i, &p) in positions.iter().enumerate() {
            let c = [p[0] as i32, p[1] as i32, p[2] as i32, 0];
            writef(&mut img, c, [i as f32 / 255.0, 0.5, 2.0, -1.0]);
        }
        for (i, &p) in positions.iter().enumerate() {
            assert_eq!(img.texel(p), [i as u8, 128, 255, 0], "{ty:#x} {p:?}");
        }
        let before = img.buf.clone();
        let dims = img.dims + usize::from(img.layer_axis.is_some());
        for a in 0..dims {
            for bad in [-1, img.n[a] as i32, i32::MIN, i32::MAX] {
                let mut c = [0; 4];
                c[a] = bad;
                writef(&mut img, c, [1.0; 4]);
                write(&mut img, kind::UINT, c, [u32::MAX; 4]);
            }
        }
        assert_eq!(img.buf, before, "{ty:#x}");
        assert!(img.canaries_intact());
    }
}

#[test]
fn undefined_cases_have_the_documented_answers() {
    let mut img = ramp();
    let at = |img: &mut Img, smp: u32, u: f32| readf(img, smp, [u, 0.0, 0.0, 0.0]);
    // NONE outside the image: as CLAMP_TO_EDGE.
    for u in [-3.0, -0.5, 4.0, 77.0, 1e30, -1e30] {
        for filter in [NEAREST, LINEAR] {
            assert_eq!(at(&mut img, NONE | filter, u), at(&mut img, EDGE | filter, u), "{u}");
        }
    }
    // REPEAT / MIRRORED_REPEAT unnormalized: u / width, then the formulas.
    for u in [-5.0, -1.0, 0.5, 3.0, 5.5, 9.0] {
        for mode in [REPEAT, MIRROR] {
            for filter in [NEAREST, LINEAR] {
                assert_eq!(
                    at(&mut img, mode | filter, u),
                    at(&mut img, mode | NORM | filter, u / 4.0),
                    "{u}"
                );
            }
        }
    }
    // Integer coordinates: the normalized bit and the filter are ignored;
    // REPEAT wraps, MIRRORED_REPEAT reflects, NONE clamps.
    let ri = |img: &mut Img, smp: u32, x: i32| f32::from_bits(readi(img, smp, kind::FLOAT, [x, 0, 0, 0])[0]);
    for (x, rep, mir, none) in [
        (-1, 40.0, 10.0, 10.0),
        (4, 10.0, 40.0, 40.0),
        (5, 20.0, 30.0, 40.0),
        (-6, 30.0, 30.0, 10.0),
    ] {
        for extra in [0, NORM, LINEAR, NORM | LINEAR] {
            assert_eq!(ri(&mut img, REPEAT | extra, x), rep, "{x}");
            assert_eq!(ri(&mut img, MIRROR | extra, x), mir, "{x}");
            assert_eq!(ri(&mut img, NONE | extra, x), none, "{x}");
        }
    }
    assert_eq!(ri(&mut img, REPEAT, i32::MIN), 10.0); // -2^31 mod 4 = 0
                                                      // Linear filtering of integer formats: nearest.
    let mut int_img = Img::new(
        fmt(order::R, data_type::SIGNED_INT16),
        image_type::IMAGE1D,
        [4, 1, 1, 1],
    );
    for x in 0..4 {
        int_img.set([x, 0, 0], &(-100 * x as i16).to_ne_bytes());
    }
    for u in [0.2, 1.6, 2.5, 3.9] {
        let c = [f32::to_bits(u), 0, 0, 0];
        assert_eq!(
            read(&mut int_img, EDGE | LINEAR, true, kind::INT, c),
            read(&mut int_img, EDGE | NEAREST, true, kind::INT, c)
        );
    }
    // An address mode the bits do not name reads as NONE.
    assert_eq!(at(&mut img, 0xa | NEAREST, 9.0), at(&mut img, NONE | NEAREST, 9.0));
}

#[test]
fn precision_of_unnormalized_nearest() {
    // "computed without any loss of precision": floor of the float itself.
    let mut img = Img::new(
        fmt(order::R, data_type::UNSIGNED_INT32),
        image_type::IMAGE1D,
        [3, 1, 1, 1],
    );
    for x in 0..3 {
        img.set([x, 0, 0], &(x as u32).to_ne_bytes());
    }
    for (u, e) in [
        (0.99999994f32, 0),
        (1.0, 1),
        (2.9999998, 2),
        (f32::from_bits(1), 0),
        (-0.0, 0),
    ] {
        for mode in [NONE, EDGE, CLAMP] {
            assert_eq!(
                read(&mut img, mode | NEAREST, true, kind::UINT, [u.to_bits(), 0, 0, 0])[0],
                e,
                "{u}"
            );
        }
    }
}

#[test]
fn entry_points() {
    let f = fmt(order::RGBA, data_type::UNORM_INT16);
    let mut img = Img::new(f, image_type::IMAGE2D_ARRAY, [3, 2, 1, 2]);
    img.fill_random(&mut Rng(5));
    let desc = img.desc();
    let value = [0.25f32, 0.5, 0.75, 1.0].map(f32::to_bits);
    // SAFETY: `desc` describes `img`'s storage; coordinates and values are
    // 4 words.
    unsafe { clift_image_write(&desc, kind::FLOAT, &[2, 1, 1, 99], &value) };
    let mut out = [0u32; 4];
    // SAFETY: as above.
    unsafe { clift_image_read(&desc, SAMPLERLESS, 0, kind::FLOAT, &[2, 1, 1, 0], &mut out) };
    let e = [16384u16, 32768, 49151, 65535].map(|c| (c as f32 / 65535.0).to_bits());
    assert_eq!(out, e);
    // Unaligned coordinates, values and results.
    let mut words = [0u32; 9];
    let base = words.as_mut_ptr().cast::<u8>().wrapping_add(2);
    let coords = base.cast::<[u32; 4]>();
    let result = base.wrapping_add(16).cast::<[u32; 4]>();
    // SAFETY: 32 of `words`' 36 bytes from byte 2, unaligned accesses.
    unsafe {
        coords.write_unaligned([2.5f32, 1.5, 1.0, 0.0].map(f32::to_bits));
        clift_image_read(&desc, EDGE | NEAREST, 1, kind::FLOAT, coords, result);
        assert_eq!(result.read_unaligned(), e);
    }
    // An unaligned descriptor.
    let size = std::mem::size_of::<ImageDesc>();
    let mut bytes = vec![0u8; size + 3];
    // SAFETY: `bytes` has room for a copy of `desc` from byte 3, which the
    // read takes unaligned.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (&desc as *const ImageDesc).cast::<u8>(),
            bytes.as_mut_ptr().add(3),
            size,
        );
        clift_image_read(
            bytes.as_ptr().add(3).cast(),
            SAMPLERLESS,
            0,
            kind::UINT,
            &[2, 1, 1, 0],
            &mut out,
        );
    }
    // 0.250004, 0.500008, 0.749996 and 1.0 rounded to nearest even.
    assert_eq!(out, [0, 1, 1, 1]);
}

#[test]
fn invalid_descriptors_read_zero_and_write_nothing() {
    let f = fmt(order::RGBA, data_type::UNORM_INT8);
    let mut img = Img::new(f, image_type::IMAGE2D, [2, 2, 1, 1]);
    img.fill_random(&mut Rng(3));
    let before = img.buf.clone();
    let good = img.desc();
    let mut cases = Vec::new();
    let mut d = good;
    d.element_size = 2;
    cases.push(d);
    let mut d = good;
    d.data = std::ptr::null_mut();
    cases.push(d);
    let mut d = good;
    d.width = 0;
    cases.push(d);
    let mut d = good;
    d.image_type = 0x1234;
    cases.push(d);
    let mut d = good;
    d.format = fmt(order::RGB, data_type::UNORM_INT8);
    cases.push(d);
    let mut d = good;
    d.row_pitch = u64::MAX;
    cases.push(d);
    let mut d = good;
    d.height = u64::MAX;
    cases.push(d);
    for d in cases {
        let mut out = [1u32; 4];
        // SAFETY: the descriptor is refused before any access.
        unsafe { clift_image_read(&d, EDGE | NEAREST, 0, kind::FLOAT, &[0; 4], &mut out) };
        assert_eq!(out, [0; 4]);
        // SAFETY: as above.
        unsafe { clift_image_write(&d, kind::FLOAT, &[0; 4], &[0x3f80_0000; 4]) };
    }
    // Null pointers.
    let mut out = [1u32; 4];
    // SAFETY: null pointers are refused.
    unsafe { clift_image_read(std::ptr::null(), 0, 0, 0, &[0; 4], &mut out) };
    assert_eq!(out, [0; 4]);
    // SAFETY: as above.
    unsafe { clift_image_read(&good, 0, 0, 0, std::ptr::null(), &mut out) };
    // SAFETY: as above.
    unsafe { clift_image_read(&good, 0, 0, 0, &[0; 4], std::ptr::null_mut()) };
    // SAFETY: as above.
    unsafe { clift_image_write(std::ptr::null(), 0, &[0; 4], &[0; 4]) };
    // SAFETY: as above.
    unsafe { clift_image_write(&good, 0, std::ptr::null(), &[0; 4]) };
    // SAFETY: as above.
    unsafe { clift_image_write(&good, 0, &[0; 4], std::ptr::null()) };
    assert_eq!(img.buf, before);
}

#[test]
fn hostile_coordinates() {
    use image_type::*;
    let floats = [
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        f32::MIN,
        1e30,
        -1e30,
        16777217.0,
        2147483648.0,
        -2147483648.0,
        9.3e18,
        -9.3e18,
        f32::MIN_POSITIVE,
        -0.0,
        0.49999997,
    ];
    let ints = [i32::MIN, i32::MAX, -1, i32::MIN + 1, 1 << 30];
    let formats = [
        fmt(order::RGBA, data_type::FLOAT),
        fmt(order::R, data_type::UNORM_INT8),
        fmt(order::SRGB, data_type::UNORM_INT8),
        fmt(order::RGB, data_type::UNORM_SHORT_565),
        fmt(order::RA, data_type::SIGNED_INT16),
        fmt(order::DEPTH, data_type::UNORM_INT16),
    ];
    let mut rng = Rng(11);
    for f in formats {
        for (ty, shape) in [
            (IMAGE1D, [3, 1, 1, 1]),
            (IMAGE1D_BUFFER, [1, 1, 1, 1]),
            (IMAGE1D_ARRAY, [3, 1, 1, 2]),
            (IMAGE2D, [3, 2, 1, 1]),
            (IMAGE2D_ARRAY, [2, 3, 1, 2]),
            (IMAGE3D, [2, 2, 3, 1]),
        ] {
            let mut img = Img::new(f, ty, shape);
            img.fill_random(&mut rng);
            let before = img.buf.clone();
            for mode in [NONE, EDGE, CLAMP, REPEAT, MIRROR, 0xe] {
                for extra in [NEAREST, LINEAR, NEAREST | NORM, LINEAR | NORM, 0, 0x30 | NORM] {
                    for _ in 0..40 {
                        let c = [
                            rng.pick(&floats),
                            rng.pick(&floats),
                            rng.pick(&floats),
                            rng.pick(&floats),
                        ];
                        for k in [kind::FLOAT, kind::INT, kind::UINT, 9] {
                            let a = read(&mut img, mode | extra, true, k, c.map(f32::to_bits));
                            let b = read(&mut img, mode | extra, true, k, c.map(f32::to_bits));
                            assert_eq!(a, b);
                        }
                        let c = [rng.pick(&ints), rng.pick(&ints), rng.pick(&ints), rng.pick(&ints)];
                        readi(&mut img, mode | extra, kind::FLOAT, c);
                        write(&mut img, kind::FLOAT, c, [0x7fc0_0000; 4]);
                    }
                }
            }
            // Every int coordinate list above holds one outside the image.
            assert_eq!(img.buf, before, "{f:?} {ty:#x}");
        }
    }
}

// ---------------------------------------------------------------------------
// Every format x addressing mode x filter x normalization x image type,
// against the reference.

#[test]
fn every_format_and_sampler_against_the_reference() {
    use image_type::*;
    let shapes = [
        (IMAGE1D, [5, 1, 1, 1]),
        (IMAGE1D_BUFFER, [6, 1, 1, 1]),
        (IMAGE1D_ARRAY, [5, 1, 1, 3]),
        (IMAGE2D, [5, 3, 1, 1]),
        (IMAGE2D_ARRAY, [4, 3, 1, 3]),
        (IMAGE3D, [4, 3, 2, 1]),
    ];
    let normalized = [
        -2.25f32, -1e-9, -1.3, -0.6, -0.1, 0.0, 0.05, 0.13, 0.25, 0.5, 0.61, 0.77, 0.99, 1.0, 1.2, 2.6,
    ];
    let layers = [-1.0f32, -0.4, 0.0, 0.4, 0.5, 1.2, 1.5, 2.5, 7.0];
    let mut rng = Rng(0x1234_5678);
    let mut checked = [0usize; 2];
    for &f in all_formats() {
        let k = f.kind().unwrap();
        let float_kind = k == kind::FLOAT;
        for (ty, shape) in shapes {
            let mut img = Img::new(f, ty, shape);
            img.fill_random(&mut rng);
            let unnormalized = |n: usize| {
                let n = n as f32;
                [
                    -2.3f32,
                    -0.5,
                    -0.25,
                    0.0,
                    0.4,
                    0.5,
                    1.0,
                    1.75,
                    2.5,
                    n - 0.5,
                    n - 0.25,
                    n,
                    n + 0.7,
                    7.9,
                    3.2,
                ]
            };
            for mode in MODES {
                for norm in [0, NORM] {
                    for filter in [NEAREST, LINEAR] {
                        let smp = mode | norm | filter;
                        for _ in 0..12 {
                            let mut c = [0f32; 4];
                            for (ca, &n) in c.iter_mut().zip(&img.n).take(img.dims) {
                                *ca = if norm != 0 {
                                    rng.pick(&normalized)
                                } else {
                                    rng.pick(&unnormalized(n))
                                };
                            }
                            if let Some(l) = img.layer_axis {
                                c[l] = rng.pick(&layers);
                            }
                            let got = read(&mut img, smp, true, k, c.map(f32::to_bits));
                            let Some(expect) = img.ref_sample(smp, c) else {
                                continue;
                            };
                            let got = as_f64(k, got);
                            let exact = !float_kind || filter == NEAREST && !f.is_srgb();
                            for i in 0..4 {
                                if exact {
                                    let e = if float_kind {
                                        f64::from(expect[i] as f32)
                                    } else {
                                        expect[i]
                                    };
                                    assert_eq!(got[i], e, "{f:?} {ty:#x} sampler {smp:#x} {c:?} component {i}");
                                } else {
                                    let tol = 2e-6 * (1.0 + expect[i].abs().max(8.0));
                                    assert!(
                                        (got[i] - expect[i]).abs() <= tol,
                                        "{f:?} {ty:#x} sampler {smp:#x} {c:?} component {i}: {} vs {}",
                                        got[i],
                                        expect[i]
                                    );
                                }
                            }
                            checked[usize::from(filter == LINEAR)] += 1;
                        }
                    }
                }
            }
            // Integer coordinates, with and without a sampler.
            for mode in [NONE, EDGE, CLAMP] {
                for _ in 0..12 {
                    let mut c = [0i32; 4];
                    for (ca, &n) in c.iter_mut().zip(&img.n).take(img.dims) {
                        let n = n as i32;
                        *ca = rng.pick(&[-3, -1, 0, 1, 2, n - 1, n, n + 2]);
                    }
                    if let Some(l) = img.layer_axis {
                        c[l] = rng.pick(&[-2, 0, 1, 2, 5]);
                    }
                    let got = as_f64(k, readi(&mut img, mode | NEAREST, k, c));
                    if let Some(expect) = img.ref_read_int(mode, c) {
                        let expect = if float_kind {
                            expect.map(|v| f64::from(v as f32))
                        } else {
                            expect
                        };
                        if f.is_srgb() {
                            for i in 0..4 {
                                assert!((got[i] - expect[i]).abs() < 1e-6, "{f:?} {ty:#x} {c:?}");
                            }
                        } else {
                            assert_eq!(got, expect, "{f:?} {ty:#x} mode {mode:#x} {c:?}");
                        }
                    }
                }
            }
        }
    }
    // Most draws are defined (the rest only had to be safe).
    assert!(checked[0] > 40_000 && checked[1] > 15_000, "{checked:?}");
}

#[test]
fn reads_of_written_texels_round_trip() {
    // write_image then read_image without a sampler gives the value back
    // for values the format holds exactly.
    let mut rng = Rng(99);
    for &f in all_formats() {
        let k = f.kind().unwrap();
        let mut img = Img::new(f, image_type::IMAGE2D, [3, 2, 1, 1]);
        img.fill_random(&mut rng);
        for p in img.positions() {
            let c = [p[0] as i32, p[1] as i32, 0, 0];
            let stored = readi(&mut img, SAMPLERLESS, k, c);
            let bytes = img.texel(p).to_vec();
            write(&mut img, k, c, stored);
            if f.is_srgb() {
                // The linear values round back to the same bytes (sRGBx's
                // ignored fourth byte takes the alpha read, 1.0).
                assert_eq!(img.texel(p)[..3], bytes[..3], "{f:?}");
                continue;
            }
            assert_eq!(readi(&mut img, SAMPLERLESS, k, c), stored, "{f:?} {p:?}");
        }
        assert!(img.canaries_intact());
    }
}

#[test]
fn half_writes_round_to_nearest_even() {
    // write_imagef to HALF rounds as f64_to_half's RTE does, for a sweep.
    let f = fmt(order::R, data_type::HALF_FLOAT);
    let mut x = 1e-8f32;
    while x < 70000.0 {
        let got = encodef(f, [x, 0.0, 0.0, 0.0]);
        assert_eq!(got, f64_to_half(f64::from(x), Rounding::Rte).to_ne_bytes(), "{x}");
        x *= 1.0137;
    }
}

/// SPIR-V gives read_imagei and read_imageui one type, so the generated
/// code passes either integer kind: both keep every bit of the format's
/// own signedness, reading and writing.
#[test]
fn integer_kinds_are_the_formats_own() {
    use image_type::IMAGE2D;
    let mut u = Img::new(fmt(order::R, data_type::UNSIGNED_INT32), IMAGE2D, [2, 1, 1, 1]);
    let mut s = Img::new(fmt(order::R, data_type::SIGNED_INT8), IMAGE2D, [2, 1, 1, 1]);
    for k in [kind::INT, kind::UINT] {
        write(&mut u, k, [0, 0, 0, 0], [0xffff_fffe, 0, 0, 0]);
        assert_eq!(
            readi(&mut u, sampler::NONE, k, [0, 0, 0, 0])[0],
            0xffff_fffe,
            "uint32 by kind {k}"
        );
        write(&mut s, k, [1, 0, 0, 0], [(-100i32) as u32, 0, 0, 0]);
        assert_eq!(
            readi(&mut s, sampler::NONE, k, [1, 0, 0, 0])[0],
            (-100i32) as u32,
            "int8 by kind {k}"
        );
        // Saturated as the signed format's own write_imagei would.
        write(&mut s, k, [1, 0, 0, 0], [(-1000i32) as u32, 0, 0, 0]);
        assert_eq!(
            readi(&mut s, sampler::NONE, k, [1, 0, 0, 0])[0],
            (-128i32) as u32,
            "int8 by kind {k}"
        );
    }
}

/// Each fast class is what its documentation says of every format
/// `fast_class` puts in it: the texel size the inline code assumes, and
/// the one conversion it does, read and write, checked against the
/// conversions of the helpers on random and special texels and values.
/// (The conformance tests compare the inline code with the helpers.)
#[test]
fn fast_classes_describe_their_formats() {
    let mut rng = Rng(0x5eed_fa57);
    let mut seen = std::collections::HashSet::new();
    for &f in all_formats() {
        let class = fast_class(f);
        if class == fast::NONE {
            continue;
        }
        seen.insert(class);
        let wide = matches!(class, fast::RGBA_F32 | fast::RGBA_I32);
        assert_eq!(f.element_size(), Some(if wide { 16 } else { 4 }), "{f:?}");
        let own = f.kind().unwrap();
        let float = own == kind::FLOAT;
        assert_eq!(
            float,
            matches!(
                class,
                fast::RGBA_UNORM8 | fast::BGRA_UNORM8 | fast::RGBA_F32 | fast::R_F32
            ),
            "{f:?}"
        );
        // The border color CLAMP reads outside the image.
        assert_eq!(
            format::Layout::of(f).map(|l| l.border),
            Some(fast::border(class)),
            "{f:?}"
        );
        let specials = [
            0x7fc0_0001u32,
            0x7f80_0001,
            0xff80_0000,
            0x8000_0000,
            0x0000_0001,
            0x437f_0000,
        ];
        for round in 0..400 {
            let words: [u32; 4] = std::array::from_fn(|_| {
                if round % 4 == 0 {
                    rng.pick(&specials)
                } else {
                    rng.next() as u32
                }
            });
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
            let one = if float { 1f32.to_bits() } else { 1 };
            let unorm = |b: u8| (f32::from(b) / 255.0).to_bits();
            let read_want: [u32; 4] = match class {
                fast::RGBA_UNORM8 => std::array::from_fn(|c| unorm(bytes[c])),
                fast::BGRA_UNORM8 => [2, 1, 0, 3].map(|c| unorm(bytes[c])),
                fast::RGBA_F32 | fast::RGBA_I32 => words,
                fast::R_F32 | fast::R_I32 => [words[0], 0, 0, one],
                fast::RGBA_U8 => std::array::from_fn(|c| u32::from(bytes[c])),
                fast::RGBA_S8 => std::array::from_fn(|c| bytes[c] as i8 as i32 as u32),
                _ => panic!("class {class} is not documented"),
            };
            assert_eq!(
                decode_texel(f, &bytes, own),
                Some(read_want),
                "{f:?} reads {bytes:02x?}"
            );
            // Writes: float values in and around [0, 1] and specials.
            let value: [u32; 4] = if float && round % 2 == 1 {
                std::array::from_fn(|_| ((rng.next() % 3000) as f32 / 1000.0 - 1.0).to_bits())
            } else {
                words
            };
            let unorm_of = |w: u32| {
                let x = f32::from_bits(w);
                if x.is_nan() {
                    0
                } else {
                    (x * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
                }
            };
            let write_want: Vec<u8> = match class {
                fast::RGBA_UNORM8 => value.iter().map(|&w| unorm_of(w)).collect(),
                fast::BGRA_UNORM8 => [2, 1, 0, 3].iter().map(|&c| unorm_of(value[c])).collect(),
                fast::RGBA_F32 | fast::RGBA_I32 => value.iter().flat_map(|w| w.to_ne_bytes()).collect(),
                fast::R_F32 | fast::R_I32 => value[0].to_ne_bytes().to_vec(),
                fast::RGBA_U8 => value.iter().map(|&w| w.min(255) as u8).collect(),
                fast::RGBA_S8 => value.iter().map(|&w| (w as i32).clamp(-128, 127) as i8 as u8).collect(),
                _ => unreachable!(),
            };
            // (The helpers write an integer format in its own kind,
            // whichever the generated code passes: see `integer_kind`.)
            assert_eq!(
                encode_texel(f, own, &value),
                Some(write_want),
                "{f:?} writes {value:08x?}"
            );
        }
    }
    assert_eq!(seen.len(), 8, "every class has a format");
}
