// Exports offset; helper is static and stays private to this module.
static int helper(int i) { return i * 3; }

int offset(int i) { return helper(i) + 100; }
