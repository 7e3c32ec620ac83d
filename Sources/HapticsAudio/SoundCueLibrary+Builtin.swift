import HapticsPatterns

extension SoundCueLibrary {
    /// The cues shipped with the library (`Patterns/*.wav`, embedded in the binary, so an installed
    /// program needs no resource files), converted to `outputRate`.
    ///
    /// The embedded bytes are checked against the files by a test; `Tools/generate-sound-cues`
    /// regenerates both.
    public static func builtin(outputRate: Int = 48_000, resampler: Resampler = Resampler()) -> SoundCueLibrary {
        var clips: [String: AudioClip] = [:]
        for feedback in Feedback.vocabulary {
            guard let encoded = builtinFiles[feedback.soundCueFileName],
                  let bytes = _Base64.decode(encoded),
                  let audio = try? WAVReader.decode(bytes)
            else {
                preconditionFailure("the embedded sound cue \(feedback.soundCueFileName) is missing or damaged; run Tools/generate-sound-cues")
            }
            clips[feedback.name] = AudioClip(audio, outputRate: outputRate, resampler: resampler)
        }
        return SoundCueLibrary(clips: clips)
    }

    /// The bytes of an embedded cue file (`impact-heavy.wav`), or `nil` when there is none.
    public static func builtinFile(named name: String) -> [UInt8]? {
        builtinFiles[name].flatMap(_Base64.decode)
    }

    /// A library of the given clips, by feedback name (`notification.success`).
    public init(clips: [String: AudioClip]) {
        self.clips = clips
    }

    /// The vocabulary items without a clip, by name; empty when every item has its cue.
    public var missingCues: [String] {
        Feedback.vocabulary.map(\.name).filter { clips[$0] == nil }
    }
}
