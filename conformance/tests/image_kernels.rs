//! Images in kernels, end to end through the ICD loader: every kernel is
//! built from OpenCL C source (clCreateProgramWithSource) and from SPIR-V
//! compiled offline by clang-15 and llvm-spirv-15 (clCreateProgramWithIL).
//!
//! - [`sampler_less_reads`]: read_image{f,i,ui,h} with integer coordinates
//!   and no sampler, of every format clGetSupportedImageFormats lists, on
//!   every image type (read_only and read_write arguments), depth images
//!   included;
//! - [`writes`]: write_image{f,i,ui,h} of every format on every image type
//!   (write_only and read_write), depth images included, the bytes read
//!   back with clEnqueueReadImage;
//! - [`sampled_reads`] and [`literal_samplers`]: reads through samplers
//!   (kernel arguments made by clCreateSampler and
//!   clCreateSamplerWithProperties, and samplers in the source) with float
//!   and integer coordinates, every addressing mode, nearest and linear
//!   filtering, for representative formats;
//! - [`function_calls`]: images and samplers passed to functions that
//!   are not inlined;
//! - [`queries`]: get_image_* of every image type;
//! - [`read_write_fence`]: a work-item writes, fences, and reads its texel;
//! - [`argument_errors`]: clSetKernelArg's image and sampler errors and the
//!   argument info of image arguments.
//!
//! The expected values come from a reference written here from the specs
//! (API spec: the channel order and data type tables; OpenCL C: "Image Read
//! and Write Functions", "Determining the Border Color or Value", "Image
//! Query Functions"; SPIR-V environment: "Image Addressing and Filtering",
//! its conversion rules and "Data Format for Reading and Writing Images"),
//! not from clift. Where the specs leave latitude, the checks allow it and
//! no more:
//! - a NaN read or written may be any NaN; a FLOAT denormal may be flushed
//!   to a zero of its sign ("Denorms can be flushed to zero");
//! - float to half may round to nearest even or toward zero, and a half
//!   denormal result may be flushed;
//! - float to a normalized integer rounds to nearest even; where the
//!   product is within one float ulp of a tie (but not on it), so that
//!   computing `M * x` in float may reach or cross the tie, either
//!   neighbour within the spec's 0.6 bound of approximate rounding is
//!   accepted, as is anything for NaN and infinities
//!   ("implementation-defined");
//! - sRGB: a read y of byte x satisfies |x - 255 c_sRGB(y)| <= 0.5 (0 and
//!   255 read exactly 0.0 and 1.0), a write x of y |x - 255 c_sRGB(y)| <=
//!   0.6, with the sRGB standard's `c_sRGB(y) = 1.055 y^(1/2.4) - 0.055`
//!   (the environment spec prints the formula without `- 0.055`, which
//!   would not map 1.0 to 1.0 nor join the linear segment: a typo);
//! - read_imageh: the half nearest the exact value, or the half nearest
//!   the float read_imagef returns (both within the spec's 1.5 ulp);
//! - linear filtering: the spec leaves its precision undefined ("the
//!   relative error or precision of the addressing mode calculations and
//!   the image filter operation are not defined"); the result must lie
//!   within `2^-15 * max(1, max |T|)` of the spec's formula evaluated
//!   exactly (an f32 evaluation errs by a few 2^-24; a wrong weight or
//!   texel by a sizable fraction of the texels' difference); sRGB texels
//!   enter as the interval their decoding tolerance allows.
//!
//! Coordinates with an undefined result are not used: NONE addressing out
//! of the image, REPEAT and MIRRORED_REPEAT with unnormalized coordinates,
//! integer coordinates with samplers other than unnormalized nearest
//! NONE/CLAMP/CLAMP_TO_EDGE, and nearest-filter coordinates within 0.1
//! texel of a texel boundary (where the addressing precision, undefined
//! for normalized coordinates, could pick either texel).
//!
//! These kernels go through the OpenCL calls directly rather than
//! `exec::Kernel`: the agreement of clift's execution modes on image
//! accesses (4-lane and scalar bodies, inline code and helpers) is
//! `image_fast_paths.rs`'s subject, bit for bit.

#![allow(deprecated)] // clCreateSampler is tested beside clCreateSamplerWithProperties
#![allow(non_upper_case_globals)] // cl.h spells CL_Rx, CL_sRGBA, ... so, in patterns too

use std::ffi::{c_void, CString};
use std::fmt::Write as _;
use std::mem::size_of;
use std::ptr;

use clift_conformance::half::{from_half, to_half, Rounding};
use clift_conformance::images::{Ty, TYPES};
use clift_conformance::rng::Rng;
use clift_conformance::*;

// ---------------------------------------------------------------------------
// Ways in, objects and launches

/// How a program is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Way {
    /// clCreateProgramWithSource, built with -cl-std=CL2.0.
    Source,
    /// clang-15 + llvm-spirv-15 offline, clCreateProgramWithIL.
    Spirv,
}

const WAYS: [Way; 2] = [Way::Source, Way::Spirv];

struct Program(cl_program);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: the program this value owns, released once.
        unsafe { clReleaseProgram(self.0) };
    }
}

impl Program {
    fn kernel(&self, name: &str) -> Kern {
        Kern(kernel(self.0, name), name.to_string())
    }
}

struct Kern(cl_kernel, String);

impl Drop for Kern {
    fn drop(&mut self) {
        // SAFETY: the kernel this value owns, released once.
        unsafe { clReleaseKernel(self.0) };
    }
}

struct Mem(cl_mem);

impl Drop for Mem {
    fn drop(&mut self) {
        release_mem(self.0);
    }
}

struct Sampler(cl_sampler);

impl Drop for Sampler {
    fn drop(&mut self) {
        // SAFETY: the sampler this value owns, released once.
        unsafe { clReleaseSampler(self.0) };
    }
}

/// An image with the reference's view of it.
struct Image {
    mem: Mem,
    /// A 1D image buffer's buffer.
    _buffer: Option<Mem>,
    shape: Shape,
    layout: Layout,
}

