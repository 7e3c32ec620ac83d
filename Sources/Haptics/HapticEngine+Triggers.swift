import HapticsSystem
import HapticsTriggers

// Adaptive triggers (DualSense): effects set per device, now or at an instant on the engine's
// clock. The engine owns them: they go off when it stops or is dropped, when the application
// becomes inactive, when haptics are switched off or muted (unless
// `Configuration.keepsTriggersWhenDisabled`), and a lost pad's are forgotten.
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
        if let reason = triggerSilenceReason() { return .notPlayed(reason) }
        do throws(TriggerDeviceError) {
            try triggers.set(found, left: left, right: right, at: instant)
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

    /// Why a trigger effect set now would not reach the pad, or `nil`.
    func triggerSilenceReason() -> SilenceReason? {
        if !isRunning { return .engineStopped }
        if !isApplicationActive { return .applicationInactive }
        guard !configuration.keepsTriggersWhenDisabled else { return nil }
        if !isEnabled { return .disabled }
        if gain == 0 { return .muted }
        return nil
    }
}
