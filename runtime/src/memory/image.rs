//! Image objects (API spec 5.3): 1D images, 1D image buffers, 1D image
//! arrays, 2D images, 2D image arrays and 3D images, with their creation
//! rules and queries.
//!
//! An image is a memory object whose store holds its texels laid out as
//! the spec lays out the host data of `clCreateImage`: texel (x, y, z) at
//! `z * slice_pitch + y * row_pitch + x * element_size`, a 1D array's
//! layers `slice_pitch` apart, a 2D array's layers `slice_pitch` apart.
//! The store is clift's own allocation (tight pitches, or the pitches the
//! application gave with `CL_MEM_COPY_HOST_PTR`), the application's memory
//! with its pitches (`CL_MEM_USE_HOST_PTR`), or the store of the buffer
//! (1D image buffers and 2D images from a buffer, cl_khr_image2d_from_buffer)
//! or 2D image (a view with a compatible channel order) it was made from.
//!
//! Every image owns a [`ImageDesc`] at a fixed address: what a kernel's
//! image argument points to (`MemObject::image_desc`). The texel formats,
//! their sizes and conversions are `clift_builtins::image`'s.

use std::ffi::c_void;
use std::sync::Arc;

use clift_builtins::image::supported_formats;
pub use clift_builtins::image::{Format, ImageDesc};

use super::{
    check_mem_flags, new_store, Kind, MemObject, ACCESS_FLAGS, BUFFER_FLAGS, HOST_ACCESS_FLAGS, HOST_PTR_FLAGS,
};
use crate::context::Context;
use crate::device;
use crate::error::{fail, ClError, ClResult};
use crate::info::InfoValue;
use crate::object::handle_of;
use opencl_sys::*;

/// The image types of `cl_image_desc::image_type`.
pub const IMAGE_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

/// The kernel-access values clGetSupportedImageFormats distinguishes.
const ACCESS_KINDS: [cl_mem_flags; 4] = [
    CL_MEM_READ_ONLY,
    CL_MEM_WRITE_ONLY,
    CL_MEM_READ_WRITE,
    CL_MEM_KERNEL_READ_AND_WRITE,
];

/// `image_desc->mem_object` as the API layer found it.
#[derive(Clone, Default)]
pub enum SourceArg {
    /// NULL.
    #[default]
    None,
    /// Not a valid memory object.
    Invalid,
    /// A valid memory object.
    Object(Arc<MemObject>),
}

/// A `cl_image_desc`, in Rust.
#[derive(Clone, Default)]
pub struct ImageDescArg {
    pub image_type: cl_mem_object_type,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
    pub row_pitch: usize,
    pub slice_pitch: usize,
    pub num_mip_levels: cl_uint,
    pub num_samples: cl_uint,
    pub mem_object: SourceArg,
}

/// Which call creates the image. The calls answer a descriptor that breaks
/// the pitch rules differently: clCreateImage and
/// clCreateImageWithProperties with CL_INVALID_IMAGE_DESCRIPTOR ("values
/// specified in image_desc are not valid"), the OpenCL 1.1 calls
/// clCreateImage2D and clCreateImage3D with CL_INVALID_IMAGE_SIZE ("if
/// values specified by image_row_pitch [and image_slice_pitch] do not follow
/// rules described in the argument description").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// clCreateImage, clCreateImageWithProperties.
    CreateImage,
    /// clCreateImage2D, clCreateImage3D.
    Legacy,
}

/// Whether the device supports `format` for images of `image_type` in any
/// kernel access ("CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in
/// context that support image_format").
pub fn format_supported(image_type: cl_mem_object_type, format: Format) -> bool {
    ACCESS_KINDS
        .iter()
        .any(|&a| supported_formats(image_type, a).contains(&format))
}

/// clGetSupportedImageFormats for `flags` (already checked): the formats
/// of `image_type` for the kernel access the flags name (CL_MEM_READ_WRITE
/// when they name none, as for memory objects; CL_MEM_KERNEL_READ_AND_WRITE
/// when it is set).
pub fn supported_image_formats(flags: cl_mem_flags, image_type: cl_mem_object_type) -> &'static [Format] {
    let access = if flags & CL_MEM_KERNEL_READ_AND_WRITE != 0 {
        CL_MEM_KERNEL_READ_AND_WRITE
    } else {
        match flags & ACCESS_FLAGS {
            0 => CL_MEM_READ_WRITE,
            a => a,
        }
    };
    supported_formats(image_type, access)
}

