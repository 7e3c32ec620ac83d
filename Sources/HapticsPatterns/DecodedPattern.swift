/// A decoded pattern and the warnings its source produced.
public struct DecodedPattern: Sendable, Hashable {
    /// The pattern.
    public var pattern: Pattern
    /// Everything that was accepted only after clamping, ignoring or tolerating, in source order.
    public var warnings: [PatternDiagnostic]

    /// Creates a decoded pattern.
    public init(pattern: Pattern, warnings: [PatternDiagnostic] = []) {
        self.pattern = pattern
        self.warnings = warnings
    }
}
