/* An SDL2 game's haptics through Haptics: SDL reads the joysticks (buttons, axes), the engine plays
 * on them. Each SDL joystick is matched to the engine's device by its GUID — the string SDL gives
 * (SDL_JoystickGetGUIDString) is the one the engine computes for the same event node
 * (haptics_device_info.sdl_guid) — so "joystick 1's button A was pressed" becomes "play on that pad".
 *
 *   ./sdl2-game              every pad SDL and the engine see; a scripted 60 Hz round on each
 *
 * With no pad it says so, runs the round on the engine's simulated fallback and exits 0. */
#define _POSIX_C_SOURCE 200809L
#include <SDL.h>
#include <haptics/haptics.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define MAX_PADS 8

/* The engine's device id for an SDL joystick, matched by GUID (and, for twin pads, by order), or -1. */
static int device_for_joystick(haptics_engine *engine, SDL_Joystick *joystick, int used[], int used_count) {
    char guid[33];
    haptics_device_info info;
    int index, taken;
    SDL_JoystickGetGUIDString(SDL_JoystickGetGUID(joystick), guid, sizeof guid);
    for (index = 0; index < haptics_device_count(engine); index++) {
        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (haptics_device_get_info(engine, index, &info) != 0 || info.state != HAPTICS_DEVICE_AVAILABLE) continue;
        if (strcmp(info.sdl_guid, guid) != 0) continue;
        for (taken = 0; taken < used_count && used[taken] != info.id; taken++) {}
        if (taken == used_count) return info.id; /* the first unused pad with this GUID */
    }
    return -1;
}

int main(void) {
    haptics_engine *engine = NULL;
    int pads[MAX_PADS];
    int count = 0, index, frame, result;
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
        device = device_for_joystick(engine, joystick, pads, count);
        printf("SDL joystick %d \"%s\": %s\n", index, SDL_JoystickName(joystick),
               device >= 0 ? "matched to its haptic device" : "no haptic device with its GUID");
        if (device >= 0) pads[count++] = device;
    }
    if (count == 0) {
        printf("no pad matched: the round plays on every device the engine has (a simulated one here)\n");
    }

    /* A scripted 60 Hz round per pad, as if each pad's player pressed its buttons. */
    next = SDL_GetTicks64();
    for (frame = 0; frame < 120; frame++) {
        SDL_Event event;
        while (SDL_PollEvent(&event)) {
            if (event.type == SDL_JOYBUTTONDOWN) printf("button %d on joystick %d\n", event.jbutton.button, event.jbutton.which);
        }
        for (index = 0; index < (count > 0 ? count : 1); index++) {
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
