// The bodies shared by atomics.cl and atomics64.cl.

// Sums are computed in the unsigned type U: the values wrap, and signed
// overflow would be undefined in C.
//
// Every read-modify-write on counters C[0..11] and unsigned UU[0..2]:
// C[0] add, C[1] sub, C[2] inc, C[3] dec, C[4] min, C[5] max, C[6] and,
// C[7] or, C[8] xor, C[9] xchg, C[10] add by a cmpxchg loop; UU[0] min,
// UU[1] max. RET gets add's, inc's, dec's and xchg's old values.
#define BODY(PFX, T, U, C, UU, RET, X, ID)                                   \
    {                                                                        \
        T x = (X);                                                           \
        uint bits = sizeof(T) * 8;                                           \
        RET[ID * 4 + 0] = PFX##_add(&C[0], x);                               \
        PFX##_sub(&C[1], x);                                                 \
        RET[ID * 4 + 1] = PFX##_inc(&C[2]);                                  \
        RET[ID * 4 + 2] = PFX##_dec(&C[3]);                                  \
        PFX##_min(&C[4], x);                                                 \
        PFX##_max(&C[5], x);                                                 \
        PFX##_min(&UU[0], (U)x);                                             \
        PFX##_max(&UU[1], (U)x);                                             \
        PFX##_and(&C[6], (T) ~((U)1 << (ID % bits)));                        \
        PFX##_or(&C[7], (T)((U)1 << (ID % bits)));                           \
        PFX##_xor(&C[8], x);                                                 \
        RET[ID * 4 + 3] = PFX##_xchg(&C[9], (T)ID);                          \
        T old = C[10];                                                       \
        for (;;) {                                                           \
            T prev = PFX##_cmpxchg(&C[10], old, (T)((U)old + (U)x));         \
            if (prev == old)                                                 \
                break;                                                       \
            old = prev;                                                      \
        }                                                                    \
    }

// C11 atomics, device scope on global memory: C[0] fetch_add (relaxed),
// C[1] fetch_sub (acq_rel), C[2] fetch_or, C[3] fetch_xor, C[4] fetch_and,
// C[5] fetch_min, C[6] fetch_max, C[7] exchange, C[8] add by a strong
// CAS loop, C[9] add by a weak CAS loop; U[0] fetch_min, U[1] fetch_max;
// ST[g] = atomic_store of 2x, RET[g*4+3] = atomic_load of LD[g].
#define C11BODY(T, U, AT, AU, C, UU, RET, ST, LD, X, ID, SCOPE)                                   \
    {                                                                                              \
        T x = (X);                                                                                 \
        uint bits = sizeof(T) * 8;                                                                 \
        RET[ID * 4 + 0] = atomic_fetch_add_explicit(&C[0], x, memory_order_relaxed, SCOPE);        \
        atomic_fetch_sub_explicit(&C[1], x, memory_order_acq_rel, SCOPE);                          \
        RET[ID * 4 + 1] = atomic_fetch_or_explicit(&C[2], (T)((U)1 << (ID % bits)), memory_order_release, SCOPE); \
        atomic_fetch_xor(&C[3], x);                                                                \
        atomic_fetch_and_explicit(&C[4], (T) ~((U)1 << (ID % bits)), memory_order_acquire);       \
        atomic_fetch_min_explicit(&C[5], x, memory_order_seq_cst, SCOPE);                          \
        atomic_fetch_max_explicit(&C[6], x, memory_order_relaxed, SCOPE);                          \
        atomic_fetch_min_explicit(&UU[0], (U)x, memory_order_relaxed, SCOPE);                      \
        atomic_fetch_max(&UU[1], (U)x);                                                            \
        RET[ID * 4 + 2] = atomic_exchange_explicit(&C[7], (T)ID, memory_order_acq_rel, SCOPE);     \
        T e = atomic_load_explicit(&C[8], memory_order_relaxed, SCOPE);                            \
        while (!atomic_compare_exchange_strong_explicit(&C[8], &e, (T)((U)e + (U)x), memory_order_acq_rel, \
                                                        memory_order_relaxed, SCOPE))              \
            ;                                                                                      \
        T w = atomic_load(&C[9]);                                                                  \
        while (!atomic_compare_exchange_weak(&C[9], &w, (T)((U)w + (U)x)))                       \
            ;                                                                                      \
        atomic_store_explicit(&ST[ID], (T)((U)x * 2), memory_order_release, SCOPE);                 \
        RET[ID * 4 + 3] = atomic_load_explicit(&LD[ID], memory_order_acquire, SCOPE);              \
    }

