@_spi(Realtime) import HapticsSystem
import Synchronization

// The realtime side of players' lifecycles: pause and resume, endings, runtime curves, and the
// progress it publishes. Processing thread only; no allocation, no lock, no logging.
extension Scheduler {
    // MARK: Pause and resume

    /// Silences an active player at `time` and keeps its position there; a player that is not
    /// playing pauses where its next start would begin.
    func pausePlayer(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        guard !players[slot].paused else { return }
        guard players[slot].active else {
            players[slot].paused = true
            return
        }
        reanchor(slot, at: time)
        let storage = programTable.entries[players[slot].program]
        var position = players[slot].anchorPositionNanoseconds
        if players[slot].loops && storage.durationNanoseconds > 0 { position %= storage.durationNanoseconds }
        position = min(position, storage.durationNanoseconds)
        retire(slot, at: time, now: now, ending: nil)
        players[slot].paused = true
        players[slot].idlePositionNanoseconds = position
    }

    /// Starts a paused player again from where it paused, with the start tag it paused with.
    func resumePlayer(_ slot: Int, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        guard players[slot].paused else { return }
        players[slot].paused = false
        startPlayer(slot, at: time, now: now, tag: players[slot].startTag)
    }

    /// Ends a paused player's start (stop, or a new start) as stopped.
    func endPause(_ slot: Int, at time: MonotonicInstant) {
        realtime.pointee.players[slot].paused = false
        pushEnding(slot, .stopped, at: time)
    }

    /// `stopAll`: every paused player's start ends too.
    func endPausedPlayers(at time: MonotonicInstant) {
        let players = realtime.pointee.players
        for slot in 0..<configuration.maximumPlayers where players[slot].paused {
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
        if !endings.push(record) { counters.pointee.lostEndings.add(1, ordering: .relaxed) }
    }

    // MARK: Progress

    /// Publishes the player's state, anchor, position, rate and duration for `progress(of:)`.
    @inline(__always)
    func publish(_ slot: Int) {
        let player = realtime.pointee.players[slot]
        let words = playerTable.publications + slot * PlayerTable.publicationStride
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
        words[5].store(player.active ? programTable.entries[player.program].durationNanoseconds : 0, ordering: .relaxed)
        words[0].store(sequence &+ 2, ordering: .releasing)
    }

    // MARK: Curves

    /// Binds a submitted curve to its player and applies its first value at once.
    func bindCurve(_ slot: Int, _ command: SchedulerCommand, now: MonotonicInstant) {
        curvePlayers.bind(slot, command)
        curvePlayers.tick(slot, intensity: command.kind == .intensityCurve, at: command.time, now: now)
        remapLevel(slot, at: command.time, now: now)
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
            remapLevel(slot, at: time, now: now)
        }
        if curvePlayers.isDue(slot, intensity: false, at: time) {
            curvePlayers.tick(slot, intensity: false, at: time, now: now)
            remapLevel(slot, at: time, now: now)
        }
    }
}
