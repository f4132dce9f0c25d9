// regen.sh flags: -Xclang -cl-ext=-cl_khr_fp64
// printf (tests/exec_printf.rs). Compiled without cl_khr_fp64, as for a
// device without double: clang then passes float arguments as float
// instead of promoting them to double (which would need Float64).

constant char greeting[] = "constant array";

// v = {42, -5, 255, 0, 0x1ff, 0x18000, 7, 'A'}; l = {LONG_MIN, -1, 123}
kernel void integers(global const int *v, global const long *l, global int *ret)
{
    ret[0] = printf("[%d|%i|%5d|%-5d|%05d|%+d|% d|%.3d|%08.3d|%.0d]\n", v[0], v[1], v[0], v[0], v[1], v[0], v[0],
                    v[6], v[6], v[3]);
    ret[1] = printf("[%u|%o|%#o|%x|%X|%#x|%#010x|%-#8X|%#x]\n", v[1], v[6] + 1, v[6] + 1, v[2], v[2], v[2], v[2],
                    v[2], v[3]);
    ret[2] = printf("[%hhd|%hhu|%hd|%hx|%c|%3c|%-3c]\n", v[4], v[4], v[5], v[5], v[7], v[7], 'z');
    ret[3] = printf("[%ld|%lu|%lx|%+ld|%22ld|%lo]\n", l[0], l[1], l[1], l[2], l[0], l[2]);
}

#include "printf_floats.h"
PRINTF_FLOATS(floats)

// v = {-1, 0, 1, 127, 128, 255, 256, 32767, -32768, 65535, 0x7fffffff,
//      INT_MIN, 10, 11, 12, 13}; f as for floats.
kernel void vectors(global const int *v, global const float *f, global int *ret)
{
    int16 i = vload16(0, v);
    float16 x = vload16(0, f);
    ret[0] = printf("c2=%v2hhd uc4=%#v4hhx s3=%v3hd us8=%v8hu\n", convert_char2(i.s03), convert_uchar4(i.s4567),
                    convert_short3(i.s789), convert_ushort8(i.s01234567));
    ret[1] = printf("i4=%v4hld u16=%v16hlx\n", i.s89ab, as_uint16(i));
    ret[2] = printf("l2=%v2ld ul3=%v3lu o2=%#v2lo\n", convert_long2(i.sab) * 4, convert_ulong3(i.s012),
                    convert_long2(i.scd));
    ret[3] = printf("f2=%.2v2hlf f4=%2.2v4hlf f8=%v8hlg\n", x.s01, (float4)(1.0f, 2.0f, 3.0f, 4.0f), x.s01234567);
    ret[4] = printf("f16=%.1v16hle f3=%v3hla\n", x, x.s8cf);
}

kernel void strings(global int *ret)
{
    ret[0] = printf("%s|%10s|%-10s|%.3s|\n", "literal", "right", "left", "truncated");
    ret[1] = printf("%s and %s\n", greeting, "a \"quoted\" %d");
    ret[2] = printf("100%% %c%%\n", 'x');
    ret[3] = printf("%5.2s|%p\n", greeting, (void *)0);
}

// v = {7, 8}
kernel void returns(global const int *v, global int *ret)
{
    ret[0] = printf("ok %d\n", v[0]);
    ret[1] = printf("missing %d %d\n", v[0]);
    ret[2] = printf("wrong %ld\n", v[0]);
    ret[3] = printf("vector %v4hld\n", (int2)(v[0], v[1]));
    ret[4] = printf("bad %q\n", v[0]);
    ret[5] = printf("no arguments\n");
    ret[6] = printf("extra %d\n", v[0], v[1]);
}

// One line per work-item, many work-groups over the device's threads.
kernel void lines(global int *ret)
{
    size_t g = get_global_id(0);
    int4 v = (int4)((int)g, (int)g * 2, (int)g * 3, (int)g * 4);
    ret[g] = printf("work-item %5d of group %4d: %v4hld %s %#x\n", (int)g, (int)get_group_id(0), v, "end", (uint)g);
}

// printf after barriers, in a kernel whose work-items run in phases.
kernel void after_barrier(global int *ret)
{
    local int count;
    if (get_local_id(0) == 0)
        count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    ret[get_global_id(0)] = printf("item %d of %d saw %d\n", (int)get_global_id(0), (int)get_global_size(0), count);
}
