// CHapticsSystem — the few system calls the engine needs that Swift cannot call well.
//
// Why each shim exists:
// - clock_gettime/clock_nanosleep: one place that pins the engine's clock to CLOCK_MONOTONIC
//   (Swift's ContinuousClock reads CLOCK_BOOTTIME on Linux) and retries EINTR on absolute sleeps.
// - prctl() is variadic, which Swift cannot call.
// - pthread_setname_np / pthread_setschedparam: clearer behind one function each, returning the errno.
// - futex(): there is no libc wrapper (syscall() is variadic), and FUTEX_* are macros.
// - ioctl() is variadic: one function per kind of argument (a pointer, an integer by value).
// - gettid() is a system call on every use: the thread id is kept per thread (`__thread`), so that a
//   trace records which thread it runs on with one load; a thread's name is read from /proc.
// - O_PATH is defined only under _GNU_SOURCE, which Swift's Glibc module is not built with.
// - The wake word helpers give the parking protocol C11 sequentially consistent operations on a plain
//   uint32_t that the kernel's futex can also see (Swift's Atomic does not expose its address); the
//   ownership word helpers do the same for a priority-inheriting futex (FUTEX_LOCK_PI).
//
// Conventions: functions return 0 on success or a positive errno; none of them allocate.
#ifndef CHAPTICS_SYSTEM_H
#define CHAPTICS_SYSTEM_H
#include <stdint.h>

/// Returns CLOCK_MONOTONIC now, in nanoseconds. The engine's one clock.
int64_t CHapticsSystem_monotonicNow(void);

/// Sleeps until the absolute CLOCK_MONOTONIC instant `deadline` (nanoseconds), retrying EINTR.
/// Returns 0, or the errno of clock_nanosleep (never EINTR).
int CHapticsSystem_sleepUntil(int64_t deadline);

/// Sets the calling thread's timer slack in nanoseconds (prctl PR_SET_TIMERSLACK); 0 or errno.
int CHapticsSystem_setTimerSlack(uint64_t nanoseconds);

/// Returns the calling thread's timer slack in nanoseconds (prctl PR_GET_TIMERSLACK), or -errno.
int64_t CHapticsSystem_timerSlack(void);

/// Names the calling thread (at most 15 bytes are kept, as the kernel allows); 0 or errno.
int CHapticsSystem_setThreadName(const char *name);

/// Asks SCHED_FIFO at `priority` for the calling thread; 0 or errno (EPERM without CAP_SYS_NICE,
/// which is what containers say — callers carry on without it).
int CHapticsSystem_requestRealtimePriority(int priority);

/// Marks the waiter as parked: stores 1 into `word` followed by a full fence, so that a check of the
/// command queue made after this call cannot be ordered before the store.
void CHapticsSystem_parkBegin(uint32_t *word);

/// Clears the parked mark (stores 0).
void CHapticsSystem_parkEnd(uint32_t *word);

/// Blocks while `*word == expected`, until the absolute CLOCK_MONOTONIC `deadline` (nanoseconds;
/// negative = no deadline) or a wake. FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time.
/// Returns 0 (woken or word changed), ETIMEDOUT, or another errno. EINTR is returned as 0: the caller
/// re-checks its state anyway.
int CHapticsSystem_futexWaitUntil(uint32_t *word, uint32_t expected, int64_t deadline);

/// Called by a producer after publishing work: a full fence, then if `*word` is 1 (parked) sets it to
/// 0 and wakes one waiter. Returns 1 if a wake was sent, 0 otherwise. Never blocks.
int CHapticsSystem_wakeIfParked(uint32_t *word);

/// A wake timer: a CLOCK_MONOTONIC timerfd a parked thread blocks on (CHapticsSystem_waitWakeTimer)
/// until the instant it is armed for. Unlike a futex wait's timeout, another thread can move that
/// instant without waking the thread now (CHapticsSystem_armWakeTimer), or wake it at once
/// (CHapticsSystem_wakeTimerIfParked). Returns the descriptor, or -errno.
int CHapticsSystem_makeWakeTimer(void);

/// Arms the wake timer for the absolute CLOCK_MONOTONIC `deadline` (nanoseconds; one not after now
/// expires at once; negative: disarmed, no expiry). Resets a pending expiry. Returns 0 or errno.
int CHapticsSystem_armWakeTimer(int fd, int64_t deadline);

