// Callgrind client requests for the instruction counts of `Tools/bench calls`: a few instructions
// (a no-op sequence) outside valgrind.
#include "CBenchSupport.h"
#include <valgrind/callgrind.h>

void CBenchSupport_toggleInstructionCounting(void) {
    CALLGRIND_TOGGLE_COLLECT;
}
