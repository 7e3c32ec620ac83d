/* The C interface's declarations, for the Swift module that defines it (HapticsC): the header is
 * the one source of the structs' layouts. Compiling it here also checks that it is valid C. */
#include <haptics/haptics.h>

/* The version is the header's: one place says it. */
const char *haptics_version(void) {
    return HAPTICS_VERSION_STRING;
}
