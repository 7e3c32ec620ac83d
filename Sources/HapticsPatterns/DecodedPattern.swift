/// A decoded pattern, the format it was read from and the warnings its source produced.
public struct DecodedPattern: Sendable, Hashable {
    /// The pattern.
    public var pattern: Pattern
    /// Everything that was accepted only after clamping, ignoring or tolerating, in source order.
    public var warnings: [PatternDiagnostic]
    /// The format the source was written in.
    public var format: PatternFormat
    /// Where each event's `EventWaveformPath` value is in the source, by the event's index in
    /// `pattern.events`: what a sound that cannot be loaded is located at (AHAP only).
    public var waveformPathLocations: [Int: SourceLocation]

    /// Creates a decoded pattern.
    public init(pattern: Pattern, warnings: [PatternDiagnostic] = [], format: PatternFormat = .ahap,
                waveformPathLocations: [Int: SourceLocation] = [:]) {
        self.pattern = pattern
        self.warnings = warnings
        self.format = format
        self.waveformPathLocations = waveformPathLocations
    }
}
