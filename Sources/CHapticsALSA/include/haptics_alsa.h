// ALSA prints its own messages on standard error ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate)
// Unknown PCM nope") before the caller sees the error code. Its error handler is a variadic C
// function, which Swift cannot write: this one keeps the calling thread's latest message instead,
// for the error the caller reports.
#ifndef HAPTICS_ALSA_H
#define HAPTICS_ALSA_H

/// Installs the handler (installing it again changes nothing) and forgets the calling thread's
/// last message.
void haptics_alsa_route_messages(void);

/// The calling thread's last ALSA message since haptics_alsa_route_messages, "" for none.
const char *haptics_alsa_last_message(void);

#endif
