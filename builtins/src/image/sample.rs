//! Reads, samples and writes of one texel of an image (SPIR-V environment,
//! "Image Addressing and Filtering"; OpenCL C, "Image Read and Write
//! Functions"), on a checked view of an [`ImageDesc`].
//!
//! Every index used to address the storage is within the image's extent
//! along its axis, whatever the coordinates (NaN, infinities, huge or
//! negative values): float coordinates convert to integers saturating
//! (NaN to 0) and computations on indices are in 64 or 128 bits.
//!
//! Where the spec leaves a result undefined, clift gives this one:
//! - `CLK_ADDRESS_NONE` (and sampler-less reads) out of the image: the
//!   texel's index is clamped to the image, as `CLK_ADDRESS_CLAMP_TO_EDGE`
//!   does; an address mode the sampler bits do not name is taken as NONE;
//! - integer coordinates with a sampler that is not "nearest, unnormalized,
//!   CLAMP_TO_EDGE / CLAMP / NONE": the normalized-coordinates bit and the
//!   filter are ignored (integer coordinates are texel indices, read
//!   nearest); REPEAT wraps them (`x mod width`), MIRRORED_REPEAT reflects
//!   them (period twice the width);
//! - REPEAT or MIRRORED_REPEAT with unnormalized float coordinates: the
//!   coordinate is divided by the size first, then the spec's formulas run;
//! - linear filtering of an integer (signed or unsigned) format: nearest
//!   filtering ("The read_image{i|ui} calls support a nearest filter
//!   only");
//! - an array layer out of range (integer coordinates, or a write): reads
//!   clamp it to the layers, as the sampler rule `clamp(rint(w), 0, d_t -
//!   1)` does for float ones; writes outside the image (layer included)
//!   write nothing;
//! - a linear filter's sum that is NaN (a NaN texel): the quiet NaN
//!   0x7fc00000, whatever the texels' payloads;
//! - a result kind that does not match the format's (read_imagef of an
//!   integer image, read_imagei of a float one, ...): the texel's value in
//!   the other kind, rounded to nearest even and saturated (NaN to 0) when
//!   it must change; likewise for writes.

use super::convert::{convert_kind, decode, encode};
use super::format::Layout;
use super::{image_type as it, kind, sampler as smp, ImageDesc};

/// The addressing mode of the sampler bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    None,
    Edge,
    Clamp,
    Repeat,
    Mirror,
}

impl Mode {
    fn of(sampler: u32) -> Mode {
        match sampler & smp::ADDRESS_MASK {
            smp::ADDRESS_CLAMP_TO_EDGE => Mode::Edge,
            smp::ADDRESS_CLAMP => Mode::Clamp,
            smp::ADDRESS_REPEAT => Mode::Repeat,
            smp::ADDRESS_MIRRORED_REPEAT => Mode::Mirror,
            _ => Mode::None,
        }
    }
}

/// A texel's index along one axis, or the border color.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tap {
    At(u64),
    Border,
}

/// `(int)floor(x)`, saturating (NaN gives 0).
fn floor_index(x: f32) -> i64 {
    x.floor() as i64
}

/// `i` clamped to `0..n` (`n >= 1`).
fn clamp_index(i: i64, n: u64) -> u64 {
    i.min(n as i64 - 1).max(0) as u64
}

/// `address_mode(i)` of the clamp modes: CLAMP's -1 and `size` are the
/// border; CLAMP_TO_EDGE (and NONE, see the module) clamp to the image.
fn clamp_tap(mode: Mode, i: i64, n: u64) -> Tap {
    if mode == Mode::Clamp && (i < 0 || i >= n as i64) {
        Tap::Border
    } else {
        Tap::At(clamp_index(i, n))
    }
}

/// The index an integer coordinate reads.
fn int_tap(mode: Mode, i: i64, n: u64) -> Tap {
    match mode {
        Mode::Repeat => Tap::At(i.rem_euclid(n as i64) as u64),
        Mode::Mirror => {
            let (n, period) = (i128::from(n), 2 * i128::from(n));
            let m = i128::from(i).rem_euclid(period);
            Tap::At(if m >= n { period - 1 - m } else { m } as u64)
        }
        _ => clamp_tap(mode, i, n),
    }
}

