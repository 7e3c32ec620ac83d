import HapticsPatterns
@_spi(Realtime) import HapticsSystem
import Synchronization

// A player's lifecycle, as callers see it: starts whose ending is reported, pause and resume,
// runtime curves in one submission, and the progress the realtime side publishes. Submissions
// here follow the rules of `Scheduler+Submission.swift`: any thread, lock-free, no allocation.
extension Scheduler {
    /// Starts `player` at `instant`, as ``start(_:at:)``, and, when `tag` is not 0, reports how
    /// this start ends: exactly one ``PlayerEnding`` with this tag, finished or stopped, waits in
    /// ``drainEndings(into:)`` once the realtime side has ended it. A start that is never applied
    /// (its player released first, or the realtime thread stopped before its instant) reports
    /// nothing. Returns `false` (and counts a drop) when the queue is full.
    @discardableResult
    package func start(_ player: PlayerID, at instant: MonotonicInstant, tag: Int64) -> Bool {
        submit(.start, player: player, at: instant, argument: tag, value: .nan)
    }

    /// Starts `player` at `instant` with `tag`, as ``start(_:at:tag:)``, at the intensity factor
    /// `intensity` (set as ``setParameter(_:_:value:at:)`` with `hapticIntensityControl` would,
    /// from the start on): one submission, as a play's start in an immediate group is
    /// (``start(_:at:tag:intensity:in:)``). Returns `false` (and counts a drop) when the queue is
    /// full.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `intensity` is NaN or
    ///   infinite; nothing is submitted.
    @discardableResult
    package func start(_ player: PlayerID, at instant: MonotonicInstant, tag: Int64, intensity: Double) throws(SchedulerError) -> Bool {
        guard intensity.isFinite else { throw .invalidParameterValue(.hapticIntensityControl, intensity) }
        return submit(.start, player: player, at: instant, argument: tag, value: intensity)
    }

    /// Pauses `player` at `instant`: its channel is silenced then (or gets the mix of the players
    /// still playing there) and the player keeps the program position it reached, rate aware, for
    /// ``resume(_:at:)``. Its start has not ended: nothing is reported. A player that is not playing
    /// is paused where its next start would begin. Returns `false` (and counts a drop) when the
    /// queue is full.
    @discardableResult
    package func pause(_ player: PlayerID, at instant: MonotonicInstant) -> Bool {
        submit(.pause, player: player, at: instant)
    }

    /// Resumes a paused `player` at `instant`, in phase: the position it paused at plays at
    /// `instant` (the level in effect there is sent at once), and its rate, loop switch, parameters
    /// and start tag are the ones it paused with. A player that is not paused is left alone.
    /// `stop` ends a paused player's start (reported as stopped); `start` restarts it from the
    /// beginning. Returns `false` (and counts a drop) when the queue is full.
    @discardableResult
    package func resume(_ player: PlayerID, at instant: MonotonicInstant) -> Bool {
        submit(.resume, player: player, at: instant)
    }

    /// Sends a runtime parameter curve to `player` as one submission: its control points are copied
    /// into preallocated curve space (`maximumCurves` curves of up to `maximumCurvePoints` points),
    /// and the realtime side interpolates them itself at every control tick of the player's channel
    /// (its profile's `controlInterval`, at least 1 ms), from the first point's instant to the
    /// last's, where the parameter keeps the last value. The curve's time 0 is at `origin` plus the
    /// curve's `time`; each value is multiplied by `scale` (an engine applies its gain so), then
    /// applied as ``setParameter(_:_:value:at:)`` would at that tick.
    ///
    /// One curve per parameter and player: a new intensity (or sharpness) curve replaces the one
    /// playing from its first point on. A plain `setParameter` in between holds until the next tick.
    /// Curves of parameters without effect here (audio ones) are checked and accepted, and submit
    /// nothing; so is a curve without points.
    ///
    /// Returns `false` when the queue is full (counted in `dropped`) or every curve slot is held
    /// (counted in `droppedCurves`); nothing is submitted then. Never blocks.
    ///
    /// - Throws: ``SchedulerError/curveTooLong(points:maximum:)``,
    ///   ``SchedulerError/curveOutOfOrder(index:)``, ``SchedulerError/curveTimeOutOfRange(seconds:)``
    ///   for a time outside 0…``SchedulerLimits/maximumProgramLength``, or
    ///   ``SchedulerError/invalidParameterValue(_:_:)`` for a value (or a scaled value, or the scale,
    ///   or a step between two points over their time span) that is not finite. Nothing is submitted.
    @discardableResult
    package func setCurve(
        _ player: PlayerID, _ curve: ParameterCurve, startingAt origin: MonotonicInstant, scale: Double = 1
    ) throws(SchedulerError) -> Bool {
        try validateCurve(curve, scale: scale)
        let kind: SchedulerCommand.Kind
        switch curve.id {
        case .hapticIntensityControl: kind = .intensityCurve
        case .hapticSharpnessControl: kind = .sharpnessCurve
        default: return true
        }
        let points = curve.controlPoints
        guard let first = points.first, let last = points.last else { return true }
        guard let slot = curves.pointee.claim() else {
            counters.pointee.droppedCurves.add(1, ordering: .relaxed)
            return false
        }
        let base = slot * curves.pointee.pointCapacity
        for (index, point) in points.enumerated() {
            curves.pointee.times[base + index] = point.time
            curves.pointee.values[base + index] = point.value
        }
        curves.pointee.counts[slot] = points.count
        let zero = SchedulerLimits.clamped(origin).advanced(by: Duration(patternSeconds: curve.time).nanoseconds)
        curves.pointee.origins[slot] = zero
        curves.pointee.ends[slot] = zero.advanced(by: Duration(patternSeconds: last.time).nanoseconds)
        let command = SchedulerCommand(
            kind: kind, player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
            time: zero.advanced(by: Duration(patternSeconds: first.time).nanoseconds), argument: Int64(slot), value: scale)
        guard push(command) else {
            curves.pointee.release(slot)
            return false
        }
        return true
    }