/// The descriptor generated code reads, boxed so that its address never
/// changes while the image lives.
struct DescBox(Box<ImageDesc>);

// SAFETY: the descriptor is plain data, written once when the image is
// created and only read afterwards. Its `data` pointer points into the
// image's store, which the image keeps alive (`MemObject::storage`, and the
// memory object it was made from); it is dereferenced only by host commands
// and kernels that hold the image, and OpenCL makes the application order
// conflicting accesses to the texels.
unsafe impl Send for DescBox {}
// SAFETY: as above: shared references only read the descriptor's fields.
unsafe impl Sync for DescBox {}

/// An image's shape and format (the `Kind::Image` of its memory object).
pub struct Image {
    image_type: cl_mem_object_type,
    format: Format,
    element_size: usize,
    /// CL_IMAGE_WIDTH, CL_IMAGE_HEIGHT, CL_IMAGE_DEPTH and
    /// CL_IMAGE_ARRAY_SIZE: 0 where the type has no such extent.
    width: usize,
    height: usize,
    depth: usize,
    array_size: usize,
    /// CL_IMAGE_ROW_PITCH and CL_IMAGE_SLICE_PITCH (0 for 1D images, 1D
    /// image buffers and 2D images): the layout of the store.
    row_pitch: usize,
    slice_pitch: usize,
    /// `image_desc->mem_object`: the buffer or image the image shares its
    /// store with.
    source: Option<Arc<MemObject>>,
    desc: DescBox,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("type", &self.image_type)
            .field("format", &self.format)
            .field("extent", &self.extent())
            .field("row_pitch", &self.row_pitch)
            .field("slice_pitch", &self.slice_pitch)
            .finish()
    }
}

impl Image {
    /// The image type (`CL_MEM_OBJECT_IMAGE*`).
    pub fn image_type(&self) -> cl_mem_object_type {
        self.image_type
    }

    /// CL_IMAGE_FORMAT.
    pub fn format(&self) -> Format {
        self.format
    }

    /// CL_IMAGE_ELEMENT_SIZE: bytes per texel.
    pub fn element_size(&self) -> usize {
        self.element_size
    }

    /// CL_IMAGE_ROW_PITCH.
    pub fn row_pitch(&self) -> usize {
        self.row_pitch
    }

    /// CL_IMAGE_SLICE_PITCH: bytes from one 2D slice or array layer to the
    /// next (0 for 1D images, 1D image buffers and 2D images).
    pub fn slice_pitch(&self) -> usize {
        self.slice_pitch
    }

    /// The memory object the image was made from (`image_desc->mem_object`).
    pub fn source(&self) -> Option<&Arc<MemObject>> {
        self.source.as_ref()
    }

    /// The descriptor kernels get a pointer to.
    pub fn desc(&self) -> &ImageDesc {
        &self.desc.0
    }

