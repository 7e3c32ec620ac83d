/// The gain shape of an audio event over its duration: the same attack/decay/release reading as
/// haptic continuous events (docs/rendering.md), in seconds, inside the duration.
///
/// | phase | gain |
/// | --- | --- |
/// | attack *A* > 0 | 0 → 1 over [0, *A*] |
/// | sustained | holds 1; decay has no effect |
/// | not sustained, decay *Dc* > 0 | 1 → 0 over [*A*, *A* + *Dc*], then 0 |
/// | not sustained, no decay | 1 → 0 over [*A*, *D*] |
/// | release *R* > 0 | 1 → 0 over [*D* − *R*, *D*] |
///
/// The phases multiply.
struct AudioEnvelope: Sendable, Hashable {
    var duration: Double
    var attack: Double
    var decay: Double
    var release: Double
    var sustained: Bool

    /// The gain at `time` seconds into the event.
    func gain(at time: Double) -> Double {
        var gain = 1.0
        if attack > 0, time < attack { gain *= max(0, time / attack) }
        if !sustained {
            let decayEnd = decay > 0 ? attack + decay : duration
            if time >= decayEnd {
                gain = 0
            } else if time > attack, decayEnd > attack {
                gain *= 1 - (time - attack) / (decayEnd - attack)
            }
        }
        if release > 0, time > duration - release { gain *= max(0, (duration - time) / release) }
        return gain
    }
}
