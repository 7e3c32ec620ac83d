/// Why a whole file could not be read (see ``FileDescriptor/readContents(ofFile:maximumSize:followingSymbolicLinks:)``).
///
/// The descriptions are phrased to follow a file name: `x.ahap: not a regular file`.
public enum FileReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed: `open` (missing, no permission, a symbolic link refused…), `fstat` or `read`.
    case systemCall(SystemCallError)
    /// The path names a folder, a FIFO, a device or a socket.
    case notRegularFile
    /// The file is larger than the limit the reader set.
    case tooLarge(size: Int, limit: Int)
    /// The file grew while it was being read.
    case changedWhileReading
    /// The name led, through a symbolic link, to a file outside the folder it was to be read from
    /// (see ``ConfinedFolder``); `path` is where the kernel found it, as bytes.
    case outsideFolder(path: [UInt8])

    /// For example `cannot open the file: No such file or directory`; a path in it is escaped
    /// for the terminal (``PrintableText``).
    public var description: String {
        switch self {
        case let .systemCall(error):
            let verb = switch error.call {
            case "fstat": "inspect"
            case "openat": "open"
            case "readlink": "locate"
            default: error.call
            }
            return "cannot \(verb) the file: \(error.errno.message)"
        case .notRegularFile:
            return "not a regular file"
        case let .tooLarge(size, limit):
            return "the file is \(size) bytes, more than the limit of \(limit) bytes"
        case .changedWhileReading:
            return "the file changed while it was read"
        case let .outsideFolder(path):
            return "the file is outside the folder, at \(PrintableText.escaped(bytes: path))"
        }
    }
}
