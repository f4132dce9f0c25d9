//! The inline image code (JIT code reading and writing the common formats
//! itself, in scalar and 4-lane bodies) against the plain path it stands
//! for (the pixel library's helpers, one call per work-item), bit for bit
//! on the same inputs.
//!
//! A child process runs every access on every image type, for the formats
//! with inline code and one format of each kind without (whose accesses
//! take the helpers either way), and writes what each kernel produced.
//! The child runs four times: as is (inline code, 4-lane bodies), with
//! `CLIFT_NO_SIMD` (inline code, scalar bodies), with
//! `CLIFT_NO_FAST_IMAGES` (descriptors without a fast class: every access
//! calls the helpers) and with both. All four must agree on every byte.
//!
//! The inputs aim at the edges of each formula: coordinates outside the
//! image (each axis, negative, huge, `INT_MIN`/`INT_MAX`), float
//! coordinates that are NaN, infinite, signed zeros, half-texel steps and
//! huge; texel bytes that are NaNs (signaling ones included), denormals and
//! infinities for FLOAT; written values that are NaN, infinite, out of
//! range, on rounding ties, and integers beyond every channel's range;
//! writes outside the image (which write nothing). Rows padded beyond the
//! texels (an image on a host pointer with a row pitch) check the pitches.

#![allow(non_upper_case_globals)] // cl.h spells CL_sRGBA, ...

use std::ffi::c_void;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::ptr;

use clift_conformance::child::{in_child, run};
use clift_conformance::images::{sampler, Ty, TYPES};
use clift_conformance::programs::source_program;
use clift_conformance::rng::Rng;
use clift_conformance::*;

/// Where the child writes its results.
const OUT: &str = "CLIFT_TEST_IMAGE_OUT";

/// Work-items of each kernel run (a multiple of 4 with a partial chunk's
/// worth left over once the local size splits it: 4-lane and scalar
/// bodies both run).
const ITEMS: usize = 70;

/// The read and write functions a format takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    F,
    I,
    Ui,
    /// A depth image (read_imagef and write_imagef of one float).
    Depth,
}

/// Formats tested for each kind: those with inline code, then one
/// without.
fn formats(kind: Kind) -> &'static [(cl_channel_order, cl_channel_type, usize)] {
    match kind {
        Kind::F => &[
            (CL_RGBA, CL_UNORM_INT8, 4),
            (CL_BGRA, CL_UNORM_INT8, 4),
            (CL_RGBA, CL_FLOAT, 16),
            (CL_R, CL_FLOAT, 4),
            (CL_RGBA, CL_UNORM_INT16, 8),
        ],
        Kind::I => &[
            (CL_RGBA, CL_SIGNED_INT8, 4),
            (CL_RGBA, CL_SIGNED_INT32, 16),
            (CL_R, CL_SIGNED_INT32, 4),
            (CL_RGBA, CL_SIGNED_INT16, 8),
        ],
        Kind::Ui => &[
            (CL_RGBA, CL_UNSIGNED_INT8, 4),
            (CL_RGBA, CL_UNSIGNED_INT32, 16),
            (CL_R, CL_UNSIGNED_INT32, 4),
            (CL_RGBA, CL_UNSIGNED_INT16, 8),
        ],
        Kind::Depth => &[(CL_DEPTH, CL_FLOAT, 4), (CL_DEPTH, CL_UNORM_INT16, 2)],
    }
}

/// Width, height, depth (or layers): odd, so no chunk lines up with a row.
const EXT: [usize; 3] = [13, 7, 5];

/// Texels along each axis of an image of `ty`.
fn ext(ty: Ty) -> [usize; 3] {
    match ty {
        Ty::D1 | Ty::Buf => [EXT[0], 1, 1],
        Ty::D1Arr => [EXT[0], EXT[2], 1],
        Ty::D2 => [EXT[0], EXT[1], 1],
        Ty::D2Arr | Ty::D3 => EXT,
    }
}