/// A kernel argument.
enum A<'a> {
    M(&'a Mem),
    I(&'a Image),
    S(&'a Sampler),
    Int(i32),
}

/// A context and an in-order queue (declared first in a test, so dropped
/// after the objects made in it).
struct Env {
    ctx: cl_context,
    queue: cl_command_queue,
}

impl Drop for Env {
    fn drop(&mut self) {
        // SAFETY: handles this value owns.
        unsafe {
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.ctx);
        }
    }
}

impl Env {
    fn new() -> Env {
        let ctx = context();
        Env {
            ctx,
            queue: queue(ctx, 0),
        }
    }

    /// `src` built as `way` says, with the build options `extra` (panics
    /// with the log if the build fails).
    fn program(&self, src: &str, way: Way, extra: &str) -> Program {
        let (p, options) = match way {
            Way::Source => (
                programs::source_program(self.ctx, src),
                format!("-cl-std=CL2.0 {extra}"),
            ),
            Way::Spirv => (
                il_program(self.ctx, &offline::spirv_of(src, &["-cl-std=CL2.0"])),
                extra.to_string(),
            ),
        };
        let rc = build(p, &options);
        assert_eq!(
            rc,
            CL_SUCCESS,
            "{way:?} with options {options:?}: the build failed with {}:\n{}",
            error_name(rc),
            build_log(p, device())
        );
        Program(p)
    }

    /// The formats listed for images of type `ty` with `flags`.
    fn listed(&self, flags: cl_mem_flags, ty: cl_mem_object_type) -> Vec<Fmt> {
        let mut n = 0;
        // SAFETY: a count query.
        check(unsafe { clGetSupportedImageFormats(self.ctx, flags, ty, 0, ptr::null_mut(), &mut n) });
        let mut v = vec![
            cl_image_format {
                image_channel_order: 0,
                image_channel_data_type: 0,
            };
            n as usize
        ];
        // SAFETY: `v` has room for `n` formats.
        check(unsafe { clGetSupportedImageFormats(self.ctx, flags, ty, n, v.as_mut_ptr(), ptr::null_mut()) });
        v.iter()
            .map(|f| Fmt {
                order: f.image_channel_order,
                dt: f.image_channel_data_type,
            })
            .collect()
    }

    /// The formats listed for `ty` both for reading and for reading and
    /// writing in kernels (the tests pass images of both kinds).
    fn formats(&self, ty: Ty) -> Vec<Fmt> {
        let ro = self.listed(CL_MEM_READ_ONLY, ty.mem_type());
        let rw = self.listed(CL_MEM_KERNEL_READ_AND_WRITE, ty.mem_type());
        let wo = self.listed(CL_MEM_WRITE_ONLY, ty.mem_type());
        assert!(!ro.is_empty(), "no format listed for {ty:?}");
        ro.into_iter().filter(|f| rw.contains(f) && wo.contains(f)).collect()
    }

    /// The reference layout of `fmt`. Rx and RGx store a padding channel
    /// in the current API spec ("a two channel image format ... the second
    /// channel is ignored") but none in OpenCL 2.x's format table (which
    /// groups Rx with R and RGx with RG); CL_IMAGE_ELEMENT_SIZE says which
    /// reading clift took, and must be one of the two.
    fn layout(&self, fmt: Fmt) -> Layout {
        if fmt.order != CL_Rx && fmt.order != CL_RGx {
            return Layout::of(fmt, false);
        }
        let probe = self.image(
            CL_MEM_READ_WRITE,
            fmt,
            Shape::new(Ty::D1, [1, 1, 1]),
            Layout::of(fmt, true),
            None,
        );
        let es: usize = image_value(probe.mem.0, CL_IMAGE_ELEMENT_SIZE);
        let (with, without) = (Layout::of(fmt, true), Layout::of(fmt, false));
        if es == with.size {
            with
        } else {
            assert_eq!(
                es,
                without.size,
                "{}: CL_IMAGE_ELEMENT_SIZE fits no reading of the spec",
                fmt.name()
            );
            without
        }
    }

    /// An image of `fmt` and `shape` created with `flags` holding `data`
    /// (tightly packed texels), or 0xA5 bytes if None.
    fn image(&self, flags: cl_mem_flags, fmt: Fmt, shape: Shape, layout: Layout, data: Option<&[u8]>) -> Image {
        let bytes = match data {
            Some(d) => d.to_vec(),
            None => vec![0xA5; shape.texels() * layout.size],
        };
        assert_eq!(bytes.len(), shape.texels() * layout.size);
        let format = fmt.cl();
        let mut desc = shape.desc();
        let mut err = 0;
        let (mem, buffer) = if shape.ty == Ty::Buf {
            // SAFETY: `bytes` is readable for its length during the call.
            let b = unsafe {
                clCreateBuffer(
                    self.ctx,
                    CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                    bytes.len(),
                    bytes.as_ptr() as *mut c_void,
                    &mut err,
                )
            };
            check(err);
            let b = Mem(b);
            desc.buffer = b.0;
            // SAFETY: valid format and descriptor; no host pointer.
            let m = unsafe { clCreateImage(self.ctx, flags, &format, &desc, ptr::null_mut(), &mut err) };
            check(err);
            (Mem(m), Some(b))
        } else {
            // SAFETY: `bytes` holds the image's texels, tightly packed.
            let m = unsafe {
                clCreateImage(
                    self.ctx,
                    flags | CL_MEM_COPY_HOST_PTR,
                    &format,
                    &desc,
                    bytes.as_ptr() as *mut c_void,
                    &mut err,
                )
            };
            assert_eq!(
                err,
                CL_SUCCESS,
                "clCreateImage {} {shape:?}: {}",
                fmt.name(),
                error_name(err)
            );
            (Mem(m), None)
        };
        Image {
            mem,
            _buffer: buffer,
            shape,
            layout,
        }
    }

    /// An image of `fmt` and `shape` created with `flags` holding random
    /// texels (see [`Layout::random_texels`]), and its texels.
    fn random_image(&self, flags: cl_mem_flags, fmt: Fmt, shape: Shape, rng: &mut Rng, tame: bool) -> (Image, Vec<u8>) {
        let l = self.layout(fmt);
        let data = l.random_texels(rng, shape.texels(), tame);
        (self.image(flags, fmt, shape, l, Some(&data)), data)
    }

    /// The texels of `img`, tightly packed, by clEnqueueReadImage.
    fn read_image(&self, img: &Image) -> Vec<u8> {
        let mut out = vec![0u8; img.shape.texels() * img.layout.size];
        let origin = [0usize; 3];
        let region = img.shape.ext;
        // SAFETY: `out` has room for the region's texels, tightly packed.
        check(unsafe {
            clEnqueueReadImage(
                self.queue,
                img.mem.0,
                CL_TRUE,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                out.as_mut_ptr().cast(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        });
        out
    }

    /// A buffer holding `bytes` (at least one byte).
    fn buffer(&self, bytes: &[u8]) -> Mem {
        let m = Mem(buffer(self.ctx, CL_MEM_READ_WRITE, bytes.len().max(1)));
        if !bytes.is_empty() {
            write_bytes(self.queue, m.0, 0, bytes);
        }
        m
    }

    /// A sampler made by clCreateSamplerWithProperties, or by clCreateSampler.
    fn sampler(&self, s: Smp, with_properties: bool) -> Sampler {
        let mut err = 0;
        let smp = if with_properties {
            let props: [cl_sampler_properties; 7] = [
                CL_SAMPLER_NORMALIZED_COORDS as cl_sampler_properties,
                s.norm as cl_sampler_properties,
                CL_SAMPLER_ADDRESSING_MODE as cl_sampler_properties,
                s.addr.cl() as cl_sampler_properties,
                CL_SAMPLER_FILTER_MODE as cl_sampler_properties,
                if s.linear { CL_FILTER_LINEAR } else { CL_FILTER_NEAREST } as cl_sampler_properties,
                0,
            ];
            // SAFETY: a zero-terminated property list.
            unsafe { clCreateSamplerWithProperties(self.ctx, props.as_ptr(), &mut err) }
        } else {
            let filter = if s.linear { CL_FILTER_LINEAR } else { CL_FILTER_NEAREST };
            // SAFETY: plain values.
            unsafe { clCreateSampler(self.ctx, s.norm as cl_bool, s.addr.cl(), filter, &mut err) }
        };
        check(err);
        Sampler(smp)
    }

    /// Sets `args` and runs `k` over `global` work-items, then waits.
    fn launch(&self, k: &Kern, args: &[A], global: usize) {
        for (i, a) in args.iter().enumerate() {
            let i = i as cl_uint;
            let rc = match a {
                A::M(m) => set_arg(k.0, i, &m.0),
                A::I(img) => set_arg(k.0, i, &img.mem.0),
                A::S(s) => set_arg(k.0, i, &s.0),
                A::Int(v) => set_arg(k.0, i, v),
            };
            assert_eq!(rc, CL_SUCCESS, "{}: argument {i}: {}", k.1, error_name(rc));
        }
        let global = [global];
        // SAFETY: one dimension; NULL offset and local size.
        let rc = unsafe {
            clEnqueueNDRangeKernel(
                self.queue,
                k.0,
                1,
                ptr::null(),
                global.as_ptr(),
                ptr::null(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        };
        assert_eq!(rc, CL_SUCCESS, "{}: clEnqueueNDRangeKernel: {}", k.1, error_name(rc));
        // SAFETY: a valid queue.
        check(unsafe { clFinish(self.queue) });
    }

    fn read_words(&self, m: &Mem, n: usize) -> Vec<u32> {
        words(&read_bytes(self.queue, m.0, 0, 4 * n))
    }

    fn read_halves(&self, m: &Mem, n: usize) -> Vec<u16> {
        read_bytes(self.queue, m.0, 0, 2 * n)
            .chunks_exact(2)
            .map(|c| u16::from_ne_bytes([c[0], c[1]]))
            .collect()
    }
}

/// `clGetImageInfo` as a value of type `T`.
fn image_value<T: Copy>(m: cl_mem, param: cl_image_info) -> T {
    // SAFETY: forwards the buffer protocol of `info_value`.
    info_value(|s, v, r| unsafe { clGetImageInfo(m, param, s, v, r) })
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn bytes_of_words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

fn bytes_of_halves(h: &[u16]) -> Vec<u8> {
    h.iter().flat_map(|x| x.to_ne_bytes()).collect()
}

/// Collected failures, reported together: how many of each kind (the
/// message up to " at "), then the first ones in full.
struct Failures {
    what: &'static str,
    count: usize,
    kinds: std::collections::BTreeMap<String, usize>,
    shown: String,
}

impl Failures {
    fn new(what: &'static str) -> Failures {
        Failures {
            what,
            count: 0,
            kinds: Default::default(),
            shown: String::new(),
        }
    }

    fn add(&mut self, msg: impl FnOnce() -> String) {
        let msg = msg();
        self.count += 1;
        let kind = msg.split(" at ").next().unwrap_or_default().to_string();
        *self.kinds.entry(kind).or_default() += 1;
        if self.count <= 40 {
            let _ = writeln!(self.shown, "{msg}");
        }
    }

    fn finish(self) {
        let kinds: String = self.kinds.iter().map(|(k, n)| format!("{n:6} {k}\n")).collect();
        assert!(
            self.count == 0,
            "{}: {} failures, of these kinds:\n{kinds}the first ones:\n{}",
            self.what,
            self.count,
            self.shown
        );
    }
}

/// Whether clift's device lists extension `name`.
fn has_extension(name: &str) -> bool {
    device_string(device(), CL_DEVICE_EXTENSIONS)
        .split_whitespace()
        .any(|e| e == name)
}

/// A value in `lo..=hi`.
fn irange(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    rng.int(lo, hi + 1)
}

fn shuffle<T>(rng: &mut Rng, v: &mut [T]) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u32 + 1) as usize);
    }
}

// ---------------------------------------------------------------------------
// Image types and shapes

/// What the tests here add to the image types.
trait TyExt {
    fn tag(self) -> &'static str;
    fn coord(self, v: &str) -> String;
    fn shape(self) -> Shape;
}

impl TyExt for Ty {
    fn tag(self) -> &'static str {
        match self {
            Ty::D1 => "1d",
            Ty::Buf => "1db",
            Ty::D1Arr => "1da",
            Ty::D2 => "2d",
            Ty::D2Arr => "2da",
            Ty::D3 => "3d",
        }
    }

    /// The coordinate of this type from the 4-vector `v` (x, y, z, 0),
    /// where y is a 1D array's layer and z a 2D array's.
    fn coord(self, v: &str) -> String {
        match self {
            Ty::D1 | Ty::Buf => format!("{v}.x"),
            Ty::D1Arr | Ty::D2 => format!("{v}.xy"),
            Ty::D2Arr | Ty::D3 => v.to_string(),
        }
    }

    /// The shape most tests use.
    fn shape(self) -> Shape {
        Shape::new(
            self,
            match self {
                Ty::D1 => [7, 1, 1],
                Ty::Buf => [9, 1, 1],
                Ty::D1Arr => [5, 3, 1],
                Ty::D2 => [5, 4, 1],
                Ty::D2Arr => [4, 3, 3],
                Ty::D3 => [4, 3, 3],
            },
        )
    }
}

/// An image's type and size in the order of its coordinates: x, then y
/// (a 1D array's layer), then z (a 2D array's layer); 1 where unused.
#[derive(Clone, Copy, Debug)]
struct Shape {
    ty: Ty,
    ext: [usize; 3],
}

impl Shape {
    fn new(ty: Ty, ext: [usize; 3]) -> Shape {
        Shape { ty, ext }
    }

    fn texels(&self) -> usize {
        self.ext.iter().product()
    }

    fn desc(&self) -> cl_image_desc {
        let [w, h, d] = self.ext;
        let (height, depth, layers) = match self.ty {
            Ty::D1 | Ty::Buf => (0, 0, 0),
            Ty::D1Arr => (0, 0, h),
            Ty::D2 => (h, 0, 0),
            Ty::D2Arr => (h, 0, d),
            Ty::D3 => (h, d, 0),
        };
        cl_image_desc {
            image_type: self.ty.mem_type(),
            image_width: w,
            image_height: height,
            image_depth: depth,
            image_array_size: layers,
            image_row_pitch: 0,
            image_slice_pitch: 0,
            num_mip_levels: 0,
            num_samples: 0,
            buffer: ptr::null_mut(),
        }
    }

    /// The index of texel `c` among the tightly packed texels.
    fn index(&self, c: [usize; 3]) -> usize {
        c[0] + self.ext[0] * (c[1] + self.ext[1] * c[2])
    }

    /// Every texel's coordinates.
    fn all(&self) -> Vec<[usize; 3]> {
        let [w, h, d] = self.ext;
        (0..d)
            .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| [x, y, z])))
            .collect()
    }

    /// Every texel's coordinates in a random order, as int4 words.
    fn shuffled(&self, rng: &mut Rng) -> Vec<[usize; 3]> {
        let mut v = self.all();
        shuffle(rng, &mut v);
        v
    }
}

fn coord_words(cs: &[[usize; 3]]) -> Vec<u32> {
    cs.iter()
        .flat_map(|c| [c[0] as u32, c[1] as u32, c[2] as u32, 0])
        .collect()
}

// ---------------------------------------------------------------------------
// Formats and the reference layout (API spec, "Image Format Descriptor")

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fmt {
    order: cl_channel_order,
    dt: cl_channel_type,
}

const fn fmt(order: cl_channel_order, dt: cl_channel_type) -> Fmt {
    Fmt { order, dt }
}

impl Fmt {
    fn cl(self) -> cl_image_format {
        cl_image_format {
            image_channel_order: self.order,
            image_channel_data_type: self.dt,
        }
    }

    fn name(self) -> String {
        let order = match self.order {
            CL_R => "R",
            CL_A => "A",
            CL_RG => "RG",
            CL_RA => "RA",
            CL_RGB => "RGB",
            CL_RGBA => "RGBA",
            CL_BGRA => "BGRA",
            CL_ARGB => "ARGB",
            CL_INTENSITY => "INTENSITY",
            CL_LUMINANCE => "LUMINANCE",
            CL_Rx => "Rx",
            CL_RGx => "RGx",
            CL_RGBx => "RGBx",
            CL_DEPTH => "DEPTH",
            CL_sRGB => "sRGB",
            CL_sRGBx => "sRGBx",
            CL_sRGBA => "sRGBA",
            CL_sBGRA => "sBGRA",
            CL_ABGR => "ABGR",
            _ => "?",
        };
        let dt = match self.dt {
            CL_SNORM_INT8 => "SNORM_INT8",
            CL_SNORM_INT16 => "SNORM_INT16",
            CL_UNORM_INT8 => "UNORM_INT8",
            CL_UNORM_INT16 => "UNORM_INT16",
            CL_UNORM_SHORT_565 => "UNORM_SHORT_565",
            CL_UNORM_SHORT_555 => "UNORM_SHORT_555",
            CL_UNORM_INT_101010 => "UNORM_INT_101010",
            CL_UNORM_INT_101010_2 => "UNORM_INT_101010_2",
            CL_SIGNED_INT8 => "SIGNED_INT8",
            CL_SIGNED_INT16 => "SIGNED_INT16",
            CL_SIGNED_INT32 => "SIGNED_INT32",
            CL_UNSIGNED_INT8 => "UNSIGNED_INT8",
            CL_UNSIGNED_INT16 => "UNSIGNED_INT16",
            CL_UNSIGNED_INT32 => "UNSIGNED_INT32",
            CL_HALF_FLOAT => "HALF_FLOAT",
            CL_FLOAT => "FLOAT",
            _ => "?",
        };
        format!("{order}/{dt} ({:#x}/{:#x})", self.order, self.dt)
    }

    fn srgb(self) -> bool {
        matches!(self.order, CL_sRGB | CL_sRGBx | CL_sRGBA | CL_sBGRA)
    }
}

/// How a channel's bits are interpreted (the channel data type table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ch {
    Unorm,
    Snorm,
    Sint,
    Uint,
    Half,
    Float,
}

impl Ch {
    /// The read and write functions' kind: 0 float (..f, ..h), 1 int, 2 uint.
    fn kind(self) -> i32 {
        match self {
            Ch::Sint => 1,
            Ch::Uint => 2,
            _ => 0,
        }
    }
}

/// A field of a texel: the RGBA component it holds (0..=3, or [`X`] for
/// an ignored channel) and its bits within the texel.
#[derive(Clone, Copy, Debug)]
struct Field {
    comp: usize,
    shift: u32,
    bits: u32,
}

/// The component index of an ignored channel (Rx's x, RGBx's x, the
/// unused bits of the packed xRGB types).
const X: usize = 4;

#[derive(Clone, Debug)]
struct Layout {
    fmt: Fmt,
    ch: Ch,
    fields: Vec<Field>,
    /// Bytes a texel.
    size: usize,
}

