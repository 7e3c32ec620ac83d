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
    /// `send` was given a curve with more control points than the scheduler's
    /// `maximumCurvePoints` (1,024 by default).
    case curveTooLong(points: Int, maximum: Int)
    /// `send` was given a curve whose control point `index` comes before the point ahead of it.
    case curveOutOfOrder(index: Int)

    /// What was refused.
    public var description: String {
        switch self {
        case let .invalidRate(rate): return "player: playback rate \(rate) is outside 1/64…64"
        case let .invalidParameterValue(id, value): return "player: \(id.rawValue) value \(value) is not a finite number"
        case let .curveTimeOutOfRange(seconds): return "player: curve time \(seconds) s is outside 0…3600 s"
        case let .curveTooLong(points, maximum):
            return "player: a curve of \(points) control points is longer than the \(maximum) a curve may have"
        case let .curveOutOfOrder(index): return "player: curve control point \(index) comes before the point ahead of it"
        }
    }
}

extension PlayerError {
    /// The player's account of the scheduler refusing a curve of parameter `id`.
    init(curveRefusal error: SchedulerError, id: DynamicParameterID) {
        switch error {
        case let .curveTooLong(points, maximum): self = .curveTooLong(points: points, maximum: maximum)
        case let .curveOutOfOrder(index): self = .curveOutOfOrder(index: index)
        case let .curveTimeOutOfRange(seconds): self = .curveTimeOutOfRange(seconds: seconds)
        case let .invalidParameterValue(id, value): self = .invalidParameterValue(id, value)
        // `validateCurve` throws nothing else.
        default: self = .invalidParameterValue(id, .nan)
        }
    }
}
