/* The C interface's declarations, for the Swift module that defines it (HapticsC): the header is
 * the one source of the structs' layouts. Compiling it here also checks that it is valid C. */
#include <haptics/haptics.h>
