extension TriggerEffect {
    /// The effect with every strength and amplitude scaled by `factor` (0…1, clamped), so that a
    /// player's haptics strength setting softens the triggers as it softens the rumble: each one
    /// rounded to the nearest step and kept at least 1 where the effect needs one (a feedback's
    /// strength, a weapon's), zones, frequencies and timings unchanged. A factor of 1 (or more)
    /// gives the effect itself, 0 (or less, or NaN) ``off``. Galloping has no strength and keeps
    /// its form at any factor above 0.
    ///
    /// ```swift
    /// try TriggerEffect.weapon(start: 2, end: 6, strength: 8).scaled(by: 0.5)  // weapon:2,6,4
    /// ```
    public func scaled(by factor: Double) -> TriggerEffect {
        guard factor > 0 else { return .off }
        guard factor < 1 else { return self }
        // Each value is in its range already and scaled down, so every builder accepts it.
        func step(_ value: Int) -> Int { max(1, Int((Double(value) * factor).rounded())) }
        func zeroOrStep(_ value: Int) -> Int { value == 0 ? 0 : step(value) }
        let scaled: TriggerEffect? = switch form {
        case .off, .galloping: self
        case let .feedback(zone, strength): try? .feedback(zone: zone, strength: step(strength))
        case let .weapon(start, end, strength): try? .weapon(start: start, end: end, strength: step(strength))
        case let .vibration(zone, amplitude, frequency):
            try? .vibration(zone: zone, amplitude: step(amplitude), frequency: frequency)
        case let .multiplePositionFeedback(strengths):
            try? .multiplePositionFeedback(strengths: strengths.map(zeroOrStep))
        case let .multiplePositionVibration(amplitudes, frequency):
            try? .multiplePositionVibration(amplitudes: amplitudes.map(zeroOrStep), frequency: frequency)
        case let .bow(start, end, strength, snapStrength):
            try? .bow(start: start, end: end, strength: step(strength), snapStrength: step(snapStrength))
        case let .machine(start, end, amplitudeA, amplitudeB, frequency, period):
            // Amplitudes may be 0 here: a 0 stays 0, the others are at least 1.
            try? .machine(start: start, end: end, amplitudeA: zeroOrStep(amplitudeA), amplitudeB: zeroOrStep(amplitudeB),
                          frequency: frequency, period: period)
        }
        return scaled ?? self
    }
}
