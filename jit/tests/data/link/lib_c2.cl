// Exports offset_twice, importing offset from lib_c.
extern int offset(int i);

int offset_twice(int i) { return offset(offset(i)) + 100; }
