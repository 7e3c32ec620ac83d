// libevdev and the kernel's input, uinput and uhid interfaces, plus the shims Swift needs to use them.
//
// What goes through libevdev, and why the rest does not:
// - Describing an event node is libevdev's job: libevdev_new_from_fd reads the name, the ids, phys,
//   uniq and the capability bitmaps once, the getters answer from that copy, and
//   libevdev_set_clock_id stamps the descriptor's events with CLOCK_MONOTONIC. Its calls return 0 or
//   a negative errno; HapticsDevices maps that into SystemCallError named after the function.
// - libevdev has no force-feedback calls (its own header lists EVIOCSFF, EVIOCRMFF and EVIOCGEFFECTS
//   as not supported). So three evdev ioctls stay raw: EVIOCGEFFECTS (how many effects the device
//   holds), EVIOCSFF (upload or update an effect) and EVIOCRMFF (erase one). A play or a stop is a
//   plain write() of one struct input_event: a prepared trigger is that one system call, with no
//   library and no allocation in between.
// - uinput devices are created with raw ioctls too. libevdev_uinput_create_from_device fixes
//   ff_effects_max itself (10 whenever EV_FF is set, 0 on its legacy path) and offers no way to
//   choose it, while the force-feedback sink needs a given number of slots (1, 4, 16 in the tests);
//   and libevdev does not wrap the UI_BEGIN/END_FF_UPLOAD/ERASE handshake a sink answers with.
//
// Why the shims exist:
// - The ioctl request codes (EVIOCSFF, UI_DEV_SETUP, …) are function-like macros built from
//   _IOW/_IOR/_IOC; Swift imports no function-like macros, so each code is a function here.
// - ioctl() itself is variadic; the system module's FileDescriptor calls it through CHapticsSystem.
// - struct uhid_event is a packed 4 KiB union; Swift would import its 4096-byte descriptor array as a
//   4096-element tuple. The uhid helpers fill and read the event in C, where the layout is the header's.
// - syscall() is variadic too; the per-thread credential shim uses it for raw setresuid/setresgid.
// All shims are static inline: no symbols, no library of our own, nothing to link besides libevdev.
#ifndef CEVDEV_SHIM_H
#define CEVDEV_SHIM_H

#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <linux/uinput.h>
#include <linux/uhid.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <stdint.h>
#include <string.h>

// MARK: - evdev request codes (only what libevdev has no call for)

/// EVIOCSFF: upload (or update, with the same id) a force-feedback effect; writes the id back.
static inline unsigned long CEvdev_EVIOCSFF(void) { return EVIOCSFF; }
/// EVIOCRMFF: erase an uploaded effect (argument by value: the effect id).
static inline unsigned long CEvdev_EVIOCRMFF(void) { return EVIOCRMFF; }
/// EVIOCGEFFECTS: how many effects the device can hold at once.
static inline unsigned long CEvdev_EVIOCGEFFECTS(void) { return EVIOCGEFFECTS; }

// MARK: - Per-thread credentials

/// Sets the calling thread's real, effective and saved user and group ids with the raw system calls.
/// glibc's setresuid() applies to every thread of the process; the raw call changes only the caller,
/// which lets a test running as root open a node as an unprivileged user on one thread of its own
/// (capabilities are dropped with the effective uid). Returns 0, or -1 and sets errno.
static inline int CEvdev_setThreadCredentials(uid_t user, gid_t group) {
    if (syscall(SYS_setresgid, group, group, group) != 0) return -1;
    return (int)syscall(SYS_setresuid, user, user, user);
}

// MARK: - uinput request codes

/// UI_SET_EVBIT: enable an event type (argument by value).
static inline unsigned long CEvdev_UI_SET_EVBIT(void) { return UI_SET_EVBIT; }
/// UI_SET_FFBIT: enable a force-feedback effect type (argument by value).
static inline unsigned long CEvdev_UI_SET_FFBIT(void) { return UI_SET_FFBIT; }
/// UI_DEV_SETUP: identity, name and ff_effects_max of the device to create.
static inline unsigned long CEvdev_UI_DEV_SETUP(void) { return UI_DEV_SETUP; }
/// UI_DEV_CREATE: create the device (no argument).
static inline unsigned long CEvdev_UI_DEV_CREATE(void) { return UI_DEV_CREATE; }
/// UI_GET_SYSNAME: the created device's sysfs name ("input7") into a buffer of `length` bytes.
static inline unsigned long CEvdev_UI_GET_SYSNAME(unsigned int length) { return UI_GET_SYSNAME(length); }
/// UI_DEV_DESTROY: destroy the device (no argument).
static inline unsigned long CEvdev_UI_DEV_DESTROY(void) { return UI_DEV_DESTROY; }
/// UI_BEGIN_FF_UPLOAD: fetch the effect of an upload request (by request_id).
static inline unsigned long CEvdev_UI_BEGIN_FF_UPLOAD(void) { return UI_BEGIN_FF_UPLOAD; }
/// UI_END_FF_UPLOAD: answer an upload request with its retval; unblocks the uploader.
static inline unsigned long CEvdev_UI_END_FF_UPLOAD(void) { return UI_END_FF_UPLOAD; }
/// UI_BEGIN_FF_ERASE: fetch the effect id of an erase request.
static inline unsigned long CEvdev_UI_BEGIN_FF_ERASE(void) { return UI_BEGIN_FF_ERASE; }
/// UI_END_FF_ERASE: answer an erase request with its retval.
static inline unsigned long CEvdev_UI_END_FF_ERASE(void) { return UI_END_FF_ERASE; }

