/* An SDL2 game's haptics through Haptics: SDL reads the joysticks (buttons, axes), the engine plays
 * on them. Each SDL joystick is matched to the engine's device by its node: SDL_JoystickPath names
 * the event node under SDL's evdev backend and the hidraw node under its HIDAPI backend, and
 * haptics_device_find_by_path takes either. So "joystick 1's button A was pressed" becomes "play on
 * that pad", and two identical pads are never swapped. The engine owns the motors: this game never
 * calls SDL's rumble or haptic functions.
 *
 *   ./sdl2-game              every pad SDL and the engine see; a scripted 60 Hz round on each
 *   ./sdl2-game --by-guid    matches by GUID only, as with an SDL older than 2.24
 *
 * With no joystick it says so, runs the round on the engine's simulated fallback and exits 0. */
#define _POSIX_C_SOURCE 200809L
#include <SDL.h>
#include <haptics/haptics.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_PADS 8

/* Two GUIDs in SDL's hex form, equal but for hex digits 4-7: the CRC of a name, which SDL before
 * 2.24 leaves 0 and which SDL's HIDAPI backend takes from its own name for the pad. */
static int same_guid_but_name(const char *a, const char *b) {
    return strlen(a) == 32 && strlen(b) == 32 && strncmp(a, b, 4) == 0 && strcmp(a + 8, b + 8) == 0;
}

/* The engine's device id for an SDL joystick, or a negative code. By its node when SDL names it
 * (SDL 2.24 and later); else by the GUID SDL computed for the backend driving it: 'h' in byte 14
 * (hex digits 28-29) marks its HIDAPI backend, anything else is its evdev backend. Only when one
 * available device has that GUID: twin pads share one, and guessing by order could swap players. */
static int device_for_joystick(haptics_engine *engine, SDL_Joystick *joystick, int by_guid) {
    char guid[33];
    haptics_device_info info;
    int index, hidapi, found = -ENODEV;
#if SDL_VERSION_ATLEAST(2, 24, 0)
    const char *path = SDL_JoystickPath(joystick);
    if (!by_guid && path != NULL && path[0] != '\0') return haptics_device_find_by_path(engine, path);
#endif
    (void)by_guid;
    SDL_JoystickGetGUIDString(SDL_JoystickGetGUID(joystick), guid, sizeof guid);
    hidapi = strncmp(guid + 28, "68", 2) == 0;
    for (index = 0; index < haptics_device_count(engine); index++) {
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (haptics_device_get_info(engine, index, &info) != 0 || info.state != HAPTICS_DEVICE_AVAILABLE) continue;
        if (!same_guid_but_name(hidapi ? info.sdl_hidapi_guid : info.sdl_guid, guid)) continue;
        if (found >= 0) return -EEXIST; /* two pads with this GUID: cannot tell them apart */
        found = info.id;
    }
    return found;
}

/* The node SDL reads the joystick from, or "?" before SDL 2.24. */
static const char *joystick_node(SDL_Joystick *joystick) {
#if SDL_VERSION_ATLEAST(2, 24, 0)
    const char *path = SDL_JoystickPath(joystick);
    if (path != NULL) return path;
#endif
    (void)joystick;
    return "?";
}

int main(int argc, char **argv) {
    haptics_engine *engine = NULL;
    int pads[MAX_PADS];
    int count = 0, joysticks, index, frame, result;
    int by_guid = argc > 1 && strcmp(argv[1], "--by-guid") == 0;
    Uint64 next;

    SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
    if (SDL_Init(SDL_INIT_JOYSTICK | SDL_INIT_EVENTS) != 0) {
        fprintf(stderr, "sdl2-game: SDL_Init: %s\n", SDL_GetError());
        return 1;
    }
    result = haptics_engine_new_automatic(&engine);
    if (result < 0) {
        fprintf(stderr, "sdl2-game: no engine: %s (%s)\n", haptics_strerror(result), haptics_last_error());
        SDL_Quit();
        return 1;
    }
    for (index = 0; index < SDL_NumJoysticks() && count < MAX_PADS; index++) {
        SDL_Joystick *joystick = SDL_JoystickOpen(index);
        int device;
        if (joystick == NULL) continue;
        device = device_for_joystick(engine, joystick, by_guid);
        if (device >= 0) {
            printf("SDL joystick %d \"%s\" at %s: haptic device %d\n", index, SDL_JoystickName(joystick),
                   joystick_node(joystick), device);
            pads[count++] = device;
        } else {
            printf("SDL joystick %d \"%s\": no haptic device (%s)\n", index, SDL_JoystickName(joystick),
                   device == -EEXIST ? "two pads share its GUID; without their nodes they cannot be told apart"
                                     : haptics_strerror(device));
        }
    }
    joysticks = SDL_NumJoysticks();
    if (joysticks == 0) {
        printf("no joystick: the round plays on the engine's devices (a simulated one here)\n");
    } else if (count == 0) {
        printf("no joystick matched a haptic device: nothing to play on\n");
    }

    /* A scripted 60 Hz round per pad, as if each pad's player pressed its buttons. */
    next = SDL_GetTicks64();
    for (frame = 0; frame < 120; frame++) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            if (event.type == SDL_JOYBUTTONDOWN) printf("button %d on joystick %d\n", event.jbutton.button, event.jbutton.which);
        }
        for (index = 0; index < (count > 0 ? count : joysticks == 0 ? 1 : 0); index++) {
            int target = count > 0 ? pads[index] : -1;
            if (frame == 10 + index * 5) {
                result = target >= 0 ? haptics_device_play(engine, target, HAPTICS_SELECTION, 1, 0, NULL)
                                     : haptics_play(engine, HAPTICS_SELECTION, 1, 0, NULL);
                printf("frame %d, pad %d: selection: %s\n", frame, index + 1, result == 0 ? "played" : haptics_strerror(result));
            }
            if (frame == 60 + index * 5) {
                result = target >= 0 ? haptics_device_rumble(engine, target, 0.8, 0.3, 250000000, NULL)
                                     : haptics_rumble(engine, 0.8, 0.3, 250000000, NULL);
                printf("frame %d, pad %d: rumble: %s\n", frame, index + 1, result == 0 ? "played" : haptics_strerror(result));
            }
        }
        next += 16;
        while (SDL_GetTicks64() < next) SDL_Delay(1);
    }
    haptics_engine_free(engine); /* every pad silent */
    SDL_Quit();
    return 0;
}
