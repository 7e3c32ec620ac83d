/// `play --audio`: where the sound of a feedback or pattern goes.
enum AudioChoice: Equatable {
    /// No sound (the default).
    case none
    /// An ALSA device (`default`, `hw:0,0`, `hw:Loopback,0,0`).
    case alsa(String)
    /// A WAV file, rendered offline: the file's time 0 is the cue's onset (felt and heard).
    case wav(String)

    /// `none`, a path ending in `.wav`, or an ALSA device name.
    init(argument: String) {
        if argument == "none" {
            self = .none
        } else if argument.lowercased().hasSuffix(".wav") {
            self = .wav(argument)
        } else {
            self = .alsa(argument)
        }
    }
}
