import CHapticsSystem
import HapticsRendering
import HapticsPatterns
import HapticsSystem

// Immediate processing: a caller plays what it submits in an immediate group from its own thread,
// when no other thread is processing, instead of waking the realtime thread and waiting for it to take the
// command. Processing stays one thread at a time — whoever owns `processing` — so every output
// keeps a single writer, and the pass is the realtime thread's own pass: holds, stops, overlap
// policies, renewals and endings come out exactly as if the realtime thread had run it.
extension Scheduler {
    /// A caller's pass, with processing owned: runs it, moves the
    /// realtime thread's wake-up when the pass brought the next deadline before `before` (the one
    /// it may be waiting for), and lets processing go.
    func finishImmediatePass(deadlineBefore before: Int64) {
        endCallersProcessing(next: processPass(), before: before, countsPass: true)
    }

    /// Ends a caller's processing (a pass, or a group's end that needed none) whose next deadline
    /// is `next`, counted as an immediate pass; `countsPass`: as a completed pass too.
    private func endCallersProcessing(next: Int64, before: Int64, countsPass: Bool) {
        // The parked realtime thread waits for the deadline it read (`before`, or `next` if it read
        // after this pass): one sooner moves its wake timer — no wake now, no context switch while
        // the device driver still has the trigger to send. Armed while this pass owns processing,
        // so that arms follow the order of the passes.
        if next < before { bringRealtimeDeadlineForward(to: next) }
        // A realtime thread waiting for this pass takes processing from the kernel as it is let go.
        endProcessing(countsPass: countsPass)
        immediatePassCount.add(1, ordering: .relaxed)
    }

    /// Takes processing for the calling thread, if no other thread has it. Never waits.
    @inline(__always)
    func beginProcessing() -> Bool {
        CHapticsSystem_ownershipTryTake(processingOwner) != 0
    }

    /// Ends the calling thread's processing, after checking the armed start against what it
    /// leaves; `countsPass`: as a completed pass (`processingMark()`).
    func endProcessing(countsPass: Bool = true) {
        refreshArm()
        if countsPass { completedPassCount.add(1, ordering: .releasing) }
        CHapticsSystem_ownershipGive(processingOwner)
    }

    /// Takes processing for the calling thread, waiting — blocked, never spinning — while another
    /// thread owns it. The kernel lends the owner this thread's priority for as long as it waits
    /// (a priority-inheriting futex), so the realtime thread at `SCHED_FIFO` is never held up by a
    /// caller preempted in its pass by other work, and on the owner's release hands processing
    /// to this thread directly: a caller playing back to back cannot take it first again.
    func takeProcessing() {
        // Fails only on a kernel without priority-inheriting futexes: look again shortly.
        while CHapticsSystem_ownershipTake(processingOwner) != 0 {
            _ = CHapticsSystem_sleepUntil(CHapticsSystem_monotonicNow() + 50_000)
        }
    }

    /// Whether some thread owns processing now.
    var isProcessingTaken: Bool { processingOwnerWord != 0 }

    /// Processing's owner word now: the owner's kernel thread id (with the kernel's waiters bit,
    /// `0x8000_0000`, while a thread waits for it), 0 when free.
    var processingOwnerWord: UInt32 { CHapticsSystem_ownershipWord(processingOwner) }
}

