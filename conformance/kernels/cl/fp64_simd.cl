// Doubles in 4- and 8-lane bodies, held as two f64x2 vectors per four
// work-items (tests/exec_fp64_vectors.rs): the arithmetic, comparisons,
// selects, conversions and math functions with vector forms, contiguous and gathered
// accesses, doubles under masks (regions, loops whose trip counts differ
// between work-items) and kept across barriers.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

// Result k of work-item i at o[k * n + i]: contiguous double stores.
kernel void arith(global const double *a, global const double *b, global double *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double x = a[i], y = b[i];
    o[0 * n + i] = x + y;
    o[1 * n + i] = x - y;
    o[2 * n + i] = x * y;
    o[3 * n + i] = x / y;
    o[4 * n + i] = fma(x, y, x);
    o[5 * n + i] = mad(y, y, x);
    o[6 * n + i] = sqrt(fabs(x));
    o[7 * n + i] = floor(x);
    o[8 * n + i] = ceil(y);
    o[9 * n + i] = trunc(x);
    o[10 * n + i] = rint(y);
    o[11 * n + i] = -x;
    o[12 * n + i] = x < y ? x : y * 2.0;
    o[13 * n + i] = fabs(y) * 0.5;
    o[14 * n + i] = fmax(x, y);
    o[15 * n + i] = fmin(x, y);
    o[16 * n + i] = clamp(x, -2.0, 3.0);
    o[17 * n + i] = clamp(y, -fabs(x), fabs(x));
    float fx = (float)x, fy = (float)y;
    o[18 * n + i] = (double)fmax(fx, fy);
    o[19 * n + i] = (double)fmin(fx, fy);
    o[20 * n + i] = (double)clamp(fx, -1.0f, fy);
    // exp, log, log2, log10, sin, cos, pow, tan, erf, atan, asin, acos: the
    // four-lane forms of libm's functions (lanes out of their ranges, as
    // infinities, NaNs, negative and huge numbers, next to lanes in them).
    o[21 * n + i] = exp(x);
    o[22 * n + i] = log(y);
    o[23 * n + i] = exp(y * 0.01) + log(fabs(x));
    o[24 * n + i] = log2(fabs(y));
    o[25 * n + i] = log10(x);
    o[26 * n + i] = sin(x);
    o[27 * n + i] = cos(y * 100.0);
    o[28 * n + i] = pow(fabs(x), y * 0.01);
    o[29 * n + i] = pow(y, 3.0);
    o[30 * n + i] = tan(y);
    o[31 * n + i] = erf(x);
    o[32 * n + i] = atan(x);
    o[33 * n + i] = asin(x * 0.01);
    o[34 * n + i] = acos(y * 0.1);
    // expm1, tanh, sinh, cosh and log1p (libm's too; tanh and sinh
    // through expm1, cosh through expm1 or exp).
    o[35 * n + i] = expm1(x * 0.1);
    o[36 * n + i] = tanh(y * 0.05);
    o[37 * n + i] = expm1(y) - tanh(x);
    o[38 * n + i] = sinh(x * 0.1);
    o[39 * n + i] = cosh(y * 0.02) + sinh(y);
    o[40 * n + i] = log1p(x);
    // atan2 (libm's; through the four-lane atan).
    o[41 * n + i] = atan2(x, y);
    o[42 * n + i] = atan2(y * 1e-20, x) + atan2(-x, 1.0);
    // asinh, acosh, atanh (libm's; through the four-lane log and log1p).
    o[43 * n + i] = asinh(x);
    o[44 * n + i] = acosh(fabs(y) + 0.5);
    o[45 * n + i] = atanh(y * 0.001);
    // erfc (libm's; erf's ranges, through the four-lane exp), over its
    // whole range and beyond 26.6, where those exps leave lanes to libm.
    o[46 * n + i] = erfc(x) + erfc(y * 0.25);
    o[47 * n + i] = erfc(x * 0.001 + 27.0);
    // cbrt (libm's, correctly rounded), of exact cubes too.
    o[48 * n + i] = cbrt(x) + cbrt(trunc(y) * trunc(y) * trunc(y));
    // hypot (libm's, every lane in the four-lane form).
    o[49 * n + i] = hypot(x, y) + hypot(x * 0x1p600, y * 0x1p-500);
}

// Every comparison of two doubles, their classifications and those of
// the floats they round to, as ints (bit k of m[i] for test k).
kernel void compare(global const double *a, global const double *b, global int *m) {
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    int r = 0;
    r |= (x == y) << 0;
    r |= (x != y) << 1;
    r |= (x < y) << 2;
    r |= (x <= y) << 3;
    r |= (x > y) << 4;
    r |= (x >= y) << 5;
    r |= islessgreater(x, y) << 6;
    r |= isordered(x, y) << 7;
    r |= isunordered(x, y) << 8;
    r |= !(x < y) << 9;
    r |= !(x >= y) << 10;
    r |= !(x == y) << 11;
    r |= isnan(x) << 12;
    r |= isinf(y) << 13;
    r |= isfinite(x) << 14;
    r |= isnormal(y) << 15;
    float fx = (float)x, fy = (float)y;
    r |= isnan(fx) << 16;
    r |= isinf(fy) << 17;
    r |= isfinite(fx) << 18;
    r |= isnormal(fy) << 19;
    r |= isunordered(fx, fy) << 20;
    r |= islessgreater(fx, fy) << 21;
    m[i] = r;
}

