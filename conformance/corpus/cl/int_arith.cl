// Integer arithmetic of every width: + - * / %, unary minus, bitwise ops and
// shifts (OpenCL C masks the shift count to the operand width), signed and
// unsigned, scalar.

// The remainders use a divisor other than the quotient's: clang-15 -O2 pairs
// x / d with x % d through `freeze`, which llvm-spirv-15 cannot translate.
kernel void arith_i8(global const char *a, global const char *b, global char *out) {
    size_t i = get_global_id(0);
    char x = a[i], y = b[i];
    char d = y == 0 ? (char)1 : y;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / d;
    out[8 * i + 4] = x % ((y & 15) + 1);
    out[8 * i + 5] = -x;
    out[8 * i + 6] = (x & y) | (x ^ ~y);
    out[8 * i + 7] = (x << (y & 7)) + (x >> (y & 7));
}

kernel void arith_u8(global const uchar *a, global const uchar *b, global uchar *out) {
    size_t i = get_global_id(0);
    uchar x = a[i], y = b[i];
    uchar d = y == 0 ? (uchar)1 : y;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / d;
    out[8 * i + 4] = x % ((y & 15) + 1);
    out[8 * i + 5] = ~x;
    out[8 * i + 6] = x << y; // count taken modulo 8
    out[8 * i + 7] = x >> y;
}

kernel void arith_i16(global const short *a, global const short *b, global short *out) {
    size_t i = get_global_id(0);
    short x = a[i], y = b[i];
    short d = y == 0 ? (short)1 : y;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / d;
    out[8 * i + 4] = x % ((y & 15) + 1);
    out[8 * i + 5] = -x;
    out[8 * i + 6] = x << y;
    out[8 * i + 7] = x >> y; // arithmetic shift
}

kernel void arith_u16(global const ushort *a, global const ushort *b, global ushort *out) {
    size_t i = get_global_id(0);
    ushort x = a[i], y = b[i];
    ushort d = y == 0 ? (ushort)1 : y;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / d;
    out[8 * i + 4] = x % ((y & 15) + 1);
    out[8 * i + 5] = x & y;
    out[8 * i + 6] = x << y;
    out[8 * i + 7] = x >> y; // logical shift
}

kernel void arith_i32(global const int *a, global const int *b, global int *out) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    int d = (y == 0 || (x == INT_MIN && y == -1)) ? 1 : y;
    out[10 * i + 0] = x + y;
    out[10 * i + 1] = x - y;
    out[10 * i + 2] = x * y;
    out[10 * i + 3] = x / d;
    out[10 * i + 4] = x % ((y & 15) + 1);
    out[10 * i + 5] = -x;
    out[10 * i + 6] = x | y;
    out[10 * i + 7] = x ^ y;
    out[10 * i + 8] = x << y;
    out[10 * i + 9] = x >> y;
}

kernel void arith_u32(global const uint *a, global const uint *b, global uint *out) {
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    uint d = y == 0 ? 1u : y;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / d;
    out[8 * i + 4] = x % ((y & 15) + 1);
    out[8 * i + 5] = x << y;
    out[8 * i + 6] = x >> y;
    out[8 * i + 7] = x >> 31;
}

kernel void arith_i64(global const long *a, global const long *b, global long *out) {
    size_t i = get_global_id(0);
    long x = a[i], y = b[i];
    long d = (y == 0 || (x == LONG_MIN && y == -1)) ? 1 : y;
    out[10 * i + 0] = x + y;
    out[10 * i + 1] = x - y;
    out[10 * i + 2] = x * y;
    out[10 * i + 3] = x / d;
    out[10 * i + 4] = x % ((y & 15) + 1);
    out[10 * i + 5] = -x;
    out[10 * i + 6] = x & ~y;
    out[10 * i + 7] = x << y;
    out[10 * i + 8] = x >> y;
    out[10 * i + 9] = x >> 63;
}

kernel void arith_u64(global const ulong *a, global const ulong *b, global ulong *out) {
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    ulong d = y == 0 ? 1ul : y;
    out[8 * i + 0] = x + y;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / d;
    out[8 * i + 4] = x % ((y & 15) + 1);
    out[8 * i + 5] = x << y;
    out[8 * i + 6] = x >> y;
    out[8 * i + 7] = x * 0x9E3779B97F4A7C15ul;
}

// Compound assignment, increments and mixed-width promotion.
kernel void arith_mixed(global int *io, char c, uchar uc, short s, ushort us, long l) {
    size_t i = get_global_id(0);
    int v = io[i];
    v += c;
    v -= uc;
    v *= s;
    v ^= us;
    v++;
    --v;
    long w = v + l;
    w >>= 3;
    w <<= 1;
    io[i] = (int)w + (c * uc) + (s * us);
}

// Constant divisors the optimizer strength-reduces into multiplies and shifts.
kernel void arith_const_div(global uint *u, global int *s) {
    size_t i = get_global_id(0);
    u[i] = u[i] / 7u + u[i] % 10u + u[i] / 16u;
    s[i] = s[i] / 3 + s[i] % 8 + s[i] / -5;
}