impl Layout {
    /// The layout the API spec's tables give `fmt`; Rx and RGx with a
    /// padding channel if `pad` (see [`Env::layout`]).
    fn of(fmt: Fmt, pad: bool) -> Layout {
        let f = |comp, shift, bits| Field { comp, shift, bits };
        // The packed types: "a normalized 5-6-5 3-channel RGB image",
        // "x-5-5-5 4-channel xRGB", "x-10-10-10 4-channel xRGB",
        // "10-10-10-2 four-channel RGBA", the first named channel in the
        // most significant bits of the 16- or 32-bit word.
        let packed = match fmt.dt {
            CL_UNORM_SHORT_565 => Some((vec![f(0, 11, 5), f(1, 5, 6), f(2, 0, 5)], 2)),
            CL_UNORM_SHORT_555 => Some((vec![f(X, 15, 1), f(0, 10, 5), f(1, 5, 5), f(2, 0, 5)], 2)),
            CL_UNORM_INT_101010 => Some((vec![f(X, 30, 2), f(0, 20, 10), f(1, 10, 10), f(2, 0, 10)], 4)),
            CL_UNORM_INT_101010_2 => Some((vec![f(0, 22, 10), f(1, 12, 10), f(2, 2, 10), f(3, 0, 2)], 4)),
            _ => None,
        };
        if let Some((fields, size)) = packed {
            let orders: &[cl_channel_order] = if fmt.dt == CL_UNORM_INT_101010_2 {
                &[CL_RGBA]
            } else {
                &[CL_RGB, CL_RGBx]
            };
            assert!(orders.contains(&fmt.order), "{} is not a valid format", fmt.name());
            return Layout {
                fmt,
                ch: Ch::Unorm,
                fields,
                size,
            };
        }
        let (ch, bytes) = match fmt.dt {
            CL_SNORM_INT8 => (Ch::Snorm, 1),
            CL_SNORM_INT16 => (Ch::Snorm, 2),
            CL_UNORM_INT8 => (Ch::Unorm, 1),
            CL_UNORM_INT16 => (Ch::Unorm, 2),
            CL_SIGNED_INT8 => (Ch::Sint, 1),
            CL_SIGNED_INT16 => (Ch::Sint, 2),
            CL_SIGNED_INT32 => (Ch::Sint, 4),
            CL_UNSIGNED_INT8 => (Ch::Uint, 1),
            CL_UNSIGNED_INT16 => (Ch::Uint, 2),
            CL_UNSIGNED_INT32 => (Ch::Uint, 4),
            CL_HALF_FLOAT => (Ch::Half, 2),
            CL_FLOAT => (Ch::Float, 4),
            _ => panic!("the reference does not know the data type of {}", fmt.name()),
        };
        // The channels in memory order (the channel order table).
        let comps: &[usize] = match fmt.order {
            CL_R | CL_DEPTH | CL_INTENSITY | CL_LUMINANCE => &[0],
            CL_A => &[3],
            CL_RG => &[0, 1],
            CL_RA => &[0, 3],
            CL_Rx if pad => &[0, X],
            CL_Rx => &[0],
            CL_RGx if pad => &[0, 1, X],
            CL_RGx => &[0, 1],
            CL_RGB | CL_sRGB => &[0, 1, 2],
            CL_RGBx | CL_sRGBx => &[0, 1, 2, X],
            CL_RGBA | CL_sRGBA => &[0, 1, 2, 3],
            CL_BGRA | CL_sBGRA => &[2, 1, 0, 3],
            CL_ARGB => &[3, 0, 1, 2],
            CL_ABGR => &[3, 2, 1, 0],
            _ => panic!("the reference does not know the order of {}", fmt.name()),
        };
        Layout {
            fmt,
            ch,
            fields: comps
                .iter()
                .enumerate()
                .map(|(i, &c)| f(c, (8 * bytes * i) as u32, 8 * bytes as u32))
                .collect(),
            size: bytes * comps.len(),
        }
    }

    fn kind(&self) -> i32 {
        self.ch.kind()
    }

    /// A texel's bytes as one little-endian number (the packed types'
    /// 16- and 32-bit words are host-endian; the tests run little-endian).
    fn word(texel: &[u8]) -> u128 {
        texel.iter().rev().fold(0u128, |w, &b| w << 8 | u128::from(b))
    }

    /// The raw value of each field of `texel`.
    fn raw(&self, texel: &[u8]) -> Vec<u32> {
        let w = Layout::word(texel);
        self.fields
            .iter()
            .map(|f| (w >> f.shift) as u32 & mask(f.bits))
            .collect()
    }

    /// A texel of the given raw field values.
    fn assemble(&self, raw: &[u32]) -> Vec<u8> {
        let w = self
            .fields
            .iter()
            .zip(raw)
            .fold(0u128, |w, (f, &r)| w | u128::from(r & mask(f.bits)) << f.shift);
        w.to_le_bytes()[..self.size].to_vec()
    }

    /// What a read returns for `texel` (without filtering): the components
    /// R, G, B, A per "Data Format for Reading and Writing Images" (the
    /// components an order lacks 0, alpha 1; INTENSITY (I, I, I, I);
    /// LUMINANCE (L, L, L, 1)).
    fn read(&self, texel: &[u8]) -> [V; 4] {
        let raw = self.raw(texel);
        let mut c: [Option<V>; 4] = [None; 4];
        for (f, &r) in self.fields.iter().zip(&raw) {
            if f.comp != X {
                c[f.comp] = Some(self.decode(f, r));
            }
        }
        let (zero, one) = self.zero_one();
        match self.fmt.order {
            CL_INTENSITY => [c[0].unwrap(); 4],
            CL_LUMINANCE => [c[0].unwrap(), c[0].unwrap(), c[0].unwrap(), one],
            _ => [
                c[0].unwrap_or(zero),
                c[1].unwrap_or(zero),
                c[2].unwrap_or(zero),
                c[3].unwrap_or(one),
            ],
        }
    }

    fn zero_one(&self) -> (V, V) {
        if self.kind() == 0 {
            (V::F(0.0, 0), V::F(1.0, 1f32.to_bits()))
        } else {
            (V::W(0), V::W(1))
        }
    }

    /// The border color ("Determining the Border Color or Value"):
    /// (0, 0, 0, 1) for R, RG, RGB and LUMINANCE, (0, 0, 0, 0) for the
    /// orders with alpha and the x orders, 0 for DEPTH. sRGB is in neither
    /// list; as it has no alpha, like RGB, (0, 0, 0, 1) is expected.
    fn border(&self) -> [V; 4] {
        let (zero, one) = self.zero_one();
        let alpha_one = matches!(
            self.fmt.order,
            CL_R | CL_RG | CL_RGB | CL_LUMINANCE | CL_sRGB | CL_DEPTH
        );
        [zero, zero, zero, if alpha_one { one } else { zero }]
    }

    /// Field `f`'s raw value `r` as a read returns it (the conversion
    /// rules: UNORM `round_to_float(c / M)`, SNORM `max(-1.0f, c / M)`,
    /// half exactly, float as is, integers sign- or zero-extended; sRGB's
    /// R, G and B converted to linear).
    fn decode(&self, f: &Field, r: u32) -> V {
        match self.ch {
            Ch::Unorm if self.fmt.srgb() && f.comp < 3 => V::Srgb(r),
            Ch::Unorm => {
                let m = mask(f.bits);
                V::F(f64::from(r) / f64::from(m), (r as f32 / m as f32).to_bits())
            }
            Ch::Snorm => {
                let v = sext(r, f.bits);
                let m = (1i32 << (f.bits - 1)) - 1;
                V::F(
                    (f64::from(v) / f64::from(m)).max(-1.0),
                    (v as f32 / m as f32).max(-1.0).to_bits(),
                )
            }
            Ch::Half => {
                let x = from_half(r as u16);
                V::F(x, (x as f32).to_bits())
            }
            Ch::Float => V::F(f64::from(f32::from_bits(r)), r),
            Ch::Sint => V::W(sext(r, f.bits) as u32),
            Ch::Uint => V::W(r),
        }
    }

    /// What a write of `value` must store in each field (the conversion
    /// rules for writes; the components stored are the order's, INTENSITY
    /// and LUMINANCE storing R).
    fn write(&self, value: [In; 4]) -> Vec<Want> {
        self.fields
            .iter()
            .map(|f| {
                if f.comp == X {
                    return Want::Any;
                }
                let v = value[f.comp];
                let x = v.float();
                match self.ch {
                    Ch::Unorm if self.fmt.srgb() && f.comp < 3 => Want::Srgb(x),
                    _ if x.is_infinite() && matches!(self.ch, Ch::Unorm | Ch::Snorm) => Want::Any,
                    _ if x.is_nan() && matches!(self.ch, Ch::Unorm | Ch::Snorm) => Want::Any,
                    Ch::Unorm => {
                        let m = f64::from(mask(f.bits));
                        Want::Norm((m * x).clamp(0.0, m), false)
                    }
                    Ch::Snorm => {
                        let m = f64::from((1u32 << (f.bits - 1)) - 1);
                        Want::Norm((m * x).clamp(-m - 1.0, m), true)
                    }
                    Ch::Half => match v {
                        In::H(h) if !x.is_nan() => Want::Exact(u32::from(h)),
                        _ => Want::Half(x),
                    },
                    Ch::Float => Want::Float((x as f32).to_bits()),
                    Ch::Sint => {
                        let In::I(i) = v else { unreachable!() };
                        let lo = -(1i64 << (f.bits - 1));
                        let hi = (1i64 << (f.bits - 1)) - 1;
                        Want::Exact(i64::from(i).clamp(lo, hi) as u32 & mask(f.bits))
                    }
                    Ch::Uint => {
                        let In::U(u) = v else { unreachable!() };
                        Want::Exact(u.min(mask(f.bits)))
                    }
                }
            })
            .collect()
    }

    /// A random raw value for field `f`: mostly random bits, often a
    /// special value (limits, zeros, denormals, infinities, NaNs); with
    /// `tame`, values that read as finite numbers between -4 and 4, no
    /// denormals.
    fn random_field(&self, rng: &mut Rng, f: &Field, tame: bool) -> u32 {
        let bits = f.bits;
        let special = !tame && rng.below(3) == 0;
        match self.ch {
            Ch::Half if tame => u32::from(to_half(f64::from(irange(rng, -256, 256) as i32) / 64.0, Rounding::Rte)),
            Ch::Float if tame => (irange(rng, -4096, 4096) as f32 / 1024.0).to_bits(),
            Ch::Half if special => {
                const H: [u16; 12] = [
                    0, 0x8000, 0x3c00, 0xbc00, 0x0001, 0x83ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
                ];
                u32::from(H[rng.below(H.len() as u32) as usize])
            }
            Ch::Float if special => {
                const F: [u32; 12] = [
                    0,
                    0x8000_0000,
                    0x3f80_0000,
                    0xc020_0000,
                    0x0000_0001,
                    0x807f_ffff,
                    0x0080_0000,
                    0x7f7f_ffff,
                    0x7f80_0000,
                    0xff80_0000,
                    0x7fc0_0000,
                    0x7f80_0001,
                ];
                F[rng.below(F.len() as u32) as usize]
            }
            _ if special => {
                let m = mask(bits);
                let top = 1u32 << (bits - 1);
                let s = [0, m, top, top + 1, top - 1, 1];
                s[rng.below(6) as usize]
            }
            _ => (rng.next_u64() >> 32) as u32 & mask(bits),
        }
    }

    /// `n` random texels.
    fn random_texels(&self, rng: &mut Rng, n: usize, tame: bool) -> Vec<u8> {
        (0..n)
            .flat_map(|_| {
                let raw: Vec<u32> = self.fields.iter().map(|f| self.random_field(rng, f, tame)).collect();
                self.assemble(&raw)
            })
            .collect()
    }
}

fn mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    }
}

/// `r`'s low `bits` bits sign-extended.
fn sext(r: u32, bits: u32) -> i32 {
    ((r << (32 - bits)) as i32) >> (32 - bits)
}

fn is_half_nan(h: u16) -> bool {
    h & 0x7c00 == 0x7c00 && h & 0x3ff != 0
}

// ---------------------------------------------------------------------------
// The reference conversions and their checks

/// What a read must return for one component.
#[derive(Clone, Copy, Debug)]
enum V {
    /// A float: its exact value (f64) and that value rounded to float
    /// (the bits read_imagef returns).
    F(f64, u32),
    /// An sRGB-encoded byte (read_imagef returns its linear value).
    Srgb(u32),
    /// An integer word (read_imagei, read_imageui).
    W(u32),
}