// Direct submissions: a caller that owns processing, finds the queue empty and nothing due before
// now, applies its own commands due now at once — no queue round trip, no sort, no scan — so a
// prepared level's `write()` is the first thing its call does after the checks. The bookkeeping pass
// (everything else due, the new player's next deadline, the realtime thread's wake-up) runs after
// the writes, still on the caller's thread and still owning processing.
extension Scheduler {
    /// Opens an immediate group on the calling thread: takes processing when no other thread has
    /// it, and decides whether the group's submissions due now may be applied directly (the queue
    /// is empty and nothing the scheduler holds is due before now). Lock-free, never waits.
    ///
    /// Submit through ``start(_:at:tag:in:)`` and ``setParameter(_:_:value:at:in:)`` with the
    /// group, then end it, exactly once and on the same thread, with ``endImmediateGroup(_:)``
    /// (processing stays taken until then).
    ///
    /// `now`, when given, is a reading of this scheduler's clock the caller took just before (its
    /// own, for the times it submits): the group applies its commands at it instead of reading the
    /// clock again. Something that became due after it comes after the group's commands, which
    /// are dated no later — the order time gives them.
    public func beginImmediateGroup(now reading: MonotonicInstant? = nil) -> ImmediateGroup {
        guard beginProcessing() else { return ImmediateGroup() }
        // Checked with processing owned: the realtime thread's last pass begins only after this
        // group ends, or the group sees the flag.
        guard !immediateClosed.load(ordering: .sequentiallyConsistent) else {
            endProcessing()
            return ImmediateGroup()
        }
        let now = (reading ?? clock.now()).nanoseconds
        let before = nextDeadline.load(ordering: .relaxed)
        // Everything the scheduler holds is due at `before` or later, and the queue is empty: what
        // is due now from this group comes first, as the next pass would apply it.
        let direct = before > now && !queue.hasPublishedElement
        return ImmediateGroup(owner: true, direct: direct, now: now, deadlineBefore: before)
    }

    /// Ends an immediate group: runs the bookkeeping pass on this thread (what was queued, what
    /// became due, the next deadline; the realtime thread's wake-up moved forward when it came
    /// sooner) and lets processing go — with no pass at all when every submission was applied
    /// directly and none of them made anything due yet: the next deadline is then known; or, when the group did not own processing, wakes the
    /// realtime thread to take the queued submissions (``SchedulerStatistics/immediateFallbacks``).
    @discardableResult
    public func endImmediateGroup(_ group: ImmediateGroup) -> ImmediateProcessing {
        guard group.owner else {
            immediateFallbackCount.add(1, ordering: .relaxed)
            wakeRealtimeThread()
            return .leftToRealtimeThread
        }
        // A pass is due anyway when one was asked for (``requestProcessingPass()``): a caller playing
        // back to back must not keep every pass uncounted. (A realtime thread waiting for this group
        // is handed processing as it ends, and runs its own.)
        guard group.direct, !group.queued, group.earliest > group.now,
              !passRequested.load(ordering: .relaxed) else {
            finishImmediatePass(deadlineBefore: group.deadlineBefore)
            return .processedHere
        }
        // Everything the group did was applied directly and added nothing due yet: the next
        // deadline is the earlier of the one before and the group's own, with no pass to run. Not
        // counted as a completed pass (`processingMark()`): it did not look at released players.
        let next = min(group.deadlineBefore, group.earliest)
        nextDeadline.store(next, ordering: .sequentiallyConsistent)
        endCallersProcessing(next: next, before: group.deadlineBefore, countsPass: false)
        return .processedHere
    }

    /// Starts `player` at `instant` as part of `group`: applied at once (its first level written
    /// before this returns) when the group applies directly and `instant` is due; queued otherwise,
    /// for the group's bookkeeping pass or the realtime thread. Returns `false` (and counts a drop)
    /// when it had to be queued and the queue is full.
    @discardableResult
    public func start(_ player: PlayerID, at instant: MonotonicInstant, tag: Int64, in group: inout ImmediateGroup) -> Bool {
        submit(Self.startCommand(player, time: SchedulerLimits.clampedNanoseconds(instant), tag: tag), in: &group)
    }

    /// The start of `player` at `time` (nanoseconds, clamped) with `tag`.
    @inline(__always)
    static func startCommand(_ player: PlayerID, time: Int64, tag: Int64) -> SchedulerCommand {
        SchedulerCommand(kind: .start, player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
                         time: time, argument: tag, value: 0)
    }

    /// Sets the intensity factor of `player` to `intensity` and starts it, both at `instant`, as
    /// part of `group`: the same as ``setParameter(_:_:value:at:in:)`` with
    /// `hapticIntensityControl` followed by ``start(_:at:tag:in:)``, and applied at once under the
    /// same conditions. A player that is not playing has no level to re-map: applied directly, the
    /// two are then one claim of the player and one publication of its state (traced as two
    /// submissions, as always, when tracing is on). Returns `false` (and counts a drop) when a
    /// part had to be queued and the queue is full.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `intensity` is NaN or
    ///   infinite; nothing is submitted.
    @discardableResult
    public func start(
        _ player: PlayerID, at instant: MonotonicInstant, tag: Int64, intensity: Double, in group: inout ImmediateGroup
    ) throws(SchedulerError) -> Bool {
        guard intensity.isFinite else { throw .invalidParameterValue(.hapticIntensityControl, intensity) }
        return start(player, at: SchedulerLimits.clampedNanoseconds(instant), tag: tag, finiteIntensity: intensity, in: &group)
    }

