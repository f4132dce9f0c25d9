// Carries and overflow: multiword addition and subtraction, unsigned
// wrap-around checks, widening multiplication, signed overflow detection.

// 128-bit addition of (hi, lo) pairs of ulongs.
kernel void add128(global const ulong2 *a, global const ulong2 *b, global ulong2 *out) {
    size_t i = get_global_id(0);
    ulong lo = a[i].x + b[i].x;
    ulong carry = lo < a[i].x;
    ulong hi = a[i].y + b[i].y + carry;
    out[i] = (ulong2)(lo, hi);
}

// 128-bit subtraction with borrow.
kernel void sub128(global const ulong2 *a, global const ulong2 *b, global ulong2 *out) {
    size_t i = get_global_id(0);
    ulong lo = a[i].x - b[i].x;
    ulong borrow = a[i].x < b[i].x;
    out[i] = (ulong2)(lo, a[i].y - b[i].y - borrow);
}

// Arbitrary-length addition of 32-bit limbs, the carry rippling through a loop.
kernel void bignum_add(global const uint *a, global const uint *b, global uint *out, uint limbs) {
    size_t n = get_global_id(0);
    global const uint *x = a + n * limbs;
    global const uint *y = b + n * limbs;
    global uint *z = out + n * limbs;
    uint carry = 0;
    for (uint k = 0; k < limbs; k++) {
        ulong s = (ulong)x[k] + (ulong)y[k] + carry;
        z[k] = (uint)s;
        carry = (uint)(s >> 32);
    }
}

// 64x64 -> 128 multiplication from 32-bit halves, checked against mul_hi.
kernel void mul_wide(global const ulong *a, global const ulong *b, global ulong *out) {
    size_t i = get_global_id(0);
    ulong x = a[i], y = b[i];
    ulong x0 = x & 0xffffffff, x1 = x >> 32, y0 = y & 0xffffffff, y1 = y >> 32;
    ulong p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    ulong mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);
    ulong hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    out[3 * i + 0] = x * y;
    out[3 * i + 1] = hi;
    out[3 * i + 2] = hi == mul_hi(x, y);
}

// Signed overflow detection without relying on undefined behaviour.
kernel void overflow_flags(global const int *a, global const int *b, global uchar *flags) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    uint us = (uint)x + (uint)y;
    int s = (int)us;
    uchar add_ovf = ((x ^ s) & (y ^ s)) < 0;
    uint ud = (uint)x - (uint)y;
    int d = (int)ud;
    uchar sub_ovf = ((x ^ y) & (x ^ d)) < 0;
    long p = (long)x * (long)y;
    uchar mul_ovf = p != (long)(int)p;
    flags[i] = add_ovf | (sub_ovf << 1) | (mul_ovf << 2);
}

// Narrow wrap-around: char and short arithmetic promoted to int and truncated back.
kernel void narrow_wrap(global uchar *u8, global short *s16) {
    size_t i = get_global_id(0);
    uchar c = u8[i];
    uchar sum = c + (uchar)200;
    uchar carry = sum < c;
    u8[i] = sum + carry;
    short s = s16[i];
    short t = (short)(s * 3 + 32000);
    s16[i] = t;
}
