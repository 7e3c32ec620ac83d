/// A parsed JSON value that remembers where it starts in the source.
///
/// Foundation's JSON reader drops locations; every AHAP diagnostic needs them.
struct JSONValue: Sendable, Hashable {
    /// The value's content.
    enum Content: Sendable, Hashable {
        case null
        case bool(Bool)
        /// A number and its source text (kept to quote it exactly in diagnostics).
        case number(Double, text: String)
        case string(String)
        case array([JSONValue])
        case object([JSONMember])
    }

    /// The value's content.
    var content: Content
    /// Where the value's first character is.
    var location: SourceLocation

    /// How a diagnostic names this value after "found".
    var foundDescription: String {
        switch content {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(_, let text): return text
        case .string(let text): return JSONString.quoted(text)
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
