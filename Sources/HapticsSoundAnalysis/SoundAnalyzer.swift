#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HapticsAudio
import HapticsPatterns

/// Turns a sound into the haptics that go with it (``SoundAnalysis``, then a `Pattern`).
///
/// The sound is mixed to mono and cut into frames of about 20 ms (a power of two of samples), a
/// new one every quarter frame (about 5 ms). For each frame:
/// - its level (RMS, in dBFS, plus the gain) maps to intensity, −48 dBFS → 0 and 0 dBFS → 1;
///   frames at intensity 0 are silence;
/// - its spectrum (Hann window, FFT) gives the spectral centroid inside the band, mapped
///   logarithmically onto sharpness;
/// - its spectral flux (how much the log-magnitude spectrum rose from the previous frame) feeds
///   the onset detector.
///
/// A hit is a frame whose flux is a local peak above an adaptive threshold (the mean flux of the
/// 0.1 s around it, times a factor, plus a floor; both shrink as sensitivity grows), in a frame that
/// is not silent, at least the minimum gap after the previous hit. Its time is then placed on the
/// sample where the waveform first reaches a fifth of the hit's peak, searched in blocks of 2 ms
/// back from the peak. The level of the 20 ms after must be at least 3 dB above that of the 20 ms
/// before (a sound that stops also changes its spectrum). The hit's intensity is its peak level,
/// scaled down when it rose by less than 24 dB;
/// its sharpness the centroid of the 20 ms that follow.
///
/// Stretches that are not silent become segments (gaps and stretches shorter than the minimum
/// event length are bridged or dropped); their intensity and sharpness curves are simplified
/// (Ramer–Douglas–Peucker, within the curve tolerance, in blocks of 2 s so the work stays linear).
///
/// Work and memory grow linearly with the sound's length, which is bounded by
/// ``SoundAnalysisOptions/maximumDuration``.
public struct SoundAnalyzer: Sendable {
    /// The options.
    public let options: SoundAnalysisOptions

    /// An analyzer; the options are checked here.
    public init(options: SoundAnalysisOptions = SoundAnalysisOptions()) throws(SoundAnalysisError) {
        try options.validate()
        self.options = options
    }

    /// Reads the WAV file at `path` and analyses it; errors name the file.
    public func analyze(contentsOf path: String) throws(SoundAnalysisError) -> (samples: WAVSamples, analysis: SoundAnalysis) {
        let samples: WAVSamples
        do {
            samples = try WAVReader.read(contentsOf: path)
        } catch {
            throw SoundAnalysisError(.wav(error.problem), path: path)
        }
        do {
            return (samples, try analyze(samples))
        } catch {
            throw SoundAnalysisError(error.problem, path: path)
        }
    }

    /// Analyses decoded audio: mono or stereo (mixed to mono), any rate the WAV reader accepts.
    public func analyze(_ sound: WAVSamples) throws(SoundAnalysisError) -> SoundAnalysis {
        let rate = Double(sound.sampleRate)
        let duration = Double(sound.frameCount) / rate
        guard duration <= options.maximumDuration else {
            throw SoundAnalysisError(.tooLong(seconds: duration, limit: options.maximumDuration))
        }
        let mono = Self.mono(sound)
        var frames = _FrameAnalysis(mono: mono, sampleRate: sound.sampleRate, options: options)
        frames.run()
        let transients = frames.transients()
        let segments = frames.segments()
        let analysis = SoundAnalysis(duration: Self.rounded(duration), transients: transients, segments: segments)
        let entries = analysis.pattern(waveformPath: "sound.wav").entryCount
        let limit = PatternLimits.default.maximumEventCount
        guard entries <= limit else { throw SoundAnalysisError(.tooManyEvents(count: entries, limit: limit)) }
        return analysis
    }

    /// The channels averaged, as `Double`s.
    static func mono(_ sound: WAVSamples) -> [Double] {
        let channels = max(1, sound.channelCount)
        let count = sound.samples.count / channels
        var mono = [Double](repeating: 0, count: count)
        for frame in 0..<count {
            var sum = 0.0
            for channel in 0..<channels { sum += Double(sound.samples[frame * channels + channel]) }
            mono[frame] = sum / Double(channels)
        }
        return mono
    }

    /// Rounded to 1/10 000 (0.1 ms for times), so results are short to write and stable.
    static func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }
}
