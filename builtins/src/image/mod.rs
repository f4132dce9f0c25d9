//! Images: formats, texel encoding and decoding, addressing and filtering
//! (OpenCL SPIR-V environment, "Image Addressing and Filtering"; OpenCL C,
//! "Image Read and Write Functions"), for the runtime's host commands and
//! the helpers JIT code calls for image reads, writes and samples.
//!
//! The contract other code is written against (the constants, [`Format`],
//! [`ImageDesc`]'s layout, the sampler bits and kinds, and the signatures
//! of the functions below) is fixed. The work is split in `format` (which
//! pairs exist, texel layouts, the supported lists), `convert` (texel bytes
//! to values and back) and `sample` (addressing, filtering, the checked
//! view of an image the helpers read and write through); each says where
//! the spec leaves latitude and what clift does there.
//!
//! Supported formats: every format of the full-profile OpenCL 2.x minimum
//! list, plus A, RA, INTENSITY, LUMINANCE, ARGB, ABGR, BGRA with the other
//! 8-bit types, RGB and RGBx with the packed 565, 555 and 101010 types,
//! RGBA with 101010_2, Rx, RGx, sRGB, sRGBx and sBGRA: every valid pair
//! (see `format`). The list is the same for every access flag: a CPU reads
//! and writes every format, sRGB (linear to sRGB on write, what
//! cl_khr_srgb_image_writes specifies; the API spec makes writing sRGBA
//! optional, not forbidden) and DEPTH (write_imagef to depth images is core
//! OpenCL C 2.0) included. DEPTH is offered for 2D images and 2D arrays
//! only ("Support for the CL_DEPTH image channel order is required only for
//! 2D images and 2D image arrays", and OpenCL C has no other depth image
//! type); 1D image buffers get neither DEPTH nor the sRGB orders (reading
//! sRGBA "is optional for 1D image buffers": a buffer's texels are plain
//! data, and sampled reads, the usual reason for sRGB, are not allowed on
//! them).

mod convert;
mod format;
mod sample;
#[cfg(test)]
mod tests;

use format::Layout;
use sample::View;

pub use format::{spirv_channel_data_type, spirv_channel_order};

/// Channel orders (`cl_channel_order`, the numbers of `cl.h`).
pub mod order {
    pub const R: u32 = 0x10B0;
    pub const A: u32 = 0x10B1;
    pub const RG: u32 = 0x10B2;
    pub const RA: u32 = 0x10B3;
    pub const RGB: u32 = 0x10B4;
    pub const RGBA: u32 = 0x10B5;
    pub const BGRA: u32 = 0x10B6;
    pub const ARGB: u32 = 0x10B7;
    pub const INTENSITY: u32 = 0x10B8;
    pub const LUMINANCE: u32 = 0x10B9;
    pub const RX: u32 = 0x10BA;
    pub const RGX: u32 = 0x10BB;
    pub const RGBX: u32 = 0x10BC;
    pub const DEPTH: u32 = 0x10BD;
    pub const DEPTH_STENCIL: u32 = 0x10BE;
    pub const SRGB: u32 = 0x10BF;
    pub const SRGBX: u32 = 0x10C0;
    pub const SRGBA: u32 = 0x10C1;
    pub const SBGRA: u32 = 0x10C2;
    pub const ABGR: u32 = 0x10C3;
}

/// Channel data types (`cl_channel_type`, the numbers of `cl.h`).
pub mod data_type {
    pub const SNORM_INT8: u32 = 0x10D0;
    pub const SNORM_INT16: u32 = 0x10D1;
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const UNORM_INT16: u32 = 0x10D3;
    pub const UNORM_SHORT_565: u32 = 0x10D4;
    pub const UNORM_SHORT_555: u32 = 0x10D5;
    pub const UNORM_INT_101010: u32 = 0x10D6;
    pub const SIGNED_INT8: u32 = 0x10D7;
    pub const SIGNED_INT16: u32 = 0x10D8;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT16: u32 = 0x10DB;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
    pub const UNORM_INT24: u32 = 0x10DF;
    pub const UNORM_INT_101010_2: u32 = 0x10E0;
}

