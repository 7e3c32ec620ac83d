// libdbus-1, loaded when first needed, for the one thing the engine asks over D-Bus: realtime
// priority from rtkit (org.freedesktop.RealtimeKit1) when SCHED_FIFO is refused.
//
// Why this shim exists:
// - A game must build without libdbus's development files and start where libdbus-1.so.3 is absent
//   (a slim container, a distribution without it): the realtime threads then run at normal priority
//   and say why. So nothing links against libdbus, and its header is not needed: dlopen loads the
//   library on first use, and this table hands Swift typed pointers to the functions the project
//   calls. The few types below are libdbus's stable ABI (unchanged since 1.0): two structures the
//   caller allocates, of the library's size and alignment, and opaque handles.
// - dbus_message_append_args and dbus_message_get_args are variadic, which Swift cannot call: the
//   table has the iterator functions instead.
// The table also holds what a service needs (take a name, read, reply): the tests run a fake rtkit on
// a private bus through the same library.
#ifndef CHAPTICS_DBUS_H
#define CHAPTICS_DBUS_H

#include <stdint.h>

/// dbus_bool_t: 32 bits, 0 or 1.
typedef uint32_t CHapticsDBus_Bool;
/// A connection to a bus (opaque).
typedef struct DBusConnection DBusConnection;
/// A message (opaque).
typedef struct DBusMessage DBusMessage;
/// A pending call (opaque; only passed as NULL).
typedef struct DBusPendingCall DBusPendingCall;

/// libdbus's DBusError: `name` and `message` are set when an error is; the rest is the library's.
typedef struct DBusError {
    const char *name;
    const char *message;
    unsigned int _flags;
    void *_padding;
} DBusError;

/// libdbus's DBusMessageIter: storage the caller provides, 72 bytes on 64-bit systems.
typedef struct DBusMessageIter {
    void *_pointers[2];
    uint32_t _words[10];
    void *_more[2];
} DBusMessageIter;

/// libdbus-1's functions the project calls, named after them without the `dbus_` prefix.
typedef struct CHapticsDBus_Library {
    void (*error_init)(DBusError *error);
    void (*error_free)(DBusError *error);
    DBusConnection *(*connection_open_private)(const char *address, DBusError *error);
    CHapticsDBus_Bool (*bus_register)(DBusConnection *connection, DBusError *error);
    int (*bus_request_name)(DBusConnection *connection, const char *name, unsigned int flags, DBusError *error);
    void (*connection_close)(DBusConnection *connection);
    void (*connection_unref)(DBusConnection *connection);
    DBusMessage *(*connection_send_with_reply_and_block)(DBusConnection *connection, DBusMessage *message,
                                                         int timeoutMilliseconds, DBusError *error);
    CHapticsDBus_Bool (*connection_send)(DBusConnection *connection, DBusMessage *message, uint32_t *serial);
    void (*connection_flush)(DBusConnection *connection);
    CHapticsDBus_Bool (*connection_read_write)(DBusConnection *connection, int timeoutMilliseconds);
    DBusMessage *(*connection_pop_message)(DBusConnection *connection);
    DBusMessage *(*message_new_method_call)(const char *destination, const char *path, const char *interface,
                                            const char *method);
    DBusMessage *(*message_new_method_return)(DBusMessage *call);
    DBusMessage *(*message_new_error)(DBusMessage *call, const char *name, const char *message);
    void (*message_unref)(DBusMessage *message);
    int (*message_get_type)(DBusMessage *message);
    const char *(*message_get_interface)(DBusMessage *message);
    const char *(*message_get_member)(DBusMessage *message);
    CHapticsDBus_Bool (*message_iter_init)(DBusMessage *message, DBusMessageIter *iterator);
    void (*message_iter_init_append)(DBusMessage *message, DBusMessageIter *iterator);
    CHapticsDBus_Bool (*message_iter_append_basic)(DBusMessageIter *iterator, int type, const void *value);
    CHapticsDBus_Bool (*message_iter_open_container)(DBusMessageIter *iterator, int type, const char *signature,
                                                     DBusMessageIter *sub);
    CHapticsDBus_Bool (*message_iter_close_container)(DBusMessageIter *iterator, DBusMessageIter *sub);
    int (*message_iter_get_arg_type)(DBusMessageIter *iterator);
    void (*message_iter_get_basic)(DBusMessageIter *iterator, void *value);
    void (*message_iter_recurse)(DBusMessageIter *iterator, DBusMessageIter *sub);
    CHapticsDBus_Bool (*message_iter_next)(DBusMessageIter *iterator);
} CHapticsDBus_Library;

/// The library's functions, loaded on the first call (libdbus-1.so.3); NULL when it cannot be
/// loaded or lacks one of them, then CHapticsDBus_loadError() says why. Thread-safe.
const CHapticsDBus_Library *CHapticsDBus_library(void);

/// Why CHapticsDBus_library() returned NULL (dlopen's or dlsym's message), or NULL.
const char *CHapticsDBus_loadError(void);

#endif
