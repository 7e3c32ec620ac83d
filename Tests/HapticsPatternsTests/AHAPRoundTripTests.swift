import Foundation
import Testing
@testable import HapticsPatterns
import HapticsTestSupport

@Suite("decode → encode → decode is the identity")
struct AHAPRoundTripTests {
    /// Decodes `text`, encodes, decodes again; the pattern must survive and the encoding be stable.
    /// Only `expectedWarnings` (warnings the pattern itself earns, not its syntax) may remain.
    func checkRoundTrip(_ text: String, name: String, expectedWarnings: [String] = []) throws {
        let first = try AHAPDecoder().decode(text, fileName: name)
        let encoded = AHAPEncoder().encode(first.pattern)
        let second = try AHAPDecoder().decode(encoded, fileName: name)
        #expect(second.pattern == first.pattern)
        #expect(second.warnings.map(\.description) == expectedWarnings)
        #expect(AHAPEncoder().encode(second.pattern) == encoded)
    }

    @Test(arguments: Feedback.vocabulary.map(\.canonicalFileName))
    func canonicalFile(_ fileName: String) throws {
        let text = try String(contentsOfFile: Repository.root + "/Patterns/" + fileName, encoding: .utf8)
        try checkRoundTrip(text, name: fileName)
    }

    @Test func sinfulFixture() throws {
        // The encoder writes curves after events and parameters, so the curve is now entry 5.
        try checkRoundTrip(
            RoundTripFixtures.sinful, name: "sinful.ahap",
            expectedWarnings: [
                "sinful.ahap:59:40: warning: Pattern[5].ParameterCurve.ParameterCurveControlPoints: 18 control points; Core Haptics documents at most 16 per curve"
            ])
    }

    @Test func emptyPatternWithMetadata() throws {
        try checkRoundTrip(RoundTripFixtures.empty, name: "empty.ahap")
    }

    @Test func sinfulFixtureDecodesToTheExpectedPattern() throws {
        let decoded = try AHAPDecoder().decode(RoundTripFixtures.sinful, fileName: "sinful.ahap")
        let pattern = decoded.pattern
        #expect(pattern.version == 2)
        #expect(
            pattern.metadata == [
                MetadataEntry(key: "Project", value: "Crate — “Ünïcode” \t tab"), MetadataEntry(key: "Version", value: "3"),
            ])
        #expect(
            pattern.events == [
                PatternEvent(
                    kind: .hapticContinuous, time: 0, duration: 0.5,
                    parameters: EventParameters(
                        hapticIntensity: 0.75, hapticSharpness: 0.25, attackTime: 0.1, decayTime: 0.2, releaseTime: 0.3,
                        sustained: false)),
                PatternEvent(
                    kind: .audioCustom, time: 1, waveformPath: "Sounds/thud \"big\".wav", waveformUseVolumeEnvelope: true,
                    waveformLoopEnabled: false,
                    parameters: EventParameters(audioVolume: 0.6, audioPitch: -0.2, audioPan: 0.3, audioBrightness: 0.9)),
                PatternEvent(kind: .hapticTransient, time: 0.125, duration: 0.1),
                PatternEvent(kind: .audioContinuous, time: 2, duration: 0.3),
            ])
        #expect(pattern.parameters == [DynamicParameter(id: .hapticSharpnessControl, time: 0.3, value: -0.5)])
        #expect(pattern.curves.count == 1)
        #expect(pattern.curves[0].id == .hapticIntensityControl)
        #expect(pattern.curves[0].time == 0.1)
        #expect(pattern.curves[0].controlPoints.count == 18)
        #expect(pattern.curves[0].controlPoints.last == ParameterCurve.ControlPoint(time: 0.8, value: 0.3))
        #expect(pattern.duration == 2.3)
        #expect(
            decoded.warnings.map(\.description) == [
                "sinful.ahap:23:49: warning: trailing comma before ']' accepted",
                "sinful.ahap:37:64: warning: trailing comma before ']' accepted",
                "sinful.ahap:61:85: warning: trailing comma before ']' accepted",
                "sinful.ahap:64:15: warning: trailing comma before '}' accepted",
                "sinful.ahap:5:40: warning: Pattern[0].ParameterCurve.ParameterCurveControlPoints: 18 control points; Core Haptics documents at most 16 per curve",
            ])
    }

    @Test func encoderLayoutIsExact() {
        let pattern = Pattern(
            version: 1,
            metadata: [MetadataEntry(key: "Name", value: "tap \"x\"")],
            events: [
                PatternEvent(kind: .hapticTransient, time: 0, parameters: EventParameters(hapticIntensity: 0.5, sustained: true))
            ],
            parameters: [DynamicParameter(id: .audioPanControl, time: 0.25, value: -1)],
            curves: [
                ParameterCurve(
                    id: .hapticIntensityControl, time: 0,
                    controlPoints: [.init(time: 0, value: 1), .init(time: 0.1, value: 0)])
            ])
        let expected = """
            {
              "Version": 1.0,
              "Metadata": {
                "Name": "tap \\"x\\""
              },
              "Pattern": [
                {
                  "Event": {
                    "Time": 0.0,
                    "EventType": "HapticTransient",
                    "EventParameters": [
                      { "ParameterID": "HapticIntensity", "ParameterValue": 0.5 },
                      { "ParameterID": "Sustained", "ParameterValue": 1.0 }
                    ]
                  }
                },
                {
                  "Parameter": { "ParameterID": "AudioPanControl", "Time": 0.25, "ParameterValue": -1.0 }
                },
                {
                  "ParameterCurve": {
                    "ParameterID": "HapticIntensityControl",
                    "Time": 0.0,
                    "ParameterCurveControlPoints": [
                      { "Time": 0.0, "ParameterValue": 1.0 },
                      { "Time": 0.1, "ParameterValue": 0.0 }
                    ]
                  }
                }
              ]
            }

            """
        #expect(AHAPEncoder().encode(pattern) == expected)
    }

    @Test func emptyPatternEncoding() {
        #expect(AHAPEncoder().encode(Pattern()) == "{\n  \"Version\": 1.0,\n  \"Pattern\": []\n}\n")
    }
}
