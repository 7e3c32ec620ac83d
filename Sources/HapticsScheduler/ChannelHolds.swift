import Synchronization
import HapticsRendering
@_spi(Realtime) import HapticsSystem

/// What each channel holds, and the one place a level is written.
///
/// A channel's output plays the combination of what its players ask for and its direct level
/// (`setMotorLevels`). Whatever it holds is performed again before the output's own end of it
/// (``Actuator/lifetimeOfPerformedLevel(on:now:)``), so a level ends only when the engine ends it.
/// Every level processing writes goes through ``performLevel(_:player:deadline:now:)``.
///
/// Processing side only, like the rest of processing: no allocation, no lock, no logging. Made once
/// by the scheduler and stored in it; a plain value of stored pointers into the channel table, the
/// processing state, the counters and the trace ring, so that every read is one load. It reads
/// the clock (``TraceClock``) only for trace records.
struct ChannelHolds {
    /// What processing holds on each channel.
    let states: UnsafeMutablePointer<ChannelState>
    /// The channels' outputs, profiles and policies.
    let slots: UnsafeMutablePointer<ChannelSlot>
    /// How many channels were added (``ChannelTable/count``).
    let channelCount: UnsafeMutablePointer<Atomic<Int>>
    /// The processing state: the trace number of the submission being applied.
    let realtime: UnsafeMutablePointer<RealtimeState>
    let counters: UnsafeMutablePointer<SchedulerCounters>
    let traceRing: UnsafeMutablePointer<TraceRing>
    /// The scheduler's clock, read for trace records only (held by the scheduler).
    unowned(unsafe) let clock: TraceClock
    /// ``SchedulerConfiguration/renewalLead``.
    let renewalLeadNanoseconds: Int64

    /// The earliest channel event (a direct level's end or a renewal) and its channel; `(.max, -1)`
    /// when no channel has one.
    func nextEvent() -> (time: MonotonicInstant, channel: Int) {
        var time = MonotonicInstant.max
        var channel = -1
        for index in 0..<channelCount.pointee.load(ordering: .acquiring) where states[index].nextEventTime < time {
            time = states[index].nextEventTime
            channel = index
        }
        return (time, channel)
    }

    /// Performs the channel's event due at `time`: its direct level ends, or its held level is
    /// renewed.
    func serviceEvent(of channel: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let state = states[channel]
        guard state.directEnd > state.renewal else {
            states[channel].direct = .stop
            states[channel].directEnd = .max
            if state.playerLevel != state.last { performLevel(channel, player: -1, deadline: time, now: now) }
            return
        }
        renew(channel, at: time, now: now)
    }

    /// Applies a `setMotorLevels` submission: replaces the channel's direct level (or removes it),
    /// and tells the output when that changes what it plays.
    func applyMotorLevels(_ command: SchedulerCommand, now: MonotonicInstant) {
        let channel = Int(command.player)
        guard channel >= 0 && channel < channelCount.pointee.load(ordering: .acquiring) else {
            counters.pointee.ignored.add(1, ordering: .relaxed)
            return
        }
        counters.pointee.applied.add(1, ordering: .relaxed)
        let time = command.time
        let level = slots[channel].profile.command(
            lowMotor: UInt16(truncatingIfNeeded: command.motorLevels >> 16),
            highMotor: UInt16(truncatingIfNeeded: command.motorLevels))
        let end = command.directLevelEnd
        if level.isSilent || end <= time || end <= now {
            states[channel].direct = .stop
            states[channel].directEnd = .max
        } else {
            states[channel].direct = level
            states[channel].directEnd = end
        }
        let state = states[channel]
        if ActuatorCommand.combined(state.playerLevel, state.direct) != state.last {
            performLevel(channel, player: -1, deadline: time, now: now)
        }
    }

