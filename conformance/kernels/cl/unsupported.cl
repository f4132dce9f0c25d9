// A kernel that builds but that code generation cannot run yet
// (tests/ndrange.rs): printf is refused by name until the built-ins issue
// implements it.
kernel void with_printf(global float *out)
{
    size_t i = get_global_id(0);
    printf("item %d\n", (int)i);
    out[i] = 1.0f;
}
