// A second definition of scale: a duplicate symbol next to lib_b.
float scale(float x) { return x * 3.0f; }