    /// How many of an origin's or region's three values are coordinates:
    /// 1 for 1D images and 1D image buffers, 2 for 1D arrays (x and the
    /// layer) and 2D images, 3 for 2D arrays (x, y and the layer) and 3D
    /// images. The others must be 0 in an origin and 1 in a region.
    pub fn dims(&self) -> usize {
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => 1,
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D => 2,
            _ => 3,
        }
    }

    /// The image's size in the coordinates of an origin or region: (width,
    /// height or layers, depth or layers), 1 past the used ones.
    pub fn extent(&self) -> [usize; 3] {
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => [self.width, 1, 1],
            CL_MEM_OBJECT_IMAGE1D_ARRAY => [self.width, self.array_size, 1],
            CL_MEM_OBJECT_IMAGE2D => [self.width, self.height, 1],
            CL_MEM_OBJECT_IMAGE2D_ARRAY => [self.width, self.height, self.array_size],
            _ => [self.width, self.height, self.depth],
        }
    }

    /// Bytes from one step of an origin's second and third coordinates to
    /// the next in the store: (row pitch, slice pitch), a 1D array's layers
    /// being its second coordinate.
    pub fn strides(&self) -> [usize; 2] {
        match self.image_type {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => [self.slice_pitch, self.slice_pitch],
            CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => [self.row_pitch, self.slice_pitch],
            _ => [self.row_pitch, self.row_pitch * self.extent()[1]],
        }
    }

    /// The bytes the image spans in its store (the spec's "Required
    /// host_ptr buffer sizes for images"): its row pitch (1D), row pitch
    /// times height (2D), slice pitch times layers (arrays) or depth (3D);
    /// `None` if that overflows.
    fn span(&self) -> Option<usize> {
        let [y_stride, z_stride] = self.strides();
        let [_, rows, slices] = self.extent();
        match self.dims() {
            1 => Some(self.row_pitch),
            2 => y_stride.checked_mul(rows),
            _ => z_stride.checked_mul(slices),
        }
    }

    /// clGetImageInfo.
    pub fn info(&self, param: cl_image_info) -> ClResult<InfoValue> {
        Ok(match param {
            CL_IMAGE_FORMAT => InfoValue::u32s(&[self.format.order, self.format.data_type]),
            CL_IMAGE_ELEMENT_SIZE => InfoValue::usize(self.element_size),
            CL_IMAGE_ROW_PITCH => InfoValue::usize(self.row_pitch),
            CL_IMAGE_SLICE_PITCH => InfoValue::usize(self.slice_pitch),
            CL_IMAGE_WIDTH => InfoValue::usize(self.width),
            CL_IMAGE_HEIGHT => InfoValue::usize(self.height),
            CL_IMAGE_DEPTH => InfoValue::usize(self.depth),
            CL_IMAGE_ARRAY_SIZE => InfoValue::usize(self.array_size),
            // "Return buffer object associated with image": the buffer a 1D
            // image buffer or a 2D image was made from, else NULL.
            CL_IMAGE_BUFFER => InfoValue::handle(self.source.as_ref().filter(|s| s.is_buffer()).map_or(0, handle_of)),
            // clift has no mipmapped (cl_khr_mipmap_image) or multi-sampled
            // images: num_mip_levels and num_samples must be 0.
            CL_IMAGE_NUM_MIP_LEVELS | CL_IMAGE_NUM_SAMPLES => InfoValue::u32(0),
            // CL_INVALID_VALUE if param_name is not one of the supported values.
            _ => return fail(CL_INVALID_VALUE),
        })
    }
}

/// Whether `ours` may view an image whose channel order is `theirs` (the
/// Compatible Image Channel Orders table of 2D images made from 2D images).
fn compatible_orders(ours: u32, theirs: u32) -> bool {
    use clift_builtins::image::order::*;
    ours == theirs
        || matches!(
            (ours, theirs),
            (SBGRA, BGRA)
                | (BGRA, SBGRA)
                | (SRGBA, RGBA)
                | (RGBA, SRGBA)
                | (SRGB, RGB)
                | (RGB, SRGB)
                | (SRGBX, RGBX)
                | (RGBX, SRGBX)
                | (DEPTH, R)
        )
}

/// The largest width, height and depth of each image type, and whether it
/// has layers: `[max width, max height (0: unused), max depth (0: unused)]`.
fn limits(image_type: cl_mem_object_type) -> [usize; 3] {
    use device::{IMAGE2D_MAX_SIZE as M2, IMAGE3D_MAX_SIZE as M3};
    match image_type {
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_ARRAY => [M2, 0, 0],
        CL_MEM_OBJECT_IMAGE1D_BUFFER => [device::IMAGE_MAX_BUFFER_SIZE, 0, 0],
        CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY => [M2, M2, 0],
        _ => [M3, M3, M3],
    }
}

/// Whether images of `image_type` have layers.
fn is_array(image_type: cl_mem_object_type) -> bool {
    matches!(image_type, CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY)
}

