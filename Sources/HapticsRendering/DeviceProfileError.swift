/// Why a device profile was refused: one of its values is outside the range ``DeviceProfile``
/// documents for it (``DeviceProfile/validate()``).
public enum DeviceProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `riseTime` is outside 0…1 s.
    case riseTimeOutOfRange(Duration)
    /// `minimumPulse` is outside 0…1 s.
    case minimumPulseOutOfRange(Duration)
    /// `controlInterval` is outside 1 ms…1 s.
    case controlIntervalOutOfRange(Duration)
    /// `overdrive` is outside 0…1 s.
    case overdriveOutOfRange(Duration)
    /// `magnitudeExponent` is outside 0.1…10, or NaN.
    case magnitudeExponentOutOfRange(Double)
    /// `magnitudeFloor` is outside 0…1, or NaN.
    case magnitudeFloorOutOfRange(Double)
    /// A periodic actuator's period range is not 1 ms ≤ minimum ≤ maximum.
    case periodRangeInvalid(minimumMilliseconds: UInt16, maximumMilliseconds: UInt16)

    /// What is wrong, naming the field.
    public var description: String {
        switch self {
        case let .riseTimeOutOfRange(value): return "riseTime \(value) is outside 0…1 s"
        case let .minimumPulseOutOfRange(value): return "minimumPulse \(value) is outside 0…1 s"
        case let .controlIntervalOutOfRange(value): return "controlInterval \(value) is outside 1 ms…1 s"
        case let .overdriveOutOfRange(value): return "overdrive \(value) is outside 0…1 s"
        case let .magnitudeExponentOutOfRange(value): return "magnitudeExponent \(value) is outside 0.1…10"
        case let .magnitudeFloorOutOfRange(value): return "magnitudeFloor \(value) is outside 0…1"
        case let .periodRangeInvalid(minimum, maximum):
            return "period range \(minimum)…\(maximum) ms is not 1 ≤ minimum ≤ maximum"
        }
    }
}
