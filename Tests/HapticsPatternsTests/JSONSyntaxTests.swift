import Testing
@testable import HapticsPatterns

@Suite("JSON syntax errors are located")
struct JSONSyntaxTests {
    @Test func missingCommaBetweenMembers() {
        #expect(
            decodingError(#"{"Version": 1.0 "Pattern": []}"#)
                == #"x.ahap:1:17: expected ',' or '}' after an object member, found '"'"#)
    }

    @Test func missingCommaBetweenElementsOnALaterLine() {
        let text = "{\n  \"Pattern\": [\n    {\"Event\": {\"EventType\": \"HapticTransient\", \"Time\": 0}}\n    {}\n  ]\n}"
        #expect(decodingError(text) == "x.ahap:4:5: expected ',' or ']' after an array element, found '{'")
    }

    @Test func lineBreakInsideAString() {
        #expect(
            decodingError("{\"Version\": \"1.0\n}")
                == #"x.ahap:1:17: expected '"' to close the string, found a line break"#)
    }

    @Test func missingColon() {
        #expect(decodingError(#"{"Pattern" []}"#) == #"x.ahap:1:12: expected ':' after the key "Pattern", found '['"#)
    }

    @Test func notANumberLiteral() {
        #expect(decodingError(#"{"Version": NaN}"#) == "x.ahap:1:13: expected a value, found 'NaN'")
    }

    @Test func commentsAreRejected() {
        #expect(
            decodingError("{\n  // haptics\n  \"Pattern\": []\n}")
                == "x.ahap:2:3: comments are not allowed in AHAP files")
    }

    @Test func textAfterTheTopLevelValue() {
        #expect(
            decodingError(#"{"Pattern": []} x"#)
                == "x.ahap:1:17: expected the end of the file after the top-level value, found 'x'")
    }

    @Test func endOfFileInsideAnArray() {
        #expect(decodingError(#"{"Pattern": ["#) == "x.ahap:1:14: expected a value, found the end of the file")
    }

    @Test func leadingZero() {
        #expect(
            decodingError(#"{"Version": 01}"#)
                == "x.ahap:1:14: expected '.', 'e' or the end of the number after a leading 0, found '1'")
    }

    @Test func invalidEscape() {
        #expect(
            decodingError(#"{"Metadata": {"A": "x\q"}}"#)
                == #"x.ahap:1:23: expected one of \" \\ \/ \b \f \n \r \t \u after '\', found 'q'"#)
    }

    @Test func unpairedSurrogate() {
        #expect(
            decodingError(#"{"Metadata": {"A": "\ud800x"}}"#)
                == #"x.ahap:1:21: unpaired surrogate \uD800 in a string"#)
    }

    @Test func numberOutOfRange() {
        #expect(decodingError(#"{"Version": 1e999}"#) == "x.ahap:1:13: the number 1e999 is out of range")
    }

    @Test func nestingLimit() {
        var limits = PatternLimits.default
        limits.maximumNestingDepth = 3
        #expect(
            decodingError(#"{"Pattern": [[[1]]]}"#, limits: limits)
                == "x.ahap:1:15: arrays and objects nest deeper than the limit of 3 levels")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(
            decodingError(#"{"Metadata": {"Künstler": "é"}, "Pattern": 1}"#)
                == "x.ahap:1:44: Pattern: expected an array, found 1")
    }

    @Test func crlfLineBreaksCountOnce() {
        #expect(
            decodingError("{\r\n  \"Pattern\": 7\r\n}")
                == "x.ahap:2:14: Pattern: expected an array, found 7")
    }
}

@Suite("JSON leniencies are accepted with a warning")
struct JSONLeniencyTests {
    @Test func trailingCommaInAnObject() throws {
        let result = try decodeWithWarnings("{\n  \"Pattern\": [],\n}")
        #expect(result.warnings == ["x.ahap:2:16: warning: trailing comma before '}' accepted"])
    }

    @Test func trailingCommaInAnArray() throws {
        let result = try decodeWithWarnings(#"{"Pattern": [{"Event": {"EventType": "HapticTransient", "Time": 0}},]}"#)
        #expect(result.warnings == ["x.ahap:1:68: warning: trailing comma before ']' accepted"])
        #expect(result.pattern.events == [PatternEvent(kind: .hapticTransient, time: 0)])
    }

    @Test func duplicateKeysKeepTheLastValue() throws {
        let result = try decodeWithWarnings(#"{"Version": 1, "Version": 2, "Pattern": []}"#)
        #expect(result.warnings == [#"x.ahap:1:16: warning: duplicate key "Version"; the last value is used"#])
        #expect(result.pattern.version == 2)
    }

    @Test func byteOrderMarkIsSkippedAndTakesNoColumn() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"Pattern": 5}"#.utf8)
        #expect(throws: PatternError(file: "x.ahap", line: 1, column: 13, path: "Pattern", message: "expected an array, found 5")) {
            try AHAPDecoder().decode(bytes, fileName: "x.ahap")
        }
    }

    @Test func integerVersionIsAccepted() throws {
        let result = try decodeWithWarnings(#"{"Version": 1, "Pattern": []}"#)
        #expect(result.warnings == [])
        #expect(result.pattern.version == 1.0)
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let result = try decodeWithWarnings(#"{"Metadata": {"Text": "a\"b\\c\/d\n\u00e9\ud83d\ude00"}, "Pattern": []}"#)
        #expect(result.pattern.metadata == [MetadataEntry(key: "Text", value: "a\"b\\c/d\né😀")])
    }
}

@Suite("JSON reading stays linear on hostile input")
struct JSONScaleTests {
    @Test func manyMetadataKeysAndDuplicates() throws {
        let keys = (0..<20_000).map { #""k\#($0)": "v""# }
        let duplicates = (0..<20_000).map { #""k0": "w\#($0)""# }
        let text = #"{"Metadata": {"# + (keys + duplicates).joined(separator: ",") + #"}, "Pattern": []}"#
        let decoded = try AHAPDecoder().decode(text, fileName: "x.ahap")
        #expect(decoded.pattern.metadata.count == 20_000)
        #expect(decoded.pattern.metadata[0] == MetadataEntry(key: "k0", value: "w19999"))
        #expect(decoded.warnings.count == 20_000)
    }
}