impl MemObject {
    /// clCreateImage, clCreateImageWithProperties, clCreateImage2D and
    /// clCreateImage3D (the latter two with their arguments as a
    /// descriptor, after their own depth check). `properties` is the
    /// property list without its terminator, `None` for NULL; `format` and
    /// `desc` are `None` for NULL.
    ///
    /// The checks come in the order of the spec's error list: the flags
    /// (CL_INVALID_VALUE, also against `mem_object`'s), the format
    /// (CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), the descriptor
    /// (CL_INVALID_IMAGE_DESCRIPTOR: type, mip levels, samples, mem_object),
    /// the dimensions (CL_INVALID_IMAGE_SIZE), the pitches and what the
    /// image is made from (CL_INVALID_IMAGE_DESCRIPTOR, or
    /// CL_INVALID_IMAGE_SIZE from the OpenCL 1.1 calls; the format rules
    /// of images made from buffers and images give
    /// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR), `host_ptr`
    /// (CL_INVALID_HOST_PTR), the device's formats
    /// (CL_IMAGE_FORMAT_NOT_SUPPORTED), the allocation
    /// (CL_MEM_OBJECT_ALLOCATION_FAILURE).
    ///
    /// # Safety
    ///
    /// If `host_ptr` is not NULL it must be valid for reads of the bytes the
    /// descriptor's pitches and dimensions span (the spec's "Required
    /// host_ptr buffer sizes for images") during the call, and, with
    /// `CL_MEM_USE_HOST_PTR`, for reads and writes of them until the image's
    /// destructor callbacks have run: the OpenCL API contract for `host_ptr`.
    pub unsafe fn create_image(
        context: &Arc<Context>,
        properties: Option<&[u64]>,
        flags: cl_mem_flags,
        format: Option<Format>,
        desc: Option<&ImageDescArg>,
        host_ptr: *mut c_void,
        entry: Entry,
    ) -> ClResult<Arc<MemObject>> {
        // CL_INVALID_OPERATION if there are no devices in context that
        // support images (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE).
        if !device::IMAGE_SUPPORT || context.devices().is_empty() {
            return fail(CL_INVALID_OPERATION);
        }
        // CL_INVALID_PROPERTY if a property name in properties is not a
        // supported property name ("OpenCL does not define any optional
        // properties for images").
        if properties.is_some_and(|p| !p.is_empty()) {
            return fail(CL_INVALID_PROPERTY);
        }
        // CL_INVALID_VALUE if values specified in flags are not valid as
        // defined in the Memory Flags table.
        check_mem_flags(flags, BUFFER_FLAGS)?;
        let source = match desc.map(|d| &d.mem_object) {
            Some(SourceArg::Object(m)) => Some(m),
            _ => None,
        };
        if let Some(src) = source {
            check_flags_against(flags, src.flags)?;
        }

        // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if image_format is NULL; if
        // values specified in image_format are not valid (an order and a
        // data type that do not combine).
        let format = format.ok_or(ClError(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR))?;
        let es = format
            .element_size()
            .ok_or(ClError(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR))?;

        // CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are
        // not valid or if image_desc is NULL.
        let bad_desc = ClError(CL_INVALID_IMAGE_DESCRIPTOR);
        let d = desc.ok_or(bad_desc)?;
        let ty = d.image_type;
        if !IMAGE_TYPES.contains(&ty) {
            return Err(bad_desc);
        }
        // "num_mip_levels must be 0"; "num_samples must be 0".
        if d.num_mip_levels != 0 || d.num_samples != 0 {
            return Err(bad_desc);
        }
        // "mem_object can be a buffer memory object if image_type is
        // CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D. mem_object
        // can be an image object if image_type is CL_MEM_OBJECT_IMAGE2D.
        // Otherwise it must be NULL." A 1D image buffer is made from a
        // buffer.
        match (&d.mem_object, ty) {
            (SourceArg::None, CL_MEM_OBJECT_IMAGE1D_BUFFER) | (SourceArg::Invalid, _) => return Err(bad_desc),
            (SourceArg::None, _) => {}
            (SourceArg::Object(m), _) => {
                let fits = match ty {
                    CL_MEM_OBJECT_IMAGE1D_BUFFER => m.is_buffer(),
                    CL_MEM_OBJECT_IMAGE2D => m.is_buffer() || m.mem_type() == CL_MEM_OBJECT_IMAGE2D,
                    _ => false,
                };
                if !fits || !Arc::ptr_eq(m.context(), context) {
                    return Err(bad_desc);
                }
            }
        }

        // CL_INVALID_IMAGE_SIZE if the image dimensions specified in
        // image_desc are not valid (each used one at least 1) or exceed the
        // maximum image dimensions for all devices in context.
        let [max_w, max_h, max_d] = limits(ty);
        let bad_size = ClError(CL_INVALID_IMAGE_SIZE);
        let within = |v: usize, max: usize| (1..=max).contains(&v);
        if !within(d.width, max_w)
            || (max_h > 0 && !within(d.height, max_h))
            || (max_d > 0 && !within(d.depth, max_d))
            || (is_array(ty) && !within(d.array_size, device::IMAGE_MAX_ARRAY_SIZE))
            // clCreateImage3D: "CL_INVALID_IMAGE_SIZE if ... image_depth <= 1".
            || (entry == Entry::Legacy && ty == CL_MEM_OBJECT_IMAGE3D && d.depth <= 1)
        {
            return Err(bad_size);
        }

        // The pitches.
        let pitch_err = ClError(match entry {
            Entry::CreateImage => CL_INVALID_IMAGE_DESCRIPTOR,
            Entry::Legacy => CL_INVALID_IMAGE_SIZE,
        });
        let has_host = !host_ptr.is_null();
        let from_buffer = source.is_some_and(|s| s.is_buffer());
        let from_image = source.is_some_and(|s| s.is_image());
        let tight_row = d.width.checked_mul(es).ok_or(bad_size)?;
        // "The image_row_pitch must be zero if host_ptr is NULL and the
        // image is not a 2D image created from a buffer. If image_row_pitch
        // is zero and host_ptr is not NULL, then the image row pitch is
        // calculated as image_width times the size of an image element in
        // bytes. If image_row_pitch is non-zero, then it must be greater
        // than or equal to the image_width times the size of an image
        // element in bytes, and must be a multiple of the size of an image
        // element in bytes." An image made from another image may also give
        // that image's row pitch, which its descriptor must match (below),
        // and a 1D image buffer a pitch for its one row, as a 2D image
        // from a buffer may (the Khronos conformance suite gives them
        // padded pitches; a single row's pitch changes nothing).
        let row_pitch = match d.row_pitch {
            0 => tight_row,
            _ if !(has_host || from_image || from_buffer) => return Err(pitch_err),
            r if r < tight_row || !r.is_multiple_of(es) => return Err(pitch_err),
            r => r,
        };
        // "The image_slice_pitch must be zero if host_ptr is NULL. ... The
        // image slice pitch must be >= the image row pitch × image_height
        // for a 2D image array or a 3D image, must be >= the image row pitch
        // for a 1D image array, and must be a multiple of the image row
        // pitch." 0 is computed as the smallest of these.
        if !has_host && d.slice_pitch != 0 {
            return Err(pitch_err);
        }
        let slice_pitch = match ty {
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => {
                let rows = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY { 1 } else { d.height };
                let min = row_pitch.checked_mul(rows).ok_or(pitch_err)?;
                match d.slice_pitch {
                    0 => min,
                    s if s < min || !s.is_multiple_of(row_pitch) => return Err(pitch_err),
                    s => s,
                }
            }
            // "For a 1D image, 1D image buffer and 2D image object return 0."
            _ => 0,
        };
        let mut image = Image {
            image_type: ty,
            format,
            element_size: es,
            width: d.width,
            height: if matches!(
                ty,
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
            ) {
                d.height
            } else {
                0
            },
            depth: if ty == CL_MEM_OBJECT_IMAGE3D { d.depth } else { 0 },
            array_size: if is_array(ty) { d.array_size } else { 0 },
            row_pitch,
            slice_pitch,
            source: source.cloned(),
            desc: DescBox(Box::new(empty_desc())),
        };
        if let Some(src) = source {
            if let Some(si) = src.image() {
                // "For an image object created from another image object,
                // the values specified in the image descriptor except for
                // mem_object must match the image descriptor information
                // associated with mem_object" (pitches left 0 take the
                // source's).
                if d.width != si.width || d.height != si.height || (d.row_pitch != 0 && d.row_pitch != si.row_pitch) {
                    return Err(bad_desc);
                }
                // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: "The image channel
                // data type specified in image_format must match the image
                // channel data type associated with mem_object. The image
                // channel order specified in image_format must be
                // compatible with the image channel order associated with
                // mem_object."
                if format.data_type != si.format.data_type || !compatible_orders(format.order, si.format.order) {
                    return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
                }
                image.row_pitch = si.row_pitch;
            } else {
                // "For a 1D image buffer created from a buffer object, the
                // image_width × size of element in bytes must be <= size of
                // the buffer object." "For a 2D image created from a buffer
                // object, the image_row_pitch × image_height must be <=
                // size of the buffer object specified by mem_object."
                let need = if ty == CL_MEM_OBJECT_IMAGE2D {
                    row_pitch.checked_mul(d.height).ok_or(bad_desc)?
                } else {
                    tight_row
                };
                if need > src.size() {
                    return Err(bad_desc);
                }
                if ty == CL_MEM_OBJECT_IMAGE2D {
                    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is
                    // created from a buffer and the row pitch and base
                    // address alignment does not follow the rules: "the
                    // image_row_pitch must also be a multiple of the
                    // maximum of the CL_DEVICE_IMAGE_PITCH_ALIGNMENT value
                    // for all devices in the context" (in pixels); "If the
                    // buffer object specified by mem_object was created
                    // with CL_MEM_USE_HOST_PTR, the host_ptr specified to
                    // clCreateBuffer must be aligned to the maximum of the
                    // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT value" (in
                    // pixels).
                    let pitch_align = device::IMAGE_PITCH_ALIGNMENT as usize * es;
                    let base_align = device::IMAGE_BASE_ADDRESS_ALIGNMENT as usize * es;
                    if !row_pitch.is_multiple_of(pitch_align)
                        || (src.flags & CL_MEM_USE_HOST_PTR != 0
                            && !(src.host_address() as usize).is_multiple_of(base_align))
                    {
                        return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
                    }
                }
            }
        }

        // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR are set in flags; if host_ptr is not NULL but
        // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
        let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
        if has_host != wants_ptr {
            return fail(CL_INVALID_HOST_PTR);
        }
        // CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context
        // that support image_format.
        if !format_supported(ty, format) {
            return fail(CL_IMAGE_FORMAT_NOT_SUPPORTED);
        }

        // The bytes the image spans, overflow being an impossible pitch.
        let size = image.span().ok_or(pitch_err)?;
        let mut host = 0;
        let (storage, offset, eff_flags) = match source {
            // "The image pixels are taken from the memory objects data
            // store": the image views it where it starts. The flags it does
            // not give are inherited.
            Some(src) => (src.storage.clone(), src.offset, inherit_flags(flags, src.flags)),
            None => {
                // CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to
                // allocate memory for the image object.
                if size as u64 > context.max_mem_alloc_size() {
                    return fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
                }
                // A host_ptr in an SVM allocation too small for the image
                // breaks the host_ptr size rule.
                // SAFETY: this function's contract, which is `new_store`'s
                // for `size` bytes.
                let store = unsafe { new_store(context, flags, size, host_ptr, CL_INVALID_HOST_PTR) }?;
                host = store.host_ptr;
                (store.storage, store.offset, flags)
            }
        };
        let data = (storage.addr() + offset) as *mut u8;
        image.desc = DescBox(Box::new(descriptor(&image, data)));
        let mut mem = MemObject::new(context, Kind::Image(Box::new(image)), eff_flags, storage, offset, size);
        mem.host_ptr = host;
        // With a properties argument, CL_MEM_PROPERTIES returns it as given,
        // terminator included.
        mem.properties = properties.map(|p| p.iter().copied().chain([0]).collect());
        Ok(Arc::new(mem))
    }

