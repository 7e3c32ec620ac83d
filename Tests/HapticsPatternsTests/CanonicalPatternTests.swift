import Foundation
import Testing
@testable import HapticsPatterns
import HapticsTestSupport

@Suite("Canonical patterns: the AHAP files are the source of truth")
struct CanonicalPatternTests {
    static let patternsDirectory = Repository.root + "/Patterns"

    @Test func embeddedTextIsByteIdenticalToTheFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.patternsDirectory)
            .filter { $0.hasSuffix(".ahap") }.sorted()
        #expect(files == CanonicalPatterns.sources.keys.sorted())
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: Self.patternsDirectory + "/" + file))
            #expect(Array(bytes) == Array(try #require(CanonicalPatterns.sources[file]).utf8), "\(file) differs; run Tools/generate-canonical-patterns")
        }
    }

    @Test func everyVocabularyItemHasAFile() {
        #expect(
            Feedback.vocabulary.map(\.canonicalFileName) == [
                "notification-success.ahap", "notification-warning.ahap", "notification-error.ahap",
                "impact-light.ahap", "impact-medium.ahap", "impact-heavy.ahap", "impact-soft.ahap", "impact-rigid.ahap",
                "selection.ahap",
            ])
        #expect(Set(Feedback.vocabulary.map(\.canonicalFileName)) == Set(CanonicalPatterns.sources.keys))
    }

    @Test(arguments: Feedback.vocabulary)
    func filesAreInEncoderFormAndDecodeWithoutWarnings(_ feedback: Feedback) throws {
        let name = feedback.canonicalFileName
        let text = try #require(CanonicalPatterns.sources[name])
        let decoded = try AHAPDecoder().decode(text, fileName: name)
        #expect(decoded.warnings == [])
        #expect(AHAPEncoder().encode(decoded.pattern) == text)
        #expect(decoded.pattern.metadata.first == MetadataEntry(key: "Feedback", value: feedback.name))
    }

    /// Each pulse as (start, duration, intensity, sharpness); every event is HapticContinuous.
    static let expectedPulses: [(Feedback, [(Double, Double, Double, Double)])] = [
        (.notification(.success), [(0, 0.04, 0.157, 0.5), (0.08, 0.16, 1.0, 0.5)]),
        (.notification(.warning), [(0, 0.12, 1.0, 0.5), (0.24, 0.04, 0.47, 0.5)]),
        (
            .notification(.error),
            [(0, 0.08, 0.471, 0.5), (0.12, 0.08, 0.471, 0.5), (0.24, 0.16, 1.0, 0.5), (0.44, 0.04, 0.157, 0.5)]
        ),
        (.impact(.light), [(0, 0.04, 0.156, 0.5)]),
        (.impact(.medium), [(0, 0.08, 0.471, 0.5)]),
        (.impact(.heavy), [(0, 0.16, 1.0, 0.5)]),
        (.impact(.soft), [(0, 0.16, 0.156, 0.1)]),
        (.impact(.rigid), [(0, 0.04, 1.0, 0.9)]),
        (.selection, [(0, 0.04, 0.471, 0.7)]),
    ]

    @Test func exactEventLists() {
        for (feedback, pulses) in Self.expectedPulses {
            let expected = pulses.map { start, duration, intensity, sharpness in
                PatternEvent(
                    kind: .hapticContinuous, time: start, duration: duration,
                    parameters: EventParameters(hapticIntensity: intensity, hapticSharpness: sharpness))
            }
            let pattern = feedback.canonicalPattern
            #expect(pattern.events == expected, "\(feedback.name)")
            #expect(pattern.parameters == [] && pattern.curves == [], "\(feedback.name)")
        }
    }

    @Test func durations() {
        #expect(Feedback.notification(.success).canonicalPattern.duration == 0.24)
        #expect(Feedback.notification(.warning).canonicalPattern.duration == 0.24 + 0.04)
        #expect(Feedback.notification(.error).canonicalPattern.duration == 0.48)
        #expect(Feedback.impact(.soft).canonicalPattern.duration == 0.16)
    }

    @Test func softIsDullerAndRigidSharperThanTheOtherImpacts() {
        func sharpness(_ style: ImpactStyle) -> Double {
            Feedback.impact(style).canonicalPattern.events[0].parameters.resolvedSharpness
        }
        for style in [ImpactStyle.light, .medium, .heavy] {
            #expect(sharpness(.soft) < sharpness(style))
            #expect(sharpness(.rigid) > sharpness(style))
        }
    }

    @Test func impactIntensityScalesEveryHapticEvent() {
        let half = Feedback.impact(.heavy, intensity: 0.5).canonicalPattern
        #expect(half.events.map(\.parameters.hapticIntensity) == [0.5])
        #expect(half.events.map(\.parameters.hapticSharpness) == [0.5])
        let quarterMedium = Feedback.impact(.medium, intensity: 0.25).canonicalPattern
        #expect(quarterMedium.events.map(\.parameters.hapticIntensity) == [0.471 * 0.25])
        #expect(Feedback.impact(.rigid, intensity: 0).canonicalPattern.events.map(\.parameters.hapticIntensity) == [0])
        #expect(Feedback.impact(.light, intensity: 7).canonicalPattern == Feedback.impact(.light).canonicalPattern)
    }
}