    /// Sets the level the channel's players ask for and sends the output the combination with the
    /// channel's direct level.
    @inline(__always)
    func performPlayersLevel(_ command: ActuatorCommand, on channel: Int, player: Int, deadline: MonotonicInstant,
                             now: MonotonicInstant) {
        states[channel].playerLevel = command
        let state = states[channel]
        // With a direct level holding the device, a players' change it hides is no change at all.
        if !state.direct.isSilent && ActuatorCommand.combined(command, state.direct) == state.last { return }
        performLevel(channel, player: player, deadline: deadline, now: now)
    }

    /// Removes every channel's players and direct level and sends each output `.stop` (everything
    /// stops).
    func silenceEveryChannel(at time: MonotonicInstant, now: MonotonicInstant) {
        for channel in 0..<channelCount.pointee.load(ordering: .acquiring) {
            states[channel].activePlayerCount = 0
            states[channel].direct = .stop
            states[channel].directEnd = .max
            performPlayersLevel(.stop, on: channel, player: -1, deadline: time, now: now)
        }
    }

    /// Tells the channel's output the combination of its players' level and its direct level, and
    /// arms the renewal of what it holds now: where every level processing writes is written.
    @inline(__always)
    func performLevel(_ channel: Int, player: Int, deadline: MonotonicInstant, now: MonotonicInstant) {
        let state = states[channel]
        let command = ActuatorCommand.combined(state.playerLevel, state.direct)
        let traced = traceRing.pointee.isOn.load(ordering: .relaxed)
        let began = traced ? clock.now() : now
        ChannelSlot.perform(command, on: slots + channel, channel: channel, deadline: deadline, now: now)
        states[channel].last = command
        states[channel].silent = command.isSilent
        counters.pointee.emitted.add(1, ordering: .relaxed)
        counters.pointee.noteLateness(nanoseconds: now.nanoseconds - deadline.nanoseconds)
        if traced {
            // A start that first silences the player it replaces writes that stop, then its level:
            // both follow its submission, which ends at the level.
            let sequence = realtime.pointee.traceSequence
            if !command.isSilent { realtime.pointee.traceSequence = 0 }
            traceRing.pointee.record(TraceRecord(
                event: .emitted, channel: Int32(channel), player: Int32(player), command: command,
                deadline: deadline, time: clock.now(), began: began, sequence: sequence))
        }
        armRenewal(channel, holding: command, now: now)
    }

    /// Performs the level the channel holds once more, before the output would end it on its own.
    private func renew(_ channel: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let command = states[channel].last
        guard !command.isSilent else {
            states[channel].renewal = .max
            return
        }
        let traced = traceRing.pointee.isOn.load(ordering: .relaxed)
        let began = traced ? clock.now() : now
        ChannelSlot.perform(command, on: slots + channel, channel: channel, deadline: time, now: now)
        counters.pointee.renewed.add(1, ordering: .relaxed)
        counters.pointee.noteRenewalLateness(nanoseconds: now.nanoseconds - time.nanoseconds)
        if traced {
            traceRing.pointee.record(TraceRecord(
                event: .renewed, channel: Int32(channel), player: -1, command: command,
                deadline: time, time: clock.now(), began: began))
        }
        armRenewal(channel, holding: command, now: now)
    }

    /// Sets when the level just performed must be performed again: `renewalLeadNanoseconds` (at
    /// most half the lifetime) before the output's own end of it; never, for silence or an output
    /// that holds levels until told otherwise.
    @inline(__always)
    private func armRenewal(_ channel: Int, holding command: ActuatorCommand, now: MonotonicInstant) {
        guard !command.isSilent,
              let lifetime = ChannelSlot.withOutput(of: slots + channel, {
                  $0.lifetimeOfPerformedLevel(on: ChannelID(rawValue: channel), now: now)
              })
        else {
            states[channel].renewal = .max
            return
        }
        let span = min(max(lifetime.nanoseconds, 0), ChannelState.longestRenewalSpanNanoseconds)
        let lead = min(renewalLeadNanoseconds, span / 2)
        states[channel].renewal = now.advanced(by: max(span - lead, ChannelState.shortestRenewalSpanNanoseconds))
    }
}
