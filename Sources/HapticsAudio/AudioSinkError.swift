import HapticsSystem

/// Why a sink could not be opened: the call that failed, on which device or file, and the errno.
public struct AudioSinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device name or file path.
    public var device: String
    /// The failing call (`snd_pcm_open`, `snd_pcm_hw_params_set_rate_near`, `open`…).
    public var call: String
    /// The error number the call returned (ALSA's negative result, made positive).
    public var errno: Errno
    /// The system's text for the error (`snd_strerror` / `strerror`).
    public var reason: String
    /// What ALSA itself said about it (`Unknown PCM nope`), taken from its error handler instead
    /// of standard error; empty when it said nothing.
    public var alsaMessage: String

    /// Creates an error.
    public init(device: String, call: String, errno: Errno, reason: String, alsaMessage: String = "") {
        self.device = device
        self.call = call
        self.errno = errno
        self.reason = reason
        self.alsaMessage = alsaMessage
    }

    /// `cannot open audio device "hw:9": snd_pcm_open: No such file or directory (errno 2)`, then
    /// `; ALSA: <its message>` when ALSA said more.
    public var description: String {
        "cannot open audio device \"\(PrintableText.escaped(device))\": \(call): \(reason) (errno \(errno.rawValue))"
            + (alsaMessage.isEmpty ? "" : "; ALSA: \(PrintableText.escaped(alsaMessage))")
    }
}
