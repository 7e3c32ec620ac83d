import HapticsAudio
import HapticsPatterns
import HapticsScheduler
import HapticsSystem

extension HapticEngine {
    /// Gives the engine an audio output for sound cues and pattern sound. Control side; once per
    /// engine.
    ///
    /// The output is opened if it is not yet (so its rate is known) but not started: start it
    /// (`output.start()`) and stop it yourself — an offline WAV output is driven with `process()`
    /// instead. The sound cues come from `soundCues`, else from `Configuration.soundCueFolder`,
    /// else the cues built into the library (`Patterns/*.wav`); they are converted to the output's
    /// rate now. A cue that is missing or unreadable is an error here, never silence at play time.
    /// The cues' memory counts against `Configuration.soundBudget` (the built-in ones take about
    /// 0.2 MB).
    ///
    /// The engine watches the output for a lost device (at housekeeping) and reports
    /// `Event.audioDeviceLost`; do not drain the output's events yourself.
    public func attachAudio(_ output: AudioOutput, soundCues: SoundCueLibrary? = nil) throws(EngineError) {
        guard audioState.load() == nil else { throw .audioAlreadyAttached }
        do {
            try output.open()
        } catch {
            throw .audioUnavailable(error)
        }
        let rate = output.streamFormat.sampleRate
        var library: SoundCueLibrary
        if let soundCues {
            library = soundCues
        } else if let folder = configuration.soundCueFolder {
            do {
                library = try SoundCueLibrary(folder: folder, outputRate: rate)
            } catch {
                throw .soundCue(error)
            }
        } else {
            library = .builtin(outputRate: rate)
        }
        let missing = library.missingCues
        guard missing.isEmpty else { throw .soundCuesMissing(missing) }
        // Cues made for another rate are converted, so they last as long and sound as high.
        for (name, clip) in library.clips where clip.sampleRate != rate {
            library.clips[name] = AudioClip(
                sampleRate: rate, channelCount: clip.channelCount,
                samples: Resampler().resample(clip.samples, channelCount: clip.channelCount, from: clip.sampleRate, to: rate))
        }
        let audio = EngineAudio(output: output, cues: library, memory: soundMemory)
        guard audioState.storeIfNil(audio) === audio else { throw .audioAlreadyAttached }
        // The sound device's events (a loss, a dropped voice) are housekeeping's to report.
        requestHousekeeping()
    }

    /// The attached audio output, if any.
    public var audioOutput: AudioOutput? { audioState.load()?.output }

    /// The sound switch, separate from the haptics switch (`isEnabled`, `gain`): while muted no
    /// sound is scheduled (outcomes say `.muted`) and what is already queued plays silently.
    /// Haptics are unaffected.
    public var isAudioMuted: Bool {
        get { audioMuted.load(ordering: .acquiring) }
        set {
            audioMuted.store(newValue, ordering: .releasing)
            audioState.load()?.output.isMuted = newValue
        }
    }

    /// Why sound asked for now would not play (`nil`: it would), and the audio to play it on.
    /// Lock-free.
    func soundState(requested: Bool, hasSound: Bool = true) -> (reason: AudioSilenceReason?, audio: EngineAudio?) {
        guard requested else { return (.notRequested, nil) }
        guard hasSound else { return (.noSound, nil) }
        guard let audio = audioState.load() else { return (.noAudioOutput, nil) }
        if !isRunning { return (.engineStopped, nil) }
        if !isApplicationActive { return (.applicationInactive, nil) }
        if audioMuted.load(ordering: .acquiring) { return (.muted, nil) }
        if audio.output.isDeviceLost { return (.deviceLost, nil) }
        return (nil, audio)
    }

    /// The outcome of handing the output a play's voices for `onset`: scheduled when none was
    /// refused, else why the first refused one was.
    static func audioOutcome(refusal: AudioVoiceRefusal?, onset: MonotonicInstant) -> AudioOutcome {
        switch refusal {
        case nil: return .scheduled(audibleAt: onset)
        case .deviceLost: return .notPlayed(.deviceLost)
        case .noVoiceSlot: return .notPlayed(.noVoiceSlot)
        case .queueFull: return .notPlayed(.queueFull)
        }
    }

    /// Reports audio device loss and sounds let go unheard as events (a sound let go is taken
    /// back from the trace: it never became audible). Called at housekeeping.
    func pollAudioEvents() {
        guard let audio = audioState.load() else { return }
        for event in audio.output.drainEvents() {
            switch event {
            case let .deviceLost(errno): eventHub.deliver(.audioDeviceLost(errno: errno))
            case .underrunRecovered, .voiceLate: break
            }
        }
    }
}
