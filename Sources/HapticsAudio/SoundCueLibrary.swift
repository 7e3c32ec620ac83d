import HapticsPatterns

/// The sound cue of every vocabulary item, loaded from a folder of WAV files (the repository's
/// `Patterns/`, or an app's own cues with the same names) and converted to the output rate.
public struct SoundCueLibrary: Sendable {
    /// The clip of each vocabulary item, by feedback name (`notification.success`).
    public var clips: [String: AudioClip]

    /// Loads `folder/<item>.wav` for every item of `Feedback.vocabulary`; a missing or bad file is
    /// an error naming it.
    public init(folder: String, outputRate: Int = 48_000, resampler: Resampler = Resampler()) throws(WAVError) {
        var clips: [String: AudioClip] = [:]
        for feedback in Feedback.vocabulary {
            let audio = try WAVReader.read(contentsOf: folder + "/" + feedback.soundCueFileName)
            clips[feedback.name] = AudioClip(audio, outputRate: outputRate, resampler: resampler)
        }
        self.clips = clips
    }

    /// The cue of `feedback` (an impact's intensity does not change which cue), as a voice at `volume`.
    public func voice(for feedback: Feedback, volume: Double = 1) -> AudioVoice? {
        let base: Feedback
        switch feedback {
        case let .impact(style, _): base = .impact(style, intensity: 1)
        default: base = feedback
        }
        return clips[base.name].map { AudioVoice(clip: $0, volume: volume) }
    }
}
