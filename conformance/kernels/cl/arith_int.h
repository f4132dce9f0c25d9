// Integer arithmetic, logic, comparisons and select on every vector width
// of one scalar type: included by arith_int8.cl ... arith_int64.cl.
// o[k * n + i] holds operation k of work-item i (n work-items); d is a
// divisor input without 0 (and without -1 where a or b is the minimum).

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)

#define INT_OPS(NAME, TN, CMP)                                                 \
    kernel void NAME(global const TN *a_, global const TN *b_,                 \
                     global const TN *d_, global TN *o) {                      \
        size_t i = get_global_id(0), n = get_global_size(0);                   \
        TN a = a_[i], b = b_[i], d = d_[i];                                    \
        o[0 * n + i] = a + b;                                                  \
        o[1 * n + i] = a - b;                                                  \
        o[2 * n + i] = a * b;                                                  \
        o[3 * n + i] = a / d;                                                  \
        o[4 * n + i] = b % d;                                                  \
        o[5 * n + i] = a << b;                                                 \
        o[6 * n + i] = a >> b;                                                 \
        o[7 * n + i] = a & b;                                                  \
        o[8 * n + i] = a | b;                                                  \
        o[9 * n + i] = a ^ b;                                                  \
        o[10 * n + i] = ~a;                                                    \
        o[11 * n + i] = -a;                                                    \
        o[12 * n + i] = CMP(a == b);                                           \
        o[13 * n + i] = CMP(a != b);                                           \
        o[14 * n + i] = CMP(a < b);                                            \
        o[15 * n + i] = CMP(a <= b);                                           \
        o[16 * n + i] = CMP(a > b);                                            \
        o[17 * n + i] = CMP(a >= b);                                           \
        o[18 * n + i] = a < b ? a : b;                                         \
        o[19 * n + i] = CMP(!a);                                               \
        o[20 * n + i] = CMP(a && b);                                           \
        o[21 * n + i] = CMP(a || b);                                           \
        o[22 * n + i] = popcount(a);                                           \
    }

#define SCALAR_CMP(x) ((T)(x))
#define INT_TYPE(T)                                                            \
    INT_OPS(CAT(int_ops_, T), T, SCALAR_CMP)                                   \
    INT_OPS(CAT(int_ops_, CAT(T, 2)), CAT(T, 2), CAT(as_, CAT(T, 2)))          \
    INT_OPS(CAT(int_ops_, CAT(T, 3)), CAT(T, 3), CAT(as_, CAT(T, 3)))          \
    INT_OPS(CAT(int_ops_, CAT(T, 4)), CAT(T, 4), CAT(as_, CAT(T, 4)))          \
    INT_OPS(CAT(int_ops_, CAT(T, 8)), CAT(T, 8), CAT(as_, CAT(T, 8)))          \
    INT_OPS(CAT(int_ops_, CAT(T, 16)), CAT(T, 16), CAT(as_, CAT(T, 16)))
