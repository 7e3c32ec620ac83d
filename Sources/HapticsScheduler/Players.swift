import Synchronization
import HapticsRendering
@_spi(Realtime) import HapticsSystem

/// Players as processing plays them: starts, seeks and rate changes, each program command at its
/// instant, loop wraps, stale drops, retirement, pause and resume, the endings and the progress
/// they publish, and the level each player asks its channel for (alone, or mixed on a `mix`
/// channel), handed to ``ChannelHolds``.
///
/// Processing side only: no allocation, no lock, no logging. Made once by the scheduler and held by
/// it, not generic over the clock: stored pointers into the processing state and the tables, and a
/// copy of the scheduler's ``ChannelHolds``. A final class, so that a call passes one reference and
/// its fields, all `let`, are loads the compiler may keep across the stores the rules make. (A
/// struct of the same fields was copied onto the stack for every call; one behind a pointer had its
/// fields read again after every store.)
final class Players {
    /// The player states, the active list and the channel states (``RealtimeState``).
    let realtime: UnsafeMutablePointer<RealtimeState>
    /// Loaded programs, by program id (``ProgramTable/entries``).
    let programs: UnsafeMutablePointer<ProgramStorage>
    /// Per player slot: its binding, the program it reads, its published progress (``PlayerTable``).
    let bindings: UnsafeMutablePointer<Atomic<Int>>
    let programInUse: UnsafeMutablePointer<Atomic<Int>>
    let publications: UnsafeMutablePointer<Atomic<Int64>>
    /// The player slots (`SchedulerConfiguration.maximumPlayers`).
    let playerCount: Int
    /// The channels' profiles and policies.
    let channelSlots: UnsafeMutablePointer<ChannelSlot>
    /// Where each player's level goes.
    let holds: ChannelHolds
    /// How tagged starts ended, for the control side.
    let endings: UnsafeMutablePointer<BoundedMPSCQueue<EndingRecord>>
    /// Where an ending pushed asks for its delivery (`nil`: the control side polls).
    let endingRequests: RunRequests?
    let counters: UnsafeMutablePointer<SchedulerCounters>
    let traceRing: UnsafeMutablePointer<TraceRing>

    init(realtime: UnsafeMutablePointer<RealtimeState>, programs: UnsafeMutablePointer<ProgramStorage>,
         bindings: UnsafeMutablePointer<Atomic<Int>>, programInUse: UnsafeMutablePointer<Atomic<Int>>,
         publications: UnsafeMutablePointer<Atomic<Int64>>, playerCount: Int,
         channelSlots: UnsafeMutablePointer<ChannelSlot>, holds: ChannelHolds,
         endings: UnsafeMutablePointer<BoundedMPSCQueue<EndingRecord>>, endingRequests: RunRequests?,
         counters: UnsafeMutablePointer<SchedulerCounters>,
         traceRing: UnsafeMutablePointer<TraceRing>) {
        self.realtime = realtime
        self.programs = programs
        self.bindings = bindings
        self.programInUse = programInUse
        self.publications = publications
        self.playerCount = playerCount
        self.channelSlots = channelSlots
        self.holds = holds
        self.endings = endings
        self.endingRequests = endingRequests
        self.counters = counters
        self.traceRing = traceRing
    }

    // MARK: Starts, seeks and program events

    /// Announces that processing reads `program` for the player in `slot`, then checks that the
    /// player is still bound with `generation`: either the control side sees the announcement and
    /// keeps the program, or this side sees the release, withdraws the announcement and returns
    /// `false`.
    @inline(__always)
    func announceProgram(_ program: Int, slot: Int, generation: UInt32) -> Bool {
        programInUse[slot].store(program, ordering: .sequentiallyConsistent)
        guard UInt32(truncatingIfNeeded: bindings[slot].load(ordering: .sequentiallyConsistent) >> 32) == generation else {
            programInUse[slot].store(-1, ordering: .releasing)
            return false
        }
        return true
    }

