import CHapticsSystem
import HapticsPatterns
@_spi(Realtime) import HapticsSystem

// Submission: callable from any thread. Each call is one lock-free push of a plain value into the
// bounded queue plus, only when the realtime thread is parked, one futex wake. No allocation, no lock.
//
// Every value is checked here, before it is queued, so that the processing side only ever sees
// values its arithmetic holds (`SchedulerLimits`): instants are clamped to ±2⁶² ns, seek offsets
// saturate and are clamped to the program when applied, and a rate or parameter value that means
// nothing throws without submitting anything.
extension Scheduler {
    /// Starts `player` at `instant`: its program's offset 0 (or the position a seek chose while it was
    /// stopped) plays at `instant`. On a `replace` or `dropStale` channel the players already playing
    /// there are silenced and retired. A started player that is started again restarts from the
    /// beginning. Returns `false` (and counts a drop) when the queue is full.
    @discardableResult
    package func start(_ player: PlayerID, at instant: MonotonicInstant) -> Bool {
        submit(.start, player: player, at: instant, value: .nan)
    }

    /// Stops `player` at `instant`; the channel gets `.stop` unless another player still plays there.
    /// Returns `false` (and counts a drop) when the queue is full.
    @discardableResult
    package func stop(_ player: PlayerID, at instant: MonotonicInstant) -> Bool {
        submit(.stop, player: player, at: instant)
    }

    /// Moves `player` to program time `offset` at `instant`. A playing player re-emits the level in
    /// effect at the new position; a stopped one will start there. Any offset is accepted: one
    /// before 0 is 0, one beyond the program's duration is its end (where a looping player wraps to
    /// 0). Returns `false` (and counts a drop) when the queue is full.
    @discardableResult
    package func seek(_ player: PlayerID, to offset: Duration, at instant: MonotonicInstant) -> Bool {
        submit(.seek, player: player, at: instant, argument: offset.nanoseconds)
    }

    /// Sets the playback rate of `player` from `instant` on: program offsets are divided by `rate`
    /// (2.0 plays twice as fast). Returns `false` (and counts a drop) when the queue is full.
    ///
    /// - Throws: ``SchedulerError/invalidRate(_:)`` when `rate` is outside
    ///   ``SchedulerLimits/playbackRates`` (1/64…64), NaN or infinite; nothing is submitted.
    @discardableResult
    package func setRate(_ player: PlayerID, _ rate: Double, at instant: MonotonicInstant) throws(SchedulerError) -> Bool {
        guard SchedulerLimits.playbackRates.contains(rate) else { throw .invalidRate(rate) }
        return submit(.setRate, player: player, at: instant, value: rate)
    }

    /// Makes `player` loop (wrap to offset 0 at the program's duration instead of stopping) or not,
    /// from `instant` on. Returns `false` (and counts a drop) when the queue is full.
    @discardableResult
    package func setLoop(_ player: PlayerID, _ enabled: Bool, at instant: MonotonicInstant) -> Bool {
        submit(.setLoop, player: player, at: instant, argument: enabled ? 1 : 0)
    }

    /// Sets a dynamic parameter of `player` from `instant` on. `hapticIntensityControl` multiplies
    /// each command's intensity, `hapticSharpnessControl` is added to its sharpness; the result is
    /// re-mapped through the channel's device profile, for the level playing now and every later
    /// command. Other parameters concern audio or envelopes, which are rendered before scheduling:
    /// they are accepted and have no effect here. Any finite value is accepted: an intensity factor
    /// below 0 counts as 0, and each re-mapped intensity and sharpness is clamped to 0…1. Returns
    /// `false` (and counts a drop) when the queue is full.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `value` is NaN or infinite;
    ///   nothing is submitted.
    @discardableResult
    package func setParameter(
        _ player: PlayerID, _ id: DynamicParameterID, value: Double, at instant: MonotonicInstant
    ) throws(SchedulerError) -> Bool {
        guard value.isFinite else { throw .invalidParameterValue(id, value) }
        return submit(Self.parameterKind(id), player: player, at: instant, value: value)
    }

    /// The command a dynamic parameter's change is.
    static func parameterKind(_ id: DynamicParameterID) -> SchedulerCommand.Kind {
        switch id {
        case .hapticIntensityControl: return .setIntensity
        case .hapticSharpnessControl: return .setSharpness
        default: return .otherParameter
        }
    }

