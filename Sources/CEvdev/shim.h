// libevdev and the kernel's input/uinput/uhid headers, plus shims for the ioctl request codes
// Swift cannot import (they are function-like macros such as EVIOCSFF and _IOW).
#ifndef CEVDEV_SHIM_H
#define CEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#endif
