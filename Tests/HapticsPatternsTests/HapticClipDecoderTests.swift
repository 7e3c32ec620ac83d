import Foundation
import Testing
@testable import HapticsPatterns
import HapticsTestSupport

/// The `.haptic` fixtures, which are also the fuzzer's seeds.
enum ClipFixtures {
    static func text(_ name: String) throws -> String {
        try String(contentsOfFile: Repository.root + "/Tests/FuzzSeeds/haptic/" + name, encoding: .utf8)
    }
}

/// Decodes `text` as `x.haptic` and returns the error's description, or `nil` when it decoded.
func clipDecodingError(_ text: String) -> String? {
    do {
        _ = try HapticClipDecoder().decode(text, fileName: "x.haptic")
        return nil
    } catch {
        return error.description
    }
}

/// A clip whose amplitude envelope is `amplitude` (the text of an array, starting on line 3).
func clip(amplitude: String, frequency: String? = nil) -> String {
    var text = "{\n  \"version\": { \"major\": 1 },\n  \"signals\": { \"continuous\": { \"envelopes\": {\n"
    text += "    \"amplitude\": \(amplitude)"
    if let frequency { text += ",\n    \"frequency\": \(frequency)" }
    return text + "\n  } } }\n}\n"
}

@Suite("Reading .haptic clips")
struct HapticClipDecoderTests {
    @Test func aShapedClipBecomesOneEventWithCurvesAndTransientsForItsEmphasis() throws {
        let decoded = try HapticClipDecoder().decode(try ClipFixtures.text("studio-export.haptic"), fileName: "door.haptic")
        #expect(decoded.warnings == [])
        let pattern = decoded.pattern
        #expect(pattern.metadata == [
            MetadataEntry(key: "editor", value: "Haptics Studio"), MetadataEntry(key: "author", value: ""),
            MetadataEntry(key: "source", value: "door-slam.wav"), MetadataEntry(key: "project", value: "Doors"),
            MetadataEntry(key: "tags", value: "impact"), MetadataEntry(key: "tags", value: "door"),
            MetadataEntry(key: "description", value: "A heavy door slams, then rattles."),
        ])
        #expect(pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.5,
                         parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0)),
            PatternEvent(kind: .hapticTransient, time: 0.012, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.9)),
            PatternEvent(kind: .hapticTransient, time: 0.2, parameters: EventParameters(hapticIntensity: 0.7, hapticSharpness: 0.4)),
        ])
        #expect(pattern.curves == [
            ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [
                .init(time: 0, value: 0), .init(time: 0.012, value: 0.85), .init(time: 0.08, value: 0.6),
                .init(time: 0.2, value: 0.35), .init(time: 0.32, value: 0.2), .init(time: 0.5, value: 0),
            ]),
            ParameterCurve(id: .hapticSharpnessControl, time: 0, controlPoints: [
                .init(time: 0, value: 0.8), .init(time: 0.1, value: 0.55), .init(time: 0.5, value: 0.3),
            ]),
        ])
        #expect(pattern.parameters == [])
    }

    @Test func flatStretchesBecomeEventsWithTheirLevels() throws {
        let decoded = try HapticClipDecoder().decode(try ClipFixtures.text("empty-frequency.haptic"), fileName: "x.haptic")
        #expect(decoded.warnings == [])
        #expect(decoded.pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.1, parameters: EventParameters(hapticIntensity: 0.5)),
            PatternEvent(kind: .hapticTransient, time: 0.3, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.5)),
        ])
        #expect(decoded.pattern.curves == [])
    }

    @Test func backToBackFlatStretchesStaySeparateEvents() throws {
        let text = clip(
            amplitude: #"[{"time": 0, "amplitude": 0.3}, {"time": 0.1, "amplitude": 0.3}, {"time": 0.1, "amplitude": 0.8}, {"time": 0.2, "amplitude": 0.8}, {"time": 0.2, "amplitude": 0}]"#,
            frequency: #"[{"time": 0, "frequency": 0.6}]"#)
        let decoded = try HapticClipDecoder().decode(text, fileName: "x.haptic")
        #expect(decoded.pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.1, parameters: EventParameters(hapticIntensity: 0.3, hapticSharpness: 0.6)),
            PatternEvent(kind: .hapticContinuous, time: 0.1, duration: 0.1, parameters: EventParameters(hapticIntensity: 0.8, hapticSharpness: 0.6)),
        ])
        #expect(decoded.pattern.curves == [])
    }

    @Test func untidyExportsAreReadAsMeant() throws {
        let decoded = try HapticClipDecoder().decode(try ClipFixtures.text("untidy.haptic"), fileName: "untidy.haptic")
        #expect(decoded.warnings.map(\.description) == [
            "untidy.haptic:14:11: warning: signals.continuous.envelopes.amplitude[6]: a third breakpoint at 0.4 s; this one has no duration and only its emphasis counts"
        ])
        // Exponent notation, a late start, jumps written as breakpoints sharing a time, a frequency
        // envelope of its own span: three flat stretches, each an event.
        #expect(decoded.pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0.05, duration: 0.15 - 0.05, parameters: EventParameters(hapticIntensity: 0.4, hapticSharpness: 0.25)),
            PatternEvent(kind: .hapticContinuous, time: 0.15, duration: 0.25 - 0.15, parameters: EventParameters(hapticIntensity: 0.9, hapticSharpness: 0.25)),
            PatternEvent(kind: .hapticTransient, time: 0.15, parameters: EventParameters(hapticIntensity: 1, hapticSharpness: 0.65)),
            PatternEvent(kind: .hapticContinuous, time: 0.4, duration: 0.55 - 0.4, parameters: EventParameters(hapticIntensity: 0.7, hapticSharpness: 0.25)),
        ])
        #expect(decoded.pattern.curves == [])
    }

    @Test func aFrequencyEnvelopeStartingLateHoldsItsFirstValueFromTheStart() throws {
        let text = clip(
            amplitude: #"[{"time": 0, "amplitude": 0}, {"time": 1, "amplitude": 1}]"#,
            frequency: #"[{"time": 0.5, "frequency": 0.75}, {"time": 0.6, "frequency": 0.25}]"#)
        let decoded = try HapticClipDecoder().decode(text, fileName: "x.haptic")
        #expect(decoded.pattern.curves == [
            ParameterCurve(id: .hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 0), .init(time: 1, value: 1)]),
            ParameterCurve(id: .hapticSharpnessControl, time: 0, controlPoints: [
                .init(time: 0, value: 0.75), .init(time: 0.5, value: 0.75), .init(time: 0.6, value: 0.25),
            ]),
        ])
    }

    @Test func longEnvelopesBecomeChainedCurvesOfSixteenPoints() throws {
        let points = (0..<40).map { #"{"time": \#(Double($0) / 100), "amplitude": \#($0 % 2 == 0 ? 0.2 : 0.9)}"# }
        let decoded = try HapticClipDecoder().decode(clip(amplitude: "[" + points.joined(separator: ", ") + "]"), fileName: "x.haptic")
        let curves = decoded.pattern.curves
        #expect(curves.map(\.controlPoints.count) == [16, 16, 10])
        #expect(curves.map(\.time) == [0, 0.15, 0.3])
        #expect(curves[1].controlPoints.first?.value == curves[0].controlPoints.last?.value)
    }

    @Test func unsupportedMajorVersionsAreRefused() {
        let text = clip(amplitude: #"[{"time": 0, "amplitude": 1}]"#).replacingOccurrences(of: #""major": 1"#, with: #""major": 2"#)
        #expect(clipDecodingError(text) == "x.haptic:2:25: version.major: unsupported major version 2; this reader supports version 1 clips")
    }

    @Test func aVersionThatIsNotAWholeNumberIsRefused() {
        let text = clip(amplitude: #"[{"time": 0, "amplitude": 1}]"#).replacingOccurrences(of: #""major": 1"#, with: #""major": 1.5"#)
        #expect(clipDecodingError(text) == "x.haptic:2:25: version.major: expected a whole number ≥ 0, found 1.5")
    }

    @Test func missingSignalsAreRefused() {
        #expect(clipDecodingError(#"{"version": {"major": 1}}"#) == #"x.haptic:1:1: missing required key "signals""#)
    }

    @Test func missingVersionIsRefused() {
        #expect(clipDecodingError(#"{"signals": {}}"#) == #"x.haptic:1:1: missing required key "version""#)
    }

    @Test func anEmptyAmplitudeEnvelopeIsRefused() {
        #expect(clipDecodingError(clip(amplitude: "[]"))
            == "x.haptic:4:18: signals.continuous.envelopes.amplitude: expected at least one amplitude breakpoint, found an empty array")
    }

    @Test func breakpointsOutOfTimeOrderAreRefused() {
        let text = clip(amplitude: #"[{"time": 0.2, "amplitude": 1}, {"time": 0.1, "amplitude": 0}]"#)
        #expect(clipDecodingError(text)
            == "x.haptic:4:59: signals.continuous.envelopes.amplitude[1].time: expected a time ≥ 0.2 (breakpoints in time order), found 0.1")
    }

    @Test func wrongTypesAreLocated() {
        let text = clip(amplitude: #"[{"time": 0, "amplitude": "loud"}]"#)
        #expect(clipDecodingError(text) == #"x.haptic:4:44: signals.continuous.envelopes.amplitude[0].amplitude: expected a number, found "loud""#)
    }

    @Test func anEmphasisNeedsBothValues() {
        let text = clip(amplitude: #"[{"time": 0, "amplitude": 1, "emphasis": {"amplitude": 1}}]"#)
        #expect(clipDecodingError(text) == #"x.haptic:4:59: signals.continuous.envelopes.amplitude[0].emphasis: missing required key "frequency""#)
    }

    @Test func levelsOutOfRangeAreClampedWithAWarning() throws {
        let decoded = try HapticClipDecoder().decode(
            clip(amplitude: #"[{"time": 0, "amplitude": 1.2}, {"time": 1, "amplitude": 1.2}]"#), fileName: "x.haptic")
        #expect(decoded.warnings.map(\.description) == [
            "x.haptic:4:44: warning: signals.continuous.envelopes.amplitude[0].amplitude: amplitude 1.2 is outside 0…1; clamped to 1",
            "x.haptic:4:75: warning: signals.continuous.envelopes.amplitude[1].amplitude: amplitude 1.2 is outside 0…1; clamped to 1",
        ])
        #expect(decoded.pattern.events == [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 1, parameters: EventParameters(hapticIntensity: 1))
        ])
    }

    @Test func unknownKeysAreIgnoredWithAWarning() throws {
        let decoded = try HapticClipDecoder().decode(
            clip(amplitude: #"[{"time": 0, "amplitude": 0.5, "curve": "ease"}, {"time": 1, "amplitude": 0.5}]"#), fileName: "x.haptic")
        #expect(decoded.warnings.map(\.description) == [
            "x.haptic:4:49: warning: signals.continuous.envelopes.amplitude[0].curve: unknown key ignored"
        ])
    }

    @Test func aSingleBreakpointHasNothingContinuousToPlay() throws {
        let decoded = try HapticClipDecoder().decode(clip(amplitude: #"[{"time": 0, "amplitude": 0.5}]"#), fileName: "x.haptic")
        #expect(decoded.pattern.events == [])
        #expect(decoded.warnings.map(\.description) == [
            "x.haptic:4:18: warning: signals.continuous.envelopes.amplitude: the amplitude envelope has no duration: nothing continuous to play"
        ])
    }
}

@Suite("Recognising pattern formats by content")
struct PatternFormatTests {
    @Test func eachFormatIsRecognisedWhateverTheFileIsCalled() throws {
        #expect(PatternFormat.recognize(Array(try ClipFixtures.text("studio-export.haptic").utf8)) == .hapticClip)
        #expect(PatternFormat.recognize(Array(#"{"Version": 1, "Pattern": []}"#.utf8)) == .ahap)
        #expect(PatternFormat.recognize(Array(#"{"name": "default", "profiles": []}"#.utf8)) == .feedbackdTheme)
        #expect(PatternFormat.recognize(Array("not json".utf8)) == .ahap)
    }

    @Test func outputFormatsComeFromTheExtension() {
        #expect(PatternFormat(outputPath: "a/b.AHAP") == .ahap)
        #expect(PatternFormat(outputPath: "b.haptic") == .hapticClip)
        #expect(PatternFormat(outputPath: "b.json") == nil)
    }

    @Test func decodePatternReadsAClipWhateverItsName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(try ClipFixtures.text("empty-frequency.haptic"), to: "clip.ahap")
        let decoded = try decodePattern(contentsOf: folder.path + "/clip.ahap")
        #expect(decoded.pattern.events.map(\.kind) == [.hapticContinuous, .hapticTransient])
    }

    @Test func aThemeIsNotOnePattern() {
        #expect(throws: PatternError(file: "t.json", line: 1, column: 1, path: "",
                                     message: "a feedbackd theme holds one pattern per event; name the event to read")) {
            try decodePattern(Array(#"{"name": "default", "profiles": []}"#.utf8), fileName: "t.json")
        }
    }
}
