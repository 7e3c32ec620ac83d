#include "CBenchSupport.h"
int64_t CBenchSupport_placeholder(void) { return 0; }
