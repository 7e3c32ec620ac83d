import HapticsRendering
@_spi(Realtime) import HapticsSystem

// Processing: one thread at a time, whichever owns `processing` (the realtime thread, a caller
// ending an immediate group, or a test after advancing a ManualClock).
// It owns `realtime`, reads programs and channels without locks, and never allocates, locks or logs.
// The pass decides what is due and in what order; the rules live in the parts it calls:
// `Players`, `CurvePlayers` and `ChannelHolds`, where every level is written.
extension Scheduler {
    /// Takes the submitted commands, performs everything due at `currentTime()` in time order, and
    /// returns the next instant something is due (`nil` when nothing is scheduled).
    ///
    /// Submissions and program commands due at the same instant: submissions first, in submission
    /// order. Must not be called while the realtime thread runs, nor from two threads at once.
    ///
    /// A caller's immediate group may hold processing at that moment: `process()` then
    /// waits (blocked, not spinning) until that pass has ended, and makes its own.
    @discardableResult
    package func process() -> MonotonicInstant? {
        precondition(!running.load(ordering: .acquiring), "Scheduler.process() must not be called while the realtime thread runs")
        takeProcessing()
        defer { endProcessing() }
        let next = processPass()
        return next == .max ? nil : next
    }

    /// One processing pass, by the thread that owns processing (``beginProcessing()``), at `now`
    /// (a reading of the clock the owner took just before, or `nil` to read it here): returns the
    /// next instant something is due (`.max` when nothing is) and publishes it in `nextDeadline`
    /// for the realtime thread's wait.
    func processPass(now reading: MonotonicInstant? = nil) -> MonotonicInstant {
        let next = processDue(now: reading ?? currentTime())
        realtime.pointee.eventBound = next
        pendingHasRoom.store(realtime.pointee.pendingCount < realtime.pointee.pendingCapacity, ordering: .releasing)
        nextDeadline.store(next, ordering: .sequentiallyConsistent)
        return next
    }

    private func processDue(now: MonotonicInstant) -> MonotonicInstant {
        takeSubmissions(now: now)
        retireReleasedPlayers(now: now)
        // A lower bound of the earliest player, channel and curve event (`.min`: unknown): while
        // the next submission is due no later, it is applied without scanning them again. Applying
        // a submission only adds events of its own player and channel (`eventsAfter`); a scan
        // makes the bound exact again. A pass of N submissions on N channels scans once after
        // them, not N times. It starts from `eventBound`, what the latest pass found next and the
        // submissions applied since added.
        var bound = realtime.pointee.scansBeforeEveryEvent ? MonotonicInstant.min : realtime.pointee.eventBound
        while true {
            let state = realtime.pointee
            let submissionTime = state.pendingCount > 0 ? state.pending[state.pendingCount - 1].time : MonotonicInstant.max
            if submissionTime <= now && submissionTime <= bound {
                applyNextSubmission(now: now, bound: &bound)
                continue
            }
            // The earliest player event, and every player due then, in the order of the list.
            var playerTime = MonotonicInstant.max
            var dueCount = 0
            for position in 0..<state.activeCount {
                let slot = state.activePlayers[position]
                let time = players.nextEventTime(slot)
                if time < playerTime {
                    playerTime = time
                    dueCount = 0
                }
                if time == playerTime {
                    state.dueAlike[dueCount] = slot
                    dueCount += 1
                }
            }
            // Channel events (a direct level's end, a renewal) come last at equal times: a level
            // change due then makes a renewal unnecessary. Curve ticks are parameter changes: after
            // the submissions due, before the program commands.
            let (channelTime, channel) = holds.nextEvent()
            let (curveTime, curveCount) = curvePlayers.nextTick()
            bound = min(playerTime, channelTime, curveTime)
            if submissionTime <= now && submissionTime <= bound {
                applyNextSubmission(now: now, bound: &bound)
            } else if curveTime <= now && curveTime <= playerTime && curveTime <= channelTime {
                tickDueCurves(curveCount, at: curveTime, now: now)
                bound = .min
            } else if playerTime <= now && playerTime <= channelTime {
                advanceDue(dueCount, at: playerTime, now: now)
                bound = .min
            } else if channelTime <= now {
                holds.serviceEvent(of: channel, at: channelTime, now: now)
                bound = .min
            } else {
                return min(submissionTime, bound)
            }
        }
    }

