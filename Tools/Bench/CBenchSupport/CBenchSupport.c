#define _GNU_SOURCE
#include "CBenchSupport.h"
#include <errno.h>
#include <execinfo.h>
#include <linux/input.h>
#include <stdlib.h>
#include <unistd.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

// MARK: Allocation counter

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static int counting;
static int64_t allocations;
// Thread-scoped counting: only the allocations of the thread that asked, so a benchmark can measure
// its triggering thread while a device's reader thread works beside it.
static __thread int counting_this_thread;
static __thread int64_t this_thread_allocations;
static int tracing = -1;
static __thread int inside_trace;

// With HAPTICS_BENCH_TRACE_ALLOCATIONS set, each counted allocation prints a backtrace to stderr, to
// find where an allocation in a measured window comes from.
static void trace_allocation(void) {
    if (tracing < 0) tracing = getenv("HAPTICS_BENCH_TRACE_ALLOCATIONS") != NULL;
    if (!tracing || inside_trace) return;
    inside_trace = 1;
    void *frames[32];
    int depth = backtrace(frames, 32);
    backtrace_symbols_fd(frames, depth, 2);
    write(2, "--\n", 3);
    inside_trace = 0;
}

static inline void count_allocation(void) {
    if (counting_this_thread && !inside_trace) {
        this_thread_allocations += 1;
        trace_allocation();
    }
    if (__atomic_load_n(&counting, __ATOMIC_RELAXED) && !inside_trace) {
        __atomic_add_fetch(&allocations, 1, __ATOMIC_RELAXED);
        trace_allocation();
    }
}

void *malloc(size_t size) {
    count_allocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_allocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_allocation();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count_allocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

void free(void *pointer) {
    __libc_free(pointer);
}

void CBenchSupport_beginCountingAllocations(void) {
    __atomic_store_n(&allocations, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&counting, 1, __ATOMIC_SEQ_CST);
}

int64_t CBenchSupport_endCountingAllocations(void) {
    __atomic_store_n(&counting, 0, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&allocations, __ATOMIC_SEQ_CST);
}

void CBenchSupport_beginCountingThreadAllocations(void) {
    this_thread_allocations = 0;
    counting_this_thread = 1;
}

int64_t CBenchSupport_endCountingThreadAllocations(void) {
    counting_this_thread = 0;
    return this_thread_allocations;
}

int64_t CBenchSupport_countedAllocations(void) {
    return __atomic_load_n(&allocations, __ATOMIC_SEQ_CST);
}

// MARK: Baseline sleep loop

struct SleepLoop {
    int64_t firstDeadline;
    int64_t period;
    int32_t count;
    int32_t priority;
    int64_t *lateness;
};

static int64_t monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// What the scheduler's realtime thread asks for: a name, 1 ns timer slack, SCHED_FIFO (refusal ignored).
static void become_baseline_thread(const char *name, int32_t priority) {
    pthread_setname_np(pthread_self(), name);
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
    struct sched_param parameter = { .sched_priority = priority };
    pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter);
}

// Sleeps until `deadline` (CLOCK_MONOTONIC nanoseconds), absolute, as the scheduler does.
static void sleep_until(int64_t deadline) {
    struct timespec ts = { .tv_sec = deadline / 1000000000LL, .tv_nsec = deadline % 1000000000LL };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
}

static void *sleep_loop(void *argument) {
    struct SleepLoop *loop = argument;
    become_baseline_thread("bench-baseline", loop->priority);
    for (int32_t i = 0; i < loop->count; i++) {
        int64_t deadline = loop->firstDeadline + (int64_t)i * loop->period;
        sleep_until(deadline);
        loop->lateness[i] = monotonic_now() - deadline;
    }
    return NULL;
}

int CBenchSupport_runSleepLoop(int64_t firstDeadline, int64_t period, int32_t count, int32_t priority, int64_t *lateness) {
    struct SleepLoop loop = { firstDeadline, period, count, priority, lateness };
    pthread_t thread;
    int result = pthread_create(&thread, NULL, sleep_loop, &loop);
    if (result != 0) return result;
    pthread_join(thread, NULL);
    return 0;
}

// MARK: Write baseline

struct WriteLoop {
    int64_t firstDeadline;
    int64_t period;
    int32_t count;
    int32_t priority;
    const int32_t *fds;
    const int16_t *effects;
    int32_t pads;
    int64_t *lateness;
    int failure;
    int64_t cpu;
};

static int write_ff(struct WriteLoop *loop, int32_t fd, int16_t effect, int32_t value) {
    struct input_event event = { .type = EV_FF, .code = (uint16_t)effect, .value = value };
    if (write(fd, &event, sizeof event) == (ssize_t)sizeof event) return 1;
    if (loop->failure == 0) loop->failure = errno ? errno : EIO;
    return 0;
}

/// A stop of `stop` and a play of `play` as two events of one write(), as EvdevActuator changes levels.
static int write_ff_change(struct WriteLoop *loop, int32_t fd, int16_t stop, int16_t play) {
    struct input_event events[2] = {
        { .type = EV_FF, .code = (uint16_t)stop, .value = 0 },
        { .type = EV_FF, .code = (uint16_t)play, .value = 1 },
    };
    if (write(fd, events, sizeof events) == (ssize_t)sizeof events) return 1;
    if (loop->failure == 0) loop->failure = errno ? errno : EIO;
    return 0;
}