/// Image object types (`cl_mem_object_type`, the numbers of `cl.h`).
pub mod image_type {
    pub const IMAGE2D: u32 = 0x10F1;
    pub const IMAGE3D: u32 = 0x10F2;
    pub const IMAGE2D_ARRAY: u32 = 0x10F3;
    pub const IMAGE1D: u32 = 0x10F4;
    pub const IMAGE1D_ARRAY: u32 = 0x10F5;
    pub const IMAGE1D_BUFFER: u32 = 0x10F6;
}

/// An image format (`cl_image_format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Format {
    pub order: u32,
    pub data_type: u32,
}

/// What a kernel's image argument points to: the image's storage and
/// shape. Laid out for JIT code, which reads the fields at their
/// `offset_of!` offsets (the image queries) and passes the pointer to the
/// helpers below. Texel (x, y, z) of an image is at `data + z *
/// slice_pitch + y * row_pitch + x * element_size`; a 1D array's layer is
/// its y (rows `row_pitch` apart), a 2D array's its z (slices
/// `slice_pitch` apart).
#[derive(Debug, Clone, Copy)]
#[repr(C)]
pub struct ImageDesc {
    pub data: *mut u8,
    pub width: u64,
    /// 1 for 1D images and 1D arrays.
    pub height: u64,
    /// 1 but for 3D images.
    pub depth: u64,
    /// Layers of an array image, else 1.
    pub array_size: u64,
    pub row_pitch: u64,
    pub slice_pitch: u64,
    pub element_size: u64,
    /// An [`image_type`] value.
    pub image_type: u32,
    pub format: Format,
    /// The [`fast`] class of `format` when JIT code may read and write the
    /// texels inline, else [`fast::NONE`] (the helpers then do every
    /// access). Set only for a descriptor of a real image, whose shape the
    /// helpers would accept (non-null data, every extent at least 1).
    pub fast: u32,
}

/// The formats whose texels JIT code may read and write inline, without
/// the helpers, for the accesses where the helpers' result is a plain
/// function of the texel's bytes: integer coordinates (and nearest
/// filtering) whose indices are clamped to the image, and writes inside the
/// image. Each class names the texel's layout and the one conversion its
/// inline code does, which must give exactly the bits the helpers give
/// ([`fast_class`] lists the formats; the conformance tests compare both
/// paths bit for bit).
///
/// Reads and writes of kind [`kind::FLOAT`] use the first four classes,
/// integer kinds the last four (an integer kind on an integer format is
/// the format's own, see `integer_kind`).
pub mod fast {
    /// Every access goes through the helpers.
    pub const NONE: u32 = 0;
    /// RGBA UNORM_INT8, 4 bytes: reads `byte / 255.0f`; writes
    /// `convert_uchar_sat_rte(x * 255.0f)` (NaN to 0).
    pub const RGBA_UNORM8: u32 = 1;
    /// BGRA UNORM_INT8: as [`RGBA_UNORM8`] with bytes B, G, R, A.
    pub const BGRA_UNORM8: u32 = 2;
    /// RGBA FLOAT, 16 bytes: the four words moved as they are.
    pub const RGBA_F32: u32 = 3;
    /// R FLOAT and DEPTH FLOAT, 4 bytes: reads (x, 0, 0, 1.0f); writes
    /// the first word.
    pub const R_F32: u32 = 4;
    /// RGBA UNSIGNED_INT8: reads zero-extend; writes `min(x, 255)`.
    pub const RGBA_U8: u32 = 5;
    /// RGBA SIGNED_INT8: reads sign-extend; writes `clamp(x, -128, 127)`.
    pub const RGBA_S8: u32 = 6;
    /// RGBA SIGNED_INT32 and UNSIGNED_INT32: the four words moved.
    pub const RGBA_I32: u32 = 7;
    /// R SIGNED_INT32 and UNSIGNED_INT32: reads (x, 0, 0, 1); writes the
    /// first word.
    pub const R_I32: u32 = 8;

