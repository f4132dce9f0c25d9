// A recursive type (OpTypeForwardPointer) shared across modules.
struct node { struct node *next; int v; };

extern int list_sum(struct node *n);

kernel void lists(global int *out) {
  int i = (int)get_global_id(0);
  struct node a = { 0, i };
  struct node b = { &a, 10 };
  struct node c = { &b, 100 };
  out[i] = list_sum(&c);
}
