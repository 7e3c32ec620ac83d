import HapticsAudio
import HapticsPatterns

/// The engine's sound: the audio output it schedules on and the sound cue of every vocabulary item,
/// rendered once at the output's rate so that playing a cue is one lock-free submission.
final class EngineAudio: Sendable {
    let output: AudioOutput
    /// The output's sample rate the voices were rendered at.
    let sampleRate: Int
    /// One voice per vocabulary item, in `Feedback.vocabulary` order (`VocabularyEntry.index`).
    let cueVoices: [AudioVoice]

    init(output: AudioOutput, cues: SoundCueLibrary) {
        self.output = output
        sampleRate = output.streamFormat.sampleRate
        cueVoices = Feedback.vocabulary.map { feedback in
            guard let voice = cues.voice(for: feedback) else {
                preconditionFailure("sound cue of \(feedback.name) missing; the library was checked when attached")
            }
            return voice
        }
    }
}
