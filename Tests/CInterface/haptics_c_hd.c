/* A game that plays a pattern file on a DualSense with the player calls it uses for rumble; the
 * kernel testbench runs it on a virtual DualSense over Bluetooth and checks that the pad receives
 * the pattern as HD haptics (output report 0x32), not as rumble.
 *
 *   haptics_c_hd NODE PATTERN
 *
 * Starts an engine on NODE, loads PATTERN, prepares it, prints "hd 1" when the pad plays HD haptics
 * (HAPTICS_CAPABILITY_HD_HAPTICS), starts it as soon as possible, prints "started FELT_AT" (monotonic ns), waits until the
 * player has stopped (at most 2 s), prints "finished" and frees everything. Exits 1 with a message
 * on stderr when a call fails. */
#define _POSIX_C_SOURCE 199309L /* nanosleep under -std=c99 */

#include <haptics/haptics.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

static int fail(const char *call, int status) {
    fprintf(stderr, "%s: %d (%s)\n", call, status, haptics_last_error());
    return 1;
}

int main(int argc, char **argv) {
    const char *node;
    haptics_engine *engine = NULL;
    haptics_player *player = NULL;
    haptics_device_info info;
    haptics_outcome outcome;
    struct timespec tick = {0, 10000000L};
    int32_t state = 1;
    int64_t position = 0;
    int status, waited;
    if (argc != 3) {
        fprintf(stderr, "usage: haptics_c_hd NODE PATTERN\n");
        return 64;
    }
    node = argv[1];
    if ((status = haptics_engine_new_with_nodes(&node, 1, &engine)) != 0) return fail("haptics_engine_new_with_nodes", status);
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if ((status = haptics_device_get_info(engine, 0, &info)) != 0) return fail("haptics_device_get_info", status);
    printf("hd %d\n", (info.capabilities & HAPTICS_CAPABILITY_HD_HAPTICS) != 0);
    if ((status = haptics_player_new_from_file(engine, argv[2], &player)) != 0) return fail("haptics_player_new_from_file", status);
    if ((status = haptics_player_prepare(player)) != 0) return fail("haptics_player_prepare", status);
    memset(&outcome, 0, sizeof outcome);
    outcome.size = sizeof outcome;
    if ((status = haptics_player_start(player, 0, 0, &outcome)) != 0) return fail("haptics_player_start", status);
    printf("started %lld\n", (long long)outcome.felt_at);
    fflush(stdout);
    for (waited = 0; waited < 200 && state != 0; waited++) {
        nanosleep(&tick, NULL);
        if ((status = haptics_player_get_state(player, &state, &position)) != 0) return fail("haptics_player_get_state", status);
    }
    printf(state == 0 ? "finished\n" : "still playing\n");
    fflush(stdout);
    haptics_player_free(player);
    haptics_engine_free(engine);
    return state == 0 ? 0 : 1;
}
