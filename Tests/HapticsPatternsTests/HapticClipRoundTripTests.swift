import Foundation
import Testing
@testable import HapticsPatterns
import HapticsTestSupport

/// An AHAP pattern with what a clip has to flatten: attack and release, a decaying event, overlap,
/// an intensity curve and transients on and off the continuous events.
let layeredAHAP = """
    {
      "Version": 1.0,
      "Pattern": [
        { "Event": { "Time": 0.0, "EventType": "HapticContinuous", "EventDuration": 0.3,
          "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.6 },
                               { "ParameterID": "HapticSharpness", "ParameterValue": 0.2 },
                               { "ParameterID": "AttackTime", "ParameterValue": 0.05 },
                               { "ParameterID": "ReleaseTime", "ParameterValue": 0.1 } ] } },
        { "Event": { "Time": 0.1, "EventType": "HapticContinuous", "EventDuration": 0.15,
          "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.3 },
                               { "ParameterID": "HapticSharpness", "ParameterValue": 0.8 },
                               { "ParameterID": "Sustained", "ParameterValue": 0 } ] } },
        { "Event": { "Time": 0.12, "EventType": "HapticTransient",
          "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": 0.9 } ] } },
        { "Event": { "Time": 0.5, "EventType": "HapticTransient" } },
        { "Event": { "Time": 0.6, "EventType": "AudioContinuous", "EventDuration": 0.1 } },
        { "ParameterCurve": { "ParameterID": "HapticIntensityControl", "Time": 0.15,
          "ParameterCurveControlPoints": [ { "Time": 0, "ParameterValue": 1 }, { "Time": 0.1, "ParameterValue": 0.5 } ] } }
      ]
    }
    """

@Suite("AHAP → .haptic → AHAP keeps timings within 1 ms and levels within 1/255")
struct HapticClipRoundTripTests {
    static let level = 1.0 / 255
    static let timing = 0.001

    /// AHAP text → pattern → .haptic text → pattern → AHAP text → pattern.
    func roundTrip(_ ahap: String) throws -> (original: Pattern, clip: String, back: Pattern) {
        let original = try AHAPDecoder().decode(ahap, fileName: "in.ahap")
        let clip = HapticClipEncoder().encode(original.pattern)
        let decoded = try HapticClipDecoder().decode(clip, fileName: "out.haptic")
        #expect(decoded.warnings == [], "\(clip)")
        let again = try AHAPDecoder().decode(AHAPEncoder().encode(decoded.pattern), fileName: "back.ahap")
        #expect(again.warnings == [])
        return (original.pattern, clip, again.pattern)
    }

    @Test(arguments: Feedback.vocabulary.map(\.canonicalFileName))
    func canonicalPatternsComeBackEventForEvent(_ fileName: String) throws {
        let text = try String(contentsOfFile: Repository.root + "/Patterns/" + fileName, encoding: .utf8)
        let (original, _, back) = try roundTrip(text)
        #expect(back.curves == [] && back.parameters == [])
        try #require(back.events.count == original.events.count)
        for (was, now) in zip(original.events, back.events) {
            #expect(now.kind == was.kind)
            #expect(abs(now.time - was.time) <= Self.timing)
            #expect(abs(now.resolvedDuration - was.resolvedDuration) <= Self.timing)
            #expect(abs(now.parameters.resolvedIntensity - was.parameters.resolvedIntensity) <= Self.level)
            #expect(abs(now.parameters.resolvedSharpness - was.parameters.resolvedSharpness) <= Self.level)
        }
    }

    @Test func aLayeredPatternIsFeltTheSameEveryMillisecond() throws {
        let (original, _, back) = try roundTrip(layeredAHAP)
        let before = FeltLevels(original)
        let after = FeltLevels(back)
        // In the middle of every millisecond, as the renderer samples the middle of each tick: at
        // the very instant of a jump a curve still holds the value before it.
        for step in 0..<700 {
            let time = (Double(step) + 0.5) / 1000
            let was = before.sample(before.layers.filter { $0.start <= time && time < $0.end }, at: time, controlTime: time)
            let now = after.sample(after.layers.filter { $0.start <= time && time < $0.end }, at: time, controlTime: time)
            #expect(abs(now.level - was.level) <= Self.level, "level at \(time) s")
            if let sharpness = was.sharpness, was.level > 0 {
                #expect(abs((now.sharpness ?? -1) - sharpness) <= Self.level, "sharpness at \(time) s")
            }
        }
        // Transients keep their time and their own intensity.
        #expect(after.transients.map(\.time) == [0.12, 0.5])
        #expect(zip(after.transients, before.transients).allSatisfy { abs($0.intensity - $1.intensity) <= Self.level })
    }