/// The program for images of `ty` read and written with `kind`'s
/// functions: a kernel per access, coordinates and values from buffers.
fn source(ty: Ty, kind: Kind) -> String {
    let depth = kind == Kind::Depth;
    let img = ty.cl(depth);
    // Coordinates, results and values are stored axis by axis and
    // component by component (`c[a * N + i]`), so that every load and
    // store is one a 4-lane body makes as a vector: the kernels get 4-lane
    // bodies.
    let (ic, fc) = match ty {
        Ty::D1 | Ty::Buf => ("c[i]", "f[i]"),
        Ty::D1Arr | Ty::D2 => ("(int2)(c[i], c[N + i])", "(float2)(f[i], f[N + i])"),
        Ty::D2Arr | Ty::D3 => (
            "(int4)(c[i], c[N + i], c[2 * N + i], 0)",
            "(float4)(f[i], f[N + i], f[2 * N + i], 0.0f)",
        ),
    };
    let (rt, st, rd, wr) = match kind {
        Kind::F => ("float4", "float", "read_imagef", "write_imagef"),
        Kind::Depth => ("float", "float", "read_imagef", "write_imagef"),
        Kind::I => ("int4", "int", "read_imagei", "write_imagei"),
        Kind::Ui => ("uint4", "uint", "read_imageui", "write_imageui"),
    };
    let (put, get) = if kind == Kind::Depth {
        ("out[i] = r;", "v[i]")
    } else {
        (
            "out[i] = r.x; out[N + i] = r.y; out[2 * N + i] = r.z; out[3 * N + i] = r.w;",
            match kind {
                Kind::F => "(float4)(v[i], v[N + i], v[2 * N + i], v[3 * N + i])",
                Kind::I => "(int4)(v[i], v[N + i], v[2 * N + i], v[3 * N + i])",
                _ => "(uint4)(v[i], v[N + i], v[2 * N + i], v[3 * N + i])",
            },
        )
    };
    let mut s = String::from(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         #pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n",
    );
    let _ = writeln!(
        s,
        "#define N {ITEMS}\n#define IC {ic}\n#define FC {fc}\n#define PUT {put}"
    );
    let _ = writeln!(
        s,
        "kernel void rd(read_only {img} im, global const int *c, global {st} *out) {{\n\
         \x20   int i = get_global_id(0); {rt} r = {rd}(im, IC); PUT }}\n\
         kernel void wr(write_only {img} im, global const int *c, global const {st} *v) {{\n\
         \x20   int i = get_global_id(0); {wr}(im, IC, {get}); }}"
    );
    // Rows: x is the work-item's id plus x0, the other coordinates the
    // same for every work-item (four neighbouring texels a chunk).
    let row = match ty {
        Ty::D1 | Ty::Buf => "x0 + i",
        Ty::D1Arr | Ty::D2 => "(int2)(x0 + i, y)",
        Ty::D2Arr | Ty::D3 => "(int4)(x0 + i, y, z, 0)",
    };
    let _ = writeln!(
        s,
        "kernel void rd_row(read_only {img} im, int x0, int y, int z, global {st} *out) {{\n\
         \x20   int i = get_global_id(0); {rt} r = {rd}(im, {row}); PUT }}\n\
         kernel void wr_row(write_only {img} im, int x0, int y, int z, global const {st} *v) {{\n\
         \x20   int i = get_global_id(0); {wr}(im, {row}, {get}); }}"
    );
    // A read_write image: a texel read, written, fenced and read again
    // (the second read must see the write, not the first read's value);
    // the first `count` work-items, each at a texel of its own.
    if kind != Kind::Depth {
        let _ = writeln!(
            s,
            "kernel void rw(read_write {img} im, global const int *c, global const {st} *v, global {st} *out, int count) {{\n\
             \x20   int i = get_global_id(0); if (i >= count) return; {rt} r0 = {rd}(im, IC); {wr}(im, IC, {get});\n\
             \x20   atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);\n\
             \x20   {rt} r = {rd}(im, IC) + r0; PUT }}"
        );
    }
    if kind == Kind::F {
        let _ = writeln!(
            s,
            "kernel void rd_h(read_only {img} im, global const int *c, global half *out) {{\n\
             \x20   int i = get_global_id(0); vstore_half4(convert_float4(read_imageh(im, IC)), i, out); }}\n\
             kernel void wr_h(write_only {img} im, global const int *c, global const float *v) {{\n\
             \x20   int i = get_global_id(0); write_imageh(im, IC, convert_half4({get})); }}"
        );
    }
    if ty == Ty::Buf {
        return s;
    }
    // Samplers passed as arguments (known only at run time).
    let _ = writeln!(
        s,
        "kernel void ra(read_only {img} im, sampler_t smp, global const float *f, global {st} *out) {{\n\
         \x20   int i = get_global_id(0); {rt} r = {rd}(im, smp, FC); PUT }}\n\
         kernel void rai(read_only {img} im, sampler_t smp, global const int *c, global {st} *out) {{\n\
         \x20   int i = get_global_id(0); {rt} r = {rd}(im, smp, IC); PUT }}"
    );
    // Literal samplers: inline code takes every one with float
    // coordinates, and NONE, CLAMP_TO_EDGE and CLAMP with integer
    // coordinates; the repeating modes with integer coordinates go to the
    // helper in every mode, and are here to show the dispatch picks it.
    let samplers = [
        (
            "edge",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST",
        ),
        (
            "none",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST",
        ),
        (
            "nedge",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST",
        ),
        (
            "nnone",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST",
        ),
        (
            "clamp",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST",
        ),
        (
            "nrepeat",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST",
        ),
        (
            "nmirror",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST",
        ),
        (
            "ledge",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR",
        ),
        (
            "nlrepeat",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR",
        ),
        (
            "nlmirror",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR",
        ),
        (
            "nlnone",
            "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_LINEAR",
        ),
        (
            "lclamp",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR",
        ),
        // Unnormalized coordinates with the repeating modes: undefined in
        // OpenCL C, defined by clift (see clift_builtins::image::sample).
        (
            "repeat",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST",
        ),
        (
            "lmirror",
            "CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR",
        ),
    ];
    for (name, bits) in samplers {
        let _ = writeln!(
            s,
            "kernel void rs_{name}(read_only {img} im, global const float *f, global {st} *out) {{\n\
             \x20   const sampler_t smp = {bits};\n\
             \x20   int i = get_global_id(0); {rt} r = {rd}(im, smp, FC); PUT }}\n\
             kernel void ri_{name}(read_only {img} im, global const int *c, global {st} *out) {{\n\
             \x20   const sampler_t smp = {bits};\n\
             \x20   int i = get_global_id(0); {rt} r = {rd}(im, smp, IC); PUT }}"
        );
    }
    s
}

