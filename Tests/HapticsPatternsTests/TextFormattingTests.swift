import Testing
import HapticsPatterns

@Suite("JSON strings are escaped the one way every module writes them")
struct JSONStringTests {
    @Test func quotesAndBackslashesAreEscaped() {
        #expect(JSONString.quoted(#"say "hi" \ bye"#) == #""say \"hi\" \\ bye""#)
        #expect(JSONString.quoted("") == #""""#)
    }

    @Test func everyControlCharacterIsEscapedWithTheShortFormWhereJSONHasOne() {
        #expect(JSONString.quoted("\u{08}\t\n\u{0C}\r") == #""\b\t\n\f\r""#)
        #expect(JSONString.quoted("\u{00}\u{01}\u{07}\u{0B}\u{0E}\u{1B}\u{1F}")
            == #""\u0000\u0001\u0007\u000b\u000e\u001b\u001f""#)
        let allControls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init)))
        let quoted = JSONString.quoted(allControls)
        #expect(quoted.unicodeScalars.allSatisfy { $0.value >= 0x20 })
        #expect(quoted.count == 2 + 5 * 2 + 27 * 6)
    }

    @Test func whatATerminalWouldObeyIsEscapedInJSONSpelling() {
        // DEL, C1 controls and bidi overrides: valid in JSON, but acted on by the terminal that
        // shows a JSON line. A JSON reader decodes the escapes back to the same text.
        #expect(JSONString.quoted("\u{7F}\u{80}\u{9B}2J\u{9F}") == #""\u007f\u0080\u009b2J\u009f""#)
        #expect(JSONString.quoted("a\u{202E}b\u{2066}c") == #""a\u202eb\u2066c""#)
    }

    @Test func everythingElseIsWrittenAsItIs() {
        #expect(JSONString.quoted("a/b é ✓ \u{A0} \u{2028}") == "\"a/b é ✓ \u{A0} \u{2028}\"")
    }
}

@Suite("Numbers are written the same way everywhere")
struct NumberTextTests {
    @Test func shortestDropsTheFractionOfWholeNumbersAndRoundTrips() {
        #expect(NumberText.shortest(1) == "1")
        #expect(NumberText.shortest(-0.0) == "0")
        #expect(NumberText.shortest(0.25) == "0.25")
        #expect(NumberText.shortest(-3.5) == "-3.5")
        #expect(NumberText.shortest(0.1 + 0.2) == "0.30000000000000004")
        #expect(NumberText.shortest(600) == "600")
        #expect(NumberText.shortest(1e-7) == "1e-07")
        #expect(NumberText.shortest(1e16) == "1e+16")
        #expect(NumberText.shortest(.nan) == "nan")
        #expect(NumberText.shortest(-.infinity) == "-inf")
    }

    @Test func decimalRoundsHalfAwayFromZeroAndDropsTrailingZeros() {
        #expect(NumberText.decimal(0.5, digits: 3) == "0.5")
        #expect(NumberText.decimal(12, digits: 3) == "12")
        #expect(NumberText.decimal(-3.25, digits: 3) == "-3.25")
        #expect(NumberText.decimal(5.3333333, digits: 3) == "5.333")
        #expect(NumberText.decimal(0.0625, digits: 3) == "0.063")
        #expect(NumberText.decimal(-0.0625, digits: 3) == "-0.063")
        #expect(NumberText.decimal(0.0004, digits: 3) == "0")
        #expect(NumberText.decimal(-0.0004, digits: 3) == "0")
        #expect(NumberText.decimal(297.6, digits: 1) == "297.6")
        #expect(NumberText.decimal(2.5, digits: 0) == "3")
    }

    @Test func fixedKeepsEveryDigit() {
        #expect(NumberText.fixed(0.8, digits: 2) == "0.80")
        #expect(NumberText.fixed(1, digits: 2) == "1.00")
        #expect(NumberText.fixed(-0.1, digits: 2) == "-0.10")
        #expect(NumberText.fixed(-0.001, digits: 2) == "0.00")
        #expect(NumberText.fixed(0.125, digits: 2) == "0.13")
        #expect(NumberText.fixed(7, digits: 0) == "7")
    }

    @Test func valuesBeyondTheDecimalsRangeFallBackToTheShortestText() {
        #expect(NumberText.decimal(1e300, digits: 3) == "1e+300")
        #expect(NumberText.fixed(.infinity, digits: 2) == "inf")
        #expect(NumberText.decimal(.nan, digits: 1) == "nan")
    }
}
