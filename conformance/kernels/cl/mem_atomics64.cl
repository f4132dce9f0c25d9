// 64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics)
// contended by every work-item.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomics64(global long *l, global ulong *ul) {
    long i = get_global_id(0);
    atom_add(&l[0], i << 33);
    atom_sub(&l[1], i);
    atom_min(&l[2], -i * 1000000000L);
    atom_max(&ul[0], (ulong)i << 40);
    atom_xor(&ul[1], (ulong)i << 36);
    atom_cmpxchg(&l[3], 0L, i + 1);
}

