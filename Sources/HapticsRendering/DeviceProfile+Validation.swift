extension DeviceProfile {
    /// The range of `riseTime`, `minimumPulse` and `overdrive`: 0…1 s. No motor takes longer to
    /// spin up, and rendering shifts and stretches by these spans.
    public static let spanRange: ClosedRange<Duration> = .zero ... .seconds(1)
    /// The range of `controlInterval`: 1 ms…1 s. Finer steps than a millisecond are no use to a
    /// motor and would multiply the commands a pattern renders to.
    public static let controlIntervalRange: ClosedRange<Duration> = .milliseconds(1) ... .seconds(1)
    /// The range of `magnitudeExponent`: 0.1…10.
    public static let magnitudeExponentRange: ClosedRange<Double> = 0.1 ... 10
    /// The range of `magnitudeFloor`: 0…1.
    public static let magnitudeFloorRange: ClosedRange<Double> = 0 ... 1

    /// Checks every value rendering and playing use against its range: `riseTime`, `minimumPulse`
    /// and `overdrive` in 0…1 s, `controlInterval` in 1 ms…1 s, `magnitudeExponent` in 0.1…10,
    /// `magnitudeFloor` in 0…1, a periodic range with 1 ≤ minimum ≤ maximum. `limits` describe the
    /// kernel and are not used to play; they are not checked.
    ///
    /// The engine refuses an output whose profile fails this (`EngineError.invalidProfile`); a
    /// `Renderer` or a scheduler channel given one uses ``clamped`` instead.
    public func validate() throws(DeviceProfileError) {
        guard Self.spanRange.contains(riseTime) else { throw .riseTimeOutOfRange(riseTime) }
        guard Self.spanRange.contains(minimumPulse) else { throw .minimumPulseOutOfRange(minimumPulse) }
        guard Self.controlIntervalRange.contains(controlInterval) else {
            throw .controlIntervalOutOfRange(controlInterval)
        }
        guard Self.spanRange.contains(overdrive) else { throw .overdriveOutOfRange(overdrive) }
        guard Self.magnitudeExponentRange.contains(magnitudeExponent) else {
            throw .magnitudeExponentOutOfRange(magnitudeExponent)
        }
        guard Self.magnitudeFloorRange.contains(magnitudeFloor) else { throw .magnitudeFloorOutOfRange(magnitudeFloor) }
        if case let .periodic(minimum, maximum) = actuator, minimum < 1 || minimum > maximum {
            throw .periodRangeInvalid(minimumMilliseconds: minimum, maximumMilliseconds: maximum)
        }
    }

    /// This profile with every value ``validate()`` checks brought into its range: spans and
    /// numbers clamped to the nearest bound, a NaN exponent as 1 (linear) and a NaN floor as 0, a
    /// reversed period range put in order and periods of 0 ms made 1 ms. A valid profile is
    /// returned unchanged.
    public var clamped: DeviceProfile {
        var profile = self
        profile.riseTime = Self.clamp(riseTime, Self.spanRange)
        profile.minimumPulse = Self.clamp(minimumPulse, Self.spanRange)
        profile.controlInterval = Self.clamp(controlInterval, Self.controlIntervalRange)
        profile.overdrive = Self.clamp(overdrive, Self.spanRange)
        profile.magnitudeExponent = magnitudeExponent.isNaN ? 1 : Self.clamp(magnitudeExponent, Self.magnitudeExponentRange)
        profile.magnitudeFloor = magnitudeFloor.isNaN ? 0 : Self.clamp(magnitudeFloor, Self.magnitudeFloorRange)
        if case let .periodic(minimum, maximum) = actuator {
            profile.actuator = .periodic(minimumPeriodMilliseconds: max(1, min(minimum, maximum)),
                                         maximumPeriodMilliseconds: max(1, minimum, maximum))
        }
        return profile
    }

    private static func clamp<Value: Comparable>(_ value: Value, _ range: ClosedRange<Value>) -> Value {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
