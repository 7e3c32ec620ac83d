/* A small two-player game's haptics in C: a 60 Hz loop, each player on their own pad, the
 * vocabulary on UI events, a looping engine hum (hum.ahap) on player 1's accelerator, which
 * stiffens on a DualSense (adaptive triggers), and a hit rumble on player 2's pad. The players' input is scripted, so every run does the same.
 *
 *   ./game --simulated           two simulated pads (no hardware)
 *   ./game                       every force-feedback pad in /dev/input
 *   ./game NODE NODE             these two event nodes (/dev/input/eventN)
 *
 * Prints what each event did, one line each, and exits 1 if anything failed. */
#define _POSIX_C_SOURCE 200809L
#include <haptics/haptics.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef HUM_PATTERN
#define HUM_PATTERN "hum.ahap" /* next to the game */
#endif
#define FRAMES 200
#define FRAME_NS (1000000000LL / 60)

static int failures;

/* Prints an event's result. A refusal counts as a failure, but for -ENODEV: no real pad is there
 * to feel it (the engine fell back to a simulated one), which is no fault of the game. */
static void report(int frame, const char *what, int result) {
    if (result == 0) {
        printf("frame %d: %s: played\n", frame, what);
    } else {
        printf("frame %d: %s: not played (%s)\n", frame, what, haptics_strerror(result));
        if (result != -ENODEV) failures++;
    }
}

static double throttle(int frame) {
    if (frame < 30 || frame >= 150) return 0;
    return frame - 30 >= 60 ? 1.0 : (frame - 30) / 60.0;
}

static haptics_engine *open_engine(int argc, char **argv) {
    haptics_engine *engine = NULL;
    int result;
    if (argc == 2 && strcmp(argv[1], "--simulated") == 0) {
        result = haptics_engine_new_simulated(2, &engine);
    } else if (argc == 3) {
        const char *nodes[2];
        nodes[0] = argv[1];
        nodes[1] = argv[2];
        result = haptics_engine_new_with_nodes(nodes, 2, &engine);
    } else {
        result = haptics_engine_new_automatic(&engine);
    }
    if (result < 0) {
        fprintf(stderr, "game: no engine: %s (%s)\n", haptics_strerror(result), haptics_last_error());
        return NULL;
    }
    return engine;
}

int main(int argc, char **argv) {
    haptics_engine *engine = open_engine(argc, argv);
    haptics_player *hum = NULL;
    haptics_device_info info;
    int pads[2] = {-1, -1};
    int triggers[2] = {0, 0}; /* whether each player's pad has adaptive triggers */
    int count = 0, index, frame, result;
    struct timespec deadline;

    if (engine == NULL) return 1;
    /* The first two available devices are the players' pads (one pad: both players share it). */
    for (index = 0; index < haptics_device_count(engine) && count < 2; index++) {
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (haptics_device_get_info(engine, index, &info) == 0 && info.state == HAPTICS_DEVICE_AVAILABLE) {
            printf("player %d: %s (%s)%s%s\n", count + 1, info.name, info.profile,
                   info.sdl_guid[0] ? ", SDL GUID " : "", info.sdl_guid);
            triggers[count] = (info.capabilities & HAPTICS_CAPABILITY_ADAPTIVE_TRIGGERS) != 0;
            pads[count++] = info.id;
        }
    }
    if (count == 0) {
        fprintf(stderr, "game: no available pad\n");
        haptics_engine_free(engine);
        return 1;
    }
    if (count == 1) {
        pads[1] = pads[0];
        triggers[1] = triggers[0];
    }

    result = haptics_device_player_new_from_file(engine, pads[0], HUM_PATTERN, &hum);   /* player 1's alone */
    if (result < 0) {
        fprintf(stderr, "game: %s: %s\n", HUM_PATTERN, haptics_last_error());
        haptics_engine_free(engine);
        return 1;
    }

    clock_gettime(CLOCK_MONOTONIC, &deadline);
    for (frame = 0; frame < FRAMES; frame++) {
        switch (frame) {
        case 0:
            report(frame, "menu: focus moves", haptics_play(engine, HAPTICS_SELECTION, 1, 0, NULL));
            break;
        case 20:
            report(frame, "menu: game starts", haptics_play(engine, HAPTICS_NOTIFICATION_SUCCESS, 1, 0, NULL));
            haptics_device_prepare(engine, pads[1], HAPTICS_IMPACT_HEAVY);
            break;
        case 30:
            haptics_player_set_looping(hum, 1, 0);
            report(frame, "player 1 presses the accelerator: hum starts", haptics_player_start(hum, 0, 0, NULL));
            if (triggers[0]) {
                /* Resistance from zone 2 on, strength 4 of 8: the accelerator's spring. */
                haptics_trigger_effect spring = { sizeof spring, HAPTICS_TRIGGER_FEEDBACK, { 2, 4 } };
                report(frame, "player 1's accelerator stiffens",
                       haptics_device_set_trigger_effect(engine, pads[0], HAPTICS_TRIGGER_RIGHT, &spring));
            }
            break;
        case 90:
            report(frame, "player 2 is hit: rumble 150 ms",
                   haptics_device_rumble(engine, pads[1], 1.0, 0.4, 150000000, NULL));
            break;
        case 120:
            report(frame, "player 2 is hit again",
                   haptics_device_play(engine, pads[1], HAPTICS_IMPACT_HEAVY, 0.7, 0, NULL));
            break;
        case 150:
            haptics_player_stop(hum, 0);
            printf("frame %d: player 1 lets go: hum stops\n", frame);
            if (triggers[0]) report(frame, "player 1's accelerator eases", haptics_device_reset_triggers(engine, pads[0]));
            break;
        case 170:
            report(frame, "game over: player 1 wins",
                   haptics_device_play(engine, pads[0], HAPTICS_NOTIFICATION_SUCCESS, 1, 0, NULL));
            report(frame, "game over: player 2 loses",
                   haptics_device_play(engine, pads[1], HAPTICS_NOTIFICATION_WARNING, 1, 0, NULL));
            break;
        default:
            break;
        }
        if (frame >= 30 && frame < 150) {
            /* Every frame, like a game's update: realtime-safe, one lock-free submission. */
            haptics_player_set_parameter(hum, HAPTICS_PARAMETER_INTENSITY, throttle(frame), 0);
        }
        deadline.tv_nsec += FRAME_NS;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_nsec -= 1000000000L;
            deadline.tv_sec += 1;
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL);
    }
    haptics_player_free(hum);
    haptics_engine_free(engine); /* every pad silent, every trigger off */
    printf("game over: %d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