// Conversions to and from double: float, int and uint to double, double
// to float (rounded to nearest even), float arithmetic on the result; and
// float to int and uint (toward zero, saturating, NaN to 0 as clift
// does: the spec leaves out-of-range results undefined).
kernel void convert(global const float *f, global const int *s, global const uint *u, global const double *d,
                    global double *o, global float *of, global int *oi) {
    size_t i = get_global_id(0), n = get_global_size(0);
    o[0 * n + i] = (double)f[i];
    o[1 * n + i] = (double)s[i];
    o[2 * n + i] = (double)u[i];
    o[3 * n + i] = (double)f[i] * (double)s[i];
    of[0 * n + i] = (float)d[i];
    of[1 * n + i] = (float)(d[i] * 3.0) + f[i];
    oi[0 * n + i] = (int)f[i];
    oi[1 * n + i] = (int)(uint)f[i];
    oi[2 * n + i] = (int)(f[i] * 1e9f);
    oi[3 * n + i] = (int)d[i];
    oi[4 * n + i] = (int)(d[i] * 1e10);
}

// Doubles under masks: a branch whose sides differ between work-items, and
// a loop whose trip count does, carrying doubles; gathered loads
// (a stride of two doubles, and an index from a table).
kernel void masked(global const double *a, global const int *idx, global double *o, int lim) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double x = a[2 * i + 1];
    double y;
    if (x > 0.0)
        y = sqrt(x) + a[idx[i]];
    else
        y = -x * 2.0;
    double t = y;
    int k = 0;
    while (t < (double)lim && k < 40 + (int)(i % 3)) {
        t = t * 1.5 + 0.25;
        if (t > 100.0)
            t -= x;
        k++;
    }
    o[i] = t;
    o[n + i] = (double)k + y;
    // A 32-bit index: the pointer's lanes could wrap when widened, so
    // the two vector accesses check first.
    int j = (int)i, m = (int)n;
    o[2 * m + j] = a[j] * 2.0;
}

// One math built-in: an 8-lane body calls its eight-lane form once for
// both parts (tests/exec_fp64_simd.rs counts the calls).
kernel void exp_alone(global const double *a, global double *o) {
    size_t i = get_global_id(0);
    o[i] = exp(a[i]);
}

// Math built-ins with four-lane forms under masks: a branch whose sides
// call different ones, and a loop whose trip count differs between
// work-items calling them on every trip (the inactive lanes' arguments
// are whatever the lanes hold).
kernel void math_masked(global const double *a, global double *o) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double x = a[i];
    double y;
    if (x > 0.5)
        y = log(x) + pow(x, 0.75);
    else
        y = exp(x * 0.125) - sin(x);
    double t = 0.0;
    for (int k = 0; k < (int)(i % 7); k++)
        t += atan(t + x) * cos(y);
    o[i] = y;
    o[n + i] = t;
}

// Doubles kept across barriers, changed under a mask between them, and a
// double tree in local memory (the local size a power of two).
kernel void kept(global const double *a, global double *o, local double *tmp) {
    size_t g = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
    double v = a[g] * 2.0;
    double w = v + 1.0;
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l & 1)
        v = -v + tmp[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s)
            tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    o[g] = v * w + tmp[0];
}

// Negations feeding fma, mad and multiplies (the multiplies contracted or
// not): a NaN operand's sign is the negation's, the module's bits, in
// every body. Cranelift folds a negation into the fma or multiply it
// feeds, keeping the NaN's sign from before it, and only where the two
// meet in one body (a uniform value negated before being splat does
// not fold), so the bodies differed when clift negated with `fneg`.
kernel void negations(global const double *a, global const double *b, global const float *f, global ulong *o,
                      global uint *of, int p) {
    size_t i = get_global_id(0), n = get_global_size(0);
    double u = sqrt((double)-p);
    double x = a[i], y = b[i];
    o[0 * n + i] = as_ulong(fma(-u, x, 1.0));
    o[1 * n + i] = as_ulong(fma(x, 2.0, -u));
    o[2 * n + i] = as_ulong(fma(-x, 3.0, 1.0));
    o[3 * n + i] = as_ulong((-x) * (-u));
    o[4 * n + i] = as_ulong(mad(-x, x, -u));
    o[5 * n + i] = as_ulong(fma(-y, 3.0, 1.0));
    o[6 * n + i] = as_ulong(u);
    float fu = sqrt((float)-p), fx = f[i];
    of[0 * n + i] = as_uint(fma(-fu, fx, 1.0f));
    of[1 * n + i] = as_uint(fma(-fx, 2.0f, 1.0f));
    of[2 * n + i] = as_uint((-fx) * (-fu));
    of[3 * n + i] = as_uint(fu);
}

// The same in a body holding its values as scalars per lane (its loop
// takes a 64-bit integer pair apart for `mul_hi`): the negation of a
// double must not be a vector there either.
kernel void negations_in_lanes(global const ulong *in, global ulong *o, int rounds) {
    size_t g = get_global_id(0);
    ulong h = in[g];
    double d = as_double(in[g + 1]);
    for (int r = 0; r < rounds; r++) {
        d = fma(-d, 1.25, 1.0);
        h = mul_hi(h, h) + 1;
    }
    o[2 * g] = h;
    o[2 * g + 1] = as_ulong(d);
}
