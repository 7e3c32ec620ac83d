import HapticsTriggers
import Testing
@testable import HapticsPatterns

/// The AHAP extension `DualSenseTriggers`: trigger effects on the pattern's timeline, read with
/// located errors, written back in a fixed form.
@Suite("AHAP trigger extension")
struct AHAPTriggerExtensionTests {
    static let text = """
        {
          "Version": 1,
          "Pattern": [
            { "Event": { "Time": 0.0, "EventType": "HapticTransient" } }
          ],
          "DualSenseTriggers": [
            { "Time": 0.0, "Right": "weapon:2,6,8" },
            { "Time": 0.5, "Left": "feedback:3,5", "Right": "off" }
          ]
        }
        """

    @Test func effectsAreReadWithTheirTimes() throws {
        let (pattern, warnings) = try decodeWithWarnings(Self.text)
        #expect(warnings == [])
        #expect(pattern.triggerEvents == [
            TriggerPatternEvent(time: 0, right: try .weapon(start: 2, end: 6, strength: 8)),
            TriggerPatternEvent(time: 0.5, left: try .feedback(zone: 3, strength: 5), right: .off),
        ])
    }

    @Test func theyAreWrittenAfterThePatternAndReadBackTheSame() throws {
        let (pattern, _) = try decodeWithWarnings(Self.text)
        let encoded = AHAPEncoder().encode(pattern)
        #expect(encoded.hasSuffix("""
              ],
              "DualSenseTriggers": [
                { "Time": 0.0, "Right": "weapon:2,6,8" },
                { "Time": 0.5, "Left": "feedback:3,5", "Right": "off" }
              ]
            }

            """))
        #expect(try decodeWithWarnings(encoded).pattern == pattern)
    }

    @Test func aBadEffectIsLocatedAtItsText() {
        let text = "{\n  \"Pattern\": [],\n  \"DualSenseTriggers\": [ { \"Time\": 1, \"Left\": \"weapon:2,9,8\" } ]\n}\n"
        #expect(decodingError(text) == #"x.ahap:3:47: DualSenseTriggers[0].Left: "weapon:2,9,8": weapon end zone 9 is outside 3…8"#)
    }

    @Test func anEntryWithoutATriggerIsAnError() {
        let text = "{\n  \"Pattern\": [],\n  \"DualSenseTriggers\": [ { \"Time\": 1 } ]\n}\n"
        #expect(decodingError(text) == #"x.ahap:3:26: DualSenseTriggers[0]: expected "Left", "Right" or both"#)
    }

    @Test func aNegativeTimeIsAnError() {
        let text = "{\n  \"Pattern\": [],\n  \"DualSenseTriggers\": [ { \"Time\": -1, \"Right\": \"off\" } ]\n}\n"
        #expect(decodingError(text) == "x.ahap:3:36: DualSenseTriggers[0].Time: expected a number ≥ 0, found -1")
    }
}
