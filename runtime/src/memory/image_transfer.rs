//! Commands on images (API spec 5.3.4-5.3.6): read, write, copy (between
//! images, and between images and buffers), fill and map. Unmapping is
//! `transfer::unmap`, shared with buffers.
//!
//! Each function checks its arguments in the order of the spec's error list
//! (the spec sentence above each check) and returns a [`Command`], which the
//! API layer enqueues after converting the wait list, as for buffers.
//!
//! Origins and regions are in texels, in the image's coordinates: (x, y, z)
//! of 3D images, (x, y, layer) of 2D arrays, (x, layer) of 1D arrays. An
//! image region becomes a byte rectangle of its store (`storage::Rect`,
//! rows `strides()[0]` apart, slices `strides()[1]` apart); the host or
//! buffer side is laid out with the application's pitches, or packed.

use std::ffi::c_void;
use std::sync::Arc;

use super::image::Image;
use super::storage::{self, Bytes, HostPtr, Rect};
use super::transfer::{check_aligned, check_buffer, Command, Direction};
use super::MemObject;
use crate::error::{fail, ClError, ClResult};
use crate::queue::Queue;
use opencl_sys::*;

/// Checks that `mem` is an image of the queue's context and returns it.
fn check_image<'a>(queue: &Queue, mem: &'a MemObject) -> ClResult<&'a Image> {
    // CL_INVALID_MEM_OBJECT if image is not a valid image object.
    let img = mem.image().ok_or(ClError(CL_INVALID_MEM_OBJECT))?;
    // CL_INVALID_CONTEXT if the context associated with command_queue and
    // image are not the same.
    if !Arc::ptr_eq(queue.context(), mem.context()) {
        return fail(CL_INVALID_CONTEXT);
    }
    // CL_INVALID_OPERATION if the device associated with command_queue does
    // not support images; CL_INVALID_IMAGE_SIZE and
    // CL_IMAGE_FORMAT_NOT_SUPPORTED if its dimensions or format are not
    // supported by it: every clift device supports every image its
    // context's devices can create.
    Ok(img)
}

/// The three values of an origin or region argument; CL_INVALID_VALUE if
/// the application passed NULL.
fn triple(v: Option<[usize; 3]>) -> ClResult<[usize; 3]> {
    v.ok_or(ClError(CL_INVALID_VALUE))
}

/// Checks `origin` and `region` against `img` and returns the region as a
/// byte rectangle of the image's store and its size in bytes, rows and
/// slices.
fn image_rect(img: &Image, origin: [usize; 3], region: [usize; 3]) -> ClResult<(Rect, [usize; 3])> {
    let bad = ClError(CL_INVALID_VALUE);
    // "The values in region cannot be 0."
    if region.contains(&0) {
        return Err(bad);
    }
    let dims = img.dims();
    let extent = img.extent();
    for k in 0..3 {
        if k >= dims {
            // "If image is a 2D image object, origin[2] must be 0. If image
            // is a 1D image or 1D image buffer object, origin[1] and
            // origin[2] must be 0. If image is a 1D image array object,
            // origin[2] must be 0." Likewise region[k] must be 1.
            if origin[k] != 0 || region[k] != 1 {
                return Err(bad);
            }
        } else {
            // CL_INVALID_VALUE if the region being read or written specified
            // by origin and region is out of bounds (for arrays, the layers
            // are the last coordinate).
            match origin[k].checked_add(region[k]) {
                Some(end) if end <= extent[k] => {}
                _ => return Err(bad),
            }
        }
    }
    let es = img.element_size();
    let [ys, zs] = img.strides();
    Ok((
        Rect {
            offset: origin[0] * es + origin[1] * ys + origin[2] * zs,
            row_pitch: ys,
            slice_pitch: zs,
        },
        [region[0] * es, region[1], region[2]],
    ))
}

