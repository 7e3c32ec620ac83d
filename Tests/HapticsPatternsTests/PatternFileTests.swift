import Testing
@testable import HapticsPatterns
import HapticsTestSupport

@Suite("Reading pattern files")
struct PatternFileTests {
    @Test func decodesACanonicalFileByPath() throws {
        let path = Repository.root + "/Patterns/impact-rigid.ahap"
        let decoded = try decodePattern(contentsOf: path)
        #expect(decoded.pattern == Feedback.impact(.rigid).canonicalPattern)
        #expect(decoded.warnings == [])
    }

    @Test func errorsNameThePathAsGiven() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/pattern.ahap"
        try folder.write(#"{"Pattern": [{"Event": {"Time": 0}}]}"#, to: "pattern.ahap")
        #expect(throws: PatternError(file: path, line: 1, column: 24, path: "Pattern[0].Event", message: "missing required key \"EventType\"")) {
            try decodePattern(contentsOf: path)
        }
    }

    @Test func sizeIsCheckedBeforeReading() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/pattern.ahap"
        try folder.write([UInt8](repeating: 0x20, count: 2048), to: "pattern.ahap")
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

    @Test func directoryIsNotAPatternFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            _ = try decodePattern(contentsOf: folder.path)
            Issue.record("a directory decoded")
        } catch {
            #expect(error.description == "\(folder.path): not a regular file")
        }
    }

    @Test func diagnosticDescriptions() {
        let error = PatternError(file: "x.ahap", line: 12, column: 7, path: "Pattern[3].Event.EventDuration", message: "expected a number ≥ 0, found \"abc\"")
        #expect(error.description == "x.ahap:12:7: Pattern[3].Event.EventDuration: expected a number ≥ 0, found \"abc\"")
        let warning = PatternDiagnostic(file: "x.ahap", line: 4, column: 30, path: "Pattern[0].Event.Foo", message: "unknown key ignored")
        #expect(warning.description == "x.ahap:4:30: warning: Pattern[0].Event.Foo: unknown key ignored")
    }
}
