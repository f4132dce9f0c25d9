//! API spec 5.3 (image objects) and 5.7 (sampler objects), through the ICD
//! loader: the supported formats and their minimum lists, images of every
//! type with and without host pointers and pitches, from buffers and from
//! other images, every creation error, the image queries, reads, writes,
//! copies (between images and with buffers), fills, maps, and samplers.
//!
//! Expected texel bytes are computed here from the spec's layout and
//! conversion rules (element sizes, packing, `convert_*_sat_rte`), not taken
//! from clift.

#![allow(deprecated)] // clCreateImage2D and clCreateImage3D are tested on purpose

use std::ffi::c_void;
use std::mem::size_of;
use std::ptr;

use clift_conformance::*;

// ---------------------------------------------------------------------------
// Formats and shapes

fn fmt(order: cl_channel_order, data_type: cl_channel_type) -> cl_image_format {
    cl_image_format {
        image_channel_order: order,
        image_channel_data_type: data_type,
    }
}

const RGBA8: cl_image_format = cl_image_format {
    image_channel_order: CL_RGBA,
    image_channel_data_type: CL_UNORM_INT8,
};

/// Channels of an order (the channel order table).
fn channels(order: cl_channel_order) -> usize {
    if [CL_R, CL_A, CL_INTENSITY, CL_LUMINANCE, CL_DEPTH].contains(&order) {
        1
    } else if [CL_RG, CL_RA, CL_Rx].contains(&order) {
        2
    } else if [CL_RGB, CL_RGx, CL_sRGB].contains(&order) {
        3
    } else {
        4
    }
}

/// Bytes per texel, from the channel data type table (packed types are one
/// 16- or 32-bit word).
fn element_size(f: &cl_image_format) -> usize {
    let per = match f.image_channel_data_type {
        CL_UNORM_SHORT_565 | CL_UNORM_SHORT_555 => return 2,
        CL_UNORM_INT_101010 | CL_UNORM_INT_101010_2 => return 4,
        CL_SNORM_INT8 | CL_UNORM_INT8 | CL_SIGNED_INT8 | CL_UNSIGNED_INT8 => 1,
        CL_SNORM_INT16 | CL_UNORM_INT16 | CL_SIGNED_INT16 | CL_UNSIGNED_INT16 | CL_HALF_FLOAT => 2,
        _ => 4,
    };
    per * channels(f.image_channel_order)
}

const ALL_TYPES: [cl_mem_object_type; 6] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_BUFFER,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

/// The types made without another memory object.
const OWN_TYPES: [cl_mem_object_type; 5] = [
    CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D,
    CL_MEM_OBJECT_IMAGE2D_ARRAY,
    CL_MEM_OBJECT_IMAGE3D,
];

/// An image's type and size: width, height, depth, layers (what the type
/// does not use is ignored by clift and must stay so).
#[derive(Clone, Copy, Debug)]
struct Shape {
    ty: cl_mem_object_type,
    w: usize,
    h: usize,
    d: usize,
    layers: usize,
}

impl Shape {
    /// A small image of type `ty`.
    fn of(ty: cl_mem_object_type) -> Shape {
        Shape {
            ty,
            w: 5,
            h: 4,
            d: 3,
            layers: 3,
        }
    }

    /// The size in the coordinates of origins and regions.
    fn extent(&self) -> [usize; 3] {
        match self.ty {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => [self.w, 1, 1],
            CL_MEM_OBJECT_IMAGE1D_ARRAY => [self.w, self.layers, 1],
            CL_MEM_OBJECT_IMAGE2D => [self.w, self.h, 1],
            CL_MEM_OBJECT_IMAGE2D_ARRAY => [self.w, self.h, self.layers],
            _ => [self.w, self.h, self.d],
        }
    }

    fn texels(&self) -> usize {
        self.extent().iter().product()
    }

    fn layered(&self) -> bool {
        matches!(
            self.ty,
            CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D
        )
    }

    fn desc(&self, row_pitch: usize, slice_pitch: usize) -> cl_image_desc {
        cl_image_desc {
            image_type: self.ty,
            image_width: self.w,
            image_height: self.h,
            image_depth: self.d,
            image_array_size: self.layers,
            image_row_pitch: row_pitch,
            image_slice_pitch: slice_pitch,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: ptr::null_mut(),
        }
    }

    /// The pitches an image of this shape has in memory when created with
    /// `row_pitch` and `slice_pitch` (0: computed, as the spec computes
    /// them): (row pitch, bytes between the second coordinate's steps,
    /// bytes between the third's, the image's span).
    fn layout(&self, es: usize, row_pitch: usize, slice_pitch: usize) -> (usize, usize, usize, usize) {
        let rp = if row_pitch == 0 { self.w * es } else { row_pitch };
        match self.ty {
            CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => (rp, rp, rp, rp),
            CL_MEM_OBJECT_IMAGE1D_ARRAY => {
                let sp = if slice_pitch == 0 { rp } else { slice_pitch };
                (rp, sp, sp, sp * self.layers)
            }
            CL_MEM_OBJECT_IMAGE2D => (rp, rp, rp * self.h, rp * self.h),
            _ => {
                let sp = if slice_pitch == 0 { rp * self.h } else { slice_pitch };
                let n = self.extent()[2];
                (rp, rp, sp, sp * n)
            }
        }
    }

    /// Padded host pitches for this shape: rows of 3 extra texels, slices
    /// or layers of 2 extra rows (0 where the type has none).
    fn padded_pitches(&self, es: usize) -> (usize, usize) {
        let rp = (self.w + 3) * es;
        let sp = match self.ty {
            CL_MEM_OBJECT_IMAGE1D_ARRAY => rp * 2,
            CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => rp * (self.h + 2),
            _ => 0,
        };
        (rp, sp)
    }
}

/// `dense` (texels in x, then y, then z order, `es` bytes each) laid out in
/// `len` bytes with strides `ys` and `zs`; the gaps hold `fill`.
fn lay_out(dense: &[u8], ext: [usize; 3], es: usize, ys: usize, zs: usize, len: usize, fill: u8) -> Vec<u8> {
    let mut out = vec![fill; len];
    for z in 0..ext[2] {
        for y in 0..ext[1] {
            let src = ((z * ext[1] + y) * ext[0]) * es;
            let dst = z * zs + y * ys;
            out[dst..dst + ext[0] * es].copy_from_slice(&dense[src..src + ext[0] * es]);
        }
    }
    out
}

/// The texels of region (`origin`, `region`) of a dense image of extent
/// `ext`, packed.
fn sub_region(dense: &[u8], ext: [usize; 3], es: usize, origin: [usize; 3], region: [usize; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    for z in origin[2]..origin[2] + region[2] {
        for y in origin[1]..origin[1] + region[1] {
            let s = ((z * ext[1] + y) * ext[0] + origin[0]) * es;
            out.extend_from_slice(&dense[s..s + region[0] * es]);
        }
    }
    out
}

/// Writes the packed `data` into region (`origin`, `region`) of a dense
/// image of extent `ext`.
fn put_region(dense: &mut [u8], ext: [usize; 3], es: usize, origin: [usize; 3], region: [usize; 3], data: &[u8]) {
    let mut i = 0;
    for z in origin[2]..origin[2] + region[2] {
        for y in origin[1]..origin[1] + region[1] {
            let d = ((z * ext[1] + y) * ext[0] + origin[0]) * es;
            let n = region[0] * es;
            dense[d..d + n].copy_from_slice(&data[i..i + n]);
            i += n;
        }
    }
}

// ---------------------------------------------------------------------------
// Calls

/// clCreateImage: the image, or the error (and the handle is NULL).
fn try_image(
    c: cl_context,
    flags: cl_mem_flags,
    format: Option<&cl_image_format>,
    desc: Option<&cl_image_desc>,
    host: *mut c_void,
) -> Result<cl_mem, cl_int> {
    let mut err = 1;
    let f = format.map_or(ptr::null(), |f| f as *const cl_image_format);
    let d = desc.map_or(ptr::null(), |d| d as *const cl_image_desc);
    // SAFETY: the format and descriptor are NULL or valid; `host` is NULL or
    // covers the image as its pitches say, and outlives the image (callers
    // keep their arrays alive until they release it).
    let m = unsafe { clCreateImage(c, flags, f, d, host, &mut err) };
    if err == CL_SUCCESS {
        assert!(!m.is_null());
        Ok(m)
    } else {
        assert!(m.is_null(), "a failed create returns NULL");
        Err(err)
    }
}

#[track_caller]
fn image(
    c: cl_context,
    flags: cl_mem_flags,
    format: &cl_image_format,
    desc: &cl_image_desc,
    host: *mut c_void,
) -> cl_mem {
    try_image(c, flags, Some(format), Some(desc), host).unwrap_or_else(|e| panic!("clCreateImage: {}", error_name(e)))
}

/// A 1D image buffer of `w` texels of `format` over `buf`.
fn image_buffer(
    c: cl_context,
    flags: cl_mem_flags,
    format: &cl_image_format,
    w: usize,
    buf: cl_mem,
) -> Result<cl_mem, cl_int> {
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE1D_BUFFER).desc(0, 0);
    d.image_width = w;
    d.buffer = buf;
    try_image(c, flags, Some(format), Some(&d), ptr::null_mut())
}

fn image_bytes(m: cl_mem, param: cl_image_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetImageInfo(m, param, s, v, r) })
}

fn image_value<T: Copy>(m: cl_mem, param: cl_image_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetImageInfo(m, param, s, v, r) })
}

fn mem_bytes(m: cl_mem, param: cl_mem_info) -> Vec<u8> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetMemObjectInfo(m, param, s, v, r) }).expect("clGetMemObjectInfo")
}

