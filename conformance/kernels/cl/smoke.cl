// The harness's own check: one kernel reading and writing buffers, a value
// argument and the global id.
kernel void add_one(global const int *in, global int *out, int k)
{
    size_t i = get_global_id(0);
    out[i] = in[i] + k;
}
