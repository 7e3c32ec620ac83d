// Baselines and counters for the benchmarks (not part of the library).
#ifndef CBENCH_SUPPORT_H
#define CBENCH_SUPPORT_H
#include <stdint.h>
int64_t CBenchSupport_placeholder(void);
#endif