    /// Checks a curve against what ``setCurve(_:_:startingAt:scale:)`` accepts, and throws what it
    /// would throw; submits nothing. Any thread.
    package func validateCurve(_ curve: ParameterCurve, scale: Double = 1) throws(SchedulerError) {
        let points = curve.controlPoints
        guard points.count <= curves.pointee.pointCapacity else {
            throw .curveTooLong(points: points.count, maximum: curves.pointee.pointCapacity)
        }
        guard scale.isFinite else { throw .invalidParameterValue(curve.id, scale) }
        let limit = Double(SchedulerLimits.maximumProgramNanoseconds) / 1e9
        guard curve.time >= 0 && curve.time <= limit else { throw .curveTimeOutOfRange(seconds: curve.time) }
        for (index, point) in points.enumerated() {
            guard point.time >= 0 && point.time <= limit else { throw .curveTimeOutOfRange(seconds: point.time) }
            guard point.value.isFinite else { throw .invalidParameterValue(curve.id, point.value) }
            guard (point.value * scale).isFinite else { throw .invalidParameterValue(curve.id, point.value * scale) }
            guard index > 0 else { continue }
            let previous = points[index - 1]
            guard point.time >= previous.time else { throw .curveOutOfOrder(index: index) }
            // Interpolation multiplies the step by the time into the span before dividing: both
            // must stay finite for every value the realtime side computes to be finite.
            let step = (point.value - previous.value) * (point.time - previous.time)
            guard step.isFinite else { throw .invalidParameterValue(curve.id, step) }
        }
    }

    /// Where `player` is at `instant` (now when `nil`), from what the realtime side last published:
    /// a submission takes effect here once it is processed. `nil` for a released or unknown player.
    /// Any thread, no lock: a sequence-locked read of a few words that retries while the realtime
    /// side rewrites them.
    package func progress(of player: PlayerID, at instant: MonotonicInstant? = nil) -> PlayerProgress? {
        let index = player.index
        guard index < configuration.maximumPlayers else { return nil }
        let binding = playerTable.bindings[index].load(ordering: .acquiring)
        guard UInt32(truncatingIfNeeded: binding >> 32) == player.generation, player.generation & 1 == 1 else { return nil }
        let words = playerTable.publications + index * PlayerTable.publicationStride
        var state: Int64, anchor: Int64, position: Int64, rateBits: Int64, duration: Int64
        while true {
            let before = words[0].load(ordering: .acquiring)
            state = words[1].load(ordering: .relaxed)
            anchor = words[2].load(ordering: .relaxed)
            position = words[3].load(ordering: .relaxed)
            rateBits = words[4].load(ordering: .relaxed)
            duration = words[5].load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            if before & 1 == 0 && words[0].load(ordering: .relaxed) == before { break }
        }
        guard UInt32(truncatingIfNeeded: state >> 8) == player.generation else {
            // Bound, but not yet seen by the realtime side: a new player, stopped at 0.
            return PlayerProgress(state: .stopped, position: .zero, rate: 1)
        }
        let rate = Double(bitPattern: UInt64(bitPattern: rateBits))
        switch state & 3 {
        case 1:
            let now = SchedulerLimits.clamped(instant ?? currentTime()).nanoseconds
            let (elapsed, overflow) = now.subtractingReportingOverflow(anchor)
            let span = overflow ? Int64.max : max(0, elapsed)
            let advanced = rate == 1 ? min(span, 1 << 62) : Int64(min(Double(span) * rate, 0x1p62).rounded())
            var at = position + advanced
            if state & 4 != 0 && duration > 0 { at %= duration } else { at = min(at, duration) }
            return PlayerProgress(state: .playing, position: .nanoseconds(at), rate: rate)
        case 2:
            return PlayerProgress(state: .paused, position: .nanoseconds(position), rate: rate)
        default:
            return PlayerProgress(state: .stopped, position: .nanoseconds(position), rate: rate)
        }
    }

    /// Moves every ending reported since the last call into `endings` (in the order the realtime
    /// side ended them) and returns how many. Control side: the engine's housekeeping calls it, so
    /// that completion handlers never run on the realtime thread.
    @discardableResult
    package func drainEndings(into endings: inout [PlayerEnding]) -> Int {
        control.withLock { _ in
            var count = 0
            while let record = self.endings.pointee.pop() {
                endings.append(PlayerEnding(
                    player: PlayerID(index: Int(record.player), generation: record.generation), tag: record.tag,
                    reason: PlayerEnding.Reason(rawValue: record.reason) ?? .stopped, time: record.time))
                count += 1
            }
            return count
        }
    }
}
