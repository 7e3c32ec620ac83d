#define _GNU_SOURCE
#include "CHapticsSystem.h"
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int64_t CHapticsSystem_monotonicNow(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static struct timespec CHapticsSystem_timespec(int64_t nanoseconds) {
    struct timespec ts;
    ts.tv_sec = (time_t)(nanoseconds / 1000000000LL);
    ts.tv_nsec = (long)(nanoseconds % 1000000000LL);
    if (ts.tv_nsec < 0) {
        ts.tv_sec -= 1;
        ts.tv_nsec += 1000000000L;
    }
    return ts;
}

int CHapticsSystem_sleepUntil(int64_t deadline) {
    struct timespec ts = CHapticsSystem_timespec(deadline);
    int result;
    // clock_nanosleep returns the error number itself (not -1/errno); an absolute sleep is simply
    // restarted after a signal.
    do {
        result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    } while (result == EINTR);
    return result;
}

int CHapticsSystem_setTimerSlack(uint64_t nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, (unsigned long)nanoseconds, 0, 0, 0) == 0 ? 0 : errno;
}

int64_t CHapticsSystem_timerSlack(void) {
    int result = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    return result >= 0 ? (int64_t)result : -(int64_t)errno;
}

int CHapticsSystem_setThreadName(const char *name) {
    char truncated[16];
    int i = 0;
    for (; i < 15 && name[i] != 0; i++) truncated[i] = name[i];
    truncated[i] = 0;
    return pthread_setname_np(pthread_self(), truncated);
}

int CHapticsSystem_requestRealtimePriority(int priority) {
    struct sched_param parameter = { .sched_priority = priority };
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter);
}

void CHapticsSystem_parkBegin(uint32_t *word) {
    __atomic_store_n(word, 1u, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void CHapticsSystem_parkEnd(uint32_t *word) {
    __atomic_store_n(word, 0u, __ATOMIC_SEQ_CST);
}

int CHapticsSystem_futexWaitUntil(uint32_t *word, uint32_t expected, int64_t deadline) {
    struct timespec ts = CHapticsSystem_timespec(deadline);
    long result = syscall(SYS_futex, word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, expected,
                          deadline < 0 ? NULL : &ts, NULL, FUTEX_BITSET_MATCH_ANY);
    if (result == 0) return 0;
    int error = errno;
    return (error == EAGAIN || error == EINTR) ? 0 : error;
}

int CHapticsSystem_wakeIfParked(uint32_t *word) {
    // Pairs with the fence in parkBegin: either the waiter sees the producer's command, or the
    // producer sees the parked mark and wakes it.
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0) return 0;
    if (__atomic_exchange_n(word, 0u, __ATOMIC_SEQ_CST) == 0) return 0;
    syscall(SYS_futex, word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
    return 1;
}

int CHapticsSystem_makeWakeTimer(void) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    return fd >= 0 ? fd : -errno;
}

int CHapticsSystem_armWakeTimer(int fd, int64_t deadline) {
    struct itimerspec setting = { 0 };
    if (deadline >= 0) {
        setting.it_value = CHapticsSystem_timespec(deadline);
        // An all-zero it_value disarms: the earliest instant that still expires is 1 ns.
        if (setting.it_value.tv_sec == 0 && setting.it_value.tv_nsec == 0) setting.it_value.tv_nsec = 1;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &setting, NULL) == 0 ? 0 : errno;
}

int CHapticsSystem_waitWakeTimer(int fd) {
    uint64_t expirations;
    ssize_t result = read(fd, &expirations, sizeof expirations);
    if (result == (ssize_t)sizeof expirations) return 0;
    return (result < 0 && errno != EINTR) ? errno : 0;
}

int CHapticsSystem_wakeTimerIfParked(uint32_t *word, int fd) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (__atomic_load_n(word, __ATOMIC_RELAXED) == 0) return 0;
    if (__atomic_exchange_n(word, 0u, __ATOMIC_SEQ_CST) == 0) return 0;
    CHapticsSystem_armWakeTimer(fd, 0);
    return 1;
}

int CHapticsSystem_isParked(uint32_t *word) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return __atomic_load_n(word, __ATOMIC_SEQ_CST) != 0;
}

int CHapticsSystem_ioctlPointer(int fd, unsigned long request, void *argument) {
    return ioctl(fd, request, argument);
}

int CHapticsSystem_ioctlInteger(int fd, unsigned long request, long argument) {
    return ioctl(fd, request, argument);
}

int CHapticsSystem_openPathFlag(void) {
    return O_PATH;
}

__thread int32_t CHapticsSystem_cachedThreadID = 0;

// A forked child's one thread is a copy of the forking thread, cache included: it asks again.
static void CHapticsSystem_forgetThreadID(void) { CHapticsSystem_cachedThreadID = 0; }

__attribute__((constructor)) static void CHapticsSystem_registerForkHandler(void) {
    pthread_atfork(NULL, NULL, CHapticsSystem_forgetThreadID);
}

int32_t CHapticsSystem_askThreadID(void) {
    CHapticsSystem_cachedThreadID = (int32_t)syscall(SYS_gettid);
    return CHapticsSystem_cachedThreadID;
}

int32_t CHapticsSystem_threadID(void) {
    return CHapticsSystem_inlineThreadID();
}

int CHapticsSystem_ownershipTake(uint32_t *word) {
    if (CHapticsSystem_ownershipTryTake(word)) return 0;
    for (;;) {
        // The kernel queues this thread on the owner, lends the owner its priority while it waits,
        // and on the owner's release writes this thread's id into the word: it returns owning.
        long result = syscall(SYS_futex, word, FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
        if (result == 0) {
            // The kernel's hand-over is a full barrier; this load lets a race detector see it too
            // (it pairs with the release in ownershipHandOver).
            (void)__atomic_load_n(word, __ATOMIC_SEQ_CST);
            return 0;
        }
        int error = errno;
        // EAGAIN: the owner is exiting; EINTR is not expected (the call restarts) but harmless. The
        // next call takes a word that became free meanwhile.
        if (error != EAGAIN && error != EINTR) return error;
    }
}

void CHapticsSystem_ownershipHandOver(uint32_t *word) {
    // The no-op read-modify-write is the release a race detector pairs with the waiter's load.
    (void)__atomic_fetch_or(word, 0u, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, word, FUTEX_UNLOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
}

int CHapticsSystem_threadName(int32_t tid, char *name, int capacity) {
    if (capacity < 1) return EINVAL;
    name[0] = 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t count;
    do { count = read(fd, name, (size_t)capacity - 1); } while (count < 0 && errno == EINTR);
    int failure = count < 0 ? errno : 0;
    close(fd);
    if (failure) return failure;
    while (count > 0 && (name[count - 1] == '\n' || name[count - 1] == 0)) count--;
    name[count] = 0;
    return 0;
}
