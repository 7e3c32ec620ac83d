/*
 * haptics.h — the C interface of Haptics, a haptic and force-feedback pattern engine for Linux.
 * Copyright (c) 2026 The Haptics authors. MIT License (the LICENSE file of the source tree).
 * SPDX-License-Identifier: MIT
 *
 * Link with `pkg-config --cflags --libs haptics` (libhaptics.so.0). One shared library holds the
 * whole engine; it depends on system libraries only (libc, libm, libevdev, libasound, libstdc++,
 * libgcc_s).
 *
 * Conventions
 *   - Every name starts with `haptics_` (macros and enumerators with `HAPTICS_`).
 *   - Objects are opaque handles made by a `*_new*` function and given back with its `*_free`.
 *     A NULL handle is refused with -EINVAL; a pointer that is not a live handle of the right kind
 *     (garbage, a player passed as an engine) is refused with -EBADF as far as it can be told
 *     (a handle already freed is undefined behaviour, as with free(3)).
 *   - Functions that can fail return `int`: 0 (or a count) on success, a negative errno value on
 *     failure. haptics_strerror() says what a code means here; haptics_last_error() gives the
 *     located message of the last failure on the calling thread (a pattern file's line and
 *     column, the system call and path of a device error).
 *   - Times are CLOCK_MONOTONIC nanoseconds (haptics_now()); a time of 0 means "as soon as
 *     possible". Spans are nanoseconds too: write them with HAPTICS_MS(n) and HAPTICS_SECONDS(x).
 *   - Structs are passed by pointer and start with a `size` member the caller sets to
 *     sizeof(struct): the library fills what that size holds, so a program built against an older
 *     header keeps working with a newer library.
 *   - Every function may be called from any thread. "Realtime-safe" means: no allocation, no lock
 *     that can block, no system call but the one write(2) a prepared play makes; call those from
 *     a game's audio or input thread freely. The others may block briefly (device uploads, file
 *     reads) and belong on a game's main or loading thread.
 */
#ifndef HAPTICS_H
#define HAPTICS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Version
 */

/* The one place the version is written: the library, haptics.pc and `haptics --version` read it. */
#define HAPTICS_VERSION_MAJOR 0
#define HAPTICS_VERSION_MINOR 10
#define HAPTICS_VERSION_PATCH 0
/* "0.10.0": the version this header describes. */
#define HAPTICS_VERSION_STRING "0.10.0"

/*
 * haptics_version — the library's version, "MAJOR.MINOR.PATCH".
 * Returns a static string. Realtime-safe.
 */
const char *haptics_version(void);

/* ---------------------------------------------------------------------------------------------
 * Spans
 */

/* Every span (a rumble's duration, a timeout) is nanoseconds: HAPTICS_MS(200) is 200 ms,
 * HAPTICS_SECONDS(1.5) one and a half seconds. Both give an int64_t. */
#define HAPTICS_MS(n) ((int64_t)(n) * INT64_C(1000000))
#define HAPTICS_SECONDS(x) ((int64_t)((x) * 1e9))

/* ---------------------------------------------------------------------------------------------
 * Errors
 */

/*
 * haptics_strerror — what a result code means, as a short English sentence ("no haptic device").
 * `code` is a negative errno value as returned by this library (a positive one is read as its
 * negation); 0 gives "success". Returns a static string; never NULL. Realtime-safe.
 */
const char *haptics_strerror(int code);

/*
 * haptics_last_error — the message of the last failure of a function of this library on the
 * calling thread, with where it happened: "door.ahap:3:17: Pattern[0].Event.Time: expected a
 * number, found a string". The empty string when the thread had none yet. The text is escaped
 * (no control characters) and stays valid until the thread's next call into the library.
 * Realtime-safe plays (haptics_play, haptics_player_start...) do not set it: their code and
 * outcome say why. Never blocks.
 */
const char *haptics_last_error(void);

/* ---------------------------------------------------------------------------------------------
 * Clock
 */

/*
 * haptics_now — CLOCK_MONOTONIC now, in nanoseconds: the clock of every time in this API, the
 * same as clock_gettime(CLOCK_MONOTONIC) and as ALSA's monotonic timestamps. Realtime-safe.
 */
int64_t haptics_now(void);

/* ---------------------------------------------------------------------------------------------
 * Engine
 */

/* An engine: the devices it plays on, its realtime thread and its audio output. */
typedef struct haptics_engine haptics_engine;

/*
 * haptics_engine_new_automatic — an engine on every force-feedback device in /dev/input (a
 * simulated device when there is none, reported as HAPTICS_EVENT_SIMULATED_FALLBACK; devices it
 * cannot open are listed as unavailable and reported as HAPTICS_EVENT_DEVICE_UNAVAILABLE),
 * started, and watching for controllers plugged in or unplugged later.
 * Returns 0 and stores the engine in *engine, or a negative code (-EINVAL: `engine` is NULL;
 * -EAGAIN: the realtime thread could not be created). Blocks while devices are opened.
 */
int haptics_engine_new_automatic(haptics_engine **engine);

/*
 * haptics_engine_new_simulated — a started engine on `count` simulated devices (1 to 16) that
 * record what they are told and touch no hardware: for tests, and for games run where no
 * controller is. Returns 0, or -EINVAL (`engine` NULL, `count` out of range).
 */
int haptics_engine_new_simulated(unsigned count, haptics_engine **engine);

/*
 * haptics_engine_new_with_nodes — a started engine on the given event nodes
 * ("/dev/input/event5"), in order, and on nothing else (no hotplug watching).
 * Returns 0, or the first node's failure: -EACCES (no permission: see the udev rule of the
 * documentation), -ENOENT, -ENOTSUP (the node has no force feedback), -EINVAL (`paths` or
 * `engine` NULL, a NULL path, `count` 0 or over 16). On failure nothing is made. Blocks.
 */
int haptics_engine_new_with_nodes(const char *const *paths, size_t count, haptics_engine **engine);

