import HapticsAudio
import HapticsPatterns
import HapticsSystem
import Synchronization

extension HapticEngine {
    /// Makes the player of a feedbackd event from a loaded theme at `level`: the theme's `Vibra…`
    /// feedbacks for the event (every section the level plays, `FeedbackdTheme.plan(for:level:)`)
    /// rendered for the selected devices, and its `Sound` feedbacks read from `soundFolder` as
    /// `<effect>.wav`, to be heard on the engine's audio output on the same timeline, like an AHAP
    /// file's `AudioCustom` events (confined to the folder; the sound budget applies).
    ///
    /// A sound without a folder, without a file of its name, or whose file cannot be loaded is
    /// left out and reported (`unplayedSounds`), never an error: the rest of the event still plays.
    /// `Led` and `Dummy` feedbacks are reported as not haptic. Control side: renders, loads and
    /// reads files. Throws what `makePlayer(pattern:)` throws.
    public func makePlayer(
        feedbackdEvent event: String, theme: FeedbackdTheme, level: FeedbackdLevel = .full,
        soundFolder: String? = nil, on devices: DeviceSelection = .all
    ) throws -> FeedbackdEventPlayer {
        let plan = theme.plan(for: event, level: level)
        var pattern = plan.pattern
        var clips: [Int: AudioClip] = [:]
        var heard: [FeedbackdFeedback] = []
        var unplayed: [FeedbackdPlayback.UnplayedSound] = []
        var charge: SoundMemoryCharge?
        if !plan.sounds.isEmpty {
            if let folder = soundFolder {
                let (loaded, held) = loadSounds(plan.sounds, from: folder)
                charge = held
                for (feedback, result) in loaded {
                    switch result {
                    case .success(let audio):
                        heard.append(feedback)
                        for (index, clip) in audio.clips { clips[pattern.events.count + index] = clip }
                        pattern.events += audio.pattern.events
                    case .failure(let error):
                        unplayed.append(.init(feedback: feedback, reason: Self.soundProblem(error)))
                    }
                }
            } else {
                unplayed = plan.sounds.map { .init(feedback: $0, reason: "no sound folder was given") }
            }
        }
        let soundDuration = clips.values.map { Duration.seconds(Double($0.frameCount) / Double($0.sampleRate)) }.max() ?? .zero
        guard !plan.haptic.isEmpty || !heard.isEmpty else {
            return FeedbackdEventPlayer(player: nil, plan: plan, heard: [], unplayedSounds: unplayed, soundDuration: .zero)
        }
        let rate = audioState.load()?.sampleRate ?? 48_000
        let sound = heard.isEmpty ? nil : AudioPattern(pattern: pattern, sampleRate: rate, clips: clips)
        let player = try HapticPatternPlayer(engine: self, pattern: pattern, sound: sound, soundCharge: charge, devices: devices)
        return FeedbackdEventPlayer(player: player, plan: plan, heard: heard, unplayedSounds: unplayed, soundDuration: soundDuration)
    }

    /// Plays a feedbackd event from a loaded theme at `level`, felt and heard at `onset` (as soon
    /// as possible by default), and keeps its player until it has finished: fire and forget, as
    /// feedbackd's own clients do. See `makePlayer(feedbackdEvent:theme:level:soundFolder:on:)`
    /// for what is played and reported.
    ///
    /// The engine holds the player until it has ended (its haptics and its longest sound), then its
    /// housekeeping lets it go; `stop()` lets go of it at once. An engine the app releases meanwhile
    /// lives on until then, so what plays is not cut short.
    ///
    /// Every call renders, loads and reads the sounds: for an event played often (a key press),
    /// make its player once and `start` it instead.
    @discardableResult
    public func play(
        feedbackdEvent event: String, from theme: FeedbackdTheme, level: FeedbackdLevel = .full,
        soundFolder: String? = nil, on devices: DeviceSelection = .all, at onset: MonotonicInstant? = nil
    ) throws -> FeedbackdPlayback {
        keptPlayers.release(endedBy: now)
        let made = try makePlayer(feedbackdEvent: event, theme: theme, level: level, soundFolder: soundFolder, on: devices)
        let playback = made.start(at: onset)
        if let player = made.player, let start = playback.outcome.onset {
            keptPlayers.keep(player, until: start + max(player.duration, made.soundDuration))
            requestHousekeeping()
        }
        return playback
    }

