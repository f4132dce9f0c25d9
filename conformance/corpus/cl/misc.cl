// Edge cases of kernel shape: an empty kernel, a kernel without arguments, a
// kernel with only a __local argument, a kernel with only by-value
// arguments, bool and char semantics (bool in memory as uchar, char
// signedness, sign extension of narrow arguments), the comma operator,
// sizeof on OpenCL types, a kernel whose only effect is in a helper.

kernel void empty(void) {}

kernel void no_args_writes_nothing(void) {
    int x = (int)get_global_id(0);
    x *= 2;
    (void)x;
}

kernel void only_local(local int *scratch) {
    scratch[get_local_id(0)] = (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
}

kernel void only_values(int a, float b, uchar c) {
    float unused = (float)a * b + (float)c;
    (void)unused;
}

kernel void bools_and_chars(global uchar *flags, global const char *c, global int *out, char sc, uchar uc) {
    size_t i = get_global_id(0);
    bool b = flags[i] != 0;
    bool nb = !b;
    flags[i] = (uchar)(b ^ nb) + (uchar)(b && c[i] < 0);
    int widened = c[i];           // sign extension
    int uwidened = (uchar)c[i];   // zero extension
    out[i] = widened + uwidened + sc + uc + (sc < 0) + (char)(uc + 128);
}

kernel void comma_sizeof(global ulong *out) {
    size_t i = get_global_id(0);
    int a, b;
    a = (b = 3, b + 1);
    out[i] = a + sizeof(char) + sizeof(short3) + sizeof(int3) + sizeof(float3) + sizeof(long16) +
             sizeof(uchar3) + __alignof__(float3) + __alignof__(long8);
}

__attribute__((noinline)) void effect(global int *p) { p[get_global_id(0)] = 1; }

kernel void via_helper(global int *p) { effect(p); }