/// clEnqueueReadImage (blocking) into `out`.
fn read_image(
    q: cl_command_queue,
    m: cl_mem,
    origin: [usize; 3],
    region: [usize; 3],
    rp: usize,
    sp: usize,
    out: &mut [u8],
) -> cl_int {
    // SAFETY: `out` covers the region with the given pitches (callers size
    // it so); the call is blocking.
    unsafe {
        clEnqueueReadImage(
            q,
            m,
            CL_TRUE,
            origin.as_ptr(),
            region.as_ptr(),
            rp,
            sp,
            out.as_mut_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

/// clEnqueueWriteImage (blocking) from `data`.
fn write_image(
    q: cl_command_queue,
    m: cl_mem,
    origin: [usize; 3],
    region: [usize; 3],
    rp: usize,
    sp: usize,
    data: &[u8],
) -> cl_int {
    // SAFETY: `data` covers the region with the given pitches; the call is
    // blocking.
    unsafe {
        clEnqueueWriteImage(
            q,
            m,
            CL_TRUE,
            origin.as_ptr(),
            region.as_ptr(),
            rp,
            sp,
            data.as_ptr().cast(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    }
}

/// The whole image `m` of `shape`, packed.
fn read_all(q: cl_command_queue, m: cl_mem, shape: &Shape, es: usize) -> Vec<u8> {
    let mut out = vec![0u8; shape.texels() * es];
    check(read_image(q, m, [0; 3], shape.extent(), 0, 0, &mut out));
    out
}

/// clEnqueueFillImage over `region` from `origin`, with `color`'s bytes.
fn fill_image(q: cl_command_queue, m: cl_mem, color: &[u8], origin: [usize; 3], region: [usize; 3]) -> cl_int {
    // SAFETY: `color` holds the 4 or 16 bytes the image's format reads.
    let rc = unsafe {
        clEnqueueFillImage(
            q,
            m,
            color.as_ptr().cast(),
            origin.as_ptr(),
            region.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    if rc == CL_SUCCESS {
        // SAFETY: valid queue.
        check(unsafe { clFinish(q) });
    }
    rc
}

/// clEnqueueMapImage (blocking): the pointer, row and slice pitches, or
/// the error. `slice` says whether to pass a slice-pitch pointer.
fn map_image(
    q: cl_command_queue,
    m: cl_mem,
    flags: cl_map_flags,
    origin: [usize; 3],
    region: [usize; 3],
    slice: bool,
) -> Result<(*mut u8, usize, usize), cl_int> {
    let mut err = 1;
    let mut rp = usize::MAX;
    let mut sp = usize::MAX;
    let spp = if slice { &mut sp as *mut usize } else { ptr::null_mut() };
    // SAFETY: valid origin, region and out-pointers.
    let p = unsafe {
        clEnqueueMapImage(
            q,
            m,
            CL_TRUE,
            flags,
            origin.as_ptr(),
            region.as_ptr(),
            &mut rp,
            spp,
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err,
        )
    };
    if err == CL_SUCCESS {
        assert!(!p.is_null());
        Ok((p.cast(), rp, sp))
    } else {
        assert!(p.is_null());
        Err(err)
    }
}

fn unmap(q: cl_command_queue, m: cl_mem, p: *mut u8) -> cl_int {
    // SAFETY: valid handles; `p` came from a map of `m` (or is tested as not).
    let rc = unsafe { clEnqueueUnmapMemObject(q, m, p.cast(), 0, ptr::null(), ptr::null_mut()) };
    if rc == CL_SUCCESS {
        // SAFETY: valid queue.
        check(unsafe { clFinish(q) });
    }
    rc
}

fn finish(q: cl_command_queue) {
    // SAFETY: valid queue.
    check(unsafe { clFinish(q) });
}

fn teardown(q: cl_command_queue, c: cl_context) {
    // SAFETY: handles the test owns, released once.
    unsafe {
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(c));
    }
}

/// clGetSupportedImageFormats: the list (checking that the count asked
/// for alone matches).
fn supported(c: cl_context, flags: cl_mem_flags, ty: cl_mem_object_type) -> Vec<cl_image_format> {
    let mut n: cl_uint = 0;
    // SAFETY: valid out-pointer; NULL list with 0 entries asks the count.
    check(unsafe { clGetSupportedImageFormats(c, flags, ty, 0, ptr::null_mut(), &mut n) });
    let mut list = vec![fmt(0, 0); n as usize];
    let mut again: cl_uint = 0;
    // SAFETY: `list` has room for `n` formats.
    check(unsafe { clGetSupportedImageFormats(c, flags, ty, n, list.as_mut_ptr(), &mut again) });
    assert_eq!(again, n);
    list
}

fn same(a: &cl_image_format, b: &cl_image_format) -> bool {
    a.image_channel_order == b.image_channel_order && a.image_channel_data_type == b.image_channel_data_type
}

fn fixture() -> (cl_context, cl_command_queue) {
    let c = context();
    (c, default_queue(c))
}

// ---------------------------------------------------------------------------
// Supported formats

/// The twelve data types of the 2.0 minimum list's R, RG and RGBA rows.
const MIN_TYPES: [cl_channel_type; 12] = [
    CL_UNORM_INT8,
    CL_UNORM_INT16,
    CL_SNORM_INT8,
    CL_SNORM_INT16,
    CL_SIGNED_INT8,
    CL_SIGNED_INT16,
    CL_SIGNED_INT32,
    CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16,
    CL_UNSIGNED_INT32,
    CL_HALF_FLOAT,
    CL_FLOAT,
];

/// The nine data types of the read-and-write minimum list's rows.
const KRW_TYPES: [cl_channel_type; 9] = [
    CL_UNORM_INT8,
    CL_SIGNED_INT8,
    CL_SIGNED_INT16,
    CL_SIGNED_INT32,
    CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16,
    CL_UNSIGNED_INT32,
    CL_HALF_FLOAT,
    CL_FLOAT,
];

#[test]
fn supported_formats_hold_the_minimum_lists() {
    let c = context();
    for ty in ALL_TYPES {
        for access in [CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE] {
            let list = supported(c, access, ty);
            // "Minimum list of supported image formats for reading or
            // writing (OpenCL 2.0, 2.1, or 2.2)".
            let mut want: Vec<cl_image_format> = Vec::new();
            for order in [CL_R, CL_RG, CL_RGBA] {
                want.extend(MIN_TYPES.iter().map(|&t| fmt(order, t)));
            }
            want.push(fmt(CL_BGRA, CL_UNORM_INT8));
            // "Support for the CL_DEPTH image channel order is required only
            // for 2D images and 2D image arrays."
            if matches!(ty, CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY) {
                want.push(fmt(CL_DEPTH, CL_UNORM_INT16));
                want.push(fmt(CL_DEPTH, CL_FLOAT));
            }
            // "Support for reading from the CL_sRGBA image channel order is
            // optional for 1D image buffers. Support for writing to the
            // CL_sRGBA image channel order is optional for all image types."
            if access == CL_MEM_READ_ONLY && ty != CL_MEM_OBJECT_IMAGE1D_BUFFER {
                want.push(fmt(CL_sRGBA, CL_UNORM_INT8));
            }
            for w in &want {
                assert!(
                    list.iter().any(|f| same(f, w)),
                    "type {ty:#x} access {access:#x}: {:#x}/{:#x} missing",
                    w.image_channel_order,
                    w.image_channel_data_type
                );
            }
            // No format twice.
            for (i, a) in list.iter().enumerate() {
                assert!(
                    !list[i + 1..].iter().any(|b| same(a, b)),
                    "{ty:#x}: a format listed twice"
                );
            }
        }
        // "the minimum list of supported image formats for reading and
        // writing in the same kernel-instance".
        let krw = supported(c, CL_MEM_KERNEL_READ_AND_WRITE, ty);
        for order in [CL_R, CL_RGBA] {
            for t in KRW_TYPES {
                assert!(
                    krw.iter().any(|f| same(f, &fmt(order, t))),
                    "type {ty:#x} read-and-write: {order:#x}/{t:#x} missing"
                );
            }
        }
        // Formats read and written by the same kernel are read and written
        // ones ("read_write: CL_MEM_KERNEL_READ_AND_WRITE" maps to the
        // other access qualifiers too).
        let rw = supported(c, CL_MEM_READ_WRITE, ty);
        for f in &krw {
            assert!(
                rw.iter().any(|g| same(f, g)),
                "{ty:#x}: a read-and-write format not in READ_WRITE"
            );
        }
        // flags 0 is CL_MEM_READ_WRITE, the default; the host flags do not
        // change the answer.
        let zero = supported(c, 0, ty);
        assert_eq!(zero.len(), rw.len());
        assert_eq!(
            supported(c, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY | CL_MEM_COPY_HOST_PTR, ty).len(),
            rw.len()
        );
    }
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn supported_formats_checks_its_arguments() {
    let c = context();
    let mut n: cl_uint = 7;
    let mut list = [RGBA8; 4];
    // SAFETY: every pointer is valid or NULL as each case says.
    unsafe {
        // CL_INVALID_CONTEXT if context is not a valid context.
        expect_err(
            clGetSupportedImageFormats(ptr::null_mut(), 0, CL_MEM_OBJECT_IMAGE2D, 0, ptr::null_mut(), &mut n),
            CL_INVALID_CONTEXT,
        );
        // CL_INVALID_VALUE if flags is not valid.
        for flags in [
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
            1 << 40,
        ] {
            expect_err(
                clGetSupportedImageFormats(c, flags, CL_MEM_OBJECT_IMAGE2D, 0, ptr::null_mut(), &mut n),
                CL_INVALID_VALUE,
            );
        }
        // CL_INVALID_VALUE if image_type is not valid.
        for ty in [0, CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_PIPE, 0x10F7] {
            expect_err(
                clGetSupportedImageFormats(c, 0, ty, 0, ptr::null_mut(), &mut n),
                CL_INVALID_VALUE,
            );
        }
        // CL_INVALID_VALUE if num_entries is zero and image_formats is not NULL.
        expect_err(
            clGetSupportedImageFormats(c, 0, CL_MEM_OBJECT_IMAGE2D, 0, list.as_mut_ptr(), &mut n),
            CL_INVALID_VALUE,
        );
        assert_eq!(n, 7, "nothing written on failure");
        // Fewer entries than formats: the first ones, and the full count.
        let all = supported(c, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D);
        list = [fmt(0, 0); 4];
        check(clGetSupportedImageFormats(
            c,
            CL_MEM_READ_ONLY,
            CL_MEM_OBJECT_IMAGE2D,
            2,
            list.as_mut_ptr(),
            &mut n,
        ));
        assert_eq!(n as usize, all.len());
        assert!(same(&list[0], &all[0]) && same(&list[1], &all[1]));
        assert_eq!(list[2].image_channel_order, 0, "only num_entries formats are written");
        // num_image_formats may be NULL.
        check(clGetSupportedImageFormats(
            c,
            0,
            CL_MEM_OBJECT_IMAGE3D,
            1,
            list.as_mut_ptr(),
            ptr::null_mut(),
        ));
        check(clReleaseContext(c));
    }
}

#[test]
fn every_supported_format_makes_images_of_its_element_size() {
    let (c, q) = fixture();
    for ty in ALL_TYPES {
        let mut formats = supported(c, CL_MEM_READ_ONLY, ty);
        for f in supported(c, CL_MEM_WRITE_ONLY, ty) {
            if !formats.iter().any(|g| same(g, &f)) {
                formats.push(f);
            }
        }
        for f in &formats {
            let es = element_size(f);
            let shape = Shape::of(ty);
            let buf = (ty == CL_MEM_OBJECT_IMAGE1D_BUFFER).then(|| buffer(c, 0, shape.w * es));
            let m = match buf {
                Some(b) => image_buffer(c, 0, f, shape.w, b).expect("1D image buffer"),
                None => image(c, 0, f, &shape.desc(0, 0), ptr::null_mut()),
            };
            let what = format!(
                "type {ty:#x} format {:#x}/{:#x}",
                f.image_channel_order, f.image_channel_data_type
            );
            assert_eq!(image_value::<usize>(m, CL_IMAGE_ELEMENT_SIZE), es, "{what}");
            let got: cl_image_format = image_value(m, CL_IMAGE_FORMAT);
            assert!(same(&got, f), "{what}");
            assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), shape.w * es, "{what}");
            // A fresh image reads back as it was written.
            let data = pattern_bytes(shape.texels() * es, 3);
            check(write_image(q, m, [0; 3], shape.extent(), 0, 0, &data));
            assert_eq!(read_all(q, m, &shape, es), data, "{what}");
            release_mem(m);
            if let Some(b) = buf {
                release_mem(b);
            }
        }
    }
    teardown(q, c);
}

// ---------------------------------------------------------------------------
// Creation

const HOST_FLAGS: [cl_mem_flags; 5] = [
    0,
    CL_MEM_ALLOC_HOST_PTR,
    CL_MEM_COPY_HOST_PTR,
    CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR,
    CL_MEM_USE_HOST_PTR,
];

/// Every query of an image of `shape` created with `flags`, host pointer
/// `host` and the pitches given (`rp`, `sp`; 0 computed).
#[allow(clippy::too_many_arguments)]
fn check_queries(
    c: cl_context,
    m: cl_mem,
    shape: &Shape,
    format: &cl_image_format,
    flags: cl_mem_flags,
    host: *mut c_void,
    rp: usize,
    sp: usize,
    what: &str,
) {
    let es = element_size(format);
    let (row, _, _, span) = shape.layout(es, rp, sp);
    let got: cl_image_format = image_value(m, CL_IMAGE_FORMAT);
    assert!(same(&got, format), "{what}: CL_IMAGE_FORMAT");
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ELEMENT_SIZE), es, "{what}");
    // "If image was created with a non-zero value for image_row_pitch, then
    // the value provided for image_row_pitch by the application is
    // returned, otherwise the returned value is calculated as
    // CL_IMAGE_WIDTH × CL_IMAGE_ELEMENT_SIZE."
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), row, "{what}: row pitch");
    // Slice pitch: the given one, else the row pitch for 1D arrays, height ×
    // row pitch for 3D images and 2D arrays; 0 for the others.
    let want_slice = match shape.ty {
        CL_MEM_OBJECT_IMAGE1D_ARRAY => {
            if sp != 0 {
                sp
            } else {
                row
            }
        }
        CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => {
            if sp != 0 {
                sp
            } else {
                row * shape.h
            }
        }
        _ => 0,
    };
    assert_eq!(
        image_value::<usize>(m, CL_IMAGE_SLICE_PITCH),
        want_slice,
        "{what}: slice pitch"
    );
    assert_eq!(image_value::<usize>(m, CL_IMAGE_WIDTH), shape.w, "{what}");
    // Height 0 for 1D images, 1D image buffers and 1D arrays; depth 0 but
    // for 3D images; array size 0 but for arrays.
    let height = match shape.ty {
        CL_MEM_OBJECT_IMAGE2D | CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => shape.h,
        _ => 0,
    };
    assert_eq!(image_value::<usize>(m, CL_IMAGE_HEIGHT), height, "{what}: height");
    let depth = if shape.ty == CL_MEM_OBJECT_IMAGE3D { shape.d } else { 0 };
    assert_eq!(image_value::<usize>(m, CL_IMAGE_DEPTH), depth, "{what}: depth");
    let layers = match shape.ty {
        CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D_ARRAY => shape.layers,
        _ => 0,
    };
    assert_eq!(
        image_value::<usize>(m, CL_IMAGE_ARRAY_SIZE),
        layers,
        "{what}: array size"
    );
    assert_eq!(image_value::<cl_uint>(m, CL_IMAGE_NUM_MIP_LEVELS), 0, "{what}");
    assert_eq!(image_value::<cl_uint>(m, CL_IMAGE_NUM_SAMPLES), 0, "{what}");
    if shape.ty != CL_MEM_OBJECT_IMAGE1D_BUFFER {
        assert!(image_value::<cl_mem>(m, CL_IMAGE_BUFFER).is_null(), "{what}: no buffer");
        assert!(mem_value::<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT).is_null(), "{what}");
        assert_eq!(
            mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS),
            flags,
            "{what}: flags as given"
        );
        // "actual size of the data store": the bytes the image spans.
        assert_eq!(mem_value::<usize>(m, CL_MEM_SIZE), span, "{what}: size");
    }
    // Memory object queries common to every object.
    assert_eq!(mem_value::<cl_mem_object_type>(m, CL_MEM_TYPE), shape.ty, "{what}");
    let host_ptr = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host
    } else {
        ptr::null_mut()
    };
    assert_eq!(
        mem_value::<*mut c_void>(m, CL_MEM_HOST_PTR),
        host_ptr,
        "{what}: host ptr"
    );
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 0, "{what}");
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 1, "{what}");
    assert_eq!(mem_value::<cl_context>(m, CL_MEM_CONTEXT), c, "{what}");
    assert_eq!(mem_value::<usize>(m, CL_MEM_OFFSET), 0, "{what}");
    assert_eq!(mem_value::<cl_bool>(m, CL_MEM_USES_SVM_POINTER), CL_FALSE, "{what}");
    assert!(mem_bytes(m, CL_MEM_PROPERTIES).is_empty(), "{what}: no properties");
    // CL_INVALID_VALUE if param_name is not one of the supported values;
    // if param_value_size is too small.
    let mut small = 0u32;
    // SAFETY: a 4-byte out value, too small for a size_t on purpose.
    let rc = unsafe {
        clGetImageInfo(
            m,
            CL_IMAGE_WIDTH,
            size_of::<u32>(),
            (&mut small as *mut u32).cast(),
            ptr::null_mut(),
        )
    };
    expect_err(rc, CL_INVALID_VALUE);
    expect_err(image_bytes(m, 0x1234).unwrap_err(), CL_INVALID_VALUE);
}

#[test]
fn images_of_every_type_with_and_without_host_pointers_and_pitches() {
    let (c, q) = fixture();
    for format in [RGBA8, fmt(CL_R, CL_FLOAT), fmt(CL_RG, CL_SIGNED_INT16)] {
        let es = element_size(&format);
        for ty in OWN_TYPES {
            let shape = Shape::of(ty);
            let dense = pattern_bytes(shape.texels() * es, ty as u8);
            for host_flags in HOST_FLAGS {
                let with_host = host_flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
                // Pitches: computed, or padded (only with a host pointer).
                let pitch_cases: &[(usize, usize)] = if with_host {
                    &[(0, 0), shape.padded_pitches(es)]
                } else {
                    &[(0, 0)]
                };
                for &(rp, sp) in pitch_cases {
                    for access in [
                        CL_MEM_READ_WRITE,
                        CL_MEM_READ_ONLY,
                        CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY,
                    ] {
                        let flags = access | host_flags;
                        let (_, ys, zs, span) = shape.layout(es, rp, sp);
                        let mut host = lay_out(&dense, shape.extent(), es, ys, zs, span, 0xEE);
                        let hp = if with_host {
                            host.as_mut_ptr().cast()
                        } else {
                            ptr::null_mut()
                        };
                        let what = format!(
                            "type {ty:#x} format {:#x}/{:#x} flags {flags:#x} pitches {rp}/{sp}",
                            format.image_channel_order, format.image_channel_data_type
                        );
                        let m = try_image(c, flags, Some(&format), Some(&shape.desc(rp, sp)), hp)
                            .unwrap_or_else(|e| panic!("{what}: {}", error_name(e)));
                        check_queries(c, m, &shape, &format, flags, hp, rp, sp, &what);
                        if flags & CL_MEM_HOST_WRITE_ONLY == 0 {
                            let got = read_all(q, m, &shape, es);
                            if with_host {
                                // The image holds the host data, read with
                                // its pitches.
                                assert_eq!(got, dense, "{what}: contents");
                            } else {
                                assert_eq!(got.len(), dense.len());
                            }
                        }
                        release_mem(m);
                        drop(host);
                    }
                }
            }
        }
    }
    teardown(q, c);
}

#[test]
fn use_host_ptr_images_are_the_application_memory() {
    let (c, q) = fixture();
    let es = 4;
    for ty in OWN_TYPES {
        let shape = Shape::of(ty);
        let (rp, sp) = shape.padded_pitches(es);
        let (_, ys, zs, span) = shape.layout(es, rp, sp);
        let mut host = vec![0u8; span];
        let m = image(
            c,
            CL_MEM_USE_HOST_PTR,
            &RGBA8,
            &shape.desc(rp, sp),
            host.as_mut_ptr().cast(),
        );
        // A write lands in the application's memory at its pitches, and the
        // padding between rows and slices is left alone.
        let dense = pattern_bytes(shape.texels() * es, 9);
        check(write_image(q, m, [0; 3], shape.extent(), 0, 0, &dense));
        assert_eq!(
            host,
            lay_out(&dense, shape.extent(), es, ys, zs, span, 0),
            "type {ty:#x}"
        );
        // The application's changes are the image's.
        host[0] = 0x5A;
        assert_eq!(read_all(q, m, &shape, es)[0], 0x5A);
        // A map returns a pointer derived from host_ptr with the image's
        // pitches.
        let origin = [
            1,
            if shape.extent()[1] > 1 { 1 } else { 0 },
            if shape.extent()[2] > 1 { 1 } else { 0 },
        ];
        let region = [2, 1, 1];
        let (p, mrp, msp) = map_image(q, m, CL_MAP_READ, origin, region, true).expect("map");
        let at = origin[0] * es + origin[1] * ys + origin[2] * zs;
        assert_eq!(
            p as usize,
            host.as_ptr() as usize + at,
            "type {ty:#x}: map points into host_ptr"
        );
        assert_eq!(mrp, rp);
        assert_eq!(msp, if shape.layered() { sp } else { 0 });
        check(unmap(q, m, p));
        release_mem(m);
    }
    teardown(q, c);
}

