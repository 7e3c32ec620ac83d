// ALSA's PCM API for the audio output. A header of its own so only HapticsAudio sees ALSA.
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
