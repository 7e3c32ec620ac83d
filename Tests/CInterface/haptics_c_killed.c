/* A game killed with SIGKILL while it rumbles. The soak in the kernel testbench runs it beside an
 * engine of its own, on the same pads, and kills it before or after its rumble ends.
 *
 *   haptics_c_killed LOW HIGH MILLISECONDS NODE...
 *
 * It starts an engine on the NODEs, rumbles every one at LOW and HIGH (0…1) for MILLISECONDS,
 * prints "rumbling" and waits for its standard input to close. A killed process cleans up nothing:
 * the kernel closes its descriptors, which erases the effects it uploaded and stops what they
 * play. That is what the soak checks. Exits 1 with a message on stderr when a call fails. */
#include <haptics/haptics.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    haptics_engine *engine = NULL;
    int status;
    if (argc < 5) {
        fprintf(stderr, "usage: haptics_c_killed LOW HIGH MILLISECONDS NODE...\n");
        return 64;
    }
    status = haptics_engine_new_with_nodes((const char *const *)(argv + 4), (size_t)(argc - 4), &engine);
    if (status != 0) {
        fprintf(stderr, "haptics_engine_new_with_nodes: %d (%s)\n", status, haptics_last_error());
        return 1;
    }
    status = haptics_rumble(engine, atof(argv[1]), atof(argv[2]), HAPTICS_MS(atol(argv[3])), NULL);
    if (status != 0) {
        fprintf(stderr, "haptics_rumble: %d (%s)\n", status, haptics_last_error());
        haptics_engine_free(engine);
        return 1;
    }
    printf("rumbling\n");
    fflush(stdout);
    while (getchar() != EOF) {
    }
    haptics_engine_free(engine);
    return 0;
}