/// The normalized coordinate REPEAT and MIRRORED_REPEAT work on.
fn normalized_s(normalized: bool, s: f32, nf: f32) -> f32 {
    if normalized {
        s
    } else {
        s / nf
    }
}

/// MIRRORED_REPEAT's `fabs(s - 2.0f * rint(0.5f * s))`.
fn mirror(s: f32) -> f32 {
    (s - 2.0 * (0.5 * s).round_ties_even()).abs()
}

/// Nearest filtering along one axis of `n` texels.
fn nearest_tap(mode: Mode, normalized: bool, s: f32, n: u64) -> Tap {
    let nf = n as f32;
    let last = n as i64 - 1;
    match mode {
        Mode::Repeat => {
            let s = normalized_s(normalized, s, nf);
            let u = (s - s.floor()) * nf;
            let i = floor_index(u);
            let i = if i > last { i - n as i64 } else { i };
            Tap::At(clamp_index(i, n))
        }
        Mode::Mirror => {
            let u = mirror(normalized_s(normalized, s, nf)) * nf;
            Tap::At(clamp_index(floor_index(u).min(last), n))
        }
        _ => {
            let u = if normalized { s * nf } else { s };
            clamp_tap(mode, floor_index(u), n)
        }
    }
}

/// Linear filtering along one axis of `n` texels: the two texels and the
/// weight of the second.
fn linear_taps(mode: Mode, normalized: bool, s: f32, n: u64) -> (Tap, Tap, f32) {
    let nf = n as f32;
    let last = n as i64 - 1;
    let (t0, t1, t) = match mode {
        Mode::Repeat => {
            let s = normalized_s(normalized, s, nf);
            let t = (s - s.floor()) * nf - 0.5;
            let mut i0 = floor_index(t);
            let mut i1 = i0.saturating_add(1);
            if i0 < 0 {
                i0 = i0.saturating_add(n as i64);
            }
            if i1 > last {
                i1 -= n as i64;
            }
            (Tap::At(clamp_index(i0, n)), Tap::At(clamp_index(i1, n)), t)
        }
        Mode::Mirror => {
            let t = mirror(normalized_s(normalized, s, nf)) * nf - 0.5;
            let i0 = floor_index(t);
            let i1 = i0.saturating_add(1);
            (
                Tap::At(clamp_index(i0.max(0), n)),
                Tap::At(clamp_index(i1.min(last), n)),
                t,
            )
        }
        _ => {
            let u = if normalized { s * nf } else { s };
            let t = u - 0.5;
            let i0 = floor_index(t);
            (clamp_tap(mode, i0, n), clamp_tap(mode, i0.saturating_add(1), n), t)
        }
    };
    // frac(u - 0.5); infinite or NaN coordinates weigh the first texel.
    let a = t - t.floor();
    (t0, t1, if a.is_finite() { a } else { 0.0 })
}

/// The layer a sampled read selects: `clamp(rint(w), 0, d_t - 1)`.
fn layer_index(w: f32, n: u64) -> u64 {
    clamp_index(w.round_ties_even() as i64, n)
}

/// Copies a texel of `size` bytes (at most 16), with a fixed-size copy for
/// each size a format has (no call to `memcpy`).
///
/// # Safety
/// `src` and `dst` are valid for `size` bytes and do not overlap.
unsafe fn copy_texel(src: *const u8, dst: *mut u8, size: usize) {
    // SAFETY: the caller's contract; every arm copies `size` bytes.
    unsafe {
        match size {
            1 => std::ptr::copy_nonoverlapping(src, dst, 1),
            2 => std::ptr::copy_nonoverlapping(src, dst, 2),
            3 => std::ptr::copy_nonoverlapping(src, dst, 3),
            4 => std::ptr::copy_nonoverlapping(src, dst, 4),
            8 => std::ptr::copy_nonoverlapping(src, dst, 8),
            16 => std::ptr::copy_nonoverlapping(src, dst, 16),
            _ => std::ptr::copy_nonoverlapping(src, dst, size.min(16)),
        }
    }
}