    /// Starts `player` now, at `intensity`, from the calling thread: one start due now, applied as
    /// ``beginImmediateGroup(now:)``, ``start(_:at:tag:intensity:in:)`` and
    /// ``endImmediateGroup(_:)`` would apply it, in one call — a game's one-pad trigger, whose
    /// level is written before anything else of the start is done. `now` is a reading of this
    /// scheduler's clock taken just before. Returns `false` (and counts a drop) when it had to be
    /// queued and the queue is full.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `intensity` is NaN or
    ///   infinite; nothing is submitted.
    ///
    /// The start it applies becomes the armed start: until another `startNow` applies another one,
    /// whoever owns processing checks, before letting it go, whether that start would be written
    /// ahead now, and at what level. The next `startNow` of the same player, at the same intensity,
    /// then only confirms what can change without processing (the realtime thread open, tracing
    /// off, the queue empty, nothing due, the player still bound) and writes
    /// (``SchedulerStatistics/armedStarts``); anything else takes the path above.
    @discardableResult
    public func startNow(_ player: PlayerID, tag: Int64, intensity: Double, now: MonotonicInstant) throws(SchedulerError) -> Bool {
        guard intensity.isFinite else { throw .invalidParameterValue(.hapticIntensityControl, intensity) }
        let time = SchedulerLimits.clampedNanoseconds(now)
        if time == now.nanoseconds && startArmed(player, tag: tag, intensity: intensity, now: time) { return true }
        var group = beginImmediateGroup(now: now)
        let accepted = start(player, at: time, tag: tag, finiteIntensity: intensity, in: &group)
        if group.owner {
            // Checked, and made ready or not, when processing is let go (`refreshArm`).
            realtime.pointee.armedSlot = Int(truncatingIfNeeded: player.index)
            realtime.pointee.armedGeneration = player.generation
            realtime.pointee.armedIntensity = Self.intensityFactor(intensity)
        }
        endImmediateGroup(group)
        return accepted
    }

    /// Plays the start of `player` due `now` from the armed start, when it is the armed start, the
    /// arm is ready and nothing that changes without processing got in the way: takes processing,
    /// writes the armed level, then applies the start as a direct group's would and ends the group.
    /// Returns `false`, having changed nothing, otherwise.
    @inline(__always)
    private func startArmed(_ player: PlayerID, tag: Int64, intensity: Double, now: Int64) -> Bool {
        let slot = Int(truncatingIfNeeded: player.index)
        let factor = Self.intensityFactor(intensity)
        guard beginProcessing() else { return false }
        let before = nextDeadline.load(ordering: .relaxed)
        // Nothing changed the armed player since the arm was checked: its channel and program are
        // the ones checked.
        let players = realtime.pointee.players
        guard realtime.pointee.armReady, realtime.pointee.armedSlot == slot,
              realtime.pointee.armedGeneration == player.generation, realtime.pointee.armedIntensity == factor,
              before > now, !queue.hasPublishedElement, !tracing.load(ordering: .relaxed),
              !immediateClosed.load(ordering: .sequentiallyConsistent),
              // As `writeLeadingLevel` does: the player still bound keeps its program loaded.
              announceProgram(players[slot].program, slot: slot, generation: player.generation)
        else {
            letProcessingGoUnchanged()
            return false
        }
        players[slot].intensityScale = factor
        performLeadingLevel(realtime.pointee.armedLevel, on: players[slot].channel, deadline: now, now: now)
        armedStartCount.add(1, ordering: .relaxed)
        var group = ImmediateGroup(owner: true, direct: true, now: now, deadlineBefore: before)
        applyDirectStart(Self.startCommand(player, time: now, tag: tag), leading: true, in: &group)
        endImmediateGroup(group)
        return true
    }

