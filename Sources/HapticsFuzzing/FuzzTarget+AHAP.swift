import HapticsPatterns

extension FuzzTarget {
    /// The AHAP decoder of `HapticsPatterns`, on bytes as a pattern file holds them.
    ///
    /// Beyond not crashing, a pattern that decodes must survive the round trip the decoder
    /// promises: encoded by `AHAPEncoder` and decoded again, it is the same pattern.
    public static let ahap = FuzzTarget(
        name: "ahap",
        summary: "AHAP pattern decoder (HapticsPatterns): bytes → Pattern; decode → encode → decode is the identity",
        seedSources: [
            .files(folder: "Patterns", suffix: ".ahap"),
            .files(folder: "Tests/FuzzSeeds/ahap", suffix: ""),
            .files(folder: "Tests/FuzzSeeds/bundle", suffix: ".ahap"),
        ],
        body: { input, _ in decodeAHAP(input) })

    /// Decodes `input`; when it decodes, checks that encoding and decoding again gives it back.
    static func decodeAHAP(_ input: [UInt8]) {
        let decoded: DecodedPattern
        do {
            decoded = try AHAPDecoder().decode(input, fileName: "fuzz.ahap")
        } catch {
            _ = error.description   // errors are printed: their text must be sound too
            return
        }
        for warning in decoded.warnings { _ = warning.description }
        let text = AHAPEncoder().encode(decoded.pattern)
        // The encoder's indentation can take a file just under the size limit over it.
        var limits = PatternLimits.default
        limits.maximumFileSize = .max
        do {
            let again = try AHAPDecoder(limits: limits).decode(text, fileName: "fuzz.ahap")
            precondition(again.pattern == decoded.pattern,
                         "decode → encode → decode changed the pattern; the encoder wrote:\n\(text)")
        } catch {
            preconditionFailure("the encoder wrote a file the decoder refuses (\(error)):\n\(text)")
        }
    }
}