    /// clGetImageInfo.
    pub fn image_info(&self, param: cl_image_info) -> ClResult<InfoValue> {
        // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
        self.image().ok_or(ClError(CL_INVALID_MEM_OBJECT))?.info(param)
    }
}

/// CL_INVALID_VALUE if an image is being created from another memory
/// object and `flags` asks for what `parent` (the object's flags) rules
/// out.
fn check_flags_against(flags: cl_mem_flags, parent: cl_mem_flags) -> ClResult<()> {
    // flags specifies CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR.
    if flags & HOST_PTR_FLAGS != 0 {
        return fail(CL_INVALID_VALUE);
    }
    super::check_inherited_flags(parent, flags)
}

/// The flags of an image made from a memory object with flags `parent`:
/// "If the CL_MEM_READ_WRITE, CL_MEM_READ_ONLY or CL_MEM_WRITE_ONLY values
/// are not specified in flags, they are inherited from the corresponding
/// memory access qualifiers associated with mem_object. The
/// CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR and CL_MEM_COPY_HOST_PTR
/// values cannot be specified in flags but are inherited ... If the
/// CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS
/// values are not specified in flags, they are inherited."
fn inherit_flags(flags: cl_mem_flags, parent: cl_mem_flags) -> cl_mem_flags {
    let mut eff = flags | (parent & HOST_PTR_FLAGS);
    if flags & ACCESS_FLAGS == 0 {
        eff |= parent & ACCESS_FLAGS;
    }
    if flags & HOST_ACCESS_FLAGS == 0 {
        eff |= parent & HOST_ACCESS_FLAGS;
    }
    eff
}

