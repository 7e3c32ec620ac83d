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
    /// The engine's sound budget the cues hold (their clips and voices).
    let cueCharge: SoundMemoryCharge

    init(output: AudioOutput, cues: SoundCueLibrary, memory: SoundMemory) {
        self.output = output
        sampleRate = output.streamFormat.sampleRate
        cueVoices = Feedback.vocabulary.map { feedback in
            guard let voice = cues.voice(for: feedback) else {
                preconditionFailure("sound cue of \(feedback.name) missing; the library was checked when attached")
            }
            return voice
        }
        // The clips (each voice reads its clip in place) and what each voice keeps. An app's own
        // cues are charged whatever is left: they are its choice, not a bundle's.
        cueCharge = memory.charge(cues.clips.values.reduce(0) { $0 + $1.byteCount }
            + cueVoices.reduce(0) { $0 + $1.byteCount })
    }
}