    /// The border color of CLAMP addressing for the formats of `class`,
    /// as read (four words of the class's kind): transparent black, or
    /// opaque black (alpha 1) for the R and DEPTH formats, which have no
    /// alpha.
    pub const fn border(class: u32) -> [u32; 4] {
        match class {
            R_F32 => [0, 0, 0, 0x3f80_0000],
            R_I32 => [0, 0, 0, 1],
            _ => [0; 4],
        }
    }
}

/// The [`fast`] class of `format`: [`fast::NONE`] for every format the
/// classes do not describe.
pub fn fast_class(format: Format) -> u32 {
    use data_type as dt;
    match (format.order, format.data_type) {
        (order::RGBA, dt::UNORM_INT8) => fast::RGBA_UNORM8,
        (order::BGRA, dt::UNORM_INT8) => fast::BGRA_UNORM8,
        (order::RGBA, dt::FLOAT) => fast::RGBA_F32,
        (order::R | order::DEPTH, dt::FLOAT) => fast::R_F32,
        (order::RGBA, dt::UNSIGNED_INT8) => fast::RGBA_U8,
        (order::RGBA, dt::SIGNED_INT8) => fast::RGBA_S8,
        (order::RGBA, dt::SIGNED_INT32 | dt::UNSIGNED_INT32) => fast::RGBA_I32,
        (order::R, dt::SIGNED_INT32 | dt::UNSIGNED_INT32) => fast::R_I32,
        _ => fast::NONE,
    }
}

/// Sampler bits as OpenCL C's `sampler_t` encodes them (clang's
/// `CLK_*` values): bit 0 normalized coordinates; bits 1-3 the addressing
/// mode (0 none, 2 clamp to edge, 4 clamp, 6 repeat, 8 mirrored repeat);
/// 0x10 nearest or 0x20 linear filtering.
pub mod sampler {
    pub const NORMALIZED_COORDS_TRUE: u32 = 0x1;
    pub const ADDRESS_NONE: u32 = 0x0;
    pub const ADDRESS_CLAMP_TO_EDGE: u32 = 0x2;
    pub const ADDRESS_CLAMP: u32 = 0x4;
    pub const ADDRESS_REPEAT: u32 = 0x6;
    pub const ADDRESS_MIRRORED_REPEAT: u32 = 0x8;
    pub const ADDRESS_MASK: u32 = 0xE;
    pub const FILTER_NEAREST: u32 = 0x10;
    pub const FILTER_LINEAR: u32 = 0x20;
    /// What reads without a sampler behave as: unnormalized, no
    /// addressing, nearest.
    pub const NONE: u32 = FILTER_NEAREST;
}

impl Format {
    /// Bytes per texel; `None` if the order and data type do not combine.
    pub fn element_size(self) -> Option<usize> {
        Layout::of(self).map(|l| l.size)
    }

    /// Whether the order and data type combine (see `format`).
    pub fn is_valid(self) -> bool {
        Layout::of(self).is_some()
    }

    /// The channels a texel stores (R, A, Rx, INTENSITY, LUMINANCE, DEPTH:
    /// 1; RG, RA, RGx: 2; RGB, sRGB: 3; the other orders: 4), `None` for
    /// an invalid format. The packed types hold them in one 16- or 32-bit
    /// word.
    pub fn channels(self) -> Option<usize> {
        Layout::of(self).and(format::order_channels(self.order))
    }

    /// The [`kind`] of the read and write functions for this format
    /// (`read_imagef`/`write_imagef`, `..i` or `..ui`), `None` for an
    /// invalid format.
    pub fn kind(self) -> Option<u32> {
        Layout::of(self).map(|l| l.channel.kind())
    }

    /// Whether the data type is an unnormalized signed or unsigned integer
    /// (clEnqueueFillImage takes an int4 or uint4 color for it).
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), Some(kind::INT | kind::UINT))
    }

    /// Whether the order is sRGB, sRGBx, sRGBA or sBGRA.
    pub fn is_srgb(self) -> bool {
        format::is_srgb_order(self.order)
    }

    /// Whether the order is DEPTH (the image types `image2d_depth_t` and
    /// `image2d_array_depth_t`; clEnqueueFillImage takes one float).
    pub fn is_depth(self) -> bool {
        self.order == order::DEPTH
    }
}

