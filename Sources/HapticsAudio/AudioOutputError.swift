import HapticsSystem

/// Why an audio output could not start.
public enum AudioOutputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sink could not be opened.
    case sink(AudioSinkError)
    /// `pthread_create` refused (its errno).
    case threadCreationFailed(errno: Errno)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .sink(error): return error.description
        case let .threadCreationFailed(errno): return "cannot start the audio thread: pthread_create failed: \(errno)"
        }
    }
}