    /// Performs the events of the `count` players the scan found due at `time` (`dueAlike`), in
    /// the order successive scans would pick them, without scanning between them.
    ///
    /// A player's event changes only that player's next event (never earlier than `time`) and its
    /// channel's (a renewal armed after `now`, which is not before `time`). So a scan after it would
    /// pick the first player of the list still due at `time`: the curve ticks, submissions and
    /// channel events it passed over were later, or are channel events at `time`, which come after
    /// players'. 32 pads changing level in the same millisecond cost one scan of the players, not 32.
    /// (`DuePlayersTests` compares this with a scan before every event.)
    private func advanceDue(_ count: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let state = realtime.pointee
        if state.scansBeforeEveryEvent {
            players.advance(state.dueAlike[0], at: time, now: now)
            return
        }
        var index = 0
        while index < count {
            let slot = state.dueAlike[index]
            // A player its own event ended has left the list.
            guard state.players[slot].active else {
                index += 1
                continue
            }
            let next = players.nextEventTime(slot)
            if next > time {
                index += 1
                continue
            }
            // Never expected (events are in time order): the scan decides.
            if next < time { return }
            players.advance(slot, at: time, now: now)
        }
    }

    /// The first steps of a pass, taken as a caller's immediate group submits: while nothing waits
    /// in the queue and the earliest pending submission is due, at or before every other event,
    /// applies it — what a pass at `now` would do before anything else, so a start due now is
    /// written while the caller still submits the group's next one. The group's end runs the rest
    /// of the pass.
    @inline(__always)
    func applyDueSubmissions(now: MonotonicInstant) {
        guard !realtime.pointee.scansBeforeEveryEvent, !queue.hasPublishedElement else { return }
        retireReleasedPlayers(now: now)
        while realtime.pointee.pendingCount > 0 {
            let time = realtime.pointee.pending[realtime.pointee.pendingCount - 1].time
            var bound = realtime.pointee.eventBound
            guard time <= now && time <= bound else { return }
            applyNextSubmission(now: now, bound: &bound)
            realtime.pointee.eventBound = bound
        }
    }

    /// Applies the earliest pending submission and lowers `bound` to the earliest event it may
    /// have added.
    @inline(__always)
    private func applyNextSubmission(now: MonotonicInstant, bound: inout MonotonicInstant) {
        realtime.pointee.pendingCount -= 1
        let command = realtime.pointee.pending[realtime.pointee.pendingCount]
        apply(command, now: now)
        bound = min(bound, eventsAfter(command))
    }

    /// The earliest event an applied submission may have added: its player's next one, its
    /// channel's, its player's next curve tick; `.min` (scan again) after a `stopAll`, or when it
    /// retired a player bound before to another channel (`claim`).
    @inline(__always)
    func eventsAfter(_ command: SchedulerCommand) -> MonotonicInstant {
        let state = realtime.pointee
        if command.kind == .stopAll { return .min }
        if command.kind == .setMotorLevels {
            let channel = Int(command.player)
            guard channel >= 0 && channel < channelTable.count.pointee.load(ordering: .acquiring) else { return .max }
            return state.channelStates[channel].nextEventTime
        }
        if state.eventsElsewhere {
            realtime.pointee.eventsElsewhere = false
            return .min
        }
        let slot = Int(command.player)
        guard slot >= 0 && slot < configuration.maximumPlayers else { return .max }
        let player = state.players[slot]
        guard player.channel >= 0 && player.channel < channelTable.count.pointee.load(ordering: .acquiring) else { return .max }
        var earliest = state.channelStates[player.channel].nextEventTime
        if player.active { earliest = min(earliest, players.nextEventTime(slot)) }
        if player.intensityCurve.isBound { earliest = min(earliest, player.intensityCurve.next) }
        if player.sharpnessCurve.isBound { earliest = min(earliest, player.sharpnessCurve.next) }
        return earliest
    }

    /// Whether submissions wait in the queue that the processing side can take now. Read by the
    /// realtime thread between passes, when a caller may own the pending list: its room is the
    /// one the latest pass published.
    var hasWaitingSubmissions: Bool {
        pendingHasRoom.load(ordering: .acquiring) && queue.hasPublishedElement
    }

    // MARK: Submissions

