/// Why readings do not make an audio clock mapping.
public enum AudioClockMappingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than two readings.
    case tooFewReadings(Int)
    /// Every reading has the same frame: no rate can be told.
    case sameFrame
    /// The frame counter went down while the monotonic clock went up (or the reverse).
    case clockRunsBackwards

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .tooFewReadings(count): return "an audio clock mapping needs at least 2 readings, got \(count)"
        case .sameFrame: return "every reading has the same frame; take readings at different frames"
        case .clockRunsBackwards: return "the frame counter and the monotonic clock move in opposite directions"
        }
    }
}
