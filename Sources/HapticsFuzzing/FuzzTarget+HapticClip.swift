import HapticsPatterns

extension FuzzTarget {
    /// The `.haptic` clip decoder of `HapticsPatterns`, on bytes as a clip file holds them.
    ///
    /// Beyond not crashing, a clip that decodes must survive what `haptics convert` does with it:
    /// encoded as a clip, it decodes again without an error or a warning, and encoding that gives
    /// the same text (the encoder's output is its own fixed point).
    public static let hapticClip = FuzzTarget(
        name: "haptic",
        summary: ".haptic clip decoder (HapticsPatterns): bytes → Pattern; encode → decode → encode is stable",
        seedSources: [
            .files(folder: "Tests/FuzzSeeds/haptic", suffix: ""),
        ],
        body: { input, _ in decodeHapticClip(input) })

    /// Decodes `input`; when it decodes, checks the clip encoder's round trip.
    static func decodeHapticClip(_ input: [UInt8]) {
        let decoded: DecodedPattern
        do {
            decoded = try HapticClipDecoder().decode(input, fileName: "fuzz.haptic")
        } catch {
            _ = error.description   // errors are printed: their text must be sound too
            return
        }
        for warning in decoded.warnings { _ = warning.description }
        let text = HapticClipEncoder().encode(decoded.pattern)
        // The encoder writes more breakpoints than a terse clip holds, and refinement may add some.
        var limits = PatternLimits.default
        limits.maximumFileSize = .max
        limits.maximumEventCount = .max
        do {
            let again = try HapticClipDecoder(limits: limits).decode(text, fileName: "fuzz.haptic")
            precondition(again.warnings.isEmpty, "the encoder wrote a clip the decoder warns about (\(again.warnings)):\n\(text)")
            let twice = HapticClipEncoder().encode(again.pattern)
            precondition(twice == text, "encode → decode → encode changed the clip; first:\n\(text)\nthen:\n\(twice)")
        } catch {
            preconditionFailure("the encoder wrote a clip the decoder refuses (\(error)):\n\(text)")
        }
    }
}
