/// A position in a source file: 1-based line and column.
///
/// Columns count Unicode scalars, so a column matches what an editor shows for UTF-8 text
/// (a tab counts as one column).
public struct SourceLocation: Sendable, Hashable, Comparable {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file.
    public static let start = SourceLocation(line: 1, column: 1)

    /// Orders locations as they appear in the file.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
