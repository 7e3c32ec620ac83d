import Testing
@testable import HapticsPatterns

/// A pattern file is outside text: its keys, its values and its name reach the terminal only
/// escaped, so a hostile file cannot retitle or clear the terminal of whoever validates it.
@Suite struct DiagnosticEscapingTests {
    @Test func anUnknownKeyWithATitleSequenceIsPrintedEscaped() throws {
        // The key is written with JSON escapes in the file: ESC ] 0 ; pwned BEL.
        let result = try decodeWithWarnings(fileWithEvent(#"{ "EventType": "HapticTransient", "\u001b]0;pwned\u0007": 1, "Time": 0 }"#))
        #expect(result.warnings == [#"x.ahap:3:50: warning: Pattern[0].Event.\u{1B}]0;pwned\u{07}: unknown key ignored"#])
    }

    @Test func anUnknownKeyWithARawC1ControlIsPrintedEscaped() throws {
        // U+009B (CSI) may stand raw in a JSON string; "CSI 2 J" clears the screen.
        let result = try decodeWithWarnings(fileWithEvent("{ \"EventType\": \"HapticTransient\", \"\u{9B}2J\": 1, \"Time\": 0 }"))
        #expect(result.warnings == [#"x.ahap:3:50: warning: Pattern[0].Event.\u{9B}2J: unknown key ignored"#])
    }

    @Test func theFieldsKeepTheFileTextAndOnlyTheDescriptionIsEscaped() throws {
        let decoded = try AHAPDecoder().decode(fileWithEvent("{ \"EventType\": \"HapticTransient\", \"\u{9B}2J\": 1, \"Time\": 0 }"),
                                               fileName: "x.ahap")
        #expect(decoded.warnings.map(\.path) == ["Pattern[0].Event.\u{9B}2J"])
    }

    @Test func aQuotedValueIsEscapedInJSONSpelling() {
        #expect(throws: PatternError(file: "x.ahap", line: 3, column: 31, path: "Pattern[0].Event.EventType",
                                     message: #"expected "HapticTransient", "HapticContinuous", "AudioCustom" or "AudioContinuous", found "\u009b2J\u001b[0m""#)) {
            try AHAPDecoder().decode(fileWithEvent(#"{ "EventType": "\u009b2J\u001b[0m", "Time": 0 }"#), fileName: "x.ahap")
        }
    }

    @Test func theFileNameIsEscapedToo() {
        let error = PatternError(file: "evil\u{1B}]0;x\u{07}.ahap", line: 1, column: 2, path: "", message: "expected a value")
        #expect(error.description == #"evil\u{1B}]0;x\u{07}.ahap:1:2: expected a value"#)
        let warning = PatternDiagnostic(file: "a\u{202E}b.ahap", line: 1, column: 1, path: "K\u{85}", message: "m")
        #expect(warning.description == #"a\u{202E}b.ahap:1:1: warning: K\u{85}: m"#)
    }

    @Test func aFeedbackNameIsEscapedInItsError() {
        #expect(throws: FeedbackParseError.self) { try Feedback(parsing: "impact\u{1B}[2J") }
        let error = FeedbackParseError.unexpectedIntensity(in: "selection\u{9B}:1")
        #expect(error.description == #""selection\u{9B}:1" has an intensity, but only impact feedback takes one"#)
    }
}
