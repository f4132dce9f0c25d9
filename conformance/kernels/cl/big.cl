// Large NDRanges (tests/exec_big.rs): 2^26 work-items writing a byte each,
// and 3D ranges with many work-groups.

kernel void fill(global uchar *out)
{
    size_t g = get_global_id(0);
    out[g] = (uchar)(g * 131 + (g >> 13));
}

// Every work-item of a 3D range writes a value made of its ids.
kernel void ids3d(global uint *out)
{
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = x + get_global_size(0) * (y + get_global_size(1) * z);
    out[i] = (uint)(x * 7 + y * 1000 + z * 100000) ^ (uint)(get_group_id(0) + get_group_id(1) * 3 + get_group_id(2) * 5);
}

// Every work-item counts itself in its group's counter.
kernel void count_groups3d(global uint *counts)
{
    size_t gx = get_group_id(0), gy = get_group_id(1), gz = get_group_id(2);
    atomic_inc(&counts[gx + get_num_groups(0) * (gy + get_num_groups(1) * gz)]);
}
