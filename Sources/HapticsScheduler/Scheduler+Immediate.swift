import CHapticsSystem
import HapticsPatterns
@_spi(Realtime) import HapticsSystem

// The caller's pass: what a caller plays now is applied on its own thread by the pass the realtime
// thread runs — its first step as each submission arrives (`applyDueSubmissions`), the rest
// (`processPass`) at the group's end — when no other thread is processing; or, when one is, queued
// for the realtime thread, which is woken. Two routes; one place where a level is written
// (`ChannelHolds.performLevel`).
// Processing stays one thread at a time, whoever owns `processing`, so every output keeps a single
// writer, and holds, stops, overlap policies, renewals and endings come out exactly as if the
// realtime thread had run the pass.
extension Scheduler {
    /// Opens an immediate group on the calling thread: takes processing when no other thread has
    /// it. Lock-free, never waits.
    ///
    /// Submit through ``start(_:at:tag:in:)``, ``start(_:at:tag:intensity:in:)``,
    /// ``setParameter(_:_:value:at:in:)`` and ``setMotorLevels(low:high:on:at:until:in:)`` with the
    /// group, then end it, exactly once and on the same thread, with ``endImmediateGroup(_:)``
    /// (processing stays taken until then).
    ///
    /// `now` is a reading of this scheduler's clock the caller took just before (its own, for the
    /// times it submits), or `nil` to read it here.
    package func beginImmediateGroup(now reading: MonotonicInstant? = nil) -> ImmediateGroup {
        guard beginProcessing() else { return ImmediateGroup() }
        // Checked with processing owned: the realtime thread's last pass (which silences
        // everything) begins only after this group ends, or the group sees the flag.
        guard !immediateClosed.load(ordering: .sequentiallyConsistent) else {
            endProcessing(countsPass: false)
            return ImmediateGroup()
        }
        let now = reading ?? currentTime()
        return ImmediateGroup(owner: true, now: now, deadlineBefore: nextDeadline.load(ordering: .relaxed))
    }

    /// Ends an immediate group. When it owns processing: runs the rest of the pass on this thread —
    /// what the group submitted and everything else due has reached its outputs when this returns
    /// (a prepared trigger's one `write()` happened as it was submitted, when it was the first
    /// thing due) — moves the realtime thread's wake-up when the pass brought its next deadline
    /// forward (what is timed stays the realtime thread's), and lets processing go, counted as a
    /// completed pass. Otherwise wakes the realtime thread to take the queued submissions
    /// (``SchedulerStatistics/immediateFallbacks``).
    @discardableResult
    package func endImmediateGroup(_ group: ImmediateGroup) -> ImmediateProcessing {
        guard group.owner else {
            counters.pointee.immediateFallbacks.add(1, ordering: .relaxed)
            wakeRealtimeThread()
            return .leftToRealtimeThread
        }
        let next = processPass(now: group.now)
        // The parked realtime thread waits for the deadline it read (`deadlineBefore`): one sooner
        // moves its wake timer — no wake now, no context switch while the device driver still has
        // the trigger to send. Armed while this pass owns processing, so that arms follow the
        // order of the passes.
        if next < group.deadlineBefore { wake.bringForward(to: next) }
        // A realtime thread waiting for this pass takes processing from the kernel as it is let go.
        endProcessing()
        counters.pointee.immediatePasses.add(1, ordering: .relaxed)
        return .processedHere
    }

    /// Takes processing for the calling thread, if no other thread has it. Never waits.
    @inline(__always)
    func beginProcessing() -> Bool {
        owner.tryTake()
    }

    /// Ends the calling thread's processing; `countsPass`: as a completed pass (`processingMark()`).
    func endProcessing(countsPass: Bool = true) {
        if countsPass { completedPassCount.add(1, ordering: .releasing) }
        owner.give()
    }

    /// Takes processing for the calling thread, waiting — blocked, never spinning — while another
    /// thread owns it. The kernel lends the owner this thread's priority for as long as it waits
    /// (a priority-inheriting futex), so the realtime thread at `SCHED_FIFO` is never held up by a
    /// caller preempted in its pass by other work, and on the owner's release hands processing
    /// to this thread directly: a caller playing back to back cannot take it first again.
    func takeProcessing() {
        owner.take()
    }

    /// Whether some thread owns processing now.
    var isProcessingTaken: Bool { owner.value != 0 }
}

// Submissions in a group.
extension Scheduler {
    /// Starts `player` at `instant` as part of `group` (see ``start(_:at:tag:)`` for `tag`).
    /// Returns `false` (and counts a drop) when it had to be queued and the queue is full.
    @discardableResult
    package func start(_ player: PlayerID, at instant: MonotonicInstant, tag: Int64, in group: inout ImmediateGroup) -> Bool {
        submit(Self.startCommand(player, at: SchedulerLimits.clamped(instant), tag: tag), in: &group)
    }

