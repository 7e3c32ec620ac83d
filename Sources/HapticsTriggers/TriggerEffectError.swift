import HapticsSystem

/// Why a trigger effect could not be built or decoded: which value, and what was allowed.
public enum TriggerEffectError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A parameter of `effect` (its text name, e.g. `weapon`) lies outside `allowed`.
    case outOfRange(effect: String, parameter: String, value: Int, allowed: ClosedRange<Int>)
    /// A multiple-position effect was given `count` values for `parameter` instead of `expected`.
    case wrongCount(effect: String, parameter: String, count: Int, expected: Int)
    /// Eleven bytes that are not an effect this library builds: the byte at `offset` (0 is the mode
    /// byte) holds `value`, which `reason` explains.
    case undecodable(offset: Int, value: UInt8, reason: String)

    /// One line naming the effect, the parameter, the value and the allowed range.
    public var description: String {
        switch self {
        case .outOfRange(let effect, let parameter, let value, let allowed):
            return "\(effect) \(parameter) \(value) is outside \(allowed.lowerBound)…\(allowed.upperBound)"
        case .wrongCount(let effect, let parameter, let count, let expected):
            return "\(effect) takes \(expected) \(parameter), not \(count)"
        case .undecodable(let offset, let value, let reason):
            let hex = String(value, radix: 16, uppercase: true)
            return "trigger effect byte \(offset) is 0x\(value < 0x10 ? "0" : "")\(hex): \(reason)"
        }
    }
}