/// `c_sRGB(y)` of the spec with the sRGB standard's `- 0.055` (see the
/// module documentation).
fn c_srgb(y: f64) -> f64 {
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

/// `c_linear(r)` of the spec.
fn c_linear(r: f64) -> f64 {
    if r <= 0.04045 {
        r / 12.92
    } else {
        ((r + 0.055) / 1.055).powf(2.4)
    }
}

/// Whether `y` is an allowed reading of sRGB byte `x`: exactly 0.0 and 1.0
/// for 0 and 255, else `|x - 255 c_sRGB(y)| <= 0.5`.
fn srgb_read_ok(x: u32, y: f64) -> bool {
    match x {
        0 => y == 0.0,
        255 => y == 1.0,
        _ => (f64::from(x) - 255.0 * c_srgb(y)).abs() <= 0.5,
    }
}

/// The linear values sRGB byte `x` may read as (see [`srgb_read_ok`]).
fn srgb_range(x: u32) -> (f64, f64) {
    match x {
        0 => (0.0, 0.0),
        255 => (1.0, 1.0),
        _ => {
            let x = f64::from(x);
            (c_linear((x - 0.5) / 255.0) - 1e-9, c_linear((x + 0.5) / 255.0) + 1e-9)
        }
    }
}

fn is_f32_denormal(b: u32) -> bool {
    b & 0x7f80_0000 == 0 && b & 0x007f_ffff != 0
}

/// Whether read_imagef's bits `got` are allowed for `v`.
fn f32_ok(v: V, got: u32) -> bool {
    match v {
        V::F(x, _) if x.is_nan() => f32::from_bits(got).is_nan(),
        V::F(_, bits) if is_f32_denormal(bits) => got == bits || got == bits & 0x8000_0000,
        V::F(_, bits) => got == bits,
        V::Srgb(x) => srgb_read_ok(x, f64::from(f32::from_bits(got))),
        V::W(w) => got == w,
    }
}

/// Whether read_imageh's bits `got` are allowed for `v`: the half nearest
/// the exact value or the half nearest the float read_imagef returns; for
/// sRGB, within 1.5 half ulps of the float tolerance.
fn half_ok(v: V, got: u16) -> bool {
    match v {
        V::F(x, _) if x.is_nan() => is_half_nan(got),
        V::F(x, bits) => {
            got == to_half(x, Rounding::Rte) || got == to_half(f64::from(f32::from_bits(bits)), Rounding::Rte)
        }
        V::Srgb(x) => {
            let (lo, hi) = srgb_range(x);
            let y = from_half(got);
            let slack = 1.5 * 2f64.powi(-10) * hi.max(2f64.powi(-14));
            y >= lo - slack && y <= hi + slack
        }
        V::W(_) => false,
    }
}

/// A value given to a write function, one component.
#[derive(Clone, Copy, Debug)]
enum In {
    F(f32),
    H(u16),
    I(i32),
    U(u32),
}

impl In {
    fn float(self) -> f64 {
        match self {
            In::F(f) => f64::from(f),
            In::H(h) => from_half(h),
            In::I(_) | In::U(_) => 0.0,
        }
    }
}

/// What a write must store in one field.
#[derive(Clone, Copy, Debug)]
enum Want {
    Exact(u32),
    /// Implementation-defined (NaN or infinity to a normalized type) or
    /// an ignored channel.
    Any,
    /// A normalized integer field (signed if the bool says so) for the
    /// saturated product `f(x)`: its nearest, ties to even; either
    /// neighbour within 0.6 when `f(x)` is within one float ulp of a tie
    /// but not on one.
    Norm(f64, bool),
    /// A half from `x`: to nearest even or toward zero; any NaN for a NaN;
    /// a denormal result may be flushed to zero.
    Half(f64),
    /// A float's bits: any NaN for a NaN, a denormal may be flushed.
    Float(u32),
    /// sRGB from linear `y`: `|x - 255 c_sRGB(y)| <= 0.6`.
    Srgb(f64),
}

/// Whether field value `raw` (of `bits` bits) is allowed by `w`.
fn field_ok(w: Want, raw: u32, bits: u32) -> bool {
    match w {
        Want::Exact(e) => raw == e,
        Want::Any => true,
        Want::Norm(p, signed) => {
            let got = if signed {
                f64::from(sext(raw, bits))
            } else {
                f64::from(raw)
            };
            let tie = p.floor() + 0.5;
            // One float ulp of the product: a product computed in float
            // (the spec's `M * x`) may land on the tie or across it.
            let ulp = 2f64.powi(p.abs().max(1.0).log2().floor() as i32 - 23);
            got == p.round_ties_even() || (p != tie && (p - tie).abs() <= ulp && (got - p).abs() <= 0.6)
        }
        Want::Half(x) if x.is_nan() => is_half_nan(raw as u16),
        Want::Half(x) => {
            let (ne, tz) = (to_half(x, Rounding::Rte), to_half(x, Rounding::Rtz));
            let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
            let r = raw as u16;
            r == ne || r == tz || (ne & 0x7c00 == 0 && r == sign)
        }
        Want::Float(b) if f32::from_bits(b).is_nan() => f32::from_bits(raw).is_nan(),
        Want::Float(b) if is_f32_denormal(b) => raw == b || raw == b & 0x8000_0000,
        Want::Float(b) => raw == b,
        Want::Srgb(y) => (f64::from(raw) - 255.0 * c_srgb(y)).abs() <= 0.6,
    }
}

// ---------------------------------------------------------------------------
// Samplers and the reference of sampled reads

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Addr {
    None,
    Edge,
    Clamp,
    Repeat,
    Mirror,
}

impl Addr {
    fn cl(self) -> cl_addressing_mode {
        match self {
            Addr::None => CL_ADDRESS_NONE,
            Addr::Edge => CL_ADDRESS_CLAMP_TO_EDGE,
            Addr::Clamp => CL_ADDRESS_CLAMP,
            Addr::Repeat => CL_ADDRESS_REPEAT,
            Addr::Mirror => CL_ADDRESS_MIRRORED_REPEAT,
        }
    }
}

/// A sampler's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Smp {
    norm: bool,
    addr: Addr,
    linear: bool,
}

/// Every sampler whose results are defined somewhere: REPEAT and
/// MIRRORED_REPEAT only with normalized coordinates.
fn samplers() -> Vec<Smp> {
    let mut v = Vec::new();
    for norm in [false, true] {
        for addr in [Addr::None, Addr::Edge, Addr::Clamp, Addr::Repeat, Addr::Mirror] {
            if !norm && matches!(addr, Addr::Repeat | Addr::Mirror) {
                continue;
            }
            for linear in [false, true] {
                v.push(Smp { norm, addr, linear });
            }
        }
    }
    v
}

/// An image's texels as the reference sees them.
struct RefImage<'a> {
    shape: Shape,
    layout: &'a Layout,
    bytes: &'a [u8],
    /// The largest magnitude among the texels' values, at least 1 (for the
    /// linear tolerance).
    scale: f64,
}

/// A tap along one axis: a texel index or the border.
#[derive(Clone, Copy, Debug)]
enum Tap {
    At(usize),
    Border,
}

/// What a sampled read must return.
#[derive(Debug)]
enum Expect {
    /// Nearest filtering: one texel's (or the border's) values.
    Exact([V; 4]),
    /// Linear filtering: the interval of each component.
    Range([(f64, f64); 4]),
}

impl<'a> RefImage<'a> {
    /// `img`, which holds `bytes`.
    fn new(img: &'a Image, bytes: &'a [u8]) -> RefImage<'a> {
        let l = &img.layout;
        let scale = bytes
            .chunks_exact(l.size)
            .flat_map(|t| l.read(t))
            .map(|v| match v {
                V::F(x, _) => x.abs(),
                _ => 1.0,
            })
            .fold(1.0, f64::max);
        RefImage {
            shape: img.shape,
            layout: l,
            bytes,
            scale,
        }
    }

    fn texel(&self, c: [usize; 3]) -> [V; 4] {
        let es = self.layout.size;
        let i = self.shape.index(c);
        self.layout.read(&self.bytes[i * es..(i + 1) * es])
    }

    /// The value at taps `t` (border if any tap is).
    fn at(&self, t: [Tap; 3]) -> [V; 4] {
        let mut c = [0usize; 3];
        for (a, tap) in t.iter().enumerate() {
            match tap {
                Tap::At(i) => c[a] = *i,
                Tap::Border => return self.layout.border(),
            }
        }
        self.texel(c)
    }

    /// The sampled read of `coords` (float or, with `ints`, integer) with
    /// sampler `s`, per "Image Addressing and Filtering" and "Selecting an
    /// Image from an Image Array".
    fn sample(&self, s: Smp, coords: [u32; 4], ints: bool) -> Expect {
        let ty = self.shape.ty;
        let value = |a: usize| {
            if ints {
                f64::from(coords[a] as i32)
            } else {
                f64::from(f32::from_bits(coords[a]))
            }
        };
        let mut taps = [(Tap::At(0), Tap::At(0), 0.0f64); 3];
        for (a, slot) in taps.iter_mut().enumerate() {
            let n = self.shape.ext[a];
            if Some(a) == ty.layer_axis() {
                // layer = clamp(rint(v), 0, layers - 1)
                let l = value(a).round_ties_even().clamp(0.0, (n - 1) as f64) as usize;
                *slot = (Tap::At(l), Tap::At(l), 0.0);
            } else if a < ty.spatial() {
                *slot = axis(s, value(a), n);
            }
        }
        let spatial = ty.spatial();
        if !s.linear {
            return Expect::Exact(self.at(taps.map(|t| t.0)));
        }
        // The 2, 4 or 8 taps and their weights.
        let mut range = [(0.0f64, 0.0f64); 4];
        for corner in 0..1usize << spatial {
            let mut t = [Tap::At(0); 3];
            let mut w = 1.0;
            for a in 0..3 {
                let (t0, t1, frac) = taps[a];
                if a < spatial {
                    if corner >> a & 1 == 0 {
                        t[a] = t0;
                        w *= 1.0 - frac;
                    } else {
                        t[a] = t1;
                        w *= frac;
                    }
                } else {
                    t[a] = t0;
                }
            }
            for (k, v) in self.at(t).iter().enumerate() {
                let (lo, hi) = match *v {
                    V::F(x, _) => (x, x),
                    V::Srgb(x) => srgb_range(x),
                    V::W(_) => panic!("linear filtering of an integer format"),
                };
                range[k].0 += w * lo;
                range[k].1 += w * hi;
            }
        }
        Expect::Range(range)
    }
}

/// One axis of a sampled read: for nearest filtering the texel (in `.0`),
/// for linear the two taps and the weight of the second. `x` is the
/// coordinate, `n` the size.
fn axis(s: Smp, x: f64, n: usize) -> (Tap, Tap, f64) {
    let nf = n as f64;
    let ni = n as i64;
    let floor = |v: f64| v.floor() as i64;
    let frac = |v: f64| v - v.floor();
    let clamp_tap = |i: i64| match s.addr {
        Addr::Clamp if i < 0 || i >= ni => Tap::Border,
        Addr::Clamp => Tap::At(i as usize),
        Addr::Edge => Tap::At(i.clamp(0, ni - 1) as usize),
        _ => {
            assert!((0..ni).contains(&i), "NONE addressing out of the image");
            Tap::At(i as usize)
        }
    };
    match (s.addr, s.linear) {
        (Addr::Repeat, false) => {
            let u = (x - x.floor()) * nf;
            let mut i = floor(u);
            if i > ni - 1 {
                i -= ni;
            }
            (Tap::At(i as usize), Tap::At(0), 0.0)
        }
        (Addr::Repeat, true) => {
            let u = (x - x.floor()) * nf;
            let mut i0 = floor(u - 0.5);
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += ni;
            }
            if i1 > ni - 1 {
                i1 -= ni;
            }
            (Tap::At(i0 as usize), Tap::At(i1 as usize), frac(u - 0.5))
        }
        (Addr::Mirror, linear) => {
            let s2 = 2.0 * (0.5 * x).round_ties_even();
            let u = (x - s2).abs() * nf;
            if linear {
                let i0 = floor(u - 0.5);
                let i1 = (i0 + 1).min(ni - 1);
                (Tap::At(i0.max(0) as usize), Tap::At(i1 as usize), frac(u - 0.5))
            } else {
                (Tap::At(floor(u).min(ni - 1) as usize), Tap::At(0), 0.0)
            }
        }
        (_, false) => {
            let u = if s.norm { x * nf } else { x };
            (clamp_tap(floor(u)), Tap::At(0), 0.0)
        }
        (_, true) => {
            let u = if s.norm { x * nf } else { x };
            let i = floor(u - 0.5);
            (clamp_tap(i), clamp_tap(i + 1), frac(u - 0.5))
        }
    }
}

/// `count` coordinates (as int4 or float4 words) for sampler `s` on
/// `shape`, each in the region where the result is defined and, for
/// nearest filtering, at least 0.1 texel from a texel boundary.
fn sample_coords(rng: &mut Rng, shape: Shape, s: Smp, ints: bool, count: usize) -> Vec<[u32; 4]> {
    let ty = shape.ty;
    let pick = |rng: &mut Rng, v: &[f64]| v[rng.below(v.len() as u32) as usize];
    (0..count)
        .map(|_| {
            let mut c = [0u32; 4];
            for (a, word) in c.iter_mut().enumerate().take(3) {
                let n = shape.ext[a] as i64;
                let nf = n as f64;
                if Some(a) == ty.layer_axis() {
                    *word = if ints {
                        let (lo, hi) = if s.addr == Addr::None { (0, n - 1) } else { (-1, n) };
                        irange(rng, lo, hi) as i32 as u32
                    } else {
                        let l = [-1.2, -0.5, 0.0, 0.4, 0.5, 1.0, 1.5, 1.6, 2.5, 2.51, 3.7, 9.0];
                        (pick(rng, &l) as f32).to_bits()
                    };
                    continue;
                }
                if a >= ty.spatial() {
                    continue;
                }
                if ints {
                    let (lo, hi) = if s.addr == Addr::None { (0, n - 1) } else { (-2, n + 1) };
                    *word = irange(rng, lo, hi) as i32 as u32;
                    continue;
                }
                let phase = [0.1, 0.5, 0.85];
                // The coordinate in texels, then normalized if need be.
                let x = match (s.addr, s.linear) {
                    (Addr::Repeat | Addr::Mirror, false) => {
                        let m = irange(rng, -2, 2) as f64;
                        m + (irange(rng, 0, n - 1) as f64 + pick(rng, &phase)) / nf
                    }
                    (Addr::Repeat | Addr::Mirror, true) => {
                        let m = irange(rng, -2, 2) as f64;
                        m + irange(rng, 0, 8 * n - 1) as f64 / (8.0 * nf)
                    }
                    (addr, linear) => {
                        let u = match (addr, linear) {
                            (Addr::None, false) => irange(rng, 0, n - 1) as f64 + pick(rng, &phase),
                            (Addr::None, true) => 0.5 + irange(rng, 0, 8 * (n - 1) - 1) as f64 / 8.0,
                            (_, false) => irange(rng, -2, n + 1) as f64 + pick(rng, &phase),
                            (_, true) => irange(rng, -16, 8 * (n + 2)) as f64 / 8.0,
                        };
                        if s.norm {
                            u / nf
                        } else {
                            u
                        }
                    }
                };
                *word = (x as f32).to_bits();
            }
            c
        })
        .collect()
}

