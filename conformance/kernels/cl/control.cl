// Control flow: switch on char/short/int/long selectors with fallthrough
// and default, nested loops with break and continue, goto, call chains,
// early returns (tests/exec_control.rs).

kernel void switch_char(global const char *sel, global int *out)
{
    size_t g = get_global_id(0);
    int r = 0;
    switch (sel[g]) {
    case -128: r = 1; break;
    case -3: r += 10; // fallthrough
    case 0: r += 20; break;
    case 5: r = 3; // fallthrough
    case 6: r *= 7; // fallthrough
    case 7: r += 1; break;
    case 127: r = -5; break;
    default: r = sel[g] * 2;
    }
    out[g] = r;
}

kernel void switch_short(global const short *sel, global int *out)
{
    size_t g = get_global_id(0);
    int r = 100;
    switch (sel[g]) {
    case -32768: r = 1; break;
    case -300: r = 2; // fallthrough
    case 300: r += 3; break;
    case 1000: case 1001: case 1002: r = 4; break;
    case 32767: return; // leave out[g] alone
    default: r = -sel[g];
    }
    out[g] = r;
}

kernel void switch_int(global const int *sel, global int *out)
{
    size_t g = get_global_id(0);
    int r = 0;
    for (int k = 0; k < 3; k++) {
        switch (sel[g] + k) {
        case 0: r += 1; break;
        case 1: r += 10; continue;
        case 2: r += 100; // fallthrough
        case 3: r += 1000; break;
        case 0x7fffffff: r -= 5; break;
        case -2147483647 - 1: r -= 7; break;
        case 1 << 20: r += 3; break;
        default: r += 10000; if (sel[g] < -100) k = 5; break;
        }
        r *= 2;
    }
    out[g] = r;
}

kernel void switch_long(global const long *sel, global long *out)
{
    size_t g = get_global_id(0);
    long r;
    switch (sel[g]) {
    case 0x100000000L: r = 1; break;
    case -0x100000000L: r = 2; break;
    case 0x7fffffffffffffffL: r = 3; // fallthrough
    case 5: r = 4; break;
    case -1: r = 5; break;
    case 0xffffffffL: r = 6; break;
    default: r = sel[g] >> 3;
    }
    out[g] = r;
}

// A dense switch over a small range (a jump table when lowered by LLVM).
// The selector's range is unknown to clang (x % 12 would make it an i4,
// which llvm-spirv-15 cannot translate).
kernel void switch_dense(global const uint *sel, global uint *out)
{
    size_t g = get_global_id(0);
    uint x = sel[g], r;
    switch (x) {
    case 0: r = x * 3; break;
    case 1: r = x + 17; break;
    case 2: r = x ^ 0x55; break;
    case 3: r = x >> 2; break;
    case 4: r = x << 3; break;
    case 5: r = ~x; break;
    case 6: r = x * x; break;
    case 7: r = x - 1000; break;
    case 8: r = x | 0xf0; break;
    case 9: r = x & 0x0f; break;
    default: r = 42;
    }
    out[g] = r;
}

// Nested loops with break and continue at both levels.
kernel void loops(global const int *n, global int *out)
{
    size_t g = get_global_id(0);
    int lim = n[g], acc = 0;
    for (int i = 0; i < lim; i++) {
        if (i % 3 == 1)
            continue;
        if (acc > 5000)
            break;
        int j = 0;
        while (1) {
            j++;
            if (j % 2 == 0)
                continue;
            if (j > i)
                break;
            acc += i * j;
        }
        do {
            acc ^= j;
            j -= 3;
        } while (j > 0);
    }
    out[g] = acc;
}

// goto: a retry loop and a jump out of nested loops.
kernel void gotos(global const int *in, global int *out)
{
    size_t g = get_global_id(0);
    int x = in[g], steps = 0;
again:
    steps++;
    if (x > 1) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        if (steps < 200)
            goto again;
    }
    int found = -1;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            if ((i * 10 + j) * (in[g] % 7 + 1) > 60) {
                found = i * 10 + j;
                goto done;
            }
done:
    out[g * 2] = steps;
    out[g * 2 + 1] = found;
}

// A call chain (no recursion) with early returns.
__attribute__((noinline)) int leaf(int x)
{
    if (x < 0)
        return -x;
    if (x > 1000)
        return 1000;
    return x * 2;
}

__attribute__((noinline)) int middle(int x, int y)
{
    int a = leaf(x);
    if (a == y)
        return 0;
    return a + leaf(y - x);
}

__attribute__((noinline)) long top(int x, int y, int z)
{
    long s = middle(x, y);
    for (int i = 0; i < z; i++)
        s += middle(i, x) * (long)(i + 1);
    return s;
}

__attribute__((noinline)) void store_if(global int *p, int v)
{
    if (v & 1)
        return;
    *p = v;
}

kernel void calls(global const int *in, global long *out, global int *even)
{
    size_t g = get_global_id(0);
    int x = in[g * 3], y = in[g * 3 + 1], z = in[g * 3 + 2];
    if (z < 0) {
        out[g] = -1;
        return;
    }
    out[g] = top(x, y, z);
    store_if(even + g, x);
}

// Early return from a kernel: work-items past n leave the output alone.
kernel void early_return(global const int *in, global int *out, int n)
{
    size_t g = get_global_id(0);
    if (g >= n)
        return;
    if (in[g] == 0) {
        out[g] = 77;
        return;
    }
    out[g] = in[g] > 0 ? in[g] : -in[g] * 3;
}

// Phi-heavy code: a loop-carried swap and a select chain.
kernel void phis(global const uint *in, global uint *out)
{
    size_t g = get_global_id(0);
    uint a = in[g], b = in[g] * 7 + 1, c = 0;
    for (uint i = 0; i < (in[g] & 31); i++) {
        uint t = a;
        a = b;
        b = t + (i & 1 ? a : c);
        c ^= t;
    }
    out[g] = a < b ? a - b : c + (b > 10 ? b : a);
}

// Unsigned char and short selectors: at -O2 clang keeps the narrow type, so
// the OpSwitch selector is 8 or 16 bits wide.
kernel void switch_uchar(global const uchar *sel, global int *out)
{
    size_t g = get_global_id(0);
    int r = 0;
    switch (sel[g]) {
    case 0: r = 11; break;
    case 1: r = 5; // fallthrough
    case 2: r += 2; break;
    case 128: r = 7; break;
    case 200: r = -9; break;
    case 255: r = 9; break;
    default: r = sel[g] + 1000;
    }
    out[g] = r;
}

kernel void switch_ushort(global const ushort *sel, global int *out)
{
    size_t g = get_global_id(0);
    int r = 1;
    switch (sel[g]) {
    case 0: r = 0; break;
    case 255: r = 2; // fallthrough
    case 256: r *= 3; break;
    case 32768: r = 4; break;
    case 60000: r = 5; break;
    case 65535: r = 6; break;
    default: r = -(int)sel[g];
    }
    out[g] = r;
}