/*
 * haptics_engine_free — stops the engine (every device is sent to silence, the realtime thread
 * ends, the sound fades out) and frees it. Players made from it stay valid handles until they are
 * freed, and play nothing (their starts return -ESHUTDOWN). NULL is ignored. Blocks until the
 * realtime thread has ended (milliseconds).
 */
void haptics_engine_free(haptics_engine *engine);

/*
 * haptics_engine_start — starts an engine that was stopped: the realtime thread and the
 * housekeeping. 0 when it runs (also when it already ran), -EAGAIN when the thread cannot be
 * made. Blocks briefly.
 */
int haptics_engine_start(haptics_engine *engine);

/*
 * haptics_engine_stop — stops everything: every device is sent to silence, the realtime thread
 * ends. Plays then return -ESHUTDOWN until haptics_engine_start(). 0 or -EINVAL/-EBADF.
 */
int haptics_engine_stop(haptics_engine *engine);

/*
 * haptics_wait_until_sent — blocks until everything due at or before `through` (monotonic ns; 0:
 * now) has gone to the devices — until a pass of the realtime thread that began at or after it
 * has ended — or until `timeout` ns after `through` (0…1 h). For a program that ends right after
 * its last play: stopping or freeing the engine silences the devices, and what was still due
 * would not be sent (the last play's felt_at plus its length, haptics_player_get_duration, is
 * when its final stop is due at the latest). A game running on has no need of it.
 * 0 once sent; -ETIMEDOUT; -ESHUTDOWN when the engine is stopped; -ERANGE (`through` more than an
 * hour ahead, a timeout outside 0…1 h); -EINVAL/-EBADF. Blocks: never call it from a realtime
 * thread, nor from an event handler.
 */
int haptics_wait_until_sent(haptics_engine *engine, int64_t through, int64_t timeout);

/*
 * haptics_set_enabled — the user's haptics switch (0 off, anything else on). Turning it off stops
 * what plays. haptics_is_enabled returns 1 or 0 (or a negative code for a bad handle).
 * Control side: may write to devices.
 */
int haptics_set_enabled(haptics_engine *engine, int enabled);
int haptics_is_enabled(haptics_engine *engine);

/*
 * haptics_set_gain — the engine's gain, 0…1 (0 mutes). Outside values are clamped; NaN is
 * refused with -EINVAL and the gain is unchanged. Devices with a hardware gain get it set on the
 * device. haptics_get_gain stores the gain in *gain. Control side.
 */
int haptics_set_gain(haptics_engine *engine, double gain);
int haptics_get_gain(haptics_engine *engine, double *gain);

/*
 * haptics_set_application_active — whether the game is in the foreground (0 no). Feedback only
 * plays while it is; becoming inactive stops haptics and sound. Control side.
 */
int haptics_set_application_active(haptics_engine *engine, int active);

/* ---------------------------------------------------------------------------------------------
 * Devices
 */

/* A device's state. */
typedef enum haptics_device_state {
    HAPTICS_DEVICE_AVAILABLE = 0,    /* opened and playing what the engine sends */
    HAPTICS_DEVICE_UNAVAILABLE = 1,  /* exists but cannot be opened: `error` says why (-EACCES: no
                                        permission; install the udev rule and re-plug) */
    HAPTICS_DEVICE_LOST = 2          /* unplugged or failed; comes back as itself when re-plugged */
} haptics_device_state;

/* What a device can do (haptics_device_info.capabilities): the force-feedback types its driver
 * advertises, adaptive triggers and HD haptics. Bits are claims, not proof (`haptics verify` tries
 * each). Bits 6 to 15 are reserved for more of HD haptics; this version never sets them. */
typedef enum haptics_capability {
    HAPTICS_CAPABILITY_RUMBLE = 1 << 0,    /* FF_RUMBLE: a strong and a weak motor */
    HAPTICS_CAPABILITY_PERIODIC = 1 << 1,  /* FF_PERIODIC: waveforms */
    HAPTICS_CAPABILITY_CONSTANT = 1 << 2,  /* FF_CONSTANT: a constant force */
    HAPTICS_CAPABILITY_GAIN = 1 << 3,      /* FF_GAIN: the device scales every effect itself */
    HAPTICS_CAPABILITY_ADAPTIVE_TRIGGERS = 1 << 4, /* a DualSense or DualSense Edge (by vendor and
                                                      product): haptics_device_set_trigger_effect.
                                                      Its `bus` says the transport: 3 USB, 5 Bluetooth */
    HAPTICS_CAPABILITY_HD_HAPTICS = 1 << 5         /* voice-coil actuators that play waveforms (the same
                                                      pads): over USB through the pad's sound card,
                                                      over Bluetooth through its hidraw node */
} haptics_capability;

/* What identifies a device; set `size` to sizeof(haptics_device_info) before the call. */
typedef struct haptics_device_info {
    uint32_t size;
    int32_t id;               /* the engine's id: stable while the engine lives, kept across re-plugging */
    int32_t state;            /* haptics_device_state */
    int32_t error;            /* why it is unavailable or lost (a negative errno), else 0 */
    int32_t simulated;        /* 1 for a simulated device (no hardware), else 0 */
    uint16_t bus, vendor, product, version;  /* the kernel's input_id, 0 when unknown */
    char name[128];           /* "Sony Interactive Entertainment DualSense Wireless Controller" */
    char path[64];            /* "/dev/input/event5", "" for a simulated device */
    char uniq[64];            /* the kernel's unique id (a MAC address for Bluetooth pads), or "" */
    char phys[64];            /* the kernel's physical location, or "" */
    char sdl_guid[33];        /* the GUID SDL gives the same node (SDL_JoystickGetGUIDString), or "" */
    char profile[32];         /* the device profile rendering uses: "dualsense", "generic-rumble" */
    /* Since 0.10. A program built against an older header passes a smaller size and gets the
     * fields above only. */
    uint32_t capabilities;    /* haptics_capability bits; 0 for a simulated device */
    int32_t effect_slots;     /* effects the device holds at once (EVIOCGEFFECTS); 0 when unknown */
    char sdl_hidapi_guid[33]; /* the GUID SDL's HIDAPI backend gives the pad (hidraw), name CRC 0;
                               * "" where SDL's HIDAPI cannot list it. For SDL before 2.24, which has
                               * no SDL_JoystickPath: a joystick GUID with 'h' in byte 14 (hex digits
                               * 28-29 "68") is SDL's HIDAPI; compare all but digits 4-7 (the CRC). */
} haptics_device_info;

