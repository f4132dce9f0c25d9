// Integer operations on long and ulong, scalar and every vector width (arith_int.h).
#include "arith_int.h"
#define T long
INT_TYPE(long)
#undef T
#define T ulong
INT_TYPE(ulong)