/// An image whose shape was checked: every texel whose indices are below
/// `n` lies within `extent` bytes of `data`.
pub(crate) struct View {
    data: *mut u8,
    layout: &'static Layout,
    /// Texels along x, y and z: an array's layers are along y (1D arrays)
    /// or z (2D arrays); 1 along the axes an image does not have.
    n: [u64; 3],
    /// The filtered axes (x; x, y; or x, y, z).
    dims: usize,
    /// The array layer's axis (`dims`), if the image is an array.
    layer_axis: Option<usize>,
    /// Bytes between neighbouring texels along x, y and z.
    pitch: [u64; 3],
    /// Bytes from `data` to the end of the last texel.
    extent: u64,
}

impl View {
    /// The view of `d`, or `None` if its format, type or shape is not one
    /// an image can have (a null pointer, a zero size, an element size
    /// other than the format's, an extent that overflows).
    pub(crate) fn new(d: &ImageDesc) -> Option<View> {
        let layout = Layout::of(d.format)?;
        if d.data.is_null() || d.element_size != layout.size as u64 {
            return None;
        }
        let (dims, n, layer_axis) = match d.image_type {
            it::IMAGE1D | it::IMAGE1D_BUFFER => (1, [d.width, 1, 1], None),
            it::IMAGE1D_ARRAY => (1, [d.width, d.array_size, 1], Some(1)),
            it::IMAGE2D => (2, [d.width, d.height, 1], None),
            it::IMAGE2D_ARRAY => (2, [d.width, d.height, d.array_size], Some(2)),
            it::IMAGE3D => (3, [d.width, d.height, d.depth], None),
            _ => return None,
        };
        let pitch = [d.element_size, d.row_pitch, d.slice_pitch];
        let mut last = 0u64;
        for (&n, &p) in n.iter().zip(&pitch) {
            last = last.checked_add(n.checked_sub(1)?.checked_mul(p)?)?;
        }
        let extent = last.checked_add(d.element_size)?;
        if extent > isize::MAX as u64 {
            return None;
        }
        Some(View {
            data: d.data,
            layout,
            n,
            dims,
            layer_axis,
            pitch,
            extent,
        })
    }

    /// The byte offset of the texel at `pos`, if it is inside the image.
    /// (Callers only pass positions inside; the tests make any other a
    /// failure.)
    fn offset(&self, pos: [u64; 3]) -> Option<usize> {
        let inside = pos.iter().zip(&self.n).all(|(&p, &n)| p < n);
        // No overflow when inside: each term is at most its axis's share of
        // `extent`.
        let off = (0..3).fold(0u64, |off, a| off.wrapping_add(pos[a].wrapping_mul(self.pitch[a])));
        let fits = inside && off <= self.extent - self.layout.size as u64;
        #[cfg(test)]
        assert!(fits, "texel {pos:?} outside an image of {:?}", self.n);
        fits.then_some(off as usize)
    }

    /// The texel at `pos` in the format's kind, or the border color for a
    /// position outside the image (which the callers never pass).
    fn fetch(&self, pos: [u64; 3]) -> [u32; 4] {
        let Some(off) = self.offset(pos) else {
            return self.layout.border;
        };
        let mut b = [0u8; 16];
        // SAFETY: the texel at `pos` is inside the image (`offset`), so its
        // `size` bytes lie within the `extent` bytes of `data` the image's
        // storage holds (`clift_image_read`'s contract).
        unsafe { copy_texel(self.data.add(off), b.as_mut_ptr(), self.layout.size) };
        decode(self.layout, &b)
    }

    /// Reads (or samples) the texel at coordinates `c` (f32 bits if
    /// `float_coords`, else i32), as four words of kind `k`.
    pub(crate) fn read(&self, sampler: u32, float_coords: bool, k: u32, c: [u32; 4]) -> [u32; 4] {
        let native = self.layout.channel.kind();
        let mode = Mode::of(sampler);
        let normalized = sampler & smp::NORMALIZED_COORDS_TRUE != 0;
        let texel = if !float_coords {
            self.read_int(mode, c)
        } else if sampler & smp::FILTER_LINEAR != 0 && native == kind::FLOAT {
            self.read_linear(mode, normalized, c)
        } else {
            self.read_nearest(mode, normalized, c)
        };
        texel.map(|w| convert_kind(native, k, w))
    }

