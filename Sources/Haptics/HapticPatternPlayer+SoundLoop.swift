import HapticsAudio
import HapticsScheduler
import HapticsSystem

extension HapticPatternPlayer {
    /// How far ahead of a pass's start its voices are handed to the audio output: two housekeeping
    /// intervals (the timer may fire up to one interval late, and the pass must still be queued by
    /// the next one) plus the output's `minimumLeadTime` (what it needs to place a voice on time).
    func soundLoopHorizon(_ audio: AudioOutput) -> Duration {
        max(engine.configuration.housekeepingInterval, .milliseconds(1)) * 2 + audio.minimumLeadTime
    }

    /// The most passes one renewal hands over, so a very short loop cannot flood the audio queue.
    static var maximumPassesPerRenewal: Int { 16 }

    /// Schedules the sound and the trigger effects of every loop pass that begins within their
    /// horizons. Control side (the housekeeping timer, and the control calls that change the
    /// loop); never the realtime or audio thread.
    func renewLoops() {
        timeline.withLock { state in
            renewSoundLoop(&state)
            renewTriggerPasses(&state)
            replayVoiceCoilsDue(&state)
        }
    }

    /// The sound half of `renewLoops()`, with the state already locked.
    func renewSoundLoop(_ state: inout LoopTimeline) {
        guard var passes = state.soundPasses else { return }
        defer { if state.soundPasses != nil { state.soundPasses = passes } }
        // Stopping the engine, turning haptics off or the app going inactive stopped the haptics
        // loop: no pass follows.
        guard engine.isRunning, engine.isEnabled, engine.isApplicationActive, let audio = engine.audioState.load() else {
            state.soundPasses = nil
            return
        }
        let now = engine.scheduler.currentTime()
        let horizon = now + soundLoopHorizon(audio.output)
        let earliest = now + audio.output.minimumLeadTime
        for _ in 0..<Self.maximumPassesPerRenewal {
            let pass = passes.scheduled + 1
            let begins = passes.start(of: pass)
            guard begins <= horizon else { return }
            let wraps = passes.wrap(into: pass)
            guard state.loops(at: wraps) else {
                // The switch may still turn on before the scheduler reaches the wrap; once it has,
                // the haptics ended there and so does the sound.
                if wraps <= now { state.soundPasses = nil }
                return
            }
            if begins < earliest {
                // Too late to be heard on time (housekeeping ran late): skip to the first pass that
                // can be, as long as the loop held over the ones skipped. A sound out of step with
                // its haptics is worse than none.
                let behind = (earliest - passes.onset).nanoseconds
                let length = passes.length.nanoseconds
                let first = Int((behind + length - 1) / length)
                guard state.loops(at: passes.wrap(into: first - 1)) else {
                    state.soundPasses = nil
                    return
                }
                passes.scheduled = first - 1
                continue
            }
            let sound = engine.soundState(requested: true)
            if sound.reason == .muted {
                // Muted: nothing is scheduled, but the timeline goes on for when the sound returns.
                passes.scheduled = pass
                continue
            }
            guard sound.reason == nil else {
                state.soundPasses = nil
                return
            }
            let placed = voices(sampleRate: audio.sampleRate)
            let queued = scheduleSound(placed, on: audio.output, patternStart: begins, calledAt: now,
                                       player: passes.player, wholePass: true)
            guard queued.refusal == nil else {
                // A partial pass would be out of step with itself; the ones already queued this
                // pass are cancelled and the sound stops repeating.
                cancelSound(on: audio.output, at: begins)
                state.soundPasses = nil
                return
            }
            passes.scheduled = pass
        }
    }

    /// Takes back the passes already queued whose wrap is at or after `time` (the cancellation,
    /// at the first one's start, fades whatever of this player's sound still plays then) and
    /// schedules no more. `keepingTimeline` keeps the passes for a later renewal (the loop switch
    /// may turn on again before the wrap).
    func withdrawSoundPasses(_ state: inout LoopTimeline, from time: MonotonicInstant, keepingTimeline: Bool) {
        guard var passes = state.soundPasses else { return }
        if passes.scheduled >= 1, let audio = engine.audioState.load() {
            let first = (1...passes.scheduled).first { passes.wrap(into: $0) >= time }
            if let first {
                cancelSound(on: audio.output, at: passes.start(of: first))
                passes.scheduled = first - 1
            }
        }
        state.soundPasses = keepingTimeline ? passes : nil
    }
}
