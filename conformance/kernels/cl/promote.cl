// regen.sh flags: -ffp-contract=off
// Function variables that the build turns into values (jit/src/promote.rs)
// and the ones it keeps in memory, in the shapes clang -O0 makes of
// them: a store in one arm only, loops with breaks whose exits differ
// between work-items, nested loops with a do-while and a switch, values
// carried around a loop, variables whose address escapes, component
// writes, float3 variables, a volatile variable, values kept across
// barriers. tests/exec_promote.rs compares each with a host reference;
// the harness also compares every launch with the module run as written
// (variables in memory, one work-item at a time). Compiled without
// contraction, so that the host reference computes the same float steps.

kernel void one_arm(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int v = 7;
    if (in[i] & 1)
        v = in[i] * 3;
    int w;
    if (in[i] > 0)
        w = 1;
    else
        w = -1;
    out[i] = v + w;
}

kernel void early_exit(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int acc = 0;
    int k;
    for (k = 0; k < 64; k++) {
        acc += in[(i + k) % 256];
        if (acc > in[i] * 4) {
            acc -= k;
            break;
        }
    }
    out[2 * i] = acc;
    out[2 * i + 1] = k;
}

kernel void nested(global const float *in, global float *out, int n)
{
    size_t i = get_global_id(0);
    float s = 0.0f;
    for (int a = 0; a < n; a++) {
        int b = 0;
        do {
            s += in[(i + a * b) % 128] * (float)b;
            b++;
        } while (b < (int)(i % 5));
        switch ((a * 5 + (int)i) % 7) {
        case 0:
            s *= 0.5f;
            break;
        case 3:
            s += 1.0f;
            break;
        default:
            s -= (float)a;
        }
    }
    out[i] = s;
}

kernel void carried(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int prev = 0, cur = 0;
    for (int k = 0; k < (int)(i % 7) + 1; k++) {
        prev = cur;
        cur = cur * 3 + in[(i + k) % 64];
    }
    out[2 * i] = prev;
    out[2 * i + 1] = cur;
}

void bump(private int *p)
{
    *p += 5;
}

kernel void escapes(global const int *in, global int *out, global float *f)
{
    size_t i = get_global_id(0);
    int x = in[i];
    bump(&x);
    int4 v = (int4)(x, 1, 2, 3);
    v.y = in[(i + 1) % 64];
    float3 p = (float3)((float)in[i], 2.0f, 3.0f);
    p.xy += (float2)(1.0f, (float)x);
    float3 q = p * 2.0f;
    out[i] = x + v.y + v.w;
    vstore3(q, i, f);
}

kernel void volatile_local(global const int *in, global int *out)
{
    volatile int t = in[get_global_id(0)];
    t = t * 2;
    out[get_global_id(0)] = t + 1;
}

kernel void across_barrier(global const int *in, global int *out, local int *tmp)
{
    size_t l = get_local_id(0);
    int acc = 0;
    for (int k = 0; k < (int)(l % 5); k++)
        acc += in[k];
    tmp[l] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    int other = tmp[(l + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < 2; k++) {
        tmp[l] = other + k;
        barrier(CLK_LOCAL_MEM_FENCE);
        other += tmp[(l + 3) % get_local_size(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = acc * 1000 + other;
}