/// The tolerance of linear filtering (see the module documentation).
fn linear_tolerance(r: &(f64, f64), scale: f64) -> (f64, f64) {
    let tol = 2f64.powi(-15) * scale.max(1.0);
    (r.0 - tol, r.1 + tol)
}

// ---------------------------------------------------------------------------
// Kernels

const HEADER: &str = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
                      #pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n";

/// The image kinds of the tests: every type, then the depth types
/// (image2d_depth_t and image2d_array_depth_t, for CL_DEPTH images).
const KINDS: [(Ty, bool); 8] = [
    (Ty::D1, false),
    (Ty::Buf, false),
    (Ty::D1Arr, false),
    (Ty::D2, false),
    (Ty::D2Arr, false),
    (Ty::D3, false),
    (Ty::D2, true),
    (Ty::D2Arr, true),
];

/// The kernel `<prefix>_<type>` (`d` appended for a depth type).
fn kernel_name(prefix: &str, ty: Ty, depth: bool) -> String {
    format!("{prefix}_{}{}", ty.tag(), if depth { "d" } else { "" })
}

/// Sampler-less reads: `rd_<type>(read_only a, read_write b, coords, out,
/// outh, kind)` reads texel `coord[g]` of both images with read_imagef and
/// read_imageh (kind 0), read_imagei (1) or read_imageui (2); the depth
/// kernels read one float, into `.x`.
fn read_source() -> String {
    let mut s = HEADER.to_string();
    for (ty, depth) in KINDS {
        let (t, c, n) = (ty.cl(depth), ty.coord("c"), kernel_name("rd", ty, depth));
        let body = if depth {
            format!(
                "out[g] = (uint4)(as_uint(read_imagef(a, {c})), 0, 0, 0);\n    \
                 out[n + g] = (uint4)(as_uint(read_imagef(b, {c})), 0, 0, 0);"
            )
        } else {
            format!(
                r#"if (kind == 0) {{
        out[g] = as_uint4(read_imagef(a, {c}));
        out[n + g] = as_uint4(read_imagef(b, {c}));
        outh[g] = as_ushort4(read_imageh(a, {c}));
        outh[n + g] = as_ushort4(read_imageh(b, {c}));
    }} else if (kind == 1) {{
        out[g] = as_uint4(read_imagei(a, {c}));
        out[n + g] = as_uint4(read_imagei(b, {c}));
    }} else {{
        out[g] = read_imageui(a, {c});
        out[n + g] = read_imageui(b, {c});
    }}"#
            )
        };
        let _ = write!(
            s,
            r#"
kernel void {n}(read_only {t} a, read_write {t} b, global const int4 *coord,
                global uint4 *out, global ushort4 *outh, int kind) {{
    size_t g = get_global_id(0), n = get_global_size(0);
    int4 c = coord[g];
    {body}
}}
"#
        );
    }
    s
}

/// Writes: `wr_<type>(write_only a, read_write b, coords, val, valh,
/// kind)`: kind 0 write_imagef of `val` to a and write_imageh of `valh` to
/// b; 1 write_imagei, 2 write_imageui, of `val[g]` to a and `val[n + g]`
/// to b. The depth kernels write the floats `val[g].x` and `val[n + g].x`.
fn write_source() -> String {
    let mut s = HEADER.to_string();
    for (ty, depth) in KINDS {
        let (t, c, n) = (ty.cl(depth), ty.coord("c"), kernel_name("wr", ty, depth));
        let body = if depth {
            format!(
                "write_imagef(a, {c}, as_float(val[g].x));\n    \
                 write_imagef(b, {c}, as_float(val[n + g].x));"
            )
        } else {
            format!(
                r#"if (kind == 0) {{
        write_imagef(a, {c}, as_float4(val[g]));
        write_imageh(b, {c}, as_half4(valh[g]));
    }} else if (kind == 1) {{
        write_imagei(a, {c}, as_int4(val[g]));
        write_imagei(b, {c}, as_int4(val[n + g]));
    }} else {{
        write_imageui(a, {c}, val[g]);
        write_imageui(b, {c}, val[n + g]);
    }}"#
            )
        };
        let _ = write!(
            s,
            r#"
kernel void {n}(write_only {t} a, read_write {t} b, global const int4 *coord,
                global const uint4 *val, global const ushort4 *valh, int kind) {{
    size_t g = get_global_id(0), n = get_global_size(0);
    int4 c = coord[g];
    {body}
}}
"#
        );
    }
    s
}

/// Sampled reads: `s_<type>(img, sampler, coords, out, outh, kind, ints)`
/// reads at `coord[g]` (int4 words, floats unless `ints`) with
/// read_imagef and read_imageh (kind 0), read_imagei (1) or read_imageui
/// (2); the depth kernels read one float, into `.x`.
fn sample_source() -> String {
    let mut s = HEADER.to_string();
    for (ty, depth) in KINDS {
        if ty == Ty::Buf {
            continue;
        }
        let (t, n) = (ty.cl(depth), kernel_name("s", ty, depth));
        let read = |c: &str| {
            if depth {
                format!("out[g] = (uint4)(as_uint(read_imagef(img, s, {c})), 0, 0, 0);")
            } else {
                format!(
                    r#"if (kind == 0) {{
            out[g] = as_uint4(read_imagef(img, s, {c}));
            outh[g] = as_ushort4(read_imageh(img, s, {c}));
        }} else if (kind == 1) {{
            out[g] = as_uint4(read_imagei(img, s, {c}));
        }} else {{
            out[g] = read_imageui(img, s, {c});
        }}"#
                )
            }
        };
        let (ri, rf) = (read(&ty.coord("c")), read(&ty.coord("f")));
        let _ = write!(
            s,
            r#"
kernel void {n}(read_only {t} img, sampler_t s, global const int4 *coord,
                global uint4 *out, global ushort4 *outh, int kind, int ints) {{
    size_t g = get_global_id(0);
    int4 c = coord[g];
    float4 f = as_float4(c);
    if (ints) {{
        {ri}
    }} else {{
        {rf}
    }}
}}
"#
        );
    }
    s
}

// ---------------------------------------------------------------------------
// 1. Sampler-less reads

/// The formats of image kind (`ty`, `depth`) the tests use: those listed
/// (see [`Env::formats`]), DEPTH for the depth types, the others for the
/// others.
fn kind_formats(env: &Env, ty: Ty, depth: bool) -> Vec<Fmt> {
    env.formats(ty)
        .into_iter()
        .filter(|f| (f.order == CL_DEPTH) == depth)
        .collect()
}

/// A seed from a test's name and its case.
fn seed(parts: &[u64]) -> Rng {
    Rng(parts.iter().fold(0x1234_5678_9abc_def0u64, |h, &p| {
        (h ^ p).wrapping_mul(0x100_0000_01b3).rotate_left(17)
    }))
}

#[test]
fn sampler_less_reads() {
    assert!(has_extension("cl_khr_fp16"), "read_imageh needs cl_khr_fp16");
    let env = Env::new();
    let mut bad = Failures::new("sampler-less reads");
    // The 2D list holds at least the full-profile minimum (DEPTH as
    // cl_khr_depth_images asks).
    let two_d = env.formats(Ty::D2);
    for f in [
        fmt(CL_RGBA, CL_UNORM_INT8),
        fmt(CL_RGBA, CL_FLOAT),
        fmt(CL_RGBA, CL_HALF_FLOAT),
        fmt(CL_RGBA, CL_SIGNED_INT32),
        fmt(CL_BGRA, CL_UNORM_INT8),
        fmt(CL_R, CL_UNSIGNED_INT16),
        fmt(CL_sRGBA, CL_UNORM_INT8),
        fmt(CL_DEPTH, CL_UNORM_INT16),
        fmt(CL_DEPTH, CL_FLOAT),
    ] {
        assert!(two_d.contains(&f), "{} is not listed for 2D images", f.name());
    }
    let src = read_source();
    for way in WAYS {
        let prog = env.program(&src, way, "");
        for (ty, depth) in KINDS {
            let name = kernel_name("rd", ty, depth);
            let k = prog.kernel(&name);
            let shape = ty.shape();
            for (fi, f) in kind_formats(&env, ty, depth).into_iter().enumerate() {
                let mut rng = seed(&[1, ty as u64, depth as u64, fi as u64, way as u64]);
                let (a, data) = env.random_image(CL_MEM_READ_ONLY, f, shape, &mut rng, false);
                let b = env.image(CL_MEM_READ_WRITE, f, shape, a.layout.clone(), Some(&data));
                let l = &a.layout;
                let coords = shape.shuffled(&mut rng);
                let n = coords.len();
                let coord = env.buffer(&bytes_of_words(&coord_words(&coords)));
                let out = env.buffer(&vec![0xCD; 2 * n * 16]);
                let outh = env.buffer(&vec![0xCD; 2 * n * 8]);
                let kind = l.kind();
                env.launch(
                    &k,
                    &[A::I(&a), A::I(&b), A::M(&coord), A::M(&out), A::M(&outh), A::Int(kind)],
                    n,
                );
                let got = env.read_words(&out, 2 * n * 4);
                let goth = env.read_halves(&outh, 2 * n * 4);
                let fun = ["read_imagef", "read_imagei", "read_imageui"][kind as usize];
                for (g, c) in coords.iter().enumerate() {
                    let i = shape.index(*c);
                    let texel = &data[i * l.size..(i + 1) * l.size];
                    let want = l.read(texel);
                    for (img, access) in ["read_only", "read_write"].iter().enumerate() {
                        // A depth image reads one float.
                        for (comp, &want) in want.iter().enumerate().take(if depth { 1 } else { 4 }) {
                            let at = (img * n + g) * 4 + comp;
                            if !f32_ok(want, got[at]) {
                                bad.add(|| {
                                    format!(
                                        "{way:?} {name} {} {access} {fun} at {c:?} (texel {texel:02x?}) \
                                         component {comp}: got {:#010x} ({:e}), want {want:?}",
                                        f.name(),
                                        got[at],
                                        f32::from_bits(got[at]),
                                    )
                                });
                            }
                            // read_imageh of FLOAT images is undefined.
                            if kind == 0 && !depth && f.dt != CL_FLOAT && !half_ok(want, goth[at]) {
                                bad.add(|| {
                                    format!(
                                        "{way:?} {name} {} {access} read_imageh at {c:?} (texel {texel:02x?}) \
                                         component {comp}: got {:#06x} ({}), want {want:?}",
                                        f.name(),
                                        goth[at],
                                        from_half(goth[at]),
                                    )
                                });
                            }
                        }
                    }
                }
            }
        }
    }
    bad.finish();
}

// ---------------------------------------------------------------------------
// 2. Writes

/// Floats to write: limits, ties, values out of range, half rounding
/// cases, NaN and infinities, and random values.
fn write_float(rng: &mut Rng) -> f32 {
    const F: [f32; 26] = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        0.25,
        1.5,
        2.0,
        -2.0,
        -1.0079,
        100.0,
        -100.0,
        1e-3,
        0.999,
        1e-8,
        1e-40,
        65504.0,
        65520.0,
        1e6,
        1.000_488_3,  // 1 + 2^-11: a half tie, to even
        1.001_464_8,  // 1 + 3 * 2^-11: a half tie, to even (up)
        2.980_232e-8, // 2^-25: half of the least half denormal
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
    ];
    match rng.below(4) {
        0 | 1 => F[rng.below(F.len() as u32) as usize],
        2 => irange(rng, -1500, 1500) as f32 / 1000.0 + irange(rng, 0, 999) as f32 * 1e-7,
        _ => (rng.next() as f32 / (1u64 << 31) as f32) * 2.0 - 0.5,
    }
}

/// Halves to write (bits).
fn write_half(rng: &mut Rng) -> u16 {
    const H: [u16; 16] = [
        0, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x3555, 0x3bff, 0x4000, 0xc000, 0x7bff, 0x0001, 0x03ff, 0x7e00, 0x7c00,
        0xfc00, 0x3e00,
    ];
    if rng.below(2) == 0 {
        H[rng.below(H.len() as u32) as usize]
    } else {
        to_half(f64::from(irange(rng, -3000, 3000) as i32) / 1999.0, Rounding::Rte)
    }
}

/// Integers to write (as words): the limits of every width, and random.
fn write_int(rng: &mut Rng) -> u32 {
    const I: [i64; 20] = [
        0,
        1,
        -1,
        127,
        128,
        -128,
        -129,
        255,
        256,
        32767,
        32768,
        -32768,
        -32769,
        65535,
        65536,
        i32::MAX as i64,
        i32::MIN as i64,
        u32::MAX as i64,
        0x8000_0000,
        -200,
    ];
    if rng.below(2) == 0 {
        I[rng.below(I.len() as u32) as usize] as u32
    } else {
        (rng.next_u64() >> 32) as u32
    }
}

