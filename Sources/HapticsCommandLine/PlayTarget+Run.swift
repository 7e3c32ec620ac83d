import Haptics
import HapticsAudio
import HapticsSystem

/// A play that ran to its end: what the engine said about each half, and when it was asked for.
struct FinishedPlay {
    /// The haptic half.
    let outcome: PlaybackOutcome
    /// The sound half, when `--audio` asked for it.
    let audio: AudioOutcome?
    /// When the play was requested (the drawings' time zero).
    let requestedAt: MonotonicInstant
    /// What of a feedbackd event was not felt, or heard from where (`PlayStart.notes`).
    var notes: [String] = []
    /// On a pad with voice coils, how the pattern reached them: `true` as HD haptics, `false` as
    /// rumble; `nil` on a device without voice coils.
    var hdHaptics: Bool? = nil
}

extension PlayTarget {
    /// Plays the target on a new engine over `output` and returns once it has ended: the engine is
    /// started, the sound output attached (`audio`), the target started (`prepare`: its effects
    /// uploaded first, for real devices), then this thread waits until the final stop has gone out
    /// (`waitUntilSent`), lets the sound finish and stops the engine, so the device ends
    /// silent. With `trace`, the engine traces the run and the trace is added to it.
    /// `whilePlaying`, when given, is called about every ``LiveMotorLine/interval`` until the
    /// pattern has ended, with the time since the request.
    func playToTheEnd(on output: HapticEngine.Output, audio: AudioChoice, prepare: Bool, rumble: Bool = false,
                      trace: TraceFile? = nil, whilePlaying: ((Duration) -> Void)? = nil) throws(CommandLineError) -> FinishedPlay {
        let engine = HapticEngine(outputs: [output])
        do {
            try engine.start()
        } catch {
            throw .failure("cannot start the engine: \(error)")
        }
        if trace != nil { engine.startTracing() }
        // A pad with voice coils plays patterns as HD haptics unless rumble was asked for.
        let pad = engine.devices.first { $0.hasVoiceCoils }
        if rumble, let pad { engine.setHDHaptics(false, for: pad) }
        let sound = audio == .none ? nil : try PlaySound(audio, engine: engine, lead: max(.zero, output.profile.riseTime))
        let requestedAt = engine.now
        let started = try start(on: engine, sound: sound, prepare: prepare)
        let hdHaptics = pad.map { started.player != nil && engine.playsHDHaptics(on: $0) }
        var notes = started.notes
        if let pad, started.player != nil, !rumble, let failure = engine.hdHapticsFailure(on: pad) {
            notes.append("HD haptics unavailable, played as rumble: \(PrintableText.escaped(failure.description))")
        }
        if case let .scheduled(feltAt) = started.outcome {
            // The final stop is due `length` after the felt onset at the latest; on a loaded machine
            // the realtime thread may send it later still, and stopping the engine first would
            // silence the device in its place.
            if let whilePlaying {
                while engine.now < feltAt + started.length {
                    whilePlaying(engine.now - requestedAt)
                    SystemMonotonicClock.sleep(until: min(feltAt + started.length, engine.now + LiveMotorLine.interval))
                }
            }
            _ = engine.waitUntilSent(through: feltAt + started.length)
        }
        sound?.finish()
        engine.stop()
        trace?.add(from: engine)
        withExtendedLifetime(started.player) {}
        return FinishedPlay(outcome: started.outcome, audio: started.audio, requestedAt: requestedAt, notes: notes,
                            hdHaptics: hdHaptics)
    }
}
