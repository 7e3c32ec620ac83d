import HapticsPatterns
import HapticsScheduler

/// Why a pattern player refused a control call: a value outside what it accepts. The call submits
/// nothing and changes nothing.
public enum PlayerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `setPlaybackRate` was given a rate outside `SchedulerLimits.playbackRates` (1/64…64), or NaN
    /// or infinite.
    case invalidRate(Double)
    /// `send` was given a parameter value (or a curve whose control point has a value, or whose
    /// interpolation gives one) that is NaN or infinite.
    case invalidParameterValue(DynamicParameterID, Double)
    /// `send` was given a curve whose start or a control point's time is negative, not a finite
    /// number, or after `HapticEngine.maximumPatternDuration` (one hour).
    case curveTimeOutOfRange(seconds: Double)

    /// What was refused.
    public var description: String {
        switch self {
        case let .invalidRate(rate): return "player: playback rate \(rate) is outside 1/64…64"
        case let .invalidParameterValue(id, value): return "player: \(id.rawValue) value \(value) is not a finite number"
        case let .curveTimeOutOfRange(seconds): return "player: curve time \(seconds) s is outside 0…3600 s"
        }
    }
}
