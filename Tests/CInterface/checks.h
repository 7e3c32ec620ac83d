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

#endif
