import Haptics
import HapticsAudio
import HapticsPatterns
import HapticsRendering
import HapticsSystem

extension PlayTarget {
    /// Starts the target on `engine`, with its sound on `sound`'s output when given (a file's sound
    /// is then read from next to it). `prepare`: get the device ready first (real devices).
    func start(on engine: HapticEngine, sound: PlaySound?, prepare: Bool) throws(CommandLineError) -> PlayStart {
        let profile = engine.profiles.first ?? .simulated
        switch self {
        case let .feedback(feedback):
            if prepare { engine.prepare(feedback) }
            let length = Duration.nanoseconds(Renderer(profile: profile).render(feedback.canonicalPattern).durationNanoseconds)
            guard let sound else { return PlayStart(outcome: engine.play(feedback), audio: nil, player: nil, length: length) }
            let both = engine.play(feedback, withSound: true, at: sound.requestedOnset)
            return PlayStart(outcome: both.haptics, audio: both.audio, player: nil, length: length)
        case let .file(path, pattern, _), let .sound(path, pattern):
            let player: HapticPatternPlayer
            do {
                if sound == nil {
                    player = try engine.makePlayer(pattern: pattern)
                } else if case .sound = self {
                    // The derived pattern names the sound by its file name, beside it.
                    player = try engine.makePlayer(pattern: pattern, soundRelativeTo: path)
                } else {
                    player = try engine.makePlayer(contentsOf: path)
                }
            } catch let error as AudioLoadError {
                // Located at the event's EventWaveformPath by the loader: the line `validate` prints.
                throw .failure(error.description)
            } catch {
                throw .failure("\(PrintableText.escaped(path)): cannot load the pattern: \(error)")
            }
            if prepare { player.prepare() }
            guard let sound else { return PlayStart(outcome: player.start(), audio: nil, player: player, length: player.duration) }
            let both = player.start(at: sound.requestedOnset)
            return PlayStart(outcome: both.haptics, audio: both.audio, player: player, length: player.duration)
        case let .themeEvent(event, theme, level, folder):
            let made: FeedbackdEventPlayer
            do {
                made = try engine.makePlayer(feedbackdEvent: event, theme: theme, level: level,
                                             soundFolder: sound == nil ? nil : folder)
            } catch {
                throw .failure("\(PrintableText.escaped(event)): cannot load the event: \(error)")
            }
            if prepare { made.player?.prepare() }
            let playback = made.start(at: sound?.requestedOnset)
            var notes = playback.heard.compactMap { feedback -> String? in
                guard case let .sound(cue) = feedback.kind else { return nil }
                return "\(feedback.summary): heard from \(folder)/\(cue.effect).wav"
            }
            notes += playback.unplayedSounds.map { unplayed in
                "\(unplayed.feedback.summary): not played: " + (sound == nil ? "no sound output (--audio)" : unplayed.reason)
            }
            notes += playback.notHaptic.map { "\($0.summary): not haptic, not played" }
            if playback.felt.isEmpty, playback.heard.isEmpty, playback.unplayedSounds.isEmpty, playback.notHaptic.isEmpty {
                notes.append("\(event): no feedback in theme \(theme.name) at level \(level.rawValue)")
            }
            return PlayStart(outcome: playback.outcome.haptics, audio: sound == nil ? nil : playback.outcome.audio,
                             player: made.player, length: made.player?.duration ?? .zero, notes: notes.map(PrintableText.escaped))
        }
    }
}