/// Integer coordinates along an axis of `n` texels: inside, at and past
/// the edges, and extreme.
fn int_coord(rng: &mut Rng, n: usize) -> i32 {
    let n = n as i32;
    match rng.below(12) {
        0 => -1,
        1 => n,
        2 => n + 5,
        3 => -100,
        4 => i32::MIN,
        5 => i32::MAX,
        6 => n - 1,
        _ => rng.below(n as u32) as i32,
    }
}

/// Float coordinates along an axis of `n` texels (normalized ones scaled
/// by `1 / n`): specials, texel edges and centres, and values around the
/// image.
fn float_coord(rng: &mut Rng, n: usize, normalized: bool) -> f32 {
    let scale = if normalized { 1.0 / n as f32 } else { 1.0 };
    match rng.below(16) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => -0.0,
        4 => 0.0,
        5 => 1e30,
        6 => -1e30,
        7 => n as f32 * scale,
        8 => rng.below(2 * n as u32) as f32 * 0.5 * scale,
        _ => (rng.below(4000) as f32 / 1000.0 - 1.0) * n as f32 * scale,
    }
}

/// Texel bytes: random, and for FLOAT channels some specials (NaNs,
/// signaling ones too, infinities, denormals, signed zeros).
fn texel_bytes(rng: &mut Rng, texels: usize, size: usize, float: bool) -> Vec<u8> {
    let mut b = Vec::with_capacity(texels * size);
    for _ in 0..texels * size / 4 {
        let w: u32 = if float {
            match rng.below(10) {
                0 => 0x7fc0_0001,
                1 => 0x7f80_0123,
                2 => 0xff80_0000,
                3 => 0x0000_0f00,
                4 => 0x8000_0000,
                _ => (rng.below(2000) as f32 / 1000.0 - 0.5).to_bits() ^ rng.below(2) << 31,
            }
        } else {
            rng.next()
        };
        b.extend_from_slice(&w.to_ne_bytes());
    }
    b.resize(texels * size, 0x5a);
    for x in b.iter_mut().skip(texels * size / 4 * 4) {
        *x = rng.next() as u8;
    }
    b
}

