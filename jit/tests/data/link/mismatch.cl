// offset with another type than lib_c2 imports it as: a type mismatch.
long offset(long i) { return i + 1; }