/// A descriptor with no texels, until the store is known.
fn empty_desc() -> ImageDesc {
    ImageDesc {
        data: std::ptr::null_mut(),
        width: 0,
        height: 0,
        depth: 0,
        array_size: 0,
        row_pitch: 0,
        slice_pitch: 0,
        element_size: 0,
        image_type: 0,
        format: Format { order: 0, data_type: 0 },
        fast: clift_builtins::image::fast::NONE,
    }
}

/// The descriptor of `image` whose first texel is at `data`, as
/// `ImageDesc` documents it: height 1 for 1D images and 1D arrays, depth 1
/// but for 3D images, array size 1 but for arrays; a 1D array's layers
/// are its rows (`row_pitch` is the layer pitch), a 2D array's its slices.
fn descriptor(image: &Image, data: *mut u8) -> ImageDesc {
    let [y_stride, z_stride] = image.strides();
    ImageDesc {
        data,
        width: image.width as u64,
        height: image.height.max(1) as u64,
        depth: image.depth.max(1) as u64,
        array_size: image.array_size.max(1) as u64,
        row_pitch: y_stride as u64,
        slice_pitch: z_stride as u64,
        element_size: image.element_size as u64,
        image_type: image.image_type,
        format: image.format,
        fast: if data.is_null() || crate::config::get().no_fast_images {
            clift_builtins::image::fast::NONE
        } else {
            clift_builtins::image::fast_class(image.format)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An image of `ty` with RGBA8 texels (4 bytes): 5 wide, 4 high or 3
    /// layers, 3 deep, with the pitches given.
    fn rgba8(ty: cl_mem_object_type, row_pitch: usize, slice_pitch: usize) -> Image {
        Image {
            image_type: ty,
            format: Format {
                order: CL_RGBA,
                data_type: CL_UNORM_INT8,
            },
            element_size: 4,
            width: 5,
            height: if matches!(
                ty,
                CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
            ) {
                4
            } else {
                0
            },
            depth: if ty == CL_MEM_OBJECT_IMAGE3D { 3 } else { 0 },
            array_size: if is_array(ty) { 3 } else { 0 },
            row_pitch,
            slice_pitch,
            source: None,
            desc: DescBox(Box::new(empty_desc())),
        }
    }

    #[test]
    fn descriptors_are_as_image_desc_documents_them() {
        let data = 0x1000 as *mut u8;
        // (type, row pitch, slice pitch) -> (height, depth, layers, row
        // pitch, slice pitch) of the descriptor.
        let cases = [
            (CL_MEM_OBJECT_IMAGE1D, 20, 0, (1, 1, 1, 20, 20)),
            (CL_MEM_OBJECT_IMAGE1D_BUFFER, 20, 0, (1, 1, 1, 20, 20)),
            // A 1D array's layers are its rows, the slice pitch apart.
            (CL_MEM_OBJECT_IMAGE1D_ARRAY, 24, 48, (1, 1, 3, 48, 48)),
            (CL_MEM_OBJECT_IMAGE2D, 32, 0, (4, 1, 1, 32, 128)),
            (CL_MEM_OBJECT_IMAGE2D_ARRAY, 32, 160, (4, 1, 3, 32, 160)),
            (CL_MEM_OBJECT_IMAGE3D, 20, 80, (4, 3, 1, 20, 80)),
        ];
        for (ty, rp, sp, (h, d, a, drp, dsp)) in cases {
            let img = rgba8(ty, rp, sp);
            let desc = descriptor(&img, data);
            assert_eq!(desc.data, data);
            assert_eq!(
                (desc.width, desc.height, desc.depth, desc.array_size),
                (5, h, d, a),
                "{ty:#x}"
            );
            assert_eq!((desc.row_pitch, desc.slice_pitch), (drp, dsp), "{ty:#x}");
            assert_eq!(desc.element_size, 4);
            assert_eq!(desc.image_type, ty);
            assert_eq!(desc.format, img.format);
            // JIT code reads RGBA UNORM_INT8 inline (unless
            // CLIFT_NO_FAST_IMAGES, which the unit tests do not set).
            let fast = if crate::config::get().no_fast_images {
                clift_builtins::image::fast::NONE
            } else {
                clift_builtins::image::fast::RGBA_UNORM8
            };
            assert_eq!(desc.fast, fast);
        }
        // No storage yet: no fast class, whatever the format.
        let img = rgba8(CL_MEM_OBJECT_IMAGE2D, 32, 0);
        assert_eq!(
            descriptor(&img, std::ptr::null_mut()).fast,
            clift_builtins::image::fast::NONE
        );
        assert_eq!(empty_desc().fast, clift_builtins::image::fast::NONE);
    }

    #[test]
    fn extents_strides_and_spans() {
        let i = rgba8(CL_MEM_OBJECT_IMAGE1D_ARRAY, 24, 48);
        assert_eq!(
            (i.dims(), i.extent(), i.strides(), i.span()),
            (2, [5, 3, 1], [48, 48], Some(144))
        );
        let i = rgba8(CL_MEM_OBJECT_IMAGE2D_ARRAY, 32, 160);
        assert_eq!(
            (i.dims(), i.extent(), i.strides(), i.span()),
            (3, [5, 4, 3], [32, 160], Some(480))
        );
        let i = rgba8(CL_MEM_OBJECT_IMAGE3D, 20, 80);
        assert_eq!(
            (i.dims(), i.extent(), i.strides(), i.span()),
            (3, [5, 4, 3], [20, 80], Some(240))
        );
        let i = rgba8(CL_MEM_OBJECT_IMAGE2D, 32, 0);
        assert_eq!(
            (i.dims(), i.extent(), i.strides(), i.span()),
            (2, [5, 4, 1], [32, 128], Some(128))
        );
        let i = rgba8(CL_MEM_OBJECT_IMAGE1D, 28, 0);
        assert_eq!((i.dims(), i.extent(), i.span()), (1, [5, 1, 1], Some(28)));
        let i = rgba8(CL_MEM_OBJECT_IMAGE3D, 20, usize::MAX / 2);
        assert_eq!(i.span(), None);
    }

    #[test]
    fn compatible_orders_are_the_spec_table() {
        use clift_builtins::image::order::*;
        for (a, b) in [(SBGRA, BGRA), (SRGBA, RGBA), (SRGB, RGB), (SRGBX, RGBX)] {
            assert!(compatible_orders(a, b) && compatible_orders(b, a));
        }
        // A depth view of an R image, not the other way round.
        assert!(compatible_orders(DEPTH, R));
        assert!(!compatible_orders(R, DEPTH));
        assert!(!compatible_orders(RGBA, BGRA));
        assert!(!compatible_orders(SRGBA, SBGRA));
        assert!(compatible_orders(RG, RG));
    }

    #[test]
    fn flags_of_images_from_memory_objects() {
        let parent = CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_NO_ACCESS;
        assert_eq!(inherit_flags(0, parent), parent);
        assert_eq!(
            inherit_flags(CL_MEM_READ_ONLY, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY),
            CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY
        );
        assert!(check_flags_against(CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY).is_err());
        assert!(check_flags_against(CL_MEM_COPY_HOST_PTR, 0).is_err());
        assert!(check_flags_against(CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS).is_err());
        assert!(check_flags_against(CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_WRITE).is_ok());
    }
}
