// Walks a linked list of the recursive type list_kernel.cl uses.
struct node { struct node *next; int v; };

int list_sum(struct node *n) {
  int s = 0;
  while (n) {
    s += n->v;
    n = n->next;
  }
  return s;
}
