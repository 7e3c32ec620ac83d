#include "haptics_alsa.h"
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char message[512];

static void keep_message(const char *file, int line, const char *function, int err, const char *format, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
}

void haptics_alsa_route_messages(void) {
    snd_lib_error_set_handler(keep_message);
    message[0] = 0;
}

const char *haptics_alsa_last_message(void) { return message; }
