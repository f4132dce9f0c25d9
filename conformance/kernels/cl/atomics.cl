// 32-bit atomics (tests/exec_atomics.rs; the 64-bit ones are in
// atomics64.cl, whose module declares the Int64Atomics capability): every
// OpenCL 1.2 atomic function on 32-bit ints (atomic_*, which clang emits
// with Workgroup scope but which must be atomic across the device), in
// global and local memory; the C11
// atomics of OpenCL 2.0 with explicit orders and scopes, compare-exchange
// strong and weak, load/store/exchange and atomic_flag; contention by many
// work-items in many groups; histograms. Lock-free patterns only (CAS
// loops that retry, never a lock).

#include "atomics_body.h"

kernel void ops32_global(global int *c, global uint *u, global int *ret, global const int *v)
{
    size_t g = get_global_id(0);
    BODY(atomic, int, uint, c, u, ret, v[g], g)
}


// The same on __local counters, one set per work-group, initialized from
// `init` and written to out/uout per group.
kernel void ops32_local(global const int *init, global const uint *uinit, global int *out, global uint *uout,
                        global int *ret, global const int *v)
{
    local int c[11];
    local uint u[2];
    size_t g = get_global_id(0), l = get_local_id(0), grp = get_group_id(0);
    if (l == 0) {
        for (int i = 0; i < 11; i++)
            c[i] = init[i];
        u[0] = uinit[0];
        u[1] = uinit[1];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    BODY(atomic, int, uint, c, u, ret, v[g], g)
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int i = 0; i < 11; i++)
            out[grp * 11 + i] = c[i];
        uout[grp * 2] = u[0];
        uout[grp * 2 + 1] = u[1];
    }
}


// OpenCL 1.2 names with the cl_khr_global_int32 atom_ prefix on 32-bit ints.
kernel void atom32_global(global int *c, global uint *u, global int *ret, global const int *v)
{
    size_t g = get_global_id(0);
    BODY(atom, int, uint, c, u, ret, v[g], g)
}

kernel void c11_32_global(global atomic_int *c, global atomic_uint *u, global int *ret, global atomic_int *st,
                          global atomic_int *ld, global const int *v)
{
    size_t g = get_global_id(0);
    C11BODY(int, uint, atomic_int, atomic_uint, c, u, ret, st, ld, v[g], g, memory_scope_device)
}


// C11 atomics with work-group scope on __local memory.
kernel void c11_32_local(global const int *init, global int *out, global uint *uout, global int *ret,
                         global atomic_int *st, global atomic_int *ld, global const int *v)
{
    local atomic_int c[10];
    local atomic_uint u[2];
    size_t g = get_global_id(0), l = get_local_id(0), grp = get_group_id(0);
    if (l == 0) {
        for (int i = 0; i < 10; i++)
            atomic_store_explicit(&c[i], init[i], memory_order_relaxed, memory_scope_work_group);
        atomic_store(&u[0], (uint)init[10]);
        atomic_store(&u[1], (uint)init[11]);
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    C11BODY(int, uint, atomic_int, atomic_uint, c, u, ret, st, ld, v[g], g, memory_scope_work_group)
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        for (int i = 0; i < 10; i++)
            out[grp * 10 + i] = atomic_load_explicit(&c[i], memory_order_relaxed, memory_scope_work_group);
        uout[grp * 2] = atomic_load(&u[0]);
        uout[grp * 2 + 1] = atomic_load(&u[1]);
    }
}

// atomic_flag: exactly one winner per flag. f[group] is raced by the
// group's items, f[ngroups] by every item of the range.
kernel void flag_race(global atomic_flag *f, global int *won)
{
    size_t g = get_global_id(0);
    int a = !atomic_flag_test_and_set_explicit(&f[get_group_id(0)], memory_order_acq_rel, memory_scope_device);
    int b = !atomic_flag_test_and_set(&f[get_num_groups(0)]);
    won[g] = a | (b << 1);
}

kernel void flag_clear(global atomic_flag *f)
{
    size_t g = get_global_id(0);
    if (g & 1)
        atomic_flag_clear(&f[g]);
    else
        atomic_flag_clear_explicit(&f[g], memory_order_release, memory_scope_device);
}

// A __local flag, cleared then raced within the group.
kernel void flag_local(global int *won)
{
    local atomic_flag f;
    if (get_local_id(0) == 0)
        atomic_flag_clear_explicit(&f, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    won[get_global_id(0)] = !atomic_flag_test_and_set_explicit(&f, memory_order_relaxed, memory_scope_work_group);
}

// Heavy contention: every work-item increments one of 7 counters and adds
// its id to a sum.
kernel void count7(global uint *c, global uint *sum)
{
    size_t g = get_global_id(0);
    atomic_inc(&c[g % 7]);
    atomic_add(sum, (uint)g);
}

// clbench's histograms: global bins, and local bins then global.
kernel void hist_global(global const uchar *data, global uint *bins, uint n)
{
    size_t gsz = get_global_size(0);
    for (size_t i = get_global_id(0); i < n; i += gsz)
        atomic_inc(&bins[data[i]]);
}

kernel void hist_local(global const uchar *data, global uint *bins, local uint *lbins, uint n)
{
    size_t lid = get_local_id(0), lsz = get_local_size(0), gsz = get_global_size(0);
    for (size_t b = lid; b < 256; b += lsz)
        lbins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < n; i += gsz)
        atomic_inc(&lbins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t b = lid; b < 256; b += lsz)
        atomic_add(&bins[b], lbins[b]);
}