#[test]
fn create_image_2d_and_3d() {
    let (c, q) = fixture();
    let mut err = 1;
    let mut f = RGBA8;
    // SAFETY: valid format; no host pointer.
    let m = unsafe { clCreateImage2D(c, 0, &mut f, 7, 3, 0, ptr::null_mut(), &mut err) };
    check(err);
    assert_eq!(mem_value::<cl_mem_object_type>(m, CL_MEM_TYPE), CL_MEM_OBJECT_IMAGE2D);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_WIDTH), 7);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_HEIGHT), 3);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_DEPTH), 0);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), 28);
    release_mem(m);
    // With a host pointer and a pitch.
    let shape = Shape {
        ty: CL_MEM_OBJECT_IMAGE3D,
        w: 3,
        h: 2,
        d: 2,
        layers: 0,
    };
    let dense = pattern_bytes(shape.texels() * 4, 1);
    let (rp, sp) = (16, 48);
    let (_, ys, zs, span) = shape.layout(4, rp, sp);
    let mut host = lay_out(&dense, shape.extent(), 4, ys, zs, span, 0);
    // SAFETY: `host` covers the image with these pitches.
    let m = unsafe {
        clCreateImage3D(
            c,
            CL_MEM_COPY_HOST_PTR,
            &mut f,
            3,
            2,
            2,
            rp,
            sp,
            host.as_mut_ptr().cast(),
            &mut err,
        )
    };
    check(err);
    assert_eq!(mem_value::<cl_mem_object_type>(m, CL_MEM_TYPE), CL_MEM_OBJECT_IMAGE3D);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_DEPTH), 2);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), rp);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_SLICE_PITCH), sp);
    assert_eq!(read_all(q, m, &shape, 4), dense);
    release_mem(m);
    // SAFETY: as above; every call fails before using `host`.
    unsafe {
        // CL_INVALID_IMAGE_SIZE if image_width or image_height are 0; if
        // values specified by image_row_pitch do not follow the rules.
        assert!(clCreateImage2D(c, 0, &mut f, 0, 3, 0, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_IMAGE_SIZE);
        assert!(clCreateImage2D(c, 0, &mut f, 16385, 3, 0, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_IMAGE_SIZE);
        assert!(clCreateImage2D(
            c,
            CL_MEM_COPY_HOST_PTR,
            &mut f,
            3,
            2,
            11,
            host.as_mut_ptr().cast(),
            &mut err
        )
        .is_null());
        expect_err(err, CL_INVALID_IMAGE_SIZE);
        assert!(clCreateImage2D(c, 0, &mut f, 3, 2, 16, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_IMAGE_SIZE);
        // CL_INVALID_IMAGE_SIZE if image_depth <= 1.
        assert!(clCreateImage3D(c, 0, &mut f, 3, 2, 1, 0, 0, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_IMAGE_SIZE);
        assert!(clCreateImage3D(
            c,
            CL_MEM_COPY_HOST_PTR,
            &mut f,
            3,
            2,
            2,
            16,
            40,
            host.as_mut_ptr().cast(),
            &mut err
        )
        .is_null());
        expect_err(err, CL_INVALID_IMAGE_SIZE);
        // The other errors as for clCreateImage.
        assert!(clCreateImage2D(ptr::null_mut(), 0, &mut f, 3, 2, 0, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        assert!(clCreateImage2D(
            c,
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            &mut f,
            3,
            2,
            0,
            ptr::null_mut(),
            &mut err
        )
        .is_null());
        expect_err(err, CL_INVALID_VALUE);
        assert!(clCreateImage2D(c, 0, ptr::null_mut(), 3, 2, 0, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        assert!(clCreateImage3D(c, CL_MEM_USE_HOST_PTR, &mut f, 3, 2, 2, 0, 0, ptr::null_mut(), &mut err).is_null());
        expect_err(err, CL_INVALID_HOST_PTR);
    }
    teardown(q, c);
}

#[test]
fn create_image_with_properties() {
    let (c, q) = fixture();
    let shape = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let desc = shape.desc(0, 0);
    let mut err = 1;
    // SAFETY: valid format and descriptor; NULL properties.
    let m = unsafe { clCreateImageWithProperties(c, ptr::null(), 0, &RGBA8, &desc, ptr::null_mut(), &mut err) };
    check(err);
    // "If the properties argument ... was NULL, the implementation must
    // return param_value_size_ret equal to 0."
    assert!(mem_bytes(m, CL_MEM_PROPERTIES).is_empty());
    release_mem(m);
    // An empty list is returned as given: its terminator.
    let empty: [cl_mem_properties; 1] = [0];
    // SAFETY: a zero-terminated list.
    let m = unsafe {
        clCreateImageWithProperties(
            c,
            empty.as_ptr(),
            CL_MEM_READ_ONLY,
            &RGBA8,
            &desc,
            ptr::null_mut(),
            &mut err,
        )
    };
    check(err);
    assert_eq!(mem_bytes(m, CL_MEM_PROPERTIES), 0u64.to_ne_bytes().to_vec());
    assert_eq!(mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS), CL_MEM_READ_ONLY);
    let data = pattern_bytes(shape.texels() * 4, 2);
    check(write_image(q, m, [0; 3], shape.extent(), 0, 0, &data));
    assert_eq!(read_all(q, m, &shape, 4), data);
    release_mem(m);
    // CL_INVALID_PROPERTY if a property name in properties is not a
    // supported property name ("OpenCL does not define any optional
    // properties for images").
    let props: [cl_mem_properties; 3] = [0x4242, 1, 0];
    // SAFETY: as above.
    unsafe {
        let m = clCreateImageWithProperties(c, props.as_ptr(), 0, &RGBA8, &desc, ptr::null_mut(), &mut err);
        assert!(m.is_null());
        expect_err(err, CL_INVALID_PROPERTY);
        // CL_INVALID_CONTEXT comes first.
        let m = clCreateImageWithProperties(
            ptr::null_mut(),
            props.as_ptr(),
            0,
            &RGBA8,
            &desc,
            ptr::null_mut(),
            &mut err,
        );
        assert!(m.is_null());
        expect_err(err, CL_INVALID_CONTEXT);
    }
    teardown(q, c);
}

#[test]
fn creation_rejects_invalid_flags() {
    let c = context();
    let desc = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
    let mut host = vec![0u8; 1024];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    // CL_INVALID_VALUE if values specified in flags are not valid as defined
    // in the Memory Flags table.
    for (flags, h) in [
        (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, ptr::null_mut()),
        (CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY, ptr::null_mut()),
        (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, hp),
        (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, hp),
        (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, ptr::null_mut()),
        (CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, ptr::null_mut()),
        // "This flag is only used by clGetSupportedImageFormats".
        (CL_MEM_KERNEL_READ_AND_WRITE, ptr::null_mut()),
        (1 << 30, ptr::null_mut()),
    ] {
        assert_eq!(
            try_image(c, flags, Some(&RGBA8), Some(&desc), h),
            Err(CL_INVALID_VALUE),
            "flags {flags:#x}"
        );
    }
    // CL_INVALID_CONTEXT first.
    assert_eq!(
        try_image(
            ptr::null_mut(),
            CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
            Some(&RGBA8),
            Some(&desc),
            ptr::null_mut()
        ),
        Err(CL_INVALID_CONTEXT)
    );
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn creation_rejects_bad_formats() {
    let c = context();
    let desc = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if image_format is NULL.
    assert_eq!(
        try_image(c, 0, None, Some(&desc), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    // ... if values specified in image_format are not valid: unknown orders
    // and types, packed types with orders they cannot pack ("The channel
    // order must be CL_RGB or CL_RGBx"; "must be CL_RGBA").
    for f in [
        fmt(0, CL_UNORM_INT8),
        fmt(CL_RGBA, 0),
        fmt(0x10FF, CL_FLOAT),
        fmt(CL_R, 0x10FF),
        fmt(CL_RGBA, CL_UNORM_SHORT_565),
        fmt(CL_R, CL_UNORM_SHORT_555),
        fmt(CL_RGBA, CL_UNORM_INT_101010),
        fmt(CL_R, CL_UNORM_INT_101010_2),
    ] {
        assert_eq!(
            try_image(c, 0, Some(&f), Some(&desc), ptr::null_mut()),
            Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
            "{:#x}/{:#x}",
            f.image_channel_order,
            f.image_channel_data_type
        );
    }
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn creation_rejects_bad_descriptors() {
    let c = context();
    let shape = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    // CL_INVALID_IMAGE_DESCRIPTOR if image_desc is NULL.
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), None, ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // ... if values specified in image_desc are not valid: the type.
    for ty in [0, CL_MEM_OBJECT_BUFFER, CL_MEM_OBJECT_PIPE, 0x10F7] {
        let mut d = shape.desc(0, 0);
        d.image_type = ty;
        assert_eq!(
            try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
            Err(CL_INVALID_IMAGE_DESCRIPTOR),
            "type {ty:#x}"
        );
    }
    // "num_mip_levels must be 0"; "num_samples must be 0".
    let mut d = shape.desc(0, 0);
    d.num_mip_levels = 1;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    let mut d = shape.desc(0, 0);
    d.num_samples = 2;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // mem_object: "Otherwise it must be NULL" (a buffer for a 3D image, a 1D
    // image, arrays); a 1D image buffer needs a buffer, not an image; an
    // invalid handle.
    let buf = buffer(c, 0, 4096);
    for ty in [
        CL_MEM_OBJECT_IMAGE1D,
        CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D_ARRAY,
        CL_MEM_OBJECT_IMAGE3D,
    ] {
        let mut d = Shape::of(ty).desc(0, 0);
        d.buffer = buf;
        assert_eq!(
            try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
            Err(CL_INVALID_IMAGE_DESCRIPTOR),
            "type {ty:#x} from a buffer"
        );
    }
    let img = image(c, 0, &RGBA8, &shape.desc(0, 0), ptr::null_mut());
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE1D_BUFFER).desc(0, 0);
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    d.buffer = img;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    let mut d = shape.desc(0, 0);
    d.buffer = forged_handle();
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // A pipe is neither a buffer nor an image.
    let mut err = 0;
    // SAFETY: valid context; NULL properties.
    let pipe = unsafe { clCreatePipe(c, 0, 4, 4, ptr::null(), &mut err) };
    check(err);
    d.buffer = pipe;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // A buffer of another context.
    let other = context();
    let other_buf = buffer(other, 0, 4096);
    d.buffer = other_buf;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    for m in [buf, img, pipe, other_buf] {
        release_mem(m);
    }
    // SAFETY: handles the test owns.
    unsafe {
        check(clReleaseContext(other));
        check(clReleaseContext(c));
    }
}

#[test]
fn creation_rejects_bad_sizes() {
    let c = context();
    let m2 = 16384;
    let m3 = 2048;
    let max_buffer: usize = device_value(device(), CL_DEVICE_IMAGE_MAX_BUFFER_SIZE);
    let max_array: usize = device_value(device(), CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
    assert!(device_value::<usize>(device(), CL_DEVICE_IMAGE2D_MAX_WIDTH) == m2);
    assert!(device_value::<usize>(device(), CL_DEVICE_IMAGE3D_MAX_DEPTH) == m3);
    let buf = buffer(c, 0, 4096);
    // CL_INVALID_IMAGE_SIZE if the image dimensions specified in image_desc
    // are not valid (0) or exceed the maximum image dimensions.
    type Edit = fn(&mut cl_image_desc, usize);
    let cases: [(cl_mem_object_type, Edit, usize); 18] = [
        (CL_MEM_OBJECT_IMAGE1D, |d, v| d.image_width = v, 0),
        (CL_MEM_OBJECT_IMAGE1D, |d, v| d.image_width = v, m2 + 1),
        (CL_MEM_OBJECT_IMAGE1D_BUFFER, |d, v| d.image_width = v, 0),
        (CL_MEM_OBJECT_IMAGE1D_BUFFER, |d, v| d.image_width = v, max_buffer + 1),
        (CL_MEM_OBJECT_IMAGE1D_ARRAY, |d, v| d.image_array_size = v, 0),
        (
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            |d, v| d.image_array_size = v,
            max_array + 1,
        ),
        (CL_MEM_OBJECT_IMAGE2D, |d, v| d.image_width = v, m2 + 1),
        (CL_MEM_OBJECT_IMAGE2D, |d, v| d.image_height = v, 0),
        (CL_MEM_OBJECT_IMAGE2D, |d, v| d.image_height = v, m2 + 1),
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, |d, v| d.image_height = v, 0),
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, |d, v| d.image_array_size = v, 0),
        (
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            |d, v| d.image_array_size = v,
            max_array + 1,
        ),
        (CL_MEM_OBJECT_IMAGE3D, |d, v| d.image_width = v, m3 + 1),
        (CL_MEM_OBJECT_IMAGE3D, |d, v| d.image_height = v, m3 + 1),
        (CL_MEM_OBJECT_IMAGE3D, |d, v| d.image_depth = v, 0),
        (CL_MEM_OBJECT_IMAGE3D, |d, v| d.image_depth = v, m3 + 1),
        (CL_MEM_OBJECT_IMAGE2D_ARRAY, |d, v| d.image_width = v, 0),
        (CL_MEM_OBJECT_IMAGE3D, |d, v| d.image_height = v, 0),
    ];
    for (i, (ty, edit, v)) in cases.iter().enumerate() {
        let mut d = Shape::of(*ty).desc(0, 0);
        if *ty == CL_MEM_OBJECT_IMAGE1D_BUFFER {
            d.buffer = buf;
        }
        edit(&mut d, *v);
        assert_eq!(
            try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
            Err(CL_INVALID_IMAGE_SIZE),
            "case {i}: type {ty:#x} value {v}"
        );
    }
    // What a type does not use is not checked: a 1D image's height and
    // depth, a 2D image's depth and layers.
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE1D).desc(0, 0);
    d.image_height = 0;
    d.image_depth = m3 * 10;
    d.image_array_size = 0;
    let m = image(c, 0, &RGBA8, &d, ptr::null_mut());
    release_mem(m);
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
    d.image_depth = 0;
    d.image_array_size = max_array * 2;
    let m = image(c, 0, &RGBA8, &d, ptr::null_mut());
    release_mem(m);
    // The largest dimensions are accepted (8-bit texels keep them small).
    let r8 = fmt(CL_R, CL_UNORM_INT8);
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
    d.image_width = m2;
    d.image_height = 2;
    release_mem(image(c, 0, &r8, &d, ptr::null_mut()));
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE1D_ARRAY).desc(0, 0);
    d.image_width = 2;
    d.image_array_size = max_array;
    release_mem(image(c, 0, &r8, &d, ptr::null_mut()));
    release_mem(buf);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn creation_rejects_bad_pitches() {
    let c = context();
    let mut host = vec![0u8; 1 << 16];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let es = 4;
    for ty in OWN_TYPES {
        let shape = Shape::of(ty);
        let row = shape.w * es;
        let bad = |rp: usize, sp: usize, h: *mut c_void| {
            let flags = if h.is_null() { 0 } else { CL_MEM_COPY_HOST_PTR };
            try_image(c, flags, Some(&RGBA8), Some(&shape.desc(rp, sp)), h)
        };
        // "The image_row_pitch must be zero if host_ptr is NULL"; so must
        // image_slice_pitch.
        assert_eq!(
            bad(row, 0, ptr::null_mut()),
            Err(CL_INVALID_IMAGE_DESCRIPTOR),
            "{ty:#x}"
        );
        assert_eq!(
            bad(0, row * 8, ptr::null_mut()),
            Err(CL_INVALID_IMAGE_DESCRIPTOR),
            "{ty:#x}"
        );
        // A row pitch below width × element size, or not a multiple of the
        // element size.
        assert_eq!(bad(row - es, 0, hp), Err(CL_INVALID_IMAGE_DESCRIPTOR), "{ty:#x}");
        assert_eq!(bad(row + 1, 0, hp), Err(CL_INVALID_IMAGE_DESCRIPTOR), "{ty:#x}");
        // Valid: a larger multiple.
        release_mem(bad(row + es, 0, hp).expect("padded row pitch"));
        if shape.layered() {
            // A slice pitch below the row pitch × height (the row pitch for
            // 1D arrays), or not a multiple of the row pitch.
            let rows = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY { 1 } else { shape.h };
            assert_eq!(bad(0, row * rows - es, hp), Err(CL_INVALID_IMAGE_DESCRIPTOR), "{ty:#x}");
            assert_eq!(bad(0, row * rows + es, hp), Err(CL_INVALID_IMAGE_DESCRIPTOR), "{ty:#x}");
            assert_eq!(
                bad(row + es, (row + es) * rows + row, hp),
                Err(CL_INVALID_IMAGE_DESCRIPTOR),
                "{ty:#x}"
            );
            release_mem(bad(0, row * (rows + 1), hp).expect("padded slice pitch"));
        } else {
            // A slice pitch is not used by 1D and 2D images with a host
            // pointer.
            release_mem(bad(0, 12345, hp).expect("unused slice pitch"));
        }
    }
    drop(host);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn creation_rejects_bad_host_pointers() {
    let c = context();
    let desc = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
    let mut host = vec![0u8; 1024];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    // CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR are set in flags; if host_ptr is not NULL but
    // CL_MEM_COPY_HOST_PTR or CL_MEM_USE_HOST_PTR are not set in flags.
    for (flags, h) in [
        (CL_MEM_USE_HOST_PTR, ptr::null_mut()),
        (CL_MEM_COPY_HOST_PTR, ptr::null_mut()),
        (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, ptr::null_mut()),
        (0, hp),
        (CL_MEM_ALLOC_HOST_PTR, hp),
        (CL_MEM_READ_ONLY, hp),
    ] {
        assert_eq!(
            try_image(c, flags, Some(&RGBA8), Some(&desc), h),
            Err(CL_INVALID_HOST_PTR),
            "flags {flags:#x}"
        );
    }
    // A host pointer inside an SVM allocation too small for the image.
    // SAFETY: valid context; the allocation is freed below.
    let svm = unsafe { clSVMAlloc(c, CL_MEM_READ_WRITE, 64, 0) };
    assert!(!svm.is_null());
    assert_eq!(
        try_image(c, CL_MEM_USE_HOST_PTR, Some(&RGBA8), Some(&desc), svm),
        Err(CL_INVALID_HOST_PTR)
    );
    // SAFETY: the allocation made above; nothing uses it.
    unsafe { clSVMFree(c, svm) };
    drop(host);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn creation_rejects_unsupported_formats() {
    let c = context();
    // A valid format (its order and type combine, as 2D images of it show)
    // that an image type does not support: depth formats beyond 2D images
    // and 2D arrays.
    let mut found = 0;
    for ty in [
        CL_MEM_OBJECT_IMAGE1D,
        CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE3D,
    ] {
        for f in [fmt(CL_DEPTH, CL_FLOAT), fmt(CL_DEPTH, CL_UNORM_INT16)] {
            let listed = [
                CL_MEM_READ_ONLY,
                CL_MEM_WRITE_ONLY,
                CL_MEM_READ_WRITE,
                CL_MEM_KERNEL_READ_AND_WRITE,
            ]
            .iter()
            .any(|&a| supported(c, a, ty).iter().any(|g| same(g, &f)));
            if listed {
                continue;
            }
            found += 1;
            // CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in
            // context that support image_format.
            assert_eq!(
                try_image(c, 0, Some(&f), Some(&Shape::of(ty).desc(0, 0)), ptr::null_mut()),
                Err(CL_IMAGE_FORMAT_NOT_SUPPORTED),
                "type {ty:#x}"
            );
        }
    }
    assert!(found > 0, "no unsupported depth format to test with");
    let m = image(
        c,
        0,
        &fmt(CL_DEPTH, CL_FLOAT),
        &Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0),
        ptr::null_mut(),
    );
    release_mem(m);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

#[test]
fn creation_errors_come_in_the_spec_order() {
    let c = context();
    let good = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
    let mut zero = good;
    zero.image_width = 0;
    let mut bad_type = good;
    bad_type.image_type = 0;
    let mut host = vec![0u8; 1024];
    let hp: *mut c_void = host.as_mut_ptr().cast();
    let bad_flags = CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;
    let bad_fmt = fmt(0, 0);
    // Flags before the format, the format before the descriptor, the
    // descriptor before the size, the size before the host pointer.
    assert_eq!(try_image(c, bad_flags, None, None, hp), Err(CL_INVALID_VALUE));
    assert_eq!(
        try_image(c, 0, Some(&bad_fmt), None, hp),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    assert_eq!(
        try_image(c, 0, None, Some(&bad_type), hp),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&bad_type), hp),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&zero), hp),
        Err(CL_INVALID_IMAGE_SIZE)
    );
    assert_eq!(try_image(c, 0, Some(&RGBA8), Some(&good), hp), Err(CL_INVALID_HOST_PTR));
    // The host pointer before an unsupported format.
    let depth3d = Shape::of(CL_MEM_OBJECT_IMAGE3D).desc(0, 0);
    assert_eq!(
        try_image(c, 0, Some(&fmt(CL_DEPTH, CL_FLOAT)), Some(&depth3d), hp),
        Err(CL_INVALID_HOST_PTR)
    );
    drop(host);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

// ---------------------------------------------------------------------------
// Images from buffers and images

#[test]
fn image1d_buffers_share_their_buffer() {
    let (c, q) = fixture();
    let es = 4;
    let w = 10;
    let data = pattern_bytes(64, 4);
    let mut host = data.clone();
    let buf = try_buffer_with(
        c,
        CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY,
        &mut host,
    );
    // Flags not given are inherited from the buffer.
    let m = image_buffer(c, 0, &RGBA8, w, buf).expect("1D image buffer");
    assert_eq!(
        mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_HOST_WRITE_ONLY
    );
    assert_eq!(
        mem_value::<cl_mem_object_type>(m, CL_MEM_TYPE),
        CL_MEM_OBJECT_IMAGE1D_BUFFER
    );
    assert_eq!(image_value::<cl_mem>(m, CL_IMAGE_BUFFER), buf);
    assert_eq!(mem_value::<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT), buf);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_WIDTH), w);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_HEIGHT), 0);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), w * es);
    assert_eq!(image_value::<usize>(m, CL_IMAGE_SLICE_PITCH), 0);
    assert_eq!(mem_value::<usize>(m, CL_MEM_SIZE), w * es);
    // A pitch may be given for its one row (the Khronos conformance suite
    // gives padded ones), if it is a valid pitch.
    for (pitch, ok) in [
        (w * es, true),
        (w * es + 2 * es, true),
        (w * es + 1, false),
        (w * es - es, false),
    ] {
        let mut d = Shape::of(CL_MEM_OBJECT_IMAGE1D_BUFFER).desc(0, 0);
        d.image_width = w;
        d.image_row_pitch = pitch;
        d.buffer = buf;
        match try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()) {
            Ok(other) if ok => release_mem(other),
            Err(e) if !ok => assert_eq!(e, CL_INVALID_IMAGE_DESCRIPTOR),
            r => panic!("row pitch {pitch}: {r:?}"),
        }
    }
    // The image's host access is the buffer's: writes only.
    let mut out = vec![0u8; w * es];
    expect_err(
        read_image(q, m, [0; 3], [w, 1, 1], 0, 0, &mut out),
        CL_INVALID_OPERATION,
    );
    // Written through the image, seen in the buffer's store.
    let texels = pattern_bytes(w * es, 100);
    check(write_image(q, m, [0; 3], [w, 1, 1], 0, 0, &texels));
    assert_eq!(&host[..w * es], &texels[..]);
    assert_eq!(&host[w * es..], &data[w * es..], "the rest of the buffer is untouched");
    // The buffer outlives its release while the image lives.
    release_mem(buf);
    host[0] = 0x77;
    let r8 = image_value::<cl_mem>(m, CL_IMAGE_BUFFER);
    assert_eq!(r8, buf, "the handle is still answered");
    release_mem(m);

    // A read-write buffer: the image reads what the buffer holds, and the
    // image's own flags override.
    let rw = buffer(c, CL_MEM_READ_WRITE, 256);
    write_bytes(q, rw, 0, &pattern_bytes(256, 8));
    let m = image_buffer(
        c,
        CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY,
        &fmt(CL_R, CL_UNSIGNED_INT16),
        100,
        rw,
    )
    .expect("image");
    assert_eq!(
        mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY
    );
    let mut out = vec![0u8; 200];
    check(read_image(q, m, [0; 3], [100, 1, 1], 0, 0, &mut out));
    assert_eq!(out, pattern_bytes(256, 8)[..200]);
    expect_err(
        write_image(q, m, [0; 3], [1, 1, 1], 0, 0, &[0, 0]),
        CL_INVALID_OPERATION,
    );
    // A sub-buffer works as well.
    let sub = sub_buffer(rw, 0, 128, 128).expect("sub-buffer");
    let m2 = image_buffer(c, 0, &fmt(CL_R, CL_UNSIGNED_INT8), 128, sub).expect("image of a sub-buffer");
    let mut out = vec![0u8; 128];
    check(read_image(q, m2, [0; 3], [128, 1, 1], 0, 0, &mut out));
    assert_eq!(out, pattern_bytes(256, 8)[128..]);
    // "For a 1D image buffer created from a buffer object, the image_width ×
    // size of element in bytes must be <= size of the buffer object."
    assert_eq!(image_buffer(c, 0, &RGBA8, 65, rw), Err(CL_INVALID_IMAGE_DESCRIPTOR));
    for x in [m, m2, sub, rw] {
        release_mem(x);
    }
    teardown(q, c);
}