    /// Loads each `Sound` feedback's `<effect>.wav` from `folder` as a one-event pattern, within the
    /// per-pattern and the engine's sound budgets (each sound loaded takes its share of both before
    /// the next is loaded); the charge holds what the loaded ones cost.
    private func loadSounds(
        _ sounds: [FeedbackdFeedback], from folder: String
    ) -> ([(FeedbackdFeedback, Result<AudioPattern, AudioPatternError>)], SoundMemoryCharge) {
        let rate = audioState.load()?.sampleRate ?? 48_000
        let perPattern = AudioMemoryBudget(scope: .pattern, limit: configuration.soundBudgetPerPattern)
        return soundMemory.load { (engine: AudioMemoryBudget) -> [(FeedbackdFeedback, Result<AudioPattern, AudioPatternError>)] in
            var budgets = [perPattern, engine]
            return sounds.map { feedback in
                guard case .sound(let sound) = feedback.kind else { preconditionFailure("a plan's sounds are Sound feedbacks") }
                // At full volume: feedbackd plays the theme's sound as it is.
                let cue = Pattern(events: [PatternEvent(kind: .audioCustom, time: 0, waveformPath: sound.effect + ".wav",
                                                        parameters: EventParameters(audioVolume: 1))])
                let result = Result { () throws(AudioPatternError) in
                    try AudioPatternLoader(outputRate: rate, budgets: budgets)
                        .load(pattern: cue, patternPath: folder.hasSuffix("/") ? folder : folder + "/")
                }
                if case .success(let audio) = result {
                    for index in budgets.indices {
                        budgets[index] = AudioMemoryBudget(
                            scope: budgets[index].scope, limit: budgets[index].limit,
                            available: budgets[index].available - audio.soundByteCount)
                    }
                }
                return (feedback, result)
            }
        } cost: { results in
            results.reduce(0) { sum, item in
                if case .success(let audio) = item.1 { return sum + audio.soundByteCount }
                return sum
            }
        }
    }

    /// One line on why a theme's sound did not load: the loader's problem, without the event
    /// index of the one-event pattern it was loaded as.
    static func soundProblem(_ error: AudioPatternError) -> String {
        switch error.problem {
        case .missing: return "no file \(PrintableText.escaped(error.waveformPath)) in the sound folder"
        default: return error.description
        }
    }
}

/// Players the engine keeps until they end, for plays that do not hand one back.
final class KeptPlayers: Sendable {
    /// Ordered for ThreadSanitizer like the engine's other control-side locks: the engine's stop
    /// and housekeeping take it from two threads.
    private let players = OrderedMutex<[(player: HapticPatternPlayer, until: MonotonicInstant)]>([])

    /// Keeps `player` until `until` has passed.
    func keep(_ player: HapticPatternPlayer, until: MonotonicInstant) {
        players.withLock { $0.append((player, until)) }
    }

    /// Lets go of the players whose time has passed (they are released outside the lock).
    func release(endedBy now: MonotonicInstant) {
        let ended = players.withLock { list -> [HapticPatternPlayer] in
            let gone = list.filter { $0.until < now }.map(\.player)
            list.removeAll { $0.until < now }
            return gone
        }
        _ = ended
    }

    /// Lets go of every player (the engine stopped).
    func releaseAll() {
        let all = players.withLock { list -> [HapticPatternPlayer] in
            defer { list.removeAll() }
            return list.map(\.player)
        }
        _ = all
    }

    /// How many players are kept.
    var count: Int { players.withLock { $0.count } }
}
