import Glibc

/// Whole files, read and written in one bounded step.
extension FileDescriptor {
    /// The bytes of the regular file at `path`, refusing files larger than `maximumSize`.
    ///
    /// The file is opened once, `O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY` (so a FIFO or a device
    /// node never blocks the open, and a terminal never becomes the process's controlling terminal),
    /// plus `O_NOFOLLOW` unless `followingSymbolicLinks`; everything after that is
    /// checked on the open descriptor, never on the name again: it must be a regular file of at most
    /// `maximumSize` bytes, and it is read from that descriptor with a buffer one byte larger than its
    /// size, so a file that grows while it is read is noticed instead of read without bound.
    ///
    /// The corresponding C functions are `open`, `fstat`, `read` and `close`.
    package static func readContents(
        ofFile path: String, maximumSize: Int, followingSymbolicLinks: Bool = true
    ) throws(FileReadError) -> [UInt8] {
        var options: OpenOptions = [.closeOnExec, .nonBlocking, .noControllingTerminal]
        if !followingSymbolicLinks { options.insert(.noFollow) }
        let descriptor: FileDescriptor
        do {
            descriptor = try open(path, .readOnly, options: options)
        } catch {
            throw .systemCall(error)
        }
        defer { try? descriptor.close() }
        return try descriptor.readContents(maximumSize: maximumSize)
    }

    /// The bytes of the regular file open on this descriptor, from its current offset, refusing files
    /// larger than `maximumSize`. See ``readContents(ofFile:maximumSize:followingSymbolicLinks:)``.
    ///
    /// The corresponding C functions are `fstat` and `read`.
    package func readContents(maximumSize: Int) throws(FileReadError) -> [UInt8] {
        var status = stat()
        do {
            _ = try _SystemCall.run("fstat", fileDescriptor: rawValue) { Int(fstat(rawValue, &status)) }
        } catch {
            throw .systemCall(error)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .notRegularFile }
        let size = Int(status.st_size)
        guard size <= maximumSize else { throw .tooLarge(size: size, limit: maximumSize) }
        // Room for one byte more than the size, to notice a file that grows while it is read.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                _SystemCall.perform("read", fileDescriptor: rawValue) {
                    Glibc.read(rawValue, buffer.baseAddress! + filled, buffer.count - filled)
                }
            }
            let count: Int
            switch result {
            case .success(let value): count = value
            case .failure(let errno): throw .systemCall(SystemCallError(call: "read", errno: errno))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= size else { throw .changedWhileReading }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Replaces the file at `path` with `bytes` atomically: they are written to a new file beside
    /// it, which is then renamed over `path`, so a reader sees the old file or the whole new one,
    /// never a part. The new file gets `permissions` (less the umask).
    ///
    /// The corresponding C functions are `open`, `write`, `fsync`, `close` and `rename`.
    package static func writeContents(
        _ bytes: [UInt8], toFile path: String, permissions: mode_t = 0o644
    ) throws(SystemCallError) {
        let temporary = path + ".partial-\(getpid())"
        let descriptor = try open(temporary, .writeOnly, options: [.closeOnExec, .create, .exclusive, .noFollow],
                                  permissions: permissions)
        var failure: Errno?
        var written = 0
        while written < bytes.count, failure == nil {
            let result = bytes.withUnsafeBytes { buffer in
                _SystemCall.perform("write", fileDescriptor: descriptor.rawValue) {
                    Glibc.write(descriptor.rawValue, buffer.baseAddress! + written, buffer.count - written)
                }
            }
            switch result {
            case .success(let count): written += count
            case .failure(let errno): failure = errno
            }
        }
        if let failure {
            try? descriptor.close()
            _ = unlink(temporary)
            throw SystemCallError(call: "write", errno: failure)
        }
        do {
            _ = try _SystemCall.run("fsync", fileDescriptor: descriptor.rawValue) { Int(fsync(descriptor.rawValue)) }
            try descriptor.close()
        } catch {
            try? descriptor.close()
            _ = unlink(temporary)
            throw error
        }
        do {
            _ = try _SystemCall.run("rename", fileDescriptor: -1) { Int(rename(temporary, path)) }
        } catch {
            _ = unlink(temporary)
            throw error
        }
    }
}
