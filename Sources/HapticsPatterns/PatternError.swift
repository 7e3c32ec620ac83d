import HapticsSystem

/// Why a pattern file was rejected, located in the file.
///
/// `description` reads like a compiler diagnostic, so editors and terminals can jump to it:
/// `x.ahap:12:7: Pattern[3].Event.EventDuration: expected a number ≥ 0, found "abc"`. The fields hold
/// the file's text as it is; `description` escapes what a terminal would act on (`PrintableText`).
public struct PatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the decoder.
    public var file: String
    /// The 1-based line of the offending value; 0 when the problem concerns the whole file.
    public var line: Int
    /// The 1-based column of the offending value; 0 when the problem concerns the whole file.
    public var column: Int
    /// The JSON path of the offending value (`Pattern[3].Event.EventDuration`); empty for syntax errors.
    public var path: String
    /// What was expected and what was found.
    public var message: String
    /// Why the file could not be read, when that is the problem (`message` says it too); `nil`
    /// for a file that was read and rejected.
    public var readError: FileReadError?

    /// Creates an error.
    public init(file: String, line: Int, column: Int, path: String, message: String, readError: FileReadError? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
        self.readError = readError
    }

    /// `file:line:column: path: message` (location and path omitted when absent), outside text escaped.
    public var description: String {
        PatternDiagnostic.format(file: file, line: line, column: column, severity: nil, path: path, message: message)
    }
}
