#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and decodes the AHAP file at `path`, checking its size before reading it.
///
/// Diagnostics name the file by `path` as given. A file that cannot be read, or that is larger than
/// `limits.maximumFileSize`, is a `PatternError` without a line and column (`x.ahap: …`).
public func decodePattern(
    contentsOf path: String, limits: PatternLimits = .default
) throws(PatternError) -> DecodedPattern {
    let bytes = try readPatternFile(path, maximumSize: limits.maximumFileSize)
    return try AHAPDecoder(limits: limits).decode(bytes, fileName: path)
}

/// The bytes of the file at `path`, refusing files larger than `maximumSize` before reading them.
func readPatternFile(_ path: String, maximumSize: Int) throws(PatternError) -> [UInt8] {
    func failure(_ message: String) -> PatternError {
        PatternError(file: path, line: 0, column: 0, path: "", message: message)
    }
    func systemFailure(_ call: String) -> PatternError {
        failure("cannot \(call) the file: \(String(cString: strerror(errno)))")
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw systemFailure("open") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw systemFailure("inspect") }
    guard (status.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
    let size = Int(status.st_size)
    if size > maximumSize {
        throw failure("the file is \(size) bytes, more than the limit of \(maximumSize) bytes")
    }
    // Room for one byte more than the size, to notice a file that grows while it is read.
    var bytes = [UInt8](repeating: 0, count: size + 1)
    var filled = 0
    while filled < bytes.count {
        let count = bytes.withUnsafeMutableBytes { buffer in
            read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        }
        if count < 0 {
            if errno == EINTR { continue }
            throw systemFailure("read")
        }
        if count == 0 { break }
        filled += count
    }
    if filled > size { throw failure("the file changed while it was read") }
    bytes.removeSubrange(filled...)
    return bytes
}
