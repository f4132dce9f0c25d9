// OpenCL 2.0 program-scope __global variables: scalars, arrays, structs, with
// and without initialisers, a pointer variable pointing at another program
// variable, and function-scope static __global variables; they persist between
// kernel launches and are shared between the kernels of the program.

global int counter = 0;
global float accum[32];
global int table[4] = {10, 20, 30, 40};
global struct {
    int hits;
    float last;
} record = {0, 0.0f};
global int *global table_ptr = &table[1];
global uint2 pair = (uint2)(1, 2);

kernel void store_globals(global const float *in) {
    size_t i = get_global_id(0);
    accum[i & 31] = in[i];
    if (i == 0) {
        counter = counter + 1;
        record.hits++;
        record.last = in[0];
        table_ptr = &table[(counter & 3)];
        pair = pair.yx;
    }
}

kernel void load_globals(global float *out, global int *iout) {
    size_t i = get_global_id(0);
    out[i] = accum[i & 31] + record.last;
    iout[i] = counter + table[i & 3] + *table_ptr + record.hits + (int)pair.x;
}

kernel void static_in_function(global int *out) {
    static global int calls = 0; // a program-scope variable with function scope
    size_t i = get_global_id(0);
    if (i == 0)
        calls += 1;
    out[i] = calls;
}