/// Checks the bytes `got` of an image written with `inputs` (per texel, in
/// the order of `coords`) against the reference.
#[allow(clippy::too_many_arguments)]
fn check_written(
    bad: &mut Failures,
    what: &str,
    l: &Layout,
    shape: Shape,
    coords: &[[usize; 3]],
    inputs: &[[In; 4]],
    got: &[u8],
) {
    for (c, input) in coords.iter().zip(inputs) {
        let i = shape.index(*c);
        let texel = &got[i * l.size..(i + 1) * l.size];
        let raw = l.raw(texel);
        let want = l.write(*input);
        for ((f, &r), w) in l.fields.iter().zip(&raw).zip(&want) {
            if !field_ok(*w, r, f.bits) {
                bad.add(|| {
                    format!(
                        "{what} {}: at {c:?} wrote {input:?}: the field of component {} is {r:#x}, want {w:?} \
                         (texel {texel:02x?})",
                        l.fmt.name(),
                        f.comp
                    )
                });
            }
        }
    }
}

#[test]
fn writes() {
    assert!(
        has_extension("cl_khr_3d_image_writes"),
        "3D writes need cl_khr_3d_image_writes"
    );
    let env = Env::new();
    let mut bad = Failures::new("writes");
    let src = write_source();
    for way in WAYS {
        let prog = env.program(&src, way, "");
        for (ty, depth) in KINDS {
            let name = kernel_name("wr", ty, depth);
            let k = prog.kernel(&name);
            let shape = ty.shape();
            for (fi, f) in kind_formats(&env, ty, depth).into_iter().enumerate() {
                let l = env.layout(f);
                let kind = l.kind();
                let mut rng = seed(&[3, ty as u64, depth as u64, fi as u64, way as u64]);
                let a = env.image(CL_MEM_WRITE_ONLY, f, shape, l.clone(), None);
                let b = env.image(CL_MEM_READ_WRITE, f, shape, l.clone(), None);
                let coords = shape.shuffled(&mut rng);
                let n = coords.len();
                // Float formats: floats for a, halves for b (a depth image
                // takes floats for both); integer formats: words for both.
                let val: Vec<u32> = (0..8 * n)
                    .map(|_| match kind {
                        0 => write_float(&mut rng).to_bits(),
                        _ => write_int(&mut rng),
                    })
                    .collect();
                let valh: Vec<u16> = (0..4 * n).map(|_| write_half(&mut rng)).collect();
                let coord = env.buffer(&bytes_of_words(&coord_words(&coords)));
                let vbuf = env.buffer(&bytes_of_words(&val));
                let hbuf = env.buffer(&bytes_of_halves(&valh));
                env.launch(
                    &k,
                    &[A::I(&a), A::I(&b), A::M(&coord), A::M(&vbuf), A::M(&hbuf), A::Int(kind)],
                    n,
                );
                let input = |img: usize, g: usize| -> [In; 4] {
                    std::array::from_fn(|c| {
                        let w = val[4 * (img * n + g) + c];
                        match (kind, img) {
                            _ if depth && c > 0 => In::F(0.0),
                            (0, 1) if !depth => In::H(valh[4 * g + c]),
                            (0, _) => In::F(f32::from_bits(w)),
                            (1, _) => In::I(w as i32),
                            _ => In::U(w),
                        }
                    })
                };
                let funs = match (kind, depth) {
                    (_, true) => ["write_imagef", "write_imagef"],
                    (0, _) => ["write_imagef", "write_imageh"],
                    (1, _) => ["write_imagei", "write_imagei"],
                    _ => ["write_imageui", "write_imageui"],
                };
                for (img, image) in [&a, &b].into_iter().enumerate() {
                    let inputs: Vec<[In; 4]> = (0..n).map(|g| input(img, g)).collect();
                    let what = format!("{way:?} {name} {} {}", ["write_only", "read_write"][img], funs[img]);
                    check_written(&mut bad, &what, &l, shape, &coords, &inputs, &env.read_image(image));
                }
            }
        }
    }
    bad.finish();
}

// ---------------------------------------------------------------------------
// 3. Sampled reads

/// The depth formats of the sampled-read tests.
const DEPTH_FORMATS: [Fmt; 2] = [fmt(CL_DEPTH, CL_FLOAT), fmt(CL_DEPTH, CL_UNORM_INT16)];

/// The formats of the sampled-read tests.
const SAMPLED_FORMATS: [Fmt; 10] = [
    fmt(CL_RGBA, CL_FLOAT),
    fmt(CL_RGBA, CL_UNORM_INT8),
    fmt(CL_R, CL_SNORM_INT16),
    fmt(CL_RGBA, CL_HALF_FLOAT),
    fmt(CL_sRGBA, CL_UNORM_INT8),
    fmt(CL_BGRA, CL_UNORM_INT8),
    fmt(CL_RG, CL_UNORM_INT16),
    fmt(CL_RGBA, CL_SIGNED_INT16),
    fmt(CL_R, CL_UNSIGNED_INT8),
    fmt(CL_RGBA, CL_UNSIGNED_INT32),
];

/// Checks a sampled read of `r` against the reference `expect`: `got`
/// holds the four words read_image{f,i,ui} returned (one for depth
/// images), `goth` read_imageh's halves if it was called.
fn check_sampled(
    bad: &mut Failures,
    what: &dyn Fn() -> String,
    r: &RefImage,
    expect: &Expect,
    got: &[u32],
    goth: Option<&[u16]>,
) {
    for comp in 0..got.len() {
        let g = got[comp];
        let h = goth.map(|h| h[comp]);
        let (ok, okh) = match expect {
            Expect::Exact(v) => (f32_ok(v[comp], g), h.is_none_or(|h| half_ok(v[comp], h))),
            Expect::Range(range) => {
                let (lo, hi) = linear_tolerance(&range[comp], r.scale);
                let y = f64::from(f32::from_bits(g));
                let okh = h.is_none_or(|h| {
                    let slack = 2f64.powi(-10) * lo.abs().max(hi.abs()) + 2f64.powi(-24);
                    let y = from_half(h);
                    y >= lo - slack && y <= hi + slack
                });
                (y >= lo && y <= hi, okh)
            }
        };
        if !ok || !okh {
            bad.add(|| {
                format!(
                    "{} {}: component {comp}: got {:#010x} ({:e}){}, want {}",
                    r.layout.fmt.name(),
                    what(),
                    g,
                    f32::from_bits(g),
                    h.map_or(String::new(), |h| format!(" and half {h:#06x} ({})", from_half(h))),
                    match expect {
                        Expect::Exact(v) => format!("{:?}", v[comp]),
                        Expect::Range(range) => format!("{:?} (linear, before the tolerance)", range[comp]),
                    }
                )
            });
        }
    }
}

#[test]
fn sampled_reads() {
    let env = Env::new();
    let mut bad = Failures::new("sampled reads");
    let src = sample_source();
    const COUNT: usize = 48;
    for way in WAYS {
        let prog = env.program(&src, way, "");
        for (ty, depth) in KINDS {
            if ty == Ty::Buf {
                continue;
            }
            let name = kernel_name("s", ty, depth);
            let k = prog.kernel(&name);
            let shape = ty.shape();
            let listed = env.formats(ty);
            let formats: &[Fmt] = if depth { &DEPTH_FORMATS } else { &SAMPLED_FORMATS };
            for (fi, &f) in formats.iter().enumerate() {
                assert!(listed.contains(&f), "{} is not listed for {ty:?}", f.name());
                let mut rng = seed(&[5, ty as u64, depth as u64, fi as u64, way as u64]);
                let (img, data) = env.random_image(CL_MEM_READ_ONLY, f, shape, &mut rng, true);
                let r = RefImage::new(&img, &data);
                let kind = img.layout.kind();
                let fun = ["read_imagef", "read_imagei", "read_imageui"][kind as usize];
                for (si, s) in samplers().into_iter().enumerate() {
                    // "The read_image{i|ui} calls support a nearest filter only."
                    if kind != 0 && s.linear {
                        continue;
                    }
                    // Each way makes every other sampler with
                    // clCreateSamplerWithProperties, the others with
                    // clCreateSampler.
                    let smp = env.sampler(s, (si + way as usize).is_multiple_of(2));
                    // Integer coordinates: unnormalized nearest NONE, CLAMP
                    // and CLAMP_TO_EDGE samplers only.
                    for ints in [false, true] {
                        if ints && (s.norm || s.linear) {
                            continue;
                        }
                        let coords = sample_coords(&mut rng, shape, s, ints, COUNT);
                        let words: Vec<u32> = coords.iter().flatten().copied().collect();
                        let coord = env.buffer(&bytes_of_words(&words));
                        let out = env.buffer(&[0xCD; COUNT * 16]);
                        let outh = env.buffer(&[0xCD; COUNT * 8]);
                        env.launch(
                            &k,
                            &[
                                A::I(&img),
                                A::S(&smp),
                                A::M(&coord),
                                A::M(&out),
                                A::M(&outh),
                                A::Int(kind),
                                A::Int(ints as i32),
                            ],
                            COUNT,
                        );
                        let got = env.read_words(&out, COUNT * 4);
                        let goth = env.read_halves(&outh, COUNT * 4);
                        // A depth image reads one float; read_imageh of
                        // FLOAT images is undefined.
                        let comps = if depth { 1 } else { 4 };
                        let half = kind == 0 && !depth && f.dt != CL_FLOAT;
                        for (g, c) in coords.iter().enumerate() {
                            check_sampled(
                                &mut bad,
                                &|| format!("{way:?} {name} {fun} {s:?} at {}", show_coords(c, ints)),
                                &r,
                                &r.sample(s, *c, ints),
                                &got[4 * g..4 * g + comps],
                                half.then(|| &goth[4 * g..4 * g + 4]),
                            );
                        }
                    }
                }
            }
        }
    }
    bad.finish();
}

fn show_coords(c: &[u32; 4], ints: bool) -> String {
    if ints {
        format!("int {:?}", c.map(|w| w as i32))
    } else {
        format!("float {:?}", c.map(f32::from_bits))
    }
}

/// Samplers in the source: at program scope (`constant` and `const`) and
/// in the kernel, each read with the coordinates of its quarter of
/// `coord`; the last quarter reads integer coordinates with `lit_b`.
const LITERAL_SOURCE: &str = r#"
constant sampler_t lit_a = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
const sampler_t lit_b = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;

kernel void lit_2d(read_only image2d_t img, global const int4 *coord, global float4 *out) {
    size_t g = get_global_id(0), n = get_global_size(0);
    const sampler_t lit_c = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
    const sampler_t lit_d = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
    out[g] = read_imagef(img, lit_a, as_float4(coord[g]).xy);
    out[n + g] = read_imagef(img, lit_b, as_float4(coord[n + g]).xy);
    out[2 * n + g] = read_imagef(img, lit_c, as_float4(coord[2 * n + g]).xy);
    out[3 * n + g] = read_imagef(img, lit_d, as_float4(coord[3 * n + g]).xy);
    out[4 * n + g] = read_imagef(img, lit_b, coord[4 * n + g].xy);
}

kernel void lit_3d(read_only image3d_t img, global const int4 *coord, global float4 *out) {
    size_t g = get_global_id(0), n = get_global_size(0);
    const sampler_t lit_c = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
    const sampler_t lit_d = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
    out[g] = read_imagef(img, lit_a, as_float4(coord[g]));
    out[n + g] = read_imagef(img, lit_b, as_float4(coord[n + g]));
    out[2 * n + g] = read_imagef(img, lit_c, as_float4(coord[2 * n + g]));
    out[3 * n + g] = read_imagef(img, lit_d, as_float4(coord[3 * n + g]));
    out[4 * n + g] = read_imagef(img, lit_b, coord[4 * n + g]);
}
"#;

#[test]
fn literal_samplers() {
    let env = Env::new();
    let mut bad = Failures::new("literal samplers");
    let sm = |norm, addr, linear| Smp { norm, addr, linear };
    let quarters = [
        (sm(true, Addr::Repeat, true), false),
        (sm(false, Addr::Clamp, false), false),
        (sm(true, Addr::Mirror, false), false),
        (sm(false, Addr::Edge, true), false),
        (sm(false, Addr::Clamp, false), true),
    ];
    const COUNT: usize = 40;
    for way in WAYS {
        let prog = env.program(LITERAL_SOURCE, way, "");
        for (ty, f) in [
            (Ty::D2, fmt(CL_RGBA, CL_FLOAT)),
            (Ty::D2, fmt(CL_RGBA, CL_UNORM_INT8)),
            (Ty::D3, fmt(CL_RGBA, CL_UNORM_INT8)),
            (Ty::D3, fmt(CL_RGBA, CL_HALF_FLOAT)),
        ] {
            let k = prog.kernel(&format!("lit_{}", ty.tag()));
            let shape = ty.shape();
            let mut rng = seed(&[7, ty as u64, f.dt as u64, way as u64]);
            let (img, data) = env.random_image(CL_MEM_READ_ONLY, f, shape, &mut rng, true);
            let r = RefImage::new(&img, &data);
            let coords: Vec<Vec<[u32; 4]>> = quarters
                .iter()
                .map(|&(s, ints)| sample_coords(&mut rng, shape, s, ints, COUNT))
                .collect();
            let words: Vec<u32> = coords.iter().flatten().flatten().copied().collect();
            let coord = env.buffer(&bytes_of_words(&words));
            let out = env.buffer(&vec![0xCD; quarters.len() * COUNT * 16]);
            env.launch(&k, &[A::I(&img), A::M(&coord), A::M(&out)], COUNT);
            let got = env.read_words(&out, quarters.len() * COUNT * 4);
            for (q, &(s, ints)) in quarters.iter().enumerate() {
                for (g, c) in coords[q].iter().enumerate() {
                    let at = 4 * (q * COUNT + g);
                    check_sampled(
                        &mut bad,
                        &|| format!("{way:?} lit_{} literal {s:?} at {}", ty.tag(), show_coords(c, ints)),
                        &r,
                        &r.sample(s, *c, ints),
                        &got[at..at + 4],
                        None,
                    );
                }
            }
        }
    }
    bad.finish();
}