/// The packed layout of a `region` of `img` starting at `offset` (a
/// buffer's side of a copy): rows of `region[0]` texels, then the next row
/// or array layer.
fn packed(img: &Image, region: [usize; 3], offset: usize) -> ClResult<Rect> {
    let row = region[0]
        .checked_mul(img.element_size())
        .ok_or(ClError(CL_INVALID_VALUE))?;
    let slice = row.checked_mul(region[1]).ok_or(ClError(CL_INVALID_VALUE))?;
    Ok(Rect {
        offset,
        row_pitch: row,
        slice_pitch: slice,
    })
}

/// The host side of a read or write of `region` of `img` with the
/// application's `row_pitch` and `slice_pitch` (0: computed).
fn host_layout(img: &Image, region: [usize; 3], row_pitch: usize, slice_pitch: usize) -> ClResult<Rect> {
    let bad = ClError(CL_INVALID_VALUE);
    // "This value must be greater than or equal to the element size in
    // bytes × width. If row_pitch is set to 0, the appropriate row pitch is
    // calculated based on the size of each element in bytes multiplied by
    // width."
    let tight = region[0].checked_mul(img.element_size()).ok_or(bad)?;
    let row = match row_pitch {
        0 => tight,
        r if r < tight => return Err(bad),
        r => r,
    };
    match img.image_type() {
        // CL_INVALID_VALUE if image is a 1D or 2D image and slice_pitch is
        // not zero.
        CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER | CL_MEM_OBJECT_IMAGE2D => {
            if slice_pitch != 0 {
                return Err(bad);
            }
            Ok(Rect {
                offset: 0,
                row_pitch: row,
                slice_pitch: row.checked_mul(region[1]).ok_or(bad)?,
            })
        }
        // "slice_pitch is the size in bytes of ... each image of a 1D or 2D
        // image array": a 1D array's layers are one row each, slice_pitch
        // apart (at least row_pitch; 0 is row_pitch).
        CL_MEM_OBJECT_IMAGE1D_ARRAY => {
            let layer = match slice_pitch {
                0 => row,
                s if s < row => return Err(bad),
                s => s,
            };
            Ok(Rect {
                offset: 0,
                row_pitch: layer,
                slice_pitch: layer,
            })
        }
        // "Otherwise this value must be greater than or equal to row_pitch ×
        // height. If slice_pitch is set to 0, the appropriate slice pitch is
        // calculated based on the row_pitch × height."
        _ => {
            let min = row.checked_mul(region[1]).ok_or(bad)?;
            let slice = match slice_pitch {
                0 => min,
                s if s < min => return Err(bad),
                s => s,
            };
            Ok(Rect {
                offset: 0,
                row_pitch: row,
                slice_pitch: slice,
            })
        }
    }
}

