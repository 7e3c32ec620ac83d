#include "CHapticsDBus.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static CHapticsDBus_Library library;
static const CHapticsDBus_Library *loaded;
static char loadError[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // The SONAME, not libdbus-1.so: that name only exists where the development package is installed.
    void *handle = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(loadError, sizeof loadError, "%s", why ? why : "libdbus-1.so.3 cannot be loaded");
        return;
    }
#define LOAD(field, symbol)                                                                          \
    do {                                                                                             \
        *(void **)&library.field = dlsym(handle, #symbol);                                           \
        if (library.field == NULL) {                                                                 \
            snprintf(loadError, sizeof loadError, "libdbus-1.so.3 has no %s", #symbol);              \
            return;                                                                                  \
        }                                                                                            \
    } while (0)
    LOAD(error_init, dbus_error_init);
    LOAD(error_free, dbus_error_free);
    LOAD(connection_open_private, dbus_connection_open_private);
    LOAD(bus_register, dbus_bus_register);
    LOAD(bus_request_name, dbus_bus_request_name);
    LOAD(connection_close, dbus_connection_close);
    LOAD(connection_unref, dbus_connection_unref);
    LOAD(connection_send_with_reply_and_block, dbus_connection_send_with_reply_and_block);
    LOAD(connection_send, dbus_connection_send);
    LOAD(connection_flush, dbus_connection_flush);
    LOAD(connection_read_write, dbus_connection_read_write);
    LOAD(connection_pop_message, dbus_connection_pop_message);
    LOAD(message_new_method_call, dbus_message_new_method_call);
    LOAD(message_new_method_return, dbus_message_new_method_return);
    LOAD(message_new_error, dbus_message_new_error);
    LOAD(message_unref, dbus_message_unref);
    LOAD(message_get_type, dbus_message_get_type);
    LOAD(message_get_interface, dbus_message_get_interface);
    LOAD(message_get_member, dbus_message_get_member);
    LOAD(message_iter_init, dbus_message_iter_init);
    LOAD(message_iter_init_append, dbus_message_iter_init_append);
    LOAD(message_iter_append_basic, dbus_message_iter_append_basic);
    LOAD(message_iter_open_container, dbus_message_iter_open_container);
    LOAD(message_iter_close_container, dbus_message_iter_close_container);
    LOAD(message_iter_get_arg_type, dbus_message_iter_get_arg_type);
    LOAD(message_iter_get_basic, dbus_message_iter_get_basic);
    LOAD(message_iter_recurse, dbus_message_iter_recurse);
    LOAD(message_iter_next, dbus_message_iter_next);
#undef LOAD
    loaded = &library;
}

const CHapticsDBus_Library *CHapticsDBus_library(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *CHapticsDBus_loadError(void) {
    pthread_once(&once, load);
    return loaded ? NULL : loadError;
}