    /// Stops every player at `instant` and sends `.stop` to every channel. Returns `false` (and counts
    /// a drop) when the queue is full.
    @discardableResult
    package func stopAll(at instant: MonotonicInstant) -> Bool {
        push(SchedulerCommand(kind: .stopAll, player: -1, generation: 0,
                              time: SchedulerLimits.clamped(instant), argument: 0, value: 0))
    }

    /// Sets `channel`'s direct level from `instant` until `end`: the game's two motor levels
    /// (`low`, `high`, each 0…1), mapped to the channel's device
    /// (`DeviceProfile.command(lowMotor:highMotor:)`) and summed with what the channel's players
    /// play, saturating per motor like the kernel (the players' periodic waveform and period win).
    ///
    /// Each call replaces the channel's direct level; both levels 0, or an `end` not after
    /// `instant`, remove it. At `end` the scheduler removes it itself, so a caller that stops
    /// calling never leaves the device rumbling. `stopAll` removes it too. A call that leaves
    /// what the device plays unchanged (the same levels again) only moves the end. Finite levels
    /// outside 0…1 are clamped into it; instants are clamped to ``SchedulerLimits/instants``.
    /// Returns `false` (and counts a drop) when the queue is full.
    ///
    /// - Throws: ``SchedulerError/invalidMotorLevel(motor:_:)`` when a level is NaN or infinite,
    ///   ``SchedulerError/unknownChannel(_:)`` when `channel` was never added; nothing is submitted.
    @discardableResult
    package func setMotorLevels(
        low: Double, high: Double, on channel: ChannelID, at instant: MonotonicInstant, until end: MonotonicInstant
    ) throws(SchedulerError) -> Bool {
        try push(motorLevelsCommand(low: low, high: high, on: channel, at: instant, until: end))
    }

    /// The checked command of a `setMotorLevels` call.
    func motorLevelsCommand(
        low: Double, high: Double, on channel: ChannelID, at instant: MonotonicInstant, until end: MonotonicInstant
    ) throws(SchedulerError) -> SchedulerCommand {
        guard low.isFinite else { throw .invalidMotorLevel(motor: "low", low) }
        guard high.isFinite else { throw .invalidMotorLevel(motor: "high", high) }
        guard channel.rawValue >= 0 && channel.rawValue < channelTable.count.pointee.load(ordering: .acquiring) else {
            throw .unknownChannel(channel)
        }
        let levels = UInt32(Self.motorLevel(low)) << 16 | UInt32(Self.motorLevel(high))
        return SchedulerCommand(
            kind: .setMotorLevels, player: Int32(truncatingIfNeeded: channel.rawValue), generation: 0,
            motorLevels: levels, time: SchedulerLimits.clamped(instant),
            argument: SchedulerLimits.clamped(end).nanoseconds, value: 0)
    }

    /// A finite level clamped to 0…1, as 0…0xFFFF rounded to nearest.
    static func motorLevel(_ level: Double) -> UInt16 {
        UInt16((min(max(level, 0), 1) * 65_535).rounded())
    }

    func submit(
        _ kind: SchedulerCommand.Kind, player: PlayerID, at instant: MonotonicInstant,
        argument: Int64 = 0, value: Double = 0
    ) -> Bool {
        push(SchedulerCommand(
            kind: kind, player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
            time: SchedulerLimits.clamped(instant), argument: argument, value: value))
    }

    /// Queues `submitted` and, unless the caller ends an immediate group next (which runs the pass
    /// or wakes the thread itself), wakes a parked realtime thread.
    func push(_ submitted: SchedulerCommand, wakingRealtimeThread wakes: Bool = true) -> Bool {
        var command = submitted
        let traced = traceRing.pointee.isOn.load(ordering: .relaxed)
        var began = MonotonicInstant(nanoseconds: 0)
        if traced {
            began = currentTime()
            command.sequence = makeTraceSequence()
        }
        guard queue.push(command) else {
            counters.pointee.dropped.add(1, ordering: .relaxed)
            return false
        }
        counters.pointee.submitted.add(1, ordering: .relaxed)
        if wakes { wakeRealtimeThread() }
        if traced {
            trace(TraceRecord(event: .submitted, channel: -1, player: command.player, command: .stop,
                              deadline: command.time, time: currentTime(), began: began, sequence: command.sequence))
        }
        return true
    }

    /// Wakes the realtime thread if it is parked; a fence and one load otherwise.
    @inline(__always)
    func wakeRealtimeThread() {
        wake.wakeIfParked()
    }
}