/// Images and samplers passed to functions that are not inlined
/// (`noinline`, and the source built again with -cl-opt-disable): a
/// sampled read through a kernel's sampler argument and through a
/// program-scope sampler, a query, and a write.
const CALLS_SOURCE: &str = r#"
constant sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

__attribute__((noinline)) float4 fetch(read_only image2d_t img, sampler_t s, float2 c) {
    return read_imagef(img, s, c);
}

__attribute__((noinline)) int width_of(read_only image2d_t img) {
    return get_image_width(img);
}

__attribute__((noinline)) void put(write_only image2d_t img, int2 c, float4 v) {
    write_imagef(img, c, v);
}

kernel void calls(read_only image2d_t img, sampler_t s, write_only image2d_t dst,
                  global const int4 *coord, global float4 *out) {
    size_t g = get_global_id(0), n = get_global_size(0);
    out[g] = fetch(img, s, as_float4(coord[g]).xy);
    out[n + g] = fetch(img, lin, as_float4(coord[n + g]).xy);
    int w = width_of(img);
    if (g < w * get_image_height(dst)) {
        put(dst, coord[2 * n + g].xy, (float4)(g, -(float)g, 0.5f, w));
    }
}
"#;

#[test]
fn function_calls() {
    let env = Env::new();
    let mut bad = Failures::new("images through function calls");
    const COUNT: usize = 40;
    let arg = Smp {
        norm: false,
        addr: Addr::Clamp,
        linear: false,
    };
    let lin = Smp {
        norm: true,
        addr: Addr::Edge,
        linear: true,
    };
    let f = fmt(CL_RGBA, CL_FLOAT);
    let shape = Ty::D2.shape();
    // -cl-opt-disable last: clang -O0 keeps the arguments in memory,
    // another path through the translator.
    for (way, options) in [(Way::Source, ""), (Way::Spirv, ""), (Way::Source, "-cl-opt-disable")] {
        let prog = env.program(CALLS_SOURCE, way, options);
        let k = prog.kernel("calls");
        let mut rng = seed(&[9, way as u64]);
        let (img, data) = env.random_image(CL_MEM_READ_ONLY, f, shape, &mut rng, true);
        let dst = env.image(CL_MEM_WRITE_ONLY, f, shape, img.layout.clone(), None);
        let r = RefImage::new(&img, &data);
        let smp = env.sampler(arg, way == Way::Spirv);
        let coords = [arg, lin].map(|s| sample_coords(&mut rng, shape, s, false, COUNT));
        // Then the texels' coordinates, for the writes.
        let coord_bits: Vec<u32> = coords
            .iter()
            .flatten()
            .flatten()
            .copied()
            .chain(coord_words(&shape.all()))
            .collect();
        let coord = env.buffer(&bytes_of_words(&coord_bits));
        let out = env.buffer(&[0xCD; 2 * COUNT * 16]);
        env.launch(
            &k,
            &[A::I(&img), A::S(&smp), A::I(&dst), A::M(&coord), A::M(&out)],
            COUNT,
        );
        let got = env.read_words(&out, 2 * COUNT * 4);
        for (q, s) in [arg, lin].into_iter().enumerate() {
            for (g, c) in coords[q].iter().enumerate() {
                let at = 4 * (q * COUNT + g);
                check_sampled(
                    &mut bad,
                    &|| format!("{way:?} {options} calls fetch {s:?} at {}", show_coords(c, false)),
                    &r,
                    &r.sample(s, *c, false),
                    &got[at..at + 4],
                    None,
                );
            }
        }
        // Texel g of `all` (the g-th, as the image stores them) holds g.
        let written = words(&env.read_image(&dst));
        let w = shape.ext[0];
        for g in 0..shape.texels() {
            let want = [g as f32, -(g as f32), 0.5, w as f32].map(f32::to_bits);
            if written[4 * g..4 * g + 4] != want {
                bad.add(|| {
                    format!(
                        "{way:?} {options} calls put at texel {g}: got {:08x?}, want {want:08x?}",
                        &written[4 * g..4 * g + 4]
                    )
                });
            }
        }
    }
    bad.finish();
}

// ---------------------------------------------------------------------------
// 4. Queries

/// `q_<type>(read_only a, write_only b, read_write c, out)`: for each
/// image, 16 ints from `out[16 * i]`: width, height, depth, the four
/// components of get_image_dim, the array size, the channel order and data
/// type; -1 where the type has no such query.
fn query_source() -> String {
    let mut s = HEADER.to_string();
    for (ty, depth) in KINDS {
        let (t, name) = (ty.cl(depth), kernel_name("q", ty, depth));
        let mut body = String::new();
        for (i, x) in ["a", "b", "c"].iter().enumerate() {
            let o = 16 * i;
            let _ = writeln!(body, "    out[{o}] = get_image_width({x});");
            if matches!(ty, Ty::D2 | Ty::D2Arr | Ty::D3) {
                let _ = writeln!(body, "    out[{}] = get_image_height({x});", o + 1);
            }
            match ty {
                Ty::D3 => {
                    let _ = writeln!(body, "    out[{}] = get_image_depth({x});", o + 2);
                    let _ = writeln!(
                        body,
                        "    {{ int4 d = get_image_dim({x}); out[{}] = d.x; out[{}] = d.y; out[{}] = d.z; out[{}] = d.w; }}",
                        o + 3,
                        o + 4,
                        o + 5,
                        o + 6
                    );
                }
                Ty::D2 | Ty::D2Arr => {
                    let _ = writeln!(
                        body,
                        "    {{ int2 d = get_image_dim({x}); out[{}] = d.x; out[{}] = d.y; }}",
                        o + 3,
                        o + 4
                    );
                }
                _ => {}
            }
            if ty.layer_axis().is_some() {
                let _ = writeln!(body, "    out[{}] = (int)get_image_array_size({x});", o + 7);
            }
            let _ = writeln!(body, "    out[{}] = get_image_channel_order({x});", o + 8);
            let _ = writeln!(body, "    out[{}] = get_image_channel_data_type({x});", o + 9);
        }
        let _ = write!(
            s,
            "\nkernel void {name}(read_only {t} a, write_only {t} b, read_write {t} c, global int *out) {{\n{body}}}\n"
        );
    }
    s
}

/// The 16 ints [`query_source`]'s kernels write for `img`.
fn query_reference(img: &Image) -> [i32; 16] {
    let [w, h, d] = img.shape.ext.map(|x| x as i32);
    let mut q = [-1i32; 16];
    q[0] = w;
    match img.shape.ty {
        Ty::D1 | Ty::Buf => {}
        Ty::D1Arr => q[7] = h,
        Ty::D2 => [q[1], q[3], q[4]] = [h, w, h],
        Ty::D2Arr => [q[1], q[3], q[4], q[7]] = [h, w, h, d],
        Ty::D3 => [q[1], q[2], q[3], q[4], q[5], q[6]] = [h, d, w, h, d, 0],
    }
    q[8] = img.layout.fmt.order as i32;
    q[9] = img.layout.fmt.dt as i32;
    q
}

#[test]
fn queries() {
    let env = Env::new();
    let mut bad = Failures::new("queries");
    let src = query_source();
    for way in WAYS {
        let prog = env.program(&src, way, "");
        for (ty, depth) in KINDS {
            let name = kernel_name("q", ty, depth);
            let k = prog.kernel(&name);
            let formats = kind_formats(&env, ty, depth);
            // Three shapes, so the images' answers cannot be mixed up.
            let base = ty.shape().ext;
            let shapes = [
                base,
                [
                    base[0] + 2,
                    base[1] + usize::from(base[1] > 1),
                    base[2] + usize::from(base[2] > 1),
                ],
                [base[0] + 5, base[1] + 2 * usize::from(base[1] > 1), base[2]],
            ];
            let n = formats.len();
            for i in (0..n).step_by(3) {
                let imgs: Vec<Image> = (0..3)
                    .map(|j| {
                        let f = formats[(i + j) % n];
                        let flags = [CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE][j];
                        env.image(flags, f, Shape::new(ty, shapes[j]), env.layout(f), None)
                    })
                    .collect();
                let out = env.buffer(&bytes_of_words(&[u32::MAX; 48]));
                env.launch(&k, &[A::I(&imgs[0]), A::I(&imgs[1]), A::I(&imgs[2]), A::M(&out)], 1);
                let got = env.read_words(&out, 48);
                for (j, img) in imgs.iter().enumerate() {
                    let want = query_reference(img);
                    let got: Vec<i32> = got[16 * j..16 * (j + 1)].iter().map(|&w| w as i32).collect();
                    if got != want {
                        bad.add(|| {
                            format!(
                                "{way:?} {name} image {j} ({} {:?}): got {got:?}, want {want:?} \
                                 (width, height, depth, dim x y z w, array size, order, data type)",
                                img.layout.fmt.name(),
                                img.shape.ext
                            )
                        });
                    }
                }
            }
        }
    }
    bad.finish();
}

// ---------------------------------------------------------------------------
// 5. read_write images: a write, a fence, a read of the same texel

/// `rw_<type>(img, coords, val, out, kind)`: writes `val[g]`, fences,
/// reads into `out[2g]`; writes `val[n + g]`, fences, reads into
/// `out[2g + 1]` (kind 0 float, 1 int, 2 uint).
fn read_write_source() -> String {
    let mut s = HEADER.to_string();
    for ty in TYPES {
        let (t, c, n) = (ty.cl(false), ty.coord("c"), ty.tag());
        let _ = write!(
            s,
            r#"
kernel void rw_{n}(read_write {t} img, global const int4 *coord, global const uint4 *val,
                   global uint4 *out, int kind) {{
    size_t g = get_global_id(0), n = get_global_size(0);
    int4 c = coord[g];
    for (int k = 0; k < 2; k++) {{
        uint4 v = val[k * n + g];
        if (kind == 0) write_imagef(img, {c}, as_float4(v));
        else if (kind == 1) write_imagei(img, {c}, as_int4(v));
        else write_imageui(img, {c}, v);
        atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
        if (kind == 0) out[2 * g + k] = as_uint4(read_imagef(img, {c}));
        else if (kind == 1) out[2 * g + k] = as_uint4(read_imagei(img, {c}));
        else out[2 * g + k] = read_imageui(img, {c});
    }}
}}
"#
        );
    }
    s
}

/// The words a write function takes for texel `t` read back exactly (the
/// same as the texel's read).
fn words_of(v: &[V; 4]) -> [u32; 4] {
    v.map(|c| match c {
        V::F(_, b) => b,
        V::W(w) => w,
        V::Srgb(_) => unreachable!("no sRGB formats here"),
    })
}