/// The arguments of clEnqueueReadImage and clEnqueueWriteImage besides the
/// queue, image and pointer.
#[derive(Debug, Clone, Copy)]
pub struct ImageRectArgs {
    pub origin: Option<[usize; 3]>,
    pub region: Option<[usize; 3]>,
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

/// clEnqueueReadImage and clEnqueueWriteImage.
fn host_transfer(
    dir: Direction,
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    a: &ImageRectArgs,
    ptr: HostPtr,
) -> ClResult<Command> {
    let img = check_image(queue, mem)?;
    // CL_INVALID_VALUE if origin or region is NULL; if the region is out of
    // bounds or breaks the rules for origin and region; if the pitches break
    // theirs; if ptr is NULL.
    let (origin, region) = (triple(a.origin)?, triple(a.region)?);
    let (i_rect, bytes) = image_rect(img, origin, region)?;
    let h_rect = host_layout(img, region, a.row_pitch, a.slice_pitch)?;
    let end = h_rect.end(bytes).ok_or(ClError(CL_INVALID_VALUE))?;
    let host = ptr.bytes(end).ok_or(ClError(CL_INVALID_VALUE))?;
    // CL_INVALID_OPERATION if clEnqueueReadImage is called on image which
    // has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS;
    // if clEnqueueWriteImage is called on image which has been created with
    // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
    dir.check_host_access(mem)?;
    let mem = mem.clone();
    let device = queue.device().clone();
    let (command_type, work): (cl_command_type, crate::event::Work) = match dir {
        Direction::Read => (
            CL_COMMAND_READ_IMAGE,
            Box::new(move || storage::copy_rect(&host, h_rect, &mem.bytes()?, i_rect, bytes, Some(device.pool()))),
        ),
        Direction::Write => (
            CL_COMMAND_WRITE_IMAGE,
            Box::new(move || storage::copy_rect(&mem.bytes()?, i_rect, &host, h_rect, bytes, Some(device.pool()))),
        ),
    };
    Ok(Command::new(queue, command_type, work))
}

/// clEnqueueReadImage.
pub fn read_image(queue: &Arc<Queue>, mem: &Arc<MemObject>, args: &ImageRectArgs, ptr: HostPtr) -> ClResult<Command> {
    host_transfer(Direction::Read, queue, mem, args, ptr)
}

/// clEnqueueWriteImage.
pub fn write_image(queue: &Arc<Queue>, mem: &Arc<MemObject>, args: &ImageRectArgs, ptr: HostPtr) -> ClResult<Command> {
    host_transfer(Direction::Write, queue, mem, args, ptr)
}

/// clEnqueueCopyImage.
pub fn copy_image(
    queue: &Arc<Queue>,
    src: &Arc<MemObject>,
    dst: &Arc<MemObject>,
    src_origin: Option<[usize; 3]>,
    dst_origin: Option<[usize; 3]>,
    region: Option<[usize; 3]>,
) -> ClResult<Command> {
    // CL_INVALID_MEM_OBJECT if src_image or dst_image is not a valid image
    // object; CL_INVALID_CONTEXT if the context associated with
    // command_queue and src_image or dst_image are not the same.
    let si = check_image(queue, src)?;
    let di = check_image(queue, dst)?;
    // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the
    // same image format.
    if si.format() != di.format() {
        return fail(CL_IMAGE_FORMAT_MISMATCH);
    }
    // CL_INVALID_VALUE if src_origin, dst_origin or region is NULL; if
    // either region is outside its image; if the values break the rules
    // for either image ("If src_image or dst_image is a 2D image object,
    // region[2] must be 1", ...).
    let (so, dor, region) = (triple(src_origin)?, triple(dst_origin)?, triple(region)?);
    let (s_rect, bytes) = image_rect(si, so, region)?;
    let (d_rect, _) = image_rect(di, dor, region)?;
    // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image
    // object and the source and destination regions overlap.
    if Arc::ptr_eq(src, dst) && (0..3).all(|k| so[k] < dor[k] + region[k] && dor[k] < so[k] + region[k]) {
        return fail(CL_MEM_COPY_OVERLAP);
    }
    let (src, dst) = (src.clone(), dst.clone());
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_COPY_IMAGE,
        Box::new(move || storage::copy_rect(&dst.bytes()?, d_rect, &src.bytes()?, s_rect, bytes, Some(device.pool()))),
    ))
}

/// Whether `image` is a 1D image buffer made from `buffer`.
fn made_from(image: &Image, buffer: &Arc<MemObject>) -> bool {
    image.image_type() == CL_MEM_OBJECT_IMAGE1D_BUFFER && image.source().is_some_and(|s| Arc::ptr_eq(s, buffer))
}

/// The buffer side of a copy between an image and a buffer: the packed
/// region at `offset`, checked against the buffer.
fn buffer_side(
    img: &Image,
    buffer: &MemObject,
    region: [usize; 3],
    bytes: [usize; 3],
    offset: usize,
) -> ClResult<Rect> {
    let rect = packed(img, region, offset)?;
    // CL_INVALID_VALUE if the region specified by dst_offset [src_offset]
    // and dst_cb [src_cb] is out of bounds of the buffer.
    match rect.end(bytes) {
        Some(end) if end <= buffer.size() => Ok(rect),
        _ => fail(CL_INVALID_VALUE),
    }
}

