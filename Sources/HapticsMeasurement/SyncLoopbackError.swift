/// Why a loopback sync measurement could not run.
public enum SyncLoopbackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no Loopback sound card: snd-aloop is not loaded.
    case noLoopbackCard
    /// No force-feedback device to play the haptics on (and no `/dev/uinput` to create one).
    case noHapticDevice
    /// The haptic device could not be created or opened.
    case hapticDevice(String)
    /// A sound device could not be opened or failed.
    case audio(String)
    /// The engine could not start or take the audio output.
    case engine(String)
    /// A pattern file could not be loaded.
    case pattern(String)
    /// The streams did not settle within 3 s: the capture device and the periods it delivered, the
    /// playback device and the periods it wrote, and whether the playback's latency was known.
    case noSignal(capture: String, captured: Int, playback: String, played: Int, latencyKnown: Bool)
    /// The trace file could not be written.
    case trace(path: String, String)

    /// A one-line explanation with what to do.
    public var description: String {
        switch self {
        case .noLoopbackCard:
            return "no Loopback sound card: load snd-aloop (sudo modprobe snd-aloop) or give --audio and a capture device"
        case .noHapticDevice:
            return "no force-feedback device, and /dev/uinput is not writable to create one (run as root, or give --device)"
        case let .hapticDevice(message):
            return "haptic device: \(message)"
        case let .audio(message):
            return message
        case let .engine(message):
            return "engine: \(message)"
        case let .pattern(message):
            return message
        case let .noSignal(capture, captured, playback, played, latencyKnown):
            return "the sound did not come through within 3 s: \(capture) delivered \(captured) periods, \(playback) played \(played)"
                + (latencyKnown ? "" : ", its latency unknown") + " (40 of each are needed)"
        case let .trace(path, message):
            return "cannot write the trace to \(path): \(message)"
        }
    }
}