/// Values written: for floats, specials, values just off the channel
/// range, rounding ties of 8-bit UNORM and random ones; for integers,
/// every range's edges and beyond.
fn value_word(rng: &mut Rng, float: bool) -> u32 {
    if float {
        let f = match rng.below(14) {
            0 => f32::NAN,
            1 => f32::from_bits(0x7f80_0001),
            2 => f32::INFINITY,
            3 => f32::NEG_INFINITY,
            4 => -0.0,
            5 => 1.0 + f32::EPSILON,
            6 => -1.5,
            7 => 1e-40,
            8 => (rng.below(255) as f32 + 0.5) / 255.0,
            _ => rng.below(3000) as f32 / 1000.0 - 1.0,
        };
        f.to_bits()
    } else {
        let v: i64 = match rng.below(10) {
            0 => i64::from(i32::MIN),
            1 => i64::from(i32::MAX),
            2 => 255,
            3 => 256,
            4 => -128,
            5 => -129,
            6 => 65536,
            _ => i64::from(rng.next() as i32) >> rng.below(28),
        };
        v as i32 as u32
    }
}

/// Values for a write kernel: four components (component by component)
/// for every work-item.
fn values(rng: &mut Rng, float: bool) -> Vec<u8> {
    (0..ITEMS * 4)
        .flat_map(|_| value_word(rng, float).to_ne_bytes())
        .collect()
}

/// A kernel argument.
enum Arg {
    Mem(cl_mem),
    Sampler(cl_sampler),
    Int(i32),
}

/// A context, a queue and what is released at the end.
struct Run {
    ctx: cl_context,
    q: cl_command_queue,
}

impl Run {
    fn buffer(&self, bytes: &[u8]) -> cl_mem {
        let m = buffer(self.ctx, CL_MEM_READ_WRITE, bytes.len().max(4));
        write_bytes(self.q, m, 0, bytes);
        m
    }

