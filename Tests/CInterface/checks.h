/* The checks the C test programs make: each counts in `checks`, and a failed one counts in
 * `failures` and prints its file, line and what it expected on stderr. Include once per program. */
#ifndef HAPTICS_TEST_CHECKS_H
#define HAPTICS_TEST_CHECKS_H

#include <stdio.h>
#include <string.h>

static int checks;
static int failures;

#define CHECK(condition)                                                                  \
    do {                                                                                  \
        checks++;                                                                         \
        if (!(condition)) {                                                               \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition);       \
        }                                                                                 \
    } while (0)

#define CHECK_INT(actual, expected)                                                       \
    do {                                                                                  \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                   \
        checks++;                                                                         \
        if (a_ != e_) {                                                                   \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__,     \
                    #actual, a_, e_);                                                     \
        }                                                                                 \
    } while (0)

#define CHECK_STR(actual, expected)                                                       \
    do {                                                                                  \
        const char *a_ = (actual), *e_ = (expected);                                      \
        checks++;                                                                         \
        if (a_ == NULL || strcmp(a_, e_) != 0) {                                          \
            failures++;                                                                   \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
                    #actual, a_ ? a_ : "(null)", e_);                                     \
        }                                                                                 \
    } while (0)

/* The player's state once it is `expected`, polled every 1 ms for at most 2 s (then whatever it
 * is; -1 when it cannot be read): a start, pause or resume may be left to the realtime thread,
 * whose pass a loaded machine can delay past any fixed sleep. Into *position (may be NULL) the
 * position as it was then. Include after <haptics/haptics.h> and <time.h>. */
static inline int32_t player_state_once(haptics_player *player, int32_t expected, int64_t *position) {
    struct timespec poll_time = {0, 1000000};
    int32_t state = -1;
    for (int polls = 0; polls < 2000; polls++) {
        if (haptics_player_get_state(player, &state, position) != 0) return -1;
        if (state == expected) break;
        nanosleep(&poll_time, NULL);
    }
    return state;
}

#endif
