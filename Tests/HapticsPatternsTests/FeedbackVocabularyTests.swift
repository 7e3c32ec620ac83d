import Testing
@testable import HapticsPatterns

@Suite("Feedback names")
struct FeedbackVocabularyTests {
    static let allNames =
        "notification.success, notification.warning, notification.error, impact.light, impact.medium, impact.heavy, impact.soft, impact.rigid, selection"

    @Test func vocabularyHasNineItemsAtFullIntensity() {
        #expect(Feedback.vocabulary.map(\.name).joined(separator: ", ") == Self.allNames)
        #expect(Feedback.vocabulary.count == 9)
    }

    @Test func names() {
        #expect(Feedback.notification(.success).name == "notification.success")
        #expect(Feedback.impact(.heavy).name == "impact.heavy")
        #expect(Feedback.impact(.light, intensity: 0.5).name == "impact.light:0.5")
        #expect(Feedback.selection.name == "selection")
    }

    @Test(arguments: Feedback.vocabulary + [.impact(.soft, intensity: 0.25), .impact(.rigid, intensity: 0)])
    func nameParsesBack(_ feedback: Feedback) throws {
        #expect(try Feedback(parsing: feedback.name) == feedback)
    }

    @Test func parsesAnImpactWithIntensity() throws {
        #expect(try Feedback(parsing: "impact.light:0.5") == .impact(.light, intensity: 0.5))
        #expect(try Feedback(parsing: "impact.medium:1") == .impact(.medium, intensity: 1))
    }

    @Test func unknownNameListsTheValidNames() {
        #expect(throws: FeedbackParseError.unknownName("impact.huge", validNames: Feedback.vocabulary.map(\.name))) {
            try Feedback(parsing: "impact.huge")
        }
        let error = FeedbackParseError.unknownName("impact.huge", validNames: Feedback.vocabulary.map(\.name))
        #expect(error.description == "unknown feedback \"impact.huge\"; valid names: " + Self.allNames)
    }

    @Test func intensityOutOfRange() {
        #expect(throws: FeedbackParseError.intensityOutOfRange(1.5, in: "impact.light:1.5")) {
            try Feedback(parsing: "impact.light:1.5")
        }
        #expect(
            FeedbackParseError.intensityOutOfRange(1.5, in: "impact.light:1.5").description
                == "intensity 1.5 in \"impact.light:1.5\" is outside 0…1")
        #expect(throws: FeedbackParseError.intensityOutOfRange(-0.1, in: "impact.soft:-0.1")) {
            try Feedback(parsing: "impact.soft:-0.1")
        }
    }

    @Test func intensityNotANumber() {
        #expect(throws: FeedbackParseError.invalidIntensity("loud", in: "impact.heavy:loud")) {
            try Feedback(parsing: "impact.heavy:loud")
        }
        #expect(throws: FeedbackParseError.invalidIntensity("nan", in: "impact.heavy:nan")) {
            try Feedback(parsing: "impact.heavy:nan")
        }
        #expect(throws: FeedbackParseError.invalidIntensity("", in: "impact.heavy:")) {
            try Feedback(parsing: "impact.heavy:")
        }
        #expect(
            FeedbackParseError.invalidIntensity("loud", in: "impact.heavy:loud").description
                == "intensity \"loud\" in \"impact.heavy:loud\" is not a number; expected a number in 0…1")
    }

    @Test func intensityOnlyForImpacts() {
        #expect(throws: FeedbackParseError.unexpectedIntensity(in: "selection:0.5")) {
            try Feedback(parsing: "selection:0.5")
        }
        #expect(
            FeedbackParseError.unexpectedIntensity(in: "selection:0.5").description
                == "\"selection:0.5\" has an intensity, but only impact feedback takes one")
    }
}
