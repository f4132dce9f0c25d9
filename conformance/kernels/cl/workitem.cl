// Every work-item built-in variable, written per work-item as a record of
// REC uints at the item's position in the range (offset removed, dimension
// 0 fastest), for the host to check (tests/exec_workitem.rs).
#define REC 48

kernel void ids(global uint *out, uint dyn)
{
    size_t idx = (get_global_id(0) - get_global_offset(0))
        + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
        + (get_global_id(2) - get_global_offset(2)) * get_global_size(0) * get_global_size(1);
    global uint *r = out + idx * REC;
    for (uint d = 0; d < 3; d++) {
        // A loop over the dimension: at -O2 unrolled to constant indices,
        // at -O0 a runtime index.
        r[d * 8 + 0] = get_global_id(d);
        r[d * 8 + 1] = get_local_id(d);
        r[d * 8 + 2] = get_group_id(d);
        r[d * 8 + 3] = get_global_size(d);
        r[d * 8 + 4] = get_local_size(d);
        r[d * 8 + 5] = get_enqueued_local_size(d);
        r[d * 8 + 6] = get_num_groups(d);
        r[d * 8 + 7] = get_global_offset(d);
    }
    r[24] = get_work_dim();
    r[25] = get_global_linear_id();
    r[26] = get_local_linear_id();
    // A dimension index only known at run time (possibly out of range:
    // then ids and offsets are 0 and sizes 1).
    r[33] = get_global_id(dyn);
    r[34] = get_local_id(dyn);
    r[35] = get_group_id(dyn);
    r[36] = get_global_size(dyn);
    r[37] = get_local_size(dyn);
    r[38] = get_enqueued_local_size(dyn);
    r[39] = get_num_groups(dyn);
    r[40] = get_global_offset(dyn);
    r[41] = 0x600d;
}

// The same with constant dimension indices written out, as application code
// usually does (clang loads one component of the built-in vector).
kernel void ids_const(global uint *out)
{
    size_t idx = (get_global_id(0) - get_global_offset(0))
        + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
        + (get_global_id(2) - get_global_offset(2)) * get_global_size(0) * get_global_size(1);
    global uint *r = out + idx * REC;
    r[0] = get_global_id(0);   r[8] = get_global_id(1);   r[16] = get_global_id(2);
    r[1] = get_local_id(0);    r[9] = get_local_id(1);    r[17] = get_local_id(2);
    r[2] = get_group_id(0);    r[10] = get_group_id(1);   r[18] = get_group_id(2);
    r[3] = get_global_size(0); r[11] = get_global_size(1); r[19] = get_global_size(2);
    r[4] = get_local_size(0);  r[12] = get_local_size(1);  r[20] = get_local_size(2);
    r[5] = get_enqueued_local_size(0); r[13] = get_enqueued_local_size(1); r[21] = get_enqueued_local_size(2);
    r[6] = get_num_groups(0);  r[14] = get_num_groups(1);  r[22] = get_num_groups(2);
    r[7] = get_global_offset(0); r[15] = get_global_offset(1); r[23] = get_global_offset(2);
    r[24] = get_work_dim();
    r[25] = get_global_linear_id();
    r[26] = get_local_linear_id();
    r[41] = 0x600d;
}

// The sub-group built-ins (cl_khr_subgroups), kept apart so the others
// are tested on their own.
kernel void ids_subgroup(global uint *out)
{
    size_t idx = (get_global_id(0) - get_global_offset(0))
        + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
        + (get_global_id(2) - get_global_offset(2)) * get_global_size(0) * get_global_size(1);
    global uint *r = out + idx * REC;
    r[27] = get_sub_group_size();
    r[28] = get_max_sub_group_size();
    r[29] = get_num_sub_groups();
    r[30] = get_enqueued_num_sub_groups();
    r[31] = get_sub_group_id();
    r[32] = get_sub_group_local_id();
    r[41] = 0x600d;
}

// 64-bit results: size_t values kept whole.
kernel void ids_wide(global ulong *out)
{
    size_t i = get_global_linear_id();
    out[i * 4 + 0] = get_global_id(0);
    out[i * 4 + 1] = get_global_size(0) * get_global_size(1) * get_global_size(2);
    out[i * 4 + 2] = get_global_offset(0);
    out[i * 4 + 3] = get_group_id(0);
}

// The built-ins read inside called functions (real calls at both levels),
// two levels deep, with the record pointer passed down.
__attribute__((noinline)) size_t linear_index(void)
{
    return (get_global_id(0) - get_global_offset(0))
        + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
        + (get_global_id(2) - get_global_offset(2)) * get_global_size(0) * get_global_size(1);
}

__attribute__((noinline)) void write_dim(global uint *r, uint d)
{
    r[d * 8 + 0] = get_global_id(d);
    r[d * 8 + 1] = get_local_id(d);
    r[d * 8 + 2] = get_group_id(d);
    r[d * 8 + 3] = get_global_size(d);
    r[d * 8 + 4] = get_local_size(d);
    r[d * 8 + 5] = get_enqueued_local_size(d);
    r[d * 8 + 6] = get_num_groups(d);
    r[d * 8 + 7] = get_global_offset(d);
}

__attribute__((noinline)) void write_record(global uint *out)
{
    global uint *r = out + linear_index() * REC;
    write_dim(r, 0);
    write_dim(r, 1);
    write_dim(r, 2);
    r[24] = get_work_dim();
    r[25] = get_global_linear_id();
    r[26] = get_local_linear_id();
    r[41] = 0x600d;
}

kernel void ids_in_function(global uint *out)
{
    write_record(out);
}
