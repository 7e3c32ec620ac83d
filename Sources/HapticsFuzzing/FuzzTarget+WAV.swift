import HapticsAudio

extension FuzzTarget {
    /// The WAV reader of `HapticsAudio`, on bytes as a waveform file holds them.
    ///
    /// Beyond not crashing, what decodes must be what ``WAVReader`` promises: whole frames of one or
    /// two channels at a positive rate, finite samples, integers within −1…1.
    public static let wav = FuzzTarget(
        name: "wav",
        summary: "WAV reader (HapticsAudio): bytes → samples",
        seedSources: wavSeeds,
        body: { input, _ in _ = decodeWAV(input) })

    /// The WAV reader and then the conversion to the output rate that loading a pattern's waveform
    /// applies: what a file's header (its rate, its length) makes the loader compute and allocate.
    public static let wavClip = FuzzTarget(
        name: "wav-clip",
        summary: "WAV reader + conversion to 48 kHz (HapticsAudio): bytes → samples → clip, as a waveform is loaded",
        seedSources: wavSeeds,
        body: { input, _ in convertWAV(input) })

    static let wavSeeds: [FuzzSeedSource] = [
        .files(folder: "Patterns", suffix: ".wav"),
        .files(folder: "Tests/FuzzSeeds/wav", suffix: ""),
    ]

    /// The rate waveforms are converted to, the loader's default and the usual output rate.
    static let outputRate = 48_000

    /// Decodes `input` and checks what decodes; `nil` when the reader refuses it.
    static func decodeWAV(_ input: [UInt8]) -> WAVSamples? {
        let audio: WAVSamples
        do {
            audio = try WAVReader.decode(input)
        } catch {
            _ = error.description   // errors are printed: their text must be sound too
            return nil
        }
        precondition(audio.channelCount == 1 || audio.channelCount == 2, "\(audio.channelCount) channels decoded")
        precondition(audio.samples.count % audio.channelCount == 0, "a partial frame decoded")
        precondition(audio.sampleRate > 0, "sample rate \(audio.sampleRate) decoded")
        let bounded = audio.encoding != .float32
        for sample in audio.samples {
            precondition(sample.isFinite && (!bounded || abs(sample) <= 1), "sample \(sample) decoded")
        }
        return audio
    }

    /// Decodes `input` and converts what decodes to ``outputRate``, as `AudioPatternLoader` does.
    static func convertWAV(_ input: [UInt8]) {
        guard let audio = decodeWAV(input) else { return }
        let clip = AudioClip(audio, outputRate: outputRate)
        precondition(clip.samples.count % clip.channelCount == 0, "a partial frame converted")
    }
}
