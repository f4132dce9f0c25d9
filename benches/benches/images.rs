//! Image throughput of a kernel over a [`W`] x [`W`] RGBA `UNORM_INT8`
//! image: a sampler-less copy (`write_imagef(dst, p, read_imagef(src,
//! p))`), a 3 x 3 box blur through a nearest, clamp-to-edge sampler, and a
//! zoom through a linear, normalized, repeating one, each with a clFinish.
//! Criterion reports pixels written per second.

use std::ptr;

use clift_conformance::programs::source_program;
use clift_conformance::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

const W: usize = 1024;

const SOURCE: &str = "const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n\
    const sampler_t linear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n\
    kernel void copy(read_only image2d_t src, write_only image2d_t dst) {\n\
        int2 p = (int2)(get_global_id(0), get_global_id(1));\n\
        write_imagef(dst, p, read_imagef(src, p)); }\n\
    kernel void blur(read_only image2d_t src, write_only image2d_t dst) {\n\
        int2 p = (int2)(get_global_id(0), get_global_id(1)); float4 s = 0;\n\
        for (int dy = -1; dy <= 1; dy++) for (int dx = -1; dx <= 1; dx++) s += read_imagef(src, nearest, p + (int2)(dx, dy));\n\
        write_imagef(dst, p, s / 9.0f); }\n\
    kernel void zoom(read_only image2d_t src, write_only image2d_t dst) {\n\
        int2 p = (int2)(get_global_id(0), get_global_id(1));\n\
        float2 c = ((float2)(p.x, p.y) + 0.5f) / (float2)(get_image_width(dst), get_image_height(dst)) * 1.7f;\n\
        write_imagef(dst, p, read_imagef(src, linear, c)); }\n";

/// A `W` x `W` RGBA UNORM_INT8 image created with `flags` (and `data`, if
/// any, copied in).
fn image(ctx: cl_context, flags: cl_mem_flags, data: Option<&mut [u8]>) -> cl_mem {
    let format = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: CL_UNORM_INT8,
    };
    // SAFETY: a zeroed cl_image_desc is a valid start (no buffer, no
    // pitches); the fields set make it a W x W 2D image.
    let mut desc: cl_image_desc = unsafe { std::mem::zeroed() };
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = W;
    desc.image_height = W;
    let host = data.map_or(ptr::null_mut(), |d| d.as_mut_ptr().cast());
    let mut err = 0;
    // SAFETY: valid context, format and descriptor; `host` is NULL or
    // W * W * 4 bytes the call copies.
    let m = unsafe { clCreateImage(ctx, flags, &format, &desc, host, &mut err) };
    check(err);
    m
}

fn images(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let p = source_program(ctx, SOURCE);
    check(build(p, ""));
    let mut pixels: Vec<u8> = (0..W * W * 4).map(|i| (i * 7 % 251) as u8).collect();
    let src = image(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Some(&mut pixels));
    let dst = image(ctx, CL_MEM_WRITE_ONLY, None);
    let mut group = c.benchmark_group("images");
    group.throughput(Throughput::Elements((W * W) as u64));
    group.sample_size(10);
    let global = [W, W];
    for name in ["copy", "blur", "zoom"] {
        let k = kernel(p, name);
        check(set_arg(k, 0, &src));
        check(set_arg(k, 1, &dst));
        group.bench_function(name, |bch| {
            bch.iter(|| {
                // SAFETY: valid handles; two dimensions of W work-items.
                check(unsafe {
                    clEnqueueNDRangeKernel(
                        q,
                        k,
                        2,
                        ptr::null(),
                        global.as_ptr(),
                        ptr::null(),
                        0,
                        ptr::null(),
                        ptr::null_mut(),
                    )
                });
                // SAFETY: a valid queue.
                check(unsafe { clFinish(q) });
            })
        });
        // SAFETY: a kernel created above.
        unsafe { check(clReleaseKernel(k)) };
    }
    group.finish();
    release_mem(src);
    release_mem(dst);
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, images);
criterion_main!(benches);
