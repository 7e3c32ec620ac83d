/* A pad lost mid-play, seen through the C interface on a real kernel (the testbench runs it against a
 * virtual DualSense bound by hid-playstation, then unplugs the pad while a looping pattern plays).
 *
 *   haptics_c_device_lost NODE PATTERN
 *
 * It opens NODE, starts PATTERN looping on it, prints "playing" and waits for a line on stdin (the
 * pad is unplugged meanwhile); then it checks what a game sees: the loss as an event, the device's
 * state, the codes of what it tries next, the player's end, and a clean shutdown. Each step prints
 * one line on stdout; failed checks go to stderr with their line, and the last line is
 * "c-device-lost: N checks, M failed" (exit 1 when any failed). */
#define _POSIX_C_SOURCE 200809L
#include <haptics/haptics.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "checks.h"

static void sleep_ms(long milliseconds) {
    struct timespec pause;
    pause.tv_sec = milliseconds / 1000;
    pause.tv_nsec = (milliseconds % 1000) * 1000000L;
    nanosleep(&pause, NULL);
}

/* Waits up to `timeout_ms` for an event of `type`, copying it into *found; returns 1 when it came. */
static int wait_for_event(haptics_engine *engine, int type, int timeout_ms, haptics_event *found) {
    haptics_event event;
    int waited;
    for (waited = 0; waited <= timeout_ms; waited += 10) {
        memset(&event, 0, sizeof event);
        event.size = sizeof event;
        while (haptics_poll_event(engine, &event) == 1) {
            if (event.type == type) {
                *found = event;
                return 1;
            }
            memset(&event, 0, sizeof event);
            event.size = sizeof event;
        }
        sleep_ms(10);
    }
    return 0;
}

static int finish(void) {
    printf("c-device-lost: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *node;
    haptics_engine *engine = NULL;
    haptics_player *hum = NULL;
    haptics_device_info info;
    haptics_outcome outcome;
    haptics_event event;
    char line[64];
    int id, result;

    if (argc != 3) {
        fprintf(stderr, "usage: haptics_c_device_lost NODE PATTERN\n");
        return 64;
    }
    node = argv[1];
    CHECK_INT(haptics_engine_new_with_nodes(&node, 1, &engine), 0);
    if (engine == NULL) return finish();
    CHECK_INT(haptics_device_count(engine), 1);
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_INT(haptics_device_get_info(engine, 0, &info), 0);
    CHECK_INT(info.state, HAPTICS_DEVICE_AVAILABLE);
    id = info.id;
    printf("opened: %s (%s)\n", info.name, info.profile);

    CHECK_INT(haptics_device_player_new_from_file(engine, id, argv[2], &hum), 0);
    if (hum == NULL) {
        haptics_engine_free(engine);
        return finish();
    }
    CHECK_INT(haptics_player_set_looping(hum, 1, 0), 0);
    CHECK_INT(haptics_player_start(hum, 0, 0, NULL), 0);
    CHECK_INT(player_state_once(hum, HAPTICS_PLAYER_PLAYING, NULL), HAPTICS_PLAYER_PLAYING);
    printf("playing\n");
    fflush(stdout);

    /* The pad is unplugged while the pattern loops. */
    if (fgets(line, sizeof line, stdin) == NULL) {
        fprintf(stderr, "haptics_c_device_lost: stdin closed before the pad was unplugged\n");
        failures++;
    }

    /* The loss arrives as an event naming the node, with the kernel's error. */
    memset(&event, 0, sizeof event);
    CHECK_INT(wait_for_event(engine, HAPTICS_EVENT_DEVICE_LOST, 3000, &event), 1);
    CHECK_INT(strcmp(event.path, node), 0);
    printf("lost: %s (%s)\n", event.name, haptics_strerror(event.error));

    /* The device stays listed, as lost, under the same id. */
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_INT(haptics_device_count(engine), 1);
    CHECK_INT(haptics_device_get_info(engine, 0, &info), 0);
    CHECK_INT(info.id, id);
    CHECK_INT(info.state, HAPTICS_DEVICE_LOST);
    printf("state: lost, id unchanged\n");

    /* The player's start ended because its device went: once, as stopped. */
    memset(&event, 0, sizeof event);
    CHECK_INT(wait_for_event(engine, HAPTICS_EVENT_PLAYER_FINISHED, 3000, &event), 1);
    CHECK_INT(event.player == hum, 1);
    CHECK_INT(event.error, -ECANCELED);
    printf("player finished: %s\n", event.error == -ECANCELED ? "stopped first (-ECANCELED)" : "played to its end");

    /* What the game tries next is refused with a code, not played into nothing. */
    memset(&outcome, 0, sizeof outcome);
    outcome.size = sizeof outcome;
    result = haptics_device_play(engine, id, HAPTICS_IMPACT_HEAVY, 1, 0, &outcome);
    CHECK_INT(result, -ENODEV);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NO_DEVICE);
    printf("device play: %s\n", haptics_strerror(result));
    result = haptics_device_rumble(engine, id, 1, 1, 100000000, NULL);
    CHECK_INT(result, -ENODEV);
    printf("device rumble: %s\n", haptics_strerror(result));
    result = haptics_player_start(hum, 0, 0, NULL);
    CHECK_INT(result, -ENODEV);
    printf("player restart: %s\n", haptics_strerror(result));

    haptics_player_free(hum);
    haptics_engine_free(engine);
    printf("freed\n");
    return finish();
}