    /// Lets processing go after taking it for nothing (an armed start that did not apply): no pass
    /// ran, nothing changed, the arm holds.
    private func letProcessingGoUnchanged() {
        CHapticsSystem_ownershipGive(processingOwner)
    }

    /// Checks the armed start against the state this processing leaves (processing side, before
    /// processing is let go): ready when `writeLeadingLevel` would write its level ahead now, with
    /// that level at the armed intensity. Leaves its program unannounced: the player is not playing.
    func refreshArm() {
        let slot = realtime.pointee.armedSlot
        guard slot >= 0 else { return }
        realtime.pointee.armReady = false
        guard let (_, command) = leadingCommand(slot: slot, generation: realtime.pointee.armedGeneration) else { return }
        programInUse[slot].store(-1, ordering: .releasing)
        realtime.pointee.armedLevel = render(slot, command, intensityScale: realtime.pointee.armedIntensity)
        realtime.pointee.armReady = true
    }

    /// ``start(_:at:tag:intensity:in:)`` with the intensity checked and the time clamped.
    @inline(__always)
    private func start(_ player: PlayerID, at time: Int64, tag: Int64, finiteIntensity intensity: Double,
                       in group: inout ImmediateGroup) -> Bool {
        let slot = Int(truncatingIfNeeded: player.index)
        let start = Self.startCommand(player, time: time, tag: tag)
        guard group.direct, time <= group.now, time >= group.appliedUntil, !tracing.load(ordering: .relaxed),
              slot >= 0 && slot < configuration.maximumPlayers,
              realtime.pointee.players[slot].generation == player.generation,
              !realtime.pointee.players[slot].active, !realtime.pointee.players[slot].paused,
              UInt32(truncatingIfNeeded: playerBindings[slot].load(ordering: .acquiring) >> 32) == player.generation,
              player.generation & 1 == 1
        else {
            let parameter = SchedulerCommand(
                kind: .setIntensity, player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
                time: time, argument: 0, value: intensity)
            return submit(parameter, in: &group) && submit(start, in: &group)
        }
        // What applying the parameter would do to a player of this generation that is not
        // playing: its factor changes, nothing else does (its publication would not change).
        realtime.pointee.players[slot].intensityScale = Self.intensityFactor(intensity)
        // The start goes direct, untraced (the guard's checks are `submit`'s): its level is the
        // first thing written.
        let leading = time == group.now && writeLeadingLevel(start, now: group.now)
        applyDirectStart(start, leading: leading, in: &group)
        return true
    }

    /// The direct start `start`, its player's intensity factor set, after its level was written
    /// ahead (`leading`) or not: the start applied, the parameter counted after it.
    @inline(__always)
    private func applyDirectStart(_ start: SchedulerCommand, leading: Bool, in group: inout ImmediateGroup) {
        applyDirectly(start, leading: leading, in: &group)
        appliedCount.add(1, ordering: .relaxed)
        submittedCount.add(1, ordering: .relaxed)
        directSubmissionCount.add(1, ordering: .relaxed)
    }

    /// Sets `channel`'s direct level from `instant` until `end` as part of `group` (see
    /// ``start(_:at:tag:in:)`` for when it applies at once: a level due now is written before this
    /// returns); levels, instants and errors as ``setMotorLevels(low:high:on:at:until:)``.
    @discardableResult
    public func setMotorLevels(
        low: Double, high: Double, on channel: ChannelID, at instant: MonotonicInstant, until end: MonotonicInstant,
        in group: inout ImmediateGroup
    ) throws(SchedulerError) -> Bool {
        try submit(motorLevelsCommand(low: low, high: high, on: channel, at: instant, until: end), in: &group)
    }

