/// The shape of one event with a duration — a continuous haptic event's level or an audio event's
/// volume — as a gain 0…1 over the event's local time. Haptic and audio rendering share it, so a
/// pattern's felt and heard envelopes are one reading of `AttackTime`, `DecayTime`, `ReleaseTime`
/// and `Sustained`.
///
/// The whole shape lies inside the event's duration (see docs/internals/rendering.md, "Envelopes"):
/// - attack: the gain rises linearly from 0 to 1 over `attack` seconds from the onset;
/// - sustained events hold 1 until the release (their decay time has no effect, as in Core Haptics,
///   where decay only applies to events that are not sustained);
/// - events that are not sustained fall linearly from 1 at the end of the attack to 0 after `decay`
///   seconds, or, with no decay time, to 0 at the end of the duration;
/// - release: the gain falls linearly to 0 over the last `release` seconds of the duration.
/// The phases multiply, so overlapping phases (an attack longer than the event) simply never
/// reach full level.
public struct EventEnvelope: Sendable, Hashable {
    /// The event's duration, seconds.
    public var duration: Double
    /// Attack time, seconds.
    public var attack: Double
    /// Decay time, seconds (only for events that are not sustained).
    public var decay: Double
    /// Release time, seconds.
    public var release: Double
    /// Whether the level holds until the release.
    public var sustained: Bool

    /// Creates an envelope.
    public init(duration: Double, attack: Double, decay: Double, release: Double, sustained: Bool) {
        self.duration = duration
        self.attack = attack
        self.decay = decay
        self.release = release
        self.sustained = sustained
    }

    /// The gain at `time` seconds after the event's onset.
    public func gain(at time: Double) -> Double {
        let local = max(0, time)
        var gain = 1.0
        if attack > 0 { gain *= min(1, local / attack) }
        if !sustained {
            let sinceAttack = max(0, local - attack)
            if decay > 0 {
                gain *= max(0, 1 - sinceAttack / decay)
            } else if duration > attack {
                gain *= max(0, 1 - sinceAttack / (duration - attack))
            }
        }
        if release > 0 { gain *= min(1, max(0, (duration - local) / release)) }
        return gain
    }
}
