/// Reads Meta Haptics Studio / Lofelt `.haptic` clips (data model version 1) into a `Pattern`.
///
/// A clip is one continuous signal: an amplitude envelope (breakpoints of time and amplitude, some
/// with an *emphasis*) and an optional frequency envelope. It becomes:
/// - one `HapticContinuous` event per stretch where the amplitude is not zero;
/// - when every such stretch is flat (one amplitude, one frequency), the level and frequency on the
///   events themselves (`HapticIntensity`, `HapticSharpness`); otherwise events at intensity 1 and
///   sharpness 0 shaped by `HapticIntensityControl` and `HapticSharpnessControl` curves that follow
///   the envelopes point by point (split into curves of at most `limits.recommendedControlPointsPerCurve`
///   points, as Core Haptics wants them);
/// - one `HapticTransient` per emphasis, at its breakpoint's time, with the emphasis amplitude as
///   intensity and its frequency as sharpness.
///
/// Errors are located `PatternError`s (file:line:column and a JSON path): a major version other
/// than 1, a missing `signals` or amplitude envelope, wrong types, breakpoints out of time order.
/// Untidy exports are read as their authors meant them: breakpoints sharing a time are a step,
/// envelopes may start late or at different times, the frequency envelope may be empty or absent,
/// numbers may use exponent notation. The mapping is described in `docs/reference/formats.md`.
public struct HapticClipDecoder: Sendable {
    /// The bounds applied while decoding (`maximumEventCount` bounds the breakpoints of each envelope).
    public var limits: PatternLimits

    /// Creates a decoder with the given limits.
    public init(limits: PatternLimits = .default) {
        self.limits = limits
    }

    /// Decodes `.haptic` bytes (UTF-8 JSON, optionally with a byte order mark).
    ///
    /// - Parameter fileName: the name diagnostics start with (`x.haptic:12:7: …`).
    public func decode(_ bytes: [UInt8], fileName: String) throws(PatternError) -> DecodedPattern {
        let (root, warnings) = try PatternJSON.parse(bytes, fileName: fileName, limits: limits)
        return try decode(root, fileName: fileName, warnings: warnings)
    }

    /// Decodes `.haptic` text.
    public func decode(_ text: String, fileName: String) throws(PatternError) -> DecodedPattern {
        try decode(Array(text.utf8), fileName: fileName)
    }

    /// Decodes an already parsed document (format recognition parses once).
    func decode(_ root: JSONValue, fileName: String, warnings: [PatternDiagnostic]) throws(PatternError) -> DecodedPattern {
        var session = HapticClipDecodingSession(fileName: fileName, limits: limits, warnings: warnings)
        let pattern = try session.decodePattern(root)
        return DecodedPattern(pattern: pattern, warnings: session.warnings, format: .hapticClip)
    }
}
