// Atomics on atomic_float and atomic_double (OpenCL C 2.0; atomic_double
// with cl_khr_fp64 and cl_khr_int64_base/extended_atomics): atomic_init,
// atomic_store, atomic_load and atomic_exchange, plain and _explicit, on
// __global, __local and generic pointers. Values travel as their bits
// (uint / ulong), so NaN payloads, -0.0 and subnormals show if a bit is
// lost. tests/exec_atomics_float.rs checks every result on the host (and
// also builds this file from source).
//
// compare_exchange on atomic_float and atomic_double is bitwise (OpenCL C:
// memcmp); llvm-spirv-15 cannot translate it (an assertion: SPIR-V's
// OpAtomicCompareExchange takes integers), so `add_by_cas` does it as a
// program would, on the value's bits through atomic_uint / atomic_ulong,
// and conformance/spirv/atomic_float_cas.spvasm has the integer form a
// translator emits.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define KERNELS(T, AT, U, AU)                                                             \
    /* Every work-item exchanges its value into a[0] (plain) and a[1]                     \
       (_explicit, relaxed) and a[2] (_explicit, seq_cst, device scope),                  \
       keeping the old values: with distinct values, the old values and the               \
       final ones are the initial ones and the work-items' values, each once. */          \
    kernel void exchange_global_##T(volatile global AT *a, global const U *v, global U *old) \
    {                                                                                     \
        size_t i = get_global_id(0), n = get_global_size(0);                              \
        old[i] = as_##U(atomic_exchange(&a[0], as_##T(v[i])));                            \
        old[n + i] = as_##U(atomic_exchange_explicit(&a[1], as_##T(v[i]), memory_order_relaxed)); \
        old[2 * n + i] = as_##U(atomic_exchange_explicit(&a[2], as_##T(v[i]), memory_order_seq_cst, \
                                                         memory_scope_device));           \
    }                                                                                     \
                                                                                          \
    /* Each work-item's own elements: stored and loaded back in every form. */            \
    kernel void store_load_global_##T(volatile global AT *s, global const U *v, global U *out) \
    {                                                                                     \
        size_t i = get_global_id(0), n = get_global_size(0);                              \
        atomic_init(&s[i], as_##T(v[i]));                                                 \
        out[i] = as_##U(atomic_load(&s[i]));                                              \
        atomic_store(&s[n + i], as_##T(v[n - 1 - i]));                                    \
        out[n + i] = as_##U(atomic_load_explicit(&s[n + i], memory_order_acquire));       \
        atomic_store_explicit(&s[2 * n + i], as_##T(v[i]), memory_order_release);         \
        out[2 * n + i] = as_##U(atomic_load_explicit(&s[2 * n + i], memory_order_relaxed, \
                                                     memory_scope_work_group));           \
        atomic_store_explicit(&s[3 * n + i], as_##T(v[n - 1 - i]), memory_order_seq_cst,  \
                              memory_scope_device);                                       \
        out[3 * n + i] = as_##U(atomic_load(&s[3 * n + i]));                              \
    }                                                                                     \
                                                                                          \
    /* The exchange chain on a __local variable per work-group, initialized               \
       to `init`; the group's final value in fin[group]. */                               \
    kernel void exchange_local_##T(global const U *v, global U *old, global U *fin, U init) \
    {                                                                                     \
        local AT l;                                                                       \
        size_t i = get_global_id(0);                                                      \
        if (get_local_id(0) == 0)                                                         \
            atomic_init(&l, as_##T(init));                                                \
        barrier(CLK_LOCAL_MEM_FENCE);                                                     \
        old[i] = as_##U(atomic_exchange_explicit(&l, as_##T(v[i]), memory_order_relaxed,  \
                                                 memory_scope_work_group));               \
        barrier(CLK_LOCAL_MEM_FENCE);                                                     \
        if (get_local_id(0) == 0)                                                         \
            fin[get_group_id(0)] = as_##U(atomic_load(&l));                               \
    }                                                                                     \
                                                                                          \
    /* Through generic pointers: a helper taking `volatile AT *`, handed the              \
       group's __local variable in odd groups and a[group] in even ones; then             \
       a store and load of each work-item's own element through a generic                 \
       pointer. */                                                                        \
    __attribute__((noinline)) T swap_##T(volatile AT *p, T x) { return atomic_exchange(p, x); } \
    kernel void exchange_generic_##T(volatile global AT *a, global const U *v, global U *old, \
                                     global U *fin, U init, volatile global AT *s, global U *out) \
    {                                                                                     \
        local AT l;                                                                       \
        size_t i = get_global_id(0), g = get_group_id(0);                                 \
        volatile AT *p = (g & 1) ? (volatile AT *)&l : (volatile AT *)&a[g];              \
        if (get_local_id(0) == 0)                                                         \
            atomic_store(p, as_##T(init));                                                \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                              \
        old[i] = as_##U(swap_##T(p, as_##T(v[i])));                                       \
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);                              \
        if (get_local_id(0) == 0)                                                         \
            fin[g] = as_##U(atomic_load(p));                                              \
        volatile AT *q = &s[i];                                                           \
        atomic_store(q, as_##T(v[i]));                                                    \
        out[i] = as_##U(atomic_load_explicit(q, memory_order_relaxed));                   \
    }                                                                                     \
                                                                                          \
    /* Every work-item adds 1 to *a with a compare-exchange loop on its bits.             \
       Returns each work-item's number of attempts in tries[i]. */                        \
    kernel void add_by_cas_##T(volatile global AT *a, global uint *tries)                 \
    {                                                                                     \
        volatile global AU *bits = (volatile global AU *)a;                               \
        U seen = atomic_load(bits);                                                       \
        uint n = 1;                                                                       \
        while (!atomic_compare_exchange_strong(bits, &seen, as_##U(as_##T(seen) + (T)1))) \
            n++;                                                                          \
        tries[get_global_id(0)] = n;                                                      \
    }

KERNELS(float, atomic_float, uint, atomic_uint)
KERNELS(double, atomic_double, ulong, atomic_ulong)
