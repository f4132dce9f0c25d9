// Integer operations on int and uint, scalar and every vector width (arith_int.h).
#include "arith_int.h"
#define T int
INT_TYPE(int)
#undef T
#define T uint
INT_TYPE(uint)
