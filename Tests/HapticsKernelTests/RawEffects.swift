import CEvdev

/// A rumble effect as an application would upload it with a raw `EVIOCSFF`: id -1 asks the
/// kernel for a free slot.
func rawRumble(strong: UInt16, weak: UInt16, length: UInt16 = 0) -> ff_effect {
    var effect = ff_effect()
    effect.type = UInt16(FF_RUMBLE)
    effect.id = -1
    effect.replay.length = length
    effect.u.rumble.strong_magnitude = strong
    effect.u.rumble.weak_magnitude = weak
    return effect
}