/// The formats clift's device supports for images of `image_type` (an
/// [`image_type`] value) used as `access` says (`CL_MEM_READ_ONLY`,
/// `CL_MEM_WRITE_ONLY`, `CL_MEM_READ_WRITE` or `CL_MEM_KERNEL_READ_AND_WRITE`
/// bits of `cl_mem_flags`), in the order clGetSupportedImageFormats lists
/// them: at least the full-profile minimum list of the API spec.
///
/// The list does not depend on `access` (see the module's comment); an
/// `image_type` that is not one gives an empty list.
pub fn supported_formats(image_type: u32, access: u64) -> &'static [Format] {
    let _ = access;
    format::supported(image_type)
}

/// The texel clEnqueueFillImage writes for `color` (four floats for
/// formats that are not integer, four `i32` for signed integer formats,
/// four `u32` for unsigned ones, 16 bytes as the application gave them),
/// converted as a kernel's write_image{f,i,ui} would: `element_size` bytes.
///
/// DEPTH formats take the one float of the color's first 4 bytes. An
/// invalid format gives no bytes.
pub fn encode_fill(format: Format, color: &[u8; 16]) -> Vec<u8> {
    let Some(layout) = Layout::of(format) else {
        return Vec::new();
    };
    let c = color;
    let words = [
        u32::from_ne_bytes([c[0], c[1], c[2], c[3]]),
        u32::from_ne_bytes([c[4], c[5], c[6], c[7]]),
        u32::from_ne_bytes([c[8], c[9], c[10], c[11]]),
        u32::from_ne_bytes([c[12], c[13], c[14], c[15]]),
    ];
    // The host thread's rounding mode must not change the conversions.
    let _env = crate::fp_env::OpenClFpEnv::enter();
    let mut bytes = [0u8; 16];
    convert::encode(layout, layout.channel.kind(), &words, &mut bytes);
    bytes[..layout.size].to_vec()
}

/// The texel in the first `element_size` bytes of `texel` as
/// read_image{f,i,ui} returns it (by `kind`), with integer coordinates and
/// no sampler: RGBA per the channel order's table, sRGB converted to
/// linear, DEPTH's depth in component 0. `None` for an invalid format or
/// too few bytes. For the runtime's tests and host-side conversions.
pub fn decode_texel(format: Format, texel: &[u8], kind: u32) -> Option<[u32; 4]> {
    let layout = Layout::of(format)?;
    let mut bytes = [0u8; 16];
    bytes[..layout.size].copy_from_slice(texel.get(..layout.size)?);
    let _env = crate::fp_env::OpenClFpEnv::enter();
    let native = layout.channel.kind();
    Some(convert::decode(layout, &bytes).map(|w| convert::convert_kind(native, kind, w)))
}

/// The `element_size` bytes write_image{f,i,ui} (by `kind`) stores for
/// `value`; `None` for an invalid format.
pub fn encode_texel(format: Format, kind: u32, value: &[u32; 4]) -> Option<Vec<u8>> {
    let layout = Layout::of(format)?;
    let _env = crate::fp_env::OpenClFpEnv::enter();
    let mut bytes = [0u8; 16];
    convert::encode(layout, kind, value, &mut bytes);
    Some(bytes[..layout.size].to_vec())
}

/// Result kinds of the read helper and value kinds of the write helper. On
/// an integer format, `INT` and `UINT` both mean the format's own
/// signedness (see `integer_kind`).
pub mod kind {
    /// Four f32 (read_imagef, write_imagef; read_imageh/write_imageh
    /// compute in f32, the JIT code rounds to half).
    pub const FLOAT: u32 = 0;
    /// Four i32 (read_imagei, write_imagei).
    pub const INT: u32 = 1;
    /// Four u32 (read_imageui, write_imageui).
    pub const UINT: u32 = 2;
}