    /// Sets a dynamic parameter of `player` from `instant` on as part of `group` (see
    /// ``start(_:at:tag:in:)`` for when it applies at once); values as ``setParameter(_:_:value:at:)``.
    ///
    /// - Throws: ``SchedulerError/invalidParameterValue(_:_:)`` when `value` is NaN or infinite;
    ///   nothing is submitted.
    @discardableResult
    public func setParameter(
        _ player: PlayerID, _ id: DynamicParameterID, value: Double, at instant: MonotonicInstant, in group: inout ImmediateGroup
    ) throws(SchedulerError) -> Bool {
        guard value.isFinite else { throw .invalidParameterValue(id, value) }
        return submit(SchedulerCommand(
            kind: Self.parameterKind(id), player: Int32(truncatingIfNeeded: player.index), generation: player.generation,
            time: SchedulerLimits.clampedNanoseconds(instant), argument: 0, value: value), in: &group)
    }

    /// Applies `submitted` now when the group applies directly, it is due, and it is not dated
    /// before the group's previous direct command; queues it otherwise (a command for later, or
    /// one that would break time order, which also ends direct application for the group).
    @inline(__always)
    private func submit(_ submitted: SchedulerCommand, in group: inout ImmediateGroup) -> Bool {
        guard group.direct, submitted.time <= group.now, submitted.time >= group.appliedUntil else {
            // A command due now that cannot come next in time order ends the group's direct
            // application: it and everything after it go in time order through the pass.
            if submitted.time <= group.now { group.direct = false }
            group.queued = true
            return push(submitted, wakingRealtimeThread: false)
        }
        var command = submitted
        let traced = tracing.load(ordering: .relaxed)
        // A start due right now on a silent channel: its first level is written first, and the
        // bookkeeping below (which emits exactly that level) only records it.
        let leading = !traced && command.kind == .start && command.time == group.now && writeLeadingLevel(command, now: group.now)
        if traced {
            let began = clock.now()
            command.sequence = makeTraceSequence()
            trace(TraceRecord(event: .submitted, channel: -1, player: command.player, command: .stop,
                              deadline: MonotonicInstant(nanoseconds: command.time), time: clock.now(),
                              began: began, sequence: command.sequence))
            // Taken by processing at once: the dequeued stage follows the submitted one.
            trace(TraceRecord(event: .dequeued, channel: -1, player: command.player, command: .stop,
                              deadline: MonotonicInstant(nanoseconds: command.time),
                              time: clock.now(), sequence: command.sequence))
        }
        applyDirectly(command, leading: leading, in: &group)
        return true
    }

    /// Applies `submitted`, due now and next in time order, as the group's direct command; `leading`
    /// when its first level has been written already (`writeLeadingLevel`).
    @inline(__always)
    private func applyDirectly(_ submitted: SchedulerCommand, leading: Bool, in group: inout ImmediateGroup) {
        var command = submitted
        submittedCount.add(1, ordering: .relaxed)
        directSubmissionCount.add(1, ordering: .relaxed)
        group.appliedUntil = command.time
        let earliest = group.now - SchedulerLimits.maximumCatchUpNanoseconds
        if command.time < earliest { command.time = earliest }
        apply(command, now: group.now)
        if leading && realtime.pointee.leadingChannel >= 0 { settleLeadingLevel(now: group.now) }
        group.earliest = min(group.earliest, eventsAfter(command))
    }

    /// Writes the first level of the direct start `command` (due at `now`) to its channel's output
    /// before anything else of the start is done, when the start's bookkeeping is known to emit
    /// exactly that level as the channel's first output: the player is claimed already (same
    /// generation), neither playing nor paused, at the program's beginning; the channel is silent,
    /// holds no direct level and has no playing player (nothing to retire, mix or stop first); the
    /// program's level at offset 0 sounds. Returns whether it wrote; `apply` then emits the level
    /// without performing it again (`output`), and `settleLeadingLevel` checks that it did.
    ///
    /// Same order of outputs, same levels, same deadlines as the pass; only the realtime state's
    /// updates (the player's start, its next deadline, the statistics) come after the write.
    /// Processing side (an immediate group's owner), untraced.
    @inline(__always)
    func writeLeadingLevel(_ command: SchedulerCommand, now: Int64) -> Bool {
        let slot = Int(command.player)
        guard let (channel, timed) = leadingCommand(slot: slot, generation: command.generation) else { return false }
        // Due now: never stale. Alone on its channel: the mix, and the combination with the (silent)
        // direct level, are this level.
        performLeadingLevel(render(slot, timed), on: channel, deadline: command.time, now: now)
        return true
    }

