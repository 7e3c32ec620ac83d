/* The C interface, called as a C program calls it: every function of <haptics/haptics.h>, with its
 * error paths, on simulated devices (no hardware). Prints each failed check with its line and exits
 * 1 when any failed; the last line is "c-interface: N checks, M failed". */
#define _POSIX_C_SOURCE 200809L
#include <haptics/haptics.h>

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"

static int first_device = -1;
static int second_device = -1;

static const char pattern_text[] =
    "{ \"Version\": 1, \"Pattern\": [\n"
    "  { \"Event\": { \"Time\": 0, \"EventType\": \"HapticContinuous\", \"EventDuration\": 0.5,\n"
    "    \"EventParameters\": [ { \"ParameterID\": \"HapticIntensity\", \"ParameterValue\": 0.8 } ] } }\n"
    "] }\n";

static const char bad_text[] = "{ \"Pattern\": [ 1 ] }";

static const char clip_text[] =
    "{ \"version\": { \"major\": 1, \"minor\": 0, \"patch\": 0 },\n"
    "  \"signals\": { \"continuous\": { \"envelopes\": { \"amplitude\": [\n"
    "    { \"time\": 0, \"amplitude\": 0.6 }, { \"time\": 0.2, \"amplitude\": 0.6 } ] } } } }\n";

static const char future_clip_text[] = "{ \"version\": { \"major\": 2 }, \"signals\": {} }";

static haptics_outcome outcome_of_size(void) {
    haptics_outcome outcome;
    memset(&outcome, 0xAB, sizeof outcome);
    outcome.size = sizeof outcome;
    return outcome;
}

/* Writes the trace so far to `path` and reads it into `text` (`capacity` bytes, NUL-terminated). */
static void read_trace(haptics_engine *engine, const char *path, char *text, size_t capacity) {
    text[0] = 0;
    if (haptics_write_trace(engine, path) != 0) return;
    FILE *file = fopen(path, "r");
    if (file == NULL) return;
    size_t length = fread(text, 1, capacity - 1, file);
    fclose(file);
    text[length] = 0;
}

static void test_version_errors_clock(void) {
    int64_t before, after;
    char version[32];
    CHECK_STR(haptics_version(), HAPTICS_VERSION_STRING);
    snprintf(version, sizeof version, "%d.%d.%d", HAPTICS_VERSION_MAJOR, HAPTICS_VERSION_MINOR, HAPTICS_VERSION_PATCH);
    CHECK_STR(haptics_version(), version);
    /* Spans are nanoseconds; the helpers give int64_t. */
    CHECK_INT(HAPTICS_MS(200), 200000000);
    CHECK_INT(HAPTICS_MS(1), 1000000);
    CHECK_INT(HAPTICS_SECONDS(1.5), 1500000000);
    CHECK_INT(HAPTICS_SECONDS(3600), 3600000000000LL);
    CHECK_INT(sizeof(HAPTICS_MS(1)), sizeof(int64_t));
    CHECK_INT(sizeof(HAPTICS_SECONDS(1)), sizeof(int64_t));
    CHECK_STR(haptics_strerror(0), "success");
    CHECK_STR(haptics_strerror(-ENODEV), "no haptic device");
    CHECK_STR(haptics_strerror(ENODEV), "no haptic device");
    CHECK_STR(haptics_strerror(-ECANCELED), "haptics are switched off, muted, or the application is inactive");
    CHECK_STR(haptics_strerror(-12345), "unknown error");
    CHECK_STR(haptics_last_error(), "");
    before = haptics_now();
    after = haptics_now();
    CHECK(before > 0);
    CHECK(after >= before);
}