/// clCreateBuffer over `host` with `flags` (which ask for a host pointer).
fn try_buffer_with(c: cl_context, flags: cl_mem_flags, host: &mut [u8]) -> cl_mem {
    let mut err = 1;
    // SAFETY: `host` covers the buffer and outlives it (callers keep it).
    let m = unsafe { clCreateBuffer(c, flags, host.len(), host.as_mut_ptr().cast(), &mut err) };
    check(err);
    m
}

#[test]
fn images_2d_from_buffers() {
    let (c, q) = fixture();
    let es = 4;
    let pitch_align: cl_uint = device_value(device(), CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
    let base_align: cl_uint = device_value(device(), CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
    let (w, h) = (6, 5);
    // A row pitch of the alignment (in pixels) above the width.
    let rp = (w + pitch_align as usize) * es;
    let buf = buffer(c, CL_MEM_READ_WRITE, rp * h + 32);
    let bytes = pattern_bytes(rp * h + 32, 11);
    write_bytes(q, buf, 0, &bytes);
    let mut d = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(rp, 0);
    d.image_width = w;
    d.image_height = h;
    d.buffer = buf;
    // "The image_row_pitch must be zero if host_ptr is NULL and the image is
    // not a 2D image created from a buffer": a pitch is allowed here.
    let m = image(c, CL_MEM_WRITE_ONLY, &RGBA8, &d, ptr::null_mut());
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), rp);
    assert_eq!(image_value::<cl_mem>(m, CL_IMAGE_BUFFER), buf);
    assert_eq!(mem_value::<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT), buf);
    assert_eq!(mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS), CL_MEM_WRITE_ONLY);
    assert_eq!(mem_value::<usize>(m, CL_MEM_SIZE), rp * h);
    // The image's rows are the buffer's, rp bytes apart.
    let mut out = vec![0u8; w * h * es];
    check(read_image(q, m, [0; 3], [w, h, 1], 0, 0, &mut out));
    let want: Vec<u8> = (0..h).flat_map(|y| bytes[y * rp..y * rp + w * es].to_vec()).collect();
    assert_eq!(out, want);
    // A write through the image lands in the buffer.
    check(write_image(q, m, [1, 2, 0], [1, 1, 1], 0, 0, &[1, 2, 3, 4]));
    assert_eq!(read_bytes(q, buf, 2 * rp + es, 4), vec![1, 2, 3, 4]);
    release_mem(m);
    // Row pitch 0 is the tight pitch.
    d.image_row_pitch = 0;
    let m = image(c, 0, &RGBA8, &d, ptr::null_mut());
    assert_eq!(image_value::<usize>(m, CL_IMAGE_ROW_PITCH), w * es);
    release_mem(m);
    // "the image_row_pitch × image_height must be <= size of the buffer
    // object": CL_INVALID_IMAGE_DESCRIPTOR.
    d.image_height = 100;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    d.image_height = h;
    // The pitch rules still hold (a multiple of the element size, at least
    // the width).
    d.image_row_pitch = w * es - es;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    d.image_row_pitch = w * es + 2;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a
    // buffer and the base address alignment does not follow the rules: a
    // CL_MEM_USE_HOST_PTR buffer whose host_ptr is not aligned to
    // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels.
    let mut host = vec![0u8; 4096 + 64];
    let aligned = host.as_ptr().align_offset(64);
    let unaligned = aligned + (base_align as usize * es) / 2;
    let mut err = 1;
    // SAFETY: the host memory covers the buffer and outlives it.
    let ub = unsafe {
        clCreateBuffer(
            c,
            CL_MEM_USE_HOST_PTR,
            4000,
            host.as_mut_ptr().add(unaligned).cast(),
            &mut err,
        )
    };
    check(err);
    d.image_row_pitch = 0;
    d.buffer = ub;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&d), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    release_mem(ub);
    // SAFETY: as above.
    let ab = unsafe {
        clCreateBuffer(
            c,
            CL_MEM_USE_HOST_PTR,
            4000,
            host.as_mut_ptr().add(aligned).cast(),
            &mut err,
        )
    };
    check(err);
    d.buffer = ab;
    let m = image(c, 0, &RGBA8, &d, ptr::null_mut());
    // The image's host pointer is the image's own argument (NULL); the
    // buffer's host-pointer flag is inherited.
    assert!(mem_value::<*mut c_void>(m, CL_MEM_HOST_PTR).is_null());
    assert_eq!(
        mem_value::<cl_mem_flags>(m, CL_MEM_FLAGS) & CL_MEM_USE_HOST_PTR,
        CL_MEM_USE_HOST_PTR
    );
    release_mem(m);
    release_mem(ab);
    drop(host);
    release_mem(buf);
    teardown(q, c);
}

#[test]
fn images_2d_from_images_view_the_same_texels() {
    let (c, q) = fixture();
    let shape = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let es = 4;
    let src = image(c, CL_MEM_READ_ONLY, &RGBA8, &shape.desc(0, 0), ptr::null_mut());
    let data = pattern_bytes(shape.texels() * es, 21);
    check(write_image(q, src, [0; 3], shape.extent(), 0, 0, &data));
    // An sRGBA view of an RGBA image (and back), a BGRA one of an sBGRA
    // image: "the pixels stored in the image can be accessed as linear RGB
    // or sRGB values".
    let mut d = shape.desc(0, 0);
    d.buffer = src;
    let view = image(c, 0, &fmt(CL_sRGBA, CL_UNORM_INT8), &d, ptr::null_mut());
    assert_eq!(mem_value::<cl_mem>(view, CL_MEM_ASSOCIATED_MEMOBJECT), src);
    assert!(
        image_value::<cl_mem>(view, CL_IMAGE_BUFFER).is_null(),
        "no buffer behind it"
    );
    assert_eq!(
        mem_value::<cl_mem_flags>(view, CL_MEM_FLAGS),
        CL_MEM_READ_ONLY,
        "inherited"
    );
    let got: cl_image_format = image_value(view, CL_IMAGE_FORMAT);
    assert!(same(&got, &fmt(CL_sRGBA, CL_UNORM_INT8)));
    assert_eq!(read_all(q, view, &shape, es), data, "the same texels");
    check(write_image(q, view, [2, 1, 0], [1, 1, 1], 0, 0, &[9, 8, 7, 6]));
    let mut px = [0u8; 4];
    check(read_image(q, src, [2, 1, 0], [1, 1, 1], 0, 0, &mut px));
    assert_eq!(px, [9, 8, 7, 6]);
    let mut d2 = shape.desc(0, 0);
    d2.buffer = view;
    let back = image(c, 0, &RGBA8, &d2, ptr::null_mut());
    release_mem(back);
    // A depth view of an R image (same data type).
    let rf = image(c, 0, &fmt(CL_R, CL_FLOAT), &shape.desc(0, 0), ptr::null_mut());
    let mut d3 = shape.desc(0, 0);
    d3.buffer = rf;
    let depth = image(c, 0, &fmt(CL_DEPTH, CL_FLOAT), &d3, ptr::null_mut());
    assert_eq!(image_value::<usize>(depth, CL_IMAGE_ELEMENT_SIZE), 4);
    // A source made with a host pointer and a pitch: the view has its pitch.
    let mut host = vec![0u8; 64 * shape.h];
    let pitched = image(
        c,
        CL_MEM_USE_HOST_PTR,
        &RGBA8,
        &shape.desc(64, 0),
        host.as_mut_ptr().cast(),
    );
    let mut d4 = shape.desc(0, 0);
    d4.buffer = pitched;
    let pv = image(c, 0, &fmt(CL_sRGBA, CL_UNORM_INT8), &d4, ptr::null_mut());
    assert_eq!(image_value::<usize>(pv, CL_IMAGE_ROW_PITCH), 64);
    check(write_image(q, pv, [0, 1, 0], [1, 1, 1], 0, 0, &[1, 2, 3, 4]));
    assert_eq!(&host[64..68], &[1, 2, 3, 4]);
    d4.image_row_pitch = 64;
    release_mem(image(c, 0, &RGBA8, &d4, ptr::null_mut()));

    // "All of the values specified in image_desc must match the image
    // descriptor information associated with mem_object":
    // CL_INVALID_IMAGE_DESCRIPTOR.
    let mut bad = d;
    bad.image_width += 1;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&bad), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    let mut bad = d;
    bad.image_height -= 1;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&bad), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    let mut bad = d4;
    bad.image_row_pitch = 32;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&bad), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // Only 2D images are made from images.
    let mut bad = Shape::of(CL_MEM_OBJECT_IMAGE2D_ARRAY).desc(0, 0);
    bad.buffer = src;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&bad), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    let a3 = image(
        c,
        0,
        &RGBA8,
        &Shape::of(CL_MEM_OBJECT_IMAGE3D).desc(0, 0),
        ptr::null_mut(),
    );
    let mut bad = shape.desc(0, 0);
    bad.buffer = a3;
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&bad), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_DESCRIPTOR)
    );
    // CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: "The image channel data type
    // specified in image_format must match"; "The image channel order ...
    // must be compatible".
    for f in [
        fmt(CL_RGBA, CL_UNORM_INT16),
        fmt(CL_RGBA, CL_SIGNED_INT8),
        fmt(CL_BGRA, CL_UNORM_INT8),
        fmt(CL_R, CL_UNORM_INT8),
    ] {
        assert_eq!(
            try_image(c, 0, Some(&f), Some(&d), ptr::null_mut()),
            Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
            "{:#x}/{:#x}",
            f.image_channel_order,
            f.image_channel_data_type
        );
    }
    assert_eq!(
        try_image(c, 0, Some(&fmt(CL_DEPTH, CL_UNORM_INT16)), Some(&d3), ptr::null_mut()),
        Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    );
    // The source outlives its release while a view lives.
    release_mem(src);
    assert_eq!(read_all(q, view, &shape, es)[..8], data[..8]);
    for m in [view, depth, rf, pv, pitched, a3] {
        release_mem(m);
    }
    drop(host);
    teardown(q, c);
}

