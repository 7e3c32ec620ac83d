/// A warning about a pattern file that was accepted anyway (a value clamped, a key ignored, a leniency used).
///
/// `description` reads `x.ahap:4:30: warning: Pattern[0].Event.Foo: unknown key ignored`.
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

    /// `file:line:column: warning: path: message`.
    public var description: String {
        Self.format(file: file, line: line, column: column, severity: "warning", path: path, message: message)
    }

    /// The one place the diagnostic layout is defined, shared with `PatternError`.
    static func format(file: String, line: Int, column: Int, severity: String?, path: String, message: String) -> String {
        var text = file + ":"
        if line > 0 { text += "\(line):\(column):" }
        if let severity { text += " \(severity):" }
        if !path.isEmpty { text += " \(path):" }
        return text + " " + message
    }
}