/*
 * haptics_device_count — how many devices the engine knows (>= 0): available ones, and those that
 * exist but cannot be opened or were lost. Control side; never blocks for long.
 */
int haptics_device_count(haptics_engine *engine);

/*
 * haptics_device_get_info — fills *info for device `index` (0 ≤ index < haptics_device_count), in
 * the engine's order. Strings are NUL-terminated, cut at a UTF-8 character boundary when too long.
 * Match a pad to an SDL joystick by `sdl_guid`, or better by its node: haptics_device_find_by_path.
 * A `size` from an older header (up to `profile`) is filled as far as it reaches.
 * Returns 0, -EINVAL (NULL, `info->size` smaller than the 0.9 struct) or -ERANGE (no such index).
 */
int haptics_device_get_info(haptics_engine *engine, int index, haptics_device_info *info);

/*
 * haptics_device_find_by_path — the id of the device one of whose nodes is `path`: its event node
 * ("/dev/input/event5"), or another node of the same pad, found through sysfs (the same parent
 * device): the hidraw node ("/dev/hidraw3") that SDL_JoystickPath names when SDL's HIDAPI backend
 * drives the pad, or its joystick node ("/dev/input/js0"). Symbolic links (/dev/input/by-id/…)
 * are followed. Returns the id (>= 0, for haptics_device_play and the other haptics_device_*
 * functions), -ENODEV when no device of the engine is that pad, -EINVAL/-EBADF. Control side
 * (reads sysfs).
 */
int haptics_device_find_by_path(haptics_engine *engine, const char *path);

/*
 * haptics_device_set_gain — the device's own gain, 0…1, on top of the engine's (-EINVAL outside
 * it or for NaN). haptics_device_set_enabled — switches one device off (0: what plays on it stops)
 * or on. Both are kept while the pad is unplugged and come back with it. Control side. -ENODEV for
 * an unknown id.
 */
int haptics_device_set_gain(haptics_engine *engine, int device_id, double gain);
int haptics_device_set_enabled(haptics_engine *engine, int device_id, int enabled);

/*
 * haptics_device_set_profile — renders for the device with a built-in profile by name
 * ("dualsense", "xbox", "generic-rumble"…; -EINVAL for an unknown name, the message lists them),
 * or, with haptics_device_load_profile, a profile file (`key = value` lines from `base = <name>`;
 * -EILSEQ with the line and column for a bad one). Kept across re-plugging. Control side: blocks
 * while the vocabulary is rendered again.
 */
int haptics_device_set_profile(haptics_engine *engine, int device_id, const char *name);
int haptics_device_load_profile(haptics_engine *engine, int device_id, const char *path);

/* ---------------------------------------------------------------------------------------------
 * Feedback vocabulary
 */

/* The vocabulary: each item has one canonical pattern, adapted by each device. */
typedef enum haptics_feedback {
    HAPTICS_NOTIFICATION_SUCCESS = 0,
    HAPTICS_NOTIFICATION_WARNING = 1,
    HAPTICS_NOTIFICATION_ERROR = 2,
    HAPTICS_IMPACT_LIGHT = 3,
    HAPTICS_IMPACT_MEDIUM = 4,
    HAPTICS_IMPACT_HEAVY = 5,
    HAPTICS_IMPACT_SOFT = 6,
    HAPTICS_IMPACT_RIGID = 7,
    HAPTICS_SELECTION = 8
} haptics_feedback;

/* Why a play did not play (haptics_outcome.reason, .audio_reason). */
typedef enum haptics_reason {
    HAPTICS_REASON_NONE = 0,                 /* it plays */
    HAPTICS_REASON_DISABLED = 1,             /* haptics switched off */
    HAPTICS_REASON_MUTED = 2,                /* gain 0 (or sound muted, for audio_reason) */
    HAPTICS_REASON_APPLICATION_INACTIVE = 3,
    HAPTICS_REASON_NO_DEVICE = 4,
    HAPTICS_REASON_ENGINE_STOPPED = 5,
    HAPTICS_REASON_UNSUPPORTED = 6,          /* nothing in the pattern plays on these devices */
    HAPTICS_REASON_QUEUE_FULL = 7,           /* dropped and counted; try again later */
    HAPTICS_REASON_INVALID_INTENSITY = 8,
    HAPTICS_REASON_ONSET_OUT_OF_RANGE = 9,   /* more than an hour ahead */
    HAPTICS_REASON_NOT_REQUESTED = 10,       /* audio: no sound was asked for */
    HAPTICS_REASON_NO_SOUND = 11,            /* audio: the item or pattern has none */
    HAPTICS_REASON_NO_AUDIO_OUTPUT = 12,     /* audio: none attached */
    HAPTICS_REASON_AUDIO_DEVICE_LOST = 13,   /* audio: the sound device went away */
    HAPTICS_REASON_NO_REAL_DEVICE = 14,      /* it reached only a simulated fallback: nothing is felt */
    HAPTICS_REASON_NO_VOICE_SLOT = 15        /* audio: every voice of the output is taken; dropped and counted */
} haptics_reason;

/* What happened to a play; set `size` to sizeof(haptics_outcome) before the call. */
typedef struct haptics_outcome {
    uint32_t size;
    int32_t reason;           /* haptics_reason of the haptics, HAPTICS_REASON_NONE when they play */
    int64_t felt_at;          /* when the haptics are felt (monotonic ns), 0 when they do not play */
    int32_t audio_reason;     /* haptics_reason of the sound, HAPTICS_REASON_NONE when it plays */
    int32_t reserved;
    int64_t audible_at;       /* when the sound is heard, 0 when it does not play */
} haptics_outcome;