#[test]
fn images_from_memory_objects_check_the_flags() {
    let c = context();
    let mk = |flags: cl_mem_flags| buffer(c, flags, 4096);
    let b2d = |buf: cl_mem| {
        let mut d = Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0);
        d.buffer = buf;
        d
    };
    let cases = [
        // mem_object was created with CL_MEM_WRITE_ONLY and flags specifies
        // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY
        (CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE),
        (CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY),
        // mem_object was created with CL_MEM_READ_ONLY and flags specifies
        // CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY
        (CL_MEM_READ_ONLY, CL_MEM_READ_WRITE),
        (CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY),
        // flags specifies CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR
        (0, CL_MEM_ALLOC_HOST_PTR),
        // mem_object was created with CL_MEM_HOST_WRITE_ONLY and flags
        // specifies CL_MEM_HOST_READ_ONLY
        (CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY),
        // ... CL_MEM_HOST_READ_ONLY and flags specifies CL_MEM_HOST_WRITE_ONLY
        (CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_WRITE_ONLY),
        // ... CL_MEM_HOST_NO_ACCESS and flags specifies
        // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY
        (CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_READ_ONLY),
        (CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY),
    ];
    for (parent, flags) in cases {
        let b = mk(parent);
        assert_eq!(
            try_image(c, flags, Some(&RGBA8), Some(&b2d(b)), ptr::null_mut()),
            Err(CL_INVALID_VALUE),
            "buffer {parent:#x}, image {flags:#x}"
        );
        assert_eq!(image_buffer(c, flags, &RGBA8, 4, b), Err(CL_INVALID_VALUE));
        release_mem(b);
    }
    // A host pointer with a buffer-backed image: COPY and USE are refused as
    // flags (CL_INVALID_VALUE comes before CL_INVALID_HOST_PTR).
    let b = mk(0);
    let mut host = vec![0u8; 4096];
    for f in [CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR] {
        assert_eq!(
            try_image(c, f, Some(&RGBA8), Some(&b2d(b)), host.as_mut_ptr().cast()),
            Err(CL_INVALID_VALUE)
        );
    }
    // Any host pointer at all is refused (no flag allows one).
    assert_eq!(
        try_image(c, 0, Some(&RGBA8), Some(&b2d(b)), host.as_mut_ptr().cast()),
        Err(CL_INVALID_HOST_PTR)
    );
    // Narrowing is allowed: a read-only image of a read-write buffer.
    let m = try_image(
        c,
        CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
        Some(&RGBA8),
        Some(&b2d(b)),
        ptr::null_mut(),
    )
    .expect("narrower");
    release_mem(m);
    release_mem(b);
    drop(host);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

// ---------------------------------------------------------------------------
// Read and write

#[test]
fn read_write_round_trips_with_pitches_origins_and_regions() {
    let (c, q) = fixture();
    for format in [RGBA8, fmt(CL_RGBA, CL_FLOAT), fmt(CL_R, CL_UNSIGNED_INT16)] {
        let es = element_size(&format);
        for ty in ALL_TYPES {
            let shape = Shape::of(ty);
            let ext = shape.extent();
            let buf = (ty == CL_MEM_OBJECT_IMAGE1D_BUFFER).then(|| buffer(c, 0, shape.w * es));
            let m = match buf {
                Some(b) => image_buffer(c, 0, &format, shape.w, b).expect("1D image buffer"),
                None => image(c, 0, &format, &shape.desc(0, 0), ptr::null_mut()),
            };
            let what = format!("type {ty:#x} es {es}");
            let mut model = pattern_bytes(shape.texels() * es, 40);
            check(write_image(q, m, [0; 3], ext, 0, 0, &model));
            // A sub-region: from (1, 1, 1) where the type has those
            // coordinates, 2 wide and the rest of the image.
            let dims = match ty {
                CL_MEM_OBJECT_IMAGE1D | CL_MEM_OBJECT_IMAGE1D_BUFFER => 1,
                CL_MEM_OBJECT_IMAGE1D_ARRAY | CL_MEM_OBJECT_IMAGE2D => 2,
                _ => 3,
            };
            let origin: [usize; 3] = std::array::from_fn(|k| usize::from(k < dims));
            let region: [usize; 3] = std::array::from_fn(|k| if k == 0 { 2 } else { ext[k] - origin[k] });
            // Host data with pitches: rows of 5 texels, and slices (or
            // layers of a 1D array) of that many rows plus one.
            let rp = 5 * es;
            let sp = match ty {
                CL_MEM_OBJECT_IMAGE1D_ARRAY => rp * 2,
                CL_MEM_OBJECT_IMAGE2D_ARRAY | CL_MEM_OBJECT_IMAGE3D => rp * (region[1] + 1),
                _ => 0,
            };
            let (ys, zs) = match ty {
                CL_MEM_OBJECT_IMAGE1D_ARRAY => (sp, sp),
                _ => (rp, sp),
            };
            let packed = pattern_bytes(region.iter().product::<usize>() * es, 200);
            let span = (region[2] - 1) * zs + (region[1] - 1) * ys + region[0] * es;
            let host = lay_out(&packed, region, es, ys, zs, span, 0xAB);
            check(write_image(q, m, origin, region, rp, sp, &host));
            put_region(&mut model, ext, es, origin, region, &packed);
            assert_eq!(read_all(q, m, &shape, es), model, "{what}: after a pitched write");
            // Read the region back with the same pitches: the rows land at
            // their pitch, the gaps are left alone.
            let mut back = vec![0xCDu8; span];
            check(read_image(q, m, origin, region, rp, sp, &mut back));
            let want = lay_out(&packed, region, es, ys, zs, span, 0xCD);
            assert_eq!(back, want, "{what}: a pitched read");
            // A packed read of another region.
            let mut one = vec![0u8; es * region[1] * region[2]];
            let o2 = [0, origin[1], origin[2]];
            let r2 = [1, region[1], region[2]];
            check(read_image(q, m, o2, r2, 0, 0, &mut one));
            assert_eq!(one, sub_region(&model, ext, es, o2, r2), "{what}: a column");
            release_mem(m);
            if let Some(b) = buf {
                release_mem(b);
            }
        }
    }
    teardown(q, c);
}

#[test]
fn non_blocking_transfers_and_events() {
    let (c, q) = fixture();
    let shape = Shape::of(CL_MEM_OBJECT_IMAGE2D_ARRAY);
    let m = image(c, 0, &RGBA8, &shape.desc(0, 0), ptr::null_mut());
    let data = pattern_bytes(shape.texels() * 4, 77);
    let mut out = vec![0u8; data.len()];
    let gate = new_user_event(c);
    let (mut we, mut re) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: `data` and `out` outlive the commands (waited for below).
    unsafe {
        check(clEnqueueWriteImage(
            q,
            m,
            CL_FALSE,
            [0usize; 3].as_ptr(),
            shape.extent().as_ptr(),
            0,
            0,
            data.as_ptr().cast(),
            1,
            &gate,
            &mut we,
        ));
        check(clEnqueueReadImage(
            q,
            m,
            CL_FALSE,
            [0usize; 3].as_ptr(),
            shape.extent().as_ptr(),
            0,
            0,
            out.as_mut_ptr().cast(),
            1,
            &we,
            &mut re,
        ));
        assert!(event_status(we) > CL_COMPLETE, "the write waits for the user event");
        check(clSetUserEventStatus(gate, CL_COMPLETE));
        check(clWaitForEvents(1, &re));
    }
    assert_eq!(out, data);
    // Each command has its command type.
    let ty = |e: cl_event| -> cl_command_type {
        // SAFETY: forwards the buffer protocol of `info_value`.
        info_value(|s, v, r| unsafe { clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, s, v, r) })
    };
    assert_eq!(ty(we), CL_COMMAND_WRITE_IMAGE);
    assert_eq!(ty(re), CL_COMMAND_READ_IMAGE);
    // A blocking read after a failed event: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
    let failed = new_user_event(c);
    // SAFETY: as above; the read does not run.
    unsafe {
        check(clSetUserEventStatus(failed, -1));
        expect_err(
            clEnqueueReadImage(
                q,
                m,
                CL_TRUE,
                [0usize; 3].as_ptr(),
                [1usize, 1, 1].as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                1,
                &failed,
                ptr::null_mut(),
            ),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
        );
        for e in [we, re, gate, failed] {
            check(clReleaseEvent(e));
        }
    }
    release_mem(m);
    teardown(q, c);
}

