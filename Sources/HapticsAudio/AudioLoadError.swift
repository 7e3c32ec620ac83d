import HapticsPatterns

/// Why a pattern file with sound could not be loaded: the pattern itself, or one of its waveforms.
public enum AudioLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern file was rejected by the decoder.
    case pattern(PatternError)
    /// A waveform the pattern names could not be loaded.
    case sound(AudioPatternError)

    /// The underlying error's description.
    public var description: String {
        switch self {
        case let .pattern(error): return error.description
        case let .sound(error): return error.description
        }
    }
}
