// Private arrays: fixed-size arrays with dynamic indexing, 2-D arrays, arrays
// initialised from constants, arrays passed to noinline helpers by pointer,
// array copies through struct wrappers, sorting in private memory.

__attribute__((noinline)) int sum(const private int *a, int n) {
    int s = 0;
    for (int k = 0; k < n; k++)
        s += a[k];
    return s;
}

__attribute__((noinline)) void reverse(private int *a, int n) {
    for (int lo = 0, hi = n - 1; lo < hi; lo++, hi--) {
        int t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
    }
}

kernel void private_array(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[i * 16 + k];
    reverse(a, 16);
    a[in[i] & 15] = 0;
    out[i] = sum(a, 16) + a[3];
}

kernel void array_init(global int *out) {
    size_t i = get_global_id(0);
    const int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
    float weights[4] = {0.125f, 0.25f, 0.5f, 1.0f};
    out[i] = primes[i % 10] + (int)(weights[i & 3] * 8.0f);
}

kernel void matrix2d(global const float *a, global float *out) {
    size_t i = get_global_id(0);
    float m[4][4];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            m[r][c] = a[i * 16 + r * 4 + c];
    float det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
    float tr = 0.0f;
    for (int d = 0; d < 4; d++)
        tr += m[d][d];
    out[i] = det + tr;
}

// Insertion sort of a private window.
kernel void sort8(global int *data) {
    size_t i = get_global_id(0);
    int v[8];
    for (int k = 0; k < 8; k++)
        v[k] = data[i * 8 + k];
    for (int k = 1; k < 8; k++) {
        int x = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
    for (int k = 0; k < 8; k++)
        data[i * 8 + k] = v[k];
}

typedef struct { int v[6]; } box6;

__attribute__((noinline)) box6 doubled(box6 b) {
    for (int k = 0; k < 6; k++)
        b.v[k] *= 2;
    return b;
}

kernel void array_in_struct(global box6 *boxes) {
    size_t i = get_global_id(0);
    box6 b = boxes[i];
    box6 c = doubled(b);
    c.v[i % 6] = b.v[0];
    boxes[i] = c;
}

// An array of vectors and an array of pointers.
kernel void vector_array(global float4 *p, global int *a, global int *b) {
    size_t i = get_global_id(0);
    float4 rows[3] = {p[0], p[1], p[2]};
    global int *which[2] = {a, b};
    which[i & 1][i] += (int)rows[i % 3][i & 3];
    p[i] = rows[(i + 1) % 3];
}