    fn read_int(&self, mode: Mode, c: [u32; 4]) -> [u32; 4] {
        let mut pos = [0u64; 3];
        for a in 0..self.dims {
            match int_tap(mode, i64::from(c[a] as i32), self.n[a]) {
                Tap::At(i) => pos[a] = i,
                Tap::Border => return self.layout.border,
            }
        }
        if let Some(l) = self.layer_axis {
            pos[l] = clamp_index(i64::from(c[l] as i32), self.n[l]);
        }
        self.fetch(pos)
    }

    fn read_nearest(&self, mode: Mode, normalized: bool, c: [u32; 4]) -> [u32; 4] {
        let mut pos = [0u64; 3];
        for a in 0..self.dims {
            match nearest_tap(mode, normalized, f32::from_bits(c[a]), self.n[a]) {
                Tap::At(i) => pos[a] = i,
                Tap::Border => return self.layout.border,
            }
        }
        if let Some(l) = self.layer_axis {
            pos[l] = layer_index(f32::from_bits(c[l]), self.n[l]);
        }
        self.fetch(pos)
    }

    /// The spec's 1D, 2D and 3D linear filters: the sum over the 2, 4 or 8
    /// texels `T` (x's index varying fastest, as the spec lists the terms)
    /// of `wx * wy * wz * T`, `w` being `1 - a` or `a`.
    fn read_linear(&self, mode: Mode, normalized: bool, c: [u32; 4]) -> [u32; 4] {
        let mut taps = [(Tap::At(0), Tap::At(0), 0f32); 3];
        for a in 0..self.dims {
            taps[a] = linear_taps(mode, normalized, f32::from_bits(c[a]), self.n[a]);
        }
        let mut base = [0u64; 3];
        if let Some(l) = self.layer_axis {
            base[l] = layer_index(f32::from_bits(c[l]), self.n[l]);
        }
        let mut sum = [0f32; 4];
        for corner in 0..1usize << self.dims {
            let mut pos = base;
            let mut weight = 1f32;
            let mut border = false;
            for (a, &(t0, t1, frac)) in taps.iter().enumerate().take(self.dims) {
                let (tap, w) = if corner >> a & 1 == 0 {
                    (t0, 1.0 - frac)
                } else {
                    (t1, frac)
                };
                weight = if a == 0 { w } else { weight * w };
                match tap {
                    Tap::At(i) => pos[a] = i,
                    Tap::Border => border = true,
                }
            }
            let texel = if border { self.layout.border } else { self.fetch(pos) };
            for (s, &t) in sum.iter_mut().zip(&texel) {
                *s += weight * f32::from_bits(t);
            }
        }
        // Which NaN a NaN sum is depends on the order of the operands of
        // each addition, which the compiler may swap: one NaN, always.
        sum.map(|x| if x.is_nan() { f32::NAN.to_bits() } else { x.to_bits() })
    }

    /// Writes `v` (four words of kind `k`) to the texel at integer
    /// coordinates `c`; nothing if they are outside the image.
    pub(crate) fn write(&self, k: u32, c: [i32; 4], v: [u32; 4]) {
        let axes = self.dims + usize::from(self.layer_axis.is_some());
        let mut pos = [0u64; 3];
        for a in 0..axes {
            let Ok(i) = u64::try_from(c[a]) else {
                return;
            };
            if i >= self.n[a] {
                return;
            }
            pos[a] = i;
        }
        let Some(off) = self.offset(pos) else {
            return;
        };
        let mut b = [0u8; 16];
        encode(self.layout, k, &v, &mut b);
        // SAFETY: as in `fetch`, the texel's bytes lie within the image's
        // storage, which the caller lets kernels write.
        unsafe { copy_texel(b.as_ptr(), self.data.add(off), self.layout.size) };
    }
}
