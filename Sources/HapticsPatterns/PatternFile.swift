import HapticsSystem

/// Reads and decodes the pattern file at `path` — AHAP or a `.haptic` clip, recognised by its
/// content (`PatternFormat`) — checking its size before reading it.
///
/// Diagnostics name the file by `path` as given. A file that cannot be read, or that is larger than
/// `limits.maximumFileSize`, is a `PatternError` without a line and column (`x.ahap: …`). The file
/// is opened once, without blocking (a FIFO or a device node is refused, never waited on), and
/// checked and read through that one descriptor. A feedbackd theme holds many patterns, one per
/// event, so it is refused here with an error that says so.
public func decodePattern(
    contentsOf path: String, limits: PatternLimits = .default
) throws(PatternError) -> DecodedPattern {
    let bytes = try readPatternFile(path, maximumSize: limits.maximumFileSize)
    return try decodePattern(bytes, fileName: path, limits: limits)
}

/// Decodes pattern bytes in whichever format they are written (`PatternFormat.recognize`).
///
/// - Parameter fileName: the name diagnostics start with.
public func decodePattern(
    _ bytes: [UInt8], fileName: String, limits: PatternLimits = .default
) throws(PatternError) -> DecodedPattern {
    let (root, warnings) = try PatternJSON.parse(bytes, fileName: fileName, limits: limits)
    switch PatternFormat.recognize(root) {
    case .ahap:
        return try AHAPDecoder(limits: limits).decode(root, fileName: fileName, warnings: warnings)
    case .hapticClip:
        return try HapticClipDecoder(limits: limits).decode(root, fileName: fileName, warnings: warnings)
    case .feedbackdTheme:
        throw PatternError(
            file: fileName, line: root.location.line, column: root.location.column, path: "",
            message: "a feedbackd theme holds one pattern per event; name the event to read")
    }
}

/// The bytes of the file at `path`, refusing files larger than `maximumSize` before reading them.
func readPatternFile(_ path: String, maximumSize: Int) throws(PatternError) -> [UInt8] {
    do {
        return try FileDescriptor.readContents(ofFile: path, maximumSize: maximumSize)
    } catch {
        throw PatternError(file: path, line: 0, column: 0, path: "", message: error.description, readError: error)
    }
}