#[test]
fn read_write_fence() {
    let env = Env::new();
    let mut bad = Failures::new("read_write images");
    let src = read_write_source();
    let picked = [
        fmt(CL_RGBA, CL_UNORM_INT8),
        fmt(CL_BGRA, CL_SNORM_INT8),
        fmt(CL_RG, CL_UNORM_INT16),
        fmt(CL_R, CL_SNORM_INT16),
        fmt(CL_RGBA, CL_HALF_FLOAT),
        fmt(CL_RGBA, CL_FLOAT),
        fmt(CL_RGB, CL_UNORM_SHORT_565),
        fmt(CL_RGBA, CL_UNORM_INT_101010_2),
        fmt(CL_RGBA, CL_SIGNED_INT8),
        fmt(CL_R, CL_UNSIGNED_INT16),
        fmt(CL_RG, CL_UNSIGNED_INT32),
        fmt(CL_RGBA, CL_SIGNED_INT32),
        fmt(CL_INTENSITY, CL_FLOAT),
        fmt(CL_LUMINANCE, CL_UNORM_INT8),
        fmt(CL_A, CL_HALF_FLOAT),
    ];
    for way in WAYS {
        let prog = env.program(&src, way, "");
        for ty in TYPES {
            let k = prog.kernel(&format!("rw_{}", ty.tag()));
            let shape = ty.shape();
            let listed = env.formats(ty);
            for (fi, f) in picked.into_iter().enumerate() {
                if !listed.contains(&f) {
                    continue;
                }
                let l = env.layout(f);
                let kind = l.kind();
                let mut rng = seed(&[8, ty as u64, fi as u64, way as u64]);
                let img = env.image(CL_MEM_READ_WRITE, f, shape, l.clone(), None);
                let coords = shape.shuffled(&mut rng);
                let n = coords.len();
                // Texels whose values round-trip exactly: finite, no
                // SNORM -128 (which reads as -1.0, written back as -127),
                // no denormals; INTENSITY and LUMINANCE store R only.
                let round_trip = |rng: &mut Rng| loop {
                    let t = l.random_texels(rng, 1, kind == 0 && matches!(l.ch, Ch::Float | Ch::Half));
                    let raw = l.raw(&t);
                    let snorm_min =
                        l.ch == Ch::Snorm && l.fields.iter().zip(&raw).any(|(f, &r)| r == 1 << (f.bits - 1));
                    if !snorm_min {
                        return t;
                    }
                };
                let texels: Vec<Vec<u8>> = (0..2 * n).map(|_| round_trip(&mut rng)).collect();
                let val: Vec<u32> = texels.iter().flat_map(|t| words_of(&l.read(t))).collect();
                let coord = env.buffer(&bytes_of_words(&coord_words(&coords)));
                let vbuf = env.buffer(&bytes_of_words(&val));
                let out = env.buffer(&vec![0xCD; 2 * n * 16]);
                env.launch(
                    &k,
                    &[A::I(&img), A::M(&coord), A::M(&vbuf), A::M(&out), A::Int(kind)],
                    n,
                );
                let got = env.read_words(&out, 2 * n * 4);
                for (g, c) in coords.iter().enumerate() {
                    for step in 0..2 {
                        let want = l.read(&texels[step * n + g]);
                        let at = 4 * (2 * g + step);
                        let got = &got[at..at + 4];
                        if (0..4).any(|k| !f32_ok(want[k], got[k])) {
                            bad.add(|| {
                                format!(
                                    "{way:?} rw_{} {}: at {c:?}, write {} then read: got {got:08x?}, want {want:?}",
                                    ty.tag(),
                                    f.name(),
                                    step + 1
                                )
                            });
                        }
                    }
                }
                // The image holds the second writes.
                let bytes = env.read_image(&img);
                for (g, c) in coords.iter().enumerate() {
                    let i = shape.index(*c);
                    let got = l.raw(&bytes[i * l.size..(i + 1) * l.size]);
                    let want = l.raw(&texels[n + g]);
                    let differs = l
                        .fields
                        .iter()
                        .zip(got.iter().zip(&want))
                        .any(|(f, (a, b))| f.comp != X && a != b);
                    if differs {
                        bad.add(|| {
                            format!(
                                "{way:?} rw_{} {}: at {c:?} the image holds fields {got:x?}, want {want:x?}",
                                ty.tag(),
                                f.name()
                            )
                        });
                    }
                }
            }
        }
    }
    bad.finish();
}

// ---------------------------------------------------------------------------
// 6. clSetKernelArg and argument info

const ARGS_SOURCE: &str = r#"
kernel void args(read_only image2d_t a, write_only image2d_t b, read_write image3d_t c,
                 read_only image2d_depth_t d, sampler_t s, read_only image1d_buffer_t e,
                 global int *p, write_only image2d_array_depth_t f, image1d_array_t g) {
    p[0] = get_image_width(a);
    p[1] = get_image_width(b);
    p[2] = get_image_width(c);
    p[3] = get_image_width(d);
    p[4] = get_image_width(e);
    p[5] = get_image_width(f);
    p[6] = get_image_width(g);
    p[7] = (int)(read_imagef(a, s, (float2)(0.5f, 0.5f)).x * 255.0f);
}
"#;

/// clSetKernelArg with `size` bytes: the first of `value`, or NULL.
fn raw_arg(k: cl_kernel, i: cl_uint, size: usize, value: Option<&[u8]>) -> cl_int {
    assert!(value.is_none_or(|v| v.len() >= size));
    let p = value.map_or(ptr::null(), |v| v.as_ptr().cast());
    // SAFETY: `p` is NULL or readable for `size` bytes.
    unsafe { clSetKernelArg(k, i, size, p) }
}

/// `clGetKernelArgInfo` as raw bytes (or the error).
fn arg_info(k: cl_kernel, i: cl_uint, param: cl_kernel_arg_info) -> Result<Vec<u8>, cl_int> {
    // SAFETY: forwards the buffer protocol of `info_bytes`.
    info_bytes(|s, v, r| unsafe { clGetKernelArgInfo(k, i, param, s, v, r) })
}

#[test]
fn argument_errors() {
    let env = Env::new();
    let other = Env::new();
    let f2 = fmt(CL_RGBA, CL_UNORM_INT8);
    let depth = fmt(CL_DEPTH, CL_FLOAT);
    let img = |env: &Env, flags, f: Fmt, ty: Ty, w: usize| {
        let base = ty.shape().ext;
        env.image(flags, f, Shape::new(ty, [w, base[1], base[2]]), env.layout(f), None)
    };
    let ro2 = img(&env, CL_MEM_READ_ONLY, f2, Ty::D2, 11);
    let wo2 = img(&env, CL_MEM_WRITE_ONLY, f2, Ty::D2, 12);
    let rw3 = img(&env, CL_MEM_READ_WRITE, f2, Ty::D3, 13);
    let d2 = img(&env, CL_MEM_READ_ONLY, depth, Ty::D2, 14);
    let e1 = img(&env, CL_MEM_READ_ONLY, f2, Ty::Buf, 15);
    let d2a = img(&env, CL_MEM_WRITE_ONLY, depth, Ty::D2Arr, 16);
    let a1 = img(&env, CL_MEM_READ_WRITE, f2, Ty::D1Arr, 17);
    let plain1 = img(&env, CL_MEM_READ_ONLY, f2, Ty::D1, 5);
    let plain2a = img(&env, CL_MEM_WRITE_ONLY, f2, Ty::D2Arr, 5);
    let depth_wo = img(&env, CL_MEM_WRITE_ONLY, depth, Ty::D2, 5);
    let foreign = img(&other, CL_MEM_READ_ONLY, f2, Ty::D2, 5);
    let buf = env.buffer(&[0u8; 64]);
    let smp = env.sampler(
        Smp {
            norm: false,
            addr: Addr::Clamp,
            linear: false,
        },
        true,
    );
    let (null_mem, null_smp): (cl_mem, cl_sampler) = (ptr::null_mut(), ptr::null_mut());
    let names = [
        "image2d_t",
        "image2d_t",
        "image3d_t",
        "image2d_depth_t",
        "sampler_t",
        "image1d_buffer_t",
        "int*",
        "image2d_array_depth_t",
        "image1d_array_t",
    ];
    let access = [
        CL_KERNEL_ARG_ACCESS_READ_ONLY,
        CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        CL_KERNEL_ARG_ACCESS_READ_WRITE,
        CL_KERNEL_ARG_ACCESS_READ_ONLY,
        CL_KERNEL_ARG_ACCESS_NONE,
        CL_KERNEL_ARG_ACCESS_READ_ONLY,
        CL_KERNEL_ARG_ACCESS_NONE,
        CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
        CL_KERNEL_ARG_ACCESS_READ_ONLY,
    ];
    for way in WAYS {
        let prog = env.program(ARGS_SOURCE, way, "-cl-kernel-arg-info");
        let k = prog.kernel("args");
        let kk = k.0;
        // Handles given by value: (what, argument, handle, the error).
        let e1_buffer = e1._buffer.as_ref().expect("a 1D image buffer's buffer").0;
        let handles: [(&str, cl_uint, cl_mem, cl_int); 17] = [
            ("image2d_t given a 3D image", 0, rw3.mem.0, CL_INVALID_MEM_OBJECT),
            ("image2d_t given a buffer", 0, buf.0, CL_INVALID_MEM_OBJECT),
            ("image2d_t given a 1D image", 0, plain1.mem.0, CL_INVALID_MEM_OBJECT),
            (
                "read_only image2d_t given a WRITE_ONLY image",
                0,
                wo2.mem.0,
                CL_INVALID_ARG_VALUE,
            ),
            (
                "write_only image2d_t given a READ_ONLY image",
                1,
                ro2.mem.0,
                CL_INVALID_ARG_VALUE,
            ),
            ("image2d_t given a pointer to NULL", 0, null_mem, CL_INVALID_MEM_OBJECT),
            (
                "image2d_t given another context's image",
                0,
                foreign.mem.0,
                CL_INVALID_CONTEXT,
            ),
            (
                "image2d_depth_t given an RGBA image",
                3,
                ro2.mem.0,
                CL_INVALID_MEM_OBJECT,
            ),
            (
                "image2d_array_depth_t given an RGBA 2D array",
                7,
                plain2a.mem.0,
                CL_INVALID_MEM_OBJECT,
            ),
            (
                "image2d_array_depth_t given a 2D depth image",
                7,
                depth_wo.mem.0,
                CL_INVALID_MEM_OBJECT,
            ),
            (
                "image1d_buffer_t given a 1D image",
                5,
                plain1.mem.0,
                CL_INVALID_MEM_OBJECT,
            ),
            ("image1d_buffer_t given its buffer", 5, e1_buffer, CL_INVALID_MEM_OBJECT),
            ("image1d_array_t given a 2D image", 8, ro2.mem.0, CL_INVALID_MEM_OBJECT),
            ("sampler_t given an image", 4, ro2.mem.0, CL_INVALID_SAMPLER),
            ("sampler_t given a pointer to NULL", 4, null_smp, CL_INVALID_SAMPLER),
            (
                "sampler_t given a forged handle",
                4,
                forged_handle() as cl_sampler,
                CL_INVALID_SAMPLER,
            ),
            ("sampler_t given a buffer", 4, buf.0, CL_INVALID_SAMPLER),
        ];
        let mut cases: Vec<(&str, cl_int, cl_int)> = handles
            .iter()
            .map(|&(what, i, h, want)| (what, set_arg(kk, i, &h), want))
            .collect();
        // NULL values, and the first 4 bytes of a handle.
        let (mem_bytes, smp_bytes) = ((ro2.mem.0 as usize).to_ne_bytes(), (smp.0 as usize).to_ne_bytes());
        cases.extend([
            (
                "image2d_t given a NULL arg_value",
                raw_arg(kk, 0, size_of::<cl_mem>(), None),
                CL_INVALID_MEM_OBJECT,
            ),
            (
                "image2d_t given a value of the wrong size",
                raw_arg(kk, 0, 4, Some(&mem_bytes)),
                CL_INVALID_ARG_SIZE,
            ),
            (
                "sampler_t given a NULL arg_value",
                raw_arg(kk, 4, size_of::<cl_sampler>(), None),
                CL_INVALID_SAMPLER,
            ),
            (
                "sampler_t given a value of the wrong size",
                raw_arg(kk, 4, 4, Some(&smp_bytes)),
                CL_INVALID_ARG_SIZE,
            ),
        ]);
        for (what, rc, want) in cases {
            assert_eq!(
                rc,
                want,
                "{way:?}: {what}: got {}, want {}",
                error_name(rc),
                error_name(want)
            );
        }
        // The right objects are accepted and reach the kernel.
        let out = env.buffer(&[0xFFu8; 32]);
        env.launch(
            &k,
            &[
                A::I(&ro2),
                A::I(&wo2),
                A::I(&rw3),
                A::I(&d2),
                A::S(&smp),
                A::I(&e1),
                A::M(&out),
                A::I(&d2a),
                A::I(&a1),
            ],
            1,
        );
        let got: Vec<i32> = env.read_words(&out, 8).into_iter().map(|w| w as i32).collect();
        assert_eq!(
            &got[..7],
            &[11, 12, 13, 14, 15, 16, 17],
            "{way:?}: image widths seen by the kernel"
        );
        // The image was made from 0xA5 bytes: texel (0, 0) reads 0xA5 / 255.
        assert_eq!(got[7], 0xA5, "{way:?}: the sampled texel");
        // Argument info: with -cl-kernel-arg-info from source; a program
        // from IL may have none (the API spec makes it available for
        // programs from source), but what it gives must be right.
        for (i, (name, acc)) in names.iter().zip(access).enumerate() {
            let i = i as cl_uint;
            let q = arg_info(kk, i, CL_KERNEL_ARG_ACCESS_QUALIFIER);
            let t = arg_info(kk, i, CL_KERNEL_ARG_TYPE_NAME);
            if way == Way::Spirv
                && (q == Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) || t == Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE))
            {
                continue;
            }
            let q = q.unwrap_or_else(|e| panic!("{way:?}: argument {i}'s access qualifier: {}", error_name(e)));
            let q =
                cl_kernel_arg_access_qualifier::from_ne_bytes(q.try_into().expect("a cl_kernel_arg_access_qualifier"));
            assert_eq!(
                q, acc,
                "{way:?}: CL_KERNEL_ARG_ACCESS_QUALIFIER of argument {i} ({name})"
            );
            let t = t.unwrap_or_else(|e| panic!("{way:?}: argument {i}'s type name: {}", error_name(e)));
            let t = CString::from_vec_with_nul(t).expect("a NUL-terminated type name");
            assert_eq!(
                t.to_str().unwrap(),
                *name,
                "{way:?}: CL_KERNEL_ARG_TYPE_NAME of argument {i}"
            );
        }
    }
}
