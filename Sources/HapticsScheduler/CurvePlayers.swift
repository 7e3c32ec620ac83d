@_spi(Realtime) import HapticsSystem

/// Runtime curves as players play them: a submitted curve bound to its player, the next control
/// tick of any of them, a tick's value set as the player's intensity or sharpness, and curves given
/// back to the ``CurveTable`` when they have played out, are replaced, or their player goes.
///
/// A tick changes the player's parameters only: the scheduler's pass re-maps the player's level
/// after each one (``Scheduler/tickCurves(_:at:now:)``).
///
/// Processing side only: no allocation, no lock, no logging. Made once by the scheduler and stored
/// in it; a plain value of stored pointers into the processing state, the curve table and the
/// channel table.
struct CurvePlayers {
    /// The players, and the list of those with a curve bound (`curvePlayers`, `dueCurves`).
    let realtime: UnsafeMutablePointer<RealtimeState>
    let table: UnsafeMutablePointer<CurveTable>
    /// The channels' profiles: a curve ticks at its player's channel's control interval.
    let channelSlots: UnsafeMutablePointer<ChannelSlot>

    /// Binds a submitted curve to its player, replacing the one it had for that parameter. The
    /// caller ticks it at the command's time for its first value.
    func bind(_ slot: Int, _ command: SchedulerCommand) {
        let players = realtime.pointee.players
        let intensity = command.kind == .intensityCurve
        let held = players[slot].intensityCurve.isBound || players[slot].sharpnessCurve.isBound
        let previous = intensity ? players[slot].intensityCurve : players[slot].sharpnessCurve
        if previous.isBound { table.pointee.release(previous.slot) }
        if !held {
            realtime.pointee.curvePlayers[realtime.pointee.curvePlayerCount] = slot
            realtime.pointee.curvePlayerCount += 1
        }
        let interval = channelSlots[players[slot].channel].profile.controlInterval.nanoseconds
        let playback = CurvePlayback(
            slot: command.curveSlot, next: command.time, stepNanoseconds: max(interval, 1_000_000), cursor: 0,
            scale: command.value)
        if intensity { players[slot].intensityCurve = playback } else { players[slot].sharpnessCurve = playback }
    }

    /// The earliest control tick of any bound curve (`.max` when none), and how many players
    /// have a curve due then, listed in `dueCurves` in the order of `curvePlayers`.
    func nextTick() -> (time: MonotonicInstant, count: Int) {
        let state = realtime.pointee
        var time = MonotonicInstant.max
        var count = 0
        for position in 0..<state.curvePlayerCount {
            let slot = state.curvePlayers[position]
            let intensity = state.players[slot].intensityCurve
            let sharpness = state.players[slot].sharpnessCurve
            var next = MonotonicInstant.max
            if intensity.isBound { next = intensity.next }
            if sharpness.isBound && sharpness.next < next { next = sharpness.next }
            if next < time {
                time = next
                count = 0
            }
            if next == time && next != .max {
                state.dueCurves[count] = slot
                count += 1
            }
        }
        return (time, count)
    }

    /// Whether the player's intensity curve (or sharpness curve) has its tick at `time`.
    @inline(__always)
    func isDue(_ slot: Int, intensity: Bool, at time: MonotonicInstant) -> Bool {
        let curve = intensity ? realtime.pointee.players[slot].intensityCurve : realtime.pointee.players[slot].sharpnessCurve
        return curve.isBound && curve.next == time
    }

    /// Sets the curve's value at `time` as the player's parameter (as a `setParameter` would), then
    /// schedules its next tick one control interval on (never before `now`: a late pass catches up
    /// in one step, not tick by tick), or gives the curve back at its last point.
    @inline(__always)
    func tick(_ slot: Int, intensity: Bool, at time: MonotonicInstant, now: MonotonicInstant) {
        let players = realtime.pointee.players
        var curve = intensity ? players[slot].intensityCurve : players[slot].sharpnessCurve
        let seconds = Double(time.nanoseconds - table.pointee.origins[curve.slot].nanoseconds) / 1e9
        let value = table.pointee.value(curve.slot, atSeconds: seconds, cursor: &curve.cursor) * curve.scale
        if intensity {
            players[slot].intensityScale = PlayerState.intensityFactor(value)
        } else {
            players[slot].sharpnessShift = Float(value)
        }
        let end = table.pointee.ends[curve.slot]
        if time >= end {
            table.pointee.release(curve.slot)
            curve = CurvePlayback()
        } else {
            curve.next = min(max(time.advanced(by: curve.stepNanoseconds), now), end)
        }
        if intensity { players[slot].intensityCurve = curve } else { players[slot].sharpnessCurve = curve }
        if !players[slot].intensityCurve.isBound && !players[slot].sharpnessCurve.isBound { remove(slot) }
    }

    /// Gives back the player's curves (its parameters keep the values they reached).
    func release(player slot: Int) {
        let players = realtime.pointee.players
        guard players[slot].intensityCurve.isBound || players[slot].sharpnessCurve.isBound else { return }
        if players[slot].intensityCurve.isBound { table.pointee.release(players[slot].intensityCurve.slot) }
        if players[slot].sharpnessCurve.isBound { table.pointee.release(players[slot].sharpnessCurve.slot) }
        players[slot].intensityCurve = CurvePlayback()
        players[slot].sharpnessCurve = CurvePlayback()
        remove(slot)
    }

    /// Gives back every bound curve (the realtime thread is stopping).
    func releaseAll() {
        while realtime.pointee.curvePlayerCount > 0 {
            release(player: realtime.pointee.curvePlayers[realtime.pointee.curvePlayerCount - 1])
        }
    }

    /// Gives back the curve slot a curve submission carries (it is ignored or discarded).
    func release(carriedBy command: SchedulerCommand) {
        if command.kind == .intensityCurve || command.kind == .sharpnessCurve { table.pointee.release(command.curveSlot) }
    }

    /// Takes the player off the list of players with a curve bound.
    private func remove(_ slot: Int) {
        let list = realtime.pointee.curvePlayers
        let count = realtime.pointee.curvePlayerCount
        guard let position = (0..<count).first(where: { list[$0] == slot }) else { return }
        list[position] = list[count - 1]
        realtime.pointee.curvePlayerCount = count - 1
    }
}
