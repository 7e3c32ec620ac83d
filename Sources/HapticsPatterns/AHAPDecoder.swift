/// Reads Apple Haptic and Audio Pattern (AHAP) files into a `Pattern`.
///
/// Follows Apple's rules (missing keys take defaults, out-of-range values are clamped, unknown keys
/// are ignored) and reports each of those as a located warning. Wrong types, missing required keys,
/// negative times and exceeded limits are located `PatternError`s. The accepted dialect is described
/// in `docs/reference/patterns.md`.
public struct AHAPDecoder: Sendable {
    /// The bounds applied while decoding.
    public var limits: PatternLimits

    /// Creates a decoder with the given limits.
    public init(limits: PatternLimits = .default) {
        self.limits = limits
    }

    /// Decodes AHAP bytes (UTF-8, optionally with a byte order mark).
    ///
    /// - Parameter fileName: the name diagnostics start with (`x.ahap:12:7: …`).
    public func decode(_ bytes: [UInt8], fileName: String) throws(PatternError) -> DecodedPattern {
        let (root, warnings) = try PatternJSON.parse(bytes, fileName: fileName, limits: limits)
        return try decode(root, fileName: fileName, warnings: warnings)
    }

    /// Decodes an already parsed document (format recognition parses once).
    func decode(_ root: JSONValue, fileName: String, warnings: [PatternDiagnostic]) throws(PatternError) -> DecodedPattern {
        var session = AHAPDecodingSession(fileName: fileName, limits: limits, warnings: warnings)
        let pattern = try session.decodePattern(root)
        return DecodedPattern(pattern: pattern, warnings: session.warnings, waveformPathLocations: session.waveformPathLocations)
    }

    /// Decodes AHAP text.
    public func decode(_ text: String, fileName: String) throws(PatternError) -> DecodedPattern {
        try decode(Array(text.utf8), fileName: fileName)
    }
}