/*
 * haptics_play — plays a vocabulary item, felt at `felt_at` (monotonic ns; 0 or a time sooner
 * than the devices can make: as soon as they can). `intensity` scales impacts, 0…1 (clamped;
 * other items ignore it; NaN or infinite is refused). `outcome` may be NULL.
 * Returns 0 when it plays, else a negative code: -ECANCELED (disabled, gain 0, application
 * inactive), -ENODEV (no device, or only a simulated fallback), -ESHUTDOWN (engine stopped), -EAGAIN (queue full), -EINVAL
 * (bad item or intensity; a value that is no item says HAPTICS_REASON_UNSUPPORTED), -ERANGE (`felt_at` more than an hour ahead); the outcome's reason
 * tells them apart. Realtime-safe: a prepared item is one write(2) per device, nothing else; a
 * play due now makes that write from the calling thread before returning (unless another thread
 * is processing then: the engine's realtime thread makes it), and wakes the realtime thread
 * afterwards (one futex call) only when it has something timed to do sooner than it knew.
 */
int haptics_play(haptics_engine *engine, haptics_feedback item, double intensity, int64_t felt_at,
                 haptics_outcome *outcome);

/*
 * haptics_play_with_sound — haptics_play, and the item's sound cue on the attached audio output,
 * felt and heard at `onset` together (0: as soon as both can). The sound never delays or drops
 * the haptics; the outcome says what happened to each half. Returns haptics_play's code for the
 * haptics. Realtime-safe.
 */
int haptics_play_with_sound(haptics_engine *engine, haptics_feedback item, double intensity, int64_t onset,
                            haptics_outcome *outcome);

/*
 * haptics_play_synced — plays an item so that it is felt when a sound the game plays itself
 * becomes audible at `audible_at` (monotonic ns; e.g. from snd_pcm_status's audio timestamp plus
 * the queued frames). The devices start early by their rise time. Returns haptics_play's codes.
 * Realtime-safe.
 */
int haptics_play_synced(haptics_engine *engine, haptics_feedback item, double intensity, int64_t audible_at,
                        haptics_outcome *outcome);

/*
 * haptics_prepare — gets an item ready so that its next play is one write(2): uploads its levels
 * to every device now (blocks on the uploads). Preparations expire after a few seconds without a
 * play. Returns 0, or -EINVAL for a bad item.
 */
int haptics_prepare(haptics_engine *engine, haptics_feedback item);

/* ---------------------------------------------------------------------------------------------
 * Rumble and motor levels
 */

/*
 * haptics_rumble — rumbles every device, the low-frequency motor at `low` and the high-frequency
 * one at `high` (each 0…1, clamped), for `duration` ns, with SDL_GameControllerRumble's semantics:
 * each call replaces the last (and the motor levels below), 0 and 0 stop. Any duration holds to
 * its end — minutes or hours — the engine keeps the pad playing and ends it itself; a duration of
 * 0 or less stops. `duration` is nanoseconds: write HAPTICS_MS(200). A duration between 0 and
 * 1 ms, which no device can play, is refused with -EINVAL (haptics_last_error names the helper). What pattern players play meanwhile is added, saturating per motor. Single-motor
 * and constant-force devices play the larger of the two. Returns haptics_play's codes (-EINVAL for
 * a NaN or infinite level; nothing changes then); `outcome` may be NULL. Realtime-safe.
 */
int haptics_rumble(haptics_engine *engine, double low, double high, int64_t duration, haptics_outcome *outcome);

/*
 * haptics_set_motor_levels — sets the motors of every device until the next call (Unity's
 * SetMotorSpeeds), or until the motor level timeout passes without one (3 s unless set): a game
 * loop that sets them every frame holds them as long as it runs, and one that stops calling — it
 * crashed or hung — leaves no pad rumbling. 0 and 0 stop. Replaces a rumble, and the other way
 * round. Codes as haptics_rumble. Realtime-safe.
 */
int haptics_set_motor_levels(haptics_engine *engine, double low, double high, haptics_outcome *outcome);

/*
 * haptics_set_motor_level_timeout — the safety timeout of haptics_set_motor_levels, in ns,
 * 10 ms…1 h (clamped into it); it takes effect from the next call. Never blocks.
 */
int haptics_set_motor_level_timeout(haptics_engine *engine, int64_t timeout);

/* ---------------------------------------------------------------------------------------------
 * Live haptics from sound
 *
 * The audio the game is about to play drives the rumble as it goes: each block of samples, with
 * the instant its first frame is heard, becomes motor levels every 2 ms (the sound below 200 Hz
 * on the low-frequency motor, above it on the high-frequency one), each sent to a device its rise
 * time before it is heard. Each level holds 10 ms without the next, so a game that stops feeding
 * leaves no pad rumbling; the engine gain scales the levels, and switching haptics off, the
 * application going inactive or haptics_engine_stop end them. A feed replaces the rumble and
 * motor levels above on its devices while it runs (one direct level per device).
 */

/* A live feed of the game's audio to the rumble of its devices. Use it from one thread. */
typedef struct haptics_sound_feed haptics_sound_feed;

/*
 * haptics_sound_feed_new — a feed of audio at `sample_rate` frames per second (4000…384000) with
 * `channels` interleaved channels (1 or 2), driving every device. 0, or -EINVAL (a rate or
 * channel count out of range: haptics_last_error names it), -EBADF. Control side (allocates).
 */
int haptics_sound_feed_new(haptics_engine *engine, int sample_rate, int channels, haptics_sound_feed **feed);

/*
 * haptics_device_sound_feed_new — haptics_sound_feed_new driving one device only. -ENODEV for an
 * unknown id.
 */
int haptics_device_sound_feed_new(haptics_engine *engine, int device_id, int sample_rate, int channels,
                                  haptics_sound_feed **feed);

/*
 * haptics_sound_feed_push — follows `frames` frames of float samples (interleaved, -1…1) whose
 * first frame is heard at `presentation_time` (monotonic ns: e.g. snd_pcm_status's audio
 * timestamp plus the frames queued before them). Blocks continue one another. Returns
 * haptics_play's codes (the outcome's felt_at is the block's first level); `outcome` may be NULL.
 * Realtime-safe: no lock, no allocation; it may run on the audio thread.
 */
