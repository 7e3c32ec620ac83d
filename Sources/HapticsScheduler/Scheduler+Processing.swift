import HapticsRendering
@_spi(Realtime) import HapticsSystem

// Processing: one thread at a time, whichever owns `processing` (the realtime thread, a caller
// ending an immediate group, or a test after advancing a ManualClock).
// It owns `realtime`, reads programs and channels without locks, and never allocates, locks or logs.
extension Scheduler {
    /// Takes the submitted commands, performs everything due at `clock.now()` in time order, and
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
        let next = processDue(now: reading ?? clock.now())
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
        // them, not N times. Events change only in passes (between them they are only taken away:
        // players released, the thread's last silence), so the previous pass's next deadline is
        // such a bound: a trigger due now is applied, and written, before any scan.
        var bound = realtime.pointee.scansBeforeEveryEvent ? MonotonicInstant.min : nextDeadline.load(ordering: .relaxed)
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
                let time = nextEventTime(slot)
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
            advance(state.dueAlike[0], at: time, now: now)
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
            let next = nextEventTime(slot)
            if next > time {
                index += 1
                continue
            }
            // Never expected (events are in time order): the scan decides.
            if next < time { return }
            advance(slot, at: time, now: now)
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
        if player.active { earliest = min(earliest, nextEventTime(slot)) }
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
        let players = realtime.pointee.players
        switch command.kind {
        case .start:
            if players[slot].paused { endPause(slot, at: time) }
            // A start at an intensity (`start(_:at:tag:intensity:in:)`) sets it first.
            if !command.value.isNaN { players[slot].intensityScale = PlayerState.intensityFactor(command.value) }
            startPlayer(slot, at: time, now: now, tag: command.tag)
        case .stop:
            if players[slot].active {
                retire(slot, at: time, now: now)
            } else if players[slot].paused {
                endPause(slot, at: time)
            }
            players[slot].idlePositionNanoseconds = 0
        case .seek:
            seekPlayer(slot, toNanoseconds: command.offsetNanoseconds, at: time, now: now)
        case .setRate:
            if players[slot].active { reanchor(slot, at: time) }
            players[slot].rate = command.value
        case .setLoop:
            players[slot].loops = command.loops
        case .setIntensity:
            players[slot].intensityScale = PlayerState.intensityFactor(command.value)
            remapLevel(slot, at: time, now: now)
        case .setSharpness:
            players[slot].sharpnessShift = Float(command.value)
            remapLevel(slot, at: time, now: now)
        case .pause:
            pausePlayer(slot, at: time, now: now)
        case .resume:
            resumePlayer(slot, at: time, now: now)
        case .intensityCurve, .sharpnessCurve:
            bindCurve(slot, command, now: now)
        case .otherParameter, .stopAll, .setMotorLevels:
            break
        }
        publish(slot)
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
        let players = realtime.pointee.players
        if players[slot].generation != generation {
            if players[slot].active {
                retire(slot, at: now, now: now)
                // That player's channel may be another one than the command's.
                realtime.pointee.eventsElsewhere = true
            }
            curvePlayers.release(player: slot)
            players[slot] = PlayerState(generation: generation, program: (binding >> 16) & 0x7FFF, channel: binding & 0xFFFF)
        }
        return slot
    }

    /// Retires active players whose binding changed (released on the control side).
    private func retireReleasedPlayers(now: MonotonicInstant) {
        var position = realtime.pointee.activeCount
        while position > 0 {
            position -= 1
            let slot = realtime.pointee.activePlayers[position]
            let generation = UInt32(truncatingIfNeeded: playerTable.bindings[slot].load(ordering: .acquiring) >> 32)
            if generation != realtime.pointee.players[slot].generation { retire(slot, at: now, now: now) }
        }
    }

    // MARK: Players

    /// Announces that processing reads `program` for the player in `slot`, then checks that the
    /// player is still bound with `generation`: either the control side sees the announcement and
    /// keeps the program, or this side sees the release, withdraws the announcement and returns
    /// `false`.
    @inline(__always)
    func announceProgram(_ program: Int, slot: Int, generation: UInt32) -> Bool {
        playerTable.programInUse[slot].store(program, ordering: .sequentiallyConsistent)
        guard UInt32(truncatingIfNeeded: playerTable.bindings[slot].load(ordering: .sequentiallyConsistent) >> 32) == generation else {
            playerTable.programInUse[slot].store(-1, ordering: .releasing)
            return false
        }
        return true
    }

    /// Starts (or restarts) a player; a nonzero `tag` reports how this start ends. A restart ends
    /// the start before it as stopped.
    @inline(__always)
    func startPlayer(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant, tag: Int64) {
        let players = realtime.pointee.players
        if players[slot].active {
            pushEnding(slot, .stopped, at: time)
            players[slot].startTag = tag
            seekPlayer(slot, toNanoseconds: 0, at: time, now: now)
            return
        }
        players[slot].startTag = tag
        guard announceProgram(players[slot].program, slot: slot, generation: players[slot].generation) else { return }
        let channel = players[slot].channel
        if !isMixing(channel) && realtime.pointee.channelStates[channel].activePlayerCount > 0 {
            var position = realtime.pointee.activeCount
            while position > 0 {
                position -= 1
                let other = realtime.pointee.activePlayers[position]
                if players[other].channel == channel { retire(other, at: time, now: now) }
            }
        }
        players[slot].active = true
        realtime.pointee.activePlayers[realtime.pointee.activeCount] = slot
        realtime.pointee.activeCount += 1
        realtime.pointee.channelStates[channel].activePlayerCount += 1
        let position = players[slot].idlePositionNanoseconds
        players[slot].idlePositionNanoseconds = 0
        place(slot, toNanoseconds: position, at: time, now: now)
    }

    private func seekPlayer(_ slot: Int, toNanoseconds offset: Int64, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        let storage = programTable.entries[players[slot].program]
        let target = min(max(0, offset), storage.durationNanoseconds)
        guard players[slot].active else {
            players[slot].idlePositionNanoseconds = target
            return
        }
        place(slot, toNanoseconds: target, at: time, now: now)
    }

    /// Places an active player at program time `offset` (nanoseconds) at `time`, and sets its level to the one in
    /// effect there (so a start at offset 0 plays the offset-0 command at once).
    @inline(__always)
    private func place(_ slot: Int, toNanoseconds offset: Int64, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        let storage = programTable.entries[players[slot].program]
        var target = offset
        if target >= storage.durationNanoseconds && storage.count > 0 {
            guard loopsPlayable(players[slot], storage) else {
                retire(slot, at: time, now: now, ending: .finished)
                return
            }
            target %= storage.durationNanoseconds
        }
        players[slot].anchor = time
        players[slot].anchorPositionNanoseconds = target
        // Commands at or before the target are history: the last of them is the level in effect.
        let cursor = storage.cursor(afterNanoseconds: target)
        players[slot].cursor = cursor
        if cursor > 0 && !storage.commands![cursor - 1].command.isSilent {
            let inEffect = storage.commands![cursor - 1]
            if dropsStale(inEffect.command, player: slot, deadline: time, now: now) { return }
            players[slot].base = inEffect
            setLevel(slot, level(of: inEffect, for: slot), at: time, now: now)
        } else if !players[slot].level.isSilent {
            players[slot].base = nil
            setLevel(slot, .stop, at: time, now: now)
        }
    }

    @inline(__always)
    private func loopsPlayable(_ player: PlayerState, _ storage: ProgramStorage) -> Bool {
        player.loops && storage.loopEnd > 0 && storage.durationNanoseconds > 0
    }

    /// Re-anchors an active player at `time` so that a rate change applies from there on.
    ///
    /// A change dated before the player's anchor (its start, seek, wrap or previous change), which
    /// only a late submission can be, applies from the anchor: the commands since were played at the
    /// old rate, and going back would move the position backwards — over and over, for a caller
    /// alternating such changes, until it overflowed. So the position only grows, and never beyond
    /// the player's next command.
    func reanchor(_ slot: Int, at requested: MonotonicInstant) {
        let players = realtime.pointee.players
        let time = max(requested, players[slot].anchor)
        let elapsed = time.nanoseconds - players[slot].anchor.nanoseconds
        let rate = players[slot].rate
        let advanced = rate == 1 ? elapsed : Int64((Double(elapsed) * rate).rounded())
        players[slot].anchorPositionNanoseconds += advanced
        players[slot].anchor = time
    }

    /// The instant at which program time `programNanoseconds` (of the current iteration) plays.
    ///
    /// Cannot overflow: the anchor lies within `SchedulerLimits.instants` widened by the catch-up
    /// bound, the anchor position within the pass (0…duration: re-anchoring never goes back, and a
    /// wrap starts over), offsets within `SchedulerLimits.maximumProgramLength`, and the rate within
    /// 1/64…64 — all checked when submitted or loaded — so the sum stays below 2⁶³ by far.
    @inline(__always)
    private func deadline(_ player: PlayerState, atProgramNanoseconds programTime: Int64) -> MonotonicInstant {
        let distance = programTime - player.anchorPositionNanoseconds
        if player.rate == 1 { return player.anchor.advanced(by: distance) }
        return player.anchor.advanced(by: Int64((Double(distance) / player.rate).rounded()))
    }

    @inline(__always)
    private func nextEventTime(_ slot: Int) -> MonotonicInstant {
        let player = realtime.pointee.players[slot]
        let storage = programTable.entries[player.program]
        if player.cursor < storage.loopEnd {
            return deadline(player, atProgramNanoseconds: storage.commands![player.cursor].offsetNanoseconds)
        }
        if player.cursor == storage.loopEnd && loopsPlayable(player, storage) {
            return deadline(player, atProgramNanoseconds: storage.durationNanoseconds)
        }
        if player.cursor < storage.count {
            return deadline(player, atProgramNanoseconds: storage.commands![player.cursor].offsetNanoseconds)
        }
        return deadline(player, atProgramNanoseconds: storage.durationNanoseconds)
    }

    /// Performs the player's next event (due at `time`): a command, a loop wrap, or the end.
    private func advance(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        let storage = programTable.entries[players[slot].program]
        let cursor = players[slot].cursor
        if cursor == storage.loopEnd && loopsPlayable(players[slot], storage) {
            wrap(slot, at: time, now: now, durationNanoseconds: storage.durationNanoseconds)
            return
        }
        guard cursor < storage.count else {
            retire(slot, at: time, now: now, ending: .finished)
            return
        }
        let command = storage.commands![cursor]
        players[slot].cursor = cursor + 1
        if dropsStale(command.command, player: slot, deadline: time, now: now) { return }
        players[slot].base = command.command.isSilent ? nil : command
        setLevel(slot, level(of: command, for: slot), at: time, now: now)
    }

    /// Starts a looping player's next pass at `time`, its wrap deadline, re-anchored there: program
    /// positions stay within one pass however long the player loops, so they never overflow.
    ///
    /// A player so far behind that whole passes lie before `now` (a stall, or a start far in the
    /// past) skips them, instead of playing every one of them at once: the pass it resumes in is the
    /// one playing now. It never skips past a pending submission, which must see the pass it was
    /// meant for (a loop switched off there ends that pass).
    private func wrap(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant, durationNanoseconds duration: Int64) {
        defer { publish(slot) }
        let players = realtime.pointee.players
        players[slot].cursor = 0
        players[slot].anchorPositionNanoseconds = 0
        players[slot].anchor = time
        let state = realtime.pointee
        let horizon = state.pendingCount > 0 ? min(now, state.pending[state.pendingCount - 1].time) : now
        let pass = Double(duration) / players[slot].rate
        let behind = Double(horizon.nanoseconds - time.nanoseconds)
        guard behind >= pass else { return }
        let skipped = (behind / pass).rounded(.down)
        players[slot].anchor = time.advanced(by: Int64((skipped * pass).rounded(.down)))
    }

    /// Whether a `dropStale` channel drops this level command because it is too late (counted and
    /// traced). Silent commands are never dropped.
    @inline(__always)
    private func dropsStale(_ command: ActuatorCommand, player slot: Int, deadline: MonotonicInstant, now: MonotonicInstant) -> Bool {
        let channel = realtime.pointee.players[slot].channel
        guard let maximumLateness = channelTable.slots[channel].staleLimitNanoseconds,
              !command.isSilent, now.nanoseconds - deadline.nanoseconds > maximumLateness else { return false }
        counters.pointee.droppedStale.add(1, ordering: .relaxed)
        if traceRing.pointee.isOn.load(ordering: .relaxed) {
            trace(TraceRecord(event: .droppedStale, channel: Int32(channel), player: Int32(slot),
                              command: command, deadline: deadline, time: now,
                              sequence: realtime.pointee.traceSequence))
        }
        return true
    }

    /// Ends an active player at `time`. Its channel gets `.stop` when no other player plays there
    /// and the channel is not already silent (the engine-enforced stop), or the new mix otherwise.
    /// `ending` is how its start ended (reported when the start was tagged); `nil` for a pause.
    func retire(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant, ending: PlayerEnding.Reason? = .stopped) {
        defer { publish(slot) }
        if let ending { pushEnding(slot, ending, at: time) }
        let players = realtime.pointee.players
        let wasSounding = !players[slot].level.isSilent
        let channel = players[slot].channel
        players[slot].active = false
        players[slot].level = .stop
        players[slot].base = nil
        players[slot].cursor = 0
        if removeActive(slot) { realtime.pointee.channelStates[channel].activePlayerCount -= 1 }
        // Nothing reads the program for this slot any more.
        playerTable.programInUse[slot].store(-1, ordering: .releasing)

        if realtime.pointee.channelStates[channel].activePlayerCount > 0 {
            if wasSounding && isMixing(channel) { holds.performPlayersLevel(mixedLevel(channel), on: channel, player: slot, deadline: time, now: now) }
        } else if !realtime.pointee.channelStates[channel].silent {
            holds.performPlayersLevel(.stop, on: channel, player: slot, deadline: time, now: now)
        }
    }

    /// Takes `slot` off the active list; returns whether it was on it.
    private func removeActive(_ slot: Int) -> Bool {
        let active = realtime.pointee.activePlayers
        let count = realtime.pointee.activeCount
        guard let position = (0..<count).first(where: { active[$0] == slot }) else { return false }
        // Keeps start order (the mix takes the periodic waveform from the earliest player).
        if position + 1 < count { (active + position).update(from: active + position + 1, count: count - position - 1) }
        realtime.pointee.activeCount = count - 1
        return true
    }

    /// Stops every player without per-player output, removes every direct level (those queued for
    /// later too: a live sound feed's levels must not outlive a stop), then sends `.stop` to every
    /// channel.
    func stopEverything(at time: MonotonicInstant, now: MonotonicInstant) {
        withdrawMotorLevels(after: time)
        let players = realtime.pointee.players
        while realtime.pointee.activeCount > 0 {
            let slot = realtime.pointee.activePlayers[realtime.pointee.activeCount - 1]
            players[slot].active = false
            players[slot].level = .stop
            players[slot].base = nil
            players[slot].cursor = 0
            players[slot].idlePositionNanoseconds = 0
            playerTable.programInUse[slot].store(-1, ordering: .releasing)
            realtime.pointee.activeCount -= 1
            pushEnding(slot, .stopped, at: time)
            publish(slot)
        }
        endPausedPlayers(at: time)
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

    // MARK: Levels

    /// The player's command after its dynamic parameters.
    @inline(__always)
    func level(of command: TimedCommand, for slot: Int) -> ActuatorCommand {
        level(of: command, for: slot, intensityScale: realtime.pointee.players[slot].intensityScale)
    }

    /// `command` as the player in `slot` plays it at the intensity factor `intensityScale`.
    @inline(__always)
    func level(of command: TimedCommand, for slot: Int, intensityScale: Float) -> ActuatorCommand {
        let player = realtime.pointee.players[slot]
        // The profile's own first check, made before reading the profile (which copies it).
        if command.command.isSilent || (intensityScale == 1 && player.sharpnessShift == 0) { return command.command }
        return channelTable.slots[player.channel].profile.command(command, intensityScale: intensityScale,
                                                        sharpnessShift: player.sharpnessShift)
    }

    /// Re-maps the level a playing player holds after a parameter change.
    func remapLevel(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        guard players[slot].active, let base = players[slot].base else { return }
        setLevel(slot, level(of: base, for: slot), at: time, now: now)
    }

    @inline(__always)
    private func setLevel(_ slot: Int, _ level: ActuatorCommand, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        players[slot].level = level
        let channel = players[slot].channel
        guard isMixing(channel) else {
            holds.performPlayersLevel(level, on: channel, player: slot, deadline: time, now: now)
            return
        }
        // The mix of one player is its level.
        let alone = players[slot].active && realtime.pointee.channelStates[channel].activePlayerCount == 1
        holds.performPlayersLevel(alone ? (level.isSilent ? .stop : level) : mixedLevel(channel), on: channel, player: slot, deadline: time, now: now)
    }

    @inline(__always)
    private func isMixing(_ channel: Int) -> Bool {
        if case .mix = channelTable.slots[channel].policy { return true }
        return false
    }

    /// The sum of the levels of the channel's active players, saturating per motor; `.stop` when
    /// none sounds. Levels of another kind than the first sounding player's are left out.
    private func mixedLevel(_ channel: Int) -> ActuatorCommand {
        let players = realtime.pointee.players
        var mix: ActuatorCommand?
        for position in 0..<realtime.pointee.activeCount {
            let player = players[realtime.pointee.activePlayers[position]]
            guard player.channel == channel, !player.level.isSilent else { continue }
            guard let sum = mix else {
                mix = player.level
                continue
            }
            if let added = ActuatorCommand.saturatingSum(sum, player.level) { mix = added }
        }
        return mix ?? .stop
    }
}
