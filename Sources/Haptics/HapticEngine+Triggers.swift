import HapticsSystem
import HapticsTriggers

// Adaptive triggers (DualSense): effects set per device, now or at an instant on the engine's
// clock. The engine owns them: they go off when it stops or is dropped, when the application
// becomes inactive, when haptics are switched off or muted, on the engine or the pad (unless
// `Configuration.keepsTriggersWhenDisabled`), and a lost pad's are forgotten. The gains soften
// them as they soften the rumble.
extension HapticEngine {
    /// Gives `device`'s left trigger `left` and its right trigger `right` (`nil`: leave that
    /// trigger as it is), now or at `instant` (`CLOCK_MONOTONIC`, the engine's clock — e.g. when
    /// a sound becomes audible). The pad's hidraw node is opened at the first call (do it while
    /// the game loads); the report is written by a thread of the pad's own, never by the caller.
    ///
    /// Returns `.scheduled(feltAt:)`, or `.notPlayed` with the reason when no device has the id,
    /// the engine is stopped, the application inactive, or haptics off or muted (those two unless
    /// `Configuration.keepsTriggersWhenDisabled`). Throws why the pad's triggers cannot be set:
    /// not a DualSense, no permission for its hidraw node, the pad lost.
    @discardableResult
    public func setTriggerEffects(
        left: TriggerEffect?, right: TriggerEffect?, on device: HapticDevice.ID, at instant: MonotonicInstant? = nil
    ) throws(TriggerDeviceError) -> PlaybackOutcome {
        guard let found = self.device(device) else { return .notPlayed(.noDevice) }
        try EngineTriggers.check(found)
        if let reason = triggerSilenceReason(on: found) { return .notPlayed(reason) }
        do throws(TriggerDeviceError) {
            try triggers.set(found, left: left, right: right, at: instant, strength: triggerStrength(on: found))
        } catch {
            // The engine stopped meanwhile, and set the triggers off: nothing was left behind.
            if case .closed = error, !isRunning { return .notPlayed(.engineStopped) }
            throw error
        }
        return .scheduled(feltAt: instant ?? now)
    }

    /// Sets both of `device`'s triggers off now, and drops its effects set for later. Throws for a
    /// device without adaptive triggers; nothing to do for a pad given no effect since the engine
    /// started (the engine's stop set its triggers off).
    public func resetTriggers(on device: HapticDevice.ID) throws(TriggerDeviceError) {
        guard let found = self.device(device) else { return }
        try triggers.reset(found)
    }

    /// Why a trigger effect set now would not reach a pad (`device`, when given), or `nil`.
    func triggerSilenceReason(on device: HapticDevice? = nil) -> SilenceReason? {
        if !isRunning { return .engineStopped }
        if !isApplicationActive { return .applicationInactive }
        guard !configuration.keepsTriggersWhenDisabled else { return nil }
        if !isEnabled || device?.settings.isEnabled == false { return .disabled }
        if triggerStrength(on: device) == 0 { return .muted }
        return nil
    }

    /// How strongly a pad's trigger effects play (`AdaptiveTriggers.strength`): the engine's gain
    /// times the pad's, as for its rumble; 1 with `Configuration.keepsTriggersWhenDisabled`.
    func triggerStrength(on device: HapticDevice?) -> Double {
        configuration.keepsTriggersWhenDisabled ? 1 : gain * (device?.settings.gain ?? 1)
    }

    /// Brings every open pad's triggers to the gains and switches now: a pad muted or switched off
    /// is set off (what waits for later dropped), the others play at their strength.
    func applyTriggerSettings() {
        for id in triggers.openDevices {
            guard let device = device(id) else { continue }
            if triggerSilenceReason(on: device) != nil {
                try? triggers.reset(device)
            } else {
                triggers.setStrength(triggerStrength(on: device), on: id)
            }
        }
    }
}