    /// The start of `player` at `time` (clamped) with `tag`, at the intensity factor `intensity`
    /// (NaN: the factor the player has).
    @inline(__always)
    static func startCommand(_ player: PlayerID, at time: MonotonicInstant, tag: Int64, intensity: Double = .nan) -> SchedulerCommand {
        SchedulerCommand(kind: .start, player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
                         time: time, argument: tag, value: intensity)
    }

    /// Sets the intensity factor of `player` to `intensity` and starts it, both at `instant`, as
    /// part of `group`: one submission that does what ``setParameter(_:_:value:at:in:)`` with
    /// `hapticIntensityControl` followed by ``start(_:at:tag:in:)`` would, but for the level of
    /// the old position at the new intensity, which a restart never plays. Returns `false` (and
    /// counts a drop) when it had to be queued and the queue is full.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `intensity` is NaN or
    ///   infinite; nothing is submitted.
    @discardableResult
    package func start(
        _ player: PlayerID, at instant: MonotonicInstant, tag: Int64, intensity: Double, in group: inout ImmediateGroup
    ) throws(SchedulerError) -> Bool {
        guard intensity.isFinite else { throw .invalidParameterValue(.hapticIntensityControl, intensity) }
        return submit(Self.startCommand(player, at: SchedulerLimits.clamped(instant), tag: tag, intensity: intensity), in: &group)
    }

    /// Sets `channel`'s direct level from `instant` until `end` as part of `group`; levels,
    /// instants and errors as ``setMotorLevels(low:high:on:at:until:)``.
    @discardableResult
    package func setMotorLevels(
        low: Double, high: Double, on channel: ChannelID, at instant: MonotonicInstant, until end: MonotonicInstant,
        in group: inout ImmediateGroup
    ) throws(SchedulerError) -> Bool {
        try submit(motorLevelsCommand(low: low, high: high, on: channel, at: instant, until: end), in: &group)
    }

    /// Sets a dynamic parameter of `player` from `instant` on as part of `group`; values as
    /// ``setParameter(_:_:value:at:)``.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `value` is NaN or infinite;
    ///   nothing is submitted.
    @discardableResult
    package func setParameter(
        _ player: PlayerID, _ id: DynamicParameterID, value: Double, at instant: MonotonicInstant, in group: inout ImmediateGroup
    ) throws(SchedulerError) -> Bool {
        guard value.isFinite else { throw .invalidParameterValue(id, value) }
        return submit(SchedulerCommand(
            kind: Self.parameterKind(id), player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
            time: SchedulerLimits.clamped(instant), argument: 0, value: value), in: &group)
    }

    /// With processing owned, hands `submitted` to the group's pass as the pass takes a queued
    /// submission (``takeSubmission(_:now:)``) and takes the pass's first step at once
    /// (``applyDueSubmissions(now:)``); otherwise, or when the pass's list is full, queues it
    /// without waking the realtime thread (the group's end does).
    @inline(__always)
    private func submit(_ submitted: SchedulerCommand, in group: inout ImmediateGroup) -> Bool {
        guard group.owner, realtime.pointee.pendingCount < realtime.pointee.pendingCapacity else {
            return push(submitted, wakingRealtimeThread: false)
        }
        var command = submitted
        var taken = group.now
        if traceRing.pointee.isOn.load(ordering: .relaxed) {
            let began = currentTime()
            command.sequence = makeTraceSequence()
            taken = currentTime()
            trace(TraceRecord(event: .submitted, channel: -1, player: command.player, command: .stop,
                              deadline: command.time, time: taken, began: began, sequence: command.sequence))
        }
        counters.pointee.submitted.add(1, ordering: .relaxed)
        // Traced, `dequeued` is dated when it is taken, not before its `submitted`.
        takeSubmission(command, now: taken)
        applyDueSubmissions(now: group.now)
        return true
    }
}

/// An open immediate group (``Scheduler/beginImmediateGroup(now:)``): a plain value on the
/// caller's stack, which only the thread that opened it may pass to the scheduler, and must end.
package struct ImmediateGroup: Sendable {
    /// Whether the group owns processing: its end runs the pass on the calling thread.
    package let owner: Bool
    /// The clock reading the group began at.
    let now: MonotonicInstant
    /// The next deadline when the group began: a sooner one after its pass moves the realtime
    /// thread's wake-up.
    let deadlineBefore: MonotonicInstant

    init(owner: Bool = false, now: MonotonicInstant = MonotonicInstant(nanoseconds: 0), deadlineBefore: MonotonicInstant = .max) {
        self.owner = owner
        self.now = now
        self.deadlineBefore = deadlineBefore
    }
}

/// Where an immediate group (``Scheduler/endImmediateGroup(_:)``) left the work.
package enum ImmediateProcessing: Sendable, Hashable {
    /// The pass ran on the calling thread: what was due has reached its outputs.
    case processedHere
    /// Another thread was processing (or the realtime thread had been stopped): the realtime
    /// thread takes the work on its next pass.
    case leftToRealtimeThread
}
