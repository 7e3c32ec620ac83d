/// A regular file found inside a ``ConfinedFolder``, held by an `O_PATH` descriptor: it names the
/// file without having opened it for reading. Closed when the value goes away.
package struct ConfinedFile: ~Copyable {
    /// The `O_PATH` descriptor.
    package let descriptor: FileDescriptor
    /// Where the kernel found the file (``FileDescriptor/path()``), inside the folder; two names
    /// that lead to one file (a link inside the folder) give the same path.
    package let path: [UInt8]

    init(descriptor: FileDescriptor, path: [UInt8]) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { try? descriptor.close() }

    /// The file's bytes, refusing more than `maximumSize`: the file this value holds is opened for
    /// reading through `/proc/self/fd/N` (its descriptor, never its name), `O_RDONLY | O_CLOEXEC |
    /// O_NONBLOCK | O_NOCTTY`, then checked and read as
    /// ``FileDescriptor/readContents(maximumSize:)`` does.
    ///
    /// The corresponding C functions are `open`, `fstat`, `read` and `close`.
    package func readContents(maximumSize: Int) throws(FileReadError) -> [UInt8] {
        let reading: FileDescriptor
        do {
            reading = try FileDescriptor.open("/proc/self/fd/\(descriptor.rawValue)", .readOnly,
                                              options: [.closeOnExec, .nonBlocking, .noControllingTerminal])
        } catch {
            throw .systemCall(error)
        }
        defer { try? reading.close() }
        return try reading.readContents(maximumSize: maximumSize)
    }
}
