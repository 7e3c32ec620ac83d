import Foundation
import Testing
@testable import HapticsPatterns

@Suite("Reading pattern files")
struct PatternFileTests {
    @Test func decodesACanonicalFileByPath() throws {
        let path = repositoryRoot + "/Patterns/impact-rigid.ahap"
        let decoded = try decodePattern(contentsOf: path)
        #expect(decoded.pattern == Feedback.impact(.rigid).canonicalPattern)
        #expect(decoded.warnings == [])
    }

    @Test func errorsNameThePathAsGiven() throws {
        let path = NSTemporaryDirectory() + "haptics-pattern-\(UInt32.random(in: 0...UInt32.max)).ahap"
        try Data(#"{"Pattern": [{"Event": {"Time": 0}}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: PatternError(file: path, line: 1, column: 24, path: "Pattern[0].Event", message: "missing required key \"EventType\"")) {
            try decodePattern(contentsOf: path)
        }
    }

    @Test func sizeIsCheckedBeforeReading() throws {
        let path = NSTemporaryDirectory() + "haptics-pattern-\(UInt32.random(in: 0...UInt32.max)).ahap"
        try Data(repeating: 0x20, count: 2048).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var limits = PatternLimits.default
        limits.maximumFileSize = 1024
        do {
            _ = try decodePattern(contentsOf: path, limits: limits)
            Issue.record("a file over the limit decoded")
        } catch {
            #expect(error.description == "\(path): the file is 2048 bytes, more than the limit of 1024 bytes")
        }
    }

    @Test func missingFile() {
        do {
            _ = try decodePattern(contentsOf: "/nonexistent/x.ahap")
            Issue.record("a missing file decoded")
        } catch {
            #expect(error.description == "/nonexistent/x.ahap: cannot open the file: No such file or directory")
        }
    }

    @Test func directoryIsNotAPatternFile() {
        do {
            _ = try decodePattern(contentsOf: NSTemporaryDirectory())
            Issue.record("a directory decoded")
        } catch {
            #expect(error.description == "\(NSTemporaryDirectory()): not a regular file")
        }
    }

    @Test func diagnosticDescriptions() {
        let error = PatternError(file: "x.ahap", line: 12, column: 7, path: "Pattern[3].Event.EventDuration", message: "expected a number ≥ 0, found \"abc\"")
        #expect(error.description == "x.ahap:12:7: Pattern[3].Event.EventDuration: expected a number ≥ 0, found \"abc\"")
        let warning = PatternDiagnostic(file: "x.ahap", line: 4, column: 30, path: "Pattern[0].Event.Foo", message: "unknown key ignored")
        #expect(warning.description == "x.ahap:4:30: warning: Pattern[0].Event.Foo: unknown key ignored")
    }
}
