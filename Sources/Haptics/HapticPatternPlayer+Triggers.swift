import HapticsPatterns
import HapticsSystem

// A pattern's adaptive trigger effects (`Pattern.triggerEvents`, the AHAP extension
// `DualSenseTriggers`) follow the pattern's timeline on the player's pads: each pass sets its
// effects at their times (scaled by the playback rate), a looping player repeats them on every
// pass, and where the haptics end the triggers go off (unless a trigger event comes at or after
// that end: then the last effect holds until the player stops). A stop, pause, seek or rate change
// sets them off at its instant and drops the effects still to come, until the next start: the
// pattern's effects never outlive the haptics they go with. A start drops what an earlier start
// (or any other call) left waiting on its pads from its onset on.
extension HapticPatternPlayer {
    /// How far ahead of a pass's start its effects are handed to the pads' writers: two housekeeping
    /// intervals (the timer may fire up to one interval late, and the pass must still be queued by
    /// the next one).
    var triggerPassHorizon: Duration {
        max(engine.configuration.housekeepingInterval, .milliseconds(1)) * 2
    }

    /// The player's pads that have adaptive triggers.
    func triggerDevices() -> [HapticDevice] {
        let channels = Set(outputs.map(\.channel))
        let ids = engine.channelDevices.withLock { devices in devices.filter { channels.contains($0.channel) }.map(\.deviceID) }
        return ids.compactMap { engine.device($0) }.filter(\.hasAdaptiveTriggers)
    }

    /// Starts the pattern's trigger effects for a start felt at `onset` at `rate` on the timeline of
    /// `program` (the first output that plays), when the engine lets triggers play; what an earlier
    /// start still had to set is dropped. A pad whose triggers cannot be opened plays the pattern
    /// without them (`HapticEngine.setTriggerEffects` says why). Under the timeline lock.
    func startTriggerPasses(_ state: inout LoopTimeline, onset: MonotonicInstant, length: Duration, leadTime: Duration) {
        state.triggerPasses = nil
        guard !pattern.triggerEvents.isEmpty, engine.triggerSilenceReason() == nil else { return }
        let passes = LoopTimeline.Passes(onset: onset, length: length, leadTime: leadTime, scheduled: 0, player: -1, rate: state.rate)
        for device in triggerDevices() { engine.triggers.drop(device.id, from: onset) }
        state.ownsTriggers = true
        guard queueTriggerPass(beginning: onset, rate: state.rate) else { return }
        state.triggerPasses = passes
        renewTriggerPasses(&state)
        // The passes still to come are housekeeping's to hand over (``needsWatching``).
        if state.triggerPasses != nil { engine.requestHousekeeping() }
    }

    /// Hands every pass that begins within the horizon to the pads while the player loops there;
    /// where it does not, the pattern ends and its effects with it. Once the scheduler has passed
    /// that wrap, no pass follows. Under the timeline lock; control side.
    func renewTriggerPasses(_ state: inout LoopTimeline) {
        guard var passes = state.triggerPasses else { return }
        defer { if state.triggerPasses != nil { state.triggerPasses = passes } }
        // Stopping the engine, turning haptics off or the app going inactive set the triggers off
        // and dropped what waited: no pass follows.
        guard engine.triggerSilenceReason() == nil else {
            state.triggerPasses = nil
            return
        }
        let now = engine.scheduler.currentTime()
        let horizon = now + triggerPassHorizon
        for _ in 0..<Self.maximumPassesPerRenewal {
            let pass = passes.scheduled + 1
            let begins = passes.start(of: pass)
            guard begins <= horizon else { return }
            let wraps = passes.wrap(into: pass)
            guard state.loops(at: wraps) else {
                // The pattern ends where this pass would begin. The loop switch may still turn on
                // before the scheduler reaches the wrap (the pass is queued then, after this end);
                // once it has, nothing follows.
                let ends = endsWithHaptics(passLength: passes.length)
                if passes.ended < pass {
                    if ends { stopTriggers(at: begins) }
                    passes.ended = pass
                }
                if wraps <= now {
                    state.triggerPasses = nil
                    // Ended with the haptics; a held effect stays the player's until it stops.
                    if ends { state.ownsTriggers = false }
                }
                return
            }
            guard queueTriggerPass(beginning: begins, rate: passes.rate) else {
                state.triggerPasses = nil
                return
            }
            passes.scheduled = pass
            passes.ended = pass
        }
    }

    /// Whether the pattern's trigger effects end where a pass of `passLength` ends: every trigger
    /// event comes before it.
    private func endsWithHaptics(passLength: Duration) -> Bool {
        let last = pattern.triggerEvents.map(\.time).max() ?? 0
        return Int64((last * 1e9).rounded()) < passLength.nanoseconds
    }

    /// Queues the pattern's effects of the pass beginning at `begins` on every pad with adaptive
    /// triggers. `false` when a pad refused one (its writer's queue is full, or it was lost): the
    /// pass is cut short there and no pass follows.
    private func queueTriggerPass(beginning begins: MonotonicInstant, rate: Double) -> Bool {
        var complete = true
        for device in triggerDevices() where engine.triggerSilenceReason(on: device) == nil {
            let strength = engine.triggerStrength(on: device)
            for event in pattern.triggerEvents {
                let instant = begins + .nanoseconds(Int64((event.time / rate * 1e9).rounded()))
                do {
                    try engine.triggers.set(device, left: event.left, right: event.right, at: instant, strength: strength)
                } catch {
                    complete = false
                    break
                }
            }
        }
        return complete
    }

    /// Sets the player's pads' triggers off at `time` and drops what waits for later there.
    func stopTriggers(at time: MonotonicInstant) {
        for device in triggerDevices() { engine.triggers.stop(device.id, at: time) }
    }

    /// Ends the pattern's trigger effects at `time` (a stop; with `whilePassing`, a pause or a seek,
    /// which only end passes still to come): off then, nothing of this start follows.
    func endTriggerPasses(at time: MonotonicInstant, whilePassing: Bool) {
        guard !pattern.triggerEvents.isEmpty else { return }
        timeline.withLock { state in
            guard !whilePassing || state.triggerPasses != nil else { return }
            state.triggerPasses = nil
            state.ownsTriggers = false
            stopTriggers(at: time)
        }
    }

    /// Takes back the passes already queued whose wrap is at or after `time` (the loop switch
    /// turned off): the pattern ends where the first of them would begin. The timeline stays for
    /// the switch turning on again before that wrap.
    func withdrawTriggerPasses(_ state: inout LoopTimeline, from time: MonotonicInstant) {
        guard var passes = state.triggerPasses, passes.scheduled >= 1,
              let first = (1...passes.scheduled).first(where: { passes.wrap(into: $0) >= time }) else { return }
        let begins = passes.start(of: first)
        if endsWithHaptics(passLength: passes.length) {
            stopTriggers(at: begins)
        } else {
            for device in triggerDevices() { engine.triggers.drop(device.id, from: begins) }
        }
        passes.scheduled = first - 1
        passes.ended = first
        state.triggerPasses = passes
    }
}