int haptics_sound_feed_push(haptics_sound_feed *feed, const float *samples, size_t frames, int64_t presentation_time,
                            haptics_outcome *outcome);

/*
 * haptics_sound_feed_stop — ends the levels at the end of the sound pushed so far, and forgets
 * that sound (the next push starts afresh). 0, or -EINVAL/-EBADF.
 */
int haptics_sound_feed_stop(haptics_sound_feed *feed);

/*
 * haptics_sound_feed_free — stops the feed (as haptics_sound_feed_stop) and frees it. NULL is
 * ignored. Control side.
 */
void haptics_sound_feed_free(haptics_sound_feed *feed);

/* ---------------------------------------------------------------------------------------------
 * Traces (docs/guides/latency.md)
 */

/*
 * haptics_start_trace — starts tracing: from now on every command records the stages it passes
 * (submitted on the calling thread, dequeued by the realtime thread, written, felt) into a
 * preallocated ring; what an earlier trace collected is discarded. Plays stay realtime-safe while
 * tracing (no lock, no allocation; a full ring counts what it loses). 0, or -EINVAL/-EBADF.
 * Never blocks for long (takes the engine's trace lock).
 */
int haptics_start_trace(haptics_engine *engine);

/*
 * haptics_stop_trace — stops tracing; what was recorded stays for haptics_write_trace.
 * 0, or -EINVAL/-EBADF.
 */
int haptics_stop_trace(haptics_engine *engine);

/*
 * haptics_write_trace — writes what the trace recorded since haptics_start_trace to `path` as
 * Chrome/Perfetto trace-event JSON (open it in ui.perfetto.dev or chrome://tracing), replacing the
 * file atomically; tracing goes on if it was on. 0; -EINVAL (NULL), -EBADF, or the negative errno
 * of the open/write/rename that failed (haptics_last_error() names the call and the path).
 * Blocks: formats the trace and writes the file. Never call it from a realtime thread.
 */
int haptics_write_trace(haptics_engine *engine, const char *path);

/* ---------------------------------------------------------------------------------------------
 * One device at a time
 */

/*
 * haptics_device_play — haptics_play on one device only, named by its id (haptics_device_info.id):
 * player 2's pad alone. -ENODEV when no device has that id or it is not available. Realtime-safe.
 */
int haptics_device_play(haptics_engine *engine, int device_id, haptics_feedback item, double intensity, int64_t felt_at,
                        haptics_outcome *outcome);

/*
 * haptics_device_prepare — haptics_prepare on one device only. Returns 0, -EINVAL. Blocks on the
 * uploads.
 */
int haptics_device_prepare(haptics_engine *engine, int device_id, haptics_feedback item);

/*
 * haptics_device_rumble, haptics_device_set_motor_levels — haptics_rumble and
 * haptics_set_motor_levels on one device only (below). Realtime-safe.
 */
int haptics_device_rumble(haptics_engine *engine, int device_id, double low, double high, int64_t duration,
                          haptics_outcome *outcome);
int haptics_device_set_motor_levels(haptics_engine *engine, int device_id, double low, double high,
                                    haptics_outcome *outcome);

/* ---------------------------------------------------------------------------------------------
 * Adaptive triggers (DualSense)
 *
 * The DualSense's L2 and R2 push back: resistance from a zone on, a weapon's break point, a
 * vibration inside the trigger. The travel of a trigger is ten zones, 0 (released) to 9 (fully
 * pulled). Effects are written to the pad's hidraw node (the udev rule of the documentation grants
 * it), in reports that leave rumble and lights alone. They stay until set again, and end (off)
 * when the engine is freed.
 */

/* Which triggers an effect is for (a bit mask). */
typedef enum haptics_trigger {
    HAPTICS_TRIGGER_LEFT = 1 << 0,   /* L2 */
    HAPTICS_TRIGGER_RIGHT = 1 << 1,  /* R2 */
    HAPTICS_TRIGGER_BOTH = 3
} haptics_trigger;

/* The effects, and the numbers each takes in haptics_trigger_effect.values, in this order (the
 * order `haptics triggers` writes them in: weapon:2,6,8). */
typedef enum haptics_trigger_mode {
    HAPTICS_TRIGGER_OFF = 0,              /* none: the trigger moves freely */
    HAPTICS_TRIGGER_FEEDBACK = 1,         /* zone 0-9, strength 1-8: resistance from the zone on */
    HAPTICS_TRIGGER_WEAPON = 2,           /* start 2-7, end start+1-8, strength 1-8: gives way at end */
    HAPTICS_TRIGGER_VIBRATION = 3,        /* zone 0-9, amplitude 1-8, frequency 1-255 Hz */
    HAPTICS_TRIGGER_SLOPE_FEEDBACK = 4,   /* start 0-8, end start+1-9, start strength 1-8, end strength 1-8 */
    HAPTICS_TRIGGER_MULTI_FEEDBACK = 5,   /* ten strengths 0-8, zones 0 to 9 */
    HAPTICS_TRIGGER_MULTI_VIBRATION = 6,  /* frequency 1-255 Hz, then ten amplitudes 0-8 */
    HAPTICS_TRIGGER_BOW = 7,              /* unofficial: start 0-7, end start+1-8, strength 1-8, snap strength 1-8 */
    HAPTICS_TRIGGER_GALLOPING = 8,        /* unofficial: start 0-8, end start+1-9, first foot 0-6,
                                             second foot first+1-7, frequency 1-255 */
    HAPTICS_TRIGGER_MACHINE = 9           /* unofficial: start 0-8, end start+1-9, amplitude A 0-7,
                                             amplitude B 0-7, frequency 1-255 Hz, period 0-255 (0.1 s) */
} haptics_trigger_mode;

/* One trigger effect; set `size` to sizeof(haptics_trigger_effect). */
typedef struct haptics_trigger_effect {
    uint32_t size;
    int32_t mode;        /* haptics_trigger_mode */
    int32_t values[11];  /* the mode's numbers, as listed above; the ones after them must be 0 */
} haptics_trigger_effect;

