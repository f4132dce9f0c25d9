// A second importer of offset (next to lib_c2), with a kernel of its own.
extern int offset(int i);

kernel void add_offset(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = offset(i);
}
