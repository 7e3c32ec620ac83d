import HapticsPatterns

/// The vocabulary's patterns as the golden tests render them, built directly in code.
///
/// They mirror the canonical pattern table (durations and amplitudes of the widely used fallback
/// patterns; sharpness chosen per item). Keep them in this one place so the goldens can be
/// re-pointed to the canonical pattern files with a one-line change per item.
/// `warning` and `error` are provisional until the canonical files land.
enum VocabularyFixtures {
    /// Every vocabulary item by its feedback name, in a stable order.
    static let all: [(name: String, pattern: Pattern)] = [
        ("selection", selection),
        ("impact.light", impactLight),
        ("impact.medium", impactMedium),
        ("impact.heavy", impactHeavy),
        ("impact.rigid", impactRigid),
        ("impact.soft", impactSoft),
        ("notification.success", success),
        ("notification.warning", warning),
        ("notification.error", error),
    ]

    static let selection = Pattern(events: [transient(at: 0, intensity: 0.471, sharpness: 0.8)])
    static let impactLight = Pattern(events: [transient(at: 0, intensity: 0.156, sharpness: 0.6)])
    static let impactMedium = Pattern(events: [continuous(at: 0, duration: 0.08, intensity: 0.471, sharpness: 0.5)])
    static let impactHeavy = Pattern(events: [continuous(at: 0, duration: 0.16, intensity: 1.0, sharpness: 0.3)])
    static let impactRigid = Pattern(events: [transient(at: 0, intensity: 1.0, sharpness: 1.0)])
    static let impactSoft = Pattern(events: [continuous(at: 0, duration: 0.16, intensity: 0.156, sharpness: 0.1)])
    /// A faint tick, a pause, then a strong buzz (segments 40 ms on, 80 ms off, 240 ms on).
    static let success = Pattern(events: [
        continuous(at: 0, duration: 0.04, intensity: 0.157, sharpness: 0.5),
        continuous(at: 0.12, duration: 0.24, intensity: 1.0, sharpness: 0.5),
    ])
    /// A strong buzz, a pause, then a medium one (120 ms on, 240 ms off, 280 ms on).
    static let warning = Pattern(events: [
        continuous(at: 0, duration: 0.12, intensity: 1.0, sharpness: 0.5),
        continuous(at: 0.36, duration: 0.28, intensity: 0.47, sharpness: 0.5),
    ])
    /// Two medium pulses and a strong one, ending at 0.48 s.
    static let error = Pattern(events: [
        continuous(at: 0, duration: 0.08, intensity: 0.47, sharpness: 0.5),
        continuous(at: 0.16, duration: 0.08, intensity: 0.47, sharpness: 0.5),
        continuous(at: 0.32, duration: 0.16, intensity: 1.0, sharpness: 0.5),
    ])

    static func transient(at time: Double, intensity: Double, sharpness: Double) -> PatternEvent {
        PatternEvent(
            kind: .hapticTransient, time: time,
            parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: sharpness))
    }

    static func continuous(
        at time: Double, duration: Double, intensity: Double, sharpness: Double,
        attack: Double? = nil, decay: Double? = nil, release: Double? = nil, sustained: Bool? = nil
    ) -> PatternEvent {
        PatternEvent(
            kind: .hapticContinuous, time: time, duration: duration,
            parameters: EventParameters(
                hapticIntensity: intensity, hapticSharpness: sharpness,
                attackTime: attack, decayTime: decay, releaseTime: release, sustained: sustained))
    }
}