/// Reads (or samples) the texel of `image` at `coords` with `sampler`
/// bits ([`sampler`]), the result as four 32-bit words of `kind`
/// ([`kind`]) in `out`. `coords` holds 1 to 3 coordinates (x, then y or the
/// 1D array layer, then z or the 2D array layer) as f32 bits if
/// `float_coords`, else as i32; unused ones are 0. Depth images give the
/// depth in `out[0]`.
///
/// # Safety
/// `image` points to a valid [`ImageDesc`] whose storage holds its texels;
/// `coords` and `out` to 4 words each.
pub unsafe extern "C" fn clift_image_read(
    image: *const ImageDesc,
    sampler: u32,
    float_coords: u32,
    kind: u32,
    coords: *const [u32; 4],
    out: *mut [u32; 4],
) {
    if out.is_null() {
        return;
    }
    let texel = if image.is_null() || coords.is_null() {
        [0; 4]
    } else {
        // SAFETY: `coords` points to 4 words (the caller's contract); read
        // unaligned, so no alignment is assumed.
        let c = unsafe { coords.read_unaligned() };
        // SAFETY: `image` points to an ImageDesc (the caller's contract).
        unsafe { with_desc(image, |desc| read_image(desc, sampler, float_coords != 0, kind, c)) }
    };
    // SAFETY: `out` points to 4 writable words (the caller's contract).
    unsafe { out.write_unaligned(texel) };
}

/// Writes `value` (four 32-bit words of `kind`) to the texel of `image` at
/// integer `coords` (as for [`clift_image_read`]), converted to the image's
/// format with the spec's rounding and saturation; a coordinate outside the
/// image writes nothing.
///
/// # Safety
/// As for [`clift_image_read`].
pub unsafe extern "C" fn clift_image_write(
    image: *const ImageDesc,
    kind: u32,
    coords: *const [i32; 4],
    value: *const [u32; 4],
) {
    if image.is_null() || coords.is_null() || value.is_null() {
        return;
    }
    // SAFETY: `coords` and `value` point to 4 words each (the caller's
    // contract); read unaligned.
    let (c, v) = unsafe { (coords.read_unaligned(), value.read_unaligned()) };
    // SAFETY: `image` points to an ImageDesc (the caller's contract).
    unsafe { with_desc(image, |desc| write_image(desc, kind, c, v)) };
}

/// Calls `f` with the descriptor `image` points to: in place if it is
/// aligned (as the runtime's are), else a copy.
///
/// # Safety
/// `image` points to a readable ImageDesc.
unsafe fn with_desc<T>(image: *const ImageDesc, f: impl FnOnce(&ImageDesc) -> T) -> T {
    if image.is_aligned() {
        // SAFETY: aligned, and valid for reads (the caller's contract); the
        // helpers only read it.
        f(unsafe { &*image })
    } else {
        // SAFETY: valid for reads (the caller's contract).
        f(&unsafe { image.read_unaligned() })
    }
}

/// [`clift_image_read`] on a descriptor: zeros for one that is not an
/// image's (see `sample::View::new`).
fn read_image(desc: &ImageDesc, sampler: u32, float_coords: bool, kind: u32, coords: [u32; 4]) -> [u32; 4] {
    match View::new(desc) {
        Some(view) => view.read(sampler, float_coords, integer_kind(desc, kind), coords),
        None => [0; 4],
    }
}

/// `kind` as the helpers apply it: an integer kind on an integer format is
/// the format's own. SPIR-V gives read_imagei and read_imageui (and
/// write_imagei and write_imageui) the same unsigned vector type, so the
/// generated code cannot tell them apart; reading or writing an integer
/// format with the other signedness is undefined, so its own is as good
/// as any and keeps every bit.
fn integer_kind(desc: &ImageDesc, kind: u32) -> u32 {
    match desc.format.kind() {
        Some(own @ (self::kind::INT | self::kind::UINT)) if kind != self::kind::FLOAT => own,
        _ => kind,
    }
}

/// [`clift_image_write`] on a descriptor: nothing for one that is not an
/// image's.
fn write_image(desc: &ImageDesc, kind: u32, coords: [i32; 4], value: [u32; 4]) {
    if let Some(view) = View::new(desc) {
        view.write(integer_kind(desc, kind), coords, value);
    }
}
