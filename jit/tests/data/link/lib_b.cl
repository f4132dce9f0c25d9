// Exports scale, pair_sum and the program-scope variable counter.
typedef struct { int a; float b; } pair;

global int counter = 7;

float scale(float x) { return x * 2.0f; }

float pair_sum(const pair *p) { return (float)p->a + p->b * 0.5f; }
