import HapticsPatterns
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// Plays a vocabulary item: as soon as the devices allow, or with its felt onset at `feltAt`.
    ///
    /// The item's program is already loaded; this never blocks. A play due now is written to the
    /// devices from the calling thread before this returns — each device's start applied the
    /// moment it is submitted, a prepared item's one `write()` per device first, the bookkeeping
    /// after — unless another thread is processing at that moment, when its two lock-free
    /// submissions per device (intensity, start) wait for the realtime thread; what is timed (the
    /// item's later steps and its stop, a later `feltAt`) stays with the realtime thread
    /// (`Scheduler.beginImmediateGroup()`).
    ///
    /// An impact's intensity is clamped to 0…1 and played in steps of `intensityStep` (1/16,
    /// nearest; 0.7 plays as 0.6875), so that a prepared impact is one `write()` at any intensity
    /// (see `prepare(_:)`); a NaN or infinite one is refused with
    /// `.notPlayed(.invalidIntensity)`. A `feltAt` sooner than the devices can make is moved to the
    /// earliest they can (the outcome says when); one more than `schedulingHorizon` (one hour)
    /// ahead is refused with `.notPlayed(.onsetOutOfRange)`.
    @discardableResult
    public func play(_ feedback: Feedback, feltAt: MonotonicInstant? = nil) -> PlaybackOutcome {
        play(feedback, withSound: false, at: feltAt).haptics
    }

    /// Plays a vocabulary item on the selected devices only (player 2's pad: `on: [pad]`), as
    /// `play(_:feltAt:)` does on all; as lock-free and allocation-free. `.notPlayed(.noDevice)` when
    /// none of them is plugged in, `.notPlayed(.disabled)` when all of them are switched off.
    @discardableResult
    public func play(_ feedback: Feedback, on devices: DeviceSelection, feltAt: MonotonicInstant? = nil) -> PlaybackOutcome {
        play(feedback, withSound: false, at: feltAt, on: devices).haptics
    }

    /// Plays a vocabulary item on one device; see `play(_:on:feltAt:)`.
    @discardableResult
    public func play(_ feedback: Feedback, on device: HapticDevice, feltAt: MonotonicInstant? = nil) -> PlaybackOutcome {
        play(feedback, on: DeviceSelection(device), feltAt: feltAt)
    }

    /// Plays a vocabulary item with its sound cue: felt and heard at the same instant `onset`, or
    /// as soon as both can make it (now + the larger of the longest actuator lead time and the
    /// audio output's `minimumLeadTime`).
    ///
    /// Each device starts early by its own lead time (its rise time) and the cue is queued to be
    /// audible at the onset. An impact's cue is heard at its intensity: the intensity is the cue's
    /// gain, in linear amplitude like a pattern's `AudioVolume` (0.5 halves every sample), so a
    /// feedback is as strong to the ear as to the hand. The engine's `gain` is the haptics' alone
    /// and does not change the sound. Sound that cannot play (not asked for, no audio output,
    /// muted, device lost, queue full) is left out of the timing, so it never delays or drops the
    /// haptic; the outcome says what happened to each half. Lock-free and allocation-free, like
    /// `play(_:feltAt:)`, which says what intensities and onsets are accepted; a refused one
    /// refuses both halves, for the same reason.
    ///
    /// `devices` chooses where the haptic half plays (all devices by default); the sound plays
    /// once, on the engine's audio output.
    @discardableResult
    public func play(_ feedback: Feedback, withSound: Bool, at onset: MonotonicInstant? = nil,
                     on devices: DeviceSelection = .all) -> PlaybackOutcome.WithSound {
        guard let entry = vocabularyEntry(for: feedback) else {
            return PlaybackOutcome.WithSound(haptics: .notPlayed(.unsupported), audio: .notPlayed(.noSound))
        }
        var intensity = 1.0
        if case let .impact(_, requested) = feedback { intensity = requested }
        return play(entry, intensity: intensity, at: onset, withSound: withSound, on: devices)
    }

    /// The loaded entry of a vocabulary item (impact intensity ignored).
    func vocabularyEntry(for feedback: Feedback) -> VocabularyEntry? {
        for entry in vocabulary where entry.feedback.sameItem(as: feedback) { return entry }
        return nil
    }

    /// Plays a vocabulary entry at `requestedIntensity` (clamped to 0…1, refused when not finite),
    /// felt at `requested` (as soon as possible when `nil` or sooner; refused beyond the horizon).
    func play(_ entry: VocabularyEntry, intensity requestedIntensity: Double, at requested: MonotonicInstant?, withSound: Bool,
              on devices: DeviceSelection = .all) -> PlaybackOutcome.WithSound {
        let now = scheduler.currentTime()
        if let refusal = Self.refusal(intensity: requestedIntensity, onset: requested, now: now) {
            return PlaybackOutcome.WithSound(haptics: .notPlayed(refusal.haptics),
                                             audio: .notPlayed(withSound ? refusal.audio : .notRequested))
        }
        let step = Self.steps(requestedIntensity)
        let intensity = min(max(requestedIntensity, 0), 1)
        let hapticReason = silenceReason(on: devices)
        let sound: (reason: AudioSilenceReason?, audio: EngineAudio?) =
            withSound ? soundState(requested: true) : (.notRequested, nil)
        // With one device, a play as soon as possible is felt that device's lead time from now: the
        // walk that submits it reads the lead, with no walk of the devices of its own first.
        let alone = hapticReason == nil && requested == nil && sound.audio == nil && roster.upperBound == 1
        var lead: Int64 = hapticReason == nil && !alone ? entry.maximumLeadTime(roster, devices: devices) : 0
        if let audio = sound.audio { lead = max(lead, audio.output.minimumLeadTime.nanoseconds) }
        // Every output starts early by its own lead time, so devices with different rise times are
        // felt together, and the sound is heard then too; an onset that can no longer be met moves
        // to the earliest possible one.
        let earliest = Self.earliestOnset(now: now, lead: lead)
        let onset = max(requested ?? earliest, earliest)
        // The haptic goes first: nothing the sound does can hold it up.
        let haptics = hapticReason.map(PlaybackOutcome.notPlayed)
            ?? submit(entry, step: step, feltAt: alone ? nil : onset, now: now, on: devices)
        let audio: AudioOutcome
        if let reason = sound.reason {
            audio = .notPlayed(reason)
        } else if let output = sound.audio {
            var refusal: AudioVoiceRefusal?
            do {
                try output.output.enqueue(output.cueVoices[entry.index], audibleAt: onset, gain: Float(intensity))
                recordAudible(at: onset, calledAt: now)
            } catch {
                refusal = error
            }
            audio = Self.audioOutcome(refusal: refusal, onset: onset)
        } else {
            audio = .notPlayed(.noAudioOutput)
        }
        return PlaybackOutcome.WithSound(haptics: haptics, audio: audio)
    }

    /// Submits the item's start on every live, enabled channel of `devices` so that it is felt at
    /// `feltAt` (`nil`: as soon as the first channel submitted can make it, its lead time from
    /// `now`), at the intensity `step` (of `intensityStep`), and remembers the step for the next
    /// `prepare()`.
    private func submit(_ entry: VocabularyEntry, step: Int, feltAt requestedFelt: MonotonicInstant?, now: MonotonicInstant,
                        on devices: DeviceSelection) -> PlaybackOutcome {
        var felt = requestedFelt
        let gain = self.gain
        if step > 0 { entry.lastIntensityStep.store(step, ordering: .relaxed) }
        var scheduled = false
        var reachedReal = false
        // Opened at the first playable channel: from there this thread owns processing (when no
        // other thread has it), and each start due now is applied at once — its level written —
        // before the next channel is looked at. The group's end runs the bookkeeping pass.
        var group: ImmediateGroup?
        // Lock-free walk over the channels published so far; a channel lost meanwhile is skipped,
        // and a submission that races its retirement names released players, which the scheduler
        // ignores. The snapshot keeps a slot read while the channel changed devices from being used.
        for channel in 0..<roster.upperBound {
            guard let found = entry.playable(on: channel, roster, devices: devices) else { continue }
            let slot = found.slot
            let onset = felt ?? Self.earliestOnset(now: now, lead: slot.leadTime)
            felt = onset
            let start = onset.advanced(by: -slot.leadTime)
            // A device with a hardware gain applies the gains itself; on the others the engine's
            // and the device's gain scale the level in steps, as `prepare` uploaded it. Every
            // factor is finite in 0…1, so the level is never refused.
            let level = Self.level(step: step, gain: gain * found.deviceGain, hardwareGain: slot.hardwareGain)
            if group == nil { group = scheduler.beginImmediateGroup(now: now) }
            guard (try? scheduler.start(slot.player, at: start, tag: 0, intensity: level, in: &group!)) == true else {
                scheduler.endImmediateGroup(group!)
                return .notPlayed(.queueFull)
            }
            scheduled = true
            reachedReal = reachedReal || found.real
        }
        // What is timed (the items' next steps, their stops, starts for later) stays with the
        // realtime thread, whose wake-up the group's pass moves forward.
        if let group { scheduler.endImmediateGroup(group) }
        guard scheduled, let felt else { return .notPlayed(.unsupported) }
        entry.preparedUntil.store(now.nanoseconds + prepareLifetimeNanoseconds, ordering: .relaxed)
        return reachedReal ? .scheduled(feltAt: felt) : .notPlayed(.noRealDevice)
    }
}

