// The SDL2 peers of `Tools/bench peers`: what a game using Debian's libSDL2 calls to rumble a pad,
// so the engine's trigger is measured beside them on the same device. SDL's HIDAPI drivers are
// switched off, so SDL drives the pad through its evdev node like the engine does.
#include "CBenchSupport.h"

#include <SDL2/SDL.h>
#include <libudev.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static SDL_GameController *controller;
static SDL_Joystick *joystick;
static SDL_Haptic *haptic;
static int effect = -1;
static char failure[256];

static int64_t monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int fail(const char *what) {
    snprintf(failure, sizeof failure, "%s: %s", what, SDL_GetError());
    return -1;
}

int CBenchSupport_sdlOpen(const char *name) {
    // SDL's evdev joystick and haptic code finds devices through libudev, which it loads itself;
    // linking it here makes it a library the guest gets. Without udevd SDL classifies the nodes
    // from their sysfs capabilities.
    struct udev *udev = udev_new();
    if (!udev) {
        snprintf(failure, sizeof failure, "libudev: udev_new failed");
        return -1;
    }
    udev_unref(udev);
    SDL_SetHint(SDL_HINT_JOYSTICK_HIDAPI, "0");
    if (SDL_Init(SDL_INIT_GAMECONTROLLER | SDL_INIT_HAPTIC) != 0) return fail("SDL_Init");
    int index = -1;
    for (int i = 0; i < SDL_NumJoysticks(); i++) {
        const char *joystick_name = SDL_JoystickNameForIndex(i);
        if (joystick_name && strstr(joystick_name, name)) {
            index = i;
            break;
        }
    }
    if (index < 0) {
        snprintf(failure, sizeof failure, "SDL lists %d joysticks, none named like \"%s\"", SDL_NumJoysticks(), name);
        return -1;
    }
    if (SDL_IsGameController(index)) {
        controller = SDL_GameControllerOpen(index);
        if (!controller) return fail("SDL_GameControllerOpen");
        joystick = SDL_GameControllerGetJoystick(controller);
    } else {
        joystick = SDL_JoystickOpen(index);
        if (!joystick) return fail("SDL_JoystickOpen");
    }
    haptic = SDL_HapticOpenFromJoystick(joystick);
    if (!haptic) return fail("SDL_HapticOpenFromJoystick");
    SDL_HapticEffect rumble;
    memset(&rumble, 0, sizeof rumble);
    rumble.type = SDL_HAPTIC_LEFTRIGHT;
    rumble.leftright.length = 1000;
    rumble.leftright.large_magnitude = 0xC000;
    rumble.leftright.small_magnitude = 0x4000;
    effect = SDL_HapticNewEffect(haptic, &rumble);
    if (effect < 0) return fail("SDL_HapticNewEffect");
    return 0;
}

int CBenchSupport_sdlIsGameController(void) { return controller != NULL; }

const char *CBenchSupport_sdlFailure(void) { return failure; }

int64_t CBenchSupport_sdlRumble(uint16_t low, uint16_t high, uint32_t milliseconds) {
    int64_t start = monotonic_now();
    int result = controller ? SDL_GameControllerRumble(controller, low, high, milliseconds)
                            : SDL_JoystickRumble(joystick, low, high, milliseconds);
    if (result != 0) return fail("rumble");
    return start;
}

int64_t CBenchSupport_sdlHapticRun(void) {
    int64_t start = monotonic_now();
    if (SDL_HapticRunEffect(haptic, effect, 1) != 0) return fail("SDL_HapticRunEffect");
    return start;
}

int CBenchSupport_sdlHapticStop(void) {
    return SDL_HapticStopEffect(haptic, effect) == 0 ? 0 : fail("SDL_HapticStopEffect");
}

void CBenchSupport_sdlClose(void) {
    if (haptic) SDL_HapticClose(haptic);
    if (controller) SDL_GameControllerClose(controller);
    else if (joystick) SDL_JoystickClose(joystick);
    haptic = NULL;
    controller = NULL;
    joystick = NULL;
    SDL_Quit();
}
