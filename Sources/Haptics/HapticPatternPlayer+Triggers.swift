import HapticsPatterns
import HapticsSystem

// A pattern's adaptive trigger effects (`Pattern.triggerEvents`, the AHAP extension
// `DualSenseTriggers`): handed to the pads' trigger writers when the player starts, each for the
// start's onset plus its time; stopping the player drops those still to come and sets the
// triggers off. They follow the first pass of the pattern at rate 1: loops, seeks, pauses and rate
// changes do not move them.
extension HapticPatternPlayer {
    /// The player's pads that have adaptive triggers.
    func triggerDevices() -> [HapticDevice] {
        let channels = Set(outputs.map(\.channel))
        let ids = engine.channelDevices.withLock { devices in devices.filter { channels.contains($0.channel) }.map(\.deviceID) }
        return ids.compactMap { engine.device($0) }.filter(\.hasAdaptiveTriggers)
    }

    /// Sets the pattern's trigger effects on the player's pads for a start felt at `onset`, when
    /// the engine lets triggers play. A pad whose triggers cannot be opened plays the pattern
    /// without them (`HapticEngine.setTriggerEffects` says why).
    func playTriggerEvents(at onset: MonotonicInstant) {
        guard engine.triggerSilenceReason() == nil else { return }
        for device in triggerDevices() {
            for event in pattern.triggerEvents {
                let instant = onset + .nanoseconds(Int64((event.time * 1e9).rounded()))
                do {
                    try engine.triggers.set(device, left: event.left, right: event.right, at: instant)
                } catch {
                    break
                }
            }
        }
    }
}
