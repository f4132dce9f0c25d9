//! Image throughput of a kernel over a [`W`] x [`W`] RGBA `UNORM_INT8` and
//! RGBA `FLOAT` image: a sampler-less copy (`write_imagef(dst, p,
//! read_imagef(src, p))`), a 3 x 3 box blur through a nearest,
//! clamp-to-edge sampler, and a zoom through a linear, normalized,
//! repeating one, the samplers literal and (`_arg`) passed as arguments,
//! each with a clFinish. Criterion reports pixels written per second.

use std::ptr;

use clift_conformance::images::sampler;
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
        write_imagef(dst, p, read_imagef(src, linear, c)); }\n\
    kernel void blur_arg(read_only image2d_t src, write_only image2d_t dst, sampler_t smp) {\n\
        int2 p = (int2)(get_global_id(0), get_global_id(1)); float4 s = 0;\n\
        for (int dy = -1; dy <= 1; dy++) for (int dx = -1; dx <= 1; dx++) s += read_imagef(src, smp, p + (int2)(dx, dy));\n\
        write_imagef(dst, p, s / 9.0f); }\n\
    kernel void zoom_arg(read_only image2d_t src, write_only image2d_t dst, sampler_t smp) {\n\
        int2 p = (int2)(get_global_id(0), get_global_id(1));\n\
        float2 c = ((float2)(p.x, p.y) + 0.5f) / (float2)(get_image_width(dst), get_image_height(dst)) * 1.7f;\n\
        write_imagef(dst, p, read_imagef(src, smp, c)); }\n";

/// A `W` x `W` RGBA image of channel type `data_type` created with
/// `flags` (and `data`, if any, copied in).
fn image(ctx: cl_context, data_type: cl_channel_type, flags: cl_mem_flags, data: Option<&mut [u8]>) -> cl_mem {
    let format = cl_image_format {
        image_channel_order: CL_RGBA,
        image_channel_data_type: data_type,
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
    // holds W * W texels the call copies.
    let m = unsafe { clCreateImage(ctx, flags, &format, &desc, host, &mut err) };
    check(err);
    m
}

fn images(c: &mut Criterion) {
    let ctx = context();
    let q = queue(ctx, 0);
    let p = source_program(ctx, SOURCE);
    check(build(p, ""));
    let nearest = sampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
    let linear = sampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR);
    let mut group = c.benchmark_group("images");
    group.throughput(Throughput::Elements((W * W) as u64));
    group.sample_size(10);
    let global = [W, W];
    for (format, data_type, bytes) in [("rgba8", CL_UNORM_INT8, 4), ("rgbaf", CL_FLOAT, 16)] {
        let mut pixels: Vec<u8> = (0..W * W * bytes).map(|i| (i * 7 % 251) as u8 >> 1).collect();
        let src = image(
            ctx,
            data_type,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            Some(&mut pixels),
        );
        let dst = image(ctx, data_type, CL_MEM_WRITE_ONLY, None);
        let kernels = [
            ("copy", None),
            ("blur", None),
            ("zoom", None),
            ("blur_arg", Some(nearest)),
            ("zoom_arg", Some(linear)),
        ];
        for (name, smp) in kernels {
            let k = kernel(p, name);
            check(set_arg(k, 0, &src));
            check(set_arg(k, 1, &dst));
            if let Some(smp) = smp {
                check(set_arg(k, 2, &smp));
            }
            group.bench_function(format!("{format}/{name}"), |bch| {
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
        release_mem(src);
        release_mem(dst);
    }
    group.finish();
    // SAFETY: valid handles, released once.
    unsafe {
        check(clReleaseSampler(nearest));
        check(clReleaseSampler(linear));
        check(clReleaseProgram(p));
        check(clReleaseCommandQueue(q));
        check(clReleaseContext(ctx));
    }
}

criterion_group!(benches, images);
criterion_main!(benches);