    /// An image of `ty` and `format` holding `bytes` (tightly packed
    /// texels), on a host pointer with padded rows when `padded` (`host`
    /// keeps the storage).
    fn image(
        &self,
        ty: Ty,
        fmt: (cl_channel_order, cl_channel_type, usize),
        bytes: &[u8],
        host: &mut Vec<u8>,
    ) -> (cl_mem, Option<cl_mem>) {
        let format = cl_image_format {
            image_channel_order: fmt.0,
            image_channel_data_type: fmt.1,
        };
        let e = ext(ty);
        // SAFETY: a zeroed cl_image_desc is a valid start.
        let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
        desc.image_type = ty.mem_type();
        desc.image_width = e[0];
        match ty {
            Ty::D1Arr => desc.image_array_size = e[1],
            Ty::D2 => desc.image_height = e[1],
            Ty::D2Arr => {
                desc.image_height = e[1];
                desc.image_array_size = e[2];
            }
            Ty::D3 => {
                desc.image_height = e[1];
                desc.image_depth = e[2];
            }
            _ => {}
        }
        let mut err = 0;
        if ty == Ty::Buf {
            let b = self.buffer(bytes);
            desc.buffer = b;
            // SAFETY: valid format and descriptor naming buffer `b`.
            let m = unsafe { clCreateImage(self.ctx, CL_MEM_READ_WRITE, &format, &desc, ptr::null_mut(), &mut err) };
            check(err);
            return (m, Some(b));
        }
        // Rows padded by 3 texels, slices by a row.
        let row = (e[0] + 3) * fmt.2;
        let rows = e[1];
        let slice = row * (rows + 1);
        let layers = if matches!(ty, Ty::D2Arr | Ty::D3) { e[2] } else { 1 };
        host.clear();
        host.resize(slice * layers + row, 0xEE);
        let line = e[0] * fmt.2;
        for z in 0..layers {
            for y in 0..rows {
                let from = (z * rows + y) * line;
                let to = z * slice + y * row;
                host[to..to + line].copy_from_slice(&bytes[from..from + line]);
            }
        }
        desc.image_row_pitch = if ty == Ty::D1 { 0 } else { row };
        if matches!(ty, Ty::D2Arr | Ty::D3) {
            desc.image_slice_pitch = slice;
        } else if ty == Ty::D1Arr {
            // A 1D array's layers are its rows: the slice pitch is the
            // row pitch.
            desc.image_slice_pitch = row;
            desc.image_row_pitch = row;
        }
        // SAFETY: `host` holds the texels at the pitches given and lives
        // until the image is released (the caller's `host`).
        let m = unsafe {
            clCreateImage(
                self.ctx,
                CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                &format,
                &desc,
                host.as_mut_ptr().cast::<c_void>(),
                &mut err,
            )
        };
        check(err);
        (m, None)
    }