    /// Starts (or restarts) a player; a nonzero `tag` reports how this start ends. A restart ends
    /// the start before it as stopped.
    @inline(__always)
    func start(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant, tag: Int64) {
        let players = realtime.pointee.players
        if players[slot].active {
            pushEnding(slot, .stopped, at: time)
            players[slot].startTag = tag
            seek(slot, toNanoseconds: 0, at: time, now: now)
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

    func seek(_ slot: Int, toNanoseconds offset: Int64, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        let storage = programs[players[slot].program]
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
        let storage = programs[players[slot].program]
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
    func nextEventTime(_ slot: Int) -> MonotonicInstant {
        let player = realtime.pointee.players[slot]
        let storage = programs[player.program]
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
    func advance(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        let storage = programs[players[slot].program]
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
        guard let maximumLateness = channelSlots[channel].staleLimitNanoseconds,
              !command.isSilent, now.nanoseconds - deadline.nanoseconds > maximumLateness else { return false }
        counters.pointee.droppedStale.add(1, ordering: .relaxed)
        if traceRing.pointee.isOn.load(ordering: .relaxed) {
            traceRing.pointee.record(TraceRecord(event: .droppedStale, channel: Int32(channel), player: Int32(slot),
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
        programInUse[slot].store(-1, ordering: .releasing)

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
        return channelSlots[player.channel].profile.command(command, intensityScale: intensityScale,
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
        if case .mix = channelSlots[channel].policy { return true }
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

    // MARK: Stop, pause and resume

    /// Stops every player without per-player output (the channels are silenced after):
    /// every active player's start and every paused one's ends.
    func stopAll(at time: MonotonicInstant) {
        let players = realtime.pointee.players
        while realtime.pointee.activeCount > 0 {
            let slot = realtime.pointee.activePlayers[realtime.pointee.activeCount - 1]
            players[slot].active = false
            players[slot].level = .stop
            players[slot].base = nil
            players[slot].cursor = 0
            players[slot].idlePositionNanoseconds = 0
            programInUse[slot].store(-1, ordering: .releasing)
            realtime.pointee.activeCount -= 1
            pushEnding(slot, .stopped, at: time)
            publish(slot)
        }
        endPausedPlayers(at: time)
    }


    /// Silences an active player at `time` and keeps its position there; a player that is not
    /// playing pauses where its next start would begin.
    func pause(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        guard !players[slot].paused else { return }
        guard players[slot].active else {
            players[slot].paused = true
            return
        }
        reanchor(slot, at: time)
        let storage = programs[players[slot].program]
        var position = players[slot].anchorPositionNanoseconds
        if players[slot].loops && storage.durationNanoseconds > 0 { position %= storage.durationNanoseconds }
        position = min(position, storage.durationNanoseconds)
        retire(slot, at: time, now: now, ending: nil)
        players[slot].paused = true
        players[slot].idlePositionNanoseconds = position
    }

    /// Starts a paused player again from where it paused, with the start tag it paused with.
    func resume(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        guard players[slot].paused else { return }
        players[slot].paused = false
        start(slot, at: time, now: now, tag: players[slot].startTag)
    }

    /// Ends a paused player's start (stop, or a new start) as stopped.
    func endPause(_ slot: Int, at time: MonotonicInstant) {
        realtime.pointee.players[slot].paused = false
        pushEnding(slot, .stopped, at: time)
    }

    /// `stopAll`: every paused player's start ends too.
    func endPausedPlayers(at time: MonotonicInstant) {
        let players = realtime.pointee.players
        for slot in 0..<playerCount where players[slot].paused {
            endPause(slot, at: time)
            players[slot].idlePositionNanoseconds = 0
            publish(slot)
        }
    }

    // MARK: Endings

    /// Reports the end of the player's current start, once, when it was tagged.
    func pushEnding(_ slot: Int, _ reason: PlayerEnding.Reason, at time: MonotonicInstant) {
        let players = realtime.pointee.players
        let tag = players[slot].startTag
        guard tag != 0 else { return }
        players[slot].startTag = 0
        let record = EndingRecord(player: Int32(slot), generation: players[slot].generation, tag: tag, reason: reason.rawValue, time: time)
        if !endings.pointee.push(record) { counters.pointee.lostEndings.add(1, ordering: .relaxed) }
        // Delivered at once, by a thread that slept while the start played.
        endingRequests?.schedule(at: time)
    }

    // MARK: Progress

    /// Publishes the player's state, anchor, position, rate and duration for `progress(of:)`.
    @inline(__always)
    func publish(_ slot: Int) {
        let player = realtime.pointee.players[slot]
        let words = publications + slot * PlayerTable.publicationStride
        let state: Int64 = player.active ? 1 : player.paused ? 2 : 0
        let sequence = words[0].load(ordering: .relaxed)
        words[0].store(sequence &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        words[1].store(Int64(player.generation) << 8 | (player.loops ? 4 : 0) | state, ordering: .relaxed)
        words[2].store(player.anchor.nanoseconds, ordering: .relaxed)
        words[3].store(player.active ? player.anchorPositionNanoseconds : player.idlePositionNanoseconds, ordering: .relaxed)
        words[4].store(Int64(bitPattern: player.rate.bitPattern), ordering: .relaxed)
        // Only an active player holds its program (`programInUse`): a stopped or paused one may have
        // had it unloaded, and its position needs no duration.
        words[5].store(player.active ? programs[player.program].durationNanoseconds : 0, ordering: .relaxed)
        words[0].store(sequence &+ 2, ordering: .releasing)
    }
}
