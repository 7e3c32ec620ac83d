import HapticsSystem

/// Reads and decodes the AHAP file at `path`, checking its size before reading it.
///
/// Diagnostics name the file by `path` as given. A file that cannot be read, or that is larger than
/// `limits.maximumFileSize`, is a `PatternError` without a line and column (`x.ahap: …`). The file
/// is opened once, without blocking (a FIFO or a device node is refused, never waited on), and
/// checked and read through that one descriptor.
public func decodePattern(
    contentsOf path: String, limits: PatternLimits = .default
) throws(PatternError) -> DecodedPattern {
    let bytes = try readPatternFile(path, maximumSize: limits.maximumFileSize)
    return try AHAPDecoder(limits: limits).decode(bytes, fileName: path)
}

/// The bytes of the file at `path`, refusing files larger than `maximumSize` before reading them.
func readPatternFile(_ path: String, maximumSize: Int) throws(PatternError) -> [UInt8] {
    do {
        return try FileDescriptor.readContents(ofFile: path, maximumSize: maximumSize)
    } catch {
        throw PatternError(file: path, line: 0, column: 0, path: "", message: error.description, readError: error)
    }
}
