//! Images: formats, texel encoding and decoding, addressing and filtering
//! (OpenCL SPIR-V environment, "Image Addressing and Filtering"; OpenCL C,
//! "Image Read and Write Functions"), for the runtime's host commands and
//! the helpers JIT code calls for image reads, writes and samples.
//!
//! CONTRACT (the signatures below are fixed; the bodies are to be written).

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
    pub _reserved: u32,
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
        todo!()
    }
}

/// The formats clift's device supports for images of `image_type` (an
/// [`image_type`] value) used as `access` says (`CL_MEM_READ_ONLY`,
/// `CL_MEM_WRITE_ONLY`, `CL_MEM_READ_WRITE` or `CL_MEM_KERNEL_READ_AND_WRITE`
/// bits of `cl_mem_flags`), in the order clGetSupportedImageFormats lists
/// them: at least the full-profile minimum list of the API spec.
pub fn supported_formats(image_type: u32, access: u64) -> &'static [Format] {
    let _ = (image_type, access);
    todo!()
}

/// The texel clEnqueueFillImage writes for `color` (four floats for
/// formats that are not integer, four `i32` for signed integer formats,
/// four `u32` for unsigned ones, 16 bytes as the application gave them),
/// converted as a kernel's write_image{f,i,ui} would: `element_size` bytes.
pub fn encode_fill(format: Format, color: &[u8; 16]) -> Vec<u8> {
    let _ = (format, color);
    todo!()
}

/// Result kinds of the read helper and value kinds of the write helper.
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
    let _ = (image, sampler, float_coords, kind, coords, out);
    todo!()
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
    let _ = (image, kind, coords, value);
    todo!()
}
