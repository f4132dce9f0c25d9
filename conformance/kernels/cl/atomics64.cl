// 64-bit atomics (tests/exec_atomics.rs): the atom_* functions of
// cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics in global and
// local memory, the C11 atomics on atomic_long/atomic_ulong, and heavy
// contention on 64-bit counters. The same bodies as atomics.cl's 32-bit
// kernels (atomics_body.h).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#include "atomics_body.h"

kernel void ops64_global(global long *c, global ulong *u, global long *ret, global const long *v)
{
    size_t g = get_global_id(0);
    BODY(atom, long, ulong, c, u, ret, v[g], g)
}

kernel void ops64_local(global const long *init, global const ulong *uinit, global long *out, global ulong *uout,
                        global long *ret, global const long *v)
{
    local long c[11];
    local ulong u[2];
    size_t g = get_global_id(0), l = get_local_id(0), grp = get_group_id(0);
    if (l == 0) {
        for (int i = 0; i < 11; i++)
            c[i] = init[i];
        u[0] = uinit[0];
        u[1] = uinit[1];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    BODY(atom, long, ulong, c, u, ret, v[g], g)
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int i = 0; i < 11; i++)
            out[grp * 11 + i] = c[i];
        uout[grp * 2] = u[0];
        uout[grp * 2 + 1] = u[1];
    }
}

kernel void c11_64_global(global atomic_long *c, global atomic_ulong *u, global long *ret, global atomic_long *st,
                          global atomic_long *ld, global const long *v)
{
    size_t g = get_global_id(0);
    C11BODY(long, ulong, atomic_long, atomic_ulong, c, u, ret, st, ld, v[g], g, memory_scope_all_svm_devices)
}

// Heavy contention: every work-item increments one of 7 counters and adds
// its id to a sum, all 64-bit.
kernel void count7_64(global ulong *c, global ulong *sum)
{
    size_t g = get_global_id(0);
    atom_inc(&c[g % 7]);
    atom_add(sum, (ulong)g);
}
