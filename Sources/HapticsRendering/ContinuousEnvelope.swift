/// The level shape of one continuous haptic event, as a gain 0…1 over the event's local time.
///
/// The whole shape lies inside the event's duration (see docs/rendering.md, "Envelopes"):
/// - attack: the gain rises linearly from 0 to 1 over `attack` seconds from the onset;
/// - sustained events hold 1 until the release (their decay time has no effect, as in Core Haptics,
///   where decay only applies to events that are not sustained);
/// - events that are not sustained fall linearly from 1 at the end of the attack to 0 after `decay`
///   seconds, or, with no decay time, to 0 at the end of the duration;
/// - release: the gain falls linearly to 0 over the last `release` seconds of the duration.
/// The phases multiply, so overlapping phases (an attack longer than the event) simply never
/// reach full level.
struct ContinuousEnvelope: Sendable, Hashable {
    var duration: Double
    var attack: Double
    var decay: Double
    var release: Double
    var sustained: Bool

    /// The gain at `time` seconds after the event's onset.
    func gain(at time: Double) -> Double {
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