    /// Moves queued commands into the time-sorted pending list, as long as it has room (when it does
    /// not, they wait in the queue and new submissions see a full queue).
    ///
    /// A command more than `SchedulerLimits.maximumCatchUp` late takes effect that long before `now`:
    /// everything due is played late either way, and it bounds how far back an anchor can lie, so
    /// that rescaling the time since it by the rate cannot overflow.
    private func takeSubmissions(now: MonotonicInstant) {
        while realtime.pointee.pendingCount < realtime.pointee.pendingCapacity, let command = queue.pop() {
            takeSubmission(command, now: now)
        }
    }

    /// Puts `submitted` among the pending submissions in time order, taken at `now`: one from the
    /// queue, or one a caller's immediate group hands its own pass. There must be room.
    @inline(__always)
    func takeSubmission(_ submitted: SchedulerCommand, now: MonotonicInstant) {
        var command = submitted
        if command.sequence != 0 {
            trace(TraceRecord(event: .dequeued, channel: -1, player: command.player, command: .stop,
                              deadline: command.time, time: now, sequence: command.sequence))
        }
        let earliest = now.advanced(by: -SchedulerLimits.maximumCatchUpNanoseconds)
        if command.time < earliest { command.time = earliest }
        let state = realtime.pointee
        // Sorted by time descending: the insertion point is after every later command and before
        // the commands due at the same time or earlier, which were submitted before this one.
        var index = state.pendingCount
        while index > 0 && state.pending[index - 1].time <= command.time { index -= 1 }
        if index < state.pendingCount {
            (state.pending + index + 1).update(from: state.pending + index, count: state.pendingCount - index)
        }
        state.pending[index] = command
        realtime.pointee.pendingCount += 1
    }

    @inline(__always)
    func apply(_ command: SchedulerCommand, now: MonotonicInstant) {
        // The first output this command causes continues its trace flow.
        realtime.pointee.traceSequence = command.sequence
        defer { realtime.pointee.traceSequence = 0 }
        let time = command.time
        if command.kind == .stopAll {
            counters.pointee.applied.add(1, ordering: .relaxed)
            stopEverything(at: time, now: now)
            return
        }
        if command.kind == .setMotorLevels {
            holds.applyMotorLevels(command, now: now)
            return
        }
        guard let slot = claim(command, now: now) else {
            curvePlayers.release(carriedBy: command)
            counters.pointee.ignored.add(1, ordering: .relaxed)
            if traceRing.pointee.isOn.load(ordering: .relaxed) {
                trace(TraceRecord(event: .ignored, channel: -1, player: command.player, command: .stop,
                                  deadline: time, time: now, sequence: command.sequence))
            }
            return
        }
        counters.pointee.applied.add(1, ordering: .relaxed)
        let playerStates = realtime.pointee.players
        switch command.kind {
        case .start:
            if playerStates[slot].paused { players.endPause(slot, at: time) }
            // A start at an intensity (`start(_:at:tag:intensity:in:)`) sets it first.
            if !command.value.isNaN { playerStates[slot].intensityScale = PlayerState.intensityFactor(command.value) }
            players.start(slot, at: time, now: now, tag: command.tag)
        case .stop:
            if playerStates[slot].active {
                players.retire(slot, at: time, now: now)
            } else if playerStates[slot].paused {
                players.endPause(slot, at: time)
            }
            playerStates[slot].idlePositionNanoseconds = 0
        case .seek:
            players.seek(slot, toNanoseconds: command.offsetNanoseconds, at: time, now: now)
        case .setRate:
            if playerStates[slot].active { players.reanchor(slot, at: time) }
            playerStates[slot].rate = command.value
        case .setLoop:
            playerStates[slot].loops = command.loops
        case .setIntensity:
            playerStates[slot].intensityScale = PlayerState.intensityFactor(command.value)
            players.remapLevel(slot, at: time, now: now)
        case .setSharpness:
            playerStates[slot].sharpnessShift = Float(command.value)
            players.remapLevel(slot, at: time, now: now)
        case .pause:
            players.pause(slot, at: time, now: now)
        case .resume:
            players.resume(slot, at: time, now: now)
        case .intensityCurve, .sharpnessCurve:
            bindCurve(slot, command, now: now)
        case .otherParameter, .stopAll, .setMotorLevels:
            break
        }
        players.publish(slot)
    }

