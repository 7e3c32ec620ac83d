/* A game that sets a trigger effect and exits without freeing its engine. The kernel testbench runs
 * it on a virtual DualSense and checks that the pad's triggers are off once it has exited: the
 * kernel takes back a closing process's rumble, but a trigger effect is the pad's own state, so the
 * engine sets it off on the way out (an exit handler).
 *
 *   haptics_c_exits NODE
 *
 * Starts an engine on NODE, sets the right trigger to weapon:2,6,8, prints "set", waits 300 ms for
 * the report to go out and returns from main without haptics_engine_free. Exits 1 with a message
 * on stderr when a call fails. */
#define _POSIX_C_SOURCE 199309L /* nanosleep under -std=c99 */

#include <haptics/haptics.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
    const char *node;
    haptics_engine *engine = NULL;
    haptics_device_info info;
    struct timespec wait = {0, 300000000L};
    int status;
    if (argc != 2) {
        fprintf(stderr, "usage: haptics_c_exits NODE\n");
        return 64;
    }
    node = argv[1];
    status = haptics_engine_new_with_nodes(&node, 1, &engine);
    if (status != 0) {
        fprintf(stderr, "haptics_engine_new_with_nodes: %d (%s)\n", status, haptics_last_error());
        return 1;
    }
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    status = haptics_device_get_info(engine, 0, &info);
    if (status == 0) status = haptics_device_set_trigger_effect_text(engine, info.id, HAPTICS_TRIGGER_RIGHT, "weapon:2,6,8");
    if (status != 0) {
        fprintf(stderr, "setting the trigger effect: %d (%s)\n", status, haptics_last_error());
        return 1;
    }
    printf("set\n");
    fflush(stdout);
    nanosleep(&wait, NULL);
    /* No haptics_engine_free: the process's exit ends the effect. */
    return 0;
}
