import HapticsScheduler
import HapticsSystem

// Plain rumble, the way games write it: SDL's `SDL_GameControllerRumble(low, high, duration)` and
// Unity's `SetMotorSpeeds(low, high)`. Both set one direct level per device that the realtime
// thread holds (renewing it before any kernel length runs out) and ends by itself; it is summed
// with what pattern players play there. docs/internals/scheduler.md, "Direct levels", has the design.
extension HapticEngine {
    /// `motorLevelTimeout` when the app sets none: 3 s.
    public static let defaultMotorLevelTimeout: Duration = .seconds(3)

    /// The range of `motorLevelTimeout`: 10 ms…1 h.
    public static let motorLevelTimeoutRange: ClosedRange<Duration> = .milliseconds(10) ... .seconds(3_600)

    /// How long motor levels set with ``setMotorLevels(low:high:)`` hold without another call
    /// (default 3 s): the safety net for a game loop that stops calling (it crashed, hung, or
    /// forgot), so that a pad never keeps rumbling. Each call starts it again, so a loop that sets
    /// the levels every frame holds them as long as it runs. Values outside
    /// ``motorLevelTimeoutRange`` (10 ms…1 h) are clamped into it. Takes effect from the next call.
    public var motorLevelTimeout: Duration {
        get { .nanoseconds(motorLevelTimeoutNanoseconds.load(ordering: .relaxed)) }
        set {
            let clamped = min(max(newValue, Self.motorLevelTimeoutRange.lowerBound), Self.motorLevelTimeoutRange.upperBound)
            motorLevelTimeoutNanoseconds.store(clamped.nanoseconds, ordering: .relaxed)
        }
    }

    /// Rumbles every device: the low-frequency motor at `low` and the high-frequency one at `high`
    /// (each 0…1) for `duration`, with the semantics of `SDL_GameControllerRumble`: each call
    /// replaces the last (and the motor levels of ``setMotorLevels(low:high:)``), and both at 0
    /// stops. Any duration holds to its end, minutes or hours: the engine keeps the device
    /// playing and ends it itself.
    ///
    /// On dual-rumble pads `low` drives the strong motor and `high` the weak one; on single-motor
    /// (periodic) and constant-force devices the larger of the two is the level
    /// (`DeviceProfile.command(lowMotor:highMotor:)`). Levels are motor speeds: no magnitude curve;
    /// the engine gain scales them (on devices without `FF_GAIN`, the gain at the time of the call). What pattern players play on a device meanwhile is added,
    /// saturating per motor. Lock-free and allocation-free (one submission per device, applied and
    /// written from the calling thread at once unless another thread is processing;
    /// `Scheduler.beginImmediateGroup()`). It returns
    /// `.scheduled(feltAt:)` with the instant the motors are driven from — now: rumble is not
    /// started early by a rise time, as a game's rumble call is an immediate one.
    ///
    /// Values: finite levels are clamped to 0…1; a NaN or infinite one is refused with
    /// `.notPlayed(.invalidIntensity)` and nothing changes. A duration of zero or less stops, like
    /// levels of 0 (unlike SDL, where 0 means "until changed": that is ``setMotorLevels(low:high:)``,
    /// which has a safety timeout). Disabled, inactive or stopped engines return why and play
    /// nothing; with a gain of 0 the rumble is ended and `.notPlayed(.muted)` returned; one that
    /// reached only the simulated fallback device says `.notPlayed(.noRealDevice)` (nothing is felt).
    /// `stop()`, switching haptics off, the app becoming inactive and the device's loss all end
    /// the rumble.
    @discardableResult
    public func rumble(low: Double, high: Double, duration: Duration) -> PlaybackOutcome {
        rumble(low: low, high: high, duration: duration) { _ in true }
    }

    /// Sets the motor levels of every device, held until the next call (the semantics of Unity's
    /// `Gamepad.SetMotorSpeeds`), or until ``motorLevelTimeout`` (3 s by default) passes without
    /// one: a game that sets them every frame holds them as long as it runs, and one that stops
    /// calling leaves no pad rumbling. Both at 0 stops. Everything else as in
    /// ``rumble(low:high:duration:)``, whose direct level this replaces (and the other way round).
    @discardableResult
    public func setMotorLevels(low: Double, high: Double) -> PlaybackOutcome {
        setMotorLevels(low: low, high: high) { _ in true }
    }

