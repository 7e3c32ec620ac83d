/// A decoded pattern, the format it was read from and the warnings its source produced.
public struct DecodedPattern: Sendable, Hashable {
    /// The pattern.
    public var pattern: Pattern
    /// Everything that was accepted only after clamping, ignoring or tolerating, in source order.
    public var warnings: [PatternDiagnostic]
    /// The format the source was written in.
    public var format: PatternFormat

    /// Creates a decoded pattern.
    public init(pattern: Pattern, warnings: [PatternDiagnostic] = [], format: PatternFormat = .ahap) {
        self.pattern = pattern
        self.warnings = warnings
        self.format = format
    }
}