    @Test func theEncoderWritesTheClipLayoutExactly() throws {
        let pattern = Pattern(
            metadata: [MetadataEntry(key: "project", value: "Doors"), MetadataEntry(key: "tags", value: "door"),
                       MetadataEntry(key: "tags", value: "slam")],
            events: [
                PatternEvent(kind: .hapticContinuous, time: 0.1, duration: 0.2,
                             parameters: EventParameters(hapticIntensity: 0.5, hapticSharpness: 0.25, attackTime: 0.1)),
                PatternEvent(kind: .hapticTransient, time: 0.3, parameters: EventParameters(hapticIntensity: 0.75)),
            ])
        #expect(HapticClipEncoder().encode(pattern) == """
            {
              "version": { "major": 1, "minor": 0, "patch": 0 },
              "metadata": {
                "project": "Doors",
                "tags": ["door", "slam"]
              },
              "signals": {
                "continuous": {
                  "envelopes": {
                    "amplitude": [
                      { "time": 0.1, "amplitude": 0 },
                      { "time": 0.2, "amplitude": 0.5 },
                      { "time": 0.3, "amplitude": 0.5 },
                      { "time": 0.3, "amplitude": 0, "emphasis": { "amplitude": 0.75, "frequency": 0.5 } }
                    ],
                    "frequency": [
                      { "time": 0.1, "frequency": 0.25 },
                      { "time": 0.3, "frequency": 0.25 }
                    ]
                  }
                }
              }
            }

            """)
    }

    @Test func aPatternWithoutHapticsIsOneSilentBreakpoint() {
        let pattern = Pattern(events: [PatternEvent(kind: .audioContinuous, time: 0, duration: 1)])
        #expect(HapticClipEncoder().encode(pattern).contains(#""amplitude": [\#n          { "time": 0, "amplitude": 0 }\#n        ]"#))
        #expect(HapticClipEncoder().omissions(in: pattern) == ["1 audio event"])
    }

    @Test func triggerEffectsAreNamedAsLost() {
        let pattern = Pattern(triggerEvents: [TriggerPatternEvent(time: 0, right: .off), TriggerPatternEvent(time: 1, left: .off)])
        #expect(HapticClipEncoder().omissions(in: pattern) == ["2 trigger effects"])
    }

    @Test func valuesNoFileCouldHoldStillGiveAClipThatDecodes() throws {
        let pattern = Pattern(events: [
            PatternEvent(kind: .hapticContinuous, time: 0, duration: 0.2,
                         parameters: EventParameters(hapticIntensity: .nan, attackTime: .infinity, releaseTime: -1)),
            PatternEvent(kind: .hapticContinuous, time: .nan, duration: 1),
            PatternEvent(kind: .hapticTransient, time: 0.1, parameters: EventParameters(hapticIntensity: 7, hapticSharpness: -.infinity)),
        ])
        let decoded = try HapticClipDecoder().decode(HapticClipEncoder().encode(pattern), fileName: "x.haptic")
        #expect(decoded.warnings == [])
        #expect(decoded.pattern.events.map(\.kind) == [.hapticTransient])
        #expect(decoded.pattern.events.first?.parameters == EventParameters(hapticIntensity: 1, hapticSharpness: 0))
    }

    @Test func aJumpUnderACurveStaysOneJump() throws {
        // Shaped (the frequency rises), so the jumps at 0.15 s and 0.4 s are jumps of a curve.
        let text = try String(contentsOfFile: Repository.root + "/Tests/FuzzRegressions/haptic/curve-jump-unstable.haptic", encoding: .utf8)
        let decoded = try HapticClipDecoder().decode(text, fileName: "jump.haptic")
        #expect(decoded.pattern.curves.count == 2)
        let encoded = HapticClipEncoder().encode(decoded.pattern)
        #expect(encoded.contains("""
                      { "time": 0.15, "amplitude": 0.4 },
                      { "time": 0.15, "amplitude": 0.9, "emphasis": { "amplitude": 1, "frequency": 0.65 } },
                      { "time": 0.25, "amplitude": 0.9 },
            """))
        let again = HapticClipEncoder().encode(try HapticClipDecoder().decode(encoded, fileName: "jump.haptic").pattern)
        #expect(again == encoded)
    }

    @Test func clipsSurviveDecodeEncodeDecode() throws {
        for name in ["studio-export.haptic", "untidy.haptic", "empty-frequency.haptic"] {
            let first = try HapticClipDecoder().decode(try ClipFixtures.text(name), fileName: name)
            let text = HapticClipEncoder().encode(first.pattern)
            let second = try HapticClipDecoder().decode(text, fileName: name)
            let third = HapticClipEncoder().encode(second.pattern)
            #expect(third == text, "\(name) is not stable:\n\(text)\n\(third)")
        }
    }
}
