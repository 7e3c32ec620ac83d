// CBenchSupport — baselines and counters for the benchmarks (not part of the library).
//
// - An allocation counter: this target defines malloc, calloc, realloc, memalign, posix_memalign and
//   aligned_alloc over glibc's __libc_* entry points, so every heap allocation of the benchmark
//   process (Swift runtime included) passes through here; allocations are counted only between
//   CBenchSupport_beginCountingAllocations and CBenchSupport_endCountingAllocations.
// - The timing baseline: a plain C loop of clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) on its own
//   pthread with the same timer slack and priority request as the scheduler's realtime thread, so the
//   scheduler is compared with the best a hand-written loop gets on the same machine at the same time.
// - The write baseline: the same loop making, on many event nodes each period, the write()s the engine
//   makes for the same updates — what any program pays for those writes on this kernel.
// - The trigger baseline: a plain C clock_gettime + write(fd, &input_event) — the least any program can
//   do to start a force-feedback effect that is already uploaded — and a marker that shows up in a
//   system call trace, so a benchmark can count exactly the system calls between two points.
// - The SDL2 peers (SDLPeers.c, linking Debian's libSDL2): its rumble and haptic calls on one pad,
//   with SDL's HIDAPI drivers off so that it drives the pad's evdev node like the engine.
#ifndef CBENCH_SUPPORT_H
#define CBENCH_SUPPORT_H
#include <stdint.h>

/// Starts counting heap allocations (resets the count).
void CBenchSupport_beginCountingAllocations(void);
/// Stops counting and returns the number of allocations since the matching begin.
int64_t CBenchSupport_endCountingAllocations(void);
/// Starts counting the heap allocations of the calling thread only (resets its count).
void CBenchSupport_beginCountingThreadAllocations(void);
/// Stops counting for the calling thread and returns its allocations since the matching begin.
int64_t CBenchSupport_endCountingThreadAllocations(void);
/// Allocations counted so far in the current window.
int64_t CBenchSupport_countedAllocations(void);

/// Runs `count` absolute sleeps on a new pthread (named "bench-baseline", timer slack 1 ns, SCHED_FIFO
/// asked at `priority`), the i-th until `firstDeadline + i * period` on CLOCK_MONOTONIC, and writes
/// each wake-up's lateness (CLOCK_MONOTONIC after the sleep − deadline, nanoseconds) to `lateness[i]`.
/// Returns 0, or the errno of pthread_create.
int CBenchSupport_runSleepLoop(int64_t firstDeadline, int64_t period, int32_t count, int32_t priority, int64_t *lateness);

/// The scale benchmark's floor: runs `count` updates on a new pthread (named "bench-writes", timer
/// slack 1 ns, SCHED_FIFO asked at `priority`), the i-th at `firstDeadline + i * period` on
/// CLOCK_MONOTONIC. An update makes, on each of the `pads` event nodes `fds[p]` in turn, the writes
/// an EvdevActuator makes for a change between two prepared levels: a stop of the effect that plays
/// (none before the first update) and a play of `effects[2 * p + i % 2]`, two events of one write();
/// then it
/// stores the pad's lateness (CLOCK_MONOTONIC after its writes − deadline) in `lateness[i * pads + p]`.
/// After the last update it stops each pad's effect, as the engine's block ends with a stop, and
/// stores the thread's CPU time (CLOCK_THREAD_CPUTIME_ID, nanoseconds) in `*cpu`.
/// Returns 0, the errno of pthread_create, or the errno of the first failed write (the loop goes on).
int CBenchSupport_runWriteLoop(int64_t firstDeadline, int64_t period, int32_t count, int32_t priority,
                               const int32_t *fds, const int16_t *effects, int32_t pads, int64_t *lateness,
                               int64_t *cpu);

/// The raw C trigger: reads CLOCK_MONOTONIC, then writes one `EV_FF` input event (`code` = effect id,
/// `value` 1 = play, 0 = stop) to the event node `fd` with a single write(). Returns the clock reading
/// in nanoseconds (taken just before the write), or -errno when the write failed or was short.
int64_t CBenchSupport_rawTrigger(int fd, uint16_t code, int32_t value);

/// `CBenchSupport_rawTrigger` that first calls `codePages` functions (at most 16), each alone on its
/// own 4 KiB code page, and reads and writes `dataPages` data pages (at most 16): what the emulated
/// processor charges for code and data a call reaches before its write, beside the plain trigger.
int64_t CBenchSupport_rawTriggerAfterColdPages(int fd, uint16_t code, int32_t value, int codePages, int dataPages);

/// How many times the calling thread has been switched out so far, voluntarily or not
/// (`getrusage(RUSAGE_THREAD)`: `ru_nvcsw + ru_nivcsw`); -1 when it cannot be read.
int64_t CBenchSupport_threadContextSwitches(void);

/// Makes one system call that a trace shows with `label` in it and that has no effect: write() to
/// descriptor -1 (it fails with EBADF). Used to mark the start and end of a counted window.
void CBenchSupport_markTrace(const char *label);

/// Opens the first joystick whose name contains `name` through SDL2 (HIDAPI off): as a game
/// controller when SDL has a mapping for it, else as a joystick; opens its haptic device and uploads
/// one SDL_HAPTIC_LEFTRIGHT effect (1 s, large 0xC000, small 0x4000). Returns 0, or -1 with
/// CBenchSupport_sdlFailure() saying why.
int CBenchSupport_sdlOpen(const char *name);
/// 1 when CBenchSupport_sdlOpen opened a game controller (SDL_GameControllerRumble), 0 for a joystick
/// (SDL_JoystickRumble, which the former calls).
int CBenchSupport_sdlIsGameController(void);
/// Why the last SDL call failed.
const char *CBenchSupport_sdlFailure(void);
/// Reads CLOCK_MONOTONIC, then SDL_GameControllerRumble (or SDL_JoystickRumble). Returns the reading
/// (nanoseconds), or -1.
int64_t CBenchSupport_sdlRumble(uint16_t low, uint16_t high, uint32_t milliseconds);
/// Reads CLOCK_MONOTONIC, then SDL_HapticRunEffect of the uploaded effect once. Returns the reading,
/// or -1.
int64_t CBenchSupport_sdlHapticRun(void);
/// SDL_HapticStopEffect of the uploaded effect. Returns 0 or -1.
int CBenchSupport_sdlHapticStop(void);
/// Closes what CBenchSupport_sdlOpen opened and quits SDL.
void CBenchSupport_sdlClose(void);

/// Switches callgrind's instruction counting on or off for the calling thread (a callgrind client
/// request; nothing when the process does not run under callgrind). With `--collect-atstart=no`, the
/// counted instructions are exactly those between the switches.
void CBenchSupport_toggleInstructionCounting(void);

#endif