/// clEnqueueCopyImageToBuffer.
pub fn copy_image_to_buffer(
    queue: &Arc<Queue>,
    src: &Arc<MemObject>,
    dst: &Arc<MemObject>,
    src_origin: Option<[usize; 3]>,
    region: Option<[usize; 3]>,
    dst_offset: usize,
) -> ClResult<Command> {
    let si = check_image(queue, src)?;
    // CL_INVALID_MEM_OBJECT if dst_buffer is not a valid buffer object;
    // CL_INVALID_CONTEXT if its context is not the queue's.
    check_buffer(queue, dst)?;
    // CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object created
    // from dst_buffer.
    if made_from(si, dst) {
        return fail(CL_INVALID_MEM_OBJECT);
    }
    // CL_INVALID_VALUE if src_origin or region is NULL; if the region is
    // out of bounds of src_image or breaks the rules; if dst_offset and
    // dst_cb (width × height × depth or layers × bytes per element) are out
    // of bounds of dst_buffer.
    let (so, region) = (triple(src_origin)?, triple(region)?);
    let (s_rect, bytes) = image_rect(si, so, region)?;
    let d_rect = buffer_side(si, dst, region, bytes, dst_offset)?;
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if dst_buffer is a sub-buffer object
    // and its offset is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    check_aligned(dst)?;
    let (src, dst) = (src.clone(), dst.clone());
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_COPY_IMAGE_TO_BUFFER,
        Box::new(move || storage::copy_rect(&dst.bytes()?, d_rect, &src.bytes()?, s_rect, bytes, Some(device.pool()))),
    ))
}

/// clEnqueueCopyBufferToImage.
pub fn copy_buffer_to_image(
    queue: &Arc<Queue>,
    src: &Arc<MemObject>,
    dst: &Arc<MemObject>,
    src_offset: usize,
    dst_origin: Option<[usize; 3]>,
    region: Option<[usize; 3]>,
) -> ClResult<Command> {
    // CL_INVALID_MEM_OBJECT if src_buffer is not a valid buffer object;
    // CL_INVALID_CONTEXT if its context is not the queue's.
    check_buffer(queue, src)?;
    let di = check_image(queue, dst)?;
    // CL_INVALID_MEM_OBJECT if dst_image is a 1D image buffer object created
    // from src_buffer.
    if made_from(di, src) {
        return fail(CL_INVALID_MEM_OBJECT);
    }
    // CL_INVALID_VALUE if dst_origin or region is NULL; if src_offset and
    // src_cb are out of bounds of src_buffer; if the region is out of
    // bounds of dst_image or breaks the rules.
    let (dor, region) = (triple(dst_origin)?, triple(region)?);
    let (d_rect, bytes) = image_rect(di, dor, region)?;
    let s_rect = buffer_side(di, src, region, bytes, src_offset)?;
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if src_buffer is a sub-buffer object
    // and its offset is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN.
    check_aligned(src)?;
    let (src, dst) = (src.clone(), dst.clone());
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_COPY_BUFFER_TO_IMAGE,
        Box::new(move || storage::copy_rect(&dst.bytes()?, d_rect, &src.bytes()?, s_rect, bytes, Some(device.pool()))),
    ))
}

/// clEnqueueFillImage. The fill color is read now and converted to one
/// texel of the image's format (`clift_builtins::image::encode_fill`).
pub fn fill_image(
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    fill_color: HostPtr,
    origin: Option<[usize; 3]>,
    region: Option<[usize; 3]>,
) -> ClResult<Command> {
    let img = check_image(queue, mem)?;
    // CL_INVALID_VALUE if fill_color is NULL. "The fill color is a single
    // floating-point value if the channel order is CL_DEPTH. Otherwise, the
    // fill color is a four component RGBA floating-point color value [or
    // four signed or unsigned integers]": 4 or 16 bytes to read.
    let len = if img.format().order == CL_DEPTH { 4 } else { 16 };
    let src = fill_color.bytes(len).ok_or(ClError(CL_INVALID_VALUE))?;
    // CL_INVALID_VALUE if origin or region is NULL; if the region being
    // filled is out of bounds or breaks the rules for origin and region.
    let (origin, region) = (triple(origin)?, triple(region)?);
    let (rect, bytes) = image_rect(img, origin, region)?;
    let mut color = [0u8; 16];
    storage::read(&src, 0, &mut color[..len])?;
    // "The fill color will be converted to the appropriate image channel
    // format and order associated with image."
    let texel = clift_builtins::image::encode_fill(img.format(), &color);
    if texel.len() != img.element_size() {
        return fail(CL_OUT_OF_RESOURCES);
    }
    let mem = mem.clone();
    let device = queue.device().clone();
    Ok(Command::new(
        queue,
        CL_COMMAND_FILL_IMAGE,
        Box::new(move || storage::fill_rect(&mem.bytes()?, rect, bytes, &texel, Some(device.pool()))),
    ))
}

