import HapticsPatterns
import Testing
@testable import HapticsSoundAnalysis

@Suite struct PatternTests {
    static let analysis = SoundAnalysis(
        duration: 1.5,
        transients: [
            .init(time: 0.1, intensity: 0.8, sharpness: 0.7),
            .init(time: 1.2, intensity: 0.6, sharpness: 0.3),
        ],
        segments: [
            .init(start: 0.1, end: 0.9,
                  intensity: [.init(time: 0.1, value: 0.4), .init(time: 0.2, value: 1), .init(time: 0.9, value: 0.2)],
                  sharpness: [.init(time: 0.1, value: 0.7), .init(time: 0.9, value: 0.4)]),
        ])

    @Test func segmentsAreContinuousEventsShapedByCurvesAndTheSoundIsAnAudioEvent() {
        let pattern = Self.analysis.pattern(waveformPath: "hit.wav")
        #expect(pattern.events == [
            PatternEvent(kind: .audioCustom, time: 0, duration: 1.5, waveformPath: "hit.wav",
                         parameters: EventParameters(audioVolume: 1)),
            PatternEvent(kind: .hapticContinuous, time: 0.1, duration: 0.8,
                         parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5)),
            // Under the curves at 0.1 s (×0.4, +0.2): written as 1 (0.8 / 0.4 = 2, at most 1) and 0.5.
            PatternEvent(kind: .hapticTransient, time: 0.1, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.5)),
            // After the segment the controls are back to neutral: as analysed.
            PatternEvent(kind: .hapticTransient, time: 1.2, parameters: EventParameters(hapticIntensity: 0.6, hapticSharpness: 0.3)),
        ])
        #expect(pattern.curves == [
            ParameterCurve(id: .hapticIntensityControl, time: 0.1,
                           controlPoints: [.init(time: 0, value: 0.4), .init(time: 0.1, value: 1), .init(time: 0.8, value: 0.2)]),
            ParameterCurve(id: .hapticSharpnessControl, time: 0.1,
                           controlPoints: [.init(time: 0, value: 0.2), .init(time: 0.8, value: -0.1)]),
        ])
        #expect(pattern.parameters == [
            DynamicParameter(id: .hapticIntensityControl, time: 0.9, value: 1),
            DynamicParameter(id: .hapticSharpnessControl, time: 0.9, value: 0),
        ])
    }

    @Test func absoluteTransientsKeepTheAnalysedValues() {
        let pattern = Self.analysis.pattern(waveformPath: nil, transients: .absolute)
        #expect(pattern.events.filter { $0.kind == .hapticTransient }.map(\.parameters) == [
            EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.7),
            EventParameters(hapticIntensity: 0.6, hapticSharpness: 0.3),
        ])
        #expect(!pattern.events.contains { $0.kind == .audioCustom })
    }

    @Test func longCurvesAreSplitIntoCurvesOfSixteenPoints() {
        let points = (0..<40).map { SoundAnalysis.CurvePoint(time: Double($0) * 0.1, value: Double($0 % 2)) }
        let curves = SoundAnalysis.curves(.hapticIntensityControl, points) { $0 }
        // 40 points, consecutive curves sharing a point: 16 + 15 + 10.
        #expect(curves.map(\.controlPoints.count) == [16, 16, 10])
        #expect(curves.map(\.time) == [0, 1.5, 3])
        #expect(curves[1].controlPoints.first == .init(time: 0, value: 1))
    }

    @Test func thePatternWritesAsAHAPAndReadsBackTheSame() throws {
        let pattern = Self.analysis.pattern(waveformPath: "hit.wav")
        let text = AHAPEncoder().encode(pattern)
        let decoded = try decodePattern(Array(text.utf8), fileName: "hit.ahap")
        #expect(decoded.warnings.isEmpty)
        #expect(decoded.pattern == pattern)
    }
}
