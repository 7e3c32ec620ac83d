import HapticsSystem

/// A warning about a pattern file that was accepted anyway (a value clamped, a key ignored, a leniency used).
///
/// `description` reads `x.ahap:4:30: warning: Pattern[0].Event.Foo: unknown key ignored`. The fields
/// hold the file's text as it is (a key in `path`, a quoted value in `message`); `description`
/// escapes what a terminal would act on (`PrintableText`), so printing it is safe whatever the file holds.
public struct PatternDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The file name as given to the decoder.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int
    /// The JSON path of the value concerned; empty for syntax-level warnings.
    public var path: String
    /// What was accepted and how.
    public var message: String

    /// Creates a warning.
    public init(file: String, line: Int, column: Int, path: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }

    /// `file:line:column: warning: path: message`, outside text escaped.
    public var description: String {
        Self.format(file: file, line: line, column: column, severity: "warning", path: path, message: message)
    }

    /// The one place the diagnostic layout is defined, shared with `PatternError`. The file name,
    /// the path (it holds the file's keys) and the message (it quotes the file's values) are all
    /// outside text, escaped for the terminal.
    static func format(file: String, line: Int, column: Int, severity: String?, path: String, message: String) -> String {
        var text = PrintableText.escaped(file) + ":"
        if line > 0 { text += "\(line):\(column):" }
        if let severity { text += " \(severity):" }
        if !path.isEmpty { text += " \(PrintableText.escaped(path)):" }
        return text + " " + PrintableText.escaped(message)
    }
}
