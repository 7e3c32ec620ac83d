import HapticsAudio
import HapticsPatterns
import HapticsSoundAnalysis

extension FuzzTarget {
    /// The WAV reader and then the sound analysis (`HapticsSoundAnalysis`), as
    /// `haptics convert sound.wav` runs them.
    ///
    /// Beyond not crashing, what comes out must be a sound pattern: transients in time order inside
    /// the sound, values within 0…1, segments in order without overlap, and a pattern that writes
    /// as AHAP and reads back the same.
    public static let soundAnalysis = FuzzTarget(
        name: "sound-analysis",
        summary: "WAV reader + sound analysis (HapticsSoundAnalysis): bytes → samples → pattern",
        seedSources: wavSeeds,
        body: { input, _ in analyzeSound(input) })

    static func analyzeSound(_ input: [UInt8]) {
        guard let audio = decodeWAV(input) else { return }
        let analysis: SoundAnalysis
        do {
            analysis = try SoundAnalyzer().analyze(audio)
        } catch {
            _ = error.description
            return
        }
        var previous = -1.0
        for transient in analysis.transients {
            precondition(transient.time > previous && transient.time <= analysis.duration, "transient at \(transient.time)")
            precondition((0...1).contains(transient.intensity) && (0...1).contains(transient.sharpness), "transient \(transient)")
            previous = transient.time
        }
        var end = 0.0
        for segment in analysis.segments {
            precondition(segment.start >= end && segment.end > segment.start && segment.end <= analysis.duration,
                         "segment \(segment.start)…\(segment.end) after \(end)")
            for curve in [segment.intensity, segment.sharpness] {
                precondition(curve.first?.time == segment.start && curve.last?.time == segment.end, "curve outside its segment")
                precondition(curve.allSatisfy { (0...1).contains($0.value) }, "curve value outside 0…1")
            }
            end = segment.end
        }
        let pattern = analysis.pattern(waveformPath: "sound.wav")
        let text = AHAPEncoder().encode(pattern)
        do {
            let decoded = try decodePattern(Array(text.utf8), fileName: "sound.ahap")
            precondition(decoded.pattern == pattern, "the pattern read back differs")
        } catch {
            preconditionFailure("the pattern does not read back: \(error)")
        }
    }
}
