// Every image type, access qualifier and image function form clang-15 and
// llvm-spirv-15 emit, for the front end's image tests.
const sampler_t lit = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void images(read_only image2d_t src, write_only image2d_t dst, sampler_t s, global int4 *q,
                   read_write image3d_t rw, read_only image1d_buffer_t b, read_only image2d_array_t arr,
                   read_only image2d_depth_t d, read_only image1d_t one, read_only image1d_array_t ones,
                   write_only image2d_array_depth_t darr) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, s, p) + read_imagef(src, lit, (float2)(0.5f, 0.25f)) + read_imagef(src, p);
    v += read_imagef(arr, s, (float4)(1.0f, 2.0f, 3.0f, 0.0f));
    v.x += read_imagef(d, s, p) + read_imagef(one, s, 0.5f).x + read_imagef(ones, s, (float2)(0.5f, 1.0f)).y;
    uint4 u = read_imageui(b, 3);
    write_imagef(dst, p, v + convert_float4(u));
    int4 w = read_imagei(rw, (int4)(p, 1, 0));
    write_imagei(rw, (int4)(p, 2, 0), w);
    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
    q[0] = (int4)(get_image_width(src), get_image_height(src), get_image_channel_order(src), get_image_channel_data_type(src));
    q[1] = (int4)(get_image_dim(src), get_image_array_size(arr), get_image_depth(rw));
    q[2] = (int4)(get_image_width(b), get_image_width(one), get_image_array_size(ones), get_image_array_size(darr));
    write_imagef(darr, (int4)(p, 1, 0), v.x);
    half4 h = read_imageh(src, s, p);
    write_imageh(dst, p, h);
}