    /// Checks a command's player against the current binding and brings the player's state to that
    /// binding (a new player in a reused slot starts from fresh settings). Returns the slot, or `nil`
    /// for a released or unknown player.
    @inline(__always)
    private func claim(_ command: SchedulerCommand, now: MonotonicInstant) -> Int? {
        let slot = Int(command.player)
        guard slot >= 0 && slot < configuration.maximumPlayers else { return nil }
        let binding = playerTable.bindings[slot].load(ordering: .acquiring)
        let generation = UInt32(truncatingIfNeeded: binding >> 32)
        guard generation == command.generation, generation & 1 == 1 else { return nil }
        let playerStates = realtime.pointee.players
        if playerStates[slot].generation != generation {
            if playerStates[slot].active {
                players.retire(slot, at: now, now: now)
                // That player's channel may be another one than the command's.
                realtime.pointee.eventsElsewhere = true
            }
            curvePlayers.release(player: slot)
            playerStates[slot] = PlayerState(generation: generation, program: (binding >> 16) & 0x7FFF, channel: binding & 0xFFFF)
        }
        return slot
    }

    /// Retires active players whose binding changed (released on the control side).
    func retireReleasedPlayers(now: MonotonicInstant) {
        var position = realtime.pointee.activeCount
        while position > 0 {
            position -= 1
            let slot = realtime.pointee.activePlayers[position]
            let generation = UInt32(truncatingIfNeeded: playerTable.bindings[slot].load(ordering: .acquiring) >> 32)
            if generation != realtime.pointee.players[slot].generation { players.retire(slot, at: now, now: now) }
        }
    }

    /// Stops every player without per-player output, removes every direct level (those queued for
    /// later too: a live sound feed's levels must not outlive a stop), then sends `.stop` to every
    /// channel.
    func stopEverything(at time: MonotonicInstant, now: MonotonicInstant) {
        withdrawMotorLevels(after: time)
        players.stopAll(at: time)
        holds.silenceEveryChannel(at: time, now: now)
    }

    /// Drops the direct levels queued for after `time`, keeping the order of the other commands.
    private func withdrawMotorLevels(after time: MonotonicInstant) {
        let pending = realtime.pointee.pending
        var kept = 0
        for index in 0..<realtime.pointee.pendingCount {
            let command = pending[index]
            if command.kind == .setMotorLevels && command.time > time {
                counters.pointee.ignored.add(1, ordering: .relaxed)
                continue
            }
            if kept != index { pending[kept] = command }
            kept += 1
        }
        realtime.pointee.pendingCount = kept
    }

    // MARK: Curves

    /// Binds a submitted curve to its player and applies its first value at once.
    func bindCurve(_ slot: Int, _ command: SchedulerCommand, now: MonotonicInstant) {
        curvePlayers.bind(slot, command)
        curvePlayers.tick(slot, intensity: command.kind == .intensityCurve, at: command.time, now: now)
        players.remapLevel(slot, at: command.time, now: now)
    }

    /// Performs the curve ticks of the `count` players the scan found due at `time` (`dueCurves`),
    /// in the order successive scans would pick them, without scanning between them.
    ///
    /// A player's ticks move only its own curves, each to a later tick (or give it back), and
    /// re-map its level: its channel's renewal is armed after `now`, and no player's next event
    /// moves. So a scan after it would pick the next player of the list due at `time`, until a
    /// curve given back changes the list's order: then the scan decides. (`DuePlayersTests`
    /// compares this with a scan before every event.)
    func tickDueCurves(_ count: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let state = realtime.pointee
        if state.scansBeforeEveryEvent {
            tickCurves(state.dueCurves[0], at: time, now: now)
            return
        }
        let listed = state.curvePlayerCount
        for index in 0..<count {
            guard realtime.pointee.curvePlayerCount == listed else { return }
            tickCurves(state.dueCurves[index], at: time, now: now)
        }
    }

    /// Performs the player's curve ticks due at `time`, re-mapping its level after each. A released
    /// player's curves are given back.
    func tickCurves(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let generation = UInt32(truncatingIfNeeded: playerTable.bindings[slot].load(ordering: .acquiring) >> 32)
        guard generation == realtime.pointee.players[slot].generation else {
            curvePlayers.release(player: slot)
            return
        }
        if curvePlayers.isDue(slot, intensity: true, at: time) {
            curvePlayers.tick(slot, intensity: true, at: time, now: now)
            players.remapLevel(slot, at: time, now: now)
        }
        if curvePlayers.isDue(slot, intensity: false, at: time) {
            curvePlayers.tick(slot, intensity: false, at: time, now: now)
            players.remapLevel(slot, at: time, now: now)
        }
    }
}
