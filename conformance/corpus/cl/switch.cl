// switch statements: dense cases (a jump table), sparse cases, fall-through,
// default in the middle, nested switches, switch on char / long / enum, a
// switch inside a loop with break and continue.

typedef enum { RED = 1, GREEN = 2, BLUE = 4, ALPHA = 8, NONE = 100 } channel;

kernel void dense_switch(global const int *op, global int *out, int a, int b) {
    size_t i = get_global_id(0);
    int r;
    switch (op[i]) {
    case 0: r = a + b; break;
    case 1: r = a - b; break;
    case 2: r = a * b; break;
    case 3: r = b ? a / b : 0; break;
    case 4: r = b ? a % b : 0; break;
    case 5: r = a & b; break;
    case 6: r = a | b; break;
    case 7: r = a ^ b; break;
    case 8: r = a << (b & 31); break;
    case 9: r = a >> (b & 31); break;
    case 10: r = a < b; break;
    case 11: r = a == b; break;
    case 12: r = -a; break;
    case 13: r = ~b; break;
    case 14: r = max(a, b); break;
    case 15: r = min(a, b); break;
    default: r = 0x7fffffff; break;
    }
    out[i] = r;
}

kernel void sparse_fallthrough(global const uint *key, global int *out) {
    size_t i = get_global_id(0);
    int r = 0;
    switch (key[i]) {
    case 1:
        r += 1;
        // fall through
    case 10:
        r += 10;
        // fall through
    case 100:
        r += 100;
        break;
    default:
        r = -1;
        // fall through
    case 1000:
        r += 1000;
        break;
    case 0xfffffff0u:
        r = 42;
        break;
    case 77777:
        return;
    }
    out[i] = r;
}

kernel void switch_types(global const char *c, global const long *l, global const int *e, global int *out) {
    size_t i = get_global_id(0);
    int r = 0;
    switch (c[i]) {
    case 'a': r = 1; break;
    case 'z': r = 26; break;
    case -128: r = -128; break;
    }
    switch (l[i]) {
    case 0x100000000L: r += 2; break;
    case -1L: r += 3; break;
    case 5: r += 5; break;
    }
    channel ch = (channel)e[i];
    switch (ch) {
    case RED: r *= 2; break;
    case GREEN: r *= 3; break;
    case BLUE: r *= 5; break;
    case ALPHA: r *= 7; break;
    case NONE: break;
    }
    out[i] = r;
}

// The opcode fields are whole bytes: clang-15 -O2 narrows a switch on a
// 4-bit field to i4, which llvm-spirv-15 rejects.
kernel void nested_switch_in_loop(global const uint *prog, global int *out, int n) {
    size_t i = get_global_id(0);
    int acc = 0, pc = 0, steps = 0;
    while (pc < n && steps < 1000) {
        steps++;
        uint insn = prog[pc];
        uint arg = insn & 0xff;
        switch (insn >> 24) {
        case 0:
            pc++;
            continue;          // continues the while loop
        case 1:
            switch (arg) {
            case 0: acc++; break;
            case 1: acc--; break;
            case 2: acc *= 2; break;
            default: acc += (int)arg; break;
            }
            break;
        case 2:
            pc = (int)arg;     // jump
            continue;
        case 3:
            if (acc == 0) {
                pc = n;        // halt
                continue;
            }
            break;
        default:
            acc ^= (int)insn;
            break;
        }
        pc++;
    }
    out[i] = acc;
}
