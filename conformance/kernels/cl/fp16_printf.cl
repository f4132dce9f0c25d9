// printf of half vectors (cl_khr_fp16): %v2hf, %v4hf, %v3ha and %v8hg pass
// half components (scalar halves are promoted to double, as C's variadic
// arguments are). tests/exec_fp16_printf.rs checks the text.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void halves(global const half *a, global int *ret) {
    half4 v = vload4(0, a);
    ret[0] = printf("v2=%v2hf v4=%v4hf\n", v.xy, v);
    ret[1] = printf("v3=%v3ha s=%f\n", v.xyz, a[4]);
    ret[2] = printf("v8=%v8hg\n", (half8)(v, v * 2.0h));
}
