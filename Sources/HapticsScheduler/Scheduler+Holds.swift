import HapticsRendering
@_spi(Realtime) import HapticsSystem

// Holds, on the processing side: a channel's output is the combination of what its players ask
// for and its direct level (`setMotorLevels`), and whatever it holds is performed again before
// the output's own end of it (`Actuator.lifetimeOfPerformedLevel`), so a level ends only when the
// engine ends it. Like the rest of processing: no allocation, no lock, no logging.
extension Scheduler {
    /// A renewal is never sooner than this after the perform it renews, whatever an output says
    /// its lifetime is: an output answering 0 cannot make the realtime thread spin.
    static var shortestRenewalSpanNanoseconds: Int64 { 1_000_000 }
    /// Lifetimes are taken up to a day: far beyond any kernel length, and far from overflowing.
    static var longestRenewalSpanNanoseconds: Int64 { 86_400 * 1_000_000_000 }

    /// The earliest channel event (a direct level's end or a renewal) and its channel; `(.max, -1)`
    /// when no channel has one.
    func nextChannelEvent() -> (time: MonotonicInstant, channel: Int) {
        let states = realtime.pointee.channelStates
        var time = MonotonicInstant.max
        var channel = -1
        for index in 0..<channelTable.count.load(ordering: .acquiring) where states[index].nextEventTime < time {
            time = states[index].nextEventTime
            channel = index
        }
        return (time, channel)
    }

    /// Performs the channel's event due at `time`: its direct level ends, or its held level is
    /// renewed.
    func serviceChannel(_ channel: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let state = realtime.pointee.channelStates[channel]
        guard state.directEnd > state.renewal else {
            realtime.pointee.channelStates[channel].direct = .stop
            realtime.pointee.channelStates[channel].directEnd = .max
            if state.playerLevel != state.last { performLevel(channel, player: -1, deadline: time, now: now) }
            return
        }
        renew(channel, at: time, now: now)
    }

    /// Applies a `setMotorLevels` submission: replaces the channel's direct level (or removes it),
    /// and tells the output when that changes what it plays.
    func applyMotorLevels(_ command: SchedulerCommand, now: MonotonicInstant) {
        let channel = Int(command.player)
        guard channel >= 0 && channel < channelTable.count.load(ordering: .acquiring) else {
            counters.ignored.add(1, ordering: .relaxed)
            return
        }
        counters.applied.add(1, ordering: .relaxed)
        let time = command.time
        let level = channelTable.slots[channel].profile.command(
            lowMotor: UInt16(truncatingIfNeeded: command.motorLevels >> 16),
            highMotor: UInt16(truncatingIfNeeded: command.motorLevels))
        let end = command.directLevelEnd
        if level.isSilent || end <= time || end <= now {
            realtime.pointee.channelStates[channel].direct = .stop
            realtime.pointee.channelStates[channel].directEnd = .max
        } else {
            realtime.pointee.channelStates[channel].direct = level
            realtime.pointee.channelStates[channel].directEnd = end
        }
        let state = realtime.pointee.channelStates[channel]
        if combined(state.playerLevel, state.direct) != state.last {
            performLevel(channel, player: -1, deadline: time, now: now)
        }
    }

    /// Tells the channel's output the combination of its players' level and its direct level, and
    /// arms the renewal of what it holds now.
    @inline(__always)
    func performLevel(_ channel: Int, player: Int, deadline: MonotonicInstant, now: MonotonicInstant) {
        let state = realtime.pointee.channelStates[channel]
        let command = combined(state.playerLevel, state.direct)
        let traced = tracing.load(ordering: .relaxed)
        let began = traced ? clock.now() : now
        ChannelSlot.perform(command, on: channelTable.slots + channel, channel: channel, deadline: deadline, now: now)
        realtime.pointee.channelStates[channel].last = command
        realtime.pointee.channelStates[channel].silent = command.isSilent
        counters.emitted.add(1, ordering: .relaxed)
        let lateness = now.nanoseconds - deadline.nanoseconds
        counters.noteLateness(nanoseconds: lateness)
        if traced {
            // A start that first silences the player it replaces writes that stop, then its level:
            // both follow its submission, which ends at the level.
            let sequence = realtime.pointee.traceSequence
            if !command.isSilent { realtime.pointee.traceSequence = 0 }
            trace(TraceRecord(event: .emitted, channel: Int32(channel), player: Int32(player), command: command,
                              deadline: deadline, time: clock.now(), began: began,
                              sequence: sequence))
        }
        armRenewal(channel, holding: command, now: now)
    }

    /// Performs the level the channel holds once more, before the output would end it on its own.
    private func renew(_ channel: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let command = realtime.pointee.channelStates[channel].last
        guard !command.isSilent else {
            realtime.pointee.channelStates[channel].renewal = .max
            return
        }
        let traced = tracing.load(ordering: .relaxed)
        let began = traced ? clock.now() : now
        ChannelSlot.perform(command, on: channelTable.slots + channel, channel: channel, deadline: time, now: now)
        counters.renewed.add(1, ordering: .relaxed)
        let lateness = now.nanoseconds - time.nanoseconds
        counters.noteRenewalLateness(nanoseconds: lateness)
        if traced {
            trace(TraceRecord(event: .renewed, channel: Int32(channel), player: -1, command: command,
                              deadline: time, time: clock.now(), began: began))
        }
        armRenewal(channel, holding: command, now: now)
    }

    /// Sets when the level just performed must be performed again: `renewalLead` (at most half the
    /// lifetime) before the output's own end of it; never, for silence or an output that holds
    /// levels until told otherwise.
    @inline(__always)
    private func armRenewal(_ channel: Int, holding command: ActuatorCommand, now: MonotonicInstant) {
        guard !command.isSilent,
              let lifetime = ChannelSlot.withOutput(of: channelTable.slots + channel, {
                  $0.lifetimeOfPerformedLevel(on: ChannelID(rawValue: channel), now: now)
              })
        else {
            realtime.pointee.channelStates[channel].renewal = .max
            return
        }
        let span = min(max(lifetime.nanoseconds, 0), Self.longestRenewalSpanNanoseconds)
        let lead = min(configuration.renewalLead.nanoseconds, span / 2)
        realtime.pointee.channelStates[channel].renewal = now.advanced(by: max(span - lead, Self.shortestRenewalSpanNanoseconds))
    }

    /// What the output plays: the players' level plus the direct level, saturating per motor. Of
    /// two levels of different kinds (which one device's profile never makes), the players' wins.
    @inline(__always)
    func combined(_ playerLevel: ActuatorCommand, _ direct: ActuatorCommand) -> ActuatorCommand {
        if direct.isSilent { return playerLevel }
        if playerLevel.isSilent { return direct }
        return Self.saturatingSum(playerLevel, direct) ?? playerLevel
    }
}
