// Integer operations on short and ushort, scalar and every vector width (arith_int.h).
#include "arith_int.h"
#define T short
INT_TYPE(short)
#undef T
#define T ushort
INT_TYPE(ushort)