#[test]
fn read_write_errors() {
    let (c, q) = fixture();
    let shape = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let m = image(c, 0, &RGBA8, &shape.desc(0, 0), ptr::null_mut());
    let mut out = vec![0u8; 4096];
    let o = [0usize; 3];
    let r = [2usize, 2, 1];
    // CL_INVALID_COMMAND_QUEUE.
    expect_err(
        read_image(ptr::null_mut(), m, o, r, 0, 0, &mut out),
        CL_INVALID_COMMAND_QUEUE,
    );
    // CL_INVALID_MEM_OBJECT if image is not a valid image object (a buffer
    // is not one).
    let buf = buffer(c, 0, 4096);
    expect_err(read_image(q, buf, o, r, 0, 0, &mut out), CL_INVALID_MEM_OBJECT);
    expect_err(write_image(q, buf, o, r, 0, 0, &out), CL_INVALID_MEM_OBJECT);
    expect_err(
        read_image(q, ptr::null_mut(), o, r, 0, 0, &mut out),
        CL_INVALID_MEM_OBJECT,
    );
    // CL_INVALID_CONTEXT if the context of command_queue and image differ.
    let (c2, q2) = fixture();
    expect_err(read_image(q2, m, o, r, 0, 0, &mut out), CL_INVALID_CONTEXT);
    // CL_INVALID_VALUE if origin or region is NULL.
    // SAFETY: NULL origin or region; `out` is large enough.
    unsafe {
        expect_err(
            clEnqueueReadImage(
                q,
                m,
                CL_TRUE,
                ptr::null(),
                r.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueWriteImage(
                q,
                m,
                CL_TRUE,
                o.as_ptr(),
                ptr::null(),
                0,
                0,
                out.as_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // ... if ptr is NULL.
        expect_err(
            clEnqueueReadImage(
                q,
                m,
                CL_TRUE,
                o.as_ptr(),
                r.as_ptr(),
                0,
                0,
                ptr::null_mut(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
    }
    // ... if the region is out of bounds; if the values in origin and region
    // break their rules (region 0; 2D images: origin[2] 0 and region[2] 1).
    for (origin, region) in [
        ([4, 0, 0], [2, 1, 1]),
        ([0, 3, 0], [1, 2, 1]),
        ([0, 0, 0], [6, 1, 1]),
        ([usize::MAX, 0, 0], [2, 1, 1]),
        ([0, 0, 0], [0, 1, 1]),
        ([0, 0, 0], [1, 0, 1]),
        ([0, 0, 1], [1, 1, 1]),
        ([0, 0, 0], [1, 1, 2]),
        ([0, 0, 0], [1, 1, 0]),
    ] {
        expect_err(read_image(q, m, origin, region, 0, 0, &mut out), CL_INVALID_VALUE);
        expect_err(write_image(q, m, origin, region, 0, 0, &out), CL_INVALID_VALUE);
    }
    // ... if image is a 1D or 2D image and slice_pitch is not zero; a row
    // pitch below the element size × width.
    expect_err(read_image(q, m, o, r, 0, 64, &mut out), CL_INVALID_VALUE);
    expect_err(read_image(q, m, o, r, 7, 0, &mut out), CL_INVALID_VALUE);
    // 1D images: origin[1], origin[2] 0 and region[1], region[2] 1; 1D
    // arrays: origin[2] 0 and region[2] 1, the layer in bounds.
    let m1 = image(
        c,
        0,
        &RGBA8,
        &Shape::of(CL_MEM_OBJECT_IMAGE1D).desc(0, 0),
        ptr::null_mut(),
    );
    expect_err(
        read_image(q, m1, [0, 1, 0], [1, 1, 1], 0, 0, &mut out),
        CL_INVALID_VALUE,
    );
    expect_err(
        read_image(q, m1, [0, 0, 0], [1, 2, 1], 0, 0, &mut out),
        CL_INVALID_VALUE,
    );
    expect_err(
        read_image(q, m1, [0, 0, 0], [1, 1, 1], 0, 8, &mut out),
        CL_INVALID_VALUE,
    );
    let ma = image(
        c,
        0,
        &RGBA8,
        &Shape::of(CL_MEM_OBJECT_IMAGE1D_ARRAY).desc(0, 0),
        ptr::null_mut(),
    );
    check(read_image(q, ma, [0, 2, 0], [1, 1, 1], 0, 0, &mut out));
    expect_err(
        read_image(q, ma, [0, 3, 0], [1, 1, 1], 0, 0, &mut out),
        CL_INVALID_VALUE,
    );
    expect_err(
        read_image(q, ma, [0, 0, 1], [1, 1, 1], 0, 0, &mut out),
        CL_INVALID_VALUE,
    );
    expect_err(
        read_image(q, ma, [0, 0, 0], [1, 1, 2], 0, 0, &mut out),
        CL_INVALID_VALUE,
    );
    // A 1D array's layer pitch is at least the row pitch.
    expect_err(
        read_image(q, ma, [0, 0, 0], [2, 2, 1], 8, 4, &mut out),
        CL_INVALID_VALUE,
    );
    // 3D images: a slice pitch below row pitch × height.
    let m3 = image(
        c,
        0,
        &RGBA8,
        &Shape::of(CL_MEM_OBJECT_IMAGE3D).desc(0, 0),
        ptr::null_mut(),
    );
    expect_err(read_image(q, m3, o, [2, 2, 2], 8, 15, &mut out), CL_INVALID_VALUE);
    check(read_image(q, m3, o, [2, 2, 2], 8, 16, &mut out));
    expect_err(
        read_image(q, m3, [0, 0, 2], [1, 1, 2], 0, 0, &mut out),
        CL_INVALID_VALUE,
    );
    // CL_INVALID_EVENT_WAIT_LIST.
    // SAFETY: `out` is large enough; the wait lists are the cases tested.
    unsafe {
        expect_err(
            clEnqueueReadImage(
                q,
                m,
                CL_TRUE,
                o.as_ptr(),
                r.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                1,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        let e = new_user_event(c);
        expect_err(
            clEnqueueReadImage(
                q,
                m,
                CL_TRUE,
                o.as_ptr(),
                r.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                0,
                &e,
                ptr::null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        // CL_INVALID_CONTEXT if the events are of another context.
        let e2 = new_user_event(c2);
        expect_err(
            clEnqueueReadImage(
                q,
                m,
                CL_FALSE,
                o.as_ptr(),
                r.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                1,
                &e2,
                ptr::null_mut(),
            ),
            CL_INVALID_CONTEXT,
        );
        check(clSetUserEventStatus(e, CL_COMPLETE));
        check(clSetUserEventStatus(e2, CL_COMPLETE));
        check(clReleaseEvent(e));
        check(clReleaseEvent(e2));
    }
    // CL_INVALID_OPERATION if clEnqueueReadImage is called on image which
    // has been created with CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS;
    // if clEnqueueWriteImage is called on image created with
    // CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS.
    for (flags, read_ok, write_ok) in [
        (CL_MEM_HOST_WRITE_ONLY, false, true),
        (CL_MEM_HOST_READ_ONLY, true, false),
        (CL_MEM_HOST_NO_ACCESS, false, false),
    ] {
        let h = image(c, flags, &RGBA8, &shape.desc(0, 0), ptr::null_mut());
        let rr = read_image(q, h, o, r, 0, 0, &mut out);
        let wr = write_image(q, h, o, r, 0, 0, &out);
        assert_eq!(
            rr,
            if read_ok { CL_SUCCESS } else { CL_INVALID_OPERATION },
            "{flags:#x}"
        );
        assert_eq!(
            wr,
            if write_ok { CL_SUCCESS } else { CL_INVALID_OPERATION },
            "{flags:#x}"
        );
        release_mem(h);
    }
    for x in [m, m1, ma, m3, buf] {
        release_mem(x);
    }
    teardown(q2, c2);
    teardown(q, c);
}

// ---------------------------------------------------------------------------
// Copies

/// clEnqueueCopyImage; waits for it.
fn copy_image(q: cl_command_queue, s: cl_mem, d: cl_mem, so: [usize; 3], dor: [usize; 3], r: [usize; 3]) -> cl_int {
    // SAFETY: valid origins and region.
    let rc = unsafe {
        clEnqueueCopyImage(
            q,
            s,
            d,
            so.as_ptr(),
            dor.as_ptr(),
            r.as_ptr(),
            0,
            ptr::null(),
            ptr::null_mut(),
        )
    };
    if rc == CL_SUCCESS {
        finish(q);
    }
    rc
}

fn copy_to_buffer(q: cl_command_queue, s: cl_mem, b: cl_mem, so: [usize; 3], r: [usize; 3], off: usize) -> cl_int {
    // SAFETY: valid origin and region.
    let rc =
        unsafe { clEnqueueCopyImageToBuffer(q, s, b, so.as_ptr(), r.as_ptr(), off, 0, ptr::null(), ptr::null_mut()) };
    if rc == CL_SUCCESS {
        finish(q);
    }
    rc
}

fn copy_from_buffer(q: cl_command_queue, b: cl_mem, d: cl_mem, off: usize, dor: [usize; 3], r: [usize; 3]) -> cl_int {
    // SAFETY: valid origin and region.
    let rc =
        unsafe { clEnqueueCopyBufferToImage(q, b, d, off, dor.as_ptr(), r.as_ptr(), 0, ptr::null(), ptr::null_mut()) };
    if rc == CL_SUCCESS {
        finish(q);
    }
    rc
}

#[test]
fn copies_between_images_of_every_type() {
    let (c, q) = fixture();
    let es = 4;
    let s2 = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let s3 = Shape::of(CL_MEM_OBJECT_IMAGE3D);
    let sa = Shape::of(CL_MEM_OBJECT_IMAGE2D_ARRAY);
    let s1a = Shape::of(CL_MEM_OBJECT_IMAGE1D_ARRAY);
    let s1 = Shape::of(CL_MEM_OBJECT_IMAGE1D);
    let mut host3 = vec![0u8; s3.layout(es, 32, 160).3];
    let img2 = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    // The destination has its own pitches: copies honour both layouts.
    let img3 = image(
        c,
        CL_MEM_USE_HOST_PTR,
        &RGBA8,
        &s3.desc(32, 160),
        host3.as_mut_ptr().cast(),
    );
    let imga = image(c, 0, &RGBA8, &sa.desc(0, 0), ptr::null_mut());
    let img1a = image(c, 0, &RGBA8, &s1a.desc(0, 0), ptr::null_mut());
    let img1 = image(c, 0, &RGBA8, &s1.desc(0, 0), ptr::null_mut());
    let d2 = pattern_bytes(s2.texels() * es, 1);
    check(write_image(q, img2, [0; 3], s2.extent(), 0, 0, &d2));
    let mut m3 = vec![0u8; s3.texels() * es];
    check(write_image(q, img3, [0; 3], s3.extent(), 0, 0, &m3));
    // "one can copy a rectangular region from a 2D image to a slice of a 3D
    // image".
    check(copy_image(q, img2, img3, [1, 1, 0], [2, 0, 2], [3, 3, 1]));
    put_region(
        &mut m3,
        s3.extent(),
        es,
        [2, 0, 2],
        [3, 3, 1],
        &sub_region(&d2, s2.extent(), es, [1, 1, 0], [3, 3, 1]),
    );
    assert_eq!(read_all(q, img3, &s3, es), m3);
    // A 3D block into layers of a 2D array, a layer of the array into the 2D
    // image.
    let mut ma = vec![0u8; sa.texels() * es];
    check(write_image(q, imga, [0; 3], sa.extent(), 0, 0, &ma));
    check(copy_image(q, img3, imga, [0, 0, 1], [0, 1, 0], [5, 3, 2]));
    put_region(
        &mut ma,
        sa.extent(),
        es,
        [0, 1, 0],
        [5, 3, 2],
        &sub_region(&m3, s3.extent(), es, [0, 0, 1], [5, 3, 2]),
    );
    assert_eq!(read_all(q, imga, &sa, es), ma);
    let mut m2 = d2.clone();
    check(copy_image(q, imga, img2, [0, 0, 1], [0, 0, 0], [5, 4, 1]));
    put_region(
        &mut m2,
        s2.extent(),
        es,
        [0; 3],
        [5, 4, 1],
        &sub_region(&ma, sa.extent(), es, [0, 0, 1], [5, 4, 1]),
    );
    assert_eq!(read_all(q, img2, &s2, es), m2);
    // Rows of the 2D image into layers of a 1D array, and a layer into a 1D
    // image.
    let mut m1a = vec![0u8; s1a.texels() * es];
    check(write_image(q, img1a, [0; 3], s1a.extent(), 0, 0, &m1a));
    check(copy_image(q, img2, img1a, [0, 1, 0], [0, 1, 0], [4, 2, 1]));
    put_region(
        &mut m1a,
        s1a.extent(),
        es,
        [0, 1, 0],
        [4, 2, 1],
        &sub_region(&m2, s2.extent(), es, [0, 1, 0], [4, 2, 1]),
    );
    assert_eq!(read_all(q, img1a, &s1a, es), m1a);
    let mut m1 = vec![0u8; s1.texels() * es];
    check(write_image(q, img1, [0; 3], s1.extent(), 0, 0, &m1));
    check(copy_image(q, img1a, img1, [1, 2, 0], [0, 0, 0], [4, 1, 1]));
    put_region(
        &mut m1,
        s1.extent(),
        es,
        [0; 3],
        [4, 1, 1],
        &sub_region(&m1a, s1a.extent(), es, [1, 2, 0], [4, 1, 1]),
    );
    assert_eq!(read_all(q, img1, &s1, es), m1);
    // Within one image, regions that do not overlap.
    check(copy_image(q, img2, img2, [0, 0, 0], [3, 2, 0], [2, 2, 1]));
    let part = sub_region(&m2, s2.extent(), es, [0; 3], [2, 2, 1]);
    put_region(&mut m2, s2.extent(), es, [3, 2, 0], [2, 2, 1], &part);
    assert_eq!(read_all(q, img2, &s2, es), m2);
    // The event is a copy.
    let mut e = ptr::null_mut();
    // SAFETY: valid arguments.
    unsafe {
        check(clEnqueueCopyImage(
            q,
            img2,
            img3,
            [0usize; 3].as_ptr(),
            [0usize; 3].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            ptr::null(),
            &mut e,
        ));
        check(clWaitForEvents(1, &e));
        let ty: cl_command_type = info_value(|s, v, r| clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, s, v, r));
        assert_eq!(ty, CL_COMMAND_COPY_IMAGE);
        check(clReleaseEvent(e));
    }
    for m in [img2, img3, imga, img1a, img1] {
        release_mem(m);
    }
    drop(host3);
    teardown(q, c);
}

#[test]
fn copy_image_errors() {
    let (c, q) = fixture();
    let s2 = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let a = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    let b = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    let o = [0usize; 3];
    let r = [2usize, 2, 1];
    // CL_INVALID_COMMAND_QUEUE; CL_INVALID_MEM_OBJECT (a buffer is not an
    // image); CL_INVALID_CONTEXT.
    expect_err(copy_image(ptr::null_mut(), a, b, o, o, r), CL_INVALID_COMMAND_QUEUE);
    let buf = buffer(c, 0, 1024);
    expect_err(copy_image(q, buf, b, o, o, r), CL_INVALID_MEM_OBJECT);
    expect_err(copy_image(q, a, buf, o, o, r), CL_INVALID_MEM_OBJECT);
    let (c2, q2) = fixture();
    let other = image(c2, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    expect_err(copy_image(q, a, other, o, o, r), CL_INVALID_CONTEXT);
    expect_err(copy_image(q, other, a, o, o, r), CL_INVALID_CONTEXT);
    // CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the
    // same image format (even a view of the same texels).
    let f = image(c, 0, &fmt(CL_RGBA, CL_SIGNED_INT8), &s2.desc(0, 0), ptr::null_mut());
    expect_err(copy_image(q, a, f, o, o, r), CL_IMAGE_FORMAT_MISMATCH);
    let mut d = s2.desc(0, 0);
    d.buffer = a;
    let view = image(c, 0, &fmt(CL_sRGBA, CL_UNORM_INT8), &d, ptr::null_mut());
    expect_err(copy_image(q, a, view, o, o, r), CL_IMAGE_FORMAT_MISMATCH);
    // The format mismatch comes before the region checks.
    expect_err(copy_image(q, a, f, o, o, [0, 0, 0]), CL_IMAGE_FORMAT_MISMATCH);
    // CL_INVALID_VALUE if an origin or the region is NULL.
    // SAFETY: NULL pointers are the cases tested.
    unsafe {
        expect_err(
            clEnqueueCopyImage(
                q,
                a,
                b,
                ptr::null(),
                o.as_ptr(),
                r.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueCopyImage(
                q,
                a,
                b,
                o.as_ptr(),
                ptr::null(),
                r.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueCopyImage(
                q,
                a,
                b,
                o.as_ptr(),
                o.as_ptr(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
    }
    // ... if either region is outside its image; if the rules of either
    // image are broken ("If src_image or dst_image is a 2D image object,
    // region[2] must be 1").
    expect_err(copy_image(q, a, b, [4, 0, 0], o, r), CL_INVALID_VALUE);
    expect_err(copy_image(q, a, b, o, [0, 3, 0], r), CL_INVALID_VALUE);
    expect_err(copy_image(q, a, b, o, o, [1, 1, 0]), CL_INVALID_VALUE);
    let s3 = Shape::of(CL_MEM_OBJECT_IMAGE3D);
    let v = image(c, 0, &RGBA8, &s3.desc(0, 0), ptr::null_mut());
    expect_err(copy_image(q, v, a, o, o, [2, 2, 2]), CL_INVALID_VALUE);
    expect_err(copy_image(q, a, v, o, [0, 0, 1], [2, 2, 2]), CL_INVALID_VALUE);
    check(copy_image(q, v, v, o, [0, 0, 1], [2, 2, 1]));
    // CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image
    // object and the source and destination regions overlap.
    expect_err(copy_image(q, a, a, [0, 0, 0], [1, 1, 0], r), CL_MEM_COPY_OVERLAP);
    expect_err(
        copy_image(q, a, a, [0, 0, 0], [0, 0, 0], [1, 1, 1]),
        CL_MEM_COPY_OVERLAP,
    );
    expect_err(
        copy_image(q, v, v, [0, 0, 0], [1, 0, 1], [2, 2, 2]),
        CL_MEM_COPY_OVERLAP,
    );
    // Side by side: no overlap.
    check(copy_image(q, a, a, [0, 0, 0], [2, 0, 0], r));
    check(copy_image(q, v, v, [0, 0, 0], [0, 0, 2], [2, 2, 1]));
    // CL_INVALID_EVENT_WAIT_LIST.
    // SAFETY: a NULL list with a count is the case tested.
    unsafe {
        expect_err(
            clEnqueueCopyImage(
                q,
                a,
                b,
                o.as_ptr(),
                o.as_ptr(),
                r.as_ptr(),
                1,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
    }
    // Host access flags are ignored by copies.
    let hn = image(c, CL_MEM_HOST_NO_ACCESS, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    check(copy_image(q, a, hn, o, o, r));
    check(copy_image(q, hn, b, o, o, r));
    for m in [a, b, buf, f, view, v, hn, other] {
        release_mem(m);
    }
    teardown(q2, c2);
    teardown(q, c);
}

#[test]
fn copies_between_images_and_buffers() {
    let (c, q) = fixture();
    let es = 4;
    for ty in ALL_TYPES {
        let shape = Shape::of(ty);
        let ext = shape.extent();
        let own = (ty == CL_MEM_OBJECT_IMAGE1D_BUFFER).then(|| buffer(c, 0, shape.w * es));
        let m = match own {
            Some(b) => image_buffer(c, 0, &RGBA8, shape.w, b).expect("1D image buffer"),
            None => image(c, 0, &RGBA8, &shape.desc(0, 0), ptr::null_mut()),
        };
        let what = format!("type {ty:#x}");
        let mut model = pattern_bytes(shape.texels() * es, 60);
        check(write_image(q, m, [0; 3], ext, 0, 0, &model));
        let buf = buffer(c, 0, 4096);
        write_bytes(q, buf, 0, &vec![0xEE; 4096]);
        // Image to buffer: dst_cb is the region's texels packed (width ×
        // height × depth or layers × element size) at dst_offset.
        let origin: [usize; 3] = std::array::from_fn(|k| if ext[k] > 1 { 1 } else { 0 });
        let region: [usize; 3] = std::array::from_fn(|k| ext[k] - origin[k]);
        let cb = region.iter().product::<usize>() * es;
        check(copy_to_buffer(q, m, buf, origin, region, 12));
        let got = read_bytes(q, buf, 0, 4096);
        assert_eq!(
            &got[12..12 + cb],
            &sub_region(&model, ext, es, origin, region)[..],
            "{what}"
        );
        assert!(
            got[..12].iter().chain(&got[12 + cb..]).all(|&b| b == 0xEE),
            "{what}: only dst_cb bytes"
        );
        // Buffer to image: src_cb bytes from src_offset.
        let src = pattern_bytes(4096, 90);
        write_bytes(q, buf, 0, &src);
        check(copy_from_buffer(q, buf, m, 100, origin, region));
        put_region(&mut model, ext, es, origin, region, &src[100..100 + cb]);
        assert_eq!(read_all(q, m, &shape, es), model, "{what}");
        // CL_INVALID_VALUE if the buffer's region is out of bounds.
        expect_err(
            copy_to_buffer(q, m, buf, origin, region, 4096 - cb + 1),
            CL_INVALID_VALUE,
        );
        expect_err(
            copy_from_buffer(q, buf, m, 4096 - cb + 1, origin, region),
            CL_INVALID_VALUE,
        );
        check(copy_to_buffer(q, m, buf, origin, region, 4096 - cb));
        // ... if the image's region is out of bounds or breaks the rules.
        let mut past = origin;
        past[0] = ext[0];
        expect_err(copy_to_buffer(q, m, buf, past, region, 0), CL_INVALID_VALUE);
        expect_err(copy_from_buffer(q, buf, m, 0, past, region), CL_INVALID_VALUE);
        let mut deep = region;
        deep[2] += 1;
        expect_err(copy_to_buffer(q, m, buf, origin, deep, 0), CL_INVALID_VALUE);
        expect_err(copy_from_buffer(q, buf, m, 0, origin, deep), CL_INVALID_VALUE);
        if let Some(b) = own {
            // CL_INVALID_MEM_OBJECT if src_image is a 1D image buffer object
            // created from dst_buffer (and the reverse).
            expect_err(copy_to_buffer(q, m, b, [0; 3], [1, 1, 1], 0), CL_INVALID_MEM_OBJECT);
            expect_err(copy_from_buffer(q, b, m, 0, [0; 3], [1, 1, 1]), CL_INVALID_MEM_OBJECT);
        }
        release_mem(buf);
        release_mem(m);
        if let Some(b) = own {
            release_mem(b);
        }
    }
    teardown(q, c);
}

#[test]
fn copy_image_buffer_errors() {
    let (c, q) = fixture();
    let s2 = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let m = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    let buf = buffer(c, 0, 1024);
    let o = [0usize; 3];
    let r = [2usize, 2, 1];
    // CL_INVALID_COMMAND_QUEUE.
    expect_err(
        copy_to_buffer(ptr::null_mut(), m, buf, o, r, 0),
        CL_INVALID_COMMAND_QUEUE,
    );
    expect_err(
        copy_from_buffer(ptr::null_mut(), buf, m, 0, o, r),
        CL_INVALID_COMMAND_QUEUE,
    );
    // CL_INVALID_MEM_OBJECT if src_image is not a valid image object; if
    // dst_buffer is not a valid buffer object (an image is not one); and the
    // reverse.
    let m2 = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    expect_err(copy_to_buffer(q, buf, buf, o, r, 0), CL_INVALID_MEM_OBJECT);
    expect_err(copy_to_buffer(q, m, m2, o, r, 0), CL_INVALID_MEM_OBJECT);
    expect_err(copy_from_buffer(q, m2, m, 0, o, r), CL_INVALID_MEM_OBJECT);
    expect_err(copy_from_buffer(q, buf, buf, 0, o, r), CL_INVALID_MEM_OBJECT);
    // CL_INVALID_CONTEXT.
    let (c2, q2) = fixture();
    let b2 = buffer(c2, 0, 1024);
    expect_err(copy_to_buffer(q, m, b2, o, r, 0), CL_INVALID_CONTEXT);
    expect_err(copy_from_buffer(q, b2, m, 0, o, r), CL_INVALID_CONTEXT);
    expect_err(copy_to_buffer(q2, m, b2, o, r, 0), CL_INVALID_CONTEXT);
    // CL_INVALID_VALUE if the origin or region is NULL.
    // SAFETY: NULL pointers are the cases tested.
    unsafe {
        expect_err(
            clEnqueueCopyImageToBuffer(q, m, buf, ptr::null(), r.as_ptr(), 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueCopyImageToBuffer(q, m, buf, o.as_ptr(), ptr::null(), 0, 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueCopyBufferToImage(q, buf, m, 0, ptr::null(), r.as_ptr(), 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueCopyBufferToImage(q, buf, m, 0, o.as_ptr(), ptr::null(), 0, ptr::null(), ptr::null_mut()),
            CL_INVALID_VALUE,
        );
    }
    // CL_MISALIGNED_SUB_BUFFER_OFFSET is unreachable through the loader
    // (sub-buffer origins are checked against the same alignment at
    // creation); an aligned sub-buffer works.
    let sub = sub_buffer(buf, 0, 128, 256).expect("sub-buffer");
    check(copy_to_buffer(q, m, sub, o, r, 0));
    check(copy_from_buffer(q, sub, m, 0, o, r));
    for x in [m, m2, sub, buf, b2] {
        release_mem(x);
    }
    teardown(q2, c2);
    teardown(q, c);
}

// ---------------------------------------------------------------------------
// Fill

/// `f * scale` rounded to nearest even and saturated to [lo, hi]: the
/// spec's convert_<type>_sat_rte.
fn sat_rte(f: f32, scale: f32, lo: f32, hi: f32) -> f32 {
    (f * scale).round_ties_even().clamp(lo, hi)
}

/// The 16 fill-color bytes of four floats.
fn floats(v: [f32; 4]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn ints(v: [i32; 4]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn uints(v: [u32; 4]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

#[test]
fn fill_converts_the_color_to_each_format() {
    let (c, q) = fixture();
    // The colors avoid halfway cases: "OpenCL implementations may choose to
    // approximate the rounding mode" within 0.6, which gives the same
    // integer unless f × scale is near .5.
    let rgba = [1.0f32, 0.2, -0.5, 2.0];
    let unorm8: Vec<u8> = rgba.iter().map(|&f| sat_rte(f, 255.0, 0.0, 255.0) as u8).collect();
    let snorm16: Vec<u8> = [1.0f32, -1.0, 0.25, -2.0]
        .iter()
        .flat_map(|&f| (sat_rte(f, 32767.0, -32768.0, 32767.0) as i16).to_ne_bytes())
        .collect();
    let snorm8: Vec<u8> = [0.5f32, -1.0, 0.1, 3.0]
        .iter()
        .map(|&f| sat_rte(f, 127.0, -128.0, 127.0) as i8 as u8)
        .collect();
    let unorm16: Vec<u8> = [0.2f32, 1.0, 0.0, 0.6]
        .iter()
        .flat_map(|&f| (sat_rte(f, 65535.0, 0.0, 65535.0) as u16).to_ne_bytes())
        .collect();
    let halves: Vec<u8> = [0.5f64, -2.0, 65504.0, 1.0]
        .iter()
        .flat_map(|&f| half::to_half(f, half::Rounding::Rte).to_ne_bytes())
        .collect();
    // (format, the fill color's bytes, the texel's bytes)
    let cases: Vec<(cl_image_format, Vec<u8>, Vec<u8>)> = vec![
        // convert_uchar_sat_rte(f * 255.0f), channels in memory order R, G,
        // B, A...
        (RGBA8, floats(rgba), unorm8.clone()),
        // ... B, G, R, A for BGRA.
        (
            fmt(CL_BGRA, CL_UNORM_INT8),
            floats(rgba),
            vec![unorm8[2], unorm8[1], unorm8[0], unorm8[3]],
        ),
        // convert_short_sat_rte(f * 32767.0f)
        (fmt(CL_RGBA, CL_SNORM_INT16), floats([1.0, -1.0, 0.25, -2.0]), snorm16),
        // convert_char_sat_rte(f * 127.0f)
        (fmt(CL_RGBA, CL_SNORM_INT8), floats([0.5, -1.0, 0.1, 3.0]), snorm8),
        // convert_ushort_sat_rte(f * 65535.0f), two channels.
        (
            fmt(CL_RG, CL_UNORM_INT16),
            floats([0.2, 1.0, 0.0, 0.6]),
            unorm16[..4].to_vec(),
        ),
        // One channel: red.
        (fmt(CL_R, CL_UNORM_INT8), floats([0.2, 0.9, 0.9, 0.9]), vec![51]),
        // Floats are kept; halves are rounded (these are exact).
        (
            fmt(CL_R, CL_FLOAT),
            floats([3.5, 9.0, 9.0, 9.0]),
            3.5f32.to_ne_bytes().to_vec(),
        ),
        (
            fmt(CL_RGBA, CL_FLOAT),
            floats([-0.0, 1e-3, f32::MAX, -7.25]),
            floats([-0.0, 1e-3, f32::MAX, -7.25]),
        ),
        (fmt(CL_RGBA, CL_HALF_FLOAT), floats([0.5, -2.0, 65504.0, 1.0]), halves),
        // Integers: convert_short_sat(i), convert_uchar_sat(u), no
        // conversion for 32 bits.
        (
            fmt(CL_RGBA, CL_SIGNED_INT16),
            ints([-40000, 40000, -5, 7]),
            [-32768i16, 32767, -5, 7].iter().flat_map(|x| x.to_ne_bytes()).collect(),
        ),
        (
            fmt(CL_RGBA, CL_SIGNED_INT8),
            ints([-200, 200, -128, 127]),
            vec![0x80, 0x7F, 0x80, 0x7F],
        ),
        (fmt(CL_R, CL_UNSIGNED_INT8), uints([300, 1, 1, 1]), vec![255]),
        (
            fmt(CL_RG, CL_UNSIGNED_INT16),
            uints([70000, 65535, 0, 0]),
            [65535u16, 65535].iter().flat_map(|x| x.to_ne_bytes()).collect(),
        ),
        (
            fmt(CL_RG, CL_UNSIGNED_INT32),
            uints([0xDEAD_BEEF, 7, 1, 1]),
            [0xDEAD_BEEFu32, 7].iter().flat_map(|x| x.to_ne_bytes()).collect(),
        ),
        (
            fmt(CL_R, CL_SIGNED_INT32),
            ints([i32::MIN, 0, 0, 0]),
            i32::MIN.to_ne_bytes().to_vec(),
        ),
        // sRGB: 0 and 1 are the ends of the curve; alpha stays linear.
        (
            fmt(CL_sRGBA, CL_UNORM_INT8),
            floats([1.0, 0.0, 1.0, 0.2]),
            vec![255, 0, 255, 51],
        ),
    ];
    let shape = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    for (f, color, texel) in &cases {
        let es = element_size(f);
        assert_eq!(texel.len(), es, "test table");
        let m = image(c, 0, f, &shape.desc(0, 0), ptr::null_mut());
        let base = pattern_bytes(shape.texels() * es, 5);
        check(write_image(q, m, [0; 3], shape.extent(), 0, 0, &base));
        let (origin, region) = ([1, 1, 0], [3, 2, 1]);
        check(fill_image(q, m, color, origin, region));
        let mut model = base.clone();
        let fill: Vec<u8> = texel.repeat(region[0] * region[1]);
        put_region(&mut model, shape.extent(), es, origin, region, &fill);
        assert_eq!(
            read_all(q, m, &shape, es),
            model,
            "format {:#x}/{:#x}",
            f.image_channel_order,
            f.image_channel_data_type
        );
        release_mem(m);
    }
    // Depth images take one float.
    for (data_type, texel) in [
        (CL_FLOAT, 0.75f32.to_ne_bytes().to_vec()),
        (
            CL_UNORM_INT16,
            (sat_rte(0.2, 65535.0, 0.0, 65535.0) as u16).to_ne_bytes().to_vec(),
        ),
    ] {
        let f = fmt(CL_DEPTH, data_type);
        let m = image(c, 0, &f, &shape.desc(0, 0), ptr::null_mut());
        let v: f32 = if data_type == CL_FLOAT { 0.75 } else { 0.2 };
        // Only the 4 bytes of the float are read: the rest of a 16-byte
        // buffer would be garbage.
        check(fill_image(q, m, &v.to_ne_bytes(), [0; 3], shape.extent()));
        let es = element_size(&f);
        assert_eq!(
            read_all(q, m, &shape, es),
            texel.repeat(shape.texels()),
            "depth {data_type:#x}"
        );
        release_mem(m);
    }
    teardown(q, c);
}

#[test]
fn fill_covers_regions_of_every_type() {
    let (c, q) = fixture();
    let es = 4;
    let color = floats([0.2, 0.0, 1.0, 1.0]);
    let texel = [51u8, 0, 255, 255];
    for ty in ALL_TYPES {
        let shape = Shape::of(ty);
        let ext = shape.extent();
        let own = (ty == CL_MEM_OBJECT_IMAGE1D_BUFFER).then(|| buffer(c, 0, shape.w * es));
        let (rp, sp) = shape.padded_pitches(es);
        let (_, ys, zs, span) = shape.layout(es, rp, sp);
        let mut host = vec![0x11u8; span.max(1)];
        let m = match own {
            Some(b) => image_buffer(c, 0, &RGBA8, shape.w, b).expect("1D image buffer"),
            None => image(
                c,
                CL_MEM_USE_HOST_PTR,
                &RGBA8,
                &shape.desc(rp, sp),
                host.as_mut_ptr().cast(),
            ),
        };
        let mut model = vec![0u8; shape.texels() * es];
        check(write_image(q, m, [0; 3], ext, 0, 0, &model));
        let origin: [usize; 3] = std::array::from_fn(|k| if ext[k] > 1 { 1 } else { 0 });
        let region: [usize; 3] = std::array::from_fn(|k| ext[k] - origin[k]);
        check(fill_image(q, m, &color, origin, region));
        put_region(
            &mut model,
            ext,
            es,
            origin,
            region,
            &texel.repeat(region.iter().product()),
        );
        assert_eq!(read_all(q, m, &shape, es), model, "type {ty:#x}");
        if own.is_none() {
            // The padding of the application's memory is untouched.
            let laid = lay_out(&model, ext, es, ys, zs, span, 0x11);
            assert_eq!(host, laid, "type {ty:#x}: only the texels");
        }
        release_mem(m);
        if let Some(b) = own {
            release_mem(b);
        }
    }
    teardown(q, c);
}

#[test]
fn fill_errors() {
    let (c, q) = fixture();
    let s2 = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let m = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    let color = floats([1.0; 4]);
    let o = [0usize; 3];
    let r = [2usize, 2, 1];
    expect_err(fill_image(ptr::null_mut(), m, &color, o, r), CL_INVALID_COMMAND_QUEUE);
    let buf = buffer(c, 0, 1024);
    expect_err(fill_image(q, buf, &color, o, r), CL_INVALID_MEM_OBJECT);
    let (c2, q2) = fixture();
    expect_err(fill_image(q2, m, &color, o, r), CL_INVALID_CONTEXT);
    // CL_INVALID_VALUE if fill_color, origin or region is NULL.
    // SAFETY: NULL pointers are the cases tested.
    unsafe {
        expect_err(
            clEnqueueFillImage(
                q,
                m,
                ptr::null(),
                o.as_ptr(),
                r.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueFillImage(
                q,
                m,
                color.as_ptr().cast(),
                ptr::null(),
                r.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        expect_err(
            clEnqueueFillImage(
                q,
                m,
                color.as_ptr().cast(),
                o.as_ptr(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
    }
    // ... out of bounds; breaking the rules.
    expect_err(fill_image(q, m, &color, [4, 0, 0], r), CL_INVALID_VALUE);
    expect_err(fill_image(q, m, &color, o, [2, 2, 2]), CL_INVALID_VALUE);
    expect_err(fill_image(q, m, &color, [0, 0, 1], [1, 1, 1]), CL_INVALID_VALUE);
    expect_err(fill_image(q, m, &color, o, [0, 1, 1]), CL_INVALID_VALUE);
    // Host access flags are ignored by fills.
    let hn = image(c, CL_MEM_HOST_NO_ACCESS, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    check(fill_image(q, hn, &color, o, r));
    // The command type.
    let mut e = ptr::null_mut();
    // SAFETY: valid arguments.
    unsafe {
        check(clEnqueueFillImage(
            q,
            m,
            color.as_ptr().cast(),
            o.as_ptr(),
            r.as_ptr(),
            0,
            ptr::null(),
            &mut e,
        ));
        check(clWaitForEvents(1, &e));
        let ty: cl_command_type = info_value(|s, v, rr| clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, s, v, rr));
        assert_eq!(ty, CL_COMMAND_FILL_IMAGE);
        check(clReleaseEvent(e));
    }
    for x in [m, buf, hn] {
        release_mem(x);
    }
    teardown(q2, c2);
    teardown(q, c);
}

// ---------------------------------------------------------------------------
// Map

#[test]
fn maps_of_every_type_return_the_pitches() {
    let (c, q) = fixture();
    let es = 4;
    for ty in ALL_TYPES {
        let shape = Shape::of(ty);
        let ext = shape.extent();
        let own = (ty == CL_MEM_OBJECT_IMAGE1D_BUFFER).then(|| buffer(c, 0, shape.w * es));
        let m = match own {
            Some(b) => image_buffer(c, 0, &RGBA8, shape.w, b).expect("1D image buffer"),
            None => image(c, 0, &RGBA8, &shape.desc(0, 0), ptr::null_mut()),
        };
        let what = format!("type {ty:#x}");
        let mut model = pattern_bytes(shape.texels() * es, 70);
        check(write_image(q, m, [0; 3], ext, 0, 0, &model));
        let (rp, ys, zs, _) = shape.layout(es, 0, 0);
        let origin: [usize; 3] = std::array::from_fn(|k| if ext[k] > 1 { 1 } else { 0 });
        let region: [usize; 3] = std::array::from_fn(|k| ext[k] - origin[k]);
        let (p, mrp, msp) = map_image(q, m, CL_MAP_READ | CL_MAP_WRITE, origin, region, true).expect("map");
        // "image_row_pitch returns the scan-line pitch in bytes for the
        // mapped region"; the slice pitch is each slice's or layer's, and
        // "For a 1D and 2D image, zero is returned".
        assert_eq!(mrp, rp, "{what}");
        assert_eq!(msp, if shape.layered() { zs.max(ys) } else { 0 }, "{what}");
        assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 1, "{what}");
        // Read and write the region through the pointer, with the pitches.
        let (y_step, z_step) = if ty == CL_MEM_OBJECT_IMAGE1D_ARRAY {
            (msp, 0)
        } else {
            (mrp, msp)
        };
        for z in 0..region[2] {
            for y in 0..region[1] {
                for x in 0..region[0] {
                    let at = z * z_step + y * y_step + x * es;
                    let (gx, gy, gz) = (origin[0] + x, origin[1] + y, origin[2] + z);
                    let i = ((gz * ext[1] + gy) * ext[0] + gx) * es;
                    // SAFETY: the mapped region spans these bytes (the spec's
                    // "The pointer returned maps a ... region").
                    let t = unsafe { std::slice::from_raw_parts_mut(p.add(at), es) };
                    assert_eq!(t, &model[i..i + es], "{what}: texel ({gx}, {gy}, {gz})");
                    t[0] ^= 0xFF;
                    model[i] ^= 0xFF;
                }
            }
        }
        check(unmap(q, m, p));
        assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 0, "{what}");
        assert_eq!(read_all(q, m, &shape, es), model, "{what}: writes through the map");
        // 1D and 2D images may leave out the slice pitch.
        if !shape.layered() {
            let (p, _, _) = map_image(q, m, CL_MAP_READ, [0; 3], [1, 1, 1], false).expect("no slice pitch");
            check(unmap(q, m, p));
        }
        release_mem(m);
        if let Some(b) = own {
            release_mem(b);
        }
    }
    teardown(q, c);
}

#[test]
fn map_image_errors_and_overlapping_maps() {
    let (c, q) = fixture();
    let s2 = Shape::of(CL_MEM_OBJECT_IMAGE2D);
    let m = image(c, 0, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
    let o = [0usize; 3];
    let r = [2usize, 2, 1];
    assert_eq!(
        map_image(ptr::null_mut(), m, CL_MAP_READ, o, r, true).unwrap_err(),
        CL_INVALID_COMMAND_QUEUE
    );
    let buf = buffer(c, 0, 1024);
    assert_eq!(
        map_image(q, buf, CL_MAP_READ, o, r, true).unwrap_err(),
        CL_INVALID_MEM_OBJECT
    );
    let (c2, q2) = fixture();
    assert_eq!(
        map_image(q2, m, CL_MAP_READ, o, r, true).unwrap_err(),
        CL_INVALID_CONTEXT
    );
    // CL_INVALID_VALUE: out of bounds, the rules, bad map flags.
    for (origin, region) in [([4, 0, 0], r), (o, [2, 2, 2]), ([0, 0, 1], [1, 1, 1]), (o, [0, 1, 1])] {
        assert_eq!(
            map_image(q, m, CL_MAP_READ, origin, region, true).unwrap_err(),
            CL_INVALID_VALUE
        );
    }
    for flags in [CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 1 << 10] {
        assert_eq!(
            map_image(q, m, flags, o, r, true).unwrap_err(),
            CL_INVALID_VALUE,
            "{flags:#x}"
        );
    }
    let mut err = 0;
    let mut rp = 0;
    // SAFETY: NULL pointers are the cases tested.
    unsafe {
        // ... if origin or region is NULL; if image_row_pitch is NULL.
        let p = clEnqueueMapImage(
            q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            ptr::null(),
            r.as_ptr(),
            &mut rp,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err,
        );
        assert!(p.is_null());
        expect_err(err, CL_INVALID_VALUE);
        let p = clEnqueueMapImage(
            q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            o.as_ptr(),
            ptr::null(),
            &mut rp,
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err,
        );
        assert!(p.is_null());
        expect_err(err, CL_INVALID_VALUE);
        let p = clEnqueueMapImage(
            q,
            m,
            CL_TRUE,
            CL_MAP_READ,
            o.as_ptr(),
            r.as_ptr(),
            ptr::null_mut(),
            ptr::null_mut(),
            0,
            ptr::null(),
            ptr::null_mut(),
            &mut err,
        );
        assert!(p.is_null());
        expect_err(err, CL_INVALID_VALUE);
    }
    // ... if image is a 1D or 2D image array object or a 3D image and
    // image_slice_pitch is NULL.
    for ty in [
        CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D_ARRAY,
        CL_MEM_OBJECT_IMAGE3D,
    ] {
        let x = image(c, 0, &RGBA8, &Shape::of(ty).desc(0, 0), ptr::null_mut());
        assert_eq!(
            map_image(q, x, CL_MAP_READ, o, [1, 1, 1], false).unwrap_err(),
            CL_INVALID_VALUE,
            "{ty:#x}"
        );
        release_mem(x);
    }
    // CL_INVALID_OPERATION: host access flags against map flags.
    for (flags, read_ok, write_ok) in [
        (CL_MEM_HOST_WRITE_ONLY, false, true),
        (CL_MEM_HOST_READ_ONLY, true, false),
        (CL_MEM_HOST_NO_ACCESS, false, false),
    ] {
        let h = image(c, flags, &RGBA8, &s2.desc(0, 0), ptr::null_mut());
        for (mf, ok) in [
            (CL_MAP_READ, read_ok),
            (CL_MAP_WRITE, write_ok),
            (CL_MAP_WRITE_INVALIDATE_REGION, write_ok),
        ] {
            match map_image(q, h, mf, o, r, true) {
                Ok((p, _, _)) => {
                    assert!(ok, "{flags:#x} map {mf:#x}");
                    check(unmap(q, h, p));
                }
                Err(e) => {
                    assert!(!ok, "{flags:#x} map {mf:#x}");
                    expect_err(e, CL_INVALID_OPERATION);
                }
            }
        }
        release_mem(h);
    }
    // CL_INVALID_OPERATION if mapping would lead to overlapping regions
    // being mapped for writing. Side by side columns do not overlap (their
    // bytes interleave, their texels do not).
    let (left, _, _) = map_image(q, m, CL_MAP_WRITE, [0, 0, 0], [2, 4, 1], true).expect("left");
    let (right, _, _) = map_image(q, m, CL_MAP_WRITE, [2, 0, 0], [3, 4, 1], true).expect("right");
    assert_eq!(
        map_image(q, m, CL_MAP_READ, [1, 1, 0], [2, 1, 1], true).unwrap_err(),
        CL_INVALID_OPERATION
    );
    check(unmap(q, m, left));
    let (again, _, _) = map_image(q, m, CL_MAP_READ, [1, 1, 0], [1, 1, 1], true).expect("reads of unmapped texels");
    let (twice, _, _) = map_image(q, m, CL_MAP_READ, [1, 1, 0], [1, 1, 1], true).expect("two read maps");
    assert_eq!(again, twice);
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_MAP_COUNT), 3);
    assert_eq!(
        map_image(q, m, CL_MAP_WRITE, [0, 0, 0], [2, 2, 1], true).unwrap_err(),
        CL_INVALID_OPERATION
    );
    check(unmap(q, m, again));
    check(unmap(q, m, twice));
    check(unmap(q, m, right));
    // CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by a
    // map of memobj (any more).
    expect_err(unmap(q, m, right), CL_INVALID_VALUE);
    // The map's command type; unmap's.
    let mut e = ptr::null_mut();
    let mut sp = 0;
    // SAFETY: valid arguments and out-pointers.
    unsafe {
        let p = clEnqueueMapImage(
            q,
            m,
            CL_FALSE,
            CL_MAP_READ,
            o.as_ptr(),
            r.as_ptr(),
            &mut rp,
            &mut sp,
            0,
            ptr::null(),
            &mut e,
            &mut err,
        );
        check(err);
        check(clWaitForEvents(1, &e));
        let ty: cl_command_type = info_value(|s, v, rr| clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, s, v, rr));
        assert_eq!(ty, CL_COMMAND_MAP_IMAGE);
        assert_eq!(sp, 0);
        check(clReleaseEvent(e));
        check(clEnqueueUnmapMemObject(q, m, p, 0, ptr::null(), &mut e));
        check(clWaitForEvents(1, &e));
        let ty: cl_command_type = info_value(|s, v, rr| clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, s, v, rr));
        assert_eq!(ty, CL_COMMAND_UNMAP_MEM_OBJECT);
        check(clReleaseEvent(e));
    }
    for x in [m, buf] {
        release_mem(x);
    }
    teardown(q2, c2);
    teardown(q, c);
}

#[test]
fn image_queries_refuse_other_objects() {
    let c = context();
    let buf = buffer(c, 0, 64);
    // CL_INVALID_MEM_OBJECT if image is a not a valid image object.
    expect_err(image_bytes(buf, CL_IMAGE_WIDTH).unwrap_err(), CL_INVALID_MEM_OBJECT);
    expect_err(
        image_bytes(ptr::null_mut(), CL_IMAGE_WIDTH).unwrap_err(),
        CL_INVALID_MEM_OBJECT,
    );
    expect_err(
        image_bytes(forged_handle(), CL_IMAGE_WIDTH).unwrap_err(),
        CL_INVALID_MEM_OBJECT,
    );
    // Images are memory objects: retain, release, destructor callbacks.
    let m = image(
        c,
        0,
        &RGBA8,
        &Shape::of(CL_MEM_OBJECT_IMAGE2D).desc(0, 0),
        ptr::null_mut(),
    );
    // SAFETY: valid handle.
    check(unsafe { clRetainMemObject(m) });
    assert_eq!(mem_value::<cl_uint>(m, CL_MEM_REFERENCE_COUNT), 2);
    release_mem(m);
    release_mem(m);
    expect_err(image_bytes(m, CL_IMAGE_WIDTH).unwrap_err(), CL_INVALID_MEM_OBJECT);
    release_mem(buf);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}

// ---------------------------------------------------------------------------
// Samplers

fn sampler_value<T: Copy>(s: cl_sampler, param: cl_sampler_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|n, v, r| unsafe { clGetSamplerInfo(s, param, n, v, r) })
}

fn sampler_bytes(s: cl_sampler, param: cl_sampler_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|n, v, r| unsafe { clGetSamplerInfo(s, param, n, v, r) })
}

fn try_sampler(c: cl_context, props: Option<&[cl_sampler_properties]>) -> Result<cl_sampler, cl_int> {
    let mut err = 1;
    let p = props.map_or(ptr::null(), |p| p.as_ptr());
    // SAFETY: NULL or a zero-terminated list.
    let s = unsafe { clCreateSamplerWithProperties(c, p, &mut err) };
    if err == CL_SUCCESS {
        assert!(!s.is_null());
        Ok(s)
    } else {
        assert!(s.is_null());
        Err(err)
    }
}

const ADDRESSING: [cl_addressing_mode; 5] = [
    CL_ADDRESS_NONE,
    CL_ADDRESS_CLAMP_TO_EDGE,
    CL_ADDRESS_CLAMP,
    CL_ADDRESS_REPEAT,
    CL_ADDRESS_MIRRORED_REPEAT,
];

#[test]
fn samplers_are_created_both_ways_and_answer_every_query() {
    let c = context();
    for normalized in [CL_TRUE, CL_FALSE] {
        for addressing in ADDRESSING {
            for filter in [CL_FILTER_NEAREST, CL_FILTER_LINEAR] {
                let mut err = 1;
                // SAFETY: valid context and error slot.
                let s = unsafe { clCreateSampler(c, normalized, addressing, filter, &mut err) };
                check(err);
                assert_eq!(sampler_value::<cl_bool>(s, CL_SAMPLER_NORMALIZED_COORDS), normalized);
                assert_eq!(
                    sampler_value::<cl_addressing_mode>(s, CL_SAMPLER_ADDRESSING_MODE),
                    addressing
                );
                assert_eq!(sampler_value::<cl_filter_mode>(s, CL_SAMPLER_FILTER_MODE), filter);
                assert_eq!(sampler_value::<cl_context>(s, CL_SAMPLER_CONTEXT), c);
                assert_eq!(sampler_value::<cl_uint>(s, CL_SAMPLER_REFERENCE_COUNT), 1);
                // "If sampler was created using clCreateSampler ... the
                // implementation must return param_value_size_ret equal to 0".
                assert_eq!(sampler_bytes(s, CL_SAMPLER_PROPERTIES).unwrap(), Vec::<u8>::new());
                // The same sampler from properties, which are returned as given.
                let props = [
                    CL_SAMPLER_FILTER_MODE as cl_sampler_properties,
                    filter as cl_sampler_properties,
                    CL_SAMPLER_NORMALIZED_COORDS as cl_sampler_properties,
                    normalized as cl_sampler_properties,
                    CL_SAMPLER_ADDRESSING_MODE as cl_sampler_properties,
                    addressing as cl_sampler_properties,
                    0,
                ];
                let p = try_sampler(c, Some(&props)).expect("from properties");
                assert_eq!(sampler_value::<cl_bool>(p, CL_SAMPLER_NORMALIZED_COORDS), normalized);
                assert_eq!(
                    sampler_value::<cl_addressing_mode>(p, CL_SAMPLER_ADDRESSING_MODE),
                    addressing
                );
                assert_eq!(sampler_value::<cl_filter_mode>(p, CL_SAMPLER_FILTER_MODE), filter);
                let back: Vec<u8> = props.iter().flat_map(|x| x.to_ne_bytes()).collect();
                assert_eq!(sampler_bytes(p, CL_SAMPLER_PROPERTIES).unwrap(), back);
                // SAFETY: handles the test owns.
                unsafe {
                    check(clReleaseSampler(s));
                    check(clReleaseSampler(p));
                }
            }
        }
    }
    // Defaults: "CL_TRUE", "CL_ADDRESS_CLAMP", "CL_FILTER_NEAREST"; a NULL
    // list returns no properties, an empty one its terminator.
    for (props, back) in [(None, Vec::new()), (Some(&[0][..]), 0u64.to_ne_bytes().to_vec())] {
        let s = try_sampler(c, props).expect("defaults");
        assert_eq!(sampler_value::<cl_bool>(s, CL_SAMPLER_NORMALIZED_COORDS), CL_TRUE);
        assert_eq!(
            sampler_value::<cl_addressing_mode>(s, CL_SAMPLER_ADDRESSING_MODE),
            CL_ADDRESS_CLAMP
        );
        assert_eq!(
            sampler_value::<cl_filter_mode>(s, CL_SAMPLER_FILTER_MODE),
            CL_FILTER_NEAREST
        );
        assert_eq!(sampler_bytes(s, CL_SAMPLER_PROPERTIES).unwrap(), back);
        // SAFETY: handle the test owns.
        check(unsafe { clReleaseSampler(s) });
    }
    // One property given, the others default.
    let s = try_sampler(c, Some(&[CL_SAMPLER_FILTER_MODE as u64, CL_FILTER_LINEAR as u64, 0])).unwrap();
    assert_eq!(
        sampler_value::<cl_filter_mode>(s, CL_SAMPLER_FILTER_MODE),
        CL_FILTER_LINEAR
    );
    assert_eq!(
        sampler_value::<cl_addressing_mode>(s, CL_SAMPLER_ADDRESSING_MODE),
        CL_ADDRESS_CLAMP
    );
    // Retain and release count; a sampler keeps its context.
    // SAFETY: valid handles.
    unsafe {
        check(clRetainSampler(s));
        assert_eq!(sampler_value::<cl_uint>(s, CL_SAMPLER_REFERENCE_COUNT), 2);
        check(clReleaseSampler(s));
        assert_eq!(sampler_value::<cl_uint>(s, CL_SAMPLER_REFERENCE_COUNT), 1);
        check(clReleaseContext(c));
        assert_eq!(sampler_value::<cl_uint>(s, CL_SAMPLER_REFERENCE_COUNT), 1);
        check(clReleaseSampler(s));
        // Released: CL_INVALID_SAMPLER.
        expect_err(clRetainSampler(s), CL_INVALID_SAMPLER);
        expect_err(sampler_bytes(s, CL_SAMPLER_CONTEXT).unwrap_err(), CL_INVALID_SAMPLER);
    }
}

#[test]
fn sampler_errors() {
    let c = context();
    let mut err = 1;
    // SAFETY: every pointer is valid; the handles are the cases tested.
    unsafe {
        // CL_INVALID_CONTEXT if context is not a valid context.
        assert!(clCreateSampler(ptr::null_mut(), CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        assert!(clCreateSamplerWithProperties(ptr::null_mut(), ptr::null(), &mut err).is_null());
        expect_err(err, CL_INVALID_CONTEXT);
        // CL_INVALID_VALUE if addressing_mode, filter_mode or
        // normalized_coords are not valid.
        for (n, a, f) in [
            (2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST),
            (CL_TRUE, 0x1135, CL_FILTER_NEAREST),
            (CL_TRUE, 0, CL_FILTER_NEAREST),
            (CL_TRUE, CL_ADDRESS_CLAMP, 0x1142),
            (CL_TRUE, CL_ADDRESS_CLAMP, 0),
        ] {
            assert!(clCreateSampler(c, n, a, f, &mut err).is_null());
            expect_err(err, CL_INVALID_VALUE);
        }
        // errcode_ret may be NULL.
        let s = clCreateSampler(c, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, ptr::null_mut());
        assert!(!s.is_null());
        // CL_INVALID_VALUE if clGetSamplerInfo's param_name is not supported
        // or param_value_size is too small.
        expect_err(sampler_bytes(s, 0x1234).unwrap_err(), CL_INVALID_VALUE);
        let mut small = 0u16;
        expect_err(
            clGetSamplerInfo(
                s,
                CL_SAMPLER_FILTER_MODE,
                2,
                (&mut small as *mut u16).cast(),
                ptr::null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // CL_INVALID_SAMPLER for what is not a sampler.
        expect_err(clRetainSampler(c as cl_sampler), CL_INVALID_SAMPLER);
        expect_err(clReleaseSampler(ptr::null_mut()), CL_INVALID_SAMPLER);
        expect_err(
            sampler_bytes(forged_handle(), CL_SAMPLER_CONTEXT).unwrap_err(),
            CL_INVALID_SAMPLER,
        );
        check(clReleaseSampler(s));
    }
    // CL_INVALID_VALUE if the property name in sampler_properties is not a
    // supported property name, if the value specified for a supported
    // property name is not valid, or if the same property name is specified
    // more than once.
    let n = CL_SAMPLER_NORMALIZED_COORDS as u64;
    let a = CL_SAMPLER_ADDRESSING_MODE as u64;
    let f = CL_SAMPLER_FILTER_MODE as u64;
    for props in [
        vec![0x1234, 1, 0],
        vec![CL_SAMPLER_REFERENCE_COUNT as u64, 1, 0],
        vec![n, 2, 0],
        vec![a, CL_FILTER_LINEAR as u64, 0],
        vec![f, CL_ADDRESS_CLAMP as u64, 0],
        vec![n, 1, n, 1, 0],
        vec![
            a,
            CL_ADDRESS_CLAMP as u64,
            f,
            CL_FILTER_LINEAR as u64,
            a,
            CL_ADDRESS_REPEAT as u64,
            0,
        ],
        vec![f, CL_FILTER_LINEAR as u64, f, CL_FILTER_LINEAR as u64, 0],
    ] {
        assert_eq!(try_sampler(c, Some(&props)), Err(CL_INVALID_VALUE), "{props:x?}");
    }
    // CL_INVALID_CONTEXT comes before the list.
    let props = [0x1234u64, 1, 0];
    // SAFETY: a zero-terminated list.
    unsafe {
        assert!(clCreateSamplerWithProperties(ptr::null_mut(), props.as_ptr(), &mut err).is_null());
    }
    expect_err(err, CL_INVALID_CONTEXT);
    // SAFETY: handle the test owns.
    check(unsafe { clReleaseContext(c) });
}