// MARK: - uhid events (struct uhid_event is packed; see above)

/// sizeof(struct uhid_event): every read and write on /dev/uhid uses a buffer of this size.
static inline size_t CEvdev_uhidEventSize(void) { return sizeof(struct uhid_event); }

/// The event type (UHID_START, UHID_OUTPUT, UHID_GET_REPORT…) of an event read from /dev/uhid.
static inline uint32_t CEvdev_uhidEventType(const void *event) {
    return ((const struct uhid_event *)event)->type;
}

/// Fills a UHID_CREATE2 request. Strings are truncated to the header's field sizes.
/// Returns 0, or -1 when the descriptor does not fit (UHID_DATA_MAX).
static inline int CEvdev_uhidMakeCreate2(void *event, const char *name, const char *phys, const char *uniq,
                                         const uint8_t *descriptor, uint16_t descriptorSize, uint16_t bus,
                                         uint32_t vendor, uint32_t product, uint32_t version) {
    struct uhid_event *e = (struct uhid_event *)event;
    if (descriptorSize > UHID_DATA_MAX) return -1;
    memset(e, 0, sizeof(*e));
    e->type = UHID_CREATE2;
    strncpy((char *)e->u.create2.name, name, sizeof(e->u.create2.name) - 1);
    strncpy((char *)e->u.create2.phys, phys, sizeof(e->u.create2.phys) - 1);
    strncpy((char *)e->u.create2.uniq, uniq, sizeof(e->u.create2.uniq) - 1);
    e->u.create2.rd_size = descriptorSize;
    e->u.create2.bus = bus;
    e->u.create2.vendor = vendor;
    e->u.create2.product = product;
    e->u.create2.version = version;
    memcpy(e->u.create2.rd_data, descriptor, descriptorSize);
    return 0;
}

/// Fills a UHID_INPUT2 request: an input report from the device, report id in byte 0.
/// Returns 0, or -1 when the report does not fit (UHID_DATA_MAX).
static inline int CEvdev_uhidMakeInput2(void *event, const uint8_t *data, uint16_t size) {
    struct uhid_event *e = (struct uhid_event *)event;
    if (size > UHID_DATA_MAX) return -1;
    memset(e, 0, sizeof(*e));
    e->type = UHID_INPUT2;
    e->u.input2.size = size;
    memcpy(e->u.input2.data, data, size);
    return 0;
}

/// Fills a UHID_DESTROY request (the virtual device is unplugged).
static inline void CEvdev_uhidMakeDestroy(void *event) {
    struct uhid_event *e = (struct uhid_event *)event;
    memset(e, 0, sizeof(*e));
    e->type = UHID_DESTROY;
}

/// Reads a UHID_GET_REPORT request: the id to echo, the report number and type.
static inline void CEvdev_uhidGetReportRequest(const void *event, uint32_t *requestID, uint8_t *reportNumber,
                                               uint8_t *reportType) {
    const struct uhid_event *e = (const struct uhid_event *)event;
    *requestID = e->u.get_report.id;
    *reportNumber = e->u.get_report.rnum;
    *reportType = e->u.get_report.rtype;
}

/// Fills a UHID_GET_REPORT_REPLY. `error` 0 means success (then `data` is the report, id in byte 0).
/// Returns 0, or -1 when the report does not fit.
static inline int CEvdev_uhidMakeGetReportReply(void *event, uint32_t requestID, uint16_t error,
                                                const uint8_t *data, uint16_t size) {
    struct uhid_event *e = (struct uhid_event *)event;
    if (size > UHID_DATA_MAX) return -1;
    memset(e, 0, sizeof(*e));
    e->type = UHID_GET_REPORT_REPLY;
    e->u.get_report_reply.id = requestID;
    e->u.get_report_reply.err = error;
    e->u.get_report_reply.size = size;
    if (size > 0) memcpy(e->u.get_report_reply.data, data, size);
    return 0;
}

/// Reads a UHID_SET_REPORT request: the id to echo and the report number.
static inline void CEvdev_uhidSetReportRequest(const void *event, uint32_t *requestID, uint8_t *reportNumber) {
    const struct uhid_event *e = (const struct uhid_event *)event;
    *requestID = e->u.set_report.id;
    *reportNumber = e->u.set_report.rnum;
}

/// Fills a UHID_SET_REPORT_REPLY with `error` (0: accepted).
static inline void CEvdev_uhidMakeSetReportReply(void *event, uint32_t requestID, uint16_t error) {
    struct uhid_event *e = (struct uhid_event *)event;
    memset(e, 0, sizeof(*e));
    e->type = UHID_SET_REPORT_REPLY;
    e->u.set_report_reply.id = requestID;
    e->u.set_report_reply.err = error;
}

/// The payload of a UHID_OUTPUT event (a report the driver sends to the device): bytes and size.
static inline const uint8_t *CEvdev_uhidOutputData(const void *event, uint16_t *size) {
    const struct uhid_event *e = (const struct uhid_event *)event;
    *size = e->u.output.size;
    return e->u.output.data;
}

#endif
