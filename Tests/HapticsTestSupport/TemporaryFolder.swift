import Glibc
import HapticsSystem

/// A fresh folder for the files a test writes, under `$TMPDIR` (else `/tmp`), removed with everything
/// in it by `remove()`, or at the latest when the last reference to it goes away.
///
/// `mkdtemp` names it, so tests running in parallel never share a folder, and only the user running
/// the tests can enter it. Written on the C calls, so the support library needs no Foundation.
public final class TemporaryFolder: Sendable {
    /// The folder's absolute path, without a trailing slash.
    public let path: String

    /// Creates the folder, named `prefix` and six random characters.
    ///
    /// The corresponding C function is `mkdtemp`.
    public init(prefix: String = "haptics-tests") throws(SystemCallError) {
        var parent = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        while parent.hasSuffix("/") { parent.removeLast() }
        if parent.isEmpty { parent = "/tmp" }
        var template = Array("\(parent)/\(prefix).XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        guard let created else { throw SystemCallError(call: "mkdtemp", errno: Errno(rawValue: errno)) }
        path = created
    }

    /// Writes `bytes` to the file `name`, a path relative to the folder (`"sounds/hit.wav"`), creating
    /// the folders on the way; an existing file is replaced.
    ///
    /// The corresponding C functions are `mkdir`, `open`, `write`, `fsync`, `close` and `rename`.
    public func write(_ bytes: [UInt8], to name: String) throws(SystemCallError) {
        var folder = path
        for component in name.split(separator: "/").dropLast() {
            folder += "/" + component
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw SystemCallError(call: "mkdir", errno: Errno(rawValue: errno))
            }
        }
        try FileDescriptor.writeContents(bytes, toFile: path + "/" + name)
    }

    /// Writes `text`, UTF-8 encoded, to the file `name`, as the bytes are written above.
    public func write(_ text: String, to name: String) throws(SystemCallError) {
        try write(Array(text.utf8), to: name)
    }

    /// Removes the folder and everything in it; symbolic links are removed, never followed. Does
    /// nothing when the folder is gone already.
    ///
    /// The corresponding C functions are `open`, `fdopendir`, `readdir`, `unlink` and `rmdir`.
    public func remove() {
        Self.removeTree(at: path)
    }

    deinit { remove() }

    /// Removes `path` and, when it is a folder (not a link to one), everything in it first.
    private static func removeTree(at path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            _ = unlink(path)
            return
        }
        guard let folder = fdopendir(descriptor) else {
            _ = close(descriptor)
            return
        }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { removeTree(at: path + "/" + name) }
        }
        _ = closedir(folder)  // Closes the descriptor too.
        _ = rmdir(path)
    }
}
