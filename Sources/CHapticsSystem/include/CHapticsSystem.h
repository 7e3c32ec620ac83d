// Shims for system calls the scheduler needs and Swift cannot call directly:
// prctl() is variadic, and thread naming/priority are clearer behind one tiny C function each.
#ifndef CHAPTICS_SYSTEM_H
#define CHAPTICS_SYSTEM_H
#include <stdint.h>

/// Returns CLOCK_MONOTONIC now, in nanoseconds. The engine's one clock.
int64_t CHapticsSystem_monotonicNow(void);

#endif