    /// The checks of a leading write: the channel of the player in `slot` and its program's
    /// command in effect at offset 0, when a start of that player (of `generation`) due now would
    /// emit that command's level as its channel's first output; `nil` otherwise. When it returns
    /// them, the program is announced as read (`programInUse`).
    @inline(__always)
    func leadingCommand(slot: Int, generation: UInt32) -> (channel: Int, command: TimedCommand)? {
        guard slot >= 0 && slot < configuration.maximumPlayers else { return nil }
        let players = realtime.pointee.players
        guard generation & 1 == 1, players[slot].generation == generation, !players[slot].active,
              !players[slot].paused, players[slot].idlePosition == 0 else { return nil }
        let channel = players[slot].channel
        let state = realtime.pointee.channelStates[channel]
        guard state.silent, state.direct.isSilent, state.playerLevel.isSilent, state.activePlayerCount == 0 else { return nil }
        // The program is read only after announcing it, as `startPlayer` does: either the control
        // side sees the announcement and keeps the program, or this side sees the release.
        let program = players[slot].program
        guard announceProgram(program, slot: slot, generation: generation) else { return nil }
        let storage = programs[program]
        // The level in effect at offset 0, as `place` finds it.
        guard storage.count > 0, storage.duration > 0, case let cursor = storage.cursor(after: 0), cursor > 0,
              !storage.commands![cursor - 1].command.isSilent else {
            programInUse[slot].store(-1, ordering: .releasing)
            return nil
        }
        return (channel, storage.commands![cursor - 1])
    }

    /// Writes `level`, the first level of a direct start, to `channel`'s output ahead of the
    /// start's bookkeeping, and remembers it for `settleLeadingLevel`.
    @inline(__always)
    private func performLeadingLevel(_ level: ActuatorCommand, on channel: Int, deadline: Int64, now: Int64) {
        ChannelSlot.perform(level, on: channels + channel, channel: channel, deadline: deadline, now: now)
        realtime.pointee.leadingChannel = channel
        realtime.pointee.leadingLevel = level
        leadingWriteCount.add(1, ordering: .relaxed)
    }

    /// After the bookkeeping of a start whose level was written ahead, when it did not emit that
    /// level (which the checks of `writeLeadingLevel` rule out; called only then): the output is
    /// told again what the channel holds, so that it never keeps a level the scheduler does not
    /// know of.
    @inline(never)
    func settleLeadingLevel(now: Int64) {
        let channel = realtime.pointee.leadingChannel
        realtime.pointee.leadingChannel = -1
        output(channel, player: -1, deadline: now, now: now)
    }
}

/// An open immediate group (``Scheduler/beginImmediateGroup()``): a plain value on the caller's
/// stack, which only the thread that opened it may pass to the scheduler, and must end.
public struct ImmediateGroup: Sendable {
    /// Whether the group owns processing (its end runs the pass).
    let owner: Bool
    /// Whether its submissions due now are applied directly.
    var direct: Bool
    /// The clock reading the group's direct commands are applied at.
    let now: Int64
    /// The next deadline when the group began: a sooner one after its pass moves the realtime
    /// thread's wake-up.
    let deadlineBefore: Int64
    /// The time of the latest direct command.
    var appliedUntil: Int64 = .min
    /// A lower bound of the earliest event the direct commands added (`eventsAfter`).
    var earliest: Int64 = .max
    /// Whether a submission of the group went through the queue.
    var queued = false

    init(owner: Bool = false, direct: Bool = false, now: Int64 = 0, deadlineBefore: Int64 = .max) {
        self.owner = owner
        self.direct = direct
        self.now = now
        self.deadlineBefore = deadlineBefore
    }

    /// Whether the group's submissions due now are applied at once, on the calling thread.
    public var appliesDirectly: Bool { direct }
}

/// Where an immediate group (``Scheduler/endImmediateGroup(_:)``) left the work.
public enum ImmediateProcessing: Sendable, Hashable {
    /// The pass ran on the calling thread: what was due has reached its outputs.
    case processedHere
    /// Another thread was processing (or the realtime thread had been stopped): the realtime
    /// thread takes the work on its next pass.
    case leftToRealtimeThread
}
