#define _GNU_SOURCE
#include "CHapticsSystem.h"
#include <time.h>

int64_t CHapticsSystem_monotonicNow(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