extension HapticEngine {
    /// The soonest a play can be felt when its devices need `lead` nanoseconds: no lead is longer
    /// than the horizon an onset may lie ahead.
    @inline(__always)
    static func earliestOnset(now: MonotonicInstant, lead: Int64) -> MonotonicInstant {
        now.advanced(by: min(lead, schedulingHorizonNanoseconds))
    }

    /// Why a play with these caller values is refused before anything else is looked at, for the
    /// haptic and the sound half: a NaN or infinite intensity, or an onset beyond the horizon.
    static func refusal(intensity: Double, onset: MonotonicInstant?, now: MonotonicInstant)
        -> (haptics: SilenceReason, audio: AudioSilenceReason)? {
        guard intensity.isFinite else { return (.invalidIntensity, .invalidIntensity) }
        if let onset, onset.nanoseconds > now.nanoseconds + schedulingHorizonNanoseconds {
            return (.onsetOutOfRange, .onsetOutOfRange)
        }
        return nil
    }
}

extension Feedback {
    /// Whether two feedbacks are the same vocabulary item, whatever the impact intensity.
    func sameItem(as other: Feedback) -> Bool {
        switch (self, other) {
        case let (.notification(a), .notification(b)): return a == b
        case let (.impact(a, _), .impact(b, _)): return a == b
        case (.selection, .selection): return true
        default: return false
        }
    }
}