/// What clEnqueueMapImage hands back besides the command: the pointer to
/// the region's first texel and the pitches to walk it with.
#[derive(Debug, Clone, Copy)]
pub struct MappedImage {
    pub ptr: *mut c_void,
    /// image_row_pitch: "the scan-line pitch in bytes for the mapped
    /// region".
    pub row_pitch: usize,
    /// image_slice_pitch: the bytes from one 2D slice of a 3D image, or one
    /// layer of a 1D or 2D array, to the next; 0 for 1D and 2D images.
    pub slice_pitch: usize,
}

/// clEnqueueMapImage. `row_pitch_given` and `slice_pitch_given` say whether
/// the application passed non-NULL image_row_pitch and image_slice_pitch.
/// The CPU device maps without copying: the pointer is into the image's
/// store (the application's host_ptr with CL_MEM_USE_HOST_PTR).
pub fn map_image(
    queue: &Arc<Queue>,
    mem: &Arc<MemObject>,
    flags: cl_map_flags,
    origin: Option<[usize; 3]>,
    region: Option<[usize; 3]>,
    row_pitch_given: bool,
    slice_pitch_given: bool,
) -> ClResult<(Command, MappedImage)> {
    let img = check_image(queue, mem)?;
    // CL_INVALID_VALUE if origin or region is NULL; if the region being
    // mapped is out of bounds or breaks the rules for origin and region; if
    // values specified in map_flags are not valid; if image_row_pitch is
    // NULL; if image is a 1D or 2D image array object or a 3D image and
    // image_slice_pitch is NULL.
    let (origin, region) = (triple(origin)?, triple(region)?);
    let (rect, bytes) = image_rect(img, origin, region)?;
    super::svm::check_map_flags(flags)?;
    if !row_pitch_given {
        return fail(CL_INVALID_VALUE);
    }
    let layered = matches!(
        img.image_type(),
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
    );
    if layered && !slice_pitch_given {
        return fail(CL_INVALID_VALUE);
    }
    // CL_INVALID_OPERATION if image has been created with
    // CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set
    // in map_flags; if image has been created with CL_MEM_HOST_READ_ONLY or
    // CL_MEM_HOST_NO_ACCESS and CL_MAP_WRITE or
    // CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags.
    let write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0;
    if (flags & CL_MAP_READ != 0 && !mem.host_readable()) || (write && !mem.host_writable()) {
        return fail(CL_INVALID_OPERATION);
    }
    let span = rect.end(bytes).ok_or(ClError(CL_INVALID_VALUE))? - rect.offset;
    let mapped: Bytes = mem.bytes()?.slice(rect.offset, span)?;
    let out = MappedImage {
        ptr: mapped.as_ptr(),
        row_pitch: img.row_pitch(),
        slice_pitch: if layered { img.slice_pitch() } else { 0 },
    };
    let addr = mapped.addr();
    let keep = mem.clone();
    let (m1, m2) = (mem.clone(), mem.clone());
    let cmd = Command::new(
        queue,
        CL_COMMAND_MAP_IMAGE,
        Box::new(move || {
            drop(keep);
            Ok(())
        }),
    )
    .on_commit(
        // CL_INVALID_OPERATION if mapping would lead to overlapping regions
        // being mapped for writing.
        Box::new(move || m1.add_mapping(addr, span, Some((origin, region)), write)),
        Box::new(move || {
            let _ = m2.remove_mapping(addr);
        }),
    );
    Ok((cmd, out))
}