static void test_handles(void) {
    haptics_engine *engine = NULL;
    uint64_t garbage[8] = {0};
    haptics_outcome outcome = outcome_of_size();
    CHECK_INT(haptics_engine_new_simulated(0, &engine), -EINVAL);
    CHECK_INT(haptics_engine_new_simulated(17, &engine), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_engine_new_simulated: count 17 is outside 1…16, or the engine pointer is NULL");
    CHECK_INT(haptics_engine_new_simulated(1, NULL), -EINVAL);
    CHECK(engine == NULL);
    CHECK_INT(haptics_play(NULL, HAPTICS_SELECTION, 1, 0, &outcome), -EINVAL);
    CHECK_INT(haptics_play((haptics_engine *)garbage, HAPTICS_SELECTION, 1, 0, &outcome), -EBADF);
    CHECK_INT(haptics_player_stop((haptics_player *)garbage, 0), -EBADF);
    CHECK_INT(haptics_device_count(NULL), -EINVAL);
    CHECK_INT(haptics_engine_stop((haptics_engine *)garbage), -EBADF);
    CHECK_INT(haptics_stop_trace((haptics_engine *)garbage), -EBADF);
    haptics_engine_free(NULL);
    haptics_player_free(NULL);
    CHECK_INT(haptics_engine_new_with_nodes(NULL, 1, &engine), -EINVAL);
    {
        const char *missing[] = {"/nonexistent/event0"};
        CHECK_INT(haptics_engine_new_with_nodes(missing, 1, &engine), -ENOENT);
        CHECK(strstr(haptics_last_error(), "/nonexistent/event0") != NULL);
        CHECK_INT(haptics_engine_new_with_nodes(missing, 0, &engine), -EINVAL);
    }
}

static void test_devices(haptics_engine *engine) {
    haptics_device_info info;
    memset(&info, 0, sizeof info);
    CHECK_INT(haptics_device_count(engine), 2);
    CHECK_INT(haptics_device_get_info(engine, 0, &info), -EINVAL); /* size not set */
    info.size = sizeof info;
    CHECK_INT(haptics_device_get_info(engine, 2, &info), -ERANGE);
    CHECK_STR(haptics_last_error(), "haptics_device_get_info: no device 2; the engine has 2");
    CHECK_INT(haptics_device_get_info(engine, -1, &info), -ERANGE);
    CHECK_INT(haptics_device_get_info(engine, 1, &info), 0);
    CHECK_INT(info.state, HAPTICS_DEVICE_AVAILABLE);
    CHECK_INT(info.error, 0);
    CHECK_INT(info.simulated, 1);
    CHECK_STR(info.name, "simulated");
    CHECK_STR(info.path, "");
    CHECK_STR(info.sdl_guid, "");
    CHECK_STR(info.sdl_hidapi_guid, "");
    CHECK_STR(info.profile, "simulated");
    CHECK_INT(info.capabilities, 0); /* simulated: no kernel force feedback */
    CHECK_INT(info.effect_slots, 0);
    second_device = info.id;
    CHECK_INT(haptics_device_get_info(engine, 0, &info), 0);
    first_device = info.id;
    CHECK(first_device != second_device);
    CHECK_INT(haptics_device_get_info(engine, 0, NULL), -EINVAL);

    /* A program built against the 0.9 header: its struct ends at `profile`; the newer fields are
     * not written. One byte less is refused. */
    {
        size_t old_size = offsetof(haptics_device_info, capabilities);
        memset(&info, 0xAB, sizeof info);
        info.size = (uint32_t)old_size;
        CHECK_INT(old_size, 416);
        CHECK_INT(sizeof info, 460);
        CHECK_INT(haptics_device_get_info(engine, 1, &info), 0);
        CHECK_INT(info.size, old_size);
        CHECK_INT(info.id, second_device);
        CHECK_STR(info.profile, "simulated");
        CHECK_INT(info.capabilities, 0xABABABABu);
        CHECK_INT(info.effect_slots, (int32_t)0xABABABABu);
        CHECK_INT((unsigned char)info.sdl_hidapi_guid[0], 0xAB);
        info.size = (uint32_t)old_size - 1;
        CHECK_INT(haptics_device_get_info(engine, 1, &info), -EINVAL);
    }
    /* The capability bits: one each, trigger and HD haptics bits (4…15) left free. */
    CHECK_INT(HAPTICS_CAPABILITY_RUMBLE | HAPTICS_CAPABILITY_PERIODIC | HAPTICS_CAPABILITY_CONSTANT | HAPTICS_CAPABILITY_GAIN, 0xF);

    /* Found by path: simulated devices have no node; a bad argument is refused. */
    CHECK_INT(haptics_device_find_by_path(engine, "/dev/input/event5"), -ENODEV);
    CHECK_STR(haptics_last_error(), "haptics_device_find_by_path: no device of the engine has the node /dev/input/event5");
    CHECK_INT(haptics_device_find_by_path(engine, "/dev/hidraw0"), -ENODEV);
    CHECK_INT(haptics_device_find_by_path(engine, NULL), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_find_by_path: path is NULL");
    CHECK_INT(haptics_device_find_by_path(NULL, "/dev/input/event5"), -EINVAL);
}

static void test_one_device(haptics_engine *engine) {
    haptics_outcome outcome = outcome_of_size();
    CHECK_INT(haptics_device_play(engine, second_device, HAPTICS_IMPACT_HEAVY, 0.7, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(haptics_device_play(engine, 999, HAPTICS_IMPACT_HEAVY, 1, 0, &outcome), -ENODEV);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NO_DEVICE);
    CHECK_INT(haptics_device_play(engine, -1, HAPTICS_SELECTION, 1, 0, &outcome), -ENODEV);
    CHECK_INT(haptics_device_play(engine, first_device, (haptics_feedback)9, 1, 0, &outcome), -EINVAL);
    CHECK_INT(haptics_device_prepare(engine, first_device, HAPTICS_SELECTION), 0);
    CHECK_INT(haptics_device_prepare(engine, first_device, (haptics_feedback)-1), -EINVAL);
    CHECK_INT(haptics_device_rumble(engine, second_device, 1, 0.4, 150000000, &outcome), 0);
    CHECK_INT(haptics_device_rumble(engine, 999, 1, 0.4, 150000000, &outcome), -ENODEV);
    CHECK_INT(haptics_device_rumble(engine, second_device, 1, 0.4, 150, &outcome), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_rumble: a duration of 150 ns is shorter than any device can play (1 ms); "
                                    "durations are nanoseconds: write HAPTICS_MS(150) for 150 ms");
    CHECK_INT(haptics_device_rumble(engine, second_device, 1, 0.4, HAPTICS_MS(150), &outcome), 0);
    CHECK_INT(haptics_device_set_motor_levels(engine, first_device, 0.2, 0.1, &outcome), 0);
    CHECK_INT(haptics_device_set_motor_levels(engine, first_device, 0, 0, NULL), 0);

    CHECK_INT(haptics_device_set_gain(engine, first_device, 0.5), 0);
    CHECK_INT(haptics_device_set_gain(engine, first_device, 1.5), -EINVAL);
    CHECK_INT(haptics_device_set_gain(engine, first_device, NAN), -EINVAL);
    CHECK_INT(haptics_device_set_gain(engine, 999, 0.5), -ENODEV);
    CHECK_STR(haptics_last_error(), "haptics_device_set_gain: no device with id 999");
    CHECK_INT(haptics_device_set_enabled(engine, second_device, 0), 0);
    CHECK_INT(haptics_device_play(engine, second_device, HAPTICS_SELECTION, 1, 0, &outcome), -ECANCELED);
    CHECK_INT(outcome.reason, HAPTICS_REASON_DISABLED);
    CHECK_INT(haptics_device_set_enabled(engine, second_device, 1), 0);
    CHECK_INT(haptics_device_play(engine, second_device, HAPTICS_SELECTION, 1, 0, &outcome), 0);

    CHECK_INT(haptics_device_set_profile(engine, first_device, "dualsense"), 0);
    CHECK_INT(haptics_device_set_profile(engine, first_device, "no-such-pad"), -EINVAL);
    CHECK(strstr(haptics_last_error(), "no-such-pad") != NULL);
    CHECK_INT(haptics_device_set_profile(engine, first_device, NULL), -EINVAL);
    CHECK_INT(haptics_device_load_profile(engine, first_device, "/nonexistent/pad.profile"), -ENOENT);
    CHECK_INT(haptics_device_set_profile(engine, first_device, "simulated"), 0);
}

static haptics_trigger_effect trigger_effect(int mode, int a, int b, int c) {
    haptics_trigger_effect effect;
    memset(&effect, 0, sizeof effect);
    effect.size = sizeof effect;
    effect.mode = mode;
    effect.values[0] = a;
    effect.values[1] = b;
    effect.values[2] = c;
    return effect;
}

/* Trigger effects are checked before any device is touched; a simulated device has no triggers. */
static void test_triggers(haptics_engine *engine) {
    haptics_trigger_effect weapon = trigger_effect(HAPTICS_TRIGGER_WEAPON, 2, 6, 8);
    haptics_trigger_effect bad = trigger_effect(HAPTICS_TRIGGER_WEAPON, 2, 9, 8);
    haptics_trigger_effect extra = trigger_effect(HAPTICS_TRIGGER_FEEDBACK, 3, 5, 1);
    haptics_trigger_effect debug = trigger_effect(0xFC, 0, 0, 0);
    haptics_device_info info;
    memset(&info, 0, sizeof info);
    info.size = sizeof info;
    CHECK_INT(HAPTICS_CAPABILITY_ADAPTIVE_TRIGGERS, 0x10);
    CHECK_INT(HAPTICS_CAPABILITY_HD_HAPTICS, 0x20);
    CHECK_INT(haptics_device_get_info(engine, 0, &info), 0);
    CHECK_INT(info.capabilities & HAPTICS_CAPABILITY_ADAPTIVE_TRIGGERS, 0);
    CHECK_INT(info.capabilities & HAPTICS_CAPABILITY_HD_HAPTICS, 0);
    /* HD haptics: a simulated device has no voice coils; checked before the file is read. */
    CHECK_INT(haptics_device_play_hd(engine, first_device, "no-such-file.ahap", NULL, 0), -ENOTSUP);
    CHECK_INT(haptics_device_play_hd(engine, 999, "no-such-file.ahap", NULL, 0), -ENODEV);
    CHECK_STR(haptics_last_error(), "haptics_device_play_hd: no device with id 999");
    CHECK_INT(haptics_device_play_hd(engine, first_device, NULL, NULL, 0), -EINVAL);
    CHECK_INT(haptics_device_play_hd(engine, first_device, "no-such-file.ahap", "2", -1), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_play_hd: the instant -1 is negative");
    CHECK_INT(haptics_device_stop_hd(engine, first_device), 0);
    CHECK_INT(haptics_device_stop_hd(engine, 999), -ENODEV);
    /* A device without voice coils takes the setting and keeps playing rumble. */
    CHECK_INT(haptics_device_set_hd(engine, first_device, 0, NULL), 0);
    CHECK_INT(haptics_device_set_hd(engine, first_device, 1, "2"), 0);
    CHECK_INT(haptics_device_set_hd(engine, 999, 1, NULL), -ENODEV);
    CHECK_STR(haptics_last_error(), "haptics_device_set_hd: no device with id 999");

    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, HAPTICS_TRIGGER_LEFT, &bad), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_set_trigger_effect: weapon end zone 9 is outside 3…8");
    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, HAPTICS_TRIGGER_BOTH, &extra), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_set_trigger_effect: feedback values[2] (unused) 1 is outside 0…0");
    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, HAPTICS_TRIGGER_RIGHT, &debug), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_set_trigger_effect: haptics_trigger_effect mode 252 is outside 0…9");
    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, 0, &weapon), -EINVAL);
    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, 4, &weapon), -EINVAL);
    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, HAPTICS_TRIGGER_LEFT, NULL), -EINVAL);
    CHECK_INT(haptics_device_set_trigger_effect(NULL, first_device, HAPTICS_TRIGGER_LEFT, &weapon), -EINVAL);
    CHECK_INT(haptics_device_set_trigger_effect_at(engine, first_device, HAPTICS_TRIGGER_LEFT, &weapon, -1), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_set_trigger_effect_at: the instant -1 is negative");
    CHECK_INT(haptics_device_set_trigger_effect_at(engine, first_device, HAPTICS_TRIGGER_LEFT, &weapon, haptics_now() + 1000000), -ENOTSUP);
    CHECK_INT(haptics_device_set_trigger_effect(engine, 999, HAPTICS_TRIGGER_LEFT, &weapon), -ENODEV);
    CHECK_STR(haptics_last_error(), "haptics_device_set_trigger_effect: no device with id 999");
    CHECK_INT(haptics_device_set_trigger_effect(engine, first_device, HAPTICS_TRIGGER_LEFT, &weapon), -ENOTSUP);
    CHECK(strstr(haptics_last_error(), "has no adaptive triggers") != NULL);

    CHECK_INT(haptics_device_set_trigger_effect_text(engine, first_device, HAPTICS_TRIGGER_RIGHT, "weapon:2,9,8"), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_device_set_trigger_effect_text: \"weapon:2,9,8\": weapon end zone 9 is outside 3…8");
    CHECK_INT(haptics_device_set_trigger_effect_text(engine, first_device, HAPTICS_TRIGGER_RIGHT, "zap:1"), -EINVAL);
    CHECK_INT(haptics_device_set_trigger_effect_text(engine, first_device, HAPTICS_TRIGGER_RIGHT, NULL), -EINVAL);
    CHECK_INT(haptics_device_set_trigger_effect_text(engine, first_device, HAPTICS_TRIGGER_RIGHT, "feedback:3,5"), -ENOTSUP);
    CHECK_INT(haptics_device_reset_triggers(engine, first_device), -ENOTSUP);
    CHECK_INT(haptics_device_reset_triggers(engine, 999), -ENODEV);
}

