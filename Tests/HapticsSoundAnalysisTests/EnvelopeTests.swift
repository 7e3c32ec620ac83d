#if canImport(Glibc)
import Glibc
#endif
import HapticsAudio
import HapticsPatterns
import Testing
@testable import HapticsSoundAnalysis

@Suite struct EnvelopeTests {
    /// The simplified curve's value at `time`, read as a player reads it: linear between points.
    static func value(_ curve: [SoundAnalysis.CurvePoint], at time: Double) -> Double {
        guard let after = curve.firstIndex(where: { $0.time >= time }) else { return curve.last?.value ?? 0 }
        guard after > 0 else { return curve[after].value }
        let a = curve[after - 1]
        let b = curve[after]
        let slope: Double = (b.value - a.value) / (b.time - a.time)
        return a.value + slope * (time - a.time)
    }

    @Test func aDecayingNoiseBurstIsOneSegmentWhoseIntensityFalls() throws {
        let rate = 44_100
        let samples = Signals.decayingNoise(start: 0.1, decay: 0.15, duration: 1.5, rate: rate)
        let analysis = try SoundAnalyzer().analyze(Signals.sound(samples, rate: rate))
        #expect(analysis.transients.count == 1)
        #expect(abs((analysis.transients.first?.time ?? 0) - 0.1) <= 0.005)
        #expect(analysis.segments.count == 1)
        let segment = try #require(analysis.segments.first)
        #expect(abs(segment.start - 0.1) <= 0.015, "\(segment.start)")
        // 0.9 × uniform noise is −2.7 dB (RMS × √2); it falls 8.7 dB per decay time and reaches
        // −48 dBFS after 5.2 of them (0.78 s).
        #expect(abs(segment.end - 0.88) <= 0.03, "\(segment.end)")
        // From its peak the curve only falls, from near full strength to near nothing; falling
        // linearly in decibels, it simplifies to a few points.
        let peak = try #require(segment.intensity.indices.max { segment.intensity[$0].value < segment.intensity[$1].value })
        #expect(segment.intensity[peak].value > 0.9)
        #expect(segment.intensity[peak].time < 0.15)
        for (earlier, later) in zip(segment.intensity[peak...], segment.intensity[(peak + 1)...]) {
            #expect(later.value <= earlier.value, "\(earlier) then \(later)")
        }
        #expect((segment.intensity.last?.value ?? 1) < 0.05)
        #expect(segment.intensity.count <= 8, "\(segment.intensity)")
        // At 0.5 s, 2.7 decay times in: −2.7 − 23.2 = −25.9 dBFS, intensity 0.46.
        #expect(abs(Self.value(segment.intensity, at: 0.5) - 0.46) < 0.03, "\(segment.intensity)")
    }

    @Test func theSimplifiedCurveStaysWithinTheTolerance() {
        let points = (0...300).map { SoundAnalysis.CurvePoint(time: Double($0) * 0.005, value: 0.5 + 0.4 * sin(Double($0) * 0.03)) }
        let simplified = _FrameAnalysis.simplified(points, tolerance: 0.04)
        #expect(simplified.first == points.first && simplified.last == _FrameAnalysis.roundedPoint(points[300]))
        #expect(simplified.count < 20, "\(simplified.count) points")
        for point in points {
            let after = simplified.firstIndex { $0.time >= point.time }!
            guard after > 0 else { continue }
            let a = simplified[after - 1]
            let b = simplified[after]
            let slope: Double = (b.value - a.value) / (b.time - a.time)
            let line: Double = a.value + slope * (point.time - a.time)
            let off: Double = abs(line - point.value)
            #expect(off <= 0.04 + 1e-4, "at \(point.time)")
        }
    }

    @Test func aStraightRampIsTwoPoints() {
        let points = (0...1_000).map { SoundAnalysis.CurvePoint(time: Double($0) * 0.005, value: Double($0) / 1_000) }
        // Blocks of 400 points keep their ends: 0, 400, 800, 1000.
        #expect(_FrameAnalysis.simplified(points, tolerance: 0.01).map(\.time) == [0, 2, 4, 5])
    }

    @Test func gainRaisesTheIntensity() throws {
        let rate = 48_000
        // A sine peaking at −12 dBFS: 36/48 of full strength, and full strength with 13 dB of gain.
        let samples = Signals.tone(400, start: 0, length: 1, duration: 1, rate: rate, amplitude: 0.251_188_6)
        var options = SoundAnalysisOptions()
        options.curveTolerance = 0.001
        let plain = try SoundAnalyzer(options: options).analyze(Signals.sound(samples, rate: rate))
        options.gain = 13
        let louder = try SoundAnalyzer(options: options).analyze(Signals.sound(samples, rate: rate))
        let plainLevel = Self.value(try #require(plain.segments.first).intensity, at: 0.5)
        let louderLevel = Self.value(try #require(louder.segments.first).intensity, at: 0.5)
        #expect(abs(plainLevel - 0.75) <= 0.002, "\(plainLevel)")
        #expect(abs(louderLevel - 1) <= 0.001, "\(louderLevel)")
    }
}
