// Integer operations on char and uchar, scalar and every vector width (arith_int.h).
#include "arith_int.h"
#define T char
INT_TYPE(char)
#undef T
#define T uchar
INT_TYPE(uchar)