static void *write_loop(void *argument) {
    struct WriteLoop *loop = argument;
    become_baseline_thread("bench-writes", loop->priority);
    for (int32_t i = 0; i < loop->count; i++) {
        int64_t deadline = loop->firstDeadline + (int64_t)i * loop->period;
        sleep_until(deadline);
        for (int32_t p = 0; p < loop->pads; p++) {
            if (i > 0) {
                write_ff_change(loop, loop->fds[p], loop->effects[2 * p + (i - 1) % 2], loop->effects[2 * p + i % 2]);
            } else {
                write_ff(loop, loop->fds[p], loop->effects[2 * p], 1);
            }
            loop->lateness[(int64_t)i * loop->pads + p] = monotonic_now() - deadline;
        }
    }
    if (loop->count > 0) {
        for (int32_t p = 0; p < loop->pads; p++) write_ff(loop, loop->fds[p], loop->effects[2 * p + (loop->count - 1) % 2], 0);
    }
    struct timespec cpu;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
    loop->cpu = (int64_t)cpu.tv_sec * 1000000000LL + cpu.tv_nsec;
    return NULL;
}

int CBenchSupport_runWriteLoop(int64_t firstDeadline, int64_t period, int32_t count, int32_t priority,
                               const int32_t *fds, const int16_t *effects, int32_t pads, int64_t *lateness,
                               int64_t *cpu) {
    struct WriteLoop loop = { firstDeadline, period, count, priority, fds, effects, pads, lateness, 0, 0 };
    pthread_t thread;
    int result = pthread_create(&thread, NULL, write_loop, &loop);
    if (result != 0) return result;
    pthread_join(thread, NULL);
    *cpu = loop.cpu;
    return loop.failure;
}

// MARK: Trigger baseline

// Writes `event` to `fd`: `start` when the whole event was written, -errno otherwise.
static inline int64_t write_trigger(int fd, const struct input_event *event, int64_t start) {
    ssize_t written = write(fd, event, sizeof *event);
    if (written == (ssize_t)sizeof *event) return start;
    return written < 0 ? -(int64_t)errno : -(int64_t)EIO;
}

int64_t CBenchSupport_rawTrigger(int fd, uint16_t code, int32_t value) {
    struct input_event event = { .type = EV_FF, .code = code, .value = value };
    return write_trigger(fd, &event, monotonic_now());
}

// Calibration of the emulated processor: what cold code and data cost before a write. Sixteen
// functions, each alone on its own 4 KiB page, and sixteen data pages.
#define COLD_PAGE_FUNCTION(n) \
    __attribute__((noinline, aligned(4096))) static int cold_page_function_##n(int x) { return x * 3 + n; }
COLD_PAGE_FUNCTION(0) COLD_PAGE_FUNCTION(1) COLD_PAGE_FUNCTION(2) COLD_PAGE_FUNCTION(3)
COLD_PAGE_FUNCTION(4) COLD_PAGE_FUNCTION(5) COLD_PAGE_FUNCTION(6) COLD_PAGE_FUNCTION(7)
COLD_PAGE_FUNCTION(8) COLD_PAGE_FUNCTION(9) COLD_PAGE_FUNCTION(10) COLD_PAGE_FUNCTION(11)
COLD_PAGE_FUNCTION(12) COLD_PAGE_FUNCTION(13) COLD_PAGE_FUNCTION(14) COLD_PAGE_FUNCTION(15)
enum { cold_pages = 16 };
// Called through a table the compiler cannot see through, so each stays a call to its own page.
static int (*volatile cold_page_functions[cold_pages])(int) = {
    cold_page_function_0, cold_page_function_1, cold_page_function_2, cold_page_function_3,
    cold_page_function_4, cold_page_function_5, cold_page_function_6, cold_page_function_7,
    cold_page_function_8, cold_page_function_9, cold_page_function_10, cold_page_function_11,
    cold_page_function_12, cold_page_function_13, cold_page_function_14, cold_page_function_15,
};
static volatile char cold_data_pages[cold_pages][4096] __attribute__((aligned(4096)));
static volatile int cold_page_sink;

int64_t CBenchSupport_rawTriggerAfterColdPages(int fd, uint16_t code, int32_t value, int codePages, int dataPages) {
    struct input_event event = { .type = EV_FF, .code = code, .value = value };
    int64_t start = monotonic_now();
    int sum = 0;
    for (int page = 0; page < codePages && page < cold_pages; page++) sum += cold_page_functions[page](page);
    for (int page = 0; page < dataPages && page < cold_pages; page++) {
        sum += cold_data_pages[page][0];
        cold_data_pages[page][64] = (char)sum;
    }
    cold_page_sink = sum;
    return write_trigger(fd, &event, start);
}

int64_t CBenchSupport_threadContextSwitches(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_THREAD, &usage) != 0) return -1;
    return (int64_t)usage.ru_nvcsw + (int64_t)usage.ru_nivcsw;
}

void CBenchSupport_markTrace(const char *label) {
    // The result is the point: EBADF, and the label in the trace.
    ssize_t ignored = write(-1, label, strlen(label));
    (void)ignored;
}