    /// ``rumble(low:high:duration:)`` on the selected devices only: player 2's pad alone. The
    /// others keep what they play. Lock-free; a one-device selection allocates nothing.
    @discardableResult
    public func rumble(low: Double, high: Double, duration: Duration, on devices: DeviceSelection) -> PlaybackOutcome {
        rumble(low: low, high: high, duration: duration) { devices.contains(roster.deviceID($0.rawValue)) }
    }

    /// ``rumble(low:high:duration:)`` on one device.
    @discardableResult
    public func rumble(low: Double, high: Double, duration: Duration, on device: HapticDevice) -> PlaybackOutcome {
        rumble(low: low, high: high, duration: duration, on: DeviceSelection(device))
    }

    /// ``setMotorLevels(low:high:)`` on the selected devices only; the others keep theirs.
    @discardableResult
    public func setMotorLevels(low: Double, high: Double, on devices: DeviceSelection) -> PlaybackOutcome {
        setMotorLevels(low: low, high: high) { devices.contains(roster.deviceID($0.rawValue)) }
    }

    /// ``setMotorLevels(low:high:)`` on one device.
    @discardableResult
    public func setMotorLevels(low: Double, high: Double, on device: HapticDevice) -> PlaybackOutcome {
        setMotorLevels(low: low, high: high, on: DeviceSelection(device))
    }

    /// ``setMotorLevels(low:high:)`` on the channels `include` accepts (per-device calls).
    func setMotorLevels(low: Double, high: Double, where include: (ChannelID) -> Bool) -> PlaybackOutcome {
        rumble(low: low, high: high, duration: motorLevelTimeout, where: include)
    }

    /// ``rumble(low:high:duration:)`` on the live channels `include` accepts (per-device calls).
    /// `.notPlayed(.noDevice)` when it accepts none.
    func rumble(low: Double, high: Double, duration: Duration, where include: (ChannelID) -> Bool) -> PlaybackOutcome {
        guard low.isFinite, high.isFinite else { return .notPlayed(.invalidIntensity) }
        let reason = silenceReason()
        if let reason, reason != .muted { return .notPlayed(reason) }
        let now = scheduler.currentTime()
        let stops = (low <= 0 && high <= 0) || duration <= .zero || reason == .muted
        // Any duration: one beyond the scheduler's instants means "until the engine stops".
        let (sum, overflowed) = now.nanoseconds.addingReportingOverflow(max(duration.nanoseconds, 0))
        let end = stops ? now : MonotonicInstant(nanoseconds: overflowed ? .max : sum)
        let gain = self.gain
        var reached = false
        var reachedReal = false
        // Levels due now are written from this thread as each is submitted, unless another thread
        // is processing (`Scheduler.beginImmediateGroup()`); the end of each stays timed.
        var group: ImmediateGroup?
        for channel in 0..<roster.upperBound where roster.isPlayable(channel) && include(ChannelID(rawValue: channel)) {
            // A device with a hardware gain (FF_GAIN) applies the gains itself; on the others the
            // engine's and the device's own gain scale the levels.
            let scale = appliesGain(channel) ? 1 : gain * roster.gain(channel)
            if group == nil { group = scheduler.beginImmediateGroup(now: now) }
            guard (try? scheduler.setMotorLevels(low: stops ? 0 : low * scale, high: stops ? 0 : high * scale,
                                                 on: ChannelID(rawValue: channel), at: now, until: end, in: &group!)) == true
            else {
                scheduler.endImmediateGroup(group!)
                return .notPlayed(.queueFull)
            }
            reached = true
            if roster.isReal(channel) { reachedReal = true }
        }
        if let group { scheduler.endImmediateGroup(group) }
        guard reached else { return .notPlayed(.noDevice) }
        if let reason { return .notPlayed(reason) }
        // Only the simulated fallback took it: nothing is felt, and the game is told so.
        if !reachedReal && !stops { return .notPlayed(.noRealDevice) }
        return .scheduled(feltAt: now)
    }

    /// Ends the direct level of `channel` now (its device is removed or lost).
    func endMotorLevels(on channel: ChannelID) {
        let now = scheduler.currentTime()
        _ = try? scheduler.setMotorLevels(low: 0, high: 0, on: channel, at: now, until: now)
    }

    /// Whether the device on `channel` applies the engine gain itself. Lock-free: the vocabulary
    /// slots record it per channel.
    func appliesGain(_ channel: Int) -> Bool {
        vocabulary.first?.slot(channel).hardwareGain ?? false
    }
}