/// Blocks until the wake timer expires (a signal returns early too). Returns 0 or errno.
int CHapticsSystem_waitWakeTimer(int fd);

/// CHapticsSystem_wakeIfParked for a thread parked on the wake timer: a full fence, then if `*word`
/// is 1 sets it to 0 and makes the timer expire now. Returns 1 if it woke the thread, 0 otherwise.
int CHapticsSystem_wakeTimerIfParked(uint32_t *word, int fd);

/// A full fence, then whether `*word` says parked (1).
int CHapticsSystem_isParked(uint32_t *word);

/// ioctl(fd, request, pointer). Returns -1 and sets errno on failure.
int CHapticsSystem_ioctlPointer(int fd, unsigned long request, void *argument);

/// ioctl(fd, request, integer), for requests that take their argument by value.
int CHapticsSystem_ioctlInteger(int fd, unsigned long request, long argument);

/// The `O_PATH` open flag: a descriptor that names a file without opening it (no read, no driver's
/// open, no FIFO rendezvous); `fstat`, `openat` and `/proc/self/fd` work on it.
int CHapticsSystem_openPathFlag(void);

/// The calling thread's kernel id (gettid), read once per thread and kept: later calls are one load.
int32_t CHapticsSystem_threadID(void);

/// The same, inline for the ownership word's fast paths below (Swift calls the function above).
extern __thread int32_t CHapticsSystem_cachedThreadID;
int32_t CHapticsSystem_askThreadID(void);
static inline int32_t CHapticsSystem_inlineThreadID(void) {
    int32_t cached = CHapticsSystem_cachedThreadID;
    return cached != 0 ? cached : CHapticsSystem_askThreadID();
}

/// Ownership words: a plain uint32_t the kernel's priority-inheriting futex (FUTEX_LOCK_PI) reads,
/// holding the owner's thread id (0: free). Taking one that is free, and giving one nobody waits
/// for, is one atomic compare-and-swap, no system call. A thread that waits for one blocks in the
/// kernel, which lends the owner the waiter's priority until it gives the word back: a
/// SCHED_FIFO waiter is never held up by a lower-priority thread preempting the owner.
///
/// Takes `word` for the calling thread if it is free; 1 if taken, 0 if another thread owns it.
/// Inline: one compare-and-swap on the realtime path's way to its write.
static inline int CHapticsSystem_ownershipTryTake(uint32_t *word) {
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(word, &expected, (uint32_t)CHapticsSystem_inlineThreadID(), 0,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/// Takes `word` for the calling thread, waiting for the owner (and lending it the caller's
/// priority) when another thread has it. Returns 0 once owned, or the errno of FUTEX_LOCK_PI
/// (ENOSYS on a kernel without priority-inheriting futexes): the word is then not taken.
int CHapticsSystem_ownershipTake(uint32_t *word);

/// Gives `word` back when a thread waits for it (FUTEX_WAITERS set): FUTEX_UNLOCK_PI hands it to
/// the highest-priority waiter and ends the priority lent. CHapticsSystem_ownershipGive's slow path.
void CHapticsSystem_ownershipHandOver(uint32_t *word);

/// Gives `word` back (the calling thread owns it): to the highest-priority waiter, if any.
static inline void CHapticsSystem_ownershipGive(uint32_t *word) {
    uint32_t expected = (uint32_t)CHapticsSystem_inlineThreadID();
    if (__atomic_compare_exchange_n(word, &expected, 0u, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return;
    CHapticsSystem_ownershipHandOver(word);
}

/// The word (a sequentially consistent load): the owner's thread id, with the kernel's
/// FUTEX_WAITERS bit (0x80000000) while a thread waits for it; 0 when free.
static inline uint32_t CHapticsSystem_ownershipWord(uint32_t *word) {
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

/// Tells the processor the caller is spinning (x86 `pause`, Arm `yield`): a spin-wait's loop body.
static inline void CHapticsSystem_spinPause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

/// Copies the name of thread `tid` of this process (/proc/self/task/<tid>/comm, without the newline)
/// into `name` (`capacity` bytes, NUL-terminated); 0, or the errno (ENOENT: the thread has ended).
int CHapticsSystem_threadName(int32_t tid, char *name, int capacity);

#endif