/*
 * haptics_device_set_trigger_effect — gives the triggers in `triggers` (haptics_trigger bits) of
 * device `device_id` the effect. Every number is checked: no value the pad's firmware mis-handles
 * is ever sent. The first call for a device opens its hidraw node (blocks briefly: call it while
 * the game loads); later calls hand the effect to the device's writer thread and return without
 * waiting for the pad (they allocate: not realtime-safe).
 * Returns 0; -EINVAL for a bad effect (haptics_last_error names the value and its range) or
 * `triggers` without a trigger; -ENODEV (no device with that id); -ENOTSUP (the device has no
 * adaptive triggers); -EACCES (the hidraw node may not be opened: the udev rule); -ENODEV, -EIO
 * when the pad was lost (a later call opens it again); -ESHUTDOWN when the engine is stopped;
 * -ECANCELED while the app is inactive or haptics are off or muted (nothing is set).
 */
int haptics_device_set_trigger_effect(haptics_engine *engine, int device_id, int triggers,
                                      const haptics_trigger_effect *effect);

/*
 * haptics_device_set_trigger_effect_at — the same at `at` (monotonic ns, the clock of felt_at;
 * 0: now): the device's writer thread writes it then, e.g. when a sound becomes audible. At most
 * 64 effects wait at once (-ENOSPC beyond). The engine drops what waits when it stops, the app
 * goes inactive or haptics are switched off.
 */
int haptics_device_set_trigger_effect_at(haptics_engine *engine, int device_id, int triggers,
                                         const haptics_trigger_effect *effect, int64_t at);

/*
 * haptics_device_set_trigger_effect_text — the same with the effect written as text, as
 * `haptics triggers` takes it: "weapon:2,6,8", "feedback:3,5", "vibration:4,6,30", "off"
 * (names: off, feedback, weapon, vibration, slope, multi-feedback, multi-vibration, bow,
 * galloping, machine). -EINVAL for bad text, with the value and the range in haptics_last_error.
 */
int haptics_device_set_trigger_effect_text(haptics_engine *engine, int device_id, int triggers, const char *effect);

/*
 * haptics_device_reset_triggers — both triggers of the device off now, and the effects set for
 * later dropped. Same codes as above.
 */
int haptics_device_reset_triggers(haptics_engine *engine, int device_id);

/* HD haptics (DualSense) ------------------------------------------------------------------------ */

/*
 * A pad with voice coils (HAPTICS_CAPABILITY_HD_HAPTICS: a DualSense) plays pattern players as HD
 * haptics by default: the pattern as a waveform on its actuators, over USB through the pad's sound
 * card, over Bluetooth through its hidraw node, with the same player calls as rumble. The engine
 * opens them at a player's first haptics_player_prepare or start on the pad (prepare while the
 * game loads: opening blocks for milliseconds). A pad whose voice coils cannot be opened plays
 * rumble. A rumble play on the pad (feedback, haptics_device_rumble) switches it to the kernel's
 * rumble emulation; the next HD play switches it back. On such a pad a player's controls that
 * move its timeline (start, seek, rate, looping, resume, a parameter other than the intensity) lay
 * the pattern out again for the pad's stream: there they allocate, so call them from the game's
 * main thread; stop, pause and the intensity only end or scale what plays.
 *
 * haptics_device_set_hd — 0: the device's players play rumble; 1: HD haptics (the default).
 * `audio_card` names the pad's sound card over USB when it is not found from the pad (a number, an
 * ALSA id or a "hw:" device), or NULL. What plays on its voice coils stops. Returns 0; -ENODEV.
 */
int haptics_device_set_hd(haptics_engine *engine, int device_id, int enabled, const char *audio_card);

/*
 * haptics_device_play_hd — plays the pattern file `path` (AHAP or a .haptic clip) as HD haptics on
 * device `device_id` directly, from `at` (haptics_now() nanoseconds; 0: now), in place of what
 * plays there (a player's pattern included); `audio_card` as for haptics_device_set_hd, or NULL.
 * Each call reads and lays out the file (allocates: not realtime-safe; use a player for that).
 * Returns 0; -ENODEV (no device with that id); -ENOTSUP (no voice coils); -EACCES (the hidraw
 * node may not be opened: the udev rule); -ENOENT (no sound card found or named); a sound card's
 * negative errno (it could not be opened); -EINVAL, -EILSEQ or a read error for the file, with
 * haptics_last_error saying what and where.
 */
int haptics_device_play_hd(haptics_engine *engine, int device_id, const char *path, const char *audio_card, int64_t at);

/*
 * haptics_device_stop_hd — stops what plays as HD haptics on the device. Returns 0 (also when
 * nothing plays); -ENODEV (no device with that id).
 */
int haptics_device_stop_hd(haptics_engine *engine, int device_id);

/* ---------------------------------------------------------------------------------------------
 * Pattern players
 */

/* A loaded pattern (AHAP or a .haptic clip) and its playback state on every device. */
typedef struct haptics_player haptics_player;

/* Dynamic parameters a player's pattern can be driven with at runtime. */
typedef enum haptics_parameter {
    HAPTICS_PARAMETER_INTENSITY = 0,   /* multiplies haptic intensity, 0…1 */
    HAPTICS_PARAMETER_SHARPNESS = 1,   /* shifts haptic sharpness, -1…1 */
    HAPTICS_PARAMETER_ATTACK_TIME = 2, /* scales attack times by 10^value, -1…1 */
    HAPTICS_PARAMETER_DECAY_TIME = 3,
    HAPTICS_PARAMETER_RELEASE_TIME = 4,
    HAPTICS_PARAMETER_AUDIO_VOLUME = 5 /* multiplies the sound's volume, 0…1 */
} haptics_parameter;

/*
 * haptics_player_new_from_file — reads a pattern file (AHAP or a Meta Haptics Studio / Lofelt
 * .haptic clip, told apart by content, not by name) and its sounds (AudioCustom WAVs, relative to
 * the file's folder and confined to it) and makes its player. Files are untrusted:
 * size, time and memory are bounded, and a bad file is -EILSEQ with the located message in
 * haptics_last_error(). Other codes: -ENOENT, -EACCES, -EFBIG (over a limit or the sound budget),
 * -ENOSPC (the engine has no room for more players), -EINVAL. Blocks (reads and renders).
 */