static void test_plays(haptics_engine *engine) {
    haptics_outcome outcome = outcome_of_size();
    int64_t now = haptics_now();
    double gain = -1;

    CHECK_INT(haptics_play(engine, HAPTICS_IMPACT_HEAVY, 0.7, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK(outcome.felt_at >= now);
    CHECK_INT(outcome.audio_reason, HAPTICS_REASON_NOT_REQUESTED);
    CHECK_INT(outcome.audible_at, 0);
    CHECK_INT(haptics_play(engine, HAPTICS_SELECTION, 1, 0, NULL), 0);

    CHECK_INT(haptics_play(engine, (haptics_feedback)99, 1, 0, &outcome), -EINVAL);
    CHECK_INT(outcome.reason, HAPTICS_REASON_UNSUPPORTED);
    CHECK_INT(haptics_play(engine, HAPTICS_IMPACT_LIGHT, NAN, 0, &outcome), -EINVAL);
    CHECK_INT(outcome.reason, HAPTICS_REASON_INVALID_INTENSITY);
    CHECK_INT(outcome.felt_at, 0);
    CHECK_INT(haptics_play(engine, HAPTICS_IMPACT_LIGHT, 1, haptics_now() + 7200000000000LL, &outcome), -ERANGE);
    CHECK_INT(outcome.reason, HAPTICS_REASON_ONSET_OUT_OF_RANGE);

    /* An onset ahead is kept exactly (simulated devices have no rise time). */
    now = haptics_now();
    CHECK_INT(haptics_play(engine, HAPTICS_NOTIFICATION_SUCCESS, 1, now + 100000000, &outcome), 0);
    CHECK_INT(outcome.felt_at, now + 100000000);
    CHECK_INT(haptics_play_synced(engine, HAPTICS_IMPACT_RIGID, 1, now + 200000000, &outcome), 0);
    CHECK_INT(outcome.felt_at, now + 200000000);
    CHECK_INT(haptics_play_with_sound(engine, HAPTICS_IMPACT_SOFT, 1, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(outcome.audio_reason, HAPTICS_REASON_NO_AUDIO_OUTPUT);

    /* The switches, and the reasons they give. */
    CHECK_INT(haptics_is_enabled(engine), 1);
    CHECK_INT(haptics_set_enabled(engine, 0), 0);
    CHECK_INT(haptics_is_enabled(engine), 0);
    CHECK_INT(haptics_play(engine, HAPTICS_SELECTION, 1, 0, &outcome), -ECANCELED);
    CHECK_INT(outcome.reason, HAPTICS_REASON_DISABLED);
    CHECK_INT(haptics_set_enabled(engine, 1), 0);

    CHECK_INT(haptics_set_gain(engine, NAN), -EINVAL);
    CHECK_INT(haptics_get_gain(engine, &gain), 0);
    CHECK(gain == 1.0);
    CHECK_INT(haptics_set_gain(engine, 5), 0);
    CHECK_INT(haptics_get_gain(engine, &gain), 0);
    CHECK(gain == 1.0);
    CHECK_INT(haptics_set_gain(engine, 0), 0);
    CHECK_INT(haptics_play(engine, HAPTICS_SELECTION, 1, 0, &outcome), -ECANCELED);
    CHECK_INT(outcome.reason, HAPTICS_REASON_MUTED);
    CHECK_INT(haptics_set_gain(engine, 0.5), 0);
    CHECK_INT(haptics_get_gain(engine, &gain), 0);
    CHECK(gain == 0.5);
    CHECK_INT(haptics_get_gain(engine, NULL), -EINVAL);

    CHECK_INT(haptics_set_application_active(engine, 0), 0);
    CHECK_INT(haptics_play(engine, HAPTICS_SELECTION, 1, 0, &outcome), -ECANCELED);
    CHECK_INT(outcome.reason, HAPTICS_REASON_APPLICATION_INACTIVE);
    CHECK_INT(haptics_set_application_active(engine, 1), 0);

    /* Rumble and motor levels. */
    CHECK_INT(haptics_rumble(engine, 0.3, 0.8, 200000000, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(haptics_rumble(engine, 0, 0, 200000000, &outcome), 0); /* stops */
    CHECK_INT(haptics_rumble(engine, NAN, 0.5, 200000000, &outcome), -EINVAL);
    CHECK_INT(outcome.reason, HAPTICS_REASON_INVALID_INTENSITY);
    CHECK_INT(haptics_rumble(engine, 2, -1, 600000000000LL, NULL), 0); /* clamped; ten minutes */
    /* Milliseconds passed as nanoseconds: 200 ns, which no device plays, is refused and named. */
    CHECK_INT(haptics_rumble(engine, 1, 1, 200, &outcome), -EINVAL);
    CHECK_INT(outcome.reason, HAPTICS_REASON_UNSUPPORTED);
    CHECK_STR(haptics_last_error(), "haptics_rumble: a duration of 200 ns is shorter than any device can play (1 ms); "
                                    "durations are nanoseconds: write HAPTICS_MS(200) for 200 ms");
    CHECK_INT(haptics_rumble(engine, 1, 1, HAPTICS_MS(1) - 1, NULL), -EINVAL);
    CHECK_INT(haptics_rumble(engine, 1, 1, HAPTICS_MS(1), NULL), 0);
    CHECK_INT(haptics_rumble(engine, 1, 1, 0, NULL), 0);  /* 0 or less stops, as before */
    CHECK_INT(haptics_rumble(engine, 1, 1, -1, NULL), 0);
    CHECK_INT(haptics_rumble(engine, 2, -1, HAPTICS_SECONDS(600), NULL), 0);
    CHECK_INT(haptics_set_motor_level_timeout(engine, 500000000), 0);
    CHECK_INT(haptics_set_motor_levels(engine, 0.5, 0.25, &outcome), 0);
    CHECK_INT(haptics_set_motor_levels(engine, 0.5, INFINITY, &outcome), -EINVAL);
    CHECK_INT(haptics_set_motor_levels(engine, 0, 0, NULL), 0);
    CHECK_INT(haptics_set_motor_levels(NULL, 0, 0, NULL), -EINVAL);

    CHECK_INT(haptics_prepare(engine, HAPTICS_IMPACT_MEDIUM), 0);
    CHECK_INT(haptics_prepare(engine, (haptics_feedback)42), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_prepare: 42 is not a haptics_feedback value (0…8)");

    /* Traces: a play traced, written as trace-event JSON; errors named. */
    CHECK_INT(haptics_start_trace(engine), 0);
    CHECK_INT(haptics_play(engine, HAPTICS_IMPACT_HEAVY, 1, 0, &outcome), 0);
    {
        char trace_path[] = "/tmp/haptics-c-trace-XXXXXX";
        int fd = mkstemp(trace_path);
        CHECK(fd >= 0);
        close(fd);
        CHECK_INT(haptics_write_trace(engine, trace_path), 0);
        /* The play may be left to the realtime thread: written while tracing goes on, until its
         * write and the flow's end are in (at most 2 s). */
        static char text[65536];
        struct timespec poll_time = {0, 1000000};
        read_trace(engine, trace_path, text, sizeof text);
        for (int polls = 0; polls < 2000 && !(strstr(text, "\"name\":\"write\"") && strstr(text, "\"ph\":\"f\"")); polls++) {
            nanosleep(&poll_time, NULL);
            read_trace(engine, trace_path, text, sizeof text);
        }
        CHECK_INT(haptics_stop_trace(engine), 0);
        CHECK(strncmp(text, "{\"traceEvents\":[", 16) == 0);
        CHECK(strstr(text, "\"name\":\"submit\"") != NULL);
        CHECK(strstr(text, "\"name\":\"write\"") != NULL);
        CHECK(strstr(text, "\"ph\":\"f\"") != NULL);
        unlink(trace_path);
    }
    CHECK_INT(haptics_write_trace(engine, "/nonexistent-folder/trace.json"), -ENOENT);
    CHECK_STR(haptics_last_error(), "haptics_write_trace: /nonexistent-folder/trace.json: open: ENOENT (No such file or directory)");
    CHECK_INT(haptics_write_trace(engine, NULL), -EINVAL);
    CHECK_INT(haptics_start_trace(NULL), -EINVAL);

    /* Waiting until what was due has gone out: a 50 ms rumble's end; then the errors. */
    CHECK_INT(haptics_rumble(engine, 0.5, 0.5, 50000000, &outcome), 0);
    {
        int64_t through = outcome.felt_at + 50000000;
        CHECK_INT(haptics_wait_until_sent(engine, through, 2000000000), 0);
        CHECK(haptics_now() >= through);
    }
    CHECK_INT(haptics_wait_until_sent(engine, 0, 2000000000), 0);
    CHECK_INT(haptics_wait_until_sent(engine, 0, -1), -ERANGE);
    CHECK_STR(haptics_last_error(), "haptics_wait_until_sent: timeout -1 ns is outside 0…1 h");
    CHECK_INT(haptics_wait_until_sent(engine, haptics_now() + 7200000000000LL, 0), -ERANGE);
    CHECK_INT(haptics_wait_until_sent(NULL, 0, 0), -EINVAL);
    CHECK_STR(haptics_strerror(-ETIMEDOUT), "not done within the timeout");

    CHECK_INT(haptics_engine_stop(engine), 0);
    CHECK_INT(haptics_wait_until_sent(engine, 0, 0), -ESHUTDOWN);
    CHECK_INT(haptics_play(engine, HAPTICS_SELECTION, 1, 0, &outcome), -ESHUTDOWN);
    CHECK_INT(outcome.reason, HAPTICS_REASON_ENGINE_STOPPED);
    CHECK_INT(haptics_engine_start(engine), 0);
    CHECK_INT(haptics_play(engine, HAPTICS_SELECTION, 1, 0, &outcome), 0);
}

static void test_players(haptics_engine *engine) {
    haptics_player *player = NULL;
    haptics_outcome outcome = outcome_of_size();
    int64_t duration = 0;
    char path[] = "/tmp/haptics-c-test-XXXXXX";
    int fd;

    CHECK_INT(haptics_player_new_from_memory(engine, pattern_text, strlen(pattern_text), "hum.ahap", &player), 0);
    CHECK(player != NULL);
    CHECK_INT(haptics_player_get_duration(player, &duration), 0);
    CHECK_INT(duration, 500000000);
    CHECK_INT(haptics_player_get_duration(player, NULL), -EINVAL);
    CHECK_INT(haptics_player_start(player, 0, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(haptics_player_start(player, 0, 1, &outcome), 0);
    CHECK_INT(outcome.audio_reason, HAPTICS_REASON_NO_SOUND);
    CHECK_INT(haptics_player_set_looping(player, 1, 0), 0);
    CHECK_INT(haptics_player_prepare(player), 0);
    CHECK_INT(haptics_player_set_hd(player, 0), 0);
    CHECK_INT(haptics_player_set_hd(player, 1), 0);
    CHECK_INT(haptics_player_prepare(NULL), -EINVAL);
    CHECK_INT(haptics_player_seek(player, 250000000, 0), 0);
    CHECK_INT(haptics_player_seek(player, -1, 0), -EINVAL);
    CHECK_INT(haptics_player_set_rate(player, 0.5, 0), 0);
    CHECK_INT(haptics_player_set_rate(player, 1000, 0), -EINVAL);
    CHECK_INT(haptics_player_set_rate(player, NAN, 0), -EINVAL);
    CHECK_INT(haptics_player_set_parameter(player, HAPTICS_PARAMETER_INTENSITY, 0.5, 0), 0);
    CHECK_INT(haptics_player_set_parameter(player, (haptics_parameter)99, 0.5, 0), -EINVAL);
    CHECK_INT(haptics_player_set_parameter(player, HAPTICS_PARAMETER_SHARPNESS, NAN, 0), -EINVAL);
    /* A runtime curve: one submission; bad points refused with the reason. */
    {
        haptics_curve_point points[3];
        points[0].time = 0; points[0].value = 1;
        points[1].time = 0.25; points[1].value = 0.2;
        points[2].time = 0.5; points[2].value = 0.8;
        CHECK_INT(haptics_player_send_curve(player, HAPTICS_PARAMETER_INTENSITY, points, 3, 0), 0);
        CHECK_INT(haptics_player_send_curve(player, HAPTICS_PARAMETER_INTENSITY, points, 0, 0), -EINVAL);
        CHECK_INT(haptics_player_send_curve(player, HAPTICS_PARAMETER_INTENSITY, NULL, 3, 0), -EINVAL);
        CHECK_INT(haptics_player_send_curve(player, (haptics_parameter)42, points, 3, 0), -EINVAL);
        CHECK_INT(haptics_player_send_curve(player, HAPTICS_PARAMETER_INTENSITY, points, 2000, 0), -EINVAL);
        CHECK_STR(haptics_last_error(), "haptics_player_send_curve: 2000 points, more than the limit of 1024");
        points[1].time = 0.75; /* out of order */
        CHECK_INT(haptics_player_send_curve(player, HAPTICS_PARAMETER_INTENSITY, points, 3, 0), -EINVAL);
        CHECK(strlen(haptics_last_error()) > 0);
        points[1].time = 0.25;
        points[1].value = NAN;
        CHECK_INT(haptics_player_send_curve(player, HAPTICS_PARAMETER_INTENSITY, points, 3, 0), -EINVAL);
    }
    CHECK_INT(haptics_player_stop(player, 0), 0);

    /* The lifecycle: state and position, pause and resume, and the end of a start as an event. */
    {
        int32_t state = -1;
        int64_t position = -1;
        int found = 0, polls;
        haptics_event event;
        struct timespec pause_time = {0, 20000000};
        CHECK_INT(haptics_player_set_rate(player, 1, 0), 0);
        CHECK_INT(haptics_player_set_looping(player, 0, 0), 0);
        /* The starts above ended as stopped (a restart, then stop): two events for this player. */
        memset(&event, 0, sizeof event);
        event.size = sizeof event;
        for (polls = 0; polls < 100 && found < 2; polls++) {
            while (haptics_poll_event(engine, &event) == 1) {
                if (event.type == HAPTICS_EVENT_PLAYER_FINISHED && event.player == player) {
                    found++;
                    CHECK_INT(event.error, -ECANCELED);
                }
            }
            if (found < 2) nanosleep(&pause_time, NULL);
        }
        CHECK_INT(found, 2);
        found = 0;
        CHECK_INT(haptics_player_start(player, 0, 0, &outcome), 0);
        CHECK_INT(haptics_player_pause(player, 0), 0);
        CHECK_INT(player_state_once(player, HAPTICS_PLAYER_PAUSED, &position), HAPTICS_PLAYER_PAUSED);
        CHECK(position >= 0 && position < 500000000);
        CHECK_INT(haptics_player_resume(player, 0), 0);
        CHECK_INT(player_state_once(player, HAPTICS_PLAYER_PLAYING, NULL), HAPTICS_PLAYER_PLAYING);
        CHECK_INT(haptics_player_get_state(player, NULL, NULL), 0);
        for (polls = 0; polls < 200 && !found; polls++) {
            while (haptics_poll_event(engine, &event) == 1) {
                if (event.type == HAPTICS_EVENT_PLAYER_FINISHED && event.player == player) {
                    found++;
                    CHECK_INT(event.error, 0);
                }
            }
            nanosleep(&pause_time, NULL);
        }
        CHECK_INT(found, 1);
        CHECK_INT(haptics_player_get_state(player, &state, NULL), 0);
        CHECK_INT(state, HAPTICS_PLAYER_STOPPED);
        CHECK_INT(haptics_player_pause((haptics_player *)engine, 0), -EBADF);
    }
    /* A player is not an engine, nor an engine a player. */
    CHECK_INT(haptics_play((haptics_engine *)player, HAPTICS_SELECTION, 1, 0, NULL), -EBADF);
    CHECK_INT(haptics_player_stop((haptics_player *)engine, 0), -EBADF);
    haptics_player_free(player);

    player = NULL;
    CHECK_INT(haptics_player_new_from_memory(engine, bad_text, strlen(bad_text), "bad.ahap", &player), -EILSEQ);
    CHECK_STR(haptics_last_error(), "bad.ahap:1:16: Pattern[0]: expected an object, found 1");
    CHECK(player == NULL);
    /* A .haptic clip is told apart from AHAP by its content. */
    CHECK_INT(haptics_player_new_from_memory(engine, clip_text, strlen(clip_text), "buzz.haptic", &player), 0);
    haptics_player_free(player);
    player = NULL;
    CHECK_INT(haptics_player_new_from_memory(engine, future_clip_text, strlen(future_clip_text), "future.haptic", &player), -EILSEQ);
    CHECK_STR(haptics_last_error(), "future.haptic:1:25: version.major: unsupported major version 2; this reader supports version 1 clips");
    CHECK(player == NULL);
    CHECK_INT(haptics_player_new_from_memory(engine, NULL, 0, NULL, &player), -EINVAL);
    CHECK_INT(haptics_player_new_from_file(engine, "/nonexistent/door.ahap", &player), -ENOENT);
    CHECK_STR(haptics_last_error(), "/nonexistent/door.ahap: cannot open the file: No such file or directory");
    CHECK_INT(haptics_player_new_from_file(engine, NULL, &player), -EINVAL);
    CHECK_INT(haptics_device_player_new_from_file(engine, 999, "/nonexistent/door.ahap", &player), -ENODEV);
    CHECK_INT(haptics_device_player_new_from_file(engine, first_device, "/nonexistent/door.ahap", &player), -ENOENT);

    fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        CHECK_INT(write(fd, pattern_text, strlen(pattern_text)), (long long)strlen(pattern_text));
        close(fd);
        CHECK_INT(haptics_player_new_from_file(engine, path, &player), 0);
        CHECK_INT(haptics_player_start(player, haptics_now() + 10000000, 0, &outcome), 0);
        unlink(path);
    }
    /* Left to outlive the engine: its handle stays valid and plays nothing. */
    haptics_engine_free(engine);
    CHECK_INT(haptics_player_start(player, 0, 0, &outcome), -ESHUTDOWN);
    CHECK_INT(outcome.reason, HAPTICS_REASON_ENGINE_STOPPED);
    haptics_player_free(player);
}

static const char theme_text[] =
    "{ \"name\": \"game\", \"parent-name\": \"base\", \"profiles\": [\n"
    "  { \"name\": \"full\", \"feedbacks\": [ { \"event-name\": \"button-pressed\", \"type\": \"Sound\", \"effect\": \"click\" } ] },\n"
    "  { \"name\": \"quiet\", \"feedbacks\": [ { \"event-name\": \"button-pressed\", \"type\": \"VibraRumble\", \"duration\": 0x1E } ] }\n"
    "] }\n";

static const char base_theme_text[] =
    "{ \"name\": \"base\", \"profiles\": [\n"
    "  { \"name\": \"silent\", \"feedbacks\": [ { \"event-name\": \"battery-caution\", \"type\": \"Led\", \"color\": \"red\", \"frequency\": 5000 } ] }\n"
    "] }\n";

static int write_file(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    if (file == NULL) return -1;
    fputs(text, file);
    return fclose(file);
}

static void test_themes(haptics_engine *engine) {
    haptics_theme *theme = NULL;
    haptics_theme *orphan = NULL;
    haptics_outcome outcome = outcome_of_size();
    char folder[] = "/tmp/haptics-c-theme-XXXXXX";
    char game[64], base[64], bad[64], lost[64];
    int64_t now = haptics_now();

    CHECK(mkdtemp(folder) != NULL);
    snprintf(game, sizeof game, "%s/game.json", folder);
    snprintf(base, sizeof base, "%s/base.json", folder);
    snprintf(bad, sizeof bad, "%s/bad.json", folder);
    snprintf(lost, sizeof lost, "%s/lost.json", folder);
    CHECK_INT(write_file(game, theme_text), 0);
    CHECK_INT(write_file(base, base_theme_text), 0);
    CHECK_INT(write_file(bad, "{ \"name\": \"bad\", \"profiles\": [ { \"name\": \"quiet\", \"feedbacks\": 7 } ] }"), 0);
    CHECK_INT(write_file(lost, "{ \"name\": \"lost\", \"parent-name\": \"gone\", \"profiles\": [] }"), 0);

    CHECK_INT(haptics_theme_new_from_file(NULL, &theme), -EINVAL);
    CHECK_INT(haptics_theme_new_from_file(game, NULL), -EINVAL);
    CHECK_INT(haptics_theme_new_from_file("/nonexistent/theme.json", &theme), -ENOENT);
    CHECK_INT(haptics_theme_new_from_file(bad, &theme), -EILSEQ);
    CHECK(strstr(haptics_last_error(), "bad.json:1:64: profiles[0].feedbacks: expected an array, found 7") != NULL);
    CHECK_INT(haptics_theme_new_from_file(lost, &orphan), -EILSEQ);
    CHECK(strstr(haptics_last_error(), "lost.json:1:34: parent-name: the parent theme \"gone\" was not found") != NULL);
    CHECK(orphan == NULL);
    CHECK_INT(haptics_theme_new_from_file(game, &theme), 0);
    CHECK(theme != NULL);

    /* quiet plays the rumble of the quiet section; without a sound folder nothing is heard. */
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", HAPTICS_THEME_LEVEL_QUIET, NULL, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK(outcome.felt_at >= now);
    CHECK_INT(outcome.audio_reason, HAPTICS_REASON_NO_SOUND);
    /* full adds the Sound feedback: its file is not in the folder, so it is left out. */
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", HAPTICS_THEME_LEVEL_FULL, folder, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(outcome.audio_reason, HAPTICS_REASON_NO_SOUND);
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", HAPTICS_THEME_LEVEL_QUIET, NULL, 0, NULL), 0);
    /* An LED alone (inherited from the parent), or no feedback at all: nothing to feel or hear. */
    CHECK_INT(haptics_theme_play(engine, theme, "battery-caution", HAPTICS_THEME_LEVEL_FULL, NULL, 0, &outcome), -ENOTSUP);
    CHECK_INT(outcome.reason, HAPTICS_REASON_UNSUPPORTED);
    CHECK_INT(outcome.felt_at, 0);
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", HAPTICS_THEME_LEVEL_SILENT, NULL, 0, &outcome), -ENOTSUP);
    CHECK_INT(haptics_theme_play(engine, theme, "no-such-event", HAPTICS_THEME_LEVEL_FULL, NULL, 0, &outcome), -ENOTSUP);
    /* Caller values. */
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", 3, NULL, 0, &outcome), -EINVAL);
    CHECK(strstr(haptics_last_error(), "3 is no haptics_theme_level") != NULL);
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", -1, NULL, 0, &outcome), -EINVAL);
    CHECK_INT(haptics_theme_play(engine, theme, NULL, HAPTICS_THEME_LEVEL_FULL, NULL, 0, &outcome), -EINVAL);
    CHECK_INT(haptics_theme_play(engine, NULL, "button-pressed", HAPTICS_THEME_LEVEL_FULL, NULL, 0, &outcome), -EINVAL);
    CHECK_INT(haptics_theme_play(NULL, theme, "button-pressed", HAPTICS_THEME_LEVEL_FULL, NULL, 0, &outcome), -EINVAL);
    CHECK_INT(haptics_theme_play(engine, (haptics_theme *)engine, "button-pressed", HAPTICS_THEME_LEVEL_FULL, NULL, 0, &outcome), -EBADF);
    CHECK_INT(haptics_theme_play(engine, theme, "button-pressed", HAPTICS_THEME_LEVEL_QUIET, NULL, now + 7200000000000LL, &outcome), -ERANGE);
    CHECK_INT(outcome.reason, HAPTICS_REASON_ONSET_OUT_OF_RANGE);
    /* One device. */
    CHECK_INT(haptics_device_theme_play(engine, first_device, theme, "button-pressed", HAPTICS_THEME_LEVEL_QUIET, NULL, 0, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(haptics_device_theme_play(engine, 999, theme, "button-pressed", HAPTICS_THEME_LEVEL_QUIET, NULL, 0, &outcome), -ENODEV);

    haptics_theme_free(theme);
    haptics_theme_free(NULL);
    unlink(game);
    unlink(base);
    unlink(bad);
    unlink(lost);
    rmdir(folder);
}

static void test_sound_and_events(haptics_engine *engine) {
    haptics_event event;
    memset(&event, 0, sizeof event);
    CHECK_INT(haptics_poll_event(engine, &event), -EINVAL); /* size not set */
    event.size = sizeof event;
    CHECK_INT(haptics_poll_event(engine, &event), 0);
    CHECK_INT(event.type, HAPTICS_EVENT_NONE);
    CHECK_INT(haptics_poll_event(engine, NULL), -EINVAL);
    CHECK_INT(haptics_audio_attach(engine, "haptics-test-no-such-device"), -ENODEV);
    CHECK(strstr(haptics_last_error(), "haptics-test-no-such-device") != NULL);
    CHECK_INT(haptics_audio_attach_with_cues(engine, "haptics-test-no-such-device", "/nonexistent/cues"), -ENODEV);
    CHECK_INT(haptics_audio_set_muted(engine, 1), 0);
    CHECK_INT(haptics_audio_set_muted(engine, 0), 0);
}

/* Live haptics from sound: a stereo feed of a loud 50 Hz tone drives both pads; errors named. */
static void test_sound_feed(haptics_engine *engine) {
    haptics_sound_feed *feed = NULL;
    haptics_outcome outcome = outcome_of_size();
    float samples[2 * 480];
    int64_t heard = haptics_now() + HAPTICS_MS(80);
    int frame;
    for (frame = 0; frame < 480; frame++) {
        samples[2 * frame] = (float)(0.5 * sin(2 * 3.14159265358979 * 50 * frame / 48000.0));
        samples[2 * frame + 1] = samples[2 * frame];
    }
    CHECK_INT(haptics_sound_feed_new(engine, 48000, 3, &feed), -EINVAL);
    CHECK(strstr(haptics_last_error(), "haptics_sound_feed_new: ") == haptics_last_error());
    CHECK(strstr(haptics_last_error(), "channel count") != NULL);
    CHECK(feed == NULL);
    CHECK_INT(haptics_sound_feed_new(engine, 48000, 2, NULL), -EINVAL);
    CHECK_INT(haptics_device_sound_feed_new(engine, 999, 48000, 2, &feed), -ENODEV);
    CHECK_INT(haptics_device_sound_feed_new(engine, second_device, 48000, 2, &feed), 0);
    haptics_sound_feed_free(feed);
    CHECK_INT(haptics_sound_feed_new(engine, 48000, 2, &feed), 0);
    CHECK_INT(haptics_sound_feed_push(feed, samples, 480, heard, &outcome), 0);
    CHECK_INT(outcome.reason, HAPTICS_REASON_NONE);
    CHECK_INT(outcome.felt_at, heard);
    CHECK_INT(haptics_sound_feed_push(feed, samples, 480, heard + HAPTICS_MS(10), NULL), 0);
    CHECK_INT(haptics_sound_feed_push(feed, NULL, 480, heard, NULL), -EINVAL);
    CHECK_INT(haptics_sound_feed_push(feed, samples, 480, -1, NULL), -EINVAL);
    CHECK_STR(haptics_last_error(), "haptics_sound_feed_push: the presentation time -1 is negative");
    CHECK_INT(haptics_sound_feed_push((haptics_sound_feed *)engine, samples, 480, heard, NULL), -EBADF);
    CHECK_INT(haptics_set_application_active(engine, 0), 0);
    CHECK_INT(haptics_sound_feed_push(feed, samples, 480, heard, &outcome), -ECANCELED);
    CHECK_INT(outcome.reason, HAPTICS_REASON_APPLICATION_INACTIVE);
    CHECK_INT(haptics_set_application_active(engine, 1), 0);
    CHECK_INT(haptics_sound_feed_stop(feed), 0);
    CHECK_INT(haptics_sound_feed_stop(NULL), -EINVAL);
    haptics_sound_feed_free(feed);
    haptics_sound_feed_free(NULL);
}

int main(void) {
    haptics_engine *engine = NULL;
    test_version_errors_clock();
    test_handles();
    CHECK_INT(haptics_engine_new_simulated(2, &engine), 0);
    if (engine != NULL) {
        test_devices(engine);
        test_one_device(engine);
        test_triggers(engine);
        test_plays(engine);
        test_sound_and_events(engine);
        test_themes(engine);
        test_sound_feed(engine);
        test_players(engine); /* frees the engine */
    }
    engine = NULL;
    CHECK_INT(haptics_engine_new_automatic(&engine), 0);
    CHECK(haptics_device_count(engine) >= 1);
    haptics_engine_free(engine);
    printf("c-interface: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