    /// The image's texels, tightly packed.
    fn texels(&self, m: cl_mem, ty: Ty, size: usize) -> Vec<u8> {
        let e = ext(ty);
        let region = [e[0], e[1], e[2]];
        let mut out = vec![0u8; e[0] * e[1] * e[2] * size];
        // SAFETY: `out` holds the region's texels, tightly packed.
        check(unsafe {
            clEnqueueReadImage(
                self.q,
                m,
                CL_TRUE,
                [0usize; 3].as_ptr(),
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

    /// Runs kernel `name` of `p` with `args` over `ITEMS` work-items in
    /// groups of `local`.
    fn launch(&self, p: cl_program, name: &str, args: &[Arg], local: usize) {
        let k = kernel(p, name);
        for (i, a) in args.iter().enumerate() {
            let i = i as cl_uint;
            check(match a {
                Arg::Mem(m) => set_arg(k, i, m),
                Arg::Sampler(s) => set_arg(k, i, s),
                Arg::Int(x) => set_arg(k, i, x),
            });
        }
        self.go(k, local);
        // SAFETY: a kernel made above, released once.
        unsafe { check(clReleaseKernel(k)) };
    }

    /// Runs `k` over `ITEMS` work-items in groups of `local`.
    fn go(&self, k: cl_kernel, local: usize) {
        let (g, l) = ([ITEMS], [local]);
        // SAFETY: a valid queue and kernel whose arguments are set.
        check(unsafe {
            clEnqueueNDRangeKernel(
                self.q,
                k,
                1,
                ptr::null(),
                g.as_ptr(),
                l.as_ptr(),
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        });
        // SAFETY: a valid queue.
        check(unsafe { clFinish(self.q) });
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().fold(String::with_capacity(2 * b.len()), |mut s, x| {
        let _ = write!(s, "{x:02x}");
        s
    })
}

/// Every access, each result a line `label: bytes`.
fn battery() -> String {
    let ctx = context();
    let run = Run { ctx, q: queue(ctx, 0) };
    let mut rng = Rng(0x1a6e);
    let mut out = String::new();
    for ty in TYPES {
        for kind in [Kind::F, Kind::I, Kind::Ui, Kind::Depth] {
            if kind == Kind::Depth && !matches!(ty, Ty::D2 | Ty::D2Arr) {
                continue;
            }
            let p = source_program(run.ctx, &source(ty, kind));
            let code = build(p, "-cl-std=CL2.0");
            assert_eq!(code, CL_SUCCESS, "{ty:?} {kind:?}: {}", build_log(p, device()));
            let e = ext(ty);
            let texels = e[0] * e[1] * e[2];
            let comps = if kind == Kind::Depth { 1 } else { 4 };
            let coords: Vec<u8> = (0..ty.axes())
                .flat_map(|a| (0..ITEMS).map(move |_| a))
                .flat_map(|a| int_coord(&mut rng, e[a]).to_ne_bytes())
                .collect();
            let fcoords = |rng: &mut Rng, normalized: bool| -> Vec<u8> {
                (0..ty.axes())
                    .flat_map(|a| (0..ITEMS).map(move |_| a))
                    .flat_map(|a| {
                        // An array's layer is never normalized.
                        let layer = matches!((ty, a), (Ty::D1Arr, 1) | (Ty::D2Arr, 2));
                        float_coord(rng, e[a], normalized && !layer).to_ne_bytes()
                    })
                    .collect()
            };
            // Distinct positions for the writes, a few outside the image.
            let mut positions: Vec<[i32; 4]> = (0..texels)
                .map(|t| {
                    [
                        (t % e[0]) as i32,
                        (t / e[0] % e[1]) as i32,
                        (t / (e[0] * e[1])) as i32,
                        0,
                    ]
                })
                .collect();
            for k in (1..positions.len()).rev() {
                positions.swap(k, rng.below(k as u32 + 1) as usize);
            }
            let mut writes: Vec<[i32; 4]> = positions.into_iter().take(ITEMS).collect();
            let own = writes.len() as i32;
            let own_coords: Vec<u8> = (0..ty.axes())
                .flat_map(|a| (0..ITEMS).map(move |i| (a, i)))
                .flat_map(|(a, i)| writes.get(i).map_or(0, |c| c[a]).to_ne_bytes())
                .collect();
            for (k, w) in writes.iter_mut().enumerate() {
                if k % 9 == 4 {
                    let a = k % ty.axes();
                    w[a] = [-1, e[a] as i32, i32::MIN, i32::MAX][k % 4];
                }
            }
            while writes.len() < ITEMS {
                writes.push([-1, 0, 0, 0]);
            }
            let write_coords: Vec<u8> = (0..ty.axes())
                .flat_map(|a| writes.iter().map(move |c| c[a]))
                .flat_map(i32::to_ne_bytes)
                .collect();
            for &fmt in formats(kind) {
                let float = fmt.1 == CL_FLOAT;
                let data = texel_bytes(&mut rng, texels, fmt.2, float);
                let mut host = Vec::new();
                let (img, buf) = run.image(ty, fmt, &data, &mut host);
                let tag = format!("{ty:?} {kind:?} {:#x}/{:#x}", fmt.0, fmt.1);
                let res = run.buffer(&vec![0u8; ITEMS * 16]);
                let mut reads: Vec<(String, Vec<u8>)> = vec![("rd".into(), coords.clone())];
                if kind == Kind::F {
                    reads.push(("rd_h".into(), coords.clone()));
                }
                if ty != Ty::Buf {
                    for s in ["edge", "none", "clamp", "ledge", "lclamp", "repeat", "lmirror"] {
                        reads.push((format!("ri_{s}"), coords.clone()));
                        reads.push((format!("rs_{s}"), fcoords(&mut rng, false)));
                    }
                    for s in ["nedge", "nnone", "nrepeat", "nmirror", "nlrepeat", "nlmirror", "nlnone"] {
                        reads.push((format!("rs_{s}"), fcoords(&mut rng, true)));
                    }
                }
                if ty != Ty::Buf {
                    for normalized in [CL_FALSE, CL_TRUE] {
                        for mode in [
                            CL_ADDRESS_NONE,
                            CL_ADDRESS_CLAMP_TO_EDGE,
                            CL_ADDRESS_CLAMP,
                            CL_ADDRESS_REPEAT,
                            CL_ADDRESS_MIRRORED_REPEAT,
                        ] {
                            for filter in [CL_FILTER_NEAREST, CL_FILTER_LINEAR] {
                                let smp = sampler(run.ctx, normalized, mode, filter);
                                let ints = normalized == CL_FALSE && filter == CL_FILTER_NEAREST;
                                let names: &[&str] = if ints { &["ra", "rai"] } else { &["ra"] };
                                for &name in names {
                                    let c = if name == "rai" {
                                        coords.clone()
                                    } else {
                                        fcoords(&mut rng, normalized == CL_TRUE)
                                    };
                                    let cb = run.buffer(&c);
                                    let args = [Arg::Mem(img), Arg::Sampler(smp), Arg::Mem(cb), Arg::Mem(res)];
                                    run.launch(p, name, &args, 35);
                                    let _ = writeln!(
                                        out,
                                        "{tag} {name} {normalized} {mode:#x} {filter:#x}: {}",
                                        hex(&read_bytes(run.q, res, 0, ITEMS * 4 * comps))
                                    );
                                    release_mem(cb);
                                }
                                // SAFETY: a sampler made above, released once.
                                unsafe { check(clReleaseSampler(smp)) };
                            }
                        }
                    }
                }
                for (name, c) in &reads {
                    let cb = run.buffer(c);
                    let local = if name.len() % 2 == 0 { 10 } else { 35 };
                    run.launch(p, name, &[Arg::Mem(img), Arg::Mem(cb), Arg::Mem(res)], local);
                    let _ = writeln!(
                        out,
                        "{tag} {name}: {}",
                        hex(&read_bytes(run.q, res, 0, ITEMS * 4 * comps))
                    );
                    release_mem(cb);
                }
                // Rows inside, partly outside and outside the image.
                let (w, h, d) = (e[0] as i32, e[1] as i32, e[2] as i32);
                let rows = [
                    (-3, 1, 1),
                    (0, 0, 0),
                    (5, h - 1, d - 1),
                    (-1, h, 0),
                    (2, -1, d),
                    (w - 2, 0, 0),
                ];
                for (x0, y, z) in rows {
                    let args = [Arg::Mem(img), Arg::Int(x0), Arg::Int(y), Arg::Int(z), Arg::Mem(res)];
                    run.launch(p, "rd_row", &args, 35);
                    let _ = writeln!(
                        out,
                        "{tag} rd_row {x0} {y} {z}: {}",
                        hex(&read_bytes(run.q, res, 0, ITEMS * 4 * comps))
                    );
                }
                for (x0, y, z) in rows {
                    let values = values(&mut rng, matches!(kind, Kind::F | Kind::Depth));
                    let vb = run.buffer(&values);
                    let args = [Arg::Mem(img), Arg::Int(x0), Arg::Int(y), Arg::Int(z), Arg::Mem(vb)];
                    run.launch(p, "wr_row", &args, 10);
                    let _ = writeln!(out, "{tag} wr_row {x0} {y} {z}: {}", hex(&run.texels(img, ty, fmt.2)));
                    release_mem(vb);
                }
                if kind != Kind::Depth {
                    let values = values(&mut rng, kind == Kind::F);
                    let vb = run.buffer(&values);
                    let cb = run.buffer(&own_coords);
                    let args = [Arg::Mem(img), Arg::Mem(cb), Arg::Mem(vb), Arg::Mem(res), Arg::Int(own)];
                    run.launch(p, "rw", &args, 14);
                    let got = read_bytes(run.q, res, 0, ITEMS * 16);
                    let _ = writeln!(out, "{tag} rw: {} {}", hex(&got), hex(&run.texels(img, ty, fmt.2)));
                    release_mem(vb);
                    release_mem(cb);
                }
                let writers: &[&str] = if kind == Kind::F { &["wr", "wr_h"] } else { &["wr"] };
                for name in writers {
                    let values = values(&mut rng, matches!(kind, Kind::F | Kind::Depth));
                    let vb = run.buffer(&values);
                    let cb = run.buffer(&write_coords);
                    run.launch(p, name, &[Arg::Mem(img), Arg::Mem(cb), Arg::Mem(vb)], 14);
                    let _ = writeln!(out, "{tag} {name}: {}", hex(&run.texels(img, ty, fmt.2)));
                    release_mem(vb);
                    release_mem(cb);
                }
                release_mem(res);
                release_mem(img);
                if let Some(b) = buf {
                    release_mem(b);
                }
                drop(host);
            }
            // SAFETY: a program made above, released once.
            unsafe { check(clReleaseProgram(p)) };
        }
    }
    // SAFETY: valid objects, released once.
    unsafe {
        check(clReleaseCommandQueue(run.q));
        check(clReleaseContext(run.ctx));
    }
    out
}

/// The child: runs the battery, writes the results where `OUT` says.
#[test]
fn child_image_accesses() {
    if !in_child() {
        return;
    }
    let path = std::env::var(OUT).expect("the output path");
    std::fs::write(path, battery()).expect("write the results");
}

/// The battery's results in a child with `env` set (the other variable of
/// the two unset).
fn results(tag: &str, env: &[(&str, &str)]) -> Vec<String> {
    let path: PathBuf = std::env::temp_dir().join(format!("clift-image-fast-{tag}-{}", std::process::id()));
    let path_text = path.to_string_lossy().into_owned();
    let mut all = vec![(OUT, path_text.as_str())];
    all.extend_from_slice(env);
    let unset: Vec<&str> = ["CLIFT_NO_SIMD", "CLIFT_NO_FAST_IMAGES"]
        .into_iter()
        .filter(|v| !env.iter().any(|(k, _)| k == v))
        .collect();
    run("child_image_accesses", &all, &unset);
    let text = std::fs::read_to_string(&path).expect("the child's results");
    let _ = std::fs::remove_file(&path);
    text.lines().map(str::to_owned).collect()
}

#[test]
fn inline_image_code_matches_the_helpers_bit_for_bit() {
    let plain = results("plain", &[("CLIFT_NO_FAST_IMAGES", "1"), ("CLIFT_NO_SIMD", "1")]);
    assert!(plain.len() > 400, "the battery ran {} accesses", plain.len());
    for (tag, env) in [
        ("fast", &[][..]),
        ("fast-scalar", &[("CLIFT_NO_SIMD", "1")][..]),
        ("helpers-4-lane", &[("CLIFT_NO_FAST_IMAGES", "1")][..]),
    ] {
        let got = results(tag, env);
        assert_eq!(got.len(), plain.len(), "{tag}: a different battery");
        let differ: Vec<String> = got
            .iter()
            .zip(&plain)
            .filter(|(g, p)| g != p)
            .map(|(g, p)| format!("  {tag}: {g}\n  helpers: {p}"))
            .collect();
        assert!(
            differ.is_empty(),
            "{tag}: {} of {} accesses differ from the helpers':\n{}",
            differ.len(),
            plain.len(),
            differ[..differ.len().min(6)].join("\n")
        );
    }
}