int haptics_player_new_from_file(haptics_engine *engine, const char *path, haptics_player **player);

/*
 * haptics_player_new_from_memory — the same from `size` bytes of AHAP or .haptic text in memory (no
 * sound: its waveforms have no folder). `name` names it in error messages (may be NULL: "memory").
 */
int haptics_player_new_from_memory(haptics_engine *engine, const void *bytes, size_t size, const char *name,
                                   haptics_player **player);

/*
 * haptics_device_player_new_from_file — haptics_player_new_from_file for one device only (player
 * 1's engine hum): the pattern is rendered for that device and plays there alone. -ENODEV for an
 * unknown id; the other codes as haptics_player_new_from_file.
 */
int haptics_device_player_new_from_file(haptics_engine *engine, int device_id, const char *path, haptics_player **player);

/*
 * haptics_player_free — stops the player and frees it. NULL is ignored. Control side.
 */
void haptics_player_free(haptics_player *player);

/*
 * haptics_player_start — starts the pattern, felt at `felt_at` (0: as soon as possible), with its
 * sound when it has some and `with_sound` is not 0. Returns haptics_play's codes; `outcome` may be
 * NULL. Realtime-safe.
 */
int haptics_player_start(haptics_player *player, int64_t felt_at, int with_sound, haptics_outcome *outcome);

/*
 * haptics_player_stop — stops the pattern (haptics and sound) at `at` (0: now). Realtime-safe.
 * Returns 0, or -EAGAIN when the queue was full (nothing changed).
 */
int haptics_player_stop(haptics_player *player, int64_t at);

/*
 * haptics_player_set_looping — loops the pattern from its end to its start (0: plays once).
 * Realtime-safe; -EAGAIN when the queue was full.
 */
int haptics_player_set_looping(haptics_player *player, int looping, int64_t at);

/*
 * haptics_player_prepare — gets every device ready for the pattern (evdev effects uploaded, the
 * voice coils of pads that play HD haptics opened), so that a start costs no set-up. Blocks: call
 * it while the game loads. Returns 0.
 */
int haptics_player_prepare(haptics_player *player);

/*
 * haptics_player_set_hd — 1 (the default): the player's starts play HD haptics on pads with voice
 * coils (see haptics_device_set_hd); 0: rumble there too. Applies from the next start. Returns 0.
 */
int haptics_player_set_hd(haptics_player *player, int enabled);

/*
 * haptics_player_seek — moves playback to `offset` ns into the pattern at `at` (0: now).
 * -EINVAL for a negative offset. Realtime-safe.
 */
int haptics_player_seek(haptics_player *player, int64_t offset, int64_t at);

/*
 * haptics_player_set_rate — the playback rate, 1/64…64 (1: as written). -EINVAL outside it or for
 * NaN. Realtime-safe.
 */
int haptics_player_set_rate(haptics_player *player, double rate, int64_t at);

/*
 * haptics_player_set_parameter — sets a dynamic parameter from `at` (0: now): the value is clamped
 * into the parameter's range; NaN or infinite is -EINVAL. Realtime-safe.
 */
int haptics_player_set_parameter(haptics_player *player, haptics_parameter parameter, double value, int64_t at);

/*
 * haptics_player_pause — silences the player's devices at `at` (0: now) and keeps its position;
 * haptics_player_resume continues from there, in phase. Realtime-safe; -EAGAIN when the queue was
 * full (nothing changed).
 */
int haptics_player_pause(haptics_player *player, int64_t at);
int haptics_player_resume(haptics_player *player, int64_t at);

/* A player's state (haptics_player_get_state). */
typedef enum haptics_player_state {
    HAPTICS_PLAYER_STOPPED = 0,
    HAPTICS_PLAYER_PLAYING = 1,
    HAPTICS_PLAYER_PAUSED = 2
} haptics_player_state;

/*
 * haptics_player_get_state — whether the player plays, is paused or stopped (into *state, a
 * haptics_player_state) and its position in the pattern in ns (into *position, rate aware, within
 * the pattern when it loops); either pointer may be NULL. Realtime-safe: no lock.
 */
int haptics_player_get_state(haptics_player *player, int32_t *state, int64_t *position);

/* One point of a runtime curve: `time` in seconds after the curve's start, `value` the parameter's. */
typedef struct haptics_curve_point {
    double time;
    double value;
} haptics_curve_point;

/*
 * haptics_player_send_curve — drives a dynamic parameter along `count` points (1 to 1024, in time
 * order) from `start` (0: now): one submission; the realtime thread interpolates it at each control
 * tick, and it replaces a curve of the same parameter. -EINVAL for a NaN or infinite point, points out
 * of order or too many (the message says which), -EAGAIN when the queue or the curve space is full
 * (counted; nothing changed). Control side: copies the points (it allocates), never blocks.
 */
int haptics_player_send_curve(haptics_player *player, haptics_parameter parameter, const haptics_curve_point *points,
                              size_t count, int64_t start);

/*
 * haptics_player_get_duration — the pattern's length on the slowest device, in ns, into *duration.
 */
int haptics_player_get_duration(haptics_player *player, int64_t *duration);

/* ---------------------------------------------------------------------------------------------
 * Sound
 */

/*
 * haptics_audio_attach — opens the ALSA device `alsa_device` ("default" when NULL), starts its
 * audio thread and attaches it to the engine with the built-in sound cues. Returns 0, -EBUSY (an
 * output is already attached), -ENODEV or -EIO (the device cannot be opened: the message says
 * why). Blocks.
 */
int haptics_audio_attach(haptics_engine *engine, const char *alsa_device);

/*
 * haptics_audio_attach_with_cues — haptics_audio_attach with the game's own sound cues: `cue_folder`
 * holds one WAV per vocabulary item, named like the built-in patterns (`impact-heavy.wav`,
 * `notification-success.wav`, `selection.wav`…), read and converted to the device's rate now. A
 * missing or bad cue is -EINVAL with the file named in haptics_last_error(). Blocks.
 */
int haptics_audio_attach_with_cues(haptics_engine *engine, const char *alsa_device, const char *cue_folder);

/*
 * haptics_audio_set_muted — sound off (1) or on (0); haptics are unchanged. Control side.
 */
int haptics_audio_set_muted(haptics_engine *engine, int muted);

/* ---------------------------------------------------------------------------------------------
 * feedbackd themes
 */

/* A loaded feedbackd theme (Linux mobile feedback themes) with its parent chain. */
typedef struct haptics_theme haptics_theme;

/* A feedbackd profile: a level plays its own section of the theme and every quieter one. */
typedef enum haptics_theme_level {
    HAPTICS_THEME_LEVEL_SILENT = 0,  /* the silent section only (usually LEDs: nothing plays) */
    HAPTICS_THEME_LEVEL_QUIET = 1,   /* the quiet and silent sections (usually vibration) */
    HAPTICS_THEME_LEVEL_FULL = 2     /* every section: sound, vibration, LEDs */
} haptics_theme_level;

/*
 * haptics_theme_new_from_file — reads a feedbackd theme file and the themes it inherits from
 * (`parent-name`: <name>.json in the same folder) and stores the theme in *theme. Files are
 * untrusted and read as feedbackd's own reader does (hexadecimal integers and comments accepted).
 * Returns 0, or -EILSEQ for a bad file (the located message, file:line:column and JSON path, in
 * haptics_last_error(); a parent that cannot be found or a chain that loops too), -ENOENT,
 * -EACCES, -EFBIG, -EINVAL (`path` or `theme` NULL). Blocks (reads files). A theme is not tied
 * to an engine: one can serve several.
 */
int haptics_theme_new_from_file(const char *path, haptics_theme **theme);

/*
 * haptics_theme_free — frees a theme. NULL is ignored. Players and plays made from it are not
 * affected.
 */
void haptics_theme_free(haptics_theme *theme);

/*
 * haptics_theme_play — plays the feedbackd event `event` ("button-pressed") of `theme` at `level`
 * on every device, felt and heard at `onset` (0: as soon as possible): the theme's vibrations
 * (VibraRumble, VibraPeriodic, VibraPattern) of every section the level plays, together, and, when
 * `sound_folder` is not NULL, its Sound feedbacks read from <sound_folder>/<effect>.wav on the
 * attached audio output. A sound with no such file is left out (the outcome's audio_reason says
 * HAPTICS_REASON_NO_SOUND when none plays); Led and Dummy feedbacks play nothing. The engine keeps
 * what it plays until it has ended. `outcome` may be NULL.
 * Returns 0 when anything is felt or heard; -ENOTSUP when the event has nothing to feel or hear at
 * that level (HAPTICS_REASON_UNSUPPORTED); haptics_play's codes otherwise; -EINVAL for a NULL
 * handle or event or a level that is no haptics_theme_level; -ENOSPC when the engine has no room
 * for another player. Control side: blocks (renders the event and reads its sounds); for an event
 * played often, prefer a pattern player.
 */
int haptics_theme_play(haptics_engine *engine, haptics_theme *theme, const char *event, int level,
                       const char *sound_folder, int64_t onset, haptics_outcome *outcome);

/*
 * haptics_device_theme_play — haptics_theme_play on one device only, named by its id. -ENODEV
 * when no device has that id.
 */
int haptics_device_theme_play(haptics_engine *engine, int device_id, haptics_theme *theme, const char *event, int level,
                              const char *sound_folder, int64_t onset, haptics_outcome *outcome);

/* ---------------------------------------------------------------------------------------------
 * Events
 */

typedef enum haptics_event_type {
    HAPTICS_EVENT_NONE = 0,
    HAPTICS_EVENT_DEVICE_ADDED = 1,         /* name, path */
    HAPTICS_EVENT_DEVICE_LOST = 2,          /* name, path, error (negative errno) */
    HAPTICS_EVENT_AUDIO_DEVICE_LOST = 3,    /* error */
    /* 4 is not used: a sound that finds every voice slot taken is refused when it is played
       (HAPTICS_REASON_NO_VOICE_SLOT in its outcome), never dropped later. */
    HAPTICS_EVENT_EVENTS_LOST = 5,          /* error: how many events were dropped (queue full) */
    HAPTICS_EVENT_DEVICE_UNAVAILABLE = 6,   /* name, path, error: it exists but cannot be opened
                                               (-EACCES: install the udev rule) */
    HAPTICS_EVENT_SIMULATED_FALLBACK = 7,   /* no device could be opened: plays go to a simulated one */
    HAPTICS_EVENT_PLAYER_FINISHED = 8       /* player: a start of it ended; error 0 when it played to its
                                               end, -ECANCELED when it was stopped first (stop, restart,
                                               engine stopped, its device gone). Once per start. */
} haptics_event_type;

/* One event; set `size` to sizeof(haptics_event) before the call. */
typedef struct haptics_event {
    uint32_t size;
    int32_t type;             /* haptics_event_type */
    int32_t error;            /* a negative errno, or a count (see the type) */
    int32_t reserved;
    int64_t time;             /* monotonic ns, where the type has one */
    char name[128];
    char path[64];
    haptics_player *player;   /* HAPTICS_EVENT_PLAYER_FINISHED: which player (it may have been freed
                                 since: compare it, do not use it), else NULL */
} haptics_event;

/*
 * haptics_poll_event — takes the oldest event not yet taken into *event: 1 when there was one,
 * 0 when there is none (event->type is then HAPTICS_EVENT_NONE), or a negative code. The engine
 * keeps the last 256 events; older ones are dropped and a HAPTICS_EVENT_EVENTS_LOST says how many.
 * Never blocks for long (a short lock the realtime path never takes).
 */
int haptics_poll_event(haptics_engine *engine, haptics_event *event);

#ifdef __cplusplus
}
#endif

#endif /* HAPTICS_H */
